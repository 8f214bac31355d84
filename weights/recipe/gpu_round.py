"""The GPU plans. The student plan (rounds 21-23; ~15 GPU minutes): from a fresh clone, one command
here prepares what travels, one or two on the GPU machine continue the shipped students:

  python3 weights/recipe/gpu_round.py prepare --corpus ../shared/corpus   # here, ~30 min on 2 cores
  python3 weights/recipe/gpu_round.py student --minutes 7 --seed <round> --out $OUT   # there, carry gpu-carry

The teacher plan (issue 54: a teacher per direction and sequence-level distillation in two calls
on one warm machine) is teacher_plan.py; gpu_round.sh runs its calls. It replaced the multi-call
state machine (`pack`, `step`) written when a session had ~30 GPU minutes, which no slice now holds.
"""
import argparse
import glob
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
PART_BYTES = 15 * 1000 * 1000  # under the device tool's 16 MiB a file
# The student plan's train.py options where they differ from train.py's CPU defaults: 8x the batch and
# twice the peak rate (continued at step ~110k the schedule gives ~2.6e-4). make_card.py reads this.
STUDENT_TRAIN_ARGS = {"max_tokens": 24000, "lr": 3e-3}


def log(msg, log_file=None):
    line = f"[{time.strftime('%H:%M:%S')}] {msg}"
    print(line, flush=True)
    if log_file:
        with open(log_file, "a", encoding="utf-8") as f:
            f.write(line + "\n")


def split_into_parts(path, dest_dir, part_bytes=PART_BYTES):
    """path -> dest_dir/<name>.part0, .part1, ... each at most part_bytes. Returns the part paths."""
    parts = []
    with open(path, "rb") as f:
        while True:
            block = f.read(part_bytes)
            if not block:
                break
            part = os.path.join(dest_dir, f"{os.path.basename(path)}.part{len(parts)}")
            with open(part, "wb") as out:
                out.write(block)
            parts.append(part)
    return parts


def join_parts(first_part_glob, dest):
    """The parts (sorted by their number) concatenated into dest; False if there are none."""
    parts = sorted(glob.glob(first_part_glob), key=lambda p: int(p.rsplit(".part", 1)[1]))
    if not parts:
        return False
    with open(dest, "wb") as out:
        for p in parts:
            with open(p, "rb") as f:
                shutil.copyfileobj(f, out)
    return True


# --- The student plan: when a session gets only ~15 GPU minutes (one command), the shipped students
# themselves continue on the GPU with 8x the CPU batch, both directions at once (each alone leaves
# the H100 mostly idle), from a data folder prepare_data.py already made here (no segmenting there).

def write_u16(ids_path, dest):
    """An .ids file (one line of token ids per pair) -> line lengths + tokens as uint16, xz-compressed:
    ~4x smaller than gzip'd text, so the whole mix travels beside the working tree."""
    import lzma
    import numpy as np
    lengths, tokens = [], []
    with open(ids_path) as f:
        for line in f:
            ids = [int(x) for x in line.split()]
            lengths.append(len(ids))
            tokens.extend(ids)
    if max(tokens, default=0) >= 2 ** 16 or max(lengths, default=0) >= 2 ** 16:
        raise SystemExit(f"{ids_path}: ids or lengths do not fit 16 bits")
    header = np.array([len(lengths)], dtype=np.uint64).tobytes()
    with lzma.open(dest, "wb", preset=9) as out:  # 9: ~4% smaller than 6, and every MB counts in the 64 MiB
        out.write(header + np.array(lengths, dtype=np.uint16).tobytes() + np.array(tokens, dtype=np.uint16).tobytes())


def read_u16(path, dest):
    """write_u16's file -> the .ids text file train.py reads."""
    import lzma
    import numpy as np
    with lzma.open(path, "rb") as f:
        raw = f.read()
    count = int(np.frombuffer(raw[:8], dtype=np.uint64)[0])
    lengths = np.frombuffer(raw[8:8 + 2 * count], dtype=np.uint16)
    tokens = np.frombuffer(raw[8 + 2 * count:], dtype=np.uint16)
    ends = np.cumsum(lengths.astype(np.int64))
    with open(dest, "w") as out:
        start = 0
        for end in ends:
            out.write(" ".join(map(str, tokens[start:end].tolist())) + "\n")
            start = end


