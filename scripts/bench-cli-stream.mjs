#!/usr/bin/env node
/**
 * The native CLI on one very long line (issue 50): does `build/nmt` stream its output sentence by
 * sentence with flat memory, whatever the length of the line? A single line of prose (flores-dev's
 * English sentences joined by spaces, repeated: no line break anywhere) is piped through
 * `build/nmt --model weights/en-de/model.nmt --beam 1`; printed for each input size: the time to the
 * first output byte, the time until `--mb` MB of output (then the CLI is stopped: translating all of
 * 10 MB takes tens of minutes), its output rate, and the CLI's peak resident memory (VmHWM, read
 * from /proc while it runs). The small line is the baseline, in the same run: a CLI that streams
 * shows about the same first-byte time and memory for both.
 *
 *   node scripts/bench-cli-stream.mjs [--mb 0.1] [--sizes 10000,10000000] [--beam 1] [--model weights/en-de/model.nmt]
 *
 * Needs build/nmt (npm run build, or bash scripts/build.sh) and Linux's /proc.
 */
import { spawn } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { value } from './_args.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NMT = path.join(ROOT, 'build/nmt');
const model = path.resolve(ROOT, value('model', 'weights/en-de/model.nmt'));
const beam = value('beam', '1');
const stopAfter = Math.round(Number(value('mb', '0.1')) * 1e6); // output bytes
const sizes = value('sizes', '10000,10000000').split(',').map(Number);

for (const [file, what] of [[NMT, 'build/nmt (npm run build)'], [model, 'the model'], ['/proc/self/status', "Linux's /proc"]]) {
  if (!existsSync(file)) {
    console.error(`bench-cli-stream: ${file} is missing: ${what} is needed.`);
    process.exit(2);
  }
}

/** `bytes` bytes of English prose on one line (UTF-8; cut at a character, ending in a full stop). */
function oneLine(bytes) {
  const sentences = readFileSync(path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv'), 'utf8')
    .split('\n').filter(Boolean).map((l) => l.split('\t')[0].trim());
  const parts = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const s = sentences[i % sentences.length];
    parts.push(s);
    length += Buffer.byteLength(s) + 1;
  }
  let line = Buffer.from(parts.join(' '));
  if (line.length > bytes) line = Buffer.from(line.subarray(0, bytes).toString('utf8').replace(/\uFFFD$/, '').replace(/\s*\S*$/, '.'));
  return Buffer.concat([line, Buffer.from('\n')]);
}

/** Peak resident memory of a process so far (VmHWM), in bytes; 0 once it is gone. */
function peakRss(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** One run: the CLI on `input` until it has written `stopAfter` bytes or ended. */
function run(input) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(NMT, ['--model', model, '--beam', beam], { stdio: ['pipe', 'pipe', 'pipe'] });
    let firstByte = null;
    let out = 0;
    let peak = 0;
    let stoppedAt = null;
    let stderr = '';
    const poll = setInterval(() => { peak = Math.max(peak, peakRss(child.pid)); }, 100);
    child.stdout.on('data', (chunk) => {
      if (firstByte === null) firstByte = performance.now() - started;
      out += chunk.length;
      if (out >= stopAfter && stoppedAt === null) {
        stoppedAt = performance.now() - started;
        peak = Math.max(peak, peakRss(child.pid));
        child.kill('SIGTERM');
      }
    });
    child.stderr.on('data', (chunk) => { stderr += chunk; });
    child.stdin.on('error', () => {}); // (EPIPE once the CLI is stopped while reading)
    child.stdin.end(input);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      if (stoppedAt === null && code !== 0) {
        reject(new Error(`build/nmt exited with ${code ?? signal}: ${stderr.trim().slice(0, 300)}`));
        return;
      }
      resolve({ firstByte, out, ms: stoppedAt ?? performance.now() - started, stopped: stoppedAt !== null, peak });
    });
  });
}

const MB = (b) => (b / 1e6).toFixed(b < 1e5 ? 3 : 1);
console.log(`build/nmt --beam ${beam}, ${path.relative(ROOT, model)}; one line of prose each; stopped after ${MB(stopAfter)} MB of output; ` +
  `${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`);
const results = [];
for (const size of sizes) {
  const input = oneLine(size);
  const r = await run(input);
  r.bytes = input.length;
  results.push(r);
  console.log(`${MB(input.length).padStart(7)} MB line: first output byte after ${(r.firstByte / 1000).toFixed(2)} s; ` +
    `${MB(r.out)} MB out in ${(r.ms / 1000).toFixed(1)} s${r.stopped ? ' (stopped there)' : ' (all of it)'}, ` +
    `${(r.out / 1000 / (r.ms / 1000)).toFixed(1)} kB/s; peak RSS ${(r.peak / 2 ** 20).toFixed(1)} MiB`);
}
const [base, ...rest] = results;
for (let i = 0; i < rest.length; i++) {
  console.log(`${MB(rest[i].bytes)} MB line / ${MB(base.bytes)} MB line: first byte ${(rest[i].firstByte / base.firstByte).toFixed(2)}x, ` +
    `peak RSS ${(rest[i].peak / base.peak).toFixed(2)}x`);
}
console.log(`load after: ${loadavg()[0].toFixed(1)}`);
