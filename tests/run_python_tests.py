"""Runs every Python test file (tests/engine/test_*.py, tests/weights/test_*.py), each in its own
process as `python3 FILE` would, and writes what ran and what skipped (with the reasons) to
build/test-results/python.json for tests/check_skips.py. Exits non-zero if any file fails.

  /usr/bin/python3 tests/run_python_tests.py [FILE ...]
"""
import glob
import json
import os
import subprocess
import sys

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


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "tests", "engine", "test_*.py")) +
                                   glob.glob(os.path.join(ROOT, "tests", "weights", "test_*.py")))
    out_dir = os.path.join(ROOT, "build", "test-results")
    os.makedirs(out_dir, exist_ok=True)
    results, failed = {}, []
    for path in files:
        rel = os.path.relpath(path, ROOT)
        print(f"-- {rel}", flush=True)
        report = os.path.join(out_dir, "python-one.json")
        if os.path.exists(report):
            os.remove(report)
        code = subprocess.run([sys.executable, "-c", CHILD, os.path.abspath(path), report], cwd=ROOT).returncode
        if code != 0 or not os.path.exists(report):
            failed.append(rel)
            results[rel] = {"ran": 0, "skipped": [], "failed": 1}
            continue
        with open(report) as f:
            results[rel] = json.load(f)
        # a skipped test's id is module-relative ("tests_under_run.Class.test"): name the file instead
        for skip in results[rel]["skipped"]:
            skip[0] = skip[0].replace("tests_under_run", rel)
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
