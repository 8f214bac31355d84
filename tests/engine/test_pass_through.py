"""Pass-through (engine/text/pass_through.h): what the shipped vocabulary cannot write (emoji, CJK,
Hebrew, Arabic, Thai, Devanagari, Hangul, Cyrillic, rare symbols) reaches the translation verbatim,
in both directions, greedy and beam, with and without alignments, and never as the unknown "⁇".
The sentences are tests/fixtures/pass_through.tsv; every run of such characters in a source must
appear in its translation."""
import json
import os
import re
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "pass_through.tsv")
# Latin (with its extensions), general punctuation and whitespace are what the vocabulary writes;
# everything else in the fixture is outside it (checked when the fixture was made).
FOREIGN_RUN = re.compile(r"[^\u0000-\u024F\u2000-\u206F\s]+")


def sentences(lang):
    with open(FIXTURE, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t")[1] for line in f if line.startswith(lang + "\t")]


def translate(model, lines, *args):
    r = subprocess.run([NMT, "--model", model, *args], input="\n".join(lines) + "\n", capture_output=True,
                       text=True, timeout=300)
    if r.returncode != 0:
        raise AssertionError(r.stderr)
    return r.stdout.split("\n")[:len(lines)]


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class PassThrough(unittest.TestCase):
    def test_foreign_runs_reach_the_translation(self):
        for direction in ("en-de", "de-en"):
            model = os.path.join(ROOT, "weights", direction, "model.nmt")
            lines = sentences(direction[:2])
            self.assertGreaterEqual(len(lines), 10)
            for args in (["--beam", "1"], ["--beam", "4"]):
                for src, out in zip(lines, translate(model, lines, *args)):
                    with self.subTest(direction=direction, args=args, source=src):
                        self.assertNotIn("\u2047", out)  # the unknown surface "⁇"
                        for run in FOREIGN_RUN.findall(src):
                            self.assertIn(run, out)
                            self.assertEqual(out.count(run), src.count(run), "copied once, not twice")

    def test_alignments_cover_the_copied_text(self):
        """With --alignments the text is the same, and the copied run is a target word whose UTF-16
        range (what JavaScript indexes) slices exactly to it."""
        model = os.path.join(ROOT, "weights", "en-de", "model.nmt")
        src = "I love pizza 🍕 and ice cream 🍦."
        plain = translate(model, [src])[0]
        r = subprocess.run([NMT, "--model", model, "--alignments"], input=src + "\n", capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        sentence = json.loads(r.stdout.splitlines()[0])["sentences"][0]
        self.assertEqual(sentence["target"], plain)
        units = sentence["target"].encode("utf-16-le")
        word = lambda b, e: units[2 * b:2 * e].decode("utf-16-le")
        for t in sentence["target_tokens"]:
            b, e = t["range"]
            self.assertTrue(0 <= b <= e <= len(units) // 2, t)
        words = [word(b, e) for b, e in sentence["target_words"]]
        for run in ("🍕", "🍦"):
            self.assertIn(run, words)

    def test_no_text_is_lost(self):
        """A sentence the tokenizer gives no piece for (only U+FFFD, which it deletes) comes back
        verbatim; U+FFFD after, before or inside a sentence and emoji-only lines are kept; a lone
        control character is read as a space (one line in, one line out)."""
        fffd = "\ufffd"
        for direction, normal in (("en-de", "The house is small."), ("de-en", "Das Haus ist klein.")):
            model = os.path.join(ROOT, "weights", direction, "model.nmt")
            lines = [fffd, fffd + fffd + " " + fffd, normal + " " + fffd + fffd, fffd + " " + normal,
                     "😀", "😀 🎉", "\x01", normal + "\x01" + fffd]
            for args in (["--beam", "1"], ["--beam", "4"]):
                out = translate(model, lines, *args)
                with self.subTest(direction=direction, args=args):
                    self.assertEqual(out[0], fffd)
                    self.assertEqual(out[1], fffd + fffd + " " + fffd)
                    self.assertIn(fffd + fffd, out[2])
                    self.assertTrue(out[2].startswith(translate(model, [normal], *args)[0]), out[2])
                    self.assertEqual(out[3].count(fffd), 1)
                    self.assertEqual(out[4], "😀")
                    self.assertTrue("😀" in out[5] and "🎉" in out[5], out[5])
                    self.assertEqual(out[6].strip(), "")
                    self.assertEqual(out[7].count(fffd), 1)
    def test_a_run_written_against_its_word_stays_against_it(self):
        # a run the model left out goes after its word's translation: against it where the source has
        # it against its word ("The brand™ is strong." gave "Die Marke ™ ist stark.")
        lines = ["The brand™ is strong.", "Our product™ works well, the old one™ did not."]
        for line, out in zip(lines, translate(os.path.join(ROOT, "weights", "en-de", "model.nmt"), lines)):
            with self.subTest(line=line):
                self.assertEqual(out.count("™"), line.count("™"), out)
                self.assertNotIn(" ™", out)

    def test_names_with_a_letter_the_vocabulary_lacks_stay_whole(self):
        # "ğ", "ó", "ř", "ń" are unknown pieces inside the word: the model writes "Erdo" "⁇" "an", and
        # the copied letter joins its word ("Erdoğan", not "Erdoğ an"; 26 / 40 of ~190 such names were
        # whole in 150 news sentences per direction, now 157 / 195)
        cases = {"en-de": ["President Erdoğan visited Kraków yesterday.", "The plant near Gdańsk was sold to Dvořák."],
                 "de-en": ["Präsident Erdoğan besuchte gestern Kraków.", "Das Werk bei Gdańsk wurde an Dvořák verkauft."]}
        for direction, lines in cases.items():
            out = translate(os.path.join(ROOT, "weights", direction, "model.nmt"), lines, "--beam", "4")
            for line, o in zip(lines, out):
                for name in re.findall(r"\w*[ğóřń]\w*", line):
                    with self.subTest(direction=direction, name=name):
                        self.assertIn(name, o)

    def test_a_line_with_nothing_to_translate_comes_back_as_it_is(self):
        """Digits, punctuation, symbols and emoji alone: the model reshuffled them ("!!!" -> "!!",
        "* * *" -> "* * * * *", "-" -> "- -", "— 12 —" -> "– 12 – 12 –"); now they are copied."""
        nothing = ["!!!", "* * *", "-", "— 12 —", "?!?!... ***", "(1)", "3 × 4 = 12", "+49 30 1234567", "😀 … 🎉",
                   "→", "100%", "2020–2021", "#1", "@@@", "***"]
        for direction, sentence in (("en-de", "The house is small."), ("de-en", "Das Haus ist klein.")):
            model = os.path.join(ROOT, "weights", direction, "model.nmt")
            lines = [l for n in nothing for l in (n, sentence)]
            for args in (["--beam", "1"], ["--beam", "4"]):
                out = translate(model, lines, *args)
                for src, got in zip(lines, out):
                    with self.subTest(direction=direction, args=args, source=src):
                        if src == sentence:
                            self.assertNotEqual(got, src)  # still translated
                        else:
                            self.assertEqual(got, src)

    def test_a_sentence_in_a_script_the_model_cannot_read_comes_back_as_it_is(self):
        """Sentences whose only words are unknown pieces (Chinese, Russian, Arabic, Greek...) were
        run through the model, which could only move their punctuation about ("今天天气很好，我们走吧。"
        -> "今天天气很好 我们走吧。,", "Привет, как дела?" -> "Привет, как дела ?"); now they are
        copied character for character, next to sentences that are still translated."""
        foreign = ["今天天气很好，我们一起去公园散步吧。", "Привет, как дела?", "مرحبا بالعالم، كيف حالك؟",
                   "東京タワーは高い！", "שלום, מה שלומך?", "서울에 가고 싶어요.", "Ελληνικά: καλημέρα!"]
        for direction, sentence in (("en-de", "The house is small."), ("de-en", "Das Haus ist klein.")):
            model = os.path.join(ROOT, "weights", direction, "model.nmt")
            for args in (["--beam", "1"], ["--beam", "4"]):
                out = translate(model, foreign + [sentence], *args)
                for src, got in zip(foreign, out):
                    with self.subTest(direction=direction, args=args, source=src):
                        self.assertEqual(got, src)
                self.assertNotEqual(out[-1], sentence)
            # in one text: each foreign sentence copied, the other translated
            text = "Привет, как дела? " + sentence + " 今天天气很好，我们走吧。"
            got = translate(model, [text])[0]
            self.assertTrue(got.startswith("Привет, как дела? "), got)
            self.assertTrue(got.endswith(" 今天天气很好，我们走吧。"), got)
            self.assertNotIn(sentence, got)

    def test_a_very_long_run_without_spaces_is_copied_whole(self):
        """A run of more than 64 characters without a space (a hash, base64, a path, one letter
        20,000 times) is no word: the model cut it into hundreds of pieces and lost or repeated some
        (20,000 random letters came back as 17,933 characters, after a minute). It is copied, and the
        words around it are translated."""
        import random
        rng = random.Random(7)
        letters = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(20000))
        blob = "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") for _ in range(88))
        path = "/usr/share/doc/some-package/examples/configuration/" + "x" * 30 + "/settings.conf"
        for direction, before, after in (("en-de", "The key is ", " and it works."), ("de-en", "Der Schlüssel ist ", " und er funktioniert.")):
            model = os.path.join(ROOT, "weights", direction, "model.nmt")
            out = translate(model, [letters, "x" * 5000, before + blob + after, before + path + "."])
            with self.subTest(direction=direction):
                self.assertEqual(out[0], letters)
                self.assertEqual(out[1], "x" * 5000)
                self.assertEqual(out[2].count(blob), 1, out[2])
                self.assertNotIn(before.strip(), out[2])  # the words around it are translated
                self.assertEqual(out[3].count(path), 1, out[3])


if __name__ == "__main__":
    unittest.main()
