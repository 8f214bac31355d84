/**
 * Every failure class reaches JavaScript as a TranslatorError with the documented code
 * (web/translator.d.ts, ErrorCode), with the real WASM engine and the fixture model
 * (tests/fixtures/tiny.nmt), rebuilt with one defect each:
 *   - bytes that are no model (garbage, truncated, wrong magic or version)     -> 'model-load'
 *   - a checksum mismatch (one flipped byte, CRC left as it was)              -> 'model-load'
 *   - models with a valid checksum that fail the engine's semantic checks:
 *     NaN / infinite / non-positive scales, norm_eps 1e300, zero layers,
 *     n_heads = d_model, a provenance nested 200,000 deep, a tensor out of
 *     bounds, a shape that disagrees with the config                          -> 'model-load', message naming it
 *   - bad options (JS-side and engine-side checks)                            -> 'bad-request'
 *   - an engine crash: the WebAssembly memory exhausted inside the engine
 *     (its allocation fails, the runtime aborts)                              -> 'engine-crashed', then a fresh
 *                                                                                worker answers the next call
 * Model files are rebuilt as engine/FORMAT.md describes: the JSON header re-serialized, the tensor
 * data kept, file_bytes and CRC-32 recomputed, so that only the intended defect is left.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Translator, TranslatorError } from '../../web/translator.js';
import { engineSkip, requireEngine, fileUrl, ROOT, ENGINE_JS, ENGINE_WASM, FIXTURE_MODEL } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);
const dir = mkdtempSync(path.join(tmpdir(), 'nmt-errors-'));

// --- the model file format (engine/FORMAT.md) ---------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes) {
  let c = 0xFFFFFFFF;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xFF] ^ (c >>> 8);
  return (c ^ 0xFFFFFFFF) >>> 0;
}
const align64 = (n) => Math.ceil(n / 64) * 64;

/** {headerText, header, data}: data = the tensor bytes from data_start on. */
function parseModel(file) {
  const headerBytes = file.readUInt32LE(12);
  const headerText = file.subarray(32, 32 + headerBytes).toString('utf8');
  return { headerText, header: JSON.parse(headerText), data: Buffer.from(file.subarray(align64(32 + headerBytes))) };
}

/** A model file around `headerText` and `data`, with the right length and checksum. */
function buildModel(headerText, data) {
  const header = Buffer.from(headerText, 'utf8');
  const start = align64(32 + header.length);
  const out = Buffer.alloc(start + data.length);
  out.write('NMTMODEL', 0, 'latin1');
  out.writeUInt32LE(1, 8);
  out.writeUInt32LE(header.length, 12);
  out.writeBigUInt64LE(BigInt(out.length), 16);
  header.copy(out, 32);
  data.copy(out, start);
  out.writeUInt32LE(crc32(out.subarray(32)), 24);
  return out;
}

const fixture = () => parseModel(readFileSync(FIXTURE_MODEL));
function withHeader(edit) {
  const { header, data } = fixture();
  edit(header);
  return buildModel(JSON.stringify(header), data);
}
/** The fixture with `value` (float32) written at `index` of tensor `name`, checksum fixed. */
function withFloat(name, index, value) {
  const { headerText, header, data } = fixture();
  const t = header.tensors.find((x) => x.name === name);
  assert.ok(t, name);
  data.writeFloatLE(value, t.offset + 4 * index);
  return buildModel(headerText, data);
}

let fileCount = 0;
function write(bytes) {
  const file = path.join(dir, `model-${fileCount++}.nmt`);
  writeFileSync(file, bytes);
  return fileUrl(file);
}

async function rejectsWith(bytes, code, message) {
  await assert.rejects(Translator.create({ modelUrl: write(bytes) }), (e) => {
    assert.ok(e instanceof TranslatorError, `a TranslatorError, got ${e && e.name}: ${e && e.message}`);
    assert.equal(e.code, code, e.message);
    assert.match(e.message, message);
    return true;
  });
}

// --- the tests ----------------------------------------------------------------------------------

test('the rebuilt fixture itself loads and translates (the helpers change nothing else)', { skip, timeout: 60000 }, async () => {
  const { headerText, data } = fixture();
  const t = await Translator.create({ modelUrl: write(buildModel(headerText, data)) });
  try {
    assert.equal((await t.translate('The house is small.')).sentences.length, 1);
  } finally {
    t.dispose();
  }
});

