"""weights/recipe/teacher_plan.py end to end on CPU, tiny: pack here -> call 1 (train both teachers,
grown from the fixture model) -> call 2 (distill with the teachers call 1 left in the work folder)
-> unpack here -> prepare_data --distilled, on a slice of the fixture dev data. The GPU slice that
runs the real plan is rare and short; its mistakes are meant to show up here. Needs PyTorch."""
import gzip
import json
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from recipe_env import NMT, ROOT, needs_torch

from teacher_plan import KD_MIN_WEIGHT, check_return, kd_order

RECIPE = os.path.join(ROOT, "weights", "recipe")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
PLAN = [sys.executable, os.path.join(RECIPE, "teacher_plan.py")]


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if "\t" in line]


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


class Order(unittest.TestCase):
    def test_kd_order_skips_light_lines_and_spreads_the_monolingual_ones(self):
        weights = [1.0, KD_MIN_WEIGHT / 2, 2.0, 0.5, 1.0, 3.0]
        order = kd_order(weights, 2)
        self.assertEqual(sorted(i for kind, i in order if kind == "train"), [0, 2, 3, 4, 5])
        self.assertEqual([i for kind, i in order if kind == "mono"], [0, 1])
        mono_at = [k for k, (kind, _) in enumerate(order) if kind == "mono"]
        self.assertTrue(0 < mono_at[0] < 4 and mono_at[1] >= 4, order)  # spread, not all at one end
        self.assertEqual(kd_order([], 3), [("mono", 0), ("mono", 1), ("mono", 2)])


class ReturnLimits(unittest.TestCase):
    def test_check_return_names_what_the_device_tool_would_not_bring_back(self):
        with tempfile.TemporaryDirectory() as out:
            self.assertEqual(check_return(out), [])
            for k in range(9):
                open(os.path.join(out, f"f{k}.part0"), "w").close()
            open(os.path.join(out, "bad name"), "w").close()
            problems = " ".join(check_return(out))
            self.assertIn("10 files", problems)
            self.assertIn("bad name", problems)


