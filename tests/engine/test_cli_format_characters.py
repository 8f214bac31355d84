"""Invisible format characters pasted inside words (engine/text/format_characters.h), with the shipped
models: a soft hyphen, zero-width space or joiner, word joiner or BOM inside a word is read as the
word without it, and is left out of the translation; the alignments' offsets are the caller's."""
import json
import unittest

from nmt_cli import needs_cli, translate_lines, translate_text

SOFT_HYPHEN, ZWSP, ZWNJ, WORD_JOINER, BOM = "\u00ad", "\u200b", "\u200c", "\u2060", "\ufeff"
FORMAT = (SOFT_HYPHEN, ZWSP, ZWNJ, WORD_JOINER, BOM)


@needs_cli
class FormatCharacters(unittest.TestCase):
    def test_a_word_with_format_characters_inside_translates_as_the_word(self):
        cases = {
            "en-de": [f"The beau{SOFT_HYPHEN}ti{SOFT_HYPHEN}ful house is small.", f"The beau{ZWSP}ti{ZWSP}ful house.",
                      f"The inter{WORD_JOINER}national meeting starts to{BOM}day.",
                      f"{BOM}Please send the in{SOFT_HYPHEN}voice."],
            "de-en": [f"Die Auf{ZWNJ}lage ist ver{SOFT_HYPHEN}grif{SOFT_HYPHEN}fen.",
                      f"Das Wetter{ZWSP}ge{ZWSP}schehen war heute ruhig."],
        }
        for direction, lines in cases.items():
            plain = [line for line in lines]
            for ch in FORMAT:
                plain = [line.replace(ch, "") for line in plain]
            for beam in ("1", "4"):
                got = translate_lines(direction, lines, "--beam", beam)
                self.assertEqual(got, translate_lines(direction, plain, "--beam", beam), direction)
                for line in got:
                    self.assertFalse(any(ch in line for ch in FORMAT), line)

    def test_source_offsets_index_the_text_as_given(self):
        for mark in (SOFT_HYPHEN, ZWSP, WORD_JOINER):
            text = f"The beau{mark}ti{mark}ful house is small."
            result = json.loads(translate_text("en-de", text, "--alignments"))
            sentence = result["sentences"][0]
            words = [text[b:e] for b, e in sentence["source_words"]]
            self.assertEqual(words[:3], ["The", f"beau{mark}ti{mark}ful", "house"], hex(ord(mark)))
            self.assertEqual(sentence["source_range"], [0, len(text)])
            target = result["text"]
            linked = {target[slice(*sentence["target_words"][t])] for s, t, _ in sentence["word_alignments"] if s == 1}
            self.assertIn("schöne", linked)

    def test_an_emoji_keeps_its_joiner(self):
        family = "\U0001f469\u200d\U0001f4bb"
        self.assertIn(family, translate_text("en-de", f"I love {family} and code."))


if __name__ == "__main__":
    unittest.main()
