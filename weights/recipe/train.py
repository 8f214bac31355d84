"""Train one direction of the reference Transformer on the prepared data.

  python3 train.py --data work/data --src en --tgt de --out work/en-de --minutes 120

Label-smoothed cross-entropy, Adam with linear warm-up and inverse-square-root decay (optionally
annealed linearly to zero over the last minutes of the budget), batches by
token count from length-sorted buckets, bf16 autocast where the hardware runs it fast (fp32 master
weights), resumable checkpoints (rerun the same command to continue), validation loss and a greedy
BLEU on flores-dev with early stopping, and the last checkpoints averaged into the final model.
--init-from continues a shipped model file instead: its weights, and from its provenance the step
(so the learning-rate schedule goes on), tokens, time, epoch position and validation history.
Writes --out/model.pt ({config, state_dict, history}) and --out/train.log (one JSON line per event).

A run stopped after a checkpoint (before the averaging, whose validations take minutes on a loaded
machine) gets its model.pt from the last checkpoint's weights as they are: the run's own command
with --model-from-last-checkpoint, which neither trains nor validates.
"""
import argparse
import glob
import json
import math
import os
import random
import sys
import time

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dev_sets import load_dev  # noqa: E402
from metrics import bleu  # noqa: E402
from model import DEFAULT_CONFIG, Transformer, count_parameters  # noqa: E402
from prepare_data import epoch_lines  # noqa: E402
import spm_tools  # noqa: E402


def read_ids(path, limit):
    rows = []
    with open(path) as f:
        for line in f:
            ids = [int(t) for t in line.split()]
            rows.append(ids[: limit - 1])
    return rows


def read_weights(data, count):
    """Each line's expected copies per epoch (prepare_data.py's train.weight); a data folder from
    before round 13 has none, and its lines (already sampled) each count once."""
    path = os.path.join(data, "train.weight")
    if not os.path.exists(path):
        return [1.0] * count
    with open(path) as f:
        weights = [float(line) for line in f]
    if len(weights) != count:
        raise SystemExit(f"{path}: {len(weights)} weights for {count} lines; rerun prepare_data.py")
    return weights


def read_direction_pairs(data, kind, s, t, limit, tag_id=None):
    """prepare_data.py's pairs for this direction only (<kind>.<s>-<t>.*) as (sources, targets,
    weights); empty lists if the data folder has none. kind "bt": back-translations (synthetic
    source, real target); "kd": a teacher's translations (real source, teacher's target). With
    tag_id, each source starts with that id ("tagged back-translation", Caswell et al. 2019: the
    model can tell synthetic sources from real ones and does not learn to imitate their errors).
    The tag is the begin-of-sentence id, which no real source contains (the encoder reads tokens +
    eos), so the vocabulary and the engine stay as they are."""
    base = os.path.join(data, f"{kind}.{s}-{t}")
    if not os.path.exists(f"{base}.{s}.ids"):
        return [], [], []
    src = read_ids(f"{base}.{s}.ids", limit - (tag_id is not None))
    if tag_id is not None:
        src = [[tag_id] + ids for ids in src]
    tgt = read_ids(f"{base}.{t}.ids", limit)
    with open(f"{base}.weight") as f:
        weights = [float(line) for line in f]
    if not len(src) == len(tgt) == len(weights):
        raise SystemExit(f"{base}.*: {len(src)} sources, {len(tgt)} targets, {len(weights)} weights; rerun prepare_data.py")
    return src, tgt, weights


def make_batches(src, tgt, lines, max_tokens, rng):
    """One epoch's lines (indices into src/tgt, repeats allowed) in length-sorted buckets cut into
    batches of at most max_tokens (padded size), shuffled."""
    order = sorted(lines, key=lambda i: (len(tgt[i]) + rng.random(), len(src[i])))
    batches, cur, longest = [], [], 0
    for i in order:
        n = max(len(src[i]), len(tgt[i])) + 1
        if cur and max(longest, n) * (len(cur) + 1) > max_tokens:
            batches.append(cur)
            cur, longest = [], 0
        cur.append(i)
        longest = max(longest, n)
    if cur:
        batches.append(cur)
    rng.shuffle(batches)
    return batches


