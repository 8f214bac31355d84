"""BLEU and chrF, compatible with sacreBLEU's defaults (written here: no pip on the build machines).

BLEU: corpus-level, 13a tokenization, n-grams 1..4, brevity penalty, 'exp' smoothing for orders
with no match. chrF: character n-grams 1..6 with whitespace removed, beta = 2, precision and recall
averaged over the orders that have statistics, then one F-score (sacreBLEU's default chrF2).
Checked by tests/weights/test_metrics.py.
"""
import math
import re
from collections import Counter

_13A = [
    (re.compile(r"([\{-\~\[-\` -\&\(-\+\:-\@\/])"), r" \1 "),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),
]


def tokenize_13a(line):
    line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} "
    for pattern, repl in _13A:
        line = pattern.sub(repl, line)
    return line.split()


def _ngrams(tokens, n):
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def bleu(hypotheses, references):
    """Corpus BLEU (0-100) of hypotheses against one reference each."""
    correct, total = [0] * 4, [0] * 4
    sys_len = ref_len = 0
    for hyp, ref in zip(hypotheses, references):
        h, r = tokenize_13a(hyp), tokenize_13a(ref)
        sys_len += len(h)
        ref_len += len(r)
        for n in range(1, 5):
            hn, rn = _ngrams(h, n), _ngrams(r, n)
            correct[n - 1] += sum(min(c, rn[g]) for g, c in hn.items())
            total[n - 1] += max(0, len(h) - n + 1)
    if sys_len == 0:
        return 0.0
    log_p, smooth = 0.0, 1.0
    for n in range(4):
        if total[n] == 0:
            return 0.0
        if correct[n] == 0:
            smooth *= 2
            log_p += math.log(100.0 / (smooth * total[n]))
        else:
            log_p += math.log(100.0 * correct[n] / total[n])
    bp = 1.0 if sys_len >= ref_len else math.exp(1 - ref_len / sys_len)
    return bp * math.exp(log_p / 4)


def chrf(hypotheses, references, order=6, beta=2.0):
    """Corpus chrF (0-100)."""
    match, hyp_count, ref_count = [0] * order, [0] * order, [0] * order
    for hyp, ref in zip(hypotheses, references):
        h, r = "".join(hyp.split()), "".join(ref.split())
        for n in range(1, order + 1):
            hn = Counter(h[i:i + n] for i in range(len(h) - n + 1))
            rn = Counter(r[i:i + n] for i in range(len(r) - n + 1))
            match[n - 1] += sum(min(c, rn[g]) for g, c in hn.items())
            hyp_count[n - 1] += sum(hn.values())
            ref_count[n - 1] += sum(rn.values())
    # sacreBLEU (1.x, and 2.x's default without eps smoothing): precision and recall are each
    # averaged over the orders that have n-grams on both sides, then combined into one F-score.
    avg_p = avg_r = 0.0
    orders = 0
    for n in range(order):
        if hyp_count[n] > 0 and ref_count[n] > 0:
            avg_p += match[n] / hyp_count[n]
            avg_r += match[n] / ref_count[n]
            orders += 1
    if orders == 0 or avg_p + avg_r == 0:
        return 0.0
    avg_p, avg_r = avg_p / orders, avg_r / orders
    b2 = beta * beta
    return 100.0 * (1 + b2) * avg_p * avg_r / (b2 * avg_p + avg_r)
