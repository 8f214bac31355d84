"""The dev sets: one TSV per set, English<TAB>German per line, named *.en-de.tsv and read for
either direction. No torch here, so the scoring scripts run without it."""


def load_dev(path, src_lang):
    """(sources, references) of the dev set at `path` for the direction that starts from src_lang."""
    src, ref = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            en, de = line.rstrip("\n").split("\t")
            src.append(en if src_lang == "en" else de)
            ref.append(de if src_lang == "en" else en)
    return src, ref
