"""Shared by the tests in this folder: the repository root, weights/recipe on the import path, and
the markers for tests that need PyTorch (the recipe's dependency) or the engine's CLI (build/nmt).
Without them a test skips with a message; NMT_REQUIRE_ENGINE=1 (scripts/test.sh) makes a missing
engine a failure instead."""
import os
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "weights", "recipe"))

try:
    import torch
except ImportError:  # pragma: no cover
    torch = None

needs_torch = unittest.skipIf(torch is None, "PyTorch is not installed (apt-get install python3-torch)")

NMT = os.path.join(ROOT, "build", "nmt")
needs_engine = unittest.skipIf(not os.path.exists(NMT) and not os.environ.get("NMT_REQUIRE_ENGINE"),
                               "build/nmt is not built (scripts/build.sh)")
