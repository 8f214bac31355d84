/**
 * Tag-placement accuracy on the hand-checked sets (tests/fixtures/html/placement-*.json, scored by
 * scripts/html-placement.mjs) with the real engine: prints the accuracy per direction; every output
 * keeps its tags and is balanced; a sentence whose translation changed (another model) is stale,
 * not judged; while most are judged, at least 60% of the elements must land on the words judged
 * right (README: 94.4% en→de, 79.6% de→en with the round-20 models).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Translator } from '../../web/translator.js';
import { FIXTURES, measurePlacement, summary } from '../../scripts/html-placement.mjs';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';
import { assertBalanced, tagCounts } from './html-fake.mjs';

const skip = engineSkip() || (!testManifest().shipped && 'the placement sets were judged on the shipped models');
requireEngine(test);

for (const file of FIXTURES) {
  const fixture = JSON.parse(readFileSync(file, 'utf8'));
  test(`tag placement on the hand-checked set, ${fixture.direction}`, { skip, timeout: 300000 }, async () => {
    assert.equal(fixture.items.length, 50);
    const [from, to] = fixture.direction.split('-');
    const t = await Translator.create({ from, to, manifestUrl: fileUrl(testManifest().file) });
    try {
      const res = await measurePlacement(t, fixture);
      console.log(`# ${summary(res)}`);
      for (const row of res.rows) {
        assertBalanced(row.out);
        assert.deepEqual(tagCounts(row.out), tagCounts(row.html), row.out);
      }
      assert.equal(res.sentencesJudged + res.stale, 50);
      if (res.judged >= 30) assert.ok(res.right / res.judged >= 0.6, summary(res));
    } finally {
      t.dispose();
    }
  });
}
