/**
 * The worker pool (web/pool.js) when a request fails part-way, with the real WASM engine and the
 * fixture model: whatever a failed request's other workers still do afterwards (a chunk that ends
 * late in a crash, a result, an error) never reaches the next request.
 *
 * The engine is wrapped (as in module-errors.test.mjs) so that each worker's part is decided by
 * the test, not by timing:
 *   - a text with '__gate__' waits inside translate() until the test creates a gate file, then
 *     exhausts the engine's memory: a real engine crash, late;
 *   - a text with '__exhaust__' crashes at once in an engine that has not translated 'Veteran.'
 *     (a fresh pool helper), and is translated normally by one that has (the first worker).
 * The first worker takes the first chunk as soon as a pooled request runs; a helper takes the
 * next one when it is ready. So a long text whose first chunk holds '__gate__' and whose other
 * chunks hold '__exhaust__' fails through its helper while the first worker is still inside the
 * first chunk; that chunk crashes only when the test says so, after the next request was sent.
 */
import test, { after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Translator, TranslatorError } from '../../web/translator.js';
import { engineSkip, requireEngine, fileUrl, ENGINE_JS, ENGINE_WASM, FIXTURE_MODEL } from './_helpers.mjs';

const skip = engineSkip();
requireEngine(test);
const dir = mkdtempSync(path.join(tmpdir(), 'nmt-pool-failure-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const engineWith = (gate) => `
import { existsSync } from 'node:fs';
import createReal from ${JSON.stringify(fileUrl(ENGINE_JS))};
const GATE = ${JSON.stringify(gate)};
const pause = new Int32Array(new SharedArrayBuffer(4));
export default async function createEngine(options) {
  const Module = await createReal(options);
  const translate = Module.Translator.prototype.translate;
  const exhaust = () => { for (let size = 256 * 1024 * 1024; size >= 64 * 1024;) if (!Module._malloc(size)) size >>= 1; };
  Module.Translator.prototype.translate = function (text, optionsJson) {
    if (text === 'Veteran.') this.veteran = true;
    if (text.includes('__gate__')) {
      // (bounded, so that a broken test cannot leave a worker spinning for ever: 10 minutes)
      for (let i = 0; i < 120000 && !existsSync(GATE); i++) Atomics.wait(pause, 0, 0, 5);
      exhaust();
      text = 'The house is small and the cat sleeps on the warm red chair. '.repeat(12);
    } else if (text.includes('__exhaust__') && !this.veteran) {
      exhaust();
      text = 'The house is small and the cat sleeps on the warm red chair. '.repeat(12);
    }
    return translate.call(this, text, optionsJson);
  };
  return Module;
}
`;

const paragraph = 'The house is small and the cat sleeps on the warm red chair near the window. '.repeat(10);
/** A text of 8 chunks (chunkChars 1000): the first holds '__gate__', the others '__exhaust__'. */
const LONG = Array.from({ length: 8 }, (_, i) => (i > 0 ? '__exhaust__ ' : '__gate__ ') + paragraph).join('\n\n');

async function gatedTranslator(name) {
  const gate = path.join(dir, `${name}.gate`);
  const engineFile = path.join(dir, `${name}-engine.js`);
  writeFileSync(engineFile, engineWith(gate));
  const t = await Translator.create({ modelUrl: fileUrl(FIXTURE_MODEL), engineUrl: fileUrl(engineFile), wasmUrl: fileUrl(ENGINE_WASM), workers: 2 });
  await t.translate('Veteran.'); // the first worker survives '__exhaust__'; the helpers will not
  return { t, open: () => writeFileSync(gate, ''), gate };
}

const crashed = (e) => {
  assert.ok(e instanceof TranslatorError, String(e));
  assert.equal(e.code, 'engine-crashed', e.message);
  return true;
};

test('pool: a helper fails while the first worker is still inside a chunk; that chunk\'s late crash does not fail the next request', { skip, timeout: 300000 }, async () => {
  const { t, open, gate } = await gatedTranslator('next');
  try {
    const reference = await t.translate('The house is small.');
    const chunks = [];
    await assert.rejects(t.translate(LONG, { onProgress: (p) => chunks.push(p.range) }), crashed);
    assert.deepEqual(chunks, [], 'the first chunk had not ended when the request failed');
    assert.ok(!existsSync(gate));
    // The next request is sent while the old first chunk is still running (or its worker already
    // ended); only then may that chunk go on and crash.
    const next = t.translate('The house is small.');
    const queued = t.translate('The cat sleeps.');
    open();
    const r = await next;
    assert.equal(r.text, reference.text, 'the next request is answered as before');
    assert.equal((await queued).sentences.length, 1);
    // And the translator (and its pool) keeps working: a long text without markers, spread again.
    const long = await t.translate(`${paragraph}\n\n${paragraph}\n\n${paragraph}`);
    assert.equal(long.sentences.length, 30);
    assert.equal((await t.translate('The house is small.')).text, reference.text);
  } finally {
    open();
    t.dispose();
  }
});

test('pool: a failed request\'s late crash reaches neither a streamed nor a pooled next request', { skip, timeout: 300000 }, async () => {
  const { t, open } = await gatedTranslator('stream');
  try {
    const doc = `${paragraph}\n\n${paragraph}\n\n${paragraph}`;
    const reference = await t.translate(doc);
    await assert.rejects(t.translate(LONG), crashed);
    const sentences = [];
    const stream = t.translateStreaming(doc);
    const done = (async () => { for await (const s of stream) sentences.push(s); })();
    open();
    await done;
    assert.deepEqual(sentences, reference.sentences, 'streamed in order, as before');
    assert.equal((await stream.translation).text, reference.text);
    // An abort right after such a failure still works, and the request after it runs.
    const ac = new AbortController();
    const aborted = t.translate(doc, { signal: ac.signal, onProgress: () => ac.abort() });
    await assert.rejects(aborted, { name: 'AbortError' });
    assert.equal((await t.translate(doc)).text, reference.text);
  } finally {
    open();
    t.dispose();
  }
});
