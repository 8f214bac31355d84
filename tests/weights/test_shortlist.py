"""weights/recipe/shortlist.py: the lexical shortlist's table, its place in the model file, its coverage."""
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

from recipe_env import ROOT

import numpy as np

RECIPE = os.path.join(ROOT, "weights", "recipe")
TINY = os.path.join(ROOT, "tests", "fixtures", "tiny.nmt")
V = 40  # pad 0, unk 1, bos 2, eos 3; source words 10..19 translate to 20..29; 4 -> 5 in every sentence


def synthetic(n=300, seed=1):
    """Pairs where source word s always comes with target s + 10, and 4 / 5 are in every sentence."""
    rng = random.Random(seed)
    src, tgt = [], []
    for _ in range(n):
        words = rng.sample(range(10, 20), rng.randint(2, 5))
        src.append([4] + words)
        tgt.append([5] + [w + 10 for w in reversed(words)] + ([5] if rng.random() < 0.5 else []))
    return src, tgt


class Table(unittest.TestCase):
    def test_the_known_translations_come_out_for_every_scoring(self):
        import shortlist
        src, tgt = synthetic()
        for scoring in shortlist.SCORINGS:
            table = shortlist.build(src, tgt, V, frequent=1, per_source=1, scoring=scoring)
            self.assertEqual(table.frequent.tolist(), [3, 5], scoring)  # the word of every sentence, and eos
            for s in range(10, 20):
                self.assertEqual(shortlist.candidates(table, s).tolist(), [s + 10], scoring)
            shortlist.check_table(table, V, 3)

    def test_layout(self):
        import shortlist
        src, tgt = synthetic()
        src += [[1, 2, 10, 30], [31]]
        tgt += [[1, 2, 20, 30], [32, 33, 1]]
        table = shortlist.build(src, tgt, V, frequent=3, per_source=4, scoring="dice")
        freq, counts, targets = table
        self.assertEqual((freq.dtype, counts.dtype, targets.dtype), (np.dtype("<u2"), np.dtype(np.uint8), np.dtype("<u2")))
        self.assertEqual(counts.shape, (V,))
        self.assertEqual(int(counts.sum()), len(targets))
        self.assertIn(3, freq.tolist())
        self.assertTrue(np.all(np.diff(freq.astype(int)) > 0))
        self.assertFalse(np.isin(targets, freq).any())
        self.assertFalse(np.isin(targets, [0, 1, 2]).any())  # no special ids as candidates
        self.assertEqual(counts[[0, 1, 2, 3]].tolist(), [0, 0, 0, 0])  # nor candidates for them
        self.assertTrue(np.all(counts <= 4))
        self.assertEqual(shortlist.candidates(table, 31).tolist(), [32, 33])
        for s in range(V):
            row = shortlist.candidates(table, s).astype(int)
            self.assertTrue(np.all(np.diff(row) > 0), s)
        shortlist.check_table(table, V, 3)
        # min_score drops the weak candidates: 10 -> 30 met once (dice 0.02), 10 -> 21..29 by chance (0.24-0.37)
        loose = shortlist.build(src, tgt, V, frequent=1, per_source=40, scoring="dice")
        strict = shortlist.build(src, tgt, V, frequent=1, per_source=40, min_score=0.5, scoring="dice")
        self.assertEqual(shortlist.candidates(loose, 10).tolist(), list(range(20, 31)))
        self.assertEqual(shortlist.candidates(strict, 10).tolist(), [20])

    def test_counts_match_a_plain_count(self):
        import shortlist
        rng = random.Random(3)
        src = [[rng.randrange(4, 30) for _ in range(rng.randint(0, 6))] for _ in range(200)]
        tgt = [[rng.randrange(4, 30) for _ in range(rng.randint(0, 6))] for _ in range(200)]
        c, cs, ct, n = shortlist.count(src, tgt, V, budget=50)  # small budget: many chunks
        want = np.zeros((V, V), dtype=np.int64)
        for s_ids, t_ids in zip(src, tgt):
            for s in set(s_ids):
                for t in set(t_ids):
                    want[s, t] += 1
        self.assertTrue(np.array_equal(c, want))
        self.assertEqual(cs.tolist(), np.bincount([s for x in src for s in set(x)], minlength=V).tolist())
        self.assertEqual(ct.tolist(), np.bincount([t for x in tgt for t in set(x)], minlength=V).tolist())
        self.assertEqual(n, 200)

    def test_ids_files_read_as_written(self):
        import shortlist
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "x.ids")
            with open(path, "w") as f:
                f.write("5 6 7\n\n12\n8 9\n")
            r = shortlist.read_ids(path)
            self.assertEqual(r.values.tolist(), [5, 6, 7, 12, 8, 9])
            self.assertEqual(r.lengths.tolist(), [3, 0, 1, 2])


