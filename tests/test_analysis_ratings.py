"""Strategy comparison: the planted strength order is recovered by every method."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.special import expit

from tajsim.analysis.ratings import (
    bradley_terry,
    head_to_head,
    head_to_head_matrix,
    openskill_ratings,
    seat_rotation_check,
)
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results

STRENGTH = {"a": 0.6, "b": 0.3, "c": 0.0, "d": -0.3, "e": -0.6}
ORDER = ["a", "b", "c", "d", "e"]


@pytest.fixture(scope="module")
def tournament():
    # Five strategies, four seats: every game seats four of them in a random order.
    return make_synthetic_results(3000, strategies=ORDER, strategy_strength=STRENGTH,
                                  tie_probability=0.02, seed=51)


def test_bradley_terry_recovers_order_and_strengths(tournament):
    table = bradley_terry(tournament, confidence=0.99)
    assert table["strategy"].tolist() == ORDER
    assert table["rank"].tolist() == [1, 2, 3, 4, 5]
    # Plackett-Luce finishing orders: P(A above B) = expit(theta_A - theta_B) exactly, so the
    # centred strengths are the planted ones.
    for row in table.itertuples():
        assert row.ci_low < STRENGTH[row.strategy] < row.ci_high, row
    assert table["strength"].sum() == pytest.approx(0.0, abs=1e-9)
    assert (table["n"] > 0).all() and (table["n_games"] > 0).all()


def test_openskill_recovers_order(tournament):
    table = openskill_ratings(tournament)
    assert table["strategy"].tolist() == ORDER
    assert (table["ci_low"] < table["mu"]).all() and (table["mu"] < table["ci_high"]).all()
    assert table["n"].sum() == len(tournament)
    # Neighbours a > e are far apart: intervals do not overlap.
    assert table.iloc[0]["ci_low"] > table.iloc[-1]["ci_high"]


def test_head_to_head_matches_planted_pairwise_probabilities(tournament):
    table = head_to_head(tournament, confidence=0.99)
    assert len(table) == 20  # ordered pairs of 5 strategies
    indexed = table.set_index(["strategy_a", "strategy_b"])
    for a in ORDER:
        for b in ORDER:
            if a == b:
                continue
            row = indexed.loc[(a, b)]
            truth = expit(STRENGTH[a] - STRENGTH[b])
            assert row["ci_low"] < truth < row["ci_high"], (a, b, row["a_above_b"], truth)
            assert row["a_above_b"] + indexed.loc[(b, a), "a_above_b"] == pytest.approx(1.0)
    matrix = head_to_head_matrix(table)
    assert matrix.shape == (5, 5)
    assert np.isnan(np.diag(matrix.to_numpy())).all()


def test_duplicate_strategies_in_a_game_are_handled():
    frame = make_synthetic_results(1500, strategies=("strong", "weak"),
                                   strategy_strength={"strong": 0.4}, seed=52)
    assert frame.groupby("game_id")["strategy"].nunique().min() == 1  # some mirror games
    assert openskill_ratings(frame)["strategy"].tolist() == ["strong", "weak"]
    bt = bradley_terry(frame)
    assert bt["strategy"].tolist() == ["strong", "weak"]
    assert bt.iloc[0]["ci_low"] < 0.2 < bt.iloc[0]["ci_high"]  # centred: +-0.2
    h2h = head_to_head(frame).set_index(["strategy_a", "strategy_b"])
    assert h2h.loc[("strong", "weak"), "ci_low"] < expit(0.4) < h2h.loc[
        ("strong", "weak"), "ci_high"]


def test_seat_rotation_check(tournament):
    table = seat_rotation_check(tournament)
    assert set(table["strategy"]) == set(ORDER)
    assert (table["p_value"] > 0.01).all()  # rotated seats: every strategy's seats balanced
    seats = [c for c in table.columns if c.startswith("seat")]
    assert (table[seats].sum(axis=1) == table["n"]).all()


def test_bradley_terry_leaves_a_strategy_that_always_loses_out_of_the_fit():
    rng = np.random.default_rng(3)
    rows = []
    for g in range(300):
        # strong beats weak about 70% of the time; "hopeless" always finishes last
        strong_first = rng.random() < 0.7
        order = ["strong", "weak"] if strong_first else ["weak", "strong"]
        for rank, name in enumerate([*order, "hopeless"], start=1):
            rows.append({"game_id": g, "n_players": 3, "seat": rank - 1, "strategy": name,
                         "score": 10 - rank, "rank": rank, "winner": rank == 1})
    table = bradley_terry(pd.DataFrame(rows)).set_index("strategy")
    assert table.loc["hopeless", "separated"] == "below all"
    assert table.loc["hopeless", "strength"] == -np.inf
    assert np.isnan(table.loc["hopeless", "ci_low"])
    # the others are fitted on their own games: logit(0.7) / 2 around 0, not run away
    assert abs(table.loc["strong", "strength"] - np.log(0.7 / 0.3) / 2) < 0.15
    assert table.loc["strong", "ci_low"] < table.loc["strong", "strength"]
    assert list(table["rank"]) == [1, 2, 3]
