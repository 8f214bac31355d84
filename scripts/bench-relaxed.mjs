#!/usr/bin/env node
/**
 * Relaxed SIMD vs SIMD128 in Chromium, one run, one page: two Translators of the same engine
 * build, `simd: 'relaxed'` and `simd: 'simd128'` (web/relaxed-simd.js), one worker each, translate
 * the same flores-dev sentences one request per sentence, greedy and beam 4, in alternating chunks
 * (a busy machine slows both alike). Prints sentences/s and words/s of each, the ratio, and how
 * many translations came out the same; before that, the start-up of each (create() until ready:
 * download and compile of the engine and, for relaxed, of relaxed_gemm.wasm; the model's load with
 * the weights' row sums), the median of three alternating creations, and the load average around
 * the run (the machine may be shared). The page is served cross-origin isolated (fine timers).
 *
 *   node scripts/bench-relaxed.mjs [--engine build-wasm] [--limit 300] [--beams 1,4] [--dirs en-de,de-en]
 *                                  [--chunk 25] [--json out.json]
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
  const a = { engine: path.join(ROOT, 'build-wasm'), limit: 300, beams: [1, 4], dirs: ['en-de', 'de-en'], chunk: 25, json: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--engine') a.engine = path.resolve(v());
    else if (k === '--limit') a.limit = Number(v());
    else if (k === '--beams') a.beams = v().split(',').map(Number);
    else if (k === '--dirs') a.dirs = v().split(',');
    else if (k === '--chunk') a.chunk = Number(v());
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

/** Runs in the page: both translators, alternating chunks of sentences; per beam, each one's time. */
async function runInPage({ from, to, sentences, beams, chunk }) {
  const { Translator } = await import('/web/translator.js');
  const make = (simd) => Translator.create({
    from, to, simd, workers: 1, warmUp: false, engineUrl: '/engine/engine.js', manifestUrl: '/weights/manifest.json',
  });
  // Start-up: create() until ready, three times each in alternating order; the last pair stays.
  const startup = { relaxed: [], simd128: [] };
  let t = null;
  for (let round = 0; round < 3; round++) {
    if (t) Object.values(t).forEach((x) => x.dispose());
    t = {};
    for (const name of round % 2 ? ['simd128', 'relaxed'] : ['relaxed', 'simd128']) {
      const t0 = performance.now();
      t[name] = await make(name);
      startup[name].push(performance.now() - t0);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
  const startupMs = { relaxed: median(startup.relaxed), simd128: median(startup.simd128) };
  const info = { relaxed: t.relaxed.info.simd, simd128: t.simd128.info.simd };
  const out = {};
  for (const beam of beams) {
    const r = { relaxed: { ms: 0, texts: [] }, simd128: { ms: 0, texts: [] } };
    for (const name of ['relaxed', 'simd128']) await t[name].translate(sentences[0], { beam });  // warm
    for (let start = 0; start < sentences.length; start += chunk) {
      const part = sentences.slice(start, start + chunk);
      const order = (start / chunk) % 2 ? ['simd128', 'relaxed'] : ['relaxed', 'simd128'];
      for (const name of order) {
        const t0 = performance.now();
        for (const s of part) r[name].texts.push((await t[name].translate(s, { beam })).text);
        r[name].ms += performance.now() - t0;
      }
    }
    out[beam] = r;
  }
  t.relaxed.dispose();
  t.simd128.dispose();
  return { info, out, startupMs };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  for (const f of ['engine.js', 'engine.wasm', 'relaxed_gemm.wasm']) {
    if (!existsSync(path.join(args.engine, f))) throw new Error(`${args.engine} has no ${f}: build the engine first (scripts/build.sh)`);
  }
  const rows = readFileSync(path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv'), 'utf8').split('\n').filter(Boolean)
    .slice(0, args.limit).map((l) => l.split('\t'));
  const { server, url } = await serve({ '/web/': path.join(ROOT, 'web'), '/engine/': args.engine, '/weights/': path.join(ROOT, 'weights') });
  const { launchChromium } = await import('../tests/web/_helpers.mjs');
  const browser = await launchChromium();
  const cpu = /avx512f/.test(readFileSync('/proc/cpuinfo', 'utf8')) ? 'AVX-512' : 'no AVX-512';
  const report = { browser: browser.version(), cpu, sentences: rows.length, directions: {} };
  const load = () => loadavg().map((x) => x.toFixed(1)).join(' ');
  report.loadBefore = load();
  console.log(`Chromium ${report.browser}, CPU with ${cpu}, ${rows.length} flores-dev sentences, one worker each, one request per sentence; load average ${report.loadBefore}`);
  const words = (texts) => texts.reduce((n, s) => n + s.split(/\s+/).filter(Boolean).length, 0);
  try {
    for (const dir of args.dirs) {
      const [from, to] = dir.split('-');
      const sentences = rows.map(([en, de]) => (from === 'en' ? en : de));
      const page = await browser.newPage();
      page.on('console', (m) => { if (m.type() === 'error') console.error(`[page] ${m.text()}`); });
      await page.goto(url);
      const { info, out, startupMs } = await page.evaluate(runInPage, { from, to, sentences, beams: args.beams, chunk: args.chunk });
      await page.close();
      if (info.relaxed !== 'relaxed' || info.simd128 !== 'simd128') throw new Error(`info.simd: ${JSON.stringify(info)}`);
      report.directions[dir] = { startupMs };
      console.log(`${from}→${to} start-up (create() to ready, median of 3): relaxed ${startupMs.relaxed.toFixed(0)} ms, SIMD128 ${startupMs.simd128.toFixed(0)} ms`);
      for (const beam of args.beams) {
        const r = out[beam];
        const sps = (x) => (sentences.length * 1000) / x.ms;
        const same = r.relaxed.texts.filter((s, i) => s === r.simd128.texts[i]).length;
        const line = {
          relaxedSentencesPerSecond: sps(r.relaxed), simd128SentencesPerSecond: sps(r.simd128),
          relaxedWordsPerSecond: (words(r.relaxed.texts) * 1000) / r.relaxed.ms, simd128WordsPerSecond: (words(r.simd128.texts) * 1000) / r.simd128.ms,
          ratio: r.simd128.ms / r.relaxed.ms, identical: same,
        };
        report.directions[dir][beam] = line;
        console.log(`${from}→${to} ${beam === 1 ? 'greedy' : `beam ${beam}`}: relaxed ${line.relaxedSentencesPerSecond.toFixed(1)} sent/s ` +
          `(${line.relaxedWordsPerSecond.toFixed(0)} words/s), SIMD128 ${line.simd128SentencesPerSecond.toFixed(1)} sent/s ` +
          `(${line.simd128WordsPerSecond.toFixed(0)} words/s): ${line.ratio.toFixed(2)}x; ${same}/${sentences.length} translations identical`);
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
