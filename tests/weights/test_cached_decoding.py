"""weights/recipe/model.py: the cached decoder (decode_step, greedy(cached=True)) must compute what
the reference decoder computes by re-running the whole prefix each step: the same logits at every
position, in f32 and in the engine's int8 simulation, and the same greedy outputs. Validation during
training and evaluate.py use the cached path. Needs PyTorch (the recipe's dependency); skipped, with
a message, where it is not installed (CI installs only what the product needs)."""
import os
import unittest

from recipe_env import ROOT, needs_torch, torch


@needs_torch
class CachedDecoding(unittest.TestCase):
    def setUp(self):
        from model import DEFAULT_CONFIG, Transformer
        torch.manual_seed(0)
        self.cfg = dict(DEFAULT_CONFIG, vocab_size=60, d_model=32, n_heads=4, d_ff=64, encoder_layers=2,
                        decoder_layers=2, max_length=40)
        self.model = Transformer(self.cfg).eval()
        with torch.no_grad():  # trained-looking weights: non-zero biases and norms
            for p in self.model.parameters():
                p.add_(torch.randn_like(p) * 0.1)
        # Three sources of different lengths, padded: the cache must respect the source mask.
        src = torch.randint(4, 60, (3, 9))
        src[1, 6:] = self.cfg["pad_id"]
        src[2, 3:] = self.cfg["pad_id"]
        self.src = src
        self.tgt = torch.cat([torch.full((3, 1), self.cfg["bos_id"]), torch.randint(4, 60, (3, 11))], dim=1)

    def step_logits(self):
        memory, src_mask = self.model.encode(self.src)
        caches = self.model.start_cache(memory)
        return torch.stack([self.model.decode_step(self.tgt[:, t], t, caches, src_mask)[0]
                            for t in range(self.tgt.shape[1])], dim=1)

    def test_logits_match_the_full_decoder_f32(self):
        with torch.no_grad():
            full = self.model(self.src, self.tgt)
            cached = self.step_logits()
        self.assertEqual(full.shape, cached.shape)
        self.assertLess(float((full - cached).abs().max()), 1e-4)

    def test_logits_match_the_full_decoder_int8(self):
        self.model.set_quantized(True)
        with torch.no_grad():
            full = self.model(self.src, self.tgt)
            cached = self.step_logits()
        # Per-token activation quantization is the same either way; a rounding tie may flip one
        # int8 step somewhere, so allow a little more than f32.
        self.assertLess(float((full - cached).abs().max()), 2e-2)
        self.assertLess(float((full - cached).abs().mean()), 1e-4)

    def test_greedy_outputs_match_on_trained_fixtures(self):
        # The tiny trained fixtures (pre- and post-norm) decode real sentences, in one padded batch.
        import json
        import numpy as np
        from model_file import read_model_file
        from model import Transformer
        fixtures = os.path.join(ROOT, "tests", "fixtures")
        with open(os.path.join(fixtures, "tiny_golden.json")) as f:
            golden = json.load(f)
        for name in ("tiny-f32.nmt", "tiny-post-f32.nmt"):
            header, tensors = read_model_file(os.path.join(fixtures, name))
            model = Transformer(header["config"]).eval()
            model.load_state_dict({k: torch.tensor(np.array(v, dtype=np.float32)) for k, v in tensors.items()
                                   if k.endswith((".weight", ".bias"))})
            sources = [e["source_ids"] + [model.cfg["eos_id"]] for e in golden["models"][name]]
            width = max(map(len, sources))
            src = torch.tensor([s + [model.cfg["pad_id"]] * (width - len(s)) for s in sources])
            for quantized in (False, True):
                model.set_quantized(quantized)
                reference = model.greedy(src)
                self.assertEqual(model.greedy(src, cached=True), reference, f"{name}, quantized={quantized}")
                self.assertGreater(len(set(map(tuple, reference))), len(sources) // 2)  # real, varied outputs

    def test_a_wrong_position_would_be_caught(self):
        # The check above can fail: feeding each step at the wrong position changes the logits.
        with torch.no_grad():
            full = self.model(self.src, self.tgt)
            memory, src_mask = self.model.encode(self.src)
            caches = self.model.start_cache(memory)
            shifted = torch.stack([self.model.decode_step(self.tgt[:, t], t + 1, caches, src_mask)[0]
                                   for t in range(self.tgt.shape[1])], dim=1)
        self.assertGreater(float((full - shifted).abs().max()), 1e-3)


if __name__ == "__main__":
    unittest.main()
