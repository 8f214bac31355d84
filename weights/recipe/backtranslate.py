"""Back-translation: turn monolingual text into synthetic training pairs with this project's engine.

  python3 backtranslate.py --corpus ../shared/corpus --out work/bt --nmt build/nmt \
      --weights weights [--beam 1] [--sample-top-k K --seed S] [--limit N]

German sentences (mono/*.de.txt.gz) are translated into English by the de->en model: the pairs
(synthetic English, real German) train en->de. English sentences (mono/*.en.txt.gz) are translated
by en->de: (real English, synthetic German) train de->en. The real side is the target, so the
model learns to write fluent text even from an imperfect source (Sennrich et al. 2016).
--sample-top-k K (beam 1) samples the synthetic side from the model's K most probable tokens instead
of taking the most probable (K >= the vocabulary, e.g. 8000: unrestricted sampling), which trains
better at scale (Edunov et al. 2018); --seed S picks the random stream (each sentence's random
numbers depend only on S and the sentence; a rerun of the same command draws the same samples).

Writes into --out, one file per direction that the pairs train, English<TAB>German like the corpus:
  bt.en-de.tsv   synthetic English <TAB> real German   (from mono/*.de)
  bt.de-en.tsv   real English <TAB> synthetic German   (from mono/*.en)
  bt.json        sentences, words, seconds and words/s of each engine run, and the decoding used
                 (beam, sample_top_k, seed)

The two directions run at once (one engine process each, one core each) in chunks of --chunk lines,
so a run shows progress and an interrupted run continues where it stopped (rerun the same command).
"""
import argparse
import gzip
import json
import os
import re
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_cli  # noqa: E402
from prepare_data import clean_pair  # noqa: E402

SPACE = re.compile(r"\s+")
SPACE_BEFORE = re.compile(r"\s+([,.;:!?%)\]}])")
SPACE_AFTER = re.compile(r"([(\[{«„]) ")
CONTRACTION = re.compile(r" (n't|'s|'re|'ve|'ll|'d|'m)\b", re.IGNORECASE)


def normalize_line(line):
    """Undoes the tokenized spacing of lines re-joined from one-token-per-line files (the corpus
    README warns of it): ``x'' quotes, a space before punctuation or after an opening bracket."""
    line = line.replace("``", '"').replace("''", '"')
    line = SPACE.sub(" ", line).strip()
    line = CONTRACTION.sub(r"\1", line)
    line = SPACE_AFTER.sub(r"\1", line)
    line = SPACE_BEFORE.sub(r"\1", line)
    # straight double quotes in pairs: no space inside either quote ( " word " -> "word" )
    if line.count('"') % 2 == 0 and ' " ' in line:
        parts = line.split('"')
        for i in range(1, len(parts), 2):
            parts[i] = parts[i].strip()
        line = '"'.join(parts)
    return line


