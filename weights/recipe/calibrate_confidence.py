"""Calibrates the page's low-confidence threshold: which word probability (`target_word_probs` of
`nmt --alignments`, the product of a word's token probabilities) should be underlined as "the model
is unsure of this word".

A flagged word is useful when it is more often wrong than an unflagged one. Without a human
judgement of each word, "wrong" is approximated by "absent from the reference translation"
(case-insensitive, punctuation stripped from both ends; words of punctuation alone are left out,
as the page does not mark them). For each candidate threshold and each direction this reports the
share of words flagged and how often flagged and unflagged words are absent from the reference;
it picks the largest threshold at which, in both directions, flagged words are absent at least
`--min-ratio` times as often as unflagged ones while `--min-flagged`..`--max-flagged` of the
words are flagged. It also reports the quartiles of each sentence's geometric-mean token probability
(exp of the mean of log `token_probs`), which the page turns into words ("sure", "fairly sure",
"unsure"). Stdlib only; needs build/nmt.

    /usr/bin/python3 weights/recipe/calibrate_confidence.py [--lines 500] [--beam 4]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import time
import unicodedata

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from dev_sets import load_dev  # noqa: E402
from engine_cli import DEFAULT_NMT, ROOT  # noqa: E402

SETS = ("flores-dev", "tatoeba-dev")
THRESHOLDS = (0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5)


def strip_punct(word):
    """The word lower-cased, without punctuation or symbols at either end."""
    def keep(ch):
        return not unicodedata.category(ch)[0] in "PS"
    b, e = 0, len(word)
    while b < e and not keep(word[b]):
        b += 1
    while e > b and not keep(word[e - 1]):
        e -= 1
    return word[b:e].lower()


def utf16_slice(text, begin, end):
    """text[begin:end] with UTF-16 offsets, as the engine's JSON gives them."""
    return text.encode("utf-16-le")[2 * begin: 2 * end].decode("utf-16-le")


def translate_lines(nmt, model, lines, beam, chunk=100):
    """For each line: [(word, probability)] over the target words of its sentences; and every
    sentence's geometric-mean token probability."""
    out, sentence_means = [], []
    for i in range(0, len(lines), chunk):
        part = [l.replace("\n", " ") for l in lines[i: i + chunk]]
        text = "\n".join(part) + "\n"
        run = subprocess.run([nmt, "--model", model, "--beam", str(beam), "--alignments"], input=text,
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"nmt: {run.stderr.strip()}")
        r = json.loads(run.stdout)
        # source_text keeps the line breaks: line k starts after the k-th newline
        starts, at = [], 0
        for l in part:
            starts.append(at)
            at += len(l.encode("utf-16-le")) // 2 + 1
        words = [[] for _ in part]
        for s in r["sentences"]:
            k = max(j for j, b in enumerate(starts) if b <= s["source_range"][0])
            for (b, e), p in zip(s["target_words"], s["target_word_probs"]):
                words[k].append((utf16_slice(s["target"], b, e), p))
            probs = s["token_probs"]
            sentence_means.append(math.exp(sum(math.log(p) for p in probs) / len(probs)))
        out.extend(words)
        print(f"  {i + len(part)}/{len(lines)}", file=sys.stderr, flush=True)
    return out, sentence_means


def word_stats(hyp_words, refs):
    """[(probability, absent from the reference)] for every hypothesis word that is not punctuation."""
    rows = []
    for words, ref in zip(hyp_words, refs):
        ref_words = {strip_punct(w) for w in ref.split()}
        ref_words.discard("")
        for w, p in words:
            key = strip_punct(w)
            if key:
                rows.append((p, key not in ref_words))
    return rows


def table(rows, thresholds):
    """For each threshold: (flagged share, absent rate of flagged, of unflagged, ratio)."""
    out = []
    for t in thresholds:
        flagged = [a for p, a in rows if p < t]
        kept = [a for p, a in rows if p >= t]
        fa = sum(flagged) / len(flagged) if flagged else 0.0
        ka = sum(kept) / len(kept) if kept else 0.0
        out.append((t, len(flagged) / len(rows), fa, ka, fa / ka if ka else float("inf")))
    return out


def quartiles(values):
    """The 25th, 50th and 75th percentiles."""
    v = sorted(values)
    return [v[min(len(v) - 1, int(q * len(v)))] for q in (0.25, 0.5, 0.75)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nmt", default=DEFAULT_NMT)
    ap.add_argument("--dev", default=os.path.join(ROOT, "tests", "fixtures", "dev"))
    ap.add_argument("--lines", type=int, default=500, help="first N lines of each dev set, per direction")
    ap.add_argument("--beam", type=int, default=4)
    ap.add_argument("--min-ratio", type=float, default=2.0)
    ap.add_argument("--min-flagged", type=float, default=0.05)
    ap.add_argument("--max-flagged", type=float, default=0.15)
    ap.add_argument("--json", help="also write the tables here")
    args = ap.parse_args()

    results = {}
    for src, tgt in (("en", "de"), ("de", "en")):
        model = os.path.join(ROOT, "weights", f"{src}-{tgt}", "model.nmt")
        rows, means = [], []
        for name in SETS:
            sources, refs = load_dev(os.path.join(args.dev, f"{name}.en-de.tsv"), src)
            sources, refs = sources[: args.lines], refs[: args.lines]
            t0 = time.time()
            print(f"{src}->{tgt} {name}: {len(sources)} lines, beam {args.beam}", file=sys.stderr, flush=True)
            words, sentence_means = translate_lines(args.nmt, model, sources, args.beam)
            rows += word_stats(words, refs)
            means += sentence_means
            print(f"  {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
        results[f"{src}-{tgt}"] = {"words": len(rows), "absent": sum(a for _, a in rows) / len(rows),
                                   "table": table(rows, THRESHOLDS), "sentence_quartiles": quartiles(means)}

    print(f"word probability < threshold = flagged; 'absent' = the word is not in the reference "
          f"({args.lines} flores-dev + {args.lines} tatoeba-dev lines per direction, beam {args.beam})\n")
    print("| threshold | " + " | ".join(f"{d}: flagged, absent flagged / unflagged (ratio)" for d in results) + " |")
    print("|---|" + "---|" * len(results))
    chosen = None
    for i, t in enumerate(THRESHOLDS):
        cells, ok = [], True
        for d, r in results.items():
            _, share, fa, ka, ratio = r["table"][i]
            cells.append(f"{100 * share:.1f}%, {100 * fa:.0f}% / {100 * ka:.0f}% ({ratio:.2f}x)")
            ok = ok and ratio >= args.min_ratio and args.min_flagged <= share <= args.max_flagged
        if ok:
            chosen = t
        print(f"| {t} | " + " | ".join(cells) + " |")
    for d, r in results.items():
        q = ", ".join(f"{x:.3f}" for x in r["sentence_quartiles"])
        print(f"{d}: {r['words']} words, {100 * r['absent']:.1f}% absent from the reference; "
              f"sentences' geometric-mean token probability, quartiles: {q}")
    if chosen is None:
        print(f"\nno threshold flags {100 * args.min_flagged:.0f}-{100 * args.max_flagged:.0f}% of the words "
              f"with a ratio of {args.min_ratio}x or more in both directions")
    else:
        print(f"\nchosen threshold: {chosen} (the largest meeting: ratio >= {args.min_ratio}x, "
              f"{100 * args.min_flagged:.0f}-{100 * args.max_flagged:.0f}% flagged, both directions)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"results": results, "chosen": chosen, "args": vars(args)}, f, indent=1)


if __name__ == "__main__":
    main()