test('bytes that are no model: code model-load', { skip, timeout: 60000 }, async () => {
  const good = readFileSync(FIXTURE_MODEL);
  await rejectsWith(Buffer.from('hello, this is not a model file at all'), 'model-load', /wrong magic/);
  await rejectsWith(good.subarray(0, 20), 'model-load', /too short/);
  await rejectsWith(good.subarray(0, 5000), 'model-load', /truncated/);
  const version = Buffer.from(good);
  version.writeUInt32LE(7, 8);
  await rejectsWith(version, 'model-load', /unsupported model format version 7/);
  await rejectsWith(Buffer.alloc(0), 'model-load', /empty|too short/);
});

test('a checksum mismatch: code model-load', { skip, timeout: 60000 }, async () => {
  const bad = Buffer.from(readFileSync(FIXTURE_MODEL));
  bad[bad.length - 100] ^= 0x40;
  await rejectsWith(bad, 'model-load', /checksum mismatch/);
});

test('models with a valid checksum that fail the semantic checks: code model-load, the cause named', { skip, timeout: 120000 }, async () => {
  await rejectsWith(withFloat('embed.weight.scale', 3, NaN), 'model-load', /embed\.weight\.scale holds a non-finite value/);
  await rejectsWith(withFloat('encoder_norm.weight', 0, Infinity), 'model-load', /non-finite/);
  await rejectsWith(withFloat('embed.weight.scale', 0, -0.5), 'model-load', /scale that is not positive/);
  await rejectsWith(withFloat('embed.weight.scale', 0, 0), 'model-load', /scale that is not positive/);
  await rejectsWith(withHeader((h) => { h.config.norm_eps = 1e300; }), 'model-load', /norm_eps/);
  await rejectsWith(withHeader((h) => { h.config.norm_eps = 0; }), 'model-load', /norm_eps/);
  await rejectsWith(withHeader((h) => { h.config.encoder_layers = 0; }), 'model-load', /encoder_layers = 0 is out of range/);
  await rejectsWith(withHeader((h) => { h.config.decoder_layers = 0; }), 'model-load', /decoder_layers = 0 is out of range/);
  await rejectsWith(withHeader((h) => { h.config.n_heads = h.config.d_model; }), 'model-load', /dimensions per head/);
  await rejectsWith(withHeader((h) => { h.config.vocab_size = 3; }), 'model-load', /vocab_size/);
  await rejectsWith(withHeader((h) => { h.config.d_model *= 2; }), 'model-load', /shape/);
  await rejectsWith(withHeader((h) => { h.config.norm = 'middle'; }), 'model-load', /config\.norm/);
  await rejectsWith(withHeader((h) => { h.tensors[0].offset += 64 * 1024 * 1024; }), 'model-load', /outside the file/);
  await rejectsWith(withHeader((h) => { h.tensors[0].offset += 1; }), 'model-load', /aligned/);
  await rejectsWith(withHeader((h) => { h.tensors = h.tensors.filter((t) => t.name !== 'tokenizer.spm'); }), 'model-load', /tokenizer/);
  await rejectsWith(withHeader((h) => { delete h.languages; }), 'model-load', /languages/);
  // A provenance nested 200,000 deep: refused before parsing (it once overflowed the stack: code 'translate').
  const { header, data } = fixture();
  header.provenance = '@DEEP@';
  const deep = JSON.stringify(header).replace('"@DEEP@"', '['.repeat(200000) + ']'.repeat(200000));
  await rejectsWith(buildModel(deep, data), 'model-load', /nests deeper than 64 levels/);
  await rejectsWith(buildModel('{"config": ', data), 'model-load', /not valid JSON/);
});

