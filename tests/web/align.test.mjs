/**
 * Word alignments against human ones: the 30 hand-aligned pairs of tests/fixtures/align/guard.*
 * (a subset of the dev set scripts/bench-align.mjs measures; its README says how it was made),
 * through the public module and the real WASM engine with the shipped models, each pair's
 * reference forced with `prefix`. Prints AER, precision and recall of `wordAlignments` with one
 * model and with both (`rerank: true`, symmetrized), and fails only on gross breakage (AER over 50,
 * where the read-out was ~15 with one model and ~7 with both on the dev set): a guard, not a
 * quality target. Skipped without the shipped models (the fixture model's alignments mean nothing).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { Translator } from '../../web/translator.js';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';
import { loadGold, translatePair, prepare, engineLinks, score } from '../../scripts/bench-align.mjs';

const manifest = testManifest();
const skip = engineSkip() || (!manifest.shipped && 'the shipped models are missing (weights/manifest.json)');
requireEngine(test);

const GROSS = 50;

test('wordAlignments on 30 hand-aligned pairs: AER printed, gross breakage fails', { skip, timeout: 300000 }, async () => {
  const pairs = loadGold('guard');
  assert.equal(pairs.length, 30);
  for (const [from, to] of [['de', 'en'], ['en', 'de']]) {
    const t = await Translator.create({ from, to, rerank: true, workers: 1, manifestUrl: fileUrl(manifest.file) });
    try {
      const single = [];
      const both = [];
      for (const pair of pairs) {
        for (const [rerank, out] of [[false, single], [true, both]]) {
          const pieces = await translatePair(t, pair, from === 'de', { rerank });
          assert.ok(pieces, `${pair.id}: aligned`);
          for (const { sentence: s } of pieces) {
            for (const a of s.wordAlignments) {  // the public shape: links within the words, weights in (0, 1]
              assert.ok(a.target >= 0 && a.target < s.targetWords.length && a.source >= 0 && a.source < s.sourceWords.length);
              assert.ok(a.weight > 0 && a.weight <= 1.0001, JSON.stringify(a));
              assert.deepEqual(a.targetRange, s.targetWords[a.target]);
            }
          }
          out.push({ pair, links: engineLinks(prepare(pair, pieces, from === 'de')) });
        }
      }
      for (const [name, items] of [['one model', single], ['both (rerank: true)', both]]) {
        const r = score(items);
        console.log(`alignment ${from}->${to}, ${name}: AER ${r.aer.toFixed(1)}, precision ${r.precision.toFixed(1)}, recall ${r.recall.toFixed(1)} (30 hand-aligned pairs)`);
        assert.ok(r.aer <= GROSS, `${from}->${to} ${name}: AER ${r.aer.toFixed(1)} > ${GROSS}`);
        assert.ok(r.recall > 0 && r.precision > 0);
      }
    } finally {
      t.dispose();
    }
  }
});
