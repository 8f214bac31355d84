/**
 * Conformance of web/polyfill.js to the WICG translation-api draft (and its shared parts in
 * writing-assistance-apis), in Node with the real WASM engine and the shipped models. Written from
 * the draft's algorithms and from what the web-platform-tests ai/translator and
 * ai/language_detection suites check: availability values and when they change, create() with a
 * monitor (0 and 1 always, rising, 1/65536 steps) and a signal (already aborted, aborted during the
 * download, aborted after creation), translate / translateStreaming / measureInputUsage / inputQuota,
 * destroy(), the DOMException names, whitespace echoed, best-fit language tags, and detect()'s
 * list (by confidence, 'und' last). One engine per pair is reused across the tests (2 cores).
 *
 * The download cases (downloadable → downloading → available, a shared engine, NetworkError) serve
 * the manifest and models over HTTP (scripts/serve.mjs), since files on disk need no download.
 */
import test, { before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as polyfill from '../../web/polyfill.js';
import { startServer } from '../../scripts/serve.mjs';
import { engineSkip, requireEngine, testManifest, ROOT, resultsDir } from './_helpers.mjs';

const { Translator, LanguageDetector, install, configure, TRANSLATOR_INPUT_QUOTA } = polyfill;
const skip = engineSkip() || (!testManifest().shipped && 'the polyfill tests translate with the shipped models (weights/manifest.json)');
requireEngine(test);

/** Rejects with a DOMException of this name. */
async function rejectsDom(promise, name) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof DOMException, `a DOMException, got ${e && e.constructor && e.constructor.name}: ${e && e.message}`);
    assert.equal(e.name, name, e.message);
    return true;
  });
}

/** Rejects with exactly this value. */
async function rejectsExactly(promise, value) {
  await assert.rejects(promise, (e) => {
    assert.equal(e, value);
    return true;
  });
}

/** WPT's testAbortPromise: an abort right after the call rejects with the reason, and so does a second call with the same signal. */
async function abortsPromptly(method) {
  const plain = new AbortController();
  const p1 = method(plain.signal);
  plain.abort();
  await rejectsDom(p1, 'AbortError');
  await rejectsDom(method(plain.signal), 'AbortError');
  const custom = new AbortController();
  const reason = new Error('test');
  const p2 = method(custom.signal);
  custom.abort(reason);
  await rejectsExactly(p2, reason);
  await rejectsExactly(method(custom.signal), reason);
}

/** Creates with a monitor and checks its events as WPT's testMonitor does; returns [object, events]. */
async function createWithMonitor(create, options) {
  let created = false;
  const events = [];
  const object = await create({
    ...options,
    monitor(m) {
      m.addEventListener('downloadprogress', (e) => {
        assert.equal(created, false, 'no progress event after create() resolved');
        events.push(e);
      });
    },
  });
  created = true;
  checkProgress(events);
  return [object, events];
}

function checkProgress(events) {
  assert.ok(events.length >= 2, `at least two events, got ${events.length}`);
  assert.equal(events[0].loaded, 0, 'the first is 0');
  assert.equal(events.at(-1).loaded, 1, 'the last is 1');
  let last = -1;
  for (const e of events) {
    assert.equal(e.type, 'downloadprogress');
    assert.equal(e.total, 1);
    assert.equal(e.lengthComputable, true);
    assert.equal(e.loaded % (1 / 0x10000), 0, 'a multiple of 1/65536');
    assert.ok(e.loaded > last, 'rising');
    last = e.loaded;
  }
}

let enDe; // the shared en→de Translator of most tests
let enDeEvents;

before(async () => {
  if (skip) return;
  [enDe, enDeEvents] = await createWithMonitor(Translator.create, { sourceLanguage: 'en-US', targetLanguage: 'de-DE' });
});

after(() => {
  if (enDe) enDe.destroy();
});

