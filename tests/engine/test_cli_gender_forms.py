"""German gender-inclusive forms with the shipped de->en model and the native CLI
(engine/text/gender_forms.h): translated as the word that covers everyone, no sign or "inside" left.

Found by a QA pass: "Ehemalige Patient:innen" -> "Former patients: Indoors", "Nutzer*innen" ->
"users* inside", "Übersetzer_innen" -> "translator_inners", "KandidatInnen" -> "candidateIns".
"""
import os
import re
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")


def run(direction, text):
    r = subprocess.run([NMT, "--model", os.path.join(ROOT, "weights", direction, "model.nmt")], input=text + "\n",
                       capture_output=True, text=True, timeout=300)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return r.stdout.rstrip("\n")


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class GenderForms(unittest.TestCase):
    def test_each_form_is_one_english_word(self):
        cases = [("Die Mitarbeiter*innen sind heute im Büro.", "employees"),
                 ("Alle Lehrer_innen haben die Prüfung korrigiert.", "teachers"),
                 ("Die Ärzt:innen arbeiten sehr viel.", "doctors"),
                 ("Die StudentInnen schreiben morgen eine Prüfung.", "students"),
                 ("Jede*r Teilnehmer*in bekommt ein Geschenk.", "participant")]
        out = run("de-en", "\n".join(s for s, _ in cases)).split("\n")
        for (source, word), translated in zip(cases, out):
            with self.subTest(source=source):
                self.assertIn(word, translated.lower())
                self.assertIsNone(re.search(r"[*_:]|inside|inner|\bIn", translated), translated)


if __name__ == "__main__":
    unittest.main()
