/**
 * The worker pool (web/pool.js) with the real WASM engine in Node: a long input's chunks spread
 * over several workers give exactly the one-worker translation, in order; progress and streaming
 * stay in input order; an abort mid-way frees every worker; short texts use one worker; the
 * `workers` option is checked with clear errors. No test here asserts a time (the speed-up is
 * measured by scripts/bench-pool.mjs).
 */
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Translator } from '../../web/translator.js';
import { MAX_WORKERS } from '../../web/pool.js';
import { engineSkip, requireEngine, testManifest, fileUrl, ROOT } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);
const manifestUrl = fileUrl(testManifest().file);

/** ~`chars` characters of dev-set English in paragraphs of four sentences. */
function documentOf(chars) {
  const lines = readFileSync(path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv'), 'utf8')
    .split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
  const paragraphs = [];
  let n = 0;
  for (let i = 0; n < chars; i += 4) {
    const p = lines.slice(i % lines.length, (i % lines.length) + 4).join(' ');
    paragraphs.push(p);
    n += p.length + 2;
  }
  return `  ${paragraphs.join('\n\n')}\n`;
}

const DOC = documentOf(6000);
const OPTIONS = { beam: 1, alignments: true, chunkChars: 400 }; // ~15 chunks
let one;
let pool;
let reference; // the one-worker translation of DOC

before(async () => {
  if (skip) return;
  one = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 1 });
  pool = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 2 });
  reference = await one.translate(DOC, OPTIONS);
});

after(() => {
  if (one) one.dispose();
  if (pool) pool.dispose();
});

const strip = (r) => ({ text: r.text, sentences: r.sentences, sourceTokens: r.stats.sourceTokens, targetTokens: r.stats.targetTokens, chunks: r.stats.chunks });

test('pool: a long input over 2 and 3 workers is translated exactly as by one, sentences in order', { skip, timeout: 600000 }, async () => {
  assert.equal(reference.stats.workers, 1);
  assert.ok(reference.stats.chunks >= 10, `${reference.stats.chunks} chunks`);
  await pool.translate(DOC, OPTIONS); // the helpers start during the first pooled request
  await pool.memory(); // (waits for the helper to be ready: a request joins it only then, and may end without it)
  const r = await pool.translate(DOC, OPTIONS);
  assert.equal(r.stats.workers, 2, 'both workers translated chunks');
  assert.deepEqual(strip(r), strip(reference));
  for (let i = 1; i < r.sentences.length; i++) assert.ok(r.sentences[i].sourceRange[0] >= r.sentences[i - 1].sourceRange[1], 'in order');
  for (const s of r.sentences) {
    assert.equal(DOC.slice(...s.sourceRange), s.source);
    assert.equal(r.text.slice(...s.targetRange), s.target);
  }
  assert.ok(r.text.startsWith('  ') && r.text.endsWith('\n'), 'whitespace around the chunks kept');

  const three = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 3 });
  try {
    assert.equal(three.workers, 3);
    const r3 = await three.translate(DOC, { ...OPTIONS, beam: 2 });
    const ref3 = await one.translate(DOC, { ...OPTIONS, beam: 2 });
    assert.deepEqual(strip(r3), strip(ref3), 'beam 2 over three workers');
    assert.ok(r3.stats.workers >= 1 && r3.stats.workers <= 3);
  } finally {
    three.dispose();
  }
});

test('pool: progress is monotonic, chunk by chunk in input order, and adds up to the result', { skip, timeout: 600000 }, async () => {
  const progress = [];
  const r = await pool.translate(DOC, { ...OPTIONS, onProgress: (p) => progress.push(p) });
  assert.equal(progress.length, r.stats.chunks, 'one report per chunk');
  let done = 0;
  let end = 0;
  const sentences = [];
  for (const p of progress) {
    assert.ok(p.done > done, 'done grows');
    assert.ok(p.range[0] >= end, 'ranges in input order');
    assert.equal(p.total, DOC.length);
    assert.ok(r.text.startsWith(p.text), 'the text so far is a prefix of the translation');
    done = p.done;
    end = p.range[1];
    sentences.push(...p.sentences);
  }
  assert.deepEqual(sentences, r.sentences, 'the reports carry every sentence once, in order');
  assert.deepEqual(strip(r), strip(reference));
});

