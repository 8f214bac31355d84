// One engine in one worker, for scripts/bench-core.mjs: loads an engine module and a model, then
// answers one request at a time. Messages (each answered with {id, ...}):
//   {type: 'init', engineUrl, modelUrl}          -> {ok}
//   {type: 'translate', text, options}           -> {text, ms}   (ms: the engine call alone)
//   {type: 'profile', on}                        -> {ok}         (engine's profileEnable, when it has one)
//   {type: 'report'}                             -> {report}     (engine's profileReport JSON, or null)
//   {type: 'kernels', moduleUrl, args}           -> {lines}      (bench_kernels' printed lines)
let Module = null;
let engine = null;

async function handle(msg) {
  if (msg.type === 'init') {
    const createEngine = (await import(msg.engineUrl)).default;
    Module = await createEngine();
    const bytes = new Uint8Array(await (await fetch(msg.modelUrl)).arrayBuffer());
    engine = new Module.Translator();
    const err = engine.load(bytes);
    if (err) throw new Error(err);
    return { ok: true, profiler: typeof Module.profileEnable === 'function' };
  }
  if (msg.type === 'translate') {
    const t0 = performance.now();
    const r = JSON.parse(engine.translate(msg.text, JSON.stringify(msg.options)));
    const ms = performance.now() - t0;
    if (!r.ok) throw new Error(r.error);
    return { text: r.result.text, ms };
  }
  if (msg.type === 'profile') {
    if (Module.profileEnable) Module.profileEnable(!!msg.on);
    return { ok: true };
  }
  if (msg.type === 'report') return { report: Module.profileReport ? JSON.parse(Module.profileReport()) : null };
  if (msg.type === 'kernels') {
    const lines = [];
    const create = (await import(msg.moduleUrl)).default;
    const mod = await create({ print: (s) => lines.push(s), printErr: (s) => lines.push(s) });
    mod.callMain(msg.args);
    return { lines };
  }
  throw new Error(`unknown message ${msg.type}`);
}

self.onmessage = async (e) => {
  const { id } = e.data;
  try {
    self.postMessage({ id, ...(await handle(e.data)) });
  } catch (err) {
    self.postMessage({ id, error: String(err && err.stack ? err.stack : err) });
  }
};
