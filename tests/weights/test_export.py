"""weights/recipe/export.py --tables-from: a trained model exported with another model file's
shortlist, truecase lists and memory, so that the two files differ in their weights only, and refused
when that file's tokenizer or direction is not the model's."""
import os
import subprocess
import sys
import tempfile
import unittest

import numpy as np

from recipe_env import NMT, ROOT, needs_engine, needs_torch

RECIPE = os.path.join(ROOT, "weights", "recipe")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
TINY = os.path.join(FIXTURES, "tiny.nmt")
TINY_SPM = os.path.join(FIXTURES, "tiny-spm.model")  # the tokenizer tiny.nmt embeds


def export(*args):
    return subprocess.run([sys.executable, os.path.join(RECIPE, "export.py"), *args], capture_output=True, text=True)


@needs_torch
class TablesFrom(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        """A model.pt with tiny.nmt's weights moved a little (a "continued run"), and tiny.nmt with all
        three tables."""
        import torch
        import memory
        import shortlist
        import truecase
        from interpolate import load_weights
        cls.tmp = tempfile.TemporaryDirectory()
        cls.pt = cls.path("model.pt")
        ck, weights = load_weights(TINY)
        generator = torch.Generator().manual_seed(0)
        ck["state_dict"] = {name: w + 0.01 * torch.randn(w.shape, generator=generator) for name, w in weights.items()}
        torch.save(ck, cls.pt)
        cls.tables = cls.path("tables.nmt")
        frequent = np.array([3, 5, 9], dtype="<u2")
        counts = np.zeros(ck["config"]["vocab_size"], dtype=np.uint8)
        counts[[4, 10]] = 2
        shortlist.add(TINY, cls.tables, shortlist.Table(frequent, counts, np.array([6, 7, 8, 11], dtype="<u2")),
                      {"built_from": "test"})
        truecase.add(cls.tables, cls.tables, {"min_count": 5, "forms": {"en": ["Berlin"], "de": ["Haus"]}})
        with open(cls.path("memory.tsv"), "w", encoding="utf-8") as f:
            f.write("happy birthday\tAlles Gute zum Geburtstag!\n")
        memory.add(cls.tables, cls.tables, cls.path("memory.tsv"))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    @classmethod
    def path(cls, name):
        return os.path.join(cls.tmp.name, name)

    def test_the_tables_and_their_provenance_come_from_the_file_and_the_weights_from_the_checkpoint(self):
        from model_file import read_model_file
        plain, grafted = self.path("plain.nmt"), self.path("grafted.nmt")
        for out, extra in ((plain, []), (grafted, ["--tables-from", self.tables])):
            r = export("--checkpoint", self.pt, "--spm", TINY_SPM, "--out", out, *extra)
            self.assertEqual(r.returncode, 0, r.stderr)
        h_plain, t_plain = read_model_file(plain)
        h_tables, t_tables = read_model_file(self.tables)
        h_out, t_out = read_model_file(grafted)
        table_names = ["shortlist.frequent", "shortlist.counts", "shortlist.targets", "truecase.en", "truecase.de",
                       "memory"]
        self.assertEqual(list(t_out), list(t_plain)[:-1] + table_names + ["tokenizer.spm"])
        for name in table_names:
            self.assertEqual(t_out[name].dtype, t_tables[name].dtype, name)
            self.assertEqual(t_out[name].tobytes(), t_tables[name].tobytes(), name)
        for name, t in t_plain.items():  # the weights are the checkpoint's, exported as without the option
            self.assertEqual(t_out[name].tobytes(), t.tobytes(), name)
        self.assertFalse(np.array_equal(t_out["embed.weight"], t_tables["embed.weight"]))
        for key in ("config", "languages", "tokenizer", "alignment"):
            self.assertEqual(h_out[key], h_plain[key], key)
        self.assertEqual(h_out["provenance"], dict(h_plain["provenance"], **{
            key: h_tables["provenance"][key] for key in ("shortlist", "truecase", "memory")}))

    @needs_engine
    def test_the_engine_loads_the_file_and_answers_from_its_memory(self):
        out = self.path("engine.nmt")
        r = export("--checkpoint", self.pt, "--spm", TINY_SPM, "--out", out, "--tables-from", self.tables)
        self.assertEqual(r.returncode, 0, r.stderr)
        for options in ([], ["--shortlist"]):
            with self.subTest(options=options):
                r = subprocess.run([NMT, "--model", out, *options], input="Happy birthday!\n", capture_output=True,
                                   text=True, timeout=120)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(r.stdout.strip(), "Alles Gute zum Geburtstag!")

    def test_a_file_of_another_tokenizer_or_direction_is_refused_and_nothing_written(self):
        from model_file import read_model_file, write_model_file
        header, tensors = read_model_file(self.tables)
        spm_bytes = tensors.pop("tokenizer.spm").tobytes()
        with open(os.path.join(FIXTURES, "spm.model"), "rb") as f:
            other_spm = f.read()
        cases = {"its tokenizer is not --spm's": (header["languages"], other_spm),
                 "it translates {'source': 'de', 'target': 'en'}": ({"source": "de", "target": "en"}, spm_bytes)}
        for message, (languages, spm) in cases.items():
            with self.subTest(message):
                bad, out = self.path("bad.nmt"), self.path("refused.nmt")
                write_model_file(bad, header["config"], languages, tensors, spm, header["provenance"],
                                 alignment_layer=header["alignment"]["layer"])
                r = export("--checkpoint", self.pt, "--spm", TINY_SPM, "--out", out, "--tables-from", bad)
                self.assertNotEqual(r.returncode, 0)
                self.assertIn(f"--tables-from {bad}: {message}", r.stderr)
                self.assertFalse(os.path.exists(out))

    def test_a_file_without_tables_is_refused(self):
        out = self.path("none.nmt")
        r = export("--checkpoint", self.pt, "--spm", TINY_SPM, "--out", out, "--tables-from", TINY)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("has no shortlist, truecase or memory tensors", r.stderr)
        self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
