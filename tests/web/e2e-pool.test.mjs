/**
 * The worker pool in Chromium and Firefox ESR (tests/web/_browsers.mjs; Web Workers, the built site
 * served by scripts/serve.mjs under a sub-path, the strict CSP): the module in a page translates a
 * long input over two workers exactly
 * as over one, in order (translate, progress, streaming), an abort mid-way leaves it working, a
 * second Translator reuses the compiled engine, and the start-up timings are filled in; the demo
 * page (whose Translator uses the default pool: one worker per core, at most 4) translates a long
 * paste. No test asserts a time.
 */
import test, { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer } from '../../scripts/serve.mjs';
import { benchDocument } from '../../scripts/bench-pool.mjs';
import { ROOT, engineSkip, requireEngine, testManifest, resultsDir } from './_helpers.mjs';
import { browsers, launchBrowser, heavyCase } from './_browsers.mjs';

const skip = engineSkip();
requireEngine(test);
const BASE = '/pool/site/';

let server;
let browser;

before(async () => {
  if (skip) return;
  const out = path.join(resultsDir(), 'web-dist-pool');
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build-web.mjs'), '--out', out, '--manifest', testManifest().file, '--quiet'], { stdio: 'inherit' });
  server = await startServer({ root: out, base: BASE });
});

after(async () => {
  if (server) await server.close();
});

