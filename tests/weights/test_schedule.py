"""weights/recipe/train.py: the learning-rate schedule, and the batches of an epoch. Warm-up, inverse-square-root decay, the
re-warm-up after --init-from and the final anneal are what decide how a continued training round
behaves, and a mistake there (a rate that jumps back to its peak, or an anneal that never reaches
zero) only shows hours later as a worse model. Needs PyTorch (train.py imports it); skipped,
with a message, where it is not installed."""
import math
import os
import unittest

from recipe_env import needs_torch


@needs_torch
class Schedule(unittest.TestCase):
    def setUp(self):
        from train import learning_rate
        self.lr = learning_rate

    def test_warmup_then_inverse_square_root(self):
        self.assertAlmostEqual(self.lr(400, 1e-3, 800), 0.5e-3)
        self.assertAlmostEqual(self.lr(800, 1e-3, 800), 1e-3)
        self.assertAlmostEqual(self.lr(3200, 1e-3, 800), 0.5e-3)
        self.assertAlmostEqual(self.lr(0, 1e-3, 800), 1e-3 / 800)  # step 0 counts as step 1

    def test_rewarm_ramps_back_to_where_the_schedule_left_off(self):
        base = self.lr(20300, 1e-3, 800)
        self.assertAlmostEqual(self.lr(20000 + 1, 1e-3, 800, rewarm_start=20000, rewarm=300),
                               self.lr(20001, 1e-3, 800) / 300)
        self.assertAlmostEqual(self.lr(20150, 1e-3, 800, 20000, 300), self.lr(20150, 1e-3, 800) / 2)
        self.assertAlmostEqual(self.lr(20300, 1e-3, 800, 20000, 300), base)
        self.assertAlmostEqual(self.lr(25000, 1e-3, 800, 20000, 300), self.lr(25000, 1e-3, 800))

    def test_anneal_goes_linearly_to_zero_over_the_last_minutes(self):
        full = self.lr(30000, 1e-3, 800)
        self.assertAlmostEqual(self.lr(30000, 1e-3, 800, seconds_left=3600, anneal_seconds=600), full)
        self.assertAlmostEqual(self.lr(30000, 1e-3, 800, seconds_left=600, anneal_seconds=600), full)
        self.assertAlmostEqual(self.lr(30000, 1e-3, 800, seconds_left=150, anneal_seconds=600), full / 4)
        self.assertEqual(self.lr(30000, 1e-3, 800, seconds_left=-5, anneal_seconds=600), 0.0)
        # Off by default, whatever the time left.
        self.assertAlmostEqual(self.lr(30000, 1e-3, 800, seconds_left=1), full)
        self.assertTrue(math.isclose(self.lr(30000, 1e-3, 800, 29000, 300, 300, 600), full / 2))


@needs_torch
class ContinuedRound(unittest.TestCase):
    """--init-from continues the shipped model's step, tokens and history, but early stopping starts
    afresh: the round's first validations are above the shipped model's best (the restart bump),
    and patience counted against that best stopped a run that was still improving."""

    def test_continues_counters_and_restarts_patience(self):
        from train import continue_from_provenance
        state = {"step": 0, "tokens": 0, "train_seconds": 0.0, "history": [], "best_loss": float("inf"),
                 "bad_evals": 3, "epoch": 0, "epoch_fraction": 0.0}
        provenance = {"train": {"steps": 31591, "target_tokens": 53_000_000, "seconds": 42000.0,
                                "rounds": 6, "epochs": 9.61},
                      "history": [{"valid_nll": 2.31}, {"valid_nll": 2.28}]}
        continue_from_provenance(state, provenance)
        self.assertEqual((state["step"], state["rewarm_start"], state["rounds"]), (31591, 31591, 6))
        self.assertEqual(state["epoch"], 9)
        self.assertAlmostEqual(state["epoch_fraction"], 0.61)
        self.assertEqual(len(state["history"]), 2)
        self.assertEqual((state["best_loss"], state["bad_evals"]), (float("inf"), 0))


    def test_validations_during_the_rewarm_do_not_count_for_early_stopping(self):
        """Round 19's en-de (--rewarm 2000, patience 4): its validations, replayed. Counting them
        all, the first (still re-warming) is the best and the bump's peak stops the run at 51
        minutes; skipping the two taken while re-warming, the run goes on improving."""
        from train import count_validation
        losses = [2.1200, 2.1304, 2.1324, 2.1277, 2.1247]
        rewarming = [True, True, False, False, False]
        for skip in (False, True):
            state = {"best_loss": float("inf"), "bad_evals": 0}
            for loss, warming in zip(losses, rewarming):
                count_validation(state, loss, warming and skip)
            if skip:
                self.assertEqual((state["best_loss"], state["bad_evals"]), (2.1247, 0))
            else:
                self.assertEqual((state["best_loss"], state["bad_evals"]), (2.1200, 4))
        # No improvement by more than min_delta counts as a bad validation.
        state = {"best_loss": 2.0, "bad_evals": 1}
        count_validation(state, 1.9995, False)
        self.assertEqual((state["best_loss"], state["bad_evals"]), (2.0, 2))


@needs_torch
class Batches(unittest.TestCase):
    def test_an_epochs_sample_is_batched_whole_within_the_token_limit(self):
        import random
        from prepare_data import epoch_lines
        from train import make_batches
        rng = random.Random(3)
        src = [[5] * rng.randint(1, 40) for _ in range(600)]
        tgt = [[6] * rng.randint(1, 40) for _ in range(600)]
        weights = [2.0] * 100 + [0.5] * 500
        lines = epoch_lines(weights, random.Random(9))
        batches = make_batches(src, tgt, lines, 400, random.Random(9))
        self.assertEqual(sorted(i for b in batches for i in b), sorted(lines))  # nothing lost, repeats kept
        for b in batches:
            self.assertLessEqual(len(b) * (max(max(len(src[i]), len(tgt[i])) for i in b) + 1), 400)

    def test_weights_must_match_the_lines(self):
        import tempfile
        from train import read_weights
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(read_weights(tmp, 3), [1.0, 1.0, 1.0])  # a folder from before round 13
            with open(os.path.join(tmp, "train.weight"), "w") as f:
                f.write("2\n0.2\n")
            self.assertEqual(read_weights(tmp, 2), [2.0, 0.2])
            with self.assertRaises(SystemExit):
                read_weights(tmp, 3)


if __name__ == "__main__":
    unittest.main()
