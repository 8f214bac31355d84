#!/usr/bin/env node
/**
 * Relaxed SIMD vs SIMD128 in Chromium, one run, one page: two Translators of the same engine
 * build, `simd: 'relaxed'` and `simd: 'simd128'` (web/relaxed-simd.js), one worker each, translate
 * the same flores-dev sentences one request per sentence, greedy and beam 4, in alternating chunks
 * (a busy machine slows both alike). Prints sentences/s and words/s of each, the ratio, and how
 * many translations came out the same; before that, the start-up of each (create() until ready:
 * download and compile of the engine and, for relaxed, of relaxed_gemm.wasm; the model's load with
 * the weights' row sums), the median of three alternating creations, then the first translation
 * of each new translator (one sentence, beam 4, nothing warm), and the load average around
 * the run (the machine may be shared). The page is served cross-origin isolated (fine timers).
 * --baseline DIR (another build's engine.js, engine.wasm and relaxed_gemm.wasm, e.g. last commit's)
 * adds a third translator, that engine's relaxed, to the same rotation: before and after in one run.
 *
 * --profile N measures no speed: it prints where a sentence's time goes (the engine's profiler, by
 * category) with each kernel, on the first N sentences.
 *
 *   node scripts/bench-relaxed.mjs [--engine build-wasm] [--baseline DIR] [--limit 300] [--beams 1,4]
 *                                  [--dirs en-de,de-en] [--chunk 25] [--profile N] [--json out.json]
 * Prints numbers; asserts nothing.
 */
import { createServer } from 'node:http';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm' };

