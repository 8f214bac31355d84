#!/usr/bin/env node
/**
 * Benchmarks the translator in Chromium (Debian's /usr/bin/chromium, driven by playwright-core):
 * serves the built site (dist/), opens bench.html in a fresh browser profile to measure the cold
 * time to first translation (nothing cached), reloads it to measure the time with the model
 * cached by the service worker, then translates the dev sentences one request at a time and
 * prints sentences/s, words/s, tokens/s and the worker's memory (the WebAssembly heap, and the
 * resident memory of Chromium's renderer process, which holds the page and its worker). Then the
 * per-core part of scripts/bench-core.mjs: the engine's profile by category and its int8 GEMM
 * against the kernel micro-benchmark in the same browser.
 *
 *   node scripts/bench-web.mjs [--dist dist] [--data tests/fixtures/dev/flores-dev.en-de.tsv]
 *                              [--limit 997] [--beam 4] [--dirs en-de,de-en] [--json out.json]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';
import { perCore } from './bench-core.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_DATA = path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv');  // the repo's copy of flores-dev

function parseArgs(argv) {
  const a = { dist: path.join(ROOT, 'dist'), data: DEFAULT_DATA, limit: 100000, beam: 4, dirs: null, json: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--dist') a.dist = path.resolve(v());
    else if (k === '--data') a.data = path.resolve(v());
    else if (k === '--limit') a.limit = Number(v());
    else if (k === '--beam') a.beam = Number(v());
    else if (k === '--dirs') a.dirs = v().split(',');
    else if (k === '--json') a.json = path.resolve(v());
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

/**
 * Resident memory (bytes) of the largest Chromium renderer process descending from `rootPid` (this
 * script), from /proc: the one that holds the page and its dedicated worker.
 */
function rendererRss(rootPid) {
  if (!existsSync('/proc')) return null;
  const children = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
    } catch { /* gone */ }
  }
  let total = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    for (const c of children.get(pid) || []) stack.push(c);
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer')) continue;
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) total = Math.max(total, Number(m[1]) * 1024);
    } catch { /* gone */ }
  }
  return total || null;
}

const fmt = (n, d = 1) => (n === null || n === undefined ? 'n/a' : Number(n).toFixed(d));

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(path.join(args.dist, 'bench.html'))) throw new Error(`${args.dist} has no bench.html: run node scripts/build-web.mjs first`);
  const manifest = JSON.parse(readFileSync(path.join(args.dist, 'models/manifest.json'), 'utf8'));
  const dirs = args.dirs || manifest.models.map((m) => `${m.from}-${m.to}`);
  const routes = args.data ? { '__bench/dev.txt': args.data } : {};
  const server = await startServer({ root: args.dist, routes });
  const { launchChromium } = await import('../tests/web/_helpers.mjs');
  const browser = await launchChromium();
  const report = { data: args.data ? path.basename(args.data) : 'built-in sentences', beam: args.beam, model: manifest.built_from, directions: {} };
  console.log(`Chromium ${browser.version()}, data: ${report.data}, beam ${args.beam}`);
  try {
    for (const dir of dirs) {
      const [from, to] = dir.split('-');
      const base = `${server.url}bench.html?from=${from}&to=${to}&beam=${args.beam}`;
      const context = await browser.newContext();
      const page = await context.newPage();
      const open = async (url) => {
        await page.goto(url);
        await page.waitForSelector('body[data-done="true"]', { timeout: 30 * 60 * 1000 });
        const r = await page.evaluate(() => window.__bench);
        if (r.error) throw new Error(`${dir}: ${r.error}`);
        return r;
      };
      const cold = await open(`${base}&n=0`);
      const warm = await open(`${base}&n=0`);
      const full = await open(`${base}&n=${args.limit}${args.data ? '&data=__bench/dev.txt' : ''}`);
      const rss = rendererRss(process.pid);
      await context.close();
      const r = {
        coldFirstTranslationMs: cold.firstTranslationMs,
        cachedFirstTranslationMs: warm.firstTranslationMs,
        serviceWorker: warm.serviceWorker,
        sentences: full.sentences,
        sentencesPerSecond: full.sentencesPerSecond,
        wordsPerSecond: full.wordsPerSecond,
        targetTokensPerSecond: full.targetTokensPerSecond,
        msPerSentence: full.msPerSentence,
        workerWasmHeapBytes: full.memory.wasmBytes,
        workerJsHeapBytes: full.memory.jsHeapBytes,
        modelFileBytes: full.memory.modelFileBytes,
        rendererRssBytes: rss,
      };
      report.directions[dir] = r;
      console.log(`\n${from}→${to}`);
      console.log(`  time to first translation: cold ${fmt(r.coldFirstTranslationMs, 0)} ms, model cached ${fmt(r.cachedFirstTranslationMs, 0)} ms (${r.serviceWorker})`);
      console.log(`  ${r.sentences} sentences: ${fmt(r.sentencesPerSecond)} sentences/s, ${fmt(r.wordsPerSecond, 0)} words/s, ${fmt(r.targetTokensPerSecond, 0)} target tokens/s, ${fmt(r.msPerSentence)} ms/sentence`);
      console.log(`  memory: worker WebAssembly heap ${fmt(r.workerWasmHeapBytes / 1e6)} MB (model file ${fmt(r.modelFileBytes / 1e6)} MB), page's renderer process RSS ${rss ? fmt(rss / 1e6) : 'n/a'} MB`);
    }
    // Per core: where one sentence's time goes in WebAssembly (the engine's profiler, by category)
    // and the model's int8 GEMM against the micro-benchmark's peak (scripts/bench-core.mjs).
    if (existsSync(path.join(ROOT, 'weights/manifest.json'))) {
      console.log('');
      report.perCore = await perCore({ browser, engine: path.join(args.dist, 'engine'), kernelsDir: path.join(ROOT, 'build-wasm'),
        dirs, beams: [1, args.beam].filter((b, i, all) => all.indexOf(b) === i), limit: 30, rounds: 1, profile: 30 });
    }
  } finally {
    await browser.close();
    await server.close();
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${JSON.stringify(report)}`);
}

main().catch((e) => {
  console.error(`bench-web: ${e.message}`);
  process.exit(1);
});
