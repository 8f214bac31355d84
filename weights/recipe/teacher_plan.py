"""The one-slice distillation plans (issue 54): sequence-level distillation of the training sources
and the monolingual text, then both shipped students continued on the mix plus the distilled
pairs and exported int8, all on one warm GPU machine in two calls. The teacher is either grown
from the shipped student and trained in call 1 ("grown"), or the shipped student itself
("shipped": self-distillation, no teacher minutes at all).

What a GPU slice is here (the device tool): 15 minutes of device time per session in all, the
machine's start (~57 s measured) included; one command at most 10 minutes; 64 MiB carried in,
working tree included (~31 MiB of it); at most 8 files of 16 MiB back per call; the machine goes
back after 30 s idle, and a later call starts a fresh, bare one. Hence one machine start and two
calls issued back to back; nothing outlives the slice (neither that machine's disk nor, in the
next session's fresh clone, work/ here), so the students train in the slice that distils for them.

THE NEXT SLICE (plan `compare`; `budget` prints it and checks it against the limits): the three
ways to spend it side by side, each ending in both students exported int8 and scored here:
  (a) `shipped`: the shipped students distil (greedy, bf16) for call 1 and call 2's distillation
      minutes, the whole 3.5 + 2 minutes the teacher arm spends on its teacher and its distilling;
  (b) `grown`: a teacher grown from each student trains 3.5 minutes (call 1), then distils 2;
  (c) `mix`: the students continue on the mix alone (the control: what the minutes and the
      dictionary give without distilled pairs).
All six student runs (3 arms x 2 directions) train at once for the same 4 minutes in call 2, on
the same mix (dictionary in, `--mix bible=0` only), with the distilled pairs at the same share of
each epoch (KD_SHARE), so the arms differ only in which distilled pairs they see.

  # first the device tool's `status` (free): only if it can start a machine is the rest worth its CPU.
  # here (CPU), before the first device call (it costs no device time); a fresh clone must redo it:
  # back-translation of mono/ by the shipped models with the engine, ~31 min with 2 shared cores
  # (2026-11-27, ~700 words/s a direction), 47 min at load ~12 (session 27, ~490 words/s); then
  # the mix (~35 s) and packing (~2.5 min). `--bt-limit 40000` halves it (see "Prepare" below).
  /usr/bin/python3 weights/recipe/gpu_round.py prepare --corpus ../shared/corpus --mix bible=0 \
      --work work/teacher-prepare --dest work/teacher-prepare/student-carry
  /usr/bin/python3 weights/recipe/teacher_plan.py pack --data work/teacher-prepare/data --corpus ../shared/corpus
  /usr/bin/python3 weights/recipe/teacher_plan.py budget     # the calls; refuses a carry over 64 MiB with the tree
  # there: the device tool's `run`, carry ["gpu-carry"], call 2 issued the moment call 1 returns:
  #   call 1: command "bash weights/recipe/gpu_round.sh train --minutes 3.5 --self-distill", timeout_s 410
  #   call 2: command "bash weights/recipe/gpu_round.sh distill --teachers grown,shipped --minutes 2;
  #           bash weights/recipe/gpu_round.sh students --arms grown,shipped,mix --minutes 4", timeout_s 600
  #   (call 1 brings back the two teachers, int8; call 2 the six students, int8: student-<dir>-<arm>.nmt)
  # here again, per direction: the arms against the control, then against the shipped file
  /usr/bin/python3 weights/recipe/teacher_plan.py unpack --parts <call 1 files_at> <call 2 files_at> --dest work/kd
  /usr/bin/python3 weights/recipe/compare_runs.py --dev-dir ../shared/corpus/dev --direction <dir> \
      --out work/kd/compare-<dir>.json --sets flores-dev,tatoeba-dev,multi30k-test2016,short-labels \
      mix=<call 2 files_at>/student-<dir>-mix.nmt shipped=<call 2 files_at>/student-<dir>-shipped.nmt \
      grown=<call 2 files_at>/student-<dir>-grown.nmt teacher=work/kd/teacher-<dir>.nmt shipped-file=weights/<dir>/model.nmt
If call 1 fails or the machine goes back before call 2, issue call 2 as written all the same:
`distill` skips the grown teachers it cannot find and `students` the arms without distilled text
(each logs what it left out and exits 2), so the shipped students' arm and the control still come
back. The other plans (`budget --plan`): `shipped`, self-distillation alone, for the slice after a
comparison it wins (call 1 distils 3 minutes, call 2 trains the students 7); `grown`, session 27's
plan with the dictionary back.

Prepare: the back-translations are the slow part and the only one that needs the engine. A half
set (`gpu_round.py prepare --bt-limit 40000`: the first 40,000 sentences per language in mono/'s
file order, so the English ones keep mixed.en's ~19k and ~21k of news.en's ~53k, the German ones
~40k of news.de's ~62k and none of translated.de) takes ~17 min with 2 shared cores, ~26 at load
12, and shrinks the carry by ~4.4 MiB; it serves the comparison as well (all arms train on the
same data) but moves the students' data away from the shipped students' (half the synthetic
pairs, half the monolingual lines to distil, other domains). Use it when the session's CPUs are
needed elsewhere or the tree has grown past ~34 MiB; otherwise the full set, as before.

The teacher (TEACHER below): the shipped student grown (grow.py: the new layers and feed-forward
units start as identities) to 6+6 layers with a 2048-wide feed-forward, 19.4 M parameters against
8.9 M, one per direction, both training at once on the one GPU. Grown, not trained from scratch: a
slice's few minutes (~26 M target tokens per direction in 4.5, on an H200) are a twentieth of what
the students have seen (~530 M), and a d512 teacher started from nothing would end below the
student it is meant to teach. Measured (weights/EXPERIMENTS.md, "the teacher plan on an H200"):
grown for 4.5 minutes it ends only +0.15 / +0.38 flores-dev BLEU above the student; the de-en
student distilled from it gained +0.6, en-de nothing; short labels fell (the mix without the
dictionary). --teacher-config takes any config (a d_model other than the student's trains from
scratch: a width cannot be grown without changing what the model computes).

Distillation (distill.py): greedy, batched, bf16, because the reference beam search (model.py)
takes one sentence at a time; per direction the training sources of the mix (all but the single
dictionary entries: weight >= KD_MIN_WEIGHT) interleaved evenly with the monolingual sentences of
the source language (the back-translations' real sides), ~645k lines, so whatever prefix the time
allows is the same blend; a later `distill` goes on where the last stopped. Measured: the grown
teacher ~2,000 sentences/s a direction (two at once); the shipped students, not yet measured,
decode with 2 decoder layers instead of 6 and should be faster (distill.py logs its rate).

The carry, measured 2026-11-28 (session 28) on session 27's prepared data: the mix with the
dictionary (`--mix bible=0`) as uint16 ids, xz, with the back-translations and flores-dev 30.0
MiB; with the 30.9 MiB working tree 60.9 of the 64 MiB (without the dictionary: 25.8 + 30.9).
`pack` and `budget` refuse a carry that, with the tree, is over 64 MiB: then halve the
back-translations (--bt-limit, ~4.4 MiB less) before leaving anything out of the mix.

Not carried back in next time: a teacher as int8 (~20 MB) + the data (~30 MiB) + the working tree
(~31 MiB) is over the 64 MiB, so each slice grows a fresh teacher from the then shipped student;
the returned int8 teachers serve to score what a teacher alone gives, and to distil more text here
on CPU (the engine: `build/nmt --model work/kd/teacher-en-de.nmt`).
"""
import argparse
import glob
import json
import lzma
import os
import random
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from gpu_round import PART_BYTES, join_parts, log, read_u16, split_into_parts, train_command, unpack_data, write_u16  # noqa: E402

