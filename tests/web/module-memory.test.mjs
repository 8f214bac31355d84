/**
 * The translation memory through the public module in Node, with the real WASM engine and the
 * shipped models (engine/text/memory.h): a short everyday sentence the model file's memory holds
 * comes back as the native engine writes it, says `memory: true` with sure tokens and the model's
 * alignments, among other sentences that the model translates; `modelOnly: true` leaves it to the
 * model, and a prefix does too. Properties and agreement with the native CLI only: no translation is
 * written down here.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Translator } from '../../web/translator.js';
import { ROOT, engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';

const NMT = path.join(ROOT, 'build/nmt');
const shipped = testManifest().shipped;
const skip = engineSkip() || (!shipped && 'needs the shipped models (their translation memory)') || (!existsSync(NMT) && 'needs build/nmt');
requireEngine(test);

const native = (dir, text, ...args) =>
  JSON.parse(execFileSync(NMT, ['--model', path.join(ROOT, 'weights', dir, 'model.nmt'), '--alignments', ...args], { input: text, encoding: 'utf8' }));

const CASES = { 'en-de': ['Happy birthday!', 'The house is small.'], 'de-en': ['Tschüss, bis morgen!', 'Das Haus ist klein.'] };

for (const [dir, [remembered, ordinary]] of Object.entries(CASES)) {
  test(`${dir}: "${remembered}" from the memory, as the native engine gives it, beside a sentence the model translates`, { skip, timeout: 120000 }, async () => {
    const [from, to] = dir.split('-');
    const t = await Translator.create({ from, to, manifestUrl: fileUrl(testManifest().file) });
    try {
      const text = `${remembered} ${ordinary}`;
      const r = await t.translate(text, { beam: 4 });
      const n = native(dir, text);
      assert.equal(r.text, n.text);
      assert.equal(r.sentences.length, 2);
      const [m, o] = r.sentences;
      assert.equal(m.memory, true, JSON.stringify(m.target));
      assert.ok(m.tokenProbs.every((p) => p === 1));
      assert.equal(m.attention.length, m.targetTokens.length);
      assert.ok(m.wordAlignments.length > 0);
      assert.equal(o.memory, undefined);
      // the model's own translation differs (that is why the memory holds it)
      const modelOnly = await t.translate(remembered, { beam: 4, modelOnly: true });
      assert.equal(modelOnly.sentences[0].memory, undefined);
      assert.notEqual(modelOnly.text, m.target);
      assert.equal(modelOnly.text, native(dir, remembered, '--model-only').text);
      // under a prefix the model goes on (the page's word menu)
      const word = m.target.split(' ')[0];
      const prefixed = await t.translate(remembered, { prefix: `${word} ` });
      assert.equal(prefixed.sentences[0].memory, undefined);
      assert.ok(prefixed.text.startsWith(`${word} `));
    } finally {
      t.dispose();
    }
  });
}
