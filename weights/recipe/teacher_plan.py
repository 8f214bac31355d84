"""The one-slice teacher plan (issue 54): a teacher per direction with more than twice the
student's parameters, trained on the full mix, then sequence-level distillation of the training
sources and the monolingual text, in exactly two calls on one warm GPU machine.

What a GPU slice is here (the device tool): 15 minutes of device time per session in all, the
machine's start (~1-2 min) included; one command at most 10 minutes; 64 MiB carried in, working
tree included (~31 MiB of it); at most 8 files of 16 MiB back per call; the machine goes back after
30 s idle. Hence: one machine start, call 1 trains and exports, call 2 (issued at once, while the
teachers still sit on that machine's disk) distills. Nothing else needs a GPU.

  # here (CPU), before the session's first GPU minute: back-translations by the shipped models and
  # the mix without the dictionary's entries and the bible (~30 min on 2 cores), then what travels
  # (gpu-carry/) and what stays (work/teacher-home/: the sources in the order they are distilled)
  /usr/bin/python3 weights/recipe/gpu_round.py prepare --corpus ../shared/corpus --mix dict=0,bible=0 \
      --work work/teacher-prepare --dest work/teacher-prepare/student-carry
  /usr/bin/python3 weights/recipe/teacher_plan.py pack --data work/teacher-prepare/data --corpus ../shared/corpus
  /usr/bin/python3 weights/recipe/teacher_plan.py budget          # the time plan and the carry's size
  # there: the device tool's `run`, carry ["gpu-carry"], one call right after the other
  #   call 1: command "bash weights/recipe/gpu_round.sh train", timeout_s 560
  #   call 2: command "bash weights/recipe/gpu_round.sh distill; bash weights/recipe/gpu_round.sh students",
  #           timeout_s 520 (the students continue on the mix + the distilled pairs, exported int8)
  # here again: the returned files -> distilled pairs (real source, teacher's target) + teachers
  /usr/bin/python3 weights/recipe/teacher_plan.py unpack --parts <call 1 files_at> <call 2 files_at> --dest work/kd
  /usr/bin/python3 weights/recipe/prepare_data.py --corpus ../shared/corpus --out work/data-kd \
      --reuse-vocab weights/en-de/model.nmt --back-translations work/teacher-prepare/bt --distilled work/kd

The teacher (TEACHER below): the shipped student grown (grow.py: the new layers and feed-forward
units start as identities) to 6+6 layers with a 2048-wide feed-forward, 19.4 M parameters against
8.9 M, one per direction, both training at once on the one GPU. Grown, not trained from scratch:
4.5 minutes (~26 M target tokens per direction, measured on an H200) is a twentieth of what the
students have seen (~530 M), and a d512 teacher started from nothing would end that call below the
student it is meant to teach. Measured (weights/EXPERIMENTS.md, "the teacher plan on an H200"): the
grown teacher ends only +0.15 / +0.38 flores-dev BLEU above the student; the de-en student distilled
from it gained +0.6, en-de nothing; short labels fell (the mix without the dictionary). One model for both
directions (a target-language tag) would not halve anything: each pair trains it twice, the same
tokens as two models, and the students cannot be grown into it. A bigger width (d_model) cannot be
grown function-preservingly (the layer norms' statistics change), so it would start from scratch
too: --teacher-config takes any config (a d_model other than the student's trains from scratch).

Distillation (call 2): greedy, batched, bf16 (distill.py), because the reference beam search
(model.py) takes one sentence at a time; per direction the training sources of the mix (all but
the single dictionary entries: weight >= KD_MIN_WEIGHT) interleaved evenly with the monolingual
sentences of the source language, so that whatever prefix the time allows is the same blend. Only
the teacher's side comes back (xz text); unpack joins it with the sources kept here (--home).

The carry, measured (session of 2026-11-28): the mix without dict and bible as uint16 ids, xz, 17.1
MiB; the back-translations ~9 MiB (estimated: the monolingual sentences as ids are 2.3 MiB a
language, and each pair holds one real and one synthetic side); flores-dev 0.3 MiB; with the
30.8 MiB working tree ~57 MiB of the 64 (the whole mix, dictionary and bible in: ~62.5, too close).
Call 2 brought back ~5.3 MiB of xz text per direction for the ~280k lines 2 minutes distilled, and the
two students (int8, 9.5 MB each).

Students (call 2 goes on, `students`): nothing outlives a session (not that machine, not work/ here),
so the distilled pairs train the students in the same slice: they join the carried data as
kd.<src>-<tgt>.* (KD_WEIGHT copies an epoch), and gpu_round.py's student runs continue both shipped
students on it at once.

Not carried back in next time: one teacher as int8 (~20 MB) + the data (~26 MiB) + the working tree
(~31 MiB) is over the 64 MiB, so each slice grows a fresh teacher from the then shipped student;
the returned int8 teachers serve to distill more text here on CPU (the engine's beam search:
`build/nmt --model work/kd/teacher-en-de.nmt`) and to score what the teacher alone gives.
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
from gpu_round import PART_BYTES, join_parts, log, read_u16, split_into_parts, unpack_data, write_u16  # noqa: E402

DIRECTIONS = ("en-de", "de-en")
TEACHER = {"d_ff": 2048, "encoder_layers": 6, "decoder_layers": 6}
KD_MIN_WEIGHT = 0.1  # training lines below this many copies per epoch (the dictionary's entries) are not distilled
MONO_SEED = 54
# The device tool (its README): what a call may bring back, and what may travel with it.
RETURN_FILES, RETURN_FILE_BYTES, RETURN_BYTES = 8, 16 * 2 ** 20, 64 * 2 ** 20
CARRY_BYTES = 64 * 2 ** 20
RETURN_NAME = re.compile(r"^[A-Za-z0-9._-]+$")
# The time plan (minutes), for `budget` and the calls' defaults. Rates measured on an H200 (session
# of 2026-11-28, weights/EXPERIMENTS.md): machine start ~1 min, two teachers at once ~96k target
# tok/s each, greedy distillation ~2,000 sentences/s per direction, two students at once ~146k tok/s.
# Call 2 distills, then (same command) the students continue on the mix plus the distilled pairs.
PLAN = {"start": 1.5, "train_minutes": 4.5, "train_overhead": 1.3, "idle": 0.5, "distill_minutes": 2.0,
        "distill_overhead": 0.8, "student_minutes": 2.5, "student_overhead": 0.8}
KD_WEIGHT = 2.0  # copies per epoch of each distilled pair (a real training pair has ~1)
TRAIN_TOK_PER_S, DISTILL_SENT_PER_S = 96_000, 2_000


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
    if carry + tree > CARRY_BYTES:
        raise SystemExit("too big to travel: prepare the data with fewer sources (prepare_data.py --mix) or pass "
                         "--mono-limit")


def timeout_s(minutes):
    """The device tool's timeout for a call planned at `minutes`: 2.5 minutes of headroom, at most 600."""
    return min(600, int(round((minutes * 60 + 150) / 10) * 10))


