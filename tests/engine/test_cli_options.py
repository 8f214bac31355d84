"""The `nmt` command's decoding options (engine/options.h): every bad value is refused with exit
code 2 and a message naming the flag, the allowed range and the value given; never a silent
default or clamp (`--beam abc` used to become beam 1). Good values at both ends of each range
translate. Stdlib only; uses build/nmt and the tiny fixture model."""
import os
import subprocess
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")
TINY = os.path.join(ROOT, "tests", "fixtures", "tiny.nmt")

# flag -> (allowed-range wording, bad values, good values); the table in engine/options.h
OPTIONS = {
    "--beam": ("an integer from 1 to 16", ["abc", "0", "-1", "17", "2.5", "", "4x", "nan", "1e1", "4.0", "0x4"], ["1", "16"]),
    "--length-penalty": ("a number from 0 to 2", ["x", "-0.1", "2.01", "inf"], ["0", "2"]),
    "--coverage-penalty": ("a number from 0 to 2", ["x", "-1", "3"], ["0", "2"]),
    "--max-length-ratio": ("a number from 0.1 to 4", ["0", "4.5", "one"], ["0.1", "4"]),
    "--reverse-weight": ("a number from 0 to 5", ["-1", "6", "w"], ["0", "5"]),
    "--alternatives": ("an integer from 1 to 20", ["0", "21", "2.5", "x"], ["1", "20"]),  # JSON on one line
    # (a positive --sample-top-k needs --beam 1: test_sampling below)
    "--sample-top-k": ("an integer from 0 to 1000000", ["-1", "1000001", "2.5", "k"], ["0"]),
    "--seed": ("an integer from 0 to 2147483647", ["-1", "2147483648", "1.5", "s"], ["0", "2147483647"]),
}


def nmt(*args, text="hello world\n"):
    return subprocess.run([NMT, *args], input=text, capture_output=True, text=True, timeout=60)


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class CliOptions(unittest.TestCase):
    def test_bad_values_are_refused_with_the_range(self):
        for flag, (allowed, bad, _) in OPTIONS.items():
            for value in bad:
                with self.subTest(flag=flag, value=value):
                    r = nmt("--model", TINY, flag, value)
                    self.assertEqual(r.returncode, 2, r.stderr)
                    self.assertEqual(r.stdout, "")
                    self.assertEqual(r.stderr.strip(), f'nmt: {flag} must be {allowed} (got "{value}")')

    def test_bench_checks_its_options_too(self):
        r = nmt("bench", "--model", TINY, "--input", TINY, "--beam", "0")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--beam must be an integer from 1 to 16", r.stderr)
        r = nmt("bench", "--model", TINY, "--input", TINY, "--repeat", "zero")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--repeat must be an integer from 1 to 1000", r.stderr)

    def test_values_at_both_ends_of_each_range_translate(self):
        for flag, (_, _, good) in OPTIONS.items():
            for value in good:
                with self.subTest(flag=flag, value=value):
                    r = nmt("--model", TINY, flag, value)
                    self.assertEqual(r.returncode, 0, r.stderr)
                    self.assertEqual(r.stdout.count("\n"), 1)

    def test_a_value_changes_the_search(self):
        text = "The weather is nice today. We will meet at the museum on Monday morning.\n"
        short = nmt("--model", TINY, "--max-length-ratio", "0.1", text=text)
        long = nmt("--model", TINY, "--max-length-ratio", "4", text=text)
        self.assertEqual(short.returncode, 0, short.stderr)
        self.assertLess(len(short.stdout), len(long.stdout))

    def test_sampling(self):
        """--sample-top-k K draws tokens (beam 1 only); --seed S reproduces them; top-1 is greedy."""
        text = "The weather is nice today. We will meet at the museum on Monday morning.\n"
        greedy = nmt("--model", TINY, "--beam", "1", text=text)
        self.assertEqual(greedy.returncode, 0, greedy.stderr)
        top1 = nmt("--model", TINY, "--beam", "1", "--sample-top-k", "1", "--seed", "9", text=text)
        self.assertEqual(top1.stdout, greedy.stdout)
        runs = {seed: nmt("--model", TINY, "--beam", "1", "--sample-top-k", "1000000", "--seed", seed, text=text)
                for seed in ("1", "2", "3")}
        for r in runs.values():
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertEqual(r.stdout.count("\n"), 1)
        again = nmt("--model", TINY, "--beam", "1", "--sample-top-k", "1000000", "--seed", "1", text=text)
        self.assertEqual(again.stdout, runs["1"].stdout)
        self.assertGreater(len({r.stdout for r in runs.values()} | {greedy.stdout}), 1)
        for beam in ([], ["--beam", "4"]):  # the default beam is 4
            r = nmt("--model", TINY, *beam, "--sample-top-k", "5")
            self.assertEqual(r.returncode, 2)
            self.assertEqual(r.stdout, "")
            self.assertEqual(r.stderr.strip(), "nmt: --sample-top-k must be 0 unless --beam is 1 (got --sample-top-k 5 with --beam 4)")

    def test_help_lists_every_option_with_its_range_and_default(self):
        r = nmt("--help")
        self.assertEqual(r.returncode, 2)
        for flag, (allowed, _, _) in OPTIONS.items():
            self.assertRegex(r.stderr, rf"{flag} X .*\({allowed}, default [0-9.]+\)")
        self.assertIn("--alignments", r.stderr)
        self.assertRegex(r.stderr, r"--prefix TEXT .*\(a string, default none\)")
        self.assertIn("--all-heads", r.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
