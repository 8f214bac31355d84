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
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# source name -> expected copies of each (cleaned) pair per epoch: below 1 a random fraction is drawn,
# above 1 the source is upsampled (2.5 = every pair twice, half of them three times). --mix overrides.
# Since round 10 prose (news, ted, docs) is upsampled and tatoeba's short sentences sampled down:
# it gained on flores-dev and cost little on tatoeba-dev (weights/EXPERIMENTS.md, round 10). Rounds 1-9 used
# tatoeba=1, news=1, ted=1, docs=0.6 (`--mix` reproduces it).
MIX = {
    "tatoeba": 0.75,
    "news": 2.0,
    "ted": 2.0,
    "docs": 1.0,
    "multi30k": 1.0,
    "dict-sentences": 1.0,
    "bible": 0.3,
    "ui": 0.2,
    "dict": 0.08,
}

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
    args = ap.parse_args()
    mix = parse_mix(args.mix)
    os.makedirs(args.out, exist_ok=True)
    rng = random.Random(args.seed)

    pairs, weights, stats = [], [], {"mix": mix}
    for name, weight in mix.items():
        path = os.path.join(args.corpus, "train", f"{name}.en-de.tsv.gz")
        st = stats.setdefault(name, {"read": 0, "kept": 0})
        for en, de in read_pairs(path):
            st["read"] += 1
            reason = clean_pair(en, de)
            if reason:
                st[reason] = st.get(reason, 0) + 1
                continue
            if weight == 0:
                st["weight_zero"] = st.get("weight_zero", 0) + 1
                continue
            st["kept"] += 1
            st["per_epoch"] = st.get("per_epoch", 0) + weight
            st["chars"] = st.get("chars", 0) + weight * (len(en) + len(de))  # expected per epoch, by volume
            pairs.append((en, de))
            weights.append(weight)
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
            from export import read_model_file
            spm_bytes = read_model_file(args.reuse_vocab)[1]["tokenizer.spm"].tobytes()
        else:
            spm_bytes = open(args.reuse_vocab, "rb").read()
        with open(prefix + ".model", "wb") as f:
            f.write(spm_bytes)
        subprocess.run(["spm_export_vocab", f"--model={prefix}.model", f"--output={prefix}.vocab"], check=True)
    else:
        train_vocabulary([pairs[i] for i in epoch_lines(weights, rng)], rng, args, prefix)
    encode_ids(args.out, prefix)
    with open(os.path.join(args.out, "stats.json"), "w") as f:
        json.dump(stats, f, indent=1)
    print(json.dumps({"total_kept": len(pairs), "lines_per_epoch": stats["lines_per_epoch"]}), file=sys.stderr)


def train_vocabulary(kept, rng, args, prefix):
    """One joint unigram vocabulary from both sides of a sample of one epoch's pairs (so the mix
    weights the vocabulary as it weights training; Debian's spm_train)."""
    spm_input = os.path.join(args.out, "spm_input.txt")
    sample = rng.sample(kept, min(len(kept), args.spm_sentences // 2))
    with open(spm_input, "w", encoding="utf-8") as f:
        for en, de in sample:
            f.write(en + "\n" + de + "\n")
    subprocess.run([
        "spm_train", f"--input={spm_input}", f"--model_prefix={prefix}", f"--vocab_size={args.vocab_size}",
        "--model_type=unigram", "--character_coverage=0.9999", "--pad_id=0", "--unk_id=1", "--bos_id=2",
        "--eos_id=3", "--input_sentence_size=1000000", "--shuffle_input_sentence=true",
        "--num_threads=2", "--minloglevel=1",
    ], check=True)


def encode_ids(out, prefix):
    for lang in ("en", "de"):
        with open(os.path.join(out, f"train.{lang}"), "rb") as fin, \
                open(os.path.join(out, f"train.{lang}.ids"), "wb") as fout:
            subprocess.run(["spm_encode", f"--model={prefix}.model", "--output_format=id"],
                           stdin=fin, stdout=fout, check=True)


if __name__ == "__main__":
    main()
