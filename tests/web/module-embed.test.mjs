/**
 * What a site that embeds the module meets, in Node: the argument errors of the module functions
 * (code 'bad-request', as every other bad argument), the standard API's monitor attribute read as a
 * browser's EventHandler attribute, and one AbortSignal shared by many requests (the fake engine,
 * tests/web/fake-engine.mjs). The browser side (another origin, a strict CSP) is e2e-embed.test.mjs.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Translator, translateElement, TranslatorError, listModels } from '../../web/translator.js';
import * as polyfill from '../../web/polyfill.js';
import { ROOT, fileUrl, engineSkip, requireEngine, testManifest } from './_helpers.mjs';

const skipPolyfill = engineSkip() || (!testManifest().shipped && 'the polyfill translates with the shipped models (weights/manifest.json)');
requireEngine(test);

/** A stand-in element: translateElement() checks its arguments before it reads one. */
const element = { nodeType: 1, localName: 'div', childNodes: [], textContent: '', ownerDocument: null, getAttribute: () => null, setAttribute() {} };

test('translateElement() without a translator, or with no element, rejects with code bad-request as the other argument errors do', async () => {
  for (const options of [{}, { translator: null }, { translator: {} }, { translator: 'de' }, undefined]) {
    await assert.rejects(translateElement(element, options), (e) => {
      assert.ok(e instanceof TranslatorError, `a TranslatorError, got ${e && e.name}: ${e && e.message}`);
      assert.equal(e.code, 'bad-request');
      assert.equal(e.message, 'translateElement(element, { translator }): a Translator is needed.');
      return true;
    }, JSON.stringify(options));
  }
  const translator = { translate: () => assert.fail('no request for a call that is refused') };
  for (const notAnElement of [null, undefined, 'p', { nodeType: 3 }]) {
    await assert.rejects(translateElement(notAnElement, { translator }),
      { name: 'TranslatorError', code: 'bad-request', message: 'translateElement(element): element must be a DOM Element.' }, String(notAnElement));
  }
});

/** The monitor create() hands out, after `use(monitor)` ran in the monitor callback; and create()'s translator. */
async function withMonitor(use) {
  let monitor;
  const translator = await polyfill.Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', monitor(m) { monitor = m; use(m); } });
  return { monitor, translator };
}

test('the monitor\'s ondownloadprogress is an EventHandler attribute: an object is kept (and reported when called), any other value is null', { skip: skipPolyfill, timeout: 120000 }, async () => {
  const reported = [];
  const consoleError = console.error;
  console.error = (e) => reported.push(e);
  const events = [];
  const notCallable = { handleEvent: () => events.push('handleEvent') }; // an EventHandler is a callback function: handleEvent is not called
  let kept;
  try {
    const { translator } = await withMonitor((m) => {
      m.ondownloadprogress = notCallable;
      kept = m.ondownloadprogress;
      m.addEventListener('downloadprogress', (e) => events.push(`listener ${e.loaded}`));
    });
    translator.destroy();
  } finally {
    console.error = consoleError;
  }
  assert.equal(kept, notCallable, 'a non-callable object is kept, as a browser keeps it');
  assert.deepEqual(events, ['listener 0', 'listener 1'], 'the other listeners still get every event');
  assert.equal(reported.length, 2, 'each event reports the handler that cannot be called');
  assert.ok(reported.every((e) => e instanceof TypeError), String(reported[0]));

  // Values that are no object are null; null removes the handler.
  const { monitor, translator } = await withMonitor(() => {});
  try {
    for (const value of [5, 'alert(1)', true, undefined, null, Symbol('x')]) {
      monitor.ondownloadprogress = () => {};
      monitor.ondownloadprogress = value;
      assert.equal(monitor.ondownloadprogress, null, String(value));
    }
    const f = () => {};
    monitor.ondownloadprogress = f;
    assert.equal(monitor.ondownloadprogress, f);
  } finally {
    translator.destroy();
  }
});

