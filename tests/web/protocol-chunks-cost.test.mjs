// planChunks' cost on a long text with no whitespace to cut at (a URL list, Chinese or Japanese
// with no spaces, a 100,000-letter "word"): cutPoint finds each grapheme boundary near its target
// with the segmenter's containing(), not by reading every grapheme from the chunk's start
// (~1 µs a character: 70-85 ms for 100,000 characters, in the task that starts the translation).
// Its cuts are the ones a reading from the start gives (the reference below).
import test from 'node:test';
import assert from 'node:assert/strict';
import { cutPoint, planChunks } from '../../web/protocol.js';

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

/** The cut a reading of the graphemes from `lo` gives (the rule cutPoint documents). */
function referenceCut(text, lo, target, hi) {
  let before = -1;
  let after = -1;
  for (const { index } of graphemes.segment(text.slice(lo, Math.min(hi, target + 64)))) {
    const at = lo + index;
    if (at <= lo) continue;
    if (at <= target) before = at;
    else { after = at; break; }
  }
  if (before > lo) return before;
  if (after > lo && after < hi) return after;
  return null; // (cutPoint then cuts between code points: not compared)
}

test('cutPoint cuts where a reading of the graphemes from the start cuts: flags, emoji sequences, marks, Hangul, CR LF', () => {
  const pieces = ['a', '🇩🇪', '🇫🇷', '👨‍👩‍👧‍👦', '👍🏽', '1️⃣', 'é', 'e\u0301\u0302', '각', '\u1100\u1161\u11a8', '\r\n', 'क्षि', 'กำ', '\u0600\u0661', '漢', '\u200d', '\ufe0f', '🏳️‍🌈'];
  let seed = 7;
  const random = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  let compared = 0;
  for (let run = 0; run < 300; run++) {
    let text = '';
    while (text.length < 400) text += pieces[random(pieces.length)];
    for (let k = 0; k < 20; k++) {
      const lo = random(text.length - 100);
      const target = lo + 1 + random(80);
      const hi = target + 1 + random(text.length - target - 1);
      const expected = referenceCut(text, lo, target, hi);
      if (expected === null) continue;
      assert.equal(cutPoint(text, lo, target, hi), expected, `${JSON.stringify(text.slice(lo, target + 8))}: lo ${lo} target ${target} hi ${hi}`);
      compared++;
    }
  }
  assert.ok(compared > 5000, `${compared} cuts compared`);
});

test('a long text without whitespace is cut without reading it grapheme by grapheme', () => {
  const segments = Object.getPrototypeOf(graphemes.segment(''));
  const iterate = segments[Symbol.iterator];
  let read = 0;
  segments[Symbol.iterator] = function* counted() {
    for (const s of iterate.call(this)) { read++; yield s; }
  };
  try {
    for (const text of ['a'.repeat(100000), '猫はソファで寝ています'.repeat(9000), '👍🏽'.repeat(25000)]) {
      read = 0;
      const chunks = planChunks(text, 1000);
      assert.ok(chunks.length >= 99, `${chunks.length} chunks`);
      assert.equal(chunks.at(-1)[1], text.length);
      console.log(`${text.length} characters, ${chunks.length} chunks: ${read} graphemes read by iteration`);
      assert.ok(read <= 64 * chunks.length, `${read} graphemes read for ${chunks.length} cuts`);
    }
  } finally {
    segments[Symbol.iterator] = iterate;
  }
});
