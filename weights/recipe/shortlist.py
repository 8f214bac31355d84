"""The lexical shortlist (as Marian/Bergamot use it), built from the training pairs and stored in the
model file: the engine restricts the decoder's output projection to the F most frequent target
pieces plus, for each source piece in the batch, up to K target pieces that are likely translations
of it (engine/FORMAT.md: shortlist.frequent u16 [F+1], shortlist.counts u8 [V], shortlist.targets u16).

  python3 shortlist.py build --data work/data --direction en-de --out en-de.npz [--frequent F --per-source K]
  python3 shortlist.py add --model weights/en-de/model.nmt --table en-de.npz --out model.sl.nmt
  python3 shortlist.py coverage --model model.sl.nmt --src dev.en --hyp dev.de [--spm spm.model]

Counting: per sentence pair, every (distinct source piece, distinct target piece) co-occurrence
c(s,t), and the number of sentences holding each piece c(s), c(t) (dense V x V int32, in chunks).
The frequent set is the F target pieces found in the most target sentences, plus eos. A source
piece's candidates are its K best target pieces by IBM model 1's lexical probability t(t|s) (5 EM
iterations over each pair's distinct pieces, with a NULL source word; it beat p(t|s) = c(s,t)/c(s)
and Dice 2c(s,t)/(c(s)+c(t)) at every set size measured), among those it co-occurs with, leaving
out the frequent set and pad/unk/bos, and those scoring under min_score. The engine must allow unk
as well: the models write it for characters the vocabulary lacks, and the engine passes those through.
"""
import argparse
import collections
import json
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from model_file import copy_model_file, read_header, read_model_file  # noqa: E402

# the recipe's defaults, chosen on flores-dev with the shipped round-22 models' own beam-4 output:
# 99.58% (en-de) / 99.68% (de-en) of its tokens kept with 1,275 / 1,343 of 8,000 pieces per sentence
FREQUENT = 500
PER_SOURCE = 40
MIN_SCORE = 0.0
SCORING = "ibm1"
IBM1_ITERATIONS = 5
SCORINGS = ("ibm1", "dice", "p(t|s)")
SCORING_NAMES = {"ibm1": f"IBM model 1 t(t|s), {IBM1_ITERATIONS} EM iterations from uniform over each pair's distinct pieces",
                 "dice": "Dice 2c(s,t)/(c(s)+c(t)), sentence co-occurrence",
                 "p(t|s)": "p(t|s) = c(s,t)/c(s), sentence co-occurrence"}
TENSORS = ("shortlist.frequent", "shortlist.counts", "shortlist.targets")

Table = collections.namedtuple("Table", "frequent counts targets")


class Ragged:
    """Sentences of ids: all ids in one array, and where each sentence starts (n + 1 offsets)."""

    def __init__(self, values, lengths):
        self.values = np.asarray(values, dtype=np.int64)
        lengths = np.asarray(lengths, dtype=np.int64)
        self.starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        if self.starts[-1] != len(self.values):
            raise ValueError("lengths do not add up to the ids")

    def __len__(self):
        return len(self.starts) - 1

    @property
    def lengths(self):
        return np.diff(self.starts)

    def slice(self, a, b):
        return Ragged(self.values[self.starts[a]: self.starts[b]], self.lengths[a:b])


def ragged(lines):
    """Ragged from a Ragged, or from sentences given as sequences of ints or "1 2 3" strings."""
    if isinstance(lines, Ragged):
        return lines
    rows = [[int(x) for x in line.split()] if isinstance(line, str) else list(line) for line in lines]
    return Ragged(np.fromiter((x for row in rows for x in row), dtype=np.int64), [len(row) for row in rows])


def read_ids(path):
    """A .ids file (one sentence a line, space-separated ids) as a Ragged, without a Python loop per id."""
    with open(path, "rb") as f:
        data = f.read()
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    lengths = np.array([len(line.split()) for line in lines], dtype=np.int64)
    # sep=" " takes any whitespace, newlines too; Ragged checks that every id was read
    values = np.fromstring(data, dtype=np.int64, sep=" ") if lengths.sum() else np.zeros(0, dtype=np.int64)
    return Ragged(values, lengths)