def budget(args):
    """The dry run: the two calls' minutes against the session's 15, and what they should give."""
    p = dict(PLAN, train_minutes=args.train_minutes, distill_minutes=args.distill_minutes,
             student_minutes=args.student_minutes)
    call1 = p["train_minutes"] + p["train_overhead"]
    call2 = p["distill_minutes"] + p["distill_overhead"] + p["student_minutes"] + p["student_overhead"]
    total = p["start"] + call1 + p["idle"] + call2
    rows = [("machine start (device time, before call 1)", p["start"]),
            (f"call 1 `train`: unpack ~0.4, two teachers {p['train_minutes']:g} min at once, "
             f"average + validate + export ~0.9", call1),
            ("idle between the calls (issue call 2 at once: 30 s and the machine goes back)", p["idle"]),
            (f"call 2 `distill` then `students`: load ~0.3, greedy {p['distill_minutes']:g} min per direction at once, "
             f"xz ~0.5; the distilled pairs encoded ~0.3, both students {p['student_minutes']:g} min at once, "
             "export ~0.5", call2)]
    print("the one-slice teacher plan, device minutes:")
    for what, minutes in rows:
        print(f"  {minutes:5.1f}  {what}")
    print(f"  {total:5.1f}  in all, of the session's 15 ({15 - total:.1f} to spare)")
    print(f"  timeout_s: call 1 {timeout_s(call1)}, call 2 {timeout_s(call2)} (headroom: a call stopped at its limit "
          "brings nothing back, and device time counts only what runs)")
    print(f"expected (the rates measured on an H200): ~{TRAIN_TOK_PER_S * p['train_minutes'] * 60 / 1e6:.0f} M "
          f"target tokens per teacher; up to ~{DISTILL_SENT_PER_S * p['distill_minutes'] * 60 / 1e3:.0f}k sentences "
          "distilled per direction")
    info = os.path.join(args.carry, "teacher.json")
    if os.path.exists(info):
        with open(info) as f:
            print(f"lines to distill in {args.carry}: {json.load(f)['kd_lines']}")
        carry, tree = folder_bytes(args.carry), tree_bytes()
        print(f"carry: {carry / 2 ** 20:.1f} MiB + working tree {tree / 2 ** 20:.1f} MiB = {(carry + tree) / 2 ** 20:.1f} "
              "MiB of 64")
    if total > 15 - 0.5 or call1 > 9.5 or call2 > 9.5:
        raise SystemExit("over the device tool's limits: fewer minutes")


