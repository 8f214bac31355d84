"""Make the engine's parity fixtures: tiny models + golden outputs from the PyTorch reference.

  python3 make_fixture.py --corpus ../shared/corpus --out tests/fixtures [--seconds 90]
  python3 make_fixture.py --reuse-models --out tests/fixtures   # new golden outputs, same models

Writes (all small, committed under tests/fixtures/):
  tiny-spm.model        a 1,000-piece SentencePiece vocabulary (spm_train on a corpus sample)
  tiny.nmt              a tiny pre-norm en->de model, briefly trained, int8 weights
  tiny-f32.nmt          the same model with f32 weight matrices
  tiny-post-f32.nmt     an untrained post-norm model, f32 (covers the other norm placement)
  tiny_golden.json      per model: sentences, source ids, PyTorch greedy output ids (f32, or the
                        int8 simulation for int8 files), the beam-4 result (model.beam_search: tokens,
                        score, and the closest call it made), and where the teacher-forced logits lie
  tiny_logits.bin       those logits, float32, rows of vocab_size
The tiny model translates badly (seconds of training) but really: it is the reference the C++
engine must reproduce, not a product.
"""
import argparse
import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from export import build_tensors  # noqa: E402
from model_file import write_model_file  # noqa: E402
from model import Transformer  # noqa: E402

TINY = {"d_model": 32, "n_heads": 4, "d_ff": 64, "encoder_layers": 2, "decoder_layers": 2, "vocab_size": 1000,
        "max_length": 64, "norm": "pre", "norm_eps": 1e-5, "pad_id": 0, "unk_id": 1, "bos_id": 2, "eos_id": 3}

SENTENCES = [
    "Hello!",
    "I love you.",
    "Where is the station?",
    "Tom doesn't like cats.",
    "The weather is nice today.",
    "Can you help me, please?",
    "She bought three apples and a loaf of bread.",
    "We will meet at the museum on Monday morning.",
    "Why?",
    "My brother's car is red, but mine is blue.",
    "It's 5 o'clock.",
    "This is a longer sentence, with commas, numbers like 1,234.5 and a question at the end?",
]


