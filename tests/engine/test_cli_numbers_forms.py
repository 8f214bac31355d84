"""Numbers with the shipped models and the native CLI: the form a number is written in (its
separators, its scale, its sign) comes through as the source means it (engine/text/numbers.h)."""
import unittest

from nmt_cli import needs_cli, translate_lines


@needs_cli
class NumberForms(unittest.TestCase):
    def test_a_number_without_separators_gains_no_decimal_point(self):
        """en->de: "on port 8080" came out "auf Port 80.80" (the same digits, so no check saw it)."""
        translated = translate_lines("en-de", ["The server runs at 192.168.0.1 on port 8080."])[0]
        self.assertIn("8080", translated)
        self.assertNotIn("80.80", translated)
        self.assertIn("192.168.0.1", translated)

    def test_an_ordinal_at_the_end_has_one_dot(self):
        """en->de: "She came 3rd." came out "Sie kam 3.." (the ordinal's dot and the full stop): one dot."""
        for translated in translate_lines("en-de", ["She came 3rd.", "The meeting is on the 3rd."]):
            self.assertFalse(translated.endswith(".."), translated)
            self.assertTrue(translated.endswith("."), translated)

    def test_a_german_scale_abbreviation_comes_out_as_the_word(self):
        """de->en: "1,5 Mrd. Euro" came out "1.5 Mr. Euro" (Mister, no billion)."""
        translated = translate_lines("de-en", ["Der Verlust betrug 1,5 Mrd. Euro."])[0]
        self.assertIn("1.5 billion", translated)
        self.assertNotIn("Mr", translated)

    def test_a_club_keeps_the_ordinal_of_its_name(self):
        """de->en: "Mit 1. FC Köln" came out "With 1 FC Cologne", "Der 1. FC Union Berlin" "The 1, FC Union"."""
        out = translate_lines("de-en", ["Mit 1. FC Köln gewann er 2015 die Meisterschaft.",
                                        "Der 1. FC Union Berlin gewann 2:0."])
        for translated in out:
            self.assertIn("1. FC", translated)
        self.assertIn("2015", out[0])

    def test_a_percent_sign_is_written_the_target_way(self):
        """en->de wrote "um 5–10%"; German writes "5–10 %" (DIN 5008, and the flores-dev references)."""
        de = translate_lines("en-de", ["Prices rose by 5–10%.", "Unemployment fell to 5.2%."])
        self.assertIn("5–10 %", de[0])
        self.assertIn("5,2 %", de[1])
        en = translate_lines("de-en", ["Die Arbeitslosigkeit sank auf 5,2 %."])[0]
        self.assertIn("5.2%", en)

    def test_a_range_of_amounts_has_its_sign_before_the_range(self):
        """de->en: "Tickets kosten 15–20 €." came out "Tickets cost 15–€20." (the sign inside the range)."""
        translated = translate_lines("de-en", ["Tickets kosten 15–20 €."])[0]
        self.assertIn("€15–20", translated)
        self.assertEqual(translated.count("€"), 1, translated)

    def test_an_ordinal_gets_its_whole_ending(self):
        """de->en: "Es ist sein 3. Sieg in Folge." came out "It's his 3r victory in a row."."""
        translated = translate_lines("de-en", ["Es ist sein 3. Sieg in Folge."])[0]
        self.assertIn("3rd", translated)

    def test_minus_in_words_stays(self):
        """en->de: "Temperatures fell to minus 10 degrees." came out "... auf 10 Grad." (ten above zero)."""
        translated = translate_lines("en-de", ["Temperatures fell to minus 10 degrees."])[0]
        self.assertRegex(translated, r"(?i)(minus |-|\u2212)10")

    def test_an_amount_in_billions_keeps_its_currency(self):
        """en->de: "Revenue was €3.2bn." came out "Der Umsatz war 3,2 Milliarden." (the euro lost)."""
        translated = translate_lines("en-de", ["Revenue was €3.2bn."])[0]
        self.assertIn("3,2", translated)
        self.assertRegex(translated, r"€|Euro")

    def test_degrees_celsius_stand_apart_in_german(self):
        """en->de: "The water is 3°C." came out "Das Wasser ist 3°C."; German writes "3 °C"."""
        translated = translate_lines("en-de", ["The water is 3°C."])[0]
        self.assertIn("3 °C", translated)

    def test_an_amount_gets_no_second_currency(self):
        """en->de: "£2 million" came out "2 Millionen £ Euro", de->en "1,2 Mrd. €" "$1.2 billion"."""
        de = translate_lines("en-de", ["The company lost £2 million."])[0]
        self.assertIn("£", de)
        self.assertNotIn("Euro", de)
        en = translate_lines("de-en", ["Der Umsatz lag bei 1,2 Mrd. € und der Gewinn bei 300 Mio. €."])[0]
        self.assertNotIn("$", en)
        self.assertIn("1.2 billion", en)

    def test_the_first_of_two_ordinals_gets_its_ending(self):
        """de->en: "Der 1. und 2. Preis gingen an Anna und Ben." came out "The 1, and 2nd Price ..."."""
        translated = translate_lines("de-en", ["Der 1. und 2. Preis gingen an Anna und Ben."])[0]
        self.assertIn("1st and 2nd", translated)


if __name__ == "__main__":
    unittest.main()