test('pool: translateStreaming() yields the sentences in order, the same as one worker', { skip, timeout: 600000 }, async () => {
  const streamed = [];
  const stream = pool.translateStreaming(DOC, OPTIONS);
  for await (const s of stream) streamed.push(s);
  assert.deepEqual(streamed, reference.sentences);
  assert.equal((await stream.translation).text, reference.text);
});

test('pool: an abort mid-way rejects at once and frees every worker; the next requests run', { skip, timeout: 600000 }, async () => {
  const ac = new AbortController();
  let reports = 0;
  const aborted = pool.translate(DOC, { ...OPTIONS, signal: ac.signal, onProgress: () => { reports += 1; if (reports === 2) ac.abort(); } });
  const queued = pool.translate('The house is small.', { beam: 1 }); // waits behind the long one
  await assert.rejects(aborted, { name: 'AbortError' });
  assert.equal(reports, 2, 'nothing more was reported after the abort');
  const short = await queued;
  assert.equal(short.sentences.length, 1);
  assert.equal(short.stats.workers, 1, 'a short text is not spread');
  // The pool comes back whole: a long request after the abort uses both workers again, same result.
  await pool.translate(DOC, OPTIONS); // (the abort ended the helper: a new one starts during this request)
  await pool.memory(); // (and is ready)
  const again = await pool.translate(DOC, OPTIONS);
  assert.equal(again.stats.workers, 2);
  assert.deepEqual(strip(again), strip(reference));

  // Streaming: leaving the loop early stops the pooled request too.
  let got = 0;
  for await (const s of pool.translateStreaming(DOC, OPTIONS)) {
    assert.deepEqual(s, reference.sentences[got]);
    got += 1;
    if (got === 3) break;
  }
  assert.equal((await pool.translate(DOC, OPTIONS)).text, reference.text);
  const mem = await pool.memory();
  assert.equal(mem.helpers.length, 1, 'one helper beside the first worker');
  assert.ok(mem.helpers[0].wasmBytes > 0);
});

test('pool: the workers option is checked, with a clear error; the default is one per core, at most 4', { skip, timeout: 120000 }, async () => {
  for (const bad of [0, -1, 1.5, MAX_WORKERS + 1, Number.NaN, Infinity, '2', null, true]) {
    await assert.rejects(Translator.create({ from: 'en', to: 'de', manifestUrl, workers: bad }), (e) => {
      assert.equal(e.name, 'TranslatorError');
      assert.equal(e.code, 'bad-request');
      assert.match(e.message, /workers must be a whole number from 1 to 16/);
      return true;
    }, `workers: ${String(bad)}`);
  }
  const t = await Translator.create({ from: 'en', to: 'de', manifestUrl });
  try {
    const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
    assert.equal(t.workers, Math.min(cores, 4));
    const r = await t.translate('Hello world. How are you?');
    assert.equal(r.stats.workers, 1, 'one chunk: one worker');
  } finally {
    t.dispose();
  }
});

test('startup timings: each phase of the start is measured, and the first translation', { skip, timeout: 120000 }, async () => {
  const t = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 1 });
  try {
    const s = t.timings.startup;
    assert.ok(s, 'timings.startup');
    for (const k of ['totalMs', 'workerMs', 'manifestMs', 'downloadMs', 'sha256Ms', 'instantiateMs', 'modelLoadMs']) {
      assert.equal(typeof s[k], 'number', k);
      assert.ok(s[k] >= 0 && s[k] <= s.totalMs + 1, `${k} ${s[k]} within the start (${s.totalMs})`);
    }
    assert.ok(['bytes', 'streaming', 'reused'].includes(s.compiled), s.compiled);
    assert.equal(s.source, 'network');
    assert.ok(s.phases.modelLoad[0] >= s.phases.download[1] - 1, 'the model loads after it is read');
    assert.equal(t.timings.firstTranslationMs, null);
    await t.translate('The house is small.');
    assert.ok(t.timings.firstTranslationMs >= s.totalMs, 'create() to the first translation');
  } finally {
    t.dispose();
  }
});
