"""Word alignments of text the engine copies rather than the model writes, with the shipped models
and the native CLI (engine/assemble.cpp, text/word_alignment.h align_copies, align_written_words):
an address and `code` the model saw as one unknown piece link word for word to the source's own
words, and a character the tokenizer deleted (U+FFFD), which the model never saw, links to itself."""
import json
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.environ.get("NMT_BIN") or os.path.join(ROOT, "build", "nmt")  # (NMT_BIN: another build to compare)


def translate(direction, text, *options):
    r = subprocess.run([NMT, "--model", os.path.join(ROOT, "weights", direction, "model.nmt"), "--alignments", *options],
                       input=text, capture_output=True, text=True, timeout=600, check=True)
    return json.loads(r.stdout)["sentences"]


def utf16_slice(text, span):
    return text.encode("utf-16-le")[2 * span[0]:2 * span[1]].decode("utf-16-le")


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class AlignmentOfCopies(unittest.TestCase):
    def check_copy(self, sentence, copied):
        """Each target word inside `copied` (as the target holds it) links to the same word in the
        source's `copied`, k-th to k-th, and to nothing else; no other target word links into it."""
        src, tgt = sentence["source"], sentence["target"]
        self.assertIn(copied, tgt)
        s_at, t_at = len(src[:src.index(copied)].encode("utf-16-le")) // 2, len(tgt[:tgt.index(copied)].encode("utf-16-le")) // 2
        length = len(copied.encode("utf-16-le")) // 2
        inside = lambda span, at: at <= span[0] and span[1] <= at + length
        s_words = [k for k, w in enumerate(sentence["source_words"]) if inside(w, s_at)]
        t_words = [k for k, w in enumerate(sentence["target_words"]) if inside(w, t_at)]
        self.assertEqual(len(s_words), len(t_words))
        for t, s in zip(t_words, s_words):
            linked = sorted(w for tt, w, _ in sentence["word_alignments"] if tt == t)
            self.assertEqual(linked, [s], f"{utf16_slice(tgt, sentence['target_words'][t])!r} of {copied!r} in {tgt!r}")
        into = [(t, s) for t, s, _ in sentence["word_alignments"] if s in s_words and t not in t_words]
        self.assertEqual(into, [], f"other words linked into {copied!r}")

    def test_an_address_and_code_link_word_for_word(self):
        for direction, text in (("en-de", "Open https://example.org/a_b?x=1 and run `npm install` now.\n"),
                                ("de-en", "Öffne https://example.org/a_b?x=1 und führe `npm install` jetzt aus.\n")):
            with self.subTest(direction=direction):
                sentence = translate(direction, text)[0]
                self.check_copy(sentence, "https://example.org/a_b?x=1")
                self.check_copy(sentence, "`npm install`")

    def test_a_deleted_character_links_to_itself(self):
        for direction, text in (("de-en", "Das ist \ufffd gut.\n"), ("en-de", "This is \ufffd good.\n")):
            with self.subTest(direction=direction):
                sentence = translate(direction, text)[0]
                self.check_copy(sentence, "\ufffd")

    def test_a_glossary_term_next_to_an_emoji_links_to_its_own_words(self):
        # the term and the emoji are both unknown pieces, side by side: each is a copy of its own (an
        # emoji that is no face: a face between two sentences ends the first)
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", encoding="utf-8") as glossary:
            glossary.write("acme cloud\tZeta Sky\n")
            glossary.flush()
            sentence = translate("en-de", "I like \U0001F355 Acme Cloud a lot.\n", "--glossary", glossary.name)[0]
        self.check_copy(sentence, "\U0001F355")
        src, tgt = sentence["source"], sentence["target"]
        written = "Zeta Sky" if "Zeta Sky" in tgt else "Acme Cloud"  # (the term, or its source text copied)
        self.assertIn(written, tgt)
        s_words = [utf16_slice(src, w) for w in sentence["source_words"]]
        t_words = [utf16_slice(tgt, w) for w in sentence["target_words"]]
        first = t_words.index(written.split()[0])
        for k, expected in ((0, "Acme"), (1, "Cloud")):
            linked = [s_words[s] for t, s, _ in sentence["word_alignments"] if t == first + k]
            self.assertEqual(linked, [expected], f"{t_words[first + k]!r} in {tgt!r}")
    def test_emphasis_marks_link_to_their_own_marks_in_order(self):
        # the model reads the marks as nothing; the engine puts them back around the translation
        for direction, text in (("en-de", "This is **very** important.\n"), ("de-en", "Das ist **sehr** wichtig.\n")):
            with self.subTest(direction=direction):
                sentence = translate(direction, text)[0]
                src, tgt = sentence["source"], sentence["target"]
                s_marks = [k for k, w in enumerate(sentence["source_words"]) if utf16_slice(src, w) == "*"]
                t_marks = [k for k, w in enumerate(sentence["target_words"]) if utf16_slice(tgt, w) == "*"]
                self.assertEqual(len(t_marks), 4, tgt)
                linked = [[s for t, s, _ in sentence["word_alignments"] if t == mark] for mark in t_marks]
                self.assertEqual(linked, [[s] for s in s_marks], tgt)

    def test_final_marks_link_mark_for_mark(self):
        # the final marks pass ends the translation as the source ends ("???"), often in one token
        for direction, text in (("en-de", "Is this really true???\n"), ("de-en", "Ist das wirklich wahr???\n"),
                                ("en-de", "We won the final!!\n")):
            with self.subTest(direction=direction, text=text):
                sentence = translate(direction, text)[0]
                mark = text.strip()[-1]
                s_marks = [k for k, w in enumerate(sentence["source_words"]) if utf16_slice(sentence["source"], w) == mark]
                t_marks = [k for k, w in enumerate(sentence["target_words"]) if utf16_slice(sentence["target"], w) == mark]
                self.assertEqual(len(t_marks), len(s_marks), sentence["target"])
                links = sorted((t, s) for t, s, _ in sentence["word_alignments"] if t in t_marks or s in s_marks)
                self.assertEqual(links, list(zip(t_marks, s_marks)), sentence["target"])


if __name__ == "__main__":
    unittest.main()
