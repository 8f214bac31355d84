"""Evaluate one direction: BLEU and chrF on the dev sets, for the PyTorch fp32 model and for the C++
engine running the shipped int8 file (greedy and beam search), and with --f32-model-file the engine
running the same weights unquantized (beam search: the fp32 beam score, and the beam-search cost of
int8). The engine's f32 path matches PyTorch to 1e-4 in the logits (tests/engine/test_model.cpp).

  python3 evaluate.py --dev-dir ../shared/corpus/dev --src en --tgt de \
      --model-file weights/en-de/model.nmt --checkpoint work/en-de/model.pt --nmt build/nmt \
      --out weights/en-de/scores.json [--f32-model-file work/en-de/model.f32.nmt] \
      [--sample-dir tests/fixtures/quality]

Writes the scores as JSON; with --sample-dir also writes the fixed regression sample (the first 100
sentences of flores-dev and tatoeba-dev) and the engine's BLEU on it, which tests/weights checks.
"""
import argparse
import json
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_cli  # noqa: E402
from dev_sets import EXACT_MATCH_SETS, dev_path, load_dev  # noqa: E402
from metrics import bleu, chrf, exact_match  # noqa: E402
from model import Transformer  # noqa: E402
from train import spm_decode, spm_encode  # noqa: E402

# short-labels (issue 54): 600 labels and headings drawn from the training sources, in tests/fixtures/dev
# (dev_sets.dev_path); scored also by exact match, the share of labels that come out as the reference
DEV_SETS = ["flores-dev", "tatoeba-dev", "multi30k-test2016", "short-labels"]
SAMPLE = {"flores-dev": 100, "tatoeba-dev": 100}


def engine_translate(nmt, model_file, lines, beam, reverse_model=None):
    """One sentence a line in, one translation a line out; with reverse_model, the beam's
    candidates are reranked by it (the engine's default weight)."""
    return engine_cli.translate(nmt, model_file, lines, beam, reverse_model=reverse_model)


def engine_sentences(nmt, src_lang, lines):
    """The sentences the engine cuts each line into (its segmenter splits a line after . ! ? and
    the like): a list of source sentences per line."""
    return engine_cli.segment(nmt, src_lang, lines)


@torch.no_grad()
def torch_translate(model, sp_model, lines, batch=64):
    ids = [x[: model.cfg["max_length"] - 1] for x in spm_encode(sp_model, lines)]
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    out = [None] * len(ids)
    for k in range(0, len(order), batch):
        chunk = order[k: k + batch]
        width = max(len(ids[i]) for i in chunk) + 1
        src = torch.full((len(chunk), width), model.cfg["pad_id"], dtype=torch.long)
        for r, i in enumerate(chunk):
            src[r, : len(ids[i]) + 1] = torch.tensor(ids[i] + [model.cfg["eos_id"]])
        for i, toks in zip(chunk, model.greedy(src, cached=True)):
            out[i] = toks
    return spm_decode(sp_model, out)