test('a replaced ondownloadprogress handler keeps its place among the listeners, as a browser\'s does', { skip: skipPolyfill, timeout: 120000 }, async () => {
  const order = [];
  const { translator } = await withMonitor((m) => {
    m.ondownloadprogress = () => order.push('first handler');
    m.addEventListener('downloadprogress', () => order.push('listener'));
    m.ondownloadprogress = (e) => order.push(`handler ${e.loaded}`);
  });
  translator.destroy();
  assert.deepEqual(order, ['handler 0', 'listener', 'handler 1', 'listener']);
});

const FAKE_ENGINE = fileUrl(path.join(ROOT, 'tests/web/fake-engine.mjs'));
const MODEL = path.join(mkdtempSync(path.join(tmpdir(), 'nmt-embed-')), 'model.nmt');
writeFileSync(MODEL, 'NMTMODEL fake model bytes');

test('one AbortSignal for many requests and streams (a page\'s "cancel all"): one listener on it, no leak warning, and its abort stops them all', async () => {
  const warnings = [];
  const onWarning = (w) => warnings.push(`${w.name}: ${w.message}`);
  process.on('warning', onWarning);
  const t = await Translator.create({ engineUrl: FAKE_ENGINE, wasmUrl: FAKE_ENGINE, modelUrl: fileUrl(MODEL), workers: 1 });
  try {
    const shared = new AbortController();
    const pending = Array.from({ length: 30 }, (_, i) => t.translate(`Sentence ${i}.`, { signal: shared.signal }));
    assert.ok(getEventListeners(shared.signal, 'abort').length <= 1, `${getEventListeners(shared.signal, 'abort').length} listeners`);
    assert.equal((await Promise.all(pending)).length, 30);
    assert.equal(getEventListeners(shared.signal, 'abort').length, 0, 'none left once they are done');

    const cancelAll = new AbortController();
    const cancelled = Array.from({ length: 30 }, (_, i) => t.translate(`Sentence ${i}.`, { signal: cancelAll.signal }));
    cancelAll.abort();
    const results = await Promise.allSettled(cancelled);
    assert.deepEqual(new Set(results.map((r) => r.status === 'rejected' && r.reason.name)), new Set(['AbortError']));
    assert.equal(getEventListeners(cancelAll.signal, 'abort').length, 0);
    assert.equal((await t.translate('Still here.')).sentences.length, 1);

    // streams too: each errors at once with an AbortError
    const streams = new AbortController();
    const reads = Array.from({ length: 15 }, (_, i) => (async () => {
      const got = [];
      for await (const sentence of t.translateStreaming(`One ${i}. Two ${i}. Three. Four. Five.`, { signal: streams.signal })) got.push(sentence.target);
      return got.length;
    })());
    assert.ok(getEventListeners(streams.signal, 'abort').length <= 1, `${getEventListeners(streams.signal, 'abort').length} listeners`);
    streams.abort();
    const streamed = await Promise.allSettled(reads);
    assert.deepEqual(new Set(streamed.map((r) => r.status === 'rejected' && r.reason.name)), new Set(['AbortError']));
    const finished = new AbortController();
    for (let i = 0; i < 12; i++) {
      const got = [];
      for await (const sentence of t.translateStreaming('One. Two.', { signal: finished.signal })) got.push(sentence.target);
      assert.equal(got.length, 2);
    }
    assert.equal(getEventListeners(finished.signal, 'abort').length, 0, 'none left by streams read to the end');
    await new Promise((resolve) => setImmediate(resolve)); // (a warning is emitted on the next tick)
    assert.deepEqual(warnings, []);
  } finally {
    process.off('warning', onWarning);
    t.dispose();
  }
});