class Coverage(unittest.TestCase):
    def test_a_handmade_case(self):
        import shortlist
        counts = np.zeros(V, dtype=np.uint8)
        counts[[10, 11]] = [2, 1]
        table = shortlist.Table(np.array([3, 5], dtype="<u2"), counts, np.array([20, 21, 22], dtype="<u2"))
        src = [[10, 11], [11, 11], [12]]
        hyp = [[20, 22, 5], [22, 21, 5, 30], [5, 5]]
        r = shortlist.coverage(table, src, hyp, eos_id=3, unk_id=None)
        self.assertAlmostEqual(r["tokens"], 7 / 9)
        self.assertAlmostEqual(r["sentences"], 2 / 3)
        self.assertAlmostEqual(r["mean_set_size"], (5 + 3 + 2) / 3)  # {3,5,20,21,22}, {3,5,22}, {3,5}
        self.assertEqual(r["missed_tokens"], 2)
        self.assertEqual(dict(r["most_missed"]), {21: 1, 30: 1})
        # unk (the engine's pass-through of unknown characters) is allowed by default
        r = shortlist.coverage(table, src, [[20, 1], [22], [1, 5]], eos_id=3)
        self.assertEqual((r["tokens"], r["sentences"]), (1.0, 1.0))
        self.assertAlmostEqual(r["mean_set_size"], (6 + 4 + 3) / 3)


