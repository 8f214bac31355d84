"""Runs every Python test file (tests/engine/test_*.py, tests/weights/test_*.py), each in its own
process as `python3 FILE` would, as many at once as there are cores (NMT_TEST_JOBS=N to choose),
and writes what ran and what skipped (with the reasons) to build/test-results/python.json for
tests/check_skips.py. Exits non-zero if any file fails.

  /usr/bin/python3 tests/run_python_tests.py [FILE ...]
"""
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# Runs inside each child: the file's tests, with a result that records skips by test id.
CHILD = r"""
import json, os, runpy, sys, unittest
path, report = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(path))
sys.argv = [path]
module = runpy.run_path(path, run_name="tests_under_run")
suite = unittest.TestSuite()
loader = unittest.TestLoader()
for value in module.values():
    if isinstance(value, type) and issubclass(value, unittest.TestCase) and value.__module__ == "tests_under_run":
        suite.addTests(loader.loadTestsFromTestCase(value))
result = unittest.TextTestRunner(verbosity=1).run(suite)
with open(report, "w") as f:
    json.dump({"ran": result.testsRun - len(result.skipped), "skipped": [[t.id(), reason] for t, reason in result.skipped],
               "failed": len(result.failures) + len(result.errors)}, f)
sys.exit(0 if result.wasSuccessful() else 1)
"""


# The slowest files start first, so that no long one is left running alone at the end.
SLOW_FIRST = ("tests/weights/test_gpu_round.py", "tests/weights/test_quality.py", "tests/engine/test_cli_case.py")


def run_file(path, out_dir, jobs):
    """Runs one test file in its own process; returns (name, exit code, output, seconds, report or None)."""
    rel = os.path.relpath(path, ROOT)
    report = os.path.join(out_dir, "python-" + rel.replace(os.sep, "-") + ".json")
    if os.path.exists(report):
        os.remove(report)
    env = dict(os.environ)
    # files run side by side: each gets its share of the cores, so PyTorch does not oversubscribe them
    env.setdefault("OMP_NUM_THREADS", str(max(1, (os.cpu_count() or 1) // jobs)))
    start = time.monotonic()
    r = subprocess.run([sys.executable, "-c", CHILD, os.path.abspath(path), report], cwd=ROOT, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    seconds = time.monotonic() - start
    data = None
    if os.path.exists(report):
        with open(report) as f:
            data = json.load(f)
        os.remove(report)
    return rel, r.returncode, r.stdout, seconds, data


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "tests", "engine", "test_*.py")) +
                                   glob.glob(os.path.join(ROOT, "tests", "weights", "test_*.py")))
    files.sort(key=lambda f: os.path.relpath(f, ROOT) not in SLOW_FIRST)  # (stable: the rest in order)
    out_dir = os.path.join(ROOT, "build", "test-results")
    os.makedirs(out_dir, exist_ok=True)
    jobs = max(1, int(os.environ.get("NMT_TEST_JOBS", os.cpu_count() or 1)))
    results, failed = {}, []
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        runs = [pool.submit(run_file, path, out_dir, jobs) for path in files]
        for run in concurrent.futures.as_completed(runs):  # each file's output whole, as it finishes
            rel, code, output, seconds, report = run.result()
            print(f"-- {rel} ({seconds:.0f} s)\n{output}", end="" if output.endswith("\n") else "\n", flush=True)
            if code != 0 or report is None:
                failed.append(rel)
                results[rel] = {"ran": 0, "skipped": [], "failed": 1}
                continue
            results[rel] = report
            # a skipped test's id is module-relative ("tests_under_run.Class.test"): name the file instead
            for skip in results[rel]["skipped"]:
                skip[0] = skip[0].replace("tests_under_run", rel)
    results = dict(sorted(results.items()))
    with open(os.path.join(out_dir, "python.json"), "w") as f:
        json.dump(results, f, indent=1)
    ran = sum(r["ran"] for r in results.values())
    skipped = sum(len(r["skipped"]) for r in results.values())
    print(f"python tests: {len(files)} files, {ran} tests ran, {skipped} skipped, {len(failed)} files failed")
    if failed:
        print("failed: " + ", ".join(failed))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
