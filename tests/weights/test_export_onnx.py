"""The ONNX export (weights/recipe/export_onnx.py) against the PyTorch reference: the fp32 encoder
and decoder-step graphs, run on onnxruntime-node (tests/weights/onnx_run.mjs) with the key/value
cache growing step by step, give the reference's logits on a few sentences (teacher forced), and the
ONNX greedy and beam-4 loops (scripts/peers/ort-decode.mjs) give the reference's tokens. The int8 graph
(ONNX Runtime's dynamic quantization) runs and mostly agrees with fp32."""
import json
import os
import shutil
import subprocess
import tempfile
import unittest

import numpy as np
from recipe_env import ROOT, needs_torch, torch

ORT_NODE = os.path.join(ROOT, "node_modules", "onnxruntime-node")
needs_ort = unittest.skipUnless(os.path.isdir(ORT_NODE) and shutil.which("node"),
                                "onnxruntime-node is not installed (npm ci)")

SENTENCES = ["The weather is nice today.", "Where is the nearest train station?",
             "Scientists have discovered a new species of frog in the rainforest."]


def load_reference(path):
    from model import Transformer
    from model_file import dequantized_weights, read_model_file
    header, tensors = read_model_file(path)
    model = Transformer(header["config"]).eval()
    model.load_state_dict({k: torch.from_numpy(v.copy()) for k, v in dequantized_weights(tensors).items()})
    return model, header, tensors


def source_ids(tensors, cfg, sentences):
    try:
        import sentencepiece as spm
        sp = spm.SentencePieceProcessor(model_proto=tensors["tokenizer.spm"].tobytes())
        return [sp.encode(s)[: cfg["max_length"] - 1] + [cfg["eos_id"]] for s in sentences]
    except ImportError:  # deterministic ids instead of real text
        rng = np.random.default_rng(0)
        return [list(rng.integers(4, cfg["vocab_size"], 8 + 3 * i)) + [cfg["eos_id"]] for i in range(len(sentences))]


@needs_torch
@needs_ort
class ExportOnnxTest(unittest.TestCase):
    def check_model(self, path, precisions=("fp32", "int8")):
        import export_onnx
        model, header, tensors = load_reference(path)
        cfg = header["config"]
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        info = export_onnx.export(path, tmp, precisions)
        self.assertEqual(len(info["pieces"]), cfg["vocab_size"])
        items, reference = [], []
        with torch.no_grad():
            for src in source_ids(tensors, cfg, SENTENCES):
                src_t = torch.tensor([src])
                greedy = model.greedy(src_t, cached=True)[0]
                trace = []
                best = model.beam_search(src_t, beam=4, trace=trace)[0][0]["tokens"]
                beam = (best[:-1] if best and best[-1] == cfg["eos_id"] else best, trace[0])
                tgt_in = [cfg["bos_id"]] + greedy
                logits = model(src_t, torch.tensor([tgt_in]))[0].numpy()
                items.append({"src": [int(x) for x in src], "tgt_in": tgt_in})
                reference.append((greedy, logits, beam))
        results = {}
        for precision in precisions:
            req, res = os.path.join(tmp, "req.json"), os.path.join(tmp, f"res-{precision}.json")
            with open(req, "w") as f:
                json.dump({"dir": tmp, "precision": precision, "items": items}, f)
            subprocess.run(["node", os.path.join(ROOT, "tests/weights/onnx_run.mjs"), req, res], check=True, cwd=ROOT)
            with open(res) as f:
                results[precision] = json.load(f)
        fp32 = results["fp32"]
        for (greedy, logits, (beam, gap)), got, got_greedy, got_beam in zip(reference, fp32["logits"], fp32["greedy"], fp32["beam"]):
            got = np.array(got, dtype=np.float32)
            self.assertEqual(got.shape, logits.shape)
            scale = max(1.0, float(np.abs(logits).max()))
            self.assertLess(float(np.abs(got - logits).max()) / scale, 1e-4)
            self.assertEqual(got_greedy, greedy)
            if gap > 1e-3:  # where two candidates tie to float rounding, either choice is right
                self.assertEqual(got_beam, beam)
        if "int8" in results:
            agree = total = 0
            for (_, logits, _), got in zip(reference, results["int8"]["logits"]):
                got = np.array(got, dtype=np.float32)
                agree += int((got.argmax(-1) == logits.argmax(-1)).sum())
                total += logits.shape[0]
                self.assertTrue(np.isfinite(got).all())
            self.assertGreaterEqual(agree / total, 0.75)

    def test_fixture_model(self):
        self.check_model(os.path.join(ROOT, "tests/fixtures/tiny.nmt"))

    def test_shipped_model(self):
        path = os.path.join(ROOT, "weights/en-de/model.nmt")
        if not os.path.exists(path):
            self.skipTest("weights/en-de/model.nmt is not here")
        self.check_model(path)


if __name__ == "__main__":
    unittest.main()
