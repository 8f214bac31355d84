/**
 * The relaxed-SIMD int8 GEMM inside the engine (web/relaxed-simd.js, engine/kernels/gemm_relaxed.c):
 * - `Translator.create({ simd })`: an unknown value is 'bad-request', 'relaxed' where relaxed SIMD
 *   is missing (Node 20) is 'no-simd', and Node runs 'simd128' (`info.simd`).
 * - In Chromium and Firefox ESR: the default ('auto') runs relaxed, 'relaxed' too, and a forced
 *   'simd128' runs SIMD128; both translate.
 * - In Chromium, the engine with the relaxed kernels gives exactly the results (texts, scores,
 *   token probabilities, attention) of the same engine running the same scheme on its built-in
 *   SIMD128 kernels: 'relaxed' = 'shifted7' (7-bit activations in every Linear, the default) and
 *   'relaxed-mixed' = 'mixed' (the output projection on 8 bits, on the relaxed exact 8-bit GEMM):
 *   the relaxed kernels change nothing but speed. The schemes' accuracy against 8 bits is
 *   measured, not tested (scripts/bench-relaxed-bleu.mjs).
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { Translator } from '../../web/translator.js';
import { ROOT, engineSkip, requireEngine, testManifest, fileUrl } from './_helpers.mjs';
import { browsers, launchBrowser } from './_browsers.mjs';

const ENGINE_DIR = process.env.NMT_ENGINE_DIR ? path.resolve(process.env.NMT_ENGINE_DIR) : path.join(ROOT, 'build-wasm');
const skip = engineSkip();
const skipRelaxed = skip || (existsSync(path.join(ENGINE_DIR, 'relaxed_gemm.wasm')) ? false : `${ENGINE_DIR}/relaxed_gemm.wasm is missing`);
requireEngine(test);
const manifest = testManifest();

const SENTENCES = [
  'The house is small.',
  'On Monday, scientists from the Stanford University School of Medicine announced the invention of a new diagnostic tool.',
  'Tom doesn\'t like cats, but he feeds them every morning at 7:30.',
  'Where is the station? I love you.',
];

test('create({ simd }): unknown value is bad-request, relaxed without relaxed SIMD is no-simd', async () => {
  await assert.rejects(Translator.create({ simd: 'avx512' }), (e) => e.code === 'bad-request' && /simd must be one of/.test(e.message));
  await assert.rejects(Translator.create({ simd: 1 }), (e) => e.code === 'bad-request');
  await assert.rejects(Translator.create({ simd: 'relaxed' }), (e) => e.code === 'no-simd' && /relaxed SIMD/.test(e.message));
});

test('Node runs the SIMD128 kernel (info.simd), by default and when forced', { skip, timeout: 120_000 }, async () => {
  for (const simd of [undefined, 'auto', 'simd128']) {
    const t = await Translator.create({ from: 'en', to: 'de', manifestUrl: fileUrl(manifest.file), simd, warmUp: false, workers: 1 });
    try {
      assert.equal(t.info.simd, 'simd128');
      assert.ok((await t.translate('The house is small.')).text.length > 0);
    } finally {
      t.dispose();
    }
  }
});

// The repository's web/, the engine build and the test manifest's folder, cross-origin isolated.
function serve() {
  const mounts = { '/web/': path.join(ROOT, 'web'), '/engine/': ENGINE_DIR, '/models/': path.dirname(manifest.file) };
  const types = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.json': 'application/json', '.html': 'text/html' };
  const server = createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    const mount = Object.keys(mounts).find((m) => p.startsWith(m));
    const file = p === '/' ? null : mount && path.join(mounts[mount], p.slice(mount.length));
    const isolated = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp', 'Cross-Origin-Resource-Policy': 'same-origin' };
    if (p === '/') return res.writeHead(200, { 'Content-Type': 'text/html', ...isolated }).end('<!doctype html><title>relaxed</title>');
    if (!file || !existsSync(file) || !statSync(file).isFile()) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': types[path.extname(file)] || 'application/octet-stream', ...isolated }).end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

async function inBrowser(name, fn, arg) {
  const { server, url } = await serve();
  const browser = await launchBrowser(name);
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(url);
    return await page.evaluate(fn, arg);
  } finally {
    await browser.close();
    server.close();
  }
}

for (const name of browsers()) {
  test(`${name}: relaxed by default (auto) and when forced, simd128 when forced, both translate`, { skip: skipRelaxed, timeout: 180_000 }, async () => {
    await defaultsIn(name);
  });
}

async function defaultsIn(name) {
  const manifestName = path.basename(manifest.file);
  const r = await inBrowser(name, async ({ manifestName, sentence }) => {
    const { Translator } = await import('/web/translator.js');
    const out = {};
    for (const simd of [undefined, 'auto', 'relaxed', 'simd128']) {
      const t = await Translator.create({ from: 'en', to: 'de', simd, workers: 1, warmUp: false, engineUrl: '/engine/engine.js', manifestUrl: `/models/${manifestName}` });
      out[String(simd)] = { simd: t.info.simd, text: (await t.translate(sentence, { beam: 4 })).text };
      t.dispose();
    }
    return out;
  }, { manifestName, sentence: SENTENCES[1] });
  assert.equal(r.undefined.simd, 'relaxed');
  assert.equal(r.auto.simd, 'relaxed');
  assert.equal(r.relaxed.simd, 'relaxed');
  assert.equal(r.simd128.simd, 'simd128');
  for (const k of Object.keys(r)) assert.ok(r[k].text.length > 10, JSON.stringify(r[k]));
  assert.equal(r.undefined.text, r.relaxed.text);
  assert.equal(r.auto.text, r.relaxed.text);
}

const skipChromium = skipRelaxed || (browsers().includes('chromium') ? false : 'NMT_BROWSERS leaves Chromium out');
test('Chromium: the relaxed kernels give the engine exactly the built-in kernels\' results, on either scheme', { skip: skipChromium, timeout: 180_000 }, async () => {
  const m = JSON.parse(readFileSync(manifest.file, 'utf8')).models.find((x) => x.from === 'en' && x.to === 'de');
  const r = await inBrowser('chromium', async ({ modelPath, sentences }) => {
    const { default: createEngine } = await import('/engine/engine.js');
    const Module = await createEngine({ print: () => {}, printErr: () => {} });
    const t = new Module.Translator();
    const loadError = t.load(new Uint8Array(await (await fetch(modelPath)).arrayBuffer()));
    if (loadError) return { loadError };
    const run = (kind) => {
      if (!Module.setSimd(kind)) return null;
      return sentences.map((s) => [1, 4].map((beam) => t.translate(s, JSON.stringify({ beam, alignments: true }))));
    };
    const unknown = Module.setSimd('neon');
    const builtin = run('shifted7'), builtinMixed = run('mixed');
    const notYet = Module.setSimd('relaxed') || Module.setSimd('relaxed-mixed');  // no compiled kernel given yet
    Module.relaxedModule = await WebAssembly.compile(await (await fetch('/engine/relaxed_gemm.wasm')).arrayBuffer());
    const relaxed = run('relaxed'), relaxedMixed = run('relaxed-mixed');
    // The engine calls the module's GEMMs through its function table (wasm_bindings.cpp's slots):
    // both exports must be in it, or the slots' own code (the scalar references, same results)
    // would run unseen by the comparisons below.
    const table = Object.values(Module.asm).find((x) => x instanceof WebAssembly.Table);
    const entries = Array.from({ length: table.length }, (_, i) => table.get(i));
    const inTable = [Module.relaxedGemm, Module.relaxedGemmI8].map((f) => typeof f === 'function' && entries.includes(f));
    const eight = run('simd128');
    return { unknown, notYet, builtin, builtinMixed, relaxed, relaxedMixed, eight, inTable };
  }, { modelPath: `/models/${m.file}`, sentences: SENTENCES });
  assert.equal(r.loadError, undefined);
  assert.equal(r.unknown, false, 'setSimd rejects an unknown kind');
  assert.equal(r.notYet, false, 'setSimd(\'relaxed\') without a kernel module says no');
  assert.ok(r.relaxed && r.relaxedMixed && r.builtin && r.builtinMixed && r.eight);
  assert.deepEqual(r.inTable, [true, true], 'the relaxed module\'s two GEMMs are in the engine\'s function table');
  // Everything but the timings.
  const results = (runs) => runs.map((beams) => beams.map((json) => {
    const { ok, result } = JSON.parse(json);
    assert.ok(ok, json);
    delete result.stats.ms;
    return JSON.stringify(result);
  }));
  const relaxed = results(r.relaxed), builtin = results(r.builtin);
  const relaxedMixed = results(r.relaxedMixed), builtinMixed = results(r.builtinMixed);
  for (let i = 0; i < SENTENCES.length; i++) {
    for (const b of [0, 1]) {
      assert.equal(relaxed[i][b], builtin[i][b], `sentence ${i}, beam ${b ? 4 : 1}: relaxed = built-in shifted7`);
      assert.equal(relaxedMixed[i][b], builtinMixed[i][b], `sentence ${i}, beam ${b ? 4 : 1}: relaxed-mixed = built-in mixed`);
    }
  }
  // The schemes really are different computations (so the comparisons above are not vacuous).
  assert.notDeepEqual(results(r.eight), builtin);
  assert.notDeepEqual(builtinMixed, builtin);
});