def pack_folder(src_dir, dest, only=None):
    """The .ids (compact), .weight (gzip) and vocabulary files of a prepared data folder -> dest;
    with `only`, just the files whose names start with it."""
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(src_dir)):
        src = os.path.join(src_dir, name)
        if only and not name.startswith(only):
            continue
        if name.endswith(".ids"):
            write_u16(src, os.path.join(dest, name + ".u16.xz"))
        elif name.endswith(".weight"):
            with open(src, "rb") as f, gzip.open(os.path.join(dest, name + ".gz"), "wb") as out:
                shutil.copyfileobj(f, out)
        elif name in ("spm.model", "spm.vocab", "stats.json"):
            shutil.copy(src, dest)


def pack_data(args):
    """A prepared data folder (prepare_data.py --out) -> --dest/data, compact, plus flores-dev; each
    --bt-variant NAME=FOLDER adds only that folder's back-translations (bt.*) as --dest/bt-NAME, which
    the student plan's variant NAME trains on instead of the main folder's (e.g. sampled ones)."""
    pack_folder(args.data, os.path.join(args.dest, "data"))
    for spec in args.bt_variant:
        name, _, folder = spec.partition("=")
        if not name or not folder or not glob.glob(os.path.join(folder, "bt.*.ids")):
            raise SystemExit(f"--bt-variant {spec}: want NAME=FOLDER, a prepared data folder with bt.* files")
        pack_folder(folder, os.path.join(args.dest, f"bt-{name}"), only=f"bt.{args.bt_variant_direction or ''}")
    shutil.copy(os.path.join(args.corpus, "dev", "flores-dev.en-de.tsv"), args.dest)
    total = sum(os.path.getsize(p) for p in glob.glob(os.path.join(args.dest, "**"), recursive=True) if os.path.isfile(p))
    print(f"{args.dest}: {total / 1e6:.1f} MB")


def prepare(args):
    """Here (CPU), one command from a fresh clone to the student plan's carry: the shipped models
    back-translate mono/ with the engine (backtranslate.py), prepare_data.py builds the mix on the
    shipped vocabulary with those pairs, and pack-data packs it. Each stage that finished is kept, so
    an interrupted run continues (rerun the same command). ~30 minutes on 2 cores, almost all of it
    the back-translation (two engine processes, one per direction)."""
    t0 = time.time()
    bt, data = os.path.join(args.work, "bt"), os.path.join(args.work, "data")
    backtranslate = [sys.executable, os.path.join(HERE, "backtranslate.py"), "--corpus", args.corpus, "--out", bt,
                     "--weights", args.weights, "--nmt", args.nmt]
    if args.bt_limit:
        backtranslate += ["--limit", str(args.bt_limit)]
    if not os.path.exists(os.path.join(bt, "bt.json")):
        subprocess.run(backtranslate, check=True)
    log(f"prepare: back-translations ready ({time.time() - t0:.0f} s)")
    if not os.path.exists(os.path.join(data, "stats.json")):
        subprocess.run([sys.executable, os.path.join(HERE, "prepare_data.py"), "--corpus", args.corpus, "--out", data,
                        "--reuse-vocab", os.path.join(args.weights, "en-de", "model.nmt"), "--back-translations", bt,
                        "--nmt", args.nmt] + (["--mix", args.mix] if args.mix else []), check=True)
    log(f"prepare: data ready ({time.time() - t0:.0f} s)")
    pack_data(argparse.Namespace(data=data, corpus=args.corpus, dest=args.dest, bt_variant=[], bt_variant_direction=None))
    log(f"prepare: done in {(time.time() - t0) / 60:.1f} min; the student plan carries {args.dest}")