def unpack(args):
    """The files of both calls -> --dest: teacher-<dir>.nmt, and kd.<dir>.tsv.gz (English<TAB>German:
    the real source kept in --home, the teacher's translation; the translated prefix, empty ones out)."""
    import gzip
    os.makedirs(args.dest, exist_ok=True)
    for folder in args.parts:
        for name in sorted({os.path.basename(p).rsplit(".part", 1)[0] for p in glob.glob(os.path.join(folder, "*.part*"))}):
            join_parts(os.path.join(folder, glob.escape(name) + ".part*"), os.path.join(args.dest, name))
    for direction in DIRECTIONS:
        hyp_xz = os.path.join(args.dest, f"kd.{direction}.hyp.xz")
        if not os.path.exists(hyp_xz):
            print(f"{direction}: no distilled text came back")
            continue
        with lzma.open(hyp_xz, "rt", encoding="utf-8") as f:
            hyps = f.read().split("\n")[:-1]
        sources = read_lines(os.path.join(args.home, f"kd.{direction}.src"))
        if len(hyps) > len(sources):
            raise SystemExit(f"{hyp_xz}: {len(hyps)} lines, more than the {len(sources)} sources in {args.home}: "
                             "not this pack's output")
        kept = 0
        with gzip.open(os.path.join(args.dest, f"kd.{direction}.tsv.gz"), "wt", encoding="utf-8") as out:
            for src, hyp in zip(sources, hyps):
                if hyp.strip():
                    en, de = (src, hyp) if direction == "en-de" else (hyp, src)
                    out.write(f"{en}\t{de}\n")
                    kept += 1
        print(f"{direction}: {len(hyps)} of {len(sources)} lines distilled, {kept} pairs -> "
              f"{os.path.join(args.dest, f'kd.{direction}.tsv.gz')}")


# --- there: the two calls ---

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


