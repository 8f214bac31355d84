#!/usr/bin/env node
/**
 * Benchmarks the translator in Chromium (Debian's /usr/bin/chromium, driven by playwright-core) and,
 * with --browser, in Firefox ESR (Debian's /usr/bin/firefox-esr, puppeteer-core over WebDriver BiDi:
 * tests/web/_browsers.mjs), all open at once in the same run and taking turns, so they compare:
 * serves the built site (dist/), opens bench.html in a fresh browser profile to measure the cold
 * time to first translation (nothing cached), reloads it to measure the time with the model
 * cached by the service worker, then translates the dev sentences one request at a time and
 * prints sentences/s, words/s, tokens/s and the worker's memory (the WebAssembly heap, and the
 * resident memory of the browser's process that holds the page and its worker: Chromium's renderer,
 * Firefox's content process). With several browsers, each one's speed ÷ the first one's. Then, in
 * Chromium, the per-core part of scripts/bench-core.mjs: the engine's profile by category and its
 * int8 GEMM against the kernel micro-benchmark in the same browser.
 *
 *   node scripts/bench-web.mjs [--dist dist] [--data tests/fixtures/dev/flores-dev.en-de.tsv]
 *                              [--limit 997] [--beam 4] [--dirs en-de,de-en] [--json out.json]
 *                              [--browser chromium|firefox|chromium,firefox] [--rounds 1]
 *
 * --rounds R translates the --limit sentences R times in each browser, the browsers taking turns
 * (in alternating order), so a busy machine's load falls on all of them alike.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';
import { perCore } from './bench-core.mjs';
import { pageRss } from './_proc.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_DATA = path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv');  // the repo's copy of flores-dev

function parseArgs(argv) {
  const a = { dist: path.join(ROOT, 'dist'), data: DEFAULT_DATA, limit: 100000, beam: 4, dirs: null, json: null, browsers: ['chromium'], rounds: 1 };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--dist') a.dist = path.resolve(v());
    else if (k === '--data') a.data = path.resolve(v());
    else if (k === '--limit') a.limit = Number(v());
    else if (k === '--beam') a.beam = Number(v());
    else if (k === '--dirs') a.dirs = v().split(',');
    else if (k === '--json') a.json = path.resolve(v());
    else if (k === '--browser') a.browsers = v().split(',');
    else if (k === '--rounds') a.rounds = Number(v());
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

const fmt = (n, d = 1) => (n === null || n === undefined ? 'n/a' : Number(n).toFixed(d));

/** A fresh profile in `browser` on bench.html: open(url) loads it and returns window.__bench once done. */
async function benchPage(name, browser, dir) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const open = async (url) => {
    await page.goto(url);
    await page.waitForSelector('body[data-done="true"]', { timeout: 30 * 60 * 1000 });
    const r = await page.evaluate(() => window.__bench);
    if (r.error) throw new Error(`${name}, ${dir}: ${r.error}`);
    return r;
  };
  return { context, open };
}

/**
 * One direction in every browser: each one's cold and cached start, then the dev sentences in
 * `rounds` rounds that alternate the browsers' order, so the load of other jobs falls on all alike.
 */
