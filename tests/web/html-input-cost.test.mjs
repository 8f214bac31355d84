// What an HTML input costs in the placement of its inline elements (web/html/segment.js): a
// paragraph with thousands of links, spans or a span per letter must cost about in proportion to
// its length, not its square. The stand-in translator keeps every word, so the engine's time is out
// of it; the work is measured as processor time, eight times the input against once (linear: about
// eight times, quadratic: sixty-four).
import test from 'node:test';
import assert from 'node:assert/strict';
import { translateHtml } from '../../web/html/translate-html.js';
import { fakeTranslator, assertBalanced } from './html-fake.mjs';

async function placementSeconds(html) {
  let least = Infinity;
  for (let run = 0; run < 3; run++) {
    const start = process.cpuUsage();
    const out = await translateHtml(fakeTranslator('same'), html);
    const used = process.cpuUsage(start);
    least = Math.min(least, (used.user + used.system) / 1e6);
    assertBalanced(out.text);
  }
  return least;
}

const paragraphs = {
  'a link in every sentence': (n) => '<p>' + 'See <a href="#x">this link</a> now. '.repeat(n) + '</p>',
  'an inline element around every word of one sentence': (n) => '<p>' + '<i>big</i> '.repeat(n) + '</p>',
  'a span around every letter of one word': (n) => '<p>' + '<span>a</span>'.repeat(n) + '</p>',
};

for (const [name, paragraph] of Object.entries(paragraphs)) {
  test(`HTML input cost: ${name} grows linearly with the count`, { timeout: 300000 }, async () => {
    const once = Math.max(await placementSeconds(paragraph(500)), 0.05);
    const eightTimes = await placementSeconds(paragraph(4000));
    assert.ok(eightTimes < 24 * once, `500: ${once.toFixed(3)} s, 4000: ${eightTimes.toFixed(3)} s`);
  });
}

test('HTML input cost: every letter of a word of 4,000 spans comes back', async () => {
  const out = await translateHtml(fakeTranslator('same'), '<p>' + '<span>a</span>'.repeat(4000) + '</p>');
  assert.equal(out.text.replace(/<[^>]*>/g, ''), 'a'.repeat(4000));
});
