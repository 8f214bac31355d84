"""BLEU and chrF, compatible with sacreBLEU's defaults (written here: no pip on the build machines).

BLEU: corpus-level, 13a tokenization, n-grams 1..4, brevity penalty, 'exp' smoothing for orders
with no match. chrF: character n-grams 1..6 with whitespace removed, beta = 2, precision and recall
averaged over the orders that have statistics, then one F-score (sacreBLEU's default chrF2).
Checked by tests/weights/test_metrics.py. paired_bootstrap says whether two systems' BLEU differ beyond
the test set's noise: `python3 metrics.py B.txt REF.txt --against A.txt`.
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


def bleu_stats(hyp, ref):
    """One sentence's BLEU statistics: [hyp length, ref length, then matches and totals of orders 1..4];
    corpus BLEU is bleu_of_stats of their sums."""
    h, r = tokenize_13a(hyp), tokenize_13a(ref)
    row = [len(h), len(r)]
    for n in range(1, 5):
        hn, rn = _ngrams(h, n), _ngrams(r, n)
        row += [sum(min(c, rn[g]) for g, c in hn.items()), max(0, len(h) - n + 1)]
    return row


def bleu_of_stats(rows):
    """Corpus BLEU (0-100) of sentences' bleu_stats."""
    totals = [sum(column) for column in zip(*rows)] or [0] * 10
    sys_len, ref_len = totals[0], totals[1]
    if sys_len == 0:
        return 0.0
    log_p, smooth = 0.0, 1.0
    for n in range(4):
        correct, total = totals[2 + 2 * n], totals[3 + 2 * n]
        if total == 0:
            return 0.0
        if correct == 0:
            smooth *= 2
            log_p += math.log(100.0 / (smooth * total))
        else:
            log_p += math.log(100.0 * correct / total)
    bp = 1.0 if sys_len >= ref_len else math.exp(1 - ref_len / sys_len)
    return bp * math.exp(log_p / 4)


def bleu(hypotheses, references):
    """Corpus BLEU (0-100) of hypotheses against one reference each."""
    return bleu_of_stats([bleu_stats(h, r) for h, r in zip(hypotheses, references)])


def paired_bootstrap(hyps_a, hyps_b, references, resamples=1000, seed=1, metric="bleu"):
    """Is system B's BLEU (or chrF, metric="chrf") different from A's beyond the test set's sampling
    noise? (Koehn 2004: the sentences are resampled with replacement, both systems scored on each
    resample.) Returns {"delta": score(B) - score(A), "low"/"high": the 95% interval of the delta,
    "p_b_not_better": the share of resamples where B is not better}."""
    import random
    if not len(hyps_a) == len(hyps_b) == len(references) or not references:
        raise ValueError("two systems' outputs and the references must be the same, non-zero, length")
    # (sentence statistics, summed for each resample: no text is read again)
    stats_of, score_of = {"bleu": (bleu_stats, bleu_of_stats), "chrf": (chrf_stats, chrf_of_stats)}.get(metric, (None, None))
    if stats_of is None:
        raise ValueError(f"metric: bleu or chrf, not {metric!r}")
    a = [stats_of(h, r) for h, r in zip(hyps_a, references)]
    b = [stats_of(h, r) for h, r in zip(hyps_b, references)]
    score = lambda stats, pick: score_of([stats[i] for i in pick])  # noqa: E731
    rng, n, deltas = random.Random(seed), len(references), []
    everything = range(n)
    for _ in range(resamples):
        pick = [rng.randrange(n) for _ in range(n)]
        deltas.append(score(b, pick) - score(a, pick))
    deltas.sort()
    return {"delta": score(b, everything) - score(a, everything), "low": deltas[int(0.025 * resamples)],
            "high": deltas[int(0.975 * resamples) - 1], "p_b_not_better": sum(d <= 0 for d in deltas) / resamples}


def chrf_stats(hyp, ref, order=6):
    """One sentence's character n-gram counts for chrF: [matches, hypothesis n-grams, reference
    n-grams] per order 1..order (whitespace left out); summed over sentences by chrf_of_stats."""
    h, r = "".join(hyp.split()), "".join(ref.split())
    stats = []
    for n in range(1, order + 1):
        hn = Counter(h[i:i + n] for i in range(len(h) - n + 1))
        rn = Counter(r[i:i + n] for i in range(len(r) - n + 1))
        stats.append((sum(min(c, rn[g]) for g, c in hn.items()), sum(hn.values()), sum(rn.values())))
    return stats


def chrf_of_stats(rows, beta=2.0):
    """Corpus chrF (0-100) from chrf_stats rows."""
    order = len(rows[0]) if rows else 0
    match, hyp_count, ref_count = [0] * order, [0] * order, [0] * order
    for row in rows:
        for n, (m, hc, rc) in enumerate(row):
            match[n] += m
            hyp_count[n] += hc
            ref_count[n] += rc
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


def chrf(hypotheses, references, order=6, beta=2.0):
    """Corpus chrF (0-100)."""
    return chrf_of_stats([chrf_stats(h, r, order) for h, r in zip(hypotheses, references)], beta)


def exact_match(hypotheses, references):
    """The share (0-100) of hypotheses equal to their reference, spacing at the ends aside: for
    short labels, where one wrong word is a wrong label and chrF still gives partial credit."""
    if not references:
        return 0.0
    return 100.0 * sum(h.strip() == r.strip() for h, r in zip(hypotheses, references)) / len(references)


def main():
    import argparse
    ap = argparse.ArgumentParser(description="BLEU and chrF of a hypothesis file (one line per reference line); "
                                             "with --against, a paired bootstrap of the difference")
    ap.add_argument("hypotheses")
    ap.add_argument("references")
    ap.add_argument("--against", help="another system's output: BLEU(hypotheses) - BLEU(against), 95%% interval")
    args = ap.parse_args()
    read = lambda path: open(path, encoding="utf-8").read().splitlines()  # noqa: E731
    hyps, refs = read(args.hypotheses), read(args.references)
    print(f"BLEU {bleu(hyps, refs):.2f}  chrF {chrf(hyps, refs):.2f}")
    if args.against:
        r = paired_bootstrap(read(args.against), hyps, refs)
        print(f"vs {args.against}: {r['delta']:+.2f} BLEU, 95% [{r['low']:+.2f}, {r['high']:+.2f}], "
              f"not better in {100 * r['p_b_not_better']:.1f}% of 1,000 resamples")


if __name__ == "__main__":
    main()
