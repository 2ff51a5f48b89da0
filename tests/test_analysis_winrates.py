"""Win rates and the seat-advantage test on synthetic data with known answers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tajsim.analysis.synthetic import make_synthetic_results
from tajsim.analysis.winrates import (
    seat_advantage_test,
    win_rates,
    win_rates_by_player_count,
    win_rates_by_seat,
    win_rates_by_strategy,
)


def test_planted_seat_advantage_is_found():
    frame = make_synthetic_results(3000, seat_effect=[0.3, 0, 0, 0], seed=11)
    test = seat_advantage_test(frame)
    row = test.iloc[0]
    assert row["n"] == 3000
    assert row["p_value"] < 0.01
    true_excess = np.exp(0.3) / (np.exp(0.3) + 3) - 0.25  # softmax of the seat utilities
    assert row["ci_low"] < true_excess < row["ci_high"]
    assert row["best_seat"] == 0
    assert row["cramers_v"] > 0


def test_no_seat_advantage_is_rejected_at_the_nominal_rate():
    # 200 independent null experiments of 200 games each, tested in one call via ``by``.
    frame = make_synthetic_results(40_000, tie_probability=0.02, seed=12)
    frame["replicate"] = frame["game_id"] // 200
    test = seat_advantage_test(frame, by=("replicate", "n_players"))
    assert len(test) == 200
    rate = float((test["p_value"] < 0.05).mean())
    # Binomial(200, 0.05): mean 0.05, sd 0.015; accept within about 3 sd.
    assert 0.01 <= rate <= 0.10
    assert (test["n_tied_games"] > 0).any()


def test_ties_shared_keep_the_baseline_exact():
    frame = make_synthetic_results(2000, tie_probability=0.2, seed=13)
    shared = win_rates(frame, by=())
    assert shared["win_rate"].iloc[0] == pytest.approx(0.25)
    assert shared["baseline"].iloc[0] == pytest.approx(0.25)
    counted = win_rates(frame, by=(), share_ties=False)
    assert counted["win_rate"].iloc[0] > 0.25  # every tied winner counts 1


def test_win_rates_by_strategy_recovers_order_and_carries_n_and_ci():
    frame = make_synthetic_results(
        3000, strategy_strength={"alpha": 0.5, "beta": 0.2, "gamma": 0.0, "delta": -0.3},
        seed=14)
    table = win_rates_by_strategy(frame)
    for col in ("n", "n_games", "win_rate", "ci_low", "ci_high", "baseline", "excess"):
        assert col in table.columns
    order = table.sort_values("win_rate", ascending=False)["strategy"].astype(str).tolist()
    assert order == ["alpha", "beta", "gamma", "delta"]
    assert (table["ci_low"] <= table["win_rate"]).all()
    assert (table["win_rate"] <= table["ci_high"]).all()
    assert table["n"].sum() == len(frame)


def test_by_seat_and_by_player_count_pool_nothing_across_player_counts():
    three = make_synthetic_results(500, n_players=3, seed=15)
    four = make_synthetic_results(500, n_players=4, seed=16)
    four["seed"] = 16
    frame = pd.concat([three, four], ignore_index=True)
    by_seat = win_rates_by_seat(frame)
    assert len(by_seat) == 7
    assert by_seat.groupby("n_players")["baseline"].first().tolist() == pytest.approx(
        [1 / 3, 1 / 4])
    by_count = win_rates_by_player_count(frame)
    assert set(by_count["n_players"]) == {3, 4}
    test = seat_advantage_test(frame)
    assert test["n"].tolist() == [500, 500]
