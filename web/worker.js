/**
 * The engine's worker: runs in a module Web Worker (browser) or a worker thread (Node) and is the
 * only place the WebAssembly engine lives. It downloads engine.wasm and the model with progress
 * reports, checks the model's SHA-256 when the manifest gives one, instantiates the engine
 * (build-wasm/engine.js, an Emscripten ES module), and answers translate requests one at a time.
 * Messages follow protocol.js. Long inputs are translated chunk by chunk (protocol.js's planChunks
 * bounds what one engine call gets), yielding to the event loop in between so that a 'cancel' can
 * stop them. Its 'ready' hands the checked model bytes and the compiled engine to the main thread,
 * which gives them to the worker it starts in this one's place when it ends it (a cancelled or a
 * large request): that start downloads, checks and compiles nothing. If the engine traps (out of
 * memory, a bug) its state cannot be trusted: the worker reports 'fatal' and closes, and
 * translator.js starts a new one.
 */
import {
  Request, Status, ErrorCode, TranslatorError, errorPayload, planChunks, sentenceGroups, ResultBuilder, pickModel, MODEL_CACHE,
  PROTOCOL_VERSION, protocolMismatch, modelGone,
} from './protocol.js';
import { relaxedSimdSupported, relaxedKernelUrl } from './relaxed-simd.js';

const isNode = typeof self === 'undefined' && typeof process !== 'undefined' && !!process.versions?.node;
const port = isNode ? (await import('node:worker_threads')).parentPort : self;

function post(msg, transfer) {
  port.postMessage(msg, transfer);
}

function onMessage(handler) {
  if (isNode) port.on('message', (data) => handler(data));
  else port.addEventListener('message', (event) => handler(event.data));
}

// ---------------------------------------------------------------------------------------------
// Downloads: fetch with streamed progress (browser, http(s) in Node) or the file system (file: URLs
// in Node, where fetch cannot read files).

/** More than any model, engine or manifest is (the shipped models are ~10 MB; WebAssembly memory ends at 4 GiB). */
const MAX_FILE_BYTES = 1 << 30;

async function readUrl(url, expectedBytes, onBytes) {
  const u = new URL(url);
  if (isNode && u.protocol === 'file:') {
    const fs = await import('node:fs');
    const name = decodeURIComponent(u.pathname);
    let total;
    try {
      const st = await fs.promises.stat(u);
      // A directory, FIFO or device is no file to download: it would fail or block, or never end (/dev/zero).
      if (!st.isFile()) throw Object.assign(new Error(st.isDirectory() ? 'it is a directory, not a file' : 'it is not a regular file'), { code: 'NOTFILE' });
      if (st.size > MAX_FILE_BYTES) throw new Error(`it has ${st.size} bytes, more than any file the translator reads (${MAX_FILE_BYTES})`);
      total = st.size;
    } catch (e) {
      throw new TranslatorError(ErrorCode.DOWNLOAD, `Could not read ${name}: ${e.code === 'ENOENT' ? 'no such file' : e.message}`);
    }
    onBytes(0, total);
    // Read straight into one buffer of the file's size (no pieces copied together afterwards).
    const bytes = new Uint8Array(total);
    let file;
    try {
      file = await fs.promises.open(u, 'r');
    } catch (e) {
      throw new TranslatorError(ErrorCode.DOWNLOAD, `Could not read ${name}: ${e.message}`);
    }
    let loaded = 0;
    try {
      while (loaded < total) {
        const { bytesRead } = await file.read(bytes, loaded, Math.min(1 << 20, total - loaded), loaded);
        if (!bytesRead) break;
        loaded += bytesRead;
        onBytes(loaded, total);
      }
    } finally {
      await file.close();
    }
    return loaded === total ? bytes : bytes.slice(0, loaded);
  }
  return readResponse(await fetchOk(u), expectedBytes, onBytes);
}

/**
 * The URLs this worker's Content-Security-Policy refused (a fetch, an import), with the directive
 * that refused each: a fetch it refuses fails as a lost connection would ('Failed to fetch').
 */
const refusedUrls = new Map();
let onRefusal = () => {};
if (!isNode) {
  port.addEventListener('securitypolicyviolation', (e) => {
    const directive = e.effectiveDirective || e.violatedDirective;
    // (script-src-elem: the directive a policy of script-src only is read as for an import)
    refusedUrls.set(e.blockedURI, /-elem$/.test(directive) ? `${directive} (or ${directive.replace(/-elem$/, '')})` : directive);
    onRefusal();
  });
}

/** The directive that refused `u` (its URL or its origin, as a report may give it), or null. */
async function refusedBy(u) {
  if (isNode) return null;
  const found = () => refusedUrls.get(u.href) || refusedUrls.get(u.origin) || null;
  // The event may come after the failure (Firefox: up to some ms later): wait a little for it.
  for (const started = Date.now(); !found() && Date.now() - started < 250;) {
    await new Promise((resolve) => {
      const timer = setTimeout(resolve, 25);
      onRefusal = () => { clearTimeout(timer); resolve(); };
    });
  }
  onRefusal = () => {};
  return found();
}

/** fetch() that throws DOWNLOAD errors naming the file. */
async function fetchOk(u) {
  let response;
  try {
    response = await fetch(u);
  } catch (e) {
    const directive = await refusedBy(u);
    if (directive) {
      throw new TranslatorError(ErrorCode.DOWNLOAD, `Could not download ${u.pathname.split('/').pop()}: the Content-Security-Policy's ${directive} ` +
        `does not allow ${u.origin} (list it there, in the page's policy and in the one the server sends with worker.js).`);
    }
    throw new TranslatorError(ErrorCode.DOWNLOAD, `Could not download ${u.pathname.split('/').pop()} (${e.message || e}). Check the network connection.`);
  }
  if (!response.ok) {
    const error = new TranslatorError(ErrorCode.DOWNLOAD, `Could not download ${u.href}: HTTP ${response.status} ${response.statusText}`.trim());
    throw Object.assign(error, { httpStatus: response.status });
  }
  // A web page where a file was asked for: a directory's listing, or a site's fallback page.
  if (/^text\/html\b/i.test(response.headers.get('content-type') || '')) {
    const error = new TranslatorError(ErrorCode.DOWNLOAD, `Could not download ${u.href}: the server answered with a web page (text/html), not the file (is the URL a directory?)`);
    throw Object.assign(error, { webPage: true });
  }
  return response;
}

