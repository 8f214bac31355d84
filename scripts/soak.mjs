#!/usr/bin/env node
/**
 * Soak test: many mixed requests through the JS module in Node (worker thread, the real WASM
 * engine, the shipped models or the fixture), printing the memory curve and a verdict.
 *
 *   node scripts/soak.mjs [--requests 10000] [--every 500] [--seed 1] [--inflight 3] [--json FILE]
 *
 * The mix (seeded, so two runs send the same requests): ~70% short (a sentence or two; greedy or
 * beam 2-4), ~15% with alignments (a few sentences, sometimes all heads), ~5% long (2-4 kB, several
 * engine calls with progress, some with alignments), ~8% aborted (a long request aborted after a
 * random 0-60 ms or at its first progress report, which ends and restarts the worker; or one
 * aborted while still queued), ~2% streamed (translateStreaming, left early or read to the end).
 * Up to --inflight requests are outstanding at once, so requests also queue.
 *
 * Every --every requests it prints the process's RSS (the main thread and the worker thread share
 * the process, so this includes the worker's WebAssembly memory and JS heap), the worker's
 * WebAssembly memory and JS heap (translator.memory()), the main thread's JS heap, and the counts
 * so far. The verdict: after a warm-up (the first 10% of requests), the peak RSS of the second half
 * of the samples must not exceed the first half's by more than max(32 MiB, 10%), and the
 * WebAssembly memory's second-half peak must stay within the first half's plus 16 MiB; exit code 1
 * otherwise (or when a request failed).
 */
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Translator } from '../web/translator.js';

const args = process.argv.slice(2);
const value = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const REQUESTS = Number(value('requests', 10000));
const EVERY = Number(value('every', 500));
const INFLIGHT = Number(value('inflight', 3));
const JSON_OUT = value('json', null);
let seed = Number(value('seed', 1)) >>> 0 || 1;
// A full GC before each sample (not --expose-gc on the command line: worker threads inherit execArgv
// and refuse that flag), so the main thread's JS heap is read without garbage in it.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');
const MiB = (b) => (b == null ? 'n/a' : (b / 2 ** 20).toFixed(1));

/** xorshift32: the same requests every run with the same seed. */
function random() {
  seed ^= seed << 13; seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5; seed >>>= 0;
  return seed / 2 ** 32;
}
const pick = (a) => a[Math.floor(random() * a.length)];

const SENTENCES = [
  'The house is small.', 'My sister lives in Berlin.', 'Where is the nearest train station?',
  'The weather is nice today, but it will rain tomorrow.', 'I would like a cup of coffee, please.',
  'The committee approved the new budget after a long discussion.', 'Can you help me?',
  'He reads a book every evening before he goes to sleep.', 'We are going to the museum on Sunday.',
  'The children played in the garden until it got dark.', 'Thank you very much!',
  'The price of the tickets has risen by ten percent since last year.', 'Is this seat free?',
  'Dr. Smith arrived at 5 p.m. on 3 October.', 'She said: "I don\'t know."', 'Grüße aus München 😀.',
];
const sentences = (n) => Array.from({ length: n }, () => pick(SENTENCES)).join(' ');
function longText(chars) {
  let s = '';
  while (s.length < chars) s += sentences(4) + (random() < 0.3 ? '\n\n' : ' ');
  return s;
}

const t0 = performance.now();
const translator = await Translator.create({ from: 'en', to: 'de' });
console.log(`soak: ${REQUESTS} requests, model ${translator.info.url || ''}, started in ${Math.round(performance.now() - t0)} ms`);

const counts = { short: 0, alignments: 0, long: 0, aborted: 0, abortedQueued: 0, streamed: 0, errors: 0, abortRejects: 0 };
const samples = [];
const isAbort = (e) => e && e.name === 'AbortError';

async function one(i) {
  const r = random();
  if (r < 0.70) {
    counts.short += 1;
    const res = await translator.translate(sentences(1 + Math.floor(random() * 2)), { beam: pick([1, 1, 2, 4]), alignments: false });
    if (!res.text) throw new Error('empty translation');
  } else if (r < 0.85) {
    counts.alignments += 1;
    const res = await translator.translate(sentences(2 + Math.floor(random() * 3)), { beam: pick([1, 4]), alignments: true, allHeads: random() < 0.2 });
    if (!res.sentences[0].wordAlignments) throw new Error('no alignments');
  } else if (r < 0.90) {
    counts.long += 1;
    await translator.translate(longText(2000 + random() * 2000), { beam: pick([1, 2]), alignments: random() < 0.3, onProgress: () => {} });
  } else if (r < 0.98) {
    const controller = new AbortController();
    const queuedOnly = random() < 0.25;
    if (queuedOnly) counts.abortedQueued += 1; else counts.aborted += 1;
    const p = translator.translate(longText(2000 + random() * 4000), {
      beam: pick([1, 4]), alignments: random() < 0.5, signal: controller.signal,
      onProgress: () => { if (random() < 0.5) controller.abort(); },
    });
    if (queuedOnly) controller.abort();
    else setTimeout(() => controller.abort(), random() * 60);
    try {
      await p;
    } catch (e) {
      if (!isAbort(e)) throw e;
      counts.abortRejects += 1;
    }
  } else {
    counts.streamed += 1;
    const controller = new AbortController();
    const leaveEarly = random() < 0.5;
    try {
      for await (const s of translator.translateStreaming(longText(1500 + random() * 1500), { beam: 1, alignments: true, signal: controller.signal })) {
        if (!s.target && s.target !== '') throw new Error('bad sentence');
        if (leaveEarly) break;
      }
    } catch (e) {
      if (!isAbort(e)) throw e;
    }
  }
}

