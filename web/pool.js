/**
 * The worker pool: a long input's chunks (protocol.js's planChunks) translated by several workers
 * at once, each with its own engine instance, so a document uses every core. translator.js owns
 * the first worker (the one that downloaded, verified and compiled everything); the pool adds up to
 * `workers - 1` helpers, started from what that worker's 'ready' handed over (the verified model
 * bytes and the compiled WebAssembly.Module: nothing is downloaded, checked or compiled again),
 * the first time an input of several chunks runs, and kept for the next ones until a minute passes
 * without one (their memory then goes back; the next long input starts them again).
 *
 * A pooled request looks like any other to translator.js: the pool sends it the same 'partial' and
 * 'result' (or 'error') messages a worker would, in order. Each chunk goes to the next free worker
 * (the first worker included), as one engine call of exactly the text the one-worker path gives
 * the engine, so the translation is the same; a chunk that finishes early waits until those before
 * it are done, then its 'partial' goes out. An abort or a failure stops the request: the helpers
 * still working for it are ended (the next pooled request starts new ones the same cheap way).
 */
import { Request, Status, ErrorCode, TranslatorError, errorPayload, planChunks, ResultBuilder } from './protocol.js';

/**
 * A Node built-in module ('fs', 'os', 'worker_threads'), imported where the module runs in Node.
 * The specifier is no literal, so that a bundler building a site for browsers (esbuild, webpack,
 * Vite) leaves the import alone instead of failing to resolve node:fs.
 */
export const nodeBuiltin = (name) => import(/* webpackIgnore: true */ /* @vite-ignore */ `node:${name}`);

/** The most workers one Translator may run. */
export const MAX_WORKERS = 16;

/** The default pool size: one worker per logical core, at most 4 (each costs its own engine's memory). */
export async function defaultWorkers() {
  let cores = typeof navigator === 'object' && navigator && navigator.hardwareConcurrency;
  if (!cores && typeof process === 'object' && process.versions && process.versions.node) {
    const os = await nodeBuiltin('os');
    cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  }
  return Math.max(1, Math.min(Number(cores) || 1, 4));
}

/** Checks Translator.create()'s `workers` option; throws a TranslatorError ('bad-request') that says what is allowed. */
export function checkWorkers(value) {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_WORKERS) {
    const got = typeof value === 'number' ? String(value) : `${typeof value} ${JSON.stringify(value) ?? String(value)}`;
    throw new TranslatorError(ErrorCode.BAD_REQUEST,
      `Translator.create({ workers }): workers must be a whole number from 1 to ${MAX_WORKERS} (got ${got}); leave it out for the default (one per core, at most 4).`);
  }
  return value;
}

let nextPoolId = 1;

/** One worker seen by the pool: requests by id, their answers, its death. */
class Lane {
  constructor(post) {
    this.post = post;
    this.pending = new Map(); // id → {resolve, reject}
  }

  request(msg) {
    return new Promise((resolve, reject) => {
      const id = `pool-${nextPoolId++}`;
      this.pending.set(id, { resolve, reject });
      try {
        this.post({ ...msg, id });
      } catch (e) {
        this.pending.delete(id);
        reject(e);
      }
    });
  }

  /** An answer from the worker; true when it was one of this lane's. */
  onMessage(m) {
    const p = m && this.pending.get(m.id);
    if (!p) return false;
    if (m.status === Status.PARTIAL || m.status === Status.PROGRESS) return true;
    this.pending.delete(m.id);
    if (m.status === Status.ERROR) p.reject(new TranslatorError(m.error.code, m.error.message));
    else p.resolve(m.status === Status.READY ? m.info : m.result);
    if (this.onSettled) this.onSettled();
    return true;
  }

  fail(error) {
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const p of pending) p.reject(error);
  }
}

/** A helper worker: started from the first worker's `reuse`, translating chunks. */
class Helper {
  constructor(pool) {
    this.pool = pool;
    this.job = null; // the job it is working for
    this.dead = false;
    this.worker = null;
    this.lane = new Lane((m) => {
      if (!this.worker) throw new TranslatorError(ErrorCode.WORKER_DIED, 'The pool worker is not running.');
      this.worker.ref(); // someone waits for it (unref'd again when nothing is pending)
      this.worker.post(m);
    });
    this.lane.onSettled = () => { if (!this.lane.pending.size) this.idle(); };
    this.ready = this.#start();
    this.ready.catch(() => {});
  }

