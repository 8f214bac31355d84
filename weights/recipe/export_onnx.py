"""Exports a shipped model file (engine/FORMAT.md) to ONNX, for the side-by-side benchmark against
ONNX Runtime (scripts/bench-peers.mjs). Two graphs per model and precision:

  encoder.onnx   src_ids int64 [batch, src_len]
                 -> src_bias f32 [batch, 1, 1, src_len]    (0, or -1e30 at padding)
                    cross_k.{i}, cross_v.{i} f32 [batch, heads, src_len, head_dim] per decoder layer
                    (the cross-attention keys/values of the encoder output, computed once a sentence)
  decoder.onnx   one decoding step with a key/value cache:
                 tokens int64 [batch, 1], position int64 [1], src_bias, cross_k.{i}, cross_v.{i},
                 past_k.{i}, past_v.{i} f32 [batch, heads, past_len, head_dim] (past_len may be 0)
                 -> logits f32 [batch, vocab], log_probs (their log-softmax), attention f32 [batch, src_len] (the alignment layer's
                    cross-attention, mean over heads: the coverage penalty's input),
                    present_k.{i}, present_v.{i} [batch, heads, past_len + 1, head_dim]

Precisions:
  fp32  the model file's int8 rows times their scales (model_file.dequantized_weights), float MatMuls.
  int8  ONNX Runtime's dynamic quantization, as its quantize_dynamic writes it: every Linear is
        DynamicQuantizeLinear (activations uint8, one scale and zero point per tensor, computed at run
        time) -> MatMulInteger with the int8 weights (the model file's own int8 rows, transposed) ->
        Cast -> Mul by scale_x * scale_w[column] -> Add bias. The embedding stays int8 (Gather, then
        times its row scale); the output projection is a MatMulInteger on the same int8 table.
        Not the engine's arithmetic (that quantizes activations per row, symmetric): the benchmark
        checks the two agree in BLEU, not token for token.

The graphs are written by a small protobuf writer here (the `onnx` Python package is not installed
on this project's machines, and torch.onnx.export would need it to check its output): opset 17,
IR version 8, only standard ai.onnx operators. NumPy and the standard library only.

  /usr/bin/python3 weights/recipe/export_onnx.py --model weights/en-de/model.nmt --out build/onnx/en-de
      [--precision fp32,int8] [--f32-nmt FILE]   writes OUT/fp32/{encoder,decoder}.onnx, OUT/int8/{...}, OUT/model.json
"""
import argparse
import json
import math
import os
import struct
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import dequantized_weights, read_model_file, write_model_file  # noqa: E402

OPSET = 17
IR_VERSION = 8
NEG = -1e30  # added to the scores of padding positions (exp underflows to exactly 0, as -inf would)

# TensorProto.DataType
FLOAT, UINT8, INT8, INT32, INT64, BOOL = 1, 2, 3, 6, 7, 9
_NP_TYPES = {np.dtype(np.float32): FLOAT, np.dtype(np.uint8): UINT8, np.dtype(np.int8): INT8,
             np.dtype(np.int32): INT32, np.dtype(np.int64): INT64, np.dtype(np.bool_): BOOL}


# ---------------------------------------------------------------- protobuf (wire format) writer
def _varint(n):
    if n < 0:
        n += 1 << 64
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def _key(field, wire):
    return _varint((field << 3) | wire)


def f_int(field, value):
    return _key(field, 0) + _varint(int(value))


