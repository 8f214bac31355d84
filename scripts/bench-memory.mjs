#!/usr/bin/env node
/**
 * Peak memory of a long document through the JS module in Node (worker threads, the real WASM
 * engine, the shipped en→de model, default options: beam 4, alignments on, workers one per core),
 * issue 50's two cases, and a normal translation for its time, each in a fresh process:
 *   normal 300 of flores-dev's English sentences, five a paragraph (~40 kB; not scaled)
 *   prose  1,000,000 characters of paragraphs (flores-dev's English sentences, five a paragraph, repeated)
 *   lines  100,000 short lines (tatoeba-dev's English sentences of at most 24 characters, repeated)
 *   copied 1,000,000 characters of lines the engine copies instead of translating (numbers, code,
 *          web addresses: '("1") ("2") 12.5 -- 33', '`ls -la /tmp`', 'https://example.org/a/b?c=1', repeated)
 *   copied-line  the same as one line (the lines joined by spaces): long units of copied text
 *   prose-line  the prose of `prose` as one line (its paragraphs joined by spaces): many sentences, no line break
 *   engine-line  the raw engine (build-wasm/engine.js in this process, no worker, no chunks: one
 *          translate() call, as an embedder of engine.js may make) on one 1,000,000-character line
 *          of numbers in brackets and quotes, copied text ('("1") ' repeated), without and with
 *          alignments: its WebAssembly memory (which only grows: the call's peak), the process's
 *          peak RSS, the JSON's length and the time; with --engine, the same run with that build
 *          too, and the ratios (this build / that one)
 *   engine-prose  the same raw engine call on the prose of `prose` as one line (translated text:
 *          each sentence's attention and word alignment in the result)
 * Printed per case: the process's peak RSS (main thread, workers and WebAssembly memory: all of
 * it), its RSS before the request, right after it, and once a next request could run (after a
 * request of recycleChars or more: the new worker loaded, the old ones ended), the sentences, the
 * time, the largest worker's WebAssembly memory (it only grows: its peak), and the main thread's
 * JavaScript heap with its ArrayBuffers: its peak while the request ran (sampled every 20 ms) and
 * what the result holds (after a full collection, the result kept, less the same before the
 * request); then the
 * same run once more reading
 * every field of every Sentence afterwards, which holds them all as JavaScript arrays as the module
 * did before results were packed (web/packed-sentences.js), in the main thread: the baseline, in
 * the same run. With --old REV, also the module as it was at git revision REV (its web/ folder, with
 * this checkout's engine and models), e.g. --old 18d4c2b, the last one before packing.
 *
 *   node scripts/bench-memory.mjs [--scale 0.1] [--case normal,prose,prose-line,lines,copied,copied-line,engine-line,engine-prose] [--no-baseline] [--old REV] [--beam 4] [--rounds 1] [--engine DIR]
 *
 * --scale shrinks both documents (0.1: 100 kB of prose, 10,000 lines) for a quick look. --engine
 * runs another build of the engine (DIR/engine.js and engine.wasm, e.g. a build folder of a change
 * to the engine) instead of build-wasm/.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { value, flag } from './_args.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MiB = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;

/** The English side of a dev set (tests/fixtures/dev/*.tsv: English, tab, German). */
const english = (file) => readFileSync(path.join(ROOT, 'tests/fixtures/dev', file), 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t')[0]);

function documentFor(kind, scale) {
  if (kind === 'normal') { // a normal translation, for its time: 300 sentences, five a paragraph (not scaled)
    const lines = english('flores-dev.en-de.tsv').slice(0, 300);
    return lines.map((l, i) => l + (i % 5 === 4 ? '\n\n' : ' ')).join('').trim();
  }
  if (kind === 'prose') {
    const lines = english('flores-dev.en-de.tsv');
    const chars = Math.round(1000000 * scale);
    let text = '';
    for (let i = 0; text.length < chars; i++) text += lines[i % lines.length] + (i % 5 === 4 ? '\n\n' : ' ');
    return text.slice(0, chars);
  }
  if (kind === 'prose-line') return documentFor('prose', scale).replace(/\s+/g, ' ');
  if (kind === 'copied' || kind === 'copied-line') {
    const lines = ['("1") ("2") 12.5 -- 33', '`ls -la /tmp` && `cat /etc/hosts`', 'https://example.org/a/b?c=1 https://example.com/x', '* * * | 42 | 3.14 | 2,718 |'];
    const chars = Math.round(1000000 * scale);
    let text = '';
    for (let i = 0; text.length < chars; i++) text += lines[i % lines.length] + (kind === 'copied' ? '\n' : ' ');
    return text.slice(0, chars);
  }
  const short = english('tatoeba-dev.en-de.tsv').filter((l) => l.length <= 24);
  return Array.from({ length: Math.round(100000 * scale) }, (_, i) => short[i % short.length]).join('\n');
}

/** One measurement, in this (fresh) process: prints a JSON line. */
async function child(kind, scale, readAll, beam, web, engine) {
  const { Translator } = await import(web ? path.join(web, 'web/translator.js') : '../web/translator.js');
  const text = documentFor(kind, scale);
  const t = await Translator.create({ from: 'en', to: 'de', ...(engine ? { engineUrl: pathToFileURL(path.resolve(engine, 'engine.js')) } : {}) });
  try {
    const rssBefore = process.memoryUsage().rss;
    // the JavaScript heap and the ArrayBuffers beside it (a packed result's blocks are typed arrays)
    const js = () => { const m = process.memoryUsage(); return m.heapUsed + m.arrayBuffers; };
    globalThis.gc();
    const heapBefore = js();
    let heapPeak = heapBefore;
    const sampler = setInterval(() => { heapPeak = Math.max(heapPeak, js()); }, 20);
    const started = performance.now();
    const r = await t.translate(text, beam ? { beam: Number(beam) } : {});
    const ms = performance.now() - started;
    if (readAll) {
      for (const s of r.sentences) for (const k of Object.keys(s)) void s[k]; // every field as JS arrays
    }
    clearInterval(sampler);
    heapPeak = Math.max(heapPeak, js());
    globalThis.keep = r; // (held to the end, as a caller would)
    globalThis.gc();
    const heapHeld = js() - heapBefore;
    const rssNow = process.memoryUsage().rss;
    // The next request waits for the recycle (recycleChars): the new worker loaded, the old ones gone.
    await t.memory();
    console.log(JSON.stringify({
      kind, chars: text.length, sentences: r.sentences.length, workers: r.stats.workers, ms, restarts: t.restarts,
      rssBefore, rssNow, rssSettled: process.memoryUsage().rss, peakRss: process.resourceUsage().maxRSS * 1024,
      wasm: r.stats.wasmHeapBytes, heapPeak, heapHeld,
    }));
  } finally {
    t.dispose();
  }
}

/** engine-line, in this (fresh) process: one raw translate() call of a build's engine; prints a JSON line. */
async function engineLineChild(scale, alignments, engineDir, kind) {
  const { createRequire } = await import('node:module');
  globalThis.require = createRequire(import.meta.url);
  globalThis.__dirname = engineDir;
  const { default: createEngine } = await import(pathToFileURL(path.join(engineDir, 'engine.js')).href);
  const Module = await createEngine({ wasmBinary: readFileSync(path.join(engineDir, 'engine.wasm')) });
  const t = new Module.Translator();
  const loadError = t.load(new Uint8Array(readFileSync(path.join(ROOT, 'weights/en-de/model.nmt'))));
  if (loadError) throw new Error(loadError);
  const part = '("1") ';
  const line = kind === 'engine-prose' ? documentFor('prose-line', scale)
    : part.repeat(Math.ceil(1000000 * scale / part.length)).slice(0, Math.round(1000000 * scale));
  const wasmBefore = Module.HEAPU8.length;
  const started = performance.now();
  const json = t.translate(line, JSON.stringify({ beam: 4, alignments }));
  const ms = performance.now() - started;
  const r = JSON.parse(json);
  if (!r.ok) throw new Error(r.error);
  console.log(JSON.stringify({
    chars: line.length, sentences: r.result.sentences.length, jsonChars: json.length, ms,
    wasmBefore, wasmAfter: Module.HEAPU8.length, peakRss: process.resourceUsage().maxRSS * 1024,
  }));
}

/** engine-line: each build's raw engine on the line, without and with alignments, each in a fresh process. */
function engineLine(scale, other, kind) {
  const builds = [['this build', path.join(ROOT, 'build-wasm')], ...(other ? [[other, path.resolve(other)]] : [])];
  for (const alignments of [false, true]) {
    const peaks = [];
    for (const [name, dir] of builds) {
      let out;
      try {
        out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--engine-line-child', dir, '--line', kind, '--scale', String(scale),
          ...(alignments ? ['--alignments'] : [])], { encoding: 'utf8', maxBuffer: 1 << 26, stdio: ['ignore', 'pipe', 'pipe'] });
      } catch (e) { // (e.g. a JSON longer than a JavaScript string can be)
        console.log(`${kind} ${alignments ? 'alignments' : 'text only '} ${name.padEnd(12)}: failed: ${String(e.stderr || e.message).trim().split('\n').pop()}`);
        continue;
      }
      const m = JSON.parse(out.trim().split('\n').pop());
      peaks.push(m);
      console.log(`${kind} ${alignments ? 'alignments' : 'text only '} ${name.padEnd(12)}: WebAssembly memory ${MiB(m.wasmBefore)} -> ${MiB(m.wasmAfter)}, ` +
        `peak RSS ${MiB(m.peakRss)}, JSON ${(m.jsonChars / 2 ** 20).toFixed(1)} MiB, ${m.chars} chars, ${m.sentences} sentences, ${(m.ms / 1000).toFixed(1)} s`);
    }
    if (peaks.length === builds.length && peaks.length > 1) {
      const [a, b] = peaks;
      console.log(`${kind} ${alignments ? 'alignments' : 'text only '} this build / ${builds[1][0]}: WebAssembly memory ${(a.wasmAfter / b.wasmAfter).toFixed(2)}x, ` +
        `peak RSS ${(a.peakRss / b.peakRss).toFixed(2)}x, JSON ${(a.jsonChars / b.jsonChars).toFixed(2)}x, time ${(a.ms / b.ms).toFixed(2)}x`);
    }
  }
}

