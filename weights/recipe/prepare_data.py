"""Data: clean and sample the corpus, train the joint SentencePiece vocabulary, encode to ids.

  python3 prepare_data.py --corpus ../shared/corpus --out work/data [--vocab-size 8000]

Writes into --out:
  train.en / train.de       every cleaned pair once (one sentence a line, aligned)
  train.weight              each line's source weight: its expected copies per epoch
  spm.model / spm.vocab     joint unigram vocabulary (Debian's spm_train)
  train.en.ids / train.de.ids   the same lines as SentencePiece ids (spm_encode)
  stats.json                what was kept and dropped, per source

The mix follows the corpus README: ordinary prose first (news, ted and docs upsampled, then
tatoeba, multi30k, dictionary sentences), software UI strings and single dictionary entries
sampled lightly, the archaic bible text lightly. Both directions train from these same pairs.
Held out (--held-out): every pair that shares a side with the short-labels dev set, which was drawn
from these sources (dev_sets.py, make_short_labels.py); stats.json counts them as "held_out".

The sampling happens in train.py, afresh each epoch (epoch_lines below): a source weighted 0.2
contributes a different fifth of its pairs to each epoch, so over many epochs the model sees all
of them. (Until round 13 the sample was drawn once here, and twelve rounds saw the same 28k of
the dictionary's 365k entries.)
"""
import argparse
import gzip
import json
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_cli  # noqa: E402
import spm_tools  # noqa: E402
from dev_sets import SHORT_LABELS, held_out_keys, label_key  # noqa: E402

# source name -> expected copies of each (cleaned) pair per epoch: below 1 a random fraction is drawn,
# above 1 the source is upsampled (2.5 = every pair twice, half of them three times). --mix overrides.
# Since round 10 prose (news, ted, docs) is upsampled and tatoeba's short sentences sampled down:
# it gained on flores-dev and cost little on tatoeba-dev (weights/EXPERIMENTS.md, round 10). Rounds 1-9 used
# tatoeba=1, news=1, ted=1, docs=0.6; rounds 10-19 the v1 sources at tatoeba=0.75, news=2, ted=2, docs=1,
# multi30k=1, dict-sentences=1, bible=0.3, ui=0.2, dict=0.08 and the v2 ones at 0 (`--mix` reproduces either).
# Round 20 adds the corpus v2 prose (news-recent: human references; news-mt: strong systems' outputs,
# i.e. sequence-level distillation; games: narration and dialogue; wiki) and the back-translations
# (--back-translations), and turns the software and dictionary text further down, so that about
# two thirds of an epoch is prose (stats.json: "prose_share"). Round 22 puts tatoeba back at 0.75: at 0.5
# the big-batch GPU round 21 lost everyday short sentences (EXPERIMENTS.md, rounds 21 and 22).
MIX = {
    "tatoeba": 0.75,
    "news": 2.0,
    "ted": 2.0,
    "docs": 0.5,
    "multi30k": 0.5,
    "dict-sentences": 0.5,
    "bible": 0.1,
    "ui": 0.1,
    "dict": 0.03,
    "news-recent": 3.0,
    "news-mt": 2.0,
    "games": 1.0,
    "wiki": 3.0,
}
PROSE = ("news", "ted", "news-recent", "news-mt", "games", "wiki")  # for the stats: what counts as prose
BT_WEIGHT = 1.0  # copies per epoch of each back-translated pair (--bt-weight)

PLACEHOLDER = re.compile(r"%\d*\$?[sdif]|%[sdif]|\{\s*\$?[\w.-]+\s*\}|\$\([A-Z0-9_]+\)|#[A-Z_]+#|&[a-z]+;")
LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
GERMAN_ONLY = re.compile(r"[äöüßÄÖÜ]")


