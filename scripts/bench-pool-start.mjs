#!/usr/bin/env node
/**
 * What starting the worker pool costs the page's main thread: the demo page (its default pool: one
 * worker per core, at most 4) in Chromium with the CPU throttled (CDP Emulation.setCPUThrottlingRate,
 * default 4x, as a slow phone), given 300 flores-dev sentences to translate. The first long input
 * starts the pool's helper workers, each with an 'init' message. Prints, per run: the main thread's
 * long tasks (PerformanceObserver 'longtask', over 50 ms) from the paste to the translation's end,
 * the task that posted the helpers' 'init' and how long each of those postMessage() calls took (the
 * structured clone of the message happens inside it), and the largest ArrayBuffer an 'init' held.
 *
 * With --baseline DIR (a dist/ built from another commit; repeatable), the same runs go to that
 * build too, interleaved (A, B, B, A, ...) in the same browser, so both see the same load. Prints
 * medians. A benchmark: it prints numbers, nothing asserts them.
 *
 *   node scripts/bench-pool-start.mjs [--dist dist] [--baseline DIR] [--rounds 3] [--throttle 4]
 *                                     [--sentences 300] [--json out.json]
 *
 * A baseline of an older commit:
 *   git worktree add /tmp/before <commit> && node /tmp/before/scripts/build-web.mjs --out /tmp/dist-before --engine build-wasm
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const a = { dist: path.join(ROOT, 'dist'), baseline: [], rounds: 3, throttle: 4, sentences: 300, json: null };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--dist') a.dist = path.resolve(v());
    else if (k === '--baseline') a.baseline.push(path.resolve(v()));
    else if (k === '--rounds') a.rounds = Number(v());
    else if (k === '--throttle') a.throttle = Number(v());
    else if (k === '--sentences') a.sentences = Number(v());
    else if (k === '--json') a.json = path.resolve(v());
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

/** `n` flores-dev English sentences in paragraphs of five. */
function sampleText(n) {
  const lines = readFileSync(path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv'), 'utf8')
    .split('\n').filter(Boolean).map((l) => l.split('\t')[0]).slice(0, n);
  const paragraphs = [];
  for (let i = 0; i < lines.length; i += 5) paragraphs.push(lines.slice(i, i + 5).join(' '));
  return paragraphs.join('\n\n');
}

/**
 * Runs in the page before its own scripts: times every Worker.postMessage() (the structured clone
 * runs inside it) and notes, for an 'init', the largest ArrayBuffer (or view) anywhere in the
 * message and whether it holds a Blob; collects the long tasks.
 */
function instrumentPage() {
  const posts = [];
  const longTasks = [];
  window.__poolStart = { posts, longTasks };
  const largestBuffer = (value, seen = new Set()) => {
    if (!value || typeof value !== 'object' || seen.has(value)) return 0;
    seen.add(value);
    if (value instanceof ArrayBuffer) return value.byteLength;
    if (ArrayBuffer.isView(value)) return value.buffer.byteLength;
    let most = 0;
    for (const v of Object.values(value)) most = Math.max(most, largestBuffer(v, seen));
    return most;
  };
  const hasBlob = (value) => !!value && typeof value === 'object' && Object.values(value).some((v) => v instanceof Blob || hasBlob(v));
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    const start = performance.now();
    try {
      return post.call(this, message, ...rest);
    } finally {
      const end = performance.now();
      if (message && message.type === 'init') {
        posts.push({ start, ms: end - start, restart: !!message.reuse, largestBuffer: largestBuffer(message), blob: hasBlob(message) });
      }
    }
  };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
}

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((x, y) => x - y);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ms = (x) => (x === null || x === undefined ? 'n/a' : `${x.toFixed(0)} ms`);
const MB = (b) => `${(b / 1e6).toFixed(1)} MB`;

