"""weights/recipe/prepare_data.py: the data mix. Each source's weight is the number of copies of
each of its pairs in the epoch file (below 1 a sample, above 1 an upsampling), and --mix reweights
sources by name. The default mix must keep producing the same epoch file (a continued training
round reads the same data), so whole weights draw no random numbers. Standard library only."""
import os
import random
import sys
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "weights", "recipe"))

from prepare_data import MIX, copies, parse_mix  # noqa: E402


class Mix(unittest.TestCase):
    def test_whole_weights_draw_nothing(self):
        rng, untouched = random.Random(7), random.Random(7)
        self.assertEqual([copies(w, rng) for w in (0.0, 1.0, 2.0, 3.0)], [0, 1, 2, 3])
        self.assertEqual(rng.random(), untouched.random())

    def test_fractional_weights_average_to_the_weight(self):
        rng = random.Random(1)
        for weight in (0.08, 0.3, 1.5, 2.25):
            counts = [copies(weight, rng) for _ in range(20000)]
            self.assertAlmostEqual(sum(counts) / len(counts), weight, delta=0.02)
            self.assertTrue(set(counts) <= {int(weight), int(weight) + 1})

    def test_sampling_below_one_matches_the_old_keep_rule(self):
        # Before --mix, a pair was kept when rng.random() < fraction: same draws, same pairs.
        a, b = random.Random(3), random.Random(3)
        for _ in range(1000):
            self.assertEqual(copies(0.6, a), 1 if b.random() < 0.6 else 0)

    def test_parse_mix(self):
        self.assertEqual(parse_mix(None), MIX)
        mix = parse_mix("news=3, ted=2,tatoeba=0.5")
        self.assertEqual((mix["news"], mix["ted"], mix["tatoeba"], mix["docs"]), (3.0, 2.0, 0.5, MIX["docs"]))
        for bad in ("wikipedia=2", "news", "news=lots", "news=-1"):
            with self.assertRaises(SystemExit, msg=bad):
                parse_mix(bad)


if __name__ == "__main__":
    unittest.main()