def read_mono(corpus, lang, max_chars=400, min_words=3):
    """The cleaned, de-duplicated sentences of mono/*.<lang>.txt.gz, in file order."""
    seen, lines = set(), []
    folder = os.path.join(corpus, "mono")
    for name in sorted(os.listdir(folder)):
        if not name.endswith(f".{lang}.txt.gz"):
            continue
        with gzip.open(os.path.join(folder, name), "rt", encoding="utf-8") as f:
            for raw in f:
                line = normalize_line(raw)
                if not line or len(line) > max_chars or len(line.split()) < min_words or line in seen:
                    continue
                seen.add(line)
                lines.append(line)
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--weights", default=os.path.join(os.path.dirname(__file__), ".."),
                    help="folder with en-de/model.nmt and de-en/model.nmt")
    ap.add_argument("--nmt", default=engine_cli.DEFAULT_NMT)
    ap.add_argument("--beam", type=int, default=1, help="1 = greedy (the default: ~3x faster than beam 4)")
    ap.add_argument("--sample-top-k", type=int, default=0,
                    help="sample each token from the model's K most probable (needs --beam 1); 0 = the argmax, as before")
    ap.add_argument("--seed", type=int, default=0, help="with --sample-top-k: the random stream")
    ap.add_argument("--chunk", type=int, default=1000, help="lines per engine run")
    ap.add_argument("--limit", type=int, default=0, help="at most this many sentences per language (0 = all)")
    args = ap.parse_args()
    if args.sample_top_k and args.beam != 1:
        ap.error("--sample-top-k needs --beam 1")
    os.makedirs(args.out, exist_ok=True)

    # direction trained <- (monolingual language, model that translates it)
    jobs = []
    for trains, mono_lang, model_dir in (("en-de", "de", "de-en"), ("de-en", "en", "en-de")):
        lines = read_mono(args.corpus, mono_lang)
        if args.limit:
            lines = lines[: args.limit]
        partial = os.path.join(args.out, f"bt.{trains}.partial")
        done = []
        if os.path.exists(partial):
            with open(partial, encoding="utf-8") as f:
                done = [line.rstrip("\n") for line in f]
        seconds = 0.0
        if os.path.exists(partial + ".seconds"):
            with open(partial + ".seconds") as f:
                seconds = float(f.read())
        jobs.append({"trains": trains, "mono": mono_lang, "model": os.path.join(args.weights, model_dir, "model.nmt"),
                     "lines": lines, "done": done, "partial": partial, "seconds": seconds})
        print(f"{trains}: {len(lines)} {mono_lang} sentences, {len(done)} already translated", file=sys.stderr)

    # both directions at once (a thread each waits on its engine process), a chunk at a time each
    def run(job):
        while len(job["done"]) < len(job["lines"]):
            batch = job["lines"][len(job["done"]): len(job["done"]) + args.chunk]
            t0 = time.time()
            sampling = {"sample_top_k": args.sample_top_k, "seed": args.seed} if args.sample_top_k else {}
            got, _ = engine_cli.translate(args.nmt, job["model"], batch, args.beam, **sampling)
            job["seconds"] += time.time() - t0
            job["done"].extend(got)
            with open(job["partial"], "a", encoding="utf-8") as f:
                f.write("\n".join(got) + "\n")
            with open(job["partial"] + ".seconds", "w") as f:
                f.write(f"{job['seconds']:.1f}\n")
            print(f"[{time.strftime('%H:%M:%S')}] {job['trains']}: {len(job['done'])}/{len(job['lines'])}",
                  file=sys.stderr, flush=True)

    threads = [threading.Thread(target=run, args=(j,)) for j in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if any(len(j["done"]) != len(j["lines"]) for j in jobs):
        raise SystemExit("back-translation failed (see above)")

    stats = {"beam": args.beam, "sample_top_k": args.sample_top_k, "seed": args.seed if args.sample_top_k else None,
             "engine": os.path.basename(args.nmt)}
    for j in jobs:
        kept = dropped = 0
        words = sum(len(line.split()) for line in j["lines"])
        with open(os.path.join(args.out, f"bt.{j['trains']}.tsv"), "w", encoding="utf-8") as f:
            for real, synthetic in zip(j["lines"], j["done"]):
                en, de = (synthetic, real) if j["mono"] == "de" else (real, synthetic)
                en, de = SPACE.sub(" ", en).strip(), SPACE.sub(" ", de).strip()
                # " ⁇ " is the engine's unknown piece: the model met a character outside its vocabulary
                if clean_pair(en, de) or en == de or "\u2047" in synthetic:
                    dropped += 1
                    continue
                kept += 1
                f.write(f"{en}\t{de}\n")
        stats[j["trains"]] = {"mono": j["mono"], "model": j["model"], "sentences": len(j["lines"]),
                              "source_words": words, "kept_pairs": kept, "dropped_pairs": dropped,
                              "engine_seconds": round(j["seconds"], 1),
                              "words_per_second": round(words / j["seconds"], 1) if j["seconds"] else None}
    with open(os.path.join(args.out, "bt.json"), "w") as f:
        json.dump(stats, f, indent=1)
    print(json.dumps(stats, indent=1), file=sys.stderr)


if __name__ == "__main__":
    main()
