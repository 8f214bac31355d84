"""The short-labels dev set (issue 54): menu items, buttons, help and page headings, headlines and
names, 1-6 English words, taken from the corpus's own sources and held out of training from then on
(prepare_data.py drops every training pair that shares a side with it).

  /usr/bin/python3 weights/recipe/make_short_labels.py --corpus ../shared/corpus \
      --out tests/fixtures/dev/short-labels.en-de.tsv

A pair qualifies when both sides look like a label: the English 1-6 words and the German 1-8, each
starting with a capital letter, no sentence end (. ! ? :), no digits, placeholders, markup, paths
or code characters, no word in capitals over 3 letters (function names like ACCRINTM), and the
pair passes prepare_data.clean_pair. One pair per English label and per German label (the first in
the corpus file), then a fixed random sample per source (QUOTA), English-German like every dev set.
"""
import argparse
import gzip
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dev_sets import label_key as key  # noqa: E402
from prepare_data import PLACEHOLDER, clean_pair  # noqa: E402

# source -> labels drawn: software UI strings (buttons, menus), software help headings, news
# headlines (human references), game labels and names. 600 in all: >= 500 per direction.
QUOTA = {"ui": 270, "docs": 120, "news-recent": 70, "news": 50, "games": 90}
SEED = 54
BAD_CHARS = re.compile(r"[0-9%{}$#&_<>/\\|=@*\[\]~^+\"“”„»«;]")
SENTENCE_END = re.compile(r"[.!?:]$")
LONG_CAPS = re.compile(r"\b[A-ZÄÖÜ]{4,}\b")


def is_label(text, max_words):
    words = text.split()
    return (1 <= len(words) <= max_words and text[0].isupper() and not SENTENCE_END.search(text)
            and not BAD_CHARS.search(text) and not PLACEHOLDER.search(text) and not LONG_CAPS.search(text))


def candidates(path):
    """The label pairs of one corpus file, one per English and per German label, in file order."""
    seen_en, seen_de, rows = set(), set(), []
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) != 2:
                continue
            en, de = parts[0].strip(), parts[1].strip()
            if not (is_label(en, 6) and is_label(de, 8)) or clean_pair(en, de) or key(en) == key(de):
                continue
            if key(en) in seen_en or key(de) in seen_de:
                continue
            seen_en.add(key(en))
            seen_de.add(key(de))
            rows.append((en, de))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    rng = random.Random(SEED)
    chosen, used_en, used_de = [], set(), set()
    for source, count in QUOTA.items():
        rows = [r for r in candidates(os.path.join(args.corpus, "train", f"{source}.en-de.tsv.gz"))
                if key(r[0]) not in used_en and key(r[1]) not in used_de]
        picked = rng.sample(rows, min(count, len(rows)))
        for en, de in picked:
            used_en.add(key(en))
            used_de.add(key(de))
        chosen += picked
        print(f"{source}: {len(picked)} of {len(rows)} candidates", file=sys.stderr)
    with open(args.out, "w", encoding="utf-8") as f:
        f.writelines(f"{en}\t{de}\n" for en, de in chosen)
    print(f"{args.out}: {len(chosen)} pairs", file=sys.stderr)


if __name__ == "__main__":
    main()
