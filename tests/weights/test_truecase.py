"""weights/recipe/truecase.py: the word lists for sentences in capitals, counted on a corpus and
stored in a model file."""
import collections
import gzip
import json
import os
import subprocess
import sys
import tempfile
import unittest

from recipe_env import ROOT

RECIPE = os.path.join(ROOT, "weights", "recipe")
TINY = os.path.join(ROOT, "tests", "fixtures", "tiny.nmt")


class Lists(unittest.TestCase):
    def test_a_word_is_listed_when_its_usual_form_is_not_lower_case(self):
        import truecase
        c = collections.Counter({"Haus": 5, "haus": 1, "die": 10, "Die": 3, "NASA": 5, "Nasa": 1,
                                 "iPhone": 5, "Rare": 4, "İstanbul": 9})
        forms = truecase.usual_forms(c, min_count=5)
        # "Rare" is seen too seldom; "die" is usually lower case; "İstanbul" would change length in bytes
        self.assertEqual(forms, ["Haus", "NASA", "iPhone"])
        self.assertEqual(truecase.usual_forms(c, min_count=1), ["Haus", "NASA", "Rare", "iPhone"])

    def test_a_pair_is_listed_where_its_words_own_forms_get_it_wrong(self):
        import truecase
        forms = ["Sie", "York"]
        pairs = collections.Counter({"New York": 9, "new York": 1, "dass sie": 7, "dass Sie": 2, "Sie nicht": 6,
                                     "in York": 8, "Rare Pair": 4})
        # "Sie nicht" and "in York" are what the words give anyway; "Rare Pair" is seen too seldom
        self.assertEqual(truecase.usual_pairs(pairs, forms, min_count=5), ["New York", "dass sie"])

    def test_the_first_word_of_a_sentence_is_not_counted(self):
        import truecase
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "train"))
            with gzip.open(os.path.join(tmp, "train", "x.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.write("Houses are big. Cats sleep in Berlin.\tHäuser sind groß. Katzen schlafen in Berlin.\n" * 6)
            counts = truecase.count_forms(tmp)
            self.assertNotIn("Houses", counts["en"])
            self.assertNotIn("Cats", counts["en"])  # after a full stop
            self.assertEqual(counts["en"]["Berlin"], 6)
            self.assertEqual(counts["de"]["groß"], 6)
            table = truecase.build(tmp)
            self.assertEqual(table["forms"], {"en": ["Berlin"], "de": ["Berlin"]})  # "in Berlin": no pair needed

    def test_add_stores_both_lists_and_keeps_the_rest_of_the_file(self):
        import numpy as np
        from model_file import read_model_file
        table = {"min_count": 5, "forms": {"en": ["Berlin", "NASA"], "de": ["Haus", "Straße"]}}
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "t.json"), "w", encoding="utf-8") as f:
                json.dump(table, f, ensure_ascii=False)
            out = os.path.join(tmp, "m.nmt")
            r = subprocess.run([sys.executable, os.path.join(RECIPE, "truecase.py"), "add", "--model", TINY,
                                "--table", os.path.join(tmp, "t.json"), "--out", out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            h0, t0 = read_model_file(TINY)
            h1, t1 = read_model_file(out)
            self.assertEqual(bytes(t1["truecase.en"]).decode(), "Berlin\nNASA")
            self.assertEqual(bytes(t1["truecase.de"]).decode(), "Haus\nStraße")
            self.assertEqual(h1["provenance"]["truecase"], {"min_count": 5, "words": {"en": 2, "de": 2}})
            for name, t in t0.items():
                np.testing.assert_array_equal(t1[name], t, err_msg=name)
            self.assertEqual(h1["config"], h0["config"])


if __name__ == "__main__":
    unittest.main()
