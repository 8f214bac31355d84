"""The `nmt` command on any input and any model path (issue 50): valid UTF-8 out of any bytes in,
nothing of the source's unwritable characters lost, exact ranges in the JSON, model paths that are
not regular files refused at once with a message, and output streamed block by block with flat
memory. Stdlib only; uses build/nmt, the shipped en-de model and the tiny fixture model."""
import json
import os
import random
import select
import subprocess
import tempfile
import time
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
NMT = os.path.join(ROOT, "build", "nmt")
TINY = os.path.join(ROOT, "tests", "fixtures", "tiny.nmt")
EN_DE = os.path.join(ROOT, "weights", "en-de", "model.nmt")
DE_EN = os.path.join(ROOT, "weights", "de-en", "model.nmt")

# Characters no piece of the shipped vocabularies writes and NFKC leaves as they are: the engine
# must copy them (text/pass_through.h). CJK, Hangul, emoji, U+FFFD.
UNWRITABLE = [(0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0x1F300, 0x1F5FF), (0xFFFD, 0xFFFD)]
WORDS = "the house is small and we like it der Hund ist klein Straße über".split()


def unwritable(ch):
    return any(a <= ord(ch) <= b for a, b in UNWRITABLE)


def random_char(rng):
    """A code point from every plane and class: ASCII, Latin, Greek, Cyrillic, Hebrew/Arabic (RTL),
    combining marks, controls, CJK, Hangul, emoji, U+FFFD, private use, planes 1-16 (never a
    surrogate: the text is UTF-8)."""
    pick = rng.random()
    ranges = [(0x20, 0x7E), (0x00, 0x1F), (0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x590, 0x6FF),
              (0x300, 0x36F), (0x2000, 0x206F), (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0x1F300, 0x1F64F),
              (0xFFFD, 0xFFFD), (0xE000, 0xF8FF), (0xFF00, 0xFFEF), (0x10000, 0x10FFFF)]
    if pick < 0.35:
        return " " + rng.choice(WORDS)
    a, b = rng.choice(ranges)
    cp = rng.randint(a, b)
    if 0xD800 <= cp <= 0xDFFF:
        cp = 0xFFFD
    return chr(cp)


def utf16_slice(text, b, e):
    return text.encode("utf-16-le")[2 * b: 2 * e].decode("utf-16-le")