def clean_pair(en, de, max_chars=400):
    """Returns a reason string if the pair should be dropped, else None."""
    if not en or not de:
        return "empty"
    if len(en) > max_chars or len(de) > max_chars:
        return "too_long"
    le, ld = len(en), len(de)
    if max(le, ld) > 12 and max(le, ld) / max(1, min(le, ld)) > 2.5:
        return "length_ratio"
    if not LETTER.search(en) or not LETTER.search(de):
        return "no_letters"
    # language sanity: English side with several German-only letters is likely swapped/untranslated
    if len(GERMAN_ONLY.findall(en)) >= 2:
        return "language"
    # the unknown piece's name written out by an earlier pipeline (225 corpus lines): a model that
    # learns it writes "<unk>" (it came up among the page's alternatives for a quotation mark)
    if "<unk>" in en or "<unk>" in de:
        return "unknown_token"
    # UI placeholders (%s, { $var }, $(ARG1), #PAGE#, &amp;) must survive translation unchanged
    if sorted(PLACEHOLDER.findall(en)) != sorted(PLACEHOLDER.findall(de)):
        return "placeholder_mismatch"
    return None


def copies(weight, rng):
    """How many times one pair goes into an epoch: floor(weight), plus one more with probability
    equal to weight's fractional part (so the expected count is the weight)."""
    whole = int(weight)
    if weight == whole:  # no random draw (see epoch_lines)
        return whole
    return whole + (1 if rng.random() < weight - whole else 0)


def epoch_lines(weights, rng):
    """The lines of one epoch: line i appears copies(weights[i]) times. Whole weights draw no
    random numbers, so a data folder whose weights are all 1 gives the same batches as before."""
    lines = []
    for i, weight in enumerate(weights):
        lines.extend([i] * copies(weight, rng))
    return lines


def parse_mix(text):
    """'news=3,tatoeba=0.5' -> MIX with those sources reweighted; unknown names are an error."""
    mix = dict(MIX)
    for item in filter(None, (t.strip() for t in (text or "").split(","))):
        name, sep, value = item.partition("=")
        if not sep or name not in MIX:
            raise SystemExit(f"--mix: expected source=weight with a source among {', '.join(MIX)}; got {item!r}")
        try:
            mix[name] = float(value)
        except ValueError:
            raise SystemExit(f"--mix: {item!r}: the weight must be a number")
        if mix[name] < 0:
            raise SystemExit(f"--mix: {item!r}: the weight must not be negative")
    return mix


