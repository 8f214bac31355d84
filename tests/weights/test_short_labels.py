"""The short-labels dev set (issue 54): the fixture is what make_short_labels.py's rules promise,
prepare_data.py keeps its pairs out of training (real, back-translated and distilled pairs alike),
evaluate.py finds it beside the corpus's sets, and exact match counts what it should."""
import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

from recipe_env import ROOT

from dev_sets import SHORT_LABELS, dev_path, label_key, load_dev
from make_short_labels import is_label
from metrics import exact_match

RECIPE = os.path.join(ROOT, "weights", "recipe")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


class TheSet(unittest.TestCase):
    def test_at_least_500_distinct_labels_of_1_to_6_words(self):
        en, de = load_dev(SHORT_LABELS, "en")
        self.assertGreaterEqual(len(en), 500)
        self.assertTrue(all(is_label(e, 6) and is_label(d, 8) for e, d in zip(en, de)))
        self.assertEqual(len({label_key(e) for e in en}), len(en))
        self.assertEqual(len({label_key(d) for d in de}), len(de))

    def test_found_beside_the_corpus_sets(self):
        with tempfile.TemporaryDirectory() as corpus_dev:
            self.assertEqual(dev_path(corpus_dev, "short-labels"), SHORT_LABELS)
            # the corpus's own sets come from the corpus, even where missing (a clear error then, not a copy)
            self.assertEqual(dev_path(corpus_dev, "flores-dev"), os.path.join(corpus_dev, "flores-dev.en-de.tsv"))
            own = os.path.join(corpus_dev, "short-labels.en-de.tsv")
            open(own, "w").close()
            self.assertEqual(dev_path(corpus_dev, "short-labels"), own)

    def test_exact_match(self):
        self.assertEqual(exact_match(["Öffnungszeiten", "Freies Parken ", "Parken"], ["Öffnungszeiten", "Freies Parken",
                                                                                     "Kostenloses Parken"]),
                         100 * 2 / 3)
        self.assertEqual(exact_match(["öffnungszeiten"], ["Öffnungszeiten"]), 0.0)  # case is part of a label
        self.assertEqual(exact_match([], []), 0.0)


class HeldOutOfTraining(unittest.TestCase):
    def test_prepare_data_drops_pairs_sharing_a_side_with_the_set(self):
        labels = [("Opening hours", "Öffnungszeiten"), ("Free parking", "Kostenloses Parken")]
        kept = [("The house is small.", "Das Haus ist klein."), ("We bought bread.", "Wir kauften Brot.")]
        train = kept + [("opening  HOURS", "Geöffnet"),        # the English side, case and spacing aside
                        ("Parking for free", "kostenloses parken"),  # the German side
                        ("Free parking", "Kostenloses Parken")]      # the pair itself
        with tempfile.TemporaryDirectory() as tmp:
            held = os.path.join(tmp, "labels.en-de.tsv")
            with open(held, "w", encoding="utf-8") as f:
                f.writelines(f"{en}\t{de}\n" for en, de in labels)
            corpus = os.path.join(tmp, "corpus")
            os.makedirs(os.path.join(corpus, "train"))
            with gzip.open(os.path.join(corpus, "train", "ui.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.writelines(f"{en}\t{de}\n" for en, de in train)
            synthetic = os.path.join(tmp, "kd")
            os.makedirs(synthetic)
            with open(os.path.join(synthetic, "kd.en-de.tsv"), "w", encoding="utf-8") as f:
                f.write("Opening hours\tÖffnungszeit\nThe cat sleeps.\tDie Katze schläft.\n")
            out = os.path.join(tmp, "data")
            mix = ",".join(f"{n}=0" for n in ("tatoeba", "news", "ted", "docs", "multi30k", "dict-sentences", "bible",
                                              "dict", "news-recent", "news-mt", "games", "wiki")) + ",ui=1"
            cmd = [sys.executable, os.path.join(RECIPE, "prepare_data.py"), "--corpus", corpus, "--out", out,
                   "--reuse-vocab", os.path.join(FIXTURES, "tiny.nmt"), "--nmt", "none", "--mix", mix,
                   "--distilled", synthetic, "--held-out", held]
            subprocess.run(cmd, check=True, capture_output=True)
            with open(os.path.join(out, "train.en"), encoding="utf-8") as f:
                self.assertEqual(sorted(f.read().splitlines()), sorted(en for en, _ in kept))
            with open(os.path.join(out, "kd.en-de.en"), encoding="utf-8") as f:
                self.assertEqual(f.read().splitlines(), ["The cat sleeps."])
            with open(os.path.join(out, "stats.json")) as f:
                self.assertEqual(json.load(f)["ui"]["held_out"], 3)
            # --held-out none: the same pairs train
            subprocess.run(cmd[:-1] + ["none"], check=True, capture_output=True)
            with open(os.path.join(out, "train.en"), encoding="utf-8") as f:
                self.assertEqual(len(f.read().splitlines()), len(train))

    def test_the_default_holds_out_the_fixture_set(self):
        en, de = load_dev(SHORT_LABELS, "en")
        with tempfile.TemporaryDirectory() as tmp:
            corpus = os.path.join(tmp, "corpus")
            os.makedirs(os.path.join(corpus, "train"))
            with gzip.open(os.path.join(corpus, "train", "ui.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.write(f"The house is small.\tDas Haus ist klein.\n{en[0]}\tEtwas anderes\nSomething else\t{de[-1]}\n")
            out = os.path.join(tmp, "data")
            mix = ",".join(f"{n}=0" for n in ("tatoeba", "news", "ted", "docs", "multi30k", "dict-sentences", "bible",
                                              "dict", "news-recent", "news-mt", "games", "wiki"))
            subprocess.run([sys.executable, os.path.join(RECIPE, "prepare_data.py"), "--corpus", corpus, "--out", out,
                            "--reuse-vocab", os.path.join(FIXTURES, "tiny.nmt"), "--nmt", "none", "--mix", mix],
                           check=True, capture_output=True)
            with open(os.path.join(out, "train.en"), encoding="utf-8") as f:
                self.assertEqual(f.read().splitlines(), ["The house is small."])


if __name__ == "__main__":
    unittest.main()
