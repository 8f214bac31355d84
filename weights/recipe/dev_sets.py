"""The dev sets: one TSV per set, English<TAB>German per line, named *.en-de.tsv and read for
either direction. The corpus's sets live in its dev/ folder; the short-labels set (issue 54) was
drawn from the training sources and lives in tests/fixtures/dev/, and prepare_data.py keeps its
pairs out of training (held_out_keys). No torch here, so the scoring scripts run without it."""
import os

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURE_DEV = os.path.join(ROOT, "tests", "fixtures", "dev")
SHORT_LABELS = os.path.join(FIXTURE_DEV, "short-labels.en-de.tsv")
# sets of labels, whose whole-line exact match is scored beside BLEU and chrF (evaluate.py, compare_runs.py)
EXACT_MATCH_SETS = ("short-labels",)


def load_dev(path, src_lang):
    """(sources, references) of the dev set at `path` for the direction that starts from src_lang."""
    src, ref = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            en, de = line.rstrip("\n").split("\t")
            src.append(en if src_lang == "en" else de)
            ref.append(de if src_lang == "en" else en)
    return src, ref


def dev_path(dev_dir, name):
    """The TSV of dev set `name`: in dev_dir (the corpus's dev/), where the short-labels set is
    not, so that one comes from tests/fixtures/dev unless dev_dir has its own."""
    path = os.path.join(dev_dir, f"{name}.en-de.tsv")
    if name == "short-labels" and not os.path.exists(path):
        return SHORT_LABELS
    return path


def label_key(text):
    """What counts as the same segment when holding a set out: case and spacing aside."""
    return " ".join(text.split()).casefold()


def held_out_keys(paths):
    """(English keys, German keys) of the dev sets at paths: a training pair sharing either side
    with one of them is dropped."""
    en_keys, de_keys = set(), set()
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                en, de = line.rstrip("\n").split("\t")
                en_keys.add(label_key(en))
                de_keys.add(label_key(de))
    return en_keys, de_keys
