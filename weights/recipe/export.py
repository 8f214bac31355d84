"""Export a trained reference model into the engine's model file (engine/FORMAT.md).

  python3 export.py --checkpoint work/en-de/model.pt --spm work/data/spm.model --out weights/en-de/model.nmt

Weight matrices are quantized to int8 with one scale per output row (or kept f32 with --f32, used
for the parity fixtures); biases and norms stay f32; the SentencePiece model is embedded.
"""
import argparse
import json
import os
import sys

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import quantize_rows  # noqa: E402
from model_file import write_model_file  # noqa: E402


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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", required=True, help="model.pt written by train.py")
    ap.add_argument("--spm", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--f32", action="store_true", help="keep weight matrices in f32")
    ap.add_argument("--provenance", default="{}", help="JSON merged into the provenance")
    args = ap.parse_args()
    ck = torch.load(args.checkpoint, map_location="cpu", weights_only=False)
    provenance = {"recipe": "weights/recipe", "train": ck.get("train", {}), "history": ck.get("history", [])}
    if "valid_nll" in ck:  # interpolate.py --dev: the combined weights' own dev loss (the card's "last valid NLL")
        provenance["valid_nll"] = ck["valid_nll"]
    provenance.update(json.loads(args.provenance))
    tensors = build_tensors(ck["state_dict"], quantize=not args.f32)
    with open(args.spm, "rb") as f:
        spm_bytes = f.read()
    n = write_model_file(args.out, ck["config"], ck["languages"], tensors, spm_bytes, provenance)
    print(json.dumps({"out": args.out, "bytes": n}))


if __name__ == "__main__":
    main()
