"""weights/recipe/teacher_plan.py end to end on CPU, tiny, as the next slice's plan `compare` runs it:
pack here -> call 1 (both teachers grown from the fixture model and trained, the shipped students
distilling beside them) -> call 2 (both teachers distil, then six students: each teacher's pairs and
the mix alone, both directions) -> unpack here -> prepare_data --distilled; and the `shipped` plan's
first call on a fresh machine. On a slice of the fixture dev data. The GPU slice that runs the real
plan is rare and short; its mistakes are meant to show up here. Needs PyTorch."""
import glob
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

from teacher_plan import KD_MIN_WEIGHT, PLANS, check_return, kd_order, plan_calls, timeout_s

RECIPE = os.path.join(ROOT, "weights", "recipe")
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
PLAN = [sys.executable, os.path.join(RECIPE, "teacher_plan.py")]


def read_tsv(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f if "\t" in line]


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def read_weights(path):
    with open(path) as f:
        return [float(x) for x in f]


def read_xz_lines(path):
    with lzma.open(path, "rt", encoding="utf-8") as f:
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
    def budget(self, *extra):
        return subprocess.run(PLAN + ["budget"] + list(extra), capture_output=True, text=True)

    def test_every_plan_prints_its_calls_and_fits_a_slice(self):
        for plan in PLANS:
            r = self.budget("--plan", plan, "--carry", "/nonexistent")
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            total = float(re.search(r"([\d.]+) min\s+in all", r.stdout).group(1))
            self.assertLessEqual(total, 14.0)
            for command, minutes in plan_calls(plan):
                self.assertIn(f"command: {command}\n", r.stdout)
                self.assertIn(f"timeout_s: {timeout_s(minutes)} ", r.stdout)
                self.assertLessEqual(minutes, 9.5)
            self.assertIn("no carry", r.stdout)

    def test_the_next_slice_is_written_down_as_budget_prints_it(self):
        """The lead runs the calls from the docstring or the model card without reading code."""
        with open(os.path.join(RECIPE, "teacher_plan.py"), encoding="utf-8") as f:
            doc = re.sub(r"\s+", " ", f.read().split('"""')[1])
        with open(os.path.join(ROOT, "weights", "README.md"), encoding="utf-8") as f:
            card = re.sub(r"\s+", " ", f.read())
        for command, minutes in plan_calls("compare"):
            for text in (doc, card):
                for step in command.split("; "):
                    self.assertTrue(step in text, step)
                self.assertTrue(f"timeout_s {timeout_s(minutes)}" in text, minutes)

    def test_refuses_what_does_not_fit(self):
        r = self.budget("--carry", "/nonexistent", "--device-seconds", "600")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("to spare", r.stderr)
        with tempfile.TemporaryDirectory() as carry:
            with open(os.path.join(carry, "teacher.json"), "w") as f:
                json.dump({"kd_lines": {"en-de": 1, "de-en": 1}}, f)
            with open(os.path.join(carry, "big.u16.xz"), "wb") as f:
                f.truncate(40 * 2 ** 20)  # sparse: 40 MiB as the tool counts it, none on the disk
            r = self.budget("--carry", carry)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("over the device tool's 64", r.stderr)
            os.truncate(os.path.join(carry, "big.u16.xz"), 2 ** 20)
            r = self.budget("--carry", carry)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertRegex(r.stdout, r"carry: 1\.0 MiB \+ working tree [\d.]+ MiB")


@needs_torch
class ShippedTeacher(unittest.TestCase):
    def test_distill_loads_a_model_file_as_its_dequantized_weights(self):
        from distill import load_teacher
        from model_file import dequantized_weights, read_model_file
        import torch
        header, tensors = read_model_file(os.path.join(FIXTURES, "tiny.nmt"))
        model, cfg = load_teacher(os.path.join(FIXTURES, "tiny.nmt"), torch.device("cpu"))
        self.assertEqual(cfg, header["config"])
        weights = dequantized_weights(tensors)
        state = model.state_dict()
        self.assertTrue(weights)
        for name, w in weights.items():
            self.assertTrue(torch.equal(state[name], torch.from_numpy(w)), name)