function parseArgs(argv) {
  const a = { engine: path.join(ROOT, 'build-wasm'), baseline: null, profile: 0, limit: 300, beams: [1, 4], dirs: ['en-de', 'de-en'], chunk: 25, json: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--engine') a.engine = path.resolve(v());
    else if (k === '--baseline') a.baseline = path.resolve(v());
    else if (k === '--limit') a.limit = Number(v());
    else if (k === '--beams') a.beams = v().split(',').map(Number);
    else if (k === '--dirs') a.dirs = v().split(',');
    else if (k === '--chunk') a.chunk = Number(v());
    else if (k === '--profile') a.profile = Number(v());
    else if (k === '--json') a.json = path.resolve(v());
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

// URL prefix → folder: the module (web/), the engine build, the weights.
function serve(mounts) {
  const server = createServer((req, res) => {
    const p = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (p === '/') {
      res.writeHead(200, { 'Content-Type': TYPES['.html'], 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' });
      res.end('<!doctype html><title>bench-relaxed</title>');
      return;
    }
    const mount = Object.keys(mounts).find((m) => p.startsWith(m));
    const file = mount && path.join(mounts[mount], p.slice(mount.length));
    if (!file || !file.startsWith(mounts[mount]) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': TYPES[path.extname(file)] || 'application/octet-stream',
      'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp',
      'Cross-Origin-Resource-Policy': 'same-origin', 'Cache-Control': 'no-store',
    });
    res.end(readFileSync(file));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${server.address().port}/` })));
}

/**
 * Runs in the page: the translators (relaxed and simd128 of the engine, and the baseline engine's
 * relaxed when there is one), alternating chunks of sentences in a rotating order; per beam, each
 * one's time and translations.
 */
async function runInPage({ from, to, sentences, beams, chunk, baseline }) {
  const { Translator } = await import('/web/translator.js');
  const runners = { relaxed: ['relaxed', '/engine/engine.js'], simd128: ['simd128', '/engine/engine.js'] };
  if (baseline) runners.baseline = ['relaxed', '/baseline/engine.js'];
  const names = Object.keys(runners);
  const make = (name) => Translator.create({
    from, to, simd: runners[name][0], workers: 1, warmUp: false, engineUrl: runners[name][1], manifestUrl: '/weights/manifest.json',
  });
  const rotate = (i) => names.map((_, j) => names[(i + j) % names.length]);
  // Start-up: create() until ready, then the first translation (beam 4, the page's default: the
  // engine's code not yet warm, no warm-up), three times each in rotating order; the last set stays.
  const startup = Object.fromEntries(names.map((n) => [n, []]));
  const first = Object.fromEntries(names.map((n) => [n, []]));
  let t = null;
  for (let round = 0; round < 3; round++) {
    if (t) Object.values(t).forEach((x) => x.dispose());
    t = {};
    for (const name of rotate(round)) {
      const t0 = performance.now();
      t[name] = await make(name);
      const t1 = performance.now();
      await t[name].translate(sentences[0], { beam: 4 });
      startup[name].push(t1 - t0);
      first[name].push(performance.now() - t1);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const startupMs = Object.fromEntries(names.map((n) => [n, median(startup[n])]));
  const firstMs = Object.fromEntries(names.map((n) => [n, median(first[n])]));
  const info = Object.fromEntries(names.map((n) => [n, t[n].info.simd]));
  const out = {};
  for (const beam of beams) {
    const r = Object.fromEntries(names.map((n) => [n, { ms: 0, texts: [] }]));
    for (const name of names) await t[name].translate(sentences[0], { beam });  // warm
    for (let start = 0; start < sentences.length; start += chunk) {
      const part = sentences.slice(start, start + chunk);
      for (const name of rotate(start / chunk)) {
        const t0 = performance.now();
        for (const s of part) r[name].texts.push((await t[name].translate(s, { beam })).text);
        r[name].ms += performance.now() - t0;
      }
    }
    out[beam] = r;
  }
  Object.values(t).forEach((x) => x.dispose());
  return { info, out, startupMs, firstMs };
}

/**
 * Runs in the page (--profile): where a sentence's time goes with each kernel, from the engine's
 * opt-in profiler (engine/common/profile.h). Two engine modules in the page itself, set up as the
 * worker sets them up (the relaxed module plugged in with setSimd), each sentence translated by
 * one then the other (each module profiles only its own calls, so a busy machine slows both alike).
 */
async function profileInPage({ file, sentences, beams }) {
  const createEngine = (await import('/engine/engine.js')).default;
  const bytes = new Uint8Array(await (await fetch(`/weights/${file}`)).arrayBuffer());
  const relaxedModule = await WebAssembly.compileStreaming(fetch('/engine/relaxed_gemm.wasm'));
  const kinds = ['relaxed', 'simd128'];
  const engines = {};
  for (const simd of kinds) {
    const Module = await createEngine();
    if (simd === 'relaxed') Module.relaxedModule = relaxedModule;
    if (!Module.setSimd(simd)) throw new Error(`setSimd('${simd}') failed`);
    const engine = new Module.Translator();
    const err = engine.load(bytes);
    if (err) throw new Error(err);
    engines[simd] = { Module, engine };
  }
  const out = { relaxed: {}, simd128: {} };
  for (const beam of beams) {
    const options = JSON.stringify({ beam });
    for (const simd of kinds) {
      engines[simd].engine.translate(sentences[0], options);  // warm
      engines[simd].Module.profileEnable(true);
    }
    sentences.forEach((s, i) => {
      for (const simd of i % 2 ? [...kinds].reverse() : kinds) engines[simd].engine.translate(s, options);
    });
    for (const simd of kinds) {
      out[simd][beam] = JSON.parse(engines[simd].Module.profileReport());
      engines[simd].Module.profileEnable(false);
    }
  }
  for (const simd of kinds) engines[simd].engine.delete();
  return out;
}

/** --profile: per direction and beam, each category's ms a sentence with each kernel, and the ratio. */
async function printProfiles(browser, url, args, rows) {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'weights/manifest.json'), 'utf8'));
  const profiles = {};
  for (const dir of args.dirs) {
    const [from, to] = dir.split('-');
    const model = manifest.models.find((m) => m.from === from && m.to === to);
    const sentences = rows.slice(0, args.profile).map(([en, de]) => (from === 'en' ? en : de));
    const page = await browser.newPage();
    await page.goto(url);
    const out = await page.evaluate(profileInPage, { file: model.file, sentences, beams: args.beams });
    await page.close();
    profiles[dir] = out;
    for (const beam of args.beams) {
      const r = out.relaxed[beam], s = out.simd128[beam];
      const per = (x) => x / sentences.length;
      console.log(`${from}→${to} ${beam === 1 ? 'greedy' : `beam ${beam}`} profile, ms a sentence (${sentences.length} sentences):`);
      const line = (name, a, b) => console.log(`  ${name.padEnd(14)} relaxed ${per(a).toFixed(3).padStart(7)}  SIMD128 ${per(b).toFixed(3).padStart(7)}  ${(b / a).toFixed(2)}x`);
      for (const c of Object.keys(s.categories)) line(c, r.categories[c], s.categories[c]);
      line('total', r.total_ms, s.total_ms);
      // The GEMM shapes that take the most time, with their GOP/s (2 operations a multiply-add).
      const gops = (g) => (2 * g.m * g.n * g.k * g.calls) / (g.ms * 1e6);
      const key = (g) => `${g.m}x${g.n}x${g.k}`;
      const simdShapes = new Map(s.gemm_shapes.map((g) => [key(g), g]));
      for (const g of [...r.gemm_shapes].sort((a, b) => b.ms - a.ms).slice(0, 6)) {
        const o = simdShapes.get(key(g));
        console.log(`  GEMM ${key(g).padEnd(12)} ${g.calls} calls: relaxed ${per(g.ms).toFixed(3)} ms (${gops(g).toFixed(0)} GOP/s)` +
          (o ? `, SIMD128 ${per(o.ms).toFixed(3)} ms (${gops(o).toFixed(0)} GOP/s)` : ''));
      }
    }
  }
  return profiles;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  for (const dir of [args.engine, args.baseline].filter(Boolean)) {
    for (const f of ['engine.js', 'engine.wasm', 'relaxed_gemm.wasm']) {
      if (!existsSync(path.join(dir, f))) throw new Error(`${dir} has no ${f}: build the engine first (scripts/build.sh)`);
    }
  }
  const rows = readFileSync(path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv'), 'utf8').split('\n').filter(Boolean)
    .slice(0, args.limit).map((l) => l.split('\t'));
  const mounts = { '/web/': path.join(ROOT, 'web'), '/engine/': args.engine, '/weights/': path.join(ROOT, 'weights') };
  if (args.baseline) mounts['/baseline/'] = args.baseline;
  const { server, url } = await serve(mounts);
  const { launchChromium } = await import('../tests/web/_helpers.mjs');
  const browser = await launchChromium();
  const cpu = /avx512f/.test(readFileSync('/proc/cpuinfo', 'utf8')) ? 'AVX-512' : 'no AVX-512';
  const report = { browser: browser.version(), cpu, sentences: rows.length, directions: {} };
  const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
  report.loadBefore = load();
  console.log(`Chromium ${report.browser}, CPU with ${cpu}, ${rows.length} flores-dev sentences, one worker each, one request per sentence; load average ${report.loadBefore}`);
  const words = (texts) => texts.reduce((n, s) => n + s.split(/\s+/).filter(Boolean).length, 0);
  try {
    if (args.profile) report.profiles = await printProfiles(browser, url, args, rows);
    for (const dir of args.profile ? [] : args.dirs) {
      const [from, to] = dir.split('-');
      const sentences = rows.map(([en, de]) => (from === 'en' ? en : de));
      const page = await browser.newPage();
      page.on('console', (m) => { if (m.type() === 'error') console.error(`[page] ${m.text()}`); });
      await page.goto(url);
      const { info, out, startupMs, firstMs } = await page.evaluate(runInPage, { from, to, sentences, beams: args.beams, chunk: args.chunk, baseline: !!args.baseline });
      await page.close();
      if (info.relaxed !== 'relaxed' || info.simd128 !== 'simd128' || (args.baseline && info.baseline !== 'relaxed')) throw new Error(`info.simd: ${JSON.stringify(info)}`);
      report.directions[dir] = { startupMs, firstTranslationMs: firstMs };
      console.log(`${from}→${to} start-up (create() to ready, median of 3): relaxed ${startupMs.relaxed.toFixed(0)} ms, SIMD128 ${startupMs.simd128.toFixed(0)} ms` +
        (args.baseline ? `, baseline relaxed ${startupMs.baseline.toFixed(0)} ms` : ''));
      console.log(`${from}→${to} first translation after it (beam 4, one sentence, median of 3): relaxed ${firstMs.relaxed.toFixed(0)} ms, SIMD128 ${firstMs.simd128.toFixed(0)} ms` +
        (args.baseline ? `, baseline relaxed ${firstMs.baseline.toFixed(0)} ms` : ''));
      for (const beam of args.beams) {
        const r = out[beam];
        const sps = (x) => (sentences.length * 1000) / x.ms;
        const same = r.relaxed.texts.filter((s, i) => s === r.simd128.texts[i]).length;
        const line = {
          relaxedSentencesPerSecond: sps(r.relaxed), simd128SentencesPerSecond: sps(r.simd128),
          relaxedWordsPerSecond: (words(r.relaxed.texts) * 1000) / r.relaxed.ms, simd128WordsPerSecond: (words(r.simd128.texts) * 1000) / r.simd128.ms,
          ratio: r.simd128.ms / r.relaxed.ms, identical: same,
        };
        if (args.baseline) {
          line.baselineRatio = r.simd128.ms / r.baseline.ms;  // the baseline's relaxed vs this SIMD128
          line.relaxedVsBaseline = r.baseline.ms / r.relaxed.ms;
          line.identicalToBaseline = r.relaxed.texts.filter((s, i) => s === r.baseline.texts[i]).length;
        }
        report.directions[dir][beam] = line;
        console.log(`${from}→${to} ${beam === 1 ? 'greedy' : `beam ${beam}`}: relaxed ${line.relaxedSentencesPerSecond.toFixed(1)} sent/s ` +
          `(${line.relaxedWordsPerSecond.toFixed(0)} words/s), SIMD128 ${line.simd128SentencesPerSecond.toFixed(1)} sent/s ` +
          `(${line.simd128WordsPerSecond.toFixed(0)} words/s): ${line.ratio.toFixed(2)}x; ${same}/${sentences.length} translations identical`);
        if (args.baseline) {
          console.log(`  baseline relaxed ${sps(r.baseline).toFixed(1)} sent/s: ${line.baselineRatio.toFixed(2)}x SIMD128; ` +
            `relaxed / baseline ${line.relaxedVsBaseline.toFixed(2)}x; ${line.identicalToBaseline}/${sentences.length} translations identical to the baseline's`);
        }
      }
    }
  } finally {
    await browser.close();
    server.close();
  }
  report.loadAfter = load();
  console.log(`load average after: ${report.loadAfter}`);
  if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((e) => {
  console.error(`bench-relaxed: ${e.message}`);
  process.exit(1);
});