test('bad options: code bad-request, from translate(), alternatives() and translateStreaming(); the translator stays usable', { skip, timeout: 60000 }, async () => {
  const t = await Translator.create({ modelUrl: fileUrl(FIXTURE_MODEL) });
  try {
    const bad = [{ beam: 0 }, { beam: 17 }, { beam: 2.5 }, { lengthPenalty: NaN }, { lengthPenalty: -1 }, { coveragePenalty: '0.1' },
      { maxLengthRatio: Infinity }, { alignments: 'yes' }, { allHeads: 1 }, { prefix: 5 }, { rerank: 'no' }];
    for (const options of bad) {
      await assert.rejects(t.translate('The house is small.', options), (e) => e instanceof TranslatorError && e.code === 'bad-request', JSON.stringify(options));
    }
    await assert.rejects(t.translate(null), { code: 'bad-request' });
    await assert.rejects(t.translateStreaming('A. B.', { beam: -1 }).translation, { code: 'bad-request' });
    await assert.rejects(t.alternatives('The house is small.', '', { count: 0 }), { code: 'bad-request' });
    await assert.rejects(t.alternatives('The house is small.', '', { count: 21 }), { code: 'bad-request' });
    // checked by the engine, not by options.js: a prefix for a text of two sentences
    await assert.rejects(t.translate('The house is small. The cat sleeps.', { prefix: 'Das' }), { code: 'bad-request', message: /exactly one sentence/ });
    await assert.rejects(t.alternatives('One. Two.', 'Das'), { code: 'bad-request', message: /exactly one sentence/ });
    assert.equal((await t.translate('Still here.')).sentences.length, 1);
  } finally {
    t.dispose();
  }
});

test('a name that is no option (a typo) is refused, not ignored; the module\'s own keys and undefined values pass', { skip, timeout: 60000 }, async () => {
  const t = await Translator.create({ modelUrl: fileUrl(FIXTURE_MODEL) });
  try {
    const typo = (caller) => (e) => e instanceof TranslatorError && e.code === 'bad-request'
      && e.message.startsWith(caller) && /"bean" is not an option/.test(e.message) && /\bbeam\b/.test(e.message);
    await assert.rejects(t.translate('The house is small.', { bean: 1 }), typo('translate()'));
    await assert.rejects(t.translateStreaming('The house is small.', { bean: 1 }).translation, { code: 'bad-request', message: /^translateStreaming\(\): "bean" is not an option/ });
    await assert.rejects(t.translateStreaming(42).translation, { code: 'bad-request', message: /^translateStreaming\(text\): text must be a string/ });
    await assert.rejects(t.alternatives('The house is small.', '', { bean: 1 }), typo('alternatives()'));
    await assert.rejects(t.translate('<p>Hi.</p>', { html: true, bean: 1 }), { code: 'bad-request', message: /"bean" is not an option/ });
    await assert.rejects(t.translate('Hi.', { length_penalty: 0.6 }), { code: 'bad-request', message: /"length_penalty" is not an option.*lengthPenalty/ });
    const controller = new AbortController();
    const r = await t.translate('The house is small.', { beam: 1, bean: undefined, signal: controller.signal, onProgress: () => {}, chunkChars: 500, html: false });
    assert.equal(r.sentences.length, 1);
    assert.equal((await t.alternatives('The house is small.', '', { count: 2, signal: controller.signal })).length, 2);
  } finally {
    t.dispose();
  }
});

test('options that are no object, a signal that is no AbortSignal, html for translateStreaming(): code bad-request, never a TypeError; null is no options', { skip, timeout: 60000 }, async () => {
  const t = await Translator.create({ modelUrl: fileUrl(FIXTURE_MODEL) });
  try {
    // null (a common "no options" in JavaScript) is the same as leaving the options out
    const plain = await t.translate('The house is small.');
    assert.equal((await t.translate('The house is small.', null)).text, plain.text);
    assert.equal((await t.translate('The house is small.', undefined)).text, plain.text);
    const streamed = [];
    for await (const s of t.translateStreaming('The house is small.', null)) streamed.push(s.target);
    assert.deepEqual(streamed, plain.sentences.map((s) => s.target));
    assert.ok(Array.isArray(await t.alternatives('The house is small.', '', null)));
    // translate() returns a promise whatever it is given: it never throws synchronously
    const badOptions = ['beam 4', 4, true];
    for (const options of badOptions) {
      let p;
      assert.doesNotThrow(() => { p = t.translate('The house is small.', options); }, JSON.stringify(options));
      await assert.rejects(p, (e) => e instanceof TranslatorError && e.code === 'bad-request' && /options must be an object/.test(e.message), JSON.stringify(options));
    }
    await assert.rejects(t.alternatives('The house is small.', '', 'five'), { code: 'bad-request', message: /options must be an object/ });
    await assert.rejects(t.translateStreaming('The house is small.', 5).translation, { code: 'bad-request', message: /options must be an object/ });
    for (const signal of [{}, { aborted: false }, 'abort', 1]) {
      await assert.rejects(t.translate('The house is small.', { signal }), { code: 'bad-request', message: /signal must be an AbortSignal/ }, String(signal));
      await assert.rejects(t.alternatives('The house is small.', '', { signal }), { code: 'bad-request', message: /signal must be an AbortSignal/ });
      const stream = t.translateStreaming('The house is small.', { signal });
      await assert.rejects(stream.translation, { code: 'bad-request', message: /signal must be an AbortSignal/ });
      await assert.rejects((async () => { for await (const s of stream) assert.fail(`no sentence: ${s.target}`); })(), { code: 'bad-request' });
      await assert.rejects(t.translate('<p>Hi.</p>', { html: true, signal }), { code: 'bad-request', message: /signal must be an AbortSignal/ });
    }
    // a signal of null is none
    assert.equal((await t.translate('The house is small.', { signal: null })).text, plain.text);
    await assert.rejects(Translator.create('en-de'), { code: 'bad-request', message: /options must be an object/ });
    // translateStreaming() takes plain text: html: true is refused, not the markup sent through the model as text
    const html = t.translateStreaming('<p>Click <b>here</b> to save the file.</p>', { html: true });
    await assert.rejects(html.translation, { code: 'bad-request', message: /plain text only/ });
    await assert.rejects((async () => { for await (const s of html) assert.fail(`no sentence: ${s.target}`); })(), { code: 'bad-request' });
    assert.equal((await t.translate('Still here.')).sentences.length, 1);
  } finally {
    t.dispose();
  }
});

