"""No translation comes out empty: with the shipped de->en model and the native CLI, German words
alone that the model answered with nothing ("sehr" -> "▁" and eos; 15 of 600 frequent dictionary
words given one a line) are translated again with the tokens that write nothing not allowed first
(engine/retries.cpp retry_empty; tests/engine/test_empty_translation.cpp checks the
search itself)."""
import os
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")

# each came out empty before the second try (one a line, as below)
WORDS = ["sie", "zu", "habe", "sich", "sehr", "man", "bei", "waren", "dinge", "stück"]


def run(direction, text, *options):
    r = subprocess.run([NMT, "--model", os.path.join(ROOT, "weights", direction, "model.nmt"), *options],
                       input=text + "\n", capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return r.stdout.rstrip("\n")


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class NoEmptyTranslation(unittest.TestCase):
    def test_every_word_gets_a_translation(self):
        for options in ([], ["--beam", "1"], ["--shortlist"]):
            out = run("de-en", "\n".join(WORDS), *options).split("\n")
            self.assertEqual(len(out), len(WORDS))
            for word, translated in zip(WORDS, out):
                with self.subTest(word=word, options=options):
                    self.assertRegex(translated, r"\w", f"{word} came out {translated!r}")

    def test_a_word_alone_and_in_a_sentence(self):
        self.assertRegex(run("de-en", "sehr"), r"\w")
        self.assertIn("very", run("de-en", "Das ist sehr gut.").lower())


if __name__ == "__main__":
    unittest.main()
