"""Keeps the model card in step with the shipped files. weights/card.json holds the card's facts
(one source for weights/README.md and the demo page's "About the models"); this script writes its
`shipped` part (each direction's file size, parameters, int8 beam-4 scores and validation loss, read
from the model files and the scores.json that evaluate.py wrote), then the card's tables between
their marker comments in weights/README.md: the limitations, the facts and the data (from card.json), the scores
(scores.json), the training facts and options (the model files' provenance, train.py, gpu_round.py)
and ten example translations of everyday sentences (run through the C++ engine; skipped with
--no-examples; with them, it also says which limitation's example the shipped model no longer writes
as card.json has it). tests/weights/test_card.py fails when any of it is stale.

  python3 weights/recipe/make_card.py [--nmt build/nmt] [--no-examples]
"""
import argparse
import hashlib
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS = os.path.abspath(os.path.join(HERE, ".."))
DIRECTIONS = ("en-de", "de-en")
ROOT = os.path.abspath(os.path.join(WEIGHTS, ".."))
sys.path.insert(0, HERE)
from model_file import read_header  # noqa: E402  (standard library only: the card test runs in CI)

EVERYDAY = {
    "en-de": ["Good morning, how are you?", "Where is the nearest train station?", "I would like a cup of coffee, please.",
              "The weather is nice today.", "Can you help me find my keys?", "We are going to the cinema tonight.",
              "My sister lives in Berlin.", "How much does this book cost?", "I don't understand the question.",
              "Thank you very much for your help."],
    "de-en": ["Guten Morgen, wie geht es dir?", "Wo ist der nächste Bahnhof?", "Ich hätte gern eine Tasse Kaffee, bitte.",
              "Das Wetter ist heute schön.", "Kannst du mir helfen, meine Schlüssel zu finden?",
              "Wir gehen heute Abend ins Kino.", "Meine Schwester wohnt in Berlin.", "Wie viel kostet dieses Buch?",
              "Ich verstehe die Frage nicht.", "Vielen Dank für deine Hilfe."],
}


def replace_block(text, name, body):
    pattern = re.compile(rf"(<!-- {name}:begin -->\n).*?(<!-- {name}:end -->)", re.S)
    if not pattern.search(text):
        raise SystemExit(f"weights/README.md lacks the {name} markers")
    return pattern.sub(lambda m: m.group(1) + body.rstrip() + "\n" + m.group(2), text)


def read_block(text, name):
    """The card's text between the name's marker comments (None if it has no such block)."""
    m = re.search(rf"<!-- {name}:begin -->\n(.*?)<!-- {name}:end -->", text, re.S)
    return m.group(1).rstrip() if m else None


def load_card(weights=WEIGHTS):
    with open(os.path.join(weights, "card.json"), encoding="utf-8") as f:
        return json.load(f)


def dump_card(card):
    """card.json's text: indented, but a short object or list holding no object or list stays on
    one line (a data row, a score), so the file reads as a short table."""
    def flat(v):
        return not any(isinstance(x, (dict, list)) for x in (v.values() if isinstance(v, dict) else v))

    def fmt(v, indent):
        one_line = json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
        if isinstance(v, (dict, list)) and v and (not flat(v) or len(one_line) > 300):
            pad, inner = " " * indent, " " * (indent + 2)
            if isinstance(v, dict):
                items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {fmt(x, indent + 2)}" for k, x in v.items()]
                return "{\n" + ",\n".join(items) + f"\n{pad}}}"
            return "[\n" + ",\n".join(f"{inner}{fmt(x, indent + 2)}" for x in v) + f"\n{pad}]"
        return one_line
    return fmt(card, 0) + "\n"


def parameter_count(header):
    """The network's weights and biases (not the row scales, the tokenizer or the tables), from the
    model file's tensor table."""
    count = 0
    for t in header["tensors"]:
        if t["name"].endswith((".weight", ".bias")):
            n = 1
            for dim in t["shape"]:
                n *= dim
            count += n
    return count