class Budget(unittest.TestCase):
    def test_the_dry_run_prints_the_plan_and_refuses_what_does_not_fit(self):
        r = subprocess.run(PLAN + ["budget", "--carry", "/nonexistent"], capture_output=True, text=True)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("call 1", r.stdout)
        self.assertIn("timeout_s", r.stdout)
        total = float(re.search(r"([\d.]+)\s+in all", r.stdout).group(1))
        self.assertLessEqual(total, 14.5)
        r = subprocess.run(PLAN + ["budget", "--carry", "/nonexistent", "--train-minutes", "9"], capture_output=True,
                           text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("limits", r.stderr)


@needs_torch
class TwoCallsOnCpu(unittest.TestCase):
    def test_pack_train_distill_unpack_prepare(self):
        with tempfile.TemporaryDirectory() as tmp:
            pairs = read_tsv(os.path.join(FIXTURES, "dev", "tatoeba-dev.en-de.tsv"))
            corpus = os.path.join(tmp, "corpus")
            os.makedirs(os.path.join(corpus, "train"))
            os.makedirs(os.path.join(corpus, "dev"))
            with gzip.open(os.path.join(corpus, "train", "tatoeba.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.writelines(p + "\n" for p in pairs[:160])
            with gzip.open(os.path.join(corpus, "train", "dict.en-de.tsv.gz"), "wt", encoding="utf-8") as f:
                f.writelines(p + "\n" for p in pairs[160:200])  # weight 0.03: trained on, not distilled
            with open(os.path.join(corpus, "dev", "flores-dev.en-de.tsv"), "w", encoding="utf-8") as f:  # validation: short
                f.writelines(p + "\n" for p in read_tsv(os.path.join(FIXTURES, "dev", "flores-dev.en-de.tsv"))[:16])
            bt = os.path.join(tmp, "bt")
            os.makedirs(bt)
            for direction, rows in (("en-de", pairs[300:330]), ("de-en", pairs[400:425])):
                with open(os.path.join(bt, f"bt.{direction}.tsv"), "w", encoding="utf-8") as f:
                    f.writelines(p + "\n" for p in rows)
            data = os.path.join(tmp, "data")
            others = "news,ted,docs,multi30k,dict-sentences,bible,ui,news-recent,news-mt,games,wiki"
            subprocess.run([sys.executable, os.path.join(RECIPE, "prepare_data.py"), "--corpus", corpus, "--out", data,
                            "--reuse-vocab", os.path.join(FIXTURES, "tiny.nmt"), "--nmt", "none", "--back-translations",
                            bt, "--mix", ",".join(f"{n}=0" for n in others.split(","))], check=True, capture_output=True)
            weights = os.path.join(tmp, "weights")
            for d in ("en-de", "de-en"):
                os.makedirs(os.path.join(weights, d))
                shutil.copy(os.path.join(FIXTURES, "tiny.nmt"), os.path.join(weights, d, "model.nmt"))
            carry, home, work = (os.path.join(tmp, d) for d in ("carry", "home", "work"))
            out1, out2 = os.path.join(tmp, "out1"), os.path.join(tmp, "out2")

            # here: pack; the back-translations' real sides are the monolingual text, nothing else travels
            r = subprocess.run(PLAN + ["pack", "--data", data, "--corpus", corpus, "--dest", carry, "--home", home],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("MiB travel", r.stdout)
            self.assertFalse(os.path.exists(os.path.join(carry, "mono")))
            with open(os.path.join(carry, "teacher.json")) as f:
                kd_lines = json.load(f)["kd_lines"]
            with open(os.path.join(data, "train.weight")) as f:
                distilled_train = sum(float(w) >= KD_MIN_WEIGHT for w in f)
            self.assertEqual(distilled_train, 160)  # tatoeba, not the dictionary
            self.assertEqual(kd_lines, {"en-de": 160 + len(read_lines(os.path.join(data, "bt.de-en.en"))),
                                        "de-en": 160 + len(read_lines(os.path.join(data, "bt.en-de.de")))})
            sources = {d: read_lines(os.path.join(home, f"kd.{d}.src")) for d in kd_lines}
            self.assertEqual(set(sources["en-de"]),
                             {p.split("\t")[0] for p in pairs[:160]}
                             | set(read_lines(os.path.join(data, "bt.de-en.en"))))

            # there, call 1: both teachers grown from the students, their int8 files back
            teacher = os.path.join(tmp, "teacher.json")
            with open(teacher, "w") as f:
                json.dump({"decoder_layers": 3, "d_ff": 96}, f)
            common = ["--carry", carry, "--work", work, "--weights", weights, "--device", "cpu"]
            r = subprocess.run(PLAN + ["train", "--out", out1, "--teacher-config", teacher, "--steps", "8",
                                       "--max-tokens", "600", "--threads", "1", "--bleu-sentences", "4"] + common,
                               capture_output=True, text=True)
            with open(os.path.join(out1, "log.txt"), encoding="utf-8") as f:
                log1 = f.read()
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr + log1[-3000:])
            self.assertEqual(check_return(out1), [])
            returned = sorted(os.listdir(out1))
            self.assertEqual(returned, ["log.txt", "state.json", "teacher-de-en.nmt.part0", "teacher-en-de.nmt.part0"])
            self.assertIn("decoder_layers 2 -> 3", log1)  # grown, not from scratch
            with open(os.path.join(out1, "state.json")) as f:
                state = json.load(f)
            self.assertGreater(state["teachers"]["en-de"]["last_valid"]["step"], 0)

            # there, call 2 on the same machine: the teachers call 1 left translate a prefix...
            distill = PLAN + ["distill", "--out", out2] + common
            r = subprocess.run(distill + ["--limit", "50"], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            with lzma.open(os.path.join(out2, "kd.en-de.hyp.xz.part0"), "rt", encoding="utf-8") as f:
                self.assertEqual(len(f.read().split("\n")[:-1]), 50)
            # ... and, called again, go on from where they stopped
            shutil.rmtree(out2)
            r = subprocess.run(distill, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(check_return(out2), [])
            self.assertEqual(sorted(os.listdir(out2)),
                             ["kd.de-en.hyp.xz.part0", "kd.en-de.hyp.xz.part0", "log.txt", "state.json"])
            with open(os.path.join(out2, "state.json")) as f:
                self.assertEqual(json.load(f)["distilled"]["de-en"], {"lines": kd_lines["de-en"], "of": kd_lines["de-en"]})

            # there, the same command goes on: the students continue on the mix + the distilled pairs
            r = subprocess.run(PLAN + ["students", "--out", out2, "--steps", "3", "--max-tokens", "600",
                                       "--bleu-sentences", "4"] + common, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(check_return(out2), [])
            self.assertTrue({"student-en-de.nmt", "student-de-en.nmt"} <= set(os.listdir(out2)), os.listdir(out2))
            data_there = os.path.join(work, "data")
            for d, (s, t) in (("en-de", ("en", "de")), ("de-en", ("de", "en"))):
                kd_src = read_lines(os.path.join(data_there, f"kd.{s}-{t}.{s}.ids"))
                self.assertEqual(len(kd_src), len(read_lines(os.path.join(data_there, f"kd.{s}-{t}.{t}.ids"))))
                self.assertTrue(0 < len(kd_src) <= kd_lines[d])
                # the sources are the distilled lines' own (the first of them, in order, none lost but filtered ones)
                all_src = read_lines(os.path.join(work, f"kd.{d}.src.ids"))
                self.assertTrue(set(kd_src) <= set(all_src))
            with open(os.path.join(out2, "log.txt"), encoding="utf-8") as f:  # train.py's start event, per student
                self.assertRegex(f.read(), r'"distilled_pairs": [1-9]')

            # a fresh machine has no teacher: call 2 says so at once
            r = subprocess.run(PLAN + ["distill", "--out", os.path.join(tmp, "out3"), "--carry", carry, "--work",
                                       os.path.join(tmp, "fresh"), "--weights", weights, "--device", "cpu"],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 2)
            self.assertIn("no teacher", r.stdout)

            # here: unpack -> pairs of the real source and the teacher's line, in the order packed
            kd = os.path.join(tmp, "kd")
            r = subprocess.run(PLAN + ["unpack", "--parts", out1, out2, "--home", home, "--dest", kd],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.exists(os.path.join(kd, "teacher-en-de.nmt")))
            if os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"):  # the engine runs the returned teacher
                r = subprocess.run([NMT, "--model", os.path.join(kd, "teacher-en-de.nmt")], input="The house is small.\n",
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(len(r.stdout.splitlines()), 1)
            hyps = read_lines(os.path.join(work, "kd.de-en.hyp"))
            with gzip.open(os.path.join(kd, "kd.de-en.tsv.gz"), "rt", encoding="utf-8") as f:
                rows = [line.rstrip("\n").split("\t") for line in f]
            self.assertEqual(rows, [[h, s] for s, h in zip(sources["de-en"], hyps) if h.strip()])
            self.assertGreater(len(rows), 0)

            # the distilled pairs join the data for their direction only
            data_kd = os.path.join(tmp, "data-kd")
            subprocess.run([sys.executable, os.path.join(RECIPE, "prepare_data.py"), "--corpus", corpus, "--out", data_kd,
                            "--reuse-vocab", os.path.join(FIXTURES, "tiny.nmt"), "--nmt", "none", "--distilled", kd,
                            "--mix", ",".join(f"{n}=0" for n in others.split(","))], check=True, capture_output=True)
            with open(os.path.join(data_kd, "stats.json")) as f:
                distilled = json.load(f)["distilled"]
            self.assertGreater(distilled["en-de"]["pairs"], 0)
            self.assertEqual(distilled["de-en"]["pairs"], len(read_lines(os.path.join(data_kd, "kd.de-en.de.ids"))))


if __name__ == "__main__":
    unittest.main()
