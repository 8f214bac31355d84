"""weights/recipe/spm_tools.py: the recipe runs SentencePiece through Debian's tools here and through
the Python package on the GPU machine (which has no tools). Both must give the same ids, text and
vocabulary, or a GPU round would train on different pieces than the engine reads."""
import os
import tempfile
import unittest
from unittest import mock

from recipe_env import ROOT

import spm_tools

MODEL = os.path.join(ROOT, "tests", "fixtures", "spm.model")
LINES = ["The house is small.", "Das Haus ist klein, oder?", "Größe: 5 % – „Anführungszeichen“ …", "x"]


def both(fn, *args):
    """fn's result through the tools and through the Python package."""
    with mock.patch.dict(os.environ, {"NMT_SPM": "tools"}):
        tools = fn(*args)
    with mock.patch.dict(os.environ, {"NMT_SPM": "python"}):
        python = fn(*args)
    return tools, python


class SameResultEitherWay(unittest.TestCase):
    def setUp(self):
        if spm_tools._spm is None:
            self.fail("the Python sentencepiece package is missing (apt-get install python3-sentencepiece)")

    def test_encode_and_decode(self):
        tools, python = both(spm_tools.encode, MODEL, LINES)
        self.assertEqual(tools, python)
        decoded = both(spm_tools.decode, MODEL, tools)
        self.assertEqual(decoded[0], decoded[1])
        self.assertEqual(decoded[0][:2], LINES[:2])
        self.assertEqual(decoded[0][2], LINES[2].replace("…", "..."))  # the vocabulary's NFKC normalization

    def test_encode_file_and_export_vocab(self):
        with tempfile.TemporaryDirectory() as tmp:
            text = os.path.join(tmp, "t.txt")
            with open(text, "w", encoding="utf-8") as f:
                f.write("\n".join(LINES) + "\n")
            outputs = []
            for way in ("tools", "python"):
                with mock.patch.dict(os.environ, {"NMT_SPM": way}):
                    spm_tools.encode_file(MODEL, text, os.path.join(tmp, f"{way}.ids"))
                    spm_tools.export_vocab(MODEL, os.path.join(tmp, f"{way}.vocab"))
                with open(os.path.join(tmp, f"{way}.ids")) as f, open(os.path.join(tmp, f"{way}.vocab"), encoding="utf-8") as g:
                    outputs.append((f.read(), [line.split("\t")[0] for line in g]))
            self.assertEqual(outputs[0], outputs[1])
            self.assertEqual(len(outputs[0][1]), 8000)


if __name__ == "__main__":
    unittest.main()