if (flag('engine-line-child')) {
  await engineLineChild(Number(value('scale', 1)), flag('alignments'), value('engine-line-child'), value('line', 'engine-line'));
} else if (flag('child')) {
  await child(value('child'), Number(value('scale', 1)), flag('read-all'), value('beam', null), value('web', null), value('engine', null));
} else {
  const scale = Number(value('scale', 1));
  const beam = value('beam', null);
  const engine = value('engine', null);
  const rounds = Number(value('rounds', 1));
  const kinds = value('case', null) ? value('case').split(',') : ['normal', 'prose', 'lines'];
  console.log(`node ${process.version}, default options${beam ? ` but beam ${beam}` : ''}, scale ${scale}${engine ? `, the engine of ${engine}` : ''}`);
  let old = null;
  if (value('old', null)) { // the web/ folder of that revision, beside this checkout's engine and models
    old = mkdtempSync(path.join(tmpdir(), 'nmt-bench-old-'));
    execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${value('old')}" web | tar -x -C "${old}"`]);
    for (const d of ['build-wasm', 'weights']) symlinkSync(path.join(ROOT, d), path.join(old, d));
  }
  for (const kind of kinds) {
    if (kind === 'engine-line' || kind === 'engine-prose') {
      engineLine(scale, engine, kind);
      continue;
    }
    const runs = [['packed (default)', []]];
    if (!flag('no-baseline')) runs.push(['every field read', ['--read-all']]);
    if (old) runs.push([`web/ of ${value('old')}`, ['--web', old]]);
    const peaks = runs.map(() => []);
    const times = runs.map(() => []);
    for (let round = 0; round < rounds; round++) { // (rounds > 1: the runs take turns, so load changes hit them alike)
      for (const [i, [name, extra]] of runs.entries()) {
        const out = execFileSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--child', kind, '--scale', String(scale),
          ...extra, ...(beam ? ['--beam', beam] : []), ...(engine ? ['--engine', engine] : [])], { encoding: 'utf8', maxBuffer: 1 << 26 });
        const m = JSON.parse(out.trim().split('\n').pop());
        peaks[i].push(m.peakRss);
        times[i].push(m.ms);
        console.log(`${kind.padEnd(6)} ${name.padEnd(20)}: peak RSS ${MiB(m.peakRss)} ` +
          `(${MiB(m.rssBefore)} before the request, ${MiB(m.rssNow)} after, ${MiB(m.rssSettled)} once the next request could run` +
          `${m.restarts ? ', the worker replaced' : ''}), ${m.chars} chars, ${m.sentences} sentences, ` +
          `${m.workers} worker(s), ${(m.ms / 1000).toFixed(1)} s; WebAssembly memory ${m.wasm ? MiB(m.wasm) : '?'}, ` +
          `main-thread JS heap peak ${MiB(m.heapPeak)}, the result holds ${(m.heapHeld / 2 ** 20).toFixed(1)} MiB`);
      }
    }
    const median = (v) => [...v].sort((a, b) => a - b)[Math.floor((v.length - 1) / 2)];
    for (let i = 1; i < runs.length; i++) {
      console.log(`${kind.padEnd(6)} packed / ${runs[i][0]}: ${(median(peaks[0]) / median(peaks[i])).toFixed(2)}x peak RSS, ` +
        `${(median(times[0]) / median(times[i])).toFixed(2)}x time${rounds > 1 ? ` (medians of ${rounds} rounds)` : ''}`);
    }
  }
}
