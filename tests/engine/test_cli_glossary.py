"""The user's glossary with the shipped models and the native CLI (engine/text/glossary.h,
`nmt --glossary FILE`): each source term found comes out as its target term, with the word
alignments pointing at it, with beam or greedy search, a prefix and alternatives; a term mapped to
itself stays untranslated; a bad glossary file is refused with its reason."""
import json
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.environ.get("NMT_BIN") or os.path.join(ROOT, "build", "nmt")  # NMT_BIN: another build

GLOSSARY = {"de-en": [("Kündigungsfrist", "notice period"), ("Acme Cloud", "Acme Cloud"), ("Betriebsrat", "works council")],
            "en-de": [("notice period", "Kündigungsfrist"), ("Acme Cloud", "Acme Cloud"), ("invoice", "Rechnung")]}
SENTENCES = {"de-en": ["Die Kündigungsfrist beträgt drei Monate.", "Bitte fragen Sie den betriebsrat.",
                       "Acme Cloud ist schneller als alle anderen Dienste.", "Acme Cloud"],
             "en-de": ["The notice period is three months.", "Please pay the invoice by Friday.",
                       "Acme Cloud is faster than any other service.", "acme cloud"]}
EXPECTED = {"de-en": ["notice period", "works council", "Acme Cloud", "Acme Cloud"],
            "en-de": ["Kündigungsfrist", "Rechnung", "Acme Cloud", "Acme Cloud"]}


def glossary_file(pairs):
    f = tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False, encoding="utf-8")
    f.write("# source<TAB>target\n" + "".join(f"{s}\t{t}\n" for s, t in pairs))
    f.close()
    return f.name


