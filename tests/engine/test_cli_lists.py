"""Numbered lists with the shipped models and the native CLI: the number at a line's start is copied
and its item translated as if it stood alone (engine/text/segmenter.h). Read with its item, the
de->en model made the number an ordinal or lost it ("2. Am Montag ..." -> "2nd on Monday ...",
"8. Seit seinem Umzug ..." -> "Since his move ...": 25 of 300 numbered flores-dev lines), and en->de
wrote "3. Bake for 25 minutes at 180 °C." as "3. Für 25 Minuten bei 180 °C Bake."."""
import os
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")


def run(direction, lines):
    r = subprocess.run([NMT, "--model", os.path.join(ROOT, "weights", direction, "model.nmt")], input="\n".join(lines) + "\n",
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return r.stdout.rstrip("\n").split("\n")


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class NumberedLists(unittest.TestCase):
    def test_the_number_is_copied_and_the_item_translated_alone(self):
        items = {"de-en": ["Am Montag haben die Wissenschaftler die Erfindung eines neuen Werkzeugs bekanntgegeben.",
                           "Seit seinem Umzug in die katalanische Hauptstadt hatte Vidal für den Verein 49 Partien gespielt.",
                           "Diplomaten sagten, sie hätten genug Unklarheit in der Verfassung gefunden.",
                           "800 Meilen der Pipeline wurden stillgelegt."],
                 "en-de": ["Mix the flour and the eggs.", "Bake for 25 minutes at 180 °C.", "Serve warm."]}
        for direction, lines in items.items():
            alone = run(direction, lines)
            numbered = run(direction, [f"{k + 2}. {line}" for k, line in enumerate(lines)])
            for k, (a, n) in enumerate(zip(alone, numbered)):
                with self.subTest(direction=direction, line=lines[k]):
                    self.assertTrue(n.startswith(f"{k + 2}. "), n)
                    self.assertEqual(n[len(f"{k + 2}. "):], a)

    def test_a_list_in_one_text_keeps_its_lines_and_numbers(self):
        text = "Steps:\n1. Mix the flour and the eggs.\n2) Add the milk slowly.\n3. Bake for 25 minutes at 180 °C."
        r = subprocess.run([NMT, "--model", os.path.join(ROOT, "weights", "en-de", "model.nmt")], input=text + "\n",
                           capture_output=True, text=True, timeout=300)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.rstrip("\n").split("\n")
        self.assertEqual(len(lines), 4, r.stdout)
        for line, mark in zip(lines[1:], ["1. ", "2) ", "3. "]):
            self.assertTrue(line.startswith(mark), line)
        self.assertIn("backen", lines[3])

    def test_a_german_date_at_a_line_start_is_no_list_number(self):
        out = run("de-en", ["3. Oktober 2023 war ein Feiertag."])[0]
        self.assertIn("October", out)
        self.assertIn("3", out)


if __name__ == "__main__":
    unittest.main()
