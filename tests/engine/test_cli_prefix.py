"""`nmt --prefix TEXT` and `nmt --alternatives N` (search/forced_prefix.h, search/alternatives.h):
the translation starts with the prefix exactly (mid-word, trailing space, non-ASCII), one sentence
only; the alternatives are JSON, ranked, and the model's own next word is among them. On the
shipped en-de model when it exists (properties only, no model's outputs written down) and the
fixture model. Stdlib only; uses build/nmt."""
import json
import os
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")
MODELS = [m for m in (os.path.join(ROOT, "weights", "en-de", "model.nmt"), os.path.join(ROOT, "tests", "fixtures", "tiny.nmt"))
          if os.path.exists(m)]
SOURCES = ["The house is small.", "Where is the station?", "My sister bought a new car yesterday."]
PREFIXES = ["", "Das", "Das ", "Das Ha", "Meine Schwe", "Grüße aus Kö", "Wo,", "Ein  großes "]


def nmt(*args, text):
    return subprocess.run([NMT, *args], input=text, capture_output=True, text=True, timeout=120)


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class CliPrefix(unittest.TestCase):
    def test_the_translation_starts_with_the_prefix_exactly(self):
        for model in MODELS:
            for beam in ("1", "4"):
                for source in SOURCES:
                    for prefix in PREFIXES:
                        with self.subTest(model=model, beam=beam, source=source, prefix=prefix):
                            r = nmt("--model", model, "--beam", beam, "--prefix", prefix, text=source + "\n")
                            self.assertEqual(r.returncode, 0, r.stderr)
                            self.assertTrue(r.stdout.startswith(prefix), r.stdout)
                            self.assertGreater(len(r.stdout.strip()), len(prefix.strip()))
                            self.assertTrue(r.stdout.endswith("\n"))  # the input's newline kept

    def test_alignments_json_with_a_prefix(self):
        r = nmt("--model", MODELS[0], "--prefix", "Das Ha", "--alignments", text="The house is small.")
        self.assertEqual(r.returncode, 0, r.stderr)
        s = json.loads(r.stdout)["sentences"][0]
        self.assertTrue(s["target"].startswith("Das Ha"))
        self.assertEqual(len(s["token_probs"]), len(s["target_tokens"]))
        self.assertEqual(len(s["target_word_probs"]), len(s["target_words"]))

    def test_a_prefix_needs_one_sentence(self):
        r = nmt("--model", MODELS[0], "--prefix", "Das", text="The house is small. It is red.")
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout, "")
        self.assertEqual(r.stderr.strip(), "nmt: a prefix needs exactly one sentence to translate (this text has 2)")

    def test_alternatives_are_ranked_and_include_the_models_choice(self):
        for model in MODELS:
            for source in SOURCES:
                for prefix in ("", "Das ", "Meine "):
                    with self.subTest(model=model, source=source, prefix=prefix):
                        r = nmt("--model", model, "--prefix", prefix, "--alternatives", "5", text=source)
                        self.assertEqual(r.returncode, 0, r.stderr)
                        alts = json.loads(r.stdout)["alternatives"]
                        self.assertEqual(len(alts), 5)
                        probs = [a["probability"] for a in alts]
                        self.assertEqual(probs, sorted(probs, reverse=True))
                        self.assertTrue(all(0 < p <= 1 for p in probs))
                        self.assertLessEqual(sum(probs), 1.001)
                        self.assertEqual(len({a["word"] for a in alts}), 5)
                        # the model's greedy translation (without a prefix a short sentence may come
                        # from the translation memory, engine/text/memory.h)
                        greedy = nmt("--model", model, "--beam", "1", "--prefix", prefix, "--model-only", text=source).stdout
                        self.assertIn(greedy[len(prefix):], [a["word"] + a["continuation"] for a in alts])

    @unittest.skipUnless(os.path.exists(os.path.join(ROOT, "weights", "en-de", "model.nmt")), "needs the shipped en-de model")
    def test_alternatives_write_names_whole_never_an_unknown_piece(self):
        # The shipped en-de model learned "Ky" <unk> "to" from "Kyōto" and writes it for "Kyoto":
        # the word menu must offer "Kyoto", as translate() writes it, never "Ky" with " to" after it
        # or " ⁇ ".
        model = os.path.join(ROOT, "weights", "en-de", "model.nmt")
        cases = [("The climate agreement was signed in Kyoto.", "Das Klimaabkommen wurde in "),
                 ("The climate agreement was signed in Kyoto.", ""),
                 ("The Olympic Games in Tokyo were postponed.", "Die Olympischen Spiele in "),
                 ("We visited Kyoto and Tokyo last year.", "Wir besuchten ")]
        for source, prefix in cases:
            with self.subTest(source=source, prefix=prefix):
                r = nmt("--model", model, "--prefix", prefix, "--alternatives", "8", text=source)
                self.assertEqual(r.returncode, 0, r.stderr)
                alts = json.loads(r.stdout)["alternatives"]
                for a in alts:
                    text = a["word"] + a["continuation"]
                    self.assertNotIn("\u2047", text, a)
                    self.assertNotIn("<unk>", text, a)
                    # a word that starts like the name is the name: "Ky to", "Kyto" are not
                    for w in (w.strip(".,") for w in text.split()):
                        if w.startswith("Ky"):
                            self.assertIn(w, ("Kyoto", "Kyotos"), a)
                        if w.startswith("Tok"):
                            self.assertIn(w, ("Tokyo", "Tokio", "Tokyos", "Tokios"), a)
                    self.assertNotRegex(text, r"\bKy\s|\bTo?ky\s", a)


if __name__ == "__main__":
    unittest.main(verbosity=2)
