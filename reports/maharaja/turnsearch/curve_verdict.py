"""Does ``turnsearch``'s strength rise with its budget? The strength-curve tables of this folder
(``strength_curve_vs_search*.md``, written by ``benchmarks/strength_curve.py``) pooled by
budget (the seeds' games are independent), each budget's share with its Wilson interval, the
budgets' tested order (``tajsim.analysis.stats.verdicts.tested_order``: every pair's z test,
Holm-adjusted), the contrast of the smallest against the largest budget (one z test of the
difference of two independent shares) and the trend: the weighted least-squares slope of the
share on log2 of the budget (weights n / (p (1 - p)), the binomial variances), with its z test
(one test of "the share grows with the budget" over every point).

    python reports/maharaja/turnsearch/curve_verdict.py
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
from scipy import stats

from tajsim.analysis.stats import wilson_interval
from tajsim.analysis.stats.verdicts import tested_order

HERE = Path(__file__).resolve().parent
ROW = re.compile(r"^\|\s*([\d.]+)\s*\|\s*(\d+)\s*\|\s*([\d.]+)\s*\|")


def pooled() -> dict[float, tuple[float, int]]:
    """budget ms -> (wins, games) over every table of this folder."""
    out: dict[float, list[float]] = {}
    for path in sorted(HERE.glob("strength_curve_vs_search*.md")):
        for line in path.read_text().splitlines():
            m = ROW.match(line)
            if m:
                ms, n, share = float(m[1]), int(m[2]), float(m[3])
                acc = out.setdefault(ms, [0.0, 0])
                acc[0] += share * n
                acc[1] += n
    return {ms: (wins, int(n)) for ms, (wins, n) in sorted(out.items())}


def main() -> None:
    data = pooled()
    print("| ms a decision | games | turnsearch share against search | 95% Wilson interval |")
    print("|---:|---:|---:|---|")
    names, est, se = [], [], []
    for ms, (wins, n) in data.items():
        p = wins / n
        low, high = wilson_interval(p * n, n)
        print(f"| {ms:g} | {n} | {p:.3f} | [{float(low):.3f}, {float(high):.3f}] |")
        names.append(f"{ms:g} ms")
        est.append(p)
        se.append(math.sqrt(p * (1 - p) / n))
    order = tested_order(names, np.array(est), se=np.array(se))
    print(f"\ntested order (Holm over {len(order.pairwise)} pairs): {order.value}")
    print(order.pairwise[["a", "b", "difference", "p_value", "p_holm"]].to_string(index=False))
    (lo_ms, (w0, n0)), (hi_ms, (w1, n1)) = list(data.items())[0], list(data.items())[-1]
    p0, p1 = w0 / n0, w1 / n1
    diff = p1 - p0
    z = diff / math.sqrt(p0 * (1 - p0) / n0 + p1 * (1 - p1) / n1)
    print(f"\n{hi_ms:g} ms against {lo_ms:g} ms: {diff:+.3f} "
          f"[{diff - 1.96 * diff / z:+.3f}, {diff + 1.96 * diff / z:+.3f}], z = {z:.2f}, "
          f"p = {2 * stats.norm.sf(abs(z)):.3g} (two-sided), n = {n0} and {n1} games")
    x = np.log2(np.array(list(data), dtype=np.float64))
    y = np.array(est)
    w = 1.0 / np.array(se) ** 2
    xbar = float((w * x).sum() / w.sum())
    sxx = float((w * (x - xbar) ** 2).sum())
    slope = float((w * (x - xbar) * (y - (w * y).sum() / w.sum())).sum()) / sxx
    slope_se = 1.0 / math.sqrt(sxx)
    zt = slope / slope_se
    print(f"trend: {slope:+.4f} a doubling of the budget "
          f"[{slope - 1.96 * slope_se:+.4f}, {slope + 1.96 * slope_se:+.4f}], z = {zt:.2f}, "
          f"p = {2 * stats.norm.sf(abs(zt)):.3g} (two-sided), "
          f"{sum(n for _, n in data.values())} games over {len(data)} budgets")


if __name__ == "__main__":
    main()