async function benchDirection(dir, opened, server, args) {
  const [from, to] = dir.split('-');
  const base = `${server.url}bench.html?from=${from}&to=${to}&beam=${args.beam}`;
  const full = `${base}&n=${args.limit}${args.data ? '&data=__bench/dev.txt' : ''}`;
  const runs = {};
  for (const { name, browser } of opened) {
    const page = await benchPage(name, browser, dir);
    runs[name] = { page, cold: await page.open(`${base}&n=0`), warm: await page.open(`${base}&n=0`), rounds: [] };
  }
  for (let round = 0; round < args.rounds; round++) {
    const order = round % 2 ? [...opened].reverse() : opened;
    for (const { name } of order) runs[name].rounds.push(await runs[name].page.open(full));
  }
  const results = {};
  for (const { name } of opened) {
    const { page, cold, warm, rounds } = runs[name];
    const rss = pageRss(name);
    await page.context.close();
    const seconds = (x) => x.sentences / x.sentencesPerSecond;
    const total = rounds.reduce((sum, x) => sum + seconds(x), 0);
    const sentences = rounds.reduce((sum, x) => sum + x.sentences, 0);
    const perSecond = (key) => rounds.reduce((sum, x) => sum + x[key] * seconds(x), 0) / total;
    const last = rounds.at(-1);
    const r = {
      coldFirstTranslationMs: cold.firstTranslationMs,
      cachedFirstTranslationMs: warm.firstTranslationMs,
      serviceWorker: warm.serviceWorker,
      sentences,
      sentencesPerSecond: sentences / total,
      wordsPerSecond: perSecond('wordsPerSecond'),
      targetTokensPerSecond: perSecond('targetTokensPerSecond'),
      msPerSentence: (1000 * total) / sentences,
      roundsSentencesPerSecond: rounds.map((x) => x.sentencesPerSecond),
      workerWasmHeapBytes: last.memory.wasmBytes,
      workerJsHeapBytes: last.memory.jsHeapBytes,
      modelFileBytes: last.memory.modelFileBytes,
      rendererRssBytes: rss,
    };
    results[name] = r;
    console.log(`\n${name}, ${from}→${to}`);
    console.log(`  time to first translation: cold ${fmt(r.coldFirstTranslationMs, 0)} ms, model cached ${fmt(r.cachedFirstTranslationMs, 0)} ms (${r.serviceWorker})`);
    console.log(`  ${r.sentences} sentences: ${fmt(r.sentencesPerSecond)} sentences/s, ${fmt(r.wordsPerSecond, 0)} words/s, ${fmt(r.targetTokensPerSecond, 0)} target tokens/s, ${fmt(r.msPerSentence)} ms/sentence${rounds.length > 1 ? ` (rounds: ${r.roundsSentencesPerSecond.map((x) => fmt(x)).join(', ')} sentences/s)` : ''}`);
    console.log(`  memory: worker WebAssembly heap ${fmt(r.workerWasmHeapBytes / 1e6)} MB (model file ${fmt(r.modelFileBytes / 1e6)} MB), the page's process RSS ${rss ? fmt(rss / 1e6) : 'n/a'} MB`);
  }
  return results;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(path.join(args.dist, 'bench.html'))) throw new Error(`${args.dist} has no bench.html: run node scripts/build-web.mjs first`);
  const manifest = JSON.parse(readFileSync(path.join(args.dist, 'models/manifest.json'), 'utf8'));
  const dirs = args.dirs || manifest.models.map((m) => `${m.from}-${m.to}`);
  const routes = args.data ? { '__bench/dev.txt': args.data } : {};
  const server = await startServer({ root: args.dist, routes });
  const { launchBrowser } = await import('../tests/web/_browsers.mjs');
  const report = { data: args.data ? path.basename(args.data) : 'built-in sentences', beam: args.beam, rounds: args.rounds, model: manifest.built_from, browsers: {} };
  const opened = [];
  try {
    for (const name of args.browsers) {
      const browser = await launchBrowser(name);
      opened.push({ name, browser });
      report.browsers[name] = { version: browser.version(), directions: {} };
      console.log(`${name} ${browser.version()}, data: ${report.data}, beam ${args.beam}`);
    }
    for (const dir of dirs) {
      const results = await benchDirection(dir, opened, server, args);
      for (const name of args.browsers) report.browsers[name].directions[dir] = results[name];
    }
    // Per core, in Chromium: where one sentence's time goes in WebAssembly (the engine's profiler,
    // by category) and the model's int8 GEMM against the micro-benchmark's peak (scripts/bench-core.mjs).
    const chromium = opened.find((o) => o.name === 'chromium');
    if (chromium && existsSync(path.join(ROOT, 'weights/manifest.json'))) {
      console.log('');
      report.browsers.chromium.perCore = await perCore({ browser: chromium.browser, engine: path.join(args.dist, 'engine'), kernelsDir: path.join(ROOT, 'build-wasm'),
        dirs, beams: [1, args.beam].filter((b, i, all) => all.indexOf(b) === i), limit: 30, rounds: 1, profile: 30 });
    }
  } finally {
    for (const { browser } of opened) await browser.close();
    await server.close();
  }
  const [first, ...others] = args.browsers;
  for (const name of others) {
    for (const dir of dirs) {
      const a = report.browsers[first].directions[dir];
      const b = report.browsers[name].directions[dir];
      const rounds = b.roundsSentencesPerSecond.map((x, i) => fmt(x / a.roundsSentencesPerSecond[i], 2));
      console.log(`${name} ÷ ${first}, ${dir}: sentences/s ${fmt(b.sentencesPerSecond / a.sentencesPerSecond, 2)}x${rounds.length > 1 ? ` (rounds: ${rounds.join(', ')})` : ''}, time to first translation cold ${fmt(b.coldFirstTranslationMs / a.coldFirstTranslationMs, 2)}x, cached ${fmt(b.cachedFirstTranslationMs / a.cachedFirstTranslationMs, 2)}x`);
    }
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\n${JSON.stringify(report)}`);
}

main().catch((e) => {
  console.error(`bench-web: ${e.message}`);
  process.exit(1);
});
