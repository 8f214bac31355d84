/**
 * nmt-translator: English↔German machine translation with word alignments, run by a WebAssembly
 * Transformer engine inside a Web Worker (browser) or a worker thread (Node). The main thread only
 * queues requests and receives results; it never runs the model.
 *
 * Basic usage:
 *
 *   import { Translator } from './translator.js';
 *   const t = await Translator.create({ from: 'en', to: 'de', onProgress: (p) => console.log(p.loaded, p.total) });
 *   const r = await t.translate('Hello world. How are you?', { beam: 4, alignments: true });
 *   r.text;                          // the whole translation
 *   r.sentences[0].wordAlignments;   // [{target, source, weight, targetRange, sourceRange}, ...]
 *   r.sentences[0].targetWordConfidence;  // [0.87, 0.93, ...] one per targetWords entry, 0..1
 *   t.dispose();
 *
 * Streaming: translateStreaming() takes the same text and options and returns a ReadableStream
 * (async-iterable) of the same Sentence objects, each chunk's as soon as that chunk is done:
 *
 *   for await (const s of t.translateStreaming(longText, { signal })) show(s.target, s.sourceRange);
 *
 * Memory: a result keeps every field of each sentence packed (packed-sentences.js: texts, ranges,
 * tokens, probabilities, attention, alignments; ~0.55 kB in all for a short sentence with
 * alignments, ~3.9 kB for a flores-dev one, where JavaScript arrays took ~86 kB for 40 tokens) and
 * turns a field into plain values the first time it is read; the worker keeps nothing of a request
 * but the chunk it is on. Measured in Node with the default options and two workers (npm run
 * bench:memory): 100,000 short lines peaked at 287 MiB in all and 1 MB of prose at 281 (1,248 and
 * 824 with plain arrays); Node and two workers with their engines take ~250 MiB for any text of
 * several chunks. translateStreaming() hands each sentence over as its chunk is done, but its `translation`
 * holds them all, as translate()'s result does.
 *
 * Steering one sentence: translate() with `prefix` makes the translation start with that text
 * (kept exactly; the search goes on after it), and alternatives() lists the words the model would
 * put next after a prefix, each with the rest of the sentence it leads to (greedy):
 *
 *   await t.alternatives('The house is small.', 'Das ', { count: 5 });
 *   // [{ word: 'Haus', probability: 0.89, continuation: ' ist klein.' }, { word: 'Gebäude', ... }, ...]
 *   await t.translate('The house is small.', { prefix: 'Das Gebäude ' });   // 'Das Gebäude ist klein.'
 *
 * Requests run one at a time in call order. Long inputs are cut into chunks (about 1,000
 * characters, never more than 3,000: see protocol.js's planChunks) so that no engine call grows
 * without bound, and onProgress reports each. With `workers` > 1 (the default: one per core, at
 * most 4), the chunks of such an input are translated by a pool of workers at once (pool.js), each
 * with its own engine started from the first worker's verified model bytes and compiled engine;
 * results, progress and streaming stay in input order, and the translation is the same. Passing an AbortSignal cancels a request: a queued
 * one is removed without running; a running one rejects at once with an AbortError, and since the
 * engine call is synchronous inside the worker, that worker is ended and a new one started in its
 * place from the model bytes and compiled engine the first one handed over (no download, check or
 * compile), so the requests queued behind it wait for that restart, not for the cancelled chunk.
 * After a request of `recycleChars` characters or more (default 200,000) the worker is replaced the
 * same way, which gives its WebAssembly memory (it never shrinks) back. A replacement starts once
 * the workers it replaces have ended (Node ends a thread asynchronously), so that two engines never
 * hold memory at once. If the worker dies, the
 * request it was running and those queued behind it reject with a TranslatorError (code
 * 'worker-died'; 'engine-crashed' when the engine trapped or aborted), and the next call starts a new worker.
 *
 * Files: by default the engine is `./engine/engine.js` + `./engine/engine.wasm` and the weights
 * manifest `./models/manifest.json`, relative to this module (the layout scripts/build-web.mjs
 * writes to dist/). In Node, when those are missing, the repository layout is used instead:
 * `../build-wasm/engine.{js,wasm}` and `../weights/manifest.json`.
 */
import {
  Request, Status, ErrorCode, TranslatorError, abortError, pickModel, PROTOCOL_VERSION, protocolMismatch,
} from './protocol.js';
import { engineOptions } from './options.js';
import { requestOptions, checkOwnOptions, checkBatchOptions, checkFlag, isAbortSignal } from './request-options.js';
import { unpackSentences, shareWholeText } from './packed-sentences.js';
import { SIMD_CHOICES, relaxedSimdSupported } from './relaxed-simd.js';
import { WorkerPool, checkWorkers, defaultWorkers, nodeBuiltin } from './pool.js';
import { translateHtml } from './html/translate-html.js';
import { translateElement } from './html/translate-element.js';
import { asyncIterable } from './async-iterable.js';

export { TranslatorError, ErrorCode, PROTOCOL_VERSION } from './protocol.js';
export { DECODING_OPTIONS } from './options.js';
export { detectLanguage } from './detect.js';
export { translateElement, restoreElement } from './html/translate-element.js';

// Node, also with a `window` of a DOM emulation (jsdom, happy-dom: tests of a page's code) that has
// no Worker; not Electron's renderer, which has both and runs the browser's way.
const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node)
  && (typeof window === 'undefined' || typeof Worker !== 'function');

/** A 31-byte module using SIMD128 (i8x16.splat + i8x16.popcnt): valid only where SIMD is supported. */
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

/** True when this JavaScript engine runs WebAssembly with the SIMD128 extension (the engine needs it). */
export function hasWasmSimd() {
  try {
    return typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  } catch {
    return false;
  }
}

