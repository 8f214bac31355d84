/**
 * The web's standard Translator and LanguageDetector API (the WICG translation-api draft,
 * webmachinelearning/translation-api, with its shared parts in writing-assistance-apis), run by
 * this project's engine: code written for Chrome's built-in API works, offline, wherever this
 * module does (any browser with WebAssembly SIMD, in a page or a Web Worker, and Node).
 *
 *   import { install } from './polyfill.js';    // 'nmt-translator/polyfill'
 *   install();                                   // only where the browser has no Translator / LanguageDetector
 *   const t = await Translator.create({ sourceLanguage: 'en', targetLanguage: 'de' });
 *   await t.translate('The house is small.');    // 'Das Haus ist klein.'
 *
 * What it does, step by step as the draft says:
 *  - Language tags are validated and canonicalized (Intl.getCanonicalLocales: a bad tag is a
 *    RangeError) and matched "best fit" to the models' languages: the same language and script, any
 *    region ('en-US', 'de-CH' and 'de-Latn-DE' use the en/de models; the translator's
 *    sourceLanguage/targetLanguage are then 'en'/'de'). A pair within one language ('en-US' →
 *    'en-GB') is the identity translation: 'available', and the input comes back as it is.
 *  - availability() is 'available' when no download is needed (an engine of that pair is loaded
 *    in this page, or the model is in the site's model cache (sw.js), or, in Node, on disk),
 *    'downloading' while a create() of that pair is loading it, 'downloadable' otherwise, and
 *    'unavailable' for a pair the models do not cover or where the engine cannot run (no
 *    WebAssembly SIMD, no Worker).
 *  - create() runs the module's Translator.create (worker, verified downloads, the cache): one
 *    engine per pair, shared by every standard Translator of that pair (reference-counted; the
 *    last destroy() ends it). The monitor gets 'downloadprogress' ProgressEvents: loaded 0 first
 *    and 1 last, always, steps of 1/65536 in between, rising, at most one per 50 ms; none after an
 *    abort or after create() settled. Like Chrome, a create() that has to download needs a user
 *    activation in a window (NotAllowedError otherwise); an abort rejects with the signal's reason
 *    (and stops the download unless another create() of the pair waits for it), and aborting that
 *    signal later destroys the object. A failed download is a NetworkError, an
 *    engine that cannot start an OperationError, a pair it cannot do a NotSupportedError.
 *  - translate(), translateStreaming() (a ReadableStream of strings that concatenate to the
 *    translation) and measureInputUsage() reject with the signal's reason on abort, and every call
 *    after destroy() with an AbortError (or the reason the create() signal was aborted with).
 *    Input of only whitespace, control or format characters comes back as it is. inputQuota is 1,000,000
 *    (UTF-16 code units, what measureInputUsage counts): a longer input is a QuotaExceededError.
 *  - LanguageDetector needs no download (detect.js: character trigrams for English and German,
 *    function words for 14 other languages); detect() lists languages by confidence, 'und' last.
 *
 * Extras of the module (alignments, alternatives, HTML, decoding options) stay on its own API
 * (translator.js); nothing here changes a standard result. The one non-standard export besides
 * install() is configure(), which says where the module's files are when the defaults do not fit.
 */
import { Translator as ModuleTranslator, listModels, detectLanguage, hasWasmSimd } from './translator.js';
import { ErrorCode, MODEL_CACHE } from './protocol.js';
import { DETECTABLE_LANGUAGES } from './detect.js';
import { OTHER_LANGUAGES } from './other-languages.js';
import { asyncIterable } from './async-iterable.js';
import { MAX_WORKERS, nodeBuiltin } from './pool.js';

// Node, also with a `window` of a DOM emulation (jsdom, happy-dom: tests of a page's code) that has
// no Worker; not Electron's renderer, which has both and runs the browser's way.
const isNode = typeof process !== 'undefined' && !!(process.versions && process.versions.node)
  && (typeof window === 'undefined' || typeof Worker !== 'function');

/** Input quota of a Translator, in UTF-16 code units (see the file comment). */
export const TRANSLATOR_INPUT_QUOTA = 1000000;

/** The share of the detector's confidence kept for "a language it does not know" (see detectLanguages). */
const UNKNOWN_SHARE = 0.01;

// ---------------------------------------------------------------------------------------------
// Errors: DOMExceptions with the names the draft gives.

// Captured now: a removed iframe's window loses its globals, and its calls must still make their InvalidStateError.
const DOMExceptionClass = globalThis.DOMException;

function domException(name, message, cause) {
  const e = new DOMExceptionClass(message, name);
  if (cause !== undefined) Object.defineProperty(e, 'cause', { value: cause, writable: true, configurable: true });
  return e;
}

