/**
 * Accuracy of the relaxed-SIMD GEMM's 7-bit activations ("shifted" schemes, engine/kernels/kernels.h)
 * against the 8-bit SIMD128 scheme, measured natively: the native engine runs the same integer
 * maths as the browser's relaxed kernel when NMT_INT8_SCHEME=shifted7 or mixed (the output
 * projection on 8 bits; engine/kernels/shifted.cpp), so the dev sets translate in minutes instead
 * of hours of browser time. For each dev set and direction, greedy and beam 4, it translates with
 * exact8 and each scheme asked for and prints BLEU (the project's weights/recipe/metrics.py,
 * sacreBLEU's 13a), the difference, and how many lines came out the same as exact8.
 *
 *   node scripts/bench-relaxed-bleu.mjs [--nmt build/nmt] [--lines N] [--sets flores-dev,tatoeba-dev,multi30k-test2016]
 *                                       [--beams 1,4] [--directions en-de,de-en] [--schemes shifted7,mixed]
 * Prints numbers; asserts nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = { nmt: path.join(ROOT, 'build/nmt'), lines: 0, sets: 'flores-dev,tatoeba-dev,multi30k-test2016', beams: '1,4', directions: 'en-de,de-en', schemes: 'shifted7' };
for (let i = 2; i < process.argv.length; i += 2) {
  const key = process.argv[i].replace(/^--/, '');
  if (!(key in args)) throw new Error(`unknown option ${process.argv[i]}`);
  args[key] = key === 'lines' ? Number(process.argv[i + 1]) : process.argv[i + 1];
}
const work = mkdtempSync(path.join(tmpdir(), 'relaxed-bleu-'));

function translate(model, sources, beam, scheme) {
  const run = spawnSync(args.nmt, ['--model', model, '--beam', String(beam)], {
    input: sources.join('\n') + '\n', env: { ...process.env, NMT_INT8_SCHEME: scheme }, maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`nmt failed: ${run.stderr}`);
  const out = run.stdout.toString('utf8').split('\n');
  return out.slice(0, sources.length);
}

function bleu(hyps, refs) {
  const h = path.join(work, 'hyp.txt'), r = path.join(work, 'ref.txt');
  writeFileSync(h, hyps.join('\n') + '\n');
  writeFileSync(r, refs.join('\n') + '\n');
  const out = execFileSync('/usr/bin/python3', [path.join(ROOT, 'weights/recipe/metrics.py'), h, r]).toString();
  return Number(/BLEU ([\d.]+)/.exec(out)[1]);
}

const schemes = args.schemes.split(',');
console.log(`engine ${path.relative(ROOT, args.nmt)}; BLEU exact8 (SIMD128), then per scheme (${schemes.join(', ')}): BLEU, delta, lines identical to exact8`);
for (const set of args.sets.split(',')) {
  const rows = readFileSync(path.join(ROOT, `tests/fixtures/dev/${set}.en-de.tsv`), 'utf8').split('\n').filter(Boolean)
    .map((l) => l.split('\t'));
  const picked = args.lines > 0 ? rows.slice(0, args.lines) : rows;
  for (const dir of args.directions.split(',')) {
    const [from] = dir.split('-');
    const sources = picked.map(([en, de]) => (from === 'en' ? en : de));
    const refs = picked.map(([en, de]) => (from === 'en' ? de : en));
    const model = path.join(ROOT, `weights/${dir}/model.nmt`);
    for (const beam of args.beams.split(',').map(Number)) {
      const a = translate(model, sources, beam, 'exact8');
      const ba = bleu(a, refs);
      const cells = schemes.map((scheme) => {
        const b = translate(model, sources, beam, scheme);
        const same = a.filter((line, i) => line === b[i]).length;
        const bb = bleu(b, refs);
        return `${scheme} ${bb.toFixed(2)} ${(bb - ba >= 0 ? '+' : '') + (bb - ba).toFixed(2)} ${same}/${a.length}`;
      });
      console.log(`${set.padEnd(18)} ${dir} beam ${beam}  ${ba.toFixed(2)}  ${cells.join('  ')}`);
    }
  }
}