def unpack_data(carry, work, folder="data"):
    """pack_data's folder -> a data folder train.py reads (the .ids as text again)."""
    from concurrent.futures import ProcessPoolExecutor
    src, dest = os.path.join(carry, folder), os.path.join(work, folder)
    done = os.path.join(dest, ".unpacked")
    if os.path.exists(done):  # an earlier call on this machine did it (files added since are kept)
        return dest
    os.makedirs(dest, exist_ok=True)
    jobs = []
    with ProcessPoolExecutor() as pool:
        for name in sorted(os.listdir(src)):
            path = os.path.join(src, name)
            if name.endswith(".u16.xz"):
                jobs.append(pool.submit(read_u16, path, os.path.join(dest, name[:-len(".u16.xz")])))
            elif name.endswith(".gz"):
                with gzip.open(path, "rb") as f, open(os.path.join(dest, name[:-3]), "wb") as out:
                    shutil.copyfileobj(f, out)
            else:
                shutil.copy(path, dest)
        for job in jobs:
            job.result()
    open(done, "w").close()
    return dest


# The student plan's variants (--variants DIRECTION[:NAME],...): each changes one back-translation
# choice against the control (no NAME) and trains at once beside it, from the same shipped file with
# the same seed and data order, so a GPU slice measures at the shipped scale what issue 30 asks (tag
# or none, the synthetic share, sampled or greedy synthetic sources). A NAME that is not below trains
# on the carry's bt-NAME folder (pack-data --bt-variant NAME=FOLDER) in place of the main folder's bt.*.
STUDENT_VARIANTS = {
    "untagged": ["--bt-tag", "0"],     # the back-translated sources without the tag
    "bt-half": ["--bt-weight", "0.5"],  # half the back-translations' share of an epoch
    "bt-double": ["--bt-weight", "2"],  # twice it
}
# seedN: the control's data and options with seed --seed + N (another data order and dropout draw),
# a member for a soup (interpolate.py --soup) where a direction has no data variant to run.
SEED_VARIANT = re.compile(r"seed([1-9][0-9]*)")


def variant_options(name, seed):
    """train.py options that make variant NAME differ from the control."""
    match = SEED_VARIANT.fullmatch(name)
    if match:
        return ["--seed", str(seed + int(match.group(1)))]
    return STUDENT_VARIANTS.get(name, [])
RETURN_BYTES = 62 * 1000 * 1000  # what the device tool brings back: 64 MiB, less the log


def parse_variants(spec, carry, folders=None):
    """--variants -> [(direction, name or "")]; unknown directions or names are errors up front.
    folders: {NAME: a prepared data folder} for variants that train on their own data (the
    teacher plan's students on each teacher's distilled pairs)."""
    variants = []
    for item in spec.split(","):
        direction, _, name = item.strip().partition(":")
        if direction not in ("en-de", "de-en"):
            raise SystemExit(f"--variants {item}: the direction must be en-de or de-en")
        if (name and name not in STUDENT_VARIANTS and not SEED_VARIANT.fullmatch(name) and name not in (folders or {})
                and not os.path.isdir(os.path.join(carry, f"bt-{name}"))):
            raise SystemExit(f"--variants {item}: {name} is neither one of {sorted(STUDENT_VARIANTS)}, seedN, nor a "
                             f"carried bt-{name} folder (pack-data --bt-variant)")
        if (direction, name) in variants:
            raise SystemExit(f"--variants {item}: listed twice")
        variants.append((direction, name))
    return variants


def variant_data(carry, work, data, name, folders=None):
    """The data folder variant NAME trains on: its own in folders, the main one, or for a carried
    bt-NAME folder a copy of it (links) with that folder's back-translations in place of its own."""
    if name in (folders or {}):
        return folders[name]
    if not name or name in STUDENT_VARIANTS or SEED_VARIANT.fullmatch(name):
        return data
    dest = os.path.join(work, f"data-{name}")
    os.makedirs(dest, exist_ok=True)
    for f in os.listdir(data):
        if not f.startswith("bt.") and not os.path.exists(os.path.join(dest, f)):
            os.symlink(os.path.join(data, f), os.path.join(dest, f))
    bt = unpack_data(carry, work, f"bt-{name}")
    for f in os.listdir(bt):
        shutil.copy(os.path.join(bt, f), dest)
    return dest


