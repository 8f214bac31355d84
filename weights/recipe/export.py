"""Export a trained reference model into the engine's model file (engine/FORMAT.md).

  python3 export.py --checkpoint work/en-de/model.pt --spm work/data/spm.model --out weights/en-de/model.nmt

Weight matrices are quantized to int8 with one scale per output row (or kept f32 with --f32, used
for the parity fixtures); biases and norms stay f32; the SentencePiece model is embedded.

--tables-from F takes model file F's tables (the shortlist, truecase lists and memory: the tensors
shortlist.*, truecase.* and memory, and their provenance entries) into the new file, so that it
differs from F in its weights only; F must have the same tokenizer (--spm), vocabulary and direction.

  python3 export.py --checkpoint work/en-de/model.pt --spm work/data/spm.model --tables-from weights/en-de/model.nmt --out up.nmt
"""
import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import quantize_rows  # noqa: E402
from model_file import copy_model_file, read_model_file, write_model_file  # noqa: E402

TABLE_PROVENANCE = ("shortlist", "truecase", "memory")
VOCABULARY_IDS = ("vocab_size", "pad_id", "unk_id", "bos_id", "eos_id")


def is_matrix(name):
    return name == "embed.weight" or name.endswith("_proj.weight") or name.endswith(("fc1.weight", "fc2.weight"))


def build_tensors(state_dict, quantize):
    """name -> numpy array, in a stable order, with int8 + scale for the weight matrices."""
    tensors = {}
    for name in sorted(state_dict):
        w = state_dict[name].detach().float().cpu()
        if is_matrix(name) and quantize:
            q, scale = quantize_rows(w)
            tensors[name] = q.to(torch.int8).numpy()
            tensors[name + ".scale"] = scale.float().numpy()
        else:
            tensors[name] = w.numpy().astype(np.float32)
    return tensors


def is_table(name):
    return name == "memory" or name.startswith(("shortlist.", "truecase."))


def tables_of(path, config, languages, spm_bytes):
    """({name: tensor}, {key: provenance entry}) of model file path's tables, after checking that they
    fit a model of this config, direction and tokenizer (the shortlist holds token ids, the memory
    one direction's sentences)."""
    header, tensors = read_model_file(path)
    if tensors[header["tokenizer"]["tensor"]].tobytes() != spm_bytes:
        raise SystemExit(f"--tables-from {path}: its tokenizer is not --spm's, so its shortlist's token ids would "
                         "not be this model's")
    theirs = {k: header["config"].get(k) for k in VOCABULARY_IDS}
    ours = {k: config.get(k) for k in VOCABULARY_IDS}
    if theirs != ours:
        raise SystemExit(f"--tables-from {path}: its vocabulary {theirs} is not the checkpoint's {ours}")
    if header["languages"] != languages:
        raise SystemExit(f"--tables-from {path}: it translates {header['languages']}, the checkpoint {languages}")
    tables = {name: t for name, t in tensors.items() if is_table(name)}
    if not tables:
        raise SystemExit(f"--tables-from {path}: it has no shortlist, truecase or memory tensors")
    provenance = header.get("provenance", {})
    return tables, {key: provenance[key] for key in TABLE_PROVENANCE if key in provenance}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", required=True, help="model.pt written by train.py")
    ap.add_argument("--spm", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--f32", action="store_true", help="keep weight matrices in f32")
    ap.add_argument("--provenance", default="{}", help="JSON merged into the provenance")
    ap.add_argument("--tables-from", metavar="MODEL_FILE",
                    help="take this model file's shortlist, truecase lists and memory (same tokenizer and direction)")
    args = ap.parse_args()
    ck = torch.load(args.checkpoint, map_location="cpu", weights_only=False)
    provenance = {"recipe": "weights/recipe", "train": ck.get("train", {}), "history": ck.get("history", [])}
    if "valid_nll" in ck:  # interpolate.py --dev: the combined weights' own dev loss (the card's "last valid NLL")
        provenance["valid_nll"] = ck["valid_nll"]
    provenance.update(json.loads(args.provenance))
    tensors = build_tensors(ck["state_dict"], quantize=not args.f32)
    with open(args.spm, "rb") as f:
        spm_bytes = f.read()
    tables = tables_of(args.tables_from, ck["config"], ck["languages"], spm_bytes) if args.tables_from else None
    n = write_model_file(args.out, ck["config"], ck["languages"], tensors, spm_bytes, provenance)
    if tables:
        n = copy_model_file(args.out, args.out, *tables)
    print(json.dumps({"out": args.out, "bytes": n}))


if __name__ == "__main__":
    main()
