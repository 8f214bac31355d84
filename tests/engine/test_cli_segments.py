"""Sentence segmentation with the shipped models and the native CLI (engine/text/segmenter.h): where
the segmenter read two sentences as one, the model lost one of them or what stood between them."""
import re
import unittest

from nmt_cli import needs_cli, translate_text


@needs_cli
class SentenceEnds(unittest.TestCase):
    def test_a_face_or_hand_emoji_between_two_sentences_ends_the_first(self):
        # read as one sentence: "Thank you 🙏 👋" ("Bis bald" lost), "Ich wünsche Ihnen einen schönen Tag 🎉!"
        cases = {"de-en": ["Danke 🙏 Bis bald 👋", "Das war lustig 😂 Wir sehen uns morgen."],
                 "en-de": ["Happy birthday 🎉 Have a great day!", "Thanks 🙏 See you soon 👋"]}
        for direction, lines in cases.items():
            for line in lines:
                with self.subTest(direction=direction, line=line):
                    out = translate_text(direction, line)
                    emoji = re.findall(r"[\U0001F300-\U0001FAFF]", line)
                    self.assertEqual(re.findall(r"[\U0001F300-\U0001FAFF]", out), emoji, out)
                    before, after = out.split(emoji[0], 1)
                    self.assertRegex(before, r"\w{2}", out)  # the first sentence's words
                    self.assertRegex(after.split(emoji[1])[0] if len(emoji) > 1 else after, r"\w{2}", out)

    def test_an_abbreviation_that_ends_a_sentence_is_kept(self):
        # read as one sentence: "The train leaves at 8 o'clock. We'll come later." ("usw." lost)
        out = translate_text("de-en", "Der Zug fährt um 8 Uhr ab usw. Wir kommen später.")
        self.assertIn("etc.", out)


@needs_cli
class LinesThatGoOn(unittest.TestCase):
    def test_a_line_that_goes_on_with_a_sentence_keeps_its_small_letter(self):
        # each line is translated alone, and the models start every translation with a capital:
        # "the list:\nrote Äpfel und\ngrüne Birnen" came out "The list:\nRed apples and\nGreen ..."
        text = "Die Liste:\nrote äpfel und grüne birnen\nund dazu frische milch\n\nich ging gestern in den laden\nund kaufte dort brot"
        lines = translate_text("de-en", text).split("\n")
        self.assertEqual(len(lines), 6, lines)
        for line in (lines[1], lines[2], lines[5]):
            self.assertRegex(line, r"^[a-z]", lines)
        self.assertRegex(lines[0], r"^[A-Z]", lines)
        self.assertRegex(lines[4], r"^I ", lines)
        # into German only a word German writes small inside a sentence: an article, a conjunction
        lines = translate_text("en-de", "I went to the store\nbut nobody came.\nIt rained.\nand then it stopped.").split("\n")
        self.assertRegex(lines[1], r"^aber ", lines)
        self.assertRegex(lines[3], r"^[A-ZÄÖÜ]", lines)  # after a sentence's full stop: a sentence start


if __name__ == "__main__":
    unittest.main()