def train_command(args, data, config, direction, out, threads, init_from=None):
    """train.py as both GPU plans run it: for --minutes, annealed over all of them, with dropout 0.1
    and no early stop; the batch, rate, checkpoints, dev BLEU, device and seed from args."""
    s, t = direction.split("-")
    cmd = [sys.executable, os.path.join(HERE, "train.py"), "--data", data, "--config", config,
           "--dev", os.path.join(args.carry, "flores-dev.en-de.tsv"), "--src", s, "--tgt", t, "--out", out]
    if init_from:
        cmd += ["--init-from", init_from]
    return cmd + ["--device", args.device, "--minutes", str(args.minutes), "--anneal-minutes", str(args.minutes),
                  "--max-tokens", str(args.max_tokens), "--lr", str(args.lr),
                  "--checkpoint-minutes", str(args.checkpoint_minutes), "--bleu-sentences", str(args.bleu_sentences),
                  "--dropout", "0.1", "--threads", str(threads), "--patience", "1000", "--seed", str(args.seed)]


def student(args):
    """On the GPU machine, one command: the students (both directions, and any --variants beside
    them) continue for --minutes, all at once, then each is exported as an int8 model file and, as
    far as the tool's 8 files / 64 MiB allow in --variants order, its weights as fp16 (for CPU rounds
    to continue or interpolate). A second call on the still-warm machine resumes each run."""
    import torch
    os.makedirs(args.out, exist_ok=True)
    log_file = os.path.join(args.out, "log.txt")
    t0 = time.time()
    folders = getattr(args, "data_folders", None) or {}  # set by teacher_plan.py's students, not a CLI option
    variants = parse_variants(args.variants, args.carry, folders)
    data = unpack_data(args.carry, args.work)
    log(f"data unpacked in {time.time() - t0:.0f} s", log_file)
    sys.path.insert(0, HERE)
    from model_file import read_model_file
    threads = max(1, min(4, (os.cpu_count() or 4) // len(variants)))
    procs, failed = {}, []
    for direction, name in variants:
        run_name = direction + (f"-{name}" if name else "")
        out = os.path.join(args.work, f"student-{run_name}")
        init = os.path.join(args.weights, direction, "model.nmt")
        config = os.path.join(args.work, f"student-{run_name}.json")
        with open(config, "w") as f:  # the shipped file's own shape, not train.py's default
            json.dump(read_model_file(init)[0]["config"], f)
        cmd = train_command(args, variant_data(args.carry, args.work, data, name, folders), config, direction, out, threads,
                            init_from=init)
        cmd += variant_options(name, args.seed)  # after --seed: the later one counts
        if args.steps:
            cmd += ["--max-steps", str(args.steps)]
        log("$ " + " ".join(cmd), log_file)
        procs[run_name] = (subprocess.Popen(cmd, stdout=open(os.path.join(args.work, f"train-{run_name}.log"), "w"),
                                            stderr=subprocess.STDOUT), out)
    finished, exports = [], []
    for run_name, (proc, out) in procs.items():
        code = proc.wait()
        log(f"{run_name}: train.py exited {code}", log_file)
        if code != 0 or not os.path.exists(os.path.join(out, "model.pt")):
            failed.append(run_name)
            continue
        exports.append(subprocess.Popen(  # all at once: six runs exported one by one cost a device minute
            [sys.executable, os.path.join(HERE, "export.py"), "--checkpoint", os.path.join(out, "model.pt"),
             "--spm", os.path.join(data, "spm.model"), "--out", os.path.join(args.out, f"student-{run_name}.nmt")]))
        finished.append((run_name, out))
    for proc in exports:
        proc.wait()
    for run_name, out in finished:  # fp16 weights while they fit beside every int8 file
        ck = torch.load(os.path.join(out, "model.pt"), map_location="cpu", weights_only=False)
        ck["state_dict"] = {k: v.half() if v.is_floating_point() else v for k, v in ck["state_dict"].items()}
        half = os.path.join(args.work, f"student-{run_name}.fp16.pt")
        torch.save(ck, half)
        size = os.path.getsize(half)
        files = glob.glob(os.path.join(args.out, "*"))
        if len(files) + -(-size // PART_BYTES) > 8 or sum(map(os.path.getsize, files)) + size > RETURN_BYTES:
            log(f"{run_name}: fp16 weights left out (the tool brings back 8 files, 64 MiB)", log_file)
            continue
        split_into_parts(half, args.out)
    with open(log_file, "a", encoding="utf-8") as f:  # the train logs go in log.txt
        for run_name in procs:
            with open(os.path.join(args.work, f"train-{run_name}.log"), encoding="utf-8") as t:
                f.write(f"--- train.py {run_name}\n" + t.read())
    log(f"student plan: done in {(time.time() - t0) / 60:.1f} min" + (f"; FAILED: {', '.join(failed)}" if failed else ""),
        log_file)
    return 1 if failed else 0


def unpack(args):
    """The parts that came back (the student plan's fp16 weights) -> --dest, each file whole again."""
    os.makedirs(args.dest, exist_ok=True)
    names = {os.path.basename(p).rsplit(".part", 1)[0] for p in glob.glob(os.path.join(args.parts, "*.part*"))}
    for name in sorted(names):
        dest = os.path.join(args.dest, name)
        if join_parts(os.path.join(args.parts, glob.escape(name) + ".part*"), dest):
            print(f"{dest}: {os.path.getsize(dest) / 1e6:.1f} MB")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    p = sub.add_parser("pack-data", help="the student plan's carry: a prepared data folder, compact")
    p.add_argument("--data", required=True, help="prepare_data.py's --out")
    p.add_argument("--corpus", required=True, help="for flores-dev")
    p.add_argument("--dest", default=os.path.join(ROOT, "gpu-carry"))
    p.add_argument("--bt-variant", action="append", default=[], metavar="NAME=FOLDER",
                   help="also carry FOLDER's back-translations as variant NAME's (student --variants DIR:NAME)")
    p.add_argument("--bt-variant-direction", choices=("en-de", "de-en"),
                   help="carry only this direction's variant back-translations (the tool takes 64 MiB in all)")
    p = sub.add_parser("prepare", help="here, from a fresh clone: back-translate, prepare the data, pack-data")
    p.add_argument("--corpus", required=True)
    p.add_argument("--work", default=os.path.join(ROOT, "work", "gpu-prepare"), help="bt/ and data/, kept between runs")
    p.add_argument("--dest", default=os.path.join(ROOT, "gpu-carry"))
    p.add_argument("--weights", default=os.path.join(ROOT, "weights"), help="the models that back-translate")
    p.add_argument("--nmt", default=os.path.join(ROOT, "build", "nmt"), help="the engine's CLI (bash scripts/build.sh)")
    p.add_argument("--mix", help="prepare_data.py --mix (default: its own)")
    p.add_argument("--bt-limit", type=int, default=0, help="back-translate only N sentences per language (tests)")
    p = sub.add_parser("student", help="on the GPU machine: both students continue at once, one command")
    p.add_argument("--carry", default=os.path.join(ROOT, "gpu-carry"))
    p.add_argument("--work", default="/tmp/gpu-work")
    p.add_argument("--out", default=os.environ.get("OUT", "gpu-out"))
    p.add_argument("--weights", default=os.path.join(ROOT, "weights"))
    p.add_argument("--device", default="cuda")
    p.add_argument("--variants", default="en-de,de-en",
                   help="runs side by side: DIRECTION or DIRECTION:NAME (STUDENT_VARIANTS, seedN, or a carried bt-NAME)")
    p.add_argument("--minutes", type=float, default=7.0, help="training per run (all run at once)")
    p.add_argument("--max-tokens", type=int, default=STUDENT_TRAIN_ARGS["max_tokens"])
    p.add_argument("--lr", type=float, default=STUDENT_TRAIN_ARGS["lr"], help="peak of the schedule (see STUDENT_TRAIN_ARGS)")
    p.add_argument("--checkpoint-minutes", type=float, default=1.5)
    p.add_argument("--bleu-sentences", type=int, default=100, help="flores-dev lines each validation translates")
    p.add_argument("--seed", type=int, default=21)
    p.add_argument("--steps", type=int, default=0, help="stop after this many steps (tests)")
    p = sub.add_parser("unpack")
    p.add_argument("--parts", required=True, help="the folder the files from the GPU machine's --out landed in")
    p.add_argument("--dest", required=True)
    args = ap.parse_args()
    if args.command == "unpack":
        return unpack(args)
    if args.command == "pack-data":
        return pack_data(args)
    if args.command == "prepare":
        return prepare(args)
    if args.command == "student":
        raise SystemExit(student(args))


if __name__ == "__main__":
    main()