async function openPage(t, url, init) {
  const context = await browser.newContext();
  t.after(() => context.close());
  if (init) await context.addInitScript(init);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console error: ${m.text()}`); });
  await page.goto(url);
  return { page, errors };
}

/**
 * An init script: notes each 'init' the page posts to a worker, whether it restarts one from an
 * earlier worker's model (`reuse`), the largest ArrayBuffer in it and the size of a Blob model.
 */
function recordInits() {
  window.__inits = [];
  const largestBuffer = (value, seen = new Set()) => {
    if (!value || typeof value !== 'object' || seen.has(value)) return 0;
    seen.add(value);
    if (value instanceof ArrayBuffer) return value.byteLength;
    if (ArrayBuffer.isView(value)) return value.buffer.byteLength;
    return Math.max(0, ...Object.values(value).map((v) => largestBuffer(v, seen)));
  };
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (message && message.type === 'init') {
      const model = message.reuse && message.reuse.model;
      window.__inits.push({ restart: !!message.reuse, largestBuffer: largestBuffer(message), modelBlobBytes: model instanceof Blob ? model.size : null });
    }
    return post.call(this, message, ...rest);
  };
}

for (const name of browsers()) describe(name, () => {
  before(async () => { if (!skip) browser = await launchBrowser(name); });
  after(async () => { if (browser) await browser.close(); browser = null; });
  const heavy = heavyCase(name, test); // (Chromium only unless NMT_ALL_BROWSERS=1: _browsers.mjs)

  test('the module with a pool of two workers: the same translation as one, in order; abort; streaming; start-up timings; the helper gets the model as a Blob', { skip, timeout: 600000 }, async (t) => {
    const { page, errors } = await openPage(t, `${server.url}bench.html?n=0`, recordInits);
    await page.waitForSelector('body[data-done="true"]', { timeout: 120000 });
    const r = await page.evaluate(async (doc) => {
      const { Translator } = await import('./translator.js');
      const options = { beam: 1, alignments: true, chunkChars: 400 };
      const one = await Translator.create({ from: 'en', to: 'de', workers: 1 });
      const two = await Translator.create({ from: 'en', to: 'de', workers: 2 });
      const out = { startupOne: one.timings.startup, startupTwo: two.timings.startup, workers: two.workers };
      const reference = await one.translate(doc, options);
      await two.translate(doc, options); // the helper starts during the first pooled request
      await two.memory(); // (waits for the helper to be ready: a request joins it only then, and may end without it)
      const progress = [];
      const pooled = await two.translate(doc, { ...options, onProgress: (p) => progress.push([p.done, p.range[0], p.sentences.length]) });
      out.same = pooled.text === reference.text && JSON.stringify(pooled.sentences) === JSON.stringify(reference.sentences);
      out.chunks = pooled.stats.chunks;
      out.used = pooled.stats.workers;
      out.progressInOrder = progress.every((p, i) => i === 0 || (p[0] > progress[i - 1][0] && p[1] >= progress[i - 1][0]));
      out.progressSentences = progress.reduce((n, p) => n + p[2], 0) === pooled.sentences.length;
      const ac = new AbortController();
      let reports = 0;
      try {
        await two.translate(doc, { ...options, signal: ac.signal, onProgress: () => { reports += 1; if (reports === 2) ac.abort(); } });
        out.aborted = 'not aborted';
      } catch (e) {
        out.aborted = e.name;
      }
      const streamed = [];
      for await (const s of two.translateStreaming(doc, options)) streamed.push(s);
      out.streamSame = JSON.stringify(streamed) === JSON.stringify(reference.sentences);
      const short = await two.translate('The house is small.');
      out.shortWorkers = short.stats.workers;
      out.helpers = (await two.memory()).helpers.length;
      out.firstTranslationMs = one.timings.firstTranslationMs;
      out.modelBytes = two.info.file_bytes;
      out.inits = window.__inits.filter((m) => m.restart);
      one.dispose();
      two.dispose();
      return out;
    }, benchDocument(5000));
    assert.equal(r.workers, 2);
    assert.ok(r.chunks >= 6, `${r.chunks} chunks`);
    assert.equal(r.same, true, 'two workers translate exactly as one');
    assert.equal(r.used, 2, 'both workers translated chunks');
    assert.equal(r.progressInOrder, true, 'progress monotonic, in input order');
    assert.equal(r.progressSentences, true);
    assert.equal(r.aborted, 'AbortError');
    assert.equal(r.streamSame, true, 'streamed in order, the same sentences');
    assert.equal(r.shortWorkers, 1, 'a short text runs on one worker');
    assert.equal(r.helpers, 1);
    for (const s of [r.startupOne, r.startupTwo]) {
      assert.ok(s && s.totalMs > 0 && s.downloadMs >= 0 && s.modelLoadMs > 0, JSON.stringify(s));
      assert.ok(['streaming', 'bytes', 'reused'].includes(s.compiled));
    }
    const first = await page.evaluate(() => window.__bench.startup); // bench.html's Translator, the page's first
    assert.equal(first.compiled, 'bytes', 'a first visit compiles engine.wasm from its bytes');
    assert.equal(r.startupOne.compiled, 'reused', 'a later Translator on the page reuses the compiled engine');
    assert.equal(r.startupTwo.compiled, 'reused');
    assert.ok(r.firstTranslationMs > r.startupOne.totalMs);
    // The helpers (and the worker that replaced `two`'s after the abort) started from the first
    // worker's model, handed over as a Blob: no structured clone of its bytes on the main thread.
    assert.ok(r.inits.length >= 2, JSON.stringify(r.inits));
    for (const m of r.inits) {
      assert.ok(m.largestBuffer < r.modelBytes, `an init held a buffer of ${m.largestBuffer} bytes (the model: ${r.modelBytes})`);
      assert.equal(m.modelBlobBytes, r.modelBytes, 'the model, whole, as a Blob');
    }
    // A repeat visit: the model from the service worker's cache, engine.wasm compiled streaming (the browser's code cache).
    await page.reload();
    await page.waitForSelector('body[data-done="true"]', { timeout: 120000 });
    const again = await page.evaluate(() => window.__bench.startup);
    assert.equal(again.source, 'cache');
    assert.equal(again.compiled, 'streaming');
    assert.deepEqual(errors, []);
  });

  heavy('the demo page (default pool) translates a long paste', { skip, timeout: 600000 }, async (t) => {
    const { page, errors } = await openPage(t, server.url);
    await page.waitForFunction(() => document.body.dataset.ready === 'true' || document.body.dataset.state === 'error', null, { timeout: 120000 });
    assert.equal(await page.evaluate(() => document.body.dataset.ready), 'true', await page.textContent('#error'));
    assert.equal(await page.evaluate(() => navigator.hardwareConcurrency >= 2), true, 'the default gives this page a pool');
    const doc = benchDocument(3500);
    await page.fill('#source', doc);
    await page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error', null, { timeout: 300000 });
    await page.waitForFunction(() => document.getElementById('target').getAttribute('aria-busy') === 'false');
    assert.equal(await page.evaluate(() => document.body.dataset.state), 'done', await page.textContent('#error'));
    const target = (await page.textContent('#target')).trim();
    assert.equal(target.split(/\n\s*\n/).length, doc.split('\n\n').length, 'a paragraph for each paragraph');
    assert.deepEqual(errors, []);
  });
});