DIRECTIONS = ("en-de", "de-en")
TEACHER = {"d_ff": 2048, "encoder_layers": 6, "decoder_layers": 6}
# Who translates the sources: the teacher call 1 grew and trained, or the shipped student itself.
TEACHERS = ("grown", "shipped")
CONTROL_ARM = "mix"  # `students --arms`: the students on the mix alone, beside the distilled arms
KD_MIN_WEIGHT = 0.1  # training lines below this many copies per epoch (the dictionary's entries) are not distilled
# The distilled pairs' share of an epoch's copies, the same in every arm whatever their number.
# Session 27's 2 copies of each of ~280k distilled pairs were ~52% of its students' epochs.
KD_SHARE = 0.5
MONO_SEED = 54
# The device tool (its README): what a call may bring back, and what may travel with it.
RETURN_FILES, RETURN_FILE_BYTES, RETURN_BYTES = 8, 16 * 2 ** 20, 64 * 2 ** 20
CARRY_BYTES = 64 * 2 ** 20
RETURN_NAME = re.compile(r"^[A-Za-z0-9._-]+$")
CARRY = "gpu-carry"
# The time plans (device minutes), for `budget`. Measured on an H200 (session 27, 2026-11-28,
# weights/EXPERIMENTS.md): the machine's start ~57 s; two teachers at once ~96k target tok/s each;
# greedy bf16 distillation by the grown teacher ~2,000 sentences/s per direction (two at once);
# two students at once ~146k target tok/s each (on an H100, rounds 23-24: 4 runs ~140k, 6 ~100k
# each); call 1 `train --minutes 4.5` took 315 s, call 2 `distill --minutes 2; students --minutes
# 3.4` 413 s. Not measured yet: the shipped students' distillation rate, and four processes (two
# teachers, two distilling students) sharing the GPU in call 1.
START_MINUTES, IDLE_MINUTES = 1.0, 0.5  # the start before call 1; the gap while call 2 is issued
UNPACK_MINUTES = 0.4  # the carried data unpacked, once per machine (its first call)
SPARE_MINUTES = 1.0  # left unplanned: a slice whose time runs out mid-call gets nothing back
# What each step costs around its --minutes: train: average + validate + export ~0.5; distill: load
# the models and the sources ~0.3 (+0.5 when --return-text packs the text as xz); students: the
# distilled pairs filtered and encoded ~0.3, start ~0.4, the exports at once ~0.5.
STEP_OVERHEAD = {"train": 0.5, "distill": 0.3, "students": 1.2}
PLANS = {
    "compare": ("(a) self-distillation by the shipped students, (b) the grown teacher, (c) the mix alone",
                [[("train", {"minutes": 3.5, "self-distill": True})],
                 [("distill", {"teachers": "grown,shipped", "minutes": 2}),
                  ("students", {"arms": "grown,shipped,mix", "minutes": 4})]]),
    "shipped": ("self-distillation alone: the shipped students distil, then train on it beside the control",
                [[("distill", {"teachers": "shipped", "minutes": 3})],
                 [("students", {"arms": "shipped,mix", "minutes": 7})]]),
    "grown": ("session 27's plan with the dictionary back: a grown teacher, its distillation, its students",
              [[("train", {"minutes": 4.5})],
               [("distill", {"minutes": 2}), ("students", {"minutes": 3.4})]]),
}


