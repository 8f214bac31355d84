/**
 * A copied sentence's alignments (text the engine copies instead of translating: numbers, code,
 * addresses): the engine leaves its tokens x tokens identity attention and a word attention that is
 * 0 but at the word links out of its JSON (`identity_attention`, `word_attention_from_links`:
 * engine/README.md), and the worker writes them back (protocol.js expandCopiedAlignments), so a
 * Sentence still has them as full matrices: each token on the one it copies, each word's links in
 * its row of wordAttention, which the page's highlight reads (web/app/alignment-view.js).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { Translator } from '../../web/translator.js';
import { expandCopiedAlignments } from '../../web/protocol.js';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';
import { engineModule, FIXTURE, skip as noEngine } from '../wasm/_engine.mjs';
import { readFileSync } from 'node:fs';

const skip = engineSkip();
requireEngine(test);

const identity = (n) => Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (r === c ? 1 : 0)));

test('expandCopiedAlignments writes the identity and the links\' word attention back, and leaves other sentences alone', () => {
  const tokens = (n) => Array.from({ length: n }, () => ({ piece: 'x', range: [0, 1] }));
  const s = {
    identity_attention: true, source_tokens: tokens(3), target_tokens: tokens(3),
    word_attention_from_links: true, source_words: [[0, 1], [1, 2]], target_words: [[0, 1], [1, 2], [2, 3]],
    word_alignments: [[0, 0, 1], [1, 0, 1], [2, 1, 0.5]],
  };
  expandCopiedAlignments(s);
  assert.deepEqual(s.attention, identity(3));
  assert.deepEqual(s.word_attention, [[1, 0], [1, 0], [0, 0.5]]);
  assert.ok(!('identity_attention' in s) && !('word_attention_from_links' in s));
  const translated = { attention: [[0.9, 0.1]], word_attention: [[0.7, 0.3]], word_alignments: [[0, 0, 0.7]] };
  assert.deepEqual(expandCopiedAlignments(structuredClone(translated)), translated);
});

test('module: copied sentences keep their full alignments: the identity, and each word link in wordAttention', { skip }, async () => {
  const t = await Translator.create({ from: 'en', to: 'de', manifestUrl: fileUrl(testManifest().file), workers: 1 });
  try {
    const text = 'The house is small.\n\n("1") ("2") 12.5 -- 33\n\n* * *\n\n`ls -la /tmp` https://example.org/a/b?c=1\n\n' +
      '(1) 2 3 '.repeat(60).trim();
    for (const allHeads of [false, true]) {
      const r = await t.translate(text, { alignments: true, allHeads });
      const copied = r.sentences.filter((s) => s.copied);
      assert.ok(copied.length >= 4, `${copied.length} copied sentences`);
      for (const s of copied) {
        const n = s.sourceTokens.length;
        assert.equal(s.targetTokens.length, n, s.source);
        assert.deepEqual(s.attention, identity(n), s.source);
        assert.equal(s.wordAttention.length, s.targetWords.length);
        for (const row of s.wordAttention) assert.equal(row.length, s.sourceWords.length);
        assert.ok(s.wordAlignments.length > 0, s.source);
        for (const link of s.wordAlignments) {
          assert.ok(link.weight > 0, JSON.stringify(link));
          assert.equal(s.wordAttention[link.target][link.source], link.weight, `${s.source}: the highlight finds the link`);
        }
      }
      const translated = r.sentences.find((s) => !s.copied);
      for (const row of translated.attention) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 2e-3);
    }
  } finally {
    t.dispose();
  }
});

test('engine (WASM): a long line of copied text comes without its tokens x tokens matrices, said in a word', { skip: noEngine }, async () => {
  const Module = await engineModule();
  const t = new Module.Translator();
  assert.equal(t.load(new Uint8Array(readFileSync(FIXTURE))), '');
  try {
    const line = '(1) 2 3 '.repeat(1000).trim();
    const json = t.translate(line, JSON.stringify({ alignments: true, beam: 1 }));
    const r = JSON.parse(json);
    assert.ok(r.ok, r.error);
    assert.ok(r.result.sentences.length > 10);
    for (const s of r.result.sentences) {
      assert.ok(s.copied);
      assert.equal(s.identity_attention, true);
      assert.ok(!('attention' in s));
    }
    // (~95 bytes a character; ~420 when each unit's identity and word attention were written out)
    assert.ok(json.length < 150 * line.length, `${(json.length / line.length).toFixed(1)} bytes a character`);
  } finally {
    t.delete();
  }
});
