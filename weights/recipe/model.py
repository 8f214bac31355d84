"""The PyTorch reference Transformer: the one definition of the model.

Training uses this module, the exporter writes its parameters (by these names) into the engine's
model file, and the parity tests compare the C++ engine against it. Anything changed here must be
changed in engine/model/ too (see engine/FORMAT.md for the names and the maths).

Architecture ("Attention Is All You Need"):
  x = embed[tokens] * sqrt(d_model) + sinusoid[pos]
  encoder layer: self-attention, ReLU feed-forward, each with residual + layer norm
  decoder layer: masked self-attention, cross-attention over the encoder output, feed-forward
  logits = decoder_output @ embed^T   (source embedding, target embedding, output projection tied)
Norm placement is "pre" (x + f(norm(x)), with a final norm after each stack) or "post"
(norm(x + f(x)), no final norm).

quantized=True simulates the engine's int8 path exactly: weights int8 with one scale per output
row, activations quantized per row (per token) on the fly, integer products summed exactly.
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

DEFAULT_CONFIG = {
    "d_model": 256,
    "n_heads": 4,
    "d_ff": 1024,
    "encoder_layers": 6,
    "decoder_layers": 2,
    "vocab_size": 8000,
    "max_length": 256,
    "norm": "pre",
    "norm_eps": 1e-5,
    "pad_id": 0,
    "unk_id": 1,
    "bos_id": 2,
    "eos_id": 3,
}


def quantize_rows(w):
    """Symmetric int8 per row: w ~= q * scale[:, None]. Returns (q as float, scale)."""
    scale = w.abs().amax(dim=-1).clamp(min=1e-12) / 127.0
    q = torch.round(w / scale.unsqueeze(-1)).clamp(-127, 127)
    return q, scale


class Linear(nn.Linear):
    """nn.Linear that can run as the engine's int8 GEMM (quantized weights and activations)."""

    quantized = False

    def forward(self, x):
        if not self.quantized:
            return super().forward(x)
        return int8_matmul(x, self.weight) + self.bias


def int8_matmul(x, w):
    """x[..., in] @ w[out, in]^T with both sides quantized per row (in float32, as the engine does),
    the integer products summed exactly (float64), then scaled: acc * (scale_x * scale_w)."""
    qw, sw = quantize_rows(w.float())
    qx, sx = quantize_rows(x.float())
    acc = (qx.double() @ qw.double().t()).float()
    return (acc * (sx.unsqueeze(-1) * sw)).to(x.dtype)


def sinusoid_positions(length, d_model):
    """pe[pos, 2i] = sin(pos / 10000^(2i/d)), pe[pos, 2i+1] = cos(pos / 10000^(2i/d))."""
    pos = torch.arange(length, dtype=torch.float32).unsqueeze(1)
    inv = torch.exp(torch.arange(0, d_model, 2, dtype=torch.float32) * (-math.log(10000.0) / d_model))
    pe = torch.zeros(length, d_model)
    pe[:, 0::2] = torch.sin(pos * inv)
    pe[:, 1::2] = torch.cos(pos * inv)
    return pe


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.q_proj = Linear(d_model, d_model)
        self.k_proj = Linear(d_model, d_model)
        self.v_proj = Linear(d_model, d_model)
        self.o_proj = Linear(d_model, d_model)

    def split(self, x):  # [B, T, d] -> [B, heads, T, head_dim]
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.head_dim).transpose(1, 2)

    def forward(self, query, memory, mask):
        """query [B, Tq, d], memory [B, Tk, d], mask [B or 1, 1 or Tq, Tk] (True = may attend).
        Returns output [B, Tq, d] and attention weights [B, heads, Tq, Tk]."""
        return self.attend(query, *self.keys_values(memory), mask)

    def keys_values(self, memory):
        """memory [B, Tk, d] -> keys and values [B, heads, Tk, head_dim] (what a decoder caches)."""
        return self.split(self.k_proj(memory)), self.split(self.v_proj(memory))

    def attend(self, query, k, v, mask):
        q = self.split(self.q_proj(query))
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(~mask.unsqueeze(1), float("-inf"))
        weights = torch.softmax(scores.float(), dim=-1).to(v.dtype)
        out = (weights @ v).transpose(1, 2).reshape(query.shape)
        return self.o_proj(out), weights


class FeedForward(nn.Module):
    def __init__(self, d_model, d_ff):
        super().__init__()
        self.fc1 = Linear(d_model, d_ff)
        self.fc2 = Linear(d_ff, d_model)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


