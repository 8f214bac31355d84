#!/usr/bin/env node
/**
 * What a long input costs, against the same input eight times shorter, in one run: the cost must
 * grow about linearly (8x the input: about 8x the time), not quadratically (about 64x).
 *
 * 1. The engine (`build/nmt bench`: one translate() call on the whole text; the CLI's usual way
 *    reads stdin in blocks of 8 kB, which bounds what a line costs) on one unbroken line (no sentence
 *    end) of n and 8n characters: dots (nothing to translate, copied), numbers in brackets and
 *    quotes, e-mail addresses, and web addresses, code and e-mail addresses close together (each
 *    masked; before the commit that added that line, adding each masked span looked through all
 *    those before it). The line is cut into many chunks; before 1b036f7 each chunk checked the
 *    whole sentence again and copied all its masked spans. The default model is
 *    the test fixture tests/fixtures/tiny.nmt, whose decoding is cheap, so the time is mostly
 *    reading the line into units. Printed: the least time of translate() over --rounds runs (as
 *    `nmt bench` prints it, to 10 ms) and the process's peak resident memory (the largest).
 * 2. HTML placement (web/html/segment.js) with the tests' stand-in translator (every word kept, no
 *    engine), in all and less the stand-in's own time: a paragraph of --html-count and 8x as many
 *    links (one a sentence), <i> words in one sentence, and <span>s around the letters of one word.
 *    Before 129bb4c each element was checked against every one placed before it. Printed: the least
 *    processor time of --rounds runs (after one unmeasured run, which warms the JIT up).
 *
 *   node scripts/bench-input-cost.mjs [--chars 128000] [--html-count 500] [--rounds 3]
 *                                     [--model tests/fixtures/tiny.nmt] [--nmt build/nmt] [--web web]
 *
 * --nmt, --web: another build's CLI or another web/ tree (e.g. an older commit's), to compare.
 *
 * Needs build/nmt (bash scripts/build.sh).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { value } from './_args.mjs';
import { fakeTranslator, assertBalanced } from '../tests/web/html-fake.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nmt = path.resolve(ROOT, value('nmt', 'build/nmt'));
const model = path.resolve(ROOT, value('model', 'tests/fixtures/tiny.nmt'));
const chars = Number(value('chars', '128000'));
const htmlCount = Number(value('html-count', '500'));
const rounds = Number(value('rounds', '3'));
const web = path.resolve(ROOT, value('web', 'web'));
const { translateHtml } = await import(pathToFileURL(path.join(web, 'html/translate-html.js')).href);

for (const [file, what] of [[nmt, 'build/nmt (bash scripts/build.sh)'], [model, 'the model']]) {
  if (!existsSync(file)) {
    console.error(`bench-input-cost: ${file} is missing: ${what} is needed.`);
    process.exit(2);
  }
}

const scratch = mkdtempSync(path.join(tmpdir(), 'bench-input-cost-'));
process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
const ratio = (long, short) => (short > 0 ? `${(long / short).toFixed(1)}x` : 'n/a');
const MiB = (b) => `${(b / 2 ** 20).toFixed(1)} MiB`;

// One `nmt bench` run on `input` (the whole text in one translate() call: the CLI's usual way reads
// stdin in blocks of 8 kB, which bounds a line's cost): the engine's seconds, the process's peak RSS.
function runOnce(input) {
  const file = path.join(scratch, 'input.txt');
  writeFileSync(file, input);
  const r = spawnSync(nmt, ['bench', '--model', model, '--input', file, '--beam', '1'], { encoding: 'utf8' });
  const seconds = /sentences\s+\d+ in ([\d.]+) s/.exec(r.stdout);
  const peak = /peak memory\s+([\d.]+) MB/.exec(r.stdout);
  if (r.status !== 0 || !seconds || !peak) throw new Error(`nmt bench failed (${r.status}): ${(r.stderr || r.stdout).slice(0, 300)}`);
  return { seconds: Number(seconds[1]), peak: Number(peak[1]) * 1e6 };
}

async function least(input) {
  let seconds = Infinity;
  let peak = 0;
  for (let i = 0; i < rounds; i++) {
    const r = runOnce(input);
    seconds = Math.min(seconds, r.seconds);
    peak = Math.max(peak, r.peak);
  }
  return { seconds, peak };
}

const line = (part, n) => part.repeat(Math.ceil(n / part.length)).slice(0, n) + '\n';
const lines = {
  dots: '.',
  numbers: '("1") ',
  'e-mail addresses': 'mail user@example.org and ',
  'addresses and code': 'see x.org/a, `ls`, a@b.de and ',
};

console.log(`machine: ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
console.log(`\n1. ${path.relative(ROOT, nmt)} bench --model ${path.relative(ROOT, model)} --beam 1 (translate() on the whole line), least of ${rounds} runs`);
for (const [name, part] of Object.entries(lines)) {
  const short = await least(line(part, chars));
  const long = await least(line(part, 8 * chars));
  console.log(`${name}: ${chars} chars ${short.seconds.toFixed(3)} s ${MiB(short.peak)}, ${8 * chars} chars ${long.seconds.toFixed(3)} s ${MiB(long.peak)}; ` +
    `8n/n time ${ratio(long.seconds, short.seconds)}, peak memory ${ratio(long.peak, short.peak)}`);
}

// The least processor time of `rounds` runs, in all and less the stand-in's own (its word
// attention is a words x words matrix, as the engine's is for one sentence).
async function placementSeconds(html) {
  let best = { all: Infinity, standIn: 0 };
  for (let i = 0; i < rounds; i++) {
    const standIn = fakeTranslator('same');
    let standInSeconds = 0;
    const timed = {
      async translate(text, options) {
        const before = process.cpuUsage();
        const result = await standIn.translate(text, options);
        const used = process.cpuUsage(before);
        standInSeconds += (used.user + used.system) / 1e6;
        return result;
      },
    };
    const before = process.cpuUsage();
    const out = await translateHtml(timed, html);
    const used = process.cpuUsage(before);
    const all = (used.user + used.system) / 1e6;
    if (all < best.all) best = { all, standIn: standInSeconds };
    assertBalanced(out.text);
  }
  return best;
}

const paragraphs = {
  'a link in every sentence': (n) => '<p>' + 'See <a href="#x">this link</a> now. '.repeat(n) + '</p>',
  'an <i> around every word of one sentence': (n) => '<p>' + '<i>big</i> '.repeat(n) + '</p>',
  'a <span> around every letter of one word': (n) => '<p>' + '<span>a</span>'.repeat(n) + '</p>',
};
console.log(`\n2. HTML placement (${path.relative(ROOT, web) || '.'}/html) with the stand-in translator (no engine), processor time, least of ${rounds} runs`);
for (const [name, paragraph] of Object.entries(paragraphs)) {
  await placementSeconds(paragraph(8 * htmlCount)); // (warms the JIT up, else the first size is slowed)
  const short = await placementSeconds(paragraph(htmlCount));
  const long = await placementSeconds(paragraph(8 * htmlCount));
  const placement = (r) => r.all - r.standIn;
  console.log(`${name}: ${htmlCount} ${short.all.toFixed(3)} s (placement ${placement(short).toFixed(3)}), ` +
    `${8 * htmlCount} ${long.all.toFixed(3)} s (placement ${placement(long).toFixed(3)}); 8n/n ${ratio(long.all, short.all)}, placement ${ratio(placement(long), placement(short))}`);
}
console.log('\n(8n/n: linear about 8x, quadratic about 64x)');
