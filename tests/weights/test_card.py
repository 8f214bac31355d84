"""The model card must describe the models that ship: card.json's shipped part (sizes, hashes,
parameters, scores: what the page's "About the models" shows) must be what the shipped files say, and
weights/README.md's tables what card.json, the scores.json files and the model files' provenance say.
All are written by weights/recipe/make_card.py; a round shipped without rerunning it fails here."""
import json
import os
import stat
import tempfile
import unittest

from recipe_env import ROOT  # first: it puts weights/recipe on the import path
from model_file import read_header
from make_card import (averaging, data_table, dump_card, expected_train_args, facts_table, limitations_block,  # (stdlib only:
                       load_card, options_table, read_block, recipe_defaults, score_table, shipped_facts,  # no torch needed
                       stale_limitation_examples, training_table)  # here)

CARD = os.path.join(ROOT, "weights", "README.md")


class CardMatchesShippedModels(unittest.TestCase):
    def setUp(self):
        with open(CARD, encoding="utf-8") as f:
            self.card = f.read()

    def test_card_json_is_the_shipped_files(self):
        card = load_card()
        self.assertEqual(card["shipped"], shipped_facts(),
                         "weights/card.json's shipped part differs from the shipped files: run make_card.py")
        with open(os.path.join(ROOT, "weights", "manifest.json"), encoding="utf-8") as f:
            manifest = {f'{m["from"]}-{m["to"]}': m for m in json.load(f)["models"]}
        for d, facts in card["shipped"].items():
            self.assertEqual((facts["bytes"], facts["sha256"]), (manifest[d]["bytes"], manifest[d]["sha256"]), d)

    def test_card_json_is_written_the_way_make_card_writes_it(self):
        with open(os.path.join(ROOT, "weights", "card.json"), encoding="utf-8") as f:
            self.assertEqual(f.read(), dump_card(load_card()), "card.json edited by hand: run make_card.py to format it")

    def test_card_json_holds_what_the_page_needs(self):
        card = load_card()
        self.assertIn("non-commercial", card["licence"])
        self.assertTrue(card["model"]["intended_use"])
        sources = card["data"]["sources"]
        self.assertGreaterEqual(len(sources), 5)
        for row in sources:
            for key in ("source", "pairs", "copies_per_epoch", "lines_per_epoch", "domain", "licence"):
                self.assertIn(key, row, row.get("source"))
            self.assertTrue("share_percent" in row or row.get("synthetic"), row["source"])
        self.assertEqual(sum(1 for r in sources if r.get("synthetic")), 1)
        self.assertEqual(card["peers"]["set"], "flores-dev")
        self.assertTrue(card["peers"]["source"]["url"].startswith("https://"))
        for system in card["peers"]["systems"]:
            self.assertEqual(set(system["scores"]), {"en-de", "de-en"}, system["name"])

    def test_facts_and_data_tables_are_card_json(self):
        card = load_card()
        self.assertEqual(read_block(self.card, "facts"), facts_table(card),
                         "weights/README.md's facts differ from card.json: run make_card.py")
        self.assertEqual(read_block(self.card, "data"), data_table(card),
                         "weights/README.md's data table differs from card.json: run make_card.py")
        self.assertNotIn("| max|", facts_table(card), "no | inside a cell")

    def test_limitations_come_first(self):
        headings = [line for line in self.card.split("\n") if line.startswith("## ")]
        self.assertEqual(headings[0], "## Limitations")

    def test_limitations_are_card_json(self):
        """One source for the card's Limitations and the page's "What they get wrong": card.json's
        entries, each a title, a plain sentence and one example of a direction the project ships."""
        card = load_card()
        self.assertEqual(read_block(self.card, "limitations"), limitations_block(card),
                         "weights/README.md's Limitations differ from card.json: run make_card.py")
        limits = card["limitations"]
        self.assertTrue(limits["summary"])
        self.assertGreaterEqual(len(limits["items"]), 5)
        titles = [item["title"] for item in limits["items"]]
        self.assertEqual(len(set(titles)), len(titles), "each limitation once")
        for item in limits["items"]:
            self.assertTrue(item["title"] and item["text"], item)
            ex = item["example"]
            self.assertIn(ex["direction"], ("en-de", "de-en"), item["title"])
            for key in ("source", "output", "wrong"):
                self.assertTrue(ex[key].strip(), f'{item["title"]}: example.{key}')
                self.assertNotIn("\n", ex[key], f'{item["title"]}: one line')
        block = read_block(self.card, "limitations")
        self.assertEqual(sum(line.startswith("- **") for line in block.split("\n")), len(titles), "one bullet per entry")

    def test_make_card_names_the_examples_the_engine_no_longer_writes(self):
        """stale_limitation_examples runs each example through the engine it is given (here a stand-in
        that writes its input in capitals) and names those whose output differs from card.json's."""
        with tempfile.TemporaryDirectory() as tmp:
            nmt = os.path.join(tmp, "nmt")
            with open(nmt, "w") as f:
                f.write("#!/bin/sh\ntr a-z A-Z\n")
            os.chmod(nmt, os.stat(nmt).st_mode | stat.S_IEXEC)
            card = {"limitations": {"items": [
                {"title": "kept", "example": {"direction": "en-de", "source": "bye", "output": "BYE"}},
                {"title": "moved on", "example": {"direction": "de-en", "source": "ja", "output": "Jas"}}]}}
            self.assertEqual(stale_limitation_examples(nmt, card), [("moved on", "Jas", "JA")])

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