def run(direction, text, *options, check=True):
    r = subprocess.run([NMT, "--model", os.path.join(ROOT, "weights", direction, "model.nmt"), *options],
                       input=text, capture_output=True, text=True, timeout=600)
    if check and r.returncode != 0:
        raise AssertionError(r.stderr)
    return r


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class Glossary(unittest.TestCase):
    def test_each_term_comes_out_as_its_target_term(self):
        for direction, pairs in GLOSSARY.items():
            path = glossary_file(pairs)
            for beam in ("1", "4"):
                out = run(direction, "\n".join(SENTENCES[direction]) + "\n", "--glossary", path, "--beam", beam).stdout.split("\n")
                for source, expected, translated in zip(SENTENCES[direction], EXPECTED[direction], out):
                    with self.subTest(direction=direction, beam=beam, source=source):
                        self.assertEqual(translated.count(expected), 1, translated)
                        self.assertNotIn("\u2047", translated)
            os.unlink(path)

    def test_alignments_point_at_the_target_term(self):
        path = glossary_file(GLOSSARY["de-en"])
        result = json.loads(run("de-en", SENTENCES["de-en"][0], "--glossary", path, "--alignments").stdout)
        s = result["sentences"][0]
        self.assertIn("glossary", s["passes"])
        src, tgt = s["source"], s["target"]
        linked = {tgt[slice(*s["target_words"][t])]: src[slice(*s["source_words"][w])] for t, w, _ in s["word_alignments"]}
        self.assertEqual(linked.get("notice"), "Kündigungsfrist", linked)
        self.assertEqual(linked.get("period"), "Kündigungsfrist", linked)
        os.unlink(path)

    def test_several_terms_each_linked_to_its_own_source_term_only(self):
        # Several terms in one sentence: the model sees each as an unknown piece and may put one by
        # another's piece, or leave one out (written next to a neighbour): whatever it does, the
        # words of each written term link to the words of its own source term, and to nothing else.
        two = {"en-de": ("The notice period for Acme Cloud is three months, says the invoice.",
                         [("notice period", "Kündigungsfrist"), ("Acme Cloud", "Acme Cloud"), ("invoice", "Rechnung")]),
               "de-en": ("Der Betriebsrat von Acme Cloud prüft die Kündigungsfrist.",
                         [("Betriebsrat", "works council"), ("Acme Cloud", "Acme Cloud"), ("Kündigungsfrist", "notice period")])}
        for direction, (sentence, pairs) in two.items():
            path = glossary_file(pairs)
            for beam in ("1", "4"):
                with self.subTest(direction=direction, beam=beam):
                    s = json.loads(run(direction, sentence, "--glossary", path, "--alignments", "--beam", beam).stdout)["sentences"][0]
                    src, tgt = s["source"], s["target"]
                    for source_term, target_term in pairs:
                        at = tgt.find(target_term)
                        self.assertGreaterEqual(at, 0, f"{target_term!r} in {tgt!r}")
                        begin = src.lower().find(source_term.lower())
                        own = {w for w, (b, e) in enumerate(s["source_words"]) if b < begin + len(source_term) and begin < e}
                        words = [t for t, (b, e) in enumerate(s["target_words"]) if b < at + len(target_term) and at < e]
                        self.assertTrue(words)
                        # as many words on both sides: word for word, in order ("Acme" to "Acme", "Cloud"
                        # to "Cloud": each linked to both put an HTML element on "Cloud" onto "Acme")
                        in_order = sorted(own)
                        for k, t in enumerate(words):
                            linked = {w for tt, w, _ in s["word_alignments"] if tt == t}
                            expected = {in_order[k]} if len(words) == len(own) else own
                            self.assertEqual(linked, expected, f"{tgt[slice(*s['target_words'][t])]!r} of {target_term!r} in {tgt!r}")
            os.unlink(path)

    def test_a_prefix_and_alternatives(self):
        path = glossary_file(GLOSSARY["de-en"])
        out = run("de-en", SENTENCES["de-en"][0], "--glossary", path, "--prefix", "The").stdout
        self.assertTrue(out.startswith("The"), out)
        self.assertIn("notice period", out)
        alternatives = json.loads(run("de-en", SENTENCES["de-en"][0], "--glossary", path, "--prefix", "The ",
                                      "--alternatives", "3").stdout)["alternatives"]
        self.assertTrue(any("notice period" in a["word"] + a["continuation"] for a in alternatives), alternatives)
        for a in alternatives:
            self.assertNotIn("\u2047", a["word"] + a["continuation"])
        os.unlink(path)

    def test_alternatives_spaced_as_a_translation(self):
        # a term written for an unknown piece carries none of the piece's own spaces: the sentence
        # prefix + word + continuation starts and ends without one and never doubles one
        path = glossary_file(GLOSSARY["de-en"])
        for prefix in ("", "The", "The "):
            alternatives = json.loads(run("de-en", SENTENCES["de-en"][0], "--glossary", path, "--prefix", prefix,
                                          "--alternatives", "5").stdout)["alternatives"]
            self.assertTrue(alternatives)
            for a in alternatives:
                text = prefix + a["word"] + a["continuation"]
                with self.subTest(prefix=prefix, text=text):
                    self.assertEqual(text, text.strip())
                    self.assertNotIn("  ", text)
                    self.assertFalse(a["word"].endswith(" ") and a["continuation"][:1] in ("", " ", ".", ","), a)
        os.unlink(path)

    def test_a_sentence_in_capitals_keeps_its_capitals(self):
        path = glossary_file(GLOSSARY["en-de"])
        self.assertEqual(run("en-de", "ACME CLOUD\n", "--glossary", path).stdout, "ACME CLOUD\n")
        os.unlink(path)
        # a term in a sentence the model translates (not copied whole) too: it was written as given
        # after the capitals pass ("Acme Cloud IST UNTEN.")
        for direction, sentence, term in (("en-de", "ACME CLOUD IS DOWN.", "ACME CLOUD"),
                                          ("en-de", "THE NOTICE PERIOD IS THREE MONTHS.", "KÜNDIGUNGSFRIST"),
                                          ("de-en", "DIE KÜNDIGUNGSFRIST BETRÄGT DREI MONATE.", "NOTICE PERIOD")):
            path = glossary_file(GLOSSARY[direction])
            out = run(direction, sentence + "\n", "--glossary", path).stdout.strip()
            os.unlink(path)
            with self.subTest(sentence=sentence):
                self.assertIn(term, out)
                self.assertEqual(out, out.upper())
        # a target term with ß in capitals: SS, as German writes it ("DAS STRAßE IST SEHR LANGE.")
        path = glossary_file([("street", "Stra\u00dfe")])
        out = run("en-de", "THE STREET IS VERY LONG.\n", "--glossary", path).stdout
        os.unlink(path)
        self.assertIn("STRASSE", out)
        self.assertNotIn("\u00df", out)
        # a term that is the whole sentence, one word in capitals, too ("INVOICE" came out "Rechnung")
        path = glossary_file(GLOSSARY["en-de"])
        self.assertEqual(run("en-de", "INVOICE\n", "--glossary", path).stdout, "RECHNUNG\n")
        os.unlink(path)
        # a prefix that holds the term as written (not in capitals) holds it once: it is not written again
        path = glossary_file(GLOSSARY["en-de"])
        for prefix in ("Acme Cloud ", "ACME CLOUD "):
            out = run("en-de", "ACME CLOUD IS DOWN TODAY.\n", "--glossary", path, "--prefix", prefix).stdout.strip()
            with self.subTest(prefix=prefix):
                self.assertTrue(out.startswith(prefix), out)
                self.assertEqual(out.upper().count("ACME CLOUD"), 1, out)
        os.unlink(path)

    def test_markdown_emphasis_stays_on_its_term(self):
        # the marks around a term go around the term written for it, wherever the model's attention
        # for its unknown piece went ("Use **Acme Cloud** for the *invoice* now." gave "***Acme*
        # Cloud** ... Rechnung"); the same through the HTML path is html-wasm's
        path = glossary_file(GLOSSARY["en-de"])
        for sentence, marked in (("Use **Acme Cloud** for the *invoice* now.", ["**Acme Cloud**", "*Rechnung*"]),
                                 ("The _notice period_ is three months.", ["_Kündigungsfrist_"])):
            out = run("en-de", sentence + "\n", "--glossary", path).stdout.strip()
            with self.subTest(sentence=sentence):
                for m in marked:
                    self.assertIn(m, out)
                self.assertEqual(out.count("*"), sentence.count("*"), out)
        os.unlink(path)

    def test_found_however_the_sentence_writes_it(self):
        # a no-break space, a typographic apostrophe, an accent of its own (NFD), ß in capitals as
        # SS: each found ("DIE STRASSE" came out "THE STRAIT"); an abbreviation in capitals is no
        # small word ("Is it ready?" came out "Ist IT-Abteilung bereit?"); a word after a hyphen
        # is no term ("Basketball-Saison" came out "basketballseason")
        cases = [("en-de", [("Acme Cloud", "Zeta Sky")], "Use Acme\u00a0Cloud now.", "Zeta Sky", 1),
                 ("en-de", [("customer's", "Kundenkonto")], "Check the customer\u2019s data.", "Kundenkonto", 1),
                 ("en-de", [("caf\u00e9", "Kaffeehaus")], "The cafe\u0301 is open.", "Kaffeehaus", 1),
                 ("de-en", [("Stra\u00dfe", "street")], "DIE STRASSE IST LANG.", "STREET", 1),
                 ("en-de", [("IT", "IT-Abteilung")], "Is it ready?", "IT-Abteilung", 0),
                 ("de-en", [("Saison", "campaign")], "Die Basketball-Saison beginnt.", "campaign", 0)]
        for direction, pairs, sentence, target, count in cases:
            path = glossary_file(pairs)
            out = run(direction, sentence + "\n", "--glossary", path).stdout.strip()
            os.unlink(path)
            with self.subTest(sentence=sentence):
                self.assertEqual(out.count(target), count, out)

    def test_a_sentence_of_a_term_only_keeps_its_capital(self):
        # "Kündigungsfrist!" came out "notice period!" (copied, not translated: no pass wrote its capital)
        path = glossary_file(GLOSSARY["de-en"])
        out = run("de-en", "Kündigungsfrist!\nkündigungsfrist!\nDas ist gut. Kündigungsfrist.\n", "--glossary", path).stdout
        self.assertEqual(out.split("\n")[:2], ["Notice period!", "notice period!"])
        self.assertTrue(out.split("\n")[2].endswith(" Notice period."), out)
        os.unlink(path)

    def test_switched_off_by_name(self):
        path = glossary_file([("Acme Cloud", "Zeta Sky")])
        self.assertNotIn("Zeta Sky", run("en-de", "Acme Cloud is fast.\n", "--glossary", path, "--no-pass", "glossary").stdout)
        self.assertIn("Zeta Sky", run("en-de", "Acme Cloud is fast.\n", "--glossary", path).stdout)
        os.unlink(path)

    def test_bad_glossaries_are_refused_with_their_reason(self):
        cases = [("Haus house\n", "line 1 is not"), ("a\tb\n", "shorter than 2 bytes"), ("Haus\t\n", "empty target term"),
                 ("".join(f"Wort{i}\tword{i}\n" for i in range(10001)), "10001 terms; at most 10000")]
        for text, reason in cases:
            with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False, encoding="utf-8") as f:
                f.write(text)
            r = run("en-de", "Hello.\n", "--glossary", f.name, check=False)
            os.unlink(f.name)
            with self.subTest(reason=reason):
                self.assertEqual(r.returncode, 2)
                self.assertIn(reason, r.stderr)
        r = run("en-de", "Hello.\n", "--glossary", "/nonexistent.tsv", check=False)
        self.assertEqual(r.returncode, 2)
        self.assertIn("cannot read", r.stderr)