# --- the order of what is distilled: the same function here (texts) and there (ids) ---

def kd_order(weights, n_mono):
    """[("train", i) or ("mono", j)]: the training lines worth distilling (weight >= KD_MIN_WEIGHT)
    and the monolingual lines, merged evenly (every prefix holds both in proportion)."""
    train = [i for i, w in enumerate(weights) if w >= KD_MIN_WEIGHT]
    order, a, b = [], 0, 0
    while a < len(train) or b < n_mono:
        if b >= n_mono or (a < len(train) and a * max(1, n_mono) <= b * max(1, len(train))):
            order.append(("train", train[a]))
            a += 1
        else:
            order.append(("mono", b))
            b += 1
    return order


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def read_weights(data):
    with open(os.path.join(data, "train.weight")) as f:
        return [float(x) for x in f]


def write_kd_sources(data, mono_lines, src_lang, dest, suffix=""):
    """dest: the lines to distill for the direction from src_lang, in kd_order; from data's
    train.<src_lang><suffix> and the monolingual lines (text here, ids there). Returns the count."""
    train = read_lines(os.path.join(data, f"train.{src_lang}{suffix}"))
    order = kd_order(read_weights(data), len(mono_lines))
    with open(dest, "w", encoding="utf-8") as f:
        for kind, i in order:
            f.write((train[i] if kind == "train" else mono_lines[i]) + "\n")
    return len(order)


# --- here: pack, budget, unpack ---

def tree_bytes():
    """What the device tool sends besides the carry: the tracked and the untracked-not-ignored files."""
    r = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                       capture_output=True)
    paths = [os.path.join(ROOT, p.decode()) for p in r.stdout.split(b"\0") if p]
    return sum(os.path.getsize(p) for p in paths if os.path.isfile(p))


def folder_bytes(folder):
    return sum(os.path.getsize(p) for p in glob.glob(os.path.join(folder, "**"), recursive=True) if os.path.isfile(p))


def bt_real_side(data, src_lang, suffix=""):
    """The back-translations' real side in src_lang (bt.<other>-<src>.<src>: monolingual text that
    already travels inside the data folder; suffix ".ids": as ids), or None without them."""
    other = "de" if src_lang == "en" else "en"
    path = os.path.join(data, f"bt.{other}-{src_lang}.{src_lang}{suffix}")
    return path if os.path.exists(path) else None


def pack(args):
    """--dest (travels): the data folder compact (uint16 ids, xz), flores-dev, teacher.json (the
    counts the calls check) and, only where the data has no back-translations, the monolingual
    sentences as ids. --home (stays here): the source texts of each direction's distillation, in
    the order call 2 translates them."""
    import spm_tools
    from backtranslate import read_mono
    from gpu_round import pack_folder
    if os.path.exists(args.dest):
        shutil.rmtree(args.dest)
    os.makedirs(args.home, exist_ok=True)
    pack_folder(args.data, os.path.join(args.dest, "data"))
    shutil.copy(os.path.join(args.corpus, "dev", "flores-dev.en-de.tsv"), args.dest)
    counts = {}
    for direction in DIRECTIONS:
        src = direction.split("-")[0]
        if bt_real_side(args.data, src):  # the monolingual sentences are the back-translations' real side
            mono = read_lines(bt_real_side(args.data, src))
        else:
            mono = read_mono(args.corpus, src) if os.path.isdir(os.path.join(args.corpus, "mono")) else []
            random.Random(MONO_SEED).shuffle(mono)
            mono = mono[:args.mono_limit] if args.mono_limit else mono
            text = os.path.join(args.home, f"mono.{src}")
            with open(text, "w", encoding="utf-8") as f:
                f.writelines(line + "\n" for line in mono)
            spm_tools.encode_file(os.path.join(args.data, "spm.model"), text, text + ".ids")
            os.makedirs(os.path.join(args.dest, "mono"), exist_ok=True)
            write_u16(text + ".ids", os.path.join(args.dest, "mono", f"mono.{src}.ids.u16.xz"))
            os.remove(text + ".ids")
        counts[direction] = write_kd_sources(args.data, mono, src, os.path.join(args.home, f"kd.{direction}.src"))
    with open(os.path.join(args.dest, "teacher.json"), "w") as f:
        json.dump({"kd_lines": counts}, f, indent=1)
    shutil.copy(os.path.join(args.dest, "teacher.json"), args.home)
    carry, tree = folder_bytes(args.dest), tree_bytes()
    print(f"{args.dest}: {carry / 2 ** 20:.1f} MiB; with the {tree / 2 ** 20:.1f} MiB working tree "
          f"{(carry + tree) / 2 ** 20:.1f} MiB travel (the device tool's limit: 64 MiB); lines to distill: {counts}")
    if carry_problem(carry, tree):
        raise SystemExit(carry_problem(carry, tree))


def timeout_s(minutes):
    """The device tool's timeout for a call planned at `minutes`: 2.5 minutes of headroom, at most 600."""
    return min(600, int(round((minutes * 60 + 150) / 10) * 10))