def spm_encode(model, lines):
    out = subprocess.run(["spm_encode", f"--model={model}", "--output_format=id"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [[int(t) for t in line.split()] for line in out.split("\n")[: len(lines)]]


def train_tiny(model, pairs, seconds, cfg):
    opt = torch.optim.Adam(model.parameters(), lr=3e-3, betas=(0.9, 0.98))
    start, step = time.time(), 0
    rng = random.Random(0)
    while time.time() - start < seconds:
        batch = rng.sample(pairs, 64)
        s_len = max(len(s) for s, _ in batch) + 1
        t_len = max(len(t) for _, t in batch) + 1
        src = torch.zeros(len(batch), s_len, dtype=torch.long)
        tin = torch.zeros(len(batch), t_len, dtype=torch.long)
        tout = torch.zeros(len(batch), t_len, dtype=torch.long)
        for i, (s, t) in enumerate(batch):
            src[i, : len(s) + 1] = torch.tensor(s + [cfg["eos_id"]])
            tin[i, : len(t) + 1] = torch.tensor([cfg["bos_id"]] + t)
            tout[i, : len(t) + 1] = torch.tensor(t + [cfg["eos_id"]])
        loss = F.cross_entropy(model(src, tin).view(-1, cfg["vocab_size"]), tout.view(-1), ignore_index=0)
        opt.zero_grad()
        loss.backward()
        opt.step()
        step += 1
    print(f"tiny model: {step} steps, last loss {float(loss):.3f}", file=sys.stderr)


@torch.no_grad()
def golden_for(model, cfg, source_ids, logits_out, logit_sentences):
    rows = []
    for k, ids in enumerate(source_ids):
        src = torch.tensor([ids + [cfg["eos_id"]]])
        out = model.greedy(src)[0]
        # top-1 minus top-2 logit at each greedy step: where this is tiny, float rounding (e.g.
        # FMA or not) may legitimately pick the other token, and the tests know it
        steps = model(src, torch.tensor([[cfg["bos_id"]] + out]))[0].float().topk(2, dim=-1).values
        entry = {"source_ids": ids, "greedy_ids": out,
                 "margins": [round(float(a - b), 6) for a, b in steps.tolist()][: len(out)]}
        # beam 4 with the engine's default length and coverage penalties
        gaps = []
        best = model.beam_search(src, beam=4, alpha=0.6, beta=0.1, trace=gaps)[0][0]
        entry["beam4"] = {"tokens": best["tokens"], "score": round(best["score"], 6), "gap": round(gaps[0], 6)}
        if k < logit_sentences:
            tin = torch.tensor([[cfg["bos_id"]] + out])
            logits = model(src, tin)[0].float().numpy()
            entry["logits_row"] = sum(len(a) for a in logits_out) // cfg["vocab_size"]
            entry["logits_rows"] = logits.shape[0]
            logits_out.append(logits.reshape(-1))
        rows.append(entry)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seconds", type=float, default=90)
    ap.add_argument("--reuse-models", action="store_true",
                    help="keep the model files in --out and only recompute the golden outputs from them")
    args = ap.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(1)
    os.makedirs(args.out, exist_ok=True)
    if args.reuse_models:
        pre, post, spm_model = load_models(args.out)
    else:
        if not args.corpus:
            ap.error("--corpus is needed to train new models (or pass --reuse-models)")
        pre, post, spm_model = make_models(args.corpus, args.out, args.seconds)
    write_golden(pre, post, spm_model, args.out)


def load_models(out):
    from model_file import read_model_file
    models = []
    for name in ("tiny-f32.nmt", "tiny-post-f32.nmt"):
        header, tensors = read_model_file(os.path.join(out, name))
        model = Transformer(header["config"]).eval()
        model.load_state_dict({k: torch.tensor(np.array(v, dtype=np.float32)) for k, v in tensors.items()
                               if k.endswith((".weight", ".bias"))})
        models.append(model)
    return models[0], models[1], os.path.join(out, "tiny-spm.model")


def make_models(corpus, out, seconds):

    pairs = []
    with gzip.open(os.path.join(corpus, "train", "tatoeba.en-de.tsv.gz"), "rt", encoding="utf-8") as f:
        for line in f:
            en, de = line.rstrip("\n").split("\t")
            pairs.append((en, de))
    random.Random(0).shuffle(pairs)
    pairs = pairs[:30000]
    spm_prefix = os.path.join(out, "tiny-spm")
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        for en, de in pairs:
            f.write(en + "\n" + de + "\n")
        spm_input = f.name
    subprocess.run(["spm_train", f"--input={spm_input}", f"--model_prefix={spm_prefix}", "--vocab_size=1000",
                    "--model_type=unigram", "--pad_id=0", "--unk_id=1", "--bos_id=2", "--eos_id=3",
                    "--minloglevel=2"], check=True)
    os.remove(spm_input)
    os.remove(spm_prefix + ".vocab")
    spm_model = spm_prefix + ".model"
    spm_bytes = open(spm_model, "rb").read()

    en_ids = spm_encode(spm_model, [p[0] for p in pairs])
    de_ids = spm_encode(spm_model, [p[1] for p in pairs])
    train_pairs = [(s[:40], t[:40]) for s, t in zip(en_ids, de_ids) if s and t]

    pre = Transformer(TINY)
    train_tiny(pre, train_pairs, seconds, TINY)
    pre.eval()
    post_cfg = dict(TINY, norm="post")
    post = Transformer(post_cfg).eval()

    langs = {"source": "en", "target": "de"}
    prov = {"purpose": "test fixture (tiny, barely trained)", "recipe": "weights/recipe/make_fixture.py"}
    sd_pre = pre.state_dict()
    write_model_file(os.path.join(out, "tiny.nmt"), TINY, langs, build_tensors(sd_pre, True), spm_bytes, prov)
    write_model_file(os.path.join(out, "tiny-f32.nmt"), TINY, langs, build_tensors(sd_pre, False), spm_bytes, prov)
    write_model_file(os.path.join(out, "tiny-post-f32.nmt"), post_cfg, langs, build_tensors(post.state_dict(), False),
                     spm_bytes, prov)
    return pre, post, spm_model


def write_golden(pre, post, spm_model, out):
    post_cfg = post.cfg
    source_ids = spm_encode(spm_model, SENTENCES)
    logits = []
    golden = {"sentences": SENTENCES, "max_length_ratio": 1.5, "max_length_offset": 10, "models": {}}
    golden["models"]["tiny-f32.nmt"] = golden_for(pre, pre.cfg, source_ids, logits, 4)
    golden["models"]["tiny-post-f32.nmt"] = golden_for(post, post_cfg, source_ids, logits, 2)
    pre.set_quantized(True)
    golden["models"]["tiny.nmt"] = golden_for(pre, pre.cfg, source_ids, logits, 0)
    np.concatenate(logits).astype(np.float32).tofile(os.path.join(out, "tiny_logits.bin"))
    with open(os.path.join(out, "tiny_golden.json"), "w") as f:
        json.dump(golden, f, indent=1)
    same = sum(a["greedy_ids"] == b["greedy_ids"] for a, b in
               zip(golden["models"]["tiny-f32.nmt"], golden["models"]["tiny.nmt"]))
    print(f"int8 simulation agrees with f32 on {same}/{len(SENTENCES)} greedy outputs", file=sys.stderr)


if __name__ == "__main__":
    main()
