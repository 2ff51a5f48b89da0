"""The verdicts (tajsim.analysis.stats.verdicts) against references: statsmodels' TOST, power
and multiple tests, the cluster-robust OLS covariance, and simulations with a known answer.
Seeded; each test is fast."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.power import NormalIndPower, TTestIndPower
from statsmodels.stats.weightstats import ttost_ind, ttost_paired

from tajsim.analysis.stats.verdicts import (
    DIFFERS,
    EQUIVALENT,
    INCONCLUSIVE,
    clustered_ratios,
    equivalence_of_means,
    equivalence_test,
    holm_family,
    mde_proportion,
    minimum_detectable_effect,
    rank_first_probability,
)
from tajsim.analysis.stats.verdicts import tested_order as order_of
from tajsim.errors import UserError


@pytest.mark.parametrize("shift,margin", [(0.0, 0.5), (0.3, 0.5), (0.9, 0.5), (-0.2, 0.3)])
def test_tost_matches_statsmodels_welch_and_paired(shift: float, margin: float):
    rng = np.random.default_rng(11)
    a = rng.normal(shift, 1.0, 80)
    b = rng.normal(0.0, 1.6, 120)
    ours = equivalence_of_means(a, b, margin)
    p, low, high = ttost_ind(a, b, -margin, margin, usevar="unequal")
    assert ours.p_equivalent == pytest.approx(p, rel=1e-9)
    assert ours.p_equivalent == pytest.approx(max(low[1], high[1]), rel=1e-9)
    c = a[:80] + rng.normal(0, 0.5, 80)
    ours = equivalence_of_means(a, c, margin, paired=True)
    p, _, _ = ttost_paired(a, c, -margin, margin)
    assert ours.p_equivalent == pytest.approx(p, rel=1e-9)


def test_three_verdicts():
    eq = equivalence_test(0.004, 0.004, 0.02, n=10_000)
    assert eq.verdict == EQUIVALENT and eq.p_value == eq.p_equivalent < 0.05
    assert eq.short(100, " pts") == "equivalent ±2 pts"
    # the example: -2.1 [-5.4, +1.3] points on 600 games is no evidence of equality
    weak = equivalence_test(-0.021, 0.017, 0.02, n=600)
    assert weak.verdict == INCONCLUSIVE and np.isnan(weak.p_value)
    assert weak.mde == pytest.approx(0.017 * 2.8016, rel=1e-3)
    assert "detectable at this n: 4.8 points" in weak.text()
    big = equivalence_test(0.05, 0.01, 0.02, n=5_000)
    assert big.verdict == DIFFERS and big.short() == "+"
    # significant but within the margin: a negligible difference is equivalent
    small = equivalence_test(0.005, 0.002, 0.02, n=100_000)
    assert small.verdict == EQUIVALENT and small.p_differs < 0.05
    assert equivalence_test(0.0, 0.0, 0.02, n=10).verdict == EQUIVALENT
    assert equivalence_test(np.nan, 0.01, 0.02, n=0).verdict == INCONCLUSIVE
    with pytest.raises(UserError, match="margin -1"):
        equivalence_test(0.0, 0.01, -1, n=5)


def test_tost_type_one_error_at_the_margin_is_at_most_alpha():
    """True difference exactly at the margin: TOST must call it equivalent in at most 5% of
    samples (a simulation with a known answer: t samples, estimated variances)."""
    rng = np.random.default_rng(5)
    reps, n, margin = 4000, 40, 0.5
    a = rng.normal(margin, 1.0, (reps, n))
    b = rng.normal(0.0, 1.0, (reps, n))
    hits = sum(equivalence_of_means(a[i], b[i], margin).verdict == EQUIVALENT
               for i in range(reps))
    rate = hits / reps
    assert rate <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)
    assert rate >= 0.02  # and the test is not vacuous: it reaches about alpha at the boundary
    # well inside the margin it has power
    inside = sum(equivalence_of_means(a[i] - margin, b[i], margin).verdict == EQUIVALENT
                 for i in range(300))
    assert inside / 300 > 0.3  # about 0.45 at this n


def test_minimum_detectable_effect_matches_statsmodels_power():
    n1, n2, sd = 300, 500, 1.7
    se = sd * np.sqrt(1 / n1 + 1 / n2)
    d = NormalIndPower().solve_power(nobs1=n1, ratio=n2 / n1, alpha=0.05, power=0.8)
    assert float(minimum_detectable_effect(se)) == pytest.approx(d * sd, rel=1e-6)
    df = n1 + n2 - 2
    d_t = TTestIndPower().solve_power(nobs1=n1, ratio=n2 / n1, alpha=0.05, power=0.8)
    assert float(minimum_detectable_effect(se, df=df)) == pytest.approx(d_t * sd, rel=1e-4)
    # a proportion: Cohen's h is about the difference over sqrt(p(1-p)) near p
    p = 0.25
    d = NormalIndPower().solve_power(nobs1=4000, ratio=1.0, alpha=0.05, power=0.8)
    assert float(mde_proportion(p, 4000, 4000)) == pytest.approx(d * np.sqrt(p * (1 - p)),
                                                                rel=1e-4)  # its solver's
    assert np.isnan(mde_proportion(p, 0))
    # and the power at that effect, simulated, is 80%
    rng = np.random.default_rng(2)
    mde = float(minimum_detectable_effect(1.0))
    z = rng.normal(mde, 1.0, 40_000)
    assert np.mean(np.abs(z) > 1.959964) == pytest.approx(0.8, abs=0.01)


def test_clustered_ratios_match_statsmodels_cluster_ols():
    rng = np.random.default_rng(3)
    games, items = 400, 3
    rows = []
    for g in range(games):
        shock = rng.normal()
        for _seat in range(4):
            item = int(rng.integers(items))
            rows.append((g, item, 0.3 * item + shock + rng.normal()))
    frame = pd.DataFrame(rows, columns=["game", "item", "y"])
    dummies = pd.get_dummies(frame["item"], dtype=float).to_numpy()
    fit = sm.OLS(frame["y"].to_numpy(), dummies).fit(
        cov_type="cluster", cov_kwds={"groups": frame["game"].to_numpy()})
    num = np.zeros((games, items))
    den = np.zeros((games, items))
    np.add.at(num, (frame["game"], frame["item"]), frame["y"])
    np.add.at(den, (frame["game"], frame["item"]), 1.0)
    est, cov = clustered_ratios(num, den)
    np.testing.assert_allclose(est, fit.params, rtol=1e-10)
    np.testing.assert_allclose(cov, fit.cov_params(), rtol=1e-8)


def test_holm_family_matches_multipletests():
    p = np.array([0.001, 0.04, 0.03, np.nan, 0.2, 0.0101])
    fam = holm_family(p)
    ok = ~np.isnan(p)
    reject, adjusted, _, _ = multipletests(p[ok], alpha=0.05, method="holm")
    np.testing.assert_allclose(fam.p_holm[ok], adjusted, rtol=1e-12)
    assert (fam.holds[ok] == reject).all() and not fam.holds[~ok].any()
    assert fam.size == 5 and fam.statement() == ("2 of 5 verdicts stand family-wise (Holm at "
                                                 "5%)")


def test_tested_order_tiers_and_holm():
    names = ["rice", "spices", "tea", "jewels"]
    est = np.array([0.057, 0.055, 0.030, 0.090])
    se = np.array([0.0015, 0.0018, 0.0016, 0.002])
    order = order_of(names, est, se=se)
    assert order.value == "jewels > {rice, spices} > tea"
    assert order.best == "jewels" and order.best_p_value < 0.05
    assert "rice and spices (not told apart)" in order.words()
    # the pairwise p-values are z tests, Holm-adjusted as multipletests does
    pw = order.pairwise
    _, adjusted, _, _ = multipletests(pw["p_value"], method="holm")
    np.testing.assert_allclose(pw["p_holm"], adjusted, rtol=1e-12)
    assert order.claim_p_value < 0.05
    # two items not told apart at the top: no single argmax
    tie = order_of(["a", "b", "c"], [1.0, 0.98, 0.5], se=[0.02, 0.02, 0.02])
    assert tie.best == "{a, b}" and tie.value == "{a, b} > c"
    # lower is better (No Thanks!)
    assert order_of(["a", "b"], [1.0, 5.0], se=[0.1, 0.1], higher_is_better=False).best \
        == "a"
    # the covariance matters: two items that move together are told apart
    cov = np.array([[1.0, 0.99], [0.99, 1.0]]) * 0.01
    assert order_of(["x", "y"], [0.5, 0.4], cov=cov).value == "x > y"
    assert order_of(["x", "y"], [0.5, 0.4], se=[0.1, 0.1]).value == "{x, y}"
    # infinite strengths (a strategy above all) are their own tier
    assert order_of(["a", "b", "c"], [np.inf, 0.1, 0.0], se=[np.nan, 0.1, 0.1]).value \
        == "a > {b, c}"


def test_tested_order_type_one_error_under_equal_items():
    """Five equal items: the order claims some separation (tiers, or a pair told apart within
    a tier) in at most about 5% of samples (Holm controls the family-wise error), and it does
    claim one sometimes (the test can see a claim)."""
    rng = np.random.default_rng(9)
    reps, k = 800, 5
    claims = 0
    for _ in range(reps):
        est = rng.normal(0.0, 1.0, k)
        order = order_of(list("abcde"), est, se=np.ones(k))
        claims += len(order.tiers) > 1 or bool(order.separated_within)
    assert claims / reps <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / reps)
    assert claims / reps >= 0.01


def test_rank_first_probability_bootstrap():
    rng = np.random.default_rng(4)
    games = 2000
    den = np.ones((games, 3))
    num = np.column_stack([rng.binomial(1, 0.30, games), rng.binomial(1, 0.30, games),
                           rng.binomial(1, 0.10, games)]).astype(float)
    p = rank_first_probability(num, den, ["a", "b", "c"], n_boot=400, seed=1)
    assert sum(p.values()) == pytest.approx(1.0)
    assert p["c"] == 0.0 and 0.2 < p["a"] < 0.8  # two equal items share the first place
    strong = rank_first_probability(num + np.array([0.2, 0, 0]), den, ["a", "b", "c"],
                                    n_boot=200)
    assert strong["a"] > 0.99
    assert rank_first_probability(num, den, ["a", "b", "c"], n_boot=100, seed=1) == \
        rank_first_probability(num, den, ["a", "b", "c"], n_boot=100, seed=1)


def test_an_equivalence_prints_the_interval_tost_decides_on():
    """Equivalent within ±2 points with an estimate of 1.6 and a standard error of 0.24: the
    95% interval reaches past +2, the 90% one (TOST's) stays inside."""
    verdict = equivalence_test(0.016, 0.0024, 0.02, n=1000)
    assert verdict.verdict == EQUIVALENT and verdict.ci_high > 0.02
    low, high = verdict.tost_interval()
    assert -0.02 < low and high < 0.02
    assert f"[{100 * low:+.1f}, {100 * high:+.1f}] points (90% interval)" in verdict.text()


@pytest.mark.parametrize("reference,value,expected", [
    ("{a, b}", "{b, c}", "fails"),  # a > c, then c > a
    ("{a, b}", "b", "holds"),
    ("{a, b}", "{a, b, c}", "inconclusive"),
    ("a", "c", "fails"),
])
def test_argmax_sets_compared(reference, value, expected):
    from tajsim.analysis.stats.verdicts import compare_verdicts

    assert compare_verdicts(reference, value) == expected


def test_p_values_read_as_a_clause():
    from tajsim.analysis.stats.verdicts import format_p, p_clause

    assert (format_p(0.0772), format_p(3e-7), format_p(float("nan"))) == ("0.077", "< 1e-4",
                                                                           "n/a")
    assert (p_clause(0.0772), p_clause(3e-7)) == ("p = 0.077", "p < 1e-4")


def test_verdict_sentences_write_a_tiny_p_as_a_clause():
    """A p below 1e-4 reads "p < 1e-4" in a verdict's sentence, never "p = < 1e-4"."""
    differs = equivalence_test(0.08, 0.004, 0.02, n=10_000)
    assert differs.verdict == DIFFERS and "; p < 1e-4; margin" in differs.text()
    equivalent = equivalence_test(0.0, 0.001, 0.02, n=100_000)
    assert equivalent.verdict == EQUIVALENT and "TOST p < 1e-4" in equivalent.text()
    assert "= <" not in differs.text() + equivalent.text()


def test_a_tier_names_the_pairs_it_tells_apart():
    """a > c is separated, b (between them, imprecise) from neither: no split into tiers
    separates every cross pair, so one tier, whose words name a > c instead of "not told
    apart"."""
    from tajsim.analysis.stats.verdicts import tested_order

    chained = tested_order(["a", "b", "c"], [10.0, 5.0, 0.0], se=[1.0, 10.0, 1.0])
    assert chained.tiers == (("a", "b", "c"),) and chained.separated_within == (("a", "c"),)
    assert chained.within_clause() == "told apart within a tier: a > c"
    assert chained.contenders == ("a", "b")  # c is told apart from the first: not a contender
    assert chained.words() == ("a, b and c (not split into tiers told apart; told apart "
                               "within a tier: a > c)")
    plain = tested_order(["a", "b", "c"], [10.0, 9.9, 0.0], se=[1.0, 1.0, 1.0])
    assert plain.tiers == (("a", "b"), ("c",)) and plain.separated_within == ()
    assert plain.words() == "a and b (not told apart), then c" and plain.within_clause() == ""
    assert plain.contenders == ("a", "b")


def test_an_argmax_finding_names_a_pair_its_first_tier_tells_apart():
    from tajsim.analysis.robustness import argmax_finding
    from tajsim.analysis.stats.verdicts import tested_order

    chained = tested_order(["a", "b", "c"], [10.0, 5.0, 0.0], se=[1.0, 10.0, 1.0])
    finding = argmax_finding("best", chained, "detail")
    assert finding.value == "{a, b, c}"
    assert finding.detail.endswith("; told apart within a tier: a > c")
    plain = tested_order(["a", "b", "c"], [10.0, 9.9, 0.0], se=[1.0, 1.0, 1.0])
    assert argmax_finding("best", plain, "detail").detail == "detail"


def test_braces_note_says_what_the_braces_mean():
    from tajsim.analysis.stats.verdicts import tested_order

    chained = tested_order(["a", "b", "c"], [10.0, 5.0, 0.0], se=[1.0, 10.0, 1.0])
    assert chained.braces_note() == ("braces: no split into tiers separates every pair, told "
                                     "apart within a tier: a > c")
    plain = tested_order(["a", "b", "c"], [10.0, 9.9, 0.0], se=[1.0, 1.0, 1.0])
    assert plain.braces_note() == "braces: not told apart"