def collate(idx, src, tgt, cfg, device):
    pad, bos, eos = cfg["pad_id"], cfg["bos_id"], cfg["eos_id"]
    s_len = max(len(src[i]) for i in idx) + 1
    t_len = max(len(tgt[i]) for i in idx) + 1
    s = torch.full((len(idx), s_len), pad, dtype=torch.long)
    ti = torch.full((len(idx), t_len), pad, dtype=torch.long)
    to = torch.full((len(idx), t_len), pad, dtype=torch.long)
    for r, i in enumerate(idx):
        s[r, : len(src[i]) + 1] = torch.tensor(src[i] + [eos])
        ti[r, : len(tgt[i]) + 1] = torch.tensor([bos] + tgt[i])
        to[r, : len(tgt[i]) + 1] = torch.tensor(tgt[i] + [eos])
    return s.to(device), ti.to(device), to.to(device)


def smoothed_loss(logits, target, pad, eps):
    """Label-smoothed NLL summed over non-pad targets; also returns the plain NLL sum."""
    lprobs = F.log_softmax(logits.float(), dim=-1)
    mask = target != pad
    nll = -lprobs.gather(-1, target.unsqueeze(-1)).squeeze(-1)
    smooth = -lprobs.mean(-1)
    loss = ((1 - eps) * nll + eps * smooth)[mask].sum()
    return loss, nll[mask].sum(), int(mask.sum())


def learning_rate(step, peak, warmup, rewarm_start=None, rewarm=300, seconds_left=None, anneal_seconds=0):
    """Linear warm-up to `peak`, then inverse-square-root decay. After --init-from (Adam's moments
    start at zero) the rate ramps up again over `rewarm` steps from `rewarm_start`; with annealing,
    the last `anneal_seconds` of the time budget take it linearly down to zero."""
    step = max(step, 1)
    lr = peak * min(step / warmup, math.sqrt(warmup / step))
    if rewarm_start is not None:
        lr *= min(1.0, (step - rewarm_start) / rewarm)
    if anneal_seconds > 0 and seconds_left is not None:
        lr *= min(1.0, max(0.0, seconds_left) / anneal_seconds)
    return lr


def spm_decode(sp_model, ids_list):
    return spm_tools.decode(sp_model, ids_list)


def spm_encode(sp_model, lines):
    return spm_tools.encode(sp_model, lines)


@torch.no_grad()
def validate(model, dev_src_ids, dev_tgt_ids, dev_src, dev_ref, sp_model, cfg, device, bleu_sents):
    model.eval()
    total_nll, total_tok = 0.0, 0
    idx = list(range(len(dev_src_ids)))
    for k in range(0, len(idx), 64):
        s, ti, to = collate(idx[k:k + 64], dev_src_ids, dev_tgt_ids, cfg, device)
        _, nll, n = smoothed_loss(model(s, ti), to, cfg["pad_id"], 0.0)
        total_nll += float(nll)
        total_tok += n
    hyps = []
    order = sorted(range(bleu_sents), key=lambda i: len(dev_src_ids[i]))
    out = [None] * bleu_sents
    for k in range(0, bleu_sents, 50):
        chunk = order[k:k + 50]
        s, _, _ = collate(chunk, dev_src_ids, dev_tgt_ids, cfg, device)
        for i, toks in zip(chunk, model.greedy(s, cached=True)):
            out[i] = toks
    hyps = spm_decode(sp_model, out)
    model.train()
    return total_nll / max(1, total_tok), bleu(hyps, dev_ref[:bleu_sents])


def fast_bf16(device):
    """Whether bf16 autocast speeds training up here. Measured on an AVX2-only AMD EPYC: a bf16 matmul
    ran at 4.5 GFLOP/s against 41 for fp32 (OpenBLAS, one thread), which made training 30x slower."""
    if device.type == "cuda":
        return True
    try:
        with open("/proc/cpuinfo") as f:
            flags = f.read()
    except OSError:
        return False
    return "avx512_bf16" in flags or "amx_bf16" in flags