class Sublayer(nn.Module):
    """Residual + layer norm around one function, pre- or post-norm."""

    def __init__(self, d_model, pre_norm, eps, dropout):
        super().__init__()
        self.norm = nn.LayerNorm(d_model, eps=eps)
        self.pre_norm = pre_norm
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, fn):
        if self.pre_norm:
            return x + self.dropout(fn(self.norm(x)))
        return self.norm(x + self.dropout(fn(x)))


class EncoderLayer(nn.Module):
    def __init__(self, cfg, dropout):
        super().__init__()
        d, pre, eps = cfg["d_model"], cfg["norm"] == "pre", cfg["norm_eps"]
        self.self_attn = MultiHeadAttention(d, cfg["n_heads"])
        self.ffn = FeedForward(d, cfg["d_ff"])
        self.sub1 = Sublayer(d, pre, eps, dropout)
        self.sub2 = Sublayer(d, pre, eps, dropout)

    def forward(self, x, src_mask):
        x = self.sub1(x, lambda h: self.self_attn(h, h, src_mask)[0])
        return self.sub2(x, self.ffn)


class DecoderLayer(nn.Module):
    def __init__(self, cfg, dropout):
        super().__init__()
        d, pre, eps = cfg["d_model"], cfg["norm"] == "pre", cfg["norm_eps"]
        self.self_attn = MultiHeadAttention(d, cfg["n_heads"])
        self.cross_attn = MultiHeadAttention(d, cfg["n_heads"])
        self.ffn = FeedForward(d, cfg["d_ff"])
        self.sub1 = Sublayer(d, pre, eps, dropout)
        self.sub2 = Sublayer(d, pre, eps, dropout)
        self.sub3 = Sublayer(d, pre, eps, dropout)

    def forward(self, y, memory, self_mask, cross_mask):
        y = self.sub1(y, lambda h: self.self_attn(h, h, self_mask)[0])
        attn = {}

        def cross(h):
            out, attn["weights"] = self.cross_attn(h, memory, cross_mask)
            return out

        y = self.sub2(y, cross)
        return self.sub3(y, self.ffn), attn["weights"]

    def step(self, y, cache, cross_mask):
        """One decoding step for the newest position only: y [B, 1, d]. cache holds this layer's
        self-attention keys/values of the earlier positions (grown here) and the cross-attention
        keys/values of the encoder output (computed once). Same maths as forward() on the whole
        prefix, without recomputing the earlier positions."""
        def self_attn(h):
            k, v = self.self_attn.keys_values(h)
            if "k" in cache:
                k, v = torch.cat([cache["k"], k], dim=2), torch.cat([cache["v"], v], dim=2)
            cache["k"], cache["v"] = k, v
            return self.self_attn.attend(h, k, v, torch.ones(1, 1, k.shape[2], dtype=torch.bool, device=h.device))[0]

        attn = {}

        def cross(h):
            out, attn["weights"] = self.cross_attn.attend(h, cache["cross_k"], cache["cross_v"], cross_mask)
            return out

        y = self.sub1(y, self_attn)
        y = self.sub2(y, cross)
        return self.sub3(y, self.ffn), attn["weights"]


