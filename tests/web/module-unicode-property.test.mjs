/**
 * A property test over random Unicode through the real WASM module with the shipped en→de and
 * de→en models (beam 1): strings drawn, from a fixed seed, out of English and German words and
 * every plane (Latin letters, combining marks, controls, U+FFFD, emoji with ZWJ and modifiers, CJK,
 * RTL scripts and marks, odd spaces, noncharacters, private use, unassigned code points), always
 * well-formed UTF-16. What the engine guarantees for any such input, and what is checked:
 *   - the output and every sentence's text are well-formed UTF-16 (no lone surrogate);
 *   - the engine makes no U+FFFD of its own: none in a sentence's target when its source has none;
 *   - every range is exact: `input.slice(...sourceRange) === source`, `text.slice(...targetRange)
 *     === target`, sentences in order without overlap, and token and word ranges inside their
 *     sentence, alignments between words that exist;
 *   - characters the vocabulary cannot write come through (engine/text/pass_through.h): every run
 *     of emoji, CJK ideographs of Extensions A/B, hieroglyphs or private-use characters that is a
 *     word of its own in a sentence's source (no letter, digit or mark beside it) is in its target
 *     (these are in no 8,000-piece English–German vocabulary, and NFKC leaves them as they are; a
 *     run inside a word goes with its word, which the model may leave out).
 * A failure names the seed and case and prints the input as JSON; NMT_PROPERTY_SEED and
 * NMT_PROPERTY_CASES pick other ones (the default: 45 cases a direction, well under a minute).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { Translator } from '../../web/translator.js';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';

const skip = engineSkip() || (!testManifest().shipped && 'needs the shipped models (both directions)');
requireEngine(test);
const SEED = Number(process.env.NMT_PROPERTY_SEED || 20261128);
const CASES = Number(process.env.NMT_PROPERTY_CASES || 45);

/** mulberry32: a small seeded generator, the same stream on every machine. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6D2B79F5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const cp = (...points) => String.fromCodePoint(...points);
/**
 * Runs of characters in no 8,000-piece English–German vocabulary, unchanged by NFKC (with the
 * joiners, variation selectors and regional indicators of emoji sequences), that are words of their
 * own: no letter, digit or mark just before or after.
 */
