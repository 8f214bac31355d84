"""SentencePiece for the recipe, from whichever implementation this machine has: Debian's command-line
tools (spm_encode, spm_decode, spm_export_vocab, spm_train; what scripts/setup.sh installs) or the
Python package (what the GPU machine's image has, without the tools). Both are Google's library, so
they give the same pieces and ids."""
import os
import shutil
import subprocess

try:
    import sentencepiece as _spm
except ImportError:  # Debian: the tools only
    _spm = None


def _use_python():
    """The Python package where NMT_SPM=python or the tools are missing; the tools where NMT_SPM=tools."""
    choice = os.environ.get("NMT_SPM")
    if choice == "tools" or _spm is None:
        return False
    return choice == "python" or not shutil.which("spm_encode")


def _processor(model):
    return _spm.SentencePieceProcessor(model_file=model)


def encode(model, lines):
    """Text lines -> lists of piece ids."""
    if _use_python():
        return _processor(model).encode(list(lines))
    out = subprocess.run(["spm_encode", f"--model={model}", "--output_format=id"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, check=True).stdout
    return [[int(t) for t in line.split()] for line in out.split("\n")[: len(lines)]]


def decode(model, ids_list):
    """Lists of piece ids -> text lines."""
    if _use_python():
        return _processor(model).decode([list(ids) for ids in ids_list])
    text = "\n".join(" ".join(str(i) for i in ids) for ids in ids_list) + "\n"
    out = subprocess.run(["spm_decode", f"--model={model}", "--input_format=id"], input=text,
                         capture_output=True, text=True, check=True).stdout
    return out.split("\n")[: len(ids_list)]


def encode_file(model, text_path, ids_path):
    """One line of ids (space-separated) per line of text_path."""
    if _use_python():
        sp = _processor(model)
        with open(text_path, encoding="utf-8") as fin, open(ids_path, "w") as fout:
            for line in fin:
                fout.write(" ".join(map(str, sp.encode(line.rstrip("\n")))) + "\n")
        return
    with open(text_path, "rb") as fin, open(ids_path, "wb") as fout:
        subprocess.run(["spm_encode", f"--model={model}", "--output_format=id"], stdin=fin, stdout=fout, check=True)


def export_vocab(model, vocab_path):
    """The vocabulary as spm_export_vocab writes it: one 'piece<TAB>score' line per id."""
    if _use_python():
        sp = _processor(model)
        with open(vocab_path, "w", encoding="utf-8") as f:
            for i in range(sp.get_piece_size()):
                f.write(f"{sp.id_to_piece(i)}\t{sp.get_score(i):g}\n")
        return
    subprocess.run(["spm_export_vocab", f"--model={model}", f"--output={vocab_path}"], check=True)


def train(flags):
    """spm_train with these --flag=value arguments."""
    if _use_python():
        _spm.SentencePieceTrainer.train(" ".join(flags))
        return
    subprocess.run(["spm_train", *flags], check=True)
