"""Weight interpolation of two models of one lineage: weight * A + (1 - weight) * B, per tensor.

Round 21 continued round 20 on a GPU with 8x the batch: flores-dev gained ~2-3 BLEU, but en->de lost
~0.9 BLEU on the short tatoeba/multi30k sentences. Interpolating the two (they share a basin: one was
trained from the other) keeps most of the gain and gives back the short-sentence scores; the weight
is chosen on the dev sets (EXPERIMENTS.md round 21). A and B are train.py's model.pt files, or
model files (int8 dequantized) where a model.pt is gone or did not come back (the GPU student plan
brings fp16 weights only for the runs that fit the device tool's 64 MiB). The output is a model.pt
with A's config, history and training record, for export.py; --weight 1 just turns a model file
back into a model.pt.

  python3 interpolate.py --a work/gpu/en-de/model.pt --b work/r20/en-de/model.pt --weight 0.6 --out work/en-de/model.pt

--soup averages any number of models uniformly (a "model soup", Wortsman et al. 2022): runs that
started from one file and differ only in their data (the GPU student plan's --variants) land in one
basin, and their mean beat each of them in round 23 (EXPERIMENTS.md), unlike the mean of successive
rounds' ends (rounds 13 and 16), which are not independent.

  python3 interpolate.py --soup g/student-en-de.nmt g/student-en-de-untagged.nmt g/student-en-de-sampled.nmt --out s.pt

--dev flores-dev.en-de.tsv --spm spm.model also records the result's NLL on that dev set (train.py's
validation loss) in the model.pt, which export.py writes into the model file's provenance.
"""
import argparse
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import dequantized_state_dict, read_model_file  # noqa: E402


def load_weights(path):
    """(checkpoint dict, {name: float tensor}) of a model.pt or a model file; a model file's checkpoint
    is built from its header: config, languages, and the training record and history of its provenance."""
    if path.endswith(".nmt"):
        header, tensors = read_model_file(path)
        provenance = header.get("provenance", {})
        ck = {"config": header["config"], "languages": header["languages"], "train": dict(provenance.get("train", {})),
              "history": provenance.get("history", [])}
        return ck, dequantized_state_dict(tensors)
    ck = torch.load(path, map_location="cpu", weights_only=False)
    return ck, {k: v.float() for k, v in ck["state_dict"].items()}


def same_shapes(models):
    first = models[0]
    for other in models[1:]:
        if other.keys() != first.keys() or any(other[k].shape != first[k].shape for k in first):
            raise SystemExit("the models differ in shape: interpolation needs one architecture")


def interpolate(a, b, weight):
    same_shapes([a, b])
    return {k: weight * a[k] + (1 - weight) * b[k] for k in a}


def soup(models):
    """The uniform mean of each tensor over the models."""
    same_shapes(models)
    return {k: sum(m[k] for m in models) / len(models) for k in models[0]}


def dev_nll(ck, dev, spm):
    """The mean per-token NLL of the dev set's references under the checkpoint's weights (train.py's
    validation loss: no label smoothing, long sentences cut to the model's max_length): the number
    that no BLEU noise touches, recorded so the card shows the shipped weights' own loss."""
    from dev_sets import load_dev
    from model import Transformer
    from train import collate, smoothed_loss, spm_encode
    cfg, langs = ck["config"], ck["languages"]
    src, ref = load_dev(dev, langs["source"])
    limit = cfg["max_length"] - 1
    src_ids = [x[:limit] for x in spm_encode(spm, src)]
    tgt_ids = [x[:limit] for x in spm_encode(spm, ref)]
    model = Transformer(cfg)
    model.load_state_dict(ck["state_dict"])
    model.eval()
    total, count = 0.0, 0
    with torch.no_grad():
        for k in range(0, len(src_ids), 64):
            s, ti, to = collate(list(range(k, min(k + 64, len(src_ids)))), src_ids, tgt_ids, cfg, "cpu")
            _, nll, n = smoothed_loss(model(s, ti), to, cfg["pad_id"], 0.0)
            total += float(nll)
            count += n
    return round(total / max(1, count), 4)


def save(ck, args):
    """Writes the checkpoint, with its dev NLL when --dev is given (export.py puts it in the provenance)."""
    if args.dev:
        if not args.spm:
            raise SystemExit("--dev needs --spm (the vocabulary's spm.model)")
        ck["valid_nll"] = dev_nll(ck, args.dev, args.spm)
        print(f"{args.out}: dev NLL {ck['valid_nll']}")
    torch.save(ck, args.out)


def member_name(path):
    """How the record names a model: its folder and file (student files share folders)."""
    path = os.path.abspath(path)
    return os.path.join(os.path.basename(os.path.dirname(path)), os.path.basename(path))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", help="model.pt or model.nmt (its config and record are kept)")
    ap.add_argument("--b", help="model.pt or model.nmt")
    ap.add_argument("--weight", type=float, help="A's share, 0..1")
    ap.add_argument("--soup", nargs="+", metavar="MODEL",
                    help="instead of --a/--b/--weight: the uniform mean of these (the first's config and record are kept)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--dev", help="a dev set (e.g. flores-dev.en-de.tsv): record the result's NLL on it")
    ap.add_argument("--spm", help="spm.model, to tokenize --dev")
    args = ap.parse_args()
    if args.soup:
        if args.a or args.b or args.weight is not None:
            raise SystemExit("--soup replaces --a, --b and --weight")
        if len(args.soup) < 2:
            raise SystemExit("--soup needs at least two models")
        ck, first = load_weights(args.soup[0])
        ck["state_dict"] = soup([first] + [load_weights(p)[1] for p in args.soup[1:]])
        ck.setdefault("train", {})["soup"] = [member_name(p) for p in args.soup]
        save(ck, args)
        print(f"{args.out}: the mean of {len(args.soup)} models: {', '.join(args.soup)}")
        return
    if not args.a or not args.b or args.weight is None:
        raise SystemExit("give --a, --b and --weight, or --soup")
    if not 0 <= args.weight <= 1:
        raise SystemExit("--weight must be within 0..1")
    ck, a = load_weights(args.a)
    _, b = load_weights(args.b)
    ck["state_dict"] = interpolate(a, b, args.weight)
    ck.setdefault("train", {})["interpolation"] = {"a": os.path.basename(os.path.dirname(os.path.abspath(args.a))),
                                                   "b": os.path.basename(os.path.dirname(os.path.abspath(args.b))),
                                                   "weight_of_a": args.weight}
    save(ck, args)
    print(f"{args.out}: {args.weight:g} x {args.a} + {1 - args.weight:g} x {args.b}")


if __name__ == "__main__":
    main()
