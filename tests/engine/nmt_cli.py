"""The native CLI (build/nmt) with the shipped models, as the Python tests call it: one process per
call, text in on stdin, translations out on stdout, a failure raised with the CLI's stderr."""
import os
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.environ.get("NMT_BINARY") or os.path.join(ROOT, "build", "nmt")  # (another build: NMT_BINARY)

# A test class that needs the CLI: skipped before the build, never where NMT_REQUIRE_ENGINE says it must run.
needs_cli = unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")


def model(direction):
    """The shipped model file of 'en-de' or 'de-en'."""
    return os.path.join(ROOT, "weights", direction, "model.nmt")


def translate_text(direction, text, *options, timeout=600):
    """The CLI's output for `text` (one line per input line), without the last newline."""
    r = subprocess.run([NMT, "--model", model(direction), *options], input=text + "\n", capture_output=True,
                       text=True, timeout=timeout)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return r.stdout[:-1] if r.stdout.endswith("\n") else r.stdout


def translate_lines(direction, lines, *options, timeout=600):
    """One translation per line of `lines` (none of which may hold a newline); exactly as many as given."""
    out = translate_text(direction, "\n".join(lines), *options, timeout=timeout).split("\n")
    if len(out) != len(lines):
        raise AssertionError(f"{len(lines)} lines in, {len(out)} out")
    return out
