"""The translation memory: short everyday sentences of the training corpus whose human translation the
engine gives instead of the model's, stored in the model file (engine/FORMAT.md, `memory`).

  python3 memory.py build --corpus ../shared/corpus --direction de-en --nmt build/nmt \
      --model weights/de-en/model.nmt --out de-en.memory.tsv
  python3 memory.py add --model weights/de-en/model.nmt --table de-en.memory.tsv --out weights/de-en/model.nmt

Why: the small models get everyday phrases wrong that the corpus holds word for word: "Tschüss, bis
morgen!" -> "Shut up until tomorrow.", "Alles Gute zum Geburtstag!" -> "All good for your birthday.",
"Happy birthday!" -> "Glück Geburtstag!", each in tatoeba once. Translation tools have long looked a
sentence up in a memory of human translations before translating it; this is that memory, for the
corpus's short sentences.

build: the pairs of SOURCES with at most MAX_WORDS words on the source side, grouped by the source's
key (memory_key: case, commas, spacing, curly quotes and the final marks do not count; a key of
more than one sentence is left out, since the engine looks sentences up one by one). A key's translation
is the most frequent of its translations (by their keys; ties: the first in the corpus), written as
it was most often written, unless the model's translation of the source as written is one of them
(then that one: only the typed form was wrong); translations that offer alternatives with "/"
("träum schön/träum was Schönes") are not taken. The engine (beam 4, the shipped decoding) translates one source of each key
as the corpus writes it and the key itself (as typed in lower case, without its final mark); a key
whose both translations by the model have the key of one of its human translations is left out (the
memory holds only what the model gets wrong), as are keys with digits (the engine's number rules
handle those) or a tab. If the rest is over MAX_BYTES, the shortest sources are kept
(fewest words first). Lines: "key<TAB>translation", sorted by the key's UTF-8 bytes (the engine
looks a key up by binary search). Measured on the round-23 models (weights/EXPERIMENTS.md,
"Translation memory"): with 5 words en->de kept 31,589 of 54,692 keys (1.65 MB), so 4.

The engine (engine/text/memory.h) computes the same key for a sentence; on a hit it decodes the
memory's translation through the model (forced decoding: the alignments and attention are the
model's), writes the source's final marks in place of the translation's, and marks the sentence
`memory`. `modelOnly: true` (CLI --model-only) turns it off.
"""
import argparse
import collections
import gzip
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import copy_model_file  # noqa: E402

SOURCES = ("tatoeba", "dict-sentences")
MAX_WORDS = 4
MAX_BYTES = 1_000_000  # the model file stays under 12 MB (the round-23 files are 10.5-10.7 MB)
FINAL_MARKS = ".!?\u2026 "
QUOTES = {"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u201e": '"'}
TENSOR = "memory"


def memory_key(text):
    """What a sentence is looked up by; engine/text/memory.cpp memory_key is the same function.
    Upper-case letters A-Z and U+00C0-U+00DE (not U+00D7) are lower-cased, curly quotes made straight,
    commas left out (people leave them out: "hello how are you"), runs of whitespace one space, and
    spaces and final marks (. ! ? ...) at either end removed."""
    out = []
    space = False
    for ch in text:
        if ch == ",":
            continue
        if ch.isspace():
            space = bool(out)
            continue
        if space:
            out.append(" ")
            space = False
        if "A" <= ch <= "Z" or ("\u00c0" <= ch <= "\u00de" and ch != "\u00d7"):
            ch = chr(ord(ch) + 32)
        out.append(QUOTES.get(ch, ch))
    key = "".join(out)
    while key and key[-1] in FINAL_MARKS:
        key = key[:-1]
    return key


def read_pairs(corpus, direction, sources=SOURCES, max_words=MAX_WORDS):
    """(source, target) pairs of the direction from corpus/train/<source>.en-de.tsv.gz, short sources only."""
    src_col = 0 if direction == "en-de" else 1
    pairs = []
    for name in sources:
        with gzip.open(os.path.join(corpus, "train", f"{name}.en-de.tsv.gz"), "rt", encoding="utf-8") as f:
            for line in f:
                cols = line.rstrip("\n").split("\t")
                if len(cols) != 2:
                    continue
                src, tgt = cols[src_col].strip(), cols[1 - src_col].strip()
                if src and tgt and len(src.split()) <= max_words:
                    pairs.append((src, tgt))
    return pairs


def group(pairs):
    """{key: (a source as written, the chosen translation, every translation's key, {translation key:
    its form most often written})}."""
    by_key = collections.OrderedDict()
    for src, tgt in pairs:
        key = memory_key(src)
        if not key or re.search(r"[0-9\t]|[.!?\u2026] ", key) or "\t" in tgt or "\n" in tgt or ("/" in tgt and "/" not in src):
            continue
        by_key.setdefault(key, []).append((src, tgt))
    out = {}
    for key, rows in by_key.items():
        groups = collections.Counter(memory_key(t) for _, t in rows)
        best_count = max(groups.values())
        best_key = next(memory_key(t) for _, t in rows if groups[memory_key(t)] == best_count)
        written = {}
        for k in groups:
            forms = collections.Counter(t for _, t in rows if memory_key(t) == k)
            written[k] = max(forms, key=lambda t: (forms[t], -[r[1] for r in rows].index(t)))
        out[key] = (rows[0][0], written[best_key], set(groups), written)
    return out