def distinct(r, vocab_size):
    """Each sentence's distinct ids, ascending (a Ragged)."""
    sent = np.repeat(np.arange(len(r), dtype=np.int64), r.lengths)
    keys = np.unique(sent * vocab_size + r.values)
    return Ragged(keys % vocab_size, np.bincount(keys // vocab_size, minlength=len(r)))


def _pairs(src, tgt):
    """For sentence-aligned Raggeds: the (source position, target position) of every pair of a source
    and a target entry of the same sentence, target-major (all sources of target entry 0, then 1, ...)."""
    ns, nt = src.lengths, tgt.lengths
    sent_of_t = np.repeat(np.arange(len(tgt), dtype=np.int64), nt)
    reps = ns[sent_of_t]  # each target entry meets its sentence's sources
    total = int(reps.sum())
    t_pos = np.repeat(np.arange(len(tgt.values), dtype=np.int64), reps)
    first = np.cumsum(reps) - reps
    s_pos = np.arange(total, dtype=np.int64) - np.repeat(first, reps) + np.repeat(src.starts[sent_of_t], reps)
    return s_pos, t_pos, reps


def _chunks(n_items, lengths_a, lengths_b, budget):
    """Sentence ranges whose pair counts stay near budget."""
    cost = np.cumsum(lengths_a * lengths_b)
    a = 0
    while a < n_items:
        b = int(np.searchsorted(cost, (cost[a - 1] if a else 0) + budget, side="right"))
        b = max(b, a + 1)
        yield a, min(b, n_items)
        a = b


def count(src_ids_lines, tgt_ids_lines, vocab_size, budget=30_000_000):
    """(c(s,t) int32 [V, V], c(s) int64 [V], c(t) int64 [V], sentences): sentence-level co-occurrence."""
    src, tgt = ragged(src_ids_lines), ragged(tgt_ids_lines)
    if len(src) != len(tgt):
        raise ValueError(f"{len(src)} source and {len(tgt)} target sentences")
    us, ut = distinct(src, vocab_size), distinct(tgt, vocab_size)
    c = np.zeros((vocab_size, vocab_size), dtype=np.int32)
    flat = c.reshape(-1)
    for a, b in _chunks(len(us), us.lengths, ut.lengths, budget):
        s, t = us.slice(a, b), ut.slice(a, b)
        s_pos, t_pos, _ = _pairs(s, t)
        keys = s.values[s_pos] * vocab_size + t.values[t_pos]
        np.add(flat, np.bincount(keys, minlength=vocab_size * vocab_size), out=flat, casting="unsafe")
    cs = np.bincount(us.values, minlength=vocab_size).astype(np.int64)
    ct = np.bincount(ut.values, minlength=vocab_size).astype(np.int64)
    return c, cs, ct, len(us)


def ibm1(src_ids_lines, tgt_ids_lines, vocab_size, iterations=IBM1_ITERATIONS, null_id=0, budget=30_000_000):
    """IBM model 1 lexical probabilities t(t|s) float32 [V, V] by EM from uniform, on each sentence's
    distinct pieces, with a NULL source word (null_id, pad: never in the data) in every sentence."""
    src, tgt = ragged(src_ids_lines), ragged(tgt_ids_lines)
    us, ut = distinct(src, vocab_size), distinct(tgt, vocab_size)
    # put the NULL word in front of each source sentence
    us = Ragged(np.insert(us.values, us.starts[:-1], null_id), us.lengths + 1)
    table = None
    for _ in range(iterations):
        expected = np.zeros(vocab_size * vocab_size, dtype=np.float64)
        for a, b in _chunks(len(us), us.lengths, ut.lengths, budget):
            s, t = us.slice(a, b), ut.slice(a, b)
            s_pos, t_pos, reps = _pairs(s, t)
            keys = s.values[s_pos] * vocab_size + t.values[t_pos]
            if not len(keys):
                continue
            p = np.ones(len(keys), dtype=np.float32) if table is None else table[keys]
            group = np.cumsum(reps) - reps  # every target entry has its sentence's NULL at least
            denom = np.add.reduceat(p, group)
            expected += np.bincount(keys, weights=p / np.repeat(denom, reps), minlength=vocab_size * vocab_size)
        expected = expected.reshape(vocab_size, vocab_size)
        totals = expected.sum(axis=1, keepdims=True)
        table = (expected / np.maximum(totals, 1e-30)).astype(np.float32).reshape(-1)
    return table.reshape(vocab_size, vocab_size)


def scores(kind, c, cs, ct, lexical=None):
    """A [V, V] float32 translation score of target t for source s."""
    if kind == "dice":
        return (2.0 * c / np.maximum(cs[:, None] + ct[None, :], 1)).astype(np.float32)
    if kind == "p(t|s)":
        return (c / np.maximum(cs[:, None], 1)).astype(np.float32)
    if kind == "ibm1":
        if lexical is None:
            raise ValueError("ibm1 needs the EM table (ibm1())")
        return np.where(c > 0, lexical, 0).astype(np.float32)
    raise ValueError(f"unknown scoring {kind!r} (one of {', '.join(SCORINGS)})")


def frequent_set(ct, frequent, special_ids, eos_id):
    """The `frequent` target ids in the most target sentences (specials left out), plus eos, ascending."""
    order = np.argsort(-ct, kind="stable")
    order = order[~np.isin(order, list(special_ids) + [eos_id])]
    chosen = order[:frequent]
    chosen = chosen[ct[chosen] > 0]
    return np.unique(np.concatenate([chosen, [eos_id]])).astype("<u2")


def select(score, c, frequent_ids, per_source, min_score, special_ids, block=1000):
    """(counts u8 [V], targets u16): each source's best per_source targets by score, ascending, with
    c(s,t) > 0 and score >= min_score, none of frequent_ids nor special_ids; special sources get none."""
    if not 0 <= per_source <= 255:
        raise ValueError("per_source must be within 0..255 (the counts are u8)")
    v = score.shape[0]
    banned = np.zeros(v, dtype=bool)
    banned[np.asarray(frequent_ids, dtype=np.int64)] = True
    banned[list(special_ids)] = True
    counts = np.zeros(v, dtype=np.uint8)
    targets = []
    k = min(per_source, v)
    for a in range(0, v, block):
        sc = np.array(score[a: a + block], dtype=np.float32)
        ok = (c[a: a + block] > 0) & (sc >= min_score) & ~banned[None, :]
        sc[~ok] = -np.inf
        if k == 0:
            top = np.zeros((len(sc), 0), dtype=np.int64)
        elif k < v:
            top = np.argpartition(-sc, k - 1, axis=1)[:, :k]
        else:
            top = np.tile(np.arange(v), (len(sc), 1))
        for i, row in enumerate(top):
            s = a + i
            if s in special_ids:
                continue
            row = np.sort(row[np.isfinite(sc[i, row])])
            counts[s] = len(row)
            targets.append(row)
    targets = np.concatenate(targets).astype("<u2") if targets else np.zeros(0, dtype="<u2")
    return counts, targets


def build(src_ids_lines, tgt_ids_lines, vocab_size, frequent=FREQUENT, per_source=PER_SOURCE, min_score=MIN_SCORE,
          pad_id=0, unk_id=1, bos_id=2, eos_id=3, scoring=SCORING, ibm1_iterations=IBM1_ITERATIONS):
    """Table(frequent u16, counts u8 [V], targets u16) from sentence-aligned tokenized pairs (lists of
    id sequences, "1 2 3" strings, or Raggeds from read_ids)."""
    if vocab_size > 65536:
        raise ValueError("target ids must fit u16")
    src, tgt = ragged(src_ids_lines), ragged(tgt_ids_lines)
    c, cs, ct, _ = count(src, tgt, vocab_size)
    lexical = ibm1(src, tgt, vocab_size, ibm1_iterations, pad_id) if scoring == "ibm1" else None
    special = (pad_id, unk_id, bos_id)
    freq = frequent_set(ct, frequent, special, eos_id)
    counts, targets = select(scores(scoring, c, cs, ct, lexical), c, freq, per_source, min_score, special + (eos_id,))
    return Table(freq, counts, targets)


def check_table(table, vocab_size, eos_id):
    """Raises ValueError unless the table has the agreed layout."""
    freq, counts, targets = (np.asarray(x) for x in table)
    if freq.dtype != np.dtype("<u2") or counts.dtype != np.uint8 or targets.dtype != np.dtype("<u2"):
        raise ValueError("dtypes must be u16, u8, u16")
    if counts.shape != (vocab_size,) or int(counts.sum()) != len(targets):
        raise ValueError("counts must have one entry per vocabulary id and add up to the targets")
    if len(freq) and (np.any(np.diff(freq.astype(np.int64)) <= 0) or freq.max() >= vocab_size):
        raise ValueError("frequent must be ascending, distinct, within the vocabulary")
    if eos_id not in set(freq.tolist()):
        raise ValueError("frequent must hold eos")
    if len(targets) and targets.max() >= vocab_size:
        raise ValueError("a target is outside the vocabulary")
    if np.isin(targets, freq).any():
        raise ValueError("a target repeats a frequent id")
    starts = np.concatenate([[0], np.cumsum(counts.astype(np.int64))])
    for s in np.nonzero(counts)[0]:
        row = targets[starts[s]: starts[s + 1]].astype(np.int64)
        if np.any(np.diff(row) <= 0):
            raise ValueError(f"the candidates of source {s} are not ascending and distinct")


def candidates(table, source_id):
    freq, counts, targets = table
    start = int(np.sum(counts[:source_id], dtype=np.int64))
    return targets[start: start + int(counts[source_id])]


def sentence_sets(table, src_ids_lines, eos_id, unk_id=None):
    """For each source sentence, the target ids the shortlist allows (a sorted int64 array): frequent,
    eos, unk where given, and the candidates of each of its source ids."""
    freq, counts, targets = table
    starts = np.concatenate([[0], np.cumsum(np.asarray(counts, dtype=np.int64))])
    base = np.concatenate([np.asarray(freq, dtype=np.int64), [eos_id] + ([] if unk_id is None else [unk_id])])
    sets = []
    for ids in _rows(ragged(src_ids_lines)):
        parts = [base] + [targets[starts[s]: starts[s + 1]].astype(np.int64) for s in set(ids.tolist())
                          if 0 <= s < len(counts)]
        sets.append(np.unique(np.concatenate(parts)))
    return sets


def _rows(r):
    return (r.values[r.starts[i]: r.starts[i + 1]] for i in range(len(r)))


def coverage(table, src_ids_lines, hyp_ids_lines, eos_id=3, unk_id=1):
    """How much of the hypotheses the shortlist keeps: {"tokens": fraction of hypothesis tokens in their
    sentence's set, "sentences": fraction of sentences with every token in it, "mean_set_size", ...}.
    The set counts unk as allowed (unk_id=None: not): the models write unk where the source has a
    character the vocabulary lacks and the engine passes that through, so the engine must keep it."""
    src, hyp = ragged(src_ids_lines), ragged(hyp_ids_lines)
    if len(src) != len(hyp):
        raise ValueError(f"{len(src)} sources and {len(hyp)} hypotheses")
    covered = total = full = 0
    sizes = []
    missed = collections.Counter()
    for allowed, ids in zip(sentence_sets(table, src, eos_id, unk_id), _rows(hyp)):
        inside = np.isin(ids, allowed)
        covered += int(inside.sum())
        total += len(ids)
        full += bool(inside.all())
        sizes.append(len(allowed))
        missed.update(ids[~inside].tolist())
    n = max(len(sizes), 1)
    return {"tokens": covered / max(total, 1), "sentences": full / n, "mean_set_size": float(np.mean(sizes)) if sizes else 0.0,
            "max_set_size": int(max(sizes)) if sizes else 0, "hyp_tokens": total, "missed_tokens": total - covered,
            "sentences_n": len(sizes), "most_missed": missed.most_common(20)}


def save_table(path, table, info):
    np.savez(path, frequent=table.frequent, counts=table.counts, targets=table.targets,
             info=np.frombuffer(json.dumps(info).encode(), dtype=np.uint8))


def load_table(path):
    with np.load(path) as z:
        table = Table(z["frequent"].astype("<u2"), z["counts"].astype(np.uint8), z["targets"].astype("<u2"))
        info = json.loads(bytes(z["info"]).decode()) if "info" in z else {}
    return table, info


def table_of_model(tensors):
    """The Table stored in a model file's tensors (read_model_file), or None."""
    if not all(name in tensors for name in TENSORS):
        return None
    return Table(*(np.asarray(tensors[name]) for name in TENSORS))


def add(model_path_in, model_path_out, table, provenance_info):
    """Writes model_path_in with the shortlist tensors added (or replaced) and provenance["shortlist"] =
    provenance_info; every other tensor, the config, languages, alignment layer and tokenizer kept."""
    config = read_header(model_path_in)["config"]
    check_table(table, config["vocab_size"], config["eos_id"])
    tensors = dict(zip(TENSORS, (np.asarray(table.frequent, dtype="<u2"), np.asarray(table.counts, dtype=np.uint8),
                                 np.asarray(table.targets, dtype="<u2"))))
    return copy_model_file(model_path_in, model_path_out, tensors, {"shortlist": provenance_info})


def _encode(sp, path):
    with open(path, encoding="utf-8") as f:
        return [sp.encode(line.rstrip("\n"), out_type=int) for line in f]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build", help="count the prepared data's pairs and write the table (.npz)")
    b.add_argument("--data", required=True, help="prepare_data.py's folder (train.<lang>.ids)")
    b.add_argument("--direction", required=True, help="e.g. en-de: en is the source")
    b.add_argument("--frequent", type=int, default=FREQUENT)
    b.add_argument("--per-source", type=int, default=PER_SOURCE)
    b.add_argument("--min-score", type=float, default=MIN_SCORE)
    b.add_argument("--scoring", choices=SCORINGS, default=SCORING)
    b.add_argument("--model", help="take the vocabulary size and special ids from this model file's config")
    b.add_argument("--vocab-size", type=int, default=8000, help="without --model (special ids 0-3: pad unk bos eos)")
    b.add_argument("--out", required=True)
    a = sub.add_parser("add", help="store a table in a copy of a model file")
    a.add_argument("--model", required=True)
    a.add_argument("--table", required=True)
    a.add_argument("--out", required=True)
    c = sub.add_parser("coverage", help="how much of a translation the model file's shortlist keeps")
    c.add_argument("--model", required=True, help="a model file with a shortlist")
    c.add_argument("--src", required=True, help="source text, a sentence a line")
    c.add_argument("--hyp", required=True, help="its translations, a line each")
    c.add_argument("--spm", help="SentencePiece model (default: the model file's own)")
    args = ap.parse_args()

    if args.command == "build":
        s, t = args.direction.split("-")
        t0 = time.time()
        src = read_ids(os.path.join(args.data, f"train.{s}.ids"))
        tgt = read_ids(os.path.join(args.data, f"train.{t}.ids"))
        cfg = {"vocab_size": args.vocab_size}
        if args.model:
            cfg = read_header(args.model)["config"]
        special = {k: cfg[k] for k in ("pad_id", "unk_id", "bos_id", "eos_id") if k in cfg}
        table = build(src, tgt, cfg["vocab_size"], args.frequent, args.per_source, args.min_score, scoring=args.scoring,
                      **special)
        info = {"frequent": args.frequent, "per_source": args.per_source, "min_score": args.min_score,
                "scoring": SCORING_NAMES[args.scoring],
                "built_from": f"{os.path.basename(os.path.abspath(args.data))}/train.{s}.ids + train.{t}.ids, "
                              f"{len(src)} pairs"}
        save_table(args.out, table, info)
        print(json.dumps({"out": args.out, "frequent": len(table.frequent), "targets": len(table.targets),
                          "mean_per_source": round(float(table.counts.mean()), 2), "seconds": round(time.time() - t0, 1),
                          **{k: v for k, v in info.items() if k == "built_from"}}))
    elif args.command == "add":
        table, info = load_table(args.table)
        n = add(args.model, args.out, table, info)
        print(json.dumps({"out": args.out, "bytes": n}))
    else:
        import sentencepiece as spm
        header, tensors = read_model_file(args.model)
        table = table_of_model(tensors)
        if table is None:
            raise SystemExit(f"{args.model}: no shortlist in it (shortlist.py add)")
        sp = spm.SentencePieceProcessor(model_file=args.spm) if args.spm else \
            spm.SentencePieceProcessor(model_proto=tensors[header["tokenizer"]["tensor"]].tobytes())
        result = coverage(table, _encode(sp, args.src), _encode(sp, args.hyp), header["config"]["eos_id"],
                          header["config"]["unk_id"])
        result["most_missed"] = [[sp.id_to_piece(i), n] for i, n in result["most_missed"]]
        print(json.dumps(result, ensure_ascii=False))


if __name__ == "__main__":
    main()