function requireSimd() {
  if (typeof WebAssembly !== 'object') {
    throw new TranslatorError(ErrorCode.NO_SIMD, 'This browser does not support WebAssembly, which the translator needs.');
  }
  if (!hasWasmSimd()) {
    throw new TranslatorError(ErrorCode.NO_SIMD, 'This browser does not support WebAssembly SIMD, which the translator needs. ' +
      'Use a current version of Chrome, Edge, Firefox or Safari (16.4 or later).');
  }
}

/** Translator.create's `simd` option: absent, 'auto', 'relaxed' (where it runs) or 'simd128'. */
function checkSimdChoice(simd) {
  if (simd === undefined) return;
  if (!SIMD_CHOICES.includes(simd)) {
    throw new TranslatorError(ErrorCode.BAD_REQUEST, `Translator.create(): simd must be one of ${SIMD_CHOICES.map((c) => `'${c}'`).join(', ')} (got ${JSON.stringify(simd)}).`);
  }
  if (simd === 'relaxed' && !relaxedSimdSupported()) {
    throw new TranslatorError(ErrorCode.NO_SIMD, "Translator.create(): simd: 'relaxed' was asked for, but this JavaScript engine has no WebAssembly relaxed SIMD (Chrome/Edge 114+, Firefox 145+; not Node 20 or Safari).");
  }
}

const isUrl = (v) => typeof v === 'string' || v instanceof URL;

/**
 * TranslatorOptions' names (translator.d.ts), each with the check of its type where create()
 * has no check of its own (recycleChars, simd, workers) and the type a failed check names.
 */
const CREATE_OPTIONS = {
  from: [(v) => typeof v === 'string', 'a string'],
  to: [(v) => typeof v === 'string', 'a string'],
  manifestUrl: [isUrl, 'a string or a URL'],
  modelUrl: [isUrl, 'a string or a URL'],
  modelBytes: [(v) => Number.isInteger(v) && v >= 0, 'a whole number'],
  modelSha256: [(v) => typeof v === 'string', 'a string'],
  rerank: [(v) => typeof v === 'boolean', 'true or false'],
  reverseModelUrl: [isUrl, 'a string or a URL'],
  engineUrl: [isUrl, 'a string or a URL'],
  wasmUrl: [isUrl, 'a string or a URL'],
  workerUrl: [isUrl, 'a string or a URL'],
  onProgress: [(v) => typeof v === 'function', 'a function'],
  recycleChars: null,
  simd: null,
  workers: null,
  warmUp: [(v) => typeof v === 'boolean', 'true or false'],
  signal: [isAbortSignal, 'an AbortSignal'],
};

/**
 * A name that is no option (a typo, or the standard API's sourceLanguage) would be ignored without
 * a word, and a value of another type misread (rerank: 'false' is true: a second model downloaded).
 */
function checkCreateOptions(options) {
  checkOptions(options, CREATE_OPTIONS, 'Translator.create()');
}

/** Each of `options`' names must be one of `table`'s, its value of the type the table says. */
function checkOptions(options, table, where) {
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined) continue;
    if (!Object.hasOwn(table, key)) {
      throw new TranslatorError(ErrorCode.BAD_REQUEST, `${where}: ${JSON.stringify(key)} is not an option (options: ${Object.keys(table).join(', ')}).`);
    }
    const check = table[key];
    if (check && value !== null && !check[0](value)) {
      const got = typeof value === 'string' ? JSON.stringify(value) : typeof value === 'number' ? String(value) : typeof value;
      throw new TranslatorError(ErrorCode.BAD_REQUEST, `${where}: ${key} must be ${check[1]} (got ${got}).`);
    }
  }
}

/** Translator.create's `recycleChars`: absent, or a number of characters from 0 (Infinity: never). */
function checkRecycleChars(value) {
  if (value === undefined) return;
  // (null, a string or NaN would compare as 0 or never: a worker per request, or none at all)
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    const got = typeof value === 'number' ? String(value) : `${value === null ? 'null' : typeof value} ${JSON.stringify(value) ?? ''}`.trim();
    throw new TranslatorError(ErrorCode.BAD_REQUEST,
      `Translator.create({ recycleChars }): recycleChars must be a number of characters, 0 or more (Infinity: never) (got ${got}).`);
  }
}

async function exists(url) {
  if (!isNode || url.protocol !== 'file:') return true;
  const fs = await nodeBuiltin('fs');
  return fs.existsSync(url);
}

/** Resolves the default engine and manifest locations (see the file comment). */
async function defaultLocations() {
  const distEngine = new URL('./engine/engine.js', import.meta.url);
  const distManifest = new URL('./models/manifest.json', import.meta.url);
  const useRepo = isNode && !(await exists(distEngine));
  const engineUrl = useRepo ? new URL('../build-wasm/engine.js', import.meta.url) : distEngine;
  const manifestUrl = isNode && !(await exists(distManifest)) ? new URL('../weights/manifest.json', import.meta.url) : distManifest;
  return { engineUrl, manifestUrl };
}

/** translate(html, { html: true })'s names besides the decoding options. */
const HTML_OPTIONS = ['signal', 'onProgress', 'chunkChars', 'html', 'batchChars'];

const toUrl = (u, base) => (u instanceof URL ? u : new URL(String(u), base)).href;
/**
 * What relative URLs given to the module resolve against: in Node the working directory; in a page
 * the document's base URL (a <base href> counts, as for fetch()); in a worker its location.
 */
