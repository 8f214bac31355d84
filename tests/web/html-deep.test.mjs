/**
 * Markup of any depth through translate(html, { html: true }) with the real WASM engine and the
 * shipped (or fixture) model: 100,000 elements inside each other are parsed, cut into segments,
 * placed and written without recursion (web/html/flat.js), in linear time. A chain of wrappers
 * ("<b><b>…Hi.</b></b>") is one placement level however long; inline elements that nest deeper than
 * MAX_INLINE_DEPTH in other ways are kept as they are (segment.js), every tag still written.
 * (translateElement, which shares segment.js, at the same depth: html-deep-e2e.test.mjs.)
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { Translator } from '../../web/translator.js';
import { MAX_INLINE_DEPTH } from '../../web/html/segment.js';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';
import { assertBalanced, tagCounts } from './html-fake.mjs';

const skip = engineSkip();
requireEngine(test);
const DEPTH = 100000;

let t;
test.before(async () => {
  if (!skip) t = await Translator.create({ from: 'en', to: 'de', manifestUrl: fileUrl(testManifest().file), workers: 1 });
});
test.after(() => t && t.dispose());

/** The plain translation of `text`, as the HTML path asks for it (alignments on). */
const plain = async (text) => (await t.translate(text, { beam: 1, alignments: true })).text;

test(`${DEPTH} nested inline elements around one sentence: every tag kept, the sentence translated`, { skip, timeout: 120000 }, async () => {
  const sentence = 'The house is small.';
  const html = '<b>'.repeat(DEPTH) + sentence + '</b>'.repeat(DEPTH);
  const r = await t.translate(html, { html: true, beam: 1 });
  assert.equal(r.text, '<b>'.repeat(DEPTH) + (await plain(sentence)) + '</b>'.repeat(DEPTH));
  assert.equal(r.segments, 1);
  assert.equal(r.lost, 0);
  // the issue's own input
  const hi = await t.translate('<b>'.repeat(DEPTH) + 'Hi.' + '</b>'.repeat(DEPTH), { html: true, beam: 1 });
  assert.equal(hi.text, '<b>'.repeat(DEPTH) + (await plain('Hi.')) + '</b>'.repeat(DEPTH));
});

test(`${DEPTH} nested blocks, and inline/block alternating: the innermost text translated, balanced`, { skip, timeout: 120000 }, async () => {
  const sentence = 'The cat sleeps.';
  const divs = await t.translate('<div>'.repeat(DEPTH) + sentence + '</div>'.repeat(DEPTH), { html: true, beam: 1 });
  assert.equal(divs.text, '<div>'.repeat(DEPTH) + (await plain(sentence)) + '</div>'.repeat(DEPTH));
  // a span holding a div is a block: all are boundaries, one segment at the bottom
  const mixed = '<span><div>'.repeat(DEPTH / 2) + sentence + '</div></span>'.repeat(DEPTH / 2);
  const r = await t.translate(mixed, { html: true, beam: 1 });
  assert.equal(r.text, '<span><div>'.repeat(DEPTH / 2) + (await plain(sentence)) + '</div></span>'.repeat(DEPTH / 2));
});

test(`inline elements nested ${DEPTH} deep with text between them: those past MAX_INLINE_DEPTH kept as they are, every tag written`, { skip, timeout: 120000 }, async () => {
  // "<b> <b> <b>…" is no chain (each holds a space and an element): the levels past the limit are one
  // element kept whole, as code is, and the text around them is still translated.
  const html = `<p>The house is small. ${'<b> '.repeat(DEPTH)}Hi.${'</b>'.repeat(DEPTH)}</p>`;
  const r = await t.translate(html, { html: true, beam: 1 });
  assertBalanced(r.text);
  assert.deepEqual(tagCounts(r.text), tagCounts(html));
  assert.ok(r.text.includes(`${'<b> '.repeat(DEPTH - MAX_INLINE_DEPTH)}Hi.${'</b>'.repeat(DEPTH - MAX_INLINE_DEPTH)}`), 'the part past the limit kept as it was');
  assert.ok(!r.text.startsWith('<p>The house is small.'), `the text before it translated: ${r.text.slice(0, 80)}`);
  // at the limit, nothing is kept as it was: the sentence inside all the elements is translated
  const atLimit = `<p>${'<b> '.repeat(MAX_INLINE_DEPTH)}The house is small.${'</b>'.repeat(MAX_INLINE_DEPTH)}</p>`;
  const s = await t.translate(atLimit, { html: true, beam: 1 });
  assertBalanced(s.text);
  assert.deepEqual(tagCounts(s.text), tagCounts(atLimit));
  assert.ok(!s.text.includes('The house is small.'), s.text);
});
