"""Writes the measured parts of the model card (weights/README.md) between its marker comments:
the score table (from each direction's scores.json), the training facts (from the model files'
provenance) and ten example translations of everyday sentences (run through the C++ engine).

  python3 weights/recipe/make_card.py [--nmt build/nmt]
"""
import argparse
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
WEIGHTS = os.path.abspath(os.path.join(HERE, ".."))
ROOT = os.path.abspath(os.path.join(WEIGHTS, ".."))

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nmt", default=os.path.join(ROOT, "build", "nmt"))
    args = ap.parse_args()
    card_path = os.path.join(WEIGHTS, "README.md")
    card = open(card_path, encoding="utf-8").read()

    rows = ["| direction | dev set | sentences | fp32 greedy (PyTorch) | fp32 beam 4 (engine) | int8 greedy (engine) | int8 beam 4 (engine) | int8 beam 4, reranked by the reverse model (engine) | BLEU lost to int8: greedy / beam |",
            "|---|---|---|---|---|---|---|---|---|"]
    examples, training = [], []

    def cell(score):
        return f'{score["bleu"]:.1f} / {score["chrf"]:.1f}' if score else "–"
    for d in ("en-de", "de-en"):
        scores = json.load(open(os.path.join(WEIGHTS, d, "scores.json")))
        for name, row in scores["sets"].items():
            rows.append(f'| {d} | {name} | {row["sentences"]} | {cell(row.get("fp32_greedy"))} | {cell(row.get("fp32_beam4"))} | '
                        f'{cell(row["int8_greedy"])} | {cell(row["int8_beam4"])} | {cell(row.get("int8_beam4_rerank"))} | '
                        f'{row.get("quantization_loss_bleu", "–")} / {row.get("quantization_loss_bleu_beam4", "–")} |')
        reg = scores.get("regression_sample")
        if reg:
            rerank = f'{reg["bleu_rerank"]:.1f}' if "bleu_rerank" in reg else ""
            rows.append(f'| {d} | regression sample (tests/weights) | {reg["sentences"]} | | | | {reg["bleu"]:.1f} | {rerank} | |')
        model_file = os.path.join(WEIGHTS, d, "model.nmt")
        info = json.loads(subprocess.run([args.nmt, "info", "--model", model_file], capture_output=True, text=True,
                                         check=True).stdout)
        t = info["provenance"].get("train", {})
        hist = info["provenance"].get("history", [])
        training.append(f'| {d} | {t.get("rounds", 1)} | {t.get("steps", "?")} | {t.get("target_tokens", 0) / 1e6:.1f} M | {t.get("epochs", 0):.2f} | '
                        f'{t.get("seconds", 0) / 3600:.2f} h | {t.get("device", "?")}, {t.get("threads", "?")} thread(s) | '
                        f'{t.get("averaged", "?")} | {hist[-1]["valid_nll"] if hist else "?"} | {os.path.getsize(model_file) / 1e6:.1f} MB |')
        out = subprocess.run([args.nmt, "--model", model_file, "--beam", "4"], input="\n".join(EVERYDAY[d]) + "\n",
                             capture_output=True, text=True, check=True).stdout.split("\n")
        examples.append(f"**{d}**\n\n| source | engine (int8, beam 4) |\n|---|---|")
        for s, h in zip(EVERYDAY[d], out):
            examples.append(f"| {s} | {h} |")
        examples.append("")

    card = replace_block(card, "scores", "\n".join(rows))
    card = replace_block(card, "training", "\n".join(
        ["| direction | rounds | steps | target tokens seen | epochs | training time | hardware | checkpoints averaged (last round) | last valid NLL | file |",
         "|---|---|---|---|---|---|---|---|---|---|"] + training))
    card = replace_block(card, "examples", "\n".join(examples))
    open(card_path, "w", encoding="utf-8").write(card)
    print("updated", card_path)


if __name__ == "__main__":
    main()
