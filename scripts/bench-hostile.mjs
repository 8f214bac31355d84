#!/usr/bin/env node
/**
 * What hostile input costs through the JS module (Node, worker threads, the real WASM engine), each
 * at n and 8n characters in a fresh process, so that the ratio shows how the cost grows (about 8x:
 * linear; about 64x: quadratic):
 *   sentences  many tiny sentences ('Go. ' repeated)
 *   word       one word of n letters, no space in it (the goal: a 5 MB one, --chars 625000)
 *   newlines   nothing but line breaks (100,000 of them at --chars 12500)
 *   brackets   brackets nested n/2 deep around one word
 *   quotes     quotation marks of four kinds nested n/2 deep around one word
 *   unknown    one run of characters the vocabulary lacks (CJK and emoji, no space): one unknown
 *              piece for the model, but each character a word of the word alignment
 *   glossary   a glossary of 50,000 terms, over the engine's limit of 10,000: a clear error, at once
 * Printed per case and size: the time of translate(), the process's peak RSS, the largest
 * worker's WebAssembly memory, and the error if it failed; then the ratios. The default model is
 * the test fixture (tests/fixtures/tiny.nmt, random weights: cheap to decode, so the time is the
 * text's handling); --shipped uses weights/manifest.json's.
 *
 *   node scripts/bench-hostile.mjs [--chars 12500] [--case sentences,word,newlines,brackets,quotes,unknown,glossary] [--shipped] [--timeout 600] [--engine DIR]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import path from 'node:path';
import { value, flag } from './_args.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MiB = (bytes) => `${Math.round(bytes / 2 ** 20)} MiB`;

function input(kind, n) {
  if (kind === 'sentences') return 'Go. '.repeat(Math.ceil(n / 4)).slice(0, n);
  if (kind === 'word') return 'a'.repeat(n);
  if (kind === 'newlines') return '\n'.repeat(n);
  if (kind === 'unknown') return '\u4F60\u597D\u{1F600}'.repeat(Math.ceil(n / 4)).slice(0, n);
  if (kind === 'brackets') return `${'('.repeat(n / 2)}word${')'.repeat(n / 2)}`;
  if (kind === 'quotes') {
    const open = ['"', '\u201C', '\u00AB', '('];
    const close = ['"', '\u201D', '\u00BB', ')'];
    const half = Math.floor(n / 2);
    let a = '';
    let b = '';
    for (let i = 0; i < half; i++) {
      a += open[i % 4];
      b = close[i % 4] + b;
    }
    return `${a}word${b}`;
  }
  return 'The notice period is short.';
}

async function child(kind, n, shipped, engine) {
  const { Translator } = await import('../web/translator.js');
  const manifestUrl = shipped ? undefined : pathToFileURL(path.join(ROOT, 'tests/fixtures/web-manifest.json'));
  const t = await Translator.create({ from: 'en', to: 'de', ...(manifestUrl ? { manifestUrl } : {}),
    ...(engine ? { engineUrl: pathToFileURL(path.resolve(engine, 'engine.js')) } : {}) });
  const text = input(kind, n);
  const options = {};
  if (kind === 'glossary') options.glossary = Object.fromEntries(Array.from({ length: 50000 }, (_, i) => [`term${i}`, `Begriff${i}`]));
  const started = performance.now();
  let error = null;
  let r = null;
  try {
    r = await t.translate(text, options);
  } catch (e) {
    error = `${e.code || e.name}: ${e.message}`.slice(0, 160);
  }
  const ms = performance.now() - started;
  console.log(JSON.stringify({ chars: text.length, ms, error, sentences: r ? r.sentences.length : 0, outChars: r ? r.text.length : 0,
    wasm: r ? r.stats.wasmHeapBytes : null, peakRss: process.resourceUsage().maxRSS * 1024 }));
  t.dispose();
}

if (flag('child')) {
  await child(value('child'), Number(value('n')), flag('shipped'), value('engine', null));
} else {
  const n = Number(value('chars', 12500));
  const kinds = value('case', 'sentences,word,newlines,brackets,quotes,unknown,glossary').split(',');
  const timeout = Number(value('timeout', 600)) * 1000;
  console.log(`node ${process.version}, ${flag('shipped') ? 'the shipped model' : 'the fixture model'}, n = ${n}`);
  for (const kind of kinds) {
    const runs = [];
    for (const size of kind === 'glossary' ? [n] : [n, 8 * n]) {
      let m;
      try {
        const out = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', kind, '--n', String(size),
          ...(flag('shipped') ? ['--shipped'] : []), ...(value('engine', null) ? ['--engine', value('engine')] : [])],
        { encoding: 'utf8', timeout, maxBuffer: 1 << 24, stdio: ['ignore', 'pipe', 'pipe'] });
        m = JSON.parse(out.trim().split('\n').pop());
      } catch (e) {
        m = { chars: size, failed: e.signal === 'SIGTERM' ? `timed out after ${timeout / 1000} s` : String(e.stderr || e.message).trim().split('\n').pop() };
      }
      runs.push(m);
      console.log(`${kind.padEnd(9)} ${String(m.chars).padStart(8)} chars: ` + (m.failed ? `FAILED: ${m.failed}` :
        `${(m.ms / 1000).toFixed(2)} s, peak RSS ${MiB(m.peakRss)}, WebAssembly ${m.wasm ? MiB(m.wasm) : '-'}, ` +
        `${m.sentences} sentences, ${m.outChars} chars out${m.error ? `, error: ${m.error}` : ''}`));
    }
    if (runs.length === 2 && !runs[0].failed && !runs[1].failed) {
      console.log(`${kind.padEnd(9)} 8x the input: ${(runs[1].ms / runs[0].ms).toFixed(1)}x the time, ${(runs[1].peakRss / runs[0].peakRss).toFixed(2)}x the peak RSS`);
    }
  }
}