def build(corpus, direction, nmt, model, out, sources=SOURCES, max_words=MAX_WORDS, limit=None, max_bytes=MAX_BYTES):
    import engine_cli
    groups = group(read_pairs(corpus, direction, sources, max_words))
    keys = list(groups)[:limit] if limit else list(groups)
    sources_written = [groups[k][0] for k in keys]
    translated, seconds = engine_cli.translate(nmt, model, sources_written + keys, 4, memory=False)
    kept = []
    for key, written, typed in zip(keys, translated, translated[len(keys):]):
        _, target, target_keys, forms = groups[key]
        if memory_key(written) in target_keys and memory_key(typed) in target_keys:
            continue
        # right as the corpus writes it, wrong as typed: the memory keeps the model's right one
        # ("Where is the station?" -> "Wo ist der Bahnhof?", not tatoeba's more frequent "Haltestelle")
        kept.append((key, forms.get(memory_key(written), target)))
    wrong = len(kept)
    kept.sort(key=lambda kv: (len(kv[0].split()), kv[0].encode("utf-8")))
    total = 0
    for n, (key, target) in enumerate(kept):
        total += len(key.encode()) + len(target.encode()) + 2
        if total > max_bytes:
            kept = kept[:n]
            break
    kept.sort(key=lambda kv: kv[0].encode("utf-8"))
    with open(out, "w", encoding="utf-8") as f:
        for key, target in kept:
            f.write(f"{key}\t{target}\n")
    stats = {"direction": direction, "sources": list(sources), "max_words": max_words, "keys": len(keys),
             "kept": len(kept), "model_right": len(keys) - wrong, "left_out_for_size": wrong - len(kept),
             "engine_seconds": round(seconds, 1),
             "bytes": sum(len(k.encode()) + len(t.encode()) + 2 for k, t in kept)}
    with open(out + ".json", "w") as f:
        json.dump(stats, f, indent=1)
    print(json.dumps(stats))
    return stats


def add(model_in, model_out, table):
    """model_in with the tensor `memory` (u8, the table file's bytes) added or replaced, and
    provenance["memory"]; everything else kept. An empty table removes the memory."""
    import numpy as np
    with open(table, "rb") as f:
        data = f.read()
    lines = [l for l in data.decode("utf-8").split("\n") if l]
    keys = [l.split("\t")[0] for l in lines]
    if any(l.count("\t") != 1 or l.endswith("\t") for l in lines) or keys != sorted(keys, key=lambda k: k.encode("utf-8")) or \
            len(set(keys)) != len(keys) or any(memory_key(k) != k for k in keys):
        raise SystemExit(f"{table}: not a memory table (one 'key<TAB>translation' a line, keys normalized, sorted, distinct)")
    if not lines:
        copy_model_file(model_in, model_out, {TENSOR: None}, {"memory": None})
        return
    stats_file = table + ".json"
    stats = {}
    if os.path.exists(stats_file):
        with open(stats_file) as f:
            stats = json.load(f)
    info = {"entries": len(lines), "bytes": len(data),
            **{k: stats[k] for k in ("sources", "max_words", "keys", "model_right", "left_out_for_size") if k in stats}}
    copy_model_file(model_in, model_out, {TENSOR: np.frombuffer(data, dtype=np.uint8).copy()}, {"memory": info})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="the memory of one direction, as a table file")
    b.add_argument("--corpus", required=True)
    b.add_argument("--direction", required=True, choices=("en-de", "de-en"))
    b.add_argument("--nmt", default=None, help="the engine CLI (default build/nmt)")
    b.add_argument("--model", required=True, help="the model whose errors the memory holds")
    b.add_argument("--max-words", type=int, default=MAX_WORDS)
    b.add_argument("--limit", type=int, help="only the first N keys (tests)")
    b.add_argument("--max-bytes", type=int, default=MAX_BYTES)
    b.add_argument("--out", required=True)
    a = sub.add_parser("add", help="store a table in a copy of a model file")
    a.add_argument("--model", required=True)
    a.add_argument("--table", required=True)
    a.add_argument("--out", required=True)
    args = ap.parse_args()
    if args.command == "build":
        import engine_cli
        build(args.corpus, args.direction, args.nmt or engine_cli.DEFAULT_NMT, args.model, args.out,
              max_words=args.max_words, limit=args.limit, max_bytes=args.max_bytes)
    else:
        add(args.model, args.out, args.table)


if __name__ == "__main__":
    main()
