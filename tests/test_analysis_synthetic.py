"""The synthetic generator follows docs/results-schema.md and its invariants."""

from __future__ import annotations

import numpy as np
import pytest

from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results, seat_win_probabilities
from tajsim.games.tajmahal.engine.enums import GOOD_NAMES, PART_NAMES, RESULT_DTYPE

SCHEMA_DTYPES = {
    "game_id": "int64", "seed": "int64", "n_players": "int8", "seat": "int8", "score": "int16",
    "rank": "int8", "winner": "bool", "setup_id": "int64", "n_turns": "int16",
    "n_reshuffles": "int8", "n_protests": "int8",
}


def test_columns_and_dtypes_follow_the_schema():
    frame, truth = make_synthetic_results(300, n_setups=30, tie_probability=0.1, seed=1,
                                          return_truth=True)
    for name in RESULT_DTYPE.names:
        if name != "strategy_id":
            assert name in frame.columns
    for col, dtype in SCHEMA_DTYPES.items():
        assert str(frame[col].dtype) == dtype, col
    assert str(frame["edition"].dtype) == "category"
    assert str(frame["strategy"].dtype) == "category"
    visit_cols = [c for c in frame.columns if c.startswith("visit_")]
    assert len(visit_cols) == 12
    assert all(str(frame[c].dtype) == "category" for c in frame if c.startswith("bonus_"))
    for k in range(1, 13):
        assert str(frame[f"tile_won_v{k}"].dtype) == "bool"
        assert str(frame[f"chain_v{k}"].dtype) == "int8"
    assert truth.setup_seat_utility.shape == (30, 4)
    np.testing.assert_allclose(seat_win_probabilities(truth).sum(axis=1), 1.0)


def test_invariants_hold():
    frame = make_synthetic_results(400, n_setups=40, tie_probability=0.1, seed=2)
    parts = frame[[f"pts_{p}" for p in PART_NAMES]].sum(axis=1)
    assert (parts == frame["score"]).all()
    chains = frame[[f"chain_v{k}" for k in range(1, 13)]].sum(axis=1)
    assert (chains == frame["pts_palace"] + frame["pts_connection"]).all()
    goods = frame[[f"goods_{g}" for g in GOOD_NAMES]].to_numpy()
    assert (frame["pts_commodity"] == (goods * (goods + 1) // 2).sum(axis=1)).all()
    assert (frame["winner"] == (frame["rank"] == 1)).all()
    per_game = frame.groupby("game_id")
    assert (per_game["winner"].sum() >= 1).all()
    assert (per_game["winner"].sum() == 2).any()  # planted ties
    best = per_game["score"].transform("max")
    assert (frame.loc[frame["winner"], "score"] == best[frame["winner"]]).all()
    tiles = frame.groupby("game_id")[[f"tile_won_v{k}" for k in range(1, 13)]].sum()
    assert (tiles.to_numpy() <= 1).all()
    visits = frame[[c for c in frame.columns if c.startswith("visit_")]].to_numpy()
    assert (np.sort(visits, axis=1) == np.arange(1, 13)).all()
    assert frame.groupby("setup_id")["visit_agra"].nunique().max() == 1
    seats = frame["seat"].to_numpy().reshape(-1, 4)
    assert (np.sort(seats, axis=1) == np.arange(4)).all()


def test_same_seed_same_frame():
    a = make_synthetic_results(100, seed=5)
    b = make_synthetic_results(100, seed=5)
    assert a.equals(b)


def test_explicit_lineups_are_cycled_and_the_lone_strategy_effect_is_planted():
    frame, truth = make_synthetic_results(
        4000, n_players=3, strategies=("a", "b"), lineups=[("a", "a", "b"), ("b", "a", "a")],
        lone_strategy_effect=1.0, seed=6, return_truth=True)
    assert truth.lone_strategy_effect == 1.0
    seats = frame["strategy"].astype(str).to_numpy().reshape(-1, 3)
    assert (seats[0::2] == ["a", "a", "b"]).all() and (seats[1::2] == ["b", "a", "a"]).all()
    lone = frame[frame["strategy"] == "b"]
    rate = lone["winner"].mean()  # P(lone b wins) = e / (e + 2) = 0.576; Wilson sd ~ 0.008
    assert abs(rate - np.e / (np.e + 2)) < 0.03
    twins = make_synthetic_results(4000, n_players=3, strategies=("a", "b"),
                                   lineups=[("a", "a", "b")], seed=6)
    assert twins.loc[twins["strategy"] == "b", "winner"].mean() < 0.4  # no effect: 1/3


def test_bad_lineups_are_rejected():
    with pytest.raises(ValueError, match="lineups name c, not in strategies"):
        make_synthetic_results(10, n_players=3, strategies=("a", "b"), lineups=[("a", "b", "c")])
    with pytest.raises(ValueError, match="lineups need 3 strategy names each"):
        make_synthetic_results(10, n_players=3, strategies=("a", "b"), lineups=[("a", "b")])
