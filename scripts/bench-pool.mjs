#!/usr/bin/env node
/**
 * The worker pool's speed-up: a ~20,000-character document (flores-dev English, paragraphs of five
 * sentences) translated by a Translator with one worker and by one with N workers, interleaved
 * (1, N, N, 1, 1, N, ...) in the same process so both see the same machine load, in Node (worker
 * threads) and in Chromium (Web Workers, the built site on the local server). Prints each run, the
 * medians, characters/s and words/s, the ratio N-worker / 1-worker throughput, the memory each extra
 * worker costs (its WebAssembly memory, and the process's resident memory before/after the helpers
 * start), the CPU time the process got per second of each run (how many cores the machine gave it:
 * on a shared machine the second worker only helps when a second core is free), and the load
 * average over the run. Benchmarks print numbers; no test asserts them.
 *
 *   node scripts/bench-pool.mjs [--workers 2] [--rounds 4] [--chars 20000] [--beam 4] [--no-alignments]
 *                               [--env node,chromium] [--dist dist] [--json out.json]
 */
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, largestPageProcess, pageRss } from './_proc.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const a = { workers: 2, rounds: 4, chars: 20000, beam: 4, alignments: true, env: ['node', 'chromium'], dist: path.join(ROOT, 'dist'), json: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--workers') a.workers = Number(v());
    else if (k === '--rounds') a.rounds = Number(v());
    else if (k === '--chars') a.chars = Number(v());
    else if (k === '--beam') a.beam = Number(v());
    else if (k === '--no-alignments') a.alignments = false;
    else if (k === '--env') a.env = v().split(',');
    else if (k === '--dist') a.dist = path.resolve(v());
    else if (k === '--json') a.json = path.resolve(v());
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

/** ~`chars` characters of flores-dev English, paragraphs of five sentences. */
export function benchDocument(chars) {
  const lines = readFileSync(path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv'), 'utf8')
    .split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
  let doc = '';
  for (let i = 0; doc.length < chars; i += 5) doc += (doc ? '\n\n' : '') + lines.slice(i % lines.length, (i % lines.length) + 5).join(' ');
  return doc;
}

const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const MiB = (b) => (b == null ? 'n/a' : `${(b / 2 ** 20).toFixed(1)} MiB`);

/**
 * The interleaved comparison. `env` runs in one place (this process or a page):
 * create(workers) → handle, run(handle) → {ms, workers, chars, words}, memory(handle), rss().
 */
async function compare(name, env, args, doc) {
  const loads = [loadavg()[0]];
  const words = doc.split(/\s+/).filter(Boolean).length;
  const one = await env.create(1);
  await env.run(one); // warm: the engine's first calls
  const rssOne = await env.rss();
  const many = await env.create(args.workers);
  await env.run(many); // warm, and the helpers start
  const rssMany = await env.rss();
  const memory = await env.memory(many);
  const times = { 1: [], [args.workers]: [] };
  const cores = { 1: [], [args.workers]: [] }; // CPU time the process got per second of the run: the cores the machine gave it
  const used = [];
  for (let round = 0; round < args.rounds; round++) {
    for (const [handle, n] of round % 2 ? [[many, args.workers], [one, 1]] : [[one, 1], [many, args.workers]]) {
      const cpu0 = env.cpu();
      const r = await env.run(handle);
      const cpu1 = env.cpu();
      r.cores = cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / (r.ms / 1000) : null;
      cores[n].push(r.cores);
      times[n].push(r.ms);
      if (n > 1) used.push(r.workers);
      loads.push(loadavg()[0]);
      console.log(`  ${name}, round ${round + 1}, ${n} worker${n > 1 ? 's' : ''}: ${(r.ms / 1000).toFixed(2)} s, ${Math.round(doc.length / (r.ms / 1000))} chars/s (${r.chunks} chunks, ${r.workers} worker${r.workers > 1 ? 's' : ''} used; the process got ${r.cores === null ? 'n/a' : r.cores.toFixed(2)} cores)`);
    }
  }
  await env.dispose();
  const m1 = median(times[1]);
  const mN = median(times[args.workers]);
  const helpers = memory.helpers || [];
  const result = {
    documentChars: doc.length,
    words,
    coresGot: { 1: cores[1], [args.workers]: cores[args.workers] },
    oneWorker: { medianMs: m1, charsPerSecond: doc.length / (m1 / 1000), wordsPerSecond: words / (m1 / 1000), runsMs: times[1] },
    nWorkers: { workers: args.workers, medianMs: mN, charsPerSecond: doc.length / (mN / 1000), wordsPerSecond: words / (mN / 1000), runsMs: times[args.workers], workersUsed: used },
    ratio: m1 / mN,
    roundRatios: times[1].map((t, i) => t / times[args.workers][i]),
    memoryPerExtraWorker: {
      wasmBytes: helpers.length ? helpers.reduce((s, h) => s + (h.wasmBytes || 0), 0) / helpers.length : null,
      rssBytes: rssOne && rssMany ? (rssMany - rssOne) / args.workers : null,
    },
    loadAverage1m: { min: Math.min(...loads), max: Math.max(...loads) },
  };
  console.log(`${name}: ${doc.length} chars (${words} words), beam ${args.beam}${args.alignments ? ', alignments' : ''}, ${args.rounds} rounds, load average ${result.loadAverage1m.min.toFixed(2)}–${result.loadAverage1m.max.toFixed(2)} on ${cpus().length} CPUs`);
  console.log(`  1 worker:  median ${(m1 / 1000).toFixed(2)} s, ${Math.round(result.oneWorker.charsPerSecond)} chars/s, ${Math.round(result.oneWorker.wordsPerSecond)} words/s`);
  console.log(`  ${args.workers} workers: median ${(mN / 1000).toFixed(2)} s, ${Math.round(result.nWorkers.charsPerSecond)} chars/s, ${Math.round(result.nWorkers.wordsPerSecond)} words/s`);
  const mc = (xs) => (xs.some((x) => x === null) ? 'n/a' : median(xs).toFixed(2));
  console.log(`  CPU the machine gave the process (CPU seconds per second, median): 1 worker ${mc(cores[1])}, ${args.workers} workers ${mc(cores[args.workers])}`);
  console.log(`  ratio ${args.workers} workers / 1 worker throughput: ${result.ratio.toFixed(2)}x (per round: ${result.roundRatios.map((r) => r.toFixed(2)).join(', ')})`);
  console.log(`  each extra worker: WebAssembly memory ${MiB(result.memoryPerExtraWorker.wasmBytes)}; resident memory ${MiB(result.memoryPerExtraWorker.rssBytes)} per engine (the ${args.workers}-worker Translator's, measured beside the 1-worker one)`);
  return result;
}

function nodeEnv(args, doc, Translator) {
  const all = [];
  return {
    async create(workers) {
      const t = await Translator.create({ from: 'en', to: 'de', workers });
      all.push(t);
      return t;
    },
    async run(t) {
      const t0 = performance.now();
      const r = await t.translate(doc, { beam: args.beam, alignments: args.alignments });
      return { ms: performance.now() - t0, workers: r.stats.workers, chunks: r.stats.chunks };
    },
    memory: (t) => t.memory(),
    rss: async () => process.memoryUsage().rss,
    cpu: () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; },
    async dispose() { for (const t of all) t.dispose(); },
  };
}