test('install() sets the two interfaces where there are none, replaces them only with force', () => {
  assert.equal(typeof globalThis.Translator, 'undefined', 'Node has no Translator of its own');
  try {
    assert.deepEqual(install(), { Translator: true, LanguageDetector: true });
    assert.equal(globalThis.Translator, Translator);
    assert.equal(globalThis.LanguageDetector, LanguageDetector);
    assert.equal(Object.getOwnPropertyDescriptor(globalThis, 'Translator').enumerable, false, 'not enumerable, as built-ins');
    const native = class Translator {};
    globalThis.Translator = native;
    assert.deepEqual(install(), { Translator: false, LanguageDetector: false }, 'an existing one is kept');
    assert.equal(globalThis.Translator, native);
    // force is true or false: 'false' replaced the environment's own
    for (const force of ['false', 1, null]) {
      assert.throws(() => install({ force }), { name: 'TypeError', message: `install(): force must be true or false (got ${JSON.stringify(force)}).` });
    }
    assert.equal(globalThis.Translator, native);
    assert.deepEqual(install({ force: false }), { Translator: false, LanguageDetector: false });
    assert.deepEqual(install({ force: true }), { Translator: true, LanguageDetector: true });
    assert.equal(globalThis.Translator, Translator);
    assert.throws(() => install({ nonsense: 1 }), TypeError);
    // A bad value is a TypeError here too, not an OperationError from a later create() (nor an 'available' pair that cannot start).
    for (const bad of [{ workers: 0 }, { workers: '2' }, { manifestUrl: 42 }, { engineUrl: null }]) {
      assert.throws(() => configure(bad), TypeError, JSON.stringify(bad));
      assert.throws(() => install({ force: true, ...bad }), TypeError, JSON.stringify(bad));
    }
    configure({ workers: 2, manifestUrl: undefined, workerUrl: new URL('../../web/worker.js', import.meta.url) });
    configure({ workers: undefined, workerUrl: undefined });
  } finally {
    delete globalThis.Translator;
    delete globalThis.LanguageDetector;
  }
  assert.throws(() => new Translator(), TypeError, 'no public constructor');
  assert.equal(Object.prototype.toString.call(Object.create(Translator.prototype)), '[object Translator]');
});

test('Translator.availability(): pairs, best-fit tags, the identity translation, bad input', { skip }, async () => {
  const a = (sourceLanguage, targetLanguage) => Translator.availability({ sourceLanguage, targetLanguage });
  assert.equal(await a('en', 'de'), 'available', 'models on disk need no download');
  assert.equal(await a('de', 'en'), 'available');
  for (const [s, t] of [['en-US', 'de'], ['EN-gb', 'de-CH'], ['en-Latn-US', 'de-AT'], ['de-DE-1996', 'en-x-test']]) {
    assert.equal(await a(s, t), 'available', `${s} → ${t} best-fits to the models' languages`);
  }
  for (const [s, t] of [['en', 'fr'], ['fr', 'de'], ['ja', 'en'], ['en', 'und'], ['en-Cyrl', 'de'], ['und', 'de']]) {
    assert.equal(await a(s, t), 'unavailable', `${s} → ${t}`);
  }
  for (const [s, t] of [['en', 'en'], ['en-US', 'en-GB'], ['fr', 'fr-CA'], ['en-x-asdf', 'en-x-xyzw']]) {
    assert.equal(await a(s, t), 'available', `${s} → ${t}: the identity translation`);
  }
  // A structurally invalid tag is a RangeError (Chrome, WPT's translator-locale test); a missing one a TypeError.
  for (const [s, t] of [['en', 'not a tag'], ['', 'de'], ['en_US', 'de'], ['de', 'en-'], ['123', 'en']]) {
    await assert.rejects(a(s, t), RangeError, `${s} → ${t}`);
    await assert.rejects(Translator.create({ sourceLanguage: s, targetLanguage: t }), RangeError, `create(): ${s} → ${t}`);
  }
  await assert.rejects(Translator.availability({ sourceLanguage: 'en' }), TypeError, 'targetLanguage is required');
  await assert.rejects(Translator.availability(), TypeError);
  await assert.rejects(Translator.availability(42), TypeError);
});

