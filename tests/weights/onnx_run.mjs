// Helper of test_export_onnx.py: runs the exported ONNX graphs on onnxruntime-node.
//   node tests/weights/onnx_run.mjs REQUEST.json RESULT.json
// REQUEST: {"dir": build/onnx/<dir>, "precision": "fp32", "items": [{"src": [ids, eos], "tgt_in": [bos, ...]}]}
// RESULT:  {"logits": per item, per target position, the decoder step's logits (teacher forced);
//           "greedy", "beam": per item, OrtTranslator.greedy's and .beamSearch(4)'s target ids (no eos)}
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { OrtTranslator } from '../../scripts/peers/ort-decode.mjs';

const [requestPath, resultPath] = process.argv.slice(2);
const request = JSON.parse(readFileSync(requestPath, 'utf8'));
const info = JSON.parse(readFileSync(path.join(request.dir, 'model.json'), 'utf8'));
const t = await OrtTranslator.create(ort, info, path.join(request.dir, request.precision, 'encoder.onnx'),
  path.join(request.dir, request.precision, 'decoder.onnx'));
const result = { logits: [], greedy: [], beam: [] };
for (const item of request.items) {
  const memory = await t.encode(item.src);
  let cache = t.emptyCache(1);
  const rows = [];
  for (let pos = 0; pos < item.tgt_in.length; pos++) {
    const r = await t.step(memory, [item.tgt_in[pos]], pos, cache, t.rowsOf(memory, 1));
    cache = r.cache;
    rows.push(Array.from(r.logits));
  }
  result.logits.push(rows);
  result.greedy.push(await t.greedy(item.src.slice(0, -1)));
  result.beam.push(await t.beamSearch(item.src.slice(0, -1), 4));
}
writeFileSync(resultPath, JSON.stringify(result));
