// One onnxruntime-node run for scripts/bench-peers.mjs, in its own process (so that its peak memory
// is its own): loads the ONNX export, translates the sentences' piece ids one request at a time with
// one thread, and writes timings and outputs as JSON.
//   node scripts/peers/ort-node-run.mjs DIR PRECISION IDS.json BEAMS(1,4) OUT.json
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { OrtTranslator } from './ort-decode.mjs';

const [dir, precision, idsPath, beamList, outPath] = process.argv.slice(2);
const t0 = performance.now();
const ort = await import('onnxruntime-node');
const info = JSON.parse(readFileSync(path.join(dir, 'model.json'), 'utf8'));
const { sentences } = JSON.parse(readFileSync(idsPath, 'utf8'));
const beams = beamList.split(',').map(Number);
const t = await OrtTranslator.create(ort, info, path.join(dir, precision, 'encoder.onnx'), path.join(dir, precision, 'decoder.onnx'));
const loadMs = performance.now() - t0;
t.detokenize(await t.translateIds(sentences[0].ids, beams[0]));
const result = { runtime: `onnxruntime-node ${ort.env.versions.node}`, precision, loadMs, firstTranslationMs: performance.now() - t0, runs: {} };
for (const beam of beams) {
  const outputs = [];
  let targetTokens = 0;
  const start = performance.now();
  for (const s of sentences) {
    const ids = await t.translateIds(s.ids, beam);
    targetTokens += ids.length + 1;
    outputs.push(t.detokenize(ids));
  }
  const seconds = (performance.now() - start) / 1000;
  result.runs[beam] = { seconds, targetTokens, outputs };
}
result.peakRssBytes = process.resourceUsage().maxRSS * 1024;
writeFileSync(outPath, JSON.stringify(result));
