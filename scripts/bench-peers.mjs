#!/usr/bin/env node
/**
 * `npm run bench:peers`: this project's engine side by side with ONNX Runtime on the same weights and
 * the same sentences (numbers, never pass/fail).
 *
 *  1. Exports the shipped model(s) to ONNX (weights/recipe/export_onnx.py -> build/onnx/<dir>/{fp32,int8}),
 *     plus an f32 model file of the same float weights for this engine (build/onnx/<dir>/model-f32.nmt).
 *  2. Takes the first N corpus lines that the engine's segmenter keeps as one sentence (so both sides
 *     translate exactly one sentence per request) and their SentencePiece ids (spm_encode with the
 *     model's own tokenizer; ONNX Runtime has no tokenizer, so its time excludes tokenization and
 *     detokenization is a join of pieces).
 *  3. Natively: this engine's CLI (`nmt bench`, one thread) vs onnxruntime-node (one intra-op thread,
 *     graph optimizations on), each in its own process; greedy and beam 4.
 *  4. In one Chromium: this project's module (worker + engine.wasm, one request per sentence, as the
 *     page uses it; its default kernel, relaxed SIMD where Chromium has it, and again forced to
 *     SIMD128: "ours simd128") vs onnxruntime-web (WASM backend, SIMD, one thread; 1.30 ships no
 *     relaxed-SIMD runtime, see scripts/peers/page.mjs), each page in a fresh context.
 *     When the model file has a lexical shortlist, ours runs a second time with the `shortlist` option
 *     ("ours + shortlist": faster, outputs may differ; its BLEU is printed beside the others).
 *  5. Prints sentences/s, words/s (source words), time to first translation, peak memory, download
 *     size, the ratios, and whether the outputs agree: fp32 greedy token for token (ONNX Runtime fp32
 *     vs this engine on the f32 model file vs the PyTorch reference), int8 by BLEU against the
 *     references (weights/recipe/metrics.py).
 *
 *   node scripts/bench-peers.mjs [--corpus tests/fixtures/dev/flores-dev.en-de.tsv] [--n 300]
 *       [--dirs en-de] [--beams 1,4] [--skip-native] [--skip-browser] [--nmt build/nmt] [--json out.json]
 * (--nmt: another native build of the CLI)
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { startServer } from './serve.mjs';
import { pageRss } from './_proc.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PY = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
let NMT = path.join(ROOT, 'build/nmt');
const ORT_WEB = path.join(ROOT, 'node_modules/onnxruntime-web/dist');

function parseArgs(argv) {
  const a = { corpus: path.join(ROOT, 'tests/fixtures/dev/flores-dev.en-de.tsv'), n: 300, dirs: ['en-de'], beams: [1, 4],
    native: true, browser: true, json: null, dist: path.join(ROOT, 'dist') };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const v = () => argv[++i];
    if (k === '--corpus') a.corpus = path.resolve(v());
    else if (k === '--n') a.n = Number(v());
    else if (k === '--dirs') a.dirs = v().split(',');
    else if (k === '--beams') a.beams = v().split(',').map(Number);
    else if (k === '--skip-native') a.native = false;
    else if (k === '--skip-browser') a.browser = false;
    else if (k === '--nmt') NMT = path.resolve(v());
    else if (k === '--json') a.json = path.resolve(v());
    else if (k === '--dist') a.dist = path.resolve(v());
    else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

const fmt = (x, d = 1) => (x === null || x === undefined || Number.isNaN(x) ? 'n/a' : Number(x).toFixed(d));
const mb = (b) => (b ? `${(b / 1e6).toFixed(1)} MB` : 'n/a');
const words = (s) => s.split(/\s+/).filter(Boolean).length;

function run(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
}

/** Runs a command, returns {stdout, ms}; with `peak`, its peak RSS via /usr/bin/time. */
function timed(cmd, args, { input, peak } = {}) {
  return new Promise((resolve, reject) => {
    const useTime = peak && existsSync('/usr/bin/time');
    const argv = useTime ? ['-f', '__PEAK_KB %M', cmd, ...args] : args;
    const t0 = performance.now();
    const p = spawn(useTime ? '/usr/bin/time' : cmd, argv, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (d) => { stdout += d; });
    p.stderr.on('data', (d) => { stderr += d; });
    p.on('error', reject);
    p.on('close', (code) => {
      const ms = performance.now() - t0;
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(' ')}: exit ${code}\n${stderr}`));
      const m = /__PEAK_KB (\d+)/.exec(stderr);
      resolve({ stdout, stderr, ms, peakBytes: m ? Number(m[1]) * 1024 : null });
    });
    p.stdin.end(input || '');
  });
}

const newer = (out, src) => existsSync(out) && statSync(out).mtimeMs >= statSync(src).mtimeMs;

/** ONNX export and the f32 model file of one direction (skipped when up to date). */
function prepareModels(dir) {
  const model = path.join(ROOT, `weights/${dir}/model.nmt`);
  const out = path.join(ROOT, 'build/onnx', dir);
  const exporter = path.join(ROOT, 'weights/recipe/export_onnx.py');
  const info = path.join(out, 'model.json');
  if (!newer(info, model) || !newer(info, exporter)) {
    console.log(`exporting ${dir} to ONNX: ${path.relative(ROOT, out)}`);
    run(PY, [exporter, '--model', model, '--out', out, '--f32-nmt', path.join(out, 'model-f32.nmt')], { stdio: 'inherit' });
  }
  return { model, out, info: JSON.parse(readFileSync(info, 'utf8')), f32: path.join(out, 'model-f32.nmt'), shortlist: hasShortlist(model) };
}

/** Whether a model file carries the lexical shortlist (engine/FORMAT.md: tensors shortlist.*). */
function hasShortlist(modelPath) {
  const data = readFileSync(modelPath);
  const header = JSON.parse(data.subarray(32, 32 + data.readUInt32LE(12)).toString('utf8'));
  return header.tensors.some((t) => t.name === 'shortlist.targets');
}

/** The first n corpus lines that the engine keeps as one sentence, with references and piece ids. */
function sentencesFor(dir, corpus, n, spm) {
  const [from] = dir.split('-');
  const col = corpus.includes('.de-en.') ? (from === 'de' ? 0 : 1) : (from === 'en' ? 0 : 1);
  const lines = readFileSync(corpus, 'utf8').split('\n').filter((l) => l.trim());
  const pairs = lines.map((l) => l.split('\t')).filter((p) => p.length >= 2).map((p) => ({ text: p[col].trim(), ref: p[1 - col].trim() }));
  const picked = [];
  for (let i = 0; i < pairs.length && picked.length < n; i += 200) {
    const chunk = pairs.slice(i, i + 200);
    for (const p of chunk) {
      if (picked.length >= n) break;
      const seg = run(NMT, ['segment', '--lang', from], { input: `${p.text}\n` }).split('\n').filter((l) => l.trim());
      if (seg.length === 1) picked.push(p);
    }
  }
  const ids = run('spm_encode', [`--model=${spm}`, '--output_format=id'], { input: `${picked.map((p) => p.text).join('\n')}\n` })
    .split('\n').slice(0, picked.length).map((l) => l.trim().split(/\s+/).filter(Boolean).map(Number));
  return picked.map((p, i) => ({ ...p, ids: ids[i] }));
}

function bleuAll(systems, refs) {
  const script = 'import json,sys; sys.path.insert(0, sys.argv[1]); from metrics import bleu; d=json.load(sys.stdin); '
    + 'print(json.dumps({k: bleu(v, d["refs"]) for k, v in d["systems"].items()}))';
  return JSON.parse(run(PY, ['-c', script, path.join(ROOT, 'weights/recipe')], { input: JSON.stringify({ systems, refs }) }));
}

// BLEU(b) - BLEU(a) with its 95% paired-bootstrap interval (metrics.paired_bootstrap), for each
// [name, a outputs, b outputs]: whether a difference is more than the sample's noise.
function bootstrapAll(pairs, refs) {
  const script = 'import json,sys; sys.path.insert(0, sys.argv[1]); from metrics import paired_bootstrap; d=json.load(sys.stdin); '
    + 'print(json.dumps({k: paired_bootstrap(a, b, d["refs"]) for k, a, b in d["pairs"]}))';
  return JSON.parse(run(PY, ['-c', script, path.join(ROOT, 'weights/recipe')], { input: JSON.stringify({ pairs, refs }) }));
}

function same(a, b) {
  let n = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) n++;
  return n;
}

function sizes(files) {
  let raw = 0;
  let gz = 0;
  for (const f of files) {
    const data = readFileSync(f);
    raw += data.length;
    gz += gzipSync(data, { level: 6 }).length;
  }
  return { raw, gz };
}

async function nativeRuns(dir, m, sentences, beams, tmp) {
  const input = path.join(tmp, `${dir}.src.txt`);
  writeFileSync(input, `${sentences.map((s) => s.text).join('\n')}\n`);
  const idsPath = path.join(tmp, `ids-${dir}.json`);
  const results = { ours: { runs: {} }, 'ours-f32': { runs: {} }, 'ort-int8': null, 'ort-fp32': null };
  // ours: time to first translation = a process that loads the model and translates one sentence
  const first = await timed(NMT, ['--model', m.model, '--beam', String(beams[0])], { input: `${sentences[0].text}\n` });
  results.ours.firstTranslationMs = first.ms;
  for (const beam of beams) {
    const b = await timed(NMT, ['bench', '--model', m.model, '--input', input, '--beam', String(beam)], { peak: true });
    const seconds = Number(/sentences\s+\d+ in ([\d.]+) s/.exec(b.stdout)[1]);
    const full = await timed(NMT, ['--model', m.model, '--beam', String(beam)], { input: readFileSync(input, 'utf8') });
    results.ours.runs[beam] = { seconds, outputs: full.stdout.split('\n').slice(0, sentences.length) };
    results.ours.peakBytes = Math.max(results.ours.peakBytes || 0, b.peakBytes || 0);
  }
  if (m.shortlist) {
    results['ours-shortlist'] = { runs: {} };
    for (const beam of beams) {
      const flags = ['--model', m.model, '--beam', String(beam), '--shortlist'];
      const b = await timed(NMT, ['bench', ...flags, '--input', input], { peak: true });
      const seconds = Number(/sentences\s+\d+ in ([\d.]+) s/.exec(b.stdout)[1]);
      const full = await timed(NMT, flags, { input: readFileSync(input, 'utf8') });
      results['ours-shortlist'].runs[beam] = { seconds, outputs: full.stdout.split('\n').slice(0, sentences.length) };
      results['ours-shortlist'].peakBytes = Math.max(results['ours-shortlist'].peakBytes || 0, b.peakBytes || 0);
    }
    results['ours-shortlist'].firstTranslationMs = results.ours.firstTranslationMs;
  }
  const f32 = await timed(NMT, ['--model', m.f32, '--beam', '1'], { input: readFileSync(input, 'utf8') });
  results['ours-f32'].runs[1] = { outputs: f32.stdout.split('\n').slice(0, sentences.length) };
  for (const precision of ['int8', 'fp32']) {
    const outPath = path.join(tmp, `ort-node-${dir}-${precision}.json`);
    const r = await timed(process.execPath, [ path.join(ROOT, 'scripts/peers/ort-node-run.mjs'), m.out, precision, idsPath, beams.join(','), outPath]);
    results[`ort-${precision}`] = JSON.parse(readFileSync(outPath, 'utf8'));
    results[`ort-${precision}`].processMs = r.ms;
  }
  return results;
}

async function browserRuns(dir, m, beams, args, tmp) {
  const routes = {
    'peers/page.html': path.join(ROOT, 'scripts/peers/page.html'),
    'peers/page.mjs': path.join(ROOT, 'scripts/peers/page.mjs'),
    'peers/ort-decode.mjs': path.join(ROOT, 'scripts/peers/ort-decode.mjs'),
    [`peers/ids-${dir}.json`]: path.join(tmp, `ids-${dir}.json`),
    [`peers/onnx/${dir}/model.json`]: path.join(m.out, 'model.json'),
  };
  for (const f of ['ort.wasm.min.mjs', 'ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm']) routes[`peers/ort/${f}`] = path.join(ORT_WEB, f);
  for (const p of ['fp32', 'int8']) for (const part of ['encoder', 'decoder']) routes[`peers/onnx/${dir}/${p}/${part}.onnx`] = path.join(m.out, p, `${part}.onnx`);
  const server = await startServer({ root: args.dist, routes });
  // what each page downloads: every 200 response's file, as the server sends it (no compression)
  let served = new Map();
  server.server.on('request', (req, res) => {
    res.on('finish', () => {
      if (res.statusCode !== 200) return;
      const rel = decodeURIComponent(new URL(req.url, 'http://x').pathname).slice(1);
      served.set(rel, routes[rel] ? routes[rel] : path.join(args.dist, rel));
    });
  });
  const { launchChromium } = await import('../tests/web/_helpers.mjs');
  const browser = await launchChromium();
  const results = { chromium: browser.version() };
  try {
    const engines = [['ours', 'engine=ours'], ['ours-simd128', 'engine=ours&simd=simd128'], ['ort-int8', 'engine=ort&precision=int8'],
      ['ort-fp32', 'engine=ort&precision=fp32']];
    if (m.shortlist) engines.splice(1, 0, ['ours-shortlist', 'engine=ours&shortlist=1']);
    for (const [key, query] of engines) {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.on('console', (msg) => { if (msg.type() === 'error') console.error(`  [${key}] ${msg.text()}`); });
      served = new Map();
      let peak = 0;
      const timer = setInterval(() => { peak = Math.max(peak, pageRss('chromium') || 0); }, 100);
      await page.goto(`${server.url}peers/page.html?${query}&dir=${dir}&beams=${beams.join(',')}`);
      await page.waitForSelector('body[data-done="true"]', { timeout: 60 * 60 * 1000 });
      clearInterval(timer);
      const r = await page.evaluate(() => window.__peers);
      await context.close();
      await new Promise((res) => setTimeout(res, 500));
      if (r.error) throw new Error(`${key} in Chromium: ${r.error}`);
      r.peakRendererRssBytes = peak || null;
      r.download = { ...sizes([...served.values()].filter((f) => !path.basename(f).startsWith('ids-'))), files: [...served.keys()] };
      results[key] = r;
      console.log(`  chromium ${key}${r.simd ? ` (${r.simd})` : ''}: first translation ${fmt(r.firstTranslationMs, 0)} ms; ${beams.map((b) => `beam ${b} ${fmt(r.runs[b].seconds, 1)} s`).join(', ')}`);
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return results;
}

function table(title, rows, cols) {
  const widths = cols.map((c, i) => Math.max(c.length, ...rows.map((r) => String(r[i]).length)));
  console.log(`\n${title}`);
  console.log(`  ${cols.map((c, i) => c.padEnd(widths[i])).join('  ')}`);
  for (const r of rows) console.log(`  ${r.map((x, i) => String(x).padEnd(widths[i])).join('  ')}`);
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!existsSync(NMT)) throw new Error('build/nmt is missing: run npm run build');
  if (args.browser && !existsSync(path.join(args.dist, 'translator.js'))) throw new Error(`${args.dist} has no translator.js: run node scripts/build-web.mjs`);
  const tmp = path.join(ROOT, 'build/bench-peers');
  mkdirSync(tmp, { recursive: true });
  const cpu = [...new Set((readFileSync('/proc/cpuinfo', 'utf8').match(/avx512_bf16|avx2/g) || []))].sort().join(' ');
  const model = (/model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8')) || [])[1];
  const machine = { cpu: model, flags: cpu, cores: os.cpus().length, uptimeBefore: run('uptime', []).trim(), node: process.version };
  console.log(`machine: ${model}, ${machine.cores} cores, ${cpu}; load: ${machine.uptimeBefore}`);
  const report = { machine, corpus: path.relative(ROOT, args.corpus), directions: {} };
  for (const dir of args.dirs) {
    const m = prepareModels(dir);
    const sentences = sentencesFor(dir, args.corpus, args.n, path.join(m.out, 'tokenizer.spm'));
    writeFileSync(path.join(tmp, `ids-${dir}.json`), JSON.stringify({ sentences: sentences.map((s) => ({ text: s.text, ids: s.ids })) }));
    const nWords = sentences.reduce((a, s) => a + words(s.text), 0);
    console.log(`\n== ${dir}: ${sentences.length} sentences (${nWords} source words) from ${path.basename(args.corpus)}`);
    // PyTorch reference, fp32 greedy, on the same ids: the token-for-token check
    const refPath = path.join(tmp, `torch-${dir}.json`);
    const refScript = `
import json, sys, torch
sys.path.insert(0, ${JSON.stringify(path.join(ROOT, 'weights/recipe'))})
from model import Transformer
from model_file import dequantized_weights, read_model_file
torch.set_num_threads(1)
h, t = read_model_file(${JSON.stringify(m.model)})
model = Transformer(h["config"]).eval()
model.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in dequantized_weights(t).items()})
cfg = h["config"]
out = []
for s in json.load(open(${JSON.stringify(path.join(tmp, `ids-${dir}.json`))}))["sentences"]:
    src = torch.tensor([s["ids"][: cfg["max_length"] - 1] + [cfg["eos_id"]]])
    out.append(model.greedy(src, cached=True)[0])
json.dump(out, open(${JSON.stringify(refPath)}, "w"))
`;
    let torchIds = null;
    try {
      run(PY, ['-c', refScript]);
      torchIds = JSON.parse(readFileSync(refPath, 'utf8'));
    } catch (e) {
      console.log(`  (PyTorch reference unavailable: ${e.message.split('\n')[0]})`);
    }
    const d = { sentences: sentences.length, words: nWords };
    if (args.native) {
      console.log('  native runs…');
      d.native = await nativeRuns(dir, m, sentences, args.beams, tmp);
    }
    if (args.browser) {
      console.log('  Chromium runs…');
      d.browser = await browserRuns(dir, m, args.beams, args, tmp);
    }
    // download sizes: what each page fetched in Chromium (the benchmark's sentences left out), or
    // without a browser run, the files it would fetch
    const distModel = path.join(args.dist, 'models', `${dir}.nmt`);
    const oursFiles = ['engine/engine.js', 'engine/engine.wasm', 'translator.js', 'worker.js', 'protocol.js', 'options.js'].map((f) => path.join(args.dist, f)).filter(existsSync);
    oursFiles.push(existsSync(distModel) ? distModel : m.model);
    const ortBase = ['ort.wasm.min.mjs', 'ort-wasm-simd-threaded.mjs', 'ort-wasm-simd-threaded.wasm'].map((f) => path.join(ORT_WEB, f));
    ortBase.push(path.join(ROOT, 'scripts/peers/ort-decode.mjs'), path.join(m.out, 'model.json'));
    d.download = d.browser ? { ours: d.browser.ours.download, 'ours-shortlist': d.browser.ours.download, 'ours-simd128': d.browser['ours-simd128'].download, 'ort-int8': d.browser['ort-int8'].download, 'ort-fp32': d.browser['ort-fp32'].download } : {
      ours: sizes(oursFiles),
      'ours-shortlist': sizes(oursFiles),
      'ort-int8': sizes([...ortBase, path.join(m.out, 'int8/encoder.onnx'), path.join(m.out, 'int8/decoder.onnx')]),
      'ort-fp32': sizes([...ortBase, path.join(m.out, 'fp32/encoder.onnx'), path.join(m.out, 'fp32/decoder.onnx')]),
    };
    // quality and agreement
    const refs = sentences.map((s) => s.ref);
    const systems = {};
    for (const where of ['native', 'browser']) {
      if (!d[where]) continue;
      for (const key of ['ours', 'ours-shortlist', 'ours-simd128', 'ort-int8', 'ort-fp32']) {
        for (const beam of args.beams) {
          const r = d[where][key] && d[where][key].runs[beam];
          if (r) systems[`${where}/${key}/${beam}`] = r.outputs;
        }
      }
    }
    const bleu = bleuAll(systems, refs);
    d.bleu = bleu;
    const pairs = [];  // ONNX Runtime int8 against ours, with and without the shortlist
    for (const where of ['native', 'browser']) {
      for (const beam of args.beams) {
        for (const key of ['ours', 'ours-shortlist']) {
          const a = systems[`${where}/${key}/${beam}`];
          const b = systems[`${where}/ort-int8/${beam}`];
          if (a && b) pairs.push([`${where}/${key}/${beam}`, a, b]);
        }
      }
    }
    d.bootstrap = bootstrapAll(pairs, refs);
    const agree = {};
    if (torchIds && d.native && d.native['ort-fp32']) {
      // detokenized PyTorch greedy vs the ONNX fp32 greedy text (same detokenizer)
      const pieces = m.info.pieces;
      const types = m.info.piece_types;
      const detok = (ids) => ids.filter((id) => types[id] !== 3).map((id) => (types[id] === 2 ? ' ⁇ ' : pieces[id])).join('').replace(/\u2581/g, ' ').trim();
      const torchText = torchIds.map(detok);
      agree['torch fp32 vs onnxruntime-node fp32 (greedy)'] = same(torchText, d.native['ort-fp32'].runs[1].outputs);
      if (d.browser) agree['torch fp32 vs onnxruntime-web fp32 (greedy)'] = same(torchText, d.browser['ort-fp32'].runs[1].outputs);
      agree['torch fp32 vs ours on the f32 model file (greedy, native)'] = same(torchText, d.native['ours-f32'].runs[1].outputs);
    }
    if (d.native && d.browser) {
      for (const beam of args.beams) {
        agree[`ours native vs ours Chromium (beam ${beam})`] = same(d.native.ours.runs[beam].outputs, d.browser.ours.runs[beam].outputs);
        agree[`onnxruntime-node int8 vs onnxruntime-web int8 (beam ${beam})`] = same(d.native['ort-int8'].runs[beam].outputs, d.browser['ort-int8'].runs[beam].outputs);
      }
    }
    d.agreement = agree;
    report.directions[dir] = d;
    printDirection(dir, d, args.beams);
  }
  machine.uptimeAfter = run('uptime', []).trim();
  console.log(`\nload after: ${machine.uptimeAfter}`);
  if (args.json) writeFileSync(args.json, `${JSON.stringify(report, null, 1)}\n`);
  writeFileSync(path.join(tmp, 'report.json'), `${JSON.stringify(report, null, 1)}\n`);
  console.log(`(full report with every output: ${path.relative(ROOT, path.join(tmp, 'report.json'))})`);
}

function printDirection(dir, d, beams) {
  const names = { ours: 'ours (int8)', 'ours-shortlist': 'ours + shortlist', 'ours-simd128': 'ours simd128', 'ort-int8': 'ONNX Runtime int8', 'ort-fp32': 'ONNX Runtime fp32' };
  for (const where of ['browser', 'native']) {
    const w = d[where];
    if (!w) continue;
    const label = where === 'browser' ? `Chromium ${w.chromium} (ours: module + worker, ${w.ours.simd || 'simd128'} kernel; ONNX Runtime Web ${w['ort-int8'].version || ''} wasm SIMD, 1 thread)`
      : `native (ours: build/nmt, 1 thread; ${w['ort-int8'].runtime}, 1 thread)`;
    const rows = [];
    for (const key of ['ours', 'ours-shortlist', 'ours-simd128', 'ort-int8', 'ort-fp32']) {
      const r = w[key];
      if (!r) continue;
      for (const beam of beams) {
        const run1 = r.runs[beam];
        const sps = d.sentences / run1.seconds;
        const oursSps = d.sentences / w.ours.runs[beam].seconds;
        const peak = where === 'browser' ? r.peakRendererRssBytes : (r.peakBytes || r.peakRssBytes);
        const dl = d.download[key];
        rows.push([names[key], beam, fmt(sps), fmt(d.words / run1.seconds, 0), key === 'ours' ? '1.00' : fmt(oursSps / sps, 2),
          `${fmt(r.firstTranslationMs, 0)} ms`, mb(peak), `${mb(dl.raw)} (${mb(dl.gz)} gz)`, fmt(d.bleu[`${where}/${key}/${beam}`], 2)]);
      }
    }
    table(`${dir}, ${label}`, rows, ['engine', 'beam', 'sent/s', 'words/s', 'ours÷it', 'first translation', where === 'browser' ? 'peak renderer RSS' : 'peak RSS', 'download', 'BLEU']);
  }
  console.log('\n  agreement (identical outputs of', d.sentences, 'sentences):');
  for (const [k, v] of Object.entries(d.agreement)) console.log(`    ${k}: ${v}/${d.sentences}`);
  for (const where of ['browser', 'native']) {
    if (!d[where]) continue;
    for (const beam of beams) {
      const delta = d.bleu[`${where}/ort-int8/${beam}`] - d.bleu[`${where}/ours/${beam}`];
      const interval = (key) => {
        const b = d.bootstrap && d.bootstrap[`${where}/${key}/${beam}`];
        return b ? `, 95% paired-bootstrap interval [${fmt(b.low, 2)}, ${fmt(b.high, 2)}]` : '';
      };
      console.log(`  ${where} beam ${beam}: BLEU ONNX Runtime int8 − ours = ${fmt(delta, 2)} (${Math.abs(delta) <= 0.3 ? 'within' : 'outside'} 0.3${interval('ours')})`);
      const s = d[where]['ours-shortlist'] && d[where]['ours-shortlist'].runs[beam];
      if (!s) continue;
      const ort = d[where]['ort-int8'].runs[beam];
      const deltaS = d.bleu[`${where}/ort-int8/${beam}`] - d.bleu[`${where}/ours-shortlist/${beam}`];
      console.log(`  ${where} beam ${beam}: ours + shortlist ${fmt(ort.seconds / s.seconds, 2)}x ONNX Runtime int8, `
        + `${fmt(d[where].ours.runs[beam].seconds / s.seconds, 2)}x ours without it; BLEU ONNX Runtime int8 − it = ${fmt(deltaS, 2)} `
        + `(${Math.abs(deltaS) <= 0.3 ? 'within' : 'outside'} 0.3${interval('ours-shortlist')}); outputs identical to ours without it: `
        + `${same(s.outputs, d[where].ours.runs[beam].outputs)}/${d.sentences}`);
    }
  }
}

main().catch((e) => {
  console.error(`bench-peers: ${e.stack || e.message}`);
  process.exit(1);
});
