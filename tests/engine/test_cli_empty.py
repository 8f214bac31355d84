"""No translation comes out empty: with the shipped de->en model and the native CLI, German words
alone that the model answered with nothing ("sehr" -> "▁" and eos; 15 of 600 frequent dictionary
words given one a line) are translated again with the tokens that write nothing not allowed first
(engine/retries.cpp retry_empty; tests/engine/test_empty_translation.cpp checks the
search itself)."""
import unittest

from nmt_cli import needs_cli, translate_text

# each came out empty before the second try (one a line, as below)
WORDS = ["sie", "zu", "habe", "sich", "sehr", "man", "bei", "waren", "dinge", "stück"]


@needs_cli
class NoEmptyTranslation(unittest.TestCase):
    def test_every_word_gets_a_translation(self):
        for options in ([], ["--beam", "1"], ["--shortlist"]):
            out = translate_text("de-en", "\n".join(WORDS), *options).split("\n")
            self.assertEqual(len(out), len(WORDS))
            for word, translated in zip(WORDS, out):
                with self.subTest(word=word, options=options):
                    self.assertRegex(translated, r"\w", f"{word} came out {translated!r}")

    def test_a_word_alone_and_in_a_sentence(self):
        self.assertRegex(translate_text("de-en", "sehr"), r"\w")
        self.assertIn("very", translate_text("de-en", "Das ist sehr gut.").lower())


if __name__ == "__main__":
    unittest.main()