def read_pairs(path):
    with gzip.open(path, "rt", encoding="utf-8") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) == 2:
                yield parts[0].strip(), parts[1].strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True, help="corpus folder with train/*.en-de.tsv.gz")
    ap.add_argument("--out", required=True)
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--spm-sentences", type=int, default=400000, help="sentences sampled for spm_train")
    ap.add_argument("--reuse-vocab", help="a model file (.nmt) or spm .model whose vocabulary to keep, instead "
                                          "of training a new one (to continue training a shipped model)")
    ap.add_argument("--mix", help="reweight sources, e.g. 'news=3,ted=2,tatoeba=0.5' (copies per pair; "
                                   f"default {','.join(f'{k}={v:g}' for k, v in MIX.items())})")
    ap.add_argument("--back-translations", help="backtranslate.py's output folder (bt.en-de.tsv, bt.de-en.tsv): "
                                                "synthetic pairs for the one direction each trains")
    ap.add_argument("--bt-weight", type=float, default=BT_WEIGHT, help="copies per epoch of each synthetic pair")
    ap.add_argument("--distilled", help="a folder with a teacher's translations of the training sources "
                                        "(kd.en-de.tsv[.gz], kd.de-en.tsv[.gz]; gpu_round.py)")
    ap.add_argument("--kd-weight", type=float, default=1.0, help="copies per epoch of each distilled pair")
    ap.add_argument("--held-out", default=SHORT_LABELS,
                    help="dev sets (comma-separated TSVs; 'none': no such set) whose pairs stay out of training: every "
                         "pair, synthetic ones too, that shares a side with one of them is dropped (default: the "
                         "short-labels set, drawn from these training sources)")
    ap.add_argument("--nmt", default=engine_cli.DEFAULT_NMT,
                    help="the engine's CLI, whose segmenter splits paragraph pairs that are over the length limit "
                         "('none': drop them)")
    args = ap.parse_args()
    mix = parse_mix(args.mix)
    held_out = held_out_keys([p for p in args.held_out.split(",") if p and p != "none"])
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)

    pairs, weights, stats = [], [], {"mix": mix}
    too_long = []  # (source name, en, de): split into sentence pairs below, or dropped
    for name, weight in mix.items():
        path = os.path.join(args.corpus, "train", f"{name}.en-de.tsv.gz")
        st = stats.setdefault(name, {"read": 0, "kept": 0})
        if not os.path.exists(path):
            if weight == 0:
                continue
            raise SystemExit(f"{path}: missing (corpus v2 has train/{name}; for an older corpus: --mix {name}=0)")
        for en, de in read_pairs(path):
            st["read"] += 1
            reason = "held_out" if is_held_out(en, de, held_out) else clean_pair(en, de)
            if reason == "too_long" and weight > 0:
                too_long.append((name, en, de))
                continue
            if reason:
                st[reason] = st.get(reason, 0) + 1
                continue
            if weight == 0:
                st["weight_zero"] = st.get("weight_zero", 0) + 1
                continue
            add_pair(st, pairs, weights, en, de, weight)
    for (name, en, de), sentences in zip(too_long, split_paragraphs([(en, de) for _, en, de in too_long], args.nmt)):
        st = stats[name]
        if not sentences:
            st["too_long"] = st.get("too_long", 0) + 1
            continue
        st["split_paragraphs"] = st.get("split_paragraphs", 0) + 1
        st["split_sentences"] = st.get("split_sentences", 0) + len(sentences)
        for s_en, s_de in sentences:
            add_pair(st, pairs, weights, s_en, s_de, mix[name])
    for name in mix:
        st = stats[name]
        for key in ("per_epoch", "chars"):  # sums of fractional weights: round for the log and stats.json
            if key in st:
                st[key] = round(st[key], 1)
        print(f"{name}: {st}", file=sys.stderr)
    order = list(range(len(pairs)))
    rng.shuffle(order)
    pairs, weights = [pairs[i] for i in order], [weights[i] for i in order]
    stats["total_kept"] = len(pairs)
    stats["lines_per_epoch"] = round(sum(weights))

    with open(os.path.join(args.out, "train.en"), "w", encoding="utf-8") as fe, \
            open(os.path.join(args.out, "train.de"), "w", encoding="utf-8") as fd, \
            open(os.path.join(args.out, "train.weight"), "w") as fw:
        for (en, de), weight in zip(pairs, weights):
            fe.write(en + "\n")
            fd.write(de + "\n")
            fw.write(f"{weight:g}\n")

    prefix = os.path.join(args.out, "spm")
    if args.reuse_vocab:
        if args.reuse_vocab.endswith(".nmt"):
            from model_file import read_model_file
            spm_bytes = read_model_file(args.reuse_vocab)[1]["tokenizer.spm"].tobytes()
        else:
            spm_bytes = open(args.reuse_vocab, "rb").read()
        with open(prefix + ".model", "wb") as f:
            f.write(spm_bytes)
        spm_tools.export_vocab(prefix + ".model", prefix + ".vocab")
    else:
        train_vocabulary([pairs[i] for i in epoch_lines(weights, rng)], rng, args, prefix)
    encode_ids(args.out, prefix)
    if args.back_translations:
        stats["back_translations"] = write_direction_pairs("bt", args.back_translations, args.out, prefix, args.bt_weight,
                                                           held_out)
    if args.distilled:
        stats["distilled"] = write_direction_pairs("kd", args.distilled, args.out, prefix, args.kd_weight, held_out)
    per_epoch = sum(stats[n].get("per_epoch", 0) for n in mix)
    prose = sum(stats[n].get("per_epoch", 0) for n in mix if n in PROSE)
    stats["prose_share"] = {"pairs_per_epoch": round(prose / max(1, per_epoch), 3)}
    for direction, bt in stats.get("back_translations", {}).items():  # back-translated news counts as prose
        stats["prose_share"][f"{direction} with back-translations"] = round(
            (prose + bt["per_epoch"]) / max(1, per_epoch + bt["per_epoch"]), 3)
    with open(os.path.join(args.out, "stats.json"), "w") as f:
        json.dump(stats, f, indent=1)
    print(json.dumps({"total_kept": len(pairs), "lines_per_epoch": stats["lines_per_epoch"]}), file=sys.stderr)


def is_held_out(en, de, held_out):
    """Whether the pair shares a side with a held-out dev set (held_out_keys)."""
    return label_key(en) in held_out[0] or label_key(de) in held_out[1]


