"""Long sentences with the shipped models and the native CLI (engine/units.h kChunkTokens): a
sentence of more tokens than the models were trained on (a run-on text, a transcript without full
stops) is translated in units of at most 128 tokens; read whole, the model left much of it out."""
import json
import re
import unittest

from nmt_cli import needs_cli, translate_text

# eight flores-dev sentences joined by "and" / "und" into one, about 230 tokens
RUN_ON = {
    "en-de": "Luxembourg has a long history but its independence dates from 1839 and Present-day parts of Belgium were part of Luxembourg in the past but became Belgian after the 1830s Belgian Revolution and Luxembourg has always tried to remain a neutral country but it was occupied in both World War I and World War II by Germany and In 1957 Luxembourg became a founding member of the organization which is today known as the European Union and The Drukgyal Dzong is a ruined fortress and Buddhist monastery in the upper part of the Paro District (in Phondey Village) and It is said that in 1649, Zhabdrung Ngawang Namgyel created the fortress to commemorate his victory against the Tibetan-Mongol forces and In 1951, a fire caused for only some of the relics of the Drukgyal Dzong to remain, such as the image of Zhabdrung Ngawang Namgyal and After the fire, the fortress was preserved and protected, remaining to be one of Bhutan's most sensational attractions",
    "de-en": 'Luxemburg hat eine lange Geschichte, ist aber erst seit 1839 unabhängig und Heutige Teile Belgiens gehörten in der Vergangenheit zu Luxemburg, wurden jedoch nach der Belgischen Revolution in den 1830ern Teil Belgiens und Obwohl Luxemburg immer versucht hatte, ein neutrales Land zu bleiben, wurde es sowohl im Ersten als auch im Zweiten Weltkrieg von Deutschland besetzt und Luxemburg wurde 1957 Gründungsmitglied der Organisation, die heute als Europäische Union bekannt ist und Der Drukyel-Dzong ist eine Festungsruine und ein buddhistisches Kloster im oberen Teil des Paro-Distrikts (im Dorf Phondey) und Es heißt, Zhabdrung Ngawang Namgyel habe die Festung 1649 erbaut, um seines Sieges gegen die tibetisch-mongolischen Streitkräfte zu gedenken und 1951 führte ein Feuer dazu, dass nur einige Überreste des Drukyel-Dzong überdauerten, darunter das Bild von Shabdrung Ngawang Namgyel und Nach dem Feuer wurde die Festung bewahrt und geschützt und bleibt so weiterhin eine von Bhutans sensationellsten Attraktionen',
}


@needs_cli
class LongSentences(unittest.TestCase):
    def test_a_run_on_sentence_keeps_every_year(self):
        # read whole, 1649 and 1951 (and the clauses around them) were left out, both ways
        for direction, line in RUN_ON.items():
            with self.subTest(direction=direction):
                out = translate_text(direction, line)
                for year in re.findall(r"\b1\d{3}\b", line):
                    self.assertIn(year, out)

    def test_a_run_on_sentence_is_read_in_units_of_at_most_128_tokens(self):
        for direction, line in RUN_ON.items():
            with self.subTest(direction=direction):
                result = json.loads(translate_text(direction, line, "--alignments"))
                units = result["sentences"]
                self.assertGreater(len(units), 1)
                for unit in units:
                    self.assertLessEqual(len(unit["source_tokens"]), 128 + 1)  # (and "</s>")
                self.assertEqual("".join(result["source_text"][u["source_range"][0]:u["source_range"][1]] for u in units).replace(" ", ""),
                                 line.replace(" ", ""))

    def test_a_prefix_still_takes_a_sentence_of_more_than_128_tokens_whole(self):
        line = RUN_ON["en-de"][:RUN_ON["en-de"].rindex(" ", 0, 650)]  # about 200 tokens: one unit of the model's 255
        tokens = sum(len(u["source_tokens"]) - 1 for u in json.loads(translate_text("en-de", line, "--alignments"))["sentences"])
        self.assertGreater(tokens, 128)
        out = translate_text("en-de", line, "--prefix", "Luxemburg hat")
        self.assertTrue(out.startswith("Luxemburg hat"), out)


if __name__ == "__main__":
    unittest.main()
