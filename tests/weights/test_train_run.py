"""weights/recipe/train.py as a program, tiny and on CPU: a run from a model file writes model.pt
and last.pt, running the same command again resumes from last.pt (weights, Adam, step, epoch
position) instead of starting over, and --model-from-last-checkpoint turns last.pt into model.pt
without training or averaging. Needs PyTorch."""
import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

from recipe_env import NMT, ROOT, needs_engine, needs_torch

RECIPE = os.path.join(ROOT, "weights", "recipe")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


def events(log_path):
    with open(log_path) as f:
        return [json.loads(line) for line in f]


def tiny_run(tmp):
    """(train.py's command line, its --out) for a run of the fixture model's architecture from
    tiny.nmt on 300 tatoeba pairs, four steps long."""
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
    return cmd, out


@needs_torch
class TrainRun(unittest.TestCase):
    def test_a_second_run_resumes_where_the_first_stopped(self):
        with tempfile.TemporaryDirectory() as tmp:
            cmd, out = tiny_run(tmp)
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

    @needs_engine
    def test_model_from_last_checkpoint_is_last_pt_as_it_is_and_exports(self):
        import torch
        with tempfile.TemporaryDirectory() as tmp:
            cmd, out = tiny_run(tmp)
            r = subprocess.run(cmd + ["--model-from-last-checkpoint"], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)  # before any checkpoint
            self.assertIn("there is no", r.stderr)
            self.assertFalse(os.path.exists(os.path.join(out, "model.pt")))

            subprocess.run(cmd, check=True, capture_output=True)
            averaged = torch.load(os.path.join(out, "model.pt"), map_location="cpu", weights_only=False)
            os.remove(os.path.join(out, "model.pt"))  # as if the run had stopped after its last checkpoint
            logged = len(events(os.path.join(out, "train.log")))
            r = subprocess.run(cmd + ["--model-from-last-checkpoint"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual([e["event"] for e in events(os.path.join(out, "train.log"))[logged:]],
                             ["model_from_last_checkpoint"])  # no training, no validation
            last = torch.load(os.path.join(out, "last.pt"), map_location="cpu", weights_only=False)
            ck = torch.load(os.path.join(out, "model.pt"), map_location="cpu", weights_only=False)
            self.assertEqual(ck["state_dict"].keys(), last["model"].keys())
            for name, w in last["model"].items():
                self.assertTrue(torch.equal(ck["state_dict"][name], w), name)
            self.assertEqual(ck["train"]["averaged"], 1)
            self.assertEqual(ck["history"], last["state"]["history"])
            self.assertEqual(ck["languages"], averaged["languages"])
            # the same record as the run's own model.pt, apart from what the averaging decides
            for key in ("steps", "target_tokens", "epochs", "device", "threads", "precision", "rounds"):
                self.assertEqual(ck["train"][key], averaged["train"][key], key)

            exported = os.path.join(tmp, "last.nmt")
            subprocess.run([sys.executable, os.path.join(RECIPE, "export.py"), "--checkpoint",
                            os.path.join(out, "model.pt"), "--spm", os.path.join(FIXTURES, "tiny-spm.model"),
                            "--out", exported], check=True, capture_output=True)
            r = subprocess.run([NMT, "--model", exported], input="The house is small.\n", capture_output=True,
                               text=True, timeout=120)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(r.stdout.strip())


if __name__ == "__main__":
    unittest.main()
