#!/usr/bin/env node
/**
 * Long unbroken input through the JS module in Node (worker thread, the real WASM engine and the
 * shipped model): text of words with no punctuation and no newline, which protocol.js's planChunks
 * has to cut at spaces. Prints the time, the engine calls (chunks) and the largest one, and the
 * worker's WebAssembly heap before and after (it only grows, so "after" is its peak); with
 * --abort, also how fast a request queued behind an aborted long one is answered.
 *
 *   node scripts/bench-long-input.mjs [--chars 1000000] [--beam 1] [--alignments] [--no-spaces] [--abort [--repeat 5]]
 *
 * --no-spaces: one "word" of --chars characters (cut between characters instead).
 * --abort: then abort a long request (beam 4) after its first chunk, --repeat times, and print how
 * long the worker took to be ready again (the restart) and to answer a short request queued behind.
 */
import { Translator } from '../web/translator.js';

const args = process.argv.slice(2);
const flag = (name) => args.includes(`--${name}`);
const value = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const chars = value('chars', 1000000);
const beam = value('beam', 1);
const alignments = flag('alignments');
const MiB = (b) => (b == null ? 'n/a' : `${(b / 2 ** 20).toFixed(1)} MiB`);

function unbroken(n) {
  if (flag('no-spaces')) return 'Donaudampfschifffahrtsgesellschaftskapitänsmütze'.repeat(Math.ceil(n / 48)).slice(0, n);
  const words = 'the house is small and the old cat sleeps on a warm red chair near my window while it rains'.split(' ');
  let s = '';
  for (let i = 0; s.length < n; i++) s += (s ? ' ' : '') + words[i % words.length];
  return s.slice(0, n).trimEnd();
}

const t0 = performance.now();
const t = await Translator.create({ from: 'en', to: 'de' });
console.log(`start: ${Math.round(performance.now() - t0)} ms`);
try {
  const before = (await t.memory()).wasmBytes;
  const input = unbroken(chars);
  let chunks = 0;
  let largest = 0;
  let first = 0;
  const started = performance.now();
  const r = await t.translate(input, {
    beam,
    alignments,
    onProgress: (p) => {
      chunks += 1;
      largest = Math.max(largest, p.range[1] - p.range[0]);
      if (!first) first = performance.now() - started;
      if (chunks % 100 === 0) console.log(`  ${chunks} chunks, ${p.done} of ${p.total} chars, ${Math.round((performance.now() - started) / 1000)} s`);
    },
  });
  const ms = performance.now() - started;
  console.log(`input: ${input.length} chars, beam ${beam}, alignments ${alignments}`);
  console.log(`time: ${(ms / 1000).toFixed(1)} s (${Math.round(input.length / (ms / 1000))} chars/s), first progress after ${Math.round(first)} ms`);
  console.log(`chunks: ${r.stats.chunks} engine calls (progress reports: ${chunks}), largest ${largest} chars`);
  console.log(`sentences: ${r.sentences.length}, target tokens: ${r.stats.targetTokens}, output ${r.text.length} chars`);
  console.log(`WebAssembly heap: ${MiB(before)} before, ${MiB(r.stats.wasmHeapBytes)} peak (after the request)`);
  const after = await t.memory();
  console.log(`worker restarts: ${t.restarts}; heap now ${MiB(after.wasmBytes)}`);

  if (flag('abort')) {
    // Abort a long request after its first chunk; time the restart and the short request behind it.
    const ready = [];
    const answered = [];
    let text = '';
    for (let i = 0; i < value('repeat', 1); i++) {
      const ac = new AbortController();
      let abortedAt = 0;
      const long = t.translate(unbroken(30000), { beam: 4, signal: ac.signal, onProgress: () => { if (!abortedAt) { abortedAt = performance.now(); ac.abort(); } } });
      await long.catch((e) => { if (e.name !== 'AbortError') throw e; });
      let readyAt = 0;
      const poll = setInterval(() => { if (!readyAt && t.ready) readyAt = performance.now(); }, 1);
      text = (await t.translate('The house is small.', { beam: 4 })).text;
      clearInterval(poll);
      const done = performance.now();
      ready.push((readyAt || done) - abortedAt);
      answered.push(done - abortedAt);
    }
    const summary = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return `median ${Math.round(s[Math.floor(s.length / 2)])} ms (${Math.round(s[0])}–${Math.round(s.at(-1))}, ${s.length} runs)`;
    };
    console.log(`abort: worker ready again after ${summary(ready)}; the short request queued behind it answered after ${summary(answered)} ("${text}")`);
    console.log(`worker restarts: ${t.restarts}`);
  }
} finally {
  t.dispose();
}
