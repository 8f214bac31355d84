"""weights/recipe/prepare_data.py: the data mix. Each source's weight is the expected number of
copies of each of its pairs per epoch (below 1 a sample, above 1 an upsampling), drawn afresh each
epoch by train.py, and --mix reweights sources by name. Whole weights draw no random numbers, so a
data folder from before per-epoch sampling (every weight 1) gives the same batches as it did.
Standard library, plus Debian's sentencepiece tools for the end-to-end case."""
import gzip
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

from recipe_env import ROOT  # first: it puts weights/recipe on the import path

from prepare_data import MIX, copies, epoch_lines, parse_mix


class Mix(unittest.TestCase):
    def test_whole_weights_draw_nothing(self):
        rng, untouched = random.Random(7), random.Random(7)
        self.assertEqual([copies(w, rng) for w in (0.0, 1.0, 2.0, 3.0)], [0, 1, 2, 3])
        self.assertEqual(rng.random(), untouched.random())

    def test_fractional_weights_average_to_the_weight(self):
        rng = random.Random(1)
        for weight in (0.08, 0.3, 1.5, 2.25):
            counts = [copies(weight, rng) for _ in range(20000)]
            self.assertAlmostEqual(sum(counts) / len(counts), weight, delta=0.02)
            self.assertTrue(set(counts) <= {int(weight), int(weight) + 1})

    def test_sampling_below_one_matches_the_old_keep_rule(self):
        # Before --mix, a pair was kept when rng.random() < fraction: same draws, same pairs.
        a, b = random.Random(3), random.Random(3)
        for _ in range(1000):
            self.assertEqual(copies(0.6, a), 1 if b.random() < 0.6 else 0)

    def test_epoch_lines_repeat_each_line_by_its_weight(self):
        rng, untouched = random.Random(5), random.Random(5)
        self.assertEqual(epoch_lines([1.0, 2.0, 0.0, 3.0], rng), [0, 1, 1, 3, 3, 3])
        self.assertEqual(rng.random(), untouched.random())

    def test_each_epoch_draws_a_new_sample(self):
        # A source weighted 0.2 must not show the same fifth of its pairs every epoch: over 20
        # epochs nearly all of them (1 - 0.8^20 = 98.8%) should have been seen.
        weights = [0.2] * 5000
        seen, first = set(), None
        for epoch in range(20):
            lines = epoch_lines(weights, random.Random(1 + epoch))
            self.assertAlmostEqual(len(lines) / len(weights), 0.2, delta=0.03)
            first = first or set(lines)
            seen.update(lines)
        self.assertNotEqual(set(epoch_lines(weights, random.Random(2))), first)
        self.assertGreater(len(seen) / len(weights), 0.97)

    def test_parse_mix(self):
        self.assertEqual(parse_mix(None), MIX)
        mix = parse_mix("news=3, ted=2,tatoeba=0.5")
        self.assertEqual((mix["news"], mix["ted"], mix["tatoeba"], mix["docs"]), (3.0, 2.0, 0.5, MIX["docs"]))
        for bad in ("wikipedia=2", "news", "news=lots", "news=-1"):
            with self.assertRaises(SystemExit, msg=bad):
                parse_mix(bad)


@unittest.skipIf(not shutil.which("spm_encode"), "Debian's sentencepiece tools are not installed")
class PrepareData(unittest.TestCase):
    """prepare_data.py end to end on a tiny corpus: every cleaned pair once, with its source's weight."""

    def test_writes_each_cleaned_pair_once_with_its_weight(self):
        with tempfile.TemporaryDirectory() as tmp:
            corpus, out = os.path.join(tmp, "corpus"), os.path.join(tmp, "data")
            os.makedirs(os.path.join(corpus, "train"))
            rows = {name: [] for name in MIX}
            rows["news"] = [("The house is small.", "Das Haus ist klein."), ("Good morning.", "Guten Morgen."),
                            ("The <unk> is small.", "Das <unk> ist klein.")]  # 3rd: the unknown piece written out
            rows["ui"] = [("Open %s", "%s öffnen"), ("Save %s", "Speichern"), ("Close", "Schließen")]  # 2nd: placeholder lost
            rows["dict"] = [("house", "Haus")]
            rows["bible"] = [("In the beginning", "Am Anfang")]
            for name, pairs in rows.items():
                with gzip.open(os.path.join(corpus, "train", f"{name}.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                    f.writelines(f"{en}\t{de}\n" for en, de in pairs)
            subprocess.run([sys.executable, os.path.join(ROOT, "weights", "recipe", "prepare_data.py"),
                            "--corpus", corpus, "--out", out, "--mix", "news=2,ui=0.2,bible=0",
                            "--reuse-vocab", os.path.join(ROOT, "tests", "fixtures", "spm.model")],
                           check=True, capture_output=True)
            def read(name):
                with open(os.path.join(out, name), encoding="utf-8") as f:
                    return f.read().splitlines()
            en, de, weights = read("train.en"), read("train.de"), [float(w) for w in read("train.weight")]
            got = {(e, d): w for e, d, w in zip(en, de, weights)}
            self.assertEqual(got, {("The house is small.", "Das Haus ist klein."): 2.0, ("Good morning.", "Guten Morgen."): 2.0,
                                   ("Open %s", "%s öffnen"): 0.2, ("Close", "Schließen"): 0.2,
                                   ("house", "Haus"): MIX["dict"]})
            self.assertEqual(len(read("train.en.ids")), len(en))
            self.assertEqual(len(read("train.de.ids")), len(de))
            with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
                stats = json.load(f)
            self.assertEqual(stats["ui"]["placeholder_mismatch"], 1)
            self.assertEqual(stats["news"]["unknown_token"], 1)
            self.assertEqual(stats["bible"]["weight_zero"], 1)
            self.assertEqual(stats["lines_per_epoch"], round(4 + 0.4 + MIX["dict"]))


if __name__ == "__main__":
    unittest.main()