def step_command(step, options):
    """("distill", {"teachers": "grown", "minutes": 2}) -> the shell command run on the device machine."""
    words = ["bash weights/recipe/gpu_round.sh", step]
    for name, value in options.items():
        words += [f"--{name}"] if value is True else [f"--{name}", f"{value:g}" if isinstance(value, float) else str(value)]
    return " ".join(words)


def plan_calls(name):
    """[(command, planned minutes)] of plan `name`'s calls, in order."""
    calls = []
    for k, steps in enumerate(PLANS[name][1]):
        minutes = UNPACK_MINUTES if k == 0 else 0.0
        minutes += sum(options["minutes"] + STEP_OVERHEAD[step] for step, options in steps)
        calls.append(("; ".join(step_command(step, options) for step, options in steps), minutes))
    return calls


def carry_problem(carry, tree):
    """Why carry + the working tree cannot travel (None: it can)."""
    if carry + tree > CARRY_BYTES:
        return (f"the carry ({carry / 2 ** 20:.1f} MiB) with the working tree ({tree / 2 ** 20:.1f} MiB) is "
                f"{(carry + tree) / 2 ** 20:.1f} MiB, over the device tool's 64: prepare with fewer back-translations "
                "(gpu_round.py prepare --bt-limit 40000: ~4.4 MiB less) or a lighter mix, then pack again")
    return None


def budget(args):
    """The dry run: plan --plan's calls as the device tool takes them (command, timeout_s, carry),
    their minutes against the session's device seconds, and the carry against the 64 MiB."""
    about, _ = PLANS[args.plan]
    calls = plan_calls(args.plan)
    total = START_MINUTES + sum(m for _, m in calls) + IDLE_MINUTES * (len(calls) - 1)
    available = args.device_seconds / 60
    print(f"plan `{args.plan}`: {about}")
    print(f"  {START_MINUTES:5.1f} min  the machine's start (device time, before call 1)")
    for k, (command, minutes) in enumerate(calls, 1):
        if k > 1:
            print(f"  {IDLE_MINUTES:5.1f} min  idle: issue call {k} the moment call {k - 1} returns (30 s and the "
                  "machine goes back)")
        print(f"  {minutes:5.1f} min  call {k}: the device tool's run with")
        print(f"             command: {command}")
        print(f"             timeout_s: {timeout_s(minutes)}   carry: [\"{CARRY}\"]")
    print(f"  {total:5.1f} min  in all, of {available:g} ({available - total:.1f} to spare; a call stopped at its limit "
          "or by the budget brings nothing back, and only what runs counts)")
    problems = [f"call {k}: {m:.1f} planned minutes, over 9.5 of the tool's 10 a command" for k, (_, m) in
                enumerate(calls, 1) if m > 9.5]
    if total > available - SPARE_MINUTES:
        problems.append(f"{total:.1f} planned minutes leave less than {SPARE_MINUTES:g} of the {available:g} to spare")
    info = os.path.join(args.carry, "teacher.json")
    if os.path.exists(info):
        with open(info) as f:
            print(f"lines to distill in {args.carry}: {json.load(f)['kd_lines']}")
        carry, tree = folder_bytes(args.carry), tree_bytes()
        print(f"carry: {carry / 2 ** 20:.1f} MiB + working tree {tree / 2 ** 20:.1f} MiB = "
              f"{(carry + tree) / 2 ** 20:.1f} MiB of 64")
        problems.append(carry_problem(carry, tree))
    else:
        print(f"no carry in {args.carry} yet: `gpu_round.py prepare`, then `teacher_plan.py pack` (the docstring)")
    problems = [p for p in problems if p]
    if problems:
        raise SystemExit("not ready: " + "; ".join(problems))


def unpack(args):
    """The files of both calls -> --dest: teacher-<dir>.nmt, and for the text `distill --return-text`
    brought back, <teacher>/kd.<dir>.tsv.gz (English<TAB>German: the real source kept in --home, the
    teacher's translation; the translated prefix, empty ones out), which prepare_data.py --distilled reads."""
    import gzip
    os.makedirs(args.dest, exist_ok=True)
    for folder in args.parts:
        for name in sorted({os.path.basename(p).rsplit(".part", 1)[0] for p in glob.glob(os.path.join(folder, "*.part*"))}):
            join_parts(os.path.join(folder, glob.escape(name) + ".part*"), os.path.join(args.dest, name))
    for teacher in TEACHERS:
        for direction in DIRECTIONS:
            hyp_xz = os.path.join(args.dest, f"kd.{direction}.{teacher}.hyp.xz")
            if not os.path.exists(hyp_xz):
                continue
            with lzma.open(hyp_xz, "rt", encoding="utf-8") as f:
                hyps = f.read().split("\n")[:-1]
            sources = read_lines(os.path.join(args.home, f"kd.{direction}.src"))
            if len(hyps) > len(sources):
                raise SystemExit(f"{hyp_xz}: {len(hyps)} lines, more than the {len(sources)} sources in {args.home}: "
                                 "not this pack's output")
            os.makedirs(os.path.join(args.dest, teacher), exist_ok=True)
            tsv = os.path.join(args.dest, teacher, f"kd.{direction}.tsv.gz")
            kept = 0
            with gzip.open(tsv, "wt", encoding="utf-8") as out:
                for src, hyp in zip(sources, hyps):
                    if hyp.strip():
                        en, de = (src, hyp) if direction == "en-de" else (hyp, src)
                        out.write(f"{en}\t{de}\n")
                        kept += 1
            print(f"{teacher} {direction}: {len(hyps)} of {len(sources)} lines distilled, {kept} pairs -> {tsv}")
    for name in sorted(os.listdir(args.dest)):
        if name.endswith(".nmt"):
            print(f"{os.path.join(args.dest, name)}: {os.path.getsize(os.path.join(args.dest, name)) / 1e6:.1f} MB")