def train_call(args):
    """Call 1: unpack the data, train both teachers at once, export each as int8 into --out (the
    insurance should the machine go back before call 2) and keep everything under --work."""
    from grow import check_growable
    from model_file import read_model_file
    call = Call(args)
    data = unpack_data(args.carry, args.work)
    call.log(f"data unpacked into {data}")
    overrides = dict(TEACHER)
    if args.teacher_config:
        with open(args.teacher_config) as f:
            overrides = json.load(f)
    procs = {}
    for direction in args.directions.split(","):
        s, t = direction.split("-")
        student = os.path.join(args.weights, direction, "model.nmt")
        cfg = teacher_config(student, overrides)
        config = os.path.join(args.work, f"teacher-{direction}.json")
        with open(config, "w") as f:
            json.dump(cfg, f)
        out = os.path.join(args.work, f"teacher-{direction}")
        cmd = [sys.executable, os.path.join(HERE, "train.py"), "--data", data, "--config", config,
               "--dev", os.path.join(args.carry, "flores-dev.en-de.tsv"), "--src", s, "--tgt", t, "--out", out,
               "--device", args.device, "--minutes", str(args.minutes), "--anneal-minutes", str(args.minutes),
               "--max-tokens", str(args.max_tokens), "--lr", str(args.lr), "--checkpoint-minutes", str(args.checkpoint_minutes),
               "--bleu-sentences", str(args.bleu_sentences), "--dropout", "0.1", "--threads", str(args.threads),
               "--patience", "1000", "--seed", str(args.seed)]
        try:
            check_growable(read_model_file(student)[0]["config"], cfg)
            cmd += ["--init-from", student]  # grown from the student: starts where it is
        except ValueError as e:
            call.log(f"teacher {direction}: from scratch ({e})")
        if args.steps:
            cmd += ["--max-steps", str(args.steps)]
        call.log("$ " + " ".join(cmd))
        procs[direction] = (subprocess.Popen(cmd, stdout=open(out + ".log", "w"), stderr=subprocess.STDOUT), out)
    exports, failed = [], []
    call.state["teachers"] = {}
    for direction, (proc, out) in procs.items():
        code = proc.wait()
        with open(out + ".log", encoding="utf-8") as src, open(call.log_file, "a", encoding="utf-8") as dst:
            dst.write(f"--- train.py {direction}\n" + src.read())
        model = os.path.join(args.work, f"teacher-{direction}.nmt")
        if code != 0 or not os.path.exists(os.path.join(out, "model.pt")) or subprocess.run(
                [sys.executable, os.path.join(HERE, "export.py"), "--checkpoint", os.path.join(out, "model.pt"),
                 "--spm", os.path.join(data, "spm.model"), "--out", model]).returncode != 0:
            failed.append(direction)
            continue
        call.state["teachers"][direction] = {"checkpoint": os.path.join(out, "model.pt"),
                                             "last_valid": last_validation(os.path.join(out, "train.log"))}
        exports.append(model)
    call.state["data"] = data
    call.save()
    if failed:
        call.log(f"FAILED: {', '.join(failed)}")
    return call.finish(exports) or (1 if failed else 0)


def distill_call(args):
    """Call 2: the teachers call 1 left on this machine translate each direction's sources (its
    training sources and monolingual text, in kd_order) at once, for --minutes; the translated
    prefix of each comes back as kd.<dir>.hyp.xz."""
    call = Call(args)
    teachers = call.state.get("teachers", {})
    directions = args.directions.split(",")
    missing = [d for d in directions if not os.path.exists(teachers.get(d, {}).get("checkpoint", "/nonexistent"))]
    if missing:
        call.log(f"no teacher for {', '.join(missing)} in {args.work}: call 1 did not finish here, or this is a fresh "
                 "machine (the last one went back). Distill here from call 1's int8 teachers instead (teacher_plan.py "
                 "docstring)")
        return 2
    data = call.state["data"]
    with open(os.path.join(args.carry, "teacher.json")) as f:
        expected = json.load(f)["kd_lines"]
    procs = {}
    for direction in directions:
        src = direction.split("-")[0]
        mono_ids = bt_real_side(data, src, ".ids")
        if not mono_ids:
            mono_ids = os.path.join(args.work, f"mono.{src}.ids")
            read_u16(os.path.join(args.carry, "mono", f"mono.{src}.ids.u16.xz"), mono_ids)
        ids = os.path.join(args.work, f"kd.{direction}.src.ids")
        count = write_kd_sources(data, read_lines(mono_ids), src, ids, suffix=".ids")
        if count != expected[direction]:
            call.log(f"{direction}: {count} lines to distill, but pack counted {expected[direction]}: not the same data")
            return 1
        hyp = os.path.join(args.work, f"kd.{direction}.hyp")
        cmd = [sys.executable, os.path.join(HERE, "distill.py"), "--checkpoint", teachers[direction]["checkpoint"],
               "--ids", ids, "--spm", os.path.join(data, "spm.model"), "--out", hyp, "--minutes", str(args.minutes),
               "--batch", str(args.batch), "--device", args.device]
        if args.limit:
            cmd += ["--limit", str(args.limit)]
        call.log("$ " + " ".join(cmd))
        procs[direction] = (subprocess.Popen(cmd, stdout=open(hyp + ".log", "w"), stderr=subprocess.STDOUT), hyp)
    results, failed = [], []
    for direction, (proc, hyp) in procs.items():
        code = proc.wait()
        with open(hyp + ".log", encoding="utf-8") as src, open(call.log_file, "a", encoding="utf-8") as dst:
            dst.write(f"--- distill.py {direction} (exit {code})\n" + src.read())
        if code not in (0, 3) or not os.path.exists(hyp):
            failed.append(direction)
            continue
        with open(hyp, "rb") as f, lzma.open(hyp + ".xz", "wb", preset=6) as out:
            shutil.copyfileobj(f, out)
        with open(hyp, encoding="utf-8") as f:
            lines = sum(1 for _ in f)
        call.state.setdefault("distilled", {})[direction] = {"lines": lines, "of": expected[direction]}
        call.log(f"{direction}: {lines} of {expected[direction]} lines distilled")
        results.append(hyp + ".xz")
    call.save()
    if failed:
        call.log(f"FAILED: {', '.join(failed)}")
    return call.finish(results) or (1 if failed else 0)