def add_pair(st, pairs, weights, en, de, weight):
    st["kept"] += 1
    st["per_epoch"] = st.get("per_epoch", 0) + weight
    st["chars"] = st.get("chars", 0) + weight * (len(en) + len(de))  # expected per epoch, by volume
    pairs.append((en, de))
    weights.append(weight)


def segment(nmt, lang, lines):
    """Each line cut into sentences by the engine's own segmenter, so training sees the sentences
    the engine will translate; --nmt none: no cut (over-long pairs are dropped, as before round 20)."""
    if nmt == "none":
        return [[] for _ in lines]
    return engine_cli.segment(nmt, lang, lines)


def split_paragraphs(pairs, nmt):
    """Paragraph pairs over the length limit -> their sentence pairs, where both sides cut into the
    same number of sentences (then the i-th sentences are taken as translations of each other) and
    every sentence pair passes clean_pair; else [] (the pair is dropped)."""
    en_rows = segment(nmt, "en", [en for en, _ in pairs])
    de_rows = segment(nmt, "de", [de for _, de in pairs])
    result = []
    for en_sents, de_sents in zip(en_rows, de_rows):
        sentences = list(zip(en_sents, de_sents))
        if len(en_sents) < 2 or len(en_sents) != len(de_sents) or any(clean_pair(e, d) for e, d in sentences):
            sentences = []
        result.append(sentences)
    return result


def write_direction_pairs(kind, folder, out, prefix, weight, held_out=(set(), set())):
    """<kind>.<direction>.tsv[.gz] (English<TAB>German) -> <kind>.<direction>.{en,de}, their .ids and
    a .weight file: pairs that train only the direction in their name. kind "bt": back-translations
    (synthetic source, real target; train.py tags their source); "kd": a teacher's translations of
    the training sources (real source, teacher's target; gpu_round.py, distill.py)."""
    stats = {}
    for direction in ("en-de", "de-en"):
        path = os.path.join(folder, f"{kind}.{direction}.tsv")
        if not os.path.exists(path):
            path += ".gz"
            if not os.path.exists(path):
                continue
        rows = []
        with (gzip.open(path, "rt", encoding="utf-8") if path.endswith(".gz") else open(path, encoding="utf-8")) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 2 and not clean_pair(*parts) and not is_held_out(*parts, held_out):
                    rows.append(parts)
        base = os.path.join(out, f"{kind}.{direction}")
        for col, lang in ((0, "en"), (1, "de")):
            with open(f"{base}.{lang}", "w", encoding="utf-8") as f:
                f.writelines(row[col] + "\n" for row in rows)
            spm_tools.encode_file(prefix + ".model", f"{base}.{lang}", f"{base}.{lang}.ids")
        with open(f"{base}.weight", "w") as f:
            f.writelines(f"{weight:g}\n" for _ in rows)
        stats[direction] = {"pairs": len(rows), "weight": weight, "per_epoch": round(len(rows) * weight, 1)}
        print(f"{kind} {direction}: {stats[direction]}", file=sys.stderr)
    return stats


def train_vocabulary(kept, rng, args, prefix):
    """One joint unigram vocabulary from both sides of a sample of one epoch's pairs (so the mix
    weights the vocabulary as it weights training; Debian's spm_train)."""
    spm_input = os.path.join(args.out, "spm_input.txt")
    sample = rng.sample(kept, min(len(kept), args.spm_sentences // 2))
    with open(spm_input, "w", encoding="utf-8") as f:
        for en, de in sample:
            f.write(en + "\n" + de + "\n")
    spm_tools.train([
        f"--input={spm_input}", f"--model_prefix={prefix}", f"--vocab_size={args.vocab_size}",
        "--model_type=unigram", "--character_coverage=0.9999", "--pad_id=0", "--unk_id=1", "--bos_id=2",
        "--eos_id=3", "--input_sentence_size=1000000", "--shuffle_input_sentence=true",
        "--num_threads=2", "--minloglevel=1",
    ])


def encode_ids(out, prefix):
    for lang in ("en", "de"):
        spm_tools.encode_file(prefix + ".model", os.path.join(out, f"train.{lang}"), os.path.join(out, f"train.{lang}.ids"))


if __name__ == "__main__":
    main()