test('in Node with a DOM emulation\'s window (jsdom, happy-dom: a page\'s unit tests) the module runs on worker threads, and so does the polyfill', () => {
  // A process of its own: the window global must not reach the other tests.
  const script = `
    globalThis.window = globalThis;
    globalThis.location = new URL('http://localhost/');
    const { Translator } = await import(${JSON.stringify(fileUrl(path.join(ROOT, 'web/translator.js')))});
    const polyfill = await import(${JSON.stringify(fileUrl(path.join(ROOT, 'web/polyfill.js')))});
    const t = await Translator.create({ engineUrl: ${JSON.stringify(FAKE_ENGINE)}, wasmUrl: ${JSON.stringify(FAKE_ENGINE)}, modelUrl: ${JSON.stringify(fileUrl(MODEL))}, workers: 1 });
    const { text } = await t.translate('One here.');
    t.dispose();
    const availability = await polyfill.Translator.availability({ sourceLanguage: 'en', targetLanguage: 'de' });
    console.log(JSON.stringify({ text, availability }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60000 });
  assert.equal(run.status, 0, run.stderr);
  const { text, availability } = JSON.parse(run.stdout.trim().split('\n').pop());
  assert.equal(text, 'enO ereh .'); // the fake engine reverses each word
  if (!skipPolyfill) assert.notEqual(availability, 'unavailable', 'the polyfill can run the engine here');
});

test('in Node, relative URLs resolve against the working directory, also one whose name holds # % or ? (\'my C# app\')', () => {
  const folder = path.join(mkdtempSync(path.join(tmpdir(), 'nmt-embed-')), 'my C# app 100%?');
  mkdirSync(folder);
  writeFileSync(path.join(folder, 'model.nmt'), 'NMTMODEL fake model bytes');
  const script = `
    const { Translator } = await import(${JSON.stringify(fileUrl(path.join(ROOT, 'web/translator.js')))});
    const t = await Translator.create({ engineUrl: ${JSON.stringify(FAKE_ENGINE)}, wasmUrl: ${JSON.stringify(FAKE_ENGINE)}, modelUrl: 'model.nmt', workers: 1 });
    console.log(JSON.stringify({ text: (await t.translate('One here.')).text, url: t.info.url }));
    t.dispose();`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: folder, encoding: 'utf8', timeout: 60000 });
  assert.equal(run.status, 0, run.stderr);
  const { text, url } = JSON.parse(run.stdout.trim().split('\n').pop());
  assert.equal(text, 'enO ereh .');
  assert.equal(url, fileUrl(path.join(folder, 'model.nmt')));
});

/** The files a static import of `entry` loads (relative imports, followed), the entry first. */
function moduleGraph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'(\.{1,2}\/[^']+)'/gms)) visit(path.resolve(path.dirname(file), m[1]));
  };
  visit(entry);
  return [...seen];
}

test('a bundler building a site for browsers can bundle the module and the polyfill: no node: import it would have to resolve', () => {
  const files = [...new Set([...moduleGraph(path.join(ROOT, 'web/translator.js')), ...moduleGraph(path.join(ROOT, 'web/polyfill.js'))])];
  assert.ok(files.length > 10 && files.some((f) => f.endsWith('pool.js')), files.join(', '));
  for (const file of files) {
    // (esbuild --platform=browser fails on each: 'Could not resolve "node:fs"'; webpack likewise)
    const literal = readFileSync(file, 'utf8').match(/(?:\bimport\s*\(\s*|\bfrom\s*)['"`](node:[\w/]+)['"`]/);
    assert.equal(literal, null, `${path.relative(ROOT, file)} imports ${literal && literal[1]} by a literal specifier`);
  }
  // With esbuild at hand (NMT_ESBUILD=path/to/esbuild), bundle them for real.
  const esbuild = process.env.NMT_ESBUILD;
  if (esbuild && existsSync(esbuild)) {
    for (const entry of ['web/translator.js', 'web/polyfill.js']) {
      const run = spawnSync(esbuild, [path.join(ROOT, entry), '--bundle', '--format=esm', '--platform=browser', '--outfile=/dev/null'], { encoding: 'utf8' });
      assert.equal(run.status, 0, run.stderr);
    }
  }
});

