/**
 * A copied sentence's packed alignments (web/packed-sentences.js): its identity attention and its
 * word attention that is 0 but at its word links take no bytes in the block, whether the engine
 * named them in a word (`identity_attention`, `word_attention_from_links`) or the worker wrote
 * them out (protocol.js expandCopiedAlignments); the Sentence reads them back as the full
 * matrices, the same numbers, which the page's highlight and heatmap read.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { packSentences, unpackSentences } from '../../web/packed-sentences.js';
import { expandCopiedAlignments } from '../../web/protocol.js';

const identity = (n) => Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => (r === c ? 1 : 0)));

/** An engine sentence of `parts` copied pieces ('(1) ' each: four tokens, three words), as the engine writes it. */
function copiedSentence(parts) {
  const source = '(1) '.repeat(parts).trim();
  const tokens = [];
  const words = [];
  const links = [];
  for (let p = 0; p < parts; p++) {
    const at = p * 4;
    tokens.push({ piece: '\u2581(', range: [at, at + 1] }, { piece: '1', range: [at + 1, at + 2] }, { piece: ')', range: [at + 2, at + 3] });
    words.push([at, at + 1], [at + 1, at + 2], [at + 2, at + 3]);
    for (let k = 0; k < 3; k++) links.push([p * 3 + k, p * 3 + k, k === 1 ? 1 : 0.99999]);
  }
  tokens.push({ piece: '</s>', range: [source.length, source.length] });
  return {
    source, target: source, source_range: [0, source.length], target_range: [0, source.length], score: 0,
    token_probs: tokens.map(() => 1), copied: true, source_tokens: tokens, target_tokens: structuredClone(tokens),
    identity_attention: true, source_words: words, target_words: structuredClone(words), word_attention_from_links: true,
    word_alignments: links, target_word_probs: words.map(() => 1),
  };
}

/** Every field of every Sentence of a packed block, as plain values. */
const read = (block, input) => unpackSentences(block, input).map((s) => Object.fromEntries(Object.keys(s).map((k) => [k, s[k]])));

test('packed: a copied sentence\'s identity and link-only word attention take no bytes, and read back in full', () => {
  const named = copiedSentence(40); // as the engine writes it: the two matrices named in a word
  const expanded = expandCopiedAlignments(structuredClone(named)); // as the worker writes them out
  const input = named.source;
  for (const engineSentence of [named, expanded]) {
    const block = packSentences([structuredClone(engineSentence)], { text: input, input });
    const [s] = read(block, input);
    const n = named.source_tokens.length;
    assert.deepEqual(s.attention, identity(n));
    assert.deepEqual(s.wordAttention, expanded.word_attention);
    assert.deepEqual(s.wordAlignments.map((l) => [l.target, l.source, l.weight]), named.word_alignments);
    for (const link of s.wordAlignments) assert.equal(s.wordAttention[link.target][link.source], link.weight); // (the highlight's lookup)
    // the same sentence written out in full (as one not copied would be) takes the matrices' bytes
    const written = packSentences([{ ...structuredClone(expanded), copied: false }], { text: input, input });
    assert.ok(block.bytes.length * 3 < written.bytes.length, `${block.bytes.length} bytes, written out ${written.bytes.length}`);
    assert.deepEqual(read(written, input)[0].attention, s.attention);
    assert.deepEqual(read(written, input)[0].wordAttention, s.wordAttention);
  }
});

test('packed: a copied sentence whose matrices are not exactly those is written out as it is', () => {
  const s = expandCopiedAlignments(copiedSentence(3));
  s.attention[1][2] = 0.5; // (not the identity)
  s.word_attention[0][1] = 0.25; // (a cell off the links)
  const [back] = read(packSentences([structuredClone(s)], { text: s.source, input: s.source }), s.source);
  assert.deepEqual(back.attention, s.attention);
  assert.deepEqual(back.wordAttention, s.word_attention);
  assert.deepEqual(back.wordAlignments.map((l) => [l.target, l.source, l.weight]), s.word_alignments);
});