@needs_torch
class TwoCallsOnCpu(unittest.TestCase):
    def test_compare_plan_then_the_shipped_plan_on_a_fresh_machine(self):
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
            out1, out2, text_out = (os.path.join(tmp, d) for d in ("out1", "out2", "text"))

            # here: pack; the back-translations' real sides are the monolingual text, nothing else travels
            r = subprocess.run(PLAN + ["pack", "--data", data, "--corpus", corpus, "--dest", carry, "--home", home],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertIn("MiB travel", r.stdout)
            self.assertFalse(os.path.exists(os.path.join(carry, "mono")))
            with open(os.path.join(carry, "teacher.json")) as f:
                kd_lines = json.load(f)["kd_lines"]
            self.assertEqual(sum(w >= KD_MIN_WEIGHT for w in read_weights(os.path.join(data, "train.weight"))),
                             160)  # tatoeba, not the dictionary
            self.assertEqual(kd_lines, {"en-de": 160 + len(read_lines(os.path.join(data, "bt.de-en.en"))),
                                        "de-en": 160 + len(read_lines(os.path.join(data, "bt.en-de.de")))})
            sources = {d: read_lines(os.path.join(home, f"kd.{d}.src")) for d in kd_lines}
            self.assertEqual(set(sources["en-de"]),
                             {p.split("\t")[0] for p in pairs[:160]}
                             | set(read_lines(os.path.join(data, "bt.de-en.en"))))

            # there, call 1: both teachers grown from the students, their int8 files back; the shipped
            # students distil beside them (a prefix here: --limit)
            teacher = os.path.join(tmp, "teacher.json")
            with open(teacher, "w") as f:
                json.dump({"decoder_layers": 3, "d_ff": 96}, f)
            common = ["--carry", carry, "--work", work, "--weights", weights, "--device", "cpu"]
            r = subprocess.run(PLAN + ["train", "--out", out1, "--teacher-config", teacher, "--steps", "8",
                                       "--max-tokens", "600", "--threads", "1", "--bleu-sentences", "4",
                                       "--self-distill", "--limit", "50"] + common, capture_output=True, text=True)
            with open(os.path.join(out1, "log.txt"), encoding="utf-8") as f:
                log1 = f.read()
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr + log1[-3000:])
            self.assertEqual(check_return(out1), [])
            self.assertEqual(sorted(os.listdir(out1)),
                             ["log.txt", "state.json", "teacher-de-en.nmt.part0", "teacher-en-de.nmt.part0"])
            self.assertIn("decoder_layers 2 -> 3", log1)  # grown, not from scratch
            self.assertIn("distill.py shipped en-de (exit 0)", log1)
            with open(os.path.join(out1, "state.json")) as f:
                state = json.load(f)
            self.assertGreater(state["teachers"]["en-de"]["last_valid"]["step"], 0)
            self.assertEqual(state["distilled"], {"shipped": {d: {"lines": 50, "of": kd_lines[d]} for d in kd_lines}})
            shipped_first = read_lines(os.path.join(work, "kd.de-en.shipped.hyp"))

            # there, a distill on the same machine that brings its text back: the grown teachers start,
            # the shipped students go on from where call 1 stopped
            r = subprocess.run(PLAN + ["distill", "--teachers", "grown,shipped", "--limit", "80", "--return-text",
                                       "--out", text_out] + common, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(check_return(text_out), [])
            for d in kd_lines:
                for t in ("grown", "shipped"):
                    self.assertEqual(len(read_xz_lines(os.path.join(text_out, f"kd.{d}.{t}.hyp.xz.part0"))), 80)
            self.assertEqual(read_lines(os.path.join(work, "kd.de-en.shipped.hyp"))[:50], shipped_first)

            # there, call 2 as the plan has it: both teachers to the end, then the six students
            r = subprocess.run(PLAN + ["distill", "--teachers", "grown,shipped", "--out", out2] + common,
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            with open(os.path.join(out2, "state.json")) as f:
                distilled = json.load(f)["distilled"]
            for t in ("grown", "shipped"):
                self.assertEqual(distilled[t]["de-en"], {"lines": kd_lines["de-en"], "of": kd_lines["de-en"]})
            r = subprocess.run(PLAN + ["students", "--arms", "grown,shipped,mix", "--out", out2, "--steps", "3",
                                       "--max-tokens", "600", "--bleu-sentences", "4"] + common,
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            self.assertEqual(check_return(out2), [])
            self.assertEqual(sorted(os.listdir(out2)), ["log.txt", "state.json"] + sorted(
                f"student-{d}-{arm}.nmt" for d in kd_lines for arm in ("grown", "mix", "shipped")))
            data_there = os.path.join(work, "data")
            self.assertEqual(glob.glob(os.path.join(data_there, "kd.*")), [])  # the mix arm: no distilled pairs
            epoch = {d: sum(read_weights(os.path.join(data_there, "train.weight")))
                     + sum(read_weights(os.path.join(data_there, f"bt.{d}.weight"))) for d in kd_lines}
            for arm in ("grown", "shipped"):
                for d, (s, t) in (("en-de", ("en", "de")), ("de-en", ("de", "en"))):
                    base = os.path.join(work, f"data-{arm}", f"kd.{s}-{t}")
                    kd_src = read_lines(f"{base}.{s}.ids")
                    self.assertEqual(len(kd_src), len(read_lines(f"{base}.{t}.ids")))
                    self.assertTrue(0 < len(kd_src) <= kd_lines[d])
                    # the sources are the distilled lines' own (none lost but filtered ones)
                    self.assertTrue(set(kd_src) <= set(read_lines(os.path.join(work, f"kd.{d}.src.ids"))))
                    # half of each epoch's copies, whatever the number of pairs (KD_SHARE)
                    self.assertAlmostEqual(sum(read_weights(f"{base}.weight")), epoch[d], delta=epoch[d] * 1e-3)
            with open(os.path.join(out2, "log.txt"), encoding="utf-8") as f:  # train.py's start event, per student
                counts = re.findall(r'"distilled_pairs": (\d+)', f.read())
            self.assertEqual(len(counts), 6)
            self.assertEqual(sorted(int(c) > 0 for c in counts), [False, False, True, True, True, True])

            # a fresh machine: no grown teacher (call 2 of plan `grown` says so at once), but the
            # shipped students distil (plan `shipped`, call 1 unpacks the data itself) and train on it
            fresh = ["--carry", carry, "--work", os.path.join(tmp, "fresh"), "--weights", weights, "--device", "cpu"]
            r = subprocess.run(PLAN + ["distill", "--out", os.path.join(tmp, "out3")] + fresh, capture_output=True,
                               text=True)
            self.assertEqual(r.returncode, 2)
            self.assertIn("no teacher", r.stdout)
            r = subprocess.run(PLAN + ["students", "--arms", "shipped", "--out", os.path.join(tmp, "out3")] + fresh,
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 2)
            self.assertIn("no distilled text", r.stdout)
            out4 = os.path.join(tmp, "out4")
            r = subprocess.run(PLAN + ["distill", "--teachers", "shipped", "--limit", "30", "--out", out4] + fresh,
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
            # a call 2 of plan `compare` after a call 1 that failed: what can run still runs, and says what not
            r = subprocess.run(PLAN + ["distill", "--teachers", "grown,shipped", "--limit", "40", "--out", out4] + fresh,
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("no teacher", r.stdout)
            self.assertEqual(len(read_lines(os.path.join(tmp, "fresh", "kd.de-en.shipped.hyp"))), 40)
            r = subprocess.run(PLAN + ["students", "--arms", "grown,shipped", "--directions", "de-en", "--out", out4,
                                       "--steps", "2", "--max-tokens", "600", "--bleu-sentences", "4"] + fresh,
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn("grown left out", r.stdout)
            self.assertEqual(sorted(os.listdir(out4)), ["log.txt", "state.json", "student-de-en-shipped.fp16.pt.part0",
                                                        "student-de-en-shipped.nmt"])  # one run: room for its fp16 weights

            # here: unpack -> pairs of the real source and each teacher's line, in the order packed
            kd = os.path.join(tmp, "kd")
            r = subprocess.run(PLAN + ["unpack", "--parts", out1, text_out, "--home", home, "--dest", kd],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertTrue(os.path.exists(os.path.join(kd, "teacher-en-de.nmt")))
            if os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"):  # the engine runs the returned teacher
                r = subprocess.run([NMT, "--model", os.path.join(kd, "teacher-en-de.nmt")], input="The house is small.\n",
                                   capture_output=True, text=True)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(len(r.stdout.splitlines()), 1)
            for t in ("grown", "shipped"):
                hyps = read_xz_lines(os.path.join(text_out, f"kd.de-en.{t}.hyp.xz.part0"))
                with gzip.open(os.path.join(kd, t, "kd.de-en.tsv.gz"), "rt", encoding="utf-8") as f:
                    rows = [line.rstrip("\n").split("\t") for line in f]
                self.assertEqual(rows, [[h, s] for s, h in zip(sources["de-en"], hyps) if h.strip()])
                self.assertGreater(len(rows), 0)

            # the distilled pairs join the data for their direction only
            data_kd = os.path.join(tmp, "data-kd")
            subprocess.run([sys.executable, os.path.join(RECIPE, "prepare_data.py"), "--corpus", corpus, "--out", data_kd,
                            "--reuse-vocab", os.path.join(FIXTURES, "tiny.nmt"), "--nmt", "none", "--distilled",
                            os.path.join(kd, "grown"), "--mix", ",".join(f"{n}=0" for n in others.split(","))],
                           check=True, capture_output=True)
            with open(os.path.join(data_kd, "stats.json")) as f:
                distilled = json.load(f)["distilled"]
            self.assertGreater(distilled["en-de"]["pairs"], 0)
            self.assertEqual(distilled["de-en"]["pairs"], len(read_lines(os.path.join(data_kd, "kd.de-en.de.ids"))))


if __name__ == "__main__":
    unittest.main()
