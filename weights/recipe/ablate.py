"""Small-scale data ablation (issue 30: what the new pairs, the back-translation and the mix each give
on their own). The same tiny Transformer is trained from scratch, with the same seed, the same number
of steps and the same batch size, on each data variant; one change at a time:

  A  old sources, old mix (rounds 10-19), no back-translation
  B  old sources, the v2 mix weights (tatoeba kept at 0.75, as C)        A -> B: the mix
  C  B + the v2 sources (news-recent, news-mt, games, wiki)             B -> C: the new pairs
  D  C + back-translations, tagged (train.py --bt-tag 1)                C -> D: back-translation
  E  C + the same back-translations, untagged (--bt-tag 0)              D -> E: the tag

  python3 weights/recipe/ablate.py --corpus ../shared/corpus --bt /root/nmt-work/bt21 \
      --work /root/nmt-work/ablate [--variants A,B,C,D,E] [--steps 1000] [--seed 1] [--src en --tgt de]

Each variant's data is prepared with prepare_data.py (the shipped vocabulary, --reuse-vocab, so the
variants compare); --prepared DIR reuses a folder prepare_data.py already wrote for C's mix with the
back-translations (D and E link it, C links its non-synthetic files). Training runs one thread
(--threads), no annealing and a single final checkpoint (no time-based averaging), so a variant's
result depends on its data and the seed only. Each model is then scored on the whole of flores-dev
and tatoeba-dev (loss and greedy BLEU, PyTorch); --table prints the markdown table of all variants.
"""
import argparse
import json
import os
import subprocess
import sys
import time

import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from dev_sets import load_dev  # noqa: E402
from model import Transformer  # noqa: E402
from train import spm_encode, validate  # noqa: E402

OLD_MIX = ("tatoeba=0.75,news=2,ted=2,docs=1,multi30k=1,dict-sentences=1,bible=0.3,ui=0.2,dict=0.08,"
           "news-recent=0,news-mt=0,games=0,wiki=0")
V2_OLD_SOURCES = "tatoeba=0.75,news-recent=0,news-mt=0,games=0,wiki=0"
V2_MIX = "tatoeba=0.75"
VARIANTS = {  # name: (mix, back-translations, bt tag, what changed)
    "A": (OLD_MIX, False, 1, "old sources, old mix (rounds 10-19)"),
    "B": (V2_OLD_SOURCES, False, 1, "A with the v2 mix weights (the mix)"),
    "C": (V2_MIX, False, 1, "B + news-recent, news-mt, games, wiki (the new pairs)"),
    "D": (V2_MIX, True, 1, "C + back-translations, tagged (BT)"),
    "E": (V2_MIX, True, 0, "C + the same back-translations, untagged (the tag)"),
}
TINY = {"d_model": 128, "n_heads": 4, "d_ff": 512, "encoder_layers": 3, "decoder_layers": 1}
PAIR_FILES = ["spm.model", "spm.vocab", "stats.json", "train.de", "train.de.ids", "train.en", "train.en.ids",
              "train.weight"]


def run(cmd, log_path):
    print("+", " ".join(cmd), flush=True)
    os.makedirs(os.path.dirname(log_path), exist_ok=True)
    with open(log_path, "a") as log:
        subprocess.run(cmd, check=True, stdout=log, stderr=subprocess.STDOUT)


def prepare(args, name, data):
    mix, bt, _, _ = VARIANTS[name]
    if os.path.exists(os.path.join(data, "stats.json")):
        return
    if args.prepared and mix == V2_MIX:  # C, D, E: link the already prepared folder
        os.makedirs(data, exist_ok=True)
        for f in sorted(os.listdir(args.prepared)):
            if bt or f in PAIR_FILES:
                os.symlink(os.path.join(args.prepared, f), os.path.join(data, f))
        return
    cmd = [sys.executable, os.path.join(HERE, "prepare_data.py"), "--corpus", args.corpus, "--reuse-vocab",
           args.vocab, "--mix", mix, "--out", data]
    if args.nmt:
        cmd += ["--nmt", args.nmt]
    if bt:
        cmd += ["--back-translations", args.bt]
    run(cmd, os.path.join(os.path.dirname(data), "prepare.log"))


