"""Quality regression for the shipped models: the C++ engine translates a fixed sample of dev
sentences (tests/fixtures/quality/, 100 flores-dev + 100 tatoeba-dev) with each model named in
weights/manifest.json, and its BLEU must not fall more than 1 point below the figure recorded by
weights/recipe/evaluate.py in that model's scores.json (the model card's numbers). The same holds
for the beam reranked by the other direction's model, where the card records it."""
import json
import os
import subprocess
import unittest

from recipe_env import ROOT  # first: it puts weights/recipe on the import path
from metrics import bleu  # (stdlib only: no torch needed here)

MANIFEST = os.path.join(ROOT, "weights", "manifest.json")


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


class ShippedModelQuality(unittest.TestCase):
    def test_models_keep_their_card_bleu(self):
        if not os.path.exists(MANIFEST):
            self.skipTest("no shipped models yet (weights/manifest.json)")
        manifest = read_json(MANIFEST)
        self.assertEqual({(m["from"], m["to"]) for m in manifest["models"]}, {("en", "de"), ("de", "en")})
        for m in manifest["models"]:
            direction = f'{m["from"]}-{m["to"]}'
            with self.subTest(direction=direction):
                model_file = os.path.join(ROOT, "weights", m["file"])
                self.assertEqual(os.path.getsize(model_file), m["bytes"])
                card = read_json(os.path.join(os.path.dirname(model_file), "scores.json"))["regression_sample"]
                base = os.path.join(ROOT, "tests", "fixtures", "quality", direction)
                src, ref = read_lines(base + ".src"), read_lines(base + ".ref")
                reverse = next(os.path.join(ROOT, "weights", r["file"]) for r in manifest["models"]
                               if (r["from"], r["to"]) == (m["to"], m["from"]))
                runs = [("beam", [], card["bleu"])]
                if "bleu_rerank" in card:
                    runs.append(("beam reranked by the reverse model", ["--reverse-model", reverse], card["bleu_rerank"]))
                for label, extra, expected in runs:
                    out = subprocess.run([os.path.join(ROOT, "build", "nmt"), "--model", model_file, "--beam",
                                          str(card["beam"]), *extra], input="\n".join(src) + "\n", capture_output=True,
                                         text=True, check=True).stdout.split("\n")[: len(src)]
                    score = bleu(out, ref)
                    print(f"{direction}, {label}: BLEU {score:.2f} on {len(src)} sentences (card: {expected})")
                    self.assertGreaterEqual(score, expected - 1.0)


if __name__ == "__main__":
    unittest.main(verbosity=2)