  async #start() {
    const { spawn, workerUrl } = this.pool.options;
    const die = (why, code) => this.#die(why, code);
    const w = await spawn(workerUrl, (m) => {
      if (m && m.status === Status.FATAL) die(m.error && m.error.message ? m.error.message : 'the engine crashed', ErrorCode.ENGINE_CRASHED);
      else this.lane.onMessage(m);
    }, die);
    if (this.dead) { w.terminate(); throw new TranslatorError(ErrorCode.WORKER_DIED, 'The pool worker was ended.'); }
    this.worker = w;
    const started = performance.now();
    const init = this.pool.options.initMessage();
    try {
      await this.lane.request(init);
    } catch (e) {
      if (!(e && e.name === 'DataCloneError') || !init.reuse || !init.reuse.wasmModule) throw e;
      await this.lane.request({ ...init, reuse: { ...init.reuse, wasmModule: null, relaxedModule: null } }); // a module that cannot be posted here
    }
    this.startMs = performance.now() - started;
    this.idle();
    return this;
  }

  idle() {
    if (this.worker) this.worker.unref(); // an idle helper must not keep a Node process alive
  }

  #die(why, code = ErrorCode.WORKER_DIED) {
    if (this.dead) return;
    this.dead = true;
    const error = new TranslatorError(code, `${why.charAt(0).toUpperCase()}${why.slice(1)} (a pool worker).`);
    this.lane.fail(error);
    this.terminate();
    this.pool.forget(this);
  }

  /** Ends the helper; returns its worker's end (Node: a Promise; a browser's terminate() says nothing). */
  terminate() {
    this.dead = true;
    const w = this.worker;
    this.worker = null;
    const ended = w ? w.terminate() : undefined;
    this.lane.fail(new TranslatorError(ErrorCode.WORKER_DIED, 'The pool worker was ended.'));
    return ended;
  }
}

export class WorkerPool {
  /**
   * @param {{size: number, spawn: Function, workerUrl: string|URL, initMessage: () => object}} options
   *   size: workers in all (the first one included); spawn: translator.js's spawnWorker;
   *   initMessage: the 'init' a helper gets (with the first worker's `reuse`).
   */
  constructor(options) {
    this.options = options;
    this.helpers = [];
    this.primary = null; // Lane of the first worker while a job runs on it
    this.job = null;
    this.disposed = false;
    this.idleTimer = null;
  }