def f_bytes(field, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    return _key(field, 2) + _varint(len(data)) + data


def f_float(field, value):
    return _key(field, 5) + struct.pack("<f", value)


def tensor_proto(name, array):
    array = np.ascontiguousarray(array)
    out = b"".join(f_int(1, d) for d in array.shape)
    out += f_int(2, _NP_TYPES[array.dtype]) + f_bytes(8, name) + f_bytes(9, array.tobytes())
    return out


def value_info(name, elem_type, shape):
    dims = b"".join(f_bytes(1, f_bytes(2, d) if isinstance(d, str) else f_int(1, d)) for d in shape)
    tensor_type = f_int(1, elem_type) + f_bytes(2, dims)
    return f_bytes(1, name) + f_bytes(2, f_bytes(1, tensor_type))


def attribute(name, value):
    out = f_bytes(1, name)
    if isinstance(value, float):
        return out + f_float(2, value) + f_int(20, 1)
    if isinstance(value, int):
        return out + f_int(3, value) + f_int(20, 2)
    if isinstance(value, (list, tuple)):
        return out + b"".join(f_int(8, v) for v in value) + f_int(20, 7)
    if isinstance(value, np.ndarray):
        return out + f_bytes(5, tensor_proto("", value)) + f_int(20, 4)
    raise TypeError(f"attribute {name}: {type(value)}")


# ---------------------------------------------------------------- graph builder
class Graph:
    def __init__(self, name):
        self.name = name
        self.nodes, self.initializers, self.inputs, self.outputs = [], [], [], []
        self.count = 0
        self.consts = {}

    def fresh(self, hint):
        self.count += 1
        return f"{hint}_{self.count}"

    def input(self, name, elem_type, shape):
        self.inputs.append(value_info(name, elem_type, shape))
        return name

    def output(self, name, elem_type, shape):
        self.outputs.append(value_info(name, elem_type, shape))

    def init(self, name, array):
        self.initializers.append(tensor_proto(name, array))
        return name

    def const(self, array):
        """A small constant initializer, shared between uses of the same value."""
        array = np.asarray(array)
        key = (array.dtype.str, array.shape, array.tobytes())
        if key not in self.consts:
            self.consts[key] = self.init(self.fresh("const"), array)
        return self.consts[key]

    def op(self, op_type, inputs, n_out=1, name=None, outputs=None, **attrs):
        outputs = outputs or [self.fresh(name or op_type) for _ in range(n_out)]
        node = b"".join(f_bytes(1, i) for i in inputs) + b"".join(f_bytes(2, o) for o in outputs)
        node += f_bytes(3, self.fresh("n_" + op_type)) + f_bytes(4, op_type)
        node += b"".join(f_bytes(5, attribute(k, v)) for k, v in attrs.items())
        self.nodes.append(node)
        return outputs[0] if n_out == 1 else outputs

    def serialize(self, producer="nmt weights/recipe/export_onnx.py"):
        graph = b"".join(f_bytes(1, n) for n in self.nodes) + f_bytes(2, self.name)
        graph += b"".join(f_bytes(5, t) for t in self.initializers)
        graph += b"".join(f_bytes(11, i) for i in self.inputs) + b"".join(f_bytes(12, o) for o in self.outputs)
        opset = f_bytes(1, "") + f_int(2, OPSET)
        return f_int(1, IR_VERSION) + f_bytes(2, producer) + f_bytes(7, graph) + f_bytes(8, opset)


# ---------------------------------------------------------------- the network
class Builder:
    """Writes the Transformer of weights/recipe/model.py into a Graph, fp32 or int8."""

    def __init__(self, graph, header, tensors, precision):
        self.g, self.cfg, self.precision = graph, header["config"], precision
        self.raw = tensors
        self.w = dequantized_weights(tensors)
        c = self.cfg
        self.d, self.h = c["d_model"], c["n_heads"]
        self.hd = self.d // self.h
        self.pre = c["norm"] == "pre"
        self.eps = float(c["norm_eps"])

    # weights
    def int8_rows(self, name):
        """(int8 [out, in], scale [out]) of a weight: the model file's own rows, or quantized here
        (symmetric, per row) when the file holds floats."""
        if self.raw[name].dtype == np.int8:
            return self.raw[name], self.raw[name + ".scale"].astype(np.float32)
        w = self.raw[name].astype(np.float32)
        scale = np.maximum(np.abs(w).max(axis=1), 1e-12) / 127.0
        return np.clip(np.round(w / scale[:, None]), -127, 127).astype(np.int8), scale.astype(np.float32)

    def linear(self, x, prefix, bias=True):
        g = self.g
        if self.precision == "fp32":
            w = g.init(prefix + ".weight.T", np.ascontiguousarray(self.w[prefix + ".weight"].T))
            y = g.op("MatMul", [x, w])
        else:
            q, s = self.int8_rows(prefix + ".weight")
            w = g.init(prefix + ".weight.T.int8", np.ascontiguousarray(q.T))
            y = self.matmul_integer(x, w, g.init(prefix + ".weight.scale", s))
        return g.op("Add", [y, g.init(prefix + ".bias", self.w[prefix + ".bias"])]) if bias else y

    def matmul_integer(self, x, w_int8, w_scale):
        g = self.g
        xq, xs, xz = g.op("DynamicQuantizeLinear", [x], n_out=3)
        acc = g.op("MatMulInteger", [xq, w_int8, xz, g.const(np.zeros((), np.int8))])
        return g.op("Mul", [g.op("Cast", [acc], to=FLOAT), g.op("Mul", [xs, w_scale])])

    def layer_norm(self, x, prefix):
        return self.g.op("LayerNormalization", [x, self.g.init(prefix + ".weight", self.w[prefix + ".weight"]),
                                                self.g.init(prefix + ".bias", self.w[prefix + ".bias"])],
                         axis=-1, epsilon=self.eps)

    def sublayer(self, x, prefix, fn):
        if self.pre:
            return self.g.op("Add", [x, fn(self.layer_norm(x, prefix + ".norm"))])
        return self.layer_norm(self.g.op("Add", [x, fn(x)]), prefix + ".norm")

    def heads(self, x):  # [B, T, d] -> [B, H, T, hd]
        g = self.g
        x = g.op("Reshape", [x, g.const(np.array([0, 0, self.h, self.hd], np.int64))])
        return g.op("Transpose", [x], perm=[0, 2, 1, 3])

    def merge(self, x):  # [B, H, T, hd] -> [B, T, d]
        g = self.g
        x = g.op("Transpose", [x], perm=[0, 2, 1, 3])
        return g.op("Reshape", [x, g.const(np.array([0, 0, self.d], np.int64))])

    def attend(self, q_in, k, v, prefix, bias=None):
        """softmax(q k^T / sqrt(hd) + bias) v, o_proj; returns (output, weights [B, H, Tq, Tk])."""
        g = self.g
        q = self.heads(self.linear(q_in, prefix + ".q_proj"))
        scores = g.op("MatMul", [q, g.op("Transpose", [k], perm=[0, 1, 3, 2])])
        scores = g.op("Div", [scores, g.const(np.array(math.sqrt(self.hd), np.float32))])
        if bias is not None:
            scores = g.op("Add", [scores, bias])
        weights = g.op("Softmax", [scores], axis=-1)
        out = self.merge(g.op("MatMul", [weights, v]))
        return self.linear(out, prefix + ".o_proj"), weights

    def ffn(self, x, prefix):
        return self.linear(self.g.op("Relu", [self.linear(x, prefix + ".fc1")]), prefix + ".fc2")

    def positions(self):
        c = self.cfg
        length, d = c["max_length"] + 1, self.d
        pos = np.arange(length, dtype=np.float32)[:, None]
        inv = np.exp(np.arange(0, d, 2, dtype=np.float32) * np.float32(-math.log(10000.0) / d)).astype(np.float32)
        pe = np.zeros((length, d), np.float32)
        pe[:, 0::2] = np.sin(pos * inv)
        pe[:, 1::2] = np.cos(pos * inv)
        return self.g.init("positions", pe)

    def embed(self, ids, transposed):
        """Embedding rows of ids [B, T] -> [B, T, d] (times sqrt(d_model)). transposed: the table is
        stored [d, V] (the decoder shares it with the output projection) and gathered on axis 1."""
        g = self.g
        sqrt_d = g.const(np.array(math.sqrt(self.d), np.float32))
        if self.precision == "fp32":
            table = self.w["embed.weight"]
            t = g.init("embed.T" if transposed else "embed", np.ascontiguousarray(table.T) if transposed else table)
            rows = g.op("Gather", [t, ids], axis=1 if transposed else 0)
        else:
            q, s = self.int8_rows("embed.weight")
            t = g.init("embed.T.int8" if transposed else "embed.int8", np.ascontiguousarray(q.T) if transposed else q)
            self.embed_scale = g.init("embed.scale", s)
            rows = g.op("Cast", [g.op("Gather", [t, ids], axis=1 if transposed else 0)], to=FLOAT)
            rows_scale = g.op("Unsqueeze", [g.op("Gather", [self.embed_scale, ids], axis=0), g.const(np.array([-1], np.int64))])
        if transposed:
            rows = g.op("Transpose", [rows], perm=[1, 2, 0])  # [d, B, T] -> [B, T, d]
        self.embed_table = t
        if self.precision != "fp32":
            rows = g.op("Mul", [rows, rows_scale])
        return g.op("Mul", [rows, sqrt_d])


def build_encoder(header, tensors, precision):
    g = Graph("encoder")
    b = Builder(g, header, tensors, precision)
    c = header["config"]
    src = g.input("src_ids", INT64, ["batch", "src_len"])
    pad = g.op("Equal", [src, g.const(np.array(c["pad_id"], np.int64))])
    bias = g.op("Where", [pad, g.const(np.array(NEG, np.float32)), g.const(np.array(0.0, np.float32))])
    bias = g.op("Unsqueeze", [bias, g.const(np.array([1, 2], np.int64))], outputs=["src_bias"])
    length = g.op("Slice", [g.op("Shape", [src]), g.const(np.array([1], np.int64)), g.const(np.array([2], np.int64))])
    pe = g.op("Slice", [b.positions(), g.const(np.array([0], np.int64)), length, g.const(np.array([0], np.int64))])
    x = g.op("Add", [b.embed(src, transposed=False), pe])
    for i in range(c["encoder_layers"]):
        p = f"encoder_layers.{i}"

        def self_attn(h, p=p):
            k, v = b.heads(b.linear(h, p + ".self_attn.k_proj")), b.heads(b.linear(h, p + ".self_attn.v_proj"))
            return b.attend(h, k, v, p + ".self_attn", bias)[0]

        x = b.sublayer(x, p + ".sub1", self_attn)
        x = b.sublayer(x, p + ".sub2", lambda h, p=p: b.ffn(h, p + ".ffn"))
    if b.pre:
        x = b.layer_norm(x, "encoder_norm")
    g.output("src_bias", FLOAT, ["batch", 1, 1, "src_len"])
    kv_shape = ["batch", b.h, "src_len", b.hd]
    for i in range(c["decoder_layers"]):
        p = f"decoder_layers.{i}.cross_attn"
        g.op("Identity", [b.heads(b.linear(x, p + ".k_proj"))], outputs=[f"cross_k.{i}"])
        g.op("Identity", [b.heads(b.linear(x, p + ".v_proj"))], outputs=[f"cross_v.{i}"])
        g.output(f"cross_k.{i}", FLOAT, kv_shape)
        g.output(f"cross_v.{i}", FLOAT, kv_shape)
    return g


def build_decoder(header, tensors, precision):
    g = Graph("decoder_step")
    b = Builder(g, header, tensors, precision)
    c = header["config"]
    align = header.get("alignment", {}).get("layer", c["decoder_layers"] - 1)
    if not 0 <= align < c["decoder_layers"]:
        align = c["decoder_layers"] - 1
    tokens = g.input("tokens", INT64, ["batch", 1])
    position = g.input("position", INT64, [1])
    bias = g.input("src_bias", FLOAT, ["batch", 1, 1, "src_len"])
    kv = ["batch", b.h, "src_len", b.hd]
    past = ["batch", b.h, "past_len", b.hd]
    cross, cache = [], []
    for i in range(c["decoder_layers"]):
        cross.append((g.input(f"cross_k.{i}", FLOAT, kv), g.input(f"cross_v.{i}", FLOAT, kv)))
    for i in range(c["decoder_layers"]):
        cache.append((g.input(f"past_k.{i}", FLOAT, past), g.input(f"past_v.{i}", FLOAT, past)))
    pe = g.op("Slice", [b.positions(), position, g.op("Add", [position, g.const(np.array([1], np.int64))]),
                        g.const(np.array([0], np.int64))])
    y = g.op("Add", [b.embed(tokens, transposed=True), pe])
    attention = None
    for i in range(c["decoder_layers"]):
        p = f"decoder_layers.{i}"

        def self_attn(h, p=p, i=i):
            k = g.op("Concat", [cache[i][0], b.heads(b.linear(h, p + ".self_attn.k_proj"))], axis=2, outputs=[f"present_k.{i}"])
            v = g.op("Concat", [cache[i][1], b.heads(b.linear(h, p + ".self_attn.v_proj"))], axis=2, outputs=[f"present_v.{i}"])
            return b.attend(h, k, v, p + ".self_attn")[0]

        def cross_attn(h, p=p, i=i):
            nonlocal attention
            out, weights = b.attend(h, cross[i][0], cross[i][1], p + ".cross_attn", bias)
            if i == align:
                attention = weights
            return out

        y = b.sublayer(y, p + ".sub1", self_attn)
        y = b.sublayer(y, p + ".sub2", cross_attn)
        y = b.sublayer(y, p + ".sub3", lambda h, p=p: b.ffn(h, p + ".ffn"))
    if b.pre:
        y = b.layer_norm(y, "decoder_norm")
    y = g.op("Reshape", [y, g.const(np.array([-1, b.d], np.int64))])  # [B, d]
    if precision == "fp32":
        logits = g.op("MatMul", [y, b.embed_table], outputs=["logits"])
    else:
        logits = g.op("Identity", [b.matmul_integer(y, b.embed_table, b.embed_scale)], outputs=["logits"])
    g.op("LogSoftmax", [logits], axis=-1, outputs=["log_probs"])
    # [B, H, 1, S] -> mean over heads -> [B, S]
    mean = g.op("ReduceMean", [attention], axes=[1], keepdims=0)
    g.op("Reshape", [mean, g.const(np.array([0, -1], np.int64))], outputs=["attention"])
    g.output("logits", FLOAT, ["batch", c["vocab_size"]])
    g.output("log_probs", FLOAT, ["batch", c["vocab_size"]])
    g.output("attention", FLOAT, ["batch", "src_len"])
    for i in range(c["decoder_layers"]):
        g.output(f"present_k.{i}", FLOAT, ["batch", b.h, "total_len", b.hd])
        g.output(f"present_v.{i}", FLOAT, ["batch", b.h, "total_len", b.hd])
    return g


def spm_pieces(model_bytes):
    """[(piece, type)] of a SentencePiece ModelProto (field 1: SentencePiece {1: piece, 3: type}),
    read with a minimal protobuf reader. Types: 1 normal, 2 unknown, 3 control, 4 user-defined,
    5 unused, 6 byte."""
    def fields(buf):
        i = 0
        while i < len(buf):
            key, i = _read_varint(buf, i)
            field, wire = key >> 3, key & 7
            if wire == 0:
                value, i = _read_varint(buf, i)
            elif wire == 1:
                value, i = buf[i:i + 8], i + 8
            elif wire == 2:
                n, i = _read_varint(buf, i)
                value, i = buf[i:i + n], i + n
            elif wire == 5:
                value, i = buf[i:i + 4], i + 4
            else:
                raise ValueError(f"unsupported wire type {wire}")
            yield field, value

    pieces = []
    for field, value in fields(model_bytes):
        if field == 1:
            piece, kind = "", 1
            for f, v in fields(value):
                if f == 1:
                    piece = bytes(v).decode("utf-8")
                elif f == 3:
                    kind = v
            pieces.append((piece, kind))
    return pieces


def _read_varint(buf, i):
    n = shift = 0
    while True:
        b = buf[i]
        i += 1
        n |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return n, i


def export(model_path, out_dir, precisions=("fp32", "int8")):
    """Writes OUT/<precision>/{encoder,decoder}.onnx, OUT/tokenizer.spm (the model's SentencePiece
    model, for spm_encode) and OUT/model.json (config, languages, the vocabulary's pieces and their
    types for detokenizing, file sizes). Returns model.json's dict."""
    header, tensors = read_model_file(model_path)
    info = {"source": os.path.abspath(model_path), "config": header["config"], "languages": header["languages"],
            "alignment_layer": header.get("alignment", {}).get("layer", header["config"]["decoder_layers"] - 1),
            "opset": OPSET, "files": {}}
    for precision in precisions:
        os.makedirs(os.path.join(out_dir, precision), exist_ok=True)
        for part, build in (("encoder", build_encoder), ("decoder", build_decoder)):
            data = build(header, tensors, precision).serialize()
            rel = f"{precision}/{part}.onnx"
            with open(os.path.join(out_dir, rel), "wb") as f:
                f.write(data)
            info["files"][rel] = len(data)
    spm = tensors["tokenizer.spm"].tobytes()
    with open(os.path.join(out_dir, "tokenizer.spm"), "wb") as f:
        f.write(spm)
    info["pieces"] = [p for p, _ in spm_pieces(spm)]
    info["piece_types"] = [t for _, t in spm_pieces(spm)]
    with open(os.path.join(out_dir, "model.json"), "w") as f:
        json.dump(info, f, indent=1)
    return info


def write_f32_model_file(model_path, out_path):
    """The same float weights as the fp32 ONNX graphs, as an f32 model file this engine runs (its
    float path): the benchmark's token-for-token check of fp32 greedy decoding."""
    header, tensors = read_model_file(model_path)
    provenance = {"derived_from": os.path.abspath(model_path), "note": "int8 rows times their scales, stored f32"}
    return write_model_file(out_path, header["config"], header["languages"], dequantized_weights(tensors),
                            tensors["tokenizer.spm"].tobytes(), provenance, header.get("alignment", {}).get("layer"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", required=True, help="a model file (.nmt)")
    ap.add_argument("--out", required=True, help="output folder (build/onnx/<direction>)")
    ap.add_argument("--precision", default="fp32,int8", help="comma-separated: fp32, int8")
    ap.add_argument("--f32-nmt", help="also write the float weights as an f32 model file here")
    args = ap.parse_args()
    if args.f32_nmt:
        write_f32_model_file(args.model, args.f32_nmt)
    info = export(args.model, args.out, [p for p in args.precision.split(",") if p])
    for rel, size in info["files"].items():
        print(f"{os.path.join(args.out, rel)}  {size / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