class ModelFile(unittest.TestCase):
    def table(self, vocab, seed=0):
        import shortlist
        rng = np.random.default_rng(seed)
        freq = np.unique(np.concatenate([[3], rng.choice(np.arange(4, vocab), 20, replace=False)])).astype("<u2")
        counts = np.zeros(vocab, dtype=np.uint8)
        targets = []
        for s in range(4, vocab, 7):
            row = np.setdiff1d(np.unique(rng.integers(4, vocab, 5)), freq)
            counts[s] = len(row)
            targets.append(row)
        return shortlist.Table(freq, counts, np.concatenate(targets).astype("<u2"))

    def test_add_keeps_everything_and_reads_back(self):
        import shortlist
        from model_file import read_model_file
        header, tensors = read_model_file(TINY)
        vocab = header["config"]["vocab_size"]
        table = self.table(vocab)
        info = {"frequent": 20, "per_source": 5, "min_score": 0.0, "scoring": "test", "built_from": "random"}
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "sl.nmt")
            shortlist.add(TINY, out, table, info)
            h2, t2 = read_model_file(out)  # the preamble, length and CRC checks
            for key in ("config", "languages", "tokenizer", "alignment"):
                self.assertEqual(h2[key], header[key], key)
            self.assertEqual(h2["provenance"], dict(header["provenance"], shortlist=info))
            self.assertEqual(set(t2) - set(tensors), set(shortlist.TENSORS))
            for name, t in tensors.items():
                self.assertEqual(t2[name].dtype, t.dtype, name)
                self.assertEqual(t2[name].shape, t.shape, name)
                self.assertEqual(t2[name].tobytes(), t.tobytes(), name)
            dtypes = {t["name"]: t["dtype"] for t in h2["tensors"]}
            self.assertEqual([dtypes[n] for n in shortlist.TENSORS], ["u16", "u8", "u16"])
            self.assertEqual(h2["tensors"][-1]["name"], "tokenizer.spm")
            got = shortlist.table_of_model(t2)
            for a, b in zip(got, table):
                self.assertEqual(a.tolist(), b.tolist())
            shortlist.check_table(got, vocab, header["config"]["eos_id"])
            # adding again replaces the table, it does not pile up
            other = self.table(vocab, seed=1)
            shortlist.add(out, os.path.join(tmp, "sl2.nmt"), other, dict(info, scoring="again"))
            h3, t3 = read_model_file(os.path.join(tmp, "sl2.nmt"))
            self.assertEqual(len(h3["tensors"]), len(h2["tensors"]))
            self.assertEqual(t3["shortlist.targets"].tolist(), other.targets.tolist())
            self.assertEqual(h3["provenance"]["shortlist"]["scoring"], "again")

    def test_a_table_with_the_wrong_layout_is_refused(self):
        import shortlist
        from model_file import read_header
        vocab = read_header(TINY)["config"]["vocab_size"]
        good = self.table(vocab)
        bad = [good._replace(frequent=good.frequent[good.frequent != 3]),  # no eos
               good._replace(counts=good.counts[:-1]),  # not one count per id
               good._replace(targets=np.concatenate([good.targets[:-1], good.frequent[-1:]]))]  # a frequent id again
        with tempfile.TemporaryDirectory() as tmp:
            for table in bad:
                with self.assertRaises(ValueError):
                    shortlist.add(TINY, os.path.join(tmp, "x.nmt"), table, {})

    def test_the_command_line_builds_adds_and_measures(self):
        import sentencepiece as spm
        from model_file import read_model_file
        header, tensors = read_model_file(TINY)
        sp = spm.SentencePieceProcessor(model_proto=tensors["tokenizer.spm"].tobytes())
        lines_en = ["the house is small", "the cat sleeps", "a small cat", "the house"] * 20
        lines_de = ["das Haus ist klein", "die Katze schläft", "eine kleine Katze", "das Haus"] * 20
        with tempfile.TemporaryDirectory() as tmp:
            for lang, lines in (("en", lines_en), ("de", lines_de)):
                with open(os.path.join(tmp, f"train.{lang}.ids"), "w") as f:
                    f.writelines(" ".join(map(str, sp.encode(line))) + "\n" for line in lines)
                with open(os.path.join(tmp, f"dev.{lang}"), "w") as f:
                    f.writelines(line + "\n" for line in lines[:4])

            def run(*args):
                r = subprocess.run([sys.executable, os.path.join(RECIPE, "shortlist.py"), *args],
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                return json.loads(r.stdout)
            run("build", "--data", tmp, "--direction", "en-de", "--frequent", "2", "--per-source", "30",
                "--model", TINY, "--out", os.path.join(tmp, "t.npz"))
            run("add", "--model", TINY, "--table", os.path.join(tmp, "t.npz"), "--out", os.path.join(tmp, "m.nmt"))
            h2 = read_model_file(os.path.join(tmp, "m.nmt"))[0]
            self.assertEqual(h2["provenance"]["shortlist"]["built_from"].split(", ")[-1], "80 pairs")
            r = run("coverage", "--model", os.path.join(tmp, "m.nmt"), "--src", os.path.join(tmp, "dev.en"),
                    "--hyp", os.path.join(tmp, "dev.de"))
            self.assertEqual(r["tokens"], 1.0)  # the training pairs themselves are covered
            self.assertEqual(r["sentences"], 1.0)


if __name__ == "__main__":
    unittest.main()
