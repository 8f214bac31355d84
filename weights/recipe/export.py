"""Export a trained reference model into the engine's model file (engine/FORMAT.md).

  python3 export.py --checkpoint work/en-de/model.pt --spm work/data/spm.model --out weights/en-de/model.nmt

Weight matrices are quantized to int8 with one scale per output row (or kept f32 with --f32, used
for the parity fixtures); biases and norms stay f32; the SentencePiece model is embedded.
"""
import argparse
import json
import os
import struct
import sys
import zlib

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model import quantize_rows  # noqa: E402

MAGIC = b"NMTMODEL"
FORMAT_VERSION = 1
ALIGN = 64


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


def write_model_file(path, config, languages, tensors, spm_bytes, provenance, alignment_layer=None):
    tensors = dict(tensors)
    tensors["tokenizer.spm"] = np.frombuffer(spm_bytes, dtype=np.uint8)
    table, blobs, offset = [], [], 0
    dtype_names = {np.dtype(np.int8): "i8", np.dtype(np.float32): "f32", np.dtype(np.uint8): "u8"}
    for name, arr in tensors.items():
        arr = np.ascontiguousarray(arr)
        data = arr.tobytes()
        table.append({"name": name, "dtype": dtype_names[arr.dtype], "shape": list(arr.shape),
                      "offset": offset, "bytes": len(data)})
        blobs.append((offset, data))
        offset += (len(data) + ALIGN - 1) // ALIGN * ALIGN
    header = {
        "config": config,
        "languages": languages,
        "tokenizer": {"type": "sentencepiece-unigram", "tensor": "tokenizer.spm"},
        "alignment": {"layer": config["decoder_layers"] - 1 if alignment_layer is None else alignment_layer,
                      "heads": "mean"},
        "tensors": table,
        "provenance": provenance,
    }
    header_bytes = json.dumps(header, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    data_start = (32 + len(header_bytes) + ALIGN - 1) // ALIGN * ALIGN
    body = bytearray(data_start - 32 + offset)
    body[: len(header_bytes)] = header_bytes
    for off, data in blobs:
        start = data_start - 32 + off
        body[start: start + len(data)] = data
    file_bytes = 32 + len(body)
    crc = zlib.crc32(bytes(body)) & 0xFFFFFFFF
    prefix = MAGIC + struct.pack("<IIQII", FORMAT_VERSION, len(header_bytes), file_bytes, crc, 0)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as f:
        f.write(prefix)
        f.write(body)
    return file_bytes


def read_model_file(path):
    """(header, {name: numpy array}) of a model file; the inverse of write_model_file."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != MAGIC:
        raise ValueError(f"{path}: not a model file")
    version, header_bytes, file_bytes, crc, _ = struct.unpack("<IIQII", data[8:32])
    if version != FORMAT_VERSION or file_bytes != len(data) or zlib.crc32(data[32:]) & 0xFFFFFFFF != crc:
        raise ValueError(f"{path}: bad version, length or checksum")
    header = json.loads(data[32: 32 + header_bytes])
    start = (32 + header_bytes + ALIGN - 1) // ALIGN * ALIGN
    types = {"f32": np.float32, "i8": np.int8, "u8": np.uint8}
    tensors = {t["name"]: np.frombuffer(data, types[t["dtype"]], int(np.prod(t["shape"])), start + t["offset"])
               .reshape(t["shape"]) for t in header["tensors"]}
    return header, tensors


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checkpoint", required=True, help="model.pt written by train.py")
    ap.add_argument("--spm", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--f32", action="store_true", help="keep weight matrices in f32")
    ap.add_argument("--provenance", default="{}", help="JSON merged into the provenance")
    args = ap.parse_args()
    ck = torch.load(args.checkpoint, map_location="cpu")
    provenance = {"recipe": "weights/recipe", "train": ck.get("train", {}), "history": ck.get("history", [])}
    provenance.update(json.loads(args.provenance))
    tensors = build_tensors(ck["state_dict"], quantize=not args.f32)
    with open(args.spm, "rb") as f:
        spm_bytes = f.read()
    n = write_model_file(args.out, ck["config"], ck["languages"], tensors, spm_bytes, provenance)
    print(json.dumps({"out": args.out, "bytes": n}))


if __name__ == "__main__":
    main()
