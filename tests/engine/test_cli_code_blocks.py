"""Markdown code blocks (fenced and indented, engine/text/verbatim.h code_blocks) come out exactly
as the source writes them: no target pass (number separators, currency, quotes, ...) runs on them,
while the same number in the text around them is written the target language's way."""
import os
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.environ.get("NMT_BIN") or os.path.join(ROOT, "build", "nmt")  # NMT_BIN: another build


def translate(direction, text):
    r = subprocess.run([NMT, "--model", os.path.join(ROOT, "weights", direction, "model.nmt")], input=text,
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return r.stdout


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class CodeBlocks(unittest.TestCase):
    def test_numbers_in_code_blocks_stay_as_written(self):
        fenced = "```\ntotal = 1,234.56\nprice = \"9.99\"\n```"
        indented = "    price = 9.99 # 1,234.56"
        out = translate("en-de", f"Set the total:\n\n{fenced}\n\nThen:\n\n{indented}\n\nThe total was 1,234.56 euros.\n")
        self.assertIn(fenced, out)
        self.assertIn(indented, out)
        self.assertIn("1.234,56", out.split(indented)[1])  # the text's own number is German
        out = translate("de-en", "Beispiel:\n\n```\nsumme = 1.234,56\n```\n")
        self.assertIn("```\nsumme = 1.234,56\n```", out)


if __name__ == "__main__":
    unittest.main()
