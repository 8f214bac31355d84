"""Grow a trained model into a bigger configuration without changing what it computes.

Used by `train.py --init-from FILE --config BIGGER.json` to compare architectures from where
training already is, instead of from scratch (which costs the ~10 CPU hours the shipped models
took). Supported growth, each function-preserving in a pre-norm Transformer:
  - more encoder or decoder layers: each new layer is inserted just below the stack's last layer,
    with its two output projections (attention o_proj, feed-forward fc2) zero, so it adds nothing
    to the residual stream until training moves them. The last decoder layer, whose cross-attention
    the product shows as alignments, stays the trained one.
  - a wider feed-forward (d_ff): the new hidden units get random fc1 rows and zero fc2 columns.
Everything else (d_model, heads, vocabulary, norm) must match.
"""
import re

import torch

GROWABLE = {"encoder_layers", "decoder_layers", "d_ff"}


def check_growable(old_cfg, new_cfg):
    """Raise ValueError unless new_cfg only adds layers or feed-forward width to old_cfg."""
    for key in set(old_cfg) | set(new_cfg):
        a, b = old_cfg.get(key), new_cfg.get(key)
        if key in GROWABLE:
            if b < a:
                raise ValueError(f"cannot shrink {key} from {a} to {b}")
        elif a != b:
            raise ValueError(f"cannot grow a model whose {key} differs ({a} -> {b})")


def layer_map(old_n, new_n):
    """For each new layer index, the old layer it copies, or None for an inserted identity layer.
    Old layers keep their order; the new ones sit just below the last one."""
    if old_n == 0:
        return [None] * new_n
    return list(range(old_n - 1)) + [None] * (new_n - old_n) + [old_n - 1]


def grow_state_dict(old_sd, old_cfg, new_model):
    """The new model's state dict: old weights where they exist, identity-preserving init elsewhere.
    new_model supplies the shapes and the random initialisation of the new parameters."""
    check_growable(old_cfg, new_model.cfg)
    new_sd = {k: v.detach().clone() for k, v in new_model.state_dict().items()}
    maps = {
        "encoder_layers": layer_map(old_cfg["encoder_layers"], new_model.cfg["encoder_layers"]),
        "decoder_layers": layer_map(old_cfg["decoder_layers"], new_model.cfg["decoder_layers"]),
    }
    old_ff = old_cfg["d_ff"]
    for name, target in new_sd.items():
        m = re.match(r"(encoder_layers|decoder_layers)\.(\d+)\.(.*)", name)
        if m:
            src_layer = maps[m.group(1)][int(m.group(2))]
            if src_layer is None:  # inserted layer: zero what it writes to the residual stream
                if m.group(3).endswith(("o_proj.weight", "o_proj.bias", "fc2.weight", "fc2.bias")):
                    target.zero_()
                continue
            source = old_sd[f"{m.group(1)}.{src_layer}.{m.group(3)}"]
        else:
            source = old_sd[name]
        if name.endswith("fc1.weight") or name.endswith("fc1.bias"):
            target[:old_ff] = source  # new rows keep their random init (bias: zero below)
            if name.endswith("fc1.bias"):
                target[old_ff:] = 0
        elif name.endswith("fc2.weight"):
            target[:, :old_ff] = source
            target[:, old_ff:] = 0
        else:
            target.copy_(source)
    return new_sd


def describe_growth(old_cfg, new_cfg):
    parts = [f"{k} {old_cfg[k]} -> {new_cfg[k]}" for k in sorted(GROWABLE) if old_cfg[k] != new_cfg[k]]
    return ", ".join(parts) or "none"