/** One run: a fresh profile, the page ready, the CPU throttled, the sample pasted, the translation done. */
async function run(browser, build, args, text) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.addInitScript(instrumentPage);
    await page.goto(build.server.url);
    await page.waitForFunction(() => document.body.dataset.ready === 'true' || document.body.dataset.state === 'error', null, { timeout: 120000 });
    if (await page.evaluate(() => document.body.dataset.ready) !== 'true') throw new Error(`${build.name}: the page did not load: ${await page.textContent('#error')}`);
    const workers = await page.evaluate(() => Math.max(1, Math.min(navigator.hardwareConcurrency || 1, 4)));
    await page.waitForTimeout(1500); // (the start's own long tasks and the idle warm-up are over)
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: args.throttle });
    const from = await page.evaluate(() => performance.now());
    await page.fill('#source', text);
    await page.waitForFunction(() => document.body.dataset.state === 'done' || document.body.dataset.state === 'error', null, { timeout: 900000, polling: 500 });
    const state = await page.evaluate(() => document.body.dataset.state);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const { posts, longTasks } = await page.evaluate(() => window.__poolStart);
    const tasks = longTasks.filter((t) => t.start + t.ms >= from);
    const helperInits = posts.filter((p) => p.start >= from && p.restart);
    const containing = (p) => tasks.find((t) => p.start >= t.start && p.start <= t.start + t.ms);
    const startTask = helperInits.length ? containing(helperInits[0]) : null;
    return {
      state,
      workers,
      longTasks: tasks.length,
      longTaskMs: tasks.reduce((n, t) => n + t.ms, 0),
      longestMs: tasks.reduce((n, t) => Math.max(n, t.ms), 0),
      startTaskMs: startTask ? startTask.ms : 0, // 0: the 'init' posts ran in no task over 50 ms
      initPostMs: helperInits.reduce((n, p) => n + p.ms, 0),
      initPosts: helperInits.length,
      initLargestBuffer: helperInits.reduce((n, p) => Math.max(n, p.largestBuffer), 0),
      initBlob: helperInits.some((p) => p.blob),
    };
  } finally {
    await context.close();
  }
}

function line(r) {
  return `${r.state}, ${r.workers} workers; the task that posted the helpers' init: ${r.startTaskMs ? ms(r.startTaskMs) : 'under 50 ms'}, `
    + `of it ${r.initPosts} init postMessage() ${ms(r.initPostMs)} (largest ArrayBuffer ${MB(r.initLargestBuffer)}${r.initBlob ? ', model as a Blob' : ''}); `
    + `long tasks to the end: ${r.longTasks}, ${ms(r.longTaskMs)} in all, longest ${ms(r.longestMs)}`;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const builds = [{ name: 'this build', dist: args.dist }];
  args.baseline.forEach((dist, i) => builds.push({ name: i ? `baseline ${i + 1} (${path.basename(dist)})` : 'baseline', dist }));
  for (const b of builds) {
    if (!existsSync(path.join(b.dist, 'index.html'))) throw new Error(`${b.dist} has no index.html: build it with scripts/build-web.mjs`);
    b.server = await startServer({ root: b.dist });
    b.runs = [];
  }
  const text = sampleText(args.sentences);
  const { launchChromium } = await import('../tests/web/_helpers.mjs');
  const browser = await launchChromium();
  const loads = [loadavg()[0]];
  console.log(`Chromium ${browser.version()}, CPU throttled ${args.throttle}x, ${cpus().length} CPUs (${cpus()[0].model}), ${args.sentences} flores-dev sentences (${text.length} chars) pasted into the demo page; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  try {
    for (let round = 0; round < args.rounds; round++) {
      for (const b of round % 2 ? [...builds].reverse() : builds) {
        const r = await run(browser, b, args, text);
        b.runs.push(r);
        loads.push(loadavg()[0]);
        console.log(`${b.name}, round ${round + 1}: ${line(r)}`);
      }
    }
  } finally {
    await browser.close();
    for (const b of builds) await b.server.close();
  }
  const report = { chromium: browser.version(), throttle: args.throttle, sentences: args.sentences, loadAverage1m: { min: Math.min(...loads), max: Math.max(...loads) }, builds: {} };
  console.log(`\nMedians (load average over the run ${report.loadAverage1m.min.toFixed(2)}–${report.loadAverage1m.max.toFixed(2)} on ${cpus().length} CPUs):`);
  for (const b of builds) {
    const keys = ['startTaskMs', 'initPostMs', 'longTaskMs', 'longestMs', 'longTasks', 'initLargestBuffer'];
    const m = Object.fromEntries(keys.map((k) => [k, median(b.runs.map((r) => r[k]))]));
    report.builds[b.name] = { ...m, runs: b.runs };
    console.log(`  ${b.name}: the task that posted the helpers' init ${ms(m.startTaskMs)} (0: under 50 ms), init postMessage() ${ms(m.initPostMs)}, `
      + `largest ArrayBuffer in an init ${MB(m.initLargestBuffer)}; long tasks ${m.longTasks}, ${ms(m.longTaskMs)} in all, longest ${ms(m.longestMs)}`);
  }
  if (args.json) writeFileSync(args.json, JSON.stringify(report, null, 2));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
