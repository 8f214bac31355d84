"""The recipe's measuring tools that no other test runs (weights/recipe/README.md lists them):
sweep_decoding.py (the decoding defaults), calibrate_confidence.py (the page's confidence
threshold), pass_stats.py (how often each text pass fires) and make_langid.py (the language
detector's tables). Each runs on a few lines with the shipped models and build/nmt (or, for
make_langid, on a corpus made up here), and its output is checked for the shape its readers rely on;
what the numbers are is the experiments' business, not the test's."""
import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

from recipe_env import NMT, ROOT, needs_engine

RECIPE = os.path.join(ROOT, "weights", "recipe")
DEV = os.path.join(ROOT, "tests", "fixtures", "dev")


def recipe(script, *args):
    """Runs a recipe script with this interpreter; its stdout (it must exit 0)."""
    out = subprocess.run([sys.executable, os.path.join(RECIPE, script), *args], capture_output=True, text=True)
    if out.returncode != 0:
        raise AssertionError(f"{script} {' '.join(args)} exited {out.returncode}: {out.stderr[-2000:]}")
    return out.stdout


def small_dev(folder, names, lines):
    """The first `lines` lines of each named fixture dev set, written into `folder`."""
    for name in names:
        with open(os.path.join(DEV, f"{name}.en-de.tsv"), encoding="utf-8") as f:
            head = [next(f) for _ in range(lines)]
        with open(os.path.join(folder, f"{name}.en-de.tsv"), "w", encoding="utf-8") as f:
            f.writelines(head)


@needs_engine
class SweepDecoding(unittest.TestCase):
    def test_one_row_per_setting_with_its_scores(self):
        with tempfile.TemporaryDirectory() as tmp:
            small_dev(tmp, ["tatoeba-dev"], 6)
            out = os.path.join(tmp, "sweep.json")
            printed = recipe("sweep_decoding.py", "--dev-dir", tmp, "--src", "en", "--tgt", "de",
                             "--model-file", os.path.join(ROOT, "weights", "en-de", "model.nmt"), "--nmt", NMT,
                             "--beams", "1,2", "--alphas", "0.6", "--betas", "0,0.1", "--sets", "tatoeba-dev", "--out", out)
            with open(out, encoding="utf-8") as f:
                rows = json.load(f)["rows"]
        self.assertEqual([json.loads(line) for line in printed.splitlines()], rows)
        self.assertEqual([(r["beam"], r["coverage_penalty"]) for r in rows], [(1, 0.0), (1, 0.1), (2, 0.0), (2, 0.1)])
        for r in rows:
            self.assertTrue(0 < r["bleu"] <= 100 and 0 < r["chrf"] <= 100 and r["length_ratio"] > 0, r)


@needs_engine
class CalibrateConfidence(unittest.TestCase):
    def test_a_table_per_direction_and_a_threshold_from_the_list(self):
        sys.path.insert(0, RECIPE)
        import calibrate_confidence as cc
        with tempfile.TemporaryDirectory() as tmp:
            small_dev(tmp, cc.SETS, 8)
            out = os.path.join(tmp, "c.json")
            printed = recipe("calibrate_confidence.py", "--nmt", NMT, "--dev", tmp, "--lines", "8", "--beam", "1", "--json", out)
            with open(out, encoding="utf-8") as f:
                result = json.load(f)
        self.assertEqual(set(result["results"]), {"en-de", "de-en"})
        for d, r in result["results"].items():
            self.assertGreater(r["words"], 20, d)
            self.assertEqual(len(r["table"]), len(cc.THRESHOLDS))
            shares = [row[1] for row in r["table"]]
            self.assertEqual(shares, sorted(shares), "a larger threshold flags at least as many words")
            self.assertEqual(len(r["sentence_quartiles"]), 3)
        self.assertTrue(result["chosen"] is None or result["chosen"] in cc.THRESHOLDS)
        self.assertIn("| threshold |", printed)
        # the word matching the table rests on: punctuation off both ends, UTF-16 offsets as the engine gives them
        self.assertEqual(cc.strip_punct("«Haus»,"), "haus")
        self.assertEqual(cc.utf16_slice("😀 Haus", 3, 7), "Haus")


@needs_engine
class PassStats(unittest.TestCase):
    def test_the_sets_and_the_passes_each_sentence_fired(self):
        sys.path.insert(0, RECIPE)
        import pass_stats
        sets = pass_stats.sets(["dev", "false-positives"])
        self.assertEqual({(name, d) for name, d, _ in sets},
                         {(n, d) for n in pass_stats.DEV + ["false-positives"] for d in ("en-de", "de-en")})
        self.assertTrue(all(lines for _, _, lines in sets))
        lines = ["See https://example.com/a-b for details.", "Hello."]
        sentences = pass_stats.run(NMT, "en-de", lines, beam=1)
        self.assertEqual([s["source"] for s in sentences], lines)
        names = {p["name"] for p in json.loads(subprocess.run([NMT, "info", "--model", os.path.join(ROOT, "weights", "en-de", "model.nmt")],
                                                              capture_output=True, text=True, check=True).stdout)["passes"]}
        for s in sentences:
            self.assertLessEqual(set(s.get("passes", [])), names, s)
        self.assertIn("verbatim", sentences[0].get("passes", []), "an address is copied by the verbatim pass")
        without = pass_stats.run(NMT, "en-de", lines[:1], "--no-pass", "verbatim", beam=1)
        self.assertNotIn("verbatim", without[0].get("passes", []))


class MakeLangid(unittest.TestCase):
    def test_writes_the_module_detect_js_reads(self):
        sys.path.insert(0, RECIPE)
        import make_langid
        self.assertEqual(make_langid.normalize("Haus."), " haus ")
        self.assertEqual(make_langid.trigrams("Haus."), [" ha", "hau", "aus", "us "])
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "train"))
            for name in make_langid.SOURCES:
                with gzip.open(os.path.join(tmp, "train", f"{name}.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                    f.write("The house is small.\tDas Haus ist klein.\nThe weather is nice.\tDas Wetter ist schön.\n")
            out = os.path.join(tmp, "langid-data.js")
            recipe("make_langid.py", "--corpus", tmp, "--out", out, "--top", "50")
            with open(out, encoding="utf-8") as f:
                text = f.read()
        body = text[text.index("export default ") + len("export default "):].rstrip().rstrip(";")
        data = json.loads(body)
        self.assertEqual(data["n"], 3)
        en, de = data["languages"]["en"], data["languages"]["de"]
        self.assertIn("the", en["trigrams"])
        self.assertNotIn("the", de["trigrams"])
        self.assertLess(de["floor"], de["trigrams"]["das"], "a seen trigram scores above the floor")
        self.assertLessEqual(len(en["trigrams"]), 50)


if __name__ == "__main__":
    unittest.main()
