/**
 * How a pool helper and a restarted worker get the model (real WASM, Node worker threads): from the
 * first worker's checked bytes, handed over by the main thread as a Blob, which a postMessage()
 * shares instead of copying (an 11 MB structured clone on the main thread, ~45 ms at 4x CPU
 * throttling in Chromium: scripts/bench-pool-start.mjs). Every 'init' the main thread posts is
 * recorded: none holds an ArrayBuffer as large as the model, each restart's carries the model as
 * a Blob of the model's size, and what such a worker translates is the one-worker translation.
 */
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Translator } from '../../web/translator.js';
import { benchDocument } from '../../scripts/bench-pool.mjs';
import { engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);
const manifestUrl = fileUrl(testManifest().file);
const DOC = benchDocument(3000);
const OPTIONS = { beam: 1, alignments: true, chunkChars: 400 };

const inits = []; // every 'init' the main thread posted to a worker, as posted
const post = Worker.prototype.postMessage;
let one;
let reference;

/** The largest ArrayBuffer (or a view's) anywhere in `value`. */
function largestBuffer(value, seen = new Set()) {
  if (!value || typeof value !== 'object' || seen.has(value)) return 0;
  seen.add(value);
  if (value instanceof ArrayBuffer || value instanceof SharedArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.buffer.byteLength;
  let most = 0;
  for (const v of Object.values(value)) most = Math.max(most, largestBuffer(v, seen));
  return most;
}

before(async () => {
  if (skip) return;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 'init') inits.push(message);
    return post.call(this, message, ...rest);
  };
  one = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 1 });
  reference = await one.translate(DOC, OPTIONS);
});

after(() => {
  Worker.prototype.postMessage = post;
  if (one) one.dispose();
});

const strip = (r) => ({ text: r.text, sentences: r.sentences, chunks: r.stats.chunks });

/** The inits posted since `from` that start a worker from an earlier one's model (restarts, pool helpers). */
function checkRestarts(from, modelBytes, what) {
  const restarts = inits.slice(from).filter((m) => m.reuse);
  assert.ok(restarts.length >= 1, `${what}: a worker started from the first one's model`);
  for (const m of restarts) {
    assert.ok(largestBuffer(m) < modelBytes, `${what}: the init holds no buffer of the model's size (largest ${largestBuffer(m)} bytes, the model ${modelBytes})`);
    assert.ok(m.reuse.model instanceof Blob, `${what}: the model is handed over as a Blob`);
    assert.equal(m.reuse.model.size, modelBytes, `${what}: the whole model`);
  }
}

test('pool start: the helper gets the model as a Blob, no copy of its bytes on the main thread; the translation is the one-worker one', { skip, timeout: 600000 }, async () => {
  const from = inits.length;
  const pool = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 2 });
  try {
    const modelBytes = pool.info.file_bytes;
    assert.ok(modelBytes > 0);
    assert.equal(largestBuffer(inits.slice(from)), 0, 'the first start posts no model bytes at all');
    const first = await pool.translate(DOC, OPTIONS); // the helper starts during this request
    await pool.memory(); // (and is ready)
    const pooled = await pool.translate(DOC, OPTIONS);
    assert.equal(pooled.stats.workers, 2, 'the helper translated chunks');
    assert.deepEqual(strip(first), strip(reference));
    assert.deepEqual(strip(pooled), strip(reference));
    checkRestarts(from, modelBytes, 'pool helper');
  } finally {
    pool.dispose();
  }
});

test('pool start: a worker restarted after an abort or a crash gets the model as a Blob too, and translates as before', { skip, timeout: 600000 }, async () => {
  const t = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 1 });
  try {
    const modelBytes = t.info.file_bytes;
    let from = inits.length;
    const ac = new AbortController();
    const aborted = t.translate(DOC, { ...OPTIONS, signal: ac.signal, onProgress: () => ac.abort() });
    await assert.rejects(aborted, { name: 'AbortError' });
    assert.deepEqual(strip(await t.translate(DOC, OPTIONS)), strip(reference), 'after the abort');
    assert.equal(t.restarts, 1);
    checkRestarts(from, modelBytes, 'restart after an abort');
    const handedOver = inits.at(-1).reuse.model;

    from = inits.length;
    t._crashWorkerForTest();
    await assert.rejects(t.translate('The house is small.'), { code: 'worker-died' });
    assert.deepEqual(strip(await t.translate(DOC, OPTIONS)), strip(reference), 'after the crash');
    checkRestarts(from, modelBytes, 'restart after a crash');
    // A restart's own 'ready' hands nothing on: every restart starts from the first worker's model.
    assert.equal(inits.at(-1).reuse.model, handedOver);
  } finally {
    t.dispose();
  }
});

test('pool start: dispose() lets the model handed over go (nothing on the main thread holds it)', { skip, timeout: 600000 }, async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  const pool = await Translator.create({ from: 'en', to: 'de', manifestUrl, workers: 2 });
  await pool.translate(DOC, OPTIONS); // the helper starts during this request
  await pool.memory(); // (and is ready)
  const handedOver = (() => {
    const restart = inits.findLast((m) => m.reuse);
    assert.ok(restart && restart.reuse.model instanceof Blob);
    return new WeakRef(restart.reuse.model);
  })();
  inits.length = 0; // (this file's own record must not hold it)
  pool.dispose();
  for (let i = 0; i < 10 && handedOver.deref(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    gc();
  }
  assert.equal(handedOver.deref(), undefined, 'the model was collected after dispose()');
});
