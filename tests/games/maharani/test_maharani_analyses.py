"""The Maharani analyses recover effects planted in synthetic data, and run on real games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from maharani_helpers import MCOMP, MCOMPONENTS

from tajsim.analysis.registry import missing_columns
from tajsim.analysis.stats import within_group_ols
from tajsim.games.maharani.analyses import (
    ANALYSES,
    colour_zone_value,
    gold_by_source,
    marker_and_refresh_cost,
    quarter_artisans,
    quarter_completion,
    second_tile_value,
    space_gold,
)
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.play.nb import play_batch_nb
from tajsim.games.maharani.play.records import frame_columns
from tajsim.games.maharani.strategies.registry import REGISTRY

TRUE = {"second": 3.0, "marker": -1.5, "refresh": -4.0, "complete": 5.0, "c2": 2.0}


def synthetic(G: int = 3000, n: int = 3, seed: int = 0) -> pd.DataFrame:
    """Games with known effects: score = game effect + 3 per second tile - 1.5 per marker turn
    - 4 per refresh + 5 for each quarter completed + 2 per gold of colour-2 zones + noise."""
    rng = np.random.default_rng(seed)
    rows = G * n
    game = np.arange(G).repeat(n)
    seat = np.tile(np.arange(n), G)
    strategy = np.where(rng.random(rows) < 0.5, "a", "b")
    second = rng.poisson(8, rows)
    marker = rng.poisson(6, rows)
    refresh = rng.poisson(1.5, rows)
    zones_c = rng.poisson(5, (rows, 6))
    completer = rng.integers(0, n, (G, 4))
    completed = np.stack([seat == completer[game, q] for q in range(4)], axis=1)
    artisans = rng.integers(0, 5, (rows, 4))
    score = (40 + rng.normal(0, 5, G)[game] + TRUE["second"] * second
             + TRUE["marker"] * marker + TRUE["refresh"] * refresh
             + TRUE["complete"] * completed.sum(axis=1) + TRUE["c2"] * zones_c[:, 1]
             + rng.normal(0, 4, rows) + 5 * (strategy == "b"))
    best = pd.Series(score).groupby(game).transform("max").to_numpy()
    frame = pd.DataFrame({"game_id": game, "seat": seat, "strategy": strategy,
                          "score": score, "winner": score == best,
                          "second_tiles": second, "marker_turns": marker,
                          "refresh_turns": refresh})
    frame["pts_zones"] = 30 + 5 * (strategy == "b") + rng.normal(0, 3, rows)
    frame["pts_groups"] = 8 + rng.normal(0, 1, rows)
    frame["pts_quarters"] = 25 + rng.normal(0, 2, rows)
    frame["pts_second"] = -2 * second
    for q in range(4):
        frame[f"artisans_q{q + 1}"] = artisans[:, q]
        frame[f"gold_q{q + 1}"] = np.array(E.QUARTER_GOLD)[artisans[:, q]]
        frame[f"completed_q{q + 1}"] = completed[:, q]
    for k in range(6):
        frame[f"zones_c{k + 1}"] = zones_c[:, k]
    return frame


@pytest.fixture(scope="module")
def frame():
    return synthetic()




def test_gold_by_source_recovers_planted_means(frame):
    t = gold_by_source(frame).set_index(["strategy", "source"])
    for strat, true in (("a", 30.0), ("b", 35.0)):
        row = t.loc[(strat, "zones")]
        assert row["low"] < true < row["high"] and row["n"] > 1000
    assert abs(t.loc[("a", "second"), "mean"] + 16) < 0.5


def test_second_tile_value_recovers_the_planted_effect(frame):
    t = second_tile_value(frame).set_index("outcome")
    assert t.loc["score", "low"] < TRUE["second"] < t.loc["score", "high"]
    assert t.loc["win", "low"] > 0  # more gold, more wins
    assert t.loc["score", "n_games"] == 3000


def test_marker_and_refresh_costs_recovered(frame):
    t = marker_and_refresh_cost(frame)
    score = t[t["outcome"] == "score"].set_index("term")
    assert score.loc["marker_turns", "low"] < TRUE["marker"] < score.loc["marker_turns", "high"]
    assert score.loc["refresh_turns", "low"] < TRUE["refresh"] < score.loc["refresh_turns",
                                                                            "high"]


def test_within_game_ols_drops_game_constant_terms(frame):
    f = frame.assign(const=1.0)
    t = within_group_ols(f, "score", ["const"])
    assert np.isnan(t.loc[0, "coef"])


def test_quarter_artisans_table_and_majorities(frame):
    t = quarter_artisans(frame)
    counts = t[t["kind"] == "artisans"]
    assert np.allclose(counts["mean_gold"], counts["table_gold"])
    top = t[(t["kind"] == "most artisans")].set_index(["quarter", "level"])
    assert all(top.loc[(q, "top"), "n"] > 0 for q in range(1, 5))


def test_quarter_completion_recovers_the_payoff(frame):
    t = quarter_completion(frame)
    payoff = t[t["kind"] == "payoff: score minus others"]
    # completing one quarter adds 5; the completer's other terms are like the others'
    assert all(r.low < TRUE["complete"] < r.high for r in payoff.itertuples())
    rate = t[(t["kind"] == "rate")]
    assert np.allclose(rate["estimate"], 1 / 3, atol=0.03)
    win = t[t["kind"] == "payoff: win share"]
    assert all(r.low > r.parity for r in win.itertuples())


def test_colour_zone_value_finds_the_valuable_colour(frame):
    t = colour_zone_value(frame, {"colour_names": ["w", "x", "y", "z", "u", "v"]})
    t = t.set_index("colour")
    assert t.loc["x", "win_low"] > 0
    others = t.drop(index="x")
    assert (others["win_per_gold"].abs() < t.loc["x", "win_per_gold"] / 3).all()


def test_analyses_run_on_real_games():
    n, G = 3, 150
    names = ["balanced", "greedy", "thrifty"]
    parsed = [REGISTRY.parse(x) for x in names]
    ids = np.arange(G, dtype=np.int64)
    lineups = np.array([[(g + p) % 3 for p in range(n)] for g in range(G)], np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    lineup_ids = np.array([s.strategy_id for s, _ in parsed], np.int64)
    play_batch_nb(MCOMP, n, 0, 3, ids, ids, lineups, lineup_ids,
                  np.stack([p for _, p in parsed]), res, setups, None, True)
    frame = pd.DataFrame({name: res[name] for name in res.dtype.names})
    frame["strategy"] = pd.Categorical.from_codes(lineups.reshape(-1), categories=names)
    for key, value in frame_columns(MCOMPONENTS.frame_meta(), res, setups).items():
        frame[key] = value
    for name, fn in ANALYSES.items():
        assert missing_columns(frame, name, "maharani") == [], name
        out = fn(frame)
        assert len(out) > 0 and "n" in out.columns, name
    t = gold_by_source(frame)
    assert set(t["strategy"]) == set(names)


def test_space_gold_is_one_value_per_game_and_space():
    rows = []
    for g in range(3):
        for seat in range(2):
            rows.append({"game_id": g, "seat": seat, "space_gold_00": g,
                         "space_gold_01": 2 * g + 1})
    t = space_gold(pd.DataFrame(rows), {"space_ids": ["L01", "L02"], "space_quarter": [0, 0],
                                        "quarter_names": ["Lion"]})
    assert t["space"].tolist() == ["L01", "L02"] and t["quarter"].tolist() == ["Lion", "Lion"]
    assert t["n"].tolist() == [3, 3]  # games, not rows
    assert t["mean_gold"].tolist() == [1.0, 3.0]
    assert (t["low"] < t["mean_gold"]).all() and (t["mean_gold"] < t["high"]).all()


def test_colour_zone_value_orders_the_colours_by_a_tested_order(frame):
    """The colours' zone gold is ordered by pairwise tests clustered by game (Holm), not read
    off whether two intervals overlap: equal colours share one tier, a colour given one more
    gold a seat is alone in the first."""
    names = {"colour_names": ["w", "x", "y", "z", "u", "v"]}
    equal = colour_zone_value(frame, names)
    assert equal.attrs["order"].tiers == (tuple(sorted(names["colour_names"])),)
    assert (equal["tier"] == 1).all() and len(equal.attrs["order"].pairwise) == 15
    richer = frame.assign(zones_c3=frame["zones_c3"] + 1)
    t = colour_zone_value(richer, names).set_index("colour")
    assert t.loc["y", "tier"] == 1 and (t.drop(index="y")["tier"] == 2).all()
    # separated from every other colour, each pair after Holm
    pw = colour_zone_value(richer, names).attrs["order"].pairwise
    assert pw[pw["a"] == "y"]["p_holm"].max() < 1e-6