const RUN = '\\u{1F300}-\\u{1F5FF}\\u{1F600}-\\u{1F64F}\\u{1F680}-\\u{1F6FF}\\u{3400}-\\u{4DBF}\\u{20000}-\\u{2A6DF}\\u{13000}-\\u{1342E}\\u{F0000}-\\u{FFFFD}\\u{1F1E6}-\\u{1F1FF}\\u200D\\uFE0F';
const UNWRITABLE_WORD = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}${RUN}])[${RUN}]+(?![\\p{L}\\p{N}\\p{M}])`, 'gu');
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const WORDS = {
  en: 'the house is small and my old cat sleeps on a warm red chair near the window today we will meet at station'.split(' '),
  de: 'das Haus ist klein und meine alte Katze schläft auf einem warmen roten Stuhl am Fenster heute treffen wir uns Bahnhof'.split(' '),
};

/** One random piece of text of a class picked at random. */
function piece(rand, lang) {
  const pick = (list) => list[Math.floor(rand() * list.length)];
  const range = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
  const classes = [
    () => pick(WORDS[lang]),
    () => pick(WORDS[lang]),
    () => pick(['.', ',', '!', '?', ' - ', '"', '(', ')', ':', '...', '1990', '3,5', '42']),
    () => cp(range(0xC0, 0x17F)), // Latin-1 and Extended-A letters
    () => pick(WORDS[lang]) + cp(range(0x300, 0x36F)), // a combining mark on a word
    () => cp(range(0x300, 0x36F)), // a combining mark on whatever comes before
    () => cp(pick([range(0x0, 0x8), 0xB, 0xC, range(0xE, 0x1F), range(0x7F, 0x9F)])), // controls
    () => '\uFFFD',
    () => `\uFFFD!${pick(['\u03BC', 'é', 'ж', '日'])}\uFFFD!`,
    () => cp(range(0x1F300, 0x1F5FF)),
    () => cp(range(0x1F600, 0x1F64F), 0x1F3FB + range(0, 4)), // with a skin tone
    () => cp(0x1F469, 0x200D, 0x1F4BB), // a ZWJ sequence
    () => cp(0x1F1E9, 0x1F1EA), // a flag: regional indicators
    () => cp(range(0x4E00, 0x9FFF), range(0x4E00, 0x9FFF)),
    () => cp(range(0x3400, 0x4DBF)),
    () => cp(range(0x20000, 0x2A6DF)),
    () => cp(range(0x13000, 0x1342E)),
    () => cp(range(0x5D0, 0x5EA), range(0x5D0, 0x5EA), range(0x5D0, 0x5EA)), // Hebrew
    () => cp(range(0x627, 0x64A), range(0x627, 0x64A), 0x200F), // Arabic and a right-to-left mark
    () => cp(range(0x391, 0x3C9), range(0x410, 0x44F)), // Greek, Cyrillic
    () => cp(pick([0xA0, 0x2028, 0x2029, 0x3000, 0x200B, 0xFEFF, 0x9, 0xA, 0xD])), // odd spaces and breaks
    () => cp(pick([0xFFFE, 0xFFFF, 0x1FFFE, 0x10FFFF, 0xFDD0])), // noncharacters
    () => cp(range(0xF0000, 0xFFFFD)), // private use, plane 15
    () => cp(range(0x10000, 0x10FFFF)), // anywhere above the BMP, assigned or not
    () => { // anywhere in the BMP outside the surrogates
      const c = range(0x20, 0xFFFD);
      return cp(c >= 0xD800 && c <= 0xDFFF ? c - 0x800 : c);
    },
  ];
  return pick(classes)();
}

function randomText(rand, lang) {
  const n = 1 + Math.floor(rand() * 14);
  let s = '';
  for (let i = 0; i < n; i++) {
    s += piece(rand, lang);
    const r = rand();
    s += r < 0.6 ? ' ' : r < 0.7 ? '' : r < 0.8 ? '. ' : r < 0.9 ? '\n' : '\n\n';
  }
  return s;
}

/** Every property of one translation; `where` names the case. */
function check(input, r, where) {
  const show = `${where}: input ${JSON.stringify(input)}\noutput ${JSON.stringify(r.text)}`;
  assert.equal(typeof r.text, 'string', show);
  assert.ok(!LONE_SURROGATE.test(r.text), `a lone surrogate in the output, ${show}`);
  let source = 0;
  let target = 0;
  for (const s of r.sentences) {
    const at = `${show}\nsentence ${JSON.stringify(s.source)} -> ${JSON.stringify(s.target)}`;
    assert.ok(!LONE_SURROGATE.test(s.target) && !LONE_SURROGATE.test(s.source), `a lone surrogate, ${at}`);
    if (!s.source.includes('\uFFFD')) assert.ok(!s.target.includes('\uFFFD'), `a U+FFFD the engine made, ${at}`);
    const [sb, se] = s.sourceRange;
    const [tb, te] = s.targetRange;
    assert.ok(source <= sb && sb <= se && se <= input.length, `source range ${s.sourceRange} after ${source}, ${at}`);
    assert.ok(target <= tb && tb <= te && te <= r.text.length, `target range ${s.targetRange} after ${target}, ${at}`);
    assert.equal(input.slice(sb, se), s.source, `input.slice(sourceRange) is the source, ${at}`);
    assert.equal(r.text.slice(tb, te), s.target, `text.slice(targetRange) is the target, ${at}`);
    source = se;
    target = te;
    const inside = (ranges, length, what) => {
      for (const [b, e] of ranges || []) assert.ok(b >= 0 && b <= e && e <= length, `${what} [${b}, ${e}) outside 0..${length}, ${at}`);
    };
    inside(s.sourceTokens.map((t) => t.range), s.source.length, 'source token');
    inside(s.targetTokens.map((t) => t.range), s.target.length, 'target token');
    inside(s.sourceWords, s.source.length, 'source word');
    inside(s.targetWords, s.target.length, 'target word');
    for (const a of s.wordAlignments || []) {
      assert.ok(a.target >= 0 && a.target < s.targetWords.length && a.source >= 0 && a.source < s.sourceWords.length, `alignment ${JSON.stringify(a)}, ${at}`);
    }
    for (const run of new Set(s.source.match(UNWRITABLE_WORD) || [])) {
      const code = [...run].map((c) => `U+${c.codePointAt(0).toString(16).toUpperCase()}`).join(' ');
      assert.ok(s.target.includes(run), `${JSON.stringify(run)} (${code}) did not come through, ${at}`);
    }
  }
}

for (const [from, to] of [['en', 'de'], ['de', 'en']]) {
  test(`${from}→${to}: ${CASES} random Unicode strings (seed ${SEED}): well-formed, exact ranges, unwritable characters kept`, { skip, timeout: 120000 }, async () => {
    const t = await Translator.create({ from, to, manifestUrl: fileUrl(testManifest().file), workers: 1 });
    try {
      // the issue's own input first, then random ones
      const fixed = ['\uFFFD!\u03BC\uFFFD!R\uFFFD!', '\uFFFD!é\uFFFD!R\uFFFD!', '\uFFFD!ж\uFFFD!R\uFFFD!', '\uFFFD!日\uFFFD!R\uFFFD!'];
      const rand = random(SEED + (from === 'en' ? 0 : 1));
      const inputs = [...fixed, ...Array.from({ length: CASES }, () => randomText(rand, from))];
      for (let i = 0; i < inputs.length; i++) {
        const r = await t.translate(inputs[i], { beam: 1 });
        check(inputs[i], r, `${from}→${to} seed ${SEED} case ${i}`);
      }
    } finally {
      t.dispose();
    }
  });
}
