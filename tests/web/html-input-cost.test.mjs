// What an HTML input costs in the placement of its inline elements (web/html/segment.js): a
// paragraph with thousands of links, spans or a span per letter must cost about in proportion to
// its length, not its square. The stand-in translator keeps every word, so the engine's time is out
// of it. Its time (8x the count against once) is measured by scripts/bench-input-cost.mjs (npm run
// bench:input-cost); here, that such paragraphs come back whole and balanced.
import test from 'node:test';
import assert from 'node:assert/strict';
import { translateHtml } from '../../web/html/translate-html.js';
import { fakeTranslator, assertBalanced } from './html-fake.mjs';

const paragraphs = {
  'a link in every sentence': (n) => '<p>' + 'See <a href="#x">this link</a> now. '.repeat(n) + '</p>',
  'an inline element around every word of one sentence': (n) => '<p>' + '<i>big</i> '.repeat(n) + '</p>',
  'a span around every letter of one word': (n) => '<p>' + '<span>a</span>'.repeat(n) + '</p>',
};

for (const [name, paragraph] of Object.entries(paragraphs)) {
  test(`HTML input cost: ${name}, 4,000 times, comes back balanced with its text`, async () => {
    const html = paragraph(4000);
    const out = await translateHtml(fakeTranslator('same'), html);
    assertBalanced(out.text);
    const text = (h) => h.replace(/<[^>]*>/g, '').replace(/\s+/g, ' ').trim();
    assert.equal(text(out.text), text(html));
  });
}

test('HTML input cost: every letter of a word of 4,000 spans comes back', async () => {
  const out = await translateHtml(fakeTranslator('same'), '<p>' + '<span>a</span>'.repeat(4000) + '</p>');
  assert.equal(out.text.replace(/<[^>]*>/g, ''), 'a'.repeat(4000));
});
