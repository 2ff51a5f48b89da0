"""tajsim.analysis.stats: intervals, tests and corrections against hand-worked and published
values (fixed seeds, explicit tolerances)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as sps

from tajsim.analysis.frames import validate_games, win_value
from tajsim.analysis.stats import (
    benjamini_hochberg,
    chi_square_equal_shares,
    difference_of_means,
    fisher_z_interval,
    holm,
    icc_oneway,
    mean_ci,
    newcombe_difference,
    proportion_table,
    summarize_mean,
    two_proportion_test,
    wilson_interval,
)


def test_wilson_interval_published_values():
    # Newcombe (1998) table I: 81/263 -> 0.2553..0.3662; 0/10 -> 0..0.2775; 5/10 symmetric.
    low, high = wilson_interval(np.array([81, 0, 5]), np.array([263, 10, 10]))
    np.testing.assert_allclose(low, [0.2553, 0.0, 0.2366], atol=1e-4)
    np.testing.assert_allclose(high, [0.3662, 0.2775, 0.7634], atol=1e-4)
    low0, high0 = wilson_interval(3, 0)
    assert np.isnan(low0) and np.isnan(high0)


def test_newcombe_difference_published_example():
    # Newcombe (1998) example: 56/70 - 48/80 = 0.2, method 10 interval 0.0524..0.3339.
    diff, low, high = newcombe_difference(56, 70, 48, 80)
    assert diff == pytest.approx(0.2)
    assert low == pytest.approx(0.0524, abs=1e-4)
    assert high == pytest.approx(0.3339, abs=1e-4)


def test_two_proportion_test_matches_chi_square():
    table = two_proportion_test(56, 70, 48, 80)
    chi2 = sps.chi2_contingency([[56, 14], [48, 32]], correction=False)
    assert table["p_value"].iloc[0] == pytest.approx(chi2[1], rel=1e-9)
    assert table["n"].iloc[0] == 150


def test_benjamini_hochberg_and_holm_hand_example():
    p = [0.01, 0.04, 0.03, 0.005]
    # BH: sorted 0.005 0.01 0.03 0.04 -> 0.02 0.02 0.04 0.04 (step-up minimum).
    np.testing.assert_allclose(benjamini_hochberg(p), [0.02, 0.04, 0.04, 0.02])
    # Holm: 4*0.005=0.02, 3*0.01=0.03, 2*0.03=0.06, 1*0.04 -> running max 0.06.
    np.testing.assert_allclose(holm(p), [0.03, 0.06, 0.06, 0.02])
    with_nan = benjamini_hochberg([0.01, np.nan, 0.04, 0.03, 0.005])
    assert np.isnan(with_nan[1])
    np.testing.assert_allclose(with_nan[[0, 2, 3, 4]], [0.02, 0.04, 0.04, 0.02])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=1.0), min_size=1, max_size=30))
def test_corrections_agree_with_scipy_and_are_monotone(p_values):
    p = np.array(p_values)
    np.testing.assert_allclose(benjamini_hochberg(p), sps.false_discovery_control(p),
                               rtol=1e-10, atol=1e-12)
    adjusted = holm(p)
    assert np.all(adjusted >= p - 1e-15) and np.all(adjusted <= 1.0)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(adjusted[order]) >= -1e-15)


def test_chi_square_equal_shares_matches_scipy():
    counts = np.array([40.0, 25.0, 20.0, 15.0])
    chi2, dof, p_value, v = chi_square_equal_shares(counts)
    ref = sps.chisquare(counts)
    assert chi2 == pytest.approx(ref.statistic)
    assert p_value == pytest.approx(ref.pvalue)
    assert dof == 3
    assert v == pytest.approx(np.sqrt(chi2 / (100 * 3)))


def test_mean_ci_and_summarize_mean_match_scipy_t_interval():
    rng = np.random.default_rng(1)
    x = rng.normal(5.0, 2.0, 50)
    mean, low, high, n, sd = mean_ci(x)
    ref = sps.t.interval(0.95, 49, loc=x.mean(), scale=sps.sem(x))
    assert (low, high) == pytest.approx(ref)
    assert n == 50 and sd == pytest.approx(x.std(ddof=1))
    frame = pd.DataFrame({"g": np.repeat(["a", "b"], 25), "x": x})
    table = summarize_mean(frame, ["g"], "x", quantiles=(0.5,))
    assert list(table.columns) == ["g", "n", "mean", "sd", "ci_low", "ci_high", "q50"]
    assert table["n"].tolist() == [25, 25]
    whole = summarize_mean(frame, [], "x")
    assert whole["mean"].iloc[0] == pytest.approx(mean)


def test_difference_of_means_matches_welch():
    rng = np.random.default_rng(2)
    a, b = rng.normal(1.0, 1.0, 40), rng.normal(0.5, 2.0, 30)
    diff, low, high, p_value = difference_of_means(a, b)
    welch = sps.ttest_ind(a, b, equal_var=False)
    assert p_value == pytest.approx(welch.pvalue)
    assert diff == pytest.approx(a.mean() - b.mean())
    assert (low, high) == pytest.approx(tuple(welch.confidence_interval(0.95)))


def test_fisher_z_interval_is_fishers():
    low, high, p_value = fisher_z_interval(0.3, 100)
    half = sps.norm.ppf(0.975) / np.sqrt(97)
    assert (low, high) == pytest.approx((np.tanh(np.arctanh(0.3) - half),
                                         np.tanh(np.arctanh(0.3) + half)))
    assert (low, high) == pytest.approx((0.1101, 0.4688), abs=1e-4)  # tables: 0.11, 0.47
    t = 0.3 * np.sqrt(98 / (1 - 0.09))
    assert p_value == pytest.approx(2 * sps.t.sf(t, 98))


def test_icc_oneway_recovers_a_known_share():
    # Balanced normal data: var_between 1, var_within 3 -> ICC 0.25.
    rng = np.random.default_rng(3)
    groups = np.repeat(np.arange(300), 20)
    values = rng.normal(0, 1, 300)[groups] + rng.normal(0, np.sqrt(3.0), groups.size)
    result = icc_oneway(values, groups)
    assert result["ci_low"] < 0.25 < result["ci_high"]
    assert abs(result["icc"] - 0.25) < 0.04
    assert result["n0"] == pytest.approx(20.0)
    null = icc_oneway(rng.normal(size=groups.size), groups)
    assert null["ci_low"] < 0.0 < null["ci_high"] and null["p_value"] > 0.01


def test_win_value_shares_ties_and_baseline():
    frame = pd.DataFrame({
        "game_id": [0, 0, 0, 1, 1, 1],
        "n_players": [3] * 6,
        "seat": [0, 1, 2, 0, 1, 2],
        "winner": [True, True, False, False, True, False],
    })
    np.testing.assert_allclose(win_value(frame), [0.5, 0.5, 0, 0, 1, 0])
    np.testing.assert_allclose(win_value(frame, share_ties=False), [1, 1, 0, 0, 1, 0])
    table = proportion_table(frame.assign(w=win_value(frame)), [], "w")
    assert table["rate"].iloc[0] == pytest.approx(1 / 3)
    validate_games(frame)
    with pytest.raises(ValueError, match="n_players rows"):
        validate_games(pd.concat([frame, frame]))