# --- there: the calls ---

def check_return(out):
    """What --out holds against what the device tool brings back; a list of problems (empty: fine)."""
    problems, total = [], 0
    files = [os.path.join(d, f) for d, _, fs in os.walk(out) for f in fs]
    if len(files) > RETURN_FILES:
        problems.append(f"{len(files)} files (the tool brings back {RETURN_FILES})")
    for path in files:
        rel = os.path.relpath(path, out)
        total += os.path.getsize(path)
        if os.path.getsize(path) > RETURN_FILE_BYTES:
            problems.append(f"{rel}: over 16 MiB")
        if rel.count(os.sep) > 2 or not all(RETURN_NAME.match(part) for part in rel.split(os.sep)):
            problems.append(f"{rel}: a name or depth the tool does not bring back")
    if total > RETURN_BYTES:
        problems.append(f"{total / 2 ** 20:.1f} MiB in all (the tool brings back 64)")
    return problems


class Call:
    """One call's bookkeeping: the log in --out, the work folder that outlives the call while the
    machine stays warm, and the state both calls read."""

    def __init__(self, args):
        self.args, self.t0 = args, time.time()
        os.makedirs(args.out, exist_ok=True)
        os.makedirs(args.work, exist_ok=True)
        self.log_file = os.path.join(args.out, "log.txt")
        self.state_path = os.path.join(args.work, "state.json")
        self.state = {}
        if os.path.exists(self.state_path):
            with open(self.state_path) as f:
                self.state = json.load(f)

    def log(self, msg):
        log(f"{msg} ({(time.time() - self.t0) / 60:.1f} min)", self.log_file)

    def append_log(self, path, title):
        """A step's own log (train.py, distill.py) into the call's log, under `--- title`."""
        with open(path, encoding="utf-8") as src, open(self.log_file, "a", encoding="utf-8") as dst:
            dst.write(f"--- {title}\n" + src.read())

    def save(self):
        with open(self.state_path, "w") as f:
            json.dump(self.state, f, indent=1)
        shutil.copy(self.state_path, self.args.out)

    def finish(self, files):
        """Copies files into --out as parts while the tool's limits allow; logs what stayed out."""
        for path in files:
            size = os.path.getsize(path)
            present = [os.path.join(self.args.out, f) for f in os.listdir(self.args.out)]
            parts = -(-size // PART_BYTES)
            if len(present) + parts + 1 > RETURN_FILES or sum(map(os.path.getsize, present)) + size > RETURN_BYTES - 2 ** 20:
                self.log(f"{os.path.basename(path)}: left out ({size / 1e6:.1f} MB; the tool brings back 8 files, 64 MiB)")
                continue
            split_into_parts(path, self.args.out)
        problems = check_return(self.args.out)
        self.log("done" + (f"; PROBLEMS: {problems}" if problems else ""))
        return 1 if problems else 0


def last_validation(train_log):
    """The last "valid" event of a train.log (one JSON object a line), or {}."""
    last = {}
    with open(train_log, encoding="utf-8") as f:
        for line in f:
            event = json.loads(line)
            if event.get("event") == "valid":
                last = event
    return last


def teacher_config(student_file, overrides):
    from model_file import read_model_file
    return {**read_model_file(student_file)[0]["config"], **overrides}


def kd_sources(args, data, direction):
    """work/kd.<dir>.src.ids, the lines every teacher of that direction distils, in kd_order (written
    once per machine), and their count, checked against the count pack saw here."""
    ids = os.path.join(args.work, f"kd.{direction}.src.ids")
    with open(os.path.join(args.carry, "teacher.json")) as f:
        expected = json.load(f)["kd_lines"][direction]
    if not os.path.exists(ids):
        src = direction.split("-")[0]
        mono_ids = bt_real_side(data, src, ".ids")
        if not mono_ids:
            mono_ids = os.path.join(args.work, f"mono.{src}.ids")
            read_u16(os.path.join(args.carry, "mono", f"mono.{src}.ids.u16.xz"), mono_ids)
        write_kd_sources(data, read_lines(mono_ids), src, ids + ".tmp", suffix=".ids")
        os.replace(ids + ".tmp", ids)  # never half a file: the next call trusts what is there
    count = len(read_lines(ids))
    if count != expected:
        raise SystemExit(f"{direction}: {count} lines to distill, but pack counted {expected}: not the same data")
    return ids, expected


def hyp_path(work, direction, teacher):
    return os.path.join(work, f"kd.{direction}.{teacher}.hyp")


def start_distillers(call, args, data, teachers, directions, minutes):
    """distill.py per (teacher, direction), all at once for `minutes`: the grown teacher's checkpoint
    call 1 left on this machine, or the shipped model file (self-distillation). Each appends to its
    work/kd.<dir>.<teacher>.hyp, so a later call goes on where this one stops."""
    jobs = {}
    for direction in directions:
        ids, expected = kd_sources(args, data, direction)
        for teacher in teachers:
            model = (os.path.join(args.weights, direction, "model.nmt") if teacher == "shipped"
                     else call.state["teachers"][direction]["checkpoint"])
            hyp = hyp_path(args.work, direction, teacher)
            cmd = [sys.executable, os.path.join(HERE, "distill.py"), "--checkpoint", model, "--ids", ids,
                   "--spm", os.path.join(data, "spm.model"), "--out", hyp, "--minutes", str(minutes),
                   "--batch", str(args.batch), "--device", args.device]
            if args.limit:
                cmd += ["--limit", str(args.limit)]
            call.log("$ " + " ".join(cmd))
            jobs[teacher, direction] = (subprocess.Popen(cmd, stdout=open(hyp + ".log", "w"), stderr=subprocess.STDOUT),
                                        hyp, expected)
    return jobs


def finish_distillers(call, jobs, return_text):
    """Waits for start_distillers' jobs; the state notes each one's lines. Returns (the xz files of
    the text when return_text, the jobs that failed)."""
    texts, failed = [], []
    for (teacher, direction), (proc, hyp, expected) in jobs.items():
        code = proc.wait()
        call.append_log(hyp + ".log", f"distill.py {teacher} {direction} (exit {code})")
        if code not in (0, 3) or not os.path.exists(hyp):  # 3: the time ran out first, a prefix is done
            failed.append(f"{teacher} {direction}")
            continue
        lines = len(read_lines(hyp))
        call.state.setdefault("distilled", {}).setdefault(teacher, {})[direction] = {"lines": lines, "of": expected}
        call.log(f"{teacher} {direction}: {lines} of {expected} lines distilled")
        if return_text:
            with open(hyp, "rb") as f, lzma.open(hyp + ".xz", "wb", preset=6) as out:
                shutil.copyfileobj(f, out)
            texts.append(hyp + ".xz")
    return texts, failed


def train_call(args):
    """Call 1: unpack the data, train both teachers at once, export each as int8 into --out (the
    insurance should the machine go back before call 2) and keep everything under --work. With
    --self-distill the shipped students distil beside them for the same minutes (plan `compare`)."""
    from grow import check_growable
    from model_file import read_model_file
    call = Call(args)
    data = unpack_data(args.carry, args.work)
    call.state["data"] = data
    call.log(f"data unpacked into {data}")
    overrides = dict(TEACHER)
    if args.teacher_config:
        with open(args.teacher_config) as f:
            overrides = json.load(f)
    directions = args.directions.split(",")
    if args.self_distill:  # the sources first: a mismatch with pack stops the call before anything starts
        for direction in directions:
            kd_sources(args, data, direction)
    procs = {}
    for direction in directions:
        student = os.path.join(args.weights, direction, "model.nmt")
        cfg = teacher_config(student, overrides)
        config = os.path.join(args.work, f"teacher-{direction}.json")
        with open(config, "w") as f:
            json.dump(cfg, f)
        out = os.path.join(args.work, f"teacher-{direction}")
        init_from = student  # grown from the student: starts where it is
        try:
            check_growable(read_model_file(student)[0]["config"], cfg)
        except ValueError as e:
            init_from = None
            call.log(f"teacher {direction}: from scratch ({e})")
        cmd = train_command(args, data, config, direction, out, args.threads, init_from=init_from)
        if args.steps:
            cmd += ["--max-steps", str(args.steps)]
        call.log("$ " + " ".join(cmd))
        procs[direction] = (subprocess.Popen(cmd, stdout=open(out + ".log", "w"), stderr=subprocess.STDOUT), out)
    distillers = start_distillers(call, args, data, ["shipped"], directions, args.minutes) if args.self_distill else {}
    exports, failed = [], []
    call.state["teachers"] = {}
    for direction, (proc, out) in procs.items():
        code = proc.wait()
        call.append_log(out + ".log", f"train.py {direction}")
        model = os.path.join(args.work, f"teacher-{direction}.nmt")
        if code != 0 or not os.path.exists(os.path.join(out, "model.pt")) or subprocess.run(
                [sys.executable, os.path.join(HERE, "export.py"), "--checkpoint", os.path.join(out, "model.pt"),
                 "--spm", os.path.join(data, "spm.model"), "--out", model]).returncode != 0:
            failed.append(f"teacher {direction}")
            continue
        call.state["teachers"][direction] = {"checkpoint": os.path.join(out, "model.pt"),
                                             "last_valid": last_validation(os.path.join(out, "train.log"))}
        exports.append(model)
    failed += finish_distillers(call, distillers, return_text=False)[1]
    call.save()
    if failed:
        call.log(f"FAILED: {', '.join(failed)}")
    return call.finish(exports) or (1 if failed else 0)


def distill_call(args):
    """Call 2 (or a plan's first call, for the shipped teachers alone): each of --teachers
    translates each direction's sources (training sources and monolingual text, in kd_order), all at
    once, for --minutes, going on where an earlier call stopped. "grown" needs the teachers call 1
    left on this machine; "shipped" needs nothing but the carry (it unpacks the data if no call did).
    With --return-text the translated prefixes come back as kd.<dir>.<teacher>.hyp.xz (unpack reads them)."""
    call = Call(args)
    teachers, directions = args.teachers.split(","), args.directions.split(",")
    unknown = [t for t in teachers if t not in TEACHERS]
    if unknown:
        raise SystemExit(f"--teachers {args.teachers}: {', '.join(unknown)} is not one of {', '.join(TEACHERS)}")
    skipped = []
    if "grown" in teachers:
        missing = [d for d in directions
                   if not os.path.exists(call.state.get("teachers", {}).get(d, {}).get("checkpoint", "/nonexistent"))]
        if missing:  # the others still distil: a slice has no time for a second try
            call.log(f"no teacher for {', '.join(missing)} in {args.work}: call 1 did not finish here, or this is a fresh "
                     "machine (the last one went back). Distill here from call 1's int8 teachers instead, or with "
                     "--teachers shipped (teacher_plan.py docstring)")
            teachers, skipped = [t for t in teachers if t != "grown"], ["grown"]
    if not teachers:
        return 2
    if "data" not in call.state:
        call.state["data"] = unpack_data(args.carry, args.work)
        call.log(f"data unpacked into {call.state['data']}")
    jobs = start_distillers(call, args, call.state["data"], teachers, directions, args.minutes)
    texts, failed = finish_distillers(call, jobs, args.return_text)
    call.save()
    if failed:
        call.log(f"FAILED: {', '.join(failed)}")
    return call.finish(texts) or (1 if failed else 2 if skipped else 0)


def kd_pairs(work, data, dest, direction, teacher, share):
    """One arm's distilled pairs for one direction -> dest/kd.<src>-<tgt>.{<src>.ids,<tgt>.ids,weight}:
    the real source's ids, the teacher's line encoded, after prepare_data.py's checks of every pair
    (empty, too long, length ratio, language; a side shared with the held-out labels); each weighted
    so that together they are `share` of an epoch's copies (the real and back-translated pairs the
    rest). The sources' own ids are kept: decoded, a piece the vocabulary writes as unknown would not
    encode back the same. Returns what the state notes."""
    import spm_tools
    from dev_sets import SHORT_LABELS, held_out_keys
    from prepare_data import clean_pair, is_held_out
    s, t = direction.split("-")
    spm = os.path.join(data, "spm.model")
    hyps = read_lines(hyp_path(work, direction, teacher))
    src_ids = read_lines(os.path.join(work, f"kd.{direction}.src.ids"))[:len(hyps)]
    sources = spm_tools.decode(spm, [[int(i) for i in line.split()] for line in src_ids])
    held_out = held_out_keys([SHORT_LABELS])
    pairs = [(src, hyp) if s == "en" else (hyp, src) for src, hyp in zip(sources, hyps)]
    keep = [i for i, (en, de) in enumerate(pairs) if not clean_pair(en, de) and not is_held_out(en, de, held_out)]
    targets = spm_tools.encode(spm, [hyps[i] for i in keep])
    real = sum(read_weights(data))
    bt = os.path.join(data, f"bt.{s}-{t}.weight")
    if os.path.exists(bt):
        with open(bt) as f:
            real += sum(float(x) for x in f)
    weight = share / (1 - share) * real / max(1, len(keep))
    base = os.path.join(dest, f"kd.{s}-{t}")
    with open(f"{base}.{s}.ids", "w") as fs, open(f"{base}.{t}.ids", "w") as ft, open(f"{base}.weight", "w") as fw:
        for i, ids in zip(keep, targets):
            fs.write(src_ids[i] + "\n")
            ft.write(" ".join(map(str, ids)) + "\n")
            fw.write(f"{weight:.6g}\n")
    return {"kd_pairs": len(keep), "of": len(hyps), "kd_weight": round(weight, 4), "kd_share": share}


def arm_folder(data, dest):
    """dest: the data folder's files as links (the distilled pairs are added beside them)."""
    os.makedirs(dest, exist_ok=True)
    for name in os.listdir(data):
        if not name.startswith("kd.") and not os.path.exists(os.path.join(dest, name)):
            os.symlink(os.path.join(data, name), os.path.join(dest, name))
    return dest


def students_call(args):
    """Call 2's second half, in the same command right after `distill`: per arm of --arms, both
    shipped students continue (gpu_round.py student, every run at once, the same minutes and seed):
    a teacher's arm on the mix plus its distilled pairs (data-<teacher>/, --kd-share of each epoch),
    the `mix` arm on the mix alone. Each comes back int8 as student-<dir>-<arm>.nmt. Here, not in a
    later slice, because nothing outlives a session: not that machine's disk, nor work/ in a
    session's fresh clone, and the distilled text (~25 MiB) is no file for git."""
    from concurrent.futures import ProcessPoolExecutor
    from gpu_round import student
    call = Call(args)
    arms, directions = args.arms.split(","), args.directions.split(",")
    unknown = [a for a in arms if a not in TEACHERS + (CONTROL_ARM,)]
    if unknown or not 0 < args.kd_share < 1:
        raise SystemExit(f"--arms {args.arms} (each one of {', '.join(TEACHERS + (CONTROL_ARM,))}), --kd-share "
                         f"{args.kd_share} (between 0 and 1)")
    missing = [a for a in arms if a != CONTROL_ARM
               and not all(os.path.exists(hyp_path(args.work, d, a)) for d in directions)]
    if missing:  # the other arms still train: a slice has no time for a second try
        call.log(f"no distilled text of {', '.join(missing)} in {args.work}: run `distill` on this machine first; "
                 f"{', '.join(missing)} left out")
        arms = [a for a in arms if a not in missing]
    if "data" not in call.state or not arms:
        call.log(f"nothing to train in {args.work}" + ("" if "data" in call.state else ": no data (run `distill` first)"))
        return 2
    data = call.state["data"]
    folders = {CONTROL_ARM: data}
    jobs = {}
    with ProcessPoolExecutor() as pool:  # ~40 s of CPU each for ~645k lines: at once, not one after another
        for arm in arms:
            if arm == CONTROL_ARM:
                continue
            folders[arm] = arm_folder(data, os.path.join(args.work, f"data-{arm}"))
            for direction in directions:
                jobs[arm, direction] = pool.submit(kd_pairs, args.work, data, folders[arm], direction, arm, args.kd_share)
        for (arm, direction), job in jobs.items():
            info = call.state.setdefault("students", {}).setdefault(arm, {})[direction] = job.result()
            call.log(f"{arm} {direction}: {info['kd_pairs']} of {info['of']} distilled pairs join the data "
                     f"({info['kd_weight']:g} copies per epoch each, {args.kd_share:.0%} of an epoch)")
    call.save()
    code = student(argparse.Namespace(
        carry=args.carry, work=args.work, out=args.out, weights=args.weights, device=args.device,
        variants=",".join(f"{d}:{a}" for a in arms for d in directions), data_folders=folders,
        minutes=args.minutes, max_tokens=args.max_tokens, lr=args.lr, checkpoint_minutes=args.checkpoint_minutes,
        bleu_sentences=args.bleu_sentences, seed=args.seed, steps=args.steps))
    return code or (2 if missing else 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack", help="here: what travels (--dest) and what stays (--home)")
    p.add_argument("--data", required=True, help="prepare_data.py's --out (gpu_round.py prepare: work/gpu-prepare/data)")
    p.add_argument("--corpus", required=True, help="for flores-dev and mono/")
    p.add_argument("--dest", default=os.path.join(ROOT, CARRY))
    p.add_argument("--home", default=os.path.join(ROOT, "work", "teacher-home"))
    p.add_argument("--mono-limit", type=int, default=0, help="at most N monolingual sentences per language")
    p = sub.add_parser("budget", help="here: the dry run, a plan's calls, minutes and carry")
    p.add_argument("--plan", choices=sorted(PLANS), default="compare")
    p.add_argument("--carry", default=os.path.join(ROOT, CARRY))
    p.add_argument("--device-seconds", type=float, default=900, help="what the session has (the tool's status)")
    p = sub.add_parser("unpack", help="here: the returned files -> the teachers and <teacher>/kd.<dir>.tsv.gz")
    p.add_argument("--parts", nargs="+", required=True, help="the folders the calls' files landed in")
    p.add_argument("--home", default=os.path.join(ROOT, "work", "teacher-home"))
    p.add_argument("--dest", required=True)
    defaults = {step: options["minutes"] for call in PLANS["compare"][1] for step, options in call}
    for name, help_text in (("train", "there, call 1: train both teachers (--self-distill: the shipped students "
                                      "distil beside them)"),
                            ("distill", "there: the teachers distil"),
                            ("students", "there, after distill: the students continue on the mix + each arm's "
                                         "distilled pairs")):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--carry", default=os.path.join(ROOT, CARRY))
        p.add_argument("--work", default="/tmp/teacher-work", help="outlives a call only while the machine stays warm")
        p.add_argument("--out", default=os.environ.get("OUT", "gpu-out"))
        p.add_argument("--weights", default=os.path.join(ROOT, "weights"), help="the shipped students")
        p.add_argument("--device", default="cuda")
        p.add_argument("--directions", default=",".join(DIRECTIONS))
        p.add_argument("--minutes", type=float, default=defaults[name], help="(plan `compare`'s by default)")
        if name in ("train", "distill"):
            p.add_argument("--batch", type=int, default=1024, help="sentences per distillation batch")
            p.add_argument("--limit", type=int, default=0, help="distill only the first N lines per direction (tests)")
        if name in ("train", "students"):
            from gpu_round import STUDENT_TRAIN_ARGS
            teacher = name == "train"
            p.add_argument("--max-tokens", type=int, default=32000 if teacher else STUDENT_TRAIN_ARGS["max_tokens"])
            p.add_argument("--lr", type=float, default=5e-3 if teacher else STUDENT_TRAIN_ARGS["lr"],
                           help="peak of the schedule (continued at the shipped student's step)")
            p.add_argument("--checkpoint-minutes", type=float, default=1.8 if teacher else 1.0)
            p.add_argument("--bleu-sentences", type=int, default=100)
            p.add_argument("--seed", type=int, default=54)
            p.add_argument("--steps", type=int, default=0, help="stop after this many steps (tests)")
        if name == "train":
            p.add_argument("--teacher-config", help=f"JSON overriding the student's config (default {json.dumps(TEACHER)})")
            p.add_argument("--threads", type=int, default=4)
            p.add_argument("--self-distill", action="store_true",
                           help="the shipped students distil the sources beside the teachers, for the same minutes")
        elif name == "distill":
            p.add_argument("--teachers", default="grown", help=f"comma-separated, of {', '.join(TEACHERS)}")
            p.add_argument("--return-text", action="store_true", help="bring the distilled text back (xz) for unpack")
        else:
            p.add_argument("--arms", default="grown", help=f"comma-separated, of {', '.join(TEACHERS + (CONTROL_ARM,))}")
            p.add_argument("--kd-share", type=float, default=KD_SHARE, help="the distilled pairs' share of an epoch")
    args = ap.parse_args()
    commands = {"pack": pack, "budget": budget, "unpack": unpack, "train": train_call, "distill": distill_call,
                "students": students_call}
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
