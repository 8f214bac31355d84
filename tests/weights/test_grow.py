"""weights/recipe/grow.py: a model grown into a bigger configuration (more layers, wider
feed-forward) must compute exactly what the original computed, so that architecture comparisons
started from a trained model begin where it is. Needs PyTorch (the recipe's dependency); skipped,
with a message, where it is not installed (CI installs only what the product needs)."""
import unittest

from recipe_env import needs_torch, torch


@needs_torch
class Grow(unittest.TestCase):
    def setUp(self):
        from model import DEFAULT_CONFIG, Transformer
        torch.manual_seed(0)
        self.Transformer = Transformer
        self.small = dict(DEFAULT_CONFIG, vocab_size=60, d_model=32, n_heads=4, d_ff=64, encoder_layers=2,
                          decoder_layers=2, max_length=32)
        self.model = Transformer(self.small).eval()
        # Trained-looking weights: non-zero biases and norms, so a wrong copy cannot hide.
        with torch.no_grad():
            for p in self.model.parameters():
                p.add_(torch.randn_like(p) * 0.1)
        self.src = torch.randint(4, 60, (3, 9))
        self.tgt = torch.randint(4, 60, (3, 6))
        self.src[0, 7:] = self.small["pad_id"]

    def grown(self, **changes):
        from grow import grow_state_dict
        cfg = dict(self.small, **changes)
        big = self.Transformer(cfg).eval()
        big.load_state_dict(grow_state_dict(self.model.state_dict(), self.small, big))
        return big

    def assert_same_function(self, big):
        with torch.no_grad():
            a = self.model(self.src, self.tgt)
            b = big(self.src, self.tgt)
            self.assertLess(float((a - b).abs().max()), 1e-4)
            self.assertEqual(self.model.greedy(self.src), big.greedy(self.src))

    def test_more_decoder_layers(self):
        big = self.grown(decoder_layers=4)
        self.assert_same_function(big)
        # The last decoder layer (the alignment layer) is still the trained one.
        self.assertTrue(torch.equal(big.decoder_layers[3].cross_attn.q_proj.weight,
                                    self.model.decoder_layers[1].cross_attn.q_proj.weight))

    def test_more_encoder_layers(self):
        self.assert_same_function(self.grown(encoder_layers=3))

    def test_wider_feed_forward(self):
        big = self.grown(d_ff=96)
        self.assert_same_function(big)
        # The new hidden units are live (random fc1 rows), only their output starts at zero.
        self.assertGreater(float(big.encoder_layers[0].ffn.fc1.weight[64:].abs().sum()), 0)

    def test_all_at_once(self):
        self.assert_same_function(self.grown(encoder_layers=4, decoder_layers=3, d_ff=128))

    def test_refuses_what_cannot_be_grown(self):
        from grow import check_growable
        for change in ({"d_model": 64}, {"n_heads": 8}, {"decoder_layers": 1}, {"d_ff": 32}, {"vocab_size": 61}):
            with self.assertRaises(ValueError, msg=str(change)):
                check_growable(self.small, dict(self.small, **change))


if __name__ == "__main__":
    unittest.main(verbosity=2)
