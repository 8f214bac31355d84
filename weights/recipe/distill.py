"""Sequence-level distillation: a trained (bigger) teacher translates the training sources, and the
student trains on the teacher's outputs (Kim and Rush 2016), which are simpler and more consistent
than human references and carry what the teacher learnt.

  python3 distill.py --checkpoint work/teacher-en-de/model.pt --data work/data --src en --tgt de \
      --out work/distilled/kd.en-de.tsv --minutes 9 [--device cuda]

Translates data/train.<src> (prepare_data.py's cleaned pairs) line by line in batches with the
teacher's cached greedy decoder, appending to --out.partial, for at most --minutes: rerun the same
command to continue. When every line is done it writes --out: English<TAB>German with the real
source and the teacher's target, the form prepare_data.py --distilled reads. Lines the teacher
cannot take (over its max_length) keep their human target.
"""
import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import Transformer  # noqa: E402
from train import collate, spm_decode  # noqa: E402


def load_teacher(path, device):
    ck = torch.load(path, map_location="cpu", weights_only=False)
    model = Transformer(ck["config"]).to(device)
    model.load_state_dict(ck["state_dict"])
    model.eval()
    return model, ck["config"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", required=True, help="the teacher's model.pt (train.py)")
    ap.add_argument("--data", required=True, help="prepare_data.py's folder (train.<lang>, train.<lang>.ids, spm.model)")
    ap.add_argument("--src", required=True, choices=["en", "de"])
    ap.add_argument("--tgt", required=True, choices=["en", "de"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--minutes", type=float, default=9)
    ap.add_argument("--batch", type=int, default=256, help="sentences per batch")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--limit", type=int, default=0, help="only the first N lines (tests)")
    args = ap.parse_args()
    t0 = time.time()
    device = torch.device(args.device)
    model, cfg = load_teacher(args.checkpoint, device)

    def read(path):
        with open(path, encoding="utf-8") as f:
            return f.read().split("\n")[:-1]
    src_text, tgt_text = read(os.path.join(args.data, f"train.{args.src}")), read(os.path.join(args.data, f"train.{args.tgt}"))
    with open(os.path.join(args.data, f"train.{args.src}.ids")) as f:
        src_ids = [[int(t) for t in line.split()] for line in f]
    n = len(src_text) if not args.limit else min(args.limit, len(src_text))
    partial = args.out + ".partial"
    done = 0
    if os.path.exists(partial):
        with open(partial, encoding="utf-8") as f:
            done = sum(1 for _ in f)
    print(f"distill {args.src}->{args.tgt}: {done}/{n} lines already done", file=sys.stderr)

    limit = cfg["max_length"] - 1
    # Length-sorted windows keep padding low; each window is written in line order, so the partial
    # file stays a prefix of the data and a rerun knows where to go on.
    window = args.batch * 16
    while done < n and time.time() - t0 < args.minutes * 60:
        lines = list(range(done, min(n, done + window)))
        out = {}
        fits = [i for i in lines if 0 < len(src_ids[i]) <= limit]
        fits.sort(key=lambda i: len(src_ids[i]))
        for k in range(0, len(fits), args.batch):
            chunk = fits[k:k + args.batch]
            s, _, _ = collate(chunk, src_ids, src_ids, cfg, device)
            with torch.no_grad(), torch.autocast(device_type=device.type, dtype=torch.bfloat16,
                                                 enabled=device.type == "cuda"):
                hyps = model.greedy(s, cached=True)
            for i, text in zip(chunk, spm_decode(os.path.join(args.data, "spm.model"), hyps)):
                out[i] = text
        with open(partial, "a", encoding="utf-8") as f:
            for i in lines:
                f.write((out.get(i) or tgt_text[i]).replace("\n", " ") + "\n")
        done = lines[-1] + 1
        print(f"[{time.strftime('%H:%M:%S')}] {done}/{n} lines", file=sys.stderr, flush=True)

    if done >= n:
        with open(partial, encoding="utf-8") as f:
            teacher = f.read().split("\n")[:n]
        with open(args.out, "w", encoding="utf-8") as f:
            for i in range(n):
                en, de = (src_text[i], teacher[i]) if args.src == "en" else (teacher[i], src_text[i])
                f.write(f"{en}\t{de}\n")
        print(f"wrote {args.out}: {n} pairs", file=sys.stderr)
    return 0 if done >= n else 3  # 3: not finished yet, run again


if __name__ == "__main__":
    sys.exit(main())
