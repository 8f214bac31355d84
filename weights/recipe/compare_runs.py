"""Score model files of one direction side by side: the GPU student plan's variants against its control
(issue 30: tag or none, the synthetic share, sampled or greedy synthetic sources), or any candidates.

  python3 compare_runs.py --dev-dir ../shared/corpus/dev --direction en-de --nmt build/nmt \
      --out work/compare-en-de.json control=g23/student-en-de.nmt untagged=g23/student-en-de-untagged.nmt ...

Each model translates every dev set with the engine (int8, beam 4 by default, one sentence a line);
the table gives BLEU / chrF, and for every model after the first its BLEU difference from the first
with the 95% paired-bootstrap interval (metrics.paired_bootstrap): a difference whose interval holds
0 is within the dev set's noise. On the label sets (dev_sets.EXACT_MATCH_SETS) each run also gets its
exact-match share and, after the first, its chrF difference with an interval. Translations are kept
beside --out, so a rerun only scores.
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import engine_cli  # noqa: E402
from dev_sets import EXACT_MATCH_SETS, dev_path, load_dev  # noqa: E402
from metrics import bleu, chrf, exact_match, paired_bootstrap  # noqa: E402

DEV_SETS = ("flores-dev", "tatoeba-dev", "multi30k-test2016")


def translations(nmt, model, sources, beam, cache):
    """The model's translation of each source line, from the cache file when it is complete."""
    if os.path.exists(cache):
        with open(cache, encoding="utf-8") as f:
            lines = f.read().split("\n")[: len(sources)]
        if len(lines) == len(sources):
            return lines
    lines, _ = engine_cli.translate(nmt, model, sources, beam)
    with open(cache, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    return lines


def compare(runs, dev_dir, direction, nmt, beam, work, sets=DEV_SETS):
    """{set: {name: {"bleu", "chrf", and for all but the first run "vs_first": bootstrap}}}."""
    src_lang = direction.split("-")[0]
    results = {}
    for dev in sets:
        sources, refs = load_dev(dev_path(dev_dir, dev), src_lang)
        outputs = {name: translations(nmt, model, sources, beam, os.path.join(work, f"{name}.{dev}.{direction}.b{beam}"))
                   for name, model in runs}
        first = runs[0][0]
        results[dev] = {}
        for name, _ in runs:
            row = {"bleu": round(bleu(outputs[name], refs), 2), "chrf": round(chrf(outputs[name], refs), 2)}
            if dev in EXACT_MATCH_SETS:  # labels: the whole line right, and chrF's interval (BLEU is coarse on 1-6 words)
                row["exact_match"] = round(exact_match(outputs[name], refs), 2)
            if name != first:
                row["vs_first"] = {k: round(v, 3) for k, v in paired_bootstrap(outputs[first], outputs[name], refs).items()}
                if dev in EXACT_MATCH_SETS:
                    row["chrf_vs_first"] = {k: round(v, 3) for k, v in
                                            paired_bootstrap(outputs[first], outputs[name], refs, metric="chrf").items()}
            results[dev][name] = row
    return results


def table(results, runs):
    names = [name for name, _ in runs]
    lines = ["| run | " + " | ".join(results) + " |", "|---" * (len(results) + 1) + "|"]
    for name in names:
        cells = []
        for dev in results:
            r = results[dev][name]
            cell = f"{r['bleu']:.2f} / {r['chrf']:.2f}"
            if "vs_first" in r:
                b = r["vs_first"]
                cell += f" ({b['delta']:+.2f} [{b['low']:+.2f}, {b['high']:+.2f}])"
            if "exact_match" in r:
                cell += f", exact {r['exact_match']:.1f}%"
            if "chrf_vs_first" in r:
                c = r["chrf_vs_first"]
                cell += f", chrF {c['delta']:+.2f} [{c['low']:+.2f}, {c['high']:+.2f}]"
            cells.append(cell)
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", metavar="NAME=MODEL", help="the first is what the others are compared with")
    ap.add_argument("--dev-dir", required=True)
    ap.add_argument("--direction", required=True, choices=("en-de", "de-en"))
    ap.add_argument("--nmt", default=engine_cli.DEFAULT_NMT)
    ap.add_argument("--beam", type=int, default=4)
    ap.add_argument("--sets", default=",".join(DEV_SETS))
    ap.add_argument("--out", required=True, help="JSON of the scores; translations are kept in <out>.d/")
    args = ap.parse_args()
    runs = []
    for spec in args.runs:
        name, _, model = spec.partition("=")
        if not name or not os.path.isfile(model):
            raise SystemExit(f"{spec}: want NAME=MODEL with an existing model file")
        runs.append((name, model))
    if len({n for n, _ in runs}) != len(runs):
        raise SystemExit("run names must differ")
    work = args.out + ".d"
    os.makedirs(work, exist_ok=True)
    results = compare(runs, args.dev_dir, args.direction, args.nmt, args.beam, work, args.sets.split(","))
    with open(args.out, "w") as f:
        json.dump({"direction": args.direction, "beam": args.beam, "runs": dict(runs), "scores": results}, f, indent=1)
    print(table(results, runs))


if __name__ == "__main__":
    main()