/** A QuotaExceededError with `requested` and `quota` (the class where the browser has it, else a DOMException so named). */
function quotaExceeded(requested, quota) {
  const message = `The input needs ${requested} of the input quota, which is ${quota}: translate it in parts.`;
  if (typeof globalThis.QuotaExceededError === 'function') {
    try {
      return new globalThis.QuotaExceededError(message, { requested, quota });
    } catch {
      // an older constructor shape: fall through
    }
  }
  const e = new DOMExceptionClass(message, 'QuotaExceededError');
  Object.defineProperties(e, { requested: { value: requested }, quota: { value: quota } });
  return e;
}

/** The module's create() failures: a download that failed is a NetworkError, anything else an OperationError. */
function createError(e) {
  const download = [ErrorCode.DOWNLOAD, ErrorCode.MODEL_NOT_FOUND, ErrorCode.INTEGRITY].includes(e && e.code);
  return domException(download ? 'NetworkError' : 'OperationError', e && e.message ? e.message : String(e), e);
}

/** A Window whose document is not fully active (a removed iframe's): every call is an InvalidStateError. */
function checkFullyActive() {
  if (typeof document === 'object' && document !== null && document.defaultView === null) {
    throw domException('InvalidStateError', 'The document is not fully active.');
  }
}

/** Whether a download may start now: in a window, only with a user activation (as Chrome asks). */
function hasActivation() {
  const ua = typeof window === 'object' && globalThis.navigator ? globalThis.navigator.userActivation : undefined;
  return !ua || ua.isActive;
}

// ---------------------------------------------------------------------------------------------
// WebIDL argument conversion (what a built-in interface checks before its steps run).

function dictionary(value, what) {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' && typeof value !== 'function') throw new TypeError(`${what}: the options must be an object.`);
  return value;
}

function domString(value) {
  return `${value}`; // (a Symbol throws a TypeError, as WebIDL's conversion does)
}

/** A required DOMString member: read once, converted as it is read (WebIDL's dictionary conversion). */
function requiredString(options, key, what) {
  const value = options[key];
  if (value === undefined) throw new TypeError(`${what}: ${key} is required.`);
  return domString(value);
}

const abortedGetter = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'aborted').get;

/** WebIDL's check: an AbortSignal of any realm (a frame's too, which instanceof would refuse). */
function isAbortSignal(value) {
  try {
    abortedGetter.call(value); // (a platform getter: throws for anything but an AbortSignal)
    return true;
  } catch {
    return false;
  }
}

function optionalSignal(options, what) {
  const { signal } = options;
  if (signal === undefined) return undefined;
  if (!isAbortSignal(signal)) throw new TypeError(`${what}: signal must be an AbortSignal.`);
  return signal;
}

function optionalCallback(options, what) {
  const { monitor } = options;
  if (monitor === undefined) return undefined;
  if (typeof monitor !== 'function') throw new TypeError(`${what}: monitor must be a function.`);
  return monitor;
}

function requireArgument(count, what) {
  if (count === 0) throw new TypeError(`${what}: 1 argument required, but only 0 present.`);
}

// ---------------------------------------------------------------------------------------------
// Language tags: validated and canonicalized (ECMA-402), matched by best fit.

/** A structurally invalid tag is a RangeError, as Chrome, the web-platform-tests and ECMA-402 have it. */
function canonicalTag(value, what) {
  const tag = domString(value);
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    throw new RangeError(`${what}: "${tag}" is not a valid BCP 47 language tag.`);
  }
}

/** Language and likely script ('en-GB' → 'en-Latn'); null for 'und' and what Intl cannot read. */
function fitKey(tag) {
  try {
    const locale = new Intl.Locale(tag);
    if (!locale.language || locale.language === 'und') return null; // (Node's ICU gives undefined for 'und')
    const max = locale.maximize();
    return `${max.language}-${max.script || ''}`;
  } catch {
    return null;
  }
}

/**
 * The draft's LookupMatchingLocaleByBestFit, as this implementation defines it: the tag itself,
 * else an available tag of the same language and script (regions and variants do not count).
 */
function bestFit(available, requested) {
  if (available.includes(requested)) return requested;
  const key = fitKey(requested);
  return key ? available.find((a) => fitKey(a) === key) : undefined;
}

// ---------------------------------------------------------------------------------------------
// Signals and the monitor.

