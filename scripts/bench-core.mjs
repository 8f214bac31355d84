#!/usr/bin/env node
/**
 * Per-core benchmark in Chromium: one worker per engine, one request per sentence.
 *
 * 1. Speed, new vs baseline: with --baseline DIR (a build-wasm folder of another engine, e.g. today's
 *    code built from a git worktree), both engines run in the same page, each in its own worker, on
 *    the same sentences, in alternating chunks (so a busy machine slows both alike); prints words/s
 *    of each, the ratio, and whether the outputs are identical sentence by sentence.
 * 2. Profile: where one sentence's time goes in WebAssembly, by category (the engine's opt-in
 *    profiler, engine/common/profile.h), per beam size.
 * 3. GEMM efficiency: the int8 GEMM's GOP/s inside the model (from the profile, per shape) against
 *    the peak the kernel micro-benchmark (engine/bench/bench_kernels.cpp, built for the browser as
 *    build-wasm/bench_kernels.js) measures for the same shapes in the same browser.
 * The page is served cross-origin isolated, so performance.now() has fine resolution in it.
 *
 *   node scripts/bench-core.mjs [--engine build-wasm] [--baseline DIR] [--limit 150] [--dirs en-de,de-en]
 *        [--beams 1,4] [--rounds 2] [--profile 30] [--no-kernels] [--json out.json]
 */
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };
const fmt = (n, d = 1) => (n === null || n === undefined || Number.isNaN(n) ? 'n/a' : Number(n).toFixed(d));
const words = (s) => s.split(/\s+/).filter(Boolean).length;

