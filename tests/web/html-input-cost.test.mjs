// What an HTML input costs in the placement of its inline elements (web/html/segment.js): a
// paragraph with thousands of links, spans or a span per letter must cost about in proportion to
// its length, not its square. The stand-in translator keeps every word, so the engine's time is out
// of it. Its time (8x the count against once) is measured by scripts/bench-input-cost.mjs (npm run
// bench:input-cost); here, that such paragraphs come back whole and balanced.
import test from 'node:test';
import assert from 'node:assert/strict';
import { translateHtml } from '../../web/html/translate-html.js';
import { fakeTranslator, assertBalanced } from './html-fake.mjs';
import { parseHtml, decodeEntities } from '../../web/html/tokenize.js';
import { buildSegment, placeSegment } from '../../web/html/segment.js';

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

// A paragraph with images and code in every sentence, read and placed straight through segment.js.
// The work is counted as reads of the sentences' source ranges (the engine's result), never timed:
// finding the sentence an image stands in looked through every sentence before it (4,000 sentences:
// 64x the reads of 500).

async function rangeReads(n) {
  const html = 'See <img src="x.png"> this <code>x</code> now. <br>'.repeat(n);
  const root = parseHtml(html);
  const a = {
    kind: (node) => (node.type === 'root' ? 'element' : node.type),
    name: (node) => node.name || '#root',
    attr: (node, name) => ((node.attrs || []).find((x) => x.name === name) || { value: null }).value,
    children: (node) => node.children || [],
    text: (node) => decodeEntities(html.slice(node.start, node.end)),
  };
  const seg = buildSegment(root.children, a);
  const { sentences } = await fakeTranslator('same').translate(seg.text);
  let reads = 0;
  for (const s of sentences) {
    const range = s.sourceRange;
    Object.defineProperty(s, 'sourceRange', { get: () => { reads += 1; return range; } });
  }
  const placed = placeSegment(seg, sentences);
  assert.equal(placed.lost, 0);
  assert.equal(placed.pieces.filter((p) => p.node && p.node.name === 'img').length, n, 'every image placed');
  return reads;
}

test('HTML input cost: placing the images of 8x the sentences reads their ranges about 8x as often, not 64x', async () => {
  const short = await rangeReads(500);
  const long = await rangeReads(4000);
  assert.ok(long < 16 * short, `${long} reads for 4,000 sentences, ${short} for 500 (${(long / short).toFixed(1)}x)`);
});