def students_call(args):
    """Call 2's second half, in the same command right after `distill`: each direction's distilled
    pairs (the real source's ids, the teacher's line encoded) join the data folder as
    kd.<src>-<tgt>.*, --kd-weight copies per epoch each, and both shipped students continue on the
    original mix plus those pairs at once (gpu_round.py student), exported as int8 into --out. Here,
    not in a later slice, because nothing outlives a session: not that machine's disk, nor work/ in a
    session's fresh clone, and the distilled text (~25 MiB) is no file for git."""
    import spm_tools
    from dev_sets import SHORT_LABELS, held_out_keys
    from gpu_round import student
    from prepare_data import clean_pair, is_held_out
    call = Call(args)
    directions = args.directions.split(",")
    if "data" not in call.state or any(not os.path.exists(os.path.join(args.work, f"kd.{d}.hyp")) for d in directions):
        call.log(f"no distilled text in {args.work}: run `distill` on this machine first")
        return 2
    data = call.state["data"]
    spm = os.path.join(data, "spm.model")
    held_out = held_out_keys([SHORT_LABELS])
    for direction in directions:
        s, t = direction.split("-")
        hyps = read_lines(os.path.join(args.work, f"kd.{direction}.hyp"))
        src_ids = read_lines(os.path.join(args.work, f"kd.{direction}.src.ids"))[:len(hyps)]
        sources = spm_tools.decode(spm, [[int(i) for i in line.split()] for line in src_ids])
        # prepare_data.py's checks of every pair (empty, too long, length ratio, language; a side shared
        # with the held-out labels). The sources' own ids are kept: decoded, a piece the vocabulary
        # writes as unknown would not encode back the same.
        pairs = [(src, hyp) if s == "en" else (hyp, src) for src, hyp in zip(sources, hyps)]
        keep = [i for i, (en, de) in enumerate(pairs) if not clean_pair(en, de) and not is_held_out(en, de, held_out)]
        targets = spm_tools.encode(spm, [hyps[i] for i in keep])
        base = os.path.join(data, f"kd.{s}-{t}")
        with open(f"{base}.{s}.ids", "w") as fs, open(f"{base}.{t}.ids", "w") as ft, open(f"{base}.weight", "w") as fw:
            for i, ids in zip(keep, targets):
                fs.write(src_ids[i] + "\n")
                ft.write(" ".join(map(str, ids)) + "\n")
                fw.write(f"{args.kd_weight:g}\n")
        call.state.setdefault("students", {})[direction] = {"kd_pairs": len(keep), "of": len(hyps),
                                                            "kd_weight": args.kd_weight}
        call.log(f"{direction}: {len(keep)} of {len(hyps)} distilled pairs join the data ({args.kd_weight:g} copies per epoch)")
    call.save()
    return student(argparse.Namespace(
        carry=args.carry, work=args.work, out=args.out, weights=args.weights, device=args.device,
        variants=",".join(directions), minutes=args.minutes, max_tokens=args.max_tokens, lr=args.lr,
        checkpoint_minutes=args.checkpoint_minutes, bleu_sentences=args.bleu_sentences, seed=args.seed,
        steps=args.steps))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack", help="here: what travels (--dest) and what stays (--home)")
    p.add_argument("--data", required=True, help="prepare_data.py's --out (gpu_round.py prepare: work/gpu-prepare/data)")
    p.add_argument("--corpus", required=True, help="for flores-dev and mono/")
    p.add_argument("--dest", default=os.path.join(ROOT, "gpu-carry"))
    p.add_argument("--home", default=os.path.join(ROOT, "work", "teacher-home"))
    p.add_argument("--mono-limit", type=int, default=0, help="at most N monolingual sentences per language")
    p = sub.add_parser("budget", help="here: the dry run, the time plan")
    p.add_argument("--carry", default=os.path.join(ROOT, "gpu-carry"))
    p.add_argument("--train-minutes", type=float, default=PLAN["train_minutes"])
    p.add_argument("--distill-minutes", type=float, default=PLAN["distill_minutes"])
    p.add_argument("--student-minutes", type=float, default=PLAN["student_minutes"])
    p = sub.add_parser("unpack", help="here: the returned files -> kd.<dir>.tsv.gz and the teachers")
    p.add_argument("--parts", nargs="+", required=True, help="the folders the calls' files landed in")
    p.add_argument("--home", default=os.path.join(ROOT, "work", "teacher-home"))
    p.add_argument("--dest", required=True)
    for name, minutes, help_text in (("train", PLAN["train_minutes"], "there, call 1: train both teachers"),
                                     ("distill", PLAN["distill_minutes"], "there, call 2: distill with them"),
                                     ("students", PLAN["student_minutes"], "there, call 2 after distill: the students "
                                                                           "continue on the mix + the distilled pairs")):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--carry", default=os.path.join(ROOT, "gpu-carry"))
        p.add_argument("--work", default="/tmp/teacher-work", help="outlives a call only while the machine stays warm")
        p.add_argument("--out", default=os.environ.get("OUT", "gpu-out"))
        p.add_argument("--weights", default=os.path.join(ROOT, "weights"), help="the students the teachers grow from")
        p.add_argument("--device", default="cuda")
        p.add_argument("--directions", default=",".join(DIRECTIONS))
        p.add_argument("--minutes", type=float, default=minutes)
        if name == "train":
            p.add_argument("--teacher-config", help=f"JSON overriding the student's config (default {json.dumps(TEACHER)})")
            p.add_argument("--max-tokens", type=int, default=32000)
            p.add_argument("--lr", type=float, default=5e-3, help="peak of the schedule (continued at the student's step)")
            p.add_argument("--checkpoint-minutes", type=float, default=1.8)
            p.add_argument("--bleu-sentences", type=int, default=100)
            p.add_argument("--threads", type=int, default=4)
            p.add_argument("--seed", type=int, default=54)
            p.add_argument("--steps", type=int, default=0, help="stop after this many steps (tests)")
        elif name == "distill":
            p.add_argument("--batch", type=int, default=1024, help="sentences per batch")
            p.add_argument("--limit", type=int, default=0, help="only the first N lines per direction (tests)")
        else:
            from gpu_round import STUDENT_TRAIN_ARGS
            p.add_argument("--kd-weight", type=float, default=KD_WEIGHT, help="copies per epoch of each distilled pair")
            p.add_argument("--max-tokens", type=int, default=STUDENT_TRAIN_ARGS["max_tokens"])
            p.add_argument("--lr", type=float, default=STUDENT_TRAIN_ARGS["lr"], help="peak of the schedule")
            p.add_argument("--checkpoint-minutes", type=float, default=1.0)
            p.add_argument("--bleu-sentences", type=int, default=100)
            p.add_argument("--seed", type=int, default=54)
            p.add_argument("--steps", type=int, default=0, help="stop after this many steps (tests)")
    args = ap.parse_args()
    commands = {"pack": pack, "budget": budget, "unpack": unpack, "train": train_call, "distill": distill_call,
                "students": students_call}
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
