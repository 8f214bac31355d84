/**
 * The browser half of scripts/bench-peers.mjs. ?engine=ours runs this project's module
 * (../translator.js, its worker and engine.wasm, the model from the site's manifest);
 * with &shortlist=1, decoding over the model's lexical shortlist; with &simd=simd128, on the forced
 * SIMD128 kernel (otherwise the module's default: relaxed SIMD where the browser has it);
 * ?engine=ort&precision=int8|fp32 runs the same decoding loop (ort-decode.mjs) on onnxruntime-web,
 * WASM backend with SIMD, one thread (onnxruntime-web 1.30 has no relaxed-SIMD runtime: its
 * env.wasm.simd = 'relaxed' only checks the browser, and its .wasm validates in Node 20, which has no
 * relaxed SIMD). Both translate the same sentences one request at a time, for
 * each beam in ?beams=1,4, after a first translation whose time (from navigation start: download,
 * compile, model load, first sentence) is reported. Results go to window.__peers.
 */
const params = new URLSearchParams(location.search);
const engine = params.get('engine');
const dir = params.get('dir') || 'en-de';
const [from, to] = dir.split('-');
const beams = (params.get('beams') || '1,4').split(',').map(Number);
const out = document.getElementById('out');
const print = (line) => { out.textContent += `${line}\n`; };

async function oursEngine(shortlist, simd) {
  const { Translator } = await import('../translator.js');
  const t = await Translator.create({ from, to, ...(simd ? { simd } : {}) });
  return {
    name: shortlist ? 'ours-shortlist' : 'ours',
    simd: t.info.simd,
    translate: async (s, beam) => {
      const r = await t.translate(s.text, { beam, alignments: false, shortlist });
      return r.text;
    },
    memory: async () => t.memory(),
  };
}

async function ortEngine(precision) {
  const ort = await import('./ort/ort.wasm.min.mjs');
  ort.env.wasm.numThreads = 1;
  ort.env.wasm.simd = true;
  ort.env.wasm.proxy = false;
  ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
  const { OrtTranslator } = await import('./ort-decode.mjs');
  const base = `./onnx/${dir}/`;
  const info = await (await fetch(`${base}model.json`)).json();
  const bytes = async (name) => new Uint8Array(await (await fetch(`${base}${precision}/${name}`)).arrayBuffer());
  const t = await OrtTranslator.create(ort, info, await bytes('encoder.onnx'), await bytes('decoder.onnx'),
    { executionProviders: ['wasm'] });
  return {
    name: `ort-${precision}`,
    version: ort.env.versions ? ort.env.versions.web : '',
    translate: async (s, beam) => t.detokenize(await t.translateIds(s.ids, beam)),
    memory: async () => ({}),
  };
}

async function run() {
  const { sentences } = await (await fetch(`./ids-${dir}.json`)).json();
  const e = engine === 'ours' ? await oursEngine(params.get('shortlist') === '1', params.get('simd')) : await ortEngine(params.get('precision') || 'int8');
  await e.translate(sentences[0], beams[0]);
  const result = { engine: e.name, version: e.version, simd: e.simd, firstTranslationMs: performance.now(), runs: {}, userAgent: navigator.userAgent };
  print(`${e.name}: first translation ${result.firstTranslationMs.toFixed(0)} ms after navigation start`);
  for (const beam of beams) {
    const outputs = [];
    const start = performance.now();
    for (const s of sentences) outputs.push(await e.translate(s, beam));
    const seconds = (performance.now() - start) / 1000;
    result.runs[beam] = { seconds, outputs };
    print(`beam ${beam}: ${sentences.length} sentences in ${seconds.toFixed(2)} s`);
  }
  result.memory = await e.memory();
  result.jsHeapBytes = performance.memory ? performance.memory.usedJSHeapSize : null;
  window.__peers = result;
  document.body.dataset.done = 'true';
}

run().catch((err) => {
  print(`error: ${err && err.stack ? err.stack : err}`);
  window.__peers = { error: String(err && err.message ? err.message : err) };
  document.body.dataset.done = 'true';
});
