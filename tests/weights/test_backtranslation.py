"""The round-20 data: back-translation (weights/recipe/backtranslate.py), paragraph pairs split into
sentence pairs by the engine's segmenter (prepare_data.py, `nmt segment`), and the synthetic pairs
reaching train.py for their one direction, tagged. The engine cases run the real CLI (build/nmt)
with the shipped models."""
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from recipe_env import NMT, ROOT, needs_engine, needs_torch

from backtranslate import normalize_line, read_mono
from prepare_data import split_paragraphs, write_direction_pairs



def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write_gz(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as f:
        f.writelines(line + "\n" for line in lines)


class Normalize(unittest.TestCase):
    def test_undoes_tokenized_spacing(self):
        self.assertEqual(normalize_line('He said , " this is it . " Then ( maybe ) he left .'),
                         'He said, "this is it." Then (maybe) he left.')
        self.assertEqual(normalize_line("``Hello ,'' she said ."), '"Hello," she said.')
        self.assertEqual(normalize_line("It is n't , I do n't know"), "It isn't, I don't know")
        self.assertEqual(normalize_line("Preis :  5 %\t"), "Preis: 5%")

    def test_leaves_ordinary_text_alone(self):
        for line in ("Der Dow Jones gab 182,44 Punkte nach.", "„Das ist gut“, sagte sie.", 'A "quoted" word (b) c.'):
            self.assertEqual(normalize_line(line), line)

    def test_read_mono_cleans_filters_and_deduplicates(self):
        with tempfile.TemporaryDirectory() as tmp:
            write_gz(os.path.join(tmp, "mono", "a.de.txt.gz"),
                     ["Das ist ein Satz .", "Das ist ein Satz.", "Zu kurz", "", "x" * 500 + " a b", "Noch ein Satz hier."])
            write_gz(os.path.join(tmp, "mono", "b.en.txt.gz"), ["This is English."])
            self.assertEqual(read_mono(tmp, "de"), ["Das ist ein Satz.", "Noch ein Satz hier."])


@needs_engine
class EngineSteps(unittest.TestCase):
    def test_backtranslate_puts_the_real_text_on_the_target_side(self):
        german = ["Das Haus ist klein.", "Ich habe heute keine Zeit.", "Die Katze schläft auf dem Sofa."]
        english = ["The house is small.", "I have no time today.", "The weather is nice today."]
        with tempfile.TemporaryDirectory() as tmp:
            write_gz(os.path.join(tmp, "corpus", "mono", "news.de.txt.gz"), german)
            write_gz(os.path.join(tmp, "corpus", "mono", "news.en.txt.gz"), english)
            out = os.path.join(tmp, "bt")
            subprocess.run([sys.executable, os.path.join(ROOT, "weights", "recipe", "backtranslate.py"),
                            "--corpus", os.path.join(tmp, "corpus"), "--out", out, "--nmt", NMT,
                            "--weights", os.path.join(ROOT, "weights"), "--chunk", "2"],
                           check=True, capture_output=True)
            with open(os.path.join(out, "bt.en-de.tsv"), encoding="utf-8") as f:
                en_de = [line.rstrip("\n").split("\t") for line in f]
            with open(os.path.join(out, "bt.de-en.tsv"), encoding="utf-8") as f:
                de_en = [line.rstrip("\n").split("\t") for line in f]
            self.assertEqual([de for _, de in en_de], german)  # real German, synthetic English
            self.assertEqual([en for en, _ in de_en], english)  # real English, synthetic German
            self.assertIn("house", en_de[0][0].lower())
            self.assertIn("Haus", de_en[0][1])
            # a second run finds everything translated and rewrites the same pairs
            first = read_text(os.path.join(out, "bt.en-de.tsv"))
            subprocess.run([sys.executable, os.path.join(ROOT, "weights", "recipe", "backtranslate.py"),
                            "--corpus", os.path.join(tmp, "corpus"), "--out", out, "--nmt", "/nonexistent",
                            "--weights", os.path.join(ROOT, "weights")], check=True, capture_output=True)
            self.assertEqual(read_text(os.path.join(out, "bt.en-de.tsv")), first)

    def test_backtranslate_samples_with_a_seed_and_records_it(self):
        german = ["Das Haus ist klein.", "Ich habe heute keine Zeit.", "Die Katze schläft auf dem Sofa.",
                  "Wir treffen uns am Montag im Museum."]
        english = ["The house is small.", "I have no time today."]
        script = os.path.join(ROOT, "weights", "recipe", "backtranslate.py")
        with tempfile.TemporaryDirectory() as tmp:
            write_gz(os.path.join(tmp, "corpus", "mono", "news.de.txt.gz"), german)
            write_gz(os.path.join(tmp, "corpus", "mono", "news.en.txt.gz"), english)

            def run(out, *extra):
                return subprocess.run([sys.executable, script, "--corpus", os.path.join(tmp, "corpus"),
                                       "--out", os.path.join(tmp, out), "--nmt", NMT,
                                       "--weights", os.path.join(ROOT, "weights"), *extra],
                                      capture_output=True, text=True)

            for out, seed in (("a", "5"), ("b", "5"), ("c", "6")):
                r = run(out, "--sample-top-k", "8000", "--seed", seed, "--chunk", "2")
                self.assertEqual(r.returncode, 0, r.stderr)
            with open(os.path.join(tmp, "a", "bt.json")) as f:
                stats = json.load(f)
            self.assertEqual((stats["beam"], stats["sample_top_k"], stats["seed"]), (1, 8000, 5))
            # the same seed draws the same synthetic side again; another seed draws another
            for name in ("bt.en-de.tsv", "bt.de-en.tsv"):
                self.assertEqual(read_text(os.path.join(tmp, "a", name)), read_text(os.path.join(tmp, "b", name)))
            self.assertNotEqual(read_text(os.path.join(tmp, "a", "bt.en-de.tsv")) + read_text(os.path.join(tmp, "a", "bt.de-en.tsv")),
                                read_text(os.path.join(tmp, "c", "bt.en-de.tsv")) + read_text(os.path.join(tmp, "c", "bt.de-en.tsv")))
            r = run("d", "--sample-top-k", "10", "--beam", "4")
            self.assertEqual(r.returncode, 2)
            self.assertIn("--sample-top-k needs --beam 1", r.stderr)

    def test_paragraphs_split_where_both_sides_have_as_many_sentences(self):
        pairs = [("The cat sleeps. Dr. Smith came on Monday. It rained.",
                  "Die Katze schläft. Dr. Smith kam am Montag. Es regnete."),
                 ("One sentence. Two sentences.", "Ein einziger Satz, der beides sagt."),
                 ("Just one.", "Nur einer.")]
        self.assertEqual(split_paragraphs(pairs, NMT), [
            [("The cat sleeps.", "Die Katze schläft."), ("Dr. Smith came on Monday.", "Dr. Smith kam am Montag."),
             ("It rained.", "Es regnete.")],
            [], []])

    def test_prepare_data_splits_long_paragraphs_instead_of_dropping_them(self):
        long_en = " ".join(f"This is sentence number {i} of a long news paragraph." for i in range(1, 9))
        long_de = " ".join(f"Das ist Satz Nummer {i} eines langen Nachrichtenabsatzes." for i in range(1, 9))
        self.assertGreater(len(long_en), 400)
        with tempfile.TemporaryDirectory() as tmp:
            corpus, out, bt = (os.path.join(tmp, d) for d in ("corpus", "data", "bt"))
            write_gz(os.path.join(corpus, "train", "news.en-de.tsv.gz"),
                     [f"{long_en}\t{long_de}", "The house is small.\tDas Haus ist klein."])
            os.makedirs(bt)
            with open(os.path.join(bt, "bt.en-de.tsv"), "w", encoding="utf-8") as f:
                f.write("Synthetic English here.\tEchtes Deutsch hier.\n")
            mix = ",".join(f"{n}=0" for n in ("tatoeba", "ted", "docs", "multi30k", "dict-sentences", "bible", "ui",
                                              "dict", "news-recent", "news-mt", "games", "wiki"))
            subprocess.run([sys.executable, os.path.join(ROOT, "weights", "recipe", "prepare_data.py"),
                            "--corpus", corpus, "--out", out, "--mix", mix + ",news=1", "--nmt", NMT,
                            "--back-translations", bt, "--bt-weight", "0.5",
                            "--reuse-vocab", os.path.join(ROOT, "tests", "fixtures", "spm.model")],
                           check=True, capture_output=True)
            with open(os.path.join(out, "train.en"), encoding="utf-8") as f:
                en = f.read().splitlines()
            self.assertEqual(len(en), 9)
            self.assertIn("This is sentence number 8 of a long news paragraph.", en)
            with open(os.path.join(out, "bt.en-de.de"), encoding="utf-8") as f:
                self.assertEqual(f.read(), "Echtes Deutsch hier.\n")
            with open(os.path.join(out, "bt.en-de.weight")) as f:
                self.assertEqual(f.read(), "0.5\n")
            self.assertFalse(os.path.exists(os.path.join(out, "bt.de-en.en")))


class SyntheticPairs(unittest.TestCase):
    @needs_torch
    def test_train_reads_its_directions_pairs_with_the_tag(self):
        from train import read_direction_pairs
        with tempfile.TemporaryDirectory() as tmp:
            bt = os.path.join(tmp, "bt")
            os.makedirs(bt)
            with open(os.path.join(bt, "bt.de-en.tsv"), "w", encoding="utf-8") as f:
                f.write("The house is small.\tDas Haus ist klein.\nGood morning.\tGuten Morgen.\n")
            if not shutil.which("spm_encode"):
                self.skipTest("Debian's sentencepiece tools are not installed")
            write_direction_pairs("bt", bt, tmp, os.path.join(ROOT, "tests", "fixtures", "spm"), 1.0)
            src, tgt, weights = read_direction_pairs(tmp, "bt", "de", "en", 256, tag_id=2)
            self.assertEqual(len(src), 2)
            self.assertEqual([s[0] for s in src], [2, 2])  # the tag starts every synthetic source
            self.assertNotIn(2, [t for row in tgt for t in row])
            plain, _, _ = read_direction_pairs(tmp, "bt", "de", "en", 256)
            self.assertEqual([s[1:] for s in src], plain)
            self.assertEqual(weights, [1.0, 1.0])
            self.assertEqual(read_direction_pairs(tmp, "bt", "en", "de", 256, tag_id=2), ([], [], []))


if __name__ == "__main__":
    unittest.main()