def evaluate(args, out, data):
    ck = torch.load(os.path.join(out, "model.pt"), map_location="cpu")
    cfg = ck["config"]
    model = Transformer(cfg, dropout=0.0)
    model.load_state_dict(ck["state_dict"])
    torch.set_num_threads(args.threads)
    sp = os.path.join(data, "spm.model")
    scores = {"target_tokens": ck["train"]["target_tokens"], "steps": ck["train"]["steps"],
              "epochs": ck["train"]["epochs"], "train_seconds": ck["train"]["seconds"]}
    for dev in ("flores-dev", "tatoeba-dev"):
        src, ref = load_dev(os.path.join(args.corpus, "dev", f"{dev}.en-de.tsv"), args.src)
        limit = cfg["max_length"] - 1
        src_ids = [x[:limit] for x in spm_encode(sp, src)]
        tgt_ids = [x[:limit] for x in spm_encode(sp, ref)]
        t = time.time()
        with torch.no_grad():
            nll, bleu = validate(model, src_ids, tgt_ids, src, ref, sp, cfg, torch.device("cpu"), len(src))
        scores[dev] = {"nll": round(nll, 4), "bleu_greedy": round(bleu, 2), "sentences": len(src),
                       "seconds": round(time.time() - t, 1)}
    return scores


def table(args):
    rows = ["| variant | what changed | train tokens seen (target) | flores-dev NLL | flores-dev BLEU | "
            "tatoeba-dev NLL | tatoeba-dev BLEU |", "|---|---|---|---|---|---|---|"]
    for name in sorted(os.listdir(args.work)):
        for seed_dir in sorted(os.listdir(os.path.join(args.work, name))) if os.path.isdir(os.path.join(args.work, name)) else []:
            path = os.path.join(args.work, name, seed_dir, "scores.json")
            if not seed_dir.startswith("seed") or not os.path.exists(path):
                continue
            with open(path) as f:
                s = json.load(f)
            what = VARIANTS.get(name, ("", "", "", name))[3]
            rows.append(f"| {name} ({seed_dir}) | {what} | {s['target_tokens'] / 1e6:.2f} M | "
                        f"{s['flores-dev']['nll']:.4f} | {s['flores-dev']['bleu_greedy']:.2f} | "
                        f"{s['tatoeba-dev']['nll']:.4f} | {s['tatoeba-dev']['bleu_greedy']:.2f} |")
    print("\n".join(rows))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True, help="corpus folder (train/, dev/)")
    ap.add_argument("--work", required=True, help="where the variants' data, models and scores go")
    ap.add_argument("--bt", help="backtranslate.py's output folder (bt.en-de.tsv, bt.de-en.tsv), for D and E")
    ap.add_argument("--prepared", help="prepare_data.py's folder for C's mix with --back-translations (reused)")
    ap.add_argument("--vocab", default=os.path.join(HERE, "..", "en-de", "model.nmt"))
    ap.add_argument("--nmt", help="the engine CLI for prepare_data.py's paragraph splitting (default: its own)")
    ap.add_argument("--variants", default="A,B,C,D,E")
    ap.add_argument("--src", default="en")
    ap.add_argument("--tgt", default="de")
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--warmup", type=int, default=300)
    ap.add_argument("--max-tokens", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--prepare-only", action="store_true")
    ap.add_argument("--table", action="store_true", help="only print the table of what is done")
    args = ap.parse_args()
    if args.table:
        return table(args)
    os.makedirs(args.work, exist_ok=True)
    config = os.path.join(args.work, "tiny.json")
    with open(config, "w") as f:
        json.dump(TINY, f)
    names = [v.strip() for v in args.variants.split(",") if v.strip()]
    for name in names:
        if name not in VARIANTS:
            raise SystemExit(f"--variants: unknown {name!r} (A-E)")
        prepared = os.path.exists(os.path.join(args.work, name, "data", "stats.json"))
        if VARIANTS[name][1] and not (args.bt or args.prepared or prepared):
            raise SystemExit(f"variant {name} needs --bt (or --prepared)")
        prepare(args, name, os.path.join(args.work, name, "data"))
    if args.prepare_only:
        return
    for name in names:
        data = os.path.join(args.work, name, "data")
        out = os.path.join(args.work, name, f"seed{args.seed}")
        if os.path.exists(os.path.join(out, "scores.json")):
            continue
        if not os.path.exists(os.path.join(out, "model.pt")):
            run([sys.executable, os.path.join(HERE, "train.py"), "--data", data,
                 "--dev", os.path.join(args.corpus, "dev", "flores-dev.en-de.tsv"), "--src", args.src,
                 "--tgt", args.tgt, "--out", out, "--config", config, "--threads", str(args.threads),
                 "--max-steps", str(args.steps), "--minutes", "100000", "--checkpoint-minutes", "100000",
                 "--keep", "1", "--warmup", str(args.warmup), "--max-tokens", str(args.max_tokens),
                 "--bleu-sentences", "100", "--seed", str(args.seed), "--bt-tag", str(VARIANTS[name][2])],
                os.path.join(out + ".log"))
        scores = evaluate(args, out, data)
        scores.update(variant=name, seed=args.seed, what=VARIANTS[name][3])
        with open(os.path.join(out, "scores.json"), "w") as f:
            json.dump(scores, f, indent=1)
        print(name, json.dumps(scores), flush=True)
    table(args)


if __name__ == "__main__":
    main()
