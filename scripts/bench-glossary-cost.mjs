#!/usr/bin/env node
/**
 * What a glossary costs as the text grows, and against another build (e.g. one from before a
 * change): finding the terms must grow about linearly with the text (8x the text: about 8x the
 * time), and must not fold each of a large glossary's terms again for every sentence.
 *
 * `build/nmt bench` (one translate() call on the whole text) with the test fixture
 * tests/fixtures/tiny.nmt, whose decoding is cheap, so the time is mostly reading the text:
 *   - one term repeated (`--glossary` { invoice: Rechnung }) on one line of n and 8n characters:
 *     before 2026-11-29 each match was checked against every match taken before it (quadratic);
 *   - 10,000 terms on sentences of n and 8n characters: before, every term was folded again for
 *     every sentence.
 * Printed: the least time of translate() over --rounds runs, per build, and the ratios.
 *
 *   node scripts/bench-glossary-cost.mjs [--chars 64000] [--rounds 3] [--model tests/fixtures/tiny.nmt]
 *                                        [--nmt build/nmt] [--before OTHER_NMT]
 *
 * Needs build/nmt (bash scripts/build.sh).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { value } from './_args.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nmt = path.resolve(ROOT, value('nmt', 'build/nmt'));
const before = value('before', '') && path.resolve(ROOT, value('before', ''));
const model = path.resolve(ROOT, value('model', 'tests/fixtures/tiny.nmt'));
const chars = Number(value('chars', '64000'));
const rounds = Number(value('rounds', '3'));

for (const file of [nmt, model, ...(before ? [before] : [])]) {
  if (!existsSync(file)) {
    console.error(`bench-glossary-cost: ${file} is missing (build/nmt: bash scripts/build.sh).`);
    process.exit(2);
  }
}

const scratch = mkdtempSync(path.join(tmpdir(), 'bench-glossary-cost-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));

// The least seconds of translate() over `rounds` runs of `binary` on `input` with `glossary` (TSV).
function seconds(binary, input, glossary) {
  const inputFile = path.join(scratch, 'input.txt');
  const glossaryFile = path.join(scratch, 'glossary.tsv');
  writeFileSync(inputFile, input);
  writeFileSync(glossaryFile, glossary);
  let least = Infinity;
  for (let i = 0; i < rounds; i++) {
    const r = spawnSync(binary, ['bench', '--model', model, '--input', inputFile, '--beam', '1', '--glossary', glossaryFile],
      { encoding: 'utf8' });
    const s = /sentences\s+\d+ in ([\d.]+) s/.exec(r.stdout);
    if (r.status !== 0 || !s) throw new Error(`nmt bench failed (${r.status}): ${(r.stderr || r.stdout).slice(0, 300)}`);
    least = Math.min(least, Number(s[1]));
  }
  return least;
}

const cut = (part, n) => part.repeat(Math.ceil(n / part.length)).slice(0, n);
const manyTerms = Array.from({ length: 10000 }, (_, i) => `term${i.toString(36)}x\tBegriff${i}`).join('\n') + '\n';
const cases = {
  'one term repeated on one line': { glossary: 'invoice\tRechnung\n', text: (n) => cut('invoice ', n) + '\n' },
  '10,000 terms, sentences': {
    glossary: manyTerms,
    text: (n) => cut('Please send the term1x and the termzzx to the office today. ', n) + '\n',
  },
};

const ratio = (a, b) => (b > 0 ? `${(a / b).toFixed(1)}x` : 'n/a');
const builds = before ? [['before', before], ['now', nmt]] : [['now', nmt]];
console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`nmt bench --model ${path.relative(ROOT, model)} --beam 1 --glossary ..., least of ${rounds} runs`);
for (const [name, { glossary, text }] of Object.entries(cases)) {
  const times = {};
  for (const [build, binary] of builds) {
    const short = seconds(binary, text(chars), glossary);
    const long = seconds(binary, text(8 * chars), glossary);
    times[build] = long;
    console.log(`${name} (${build}: ${path.relative(ROOT, binary)}): ${chars} chars ${short.toFixed(3)} s, ` +
      `${8 * chars} chars ${long.toFixed(3)} s; 8n/n ${ratio(long, short)}`);
  }
  if (before) console.log(`${name}: ${8 * chars} chars, before/now ${ratio(times.before, times.now)}`);
}
console.log('\n(8n/n: linear about 8x, quadratic about 64x)');