function anySignal(signals) {
  const list = signals.filter(Boolean);
  // (A dependent signal even for one: listeners on it, not on the object's own, which many calls share.)
  if (typeof AbortSignal.any === 'function') return AbortSignal.any(list);
  if (list.length === 1) return list[0];
  const controller = new AbortController();
  for (const s of list) {
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener('abort', () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/**
 * What a create() monitor callback receives: an EventTarget for 'downloadprogress' events.
 * `ondownloadprogress` is an HTML event handler attribute ([LegacyTreatNonObjectAsNull]
 * EventHandler): any object is kept as set (one that cannot be called is reported as a TypeError
 * when an event comes, and the other listeners still run), any other value is null; its listener
 * takes its place among the others when first set and keeps it when the handler is replaced.
 */
class CreateMonitor extends EventTarget {
  #handler = null;
  #listening = false;
  #invoke = (event) => {
    const handler = this.#handler;
    if (typeof handler === 'function') {
      handler.call(this, event);
      return;
    }
    if (handler === null) return;
    const error = new TypeError('The monitor\'s ondownloadprogress is not a function.');
    if (typeof globalThis.reportError === 'function') globalThis.reportError(error);
    else console.error(error);
  };

  get ondownloadprogress() { return this.#handler; }

  set ondownloadprogress(value) {
    this.#handler = (typeof value === 'object' && value !== null) || typeof value === 'function' ? value : null;
    if (this.#handler !== null && !this.#listening) this.addEventListener('downloadprogress', this.#invoke);
    else if (this.#handler === null && this.#listening) this.removeEventListener('downloadprogress', this.#invoke);
    this.#listening = this.#handler !== null;
  }
}

/** A ProgressEvent (Node has none: an Event with the same three fields). */
function progressEvent(loaded) {
  const init = { loaded, total: 1, lengthComputable: true };
  if (typeof ProgressEvent === 'function') return new ProgressEvent('downloadprogress', init);
  const e = new Event('downloadprogress');
  for (const [k, v] of Object.entries(init)) Object.defineProperty(e, k, { value: v, enumerable: true });
  return e;
}

/**
 * Fires a monitor's events as the draft's download loop does: the fraction floored to 1/65536,
 * only when it rose, at most every 50 ms (1 always), never once `stopped()`.
 */
function progressReporter(monitor, stopped) {
  let last = -1;
  let lastTime = -Infinity;
  return (fraction) => {
    if (!monitor || stopped()) return;
    const loaded = Math.floor(Math.min(1, Math.max(0, fraction)) * 65536) / 65536;
    if (loaded <= last) return;
    const now = performance.now();
    if (loaded < 1 && last >= 0 && now - lastTime < 50) return;
    last = loaded;
    lastTime = now;
    monitor.dispatchEvent(progressEvent(loaded));
  };
}

// ---------------------------------------------------------------------------------------------
// The engines: which pairs the models cover, whether a pair is loaded or cached, and one shared
// module Translator per pair.

let moduleOptions = {};
let arcsPromise = null;
const engines = new Map(); // arcKey → {promise, module, refs, loaded, total, listeners}

const CONFIG_KEYS = ['manifestUrl', 'engineUrl', 'wasmUrl', 'workerUrl', 'workers'];

/**
 * Non-standard: where the module's files are, as the module's Translator.create() takes them
 * (manifestUrl, engineUrl, wasmUrl, workerUrl, workers). Needed only when the defaults (the
 * dist/ layout next to this file, or the repository's in Node) do not fit. Applies to engines
 * created afterwards.
 */
export function configure(options = {}) {
  options = dictionary(options, 'configure()');
  for (const key of Object.keys(options)) {
    if (!CONFIG_KEYS.includes(key)) throw new TypeError(`configure(): unknown option "${key}" (known: ${CONFIG_KEYS.join(', ')}).`);
    const value = options[key];
    if (value === undefined) continue;
    // (checked now: a bad value would only surface as an OperationError from a later create())
    if (key === 'workers') {
      if (!Number.isInteger(value) || value < 1 || value > MAX_WORKERS) throw new TypeError(`configure(): workers must be a whole number from 1 to ${MAX_WORKERS} (got ${String(value)}).`);
    } else if (typeof value !== 'string' && !(value instanceof URL)) {
      throw new TypeError(`configure(): ${key} must be a string or a URL (got ${value === null ? 'null' : typeof value}).`);
    }
  }
  moduleOptions = { ...moduleOptions, ...options };
  arcsPromise = null;
}

/** The language arcs the models cover: [{from, to, url}] (the manifest, read once). */
function modelArcs() {
  if (!arcsPromise) {
    arcsPromise = listModels({ manifestUrl: moduleOptions.manifestUrl }).then(
      (models) => models.map((m) => ({ from: canonicalTag(m.from, 'manifest'), to: canonicalTag(m.to, 'manifest'), url: m.url })),
    );
    arcsPromise.catch(() => { arcsPromise = null; }); // a transient failure: ask again next time
  }
  return arcsPromise;
}

const arcKey = (arc) => `${arc.from}>${arc.to} ${arc.url}`; // (another manifest's model is another engine)

/** True when the arc's model needs no download: on disk (Node, file: URLs) or in the site's model cache. */
async function modelIsLocal(url) {
  try {
    const u = new URL(url);
    if (u.protocol === 'file:') {
      if (!isNode) return false;
      const fs = await nodeBuiltin('fs');
      return fs.existsSync(u);
    }
    if (!globalThis.caches || !(await caches.has(MODEL_CACHE))) return false; // never create the cache here
    return !!(await (await caches.open(MODEL_CACHE)).match(`${u.origin}${u.pathname}`));
  } catch {
    return false;
  }
}

/** The engine can run here at all: WebAssembly SIMD, and (in a browser) Web Workers. */
const engineCanRun = () => hasWasmSimd() && (isNode || typeof Worker === 'function');

async function arcAvailability(arc) {
  if (!engineCanRun()) return 'unavailable';
  const entry = engines.get(arcKey(arc));
  if (entry && entry.module) return 'available';
  if (await modelIsLocal(arc.url)) return 'available';
  return entry ? 'downloading' : 'downloadable';
}

/**
 * A lease on the pair's shared engine, starting it if none is loading: {entry, release()}. When
 * the last lease is released the engine is disposed, or its start (the download) stopped.
 */
function acquireEngine(arc) {
  const key = arcKey(arc);
  let entry = engines.get(key);
  if (!entry) {
    // (stop: ends the download when every create() that wanted the engine was aborted)
    const e = { module: null, refs: 0, loaded: 0, total: 0, listeners: new Set(), stop: new AbortController() };
    e.promise = ModuleTranslator.create({
      ...moduleOptions,
      from: arc.from,
      to: arc.to,
      signal: e.stop.signal,
      onProgress: (p) => {
        e.loaded = p.loaded;
        e.total = p.total;
        for (const f of e.listeners) f();
      },
    }).then((t) => {
      if (e.refs === 0) t.dispose(); // every create() that wanted it was aborted meanwhile
      else e.module = t;
      return t;
    }, (error) => {
      if (engines.get(key) === e) engines.delete(key);
      throw error;
    });
    e.promise.catch(() => {}); // (each lease sees the error)
    engines.set(key, e);
    entry = e;
  }
  entry.refs += 1;
  let released = false;
  return {
    entry,
    release() {
      if (released) return;
      released = true;
      entry.refs -= 1;
      if (entry.refs > 0) return;
      if (engines.get(key) === entry) engines.delete(key);
      if (entry.module) entry.module.dispose();
      else entry.stop.abort();
      entry.module = null;
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The shared algorithms: creating a model object, computing availability, running an operation.

const INTERNAL = Symbol('internal');

/**
 * Each object create() made: its interface (for WebIDL's brand check) and the draft's
 * DestroyableModel state: the destruction controller, whose abort stops every pending and later
 * call, and release(), which frees what the object holds (the engine lease). Kept here, not in a
 * base class: a WebIDL interface's prototype inherits from Object.prototype, its destroy() is its own.
 */
const models = new WeakMap();

/** The constructors' first step: only create() makes these objects. */
function initModel(model, key, C, release = () => {}) {
  if (key !== INTERNAL) throw new TypeError('Illegal constructor: use the static create().');
  models.set(model, { C, destruction: new AbortController(), release });
}

/** WebIDL's check that `object` is a `C` made by create(), not an object that only inherits its prototype. */
function checkThis(object, C, what) {
  const model = models.get(object);
  if (!model || model.C !== C) throw new TypeError(`${what}: Illegal invocation (called on an object that is not a ${C.name}).`);
}

/** Destroys with `reason` (destroy(): an AbortError; the create() signal: its reason). */
function destroyModel(object, reason) {
  const { destruction, release } = models.get(object);
  if (destruction.signal.aborted) return;
  destruction.abort(reason);
  release();
}

/**
 * The draft's "compute AI model availability": the options converted as WebIDL does before the
 * steps, the document checked, the language tags validated (each may throw: a rejected promise),
 * then compute; null (the supported languages could not be read) is an UnknownError.
 */
function computeAvailability(options, { convert, validate }, compute) {
  try {
    const converted = convert(options);
    checkFullyActive();
    const checked = validate(converted);
    return compute(checked).then((a) => {
      if (a === null) throw domException('UnknownError', 'The models\' list could not be read.');
      return a;
    });
  } catch (e) {
    return Promise.reject(e);
  }
}

/**
 * The draft's "create an AI model object". `spec`: convert(options) → the options as WebIDL
 * converts them (TypeError), validate(converted) → the options with canonical language tags
 * (TypeError), availability(checked) → Availability or null, unsupported(checked) → the
 * NotSupportedError's message, init(checked, {report, download, signal}) → the new object
 * (report(fraction) fires the monitor's events; `download`: whether one is needed). The returned
 * promise rejects with the signal's reason as soon as it aborts, and an object that arrives after
 * that is destroyed at once.
 */
function createModelObject(options, spec) {
  let checked;
  let activated;
  let monitor = null;
  try {
    const converted = spec.convert(options);
    checkFullyActive();
    activated = hasActivation(); // read now: the activation is the caller's, not a later task's
    checked = spec.validate(converted);
  } catch (e) {
    return Promise.reject(e);
  }
  const { signal } = checked;
  if (signal && signal.aborted) return Promise.reject(signal.reason);
  if (checked.monitor) {
    monitor = new CreateMonitor();
    try {
      checked.monitor.call(undefined, monitor);
    } catch (e) {
      return Promise.reject(e);
    }
    // (the abort listener below is added too late for an abort made by the monitor callback)
    if (signal && signal.aborted) return Promise.reject(signal.reason);
  }
  return new Promise((resolve, reject) => {
    let settled = false;
    const onAbort = () => {
      if (settled) return;
      settled = true;
      reject(signal.reason);
    };
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
    const stopped = () => settled || (signal && signal.aborted);
    const report = progressReporter(monitor, stopped);
    (async () => {
      const availability = await spec.availability(checked);
      if (availability === null) throw domException('UnknownError', 'The models\' list could not be read.');
      if (availability === 'unavailable') throw domException('NotSupportedError', spec.unsupported(checked));
      const download = availability !== 'available';
      if (download && !activated) {
        throw domException('NotAllowedError', 'Downloading a model needs a user activation (call create() from a click or key press).');
      }
      return spec.init(checked, { report, download, signal });
    })().then((model) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      if (settled) {
        destroyModel(model, signal.reason);
        return;
      }
      settled = true;
      // After creation, the create() signal destroys the object.
      if (signal) signal.addEventListener('abort', () => destroyModel(model, signal.reason), { once: true });
      resolve(model);
    }, (error) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      if (settled) return;
      settled = true;
      reject(error);
    });
  });
}

/** The call's options: {signal} checked, and the composite of it and the object's destruction signal. */
function operationSignal(model, options, what) {
  const signal = optionalSignal(dictionary(options, what), what);
  return anySignal([models.get(model).destruction.signal, signal]);
}

/**
 * The draft's "get an aggregated AI model result" (and "measure AI model input usage"):
 * `operation(signal)` runs unless the composite signal is aborted, whose reason rejects the call
 * at once when it aborts, whatever the operation does after.
 */
function runOperation(model, options, what, operation) {
  let signal;
  try {
    signal = operationSignal(model, options, what);
    checkFullyActive();
  } catch (e) {
    return Promise.reject(e);
  }
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    Promise.resolve()
      .then(() => operation(signal))
      .then(resolve, (e) => reject(signal.aborted ? signal.reason : e))
      .finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * A method on one input string (translate(), detect(), measureInputUsage()): the input required
 * and converted as WebIDL does (a missing one or a Symbol rejects with a TypeError), then the
 * operation run as runOperation() runs it, given the string and the operation's signal.
 */
function inputOperation(model, C, what, argumentCount, input, options, operation) {
  let text;
  try {
    checkThis(model, C, what);
    requireArgument(argumentCount, what);
    text = domString(input);
  } catch (e) {
    return Promise.reject(e);
  }
  return runOperation(model, options, what, (signal) => operation(text, signal));
}

// ---------------------------------------------------------------------------------------------
// Translator.

/**
 * Empty, or only whitespace, control and format characters (a zero-width space, a direction mark,
 * a soft hyphen: invisible, no words): nothing to translate (the draft: returned as is).
 */
const untranslatable = (s) => /^[\s\p{Cc}\p{Cf}]*$/u.test(s);

/** measureInputUsage(): UTF-16 code units, at least 1 (the draft: positive while the quota is finite). */
const inputUsage = (s) => Math.max(1, s.length);

/**
 * The options of create() (availability(): `core`, which has no signal or monitor, ignored there as
 * WebIDL does). convert: each member read once, in WebIDL's order (the core dictionary's, then the
 * derived one's, each in lexicographic order); validate: the draft's "validate and canonicalize".
 */
function translatorOptions(what, core = false) {
  return {
    convert(options) {
      options = dictionary(options, what);
      const sourceLanguage = requiredString(options, 'sourceLanguage', what);
      const targetLanguage = requiredString(options, 'targetLanguage', what);
      const monitor = core ? undefined : optionalCallback(options, what);
      const signal = core ? undefined : optionalSignal(options, what);
      return { sourceLanguage, targetLanguage, monitor, signal };
    },
    validate: (converted) => ({
      ...converted,
      sourceLanguage: canonicalTag(converted.sourceLanguage, `${what} sourceLanguage`),
      targetLanguage: canonicalTag(converted.targetLanguage, `${what} targetLanguage`),
    }),
  };
}

/**
 * The draft's "compute translator options availability": the first arc whose two languages fit
 * (the options take the arc's tags), else the identity translation when the two fit each other.
 */
async function translatorAvailability(options) {
  let arcs;
  try {
    arcs = await modelArcs();
  } catch {
    return null;
  }
  for (const arc of arcs) {
    const source = bestFit([arc.from], options.sourceLanguage);
    const target = bestFit([arc.to], options.targetLanguage);
    if (source !== undefined && target !== undefined) {
      options.sourceLanguage = source;
      options.targetLanguage = target;
      options.arc = arc;
      return arcAvailability(arc);
    }
  }
  if (bestFit([options.sourceLanguage], options.targetLanguage) !== undefined
      || bestFit([options.targetLanguage], options.sourceLanguage) !== undefined) {
    options.identity = true;
    return 'available';
  }
  return 'unavailable';
}

async function unsupportedPair(options) {
  let have = '';
  try {
    have = (await modelArcs()).map((a) => `${a.from}→${a.to}`).join(', ');
  } catch {
    // (the list was read a moment ago)
  }
  return `Translating ${options.sourceLanguage} → ${options.targetLanguage} is not supported (the models translate ${have || 'nothing here'}).`;
}

/** Loads (or joins) the pair's engine, reporting the download to the monitor. */
async function initTranslator(options, { report, download, signal }) {
  const checkAbort = () => { if (signal && signal.aborted) throw signal.reason; };
  checkAbort();
  if (options.identity || !download) {
    report(0);
    report(1);
    checkAbort(); // (a monitor may abort from its event)
  }
  if (options.identity) return new Translator(INTERNAL, options, null);
  const lease = acquireEngine(options.arc);
  const { entry } = lease;
  // An abort lets go of the engine at once (it is disposed when it has loaded, unless another
  // create() of the pair wants it).
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal) signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {}); // (seen by the race below)
  let onBytes = null;
  try {
    if (download) {
      // The bytes still to come when this create() joined (another create() may have started it).
      const base = entry.total > 0 ? entry.loaded : 0;
      onBytes = () => {
        if (entry.total > 0) report(entry.total > base ? (entry.loaded - base) / (entry.total - base) : 1);
      };
      entry.listeners.add(onBytes);
      report(0);
    }
    await Promise.race([entry.promise.catch((e) => { throw createError(e); }), aborted]);
  } catch (e) {
    lease.release();
    throw e;
  } finally {
    if (onBytes) entry.listeners.delete(onBytes);
    if (signal) signal.removeEventListener('abort', onAbort);
  }
  if (download) report(1);
  return new Translator(INTERNAL, options, lease);
}

export class Translator {
  #source;
  #target;
  #lease; // null for the identity translation
  #quota = TRANSLATOR_INPUT_QUOTA;

  /** @private Use Translator.create(). */
  constructor(key, options, lease) {
    initModel(this, key, Translator, () => { if (lease) lease.release(); });
    this.#source = options.sourceLanguage;
    this.#target = options.targetLanguage;
    this.#lease = lease;
  }

  /**
   * @param {{sourceLanguage: string, targetLanguage: string}} options
   * @returns {Promise<'unavailable'|'downloadable'|'downloading'|'available'>}
   */
  static availability(options) {
    return computeAvailability(options, translatorOptions('Translator.availability()', true), translatorAvailability);
  }

  /**
   * @param {{sourceLanguage: string, targetLanguage: string, signal?: AbortSignal, monitor?: (m: EventTarget) => void}} options
   * @returns {Promise<Translator>}
   */
  static create(options) {
    let message = '';
    return createModelObject(options, {
      ...translatorOptions('Translator.create()'),
      availability: async (o) => {
        const a = await translatorAvailability(o);
        if (a === 'unavailable') message = await unsupportedPair(o);
        return a;
      },
      unsupported: () => message,
      init: initTranslator,
    });
  }

  get sourceLanguage() { return this.#source; }

  get targetLanguage() { return this.#target; }

  get inputQuota() { return this.#quota; }

  /**
   * @param {string} input
   * @param {{signal?: AbortSignal}} [options]
   * @returns {Promise<string>}
   */
  translate(input, options = {}) {
    return inputOperation(this, Translator, 'translate()', arguments.length, input, options, async (text, signal) => {
      const requested = inputUsage(text);
      if (requested > this.#quota) throw quotaExceeded(requested, this.#quota);
      if (!this.#lease || untranslatable(text)) return text;
      return (await this.#engineCall(text, { signal })).text;
    });
  }

  /**
   * A ReadableStream of strings: the translation in pieces (one per chunk of about 1,000
   * characters of input, the module's unit of work), which concatenate to what translate() gives.
   * @param {string} input
   * @param {{signal?: AbortSignal}} [options]
   * @returns {ReadableStream<string>}
   */
  translateStreaming(input, options = {}) {
    checkThis(this, Translator, 'translateStreaming()');
    requireArgument(arguments.length, 'translateStreaming()');
    input = domString(input);
    const signal = operationSignal(this, options, 'translateStreaming()');
    checkFullyActive();
    if (signal.aborted) throw signal.reason;
    const cancelled = new AbortController();
    const stop = anySignal([signal, cancelled.signal]);
    let sent = 0;
    let done = false;
    const onAbort = () => finish(signal.reason); // (an abort errors the stream at once)
    let finish;
    const stream = new ReadableStream({
      start: (controller) => {
        finish = (error) => {
          if (done) return;
          done = true;
          signal.removeEventListener('abort', onAbort);
          if (error !== undefined) controller.error(error);
          else controller.close();
        };
        let enqueued = false;
        // (the last push enqueues even an empty piece when none came before: as in Chrome, the
        // stream of '' or of an empty translation has one chunk, '')
        const push = (text, last = false) => {
          if (done || (text.length <= sent && !(last && !enqueued))) return;
          controller.enqueue(text.slice(sent));
          sent = text.length;
          enqueued = true;
        };
        signal.addEventListener('abort', onAbort, { once: true });
        const requested = inputUsage(input);
        if (requested > this.#quota) {
          finish(quotaExceeded(requested, this.#quota));
          return;
        }
        if (!this.#lease || untranslatable(input)) {
          push(input, true);
          finish();
          return;
        }
        this.#engineCall(input, { signal: stop, onProgress: (p) => push(p.text) })
          .then((r) => { push(r.text, true); finish(); }, (e) => finish(signal.aborted ? signal.reason : e));
      },
      cancel: (reason) => {
        // The reader gave up: not an error; the engine request stops.
        done = true;
        signal.removeEventListener('abort', onAbort);
        cancelled.abort(reason);
      },
    });
    return asyncIterable(stream);
  }

  /**
   * @param {string} input
   * @param {{signal?: AbortSignal}} [options]
   * @returns {Promise<number>}
   */
  measureInputUsage(input, options = {}) {
    return inputOperation(this, Translator, 'measureInputUsage()', arguments.length, input, options, (text) => inputUsage(text));
  }

  destroy() {
    checkThis(this, Translator, 'destroy()');
    destroyModel(this, domException('AbortError', 'The Translator was destroyed.'));
  }

  /** One request to the shared engine; its failures are UnknownErrors (the draft's "all other scenarios"). */
  async #engineCall(input, { signal, onProgress }) {
    const engine = this.#lease.entry.module;
    try {
      return await engine.translate(input, { alignments: false, signal, onProgress });
    } catch (e) {
      if (signal.aborted) throw signal.reason;
      throw domException('UnknownError', e && e.message ? e.message : String(e), e);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// LanguageDetector.

/** The languages detect() can name: English and German, and those named by function words. */
const DETECTOR_LANGUAGES = Object.freeze([...DETECTABLE_LANGUAGES, ...OTHER_LANGUAGES].map((l) => canonicalTag(l, 'detector')));

/** The options of LanguageDetector.create() and availability(), as translatorOptions() has them. */
function detectorOptions(what, core = false) {
  return {
    convert(options) {
      options = dictionary(options, what);
      const list = options.expectedInputLanguages;
      let languages = [];
      if (list !== undefined) {
        if (list === null || typeof list !== 'object' || typeof list[Symbol.iterator] !== 'function') {
          throw new TypeError(`${what}: expectedInputLanguages must be a sequence of language tags.`);
        }
        languages = Array.from(list, domString);
      }
      const monitor = core ? undefined : optionalCallback(options, what);
      const signal = core ? undefined : optionalSignal(options, what);
      return { expectedInputLanguages: languages, monitor, signal };
    },
    validate: (converted) => ({
      ...converted,
      expectedInputLanguages: [...new Set(converted.expectedInputLanguages.map((tag) => canonicalTag(tag, `${what} expectedInputLanguages`)))],
    }),
  };
}

/** The draft's "compute language availability": every expected language fits one detect() names (they take its tag). */
async function detectorAvailability(options) {
  const fitted = [];
  for (const tag of options.expectedInputLanguages) {
    const match = bestFit(DETECTOR_LANGUAGES, tag);
    if (match === undefined) return 'unavailable';
    fitted.push(match);
  }
  options.expectedInputLanguages = [...new Set(fitted)];
  return 'available';
}

/**
 * The draft's "detect languages". detect.js gives the likeliest language and its confidence
 * against English/German's runner-up (or, for a language named by its function words, against
 * the runner-up among those); the detector knows the trigram statistics of two languages only,
 * so it keeps UNKNOWN_SHARE for a language it cannot name. The raw confidences are then cut as
 * the draft says: in descending order, until one is below the unknown share or they sum to 0.99;
 * 'und' takes the rest.
 */
function detectLanguages(input) {
  const d = detectLanguage(input);
  if (d.language === 'und') return [{ detectedLanguage: 'und', confidence: 1 }];
  const known = 1 - UNKNOWN_SHARE;
  const raw = [[d.language, d.confidence * known]];
  let unknown = UNKNOWN_SHARE;
  const other = DETECTABLE_LANGUAGES.find((l) => l !== d.language);
  if (DETECTABLE_LANGUAGES.includes(d.language)) raw.push([other, (1 - d.confidence) * known]);
  else unknown = 1 - raw[0][1];
  raw.sort((a, b) => b[1] - a[1]);
  const results = [];
  let cumulative = 0;
  for (const [language, value] of raw) {
    if (value === 0 || value < unknown) break;
    results.push({ detectedLanguage: canonicalTag(language, 'detector'), confidence: value });
    cumulative += value;
    if (cumulative >= 0.99) break;
  }
  results.push({ detectedLanguage: 'und', confidence: 1 - cumulative });
  return results;
}

export class LanguageDetector {
  #expected;
  #quota = Infinity;

  /** @private Use LanguageDetector.create(). */
  constructor(key, options) {
    initModel(this, key, LanguageDetector);
    this.#expected = options.expectedInputLanguages.length ? Object.freeze([...options.expectedInputLanguages]) : null;
  }

  /**
   * @param {{expectedInputLanguages?: string[]}} [options]
   * @returns {Promise<'unavailable'|'available'>}
   */
  static availability(options = {}) {
    return computeAvailability(options, detectorOptions('LanguageDetector.availability()', true), detectorAvailability);
  }

  /**
   * @param {{expectedInputLanguages?: string[], signal?: AbortSignal, monitor?: (m: EventTarget) => void}} [options]
   * @returns {Promise<LanguageDetector>}
   */
  static create(options = {}) {
    return createModelObject(options, {
      ...detectorOptions('LanguageDetector.create()'),
      availability: detectorAvailability,
      unsupported: (o) => `Detecting ${o.expectedInputLanguages.join(', ')} is not supported (the detector knows ${DETECTOR_LANGUAGES.join(', ')}).`,
      init: (o, { report }) => {
        report(0); // nothing to download: the tables are part of the module
        report(1);
        return new LanguageDetector(INTERNAL, o);
      },
    });
  }

  get expectedInputLanguages() { return this.#expected; }

  get inputQuota() { return this.#quota; }

  /**
   * @param {string} input
   * @param {{signal?: AbortSignal}} [options]
   * @returns {Promise<Array<{detectedLanguage: string, confidence: number}>>}
   */
  detect(input, options = {}) {
    return inputOperation(this, LanguageDetector, 'detect()', arguments.length, input, options, (text) => detectLanguages(text));
  }

  destroy() {
    checkThis(this, LanguageDetector, 'destroy()');
    destroyModel(this, domException('AbortError', 'The LanguageDetector was destroyed.'));
  }

  /** 0: the quota is infinite (the draft: then the usage must be 0). */
  measureInputUsage(input, options = {}) {
    return inputOperation(this, LanguageDetector, 'measureInputUsage()', arguments.length, input, options, () => 0);
  }
}

/**
 * The classes take the shape WebIDL gives a browser's interfaces: operations and attributes
 * enumerable (static ones too), the interface's name as its Symbol.toStringTag, and `length` 0
 * (an interface object without a constructor).
 */
function webIdlShape(C) {
  for (const target of [C, C.prototype]) {
    for (const key of Object.getOwnPropertyNames(target)) {
      if (['constructor', 'prototype', 'length', 'name'].includes(key)) continue;
      Object.defineProperty(target, key, { ...Object.getOwnPropertyDescriptor(target, key), enumerable: true });
    }
  }
  Object.defineProperty(C.prototype, Symbol.toStringTag, { value: C.name, configurable: true });
  Object.defineProperty(C, 'length', { value: 0, configurable: true });
}

webIdlShape(Translator);
webIdlShape(LanguageDetector);
webIdlShape(CreateMonitor);

/**
 * Puts Translator and LanguageDetector on globalThis where there is none (or always, with
 * `force`), as a browser's built-in interfaces are (writable, configurable, not enumerable).
 * `force` is true or false (another value: a TypeError). Other options go to configure(). Returns
 * which of the two it installed.
 * @param {{force?: boolean} & Record<string, unknown>} [options]
 * @returns {{Translator: boolean, LanguageDetector: boolean}}
 */
export function install(options = {}) {
  const { force = false, ...config } = dictionary(options, 'install()');
  // (checked, as configure() checks its values: 'false' would replace the environment's own)
  if (typeof force !== 'boolean') throw new TypeError(`install(): force must be true or false (got ${JSON.stringify(force) ?? typeof force}).`);
  if (Object.keys(config).length) configure(config);
  const installed = {};
  for (const [name, value] of [['Translator', Translator], ['LanguageDetector', LanguageDetector]]) {
    installed[name] = !!force || typeof globalThis[name] !== 'function';
    if (installed[name]) Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
  }
  return installed;
}
