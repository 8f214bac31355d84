"""weights/recipe/memory.py and the engine's translation memory (engine/text/memory.h): the key a
sentence is looked up by (the same cases as tests/engine/test_memory.cpp), which translation a key
keeps, the table stored in a model file, and the native CLI giving the memory's translation through
the fixture model (forced decoding: whatever the tiny model would write, the text is the memory's)."""
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
NMT = os.path.join(ROOT, "build", "nmt")


class Key(unittest.TestCase):
    def test_case_spacing_curly_quotes_and_final_marks_do_not_count(self):
        from memory import memory_key
        cases = {"Tschüss, bis morgen!": "tschüss bis morgen", "  TSCHÜSS,   bis\tmorgen ?! ": "tschüss bis morgen",
                 "Hello, how are you?": "hello how are you", "a ,b": "a b",
                 "Ärger über Öl…": "ärger über öl", "I\u2019m fine.": "i'm fine",
                 "\u201eJa\u201c, sagte er.": '"ja" sagte er', "Really???": "really", "3 \u00d7 4": "3 \u00d7 4",
                 "...": "", "": "", "ÉCOLE": "école", "ß": "ß"}
        for text, key in cases.items():
            with self.subTest(text=text):
                self.assertEqual(memory_key(text), key)


class Build(unittest.TestCase):
    def test_a_key_keeps_its_most_frequent_translation(self):
        import memory
        pairs = [("Bye!", "Tschüss!"), ("Bye.", "Tschüss."), ("bye", "Auf Wiedersehen."), ("Bye!", "Tschüss!"),
                 ("Hello.", "Hallo."), ("Hello.", "Guten Tag."),  # a tie: the first
                 ("I have 2 cats.", "Ich habe 2 Katzen."),      # digits: left to the number rules
                 ("Good night. Sweet dreams!", "Gute Nacht. Schlaf gut!"),  # two sentences: never looked up
                 ("Sleep well!", "Schlaf gut/Schlaf schön!")]   # alternatives with "/"
        groups = memory.group(pairs)
        self.assertEqual(sorted(groups), ["bye", "hello"])
        self.assertEqual(groups["bye"][1], "Tschüss!")  # "tschüss" three times, written "Tschüss!" twice
        self.assertEqual(groups["bye"][2], {"tschüss", "auf wiedersehen"})
        self.assertEqual(groups["bye"][3], {"tschüss": "Tschüss!", "auf wiedersehen": "Auf Wiedersehen."})
        self.assertEqual(groups["hello"][1], "Hallo.")

    @unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
    def test_build_keeps_what_the_model_gets_wrong_and_add_stores_it(self):
        import memory
        from model_file import read_model_file
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "train"))
            with gzip.open(os.path.join(tmp, "train", "tatoeba.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.write("Happy birthday!\tAlles Gute zum Geburtstag!\nGood night.\tGute Nacht.\n"
                        "This sentence has far too many words for it.\tZu lang.\n")
            with gzip.open(os.path.join(tmp, "train", "dict-sentences.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.write("Good night!\tGute Nacht!\n")
            table = os.path.join(tmp, "en-de.memory.tsv")
            stats = memory.build(tmp, "en-de", NMT, TINY, table)
            self.assertEqual(stats["keys"], 2)  # "good night" twice; the long one left out
            with open(table, encoding="utf-8") as f:
                lines = f.read().splitlines()
            # the tiny model gets both wrong
            self.assertEqual(lines, ["good night\tGute Nacht.", "happy birthday\tAlles Gute zum Geburtstag!"])
            out = os.path.join(tmp, "m.nmt")
            memory.add(TINY, out, table)
            header, tensors = read_model_file(out)
            self.assertEqual(tensors["memory"].tobytes().decode("utf-8").splitlines(), lines)
            self.assertEqual(header["provenance"]["memory"]["entries"], 2)
            _, before = read_model_file(TINY)
            for name, t in before.items():
                self.assertTrue((tensors[name] == t).all(), name)
            # over the byte budget, the shortest sources stay
            small = memory.build(tmp, "en-de", NMT, TINY, table, max_bytes=30)
            self.assertEqual((small["kept"], small["left_out_for_size"]), (1, 1))
            with open(table, encoding="utf-8") as f:
                self.assertEqual(f.read(), "good night\tGute Nacht.\n")
            # an unsorted table is refused
            with open(table, "w", encoding="utf-8") as f:
                f.write("happy birthday\tA\ngood night\tB\n")
            with self.assertRaises(SystemExit):
                memory.add(TINY, out, table)


class Add(unittest.TestCase):
    def test_an_empty_table_removes_the_memory_and_gives_the_file_back_as_it_was(self):
        import memory
        with tempfile.TemporaryDirectory() as tmp:
            table, empty, out = (os.path.join(tmp, n) for n in ("t.tsv", "empty.tsv", "m.nmt"))
            with open(table, "w", encoding="utf-8") as f:
                f.write("good night\tGute Nacht.\n")
            open(empty, "w").close()
            memory.add(TINY, out, table)
            memory.add(out, out, empty)  # in place: the file is read before it is written
            with open(out, "rb") as a, open(TINY, "rb") as b:
                self.assertEqual(a.read(), b.read())


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class Engine(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        import memory
        cls.tmp = tempfile.TemporaryDirectory()
        table = os.path.join(cls.tmp.name, "t.tsv")
        with open(table, "w", encoding="utf-8") as f:
            f.write("good night\tGute Nacht.\nhappy birthday\tAlles Gute zum Geburtstag!\n")
        cls.model = os.path.join(cls.tmp.name, "m.nmt")
        memory.add(TINY, cls.model, table)

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def run_cli(self, text, *options):
        r = subprocess.run([NMT, "--model", self.model, *options], input=text + "\n", capture_output=True, text=True,
                           timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        return r.stdout.rstrip("\n")

    def test_a_sentence_the_memory_holds_gets_its_translation(self):
        for beam in ("1", "4"):
            with self.subTest(beam=beam):
                self.assertEqual(self.run_cli("Happy birthday!", "--beam", beam), "Alles Gute zum Geburtstag!")
                self.assertEqual(self.run_cli("happy   birthday", "--beam", beam), "Alles Gute zum Geburtstag!")
                self.assertEqual(self.run_cli("Good night!!", "--beam", beam), "Gute Nacht!!")
                self.assertEqual(self.run_cli("good night", "--beam", beam), "Gute Nacht")
                self.assertEqual(self.run_cli("GOOD NIGHT.", "--beam", beam), "GUTE NACHT.")
                # in a text, sentence by sentence; a longer sentence is the model's
                text = self.run_cli("Good night. Happy birthday, Tom! Happy birthday!", "--beam", beam)
                self.assertTrue(text.startswith("Gute Nacht. "), text)
                self.assertTrue(text.endswith(" Alles Gute zum Geburtstag!"), text)
                self.assertNotIn("Tom!", text.replace("Alles Gute zum Geburtstag!", ""))

    def test_model_only_and_a_prefix_leave_it_to_the_model(self):
        self.assertNotEqual(self.run_cli("Happy birthday!", "--model-only"), "Alles Gute zum Geburtstag!")
        alternatives = json.loads(self.run_cli("Happy birthday!", "--prefix", "Alles", "--alternatives", "3"))
        self.assertTrue(alternatives["alternatives"])  # the model's next words, as for any sentence
        prefixed = self.run_cli("Happy birthday!", "--prefix", "Herzlichen")
        self.assertTrue(prefixed.startswith("Herzlichen"), prefixed)

    def test_the_json_says_memory_with_sure_tokens_and_the_models_alignments(self):
        result = json.loads(self.run_cli("Happy birthday! Good night.", "--alignments"))
        for s in result["sentences"]:
            self.assertTrue(s["memory"], s)
            self.assertEqual(set(s["token_probs"]), {1})
            self.assertEqual(len(s["attention"]), len(s["target_tokens"]))
            self.assertTrue(s["word_alignments"])
        plain = json.loads(self.run_cli("Happy birthday!", "--alignments", "--model-only"))
        self.assertNotIn("memory", plain["sentences"][0])


if __name__ == "__main__":
    unittest.main()
