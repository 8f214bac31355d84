"""weights/recipe/gpu_round.py's student plan end to end on CPU, tiny: prepare (back-translate, data,
pack) -> student (both directions and variants at once) -> unpack, with the fixture model as the
shipped students. GPU minutes are rare here; this is where the plan's mistakes are meant to show up
instead. Needs PyTorch. (The teacher plan: test_gpu_teacher.py.)"""
import glob
import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from recipe_env import NMT, ROOT, needs_engine, needs_torch

from gpu_round import join_parts, read_u16, split_into_parts, write_u16
from prepare_data import MIX

RECIPE = os.path.join(ROOT, "weights", "recipe")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")


def read_text(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if "\t" in line]


class Parts(unittest.TestCase):
    def test_split_and_join_give_back_the_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = os.urandom(2500)
            with open(os.path.join(tmp, "x.bin"), "wb") as f:
                f.write(data)
            parts = split_into_parts(os.path.join(tmp, "x.bin"), tmp, part_bytes=1000)
            self.assertEqual([os.path.getsize(p) for p in parts], [1000, 1000, 500])
            self.assertTrue(join_parts(os.path.join(tmp, "x.bin.part*"), os.path.join(tmp, "y.bin")))
            with open(os.path.join(tmp, "y.bin"), "rb") as f:
                self.assertEqual(f.read(), data)
            self.assertFalse(join_parts(os.path.join(tmp, "none.part*"), os.path.join(tmp, "z.bin")))


class CompactIds(unittest.TestCase):
    def test_ids_travel_as_uint16_and_come_back_the_same(self):
        with tempfile.TemporaryDirectory() as tmp:
            text = "5 17 7999\n\n3\n65535 0\n"
            with open(os.path.join(tmp, "a.ids"), "w") as f:
                f.write(text)
            write_u16(os.path.join(tmp, "a.ids"), os.path.join(tmp, "a.u16.xz"))
            read_u16(os.path.join(tmp, "a.u16.xz"), os.path.join(tmp, "b.ids"))
            self.assertEqual(read_text(os.path.join(tmp, "b.ids")), text)
            with open(os.path.join(tmp, "big.ids"), "w") as f:
                f.write("65536\n")
            with self.assertRaises(SystemExit):
                write_u16(os.path.join(tmp, "big.ids"), os.path.join(tmp, "big.u16.xz"))


