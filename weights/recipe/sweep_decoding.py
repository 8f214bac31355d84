"""Tune the engine's decoding options on the dev sets: BLEU and chrF of one shipped model file for
every beam size x length penalty (GNMT alpha) x coverage penalty (GNMT beta) x reverse-model weight
setting, with the C++ engine (`nmt --beam B --length-penalty A --coverage-penalty C [--reverse-model
F --reverse-weight W]`). Needs no PyTorch. Prints one JSON line per setting and writes them all with
--out; the card records what the defaults were chosen from.

  python3 sweep_decoding.py --dev-dir ../shared/corpus/dev --src en --tgt de \
      --model-file weights/en-de/model.nmt --nmt build/nmt --beams 4,6 --alphas 0.6,1.0 \
      [--betas 0,0.2] [--reverse-model weights/de-en/model.nmt --reverse-weights 0,0.3]
      [--sets flores-dev,tatoeba-dev] [--out sweep.json]
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_cli  # noqa: E402
from dev_sets import load_dev  # noqa: E402
from metrics import bleu, chrf  # noqa: E402


def translate(nmt, model_file, lines, beam, alpha, beta, reverse_model=None, reverse_weight=None):
    return engine_cli.translate(nmt, model_file, lines, beam, alpha, beta, reverse_model, reverse_weight)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev-dir", required=True)
    ap.add_argument("--src", required=True)
    ap.add_argument("--tgt", required=True)
    ap.add_argument("--model-file", required=True)
    ap.add_argument("--nmt", default="build/nmt")
    ap.add_argument("--beams", default="4", help="comma-separated beam sizes")
    ap.add_argument("--alphas", default="0.6", help="comma-separated length penalties")
    ap.add_argument("--betas", default="0.1", help="comma-separated coverage penalties")
    ap.add_argument("--reverse-model", help="the other direction's model file, to rerank with")
    ap.add_argument("--reverse-weights", default="0.3", help="comma-separated reverse-model weights (with --reverse-model)")
    ap.add_argument("--sets", default="flores-dev,tatoeba-dev")
    ap.add_argument("--out")
    args = ap.parse_args()

    beams = [int(b) for b in args.beams.split(",")]
    alphas = [float(a) for a in args.alphas.split(",")]
    betas = [float(b) for b in args.betas.split(",")]
    weights = [float(w) for w in args.reverse_weights.split(",")] if args.reverse_model else [None]
    rows = []
    for name in args.sets.split(","):
        src, ref = load_dev(os.path.join(args.dev_dir, f"{name}.en-de.tsv"), args.src)
        for beam in beams:
            for alpha in alphas:
                for beta in betas:
                    for weight in weights:
                        hyps, seconds = translate(args.nmt, args.model_file, src, beam, alpha, beta,
                                                  args.reverse_model, weight)
                        ratio = sum(len(h.split()) for h in hyps) / max(1, sum(len(r.split()) for r in ref))
                        row = {"set": name, "beam": beam, "length_penalty": alpha, "coverage_penalty": beta,
                               "reverse_weight": weight,
                               "bleu": round(bleu(hyps, ref), 2), "chrf": round(chrf(hyps, ref), 2),
                               "length_ratio": round(ratio, 3), "sentences_per_s": round(len(src) / seconds, 1)}
                        print(json.dumps(row), flush=True)
                        rows.append(row)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump({"model_file": args.model_file, "src": args.src, "tgt": args.tgt, "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