test('Translator.create(): monitor, best-fit languages, unsupported pairs, a throwing monitor', { skip }, async () => {
  assert.equal(enDe.sourceLanguage, 'en', "'en-US' best-fits to the model's 'en'");
  assert.equal(enDe.targetLanguage, 'de');
  assert.ok(enDeEvents.length >= 2);
  await rejectsDom(Translator.create({ sourceLanguage: 'en', targetLanguage: 'fr' }), 'NotSupportedError');
  await assert.rejects(Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', monitor: 'no' }), TypeError);
  await assert.rejects(Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', signal: {} }), TypeError);
  const error = new Error('CreateMonitorCallback threw an error');
  await rejectsExactly(Translator.create({
    sourceLanguage: 'en',
    targetLanguage: 'de',
    monitor(m) {
      m.addEventListener('downloadprogress', () => assert.fail('no event once the monitor threw'));
      throw error;
    },
  }), error);
  // ondownloadprogress is an event handler attribute.
  let handled = 0;
  const t = await Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', monitor(m) { m.ondownloadprogress = () => { handled += 1; }; } });
  assert.equal(handled, 2, 'no download: 0 and 1 only');
  t.destroy();
});

test('Translator.create() with a signal: already aborted, aborted at once, aborted after creation', { skip }, async () => {
  const controller = new AbortController();
  controller.abort();
  await rejectsDom(Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', signal: controller.signal }), 'AbortError');
  await abortsPromptly((signal) => Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', signal }));

  // WPT testCreateAbort: aborting the create() signal later destroys the object with its reason.
  const later = new AbortController();
  const t = await Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', signal: later.signal });
  const pending = [t.translate('The house is small.'), t.measureInputUsage('The house is small.')];
  const reason = new Error('The create abort signal was aborted.');
  later.abort(reason);
  pending.push(t.translate('The house is small.'), t.measureInputUsage('The house is small.'));
  for (const p of pending) await rejectsExactly(p, reason);
  assert.throws(() => t.translateStreaming('Hello.'), (e) => e === reason);
  assert.match(await enDe.translate('The house is small.'), /Haus/, 'the shared engine still serves the others');
});

test('translate(): a translation; whitespace and control characters come back as they are', { skip }, async () => {
  assert.match(await enDe.translate('The house is small.'), /Das Haus ist klein/);
  const de = await Translator.create({ sourceLanguage: 'de', targetLanguage: 'en-GB' });
  try {
    assert.equal(de.targetLanguage, 'en');
    assert.match(await de.translate('Das Haus ist klein.'), /house is small/);
  } finally {
    de.destroy();
  }
  const untranslatable = ['', ' ', '     ', ' \r\n\t\f'];
  for (let c = 0; c < 0x1f; c++) untranslatable.push(String.fromCharCode(c));
  // Format characters are as invisible: a zero-width space or direction marks alone came back empty.
  untranslatable.push('\u200B', '\u200E\u200F', ' \u200B\n', '\u00AD', '\u2060', '\uFEFF\u200D');
  assert.deepEqual(await Promise.all(untranslatable.map((s) => enDe.translate(s))), untranslatable);
  const streamed = async (s) => { let all = ''; for await (const chunk of enDe.translateStreaming(s)) all += chunk; return all; };
  assert.deepEqual(await Promise.all(['\u200B', '\u200E\u200F'].map(streamed)), ['\u200B', '\u200E\u200F'], 'streamed the same');
  // As Chrome's (its service streams such input back as one piece, even ''): one chunk, the input.
  const chunksOf = async (s) => { const chunks = []; for await (const chunk of enDe.translateStreaming(s)) chunks.push(chunk); return chunks; };
  assert.deepEqual(await Promise.all(['', ' ', '\n\n', '\u200B'].map(chunksOf)), [[''], [' '], ['\n\n'], ['\u200B']], 'one chunk each, the empty string too');
  // With words around them they are translated (a few, to keep the run short).
  for (const s of [' ', '\t', '\u0001', '\u200B']) {
    const input = `Hello ${s} world`;
    assert.notEqual(await enDe.translate(input), input);
  }
  await assert.rejects(enDe.translate(), TypeError, 'the input is required');
  assert.equal(typeof await enDe.translate(12), 'string', 'converted to a string, as WebIDL does');
  await assert.rejects(enDe.translate('x', { signal: 'no' }), TypeError);
});

test('the identity translation: a pair within one language gives the input back', { skip }, async () => {
  const [t] = await createWithMonitor(Translator.create, { sourceLanguage: 'en-US', targetLanguage: 'en-GB' });
  try {
    assert.equal(t.sourceLanguage, 'en-US', 'tags kept (canonicalized) when no model matched');
    assert.equal(t.targetLanguage, 'en-GB');
    assert.equal(await t.translate('Colour me surprised.'), 'Colour me surprised.');
    let streamed = '';
    for await (const chunk of t.translateStreaming('Hello world.')) streamed += chunk;
    assert.equal(streamed, 'Hello world.');
  } finally {
    t.destroy();
  }
});

test('translate() and measureInputUsage() with a signal', { skip }, async () => {
  const controller = new AbortController();
  controller.abort();
  await rejectsDom(enDe.translate('hello', { signal: controller.signal }), 'AbortError');
  await rejectsDom(enDe.measureInputUsage('hello', { signal: controller.signal }), 'AbortError');
  await abortsPromptly((signal) => enDe.translate('The weather is nice today.', { signal }));
  await abortsPromptly((signal) => enDe.measureInputUsage('hello', { signal }));
  assert.match(await enDe.translate('The house is small.'), /Haus/, 'the engine works after the aborts');
});

test('measureInputUsage() and inputQuota: UTF-16 code units, a QuotaExceededError above the quota', { skip }, async () => {
  assert.equal(enDe.inputQuota, TRANSLATOR_INPUT_QUOTA);
  assert.equal(await enDe.measureInputUsage('hello'), 5);
  assert.equal(await enDe.measureInputUsage(''), 1, 'positive while the quota is finite');
  const big = 'a'.repeat(TRANSLATOR_INPUT_QUOTA + 1);
  const usage = await enDe.measureInputUsage(big);
  assert.ok(usage > enDe.inputQuota);
  await assert.rejects(enDe.translate(big), (e) => {
    assert.equal(e.name, 'QuotaExceededError');
    assert.equal(e.quota, enDe.inputQuota);
    assert.equal(e.requested, usage);
    return true;
  });
  const reader = enDe.translateStreaming(big).getReader();
  await assert.rejects(reader.read(), (e) => e.name === 'QuotaExceededError');
});

test('translateStreaming(): a ReadableStream of strings that add up to translate()', { skip, timeout: 120000 }, async () => {
  const paragraph = 'The old town has narrow streets and small houses. Many tourists visit it every summer. '
    + 'The museum near the river opens at nine in the morning. ';
  const input = `${paragraph.repeat(4).trim()}\n\n${paragraph.repeat(4).trim()}\n\n${paragraph.repeat(4).trim()}`;
  const stream = enDe.translateStreaming(input);
  assert.equal(Object.prototype.toString.call(stream), '[object ReadableStream]');
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  assert.ok(chunks.every((c) => typeof c === 'string' && c.length > 0), 'non-empty strings');
  assert.ok(chunks.length >= 2, `an input of ${input.length} characters streams in pieces (got ${chunks.length})`);
  assert.equal(chunks.join(''), await enDe.translate(input), 'the pieces are the translation');

  // A reader that cancels: no error, and the translator goes on working.
  const reader = enDe.translateStreaming(input).getReader();
  await reader.cancel();
  assert.match(await enDe.translate('The house is small.'), /Haus/);

  // An already aborted signal throws at once; an abort later errors the stream with its reason.
  const controller = new AbortController();
  controller.abort();
  assert.throws(() => enDe.translateStreaming('hello', { signal: controller.signal }), (e) => e.name === 'AbortError');
  const later = new AbortController();
  const reason = new DOMException('test', 'VersionError');
  const s2 = enDe.translateStreaming(input, { signal: later.signal });
  later.abort(reason);
  await rejectsExactly(s2.pipeTo(new WritableStream()), reason);
  assert.throws(() => enDe.translateStreaming('hello', { signal: later.signal }), (e) => e === reason);
});

test('destroy(): pending and later calls reject with an AbortError; the shared engine stays for the others', { skip }, async () => {
  const t = await Translator.create({ sourceLanguage: 'en', targetLanguage: 'de' });
  const pending = [t.translate('The weather is nice today.'), t.measureInputUsage('hello')];
  const stream = t.translateStreaming('The weather is nice today.');
  t.destroy();
  t.destroy(); // a second destroy() does nothing
  pending.push(t.translate('hello'), t.measureInputUsage('hello'));
  for (const p of pending) await rejectsDom(p, 'AbortError');
  await rejectsDom(stream.pipeTo(new WritableStream()), 'AbortError');
  assert.throws(() => t.translateStreaming('hello'), (e) => e.name === 'AbortError');
  assert.equal(t.sourceLanguage, 'en', 'the attributes stay');
  assert.match(await enDe.translate('The house is small.'), /Haus/, 'the other translator of the pair still works');
});

test('options are read as WebIDL reads them: each member once, in its order, their types checked before the document is', { skip }, async () => {
  const reads = [];
  const logged = (values) => new Proxy(values, { get(target, key) { reads.push(key); return target[key]; } });
  const readBy = async (call) => {
    reads.length = 0;
    await call();
    return [...reads];
  };
  // (the core dictionary's members, then the derived one's, each in lexicographic order; availability() reads no signal or monitor)
  assert.deepEqual(await readBy(() => Translator.availability(logged({ targetLanguage: 'de', sourceLanguage: 'en', signal: 1, monitor: 2 }))), ['sourceLanguage', 'targetLanguage']);
  const created = [];
  assert.deepEqual(await readBy(async () => created.push(await Translator.create(logged({ signal: new AbortController().signal, monitor() {}, targetLanguage: 'de', sourceLanguage: 'en' }))),
  ), ['sourceLanguage', 'targetLanguage', 'monitor', 'signal']);
  assert.deepEqual(await readBy(async () => created.push(await LanguageDetector.create(logged({ signal: undefined, monitor: undefined, expectedInputLanguages: ['en'] })))),
    ['expectedInputLanguages', 'monitor', 'signal']);
  for (const object of created) object.destroy();
  const tag = { toString() { reads.push('toString'); return 'en'; } };
  assert.deepEqual(await readBy(() => Translator.availability(logged({ sourceLanguage: tag, targetLanguage: 'de' }))), ['sourceLanguage', 'toString', 'targetLanguage'], 'converted once, as read');

  // A removed iframe's document, as the polyfill sees it: a wrong type is still the TypeError WebIDL's conversion throws first.
  globalThis.document = { defaultView: null };
  try {
    await assert.rejects(Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', signal: 'no' }), TypeError);
    await assert.rejects(LanguageDetector.availability({ expectedInputLanguages: 'en' }), TypeError);
    await assert.rejects(enDe.translate('hello', { signal: 'no' }), TypeError);
    await assert.rejects(enDe.measureInputUsage('hello', 5), TypeError);
    assert.throws(() => enDe.translateStreaming('hello', { signal: 'no' }), TypeError);
    await rejectsDom(enDe.translate('hello'), 'InvalidStateError');
    await rejectsDom(Translator.create({ sourceLanguage: 'en', targetLanguage: 'de' }), 'InvalidStateError');
  } finally {
    delete globalThis.document;
  }
  assert.equal(await enDe.measureInputUsage('hello'), 5);
});

test('the interfaces have the shape WebIDL gives a browser\'s: own, enumerable members, no base class, destroy() their own', { skip }, async () => {
  const idl = {
    Translator: { C: Translator, statics: { create: 1, availability: 1 }, operations: { translate: 1, translateStreaming: 1, measureInputUsage: 1, destroy: 0 }, attributes: ['sourceLanguage', 'targetLanguage', 'inputQuota'] },
    LanguageDetector: { C: LanguageDetector, statics: { create: 0, availability: 0 }, operations: { detect: 1, measureInputUsage: 1, destroy: 0 }, attributes: ['expectedInputLanguages', 'inputQuota'] },
  };
  for (const [name, { C, statics, operations, attributes }] of Object.entries(idl)) {
    assert.equal(Object.getPrototypeOf(C), Function.prototype, `${name}: no parent interface`);
    assert.equal(Object.getPrototypeOf(C.prototype), Object.prototype, `${name}.prototype inherits from Object.prototype`);
    assert.equal(C.length, 0, `${name}.length (no constructor)`);
    assert.throws(() => new C(), TypeError);
    for (const [target, members, where] of [[C, statics, name], [C.prototype, operations, `${name}.prototype`]]) {
      for (const [member, length] of Object.entries(members)) {
        const d = Object.getOwnPropertyDescriptor(target, member);
        assert.ok(d, `${where}.${member} is its own`);
        assert.deepEqual([typeof d.value, d.writable, d.enumerable, d.configurable, d.value.length], ['function', true, true, true, length], `${where}.${member}`);
      }
    }
    for (const attribute of attributes) {
      const d = Object.getOwnPropertyDescriptor(C.prototype, attribute);
      assert.deepEqual([typeof d.get, d.set, d.enumerable, d.configurable], ['function', undefined, true, true], `${name}.prototype.${attribute}: readonly`);
    }
    const tag = Object.getOwnPropertyDescriptor(C.prototype, Symbol.toStringTag);
    assert.deepEqual(tag, { value: name, writable: false, enumerable: false, configurable: true });
  }
  assert.notEqual(Translator.prototype.destroy, LanguageDetector.prototype.destroy, 'each interface has its own destroy()');
  let monitor;
  const detector = await LanguageDetector.create({ monitor(m) { monitor = m; } });
  assert.equal(Object.prototype.toString.call(monitor), '[object CreateMonitor]');
  assert.ok(monitor instanceof EventTarget);
  assert.equal(Object.getOwnPropertyDescriptor(Object.getPrototypeOf(monitor), 'ondownloadprogress').enumerable, true);
  assert.equal(Object.prototype.toString.call(detector), '[object LanguageDetector]');
  assert.deepEqual(Object.keys(Object.getPrototypeOf(enDe)), ['sourceLanguage', 'targetLanguage', 'inputQuota', 'translate', 'translateStreaming', 'measureInputUsage', 'destroy']);
  detector.destroy();
  await rejectsDom(detector.detect('hello'), 'AbortError');
});

test('methods and attributes called on another object: a TypeError (WebIDL\'s brand check), as a browser\'s are', { skip }, async () => {
  const detector = await LanguageDetector.create();
  const impostors = [{}, Object.create(Translator.prototype), Object.create(LanguageDetector.prototype), detector, enDe];
  const operation = (C, name) => Object.getOwnPropertyDescriptor(C.prototype, name).value;
  const getter = (C, name) => Object.getOwnPropertyDescriptor(C.prototype, name).get;
  for (const object of impostors) {
    if (object !== enDe) {
      await assert.rejects(operation(Translator, 'translate').call(object, 'hello'), TypeError);
      await assert.rejects(operation(Translator, 'measureInputUsage').call(object, 'hello'), TypeError);
      assert.throws(() => operation(Translator, 'translateStreaming').call(object, 'hello'), TypeError);
      assert.throws(() => operation(Translator, 'destroy').call(object), TypeError);
      for (const name of ['sourceLanguage', 'targetLanguage', 'inputQuota']) assert.throws(() => getter(Translator, name).call(object), TypeError, name);
    }
    if (object !== detector) {
      await assert.rejects(operation(LanguageDetector, 'detect').call(object, 'hello'), TypeError);
      await assert.rejects(operation(LanguageDetector, 'measureInputUsage').call(object, 'hello'), TypeError);
      assert.throws(() => operation(LanguageDetector, 'destroy').call(object), TypeError);
      for (const name of ['expectedInputLanguages', 'inputQuota']) assert.throws(() => getter(LanguageDetector, name).call(object), TypeError, name);
    }
  }
  assert.equal(await enDe.measureInputUsage('hello'), 5, 'the translator works on');
  assert.equal(detector.inputQuota, Infinity);
  detector.destroy();
});

test('LanguageDetector: availability(), create(), expectedInputLanguages', { skip }, async () => {
  assert.equal(await LanguageDetector.availability(), 'available');
  assert.equal(await LanguageDetector.availability({ expectedInputLanguages: ['en', 'de-CH', 'fr', 'es'] }), 'available');
  assert.equal(await LanguageDetector.availability({ expectedInputLanguages: ['en', 'ja'] }), 'unavailable');
  await assert.rejects(LanguageDetector.availability({ expectedInputLanguages: ['en', '!!'] }), RangeError);
  await assert.rejects(LanguageDetector.create({ expectedInputLanguages: ['en_US'] }), RangeError);
  await assert.rejects(LanguageDetector.availability({ expectedInputLanguages: 'en' }), TypeError, 'a sequence, not a string');
  await rejectsDom(LanguageDetector.create({ expectedInputLanguages: ['ja'] }), 'NotSupportedError');

  const [d] = await createWithMonitor(LanguageDetector.create, {});
  assert.equal(d.expectedInputLanguages, null);
  assert.equal((await LanguageDetector.create({ expectedInputLanguages: [] })).expectedInputLanguages, null);
  const withLanguages = await LanguageDetector.create({ expectedInputLanguages: ['en', 'es', 'EN', 'de-AT'] });
  assert.deepEqual(withLanguages.expectedInputLanguages, ['en', 'es', 'de'], 'canonical, deduplicated, best-fit');
  assert.ok(Object.isFrozen(withLanguages.expectedInputLanguages));
  assert.equal(d.inputQuota, Infinity);
  assert.equal(await d.measureInputUsage('Hello world!'.repeat(10000)), 0, 'an infinite quota: usage 0');
  const error = new Error('monitor');
  await rejectsExactly(LanguageDetector.create({ monitor() { throw error; } }), error);
  // A monitor callback that aborts the create() signal: rejected with its reason, as Translator.create() is.
  for (const C of [LanguageDetector, Translator]) {
    const controller = new AbortController();
    const reason = new Error('aborted from the monitor');
    await rejectsExactly(C.create({ sourceLanguage: 'en', targetLanguage: 'en-GB', signal: controller.signal, monitor: () => controller.abort(reason) }), reason);
  }
});

test('LanguageDetector.detect(): sorted by confidence, canonical tags, "und" last, summing to 1', { skip }, async () => {
  const d = await LanguageDetector.create();
  const check = (results) => {
    const und = results.at(-1);
    assert.equal(und.detectedLanguage, 'und');
    assert.ok(und.confidence > 0);
    let last = 1;
    let sum = 0;
    for (const r of results.slice(0, -1)) {
      assert.deepEqual(Object.keys(r).sort(), ['confidence', 'detectedLanguage']);
      assert.equal(Intl.getCanonicalLocales(r.detectedLanguage)[0], r.detectedLanguage, 'canonical');
      assert.ok(r.confidence > und.confidence && r.confidence <= last, 'descending, above und');
      last = r.confidence;
      sum += r.confidence;
    }
    if (results.length > 1) assert.ok(sum - results.at(-2).confidence < 0.99, 'the cut at 0.99');
    assert.ok(Math.abs(sum + und.confidence - 1) < 1e-12, 'they sum to 1');
  };
  const en = await d.detect('Please write a sentence in English.');
  check(en);
  assert.equal(en[0].detectedLanguage, 'en');
  const de = await d.detect('Wo ist der Bahnhof? Ich habe meinen Zug verpasst.');
  check(de);
  assert.equal(de[0].detectedLanguage, 'de');
  const fr = await d.detect('Le chat dort sur le canapé de la maison.');
  check(fr);
  assert.equal(fr[0].detectedLanguage, 'fr');
  assert.deepEqual(await d.detect('   '), [{ detectedLanguage: 'und', confidence: 1 }]);
  assert.deepEqual(await d.detect('Привет, как дела?'), [{ detectedLanguage: 'und', confidence: 1 }], 'another script: und');

  const controller = new AbortController();
  controller.abort();
  await rejectsDom(d.detect('hello', { signal: controller.signal }), 'AbortError');
  await abortsPromptly((signal) => d.detect('Please write a sentence in English.', { signal }));
  await abortsPromptly((signal) => LanguageDetector.create({ signal }));
  const pending = [d.detect('Please write a sentence in English.'), d.measureInputUsage('x')];
  d.destroy();
  pending.push(d.detect('hello'), d.measureInputUsage('x'));
  for (const p of pending) await rejectsDom(p, 'AbortError');
});

// ---------------------------------------------------------------------------------------------
// Downloads: the manifest and models over HTTP.

/**
 * A server in front of `upstream` that passes its responses on at ~25 MB/s (a 10 ms pause after
 * each 256 kB), so that a model's download takes ~0.5 s: long enough for monitor events between 0
 * and 1 (at most one every 50 ms) and for a create() to be seen 'downloading'. Over localhost a
 * fast machine fetched the whole model within one 50 ms step (events 0 and 1 only).
 */
async function slowServer(upstream) {
  const server = createServer(async (req, res) => {
    try {
      const response = await fetch(new URL(req.url.slice(1), upstream.url));
      res.writeHead(response.status, Object.fromEntries(response.headers));
      let sent = 0;
      for await (const chunk of response.body) {
        for (let at = 0; at < chunk.length;) {
          const piece = chunk.subarray(at, at + (1 << 18) - (sent % (1 << 18)));
          res.write(piece);
          at += piece.length;
          sent += piece.length;
          if (sent % (1 << 18) === 0) await new Promise((r) => setTimeout(r, 10));
        }
      }
      res.end();
    } catch (e) {
      res.destroy(e);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((r) => server.close(r)) };
}

test('over HTTP: downloadable → downloading → available, one engine shared by two translators, released by the last destroy()',
  { skip, timeout: 180000 }, async (t) => {
    const upstream = await startServer({ root: ROOT, base: '/' });
    const server = await slowServer(upstream);
    t.after(async () => { configure({ manifestUrl: undefined }); await server.close(); await upstream.close(); });
    configure({ manifestUrl: `${server.url}weights/manifest.json` });
    const a = () => Translator.availability({ sourceLanguage: 'de', targetLanguage: 'en' });
    assert.equal(await a(), 'downloadable', 'a model to fetch first');

    let started;
    const startedPromise = new Promise((resolve) => { started = resolve; });
    const first = createWithMonitor((o) => Translator.create({
      ...o,
      monitor(m) { o.monitor(m); m.addEventListener('downloadprogress', started, { once: true }); },
    }), { sourceLanguage: 'de', targetLanguage: 'en' });
    await startedPromise; // (the download has begun)
    assert.equal(await a(), 'downloading', 'while a create() loads it');
    const second = createWithMonitor(Translator.create, { sourceLanguage: 'de', targetLanguage: 'en' });
    const [[t1, events1], [t2]] = await Promise.all([first, second]);
    assert.ok(events1.length >= 3, `progress in between 0 and 1 (${events1.length} events)`);
    assert.equal(await a(), 'available', 'loaded in this realm');

    t1.destroy();
    assert.equal(await a(), 'available', 'the second translator still holds the engine');
    assert.match(await t2.translate('Das Haus ist klein.'), /house/);
    t2.destroy();
    assert.equal(await a(), 'downloadable', 'the last destroy() released it');

    // An abort during the download: rejects with the reason, and no event follows it.
    const controller = new AbortController();
    const reason = new Error('test');
    let eventsAfterAbort = 0;
    let aborted = false;
    const creating = Translator.create({
      sourceLanguage: 'de',
      targetLanguage: 'en',
      signal: controller.signal,
      monitor(m) {
        m.addEventListener('downloadprogress', (e) => {
          if (aborted) eventsAfterAbort += 1;
          if (e.loaded === 0) { aborted = true; controller.abort(reason); }
        });
      },
    });
    await rejectsExactly(creating, reason);
    await new Promise((r) => setTimeout(r, 1000)); // (time for a stray event to show)
    assert.equal(eventsAfterAbort, 0);
    assert.equal(await a(), 'downloadable');
  });

test('over HTTP: a model that cannot be downloaded is a NetworkError', { skip, timeout: 60000 }, async (t) => {
  const dir = mkdtempSync(path.join(resultsDir(), 'polyfill-'));
  const manifest = JSON.parse(readFileSync(testManifest().file, 'utf8'));
  manifest.models = manifest.models.map((m) => ({ ...m, file: `missing/${m.from}-${m.to}.nmt` }));
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const server = await startServer({ root: dir, base: '/' });
  t.after(() => { configure({ manifestUrl: undefined }); rmSync(dir, { recursive: true, force: true }); return server.close(); });
  configure({ manifestUrl: `${server.url}manifest.json` });
  assert.equal(await Translator.availability({ sourceLanguage: 'en', targetLanguage: 'de' }), 'downloadable');
  await rejectsDom(Translator.create({ sourceLanguage: 'en', targetLanguage: 'de' }), 'NetworkError');
});

// ---------------------------------------------------------------------------------------------
// The package.

test('the npm package runs the README\'s standard-API sample as written (`nmt-translator/polyfill`)', { skip, timeout: 180000 }, async (t) => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('**Use the standard API.**'));
  const sample = section.slice(section.indexOf('```js\n') + 6, section.indexOf('\n```', section.indexOf('```js\n')));
  assert.match(sample, /import \{ install \} from 'nmt-translator\/polyfill'; install\(\);/);
  const dir = mkdtempSync(path.join(tmpdir(), 'nmt-polyfill-pack-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const [packed] = JSON.parse(execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  for (const f of ['web/polyfill.js', 'web/polyfill.d.ts']) assert.ok(packed.files.some((x) => x.path === f), `the package carries ${f}`);
  const modules = path.join(dir, 'app', 'node_modules');
  mkdirSync(modules, { recursive: true });
  execFileSync('tar', ['xzf', path.join(dir, packed.filename), '-C', modules]);
  renameSync(path.join(modules, 'package'), path.join(modules, 'nmt-translator'));
  writeFileSync(path.join(dir, 'app', 'sample.mjs'), `${sample}
console.log(JSON.stringify({ text: await translator.translate('The house is small.'), best, source: translator.sourceLanguage }));
translator.destroy();
`);
  const lines = execFileSync(process.execPath, ['sample.mjs'], { cwd: path.join(dir, 'app'), encoding: 'utf8', timeout: 120000 }).trim().split('\n');
  const out = JSON.parse(lines.at(-1));
  assert.equal(lines[0], '0', 'the monitor logged 0 first');
  assert.equal(lines.at(-2), '1', 'and 1 last');
  assert.match(out.text, /Das Haus ist klein/);
  assert.equal(out.best.detectedLanguage, 'de');
  assert.equal(out.source, 'en');
});

// ---------------------------------------------------------------------------------------------
// Types.

const TSC = ['/usr/bin/tsc', path.join(ROOT, 'node_modules/.bin/tsc')].find((p) => spawnSync(p, ['--version']).status === 0);

test('polyfill.d.ts declares what polyfill.js exports, and typical code compiles against it', { skip: !TSC && 'tsc is missing' }, () => {
  const dts = readFileSync(path.join(ROOT, 'web/polyfill.d.ts'), 'utf8');
  const declared = [...dts.matchAll(/^export declare (?:const|function|class) (\w+)/gm)].map((m) => m[1]).sort();
  assert.deepEqual(declared, Object.keys(polyfill).sort());
  const dir = mkdtempSync(path.join(resultsDir(), 'polyfill-types-'));
  try {
    const file = path.join(dir, 'use.ts');
    writeFileSync(file, `import { install, Translator, LanguageDetector } from '${path.join(ROOT, 'web/polyfill.js')}';
install({ force: false });
async function main(): Promise<string> {
  const availability: 'unavailable' | 'downloadable' | 'downloading' | 'available' = await Translator.availability({ sourceLanguage: 'en', targetLanguage: 'de' });
  // (the README's sample as written: the event's loaded without a cast; the stream read with for await)
  const t = await Translator.create({ sourceLanguage: 'en', targetLanguage: 'de', monitor(m) { m.addEventListener('downloadprogress', (e) => console.log(e.loaded)); m.ondownloadprogress = (e) => console.log(e.total); } });
  const usage: number = await t.measureInputUsage('x');
  const stream: ReadableStream<string> = t.translateStreaming('x');
  let streamed = '';
  for await (const chunk of t.translateStreaming('x')) streamed += chunk.toUpperCase();
  // @ts-expect-error: a chunk is a string
  for await (const chunk of t.translateStreaming('x')) streamed += chunk.toFixed(1);
  const d = await LanguageDetector.create({ expectedInputLanguages: ['en'] });
  const [{ detectedLanguage, confidence }] = await d.detect('hello');
  // @ts-expect-error: sourceLanguage is required
  await Translator.create({ targetLanguage: 'de' });
  return availability + usage + String(stream) + streamed + detectedLanguage + confidence + (await t.translate('x'));
}
main();
`);
    const r = spawnSync(TSC, ['--noEmit', '--strict', '--target', 'es2022', '--module', 'es2022', '--moduleResolution', 'node',
      '--lib', 'es2022,dom', '--typeRoots', path.join(dir, 'none'), file], { encoding: 'utf8', timeout: 120000 });
    assert.equal(r.status, 0, `tsc:\n${r.stdout}${r.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
