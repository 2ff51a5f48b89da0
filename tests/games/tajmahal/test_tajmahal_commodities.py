"""Commodity value: planted good and tile values are recovered within their intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy import optimize
from scipy.special import logsumexp

from tajsim.games.tajmahal.analyses.commodities import (
    conditional_logit,
    goods_contest,
    goods_points,
    goods_value,
    tile_value_by_visit,
)
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results

GOOD_VALUE = {"rice": 0.1, "tea": 0.0, "spices": 0.2, "jewels": 0.35}


@pytest.fixture(scope="module")
def planted():
    # Goods values, plus strategy and seat effects the controls must absorb.
    return make_synthetic_results(
        6000, good_value=GOOD_VALUE, seat_effect=[0.2, 0, 0, -0.1],
        strategy_strength={"alpha": 0.4, "delta": -0.2}, tie_probability=0.01, seed=21)


def test_planted_good_values_recovered_within_their_interval(planted):
    table = goods_value(planted, confidence=0.99).set_index("good")
    for good, truth in GOOD_VALUE.items():
        row = table.loc[good]
        assert row["coef_ci_low"] < truth < row["coef_ci_high"], (good, row["coef"])
        assert abs(row["coef"] - truth) < 0.06
        assert row["n"] == len(planted) and row["n_games"] == 6000
    # Tiles carry no value beyond their goods here.
    tile = table.loc["province_tile"]
    assert tile["coef_ci_low"] < 0 < tile["coef_ci_high"]
    # The marginal effect on win probability has the sign and order of the coefficients.
    ame = table.loc[list(GOOD_VALUE), "win_prob_change"]
    assert list(ame.sort_values().index) == ["tea", "rice", "spices", "jewels"]


def test_linear_probability_model_orders_goods_the_same(planted):
    table = goods_value(planted, model="lpm").set_index("good")
    order = table.loc[list(GOOD_VALUE), "coef"].sort_values().index.tolist()
    assert order == ["tea", "rice", "spices", "jewels"]
    assert (table["ci_low"] < table["win_prob_change"]).all()


def test_conditional_logit_matches_direct_maximisation():
    rng = np.random.default_rng(22)
    G, P, k = 400, 3, 2
    X = rng.normal(size=(G * P, k))
    game = np.repeat(np.arange(G), P)
    u = (X @ np.array([0.8, -0.5])).reshape(G, P) + rng.gumbel(size=(G, P))
    weight = (u == u.max(axis=1, keepdims=True)).astype(float).reshape(-1)
    fit = conditional_logit(X, game, weight, cov="model")

    def negloglik(b):
        eta = (X @ b).reshape(G, P)
        return -((eta * weight.reshape(G, P)).sum() - logsumexp(eta, axis=1).sum())

    ref = optimize.minimize(negloglik, np.zeros(k), method="BFGS")
    np.testing.assert_allclose(fit["coef"], ref.x, atol=1e-4)
    np.testing.assert_allclose(fit["prob"].reshape(G, P).sum(axis=1), 1.0)


def test_tile_value_by_visit_recovers_a_planted_visit():
    values = np.zeros(12)
    values[2] = 0.8  # the tile of visit 3
    frame = make_synthetic_results(5000, tile_visit_value=values, seed=23)
    table = tile_value_by_visit(frame, confidence=0.99).set_index("visit")
    assert len(table) == 12
    assert table["coef"].idxmax() == 3
    assert table.loc[3, "coef"] - 0.2 < 0.8 < table.loc[3, "coef"] + 0.2
    others = table.drop(index=3)
    # No other tile has value: at most one of eleven 99% intervals may miss 0 by chance.
    assert ((others["ci_low"] > 0) | (others["ci_high"] < 0)).sum() <= 1
    assert table.loc[3, "raw_difference"] > 0
    assert ((table["claim_rate"] > 0.8) & (table["claim_rate"] < 0.9)).all()


def test_goods_points_follow_the_triangular_rule():
    frame = make_synthetic_results(500, seed=24)
    table = goods_points(frame)
    assert table["mean_points"].sum() == pytest.approx(frame["pts_commodity"].mean())
    rice = frame["goods_rice"].astype(float)
    row = table.set_index("good").loc["rice"]
    assert row["mean_points"] == pytest.approx((rice * (rice + 1) / 2).mean())
    assert row["marginal_points"] == pytest.approx(rice.mean() + 1)
    assert (table["ci_low"] < table["mean_points"]).all()


def test_goods_contest_on_a_hand_made_game():
    frame = pd.DataFrame({
        "game_id": [0, 0], "n_players": [2, 2], "seat": [0, 1],
        "goods_rice": [4, 0], "goods_tea": [2, 2], "goods_spices": [1, 3], "goods_jewels": [0, 0],
    })
    table = goods_contest(frame).set_index("good")
    assert table.loc["rice", "concentration"] == pytest.approx(1.0)  # one holder
    assert table.loc["tea", "concentration"] == pytest.approx(0.0)  # evenly spread
    assert table.loc["spices", "concentration"] == pytest.approx(0.25)  # (10/16 - 1/2) / (1/2)
    assert "jewels" not in table.index  # nobody held any
    assert table.loc["tea", "contested_rate"] == 1.0
    assert table.loc["rice", "contested_rate"] == 0.0
