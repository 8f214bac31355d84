"""The whole recipe in one command: data -> vocabulary -> training (both directions) -> int8 export
-> evaluation -> manifest.

  /usr/bin/python3 weights/recipe/run_all.py --corpus ../shared/corpus --minutes 120
  /usr/bin/python3 weights/recipe/run_all.py --corpus ../shared/corpus --minutes 60 --device cuda
  /usr/bin/python3 weights/recipe/run_all.py --corpus ../shared/corpus --from-stage export   # reuse training
  /usr/bin/python3 weights/recipe/run_all.py --corpus ../shared/corpus --continue-shipped    # train the shipped models further

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
STAGES = ["data", "train", "export", "evaluate", "manifest"]
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
    ap.add_argument("--from-stage", choices=STAGES, default="data")
    ap.add_argument("--continue-shipped", action="store_true",
                    help="keep the shipped vocabulary and start each direction from its shipped model")
    args = ap.parse_args()
    py = sys.executable
    data = os.path.join(args.work, "data")
    stages = STAGES[STAGES.index(args.from_stage):]
    t0 = time.time()

    if "data" in stages:
        log("stage 1/5: clean + sample the corpus, train the joint SentencePiece vocabulary")
        reuse = ["--reuse-vocab", os.path.join(args.weights, "en-de", "model.nmt")] if args.continue_shipped else []
        run([py, os.path.join(HERE, "prepare_data.py"), "--corpus", args.corpus, "--out", data,
             "--vocab-size", str(args.vocab_size), *reuse])

    if "train" in stages:
        eta = args.minutes * (1 if args.device == "cpu" else 2)
        log(f"stage 2/5: training both directions, about {eta:.0f} minutes (progress: work/<dir>/train.log)")
        common = ["--data", data, "--dev", os.path.join(args.corpus, "dev", "flores-dev.en-de.tsv"),
                  "--minutes", str(args.minutes), "--device", args.device,
                  "--anneal-minutes", str(args.anneal_minutes)]

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
        if "export" in stages:
            log(f"stage 3/5: int8 export of {d} (and an f32 copy in work/ for the fp32 scores)")
            run([py, os.path.join(HERE, "export.py"), "--checkpoint", os.path.join(args.work, d, "model.pt"),
                 "--spm", os.path.join(data, "spm.model"), "--out", model_file])
            run([py, os.path.join(HERE, "export.py"), "--checkpoint", os.path.join(args.work, d, "model.pt"),
                 "--spm", os.path.join(data, "spm.model"), "--out", os.path.join(args.work, d, "model.f32.nmt"), "--f32"])
    # after both exports: each direction's reranked score uses the other direction's new model
    for s, t in DIRECTIONS:
        d = f"{s}-{t}"
        if "evaluate" in stages:
            log(f"stage 4/5: evaluating {d} (PyTorch fp32 greedy, engine fp32 beam, engine int8 greedy + beam, "
                f"and beam reranked by {t}-{s})")
            run([py, os.path.join(HERE, "evaluate.py"), "--dev-dir", os.path.join(args.corpus, "dev"), "--src", s,
                 "--tgt", t, "--model-file", os.path.join(args.weights, d, "model.nmt"),
                 "--reverse-model-file", os.path.join(args.weights, f"{t}-{s}", "model.nmt"),
                 "--checkpoint", os.path.join(args.work, d, "model.pt"),
                 "--f32-model-file", os.path.join(args.work, d, "model.f32.nmt"),
                 "--nmt", os.path.join(ROOT, "build", "nmt"), "--out", os.path.join(args.weights, d, "scores.json"),
                 "--sample-dir", os.path.join(ROOT, "tests", "fixtures", "quality")])

    if "manifest" in stages:
        log("stage 5/5: manifest")
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
