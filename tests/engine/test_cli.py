"""The `nmt` command-line tool (engine/cli/main.cpp): its options are checked, bad ones get a
clear message and exit code 2, an unreadable model gets exit code 1, and the decoding options
(--beam, --length-penalty, --coverage-penalty) reach the search. Uses the tiny fixture model, so it runs in seconds."""
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


if __name__ == "__main__":
    unittest.main(verbosity=2)