test('in a Node process started with V8 flags (--max-old-space-size, --expose-gc), which a worker thread refuses, the module starts its workers without them', () => {
  const script = `
    const { Translator } = await import(${JSON.stringify(fileUrl(path.join(ROOT, 'web/translator.js')))});
    const t = await Translator.create({ engineUrl: ${JSON.stringify(FAKE_ENGINE)}, wasmUrl: ${JSON.stringify(FAKE_ENGINE)}, modelUrl: ${JSON.stringify(fileUrl(MODEL))}, workers: 2 });
    const long = 'One here. Two here.\\n\\n'.repeat(200);
    await t.translate(long, { chunkChars: 500 }); // (starts the pool's helper)
    const { helpers } = await t.memory();
    console.log(JSON.stringify({ text: (await t.translate('One here.')).text, helpers: helpers.length }));
    t.dispose();`;
  const run = spawnSync(process.execPath, ['--max-old-space-size=512', '--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60000 });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout.trim().split('\n').pop()), { text: 'enO ereh .', helpers: 1 });
});

test('a disposed Translator that is still referenced (an app\'s field, a list) holds no model bytes', () => {
  const model = path.join(mkdtempSync(path.join(tmpdir(), 'nmt-embed-')), 'model.nmt');
  const bytes = Buffer.alloc(32 << 20, 32);
  bytes.write('NMTMODEL fake model bytes');
  writeFileSync(model, bytes);
  const script = `
    const { Translator } = await import(${JSON.stringify(fileUrl(path.join(ROOT, 'web/translator.js')))});
    const external = async () => {
      for (let i = 0; i < 4; i++) { gc(); await new Promise((resolve) => setTimeout(resolve, 50)); }
      return process.memoryUsage().external / 2 ** 20;
    };
    const kept = [];
    for (let i = 0; i < 3; i++) {
      const t = await Translator.create({ engineUrl: ${JSON.stringify(FAKE_ENGINE)}, wasmUrl: ${JSON.stringify(FAKE_ENGINE)}, modelUrl: ${JSON.stringify(fileUrl(model))}, workers: 1 });
      await t.translate('One here.');
      t.dispose();
      kept.push(t);
    }
    console.log(JSON.stringify({ disposedMiB: await external(), kept: kept.length }));`;
  const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60000 });
  assert.equal(run.status, 0, run.stderr);
  const { disposedMiB, kept } = JSON.parse(run.stdout.trim().split('\n').pop());
  assert.equal(kept, 3);
  // (each live Translator keeps its 32 MiB model for quick restarts: three held 96)
  assert.ok(disposedMiB < 16, `${disposedMiB.toFixed(1)} MiB of external memory after three disposed Translators`);
});

test('listModels() of a manifest it cannot read rejects with a TranslatorError (model-not-found), as create() does, not the platform\'s error', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'nmt-embed-'));
  writeFileSync(path.join(dir, 'page.html'), '<!doctype html><title>A fallback page</title>');
  const cases = [
    [fileUrl(path.join(dir, 'missing.json')), /missing\.json: no such file$/],
    [fileUrl(path.join(dir, 'page.html')), /page\.html: it is not valid JSON \(/],
    ['http://127.0.0.1:9/manifest.json', /manifest\.json: \S/], // (nothing listens on port 9: the connection is refused)
  ];
  for (const [manifestUrl, message] of cases) {
    await assert.rejects(listModels({ manifestUrl }), (e) => {
      assert.ok(e instanceof TranslatorError, `a TranslatorError, got ${e && e.name}: ${e && e.message}`);
      assert.equal(e.code, 'model-not-found');
      assert.match(e.message, /^Could not read the weights manifest /);
      assert.match(e.message, message);
      return true;
    }, manifestUrl);
  }
});
