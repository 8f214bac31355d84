"""The `nmt` command-line tool (engine/cli/main.cpp): its options are checked, bad ones get a
clear message and exit code 2, an unreadable model gets exit code 1, and the decoding options
(--beam, --length-penalty, --coverage-penalty, --reverse-model) reach the search. Uses the tiny
fixture model and, for reranking, the shipped pair of models."""
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")
TINY = os.path.join(ROOT, "tests", "fixtures", "tiny.nmt")


def nmt(*args, text="hello world\n"):
    return subprocess.run([NMT, *args], input=text, capture_output=True, text=True, timeout=60)


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class Cli(unittest.TestCase):
    def test_translates_with_each_decoding_option(self):
        for args in ([], ["--beam", "1"], ["--beam", "4", "--length-penalty", "0"],
                     ["--beam", "4", "--length-penalty", "1.5"], ["--beam", "4", "--coverage-penalty", "0"],
                     ["--beam", "4", "--coverage-penalty", "2"]):
            with self.subTest(args=args):
                r = nmt("--model", TINY, *args)
                self.assertEqual(r.returncode, 0, r.stderr)
                self.assertEqual(r.stdout.count("\n"), 1)  # one line in, one line out

    def test_bad_penalties_are_refused_clearly(self):
        for option in ("--length-penalty", "--coverage-penalty"):
            for value in ("x", "", "-1", "3", "nan", "0.5x"):
                with self.subTest(option=option, value=value):
                    r = nmt("--model", TINY, option, value)
                    self.assertEqual(r.returncode, 2)
                    self.assertIn(option, r.stderr)
            r = nmt("--model", TINY, option)  # value missing
            self.assertEqual(r.returncode, 2)
            self.assertIn("usage", r.stderr)

    def test_reverse_model_must_translate_the_other_way(self):
        for value in ("x", "-1", "6"):
            r = nmt("--model", TINY, "--reverse-model", TINY, "--reverse-weight", value)
            self.assertEqual(r.returncode, 2)
            self.assertIn("--reverse-weight", r.stderr)
        r = nmt("--model", TINY, "--reverse-model", TINY)  # en->de cannot rerank en->de
        self.assertEqual(r.returncode, 1)
        self.assertIn("translates en->de, not de->en", r.stderr)
        r = nmt("--model", TINY, "--reverse-model", os.path.join(ROOT, "no", "such.nmt"))
        self.assertEqual(r.returncode, 1)

    def test_reranks_with_the_shipped_reverse_model(self):
        en_de, de_en = (os.path.join(ROOT, "weights", d, "model.nmt") for d in ("en-de", "de-en"))
        if not os.path.exists(en_de):
            self.skipTest("weights/en-de/model.nmt not present")
        text = "The weather is nice today.\nWhere is the nearest train station?\n"
        plain = nmt("--model", en_de, text=text)
        same = nmt("--model", en_de, "--reverse-model", de_en, "--reverse-weight", "0", text=text)
        reranked = nmt("--model", en_de, "--reverse-model", de_en, text=text)
        for r in (plain, same, reranked):
            self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(same.stdout, plain.stdout)  # weight 0: the beam's own choice
        self.assertEqual(reranked.stdout.count("\n"), 2)
        self.assertIn("Wetter", reranked.stdout)

    def test_unknown_option_prints_usage(self):
        r = nmt("--model", TINY, "--no-such-option")
        self.assertEqual(r.returncode, 2)
        self.assertIn("usage", r.stderr)

    def test_unreadable_model_is_an_error_not_a_crash(self):
        with tempfile.NamedTemporaryFile(suffix=".nmt") as f:
            f.write(b"not a model")
            f.flush()
            r = nmt("--model", f.name)
        self.assertEqual(r.returncode, 1)
        self.assertTrue(r.stderr.startswith("nmt: "), r.stderr)
        r = nmt("--model", os.path.join(ROOT, "no", "such.nmt"))
        self.assertEqual(r.returncode, 1)
        r = nmt("--model", os.path.join(ROOT, "weights"))  # a directory: said so, not "empty"
        self.assertEqual(r.returncode, 1)
        self.assertIn("is a directory, not a regular file", r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
