#!/usr/bin/env python3
"""Expected values for tracker's statistics tests (stats_test.go, sprt_test.go).

An independent computation, not a port of the Go code: the SPRT part follows
fishtest server/fishtest/stats/LLRcalc.py (results_to_pdf, MLE_expected,
MLE_t_value, LLR_logistic, LLR_normalized) with scipy's brentq replaced by
bisection (scipy is not installed here); the Elo part follows fastchess
app/src/matchmaking/elo/elo_wdl.cpp and elo_pentanomial.cpp.

Run: python3 tracker/testdata/stats_expected.py
"""
import math

Z95 = 1.959964
NELO = 800 / math.log(10)


def elo(s):
    return -400 * math.log10(1 / s - 1)


def describe(name, s, var, n, k):
    """k is 1 for games, 2 for pairs (nElo divides by sqrt(k*var))."""
    m = Z95 * math.sqrt(var / n)
    nelo = lambda x: (x - 0.5) / math.sqrt(k * var) * NELO
    los = 0.5 * (1 + math.erf((s - 0.5) / math.sqrt(2 * var / n)))
    print(f"{name}: score {s!r} var {var!r}")
    print(f"  elo {elo(s)!r} low {elo(s - m)!r} high {elo(s + m)!r}")
    print(f"  nelo {nelo(s)!r} low {nelo(s - m)!r} high {nelo(s + m)!r}")
    print(f"  los {los!r}")


def wdl(w, d, l):
    n = w + d + l
    s = (w + d / 2) / n
    var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2) / n
    describe(f"wdl {w},{d},{l}", s, var, n, 1)


def penta(ll, ld, dd, wd, ww):
    n = ll + ld + dd + wd + ww
    a = [0, 0.25, 0.5, 0.75, 1]
    c = [ll, ld, dd, wd, ww]
    s = sum(ai * ci for ai, ci in zip(a, c)) / n
    var = sum(ci * (ai - s) ** 2 for ai, ci in zip(a, c)) / n
    describe(f"penta {ll},{ld},{dd},{wd},{ww}", s, var, n, 2)


# --- fishtest LLRcalc.py ---


def brentq(f, lo, hi):
    flo = f(lo)
    for _ in range(2000):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        fm = f(mid)
        if (fm > 0) == (flo > 0):
            lo, flo = mid, fm
        else:
            hi = mid
    return (lo + hi) / 2


def secular(pdf):
    epsilon = 1e-9
    v = min(ai for ai, pi in pdf)
    w = max(ai for ai, pi in pdf)
    assert v * w < 0
    f = lambda x: sum(pi * ai / (1 + x * ai) for ai, pi in pdf)
    return brentq(f, -1 / w + epsilon, -1 / v - epsilon)


def stats(pdf):
    s = sum(p * a for a, p in pdf)
    return s, sum(p * (a - s) ** 2 for a, p in pdf)


def mle_expected(pdfhat, s):
    x = secular([(ai - s, pi) for ai, pi in pdfhat])
    return [(ai, pi / (1 + x * (ai - s))) for ai, pi in pdfhat]


def mle_t_value(pdfhat, ref, s):
    n = len(pdfhat)
    pdf = [(ai, 1 / n) for ai, pi in pdfhat]
    for _ in range(10):
        prev = pdf
        mu, var = stats(pdf)
        sigma = var**0.5
        pdf1 = [(ai - ref - s * sigma * (1 + ((mu - ai) / sigma) ** 2) / 2, pi) for ai, pi in pdfhat]
        x = secular(pdf1)
        pdf = [(pdfhat[i][0], pdfhat[i][1] / (1 + x * pdf1[i][0])) for i in range(n)]
        if max(abs(prev[i][1] - pdf[i][1]) for i in range(n)) < 1e-9:
            break
    mu, var = stats(pdf)
    assert abs(s - (mu - ref) / var**0.5) < 1e-5
    return pdf


def results_to_pdf(results):
    results = [r if r != 0 else 1e-3 for r in results]
    n = sum(results)
    c = len(results)
    return n, [(i / (c - 1), results[i] / n) for i in range(c)]


def llr(pdf, p0, p1):
    return sum(pdf[i][1] * (math.log(p1[i][1]) - math.log(p0[i][1])) for i in range(len(pdf)))


def llr_logistic(elo0, elo1, results):
    s0, s1 = [1 / (1 + 10 ** (-e / 400)) for e in (elo0, elo1)]
    n, pdf = results_to_pdf(results)
    return n * llr(pdf, mle_expected(pdf, s0), mle_expected(pdf, s1))


def llr_normalized(nelo0, nelo1, results):
    k = 1 if len(results) == 3 else 2**0.5
    t0, t1 = [k * e / NELO for e in (nelo0, nelo1)]
    n, pdf = results_to_pdf(results)
    return n * llr(pdf, mle_t_value(pdf, 0.5, t0), mle_t_value(pdf, 0.5, t1))


def sprt(elo0, elo1, results):
    """results as fishtest orders them: L,D,W or LL,LD,DD+WL,WD,WW."""
    print(f"sprt [{elo0}, {elo1}] {results}:")
    print(f"  normalized {llr_normalized(elo0, elo1, results)!r}")
    print(f"  logistic   {llr_logistic(elo0, elo1, results)!r}")


if __name__ == "__main__":
    print(f"bounds alpha=beta=0.05: {math.log(0.05 / 0.95)!r} {math.log(0.95 / 0.05)!r}")
    wdl(10, 5, 5)
    wdl(1200, 1800, 1000)
    wdl(30, 0, 10)
    penta(10, 40, 200, 50, 20)
    penta(0, 3, 10, 4, 3)
    sprt(0, 10, [1000, 1800, 1200])
    sprt(0, 10, [1200, 1800, 1000])
    sprt(0, 10, [10, 0, 30])
    sprt(-5, 5, [1000, 1800, 1200])
    sprt(0, 5, [10, 40, 200, 50, 20])
    sprt(0, 5, [0, 30, 100, 40, 5])
    sprt(0, 10, [0, 0, 0])
