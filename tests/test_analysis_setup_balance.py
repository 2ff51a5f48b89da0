"""Setup balance: a planted setup variance share and a planted setup feature are recovered."""

from __future__ import annotations

import numpy as np
import pytest

from tajsim.analysis.setup_balance import (
    games_per_setup,
    setup_feature_tests,
    setup_imbalance,
    setup_variance_share,
)
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results, seat_win_probabilities
from tajsim.games.tajmahal.spec import SPEC


def features_of(frame):
    return SPEC.setup_feature_columns(list(frame.columns))


@pytest.fixture(scope="module")
def planted():
    return make_synthetic_results(12_000, n_setups=300, setup_effect_sd=0.5, seed=41,
                                  return_truth=True)


def test_planted_setup_variance_share_is_recovered(planted):
    frame, truth = planted
    p = seat_win_probabilities(truth)  # exact win probability of each seat in each setup
    table = setup_variance_share(frame).set_index("target")
    assert len(table) == 4
    for s in range(4):
        true_icc = p[:, s].var() / (p[:, s].mean() * (1 - p[:, s].mean()))
        row = table.loc[f"seat {s}"]
        assert row["ci_low"] < true_icc < row["ci_high"], (s, row["icc"], true_icc)
        assert abs(row["icc"] - true_icc) < 0.03
        assert row["p_value"] < 1e-6
        assert row["n_setups"] == 300 and row["games_per_setup"] == pytest.approx(40)


def test_no_setup_effect_gives_a_share_near_zero():
    frame = make_synthetic_results(6000, n_setups=200, seed=42)
    table = setup_variance_share(frame, seats=[0])
    row = table.iloc[0]
    assert row["ci_low"] < 0.0 < row["ci_high"]
    assert abs(row["icc"]) < 0.02
    score = setup_variance_share(frame, outcome="score_margin", seats=[0]).iloc[0]
    assert score["ci_low"] < 0.0 < score["ci_high"]


def test_strategy_adjustment_under_rotated_seats():
    # Strong strategies rotated so every setup sees each strategy once in each seat, no setup
    # effect: raw seat-0 wins vary less between setups than chance (negative share); the
    # strategy-adjusted outcome shows the true share, 0.
    frame = make_synthetic_results(
        8000, seating="rotate", n_setups=2000, seed=47,
        strategy_strength={"alpha": 1.0, "beta": 0.5, "gamma": -0.5, "delta": -1.0})
    assert games_per_setup(frame).eq(4).all()
    raw = setup_variance_share(frame, seats=[0], adjust_for_strategy=False).iloc[0]
    adjusted = setup_variance_share(frame, seats=[0]).iloc[0]
    assert raw["ci_high"] < 0
    assert adjusted["ci_low"] < 0 < adjusted["ci_high"]


def test_planted_bonus_feature_is_found_with_fdr_control():
    frame = make_synthetic_results(9000, n_setups=300, seed=43,
                                   setup_feature_effect=("bonus_peshawar", "jewels", 0.7))
    table = setup_feature_tests(frame, features=features_of(frame))
    top = table.iloc[0]
    assert (top["feature"], top["level"]) == ("bonus_peshawar", "jewels")
    assert top["effect"] > 0 and top["q_value"] < 0.01 and top["significant"]
    assert top["n"] == 300  # one observation per setup
    # Other features: only the other peshawar levels move (they exclude jewels there).
    others = table[table["significant"] & (table["feature"] != "bonus_peshawar")]
    assert len(others) <= 1
    assert (table["q_value"].dropna() >= table["p_value"].dropna() - 1e-12).all()
    assert (table["p_holm"].dropna() >= table["p_value"].dropna() - 1e-12).all()


def test_planted_visit_feature_is_found():
    frame = make_synthetic_results(9000, n_setups=300, seed=44,
                                   setup_feature_effect=("visit_kabul", None, 0.08))
    table = setup_feature_tests(frame, features=features_of(frame))
    top = table.iloc[0]
    assert (top["feature"], top["level"]) == ("visit_kabul", "per unit")
    assert top["effect"] > 0 and top["significant"]


def test_strategy_target():
    frame = make_synthetic_results(2000, n_setups=100, seed=45)
    table = setup_feature_tests(frame, seat=None, strategy="alpha", features=features_of(frame))
    assert not table.empty and table["n"].max() == 100


def test_imbalance_ranks_planted_unbalanced_setups_first(planted):
    frame, truth = planted
    table = setup_imbalance(frame)
    assert len(table) == 300
    assert {"seed", "setup_id", "n", "spread", "ci_low", "ci_high", "null_spread",
            "p_value", "q_value"} <= set(table.columns)
    assert (table["ci_low"] <= table["spread"]).all()
    assert (table["spread"] <= table["ci_high"]).all()
    assert table["spread"].is_monotonic_decreasing
    p = seat_win_probabilities(truth)
    true_spread = (p.max(axis=1) - p.min(axis=1))[table["setup_id"].to_numpy()]
    assert np.corrcoef(true_spread, table["spread"])[0, 1] > 0.6
    # The least balanced setup found is truly among the least balanced ones.
    assert true_spread[0] > np.quantile(true_spread, 0.75)
    assert (table["null_spread"] > 0).all()


def test_one_game_per_setup_cannot_separate_setup_from_play():
    frame = make_synthetic_results(300, seed=46)
    assert games_per_setup(frame).max() == 1
    row = setup_variance_share(frame, seats=[0]).iloc[0]
    assert np.isnan(row["icc"])
    assert setup_imbalance(frame).empty
