"""German gender-inclusive forms with the shipped de->en model and the native CLI
(engine/text/gender_forms.h): translated as the word that covers everyone, no sign or "inside" left.

Found by a QA pass: "Ehemalige Patient:innen" -> "Former patients: Indoors", "Nutzer*innen" ->
"users* inside", "Übersetzer_innen" -> "translator_inners", "KandidatInnen" -> "candidateIns".
"""
import re
import unittest

from nmt_cli import needs_cli, translate_text


@needs_cli
class GenderForms(unittest.TestCase):
    def test_each_form_is_one_english_word(self):
        cases = [("Die Mitarbeiter*innen sind heute im Büro.", "employees"),
                 ("Alle Lehrer_innen haben die Prüfung korrigiert.", "teachers"),
                 ("Die Ärzt:innen arbeiten sehr viel.", "doctors"),
                 ("Die StudentInnen schreiben morgen eine Prüfung.", "students"),
                 ("Jede*r Teilnehmer*in bekommt ein Geschenk.", "participant")]
        out = translate_text("de-en", "\n".join(s for s, _ in cases)).split("\n")
        for (source, word), translated in zip(cases, out):
            with self.subTest(source=source):
                self.assertIn(word, translated.lower())
                self.assertIsNone(re.search(r"[*_:]|inside|inner|\bIn", translated), translated)


if __name__ == "__main__":
    unittest.main()
