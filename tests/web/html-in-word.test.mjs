// Several inline elements inside one word ("<b>x</b><i>y</i><u>z</u>", a span per letter, an
// element in the middle of a word): each goes back on its own letters, none written twice or left
// empty, when the model writes the word unchanged (the stand-in translator keeps every word).
import test from 'node:test';
import assert from 'node:assert/strict';
import { translateHtml } from '../../web/html/translate-html.js';
import { fakeTranslator, assertBalanced } from './html-fake.mjs';

const unchanged = [
  '<p><b>x</b><i>y</i><u>z</u> w</p>',
  '<p><b>Java</b><i>Sc</i>ript runs here.</p>',
  '<p>The <b>un</b>believ<i>able</i> story.</p>',
  '<p>' + '<span>a</span>'.repeat(50) + ' and more.</p>',
];

for (const html of unchanged) {
  test(`elements inside a word keep their letters: ${html.slice(0, 60)}`, async () => {
    const out = await translateHtml(fakeTranslator('same'), html);
    assertBalanced(out.text);
    assert.equal(out.text, html);
    assert.equal(out.lost, 0);
  });
}
