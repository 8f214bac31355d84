"""The engine's model file (engine/FORMAT.md), read and written in Python: the one definition the
recipe's exporter, the card, training's --init-from and the tests share. The header alone needs only
the standard library (make_card.py and the card test read it in CI); the tensors need NumPy, and
dequantized_state_dict PyTorch.

  32-byte preamble: 8-byte magic "NMTMODEL", u32 version, u32 header length, u64 file length,
                    u32 CRC-32 of everything after the preamble, u32 reserved
  JSON header (config, languages, tokenizer, alignment, tensor table, provenance), then the tensors,
  each at a 64-byte aligned offset from the first 64-byte boundary after the header.
"""
import json
import os
import struct
import zlib

MAGIC = b"NMTMODEL"
FORMAT_VERSION = 1
ALIGN = 64
PREAMBLE = struct.Struct("<8sIIQII")


def _checked(data, path):
    """(header dict, offset of the tensor data) after the same checks the engine makes."""
    if len(data) < PREAMBLE.size:
        raise ValueError(f"{path}: too short for a model file")
    magic, version, header_bytes, file_bytes, crc, _ = PREAMBLE.unpack(data[:PREAMBLE.size])
    if magic != MAGIC:
        raise ValueError(f"{path}: not a model file")
    if version != FORMAT_VERSION or file_bytes != len(data) or zlib.crc32(data[32:]) & 0xFFFFFFFF != crc:
        raise ValueError(f"{path}: bad version, length or checksum")
    header = json.loads(data[32: 32 + header_bytes])
    return header, (32 + header_bytes + ALIGN - 1) // ALIGN * ALIGN


def read_header(path):
    """The JSON header of a model file, checked (standard library only)."""
    with open(path, "rb") as f:
        return _checked(f.read(), path)[0]


def read_model_file(path):
    """(header, {name: numpy array}) of a model file; the inverse of write_model_file."""
    import numpy as np
    with open(path, "rb") as f:
        data = f.read()
    header, start = _checked(data, path)
    types = {"f32": np.float32, "i8": np.int8, "u8": np.uint8, "u16": np.dtype("<u2")}
    tensors = {t["name"]: np.frombuffer(data, types[t["dtype"]], int(np.prod(t["shape"])), start + t["offset"])
               .reshape(t["shape"]) for t in header["tensors"]}
    return header, tensors


def dequantized_weights(tensors):
    """read_model_file's tensors -> {name: float32 numpy array} of the network's weights and biases
    (int8 rows times their per-row scales; the tokenizer and the scales themselves left out)."""
    import numpy as np
    weights = {}
    for name, t in tensors.items():
        if name.endswith(".scale") or not name.endswith((".weight", ".bias")):
            continue
        w = t.astype(np.float32)
        if name + ".scale" in tensors:
            w = w * tensors[name + ".scale"].astype(np.float32)[:, None]
        weights[name] = w
    return weights


def dequantized_state_dict(tensors):
    """dequantized_weights as torch tensors: a state_dict that model.Transformer loads."""
    import torch
    return {name: torch.from_numpy(w) for name, w in dequantized_weights(tensors).items()}


def copy_model_file(model_in, model_out, tensors, provenance):
    """Writes model_in to model_out (the same path is fine) with tensors ({name: array, or None to drop
    it}) in place of the tensors of those names, listed after the others, and provenance ({key: entry,
    or None to drop it}) setting those entries where they stand; the config, languages, alignment
    layer, tokenizer and every other tensor kept. Returns the file's length."""
    header, old_tensors = read_model_file(model_in)
    spm_name = header["tokenizer"]["tensor"]
    kept = {name: t for name, t in old_tensors.items() if name != spm_name and name not in tensors}
    kept.update((name, t) for name, t in tensors.items() if t is not None)
    new_provenance = dict(header.get("provenance", {}))
    for key, entry in provenance.items():
        if entry is None:
            new_provenance.pop(key, None)
        else:
            new_provenance[key] = entry
    return write_model_file(model_out, header["config"], header["languages"], kept, old_tensors[spm_name].tobytes(),
                            new_provenance, alignment_layer=header["alignment"]["layer"])


def write_model_file(path, config, languages, tensors, spm_bytes, provenance, alignment_layer=None):
    import numpy as np
    tensors = dict(tensors)
    tensors["tokenizer.spm"] = np.frombuffer(spm_bytes, dtype=np.uint8)
    table, blobs, offset = [], [], 0
    dtype_names = {np.dtype(np.int8): "i8", np.dtype(np.float32): "f32", np.dtype(np.uint8): "u8",
                   np.dtype("<u2"): "u16"}
    for name, arr in tensors.items():
        arr = np.ascontiguousarray(arr)
        if arr.dtype == np.dtype(">u2"):
            arr = arr.astype("<u2")
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
    prefix = PREAMBLE.pack(MAGIC, FORMAT_VERSION, len(header_bytes), file_bytes, crc, 0)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as f:
        f.write(prefix)
        f.write(body)
    return file_bytes
