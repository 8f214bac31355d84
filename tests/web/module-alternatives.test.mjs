/**
 * Forced prefixes and alternatives through the public module in Node, with the real WASM engine
 * and the shipped models (or the fixture model): translate(text, { prefix }) keeps the prefix
 * exactly (mid-word, trailing space, non-ASCII) for greedy and beam, with alignments and token
 * probabilities over the whole sentence; alternatives() are ranked, distinct, consistent with
 * translate() and include the model's own next word; bad requests reject with clear messages.
 * Properties only: no model's translations are written down here.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { Translator } from '../../web/translator.js';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);
const manifestUrl = fileUrl(testManifest().file);

const SOURCE = 'The house is small.';
const PREFIXES = ['Das ', 'Das Ha', 'Grüße aus Kö', 'Ein  großes ', 'Wo,'];

let translator;
const open = async () => (translator ||= await Translator.create({ from: 'en', to: 'de', manifestUrl }));
test.after(() => translator && translator.dispose());

test('translate(text, { prefix }): the translation starts with the prefix exactly, greedy and beam', { skip, timeout: 120000 }, async () => {
  const t = await open();
  for (const beam of [1, 4]) {
    for (const prefix of PREFIXES) {
      const r = await t.translate(`  ${SOURCE}\n`, { beam, prefix });
      assert.equal(r.sentences.length, 1);
      const s = r.sentences[0];
      assert.ok(s.target.startsWith(prefix), `beam ${beam}: ${JSON.stringify(s.target)} starts with ${JSON.stringify(prefix)}`);
      assert.ok(s.target.length > prefix.length, 'the model went on after the prefix');
      assert.equal(r.text, `  ${s.target}\n`, 'the whitespace around the sentence is kept');
      assert.equal(s.tokenProbs.length, s.targetTokens.length);
      assert.equal(s.targetWordConfidence.length, s.targetWords.length);
      for (const [b, e] of s.targetWords) assert.ok(b >= 0 && b < e && e <= s.target.length);
      assert.equal(s.attention.length, s.targetTokens.length);
    }
  }
});

test('translate with a prefix: several sentences or a prefix that is not a string are refused', { skip, timeout: 60000 }, async () => {
  const t = await open();
  await assert.rejects(t.translate('The house is small. It is red.', { prefix: 'Das' }),
    { code: 'bad-request', message: 'a prefix needs exactly one sentence to translate (this text has 2)' });
  await assert.rejects(t.translate(SOURCE, { prefix: 5 }), { code: 'bad-request', message: 'translate(): prefix must be a string (got 5).' });
  await assert.rejects(t.translateStreaming('The house is small. It is red.', { prefix: 'Das' }).translation, { code: 'bad-request' });
  // an empty prefix is no prefix: any text
  const r = await t.translate('The house is small. It is red.', { prefix: '' });
  assert.equal(r.sentences.length, 2);
});

test('alternatives(): ranked next words with their continuations; the model\'s own word among them', { skip, timeout: 120000 }, async () => {
  const t = await open();
  for (const prefix of ['', 'Das ', 'Das Haus ']) {
    const alts = await t.alternatives(SOURCE, prefix, { count: 5 });
    assert.equal(alts.length, 5, JSON.stringify(alts));
    const probs = alts.map((a) => a.probability);
    assert.deepEqual(probs, [...probs].sort((a, b) => b - a), 'most probable first');
    assert.ok(probs.every((p) => p > 0 && p <= 1));
    assert.ok(probs.reduce((a, b) => a + b, 0) <= 1.001);
    assert.equal(new Set(alts.map((a) => a.word)).size, 5, 'distinct words');
    for (const a of alts) {
      assert.ok(a.word.trim(), 'a word is not empty');
      assert.equal(typeof a.continuation, 'string');
    }
    const own = await t.translate(SOURCE, { beam: 1, prefix, alignments: false });
    const rest = own.sentences[0].target.slice(prefix.length);
    assert.ok(alts.some((a) => a.word + a.continuation === rest), `the greedy ${JSON.stringify(rest)} is among ${JSON.stringify(alts)}`);
    // choosing one: the new prefix keeps the word whole
    const pick = alts.at(-1);
    const next = prefix + pick.word + (/^[\s\p{P}]/u.test(pick.continuation) ? pick.continuation[0] : '');
    const again = await t.translate(SOURCE, { beam: 4, prefix: next });
    assert.ok(again.sentences[0].target.startsWith(next));
  }
  assert.equal((await t.alternatives(SOURCE, '')).length, 5, 'count defaults to 5');
  assert.equal((await t.alternatives(SOURCE, 'Das ', { count: 2 })).length, 2);
});

test('alternatives(): bad requests reject before they queue, and abort works', { skip, timeout: 60000 }, async () => {
  const t = await open();
  await assert.rejects(t.alternatives(SOURCE, 'Das ', { count: 0 }),
    { code: 'bad-request', message: 'alternatives(): count must be an integer from 1 to 20 (got 0).' });
  await assert.rejects(t.alternatives(SOURCE, 5), { code: 'bad-request', message: 'alternatives(): targetPrefix must be a string (got 5).' });
  await assert.rejects(t.alternatives(42, ''), { code: 'bad-request' });
  await assert.rejects(t.alternatives('One. Two.', ''), { code: 'bad-request', message: 'a prefix needs exactly one sentence to translate (this text has 2)' });
  const controller = new AbortController();
  controller.abort();
  await assert.rejects(t.alternatives(SOURCE, '', { signal: controller.signal }), { name: 'AbortError' });
  const running = new AbortController();
  const p = t.alternatives(SOURCE, '', { signal: running.signal });
  running.abort();
  await assert.rejects(p, { name: 'AbortError' });
  assert.equal((await t.alternatives(SOURCE, 'Das ')).length, 5, 'a request after the abort works');
});

test('a sentence with nothing to translate ("* * *"): copied, sure, and its alternatives offer only its own next word', { skip, timeout: 120000 }, async () => {
  const t = await open();
  const r = await t.translate('The house is small.\n\n* * * \u2014 12 \u2014\n', { alignments: true });
  const s = r.sentences[1];
  assert.equal(s.target, '* * * \u2014 12 \u2014');
  assert.ok(r.text.endsWith('\n\n* * * \u2014 12 \u2014\n'));
  assert.ok(s.tokenProbs.every((p) => p === 1));
  assert.equal(s.copied, true);
  assert.equal(r.sentences[0].copied, undefined, 'a translated sentence has no copied field');
  assert.ok(s.targetWordConfidence.every((p) => p === 1));
  const next = await t.alternatives(s.source, '* *');
  assert.deepEqual(next.map((a) => [a.word, a.probability, a.continuation]), [[' *', 1, ' \u2014 12 \u2014']]);
  // choosing it, as the page does, keeps the sentence as it is
  assert.equal((await t.translate(s.source, { prefix: '* * *' })).text, s.source);
});
