"""weights/recipe/interpolate.py: weight * A + (1 - weight) * B per tensor, from model.pt or model files."""
import os
import subprocess
import sys
import tempfile
import unittest

from recipe_env import ROOT, needs_torch

RECIPE = os.path.join(ROOT, "weights", "recipe")
TINY = os.path.join(ROOT, "tests", "fixtures", "tiny.nmt")


@needs_torch
class Interpolate(unittest.TestCase):
    def test_weights_mix_per_tensor_and_the_record_says_so(self):
        import torch
        from interpolate import load_weights
        from model_file import read_model_file
        with tempfile.TemporaryDirectory() as tmp:
            _, tiny = load_weights(TINY)
            header = read_model_file(TINY)[0]
            a = {k: v + 1.0 for k, v in tiny.items()}
            torch.save({"config": header["config"], "state_dict": a, "train": {"steps": 7}}, os.path.join(tmp, "a.pt"))
            out = os.path.join(tmp, "mix.pt")
            r = subprocess.run([sys.executable, os.path.join(RECIPE, "interpolate.py"), "--a", os.path.join(tmp, "a.pt"),
                                "--b", TINY, "--weight", "0.25", "--out", out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            ck = torch.load(out, map_location="cpu", weights_only=False)
            for k, v in tiny.items():  # 0.25 * (v + 1) + 0.75 * v
                self.assertTrue(torch.allclose(ck["state_dict"][k], v + 0.25, atol=1e-6), k)
            self.assertEqual(ck["train"]["steps"], 7)
            self.assertEqual(ck["train"]["interpolation"]["weight_of_a"], 0.25)

    def test_a_model_file_as_a_becomes_a_model_pt_that_exports_to_the_same_weights(self):
        # the GPU student plan brings back int8 files for every run, fp16 only where they fit
        import torch
        from model import Transformer
        from model_file import read_model_file
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "a.pt")
            r = subprocess.run([sys.executable, os.path.join(RECIPE, "interpolate.py"), "--a", TINY, "--b", TINY,
                                "--weight", "1", "--out", out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            ck = torch.load(out, map_location="cpu", weights_only=False)
            header, tensors = read_model_file(TINY)
            self.assertEqual((ck["config"], ck["languages"]), (header["config"], header["languages"]))
            Transformer(ck["config"]).load_state_dict(ck["state_dict"])  # every weight, nothing extra
            again = os.path.join(tmp, "again.nmt")
            spm = os.path.join(tmp, "spm.model")
            with open(spm, "wb") as f:
                f.write(tensors[header["tokenizer"]["tensor"]].tobytes())
            subprocess.run([sys.executable, os.path.join(RECIPE, "export.py"), "--checkpoint", out, "--spm", spm,
                            "--out", again], check=True, capture_output=True)
            for name, t in read_model_file(again)[1].items():  # int8 rows re-quantize to themselves
                if t.dtype.kind in "iu" and name in tensors:
                    self.assertLessEqual(int(abs(t.astype(int) - tensors[name].astype(int)).max()), 1, name)

    def test_a_soup_is_the_mean_of_its_members_and_the_record_names_them(self):
        import torch
        from interpolate import load_weights
        with tempfile.TemporaryDirectory() as tmp:
            _, tiny = load_weights(TINY)
            paths = []
            for i, shift in enumerate((1.0, 2.0, -0.5)):
                paths.append(os.path.join(tmp, f"m{i}.pt"))
                torch.save({"config": {}, "state_dict": {k: v + shift for k, v in tiny.items()}, "train": {"steps": i}},
                           paths[-1])
            paths.append(TINY)  # a model file among them: dequantized
            out = os.path.join(tmp, "soup.pt")
            r = subprocess.run([sys.executable, os.path.join(RECIPE, "interpolate.py"), "--soup", *paths, "--out", out],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            ck = torch.load(out, map_location="cpu", weights_only=False)
            for k, v in tiny.items():  # (v+1 + v+2 + v-0.5 + v) / 4
                self.assertTrue(torch.allclose(ck["state_dict"][k], v + 0.625, atol=1e-6), k)
            self.assertEqual(ck["train"]["steps"], 0)  # the first member's record
            self.assertEqual(len(ck["train"]["soup"]), 4)
            self.assertTrue(ck["train"]["soup"][0].endswith("m0.pt"))
            for bad, message in ((["--soup", TINY], "at least two"),
                                 (["--soup", TINY, TINY, "--weight", "0.5"], "replaces"),
                                 (["--a", TINY, "--b", TINY], "or --soup")):
                r = subprocess.run([sys.executable, os.path.join(RECIPE, "interpolate.py"), *bad, "--out", out],
                                   capture_output=True, text=True)
                self.assertNotEqual(r.returncode, 0)
                self.assertIn(message, r.stderr)

    def test_different_shapes_and_bad_weights_are_refused(self):
        import torch
        from interpolate import load_weights
        with tempfile.TemporaryDirectory() as tmp:
            _, tiny = load_weights(TINY)
            name = next(iter(tiny))
            a = dict(tiny)
            a[name] = torch.zeros(3)
            torch.save({"config": {}, "state_dict": a}, os.path.join(tmp, "a.pt"))
            for weight, message in (("0.5", "differ in shape"), ("1.5", "within 0..1")):
                r = subprocess.run([sys.executable, os.path.join(RECIPE, "interpolate.py"), "--a", os.path.join(tmp, "a.pt"),
                                    "--b", TINY, "--weight", weight, "--out", os.path.join(tmp, "x.pt")],
                                   capture_output=True, text=True)
                self.assertNotEqual(r.returncode, 0)
                self.assertIn(message, r.stderr)


if __name__ == "__main__":
    unittest.main()
