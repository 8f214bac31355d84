"""Sequence-level distillation: a trained (bigger) teacher translates source sentences, and the
student trains on the teacher's outputs (Kim and Rush 2016), which are simpler and more consistent
than human references and carry what the teacher learnt.

  python3 distill.py --checkpoint work/teacher-en-de/model.pt --ids work/kd.en-de.src.ids \
      --spm work/data/spm.model --out work/kd.en-de.grown.hyp --minutes 3 [--device cuda] [--batch 1024]

--checkpoint is a train.py checkpoint (a teacher trained for this) or a shipped model file
(weights/<dir>/model.nmt, its int8 rows dequantized as train.py's --init-from does): self-distillation,
where the shipped student translates the sources itself and a later run learns from its own
consistent outputs instead of the references' noise.

Translates the lines of --ids (one source sentence a line as SentencePiece ids) in order, with
the teacher's cached greedy decoder in length-sorted batches, and appends one translation a line
to --out, for at most --minutes: a rerun of the same command goes on after the lines --out already
holds. So --out is always a prefix of the whole job, aligned line for line with --ids; a line the
teacher cannot take (empty, or over its max_length) gets an empty translation, which
teacher_plan.py's unpack drops. Exits 0 when every line is done, 3 when time ran out first.
"""
import argparse
import os
import sys
import time

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import Transformer  # noqa: E402
from train import collate, spm_decode  # noqa: E402

NOT_FINISHED = 3


def load_teacher(path, device):
    """(model in eval mode on device, its config) from a train.py checkpoint or a model file (.nmt)."""
    if path.endswith(".nmt"):
        from model_file import dequantized_state_dict, read_model_file
        header, tensors = read_model_file(path)
        cfg = header["config"]
        state_dict = dequantized_state_dict(tensors)
    else:
        ck = torch.load(path, map_location="cpu", weights_only=False)
        cfg, state_dict = ck["config"], ck["state_dict"]
    model = Transformer(cfg).to(device)
    model.load_state_dict(state_dict)
    model.eval()
    return model, cfg


def count_lines(path):
    if not os.path.exists(path):
        return 0
    with open(path, encoding="utf-8") as f:
        return sum(1 for _ in f)


def translate_window(model, cfg, src_ids, lines, batch, spm, device):
    """{line: translation} for the lines (indices into src_ids) the teacher can take."""
    limit = cfg["max_length"] - 1
    fits = sorted((i for i in lines if 0 < len(src_ids[i]) <= limit), key=lambda i: len(src_ids[i]))
    out = {}
    for k in range(0, len(fits), batch):
        chunk = fits[k:k + batch]
        s, _, _ = collate(chunk, src_ids, src_ids, cfg, device)
        with torch.no_grad(), torch.autocast(device_type=device.type, dtype=torch.bfloat16,
                                             enabled=device.type == "cuda"):
            hyps = model.greedy(s, cached=True)
        for i, text in zip(chunk, spm_decode(spm, hyps)):
            out[i] = text.replace("\n", " ").replace("\t", " ")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", required=True,
                    help="the teacher: a train.py model.pt, or a shipped model file (.nmt) for self-distillation")
    ap.add_argument("--ids", required=True, help="the sources, one line of SentencePiece ids each")
    ap.add_argument("--spm", required=True, help="the vocabulary (spm.model) that decodes the teacher's ids")
    ap.add_argument("--out", required=True, help="the translations, one a line (appended to: a rerun continues)")
    ap.add_argument("--minutes", type=float, default=3)
    ap.add_argument("--batch", type=int, default=256, help="sentences per batch")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--limit", type=int, default=0, help="only the first N lines (tests)")
    ap.add_argument("--threads", type=int, default=2,
                    help="at most this many CPU threads (on a GPU they only collate: the cores go to the runs beside it)")
    args = ap.parse_args()
    t0 = time.time()
    torch.set_num_threads(max(1, min(args.threads, torch.get_num_threads())))
    device = torch.device(args.device)
    model, cfg = load_teacher(args.checkpoint, device)
    with open(args.ids) as f:
        src_ids = [[int(t) for t in line.split()] for line in f]
    n = len(src_ids) if not args.limit else min(args.limit, len(src_ids))
    done = count_lines(args.out)
    print(f"distill {os.path.basename(args.ids)}: {done}/{n} lines already done", file=sys.stderr)
    # Windows of many batches keep padding low (sorted inside) and are written in line order, so
    # --out stays a prefix of the job whenever time runs out.
    window = args.batch * 16
    start, first = time.time(), done
    while done < n and time.time() - t0 < args.minutes * 60:
        lines = list(range(done, min(n, done + window)))
        out = translate_window(model, cfg, src_ids, lines, args.batch, args.spm, device)
        with open(args.out, "a", encoding="utf-8") as f:
            f.writelines(out.get(i, "") + "\n" for i in lines)
        done = lines[-1] + 1
        rate = (done - first) / max(1e-9, time.time() - start)  # sentences/s of this run, model loading aside
        print(f"[{time.strftime('%H:%M:%S')}] {done}/{n} lines ({rate:.0f}/s)", file=sys.stderr, flush=True)
    return 0 if done >= n else NOT_FINISHED


if __name__ == "__main__":
    sys.exit(main())
