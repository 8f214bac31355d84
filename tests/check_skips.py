"""The test run's totals, and no silent skips: prints how many tests ran and skipped in each suite
(Python: build/test-results/python.json from tests/run_python_tests.py; node: the TAP output
saved in build/test-results/node.tap), and fails if a test skipped without being listed, with its
reason, in tests/allowed_skips.txt. `npm test` installs everything every test needs, so there a
skip means a test that silently stopped testing anything.

  /usr/bin/python3 tests/check_skips.py
"""
import fnmatch
import json
import os
import re
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
RESULTS = os.path.join(ROOT, "build", "test-results")


def allowed_skips(path=os.path.join(ROOT, "tests", "allowed_skips.txt")):
    """'pattern  # reason' lines (fnmatch patterns over the test names below); the reason is required."""
    allowed = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            pattern, sep, reason = line.partition("#")
            if not sep or not reason.strip():
                raise SystemExit(f"{path}:{number}: every allowed skip needs '# reason'")
            allowed.append(pattern.strip())
    return allowed


def node_results(path):
    """(tests that ran, [(name, reason)] skipped) from node --test's TAP output."""
    ran, skipped = 0, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s*(?:not )?ok \d+ - (.*?)(?: # SKIP ?(.*))?$", line.rstrip("\n"))
            if not m:
                continue
            if m.group(2) is not None or line.rstrip().endswith("# SKIP"):
                skipped.append((m.group(1), m.group(2) or ""))
            else:
                ran += 1
    return ran, skipped


def main():
    allowed = allowed_skips()
    suites = {}
    with open(os.path.join(RESULTS, "python.json")) as f:
        python = json.load(f)
    suites["python"] = (sum(r["ran"] for r in python.values()),
                        [(name, reason) for r in python.values() for name, reason in r["skipped"]])
    suites["node"] = node_results(os.path.join(RESULTS, "node.tap"))
    unlisted = []
    for suite, (ran, skipped) in suites.items():
        print(f"{suite}: {ran} ran, {len(skipped)} skipped")
        for name, reason in skipped:
            listed = any(fnmatch.fnmatch(name, p) for p in allowed)
            print(f"  skipped{'' if listed else ' (NOT ALLOWED)'}: {name}: {reason}")
            if not listed:
                unlisted.append(name)
    total_ran = sum(r for r, _ in suites.values())
    total_skipped = sum(len(s) for _, s in suites.values())
    print(f"total: {total_ran} ran, {total_skipped} skipped (engine doctest cases: see ctest above)")
    if unlisted:
        print(f"{len(unlisted)} test(s) skipped without being listed in tests/allowed_skips.txt: a skip here means "
              "the test no longer tests anything; install what it needs or list it with the reason")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