def torch_translate_sentences(model, sp_model, sentences_per_line):
    """PyTorch greedy on the engine's sentences, joined back into lines, so that comparing it with
    the engine measures int8 alone. Decoding whole lines instead scored 0.56 BLEU lower on flores-dev
    de->en (151 of its 997 lines hold several sentences; a small model translates them better one
    by one), which once looked like int8 beating fp32."""
    flat = [s for sentences in sentences_per_line for s in sentences]
    hyps = torch_translate(model, sp_model, flat) if flat else []
    lines, k = [], 0
    for sentences in sentences_per_line:
        lines.append(" ".join(hyps[k: k + len(sentences)]))
        k += len(sentences)
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev-dir", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--tgt", required=True)
    ap.add_argument("--model-file", required=True)
    ap.add_argument("--checkpoint", help="model.pt for the fp32 PyTorch scores")
    ap.add_argument("--f32-model-file", help="the same model exported with export.py --f32, for the fp32 beam score")
    ap.add_argument("--reverse-model-file", help="the other direction's shipped model, for the reranked beam score")
    ap.add_argument("--spm", help="spm.model for the PyTorch path")
    ap.add_argument("--keep-fp32-from", metavar="SCORES_JSON",
                    help="a direction whose weights did not change (only its reverse model did): take the fp32 "
                         "scores from its earlier scores.json, since its model.pt may be gone")
    ap.add_argument("--nmt", default="build/nmt")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sample-dir")
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)

    model = None
    if args.checkpoint and not args.spm:  # the PyTorch path tokenizes with the model file's own vocabulary
        from model_file import read_model_file
        import tempfile
        _, tensors = read_model_file(args.model_file)
        args.spm = os.path.join(tempfile.mkdtemp(), "spm.model")
        with open(args.spm, "wb") as f:
            f.write(tensors["tokenizer.spm"].tobytes())
    if args.checkpoint:
        ck = torch.load(args.checkpoint, map_location="cpu", weights_only=False)
        model = Transformer(ck["config"])
        model.load_state_dict(ck["state_dict"])
        model.eval()

    scores = {"direction": f"{args.src}-{args.tgt}", "sets": {}}
    earlier = {}
    if args.keep_fp32_from:
        with open(args.keep_fp32_from, encoding="utf-8") as f:
            earlier = json.load(f)["sets"]
        scores["fp32_scores_from"] = "an earlier evaluation of the same weights"
    for name in DEV_SETS:
        src, ref = load_dev(dev_path(args.dev_dir, name), args.src)
        row = {"sentences": len(src)}
        for beam, label in ((4, "int8_beam4"), (1, "int8_greedy")):
            hyps, seconds = engine_translate(args.nmt, args.model_file, src, beam)
            row[label] = {"bleu": round(bleu(hyps, ref), 2), "chrf": round(chrf(hyps, ref), 2),
                          "sentences_per_s": round(len(src) / seconds, 1)}
            if name in EXACT_MATCH_SETS:
                row[label]["exact_match"] = round(exact_match(hyps, ref), 2)
            if beam == 4:
                examples = [{"source": s, "translation": h, "reference": r} for s, h, r in zip(src[:3], hyps[:3], ref[:3])]
                row["examples"] = examples
        if args.reverse_model_file:
            hyps, seconds = engine_translate(args.nmt, args.model_file, src, 4, args.reverse_model_file)
            row["int8_beam4_rerank"] = {"bleu": round(bleu(hyps, ref), 2), "chrf": round(chrf(hyps, ref), 2),
                                        "sentences_per_s": round(len(src) / seconds, 1)}
        if model is not None:
            hyps = torch_translate_sentences(model, args.spm, engine_sentences(args.nmt, args.src, src))
            row["fp32_greedy"] = {"bleu": round(bleu(hyps, ref), 2), "chrf": round(chrf(hyps, ref), 2)}
            row["quantization_loss_bleu"] = round(row["fp32_greedy"]["bleu"] - row["int8_greedy"]["bleu"], 2)
        if args.f32_model_file:
            hyps, _ = engine_translate(args.nmt, args.f32_model_file, src, 4)
            row["fp32_beam4"] = {"bleu": round(bleu(hyps, ref), 2), "chrf": round(chrf(hyps, ref), 2)}
            row["quantization_loss_bleu_beam4"] = round(row["fp32_beam4"]["bleu"] - row["int8_beam4"]["bleu"], 2)
        for label, loss, int8 in (("fp32_greedy", "quantization_loss_bleu", "int8_greedy"),
                                  ("fp32_beam4", "quantization_loss_bleu_beam4", "int8_beam4")):
            if label not in row and label in earlier.get(name, {}):
                row[label] = earlier[name][label]
                row[loss] = round(row[label]["bleu"] - row[int8]["bleu"], 2)
        scores["sets"][name] = row
        print(json.dumps({name: {k: v for k, v in row.items() if k != "examples"}}), flush=True)

    if args.sample_dir:
        os.makedirs(args.sample_dir, exist_ok=True)
        sample_src, sample_ref = [], []
        for name, n in SAMPLE.items():
            src, ref = load_dev(os.path.join(args.dev_dir, f"{name}.en-de.tsv"), args.src)
            sample_src += src[:n]
            sample_ref += ref[:n]
        base = os.path.join(args.sample_dir, f"{args.src}-{args.tgt}")
        with open(base + ".src", "w", encoding="utf-8") as f:
            f.write("\n".join(sample_src) + "\n")
        with open(base + ".ref", "w", encoding="utf-8") as f:
            f.write("\n".join(sample_ref) + "\n")
        hyps, _ = engine_translate(args.nmt, args.model_file, sample_src, 4)
        scores["regression_sample"] = {"sentences": len(sample_src), "beam": 4, "bleu": round(bleu(hyps, sample_ref), 2)}
        if args.reverse_model_file:
            hyps, _ = engine_translate(args.nmt, args.model_file, sample_src, 4, args.reverse_model_file)
            scores["regression_sample"]["bleu_rerank"] = round(bleu(hyps, sample_ref), 2)
    with open(args.out, "w") as f:
        json.dump(scores, f, indent=1, ensure_ascii=False)


if __name__ == "__main__":
    main()