TCMALLOC = ["/usr/lib/x86_64-linux-gnu/libtcmalloc_minimal.so.4", "/usr/lib/aarch64-linux-gnu/libtcmalloc_minimal.so.4"]


def reexec_with_tcmalloc():
    """Restart this process with tcmalloc preloaded (Debian's libtcmalloc-minimal4), once. glibc's
    malloc hands the big activation and logits buffers back to the kernel after every step, and
    touching fresh pages again costs ~30% system time: measured on the project's 2-core AVX-512 CPU,
    one thread per direction, bf16, 3,000-token batches: ~750 target tok/s with glibc malloc,
    ~2,300 with tcmalloc (jemalloc was slower than glibc). NMT_NO_TCMALLOC=1 turns this off."""
    if os.environ.get("NMT_NO_TCMALLOC") or "tcmalloc" in os.environ.get("LD_PRELOAD", ""):
        return
    lib = next((p for p in TCMALLOC if os.path.exists(p)), None)
    if lib is None:
        print("train.py: tcmalloc not found (apt-get install libtcmalloc-minimal4): CPU training runs ~3x slower",
              file=sys.stderr)
        return
    env = dict(os.environ, LD_PRELOAD=" ".join(x for x in (os.environ.get("LD_PRELOAD"), lib) if x))
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


def continue_from_provenance(state, provenance):
    """Training state of a shipped model (its file's provenance): the step (so the learning-rate
    schedule continues), tokens, time, epoch position and validation history. Adam's moments are not
    shipped, hence the re-warm-up from rewarm_start."""
    train = provenance.get("train", {})
    state["step"] = state["rewarm_start"] = int(train.get("steps", 0))
    state["tokens"] = int(train.get("target_tokens", 0))
    state["train_seconds"] = float(train.get("seconds", 0.0))
    state["rounds"] = int(train.get("rounds", 1))
    epochs = float(train.get("epochs", 0.0))
    state["epoch"], state["epoch_fraction"] = int(epochs), epochs - int(epochs)
    state["history"] = list(provenance.get("history", []))
    # Early stopping counts within this round: its first validations sit above the shipped model's
    # (the restart bump while Adam's moments re-warm), and counting them against the old best
    # stopped round 8's de-en run at 67 of 112 minutes while it was still improving.
    state["best_loss"], state["bad_evals"] = float("inf"), 0


def count_validation(state, vloss, rewarming, min_delta=1e-3):
    """Early stopping's bookkeeping for one validation: a new best resets the count of validations
    without improvement, anything else adds one. While the learning rate is still re-warming after
    --init-from, a validation does neither: the restart bump keeps rising until the rate is back up,
    so the round's first validation would be its best and the bump's peak would count against it
    (round 19's en-de, with --rewarm 2000, stopped at 51 of 125 minutes that way)."""
    if rewarming:
        return
    if vloss < state["best_loss"] - min_delta:
        state["best_loss"], state["bad_evals"] = vloss, 0
    else:
        state["bad_evals"] += 1


def average_checkpoints(paths):
    avg = None
    for p in paths:
        sd = torch.load(p, map_location="cpu", weights_only=False)["model"]
        if avg is None:
            avg = {k: v.clone().double() for k, v in sd.items()}
        else:
            for k in avg:
                avg[k] += sd[k].double()
    return {k: (v / len(paths)).float() for k, v in avg.items()}


