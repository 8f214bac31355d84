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

    def test_dev_records_the_results_loss_and_export_carries_it_into_the_provenance(self):
        # the card's "last valid NLL" of a soup or a mix is the combined weights' own, not a member's
        import torch
        import torch.nn.functional as F
        from model import Transformer
        from model_file import read_model_file
        import spm_tools
        header, tensors = read_model_file(TINY)
        with tempfile.TemporaryDirectory() as tmp:
            spm = os.path.join(tmp, "spm.model")
            with open(spm, "wb") as f:
                f.write(tensors[header["tokenizer"]["tensor"]].tobytes())
            pairs = [("The house is small.", "Das Haus ist klein."), ("Hello!", "Hallo!"),
                     ("We went to the market in the morning and bought bread.",
                      "Wir gingen am Morgen auf den Markt und kauften Brot.")] * 30  # more than one batch of 64
            dev = os.path.join(tmp, "dev.en-de.tsv")
            with open(dev, "w", encoding="utf-8") as f:
                f.write("".join(f"{en}\t{de}\n" for en, de in pairs))
            out = os.path.join(tmp, "soup.pt")
            r = subprocess.run([sys.executable, os.path.join(RECIPE, "interpolate.py"), "--soup", TINY, TINY,
                                "--dev", dev, "--spm", spm, "--out", out], capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            ck = torch.load(out, map_location="cpu", weights_only=False)
            # the same loss, one sentence at a time without padding
            model = Transformer(ck["config"])
            model.load_state_dict(ck["state_dict"])
            model.eval()
            cfg = ck["config"]
            total, count = 0.0, 0
            with torch.no_grad():
                for (en, de), s_ids, t_ids in zip(pairs, spm_tools.encode(spm, [p[0] for p in pairs]),
                                                  spm_tools.encode(spm, [p[1] for p in pairs])):
                    src = torch.tensor([s_ids + [cfg["eos_id"]]])
                    logits = model(src, torch.tensor([[cfg["bos_id"]] + t_ids]))
                    lp = F.log_softmax(logits.float(), -1)[0]
                    gold = t_ids + [cfg["eos_id"]]
                    total -= float(sum(lp[i, g] for i, g in enumerate(gold)))
                    count += len(gold)
            self.assertAlmostEqual(ck["valid_nll"], total / count, places=3)
            nmt = os.path.join(tmp, "soup.nmt")
            subprocess.run([sys.executable, os.path.join(RECIPE, "export.py"), "--checkpoint", out, "--spm", spm,
                            "--out", nmt], check=True, capture_output=True)
            self.assertEqual(read_model_file(nmt)[0]["provenance"]["valid_nll"], ck["valid_nll"])
            r = subprocess.run([sys.executable, os.path.join(RECIPE, "interpolate.py"), "--soup", TINY, TINY,
                                "--dev", dev, "--out", out], capture_output=True, text=True)
            self.assertNotEqual(r.returncode, 0)
            self.assertIn("--dev needs --spm", r.stderr)

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
