#!/usr/bin/env node
/**
 * Time to the first translation in Chromium, on the local server (scripts/serve.mjs), and where it
 * goes: opens bench.html (n=0: Translator.create(), then one sentence, beam 4 with alignments) in a
 * fresh browser profile ("cold": nothing cached; the service worker installs first, the model comes
 * from the server) and then reloads it (the model cached by the service worker), and prints, per
 * run, Translator.create() → first translated sentence and the start's phases (worker, manifest,
 * engine compile, model download/read, SHA-256, instantiate, model load: the module's
 * `translator.timings.startup`).
 *
 * With --baseline DIR (a dist/ built from an older commit; repeatable), the same runs go to that
 * build too, interleaved with this one in the same browser (A, B, B, A, ...), each on its own
 * origin, so they are measured under the same load. Prints medians and the load average.
 *
 *   node scripts/bench-startup.mjs [--dist dist] [--baseline DIR] [--rounds 5] [--cached 3] [--dir en-de] [--json out.json]
 *
 * A baseline of the code before the start-up work:
 *   git worktree add /tmp/before <commit> && node /tmp/before/scripts/build-web.mjs --out /tmp/dist-before \
 *     --engine build-wasm --manifest weights/manifest.json
 */
import { existsSync, writeFileSync } from 'node:fs';
import { loadavg, cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './serve.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function parseArgs(argv) {
  const a = { dist: path.join(ROOT, 'dist'), baseline: [], rounds: 5, cached: 3, dir: 'en-de', json: null, extra: '' };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--dist') a.dist = path.resolve(v());
    else if (k === '--baseline') a.baseline.push(path.resolve(v())); // repeatable: each its own build
    else if (k === '--rounds') a.rounds = Number(v());
    else if (k === '--cached') a.cached = Number(v());
    else if (k === '--dir') a.dir = v();
    else if (k === '--json') a.json = path.resolve(v());
    else if (k === '--params') a.extra = `&${v()}`; // extra bench.html parameters for this build (e.g. warmup=0)
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((x, y) => x - y);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (n) => (n === null || n === undefined ? 'n/a' : String(Math.round(n)));
const PHASES = ['workerMs', 'manifestMs', 'compileMs', 'engineScriptMs', 'downloadMs', 'sha256Ms', 'instantiateMs', 'modelLoadMs'];

function line(r) {
  const s = r.startup;
  const phases = s ? PHASES.map((k) => `${k.replace(/Ms$/, '')} ${fmt(s[k])}`).join(', ') + ` (compile: ${s.compiled}, model from ${s.source}; ready at ${fmt(s.totalMs)})` : '(no breakdown: this build has no translator.timings)';
  return `create→first ${fmt(r.createToFirst)} ms = create ${fmt(r.createMs)} + first sentence ${fmt(r.firstSentenceMs)}; ${phases}`;
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const [from, to] = args.dir.split('-');
  const builds = [{ name: 'this build', dist: args.dist, params: args.extra }];
  args.baseline.forEach((dist, i) => builds.push({ name: i ? `baseline ${i + 1} (${path.basename(dist)})` : 'baseline', dist, params: '' }));
  for (const b of builds) {
    if (!existsSync(path.join(b.dist, 'bench.html'))) throw new Error(`${b.dist} has no bench.html: build it with scripts/build-web.mjs`);
    b.server = await startServer({ root: b.dist });
    b.runs = { cold: [], cached: [] };
  }
  const { launchChromium } = await import('../tests/web/_helpers.mjs');
  const browser = await launchChromium();
  const loads = [loadavg()[0]];
  console.log(`Chromium ${browser.version()}, ${cpus().length} CPUs (${cpus()[0].model}), ${from}→${to}, load average at start ${loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  try {
    for (let round = 0; round < args.rounds; round++) {
      const order = round % 2 ? [...builds].reverse() : builds;
      for (const b of order) {
        const context = await browser.newContext();
        const page = await context.newPage();
        const open = async (reload) => {
          if (reload) await page.reload();
          else await page.goto(`${b.server.url}bench.html?from=${from}&to=${to}&beam=4&n=0${b.params}`);
          await page.waitForSelector('body[data-done="true"]', { timeout: 120000 });
          const r = await page.evaluate(() => window.__bench);
          if (r.error) throw new Error(`${b.name}: ${r.error}`);
          r.createToFirst = r.createToFirstMs ?? r.createMs + r.firstSentenceMs;
          return r;
        };
        const cold = await open(false);
        b.runs.cold.push(cold);
        console.log(`${b.name}, round ${round + 1}, cold:   ${line(cold)}`);
        for (let i = 0; i < args.cached; i++) {
          const cached = await open(true);
          b.runs.cached.push(cached);
          console.log(`${b.name}, round ${round + 1}, cached: ${line(cached)}`);
        }
        await context.close();
        loads.push(loadavg()[0]);
      }
    }
  } finally {
    await browser.close();
    for (const b of builds) await b.server.close();
  }
  const report = { chromium: browser.version(), direction: args.dir, loadAverage1m: { min: Math.min(...loads), max: Math.max(...loads) }, builds: {} };
  console.log(`\nMedians (load average over the run: ${report.loadAverage1m.min.toFixed(2)}–${report.loadAverage1m.max.toFixed(2)} on ${cpus().length} CPUs):`);
  for (const b of builds) {
    const summary = {};
    for (const kind of ['cold', 'cached']) {
      const runs = b.runs[kind];
      const m = { runs: runs.length, createToFirstMs: median(runs.map((r) => r.createToFirst)), createMs: median(runs.map((r) => r.createMs)), firstSentenceMs: median(runs.map((r) => r.firstSentenceMs)) };
      if (runs.every((r) => r.startup)) for (const k of PHASES) m[k] = median(runs.map((r) => r.startup[k]));
      summary[kind] = m;
      const phases = m.workerMs !== undefined ? `; ${PHASES.map((k) => `${k.replace(/Ms$/, '')} ${fmt(m[k])}`).join(', ')}` : '';
      console.log(`  ${b.name} ${kind.padEnd(6)} create→first sentence ${fmt(m.createToFirstMs)} ms (create ${fmt(m.createMs)}, first sentence ${fmt(m.firstSentenceMs)})${phases}`);
    }
    report.builds[b.name] = summary;
  }
  for (const b of builds.slice(1)) {
    for (const kind of ['cold', 'cached']) {
      const a = report.builds['this build'][kind].createToFirstMs;
      const z = report.builds[b.name][kind].createToFirstMs;
      console.log(`  ${kind}: this build ${fmt(a)} ms vs ${b.name} ${fmt(z)} ms (${(z / a).toFixed(2)}x as fast)`);
    }
  }
  if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
}

main().catch((e) => {
  console.error(`bench-startup: ${e.stack || e.message}`);
  process.exit(1);
});
