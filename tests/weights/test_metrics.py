"""The recipe's BLEU and chrF (weights/recipe/metrics.py) against values published by sacreBLEU's
own tests and by hand-worked examples, so the model card's numbers mean what they say."""
import math
import os
import unittest

from recipe_env import ROOT  # first: it puts weights/recipe on the import path
from dev_sets import load_dev
from metrics import bleu, bleu_of_stats, bleu_stats, chrf, paired_bootstrap, tokenize_13a


class Tokenizer13a(unittest.TestCase):
    def test_splits_punctuation_but_keeps_numbers(self):
        self.assertEqual(tokenize_13a("Hello, world!"), ["Hello", ",", "world", "!"])
        self.assertEqual(tokenize_13a("It costs 1,000.50 dollars."), ["It", "costs", "1,000.50", "dollars", "."])
        self.assertEqual(tokenize_13a('He said "no" (twice) & left'),
                         ["He", "said", '"', "no", '"', "(", "twice", ")", "&", "left"])
        self.assertEqual(tokenize_13a("a &amp; b &lt;c&gt;"), ["a", "&", "b", "<", "c", ">"])


class Bleu(unittest.TestCase):
    def test_identical_is_100(self):
        self.assertAlmostEqual(bleu(["this is a test"], ["this is a test"]), 100.0, places=9)

    def test_empty_hypotheses_score_zero(self):
        self.assertEqual(bleu(["", "", ""], ["a b c", "d e", "f"]), 0.0)

    def test_exp_smoothing_of_a_missing_order(self):
        # sacreBLEU default (13a, exp smoothing) gives 39.13 here: precisions 6/8, 3/6, 1/4 and no
        # 4-gram match, smoothed to 1/(2*2); equal lengths, so no brevity penalty.
        score = bleu(["Hi world.", "This is a Test."], ["Hello world.", "This is a test."])
        self.assertAlmostEqual(score, 100 * (0.75 * 0.5 * 0.25 * 0.25) ** 0.25, places=9)
        self.assertAlmostEqual(score, 39.13, places=2)

    def test_brevity_penalty(self):
        # hypothesis 4 tokens, reference 6: all n-grams match, BP = exp(1 - 6/4)
        self.assertAlmostEqual(bleu(["a b c d"], ["a b c d e f"]), 100 * math.exp(1 - 6 / 4), places=9)

    def test_is_case_sensitive_and_corpus_level(self):
        self.assertLess(bleu(["The cat sat on the mat ."], ["the cat sat on the mat ."]), 100.0)
        # corpus level: counts are pooled, not sentence scores averaged
        pooled = bleu(["a b c d", "x y z w"], ["a b c d", "p q r s"])
        self.assertAlmostEqual(pooled, 100 * (4 / 8 * 3 / 6 * 2 / 4 * 1 / 2) ** 0.25, places=9)


class ChrF(unittest.TestCase):
    def test_sacrebleu_effective_order_cases(self):
        # sacreBLEU's own test cases for chrF without eps smoothing (beta 3)
        for hyps, refs, expected in ((["a"], ["a"], 100.0), (["a b c"], ["abc"], 100.0), ([""], ["reference"], 0.0),
                                     (["a", "b"], ["a", "c"], 50.0), (["aa"], ["ab"], 25.0)):
            with self.subTest(hyps=hyps):
                self.assertAlmostEqual(chrf(hyps, refs, beta=3), expected, places=4)

    def test_precision_and_recall_are_averaged_before_the_f_score(self):
        # "ab" vs "abc": order 1 P=1 R=2/3, order 2 P=1 R=1/2, order 3+ has no hypothesis n-grams.
        # Averaged P=1, R=7/12; chrF2 = 5PR/(4P+R) = 35/55. (Averaging per-order F-scores would give 63.49.)
        self.assertAlmostEqual(chrf(["ab"], ["abc"]), 100 * 35 / 55, places=9)

    def test_whitespace_is_ignored(self):
        self.assertAlmostEqual(chrf(["Die  Beziehung ist gut"], ["DieBeziehung istgut"]), 100.0, places=9)


