"""The word lists the engine recases sentences in capitals or Title Case with (engine/text/casing.h),
counted on the training corpus and stored in the model files (engine/FORMAT.md, truecase.<lang>).

  python3 truecase.py build --corpus ../shared/corpus --out truecase.json
  python3 truecase.py add --model weights/en-de/model.nmt --table truecase.json --out weights/en-de/model.nmt
  python3 truecase.py measure --corpus ../shared/corpus --nmt build/nmt --weights weights [--lines 300]

build: every word of both sides of the training pairs (corpus/train/*.tsv.gz) is counted in the form
it is written, except the first word of a sentence (its capital says nothing). A word goes in the
list when its most frequent form is not all lower case ("Sitzung", "NASA", "iPhone") and it was seen
at least MIN_COUNT times: 5 keeps the German list at ~33k words (~350 kB) and recases 89.6-94.9% of
the dev sets' words as written (2: 91.1-95.4%, 800 kB; 20: 86.6-93.9%, 95 kB). Two words one space
apart go in too (a line with a space) where their most frequent form is not what their own forms
give: "New York" (not "new York"), "dass sie" (not "dass Sie": the formal "Sie" is the more frequent
word).

measure: the dev sources written in capitals and (English) in Title Case, translated by the engine as written
(--keep-case) and recased (the default), BLEU on lower-cased text against the references; and the
original sources both ways (what recasing costs ordinary text).
"""
import argparse
import collections
import glob
import gzip
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import copy_model_file  # noqa: E402

LANGUAGES = ("en", "de")
MIN_COUNT = 5
WORD = re.compile(r"\w+")
SENTENCE_END = tuple(".!?:\"'„“”»«")


def count_forms(corpus, lines_per_file=None, pairs=None):
    """{lang: Counter(word as written)} over the training pairs, sentence-initial words left out.
    With `pairs` ({lang: Counter}), also two words one space apart ("New York"), the first not
    sentence-initial."""
    counts = {lang: collections.Counter() for lang in LANGUAGES}
    for path in sorted(glob.glob(os.path.join(corpus, "train", "*.tsv.gz"))):
        with gzip.open(path, "rt", encoding="utf-8") as f:
            for i, line in enumerate(f):
                if lines_per_file is not None and i >= lines_per_file:
                    break
                parts = line.rstrip("\n").split("\t")
                if len(parts) < 2:
                    continue
                for lang, text in zip(LANGUAGES, parts):
                    words = list(WORD.finditer(text))
                    for k, m in enumerate(words):
                        before = text[:m.start()].rstrip()
                        if k == 0 or before.endswith(SENTENCE_END):
                            continue
                        counts[lang][m.group(0)] += 1
                        if pairs is not None and k + 1 < len(words) and text[m.end():words[k + 1].start()] == " ":
                            pairs[lang][m.group(0) + " " + words[k + 1].group(0)] += 1
    return counts


def usual_forms(counter, min_count=MIN_COUNT):
    """The words whose most frequent form is not all lower case, seen min_count times or more, sorted."""
    by_lower = collections.defaultdict(collections.Counter)
    for word, n in counter.items():
        by_lower[word.lower()][word] += n
    forms = []
    for lower, c in by_lower.items():
        form, _ = c.most_common(1)[0]
        # the engine's case mapping keeps the length in bytes; a word whose lower case does not is left out
        if form != lower and sum(c.values()) >= min_count and len(lower.encode()) == len(form.encode()):
            forms.append(form)
    return sorted(forms)


def usual_pairs(pair_counter, forms, min_count=MIN_COUNT):
    """Two-word forms ("New York", "dass sie") seen min_count times or more whose most frequent form
    is not what the words' own usual forms (`forms`, usual_forms' list) would give ("new York", "dass
    Sie"), sorted."""
    usual = {f.lower(): f for f in forms}
    by_lower = collections.defaultdict(collections.Counter)
    for pair, n in pair_counter.items():
        by_lower[pair.lower()][pair] += n
    out = []
    for lower, c in by_lower.items():
        if sum(c.values()) < min_count:
            continue
        form, _ = c.most_common(1)[0]
        first, second = lower.split(" ")
        guess = usual.get(first, first) + " " + usual.get(second, second)
        if form != guess and len(lower.encode()) == len(form.encode()):
            out.append(form)
    return sorted(out)