async function chromiumEnv(args, doc) {
  if (!existsSync(path.join(args.dist, 'translator.js'))) throw new Error(`${args.dist} has no translator.js: run node scripts/build-web.mjs first`);
  const { startServer } = await import('./serve.mjs');
  const { launchChromium } = await import('../tests/web/_helpers.mjs');
  const server = await startServer({ root: args.dist });
  const browser = await launchChromium();
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${server.url}bench.html?n=0`);
  await page.waitForSelector('body[data-done="true"]', { timeout: 120000 });
  await page.evaluate(async (text) => {
    window.__pool = { text, translators: [], mod: await import('./translator.js') };
  }, doc);
  console.log(`Chromium ${browser.version()}`);
  return {
    create: (workers) => page.evaluate(async (n) => {
      const p = window.__pool;
      p.translators.push(await p.mod.Translator.create({ from: 'en', to: 'de', workers: n }));
      return p.translators.length - 1;
    }, workers),
    run: (i) => page.evaluate(async ({ i, beam, alignments }) => {
      const p = window.__pool;
      const t0 = performance.now();
      const r = await p.translators[i].translate(p.text, { beam, alignments });
      return { ms: performance.now() - t0, workers: r.stats.workers, chunks: r.stats.chunks };
    }, { i, beam: args.beam, alignments: args.alignments }),
    memory: (i) => page.evaluate((i) => window.__pool.translators[i].memory(), i),
    rss: async () => pageRss('chromium'),
    cpu: () => { const page = largestPageProcess('chromium'); return page ? cpuSeconds(page.pid) : null; },
    async dispose() {
      await page.evaluate(() => { for (const t of window.__pool.translators) t.dispose(); });
      await browser.close();
      await server.close();
    },
  };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const doc = benchDocument(args.chars);
  console.log(`machine: ${cpus().length} CPUs (${cpus()[0].model}), load average at start ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  const report = { workers: args.workers, beam: args.beam, alignments: args.alignments, cpus: cpus().length, env: {} };
  if (args.env.includes('node')) {
    const { Translator } = await import('../web/translator.js');
    report.env.node = await compare('Node', nodeEnv(args, doc, Translator), args, doc);
  }
  if (args.env.includes('chromium')) report.env.chromium = await compare('Chromium', await chromiumEnv(args, doc), args, doc);
  if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${JSON.stringify({ node: report.env.node && report.env.node.ratio, chromium: report.env.chromium && report.env.chromium.ratio })}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(`bench-pool: ${e.stack || e.message}`);
    process.exit(1);
  });
}
