// The page side of scripts/bench-core.mjs: workers, each with one engine, and a request helper.
// window.bench.start(name, engineUrl, modelUrl) starts a worker; window.bench.call(name, msg)
// sends one request and resolves with the answer, plus the page's round-trip time in ms.
const workers = new Map();
let nextId = 1;

function call(name, msg) {
  const w = workers.get(name);
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const onMessage = (e) => {
      if (e.data.id !== id) return;
      w.removeEventListener('message', onMessage);
      if (e.data.error) reject(new Error(e.data.error));
      else resolve({ ...e.data, roundTripMs: performance.now() - t0 });
    };
    w.addEventListener('message', onMessage);
    w.postMessage({ ...msg, id });
  });
}

// Translates `texts` one request at a time; returns the outputs and the summed round-trip time.
async function translateAll(name, texts, options) {
  const out = [];
  let ms = 0;
  for (const text of texts) {
    const r = await call(name, { type: 'translate', text, options });
    out.push(r.text);
    ms += r.roundTripMs;
  }
  return { texts: out, ms };
}

window.bench = {
  crossOriginIsolated: self.crossOriginIsolated,
  async start(name, engineUrl, modelUrl) {
    if (workers.has(name)) workers.get(name).terminate();
    workers.set(name, new Worker(new URL('worker.js', location.href), { type: 'module' }));
    return call(name, { type: 'init', engineUrl: new URL(engineUrl, location.href).href, modelUrl: new URL(modelUrl, location.href).href });
  },
  call,
  translateAll,
  stop(name) {
    workers.get(name)?.terminate();
    workers.delete(name);
  },
};
document.body.dataset.ready = 'true';