def run(model, data, *args, timeout=300):
    return subprocess.run([NMT, "--model", model, "--beam", "1", *args], input=data, capture_output=True,
                          timeout=timeout)


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class AnyInput(unittest.TestCase):
    def test_reported_case_valid_and_nothing_lost(self):
        # "\uFFFD!\u03BC\uFFFD!R\uFFFD!" wrote a stray 0xBC byte and lost the μ
        for model in (EN_DE, DE_EN):
            for letter in ("\u03bc", "\u00e9", "\u0436", "\u65e5"):
                source = f"\ufffd!{letter}\ufffd!R\ufffd!"
                r = run(model, (source + "\n").encode())
                self.assertEqual(r.returncode, 0, r.stderr)
                out = r.stdout.decode("utf-8")  # raises on invalid UTF-8
                self.assertEqual(out.count("\ufffd"), 3, out)
                self.assertIn(letter, out)

    def test_random_unicode_valid_exact_ranges_unwritable_kept(self):
        rng = random.Random(50)
        lines = ["".join(random_char(rng) for _ in range(rng.randint(1, 40))) for _ in range(80)]
        # one line each (a control character may be a line break to the segmenter)
        lines = ["".join(" " if ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029" else ch for ch in l) for l in lines]
        source = "\n".join(lines) + "\n"
        for model in (EN_DE, DE_EN):
            r = run(model, source.encode(), "--alignments")
            self.assertEqual(r.returncode, 0, r.stderr)
            out = r.stdout.decode("utf-8")  # raises on invalid UTF-8
            docs = [json.loads(l) for l in out.splitlines()]  # one JSON document per block of input
            self.assertGreaterEqual(len(docs), 1)
            for doc in docs:
                text, src = doc["text"], doc["source_text"]
                for s in doc["sentences"]:
                    self.assertEqual(utf16_slice(text, *s["target_range"]), s["target"], repr(s["source"]))
                    self.assertEqual(utf16_slice(src, *s["source_range"]), s["source"], repr(s["source"]))
                kept = [ch for ch in src if unwritable(ch)]
                for ch in set(kept):
                    self.assertGreaterEqual(text.count(ch), kept.count(ch), f"{ch!r} lost: {src!r} -> {text!r}")

    def test_random_bytes_give_valid_utf8(self):
        rng = random.Random(7)
        data = bytes(rng.randrange(256) for _ in range(6000))
        r = run(TINY, data)
        self.assertEqual(r.returncode, 0, r.stderr)
        r.stdout.decode("utf-8")  # raises on invalid UTF-8
        # and the same bytes with the shipped model, a few lines of them
        r = run(EN_DE, data[:1500])
        self.assertEqual(r.returncode, 0, r.stderr)
        r.stdout.decode("utf-8")

    def test_fullwidth_and_mathematical_letters_are_kept(self):
        for model, text, kept in ((EN_DE, "Our company \uff21\uff22\uff23 makes cars.", "\uff21\uff22\uff23"),
                                  (EN_DE, "Let \U0001d4b3 be a set.", "\U0001d4b3"),
                                  (DE_EN, "Die Firma \uff38\uff39\uff3a baut Autos.", "\uff38\uff39\uff3a")):
            r = run(model, (text + "\n").encode())
            self.assertIn(kept, r.stdout.decode("utf-8"))


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class ModelPaths(unittest.TestCase):
    def refused(self, path, says):
        t0 = time.monotonic()
        r = subprocess.run([NMT, "--model", path], input=b"hello\n", capture_output=True, timeout=20)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn(says, r.stderr.decode())
        self.assertLess(time.monotonic() - t0, 15)  # not a guard on speed: /dev/zero used to read until bad_alloc

    def test_not_regular_files(self):
        self.refused("/dev/zero", "is a device, not a regular file")
        self.refused(ROOT, "is a directory, not a regular file")
        self.refused(os.path.join(ROOT, "no-such-model.nmt"), "cannot open model file")
        with tempfile.TemporaryDirectory() as d:
            fifo = os.path.join(d, "fifo")
            os.mkfifo(fifo)
            self.refused(fifo, "is a FIFO, not a regular file")  # never waits for a writer

    def test_too_large_file(self):
        with tempfile.NamedTemporaryFile(suffix=".nmt") as f:
            f.truncate((1 << 30) + 1)  # sparse: no disk used
            self.refused(f.name, "more than the 1073741824")


@unittest.skipUnless(os.path.exists(NMT) or os.environ.get("NMT_REQUIRE_ENGINE"), "build/nmt not built")
class Streaming(unittest.TestCase):
    def test_output_before_the_input_ends(self):
        """A long input comes out block by block: the first lines are written while stdin is still
        open (the CLI used to read everything first)."""
        line = "The house is small. The cat sleeps.\n"
        p = subprocess.Popen([NMT, "--model", TINY, "--beam", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
        try:
            p.stdin.write((line * 1000).encode())  # ~36 KB: several blocks
            p.stdin.flush()
            ready, _, _ = select.select([p.stdout], [], [], 120)
            self.assertTrue(ready, "no output within 120 s while the input was still open")
            first = os.read(p.stdout.fileno(), 1 << 16)
            self.assertTrue(first)
            self.assertIsNone(p.poll())  # still running: stdin not closed yet
            p.stdin.close()
            rest = p.stdout.read()
            self.assertEqual(p.wait(timeout=120), 0)
        finally:
            if p.poll() is None:
                p.kill()
                p.wait()
            p.stdout.close()
            p.stderr.close()
        out = (first + rest).decode("utf-8")
        self.assertEqual(out.count("\n"), 1000)  # every line break kept, across the blocks

    def test_blocks_translate_as_the_whole(self):
        """Cutting into blocks changes nothing: each line translates as it does alone, also where a
        block ends inside a long line (a line of many sentences)."""
        sentences = [f"The house number {i} is small." for i in range(400)]  # ~12 KB on one line
        whole = run(TINY, (" ".join(sentences) + "\n").encode()).stdout.decode()
        first = run(TINY, (sentences[0] + "\n").encode()).stdout.decode().strip()
        last = run(TINY, (sentences[-1] + "\n").encode()).stdout.decode().strip()
        self.assertTrue(whole.startswith(first), (whole[:200], first))
        self.assertTrue(whole.rstrip("\n").endswith(last), (whole[-200:], last))
        self.assertEqual(whole.count("\n"), 1)


if __name__ == "__main__":
    unittest.main()