def parse_args(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", required=True)
    ap.add_argument("--dev", required=True, help="flores-dev.en-de.tsv")
    ap.add_argument("--src", required=True, choices=["en", "de"])
    ap.add_argument("--tgt", required=True, choices=["en", "de"])
    ap.add_argument("--out", required=True)
    ap.add_argument("--config", help="JSON file overriding model.DEFAULT_CONFIG")
    ap.add_argument("--minutes", type=float, default=120, help="time budget for this run")
    ap.add_argument("--max-tokens", type=int, default=3000, help="padded tokens per batch")
    ap.add_argument("--lr", type=float, default=1.5e-3)
    ap.add_argument("--warmup", type=int, default=800)
    ap.add_argument("--label-smoothing", type=float, default=0.1)
    ap.add_argument("--dropout", type=float, default=0.1, help="0.1 since round 15 (0.05 did not pay: weights/EXPERIMENTS.md)")
    ap.add_argument("--checkpoint-minutes", type=float, default=8)
    ap.add_argument("--keep", type=int, default=4, help="checkpoints averaged at the end")
    ap.add_argument("--patience", type=int, default=4, help="validations without improvement before stopping")
    ap.add_argument("--bleu-sentences", type=int, default=200)
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--bf16", type=int, default=-1,
                    help="bf16 autocast: 1 on, 0 off, -1 (default) on where the hardware runs it fast (CUDA, or a "
                         "CPU with AVX512-BF16/AMX; elsewhere bf16 matmuls are ~10x slower than fp32)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--init-from", help="start from a shipped model file (int8 weights dequantized): continue "
                                        "training a released model in a later session")
    ap.add_argument("--anneal-minutes", type=float, default=0,
                    help="over the last this many minutes of --minutes, take the learning rate linearly down to "
                         "zero (a final polish before export; 0: off)")
    ap.add_argument("--max-steps", type=int, default=0, help="also stop this run after this many steps (tests)")
    ap.add_argument("--bt-tag", type=int, default=1,
                    help="1: start each back-translated source with the tag id (read_direction_pairs); 0: untagged")
    ap.add_argument("--bt-weight", type=float, default=1.0,
                    help="multiplies the back-translated pairs' copies per epoch (bt.*.weight): 0.5 halves their share")
    ap.add_argument("--model-from-last-checkpoint", action="store_true",
                    help="write model.pt from --out/last.pt's weights as they are (no averaging, no validation) and "
                         "stop: for a run stopped after its last checkpoint; give the run's own options")
    ap.add_argument("--rewarm", type=int, default=300,
                    help="after --init-from (Adam's moments start at zero), ramp the learning rate up over this "
                         "many steps to where the schedule left off")
    return ap.parse_args(argv)


def model_config(args):
    cfg = dict(DEFAULT_CONFIG)
    if args.config:
        with open(args.config) as f:
            cfg.update(json.load(f))
    with open(os.path.join(args.data, "spm.vocab"), encoding="utf-8") as f:
        cfg["vocab_size"] = sum(1 for _ in f)
    return cfg


def load_training_data(args, cfg):
    """This direction's pairs: the shared ones, then its back-translated (tagged) and distilled
    ones; pairs with an empty side or over 150 tokens are left out. Returns a dict with src, tgt,
    weights (copies per epoch) and the counts the log reports."""
    limit = cfg["max_length"]
    src = read_ids(os.path.join(args.data, f"train.{args.src}.ids"), limit)
    tgt = read_ids(os.path.join(args.data, f"train.{args.tgt}.ids"), limit)
    weights = read_weights(args.data, len(src))
    synthetic = read_direction_pairs(args.data, "bt", args.src, args.tgt, limit, cfg["bos_id"] if args.bt_tag else None)
    synthetic = (synthetic[0], synthetic[1], [w * args.bt_weight for w in synthetic[2]])
    distilled = read_direction_pairs(args.data, "kd", args.src, args.tgt, limit)
    src, tgt, weights = src + synthetic[0] + distilled[0], tgt + synthetic[1] + distilled[1], weights + synthetic[2] + distilled[2]
    keep = [i for i in range(len(src)) if src[i] and tgt[i] and len(src[i]) < 150 and len(tgt[i]) < 150]
    src, tgt, weights = [src[i] for i in keep], [tgt[i] for i in keep], [weights[i] for i in keep]
    return {"src": src, "tgt": tgt, "weights": weights, "back_translated_pairs": len(synthetic[0]),
            "distilled_pairs": len(distilled[0]),
            "epoch_target_tokens": round(sum(w * (len(t) + 1) for w, t in zip(weights, tgt)))}


