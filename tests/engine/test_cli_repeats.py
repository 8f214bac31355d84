"""Words the model wrote twice in a row (engine/text/repeated_words.h), with the shipped models and
the native CLI: flores-dev sentences whose beam-4 translations had a doubled word ("Fernando Alonso
Alonso", "Elk bekannt bekannt", "The Onion has developed a true news savings savings", "the colony
temporarily temporarily") come out with it once. (A doubled word the source has stays: the model
does not keep "very very" as "sehr sehr", so that is tested in test_repeated_words.cpp.)"""
import os
import re
import unittest

from nmt_cli import ROOT, model, needs_cli, translate_lines
DEV = os.path.join(ROOT, "tests", "fixtures", "dev", "flores-dev.en-de.tsv")
DOUBLED = re.compile(r"\b(\w{4,}) \1\b")


@needs_cli
class RepeatedWords(unittest.TestCase):
    def test_a_word_written_twice_is_written_once(self):
        with open(DEV, encoding="utf-8") as f:
            pairs = [line.split("\t") for line in f.read().splitlines()]
        # flores-dev lines whose round-23 translations (beam 4) doubled a word
        for direction, lines in (("en-de", [31, 799]), ("de-en", [31, 125, 574])):
            sources = [pairs[i][0 if direction == "en-de" else 1] for i in lines]
            for source, out in zip(sources, translate_lines(direction, sources, "--beam", "4")):
                with self.subTest(direction=direction, source=source):
                    self.assertIsNone(DOUBLED.search(out), out)
                    self.assertGreater(len(out), len(source) / 2)

    def test_the_sources_final_exclamation_marks_are_kept(self):
        """engine/text/final_marks.h: "I love you!!" had come out "Ich liebe dich!" and "Nein!!!!!"
        as "No!!!!"; a sentence that ends in two or more ! and ? keeps them as written, and one with
        a single mark is the model's (German imperatives take "!")."""
        cases = {"en-de": ["I love you!!", "This is great!!!", "Really???", "What?!", "No way!!!!!"],
                 "de-en": ["Nein!!!!!", "Das ist toll!!!", "Was?!", "Ich liebe dich!!"]}
        for direction, lines in cases.items():
            for beam in ("1", "4"):
                for line, out in zip(lines, translate_lines(direction, lines, "--beam", beam)):
                    with self.subTest(direction=direction, beam=beam, line=line):
                        marks = re.search(r"[!?]+$", line).group(0)
                        self.assertTrue(out.endswith(marks) and not out.endswith("!" + marks) and not out.endswith("?" + marks), out)


if __name__ == "__main__":
    unittest.main()