/** The size a response announces (Content-Length, when not compressed), else `expectedBytes`, else 0. */
function responseBytes(response, expectedBytes) {
  const header = Number(response.headers.get('content-length'));
  const encoded = response.headers.get('content-encoding');
  return header > 0 && !encoded ? header : (expectedBytes || 0);
}

/** A response's body as one Uint8Array, read with progress into one buffer of the announced size. */
async function readResponse(response, expectedBytes, onBytes) {
  const total = responseBytes(response, expectedBytes);
  if (total > MAX_FILE_BYTES) throw new TranslatorError(ErrorCode.DOWNLOAD, `Could not download ${response.url}: ${total} bytes, more than any file the translator reads (${MAX_FILE_BYTES}).`);
  onBytes(0, total);
  if (!response.body || !response.body.getReader) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onBytes(bytes.length, total || bytes.length);
    return bytes;
  }
  const reader = response.body.getReader();
  let buffer = new Uint8Array(total || 1 << 20);
  let loaded = 0;
  for (;;) {
    let chunk;
    try {
      chunk = await reader.read();
    } catch (e) {
      // The connection lost midway ('network error', 'Error in input stream'): say so, with how far it got.
      const name = new URL(response.url || 'x:/file').pathname.split('/').pop();
      const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
      throw new TranslatorError(ErrorCode.DOWNLOAD, `Could not download ${name}: the connection broke off after ${mb(loaded)}${total ? ` of ${mb(total)}` : ''} (${e.message || e}). Check the network connection.`);
    }
    const { done, value } = chunk;
    if (done) break;
    if (loaded + value.length > buffer.length) {
      const bigger = new Uint8Array(Math.max(buffer.length * 2, loaded + value.length));
      bigger.set(buffer.subarray(0, loaded));
      buffer = bigger;
    }
    buffer.set(value, loaded);
    loaded += value.length;
    if (loaded > MAX_FILE_BYTES) {
      reader.cancel().catch(() => {});
      throw new TranslatorError(ErrorCode.DOWNLOAD, `Could not download ${response.url}: more than ${MAX_FILE_BYTES} bytes, more than any file the translator reads.`);
    }
    onBytes(loaded, Math.max(total, loaded));
  }
  return loaded === buffer.length ? buffer : buffer.slice(0, loaded);
}

/**
 * A model the site's service worker has cached, read straight from Cache Storage: the same bytes
 * the service worker would answer with, without passing 9.5 MB through it (measured in Chromium:
 * ~75 ms instead of ~200 ms). Null when there is no such cache or entry (an embedding site without
 * our service worker, a first visit, Node), or when storage cannot be read.
 */
async function readCachedModel(url) {
  if (isNode) return null;
  try {
    // (in an opaque origin, a sandboxed frame's worker, Firefox throws for `caches` itself)
    if (!globalThis.caches || !(await caches.has(MODEL_CACHE))) return null; // never create the cache here
    const u = new URL(url);
    const response = await (await caches.open(MODEL_CACHE)).match(`${u.origin}${u.pathname}`);
    if (!response || !response.ok) return null;
    return new Uint8Array(await response.arrayBuffer());
  } catch {
    return null;
  }
}

async function readJson(url) {
  const bytes = await readUrl(url, 0, () => {});
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch (e) {
    throw new TranslatorError(ErrorCode.MODEL_NOT_FOUND, `The weights manifest ${url} is not valid JSON (${e.message}).`);
  }
}