const baseUrl = () => {
  if (isNode) {
    // (as url.pathToFileURL would: a folder named 'my C# app' is no fragment; C:\ becomes /C:/)
    const cwd = process.cwd().replace(/[%#?]/g, encodeURIComponent);
    return `file://${cwd.startsWith('/') ? '' : '/'}${cwd}/`;
  }
  if (typeof document === 'object' && document && typeof document.baseURI === 'string') return document.baseURI;
  return typeof location !== 'undefined' ? location.href : import.meta.url;
};

/**
 * Reads a weights manifest and lists the translation directions it offers.
 * @param {{manifestUrl?: string|URL}} [options]
 * @returns {Promise<Array<{from: string, to: string, file: string, url: string, bytes?: number, sha256?: string}>>}
 */
export async function listModels(options = {}) {
  if (options === null) options = {};
  if (typeof options !== 'object') throw new TranslatorError(ErrorCode.BAD_REQUEST, `listModels(): options must be an object (got ${typeof options}).`);
  checkOptions(options, { manifestUrl: CREATE_OPTIONS.manifestUrl }, 'listModels()');
  const manifestUrl = toUrl(options.manifestUrl || (await defaultLocations()).manifestUrl, baseUrl());
  const unreadable = (why) => new TranslatorError(ErrorCode.MODEL_NOT_FOUND, `Could not read the weights manifest ${manifestUrl}: ${why}`);
  let text;
  // (a missing file, a lost connection: the error create() gives, not the platform's TypeError)
  try {
    if (isNode && manifestUrl.startsWith('file:')) {
      text = await (await nodeBuiltin('fs')).promises.readFile(new URL(manifestUrl), 'utf8');
    } else {
      const response = await fetch(manifestUrl);
      if (!response.ok) throw unreadable(`HTTP ${response.status}`);
      text = await response.text();
    }
  } catch (e) {
    throw e instanceof TranslatorError ? e : unreadable(e.code === 'ENOENT' ? 'no such file' : e.message || String(e));
  }
  let manifest;
  try {
    manifest = JSON.parse(text);
  } catch (e) {
    throw unreadable(`it is not valid JSON (${e.message})`);
  }
  if (!manifest || !Array.isArray(manifest.models)) throw new TranslatorError(ErrorCode.MODEL_NOT_FOUND, 'The weights manifest has no "models" list.');
  return manifest.models.map((m) => ({ ...m, url: new URL(m.file, manifestUrl).href }));
}

// ---------------------------------------------------------------------------------------------
// One worker, the same interface in the browser (module Web Worker) and Node (worker_threads).

/**
 * A Node worker's heap limits. Its JavaScript garbage is each engine call's answer (~80-210 kB of
 * JSON for a chunk, parsed, packed and dropped: almost nothing survives), and under that steady
 * allocation V8 lets the young generation grow to its default 48 MiB (16 MiB semi-spaces) in every
 * worker; 8 MiB holds many chunks' worth, and the scavenges it adds find next to nothing alive.
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * URLs of a one-line module, `import "<worker.js of another origin>";`, by that worker.js URL: a
 * page may start a worker only from its own origin, and a blob: URL it made is of its origin. A
 * page of an opaque origin (a frame sandboxed without allow-same-origin) gets a data: URL instead:
 * Chromium starts no worker from such a page's blob: URLs.
 */
const crossOriginWorkers = new Map();

/**
 * The Trusted Types policy 'nmt-translator' for the module's own worker URLs (see newWorker), made
 * on first use; null where the environment has no Trusted Types or the page allows no such policy
 * (`policyRefused` says why). Only this module can call it.
 */
let workerUrlPolicy;
let policyRefused = null;

/**
 * new Worker(). A page that enforces Trusted Types (require-trusted-types-for 'script') has a Worker
 * constructor that refuses a plain URL: where Trusted Types exist, the URL goes through the policy
 * (made before the first worker, so that such a page sees no violation).
 */
function newWorker(scriptUrl, options) {
  if (workerUrlPolicy === undefined) {
    workerUrlPolicy = null;
    const trustedTypes = globalThis.trustedTypes;
    if (trustedTypes && typeof trustedTypes.createPolicy === 'function') {
      try {
        workerUrlPolicy = trustedTypes.createPolicy('nmt-translator', { createScriptURL: (url) => url });
      } catch (e) {
        policyRefused = e && e.message ? e.message : String(e);
      }
    }
  }
  if (workerUrlPolicy) return new Worker(workerUrlPolicy.createScriptURL(String(scriptUrl)), options);
  try {
    return new Worker(scriptUrl, options);
  } catch (e) {
    if (!(e instanceof TypeError) || policyRefused === null) throw e;
    throw new TranslatorError(ErrorCode.NO_WORKER, `Could not start the translation worker: this page requires Trusted Types (${e.message}), ` +
      `and its Content-Security-Policy allows no policy named 'nmt-translator' (${policyRefused}). ` +
      "Add nmt-translator to its trusted-types directive (and 'allow-duplicates' where two copies of the module run).");
  }
}

/**
 * A module Web Worker running `workerUrl`. One of another origin (the module served from a CDN)
 * runs inside a worker from a blob: (or data:) URL that imports it: its host must send CORS
 * headers (Access-Control-Allow-Origin, as CDNs do), and a Content-Security-Policy must list
 * blob: (data:) and that host in worker-src (a module worker's imports are checked against
 * worker-src). Returns { worker, via }: via is the scheme of that URL, or null.
 */
function startWebWorker(workerUrl) {
  const url = new URL(String(workerUrl), baseUrl());
  // (self.origin, not location's: a sandboxed frame's is opaque, 'null', whatever its URL)
  const here = typeof globalThis.origin === 'string' ? globalThis.origin : typeof location !== 'undefined' ? location.origin : null;
  const options = { type: 'module', name: 'nmt-translator' };
  if (!here || url.origin === here || url.protocol === 'blob:' || url.protocol === 'data:') {
    return { worker: newWorker(url, options), via: null };
  }
  let viaUrl = crossOriginWorkers.get(url.href);
  if (!viaUrl) {
    const source = `import ${JSON.stringify(url.href)};\n`;
    viaUrl = here === 'null' ? `data:text/javascript,${encodeURIComponent(source)}`
      : URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    crossOriginWorkers.set(url.href, viaUrl);
  }
  const via = viaUrl.slice(0, viaUrl.indexOf(':') + 1);
  try {
    return { worker: newWorker(viaUrl, options), via };
  } catch (e) {
    if (e instanceof TranslatorError) throw e;
    throw new TranslatorError(ErrorCode.NO_WORKER, `Could not start the translation worker ${url.href} from this page (${here}): ` +
      `a worker of another origin runs from a ${via} URL here, which this page does not allow (${e && e.message ? e.message : e}). ` +
      `List ${via} and ${url.origin} in the Content-Security-Policy's worker-src, or serve the module from this page's origin.`);
  }
}

async function spawnWorker(workerUrl, onMessage, onDeath) {
  if (!isNode) {
    if (typeof Worker !== 'function') throw new TranslatorError(ErrorCode.NO_WORKER, 'This environment has no Web Workers, which the translator needs.');
    const { worker: w, via } = startWebWorker(workerUrl);
    w.addEventListener('message', (event) => onMessage(event.data));
    w.addEventListener('error', (event) => {
      event.preventDefault();
      if (event.message) onDeath(`the translation worker failed: ${event.message}`);
      else if (via) {
        onDeath(`the translation worker ${workerUrl} (another origin than this page's) could not be loaded: its host must send CORS headers ` +
          `(Access-Control-Allow-Origin) for worker.js and the files it imports, and a Content-Security-Policy must list ${via} and ${new URL(String(workerUrl)).origin} ` +
          'in worker-src (see the console)');
      } else onDeath(`the translation worker ${workerUrl} could not start or failed (see the console)`);
    });
    w.addEventListener('messageerror', () => onDeath('the translation worker sent a message that could not be read'));
    return { post: (m) => w.postMessage(m), terminate: () => w.terminate(), ref() {}, unref() {} };
  }
  const { Worker: NodeWorker } = await nodeBuiltin('worker_threads');
  // Not the parent's --input-type/--eval style flags: they make a worker thread fail to start.
  let execArgv = process.execArgv.filter((a) => !/^--(input-type|eval|print|test)/.test(a));
  const options = { name: 'nmt-translator', resourceLimits: WORKER_LIMITS };
  let w;
  try {
    w = new NodeWorker(new URL(workerUrl), { ...options, execArgv });
  } catch (e) {
    // The process's own flags (V8's --max-old-space-size, --expose-gc, ...), which a worker refuses
    // ('Initiated Worker with invalid execArgv flags: --expose-gc, ...'): started without them.
    if (!e || e.code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw e;
    const refused = new Set((/flags: (.*)$/.exec(e.message) || [])[1]?.split(', '));
    execArgv = execArgv.filter((a) => !refused.has(a) && !refused.has(a.split('=')[0]));
    w = new NodeWorker(new URL(workerUrl), { ...options, execArgv });
  }
  let ended = false;
  w.on('message', onMessage);
  w.on('error', (e) => { ended = true; onDeath(`the translation worker failed: ${e && e.message ? e.message : e}`); });
  w.on('exit', (code) => { if (!ended) onDeath(`the translation worker exited (code ${code})`); ended = true; });
  return {
    post: (m) => w.postMessage(m),
    terminate: () => { ended = true; return w.terminate(); },
    ref: () => w.ref(),
    unref: () => w.unref(),
  };
}

let nextId = 1;

/** Absolute time in ms, the clock worker.js's startup marks use (comparable between threads). */
const clock = () => performance.timeOrigin + performance.now();

/**
 * Compiled engines by wasm URL: a second Translator on this page (the other direction, say) gets
 * the WebAssembly.Module the first one compiled, and fetches and compiles no engine.wasm. (After a
 * release of another engine build, the worker's engine.js does not fit it: the worker then compiles
 * engine.wasm afresh, and its 'ready' hands the new module back.)
 */
const compiledEngines = new Map();

/** The startup marks a worker's first 'ready' carries, as StartupTimings (ms after create()). */
function startupTimings(startup, createdAt, readyAt) {
  const phases = {};
  const ms = (x) => Math.round(x * 10) / 10;
  for (const [name, [a, b]] of Object.entries(startup.phases || {})) phases[name] = [ms(a - createdAt), ms(b - createdAt)];
  const length = (name) => (phases[name] ? ms(phases[name][1] - phases[name][0]) : 0);
  return {
    totalMs: ms(readyAt - createdAt),
    workerMs: phases.init ? phases.init[0] : 0,
    manifestMs: length('manifest'),
    compileMs: length('compile'),
    engineScriptMs: length('engineScript'),
    downloadMs: length('download'),
    sha256Ms: length('sha256'),
    instantiateMs: length('instantiate'),
    modelLoadMs: length('modelLoad'),
    compiled: startup.compiled || null,
    source: startup.source || null,
    phases,
  };
}

/**
 * @typedef {import('./translator.d.ts').TranslatorOptions} TranslatorOptions
 * @typedef {import('./translator.d.ts').TranslateOptions} TranslateOptions
 * @typedef {import('./translator.d.ts').Translation} Translation
 */

export class Translator {
  /**
   * Loads the engine and the model for `from`→`to` in a new worker.
   * @param {TranslatorOptions} [options]
   * @returns {Promise<Translator>}
   */
  static async create(options = {}) {
    const createdAt = clock();
    if (options === null) options = {}; // (null: no options, as for translate())
    if (typeof options !== 'object') throw new TranslatorError(ErrorCode.BAD_REQUEST, `Translator.create(): options must be an object (got ${typeof options}).`);
    checkCreateOptions(options);
    requireSimd();
    checkSimdChoice(options.simd);
    checkRecycleChars(options.recycleChars);
    const { signal } = options;
    if (signal && signal.aborted) throw abortError(signal.reason);
    const workers = checkWorkers(options.workers) ?? await defaultWorkers();
    const defaults = await defaultLocations();
    if (signal && signal.aborted) throw abortError(signal.reason);
    const t = new Translator(options, { ...defaults, workers, createdAt });
    // An abort ends the worker, and with it the download, the check or the compile it is in.
    const onAbort = () => t.dispose();
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    try {
      await t.#start();
    } catch (e) {
      t.dispose();
      throw signal && signal.aborted ? abortError(signal.reason) : e;
    } finally {
      if (signal) signal.removeEventListener('abort', onAbort);
    }
    return t;
  }

  /** Same as the module function listModels(). */
  static listModels(options) {
    return listModels(options);
  }

  #init; // the init message, re-sent when a new worker starts
  #workerUrl;
  #onProgress;
  #worker = null;
  #starting = null; // Promise of the running start
  #info = null;
  #queue = []; // requests not yet sent: {id, msg, resolve, reject, ...}
  #running = null; // the request the worker is working on
  #disposed = false;
  #reuse = null; // what the worker's 'ready' handed over for a quick restart (protocol.js)
  #generation = 0; // of the current worker: messages from an ended one are ignored
  #starts = 0;
  #recycleChars;
  #pool = null; // WorkerPool, when `workers` > 1
  #workers = 1;
  #createdAt;
  #startup = null; // StartupTimings of the first start
  #firstTranslationMs = null;
  #signals = new Map(); // AbortSignal → what waits on it (see #watchSignal)

  /** Use Translator.create(). */
  constructor(options, defaults) {
    if (!defaults) throw new TypeError('Use `await Translator.create(options)` to make a Translator.');
    const base = baseUrl();
    const engineUrl = toUrl(options.engineUrl || defaults.engineUrl, base);
    this.from = options.from || 'en';
    this.to = options.to || (this.from === 'de' ? 'en' : 'de');
    this.#init = {
      type: Request.INIT,
      protocol: PROTOCOL_VERSION,
      from: this.from,
      to: this.to,
      engineUrl,
      wasmUrl: toUrl(options.wasmUrl || engineUrl.replace(/\.m?js(\?.*)?$/, '.wasm'), base),
      modelUrl: options.modelUrl ? toUrl(options.modelUrl, base) : undefined,
      manifestUrl: options.modelUrl ? undefined : toUrl(options.manifestUrl || defaults.manifestUrl, base),
      modelBytes: options.modelBytes,
      modelSha256: options.modelSha256,
      rerank: !!options.rerank,
      simd: options.simd || 'auto', // relaxed SIMD where the browser has it (BLEU within ±0.2 of simd128 on the dev sets)
      reverseModelUrl: options.reverseModelUrl ? toUrl(options.reverseModelUrl, base) : undefined,
    };
    this.#workerUrl = options.workerUrl ? toUrl(options.workerUrl, base) : new URL('./worker.js', import.meta.url);
    this.#onProgress = typeof options.onProgress === 'function' ? options.onProgress : null;
    this.#recycleChars = options.recycleChars === undefined ? 200000 : options.recycleChars;
    if (options.warmUp === false) this.#init.warmUp = false;
    this.#createdAt = defaults.createdAt || clock();
    this.#workers = defaults.workers || 1;
    if (this.#workers > 1) {
      this.#pool = new WorkerPool({
        size: this.#workers,
        spawn: spawnWorker,
        workerUrl: this.#workerUrl,
        initMessage: () => ({ ...this.#init, reuse: this.#reuse, warmUp: false }),
      });
    }
  }

  /** How many workers translate a long input's chunks at once (Translator.create's `workers`). */
  get workers() {
    return this.#workers;
  }

  /**
   * Where the start's time went (StartupTimings: worker, manifest, compile, download, SHA-256,
   * instantiate, model load; ms after create()), and the time from create() to the first
   * translate() result.
   */
  get timings() {
    return { startup: this.#startup, firstTranslationMs: this.#firstTranslationMs };
  }

  /** What the engine says about the loaded model: config, languages, provenance, file_bytes, shortlist. */
  get info() {
    return this.#info;
  }

  /** True when a worker is running with the model loaded. */
  get ready() {
    return !!this.#worker && !this.#starting;
  }

  /**
   * How many times the worker was replaced: after an abort of a running request, after a request
   * of `recycleChars` or more characters, or after the worker died.
   */
  get restarts() {
    return Math.max(0, this.#starts - 1);
  }

  /**
   * Translates `text`. Requests are queued and run one at a time. With `{ html: true }` the text is
   * HTML and so is the result (html/translate-html.js: markup kept, inline elements placed on the
   * aligned words, nothing in the input run or loaded).
   * @param {string} text
   * @param {TranslateOptions} [options]
   * @returns {Promise<Translation>}
   */
  translate(text, options = {}) {
    try {
      options = requestOptions(options, 'translate()');
      checkOwnOptions(options, 'translate()');
      checkFlag(options, 'html', 'translate()');
    } catch (e) {
      return Promise.reject(e);
    }
    if (options.html) {
      if (typeof text !== 'string') return Promise.reject(new TranslatorError(ErrorCode.BAD_REQUEST, 'translate(html, { html: true }): html must be a string.'));
      try {
        checkBatchOptions(options, 'translate()', HTML_OPTIONS);
      } catch (e) {
        return Promise.reject(e);
      }
      return translateHtml(this, text, options);
    }
    return this.#translateRequest(text, options, 'translate()');
  }

  /**
   * Translates a live DOM subtree in place (main thread): translateElement(element, { translator: this, ...options }).
   * @param {Element} element
   * @param {object} [options]
   */
  translateElement(element, options = {}) {
    try {
      options = requestOptions(options, 'translateElement()');
    } catch (e) {
      return Promise.reject(e);
    }
    return translateElement(element, { ...options, translator: this });
  }

  /**
   * Translates `text` like translate() (the same request, queue, chunks and options) and returns
   * a ReadableStream, which is async-iterable, of its Sentences in order: each chunk's (or group of
   * sentences', see TranslateOptions.onProgress) as soon as it is done. Their ranges
   * index `text` and the whole translation, as in translate()'s result. An abort (`signal`) errors
   * the stream at once with an AbortError (the iteration rejects; sentences not read yet are
   * dropped) and frees the worker as translate()'s abort does; so does cancelling the stream or
   * leaving a `for await` loop early. Other failures error the stream with the TranslatorError
   * translate() would reject with. `stream.translation` resolves with the whole Translation (text,
   * stats, timings) when the last sentence has been queued, or rejects as the stream errors.
   * @param {string} text
   * @param {TranslateOptions} [options]
   * @returns {import('./translator.d.ts').SentenceStream}
   */
  translateStreaming(text, options = {}) {
    let bad = null; // options that are no options: the stream errors with it, as with a bad option value
    try {
      options = requestOptions(options, 'translateStreaming()');
      checkOwnOptions(options, 'translateStreaming()');
      if (options.html) {
        // (it would translate the markup as plain text: tags through the model, nothing escaped)
        throw new TranslatorError(ErrorCode.BAD_REQUEST, 'translateStreaming() translates plain text only: for HTML use translate(html, { html: true }).');
      }
    } catch (e) {
      [bad, options] = [e, {}];
    }
    const { signal: userSignal, onProgress } = options;
    const stop = new AbortController(); // the caller's signal, or the stream's cancel
    let controller;
    let sent = 0;
    let ended = false;
    const end = (error) => {
      if (ended) return;
      ended = true;
      if (unwatch) unwatch();
      if (error) controller.error(error);
      else controller.close();
    };
    const onUserAbort = () => {
      end(abortError(userSignal.reason)); // at once: sentences still queued in the stream are dropped
      stop.abort(userSignal.reason);
    };
    const push = (sentences) => {
      if (ended) return;
      for (const s of sentences) controller.enqueue(s);
      sent += sentences.length;
    };
    let unwatch = null;
    let translation;
    const stream = new ReadableStream({
      start: (c) => {
        controller = c;
        if (userSignal && userSignal.aborted) stop.abort(userSignal.reason);
        else if (userSignal) unwatch = this.#watchSignal(userSignal, onUserAbort);
        translation = bad ? Promise.reject(bad) : this.#translateRequest(text, {
          ...options,
          signal: stop.signal,
          onProgress: (p) => {
            push(p.sentences);
            if (typeof onProgress === 'function') onProgress(p);
          },
        }, 'translateStreaming()');
        translation.then((result) => {
          push(result.sentences.slice(sent)); // a single chunk sends no progress: all of them now
          end(null);
        }, (error) => end(error));
      },
      cancel: (reason) => {
        ended = true;
        if (unwatch) unwatch();
        stop.abort(reason);
      },
    });
    translation.catch(() => {}); // read through the stream; awaiting `translation` still sees the error
    stream.translation = translation;
    return asyncIterable(stream);
  }

  /** translate() and translateStreaming() (`where`, named in its errors): checks the request and queues it. */
  #translateRequest(text, options, where) {
    const { signal, onProgress, chunkChars, html, ...decoding } = options;
    if (this.#disposed) return Promise.reject(new TranslatorError(ErrorCode.DISPOSED, 'This Translator was disposed.'));
    if (typeof text !== 'string') return Promise.reject(new TranslatorError(ErrorCode.BAD_REQUEST, `${where.slice(0, -1)}text): text must be a string.`));
    if (signal && signal.aborted) return Promise.reject(abortError(signal.reason));
    let engine;
    try {
      // checked here, so a bad request fails before it queues
      // (`alternatives` is alternatives()'s count, no translate() option)
      engine = engineOptions(decoding, where, {}, ['signal', 'onProgress', 'chunkChars', 'html'], ['alternatives']);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#enqueue({ type: Request.TRANSLATE, text, options: engine, chunkChars }, { signal, onProgress, text });
  }

  /**
   * The `count` (default 5, at most 20) most probable next words after `targetPrefix` in a
   * translation of `source` (one sentence), most probable first, each with the rest of the sentence
   * decoded greedily after it: `targetPrefix + word + continuation` is a whole translation. The
   * model's own (greedy) next word is always among them. A word runs to the next word start or
   * punctuation; `word` may begin with the space before it when `targetPrefix` does not end in
   * one. To go on after a chosen word, translate `source` with `{ prefix: targetPrefix + word }`
   * (add the continuation's first character when it is a space or punctuation, so that the model
   * cannot lengthen the word: a prefix ending in a letter may be completed, "Haus" → "Hauses").
   * Queued like translate(); `signal` cancels it.
   * @param {string} source
   * @param {string} targetPrefix
   * @param {import('./translator.d.ts').AlternativesOptions} [options]
   * @returns {Promise<import('./translator.d.ts').Alternative[]>}
   */
  alternatives(source, targetPrefix, options = {}) {
    try {
      options = requestOptions(options, 'alternatives()');
    } catch (e) {
      return Promise.reject(e);
    }
    const { signal, count, ...decoding } = options;
    if (this.#disposed) return Promise.reject(new TranslatorError(ErrorCode.DISPOSED, 'This Translator was disposed.'));
    if (typeof source !== 'string') return Promise.reject(new TranslatorError(ErrorCode.BAD_REQUEST, 'alternatives(source, targetPrefix): source must be a string.'));
    if (signal && signal.aborted) return Promise.reject(abortError(signal.reason));
    let engine;
    try {
      // (the table's prefix and alternatives are the targetPrefix argument and count: given as options, they would be overridden)
      engineOptions(decoding, 'alternatives()', {}, ['count', 'signal'], ['prefix', 'alternatives']);
      // prefix and count are checked with the table's `prefix` and `alternatives` entries
      engine = engineOptions({ ...decoding, alignments: false, prefix: targetPrefix, alternatives: count }, 'alternatives()',
        { prefix: 'targetPrefix', alternatives: 'count' }, ['signal']);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.#enqueue({ type: Request.ALTERNATIVES, source, options: engine }, { signal }).then((r) => r.alternatives);
  }

  /** Memory used inside the worker: {wasmBytes, jsHeapBytes, modelFileBytes}. */
  memory() {
    if (this.#disposed) return Promise.reject(new TranslatorError(ErrorCode.DISPOSED, 'This Translator was disposed.'));
    const own = this.#enqueue({ type: Request.MEMORY }, {});
    if (!this.#pool || !this.#pool.helpers.length) return own;
    return own.then(async (m) => ({ ...m, helpers: await this.#pool.helperMemory() }));
  }

  /** Ends the worker. Pending requests reject with code 'disposed'. */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#kill(new TranslatorError(ErrorCode.DISPOSED, 'The Translator was disposed.'));
    this.#reuse = null; // the model bytes kept for quick restarts: a disposed Translator still referenced must not hold them
  }

  /** Test only: makes the worker die (the next call starts a new one). */
  _crashWorkerForTest() {
    if (this.#worker) this.#worker.post({ id: 0, type: Request.TEST_CRASH });
  }

  // -------------------------------------------------------------------------------------------

  /**
   * Starts a worker; `reuse` (from an earlier worker's 'ready') makes it a quick restart. The new
   * thread is spawned once `ended` (the ends of the workers it replaces) settles: their WebAssembly
   * memory and heaps go back first, so that two generations never hold memory at once. The start
   * counts (and queued requests wait for it) from now.
   */
  #start(reuse = null, ended = null) {
    if (this.#starting) return this.#starting;
    const id = nextId++;
    const generation = ++this.#generation;
    this.#starts += 1;
    const current = (f) => (x) => { if (generation === this.#generation) f(x); };
    this.#starting = new Promise((resolve, reject) => {
      this.#running = { id, init: true, resolve, reject };
      Promise.resolve(ended)
        .then(() => (this.#disposed || generation !== this.#generation ? null
          : spawnWorker(this.#workerUrl, current((m) => this.#onMessage(m)), current((why) => this.#onDeath(why)))))
        .then((w) => {
          if (!w) return; // disposed or replaced while the old workers were ending

          if (this.#disposed || generation !== this.#generation) { w.terminate(); return; }
          this.#worker = w;
          if (!reuse) {
            const wasmModule = compiledEngines.get(this.#init.wasmUrl);
            try {
              w.post(wasmModule ? { ...this.#init, id, wasmModule } : { ...this.#init, id });
            } catch {
              w.post({ ...this.#init, id }); // a module that cannot be posted here: the worker compiles its own
            }
            return;
          }
          if (!this.#queue.length) w.unref(); // a restart nobody waits for yet must not keep Node alive
          try {
            w.post({ ...this.#init, id, reuse });
          } catch {
            // A compiled module that cannot be posted here: the new worker compiles the engine itself.
            w.post({ ...this.#init, id, reuse: { ...reuse, wasmModule: null, relaxedModule: null } });
          }
        })
        .catch(current((e) => {
          if (!(e instanceof TranslatorError)) this.#onDeath(e.message || String(e));
          else if (!this.#disposed) this.#kill(e); // (no worker: said as it is, with its code)
        }));
    }).then((info) => {
      this.#info = info;
      return info;
    }, (error) => {
      // A worker without a model is useless: end it, and fail what was waiting for it. After a
      // restart that failed, the next call starts from scratch (download, check, compile).
      if (reuse) this.#reuse = null;
      const worker = this.#worker;
      this.#worker = null;
      if (worker) worker.terminate();
      const queued = this.#queue;
      this.#queue = [];
      for (const req of queued) this.#settle(req, error);
      throw error;
    }).finally(() => {
      this.#starting = null;
      this.#pump();
    });
    return this.#starting;
  }

  #enqueue(msg, extra) {
    return new Promise((resolve, reject) => {
      const req = { id: nextId++, msg, resolve, reject, queuedAt: performance.now(), ...extra };
      if (extra.signal) req.unwatch = this.#watchSignal(extra.signal, () => this.#abort(req));
      this.#queue.push(req);
      if (!this.#worker && !this.#starting) this.#start(this.#reuse).catch(() => {}); // (errors reach the queued requests)
      this.#pump();
    });
  }

  /**
   * Ends the worker (whatever it is doing) and starts another in its place, from what the first
   * start handed over when there is that (else a full start). Queued requests wait for it. The new
   * one is spawned when the old one's thread has ended, and `alsoEnding` (pool helpers ended with
   * it): in Node, terminate() is asynchronous, and the old engine's memory would otherwise still be
   * held while the new one loads. (After a crash the next call restarts the same way.)
   */
  #replaceWorker(alsoEnding = null) {
    if (this.#disposed) return;
    const worker = this.#worker;
    this.#worker = null;
    this.#generation += 1; // what the old worker still sends is ignored
    const ended = Promise.allSettled([worker ? worker.terminate() : undefined, alsoEnding]);
    this.#start(this.#reuse, ended).catch(() => {}); // (errors reach the queued requests)
  }

  #pump() {
    if (this.#disposed || !this.#worker) return;
    if (this.#starting) {
      if (this.#queue.length) this.#worker.ref(); // someone waits for this start now
      return;
    }
    if (this.#running) return;
    const req = this.#queue.shift();
    if (!req) {
      this.#worker.unref(); // an idle worker must not keep a Node process alive
      return;
    }
    this.#running = req;
    req.sentAt = performance.now();
    if (req.text !== undefined) {
      req.partialText = '';
      req.sentences = []; // the partials' (a result after partials carries none: protocol.js)
    }
    this.#worker.ref();
    const chunks = this.#pool && this.#reuse ? this.#pool.plan(req.msg) : null;
    if (chunks) {
      // Several chunks: the pool spreads them over this worker and its helpers (pool.js) and
      // answers with the messages this worker would have sent.
      req.pooled = true;
      const worker = this.#worker;
      this.#pool.run(req, chunks, (m) => worker.post(m), (m) => this.#onMessage(m));
      return;
    }
    this.#worker.post({ ...req.msg, id: req.id });
  }

  #settle(req, error, value) {
    if (req.unwatch) req.unwatch();
    if (error) req.reject(error);
    else req.resolve(value);
  }

  /**
   * One 'abort' listener per signal, however many requests and streams wait on it (a page's one
   * "cancel" signal for all its calls: Node warns of a leak from the 11th listener on one signal).
   * `onAbort` runs when it aborts, in the order they came; returns what stops the watch.
   */
  #watchSignal(signal, onAbort) {
    let waiting = this.#signals.get(signal);
    if (!waiting) {
      waiting = new Set();
      waiting.listener = () => {
        this.#signals.delete(signal);
        for (const f of [...waiting]) f();
      };
      this.#signals.set(signal, waiting);
      signal.addEventListener('abort', waiting.listener, { once: true });
    }
    const entry = () => onAbort();
    waiting.add(entry);
    return () => {
      if (!waiting.delete(entry) || waiting.size || this.#signals.get(signal) !== waiting) return;
      this.#signals.delete(signal);
      signal.removeEventListener('abort', waiting.listener);
    };
  }

  #abort(req) {
    const helpersEnding = req.pooled && this.#pool ? this.#pool.cancel(req) : null;
    const reason = abortError(req.signal && req.signal.reason);
    const i = this.#queue.indexOf(req);
    if (i >= 0) {
      this.#queue.splice(i, 1);
      this.#settle(req, reason);
      return;
    }
    if (this.#running === req) {
      // The worker is inside a synchronous engine call: end it rather than wait for the chunk.
      this.#running = null;
      this.#settle(req, reason);
      this.#replaceWorker(helpersEnding);
    }
  }

  #onMessage(m) {
    if (!m || typeof m !== 'object') return;
    if (this.#pool && this.#pool.onPrimaryMessage(m)) return; // a chunk of a pooled request
    if (m.status === Status.FATAL) {
      // The engine trapped or aborted (the worker says so, then exits): 'engine-crashed', as documented.
      this.#onDeath(m.error && m.error.message ? m.error.message : 'the engine crashed', ErrorCode.ENGINE_CRASHED);
      return;
    }
    const req = this.#running;
    if (!req || req.id !== m.id) return; // a request that was aborted: its messages are dropped
    switch (m.status) {
      case Status.PROGRESS:
        if (this.#onProgress) {
          try {
            this.#onProgress({ phase: m.phase, loaded: m.loaded, total: m.total, files: m.files });
          } catch (e) {
            console.error(e);
          }
        }
        return;
      case Status.PARTIAL: {
        req.partialText += m.text;
        const sentences = unpackSentences(m.sentences, req.text);
        for (const s of sentences) req.sentences.push(s);
        if (typeof req.onProgress === 'function') {
          try {
            req.onProgress({ done: m.done, total: m.total, range: m.range, text: req.partialText, sentences });
          } catch (e) {
            console.error(e);
          }
        }
        return;
      }
      case Status.READY:
      case Status.RESULT:
      case Status.ERROR: {
        this.#running = null;
        if (m.status === Status.ERROR) {
          this.#settle(req, new TranslatorError(m.error.code, m.error.message));
        } else if (m.status === Status.READY) {
          if (m.protocol !== PROTOCOL_VERSION) {
            this.#settle(req, protocolMismatch('worker', m.protocol));
          } else {
            if (m.reuse) this.#reuse = m.reuse; // (a restart's 'ready' hands nothing over: the first one's stays)
            if (m.reuse && m.reuse.wasmModule) compiledEngines.set(this.#init.wasmUrl, m.reuse.wasmModule);
            if (m.wasmModule) { // a restart found the module it was handed of another engine build, and compiled engine.wasm anew
              compiledEngines.set(this.#init.wasmUrl, m.wasmModule);
              if (this.#reuse) this.#reuse = { ...this.#reuse, wasmModule: m.wasmModule, relaxedModule: null };
            }
            if (!this.#startup && m.startup) this.#startup = startupTimings(m.startup, this.#createdAt, clock());
            this.#settle(req, null, m.info);
          }
        } else {
          const result = m.result;
          if (result && req.text !== undefined) {
            if (result.sentences) result.sentences = unpackSentences(result.sentences, req.text);
            else {
              result.sentences = req.sentences;
              shareWholeText(result.sentences, result.text); // (the partials' texts can go)
            }
          }
          if (result && result.timings) {
            const now = performance.now();
            result.timings.queueMs = req.sentAt - req.queuedAt;
            result.timings.totalMs = now - req.queuedAt;
          }
          if (result && result.stats && result.stats.workers === undefined && req.text !== undefined) result.stats.workers = 1;
          if (this.#firstTranslationMs === null && req.text !== undefined) this.#firstTranslationMs = clock() - this.#createdAt;
          this.#settle(req, null, result);
        }
        // A pooled request that failed while this worker was still inside one of its chunks (a
        // helper failed first; pool.js says so): the worker is replaced, so that nothing of that
        // chunk (its result, its crash, its death) reaches the next request, which runs at once.
        if (req.pooled && m.status === Status.ERROR && m.primaryBusy) {
          this.#replaceWorker();
        }
        // A large request leaves the worker's WebAssembly memory grown for good: replace the worker.
        else if (!req.init && req.text !== undefined && req.text.length >= this.#recycleChars) {
          this.#replaceWorker(req.pooled && this.#pool ? this.#pool.recycle() : null);
        }
        else if (!req.init) this.#pump(); // after an init, #start's finally pumps
        return;
      }
      default:
    }
  }

  #onDeath(why, code = ErrorCode.WORKER_DIED) {
    if (this.#disposed) return;
    const message = `${why.charAt(0).toUpperCase()}${why.slice(1).replace(/\.$/, '')}. The next request starts a new worker.`;
    this.#kill(new TranslatorError(code, message));
  }

  #kill(error) {
    if (this.#pool && this.#running && this.#running.pooled) this.#pool.cancel(this.#running);
    if (this.#pool && this.#disposed) this.#pool.dispose();
    const worker = this.#worker;
    this.#worker = null;
    this.#generation += 1;
    if (worker) worker.terminate();
    const pending = [...(this.#running ? [this.#running] : []), ...this.#queue];
    this.#running = null;
    this.#queue = [];
    for (const req of pending) this.#settle(req, error);
  }
}

export default Translator;
export { pickModel };
