"""Win rates and the seat-advantage test on synthetic data with known answers."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tajsim.analysis.ratings import seat_rotation_check
from tajsim.analysis.registry import run_analyses
from tajsim.analysis.winrates import (
    lineup_labels,
    seat_advantage_test,
    table_lineups,
    win_rates,
    win_rates_by_player_count,
    win_rates_by_seat,
    win_rates_by_strategy,
)
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results


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


# ---------------------------------------------------------------------------------------------
# Line-ups: a seat effect planted next to a line-up effect that a seating plan ties to a seat
# ---------------------------------------------------------------------------------------------
BAL, GRE = "balanced", "greedy"
SEAT_EFFECT = np.array([0.4, 0.0, 0.0])
STRENGTH = {BAL: 1.0, GRE: 0.0}
LONE = 1.0  # a player with no twin at the table gets +1 utility: a line-up effect
MODEL = dict(n_players=3, strategies=(BAL, GRE), strategy_strength=STRENGTH,
             lone_strategy_effect=LONE)
MIRROR = [(BAL, BAL, BAL)]
#: what rotating the two names over three seats plays: seat 1 is always the lone strategy
TWO_NAME_ROTATION = [(BAL, GRE, BAL), (GRE, BAL, GRE)]
#: each line-up in all its seat rotations (the shipped experiment's field runs)
FULL_ROTATION = [(BAL, BAL, GRE), (BAL, GRE, BAL), (GRE, BAL, BAL),
                 (BAL, GRE, GRE), (GRE, BAL, GRE), (GRE, GRE, BAL)]


def seat_win_probability(lineups, seat_effect=SEAT_EFFECT, seat=0):
    """Exact mean win probability of ``seat`` over ``lineups`` played equally often (the winner
    is softmax of the utilities: the synthetic model)."""
    probs = []
    for seats in lineups:
        lone = np.array([seats.count(s) == 1 for s in seats], dtype=np.float64)
        u = seat_effect + np.array([STRENGTH[s] for s in seats]) + LONE * lone
        e = np.exp(u - u.max())
        probs.append(e[seat] / e.sum())
    return float(np.mean(probs))


def runs(seat_effect=SEAT_EFFECT, **designs):
    """One synthetic run per design (name -> (games, lineups, seed)), concatenated."""
    frames = [make_synthetic_results(games, lineups=lineups, seat_effect=seat_effect, seed=seed,
                                     **MODEL).assign(run_id=name)
              for name, (games, lineups, seed) in designs.items()]
    return pd.concat(frames, ignore_index=True)


def test_line_up_confound_is_flagged_and_the_seat_effect_comes_from_comparable_games():
    frame = runs(mirror=(6000, MIRROR, 21), field=(6000, TWO_NAME_ROTATION, 22))
    row = seat_advantage_test(frame).iloc[0]
    assert row["confounded"] and row["lineup_seat_balance_p"] < 1e-6
    assert row["support_share"] == pytest.approx(0.5)  # only the mirror rows are comparable
    assert row["n"] == 6000 and row["n_games"] == 12000
    truth = seat_win_probability(MIRROR) - 1 / 3  # +0.094
    assert row["ci_low"] < truth < row["ci_high"]
    assert row["ci_high"] - row["ci_low"] < 0.03
    assert row["best_seat"] == 0 and row["p_value"] < 1e-6
    # The raw pooled figure is what the old analysis reported: biased by the lone seat 1.
    assert row["raw_first_seat_excess_ci_high"] < truth - 0.03
    # Each strategy sits in each seat equally often, so the strategy x seat check misses it.
    rotation = seat_rotation_check(frame)
    assert (rotation["p_value"] > 0.5).all()
    assert rotation["confounded"].all() and (rotation["lineup_imbalance"] > 0.3).all()


def test_seat_effect_is_not_identified_when_every_line_up_is_tied_to_a_seat():
    frame = runs(field=(3000, TWO_NAME_ROTATION, 25))
    row = seat_advantage_test(frame).iloc[0]
    assert row["confounded"] and row["n"] == 0 and row["support_share"] == 0.0
    assert np.isnan(row["first_seat_excess"]) and np.isnan(row["p_value"])
    assert np.isfinite(row["raw_p_value"]) and row["raw_p_value"] < 1e-6  # spurious


def test_full_rotation_is_balanced_and_the_line_up_adjusted_estimate_covers_the_truth():
    frame = runs(mirror=(6000, MIRROR, 23), field=(6000, FULL_ROTATION, 24))
    row = seat_advantage_test(frame, confidence=0.99).iloc[0]
    assert not row["confounded"] and row["support_share"] == 1.0
    assert row["lineup_seat_balance_p"] == pytest.approx(1.0)  # 6000 games: exact balance
    assert row["n"] == 12000
    truth = (seat_win_probability(MIRROR) + seat_win_probability(FULL_ROTATION)) / 2 - 1 / 3
    assert row["ci_low"] < truth < row["ci_high"]
    assert row["first_seat_excess"] == pytest.approx(row["raw_first_seat_excess"])
    by_lineup = seat_advantage_test(frame, by=("n_players", "lineup"), confidence=0.99)
    assert by_lineup["lineup"].tolist() == ["1 balanced + 2 greedy", "2 balanced + 1 greedy",
                                            "3 balanced"]
    assert by_lineup["n"].tolist() == [3000, 3000, 6000] and not by_lineup["confounded"].any()
    for r, lineups in zip(by_lineup.itertuples(), (FULL_ROTATION[3:], FULL_ROTATION[:3], MIRROR)):
        truth = seat_win_probability(lineups) - 1 / 3
        assert r.ci_low < truth < r.ci_high, (r.lineup, r.first_seat_excess, truth)
    assert not seat_rotation_check(frame)["confounded"].any()


def test_line_up_adjusted_test_holds_its_level_with_unequal_strategies():
    # 200 null experiments of 120 games (each line-up in every rotation 20 times), no seat
    # effect but unequal strategies and a line-up effect.
    frame = runs(seat_effect=np.zeros(3), field=(24_000, FULL_ROTATION, 26))
    frame["replicate"] = frame["game_id"] // 120
    test = seat_advantage_test(frame, by=("replicate", "n_players"))
    assert len(test) == 200 and not test["confounded"].any()
    rate = float((test["p_value"] < 0.05).mean())
    assert 0.01 <= rate <= 0.10  # Binomial(200, 0.05): about 3 sd either side


def test_line_up_labels():
    frame = runs(field=(2, TWO_NAME_ROTATION, 27)).sort_values(["game_id", "seat"])
    assert lineup_labels(frame).tolist() == [
        "balanced | balanced, greedy", "greedy | balanced, balanced", "balanced | balanced, greedy",
        "greedy | balanced, greedy", "balanced | greedy, greedy", "greedy | balanced, greedy"]
    assert lineup_labels(frame, lineup="order").tolist()[:3] == [
        "balanced | greedy, balanced", "greedy | balanced, balanced",
        "balanced | balanced, greedy"]
    assert table_lineups(frame).tolist() == ["2 balanced + 1 greedy"] * 3 + [
        "1 balanced + 2 greedy"] * 3
    with pytest.raises(ValueError, match="lineup 'seats' is not one of opponents, order"):
        seat_advantage_test(frame, lineup="seats")


def test_seat_test_by_line_up_from_an_experiment_entry():
    frame = runs(mirror=(300, MIRROR, 28), field=(300, FULL_ROTATION, 29))
    out = run_analyses(frame, [{"name": "seat_advantage", "by": ["n_players", "lineup"],
                                "as": "by_lineup"},
                               {"name": "win_rates", "by": ["n_players", "lineup", "seat"]}])
    assert len(out["by_lineup"]) == 3 and len(out["win_rates"]) == 9
    assert {"n", "ci_low", "ci_high"} <= set(out["by_lineup"].columns)