async function sha256Hex(bytes) {
  const subtle = globalThis.crypto && globalThis.crypto.subtle;
  if (!subtle) return null; // not a secure context: nothing to check with
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

// ---------------------------------------------------------------------------------------------
// The engine.

let engine = null; // Module.Translator instance
let Module = null;
let wasmModule = null; // the compiled engine.wasm (WebAssembly.Module), when it compiled here
let relaxedModule = null; // the compiled relaxed_gemm.wasm, when the int8 GEMMs run relaxed SIMD
let loaded = null; // {model, reverse, info}: the checked model bytes, until sent to the main thread
let info = null;
let broken = null; // set when the engine trapped: nothing more can run
let freshEngine = null; // a restart's engine.wasm compiled anew: the one handed over was of another build

function fatal(message) {
  broken = message;
  post({ id: 0, status: Status.FATAL, error: errorPayload(ErrorCode.ENGINE_CRASHED, message) });
  // Let the message go out, then end: the main thread starts a fresh worker on the next call.
  setTimeout(() => (isNode ? process.exit(1) : self.close()), 10);
}

async function importEngine(engineUrl) {
  if (isNode) {
    // Emscripten's node branch expects CommonJS globals (see engine/BUILDING.md).
    const { createRequire } = await import('node:module');
    const path = await import('node:path');
    const { fileURLToPath } = await import('node:url');
    if (engineUrl.startsWith('file:')) {
      globalThis.require = createRequire(engineUrl);
      globalThis.__dirname = path.dirname(fileURLToPath(engineUrl));
    } else {
      globalThis.require = createRequire(import.meta.url);
      globalThis.__dirname = process.cwd();
    }
  }
  const mod = await import(engineUrl);
  return mod.default || mod.createEngine;
}

/** The error for an engine module that could not be imported: the Content-Security-Policy's directive that refused it, when one did. */
async function engineModuleFailed(engineUrl, e) {
  const u = new URL(engineUrl);
  const directive = u.protocol === 'file:' ? null : await refusedBy(u);
  return new TranslatorError(ErrorCode.ENGINE_LOAD, directive
    ? `Could not load the engine module ${engineUrl}: the Content-Security-Policy's ${directive} does not allow ${u.origin} (list it there, in the page's policy and in the one the server sends with worker.js).`
    : `Could not load the engine module ${engineUrl}: ${e.message || e}`);
}

/** Drops a model from the service worker's model cache (a copy that failed its check). */
async function evictCachedModel(url) {
  try {
    const u = new URL(url);
    await (await caches.open(MODEL_CACHE)).delete(`${u.origin}${u.pathname}`);
  } catch {
    // storage that cannot be written: the next start checks the copy again
  }
}

/** Throws INTEGRITY unless `bytes` has the manifest entry's size and SHA-256 (where it gives them). */
async function checkModel(url, entry, bytes) {
  if (entry.bytes && bytes.length !== entry.bytes) {
    throw new TranslatorError(ErrorCode.INTEGRITY, `The model file ${url} has ${bytes.length} bytes, the manifest says ${entry.bytes}: the download is incomplete or the file is stale.`);
  }
  if (entry.sha256) {
    const got = await sha256Hex(bytes);
    if (got && got !== entry.sha256.toLowerCase()) {
      throw new TranslatorError(ErrorCode.INTEGRITY, `The model file ${url} does not match the manifest's SHA-256 (got ${got.slice(0, 12)}…, expected ${entry.sha256.slice(0, 12)}…).`);
    }
  }
}

/** A model's bytes: from the service worker's cache when it is there, else downloaded with progress. */
async function fetchModel(url, entry, onBytes) {
  const cached = await readCachedModel(url);
  if (cached) {
    onBytes(cached.length, cached.length);
    return { bytes: cached, source: 'cache' };
  }
  return { bytes: await readUrl(url, entry.bytes, onBytes), source: 'network' };
}

/**
 * `download` (a model's fetch), where a model the manifest names is gone from the server failing
 * with modelGone(): the manifest this page read is older than the site on the server. Gone: 404,
 * 410, or a web page where the model was asked for (a host that answers a missing file with its
 * index.html, status 200: a single-page app's fallback).
 */
function listedModel(download, url, listed) {
  if (!listed) return download;
  return download.catch((e) => {
    if (e.httpStatus === 404 || e.httpStatus === 410) throw modelGone(url, `HTTP ${e.httpStatus}`);
    if (e.webPage) throw modelGone(url, 'the server answered with a web page (text/html), its page for a missing file');
    throw e;
  });
}

/**
 * Checks a fetched model against the manifest entry's size and SHA-256. A cached copy that fails
 * the check (damaged storage, a file replaced under the same name) is evicted and downloaded
 * again, so a bad copy cannot break every later start. Returns the checked { bytes, source }.
 */
async function verifyModel(url, entry, fetched, onBytes) {
  try {
    await checkModel(url, entry, fetched.bytes);
    return fetched;
  } catch (e) {
    if (fetched.source !== 'cache' || !(e instanceof TranslatorError)) throw e;
    console.warn(`${e.message} Dropping the cached copy and downloading it again.`);
    await evictCachedModel(url);
  }
  const bytes = await readUrl(url, entry.bytes, onBytes);
  await checkModel(url, entry, bytes);
  return { bytes, source: 'network' };
}

/**
 * Startup timing: absolute times (ms since the epoch, performance.timeOrigin + now()), so the page
 * can put them on its own clock. `marks[phase] = [start, end]`; sent with 'ready' as `startup`.
 */
const clock = () => performance.timeOrigin + performance.now();
const scriptStart = clock(); // this module evaluated: the worker is running
const marks = {};
const mark = (phase, promiseOrFn) => {
  const start = clock();
  const done = () => { marks[phase] = [start, clock()]; };
  if (typeof promiseOrFn === 'function') {
    try {
      return promiseOrFn();
    } finally {
      done();
    }
  }
  return promiseOrFn.then((v) => { done(); return v; });
};

/**
 * True when the site's service worker has a model cached: a repeat visit (see loadWasm).
 */
async function repeatVisit() {
  if (isNode) return false;
  try {
    if (!globalThis.caches || !(await caches.has(MODEL_CACHE))) return false; // never create the cache here (see readCachedModel)
    return (await (await caches.open(MODEL_CACHE)).keys()).length > 0;
  } catch {
    return false;
  }
}

/**
 * engine.wasm fetched and compiled. On a repeat visit in a browser (`streaming`), from a response
 * served as application/wasm: WebAssembly.compileStreaming, which lets the browser reuse the
 * machine code it cached for that response, so the first calls run optimized code (measured in
 * Chromium, model cached: create() to the first sentence ~40 ms sooner). On a first visit it
 * compiles from the bytes: there the streaming compile slowed the model's download that runs beside
 * it (2 cores: ~+150 ms). Also from the bytes: Node's file: URLs, another MIME type, no size to
 * report progress with, or a body the streaming compile refuses. Returns {module, bytes, how}:
 * module null when the bytes do not compile (Emscripten then gets the bytes and reports the
 * failure its own way).
 */
async function loadWasm(url, expectedBytes, onBytes, streaming) {
  const u = new URL(url);
  if (streaming && !isNode && u.protocol !== 'file:' && typeof WebAssembly.compileStreaming === 'function') {
    const response = await fetchOk(u);
    const total = responseBytes(response, expectedBytes);
    if (total > 0 && /^application\/wasm\b/i.test(response.headers.get('content-type') || '')) {
      onBytes(0, total);
      try {
        const module = await WebAssembly.compileStreaming(response);
        onBytes(total, total);
        return { module, bytes: null, how: 'streaming' };
      } catch {
        // read it again below: Emscripten then reports what is wrong with it
      }
      const bytes = await readUrl(url, expectedBytes, onBytes);
      return { module: await compileWasm(bytes), bytes, how: 'bytes' };
    }
    const bytes = await readResponse(response, expectedBytes, onBytes);
    return { module: await compileWasm(bytes), bytes, how: 'bytes' };
  }
  const bytes = await readUrl(url, expectedBytes, onBytes);
  return { module: await compileWasm(bytes), bytes, how: 'bytes' };
}

/**
 * A short translation in idle time after 'ready' (beam 4 with alignments, as translate()'s
 * defaults), so the first request finds the engine warm: its buffers allocated and its hot
 * functions compiled and tiered up by the JavaScript engine. It runs only when no request has come
 * WARMUP_DELAY_MS after 'ready': a caller that translates at once is not made to wait for it
 * (measured: a warm-up inside the start cost more than it saved the first sentence).
 */
const WARMUP = { en: 'The house is small.', de: 'Das Haus ist klein.' };
const WARMUP_DELAY_MS = 100;
let warmUpTimer = null;
function scheduleWarmUp(from) {
  warmUpTimer = setTimeout(() => {
    warmUpTimer = null;
    if (!engine || broken || busy || queue.length) return;
    try {
      engine.translate(WARMUP[from] || WARMUP.en, JSON.stringify({ beam: 4, alignments: true }));
    } catch {
      // a warm-up that fails says nothing the first request would not: that one reports it
    }
  }, WARMUP_DELAY_MS);
  if (isNode && warmUpTimer.unref) warmUpTimer.unref();
}

/** Never resolves; rejects when `promise` rejects. Ends a wait early when the engine fails. */
const failureOf = (promise) => promise.then(() => new Promise(() => {}));

/**
 * Compiles engine.wasm here rather than inside Emscripten, so that the compiled module can be sent
 * to the main thread and given to the next worker (a restart then skips the compile). Null when the
 * bytes do not compile: Emscripten then gets only the bytes, and reports the failure its own way.
 */
async function compileWasm(bytes) {
  try {
    return await WebAssembly.compile(bytes);
  } catch (e) {
    // (Chromium: "... violates the following Content Security policy directive ...", Firefox: "... blocked by CSP")
    if (refusedByCsp(String(e && e.message))) throw wasmRefused(e);
    return null;
  }
}

/**
 * The error for WebAssembly that this worker's Content-Security-Policy refuses to compile or
 * instantiate (script-src without 'wasm-unsafe-eval'). A worker started from a URL has the policy
 * its script's response sends (not the page's); one started from a blob: URL, the page's.
 */
function wasmRefused(e) {
  return new TranslatorError(ErrorCode.ENGINE_LOAD, 'Could not start the WebAssembly engine: the Content-Security-Policy does not allow ' +
    "WebAssembly here. Add 'wasm-unsafe-eval' to its script-src (the page's policy, and the one the server sends with worker.js); " +
    `no other source ('unsafe-eval' included) is needed. (${e && e.message ? e.message : e})`);
}
const refusedByCsp = (message) => /Content Security Policy|Content-Security-Policy|\bCSP\b|unsafe-eval/i.test(message);

/**
 * The error for an engine.js and an engine.wasm of different builds (the wasm's imports are not what
 * the script provides, or it starts without the script's Translator): a new release deployed while
 * the page was open, a stale cached copy of one of them, or a host that has one build's engine.js
 * beside another's engine.wasm.
 */
function engineBuildsDiffer(engineUrl, why) {
  return new TranslatorError(ErrorCode.PROTOCOL_MISMATCH,
    `The site was updated: reload the page. The engine's ${new URL(engineUrl).pathname.split('/').pop()} and its WebAssembly come from different ` +
    `builds (${why}); a new version of the site may have been installed since the page opened (if you host it, deploy engine.js and ` +
    'engine.wasm of one build together).');
}

/** An instantiate of a compiled module that failed because the script's imports do not fit it (not memory, not a policy). */
const importsDisagree = (e) => e instanceof WebAssembly.LinkError || e instanceof TypeError;

/**
 * The engine started from engine.wasm `compiled` ({module, bytes, how}, see loadWasm). A module
 * handed over (how 'reused': an earlier worker's or Translator's) is of the build that page loaded
 * first, which may not be the engine.js this worker imported: then engine.wasm is read afresh and
 * the engine started from that. Returns { Module, module }: the module it runs (a fresh one when the
 * handed-over one did not fit).
 */
async function startMatchingEngine(createEngine, compiled, engineUrl, wasmUrl) {
  if (compiled.how === 'reused') {
    let why;
    try {
      const started = await startEngine(createEngine, null, compiled.module);
      if (typeof started.Translator === 'function') return { Module: started, module: compiled.module };
      why = 'no Translator';
    } catch (e) {
      if (refusedByCsp(String(e.message))) throw e;
      why = e.cause ? String(e.cause.message || e.cause) : e.message;
    }
    broken = null; // (what the unfit instance aborted with is not this engine's)
    console.warn(`[engine] the compiled engine handed over is not of ${engineUrl}'s build (${why}): reading engine.wasm again.`);
    compiled = await loadWasm(wasmUrl, 0, () => {}, false);
  }
  let started;
  try {
    started = await startEngine(createEngine, compiled.bytes, compiled.module);
  } catch (e) {
    if (compiled.module && importsDisagree(e.cause)) throw engineBuildsDiffer(engineUrl, e.cause.message);
    throw e;
  }
  if (typeof started.Translator !== 'function') throw engineBuildsDiffer(engineUrl, 'its Translator is missing');
  return { Module: started, module: compiled.module };
}

/** Instantiates the engine from an already compiled module (wasmModule) or from its bytes. */
async function startEngine(createEngine, wasmBinary, wasmModule) {
  let instantiateFailed;
  const failed = new Promise((_, reject) => { instantiateFailed = reject; });
  try {
    return await Promise.race([failed, createEngine({
      wasmBinary,
      // Emscripten's hook: instantiate the compiled module ourselves and hand the instance over.
      instantiateWasm: wasmModule ? (imports, receive) => {
        WebAssembly.instantiate(wasmModule, imports).then((instance) => receive(instance, wasmModule), instantiateFailed);
        return {};
      } : undefined,
      print: () => {},
      printErr: (line) => console.warn('[engine]', line),
      onAbort: (what) => { broken = `The engine aborted: ${what}`; },
    })]);
  } catch (e) {
    const message = String(e && e.message ? e.message : e);
    if (refusedByCsp(message)) throw wasmRefused(e);
    throw new TranslatorError(ErrorCode.ENGINE_LOAD, `Could not start the WebAssembly engine: ${message}`, { cause: e });
  }
}

/**
 * The relaxed-SIMD GEMM module (relaxed-simd.js), fetched and compiled unless msg.simd is
 * 'simd128' or relaxed SIMD is missing here; null then.
 */
async function loadRelaxedKernel(msg) {
  if (msg.simd === 'simd128' || !relaxedSimdSupported()) return null;
  return WebAssembly.compile(await readUrl(relaxedKernelUrl(msg.wasmUrl), 0, () => {}));
}

/**
 * Plugs the relaxed GEMM into the engine where it can run, and returns which kernel the int8
 * GEMMs use: 'relaxed' or 'simd128' (msg.simd: 'auto' or absent, 'relaxed', 'simd128'). A forced
 * 'relaxed' that cannot run is an error; 'auto' falls back to SIMD128.
 */
async function chooseSimd(msg, relaxedKernel) {
  const forced = msg.simd === 'relaxed';
  if (typeof Module.setSimd !== 'function') { // an engine built before relaxed SIMD (or a test's fake)
    if (forced) throw new TranslatorError(ErrorCode.ENGINE_LOAD, 'This engine build has no relaxed-SIMD kernel support.');
    return 'simd128';
  }
  if (forced && !relaxedSimdSupported()) {
    throw new TranslatorError(ErrorCode.NO_SIMD, 'simd: \'relaxed\' was asked for, but this browser has no WebAssembly relaxed SIMD (Chrome/Edge 114+, Firefox 145+).');
  }
  let compiled = null;
  try {
    compiled = await relaxedKernel;
  } catch (e) {
    if (forced) throw new TranslatorError(ErrorCode.ENGINE_LOAD, `Could not load the relaxed-SIMD kernel ${relaxedKernelUrl(msg.wasmUrl)}: ${e.message || e}`);
    console.warn('[engine] relaxed SIMD kernel unavailable, using SIMD128:', e.message || e);
  }
  if (compiled) {
    Module.relaxedModule = compiled;
    if (Module.setSimd('relaxed')) {
      relaxedModule = compiled;
      return 'relaxed';
    }
    if (forced) throw new TranslatorError(ErrorCode.ENGINE_LOAD, 'The relaxed-SIMD kernel could not be plugged into the engine.');
  }
  Module.setSimd('simd128');
  return 'simd128';
}

/**
 * A restart: a new worker that takes over from one the main thread ended (a cancelled request, a
 * large one), or a pool worker (pool.js). It gets what the first worker loaded and checked (the
 * model bytes and the compiled engine), so it downloads, verifies and compiles nothing, and reports
 * no progress.
 */
async function restart(msg) {
  const { reuse } = msg;
  const models = Promise.all([bytesOf(reuse.model), bytesOf(reuse.reverse)]); // read while the engine starts
  models.catch(() => {}); // awaited below
  let createEngine;
  try {
    createEngine = await mark('engineScript', importEngine(msg.engineUrl));
  } catch (e) {
    throw await engineModuleFailed(msg.engineUrl, e);
  }
  let compiled = { module: reuse.wasmModule, bytes: null, how: 'reused' };
  if (!compiled.module) {
    const bytes = await readUrl(msg.wasmUrl, 0, () => {});
    compiled = { module: await compileWasm(bytes), bytes, how: 'bytes' };
  }
  const started = await mark('instantiate', startMatchingEngine(createEngine, compiled, msg.engineUrl, msg.wasmUrl));
  Module = started.Module;
  wasmModule = started.module;
  // (an engine of another build than the one handed over: its relaxed kernel is read afresh too)
  if (reuse.wasmModule && wasmModule !== reuse.wasmModule) freshEngine = wasmModule;
  const simd = await chooseSimd(msg, reuse.relaxedModule && !freshEngine ? Promise.resolve(reuse.relaxedModule) : loadRelaxedKernel(msg));
  const [model, reverse] = await models;
  mark('modelLoad', () => loadModels(model, reverse, reuse.info.url, reuse.info.reverse && reuse.info.reverse.url));
  info = JSON.parse(engine.info());
  Object.assign(info, { url: reuse.info.url, source: reuse.info.source, reverse: reuse.info.reverse, requested: { from: msg.from, to: msg.to }, simd });
  loaded = null; // the main thread keeps its own copy
  return info;
}

/** The bytes of a model handed over in `reuse`: a Blob (see reusable()) read here, or bytes as they are. */
async function bytesOf(model) {
  if (typeof Blob !== 'function' || !(model instanceof Blob)) return model;
  try {
    return new Uint8Array(await model.arrayBuffer());
  } catch (e) {
    throw new TranslatorError(ErrorCode.MODEL_LOAD, `The model handed over by the first worker could not be read: ${e && e.message ? e.message : e}`);
  }
}

/** Loads the model (and the reverse model) into a new engine; throws MODEL_LOAD with the engine's message. */
function loadModels(model, reverse, modelUrl, reverseUrl) {
  if (engine) engine.delete();
  engine = new Module.Translator();
  if (typeof engine.sentences !== 'function') { // engine.js and engine.wasm older than this file
    engine.delete();
    engine = null;
    throw new TranslatorError(ErrorCode.ENGINE_LOAD, 'The engine build is older than worker.js (its Translator has no sentences()): rebuild it (scripts/build.sh) or load both from the same build.');
  }
  const err = engine.load(model);
  const reverseErr = !err && reverse ? engine.loadReverse(reverse) : '';
  if (err || reverseErr) {
    engine.delete();
    engine = null;
    if (err) throw new TranslatorError(ErrorCode.MODEL_LOAD, `The model ${modelUrl} could not be loaded: ${err}`);
    throw new TranslatorError(ErrorCode.MODEL_LOAD, `The reverse model ${reverseUrl} could not be loaded: ${reverseErr}`);
  }
}

async function init(msg) {
  marks.init = [scriptStart, clock()]; // from this script running to the 'init' message
  if (msg.reuse) return restart(msg);
  const files = { engine: { loaded: 0, total: 0 }, model: { loaded: 0, total: 0 } };
  if (msg.rerank) files.reverse = { loaded: 0, total: 0 };
  let lastPost = 0;
  let announced = false; // nothing is reported before the manifest has given the sizes it knows
  const progress = (phase, force) => {
    const now = Date.now();
    if (!announced || (!force && now - lastPost < 50)) return; // at most ~20 reports a second
    lastPost = now;
    const all = Object.values(files);
    // The total is reported once every file's size is known (0 until then), so that it never
    // grows while the bar fills (engine.wasm's size used to arrive late: 9.5 MB, then 9.8 MB).
    const sized = all.every((f) => f.total > 0);
    post({
      id: msg.id,
      status: Status.PROGRESS,
      phase,
      loaded: all.reduce((n, f) => n + f.loaded, 0),
      total: sized ? all.reduce((n, f) => n + f.total, 0) : 0,
      files: Object.fromEntries(Object.entries(files).map(([k, f]) => [k, { ...f }])),
    });
  };
  const track = (file) => (loaded, total) => { file.loaded = loaded; file.total = total; progress('download'); };

  // The engine starts at once, beside the manifest and the models: engine.js imported, engine.wasm
  // fetched and compiled (streaming where it can: see loadWasm), or a module the page compiled for
  // an earlier Translator (msg.wasmModule), then instantiated. WebAssembly compiles off the JS
  // thread, so a start costs about max(download, compile), not their sum.
  const wasm = msg.wasmModule
    ? Promise.resolve({ module: msg.wasmModule, bytes: null, how: 'reused' })
    : mark('compile', repeatVisit().then((again) => loadWasm(msg.wasmUrl, 0, track(files.engine), again)));
  const engineReady = Promise.all([
    mark('engineScript', importEngine(msg.engineUrl)).catch(async (e) => {
      throw await engineModuleFailed(msg.engineUrl, e);
    }),
    wasm,
  ]).then(async ([createEngine, compiled]) => {
    marks.compiled = compiled.how;
    const started = await mark('instantiate', startMatchingEngine(createEngine, compiled, msg.engineUrl, msg.wasmUrl));
    wasmModule = started.module;
    if (msg.wasmModule && wasmModule !== msg.wasmModule) marks.compiled = 'bytes'; // (the page's was of another build)
    return started.Module;
  });
  engineReady.catch(() => {}); // awaited below; this keeps an early failure from counting as unhandled meanwhile
  const relaxedKernel = loadRelaxedKernel(msg); // 4 kB, beside the model's download
  relaxedKernel.catch(() => {});

  // Which files: an explicit model URL, or the manifest's entry for from→to (and, to rerank, to→from).
  let modelUrl = msg.modelUrl;
  let reverseUrl = msg.reverseModelUrl;
  let entry = { bytes: 0, sha256: null };
  let reverseEntry = { bytes: 0, sha256: null };
  let engineBytes = 0; // engine.wasm's size, when the manifest gives it for this very URL
  if (!modelUrl || (msg.rerank && !reverseUrl)) {
    if (!msg.manifestUrl) throw new TranslatorError(ErrorCode.BAD_REQUEST, msg.modelUrl ? 'rerank needs reverseModelUrl or manifestUrl.' : 'Neither modelUrl nor manifestUrl was given.');
    let manifest;
    try {
      manifest = await mark('manifest', readJson(msg.manifestUrl));
    } catch (e) {
      if (e instanceof TranslatorError && e.code !== ErrorCode.DOWNLOAD) throw e;
      throw new TranslatorError(ErrorCode.MODEL_NOT_FOUND, `Could not read the weights manifest ${msg.manifestUrl}: ${e.message || e}`);
    }
    if (!modelUrl) {
      entry = pickModel(manifest, msg.from, msg.to);
      modelUrl = new URL(entry.file, msg.manifestUrl).href;
    }
    if (msg.rerank && !reverseUrl) {
      reverseEntry = pickModel(manifest, msg.to, msg.from);
      reverseUrl = new URL(reverseEntry.file, msg.manifestUrl).href;
    }
    const wasmEntry = manifest.engine && manifest.engine.wasm;
    if (wasmEntry && wasmEntry.file && wasmEntry.bytes > 0 && new URL(wasmEntry.file, msg.manifestUrl).href === new URL(msg.wasmUrl, msg.manifestUrl).href) engineBytes = wasmEntry.bytes;
  }
  if (msg.modelBytes) entry.bytes = msg.modelBytes;
  if (msg.modelSha256) entry.sha256 = msg.modelSha256;
  if (msg.wasmModule) {
    // Compiled already (an earlier Translator on this page): counted as there from the start.
    if (engineBytes) files.engine = { loaded: engineBytes, total: engineBytes };
    else delete files.engine;
  } else if (!files.engine.total) files.engine.total = engineBytes;
  files.model.total = entry.bytes || 0;
  if (files.reverse) files.reverse.total = reverseEntry.bytes || 0;
  announced = true;
  progress('download', true);

  // Each phase is reported as the start reaches it: 'download' while bytes arrive, 'verify' when
  // the models' checks begin, 'compile' when the start waits for the engine, 'load' just before the
  // model is instantiated.
  const [, fetched, fetchedReverse] = await Promise.race([
    Promise.all([
      wasm,
      mark('download', Promise.all([
        listedModel(fetchModel(modelUrl, entry, track(files.model)), modelUrl, !msg.modelUrl),
        msg.rerank ? listedModel(fetchModel(reverseUrl, reverseEntry, track(files.reverse)), reverseUrl, !msg.reverseModelUrl) : null,
      ])),
    ]).then(([w, [m, r]]) => [w, m, r]),
    failureOf(engineReady), // an engine that cannot start fails the start at once
  ]);
  progress('download', true);

  // The SHA-256 runs off this thread (WebCrypto) while the engine starts and the model loads into
  // it; 'ready' waits for the check, so a model that fails it never translates. (A cached copy that
  // fails is downloaded again and loaded again.)
  progress('verify', true);
  const checked = mark('sha256', Promise.all([
    listedModel(verifyModel(modelUrl, entry, fetched, track(files.model)), modelUrl, !msg.modelUrl),
    fetchedReverse ? listedModel(verifyModel(reverseUrl, reverseEntry, fetchedReverse, track(files.reverse)), reverseUrl, !msg.reverseModelUrl) : null,
  ]));
  checked.catch(() => {}); // awaited below

  progress('compile', true);
  Module = await Promise.race([engineReady, failureOf(checked)]);
  const simd = await chooseSimd(msg, relaxedKernel);

  progress('load', true);
  let loadFailed = false; // the bytes as read; a copy that fails its check is read again, and loaded again
  try {
    mark('modelLoad', () => loadModels(fetched.bytes, fetchedReverse && fetchedReverse.bytes, modelUrl, reverseUrl));
  } catch (e) {
    loadFailed = e;
  }
  const [model, reverse] = await checked;
  if (loadFailed || model.bytes !== fetched.bytes || (reverse && reverse.bytes !== fetchedReverse.bytes)) {
    mark('modelLoad', () => loadModels(model.bytes, reverse && reverse.bytes, modelUrl, reverseUrl));
  }
  info = JSON.parse(engine.info());
  info.url = modelUrl;
  info.source = model.source;
  info.reverse = reverse ? { url: reverseUrl, source: reverse.source, bytes: reverse.bytes.length } : null;
  info.requested = { from: msg.from, to: msg.to };
  info.simd = simd;
  loaded = {
    model: model.bytes,
    reverse: reverse ? reverse.bytes : null,
    info: { url: info.url, source: info.source, reverse: info.reverse },
  };
  return info;
}

/** The startup marks for 'ready' (see `marks`), with where the model came from and how the engine compiled. */
function startupMarks() {
  const { compiled, ...phases } = marks;
  return { phases, compiled: compiled || (wasmModule ? 'reused' : 'bytes'), source: info ? info.source : null, ready: clock() };
}

/**
 * What a restart needs (see restart()), sent to the main thread with 'ready'. The checked model bytes
 * go as Blobs, made here: the main thread passes a Blob on to each restart and pool helper without
 * copying it (a posted ArrayBuffer is cloned: 11 MB copied on the main thread each time), and the
 * new worker reads it on its own thread (making them costs this thread ~13 ms before its first
 * 'ready'). The compiled module goes along where it can be posted.
 */
function reusable() {
  if (!loaded) return { reuse: null };
  const reuse = {
    model: new Blob([loaded.model]),
    reverse: loaded.reverse ? new Blob([loaded.reverse]) : null,
    info: loaded.info,
    wasmModule,
    relaxedModule,
  };
  loaded = null;
  return { reuse };
}

const yieldToEventLoop = () => new Promise((resolve) => (isNode ? setImmediate(resolve) : setTimeout(resolve, 0)));

const cancelled = new Set();

/**
 * Lone surrogates replaced by U+FFFD, one unit for one, so ranges still index the caller's string.
 * (Embind's UTF-8 conversion would pair two lone surrogates into one wrong character.)
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const wellFormed = (s) => (typeof s === 'string' ? s.replace(LONE_SURROGATE, '\uFFFD') : s);
const wellFormedOptions = (o) => (o && typeof o.prefix === 'string' ? { ...o, prefix: wellFormed(o.prefix) } : o || {});

async function translate(msg) {
  if (!engine) throw new TranslatorError(ErrorCode.BAD_REQUEST, 'The model is not loaded yet.');
  if (typeof msg.text !== 'string') throw new TranslatorError(ErrorCode.BAD_REQUEST, 'The text to translate must be a string.');
  // The engine's JSON options, checked by translator.js (options.js) and again by the engine.
  const engineOptions = JSON.stringify(wellFormedOptions(msg.options));
  const started = performance.now();
  const builder = new ResultBuilder(msg.text);
  // A prefix holds for one sentence: the text goes to the engine whole, which says when it is not one.
  const prefixed = !!(msg.options && msg.options.prefix);
  let chunks = !prefixed ? planChunks(msg.text, msg.chunkChars || 1000)
    : msg.text.trim() ? planChunks(msg.text, Infinity) : [[0, msg.text.length]];
  // A short text of several sentences (lines, or one long line) goes to the engine in groups of
  // sentences, each group's sentences sent as it is done: a Stop keeps them. Not a chunk of the
  // pool's (chunkChars Infinity: given to the engine whole), nor with greedy search, which lost
  // more to the smaller batches (12 lines: 1.12x the time) and ends a short text in a moment anyway.
  // Beam 4 (one line of 12 sentences, groups of 2, 2, 4, 4): 1.03-1.05x the CPU time of one call.
  const greedy = !!(msg.options && msg.options.beam === 1);
  if (chunks.length === 1 && !prefixed && !greedy && msg.chunkChars !== Infinity) {
    chunks = sentenceGroups(sentencesOf(msg.text, chunks[0]), chunks[0]);
  }
  for (let i = 0; i < chunks.length; i++) {
    if (cancelled.has(msg.id)) return null;
    const [b, e] = chunks[i];
    const res = engineCall('translating', () => engine.translate(wellFormed(msg.text.slice(b, e)), engineOptions));
    if (!res.ok) throw new TranslatorError(prefixed ? ErrorCode.BAD_REQUEST : ErrorCode.TRANSLATE, res.error || 'The engine could not translate the text.');
    const added = builder.add(b, e, res.result);
    if (chunks.length > 1) {
      post({ id: msg.id, status: Status.PARTIAL, text: added.text, sentences: added.sentences, range: [b, e], done: added.done, total: msg.text.length });
      await yieldToEventLoop(); // lets a 'cancel' in
    }
  }
  const result = builder.finish();
  result.timings.workerMs = performance.now() - started;
  result.stats.chunks = chunks.length;
  result.stats.wasmHeapBytes = wasmHeapBytes();
  return result;
}

/**
 * The engine's JSON answer to `call` (one synchronous engine call). An engine that traps or aborts
 * inside it cannot be trusted any more: the worker reports 'fatal' and ends (see fatal()).
 */
function engineCall(doing, call) {
  let res;
  try {
    res = JSON.parse(call());
  } catch (err) {
    fatal(`The engine crashed while ${doing}: ${err && err.message ? err.message : err}`);
    throw new TranslatorError(ErrorCode.ENGINE_CRASHED, broken);
  }
  if (broken) {
    fatal(broken);
    throw new TranslatorError(ErrorCode.ENGINE_CRASHED, broken);
  }
  return res;
}

/** The sentences the engine reads in the chunk [b, e) of `text`, as ranges of `text` (engine/translator.h sentence_ranges). */
function sentencesOf(text, [b, e]) {
  const res = engineCall('finding sentences', () => engine.sentences(wellFormed(text.slice(b, e))));
  if (!res.ok) throw new TranslatorError(ErrorCode.TRANSLATE, res.error || 'The engine could not find the sentences of the text.');
  return res.result.map(([sb, se]) => [b + sb, b + se]);
}

/** The next words after a target prefix (engine/search/alternatives.h): {alternatives: [{word, probability, continuation}]}. */
function alternatives(msg) {
  if (!engine) throw new TranslatorError(ErrorCode.BAD_REQUEST, 'The model is not loaded yet.');
  const res = engineCall('listing alternatives', () => engine.alternatives(wellFormed(msg.source), JSON.stringify(wellFormedOptions(msg.options))));
  if (!res.ok) throw new TranslatorError(ErrorCode.BAD_REQUEST, res.error || 'The engine could not list alternatives.');
  return res.result;
}

/** The engine's WebAssembly memory in bytes (it only grows: the most this worker has needed so far). */
function wasmHeapBytes() {
  const heap = Module && (Module.HEAPU8 || (Module.wasmMemory && new Uint8Array(Module.wasmMemory.buffer)));
  return heap ? heap.length : null;
}

function memory() {
  let jsHeapBytes = null;
  if (isNode) jsHeapBytes = process.memoryUsage().heapUsed;
  else if (globalThis.performance && performance.memory) jsHeapBytes = performance.memory.usedJSHeapSize;
  return { wasmBytes: wasmHeapBytes(), jsHeapBytes, modelFileBytes: info ? info.file_bytes : null };
}

// ---------------------------------------------------------------------------------------------
// The message loop: one request at a time, in order; 'cancel' acts immediately.

const queue = [];
let busy = false;

async function handle(msg) {
  switch (msg.type) {
    case Request.INIT: {
      if (msg.protocol !== PROTOCOL_VERSION) throw protocolMismatch('page', msg.protocol);
      const ready = { status: Status.READY, protocol: PROTOCOL_VERSION, info: await init(msg), startup: startupMarks(), ...reusable() };
      if (freshEngine) ready.wasmModule = freshEngine;
      if (!msg.reuse && msg.warmUp !== false) scheduleWarmUp(msg.from);
      return ready;
    }
    case Request.TRANSLATE: {
      const result = await translate(msg);
      return result ? { status: Status.RESULT, result } : null;
    }
    case Request.ALTERNATIVES:
      return { status: Status.RESULT, result: alternatives(msg) };
    case Request.MEMORY:
      return { status: Status.RESULT, result: memory() };
    default:
      throw new TranslatorError(ErrorCode.BAD_REQUEST, `Unknown request type ${JSON.stringify(msg.type)}.`);
  }
}

/** Posts a reply; `transfer` lists buffers to move, not copy. A compiled module that cannot be posted here is left out. */
function postReply(id, { transfer, ...reply }) {
  try {
    post({ id, ...reply }, transfer);
  } catch (e) {
    if (!(reply.wasmModule || (reply.reuse && (reply.reuse.wasmModule || reply.reuse.relaxedModule)))) throw e;
    const reuse = reply.reuse && { ...reply.reuse, wasmModule: null, relaxedModule: null };
    post({ id, ...reply, reuse, wasmModule: undefined }, transfer);
  }
}

async function drain() {
  if (busy) return;
  busy = true;
  while (queue.length) {
    const msg = queue.shift();
    if (cancelled.delete(msg.id)) continue;
    if (broken) {
      post({ id: msg.id, status: Status.ERROR, error: errorPayload(ErrorCode.ENGINE_CRASHED, broken) });
      continue;
    }
    try {
      const reply = await handle(msg);
      if (reply && !cancelled.has(msg.id)) postReply(msg.id, reply);
    } catch (e) {
      const code = e instanceof TranslatorError ? e.code : ErrorCode.TRANSLATE;
      if (!cancelled.has(msg.id)) post({ id: msg.id, status: Status.ERROR, error: errorPayload(code, e.message || String(e)) });
    }
    cancelled.delete(msg.id);
  }
  busy = false;
}

onMessage((msg) => {
  if (!msg || typeof msg !== 'object') return;
  if (warmUpTimer) { clearTimeout(warmUpTimer); warmUpTimer = null; } // a request came: no warm-up
  if (msg.type === Request.CANCEL) {
    const i = queue.findIndex((m) => m.id === msg.target);
    if (i >= 0) queue.splice(i, 1);
    else cancelled.add(msg.target);
    return;
  }
  if (msg.type === Request.TEST_CRASH) {
    // Dies the way a broken worker does: a hard exit (Node) or an uncaught exception (browser),
    // before any request that arrives after this message runs.
    if (isNode) process.exit(3);
    throw new Error('test crash requested');
  }
  queue.push(msg);
  drain();
});
