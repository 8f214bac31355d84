// Engine benchmark: translation throughput of the native CLI and of the WASM module (in Node, one
// thread) on the same sentences and model, printed side by side with their ratio.
//   node scripts/bench-engine.mjs [--model tests/fixtures/tiny.nmt] [--input FILE] [--beam 1] [--sentences 200]
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
const model = args.model || path.join(ROOT, 'tests/fixtures/tiny.nmt');
const beam = Number(args.beam || 1);
const count = Number(args.sentences || 200);
const input = args.input
  ? readFileSync(args.input, 'utf8').split('\n').filter(Boolean)
  : readFileSync(path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv'), 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
const text = input.slice(0, count).join('\n') + '\n';
const file = path.join(mkdtempSync(path.join(tmpdir(), 'bench-')), 'input.txt');
writeFileSync(file, text);

const native = execFileSync(path.join(ROOT, 'build/nmt'), ['bench', '--model', model, '--input', file, '--beam', String(beam)], { encoding: 'utf8' });
process.stdout.write(`native (${process.arch}, portable AVX2 build)\n${native}`);
const nativeRate = Number(/sentences\/s\s+([\d.]+)/.exec(native)[1]);

globalThis.require = createRequire(import.meta.url);
globalThis.__dirname = path.join(ROOT, 'build-wasm');
const { default: createEngine } = await import(pathToFileURL(path.join(ROOT, 'build-wasm/engine.js')).href);
const Module = await createEngine({ wasmBinary: readFileSync(path.join(ROOT, 'build-wasm/engine.wasm')) });
const t = new Module.Translator();
const err = t.load(new Uint8Array(readFileSync(model)));
if (err) throw new Error(err);
const t0 = performance.now();
const r = JSON.parse(t.translate(text, JSON.stringify({ beam })));
const seconds = (performance.now() - t0) / 1000;
const sentences = r.result.sentences.length;
const wasmRate = sentences / seconds;
console.log(`wasm (Node ${process.version}, SIMD128, one thread)`);
console.log(`sentences        ${sentences} in ${seconds.toFixed(2)} s`);
console.log(`sentences/s      ${wasmRate.toFixed(1)}`);
console.log(`target tokens/s  ${(r.result.stats.target_tokens / seconds).toFixed(1)}`);
console.log(`wasm heap        ${(Module.HEAP8.length / 1e6).toFixed(1)} MB`);
console.log(`wasm / native    ${(wasmRate / nativeRate).toFixed(2)}`);
t.delete();
