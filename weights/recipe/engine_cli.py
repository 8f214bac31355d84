"""The C++ engine's command-line tool (build/nmt) as the recipe calls it: translate lines, cut
lines into sentences. One place for the flags, shared by evaluate.py, sweep_decoding.py,
backtranslate.py and prepare_data.py."""
import os
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DEFAULT_NMT = os.path.join(ROOT, "build", "nmt")


def translate(nmt, model_file, lines, beam, length_penalty=None, coverage_penalty=None, reverse_model=None,
              reverse_weight=None, sample_top_k=None, seed=None, keep_case=False, raw_numbers=False, memory=True):
    """One sentence (or paragraph) a line in, its translation a line out (the engine keeps line
    breaks); options left at None take the engine's defaults. sample_top_k (beam 1 only) draws each
    token from the model's k most probable instead of the argmax, with the random stream `seed`.
    keep_case translates sentences in capitals or Title Case as written (the engine recases them);
    raw_numbers leaves numbers as the model wrote them (the engine translates a sentence that lost one
    again, with it copied). memory=False (--model-only): the model's translation even where the model file's
    translation memory holds the sentence (memory.py).
    Returns (translations, seconds)."""
    cmd = [nmt, "--model", model_file, "--beam", str(beam)]
    if length_penalty is not None:
        cmd += ["--length-penalty", str(length_penalty)]
    if coverage_penalty is not None:
        cmd += ["--coverage-penalty", str(coverage_penalty)]
    if reverse_model:
        cmd += ["--reverse-model", reverse_model]
        if reverse_weight is not None:
            cmd += ["--reverse-weight", str(reverse_weight)]
    if sample_top_k is not None:
        cmd += ["--sample-top-k", str(sample_top_k)]
    if seed is not None:
        cmd += ["--seed", str(seed)]
    if keep_case:
        cmd += ["--keep-case"]
    if raw_numbers:
        cmd += ["--raw-numbers"]
    if not memory:
        cmd += ["--model-only"]
    text = "\n".join(line.replace("\n", " ") for line in lines) + "\n"
    t0 = time.time()
    out = subprocess.run(cmd, input=text, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: {out.stderr.strip()}")
    hyps = out.stdout.split("\n")
    if hyps and hyps[-1] == "":
        hyps.pop()
    if len(hyps) != len(lines):
        raise RuntimeError(f"the engine returned {len(hyps)} lines for {len(lines)}")
    return hyps, time.time() - t0


def segment(nmt, lang, lines):
    """Each line cut into the sentences the engine translates one at a time (`nmt segment`)."""
    if not lines:
        return []
    if not os.path.exists(nmt):
        raise SystemExit(f"{nmt}: not found; build the engine first (scripts/build.sh) or pass --nmt")
    out = subprocess.run([nmt, "segment", "--lang", lang], input="\n".join(l.replace("\n", " ") for l in lines) + "\n",
                         capture_output=True, text=True, check=True).stdout.split("\n")
    return [row.split("\t") if row else [] for row in out[: len(lines)]]