async function sample(done) {
  gc();
  let m = {};
  try {
    m = await translator.memory();
  } catch (e) {
    // (a helper ended by an abort while it answered: the next sample has it)
    console.log(`memory(): ${e && e.code ? `${e.code}: ` : ''}${e && e.message ? e.message : e}`);
  }
  const s = {
    requests: done, seconds: (performance.now() - t0) / 1000, rss: process.memoryUsage().rss,
    wasm: m.wasmBytes, workerHeap: m.jsHeapBytes, mainHeap: process.memoryUsage().heapUsed,
  };
  samples.push(s);
  console.log(`${String(done).padStart(6)} req  ${s.seconds.toFixed(0).padStart(5)} s  RSS ${MiB(s.rss).padStart(7)} MiB  ` +
    `WASM ${MiB(s.wasm).padStart(6)} MiB  worker JS ${MiB(s.workerHeap).padStart(6)} MiB  main JS ${MiB(s.mainHeap).padStart(6)} MiB  ` +
    `(short ${counts.short}, align ${counts.alignments}, long ${counts.long}, aborted ${counts.aborted}+${counts.abortedQueued} queued, streamed ${counts.streamed}, errors ${counts.errors})`);
}

await sample(0);
let next = 0;
let done = 0;
const failures = [];
async function lane() {
  while (next < REQUESTS) {
    const i = next++;
    try {
      await one(i);
    } catch (e) {
      counts.errors += 1;
      if (failures.length < 10) failures.push(`request ${i}: ${e && e.code ? `${e.code}: ` : ''}${e && e.message ? e.message : e}`);
    }
    done += 1;
    if (done % EVERY === 0) await sample(done);
  }
}
await Promise.all(Array.from({ length: INFLIGHT }, lane));
if (done % EVERY !== 0) await sample(done);
translator.dispose();

// The verdict. RSS is a sawtooth (pool helpers start for long inputs and end after a minute idle;
// an abort replaces a worker), so the halves after warm-up are compared by their peaks.
const warm = samples.filter((s) => s.requests >= REQUESTS * 0.1);
const half = Math.ceil(warm.length / 2);
const peak = (a) => Math.max(...a.map((s) => s.rss));
const rssStart = peak(warm.slice(0, half)), rssEnd = peak(warm.slice(half));
const rssGrowth = rssEnd - rssStart;
const rssAllowed = Math.max(32 * 2 ** 20, 0.1 * rssStart);
const wasmPeak = (a) => Math.max(...a.map((s) => s.wasm || 0));
const wasmWarm = wasmPeak(warm.slice(0, half)), wasmMax = wasmPeak(warm.slice(half));
const flat = rssGrowth <= rssAllowed && wasmMax <= wasmWarm + 16 * 2 ** 20;
console.log(`\npeak RSS after warm-up, first half ${MiB(rssStart)} MiB, second half ${MiB(rssEnd)} MiB (growth ${MiB(rssGrowth)} MiB, allowed ${MiB(rssAllowed)}); ` +
  `peak RSS ${MiB(Math.max(...samples.map((s) => s.rss)))} MiB; WASM memory peak ${MiB(wasmWarm)} MiB in the first half, ${MiB(wasmMax)} MiB in the second`);
console.log(`requests: ${done} in ${((performance.now() - t0) / 1000).toFixed(0)} s; ${JSON.stringify(counts)}`);
if (failures.length) console.log(`failures:\n  ${failures.join('\n  ')}`);
console.log(`verdict: memory ${flat ? 'stays FLAT' : 'GROWS'}${counts.errors ? `, ${counts.errors} requests failed` : ''}`);
if (JSON_OUT) writeFileSync(JSON_OUT, JSON.stringify({ requests: done, counts, samples, rssGrowth, flat }, null, 1));
process.exit(flat && !counts.errors ? 0 : 1);