def load_dev_ids(args, cfg, sp_model):
    """The validation set (flores-dev) as text and as ids."""
    limit = cfg["max_length"]
    dev_src, dev_ref = load_dev(args.dev, args.src)
    return {"src": dev_src, "ref": dev_ref, "src_ids": [x[: limit - 1] for x in spm_encode(sp_model, dev_src)],
            "tgt_ids": [x[: limit - 1] for x in spm_encode(sp_model, dev_ref)]}


def init_from_model_file(path, model, cfg, state, log):
    """Loads a shipped model file's weights (int8 rows times their scales) into model, grown if its
    config is bigger (grow.py), and the training state from the file's provenance."""
    from grow import check_growable, describe_growth, grow_state_dict
    from model_file import dequantized_state_dict, read_model_file
    header, tensors = read_model_file(path)
    old_cfg = header["config"]
    try:
        check_growable(old_cfg, cfg)
    except ValueError as e:
        raise SystemExit(f"--init-from: {path} has config {old_cfg}; cannot start {cfg} from it: {e}")
    state_dict = dequantized_state_dict(tensors)
    if old_cfg != cfg:  # a bigger architecture, started where the file's model is (grow.py)
        state_dict = grow_state_dict(state_dict, old_cfg, model)
    model.load_state_dict(state_dict)
    continue_from_provenance(state, header.get("provenance", {}))
    log(event="init_from", file=path, step=state["step"], tokens=state["tokens"], growth=describe_growth(old_cfg, cfg))


class Checkpoints:
    """last.pt (weights, Adam and the training state: a rerun resumes from it) and the last --keep
    weight snapshots, which are averaged at the end."""

    def __init__(self, args, cfg, log):
        self.args, self.cfg, self.log = args, cfg, log
        self.path = os.path.join(args.out, "last.pt")

    def resume(self, model, opt):
        """The saved state, after loading the weights and Adam's moments into model and opt; None if
        there is no last.pt."""
        if not os.path.exists(self.path):
            return None
        ck = torch.load(self.path, map_location="cpu", weights_only=False)
        model.load_state_dict(ck["model"])
        opt.load_state_dict(ck["opt"])
        self.log(event="resume", step=ck["state"]["step"])
        return ck["state"]

    def save(self, model, opt, state, tag):
        ck = {"model": model.state_dict(), "opt": opt.state_dict(), "state": state, "config": self.cfg}
        torch.save(ck, self.path + ".tmp")
        os.replace(self.path + ".tmp", self.path)
        snap = os.path.join(self.args.out, f"ckpt_{state['step']:07d}.pt")
        torch.save({"model": model.state_dict(), "config": self.cfg}, snap)
        state["checkpoints"] = (state["checkpoints"] + [snap])[-self.args.keep:]
        for old in glob.glob(os.path.join(self.args.out, "ckpt_*.pt")):
            if old not in state["checkpoints"]:
                os.remove(old)
        self.log(event="checkpoint", tag=tag, step=state["step"])


def train_step(model, opt, batch, data, cfg, device, args, lr):
    """One optimizer step on one batch; returns (target tokens, summed NLL)."""
    s, ti, to = collate(batch, data["src"], data["tgt"], cfg, device)
    for g in opt.param_groups:
        g["lr"] = lr
    with torch.autocast(device_type=device.type, dtype=torch.bfloat16, enabled=bool(args.bf16)):
        logits = model(s, ti)
    loss, nll, n = smoothed_loss(logits, to, cfg["pad_id"], args.label_smoothing)
    opt.zero_grad(set_to_none=True)
    (loss / n).backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    return n, float(nll)


def epoch_batches(args, data, epoch):
    """The epoch's sample of the mix (drawn afresh each epoch) in batches; the same epoch always
    gives the same batches, so a resumed run picks up at its batch position."""
    rng = random.Random(args.seed + epoch)
    return make_batches(data["src"], data["tgt"], epoch_lines(data["weights"], rng), args.max_tokens, rng)


