"""Markdown emphasis with the shipped models and the native CLI (engine/text/emphasis.h): the marked
words are translated and keep their marks, every mark comes back once.

Found by a QA pass: "This is **very** important." -> "Das ist **very** wichtig." (the marked word
left in English), "**Note:** This feature is experimental." -> "**Keinte:** ...", "Das ist **sehr**
wichtig." -> "This is **sehr* important.".
"""
import re
import unittest

from nmt_cli import needs_cli, translate_text


def marks(text):
    return sorted(re.findall(r"\*+|~~|(?<![\w_])_+|_+(?![\w_])", text))


@needs_cli
class Emphasis(unittest.TestCase):
    def test_marked_words_are_translated_and_keep_their_marks(self):
        cases = {"en-de": [("This is **very** important.", "**sehr**"),
                           ("**Note:** This feature is experimental.", "**Hinweis:**"),
                           ("The _quick_ fox jumps over the dog.", "_schnelle_"),
                           ("See the ~~old~~ new version.", "~~alte~~")],
                 "de-en": [("Das ist **sehr** wichtig.", "**very**"),
                           ("*Das ist ein Test.* Und das auch.", "*That's a test.*")]}
        for direction, pairs in cases.items():
            for beam in ("1", "4"):
                out = translate_text(direction, "\n".join(s for s, _ in pairs), "--beam", beam).split("\n")
                for (source, expected), translated in zip(pairs, out):
                    with self.subTest(direction=direction, beam=beam, source=source):
                        self.assertIn(expected, translated)
                        self.assertEqual(marks(translated), marks(source), translated)
                        self.assertNotIn("\x01", translated)

    def test_marks_come_back_once_on_manual_style_text(self):
        lines = ["Session keys are secret, and they _**must be stored securely**_.",
                 "Return the result of **RESOLVE**(_specifier_, _parentURL_).",
                 "The difference between **nmt_nfkc** and **nfkc** is small.",
                 "When filing a bug, please include the *complete* traceback and the **exact** version.",
                 "*This paragraph is in italics. It has two sentences.*"]
        out = translate_text("en-de", "\n".join(lines)).split("\n")
        for source, translated in zip(lines, out):
            with self.subTest(source=source):
                self.assertEqual(marks(translated), marks(source), translated)
        self.assertIn(" **nmt_nfkc** ", out[2], "a name in bold stays a word of its own, copied as written")
        self.assertIn("_parentURL_", out[1])

    def test_what_is_not_emphasis_is_the_models(self):
        out = translate_text("en-de", "2 * 3 = 6\nCall __init__ and read my_var_name first.").split("\n")
        self.assertEqual(out[0], "2 * 3 = 6")
        self.assertIn("__init__", out[1])
        self.assertIn("my_var_name", out[1])

    def test_alignments_and_a_prefix(self):
        import json
        result = json.loads(translate_text("en-de", "Please read the **terms and conditions** carefully.", "--alignments"))
        sentence = result["sentences"][0]
        self.assertEqual(marks(result["text"]), ["**", "**"])
        self.assertLessEqual(max(end for _, end in sentence["target_words"]), len(sentence["target"].encode()))
        # a forced prefix is kept as given; the closing mark follows the aligned words
        out = translate_text("en-de", "Please read the **terms and conditions** carefully.", "--prefix", "Bitte lesen Sie die **")
        self.assertTrue(out.startswith("Bitte lesen Sie die **"), out)
        self.assertEqual(out.count("**"), 2, out)


@needs_cli
class IndentedCode(unittest.TestCase):
    """Markdown's indented code blocks are copied (engine/text/verbatim.h, indented_code_blocks): "    npm test"
    came out "    Npmtest". Prose indented for other reasons is translated, its indentation kept."""

    code = {"en-de": "Run the tests:\n\n    npm test\n    npm run lint\n\nThen push.",
            "de-en": "Beispiel:\n\n\tdef greet(name):\n\t    print(name)\n\nFertig."}
    prose = {"en-de": "The poem reads:\n\n    The woods are lovely, dark and deep,\n    But I have promises to keep.",
             "de-en": "Lieber Jan,\n\n    vielen Dank für deinen Brief. Wir kommen im Sommer.\n    Bis bald!"}

    def test_a_code_block_comes_back_as_it_is(self):
        for direction, text in self.code.items():
            block = "\n".join(line for line in text.split("\n") if line.startswith(("    ", "\t")))
            for beam in ("1", "4"):
                with self.subTest(direction=direction, beam=beam):
                    out = translate_text(direction, text, "--beam", beam)
                    self.assertIn("\n\n" + block + "\n\n", out)
                    self.assertEqual(out.count("\n"), text.count("\n"))

    def test_indented_prose_is_translated_and_keeps_its_indentation(self):
        for direction, text in self.prose.items():
            out = translate_text(direction, text).split("\n")
            source = text.split("\n")
            with self.subTest(direction=direction):
                self.assertEqual(len(out), len(source))
                for line, translated in zip(source[2:], out[2:]):
                    self.assertTrue(translated.startswith("    ") and not translated.startswith("     "), translated)
                    self.assertNotEqual(translated, line)


@needs_cli
class CodeAtTheEnd(unittest.TestCase):
    def test_the_final_mark_after_code_the_translation_ends_on(self):
        # the model wrote the code's unknown piece last and stopped: "Save your work with `git commit -m "fix"`"
        out = translate_text("de-en", 'Mit `git commit -m "fix"` speichern Sie Ihre Arbeit.')
        self.assertIn('`git commit -m "fix"`', out)
        self.assertTrue(out.endswith("."), out)

    def test_no_quotation_marks_around_code(self):
        # the model quoted code as German manual pages do: "Aktiviert den » `strict`« in der Konfiguration."
        for line in ["Enable the `strict` mode in the config.", "Use the `--force` flag only if `git status` is clean."]:
            with self.subTest(line=line):
                out = translate_text("en-de", line)
                for code in re.findall(r"`[^`]+`", line):
                    self.assertIn(code, out)
                self.assertNotRegex(out, "[»«„“\"]", out)


if __name__ == "__main__":
    unittest.main()
