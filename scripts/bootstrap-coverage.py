#!/usr/bin/env python3
"""How often a 95% bootstrap interval of a mean from n rounds holds the true mean: the plain
percentile interval (2.5% and 97.5% quantiles) against the expanded one the collector and the
site use (docs/method.md, statistics of the precision modes). Normal figures, nearest-rank
quantiles as collector/internal/stats computes them. Usage: scripts/bootstrap-coverage.py [trials]
"""
import math
import random
import sys
from statistics import NormalDist

T975 = {1: 12.7062, 2: 4.3027, 3: 3.1824, 4: 2.7764, 9: 2.2622}  # Student's t, 0.975 quantile, by df


def rank(sorted_xs, p):
    k = math.ceil(p * len(sorted_xs) - 1e-9)
    return sorted_xs[min(max(k, 1), len(sorted_xs)) - 1]


def coverage(n, alpha, trials, resamples=1000):
    hit = 0
    for _ in range(trials):
        x = [random.gauss(0, 1) for _ in range(n)]
        boot = sorted(sum(random.choice(x) for _ in range(n)) / n for _ in range(resamples))
        hit += rank(boot, alpha / 2) <= 0 <= rank(boot, 1 - alpha / 2)
    return hit / trials


random.seed(7)
trials = int(sys.argv[1]) if len(sys.argv) > 1 else 600
for n in (2, 3, 5, 10):
    expanded = 2 * NormalDist().cdf(-math.sqrt(n / (n - 1)) * T975[n - 1])
    print(f"{n} rounds: plain {coverage(n, 0.05, trials):.1%}, expanded {coverage(n, expanded, trials):.1%} ({trials} trials)")
