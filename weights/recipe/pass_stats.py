"""How often each text pass of the engine (engine/text/passes.h) fires: on the six dev sets (the
sources of flores-dev, tatoeba-dev and multi30k-test2016, both directions) and on the corpus of
numbers that are no quantities (tests/fixtures/false-positives/{en,de}.txt).

A pass fires on a sentence when it changed it: the engine lists those passes in each sentence's
"passes" (nmt --alignments). With --samples N it also prints, for up to N sentences per pass and
set, the translation with that pass and without it (`--no-pass NAME`), to be read and judged.

    python3 weights/recipe/pass_stats.py [--nmt build/nmt] [--samples 5] [--sets dev,false-positives] [--beam 4]
"""
import argparse
import collections
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dev_sets import load_dev  # noqa: E402
from engine_cli import DEFAULT_NMT, ROOT  # noqa: E402

DEV = ["flores-dev", "tatoeba-dev", "multi30k-test2016"]


def sets(which):
    """(name, direction, source lines) of the sets asked for."""
    out = []
    if "dev" in which:
        for name in DEV:
            for src, direction in (("en", "en-de"), ("de", "de-en")):
                sources, _ = load_dev(os.path.join(ROOT, "tests", "fixtures", "dev", f"{name}.en-de.tsv"), src)
                out.append((name, direction, sources))
    if "false-positives" in which:
        for src, direction in (("en", "en-de"), ("de", "de-en")):
            with open(os.path.join(ROOT, "tests", "fixtures", "false-positives", f"{src}.txt"), encoding="utf-8") as f:
                out.append(("false-positives", direction, [line.rstrip("\n") for line in f if line.strip()]))
    return out


def run(nmt, direction, lines, *flags, beam=4):
    """The engine's sentences (JSON, without the token attention) for the lines, one paragraph each."""
    model = os.path.join(ROOT, "weights", direction, "model.nmt")
    cmd = [nmt, "--model", model, "--beam", str(beam), "--alignments", "--attention-limit", "1", *flags]
    out = subprocess.run(cmd, input="\n".join(lines) + "\n", capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: {out.stderr.strip()}")
    # (the CLI streams: one JSON object a block of input, one a line)
    return [s for line in out.stdout.splitlines() if line.strip() for s in json.loads(line)["sentences"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--nmt", default=DEFAULT_NMT)
    ap.add_argument("--samples", type=int, default=0, help="sentences per pass and set to show with and without it")
    ap.add_argument("--sets", default="dev,false-positives")
    ap.add_argument("--seed", type=int, default=49)
    ap.add_argument("--beam", type=int, default=4)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    info = json.loads(subprocess.run([args.nmt, "info", "--model", os.path.join(ROOT, "weights", "en-de", "model.nmt")],
                                     capture_output=True, text=True, check=True).stdout)
    names = [p["name"] for p in info["passes"]]
    table = {}  # (set, direction) -> (sentences, Counter of passes)
    fired_on = collections.defaultdict(list)  # (set, direction, pass) -> sentences
    for name, direction, lines in sets(args.sets.split(",")):
        sentences = run(args.nmt, direction, lines, beam=args.beam)
        counts = collections.Counter(p for s in sentences for p in s.get("passes", []))
        table[(name, direction)] = (len(sentences), counts)
        for s in sentences:
            for p in s.get("passes", []):
                fired_on[(name, direction, p)].append(s)
        print(f"{name} {direction}: {len(sentences)} sentences", file=sys.stderr)
    keys = list(table)
    print("| pass | " + " | ".join(f"{n} {d}" for n, d in keys) + " |")
    print("|---|" + "---:|" * len(keys))
    print("| sentences | " + " | ".join(str(table[k][0]) for k in keys) + " |")
    for p in names:
        print(f"| {p} | " + " | ".join(str(table[k][1][p]) for k in keys) + " |")
    if args.samples <= 0:
        return
    for (name, direction, p), sentences in sorted(fired_on.items()):
        if p in ("verbatim", "casing", "emphasis", "gender_forms"):
            continue  # (what the model reads: its output with and without them differs everywhere)
        sample = rng.sample(sentences, min(args.samples, len(sentences)))
        without = run(args.nmt, direction, [s["source"] for s in sample], "--no-pass", p, beam=args.beam)
        print(f"\n## {p}: {name} {direction} ({len(sentences)} sentences)")
        for s, w in zip(sample, without):
            print(f"- source:  {s['source']}\n  with:    {s['target']}\n  without: {w['target']}")


if __name__ == "__main__":
    main()
