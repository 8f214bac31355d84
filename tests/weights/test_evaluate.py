"""weights/recipe/evaluate.py --keep-fp32-from: a round that ships one direction evaluates the other
again (its reranked score uses the new reverse model) without its model.pt; the fp32 scores come
from its earlier scores.json and the int8 cost is measured against the new int8 scores."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

from recipe_env import NMT, ROOT, needs_engine, needs_torch

RECIPE = os.path.join(ROOT, "weights", "recipe")
TINY = os.path.join(ROOT, "tests", "fixtures", "tiny.nmt")
PAIRS = [("The house is small.", "Das Haus ist klein."), ("Hello, how are you?", "Hallo, wie geht es dir?"),
         ("We bought bread.", "Wir kauften Brot.")]


def reverse_of_tiny(tmp):
    """The tiny fixture's weights as a de->en file (the engine checks the reverse model's direction)."""
    import torch
    from model_file import read_model_file
    header, tensors = read_model_file(TINY)
    spm = os.path.join(tmp, "spm.model")
    with open(spm, "wb") as f:
        f.write(tensors[header["tokenizer"]["tensor"]].tobytes())
    pt = os.path.join(tmp, "reverse.pt")
    subprocess.run([sys.executable, os.path.join(RECIPE, "interpolate.py"), "--a", TINY, "--b", TINY, "--weight", "1",
                    "--out", pt], check=True, capture_output=True)
    ck = torch.load(pt, map_location="cpu", weights_only=False)
    ck["languages"] = {"source": "de", "target": "en"}
    torch.save(ck, pt)
    out = os.path.join(tmp, "reverse.nmt")
    subprocess.run([sys.executable, os.path.join(RECIPE, "export.py"), "--checkpoint", pt, "--spm", spm, "--out", out],
                   check=True, capture_output=True)
    return out


@needs_torch
@needs_engine
class KeepFp32(unittest.TestCase):
    def test_fp32_scores_are_carried_and_the_int8_cost_recomputed(self):
        with tempfile.TemporaryDirectory() as tmp:
            for name in ("flores-dev", "tatoeba-dev", "multi30k-test2016"):
                with open(os.path.join(tmp, f"{name}.en-de.tsv"), "w", encoding="utf-8") as f:
                    f.write("".join(f"{en}\t{de}\n" for en, de in PAIRS))
            earlier = {"sets": {"flores-dev": {"fp32_greedy": {"bleu": 40.0, "chrf": 50.0},
                                               "fp32_beam4": {"bleu": 41.0, "chrf": 51.0},
                                               "quantization_loss_bleu": 99, "quantization_loss_bleu_beam4": 99}}}
            reverse = reverse_of_tiny(tmp)
            scores = os.path.join(tmp, "scores.json")
            with open(scores, "w") as f:
                json.dump(earlier, f)
            r = subprocess.run([sys.executable, os.path.join(RECIPE, "evaluate.py"), "--dev-dir", tmp, "--src", "en",
                                "--tgt", "de", "--model-file", TINY, "--reverse-model-file", reverse, "--nmt", NMT,
                                "--keep-fp32-from", scores, "--out", scores], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            with open(scores) as f:
                now = json.load(f)
            flores = now["sets"]["flores-dev"]
            self.assertEqual(flores["fp32_greedy"], {"bleu": 40.0, "chrf": 50.0})
            self.assertEqual(flores["fp32_beam4"], {"bleu": 41.0, "chrf": 51.0})
            self.assertAlmostEqual(flores["quantization_loss_bleu"], 40.0 - flores["int8_greedy"]["bleu"], places=2)
            self.assertAlmostEqual(flores["quantization_loss_bleu_beam4"], 41.0 - flores["int8_beam4"]["bleu"], places=2)
            self.assertIn("int8_beam4_rerank", flores)
            self.assertIn("fp32_scores_from", now)
            # a set the earlier file did not score has no fp32 columns (nothing made up)
            self.assertNotIn("fp32_greedy", now["sets"]["tatoeba-dev"])


if __name__ == "__main__":
    unittest.main()
