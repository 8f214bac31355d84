/**
 * No text is lost, with the real WASM engine through the module (engine/text/pass_through.h): a
 * sentence the tokenizer gives no piece for (only U+FFFD, which it deletes, or a lone surrogate,
 * which becomes U+FFFD) comes back as its own text; U+FFFD inside or after a normal sentence, and
 * emoji-only sentences, reach the translation; lone control characters are read as spaces (the
 * caller's offsets stay exact) and never break anything. One worker and a pool (a long text whose
 * paragraphs include such sentences) give the same.
 */
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Translator } from '../../web/translator.js';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);
const manifestUrl = fileUrl(testManifest().file);
const FFFD = '\uFFFD';

let tr;
before(async () => {
  if (!skip) tr = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 2 });
});
after(() => tr && tr.dispose());

const count = (text, what) => text.split(what).length - 1;

/** The ranges of the result index the input and the translation. */
function checkRanges(input, r) {
  for (const s of r.sentences) {
    assert.equal(input.slice(...s.sourceRange), s.source);
    assert.equal(r.text.slice(...s.targetRange), s.target);
  }
}

test('a sentence of only U+FFFD (or lone surrogates) comes back verbatim, alone and after a normal sentence', { skip, timeout: 240000 }, async () => {
  for (const beam of [1, 4]) {
    for (const alignments of [false, true]) {
      const opts = { beam, alignments };
      const hello = (await tr.translate('The house is small.', opts)).text;
      for (const [input, expected] of [
        [FFFD, FFFD],
        [`${FFFD}${FFFD} ${FFFD}`, `${FFFD}${FFFD} ${FFFD}`],
        ['\uD800', FFFD], // a lone surrogate is U+FFFD in the engine: it comes back as U+FFFD, one for one
        [`The house is small.\n${FFFD}\n`, `${hello}\n${FFFD}\n`],
        [`The house is small.\n\n${FFFD}${FFFD}`, `${hello}\n\n${FFFD}${FFFD}`],
      ]) {
        const r = await tr.translate(input, opts);
        assert.equal(r.text, expected, `${JSON.stringify(input)} ${JSON.stringify(opts)}`);
        checkRanges(input, r);
      }
      // in the same sentence, before, inside and after it
      for (const input of [`The house is small. ${FFFD}${FFFD}`, `${FFFD} The house is small.`, `The ${FFFD} house is small.`]) {
        const r = await tr.translate(input, opts);
        assert.equal(count(r.text, FFFD), count(input, FFFD), `${JSON.stringify(input)} -> ${JSON.stringify(r.text)}`);
        assert.ok(!r.text.includes('\u2047'));
        checkRanges(input, r);
      }
      const r = await tr.translate(`The house is small. ${FFFD}${FFFD}`, opts);
      assert.ok(r.text.includes(`${FFFD}${FFFD}`), 'the run stays whole');
      if (alignments) assert.equal(r.sentences[0].targetWordConfidence.length, r.sentences[0].targetWords.length);
    }
  }
});

test('emoji-only sentences and lone control characters', { skip, timeout: 240000 }, async () => {
  for (const beam of [1, 4]) {
    for (const input of ['😀', '😀 🎉', 'The house is small.\n🍕🍕\n', '👩‍👩‍👧']) {
      const r = await tr.translate(input, { beam, alignments: true });
      for (const run of input.match(/\p{Extended_Pictographic}(\u200D\p{Extended_Pictographic})*/gu)) {
        assert.ok(r.text.includes(run), `${JSON.stringify(run)} in ${JSON.stringify(r.text)}`);
      }
      checkRanges(input, r);
    }
    // A control character is read as a space: a lone one is whitespace, kept as such (same length,
    // so offsets stay exact), never an error; next to text it separates words, and a U+FFFD after it is kept.
    for (const input of ['\u0001', '\u0000', '\u001B\u007F', '\u0085']) {
      const r = await tr.translate(input, { beam });
      assert.equal(r.text.length, input.length, JSON.stringify(input));
      assert.match(r.text, /^[\s\u0085]*$/u); // (U+0085 is a line break, kept as written)
      assert.equal(r.sentences.length, 0);
    }
    const r = await tr.translate(`The house is small.\u0001${FFFD}`, { beam });
    assert.equal(count(r.text, FFFD), 1, r.text);
  }
});

test('a long text over the pool keeps every U+FFFD-only and emoji-only paragraph, as one worker does', { skip, timeout: 240000 }, async () => {
  const paragraph = 'The house is small and the cat sleeps on the warm red chair near the window. '.repeat(8).trim();
  const odd = [FFFD, `${FFFD}${FFFD} ${FFFD}`, '😀', `${paragraph} ${FFFD}`];
  const parts = [];
  for (let i = 0; i < 8; i++) parts.push(paragraph, odd[i % odd.length]);
  const long = parts.join('\n\n');
  const one = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 1 });
  try {
    const reference = await one.translate(long);
    const pooled = await tr.translate(long);
    assert.ok(pooled.stats.chunks >= 2, `${pooled.stats.chunks} chunks`);
    assert.equal(pooled.text, reference.text);
    assert.equal(count(pooled.text, FFFD), count(long, FFFD));
    assert.equal(count(pooled.text, '😀'), count(long, '😀'));
    checkRanges(long, pooled);
  } finally {
    one.dispose();
  }
});
