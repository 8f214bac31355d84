"""No-break spaces with the shipped models: a text with no-break spaces (U+00A0, U+202F, U+2007) is
translated as the text with plain spaces, but for its spaces: no text lost or doubled (a unit's mark
after a no-break space came out twice: "100\u00a0°C[3]" -> "100 °C[3] °"); and it keeps a no-break space
between two words it keeps side by side ("10\u00a0km": engine/text/no_break_spaces.h)."""
import unittest

from nmt_cli import needs_cli, translate_lines

NBSP, NARROW_NBSP, FIGURE_SPACE = "\u00a0", "\u202f", "\u2007"
NO_BREAK = (NBSP, NARROW_NBSP, FIGURE_SPACE)


def plain(text):
    for ch in NO_BREAK:
        text = text.replace(ch, " ")
    return text


@needs_cli
class NoBreakSpaces(unittest.TestCase):
    CASES = {
        "en-de": [f"Mr.{NBSP}Smith lives 10{NBSP}km away.", f"Water boils at 100{NBSP}°C[3], at sea level.",
                  f"The price is 5{NARROW_NBSP}% higher.", f"See §{NBSP}5 of the law.",
                  f"It is 20{FIGURE_SPACE}°C today."],
        "de-en": [f"Herr{NBSP}Müller wohnt 10{NBSP}km entfernt.", f"Es sind 20{NBSP}°C.", f"Siehe §{NBSP}5 des Gesetzes.",
                  f"Das Wasser kocht bei 100{NARROW_NBSP}°C[2]."],
    }

    def test_the_translation_is_that_of_the_plain_text_but_for_its_spaces(self):
        for direction, lines in self.CASES.items():
            got = translate_lines(direction, lines)
            want = translate_lines(direction, [plain(line) for line in lines])
            self.assertEqual([plain(line) for line in got], want, direction)
            for line, out in zip(lines, got):
                self.assertEqual(out.count("°"), line.count("°"), out)

    def test_a_number_and_its_unit_stay_together(self):
        got = translate_lines("en-de", [f"He lives 10{NBSP}km away.", f"The price is 5{NARROW_NBSP}% higher.",
                                        f"It is 20{FIGURE_SPACE}°C today.", f"Mr.{NBSP}Smith lives here."])
        self.assertIn(f"10{NBSP}km", got[0])
        self.assertIn(f"5{NARROW_NBSP}%", got[1])
        self.assertIn(f"20{FIGURE_SPACE}°", got[2])
        self.assertIn(f"Herr{NBSP}Smith", got[3])
        got = translate_lines("de-en", [f"Er wohnt 10{NBSP}km entfernt."])
        self.assertIn(f"10{NBSP}km", got[0])

    def test_no_no_break_space_where_the_source_has_none(self):
        for direction, lines in self.CASES.items():
            for out in translate_lines(direction, [plain(line) for line in lines]):
                self.assertFalse(any(ch in out for ch in NO_BREAK), out)


if __name__ == "__main__":
    unittest.main()
