"""The whole recipe in one command: back-translation -> data -> vocabulary -> training (both
directions) -> int8 export (with the lexical shortlist, the word lists for text in capitals and the
translation memory of the short sentences the exported model gets wrong) -> evaluation -> manifest.

  /usr/bin/python3 weights/recipe/run_all.py --corpus ../shared/corpus --minutes 120
  /usr/bin/python3 weights/recipe/run_all.py --corpus ../shared/corpus --minutes 60 --device cuda
  /usr/bin/python3 weights/recipe/run_all.py --corpus ../shared/corpus --from-stage export   # reuse training
  /usr/bin/python3 weights/recipe/run_all.py --corpus ../shared/corpus --continue-shipped    # train the shipped models further

Back-translation needs models to translate with: it uses the shipped ones in --weights when they
exist (skipped otherwise, e.g. a first run from nothing; run again once they do).
--minutes is the training budget per direction. On CPU both directions train at once, one thread
each (a 2-core machine); on CUDA one after the other with bigger batches. Training is resumable:
rerunning continues from work/<dir>/last.pt. Needs the native engine (scripts/build.sh) for the
evaluation of the shipped int8 files.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
STAGES = ["backtranslate", "data", "train", "export", "evaluate", "manifest"]
DIRECTIONS = [("en", "de"), ("de", "en")]


def log(msg):
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def run(cmd, **kw):
    log("$ " + " ".join(cmd))
    subprocess.run(cmd, check=True, **kw)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


# train.py's options that decide what the model learns (not where or how long it runs): recorded in
# the model file's provenance, and tests/weights/test_card.py checks that train.py's defaults are them
TRAINING_OPTIONS = ("lr", "warmup", "label_smoothing", "dropout", "max_tokens", "bt_tag", "bt_weight", "rewarm")


def training_args(train_log):
    """The decisive options of the last training run in a train.log (its last "start" event)."""
    args = {}
    with open(train_log) as f:
        for line in f:
            event = json.loads(line)
            if event.get("event") == "start":
                args = {k: event["args"][k] for k in TRAINING_OPTIONS if k in event["args"]}
    return args


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--work", default=os.path.join(ROOT, "work"))
    ap.add_argument("--weights", default=os.path.join(ROOT, "weights"))
    ap.add_argument("--minutes", type=float, default=120, help="training time budget per direction")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--anneal-minutes", type=float, default=0,
                    help="take the learning rate linearly to zero over the last minutes of training (train.py)")
    ap.add_argument("--vocab-size", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=1, help="training seed (round 20: 20)")
    ap.add_argument("--from-stage", choices=STAGES, default="backtranslate")
    ap.add_argument("--gpu-student", action="store_true",
                    help="the work folder's models came from gpu_round.py student (round 21): say so in the provenance")
    ap.add_argument("--directions", nargs="+", choices=[f"{s}-{t}" for s, t in DIRECTIONS],
                    default=[f"{s}-{t}" for s, t in DIRECTIONS],
                    help="export only these (a round that ships one direction); the others keep their model "
                         "file and are evaluated again against the new reverse model, their fp32 scores kept")
    ap.add_argument("--continue-shipped", action="store_true",
                    help="keep the shipped vocabulary and start each direction from its shipped model")
    args = ap.parse_args()
    py = sys.executable
    data = os.path.join(args.work, "data")
    stages = STAGES[STAGES.index(args.from_stage):]
    t0 = time.time()

    bt = os.path.join(args.work, "bt")
    shipped = all(os.path.exists(os.path.join(args.weights, f"{s}-{t}", "model.nmt")) for s, t in DIRECTIONS)
    if "backtranslate" in stages:
        if shipped:
            log("stage 1/6: back-translate the monolingual text with the shipped models (engine CLI)")
            run([py, os.path.join(HERE, "backtranslate.py"), "--corpus", args.corpus, "--out", bt,
                 "--weights", args.weights, "--nmt", os.path.join(ROOT, "build", "nmt")])
        else:
            log("stage 1/6: no shipped models to back-translate with: training on the parallel data only")

    if "data" in stages:
        log("stage 2/6: clean + sample the corpus, train the joint SentencePiece vocabulary")
        reuse = ["--reuse-vocab", os.path.join(args.weights, "en-de", "model.nmt")] if args.continue_shipped else []
        synthetic = ["--back-translations", bt] if os.path.exists(os.path.join(bt, "bt.json")) else []
        run([py, os.path.join(HERE, "prepare_data.py"), "--corpus", args.corpus, "--out", data,
             "--vocab-size", str(args.vocab_size), *reuse, *synthetic])

    if "train" in stages:
        eta = args.minutes * (1 if args.device == "cpu" else 2)
        log(f"stage 3/6: training both directions, about {eta:.0f} minutes (progress: work/<dir>/train.log)")
        common = ["--data", data, "--dev", os.path.join(args.corpus, "dev", "flores-dev.en-de.tsv"),
                  "--minutes", str(args.minutes), "--device", args.device,
                  "--anneal-minutes", str(args.anneal_minutes), "--seed", str(args.seed)]

        def init(s, t):
            return ["--init-from", os.path.join(args.weights, f"{s}-{t}", "model.nmt")] if args.continue_shipped else []
        if args.device == "cpu":
            procs = [subprocess.Popen([py, os.path.join(HERE, "train.py"), *common, "--src", s, "--tgt", t,
                                       "--out", os.path.join(args.work, f"{s}-{t}"), "--threads", "1", *init(s, t)])
                     for s, t in DIRECTIONS]
            for p in procs:
                if p.wait() != 0:
                    raise SystemExit("training failed")
        else:
            for s, t in DIRECTIONS:
                run([py, os.path.join(HERE, "train.py"), *common, "--src", s, "--tgt", t,
                     "--out", os.path.join(args.work, f"{s}-{t}"), "--max-tokens", "25000", "--threads", "8", *init(s, t)])

    for s, t in DIRECTIONS:
        d = f"{s}-{t}"
        model_file = os.path.join(args.weights, d, "model.nmt")
        if "export" in stages and d in args.directions:
            log(f"stage 4/6: int8 export of {d} with its lexical shortlist, truecase lists and translation memory "
                f"(and an f32 copy in work/ for the fp32 scores)")
            provenance = {"train_args": training_args(os.path.join(args.work, d, "train.log"))}
            if args.gpu_student:  # held to gpu_round.STUDENT_TRAIN_ARGS by the card test, not train.py's defaults
                provenance["plan"] = "gpu_round.py student"
            provenance = json.dumps(provenance)
            run([py, os.path.join(HERE, "export.py"), "--checkpoint", os.path.join(args.work, d, "model.pt"),
                 "--spm", os.path.join(data, "spm.model"), "--out", model_file, "--provenance", provenance])
            # the lexical shortlist (shortlist.py's FREQUENT / PER_SOURCE), counted on this direction's pairs
            table = os.path.join(args.work, d, "shortlist.npz")
            run([py, os.path.join(HERE, "shortlist.py"), "build", "--data", data, "--direction", d,
                 "--model", model_file, "--out", table])
            run([py, os.path.join(HERE, "shortlist.py"), "add", "--model", model_file, "--table", table, "--out", model_file])
            # the word lists for sentences in capitals / Title Case, counted on the corpus (both languages)
            truecase = os.path.join(args.work, "truecase.json")
            if not os.path.exists(truecase):
                run([py, os.path.join(HERE, "truecase.py"), "build", "--corpus", args.corpus, "--out", truecase])
            run([py, os.path.join(HERE, "truecase.py"), "add", "--model", model_file, "--table", truecase, "--out", model_file])
            # the translation memory: the corpus's short sentences this model gets wrong (needs the engine)
            memory_table = os.path.join(args.work, d, "memory.tsv")
            run([py, os.path.join(HERE, "memory.py"), "build", "--corpus", args.corpus, "--direction", d,
                 "--nmt", os.path.join(ROOT, "build", "nmt"), "--model", model_file, "--out", memory_table])
            run([py, os.path.join(HERE, "memory.py"), "add", "--model", model_file, "--table", memory_table, "--out", model_file])
            run([py, os.path.join(HERE, "export.py"), "--checkpoint", os.path.join(args.work, d, "model.pt"),
                 "--spm", os.path.join(data, "spm.model"), "--out", os.path.join(args.work, d, "model.f32.nmt"), "--f32"])
    # after both exports: each direction's reranked score uses the other direction's new model
    for s, t in DIRECTIONS:
        d = f"{s}-{t}"
        if "evaluate" in stages:
            log(f"stage 5/6: evaluating {d} (PyTorch fp32 greedy, engine fp32 beam, engine int8 greedy + beam, "
                f"and beam reranked by {t}-{s})")
            scores = os.path.join(args.weights, d, "scores.json")
            fp32 = (["--checkpoint", os.path.join(args.work, d, "model.pt"),
                     "--f32-model-file", os.path.join(args.work, d, "model.f32.nmt")] if d in args.directions
                    else ["--keep-fp32-from", scores])
            run([py, os.path.join(HERE, "evaluate.py"), "--dev-dir", os.path.join(args.corpus, "dev"), "--src", s,
                 "--tgt", t, "--model-file", os.path.join(args.weights, d, "model.nmt"),
                 "--reverse-model-file", os.path.join(args.weights, f"{t}-{s}", "model.nmt"), *fp32,
                 "--nmt", os.path.join(ROOT, "build", "nmt"), "--out", scores,
                 "--sample-dir", os.path.join(ROOT, "tests", "fixtures", "quality")])

    if "manifest" in stages:
        log("stage 6/6: manifest")
        models = []
        for s, t in DIRECTIONS:
            rel = f"{s}-{t}/model.nmt"
            path = os.path.join(args.weights, rel)
            models.append({"from": s, "to": t, "file": rel, "bytes": os.path.getsize(path), "sha256": sha256(path)})
        with open(os.path.join(args.weights, "manifest.json"), "w") as f:
            json.dump({"models": models}, f, indent=1)
            f.write("\n")
    log(f"done in {(time.time() - t0) / 60:.1f} minutes")


if __name__ == "__main__":
    main()
