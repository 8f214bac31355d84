"""Shared by the tests in this folder: the repository root, weights/recipe on the import path, and
the marker for tests that need PyTorch (the recipe's dependency). CI installs only what the product
needs, so those tests skip there with a message instead of failing."""
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
