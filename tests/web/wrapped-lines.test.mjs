/**
 * Hard-wrapped text through the JS module and the real WASM engine (engine/text/segmenter.h,
 * docs/text-rules.md): a sentence cut by a line break is read whole, its line break written back
 * into the translation; the text keeps its line count, every sentence's ranges index the texts,
 * and a short text translated in groups of sentences (the page's default, beam 4) joins its lines
 * as one call on the whole text does.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { Translator } from '../../web/translator.js';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);
const manifestUrl = fileUrl(testManifest().file);

const EMAIL = 'Hi Anna,\n\nThanks for the photos. We walked along the old river and looked at all of the\n'
  + 'boats on the water while the sun went down. I will send the\ninvitation 🎉 to info@example.com\n'
  + 'tomorrow. They cross the\nMara River from the hills. And then back\nnorth through the west, once again crossing the river in April.\n'
  + '\n- buy some milk for the\n- call mom';

const lines = (s) => s.split('\n').length;

let en;
test.before(async () => {
  if (skip) return;
  en = await Translator.create({ from: 'en', to: 'de', manifestUrl });
});
test.after(() => { if (en) en.dispose(); });

test('a hard-wrapped text keeps its lines, its characters and its ranges; its sentences are read whole', { skip, timeout: 180000 }, async () => {
  const r = await en.translate(EMAIL);
  assert.equal(lines(r.text), lines(EMAIL), r.text);
  for (const kept of ['🎉', 'info@example.com', '- ']) assert.ok(r.text.includes(kept), r.text);
  for (const s of r.sentences) {
    assert.equal(EMAIL.slice(...s.sourceRange), s.source);
    assert.equal(r.text.slice(...s.targetRange), s.target);
    assert.equal(s.target.split('\n').length, s.source.split('\n').length, s.target);
  }
  const joined = r.sentences.filter((s) => s.source.includes('\n')).map((s) => s.source);
  assert.ok(joined.some((s) => s.startsWith('I will send the\ninvitation')), JSON.stringify(joined));
  assert.ok(joined.some((s) => s.startsWith('And then back\nnorth')), JSON.stringify(joined));
  assert.ok(!joined.some((s) => s.includes('milk')), JSON.stringify(joined));
  // in groups of sentences (beam 4) as in one call (greedy goes whole): the same joins
  const whole = await en.translate(EMAIL, { beam: 1 });
  assert.deepEqual(whole.sentences.map((s) => s.sourceRange), r.sentences.map((s) => s.sourceRange));
});
