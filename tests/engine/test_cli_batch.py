"""A sentence translates the same alone and in a batch, with the shipped models and the native CLI.

The CLI translates its whole input as batches of sentences (shortest first, padded to a common
length). Nothing about a sentence's neighbours may reach its translation: not the padding, not the
row it lands on in the int8 GEMM (GCC once fused that GEMM's multiply-add in some block shapes and
not others: 3 of these 100 flores-dev lines changed), not the lexical shortlist (it used to be
the union of the batch's lists: 11 of 50 lines changed). Each input line is one sentence or a few.
"""
import os
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")
FLORES = os.path.join(ROOT, "tests", "fixtures", "dev", "flores-dev.en-de.tsv")


def model(direction):
    return os.path.join(ROOT, "weights", direction, "model.nmt")


def lines(column, count):
    with open(FLORES, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t")[column] for line in f][:count]


def translate(direction, text, *options):
    r = subprocess.run([NMT, "--model", model(direction), *options], input=text, capture_output=True,
                       text=True, timeout=600)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return r.stdout


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class AloneAndBatched(unittest.TestCase):
    def check(self, direction, sources, *options):
        together = translate(direction, "".join(s + "\n" for s in sources), *options).split("\n")[:-1]
        self.assertEqual(len(together), len(sources))
        for source, batched in zip(sources, together):
            with self.subTest(source=source[:60]):
                self.assertEqual(translate(direction, source + "\n", *options).rstrip("\n"), batched)

    def test_greedy_full_vocabulary(self):
        self.check("en-de", lines(0, 100), "--beam", "1")

    def test_beam_with_the_shortlist(self):
        self.check("de-en", lines(1, 50), "--beam", "4", "--shortlist")


if __name__ == "__main__":
    unittest.main()
