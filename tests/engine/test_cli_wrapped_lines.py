"""Hard-wrapped text with the shipped models and the native CLI (engine/text/segmenter.h,
text/passes.h place_line_breaks): a sentence cut by a line break is read whole, and the line break
is written back into its translation, so each half no longer comes out as a sentence of its own."""
import json
import re
import subprocess
import unittest

from nmt_cli import NMT, model, needs_cli, translate_text

WRAPPED = {
    "en-de": "I will send the\ninvitation to all of our friends tomorrow.",
    "de-en": "Wir fahren morgen früh mit dem\nZug nach Berlin und besuchen dort unsere Freunde.",
}


def alignments(direction, text):
    r = subprocess.run([NMT, "--model", model(direction), "--alignments"], input=text, capture_output=True,
                       text=True, timeout=600, check=True)
    return json.loads(r.stdout.splitlines()[0])


def utf16_slice(text, span):
    b, e = span
    return text.encode("utf-16-le")[2 * b:2 * e].decode("utf-16-le")


@needs_cli
class WrappedLines(unittest.TestCase):
    def test_a_wrapped_sentence_reads_as_the_unwrapped_one_with_its_line_break_placed(self):
        for direction, text in WRAPPED.items():
            with self.subTest(direction=direction):
                out = translate_text(direction, text)
                whole = translate_text(direction, text.replace("\n", " "))
                self.assertEqual(out.count("\n"), 1, out)
                self.assertEqual(out.replace("\n", " "), whole, out)
                first, second = out.split("\n")
                self.assertRegex(first, r"\w+ \w+", out)  # the break inside the sentence, between words
                self.assertRegex(second, r"\w", out)

    def test_the_break_goes_before_the_word_that_says_the_word_after_it(self):
        out = translate_text("en-de", "I will send the\ninvitation tomorrow.")
        self.assertRegex(out, r"\nEinladung\b", out)

    def test_the_break_is_placed_by_the_attention_whatever_else_the_text_holds(self):
        # the attention was kept only for a text with something the vocabulary cannot write (an
        # emoji): alone, the break went where it stands in proportion ("gestaltet\nsind, und")
        text = ("Now for Japan. Japan was an island country, just like\nBritain. Submarines are ships designed "
                "to travel underwater,\nand remain there for an extended amount of time.")
        alone = translate_text("en-de", text)
        with_emoji = translate_text("en-de", text + "\n\nI love pizza \U0001F355.")
        self.assertEqual(with_emoji.split("\n\n")[0], alone)

    def test_lines_and_characters_survive_and_offsets_index_the_text_as_given(self):
        texts = {
            "en-de": "Please send the\r\n  report 🎉 about the 3,500 visitors to info@example.com and the\n"
                     "team, since we meet on Monday at the\nstation.\n\nIt rained.\nwe stayed home.\n",
            "de-en": "Bitte schicke uns den\r\n  Bericht 🎉 über die 3.500 Besucher an info@example.com und die\n"
                     "Liste, weil wir uns am Montag am\nbahnhof treffen.\n\nEs regnete.\nwir blieben zu hause.\n",
        }
        for direction, text in texts.items():
            with self.subTest(direction=direction):
                doc = alignments(direction, text)
                out = doc["text"]
                self.assertEqual(out.count("\n"), text.count("\n"), out)
                self.assertIn("\r\n  ", out)  # the source's own whitespace at the break
                for kept in ("🎉", "info@example.com"):
                    self.assertIn(kept, out)
                for s in doc["sentences"]:  # (ranges count UTF-16 code units)
                    self.assertEqual(utf16_slice(text, s["source_range"]), s["source"])
                    self.assertEqual(utf16_slice(out, s["target_range"]), s["target"])
                joined = [s for s in doc["sentences"] if "\n" in s["source"]]
                self.assertEqual(len(joined), 1, [s["source"] for s in doc["sentences"]])
                for s in joined:  # each joined sentence carries its own line breaks over
                    self.assertEqual(s["target"].count("\n"), s["source"].count("\n"), s)

    def test_a_long_input_is_cut_into_blocks_between_sentences_not_inside_a_wrapped_one(self):
        # the CLI translates a long input in blocks of about 8 KB, read 16 KB at a time, each cut after
        # a line break: after the one inside a wrapped sentence, its halves were translated apart
        sentence = ("We walked along the old river and looked at all of the boats on the\n"
                    "water while the sun went down behind the hills.\n")
        alone = translate_text("en-de", sentence.rstrip("\n"))
        for fillers in range(8):  # a line break inside a sentence last before 16,384 bytes
            text = "The house is small.\n" * fillers + sentence * 200
            if text.rfind("\n", 0, 16384) + 1 - 20 * fillers in [len(sentence) * k + sentence.index("\n") + 1 for k in range(200)]:
                break
        else:
            self.fail("no input puts a wrapped sentence's line break at the block's end")
        lines = translate_text("en-de", text.rstrip("\n")).split("\n")[fillers:]
        pairs = ["\n".join(lines[k:k + 2]) for k in range(0, len(lines), 2)]
        self.assertEqual(len(pairs), 200)
        self.assertEqual([k for k, pair in enumerate(pairs) if pair != alone], [])

    def test_lines_that_are_no_wrapped_sentence_stay_apart(self):
        text = "buy some milk\nfeed the cat\n- water the plants in the\n- call mom\nThe list:\nred apples"
        lines = translate_text("en-de", text).split("\n")
        self.assertEqual(len(lines), 6, lines)
        doc = alignments("en-de", text)
        self.assertFalse([s["source"] for s in doc["sentences"] if "\n" in s["source"]])


if __name__ == "__main__":
    unittest.main()
