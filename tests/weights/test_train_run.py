"""weights/recipe/train.py as a program, tiny and on CPU: a run from a model file writes model.pt
and last.pt, and running the same command again resumes from last.pt (weights, Adam, step, epoch
position) instead of starting over. Needs PyTorch."""
import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

from recipe_env import ROOT, needs_torch

RECIPE = os.path.join(ROOT, "weights", "recipe")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


def events(log_path):
    with open(log_path) as f:
        return [json.loads(line) for line in f]


@needs_torch
class TrainRun(unittest.TestCase):
    def test_a_second_run_resumes_where_the_first_stopped(self):
        with tempfile.TemporaryDirectory() as tmp:
            corpus, data, out = (os.path.join(tmp, d) for d in ("corpus", "data", "out"))
            os.makedirs(os.path.join(corpus, "train"))
            with open(os.path.join(FIXTURES, "dev", "tatoeba-dev.en-de.tsv"), encoding="utf-8") as f:
                pairs = f.read().splitlines()[:300]
            with gzip.open(os.path.join(corpus, "train", "tatoeba.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.write("\n".join(pairs) + "\n")
            mix = ",".join(f"{n}=0" for n in ("news", "ted", "docs", "multi30k", "dict-sentences", "bible", "ui", "dict",
                                              "news-recent", "news-mt", "games", "wiki"))
            subprocess.run([sys.executable, os.path.join(RECIPE, "prepare_data.py"), "--corpus", corpus, "--out", data,
                            "--mix", mix + ",tatoeba=1", "--nmt", "none",
                            "--reuse-vocab", os.path.join(FIXTURES, "tiny.nmt")], check=True, capture_output=True)
            config = os.path.join(tmp, "config.json")
            with open(config, "w") as f:  # the fixture model's architecture
                json.dump({"d_model": 32, "n_heads": 4, "d_ff": 64, "encoder_layers": 2, "decoder_layers": 2,
                           "max_length": 64}, f)
            cmd = [sys.executable, os.path.join(RECIPE, "train.py"), "--data", data,
                   "--dev", os.path.join(FIXTURES, "dev", "flores-dev.en-de.tsv"), "--src", "en", "--tgt", "de",
                   "--out", out, "--config", config, "--init-from", os.path.join(FIXTURES, "tiny.nmt"),
                   "--max-tokens", "400", "--max-steps", "4", "--bleu-sentences", "10", "--threads", "1", "--seed", "3"]
            subprocess.run(cmd, check=True, capture_output=True)
            first = events(os.path.join(out, "train.log"))
            self.assertTrue(os.path.exists(os.path.join(out, "model.pt")))
            start_step = [e for e in first if e["event"] == "init_from"][0]["step"]
            end_step = [e for e in first if e["event"] == "checkpoint"][-1]["step"]
            self.assertEqual(end_step, start_step + 4)

            subprocess.run(cmd, check=True, capture_output=True)
            second = events(os.path.join(out, "train.log"))[len(first):]
            self.assertEqual([e["event"] for e in second][:2], ["resume", "start"])
            self.assertEqual(second[0]["step"], end_step)
            self.assertNotIn("init_from", [e["event"] for e in second])
            self.assertEqual([e for e in second if e["event"] == "checkpoint"][-1]["step"], end_step + 4)
            self.assertEqual(len([e for e in second if e["event"] == "valid"]), 1)


if __name__ == "__main__":
    unittest.main()
