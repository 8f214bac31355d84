"""weights/recipe/compare_runs.py: model files of one direction scored side by side with the real
engine CLI, each against the first with a paired-bootstrap interval; translations cached."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from recipe_env import NMT, ROOT, needs_engine

RECIPE = os.path.join(ROOT, "weights", "recipe")


def read_json(path):
    with open(path) as f:
        return json.load(f)


@needs_engine
class CompareRuns(unittest.TestCase):
    def test_a_copy_ties_a_different_model_does_not_and_a_rerun_only_scores(self):
        with tempfile.TemporaryDirectory() as tmp:
            dev = os.path.join(tmp, "dev")
            os.makedirs(dev)
            for name in ("flores-dev", "tatoeba-dev"):
                with open(os.path.join(ROOT, "tests", "fixtures", "dev", f"{name}.en-de.tsv"), encoding="utf-8") as f:
                    lines = f.readlines()[:25]
                with open(os.path.join(dev, f"{name}.en-de.tsv"), "w", encoding="utf-8") as f:
                    f.writelines(lines)
            shipped = os.path.join(ROOT, "weights", "en-de", "model.nmt")
            copy = os.path.join(tmp, "copy.nmt")
            shutil.copy(shipped, copy)
            tiny = os.path.join(ROOT, "tests", "fixtures", "tiny.nmt")
            out = os.path.join(tmp, "cmp.json")
            cmd = [sys.executable, os.path.join(RECIPE, "compare_runs.py"), "--dev-dir", dev, "--direction", "en-de",
                   "--sets", "flores-dev,tatoeba-dev", "--out", out, f"control={shipped}", f"copy={copy}", f"tiny={tiny}"]
            r = subprocess.run(cmd + ["--nmt", NMT], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            scores = read_json(out)["scores"]
            for name in ("flores-dev", "tatoeba-dev"):
                self.assertNotIn("vs_first", scores[name]["control"])
                self.assertEqual(scores[name]["copy"]["bleu"], scores[name]["control"]["bleu"])
                self.assertEqual(scores[name]["copy"]["vs_first"]["delta"], 0)
                tiny_vs = scores[name]["tiny"]["vs_first"]
                self.assertLess(tiny_vs["high"], 0)  # the fixture model is far worse than the shipped one
                self.assertEqual(tiny_vs["p_b_not_better"], 1.0)
            self.assertIn("| copy | ", r.stdout)
            for name in ("flores-dev", "tatoeba-dev"):  # exact match and chrF's interval only on label sets
                self.assertNotIn("exact_match", scores[name]["copy"])
                self.assertNotIn("chrf_vs_first", scores[name]["copy"])
            again = subprocess.run(cmd + ["--nmt", os.path.join(tmp, "no-such-engine")], capture_output=True, text=True)
            self.assertEqual(again.returncode, 0, again.stderr)  # all translations came from the cache
            self.assertEqual(read_json(out)["scores"], scores)

    def test_a_label_set_gets_exact_match_and_a_chrf_interval(self):
        with tempfile.TemporaryDirectory() as tmp:
            shipped = os.path.join(ROOT, "weights", "de-en", "model.nmt")
            tiny = os.path.join(ROOT, "tests", "fixtures", "tiny.nmt")
            out = os.path.join(tmp, "cmp.json")
            # short-labels: not in --dev-dir, so read from tests/fixtures/dev (dev_sets.dev_path)
            r = subprocess.run([sys.executable, os.path.join(RECIPE, "compare_runs.py"), "--dev-dir", tmp, "--direction",
                                "de-en", "--sets", "short-labels", "--out", out, "--nmt", NMT, "--beam", "1",
                                f"shipped={shipped}", f"tiny={tiny}"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            rows = read_json(out)["scores"]["short-labels"]
            self.assertNotIn("chrf_vs_first", rows["shipped"])
            for name in ("shipped", "tiny"):
                self.assertGreaterEqual(rows[name]["exact_match"], 0)
                self.assertLessEqual(rows[name]["exact_match"], 100)
            c = rows["tiny"]["chrf_vs_first"]
            self.assertAlmostEqual(c["delta"], rows["tiny"]["chrf"] - rows["shipped"]["chrf"], delta=0.02)
            self.assertLessEqual(c["low"], c["delta"])
            self.assertGreaterEqual(c["high"], c["delta"])
            self.assertIn(", exact ", r.stdout)
            self.assertIn(", chrF ", r.stdout)

    def test_bad_arguments_are_refused(self):
        for runs in (["control=/no/such.nmt"], [f"a={NMT}", f"a={NMT}"]):
            r = subprocess.run([sys.executable, os.path.join(RECIPE, "compare_runs.py"), "--dev-dir", ".", "--direction",
                                "en-de", "--out", "/tmp/x.json"] + runs, capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)


if __name__ == "__main__":
    unittest.main()