def shipped_facts(weights=WEIGHTS):
    """card.json's `shipped` part, read from the shipped files: per direction the file, its size and
    SHA-256, the parameters, the last validation loss and the int8 beam-4 BLEU / chrF of each dev set."""
    out = {}
    for d in DIRECTIONS:
        model_file = os.path.join(weights, d, "model.nmt")
        header = read_header(model_file)
        provenance = header.get("provenance", {})
        history = provenance.get("history", [])
        with open(os.path.join(weights, d, "scores.json"), encoding="utf-8") as f:
            scores = json.load(f)
        with open(model_file, "rb") as f:
            digest = hashlib.sha256(f.read()).hexdigest()
        out[d] = {
            "file": f"{d}/model.nmt",
            "bytes": os.path.getsize(model_file),
            "sha256": digest,
            "parameters": parameter_count(header),
            "valid_nll": provenance.get("valid_nll", history[-1]["valid_nll"] if history else None),
            "scores": {name: {"sentences": row["sentences"], "bleu": row["int8_beam4"]["bleu"],
                              "chrf": row["int8_beam4"]["chrf"]}
                       for name, row in scores["sets"].items()},
        }
    return out


def millions(n):
    return f"{n:,} ({n / 1e6:.1f} M)"


def facts_table(card):
    """The card's opening table, from card.json (the hand-kept model facts and the shipped part)."""
    model, shipped = card["model"], card["shipped"]
    params = sorted({s["parameters"] for s in shipped.values()})
    files = ", ".join(f'`{s["file"]}` ({s["bytes"] / 1e6:.1f} MB)' for s in shipped.values())
    rows = [("files", f"{files}, format `engine/FORMAT.md`, listed with size and SHA-256 in `manifest.json`; "
                      "each also carries its lexical shortlist table, the word lists for text in capitals and a "
                      "translation memory of short sentences (\"Decoding\")"),
            ("architecture", model["architecture"]),
            ("parameters", " / ".join(millions(p) for p in params) + " per direction"),
            ("vocabulary", model["vocabulary"]),
            ("weights", model["weights"]),
            ("max length", model["max_length"]),
            ("alignment", model["alignment"]),
            ("intended use", model["intended_use"]),
            ("licence", card["licence"])]
    return "\n".join(["| | |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows])


ARROW = {"en-de": "en→de", "de-en": "de→en"}


def limitations_block(card):
    """The card's Limitations, from card.json's limitations (the page's "What they get wrong" is made
    from the same entries): the summary, then per entry its title, plain sentence, example with what
    is wrong in it, and the card-only detail."""
    limits = card["limitations"]
    lines = [f'{limits["summary"]} How far below the peers they score: [Scores](#scores).', ""]
    for item in limits["items"]:
        ex = item["example"]
        line = (f'- **{item["title"]}.** {item["text"]} Example ({ARROW[ex["direction"]]}): "{ex["source"]}" → '
                f'"{ex["output"]}" ({ex["wrong"]}).')
        if item.get("detail"):
            line += f' {item["detail"]}'
        lines.append(line)
    return "\n".join(lines)


def stale_limitation_examples(nmt, card, weights=WEIGHTS):
    """The limitation examples whose output the shipped model no longer writes (with the page's default
    settings: beam 4, every text pass), as (title, card.json's output, the engine's)."""
    stale = []
    for item in card.get("limitations", {}).get("items", []):
        ex = item["example"]
        model_file = os.path.join(weights, ex["direction"], "model.nmt")
        got = subprocess.run([nmt, "--model", model_file, "--beam", "4"], input=ex["source"] + "\n",
                             capture_output=True, text=True, check=True).stdout.rstrip("\n")
        if got != ex["output"]:
            stale.append((item["title"], ex["output"], got))
    return stale


def pairs_text(row):
    """A data row's pairs as the card writes them: "159,648", or per direction for the synthetic rows."""
    p = row["pairs"]
    if isinstance(p, dict):
        return " / ".join(f'{n:,} ({d.replace("-", "→")})' for d, n in p.items())
    return f"{p:,}"


def data_table(card):
    """The card's data table, from card.json's data.sources."""
    rows = ["| source | pairs | copies per pair per epoch | lines per epoch | share of the text (characters, parallel data) | domain | licence |",
            "|---|---|---|---|---|---|---|"]
    for r in card["data"]["sources"]:
        lines = r["lines_per_epoch"]
        lines = " / ".join(f"{n:,}" for n in lines.values()) if isinstance(lines, dict) else f"{lines:,}"
        if "share_percent_on_top" in r:
            share = " / ".join(f"+{v:g}%" for v in r["share_percent_on_top"].values()) + " on top"
        else:
            share = f'{r["share_percent"]:g}%'
        name = f'**{r["source"]}**' if r.get("synthetic") else r["source"] + (" (v2)" if r.get("corpus_version") == 2 else "")
        rows.append(f'| {name} | {pairs_text(r)} | {r["copies_per_epoch"]:g} | {lines} | {share} | {r["domain"]} | {r["licence"]} |')
    return "\n".join(rows)


def score_table(weights=WEIGHTS):
    """The card's score table, from each direction's scores.json (written by evaluate.py)."""
    rows = ["| direction | dev set | sentences | fp32 greedy (PyTorch) | fp32 beam 4 (engine) | int8 greedy (engine) | int8 beam 4 (engine) | int8 beam 4, reranked by the reverse model (engine) | BLEU lost to int8: greedy / beam |",
            "|---|---|---|---|---|---|---|---|---|"]

    def cell(score):
        return f'{score["bleu"]:.1f} / {score["chrf"]:.1f}' if score else "–"
    for d in DIRECTIONS:
        with open(os.path.join(weights, d, "scores.json"), encoding="utf-8") as f:
            scores = json.load(f)
        for name, row in scores["sets"].items():
            rows.append(f'| {d} | {name} | {row["sentences"]} | {cell(row.get("fp32_greedy"))} | {cell(row.get("fp32_beam4"))} | '
                        f'{cell(row["int8_greedy"])} | {cell(row["int8_beam4"])} | {cell(row.get("int8_beam4_rerank"))} | '
                        f'{row.get("quantization_loss_bleu", "–")} / {row.get("quantization_loss_bleu_beam4", "–")} |')
        reg = scores.get("regression_sample")
        if reg:
            rerank = f'{reg["bleu_rerank"]:.1f}' if "bleu_rerank" in reg else ""
            rows.append(f'| {d} | regression sample (tests/weights) | {reg["sentences"]} | | | | {reg["bleu"]:.1f} | {rerank} | |')
    return "\n".join(rows)


def averaging(train):
    """How the last round's weights were combined: checkpoints averaged, then maybe interpolated
    with the round before (interpolate.py)."""
    combined = str(train.get("averaged", "?"))
    if train.get("soup"):  # interpolate.py --soup: the record names each member's folder/file
        names = [os.path.splitext(os.path.basename(m))[0].replace("student-", "") for m in train["soup"]]
        combined += f', then the mean of {len(names)} runs ({", ".join(names)})'
    mix = train.get("interpolation")
    if mix:
        combined += f', then {mix["weight_of_a"]:g} x this round + {1 - mix["weight_of_a"]:g} x {mix["b"]}'
    return combined


def training_table(weights=WEIGHTS):
    """The card's training facts, from each shipped model file's provenance (valid_nll there is the
    shipped weights' own, measured after an interpolation; else the last validation's)."""
    rows = ["| direction | rounds | steps | target tokens seen | epochs | training time | hardware | checkpoints averaged (last round) | last valid NLL | file |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for d in ("en-de", "de-en"):
        model_file = os.path.join(weights, d, "model.nmt")
        provenance = read_header(model_file).get("provenance", {})
        t, hist = provenance.get("train", {}), provenance.get("history", [])
        rows.append(f'| {d} | {t.get("rounds", 1)} | {t.get("steps", "?")} | {t.get("target_tokens", 0) / 1e6:.1f} M | {t.get("epochs", 0):.2f} | '
                    f'{t.get("seconds", 0) / 3600:.2f} h | {t.get("device", "?")}, {t.get("threads", "?")} thread(s) | '
                    f'{averaging(t)} | {provenance.get("valid_nll", hist[-1]["valid_nll"] if hist else "?")} | '
                    f'{os.path.getsize(model_file) / 1e6:.1f} MB |')
    return "\n".join(rows)


def recipe_defaults():
    """train.py's defaults for the options that decide what a model learns (run_all.TRAINING_OPTIONS),
    read from its source (train.py imports torch; the card test runs without it)."""
    import ast
    from run_all import TRAINING_OPTIONS
    with open(os.path.join(HERE, "train.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    defaults = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "add_argument" and node.args:
            name = node.args[0].value.lstrip("-").replace("-", "_") if isinstance(node.args[0], ast.Constant) else ""
            for kw in node.keywords:
                if kw.arg == "default" and name in TRAINING_OPTIONS:
                    defaults[name] = ast.literal_eval(kw.value)
    return defaults


def student_plan_args():
    """gpu_round.py's STUDENT_TRAIN_ARGS (read from its source, like recipe_defaults)."""
    import ast
    with open(os.path.join(HERE, "gpu_round.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "STUDENT_TRAIN_ARGS":
            return ast.literal_eval(node.value)
    raise SystemExit("gpu_round.py has no STUDENT_TRAIN_ARGS")


GPU_STUDENT_RECIPE = "gpu_round.py student"


def expected_train_args(provenance):
    """What the recipe trains with for a model of this provenance: train.py's defaults, with the GPU
    student plan's own where the model came from it (round 21)."""
    expected = recipe_defaults()
    if provenance.get("plan") == GPU_STUDENT_RECIPE:
        expected.update(student_plan_args())
    return expected


def options_table(weights=WEIGHTS):
    """The card's table of training options: train.py's defaults (what run_all.py trains with) and
    what each shipped model's last round trained with (its provenance, since round 20)."""
    defaults, student = recipe_defaults(), student_plan_args()
    shipped = {d: read_header(os.path.join(weights, d, "model.nmt")).get("provenance", {}).get("train_args", {})
               for d in ("en-de", "de-en")}
    rows = ["| option (train.py) | default (CPU rounds) | GPU student plan | en-de, last round | de-en, last round |",
            "|---|---|---|---|---|"]
    for name, value in defaults.items():
        used = [shipped[d].get(name) for d in ("en-de", "de-en")]
        used = ["–" if v is None else f"{v:g}" for v in used]
        rows.append(f"| --{name.replace('_', '-')} | {value:g} | {student.get(name, value):g} | {used[0]} | {used[1]} |")
    return "\n".join(rows)


def update_card_json(weights=WEIGHTS):
    """Writes card.json's shipped part from the shipped files; returns the card."""
    card = load_card(weights)
    card["shipped"] = shipped_facts(weights)
    with open(os.path.join(weights, "card.json"), "w", encoding="utf-8") as f:
        f.write(dump_card(card))
    return card


def examples_block(nmt, weights=WEIGHTS):
    """Ten everyday sentences per direction through the shipped models (beam 4)."""
    examples = []
    for d in DIRECTIONS:
        model_file = os.path.join(weights, d, "model.nmt")
        out = subprocess.run([nmt, "--model", model_file, "--beam", "4"], input="\n".join(EVERYDAY[d]) + "\n",
                             capture_output=True, text=True, check=True).stdout.split("\n")
        examples.append(f"**{d}**\n\n| source | engine (int8, beam 4) |\n|---|---|")
        for s, h in zip(EVERYDAY[d], out):
            examples.append(f"| {s} | {h} |")
        examples.append("")
    return "\n".join(examples)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nmt", default=os.path.join(ROOT, "build", "nmt"))
    ap.add_argument("--no-examples", action="store_true", help="keep the example translations (no engine needed)")
    args = ap.parse_args()
    card_json = update_card_json()
    card_path = os.path.join(WEIGHTS, "README.md")
    card = open(card_path, encoding="utf-8").read()
    card = replace_block(card, "limitations", limitations_block(card_json))
    card = replace_block(card, "facts", facts_table(card_json))
    card = replace_block(card, "data", data_table(card_json))
    card = replace_block(card, "scores", score_table())
    card = replace_block(card, "training", training_table())
    card = replace_block(card, "options", options_table())
    if not args.no_examples:
        card = replace_block(card, "examples", examples_block(args.nmt))
        for title, kept, got in stale_limitation_examples(args.nmt, card_json):
            print(f'limitation "{title}": the shipped model now writes "{got}", card.json says "{kept}": '
                  "pick an example that still shows it (or drop the entry)", file=sys.stderr)
    open(card_path, "w", encoding="utf-8").write(card)
    print("updated", os.path.join(WEIGHTS, "card.json"), "and", card_path)


if __name__ == "__main__":
    main()