class PairedBootstrap(unittest.TestCase):
    def setUp(self):
        path = os.path.join(ROOT, "tests", "fixtures", "dev", "tatoeba-dev.en-de.tsv")
        self.en, self.de = load_dev(path, "en")
        self.refs = self.de[:200]

    def test_sentence_stats_sum_to_corpus_bleu(self):
        hyps = [" ".join(r.split()[:-1]) for r in self.refs]  # every reference less its last word
        self.assertAlmostEqual(bleu_of_stats([bleu_stats(h, r) for h, r in zip(hyps, self.refs)]), bleu(hyps, self.refs),
                               places=9)

    def test_identical_systems_differ_by_nothing(self):
        r = paired_bootstrap(self.refs, self.refs, self.refs, resamples=50)
        self.assertEqual((r["delta"], r["low"], r["high"], r["p_b_not_better"]), (0.0, 0.0, 0.0, 1.0))

    def test_a_clearly_better_system_is_found_and_the_interval_holds_the_delta(self):
        worse = [" ".join(r.split()[: max(1, len(r.split()) // 2)]) for r in self.refs]
        r = paired_bootstrap(worse, self.refs, self.refs, resamples=200)
        self.assertGreater(r["delta"], 20)
        self.assertLess(r["low"], r["delta"])
        self.assertGreater(r["high"], r["delta"])
        self.assertGreater(r["low"], 0)
        self.assertEqual(r["p_b_not_better"], 0.0)

    def test_a_trade_of_a_few_sentences_is_noise(self):
        # A loses a word in 5 sentences, B in 5 others: the interval holds 0 on both sides
        drop = lambda k: [" ".join(r.split()[:-1]) if i % 40 == k else r for i, r in enumerate(self.refs)]  # noqa: E731
        r = paired_bootstrap(drop(20), drop(0), self.refs, resamples=300, seed=3)
        self.assertLess(abs(r["delta"]), 1)
        self.assertLess(r["low"], 0)
        self.assertGreater(r["high"], 0)
        self.assertGreater(r["p_b_not_better"], 0.05)
        self.assertLess(r["p_b_not_better"], 0.95)

    def test_lengths_must_match(self):
        with self.assertRaises(ValueError):
            paired_bootstrap(self.refs, self.refs[:-1], self.refs)

    def test_chrf_as_the_metric(self):
        worse = [" ".join(r.split()[: max(1, len(r.split()) // 2)]) for r in self.refs]
        r = paired_bootstrap(worse, self.refs, self.refs, resamples=100, metric="chrf")
        self.assertAlmostEqual(r["delta"], chrf(self.refs, self.refs) - chrf(worse, self.refs), places=9)
        self.assertLess(r["low"], r["delta"])
        self.assertGreater(r["high"], r["delta"])
        self.assertGreater(r["low"], 0)
        same = paired_bootstrap(self.refs, self.refs, self.refs, resamples=20, metric="chrf")
        self.assertEqual((same["delta"], same["low"], same["high"]), (0.0, 0.0, 0.0))
        with self.assertRaises(ValueError):
            paired_bootstrap(worse, self.refs, self.refs, metric="ter")


class DevSets(unittest.TestCase):
    def test_one_tsv_reads_both_ways(self):
        path = os.path.join(ROOT, "tests", "fixtures", "dev", "tatoeba-dev.en-de.tsv")
        en, de = load_dev(path, "en")
        de2, en2 = load_dev(path, "de")
        self.assertEqual((en, de), (en2, de2))
        with open(path, encoding="utf-8") as f:
            first = f.readline().rstrip("\n").split("\t")
            lines = 1 + sum(1 for _ in f)
        self.assertEqual(len(en), lines)
        self.assertEqual([en[0], de[0]], first)


if __name__ == "__main__":
    unittest.main()