  /** Ends the helpers after `idleMs` (default 60 s) without a pooled request: their memory goes back. */
  #scheduleIdleEnd() {
    clearTimeout(this.idleTimer);
    const ms = this.options.idleMs ?? 60000;
    if (!Number.isFinite(ms) || !this.helpers.length) return;
    this.idleTimer = setTimeout(() => { if (!this.job) this.recycle(); }, ms);
    if (this.idleTimer && typeof this.idleTimer.unref === 'function') this.idleTimer.unref();
  }

  get size() {
    return this.options.size;
  }

  /** The chunks a request would be cut into, when the pool should run it (several chunks, no prefix); else null. */
  plan(msg) {
    if (this.options.size < 2 || msg.type !== Request.TRANSLATE || typeof msg.text !== 'string') return null;
    if (msg.options && msg.options.prefix) return null;
    const chunks = planChunks(msg.text, msg.chunkChars || 1000);
    return chunks.length >= 2 ? chunks : null;
  }

  /** Starts the helpers that are missing (they load while the first worker already translates). */
  ensureHelpers() {
    while (!this.disposed && this.helpers.length < this.options.size - 1) this.helpers.push(new Helper(this));
  }

  forget(helper) {
    const i = this.helpers.indexOf(helper);
    if (i >= 0) this.helpers.splice(i, 1);
  }

  /** A message from the first worker: true when it answers one of the running job's chunks. */
  onPrimaryMessage(m) {
    return !!this.primary && this.primary.onMessage(m);
  }

  /**
   * Runs request `req` ({id, msg}) over the first worker (`postPrimary`) and the helpers. `emit`
   * gets the worker-style messages for req.id: one 'partial' per chunk in order, then 'result' or
   * 'error'. Nothing is emitted after cancel().
   */
  run(req, chunks, postPrimary, emit) {
    const { text, options } = req.msg;
    const job = { req, cancelled: false, failed: false };
    this.job = job;
    clearTimeout(this.idleTimer);
    const primary = new Lane(postPrimary);
    this.primary = primary;
    this.ensureHelpers();
    const started = performance.now();
    const results = new Array(chunks.length);
    let next = 0;
    let emitted = 0;
    const builder = new ResultBuilder(text); // the translation so far, as the one-worker path assembles it
    let wasmHeapBytes = 0; // the largest worker's
    const lanesUsed = new Set();
    const finish = (error) => {
      if (job.cancelled || job.failed) return;
      if (this.job === job) { this.job = null; this.primary = null; }
      this.#scheduleIdleEnd();
      for (const h of this.helpers) if (h.job === job) h.job = null;
      if (error) {
        job.failed = true;
        // Helpers still inside a chunk of this request are ended: nothing may wait behind them, and
        // nothing they would still do (a result, an error, a crash) can reach another request.
        for (const h of [...this.helpers]) if (h.busyFor === job) { h.terminate(); this.forget(h); }
        // The first worker may still be inside a chunk too (a helper failed first): it cannot be
        // stopped mid-call, so translator.js replaces it (`primaryBusy`), as after an abort. Were it
        // kept, the next request would wait behind that chunk, and the chunk's late crash or death
        // would fail that request.
        const primaryBusy = primary.pending.size > 0;
        primary.fail(new TranslatorError(ErrorCode.ABORTED, 'the request failed'));
        emit({ id: req.id, status: Status.ERROR, error: errorPayload(error.code || ErrorCode.TRANSLATE, error.message || String(error)), primaryBusy });
        return;
      }
      const result = builder.finish();
      result.sentences = null; // (the partials carried them: packed-sentences.js)
      Object.assign(result.stats, { chunks: chunks.length, wasmHeapBytes: wasmHeapBytes || null, workers: lanesUsed.size });
      result.timings.workerMs = performance.now() - started;
      emit({ id: req.id, status: Status.RESULT, result });
    };
    const flush = () => {
      while (emitted < chunks.length && results[emitted]) {
        const [b, e] = chunks[emitted];
        const r = results[emitted];
        results[emitted] = true; // (done: let it be collected)
        const added = builder.addResult(b, e, r);
        wasmHeapBytes = Math.max(wasmHeapBytes, r.stats.wasmHeapBytes || 0);
        emitted += 1;
        emit({ id: req.id, status: Status.PARTIAL, text: added.text, sentences: added.sentences, range: [b, e], done: e, total: text.length });
      }
      if (emitted === chunks.length) finish(null);
    };
    const work = async (lane, helper) => {
      while (!job.cancelled && !job.failed && next < chunks.length) {
        const i = next++;
        const [b, e] = chunks[i];
        if (helper) { helper.job = job; helper.busyFor = job; }
        let r;
        try {
          // chunkChars Infinity: the worker gives the engine this chunk whole, as the one-worker path does.
          r = await lane.request({ type: Request.TRANSLATE, text: text.slice(b, e), options, chunkChars: Infinity });
        } catch (error) {
          if (helper) helper.busyFor = null;
          finish(error);
          return;
        }
        if (helper) helper.busyFor = null;
        if (job.cancelled || job.failed) return;
        lanesUsed.add(lane);
        results[i] = r;
        flush();
      }
      if (helper && helper.job === job) helper.job = null;
    };
    work(primary, null);
    for (const h of this.helpers) {
      h.ready.then(() => { if (!h.dead) work(h.lane, h); }, () => this.forget(h));
    }
  }

  /**
   * Stops the running job `req` (an abort, the first worker's death): its helpers still working are
   * ended. Returns a Promise of their ends (see recycle()).
   */
  cancel(req) {
    const job = this.job;
    if (!job || job.req !== req) return Promise.resolve();
    job.cancelled = true;
    this.job = null;
    if (this.primary) this.primary.fail(new TranslatorError(ErrorCode.ABORTED, 'cancelled'));
    this.primary = null;
    const ended = [];
    for (const h of [...this.helpers]) {
      if (h.busyFor === job) { ended.push(h.terminate()); this.forget(h); } else if (h.job === job) h.job = null;
    }
    this.#scheduleIdleEnd();
    return Promise.allSettled(ended);
  }

  /**
   * Ends the helpers (a large request grew their memory, or dispose()). The next pooled request
   * starts new ones. Returns a Promise that settles when their threads have ended (Node's
   * terminate() is asynchronous; in a browser at once), so that translator.js can start a new
   * worker only once their memory is back.
   */
  recycle() {
    clearTimeout(this.idleTimer);
    const ended = this.helpers.map((h) => h.terminate());
    this.helpers = [];
    return Promise.allSettled(ended);
  }

  dispose() {
    this.disposed = true;
    if (this.job) this.cancel(this.job.req);
    this.recycle();
  }

  /** Memory of each helper (as Translator#memory), for measurements. */
  async helperMemory() {
    const all = await Promise.all(this.helpers.map(async (h) => {
      try {
        await h.ready;
        return await h.lane.request({ type: Request.MEMORY });
      } catch {
        return null; // a helper that could not start or was ended meanwhile
      }
    }));
    return all.filter(Boolean);
  }
}
