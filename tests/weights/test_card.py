"""The model card (weights/README.md) must describe the models that ship: its score table must be
what the shipped scores.json files say, and its training table what the shipped model files'
provenance says. Both are written by weights/recipe/make_card.py; a round shipped without rerunning
it fails here."""
import os
import unittest

from recipe_env import ROOT  # first: it puts weights/recipe on the import path
from model_file import read_header
from make_card import averaging, expected_train_args, options_table, read_block, recipe_defaults, score_table, training_table  # (stdlib only: no torch needed here)

CARD = os.path.join(ROOT, "weights", "README.md")


class CardMatchesShippedModels(unittest.TestCase):
    def setUp(self):
        with open(CARD, encoding="utf-8") as f:
            self.card = f.read()

    def test_score_table_is_the_shipped_scores(self):
        self.assertEqual(read_block(self.card, "scores"), score_table(),
                         "weights/README.md's scores differ from weights/*/scores.json: run make_card.py")

    def test_training_table_is_the_shipped_provenance(self):
        self.assertEqual(read_block(self.card, "training"), training_table(),
                         "weights/README.md's training table differs from the model files: run make_card.py")

    def test_recipe_defaults_are_what_the_card_and_the_shipped_models_say(self):
        """run_all.py trains with train.py's defaults: they must be the card's and, where a model file
        records them (round 20 on), what its last round trained with."""
        self.assertEqual(read_block(self.card, "options"), options_table(),
                         "weights/README.md's training options differ from train.py or the model files: run make_card.py")
        defaults = recipe_defaults()
        self.assertEqual(defaults["dropout"], 0.1)
        for d in ("en-de", "de-en"):
            provenance = read_header(os.path.join(ROOT, "weights", d, "model.nmt")).get("provenance", {})
            expected = expected_train_args(provenance)
            for name, value in provenance.get("train_args", {}).items():
                self.assertEqual(expected.get(name), value, f"{d} trained with --{name} {value}, the recipe's default is "
                                 f"{expected.get(name)}: the recipe would not reproduce the shipped model")

    def test_the_gpu_student_plan_is_held_to_its_own_defaults(self):
        self.assertEqual(expected_train_args({"plan": "gpu_round.py student"})["max_tokens"], 24000)
        self.assertEqual(expected_train_args({})["max_tokens"], recipe_defaults()["max_tokens"])

    def test_the_training_table_says_how_the_weights_were_combined(self):
        self.assertEqual(averaging({"averaged": 4}), "4")
        self.assertEqual(averaging({"averaged": 1, "interpolation": {"weight_of_a": 0.7, "b": "r22-de-en"}}),
                         "1, then 0.7 x this round + 0.3 x r22-de-en")
        self.assertEqual(averaging({"averaged": 1, "soup": ["g/student-en-de.nmt", "g/student-en-de-untagged.nmt"]}),
                         "1, then the mean of 2 runs (en-de, en-de-untagged)")

    def test_tables_fail_on_a_stale_card(self):
        stale = self.card.replace(score_table().split("\n")[2], "| en-de | flores-dev | 997 | 0 | 0 | 0 | 0 | 0 | 0 |")
        self.assertNotEqual(read_block(stale, "scores"), score_table())


if __name__ == "__main__":
    unittest.main()