@needs_torch
class StudentPlanOnCpu(unittest.TestCase):
    """The plan a ~15-minute GPU slice runs (rounds 21-22): a prepared data folder packed compactly,
    both students continued at once, with variants beside them (untagged back-translations, and
    another set of back-translations carried as bt-sampled), int8 files and fp16 weights back
    (as many as the device tool's 8 files / 64 MiB allow), unpacked here."""

    def prepare(self, tmp, corpus, pairs, name, bt_lines):
        bt = os.path.join(tmp, f"bt-{name}")
        os.makedirs(bt)
        with open(os.path.join(bt, "bt.en-de.tsv"), "w", encoding="utf-8") as f:
            f.writelines(p + "\n" for p in bt_lines)
        data = os.path.join(tmp, f"data-{name}")
        subprocess.run([sys.executable, os.path.join(RECIPE, "prepare_data.py"), "--corpus", corpus, "--out", data,
                        "--reuse-vocab", os.path.join(FIXTURES, "tiny.nmt"), "--nmt", "none", "--back-translations", bt,
                        "--mix", ",".join(f"{n}=0" for n in MIX if n != "tatoeba")],
                       check=True, capture_output=True)
        return data

    def test_pack_data_student_variants_unpack(self):
        with tempfile.TemporaryDirectory() as tmp:
            corpus = os.path.join(tmp, "corpus")
            os.makedirs(os.path.join(corpus, "train"))
            os.makedirs(os.path.join(corpus, "dev"))
            pairs = read_tsv(os.path.join(FIXTURES, "dev", "tatoeba-dev.en-de.tsv"))
            with gzip.open(os.path.join(corpus, "train", "tatoeba.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.writelines(p + "\n" for p in pairs[:200])
            shutil.copy(os.path.join(FIXTURES, "dev", "flores-dev.en-de.tsv"), os.path.join(corpus, "dev"))
            data = self.prepare(tmp, corpus, pairs, "greedy", pairs[300:330])
            sampled = self.prepare(tmp, corpus, pairs, "sampled", pairs[400:420])
            carry, work, out = (os.path.join(tmp, d) for d in ("carry", "work", "out"))
            subprocess.run([sys.executable, os.path.join(RECIPE, "gpu_round.py"), "pack-data", "--data", data,
                            "--corpus", corpus, "--dest", carry, "--bt-variant", f"sampled={sampled}",
                            "--bt-variant-direction", "en-de"],
                           check=True, capture_output=True)
            self.assertTrue(os.path.exists(os.path.join(carry, "data", "train.en.ids.u16.xz")))
            self.assertFalse(glob.glob(os.path.join(carry, "data", "*.ids")))  # only the compact form travels
            self.assertEqual(sorted(os.listdir(os.path.join(carry, "bt-sampled"))),
                             ["bt.en-de.de.ids.u16.xz", "bt.en-de.en.ids.u16.xz", "bt.en-de.weight.gz"])
            weights = os.path.join(tmp, "weights")
            for d in ("en-de", "de-en"):
                os.makedirs(os.path.join(weights, d))
                shutil.copy(os.path.join(FIXTURES, "tiny.nmt"), os.path.join(weights, d, "model.nmt"))
            plan = [sys.executable, os.path.join(RECIPE, "gpu_round.py"), "student", "--carry", carry, "--work", work,
                    "--out", out, "--weights", weights, "--device", "cpu", "--steps", "5", "--minutes", "2",
                    "--max-tokens", "600", "--bleu-sentences", "8"]
            bad = subprocess.run(plan + ["--variants", "en-de,en-de:beam9"], capture_output=True, text=True)
            self.assertNotEqual(bad.returncode, 0)
            self.assertIn("beam9", bad.stderr)
            r = subprocess.run(plan + ["--variants", "en-de,de-en,en-de:untagged,en-de:sampled,de-en:seed2"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            for name in ("train.en.ids", "train.de.ids", "train.weight", "bt.en-de.en.ids"):
                self.assertEqual(read_text(os.path.join(work, "data", name)), read_text(os.path.join(data, name)))
            for name in ("bt.en-de.en.ids", "bt.en-de.de.ids", "train.en.ids"):  # the variant's own bt, the shared rest
                self.assertEqual(read_text(os.path.join(work, "data-sampled", name)), read_text(os.path.join(sampled, name)))
            log = read_text(os.path.join(out, "log.txt"))
            self.assertIn("student plan: done", log)
            self.assertNotIn("exited 1", log, log[-3000:])
            starts = {}
            for block in log.split("--- train.py ")[1:]:
                run, _, body = block.partition("\n")
                starts[run] = next(json.loads(l) for l in body.splitlines() if '"event": "start"' in l)
            self.assertEqual(sorted(starts), ["de-en", "de-en-seed2", "en-de", "en-de-sampled", "en-de-untagged"])
            self.assertEqual(starts["en-de"]["args"]["bt_tag"], 1)
            self.assertEqual(starts["en-de-untagged"]["args"]["bt_tag"], 0)
            lines = lambda path: len(read_text(path).splitlines())  # noqa: E731
            self.assertEqual(starts["en-de"]["back_translated_pairs"], lines(os.path.join(data, "bt.en-de.en.ids")))
            self.assertEqual(starts["en-de-sampled"]["back_translated_pairs"], lines(os.path.join(sampled, "bt.en-de.en.ids")))
            self.assertNotEqual(starts["en-de"]["back_translated_pairs"], starts["en-de-sampled"]["back_translated_pairs"])
            self.assertEqual(starts["de-en"]["back_translated_pairs"], 0)
            seeds = {run: s["args"]["seed"] for run, s in starts.items()}
            self.assertEqual(seeds.pop("de-en-seed2"), seeds["de-en"] + 2)  # the soup member: only the seed differs
            self.assertEqual(len(set(seeds.values())), 1)
            self.assertEqual(starts["de-en-seed2"]["back_translated_pairs"], starts["de-en"]["back_translated_pairs"])
            self.assertLessEqual(len(os.listdir(out)), 8)  # what the device tool brings back
            for run in starts:
                self.assertTrue(os.path.exists(os.path.join(out, f"student-{run}.nmt")))
            subprocess.run([sys.executable, os.path.join(RECIPE, "gpu_round.py"), "unpack", "--parts", out,
                            "--dest", os.path.join(tmp, "back")], check=True, capture_output=True)
            import torch
            ck = torch.load(os.path.join(tmp, "back", "student-de-en.fp16.pt"), map_location="cpu", weights_only=False)
            self.assertEqual(ck["languages"], {"source": "de", "target": "en"})
            self.assertTrue(all(v.dtype == torch.float16 for v in ck["state_dict"].values() if v.is_floating_point()))


@needs_torch
@needs_engine
class PrepareOnAFreshClone(unittest.TestCase):
    """`gpu_round.py prepare`: nothing but the corpus and the shipped models (here the fixture model
    in both directions) -> back-translations by the engine, the prepared data with them, the packed
    carry; a second run keeps what the first finished."""

    def test_prepare_back_translates_prepares_and_packs(self):
        with tempfile.TemporaryDirectory() as tmp:
            corpus = os.path.join(tmp, "corpus")
            for folder in ("train", "dev", "mono"):
                os.makedirs(os.path.join(corpus, folder))
            pairs = read_tsv(os.path.join(FIXTURES, "dev", "tatoeba-dev.en-de.tsv"))
            with gzip.open(os.path.join(corpus, "train", "tatoeba.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.writelines(p + "\n" for p in pairs[:100])
            for col, lang in ((0, "en"), (1, "de")):
                with gzip.open(os.path.join(corpus, "mono", f"news.{lang}.txt.gz"), "wt", encoding="utf-8") as f:
                    f.writelines(p.split("\t")[col] + "\n" for p in pairs[200:240])
            shutil.copy(os.path.join(FIXTURES, "dev", "flores-dev.en-de.tsv"), os.path.join(corpus, "dev"))
            weights = os.path.join(tmp, "weights")
            for d in ("en-de", "de-en"):
                os.makedirs(os.path.join(weights, d))
                shutil.copy(os.path.join(FIXTURES, "tiny.nmt"), os.path.join(weights, d, "model.nmt"))
            work, carry = os.path.join(tmp, "work"), os.path.join(tmp, "carry")
            cmd = [sys.executable, os.path.join(RECIPE, "gpu_round.py"), "prepare", "--corpus", corpus, "--work", work,
                   "--dest", carry, "--weights", weights, "--nmt", NMT, "--bt-limit", "12",
                   "--mix", ",".join(f"{n}=0" for n in MIX if n != "tatoeba")]
            r = subprocess.run(cmd, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertIn("prepare: done", r.stdout)
            with open(os.path.join(work, "bt", "bt.json")) as f:
                self.assertEqual(json.load(f)["engine"], "nmt")  # this project's engine wrote them
            bt_real = {line.split("\t")[1] for line in read_tsv(os.path.join(work, "bt", "bt.en-de.tsv"))}
            self.assertTrue(bt_real <= {p.split("\t")[1] for p in pairs[200:240]})  # real German as the target
            with open(os.path.join(work, "data", "stats.json")) as f:
                stats = json.load(f)
            self.assertEqual(stats["tatoeba"]["kept"], 100)
            self.assertGreater(stats["back_translations"]["en-de"]["pairs"], 0)
            self.assertGreater(stats["back_translations"]["de-en"]["pairs"], 0)
            for name in ("train.en.ids.u16.xz", "bt.en-de.en.ids.u16.xz", "bt.de-en.de.ids.u16.xz", "spm.model"):
                self.assertTrue(os.path.exists(os.path.join(carry, "data", name)), name)
            self.assertTrue(os.path.exists(os.path.join(carry, "flores-dev.en-de.tsv")))
            made = os.path.getmtime(os.path.join(work, "bt", "bt.json")), os.path.getmtime(os.path.join(work, "data", "stats.json"))
            r = subprocess.run(cmd, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual((os.path.getmtime(os.path.join(work, "bt", "bt.json")),
                              os.path.getmtime(os.path.join(work, "data", "stats.json"))), made)


if __name__ == "__main__":
    unittest.main()