def train_loop(args, cfg, device, model, opt, state, data, dev, sp_model, checkpoints, log):
    """Steps until the time budget (or --max-steps) is used up or early stopping says so, with a
    validation and a checkpoint every --checkpoint-minutes and at the end. Returns the epoch's batch
    count (for the epoch position the model file records)."""
    start = time.time()
    first_step, seconds_before = state["step"], state["train_seconds"]
    budget = args.minutes * 60
    last_ckpt = time.time()
    batches = epoch_batches(args, data, state["epoch"])
    if "epoch_fraction" in state:  # continued from a shipped file: pick up the epoch where it stopped
        state["batch_pos"] = int(state.pop("epoch_fraction") * len(batches))
    window_tok, window_loss, window_t = 0, 0.0, time.time()
    model.train()
    while True:
        if state["batch_pos"] >= len(batches):
            state["epoch"] += 1
            state["batch_pos"] = 0
            batches = epoch_batches(args, data, state["epoch"])
        batch = batches[state["batch_pos"]]
        state["batch_pos"] += 1
        state["step"] += 1
        lr = learning_rate(state["step"], args.lr, args.warmup, state.get("rewarm_start"), args.rewarm,
                           budget - (time.time() - start), args.anneal_minutes * 60)
        n, nll = train_step(model, opt, batch, data, cfg, device, args, lr)
        state["tokens"] += n
        window_tok += n
        window_loss += nll
        if state["step"] % 100 == 0:
            dt = time.time() - window_t
            elapsed = time.time() - start
            log(event="train", step=state["step"], epoch=state["epoch"] + state["batch_pos"] / len(batches),
                nll=round(window_loss / window_tok, 4), tok_per_s=round(window_tok / dt), lr=round(lr, 6),
                elapsed_min=round(elapsed / 60, 1), eta_min=round(max(0, budget - elapsed) / 60, 1))
            window_tok, window_loss, window_t = 0, 0.0, time.time()
        out_of_time = time.time() - start >= budget or (args.max_steps and state["step"] - first_step >= args.max_steps)
        if time.time() - last_ckpt < args.checkpoint_minutes * 60 and not out_of_time:
            continue
        vloss, vbleu = validate(model, dev["src_ids"], dev["tgt_ids"], dev["src"], dev["ref"], sp_model, cfg, device,
                                args.bleu_sentences)
        state["history"].append({"step": state["step"], "tokens": state["tokens"], "valid_nll": round(vloss, 4),
                                 "valid_bleu_greedy": round(vbleu, 2), "minutes": round((time.time() - start) / 60, 1)})
        log(event="valid", **state["history"][-1])
        rewarming = state.get("rewarm_start") is not None and state["step"] - state["rewarm_start"] < args.rewarm
        count_validation(state, vloss, rewarming)
        state["train_seconds"] = seconds_before + (time.time() - start)  # all runs together, resumes included
        checkpoints.save(model, opt, state, "periodic")
        last_ckpt = time.time()
        if state["bad_evals"] >= args.patience:
            log(event="early_stop", step=state["step"])
            break
        if out_of_time:
            break
    state["train_seconds"] = seconds_before + (time.time() - start)
    return len(batches)


def finish(args, cfg, device, model, state, dev, sp_model, batches_per_epoch, log):
    """model.pt: the average of the last checkpoints, or the last one alone if that validates better
    (early in training, when the model still improves fast, averaging drags it back)."""
    last = {k: v.detach().clone() for k, v in model.state_dict().items()}
    last_loss = state["history"][-1]["valid_nll"]
    avg = average_checkpoints(state["checkpoints"])
    model.load_state_dict(avg)
    vloss, vbleu = validate(model, dev["src_ids"], dev["tgt_ids"], dev["src"], dev["ref"], sp_model, cfg, device,
                            args.bleu_sentences)
    log(event="averaged", checkpoints=len(state["checkpoints"]), valid_nll=round(vloss, 4), valid_bleu_greedy=round(vbleu, 2))
    averaged = len(state["checkpoints"])
    if last_loss < vloss:
        avg, averaged = last, 1
        log(event="kept_last", valid_nll=last_loss)
    save_model(args, cfg, state, avg, averaged, batches_per_epoch)


