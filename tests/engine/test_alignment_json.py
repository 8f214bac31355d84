"""The alignment JSON is compact: attention weights at 5 decimals (a 255-token chunk's matrices were
~12 MiB at float precision; a long sentence is cut into units of at most 128 tokens since 614cb64),
rows still summing to 1; the word links carry the same rounded weights."""
import json
import os
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")
MODEL = os.path.join(ROOT, "weights", "en-de", "model.nmt")


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class AlignmentJson(unittest.TestCase):
    def run_nmt(self, text, *args):
        r = subprocess.run([NMT, "--model", MODEL, "--beam", "1", "--alignments", *args], input=text + "\n",
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.splitlines()[0]

    def test_weights_have_five_decimals_and_rows_sum_to_one(self):
        words = "the old man saw a small house near the river and".split()
        line = self.run_nmt(" ".join(words[i % len(words)] for i in range(200)) + ".")
        s = json.loads(line)["sentences"][0]
        self.assertGreater(len(s["source_tokens"]), 100)  # (a unit of up to 128 tokens: units.h kChunkTokens)
        # the model's attention ("word0 word1 ..." is copied as a long run: its attention, the
        # identity, is left out of the JSON, test_copied_cost.cpp)
        self.assertNotIn("copied", s)
        for row in s["attention"]:
            self.assertAlmostEqual(sum(row), 1.0, delta=1e-3)
            for x in row:
                self.assertAlmostEqual(x * 1e5, round(x * 1e5), delta=1e-6)
        for _, _, w in s["word_alignments"]:
            self.assertAlmostEqual(w * 1e5, round(w * 1e5), delta=1e-6)
        # (a 200-word unit was ~1.15 MB, 3.26 MB at float precision)
        self.assertLess(len(line.encode()), 1_600_000)

    def test_all_heads_are_rounded_too(self):
        s = json.loads(self.run_nmt("The house is small.", "--all-heads"))["sentences"][0]
        for layer in s["heads"]:
            for head in layer:
                for row in head:
                    self.assertAlmostEqual(sum(row), 1.0, delta=1e-3)
                    self.assertTrue(all(abs(x * 1e5 - round(x * 1e5)) < 1e-6 for x in row))

    def test_attention_limit_leaves_out_big_matrices_and_keeps_word_alignments(self):
        text = "The house is small. The list says " + " ".join(f"word{i}" for i in range(60)) + "."
        doc = json.loads(self.run_nmt(text, "--attention-limit", "40", "--all-heads"))
        short, long = doc["sentences"]
        self.assertIn("attention", short)
        self.assertIn("heads", short)
        self.assertGreater(len(long["source_tokens"]), 40)
        self.assertNotIn("attention", long)
        self.assertNotIn("heads", long)
        self.assertTrue(long["word_alignments"] and long["target_words"] and long["target_word_probs"])
        r = subprocess.run([NMT, "--model", MODEL, "--attention-limit", "2000"], input="x\n", capture_output=True, text=True)
        self.assertEqual(r.returncode, 2)
        self.assertIn("--attention-limit must be an integer from 0 to 1024", r.stderr)


if __name__ == "__main__":
    unittest.main()