function parseArgs(argv) {
  const a = {
    engine: path.join(ROOT, 'build-wasm'), baseline: null, limit: 150, dirs: null, beams: [1, 4], rounds: 2, profile: 30,
    kernels: true, json: null, data: path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv'),
    manifest: path.join(ROOT, 'weights/manifest.json'),
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--engine') a.engine = path.resolve(v());
    else if (k === '--baseline') a.baseline = path.resolve(v());
    else if (k === '--limit') a.limit = Number(v());
    else if (k === '--dirs') a.dirs = v().split(',');
    else if (k === '--beams') a.beams = v().split(',').map(Number);
    else if (k === '--rounds') a.rounds = Number(v());
    else if (k === '--profile') a.profile = Number(v());
    else if (k === '--no-kernels') a.kernels = false;
    else if (k === '--data') a.data = path.resolve(v());
    else if (k === '--manifest') a.manifest = path.resolve(v());
    else if (k === '--json') a.json = path.resolve(v());
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

// A static server for the given URL paths → files, with the headers that make the page
// cross-origin isolated (fine-grained performance.now() in the page and its workers).
function serve(routes) {
  const server = createServer((req, res) => {
    const file = routes[decodeURIComponent(new URL(req.url, 'http://x').pathname)];
    if (!file || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
      'Content-Length': String(statSync(file).size),
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cache-Control': 'no-store',
    });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

// bench_kernels prints "M N K | f32 GF/s ref x | i8 GOP/s ref x"; the int8 GOP/s of the shape.
function parseKernelLine(lines, m, n, k) {
  for (const line of lines) {
    const f = line.replace(/\|/g, ' ').trim().split(/\s+/).map(Number);
    if (f.length >= 9 && f[0] === m && f[1] === n && f[2] === k) return f[6];
  }
  return null;
}

/**
 * Runs the three parts; `log` prints. Returns a report object. Options as the command line's,
 * plus `browser` (a playwright Chromium, launched here when not given) and `kernelsDir` (where
 * bench_kernels.js is, default the engine's folder).
 */
export async function perCore(options) {
  const o = { ...parseArgs([]), ...options };
  const log = o.log || console.log;
  const manifest = JSON.parse(readFileSync(o.manifest, 'utf8'));
  const dirs = o.dirs || manifest.models.map((m) => `${m.from}-${m.to}`);
  const here = path.join(ROOT, 'scripts/bench-core');
  const routes = { '/page.html': path.join(here, 'page.html'), '/page.js': path.join(here, 'page.js'), '/worker.js': path.join(here, 'worker.js') };
  const engines = { new: o.engine };
  if (o.baseline) engines.base = o.baseline;
  for (const [name, dir] of Object.entries(engines)) {
    for (const f of ['engine.js', 'engine.wasm']) {
      if (!existsSync(path.join(dir, f))) throw new Error(`${dir} has no ${f}: build the engine there first`);
      routes[`/${name}/${f}`] = path.join(dir, f);
    }
  }
  const kernelsDir = o.kernelsDir || o.engine;
  const kernelsJs = path.join(kernelsDir, 'bench_kernels.js');
  const haveKernels = o.kernels && existsSync(kernelsJs);
  if (haveKernels) {
    routes['/kernels/bench_kernels.js'] = kernelsJs;
    routes['/kernels/bench_kernels.wasm'] = path.join(kernelsDir, 'bench_kernels.wasm');
  }
  for (const m of manifest.models) routes[`/models/${m.from}-${m.to}.nmt`] = path.resolve(path.dirname(o.manifest), m.file);

  const lines = readFileSync(o.data, 'utf8').split('\n').filter((l) => l.trim());
  const { server, url } = await serve(routes);
  let browser = o.browser;
  const ownBrowser = !browser;
  if (ownBrowser) browser = await (await import('../tests/web/_helpers.mjs')).launchChromium();
  const report = { browser: browser.version(), directions: {}, gemm: null };
  const shapes = new Map();  // "m n k" → {m, n, k, calls, ms} over every profile
  let clockMs = Infinity;    // one read of the profiler's clock (the smallest measured)
  const TICK_MS = 0.005;     // performance.now()'s resolution in a cross-origin isolated page
  const page = await browser.newPage();
  try {
    await page.goto(`${url}page.html`);
    await page.waitForSelector('body[data-ready="true"]');
    const isolated = await page.evaluate(() => window.bench.crossOriginIsolated);
    log(`per core: Chromium ${browser.version()}, one worker per engine, one request per sentence${isolated ? '' : ' (page NOT cross-origin isolated: coarse timers)'}`);
    for (const dir of dirs) {
      const column = dir.startsWith('de') ? 1 : 0;
      const texts = lines.map((l) => l.split('\t')[column].trim()).filter(Boolean).slice(0, o.limit);
      const totalWords = texts.reduce((n, t) => n + words(t), 0);
      const started = {};
      for (const name of Object.keys(engines)) started[name] = await page.evaluate(([n, d]) => window.bench.start(n, `${n}/engine.js`, `models/${d}.nmt`), [name, dir]);
      const r = (report.directions[dir] = {});
      log(`\n${dir}: ${texts.length} sentences, ${totalWords} words`);
      for (const beam of o.beams) {
        const opts = { beam, alignments: true };
        const res = (r[`beam${beam}`] = {});
        const names = Object.keys(engines);
        for (const name of names) await page.evaluate(([n, t, op]) => window.bench.translateAll(n, t, op), [name, texts.slice(0, 3), opts]);
        // Alternating chunks of 25 sentences: base then new, new then base, ...
        const ms = Object.fromEntries(names.map((n) => [n, 0]));
        const outs = Object.fromEntries(names.map((n) => [n, []]));
        for (let round = 0; round < o.rounds; round++) {
          for (let c = 0, i = 0; i < texts.length; c++, i += 25) {
            const chunk = texts.slice(i, i + 25);
            const order = (c + round) % 2 ? [...names].reverse() : names;
            for (const name of order) {
              const t = await page.evaluate(([n, tx, op]) => window.bench.translateAll(n, tx, op), [name, chunk, opts]);
              ms[name] += t.ms;
              if (round === 0) outs[name].push(...t.texts);
            }
          }
        }
        const wps = (n) => (totalWords * o.rounds) / (ms[n] / 1000);
        res.newWordsPerSecond = wps('new');
        let line = `  beam ${beam}: new ${fmt(res.newWordsPerSecond, 0)} words/s (${fmt(ms.new / (texts.length * o.rounds), 2)} ms/sentence)`;
        if (engines.base) {
          res.baseWordsPerSecond = wps('base');
          res.speedup = ms.base / ms.new;
          res.identical = outs.base.filter((t, i) => t === outs.new[i]).length;
          res.differing = outs.base.map((t, i) => (t === outs.new[i] ? null : { i, base: t, new: outs.new[i] })).filter(Boolean).slice(0, 5);
          line += `, baseline ${fmt(res.baseWordsPerSecond, 0)} words/s: ${fmt(res.speedup, 3)}x; outputs identical ${res.identical}/${texts.length}`;
        }
        log(line);
        for (const d of res.differing || []) log(`    differs at ${d.i}: baseline "${d.base}" / new "${d.new}"`);
        if (started.new.profiler && o.profile > 0) {
          const sample = texts.slice(0, o.profile);
          await page.evaluate(() => window.bench.call('new', { type: 'profile', on: true }));
          const t = await page.evaluate(([tx, op]) => window.bench.translateAll('new', tx, op), [sample, opts]);
          const { report: prof } = await page.evaluate(() => window.bench.call('new', { type: 'report' }));
          await page.evaluate(() => window.bench.call('new', { type: 'profile', on: false }));
          res.profile = { sentences: sample.length, roundTripMs: t.ms, ...prof };
          const per = (v) => v / sample.length;
          // Each category less the estimated cost of the profiler's own clock reads in it
          // (performance.now() from wasm costs hundreds of ns in Chromium).
          const less = prof.categories_less_clock;
          const lessTotal = Object.values(less).reduce((a, b) => a + b, 0);
          const cats = Object.entries(less).sort((a, b) => b[1] - a[1]);
          log(`    profile, ${sample.length} sentences: ${fmt(per(prof.total_ms), 2)} ms/sentence inside the engine while profiled, ` +
            `of which ~${fmt(per(prof.clock_reads * prof.clock_read_ms), 2)} ms the profiler's ${fmt(prof.clock_reads / sample.length, 0)} clock reads (${fmt(prof.clock_read_ms * 1e6, 0)} ns each); the rest by category:`);
          log(`      ${cats.map(([k, v]) => `${k} ${fmt(per(v), 2)} ms (${fmt((100 * v) / lessTotal)}%)`).join(', ')}`);
          clockMs = Math.min(clockMs, prof.clock_read_ms);
          for (const g of prof.gemm_shapes) {
            const key = `${g.m} ${g.n} ${g.k}`;
            const s = shapes.get(key) || { m: g.m, n: g.n, k: g.k, calls: 0, ms: 0, medianMs: g.median_ms };
            s.calls += g.calls;
            s.ms += g.ms;
            s.medianMs = Math.min(s.medianMs, g.median_ms);
            shapes.set(key, s);
          }
        }
      }
      for (const name of Object.keys(engines)) await page.evaluate((n) => window.bench.stop(n), name);
    }

    if (haveKernels && shapes.size) {
      // The shapes that hold 90% of the profiled GEMM time (at most 10), each against the
      // micro-benchmark's best GOP/s for it in this browser.
      const all = [...shapes.values()].sort((a, b) => b.ms - a.ms);
      const total = all.reduce((t, s) => t + s.ms, 0);
      const picked = [];
      for (let acc = 0, i = 0; i < all.length && picked.length < 10 && acc < 0.9 * total; acc += all[i].ms, i++) picked.push(all[i]);
      await page.evaluate(() => window.bench.start('kernels', 'new/engine.js', `models/${'en-de'}.nmt`).catch(() => null));
      log('\nint8 GEMM in the model vs the micro-benchmark of the same shape (bench_kernels M N K, best of repeated runs, same browser):');
      log('  in the model: mean = all calls\' time / calls (includes time the OS gave to other jobs); median = one call\'s median;');
      log(`  both less one read of the profiler's clock (~${fmt(clockMs * 1e6, 0)} ns), which each GEMM's time includes; no median for calls`);
      log('  under 50 us (the clock ticks every 5 us): those count with their mean in the median-based total');
      log('     M     N     K  share  calls   mean GOP/s  median GOP/s  micro GOP/s  mean/micro  median/micro');
      const sums = { peak: 0, mean: 0, median: 0 };
      const rows = [];
      for (const s of picked) {
        const { lines: out } = await page.evaluate(([m, n, k]) => window.bench.call('kernels', { type: 'kernels', moduleUrl: new URL('kernels/bench_kernels.js', location.href).href, args: [String(m), String(n), String(k)] }), [s.m, s.n, s.k]);
        const peak = parseKernelLine(out, s.m, s.n, s.k);
        const opsPerCall = 2 * s.m * s.n * s.k;
        const meanMs = s.ms / s.calls - clockMs;
        // A median of fewer than ~10 ticks of the clock (5 us in a cross-origin isolated page) says
        // little: such shapes count with their mean in the median-based total.
        const medianMs = s.medianMs >= 10 * TICK_MS ? s.medianMs - clockMs : null;
        const mean = opsPerCall / (meanMs * 1e6);
        const median = medianMs ? opsPerCall / (medianMs * 1e6) : null;
        if (peak) {
          sums.peak += (opsPerCall * s.calls) / (peak * 1e6);
          sums.mean += meanMs * s.calls;
          sums.median += (medianMs || meanMs) * s.calls;
        }
        rows.push({ ...s, meanGops: mean, medianGops: median, microGops: peak });
        log(`  ${String(s.m).padStart(4)} ${String(s.n).padStart(5)} ${String(s.k).padStart(5)} ${fmt((100 * s.ms) / total).padStart(5)}% ${String(s.calls).padStart(6)} ${fmt(mean).padStart(12)} ${fmt(median).padStart(13)} ${fmt(peak).padStart(12)} ${fmt(peak ? mean / peak : null, 2).padStart(11)} ${fmt(peak && median ? median / peak : null, 2).padStart(13)}`);
      }
      report.gemm = { shapes: rows, coveredShare: picked.reduce((t, s) => t + s.ms, 0) / total, meanRatio: sums.peak / sums.mean, medianRatio: sums.peak / sums.median };
      log(`  weighted by time over shapes holding ${fmt(100 * report.gemm.coveredShare)}% of the GEMM time: the model's int8 GEMMs reach ` +
        `${fmt(100 * report.gemm.medianRatio)}% of the micro-benchmark's peak by median call where measurable (${fmt(100 * report.gemm.meanRatio)}% by mean)`);
    }
  } finally {
    await page.close();
    if (ownBrowser) await browser.close();
    server.close();
  }
  return report;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  const args = parseArgs(process.argv.slice(2));
  perCore(args).then((report) => {
    if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  }).catch((e) => {
    console.error(`bench-core: ${e.stack || e.message}`);
    process.exit(1);
  });
}
