/**
 * Exact offsets into the caller's own string, with the real WASM engine: for every input class that
 * the engine cleans (NUL and other controls, \r\n, lone \r, U+0085, lone surrogates) and the ones it
 * must carry through (emoji, CJK, RTL, combining marks), every range indexes the text the caller
 * passed; lone surrogates are never paired; NUL separates words. Then a property test throws random
 * Unicode at the module: no crash, no hang, ranges always valid.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { Translator } from '../../web/translator.js';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);
const manifestUrl = fileUrl(testManifest().file);

/** Every range of the result indexes `input` (sentence, token and word ranges within the sentence). */
function checkOffsets(input, r) {
  let covered = 0;
  for (const s of r.sentences) {
    assert.equal(input.slice(...s.sourceRange), s.source, `sourceRange of ${JSON.stringify(s.source)} in ${JSON.stringify(input)}`);
    assert.equal(r.text.slice(...s.targetRange), s.target);
    assert.ok(s.sourceRange[0] >= covered, 'sentences in order, not overlapping');
    covered = s.sourceRange[1];
    for (const tk of s.sourceTokens) assert.ok(tk.range[0] >= 0 && tk.range[0] <= tk.range[1] && tk.range[1] <= s.source.length);
    for (const w of s.sourceWords || []) {
      const word = s.source.slice(...w);
      assert.ok(word.length > 0 && !/^\s|\s$/u.test(word), `a source word without spaces around: ${JSON.stringify(word)}`);
      assert.ok(!/[\u0000-\u0008\u000E-\u001F]/u.test(word), `no control character inside a word: ${JSON.stringify(word)}`);
    }
  }
}

const CASES = {
  'NUL between words': 'The cat\u0000sleeps on the mat.',
  'control characters': 'The \u0001house\u001B[31m is \u007Fsmall.\u009F It is old.',
  'CRLF line breaks': 'Good morning.\r\nThe house is small.\r\n\r\nIt is old.\r\n',
  'lone CR': 'Good morning.\rThe house is small.',
  'U+0085 next line': 'Good morning.\u0085The house is small.',
  'lone surrogates': 'The \uD800 house \uDC00 is \uDBFF\uD800 small.',
  'emoji and flags': 'I love pizza 🍕 and 🇩🇪 flags 👩‍👩‍👧.',
  'CJK and RTL': 'He said 你好世界 and שלום עולם and مرحبا to me.',
  'combining marks': 'The cafe\u0301 is nice. Zoe\u0308 is here.',
};

test('every range indexes the caller\'s string, for every input class', { skip, timeout: 240000 }, async (t) => {
  const tr = await Translator.create({ from: 'en', to: 'de', manifestUrl });
  try {
    for (const [name, input] of Object.entries(CASES)) {
      await t.test(name, async () => {
        const r = await tr.translate(input, { alignments: true });
        checkOffsets(input, r);
        assert.ok(r.sentences.length >= 1);
      });
    }
    // what the vocabulary cannot write is copied over (engine/text/pass_through.h), in WASM too
    for (const run of ['🍕', '你好世界', 'שלום עולם', 'مرحبا']) {
      const input = Object.values(CASES).find((c) => c.includes(run));
      const r = await tr.translate(input, { beam: 4 });
      assert.ok(r.text.includes(run) && !r.text.includes('\u2047'), `${run} in ${JSON.stringify(r.text)}`);
    }
    // a NUL acts as a space: two source words, not one glued "catsleeps"
    const nul = await tr.translate('cat\u0000sleeps', { alignments: true });
    const words = nul.sentences[0].sourceWords.map((w) => nul.sentences[0].source.slice(...w));
    assert.deepEqual(words, ['cat', 'sleeps']);
    // two lone surrogates are two replacement characters, never one astral character
    const lone = await tr.translate('\uDBFF\uDC00'.split('').reverse().join(''), { alignments: true });
    assert.equal(lone.sentences[0].source, '\uDC00\uDBFF');
    const tokens = lone.sentences[0].sourceTokens.filter((tk) => tk.piece !== '</s>');
    for (const tk of tokens) assert.ok(!/[\u{10000}-\u{10FFFF}]/u.test(tk.piece), `no astral piece from lone surrogates: ${tk.piece}`);
    // CRLF is kept as the caller wrote it around the sentences
    const crlf = await tr.translate(CASES['CRLF line breaks']);
    assert.equal((crlf.text.match(/\r\n/g) || []).length, (CASES['CRLF line breaks'].match(/\r\n/g)).length, JSON.stringify(crlf.text));
  } finally {
    tr.dispose();
  }
});

/** A seeded generator (mulberry32), so a failure names an input that can be replayed. */
function rng(seed) {
  return () => {
    seed = (seed + 0x6D2B79F5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const POOLS = [
  'abcdefghijklmnopqrstuvwxyz      ', 'ÄÖÜäöüß', '.,;:!?"\'()-', '\u0000\u0001\u0007\u001B\u007F\u0085\u009F\t\r\n\u000B\u000C',
  '\uD800\uDBFF\uDC00\uDFFF', '\u0301\u0308\u0327\u200D\uFE0F', 'שלוםمرحبا\u200F\u202E', '你好世界日本語한국어', '😀🍕🇩🇪👩‍👧',
  '\u00A0\u2028\u2029\u3000\uFEFF\uFFFD',
];

test('property: random Unicode never crashes, hangs or breaks offsets', { skip, timeout: 300000 }, async () => {
  const tr = await Translator.create({ from: 'en', to: 'de', manifestUrl });
  const random = rng(Number(process.env.NMT_PROPERTY_SEED || 2026));
  try {
    for (let round = 0; round < 60; round++) {
      let input = '';
      const length = Math.floor(random() * 80);
      for (let i = 0; i < length; i++) {
        const pool = POOLS[Math.floor(random() * POOLS.length)];
        input += pool[Math.floor(random() * pool.length)];
      }
      const r = await tr.translate(input, { alignments: true, beam: round % 2 ? 2 : 1 });
      checkOffsets(input, r);
      if (!input.trim()) assert.equal(r.text, input, 'whitespace-only input comes back as it is');
    }
  } finally {
    tr.dispose();
  }
});