def model_from_last_checkpoint(args, cfg, log):
    """--model-from-last-checkpoint: model.pt from last.pt's weights and training state, recorded as
    a model of one checkpoint (averaged 1)."""
    path = os.path.join(args.out, "last.pt")
    if not os.path.exists(path):
        raise SystemExit(f"--model-from-last-checkpoint: there is no {path} (the run wrote no checkpoint)")
    ck = torch.load(path, map_location="cpu", weights_only=False)
    if ck["config"] != cfg:
        raise SystemExit(f"--model-from-last-checkpoint: {path} has config {ck['config']}, these options give {cfg}")
    state = ck["state"]
    batches_per_epoch = len(epoch_batches(args, load_training_data(args, cfg), state["epoch"]))
    save_model(args, cfg, state, ck["model"], 1, batches_per_epoch)
    log(event="model_from_last_checkpoint", step=state["step"], valid_nll=state["history"][-1]["valid_nll"])


def save_model(args, cfg, state, state_dict, averaged, batches_per_epoch):
    """--out/model.pt: the weights, the validation history and the training record export.py keeps."""
    torch.save({"config": cfg, "state_dict": state_dict, "history": state["history"],
                "train": {"steps": state["step"], "target_tokens": state["tokens"],
                          "epochs": state["epoch"] + state["batch_pos"] / batches_per_epoch,
                          "seconds": state["train_seconds"], "device": args.device, "threads": args.threads,
                          "precision": "bf16 autocast" if args.bf16 else "fp32",
                          "averaged": averaged, "anneal_minutes": args.anneal_minutes, "rounds": state.get("rounds", 0) + 1},
                "languages": {"source": args.src, "target": args.tgt}}, os.path.join(args.out, "model.pt"))


def main():
    args = parse_args()
    if args.device == "cpu":
        reexec_with_tcmalloc()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    os.makedirs(args.out, exist_ok=True)
    log_f = open(os.path.join(args.out, "train.log"), "a")

    def log(**kv):
        kv["time"] = time.strftime("%H:%M:%S")
        print(json.dumps(kv), file=log_f, flush=True)
        print(json.dumps(kv), flush=True)

    cfg = model_config(args)
    sp_model = os.path.join(args.data, "spm.model")
    device = torch.device(args.device)
    if args.bf16 < 0:
        args.bf16 = int(fast_bf16(device))
    if args.model_from_last_checkpoint:
        model_from_last_checkpoint(args, cfg, log)
        return
    data = load_training_data(args, cfg)
    dev = load_dev_ids(args, cfg, sp_model)
    model = Transformer(cfg, dropout=args.dropout).to(device)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr, betas=(0.9, 0.98), eps=1e-9)
    checkpoints = Checkpoints(args, cfg, log)
    state = checkpoints.resume(model, opt)
    if state is None:
        state = {"step": 0, "epoch": 0, "batch_pos": 0, "tokens": 0, "train_seconds": 0.0, "history": [],
                 "best_loss": float("inf"), "bad_evals": 0, "checkpoints": []}
        if args.init_from:
            init_from_model_file(args.init_from, model, cfg, state, log)
    log(event="start", params=count_parameters(model), pairs=len(data["src"]), pairs_per_epoch=round(sum(data["weights"])),
        back_translated_pairs=data["back_translated_pairs"], distilled_pairs=data["distilled_pairs"],
        epoch_target_tokens=data["epoch_target_tokens"], config=cfg, args=vars(args))
    batches_per_epoch = train_loop(args, cfg, device, model, opt, state, data, dev, sp_model, checkpoints, log)
    finish(args, cfg, device, model, state, dev, sp_model, batches_per_epoch, log)


if __name__ == "__main__":
    main()