class Transformer(nn.Module):
    def __init__(self, cfg, dropout=0.0):
        super().__init__()
        self.cfg = dict(cfg)
        d = cfg["d_model"]
        self.embed = nn.Embedding(cfg["vocab_size"], d)
        nn.init.normal_(self.embed.weight, std=d ** -0.5)
        self.encoder_layers = nn.ModuleList(EncoderLayer(cfg, dropout) for _ in range(cfg["encoder_layers"]))
        self.decoder_layers = nn.ModuleList(DecoderLayer(cfg, dropout) for _ in range(cfg["decoder_layers"]))
        pre = cfg["norm"] == "pre"
        self.encoder_norm = nn.LayerNorm(d, eps=cfg["norm_eps"]) if pre else None
        self.decoder_norm = nn.LayerNorm(d, eps=cfg["norm_eps"]) if pre else None
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("positions", sinusoid_positions(cfg["max_length"] + 1, d), persistent=False)
        self.quantized = False

    def set_quantized(self, on):
        """Switch every Linear and the tied embedding to the engine's int8 arithmetic."""
        self.quantized = on
        for m in self.modules():
            if isinstance(m, Linear):
                m.quantized = on

    def embed_weight(self):
        if not self.quantized:
            return self.embed.weight
        q, s = quantize_rows(self.embed.weight.float())
        return (q * s.unsqueeze(-1)).to(self.embed.weight.dtype)

    def embed_tokens(self, tokens, offset=0):
        d = self.cfg["d_model"]
        x = F.embedding(tokens, self.embed_weight()) * math.sqrt(d)
        x = x + self.positions[offset: offset + tokens.shape[1]]
        return self.dropout(x)

    def encode(self, src):
        """src [B, S] token ids (padded with pad_id) -> memory [B, S, d], src_mask [B, 1, S]."""
        src_mask = (src != self.cfg["pad_id"]).unsqueeze(1)
        x = self.embed_tokens(src)
        for layer in self.encoder_layers:
            x = layer(x, src_mask)
        if self.encoder_norm is not None:
            x = self.encoder_norm(x)
        return x, src_mask

    def decode(self, tgt_in, memory, src_mask):
        """tgt_in [B, T] (starting with bos) -> hidden [B, T, d] and the cross-attention weights
        of every decoder layer (list of [B, heads, T, S])."""
        t = tgt_in.shape[1]
        causal = torch.ones(t, t, dtype=torch.bool, device=tgt_in.device).tril().unsqueeze(0)
        y = self.embed_tokens(tgt_in)
        cross = []
        for layer in self.decoder_layers:
            y, w = layer(y, memory, causal, src_mask)
            cross.append(w)
        if self.decoder_norm is not None:
            y = self.decoder_norm(y)
        return y, cross

    def logits(self, hidden):
        if self.quantized:
            return int8_matmul(hidden, self.embed.weight)
        return hidden @ self.embed.weight.t()

    def forward(self, src, tgt_in):
        memory, src_mask = self.encode(src)
        hidden, _ = self.decode(tgt_in, memory, src_mask)
        return self.logits(hidden)

    def start_cache(self, memory):
        """Per decoder layer: the cross-attention keys/values of the encoder output, computed once
        per sentence; decode_step() adds the self-attention keys/values as it goes."""
        caches = []
        for layer in self.decoder_layers:
            k, v = layer.cross_attn.keys_values(memory)
            caches.append({"cross_k": k, "cross_v": v})
        return caches

    def decode_step(self, tokens, position, caches, src_mask):
        """The next-token logits [B, vocab] after feeding tokens [B] (the previous outputs, bos
        first) at this position, and each decoder layer's cross-attention weights [B, heads, S];
        caches from start_cache(), updated in place."""
        y = self.embed_tokens(tokens.unsqueeze(1), offset=position)
        cross = []
        for layer, cache in zip(self.decoder_layers, caches):
            y, w = layer.step(y, cache, src_mask)
            cross.append(w[:, :, 0])
        if self.decoder_norm is not None:
            y = self.decoder_norm(y)
        return self.logits(y[:, 0]), cross

    @staticmethod
    def select_cache(caches, rows):
        """Keeps (and reorders, repeats) the batch rows `rows` of every cache: a beam's survivors."""
        return [{k: v.index_select(0, rows) for k, v in cache.items()} for cache in caches]

    @torch.no_grad()
    def greedy(self, src, max_len_a=1.5, max_len_b=10, cached=False):
        """Greedy decoding of a batch. Returns token lists without bos/eos. By default it
        recomputes the whole decoder each step: the simple, obviously correct reference the
        engine's cached decoder and cached=True (the same result, ~O(T) instead of O(T^2) decoder
        work, for validation and evaluation) are tested against."""
        memory, src_mask = self.encode(src)
        b = src.shape[0]
        src_len = src_mask.sum(-1).view(-1)
        limit = torch.clamp((src_len.float() * max_len_a + max_len_b).long(), max=self.cfg["max_length"])
        ys = torch.full((b, 1), self.cfg["bos_id"], dtype=torch.long, device=src.device)
        done = torch.zeros(b, dtype=torch.bool, device=src.device)
        caches = self.start_cache(memory) if cached else None
        for step in range(int(limit.max())):
            if cached:
                nxt = self.decode_step(ys[:, -1], step, caches, src_mask)[0].float().argmax(-1)
            else:
                hidden, _ = self.decode(ys, memory, src_mask)
                nxt = self.logits(hidden[:, -1]).float().argmax(-1)
            nxt = torch.where(done, torch.full_like(nxt, self.cfg["pad_id"]), nxt)
            ys = torch.cat([ys, nxt.unsqueeze(1)], dim=1)
            done |= (nxt == self.cfg["eos_id"]) | (step + 1 >= limit)
            if bool(done.all()):
                break
        out = []
        for row in ys[:, 1:].tolist():
            toks = []
            for t in row:
                if t in (self.cfg["eos_id"], self.cfg["pad_id"]):
                    break
                toks.append(t)
            out.append(toks)
        return out

    @torch.no_grad()
    def beam_search(self, src, beam=4, alpha=0.6, beta=0.1, alignment_layer=-1, max_len_a=1.5, max_len_b=10,
                    nbest=1, trace=None):
        """Beam search by the engine's rules (engine/search/beam_search.cpp), the reference its beam
        search is tested against; one sentence at a time, over the cached decoder. beam >= 2.

        Per step, each sentence's 2*beam best (hypothesis, token) extensions by summed log-probability
        are taken in order: one ending in eos (or reaching the length limit) is finished and scored
        log_prob / ((5 + length) / 6)^alpha + beta * sum_j log(min(coverage_j, 1)), where coverage_j
        is the attention source token j received from the alignment layer (mean over heads); the
        others continue until `beam` are alive. A sentence is done once `beam` have finished and no
        alive one can still beat the best (log-probabilities only fall). Returns, per sentence, its
        `nbest` best finished hypotheses: dicts of tokens (ending with eos if the model ended it),
        score and log_prob. With a list as `trace`, appends per sentence the smallest gap between
        a taken and a passed-over candidate, or between the two best scores: where it is tiny, float
        rounding may legitimately decide differently (the parity tests know it)."""
        cfg = self.cfg
        layer = alignment_layer if 0 <= alignment_layer < cfg["decoder_layers"] else cfg["decoder_layers"] - 1
        cover = beta != 0.0

        def length_penalty(n):
            return 1.0 if alpha == 0.0 else ((5.0 + n) / 6.0) ** alpha

        def coverage_penalty(coverage):
            return beta * float(torch.log(coverage.clamp(1e-6, 1.0)).sum()) if cover else 0.0

        memory, src_mask = self.encode(src)
        results = []
        for i in range(src.shape[0]):
            n = int(src_mask[i].sum())  # source tokens, eos included
            mask = src_mask[i:i + 1, :, :n]
            caches = self.start_cache(memory[i:i + 1, :n])
            limit = max(1, min(int(math.floor(n * max_len_a)) + max_len_b, cfg["max_length"]))
            alive = [{"tokens": [], "log_prob": 0.0, "coverage": torch.zeros(n)}]
            gap = math.inf
            finished = []
            inputs = torch.tensor([cfg["bos_id"]], device=src.device)
            while alive:
                logits, cross = self.decode_step(inputs, len(alive[0]["tokens"]), caches, mask)
                logits = logits.float()
                parent_lp = torch.tensor([a["log_prob"] for a in alive], dtype=torch.float32, device=src.device)
                log_probs = logits + (parent_lp - torch.logsumexp(logits, dim=-1)).unsqueeze(-1)
                attention = cross[layer].float().mean(dim=1).cpu()  # [rows, n]
                values, flat = log_probs.view(-1).topk(2 * beam + 1)
                survivors, rows = [], []
                for k, (value, index) in enumerate(zip(values.tolist(), flat.tolist())):
                    if len(survivors) >= beam or k == 2 * beam:
                        gap = min(gap, values[k - 1].item() - value)
                        break
                    row, token = divmod(index, cfg["vocab_size"])
                    hyp = {"tokens": alive[row]["tokens"] + [token], "log_prob": value,
                           "coverage": alive[row]["coverage"] + attention[row] if cover else None}
                    if token == cfg["eos_id"] or len(hyp["tokens"]) >= limit:
                        hyp["score"] = value / length_penalty(len(hyp["tokens"])) + (
                            coverage_penalty(hyp["coverage"]) if cover else 0.0)
                        finished.append(hyp)
                    else:
                        survivors.append(hyp)
                        rows.append(row)
                if len(finished) >= beam:
                    best = max(h["score"] for h in finished)
                    if all(h["log_prob"] / length_penalty(limit) <= best for h in survivors):
                        survivors = []
                if not survivors:
                    break
                caches = self.select_cache(caches, torch.tensor(rows, device=src.device))
                inputs = torch.tensor([h["tokens"][-1] for h in survivors], device=src.device)
                alive = survivors
            finished.sort(key=lambda h: -h["score"])  # stable, as the engine's stable_sort
            if trace is not None:
                trace.append(min(gap, finished[0]["score"] - finished[1]["score"]) if len(finished) > 1 else gap)
            results.append([{"tokens": h["tokens"], "score": h["score"], "log_prob": h["log_prob"]}
                            for h in finished[:max(1, nbest)]])
        return results


def count_parameters(model):
    return sum(p.numel() for p in model.parameters())