def build(corpus, min_count=MIN_COUNT):
    pairs = {lang: collections.Counter() for lang in LANGUAGES}
    counts = count_forms(corpus, pairs=pairs)
    forms = {}
    for lang in LANGUAGES:
        words = usual_forms(counts[lang], min_count)
        forms[lang] = words + usual_pairs(pairs[lang], words, min_count)
    return {"min_count": min_count, "forms": forms}


def tensor_of(forms):
    import numpy as np
    return np.frombuffer("\n".join(forms).encode("utf-8"), dtype=np.uint8).copy()


def add(model_in, model_out, table):
    """model_in with tensors truecase.en and truecase.de added (or replaced) and provenance["truecase"];
    everything else kept."""
    copy_model_file(model_in, model_out, {f"truecase.{lang}": tensor_of(table["forms"][lang]) for lang in LANGUAGES},
                    {"truecase": {"min_count": table["min_count"],
                                  "words": {lang: len(table["forms"][lang]) for lang in LANGUAGES}}})


def title_case(line):
    return WORD.sub(lambda m: m.group(0)[:1].upper() + m.group(0)[1:], line)


def measure(corpus, nmt, weights, lines, beam=4):
    from dev_sets import load_dev
    from engine_cli import translate
    from metrics import bleu
    rows = []
    for src, tgt in (("en", "de"), ("de", "en")):
        model = os.path.join(weights, f"{src}-{tgt}", "model.nmt")
        for dev in ("flores-dev", "tatoeba-dev"):
            sources, refs = load_dev(os.path.join(corpus, "dev", f"{dev}.en-de.tsv"), src)
            sources, refs = sources[:lines], refs[:lines]
            refs = [r.lower() for r in refs]
            row = {"direction": f"{src}-{tgt}", "set": dev, "lines": len(sources)}
            variants = [("as written", sources), ("capitals", [s.upper() for s in sources]),
                        ("lower case", [s.lower() for s in sources])]
            if src == "en":  # the engine recases Title Case in English only
                variants.append(("title", [title_case(s) for s in sources]))
            for name, text in variants:
                for mode in ("keep", "recased"):
                    hyps, _ = translate(nmt, model, text, beam, keep_case=(mode == "keep"))
                    row[f"{name}, {mode}"] = round(bleu([h.lower() for h in hyps], refs), 2)
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="count the training corpus and write the word lists (.json)")
    b.add_argument("--corpus", required=True, help="the corpus folder (its train/*.tsv.gz)")
    b.add_argument("--min-count", type=int, default=MIN_COUNT)
    b.add_argument("--out", required=True)
    a = sub.add_parser("add", help="store the word lists in a copy of a model file")
    a.add_argument("--model", required=True)
    a.add_argument("--table", required=True)
    a.add_argument("--out", required=True)
    m = sub.add_parser("measure", help="BLEU of dev sources in capitals / Title Case, as written and recased")
    m.add_argument("--corpus", required=True)
    m.add_argument("--nmt", required=True)
    m.add_argument("--weights", required=True, help="folder with en-de/model.nmt and de-en/model.nmt")
    m.add_argument("--lines", type=int, default=300)
    m.add_argument("--out", help="write the rows as JSON here too")
    args = ap.parse_args()
    if args.command == "build":
        table = build(args.corpus, args.min_count)
        with open(args.out, "w", encoding="utf-8") as f:
            json.dump(table, f, ensure_ascii=False)
        print({lang: len(v) for lang, v in table["forms"].items()})
    elif args.command == "add":
        with open(args.table, encoding="utf-8") as f:
            add(args.model, args.out, json.load(f))
    else:
        rows = measure(args.corpus, args.nmt, args.weights, args.lines)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