class TermPlacement(unittest.TestCase):
    """Where a term goes when the model did not write its unknown piece where the term was
    (pass_through.cpp 1b, quotes.cpp, passes.cpp marks). Checked by what the engine promises, not by
    the model's wording: the term once, no stray space or apostrophe, the quotes and the final mark kept."""

    def translate(self, direction, pairs, text, *options):
        path = glossary_file(pairs)
        try:
            return run(direction, text + "\n", "--glossary", path, *options).stdout.strip()
        finally:
            os.unlink(path)

    def test_a_term_is_never_left_before_a_lone_space_and_the_final_mark(self):
        # "Use Acme Cloud now." came out "Nutzen Sie jetzt Zeta Sky ." (beam 1) and "Send the invoice
        # 😀 today." "Schicken Rechnung Sie heute 😀." (the term put after the verb's translation)
        for beam in ("1", "4"):
            out = self.translate("en-de", [("Acme Cloud", "Zeta Sky")], "Use Acme Cloud now.", "--beam", beam)
            self.assertEqual(out.count("Zeta Sky"), 1, out)
            self.assertNotIn(" .", out)
            self.assertTrue(out.endswith("."), out)
            out = self.translate("en-de", [("invoice", "Rechnung")], "Send the invoice \U0001F600 today.", "--beam", beam)
            self.assertEqual(out.count("Rechnung"), 1, out)
            self.assertEqual(out.count("\U0001F600"), 1, out)
            self.assertNotIn(" .", out)

    def test_no_lone_apostrophe_beside_a_term(self):
        # "Pay the invoice." came out "Pay den ' Rechnung."
        out = self.translate("en-de", [("invoice", "Rechnung")], "Pay the invoice.")
        self.assertNotIn("'", out)
        self.assertEqual(out.count("Rechnung"), 1, out)

    def test_a_quoted_term_stays_in_its_quotes(self):
        # "„Kündigungsfrist“ ist ein Wort." came out "''' Notice period is a word."
        out = self.translate("de-en", [("Kündigungsfrist", "notice period")], "\u201eKündigungsfrist\u201c ist ein Wort.")
        self.assertNotIn("''", out)
        self.assertRegex(out, r'(?i)["\u201c\u201e]notice period["\u201c\u201d]', out)

    def test_a_term_written_last_keeps_the_final_mark(self):
        # "Ohne Kündigungsfrist geht nichts." came out "There's nothing without notice period"
        out = self.translate("de-en", [("Kündigungsfrist", "notice period")], "Ohne Kündigungsfrist geht nichts.")
        self.assertTrue(out.endswith("."), out)
        self.assertEqual(out.lower().count("notice period"), 1, out)

    def test_a_sentence_of_an_article_and_a_term_gains_no_word(self):
        # "The invoice" came out "„Da“ Rechnung": the model wrote only the term's unknown piece, which
        # the empty-translation retry took for nothing and made again with another first word
        cases = [("en-de", [("invoice", "Rechnung")], "The invoice", "Rechnung"),
                 ("en-de", [("invoice", "Rechnung")], "An invoice", "Rechnung"),
                 ("en-de", [("contract", "Vertrag")], "The contract", "Vertrag")]
        for direction, pairs, text, term in cases:
            for beam in ("1", "4"):
                out = self.translate(direction, pairs, text, "--beam", beam)
                self.assertEqual(out.count(term), 1, out)
                for mark in ('"', "„", "“", "'"):
                    self.assertNotIn(mark, out)
                self.assertLessEqual(len(out.split()), len(text.split()), out)


if __name__ == "__main__":
    unittest.main()