// The engine module with one addition for this test: for the text '__exhaust__' the worker's
// WebAssembly memory (a text containing it) is first filled to the 2 GB cap (malloc in the engine's own heap), so the
// engine's allocations inside translate() fail and its runtime aborts: a real engine crash. (Every
// worker of the pool loads the same engine module, so a helper crashes the same way; an engine that
// has translated 'Veteran.' never does.)
const EXHAUSTING_ENGINE = `
import createReal from ${JSON.stringify(fileUrl(ENGINE_JS))};
export default async function createEngine(options) {
  const Module = await createReal(options);
  const translate = Module.Translator.prototype.translate;
  Module.Translator.prototype.translate = function (text, optionsJson) {
    if (text === 'Veteran.') this.veteran = true;  // an engine that translated this never crashes
    if (text.includes('__exhaust__') && !this.veteran) {
      for (let size = 256 * 1024 * 1024; size >= 64 * 1024;) if (!Module._malloc(size)) size >>= 1;
      text = 'The house is small and the cat sleeps on the warm red chair. '.repeat(12);
    }
    return translate.call(this, text, optionsJson);
  };
  return Module;
}
`;

test('an engine crash (memory exhausted inside the engine): code engine-crashed, and the next call gets a fresh worker', { skip, timeout: 180000 }, async () => {
  const engineFile = path.join(dir, 'engine.js');
  writeFileSync(engineFile, EXHAUSTING_ENGINE);
  writeFileSync(path.join(dir, 'engine.wasm'), readFileSync(ENGINE_WASM));
  const t = await Translator.create({ modelUrl: fileUrl(FIXTURE_MODEL), engineUrl: fileUrl(engineFile), wasmUrl: fileUrl(ENGINE_WASM), workers: 2 });
  try {
    const before = await t.translate('The house is small.');
    await assert.rejects(t.translate('__exhaust__'), (e) => {
      assert.ok(e instanceof TranslatorError, String(e));
      assert.equal(e.code, 'engine-crashed', e.message);
      assert.match(e.message, /abort/i);
      return true;
    });
    const after = await t.translate('The house is small.');
    assert.equal(after.text, before.text, 'a fresh worker translates as before');
    // A long text whose chunks go to the pool (workers: 2): every chunk after the first crashes the
    // engine of a helper (the first worker, a veteran now, translates its chunks): 'engine-crashed'
    // too, not 'worker-died'.
    await t.translate('Veteran.');
    const paragraph = 'The house is small and the cat sleeps on the warm red chair near the window. '.repeat(10);
    const long = Array.from({ length: 8 }, (_, i) => (i > 0 ? '__exhaust__ ' : '') + paragraph).join('\n\n');
    await assert.rejects(t.translate(long), (e) => {
      assert.ok(e instanceof TranslatorError, String(e));
      assert.equal(e.code, 'engine-crashed', e.message);
      return true;
    });
    assert.equal((await t.translate('The house is small.')).text, before.text);
  } finally {
    t.dispose();
  }
});
