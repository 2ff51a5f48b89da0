"""Maharaja's analyses: each recovers an effect planted in synthetic data, and each runs on a
real batch of games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from maharaja_helpers import COMP, COMPONENTS

from tajsim.errors import UserError
from tajsim.games.maharaja.analyses import (
    ANALYSES,
    REQUIRED_COLUMNS,
    card_value,
    central_vs_outer,
    game_ends,
    governor_value,
    income_by_source,
    palace_tempo,
    penalties,
    road_value,
    village_value,
)
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.play.nb import play_batch_nb
from tajsim.games.maharaja.play.records import frame_columns, slug
from tajsim.games.maharaja.strategies.ids import kernel_switches
from tajsim.games.maharaja.strategies.registry import REGISTRY

RNG = np.random.default_rng(2024)


def synthetic(n_games=4000, n_players=4):
    rows = n_games * n_players
    frame = pd.DataFrame({
        "game_id": np.repeat(np.arange(n_games), n_players),
        "seat": np.tile(np.arange(n_players), n_games),
        "strategy": np.where(np.arange(rows) % 2 == 0, "a", "b"),
    })
    return frame


def inside(table, truth, low="ci_low", high="ci_high", mean=None):
    """The planted value lies within one interval width of the estimate (about 4 standard
    errors: a fixed-seed test that still fails when the analysis is wrong)."""
    width = table[high] - table[low]
    centre = table[mean] if mean else (table[low] + table[high]) / 2
    return (centre - truth).abs() <= width


def test_income_by_source_recovers_means():
    f = synthetic()
    a = f["strategy"] == "a"
    for s in ("city", "lone", "tolls_in", "gold_action", "trader", "penalties_in"):
        f[f"pts_{s}"] = RNG.poisson(np.where(a, 10, 4))
    f["pts_build_spent"] = -RNG.poisson(20, len(f))
    f["pts_tolls_out"] = -RNG.poisson(3, len(f))
    t = income_by_source(f)
    city = t[t["source"] == "city"].set_index("strategy")
    assert inside(city.loc[["a"]], 10).all() and inside(city.loc[["b"]], 4).all()
    assert city.loc["a", "ci_low"] > city.loc["b", "ci_high"]
    spent = t[t["source"] == "build_spent"]
    assert (spent["kind"] == "spending").all() and inside(spent, -20).all()
    assert (t["n"] == len(f) // 2).all()


def test_card_value_finds_the_strong_card():
    f = synthetic(6000)
    f["card_final"] = RNG.integers(0, 6, len(f))
    f["card_first"] = RNG.integers(0, 6, len(f))
    p = np.where(f["card_final"] == 5, 0.6, 0.2)
    f["winner"] = RNG.random(len(f)) < p
    f["gold"] = RNG.poisson(np.where(f["card_final"] == 1, 30, 15))
    t = card_value(f)
    final = t[t["held"] == "final"].set_index("card")
    assert inside(final.loc[["artisan"]], 0.6).all()
    assert final.loc["artisan", "ci_low"] > final.drop("artisan")["ci_high"].max()
    assert final.loc["trader", "gold_low"] > 25
    first = t[t["held"] == "first"]
    assert (first["ci_low"] < 0.33).all()  # no planted effect on the drafted card


def test_palace_tempo_and_first_palace_win_rate():
    f = synthetic()
    a = f["strategy"] == "a"
    f["palaces"] = RNG.integers(1, 8, len(f))
    f["first_palace_round"] = np.where(a, RNG.integers(1, 4, len(f)), RNG.integers(3, 6, len(f)))
    f["last_palace_round"] = f["first_palace_round"] + 3
    f["winner"] = RNG.random(len(f)) < np.where(f["first_palace_round"] == 1, 0.5, 0.2)
    t = palace_tempo(f)
    first = t[t["measure"] == "first_palace_round"].set_index("strategy")
    assert inside(first.loc[["a"]], 2.0).all() and inside(first.loc[["b"]], 4.0).all()
    by_round = t[t["measure"] == "win_rate_by_first_palace_round"].set_index(
        "first_palace_round")
    assert inside(by_round.loc[[1]], 0.5).all() and by_round.loc[1, "ci_low"] > 0.4


def test_game_ends_shares_and_rounds():
    f = synthetic(5000)
    cause = RNG.random(5000) < 0.3
    f["end_cause"] = pd.Categorical(np.repeat(np.where(cause, "seventh_palace", "round_10"), 4),
                                    categories=list(E.END_CAUSE_NAMES))
    f["n_rounds"] = np.repeat(np.where(cause, 7, 10), 4)
    t = game_ends(f).set_index("end_cause")
    assert t.loc["seventh_palace", "n"] == 5000
    assert inside(t.loc[["seventh_palace"]], 0.3).all()
    assert t.loc["seventh_palace", "rounds"] == 7 and t.loc["round_10", "rounds"] == 10
    assert t.loc["round_cap", "successes"] == 0


def test_penalties_by_cause():
    f = synthetic()
    a = f["strategy"] == "a"
    for s in E.ACT_SLUGS:
        f[f"missed_{s}"] = 0
    f["missed_palace"] = RNG.poisson(np.where(a, 1.5, 0.2))
    f["penalties"] = f["missed_palace"]
    t = penalties(f).set_index(["strategy", "action"])
    assert inside(t.loc[[("a", "palace")]], 1.5).all()
    assert t.loc[("a", "palace"), "ci_low"] > t.loc[("b", "palace"), "ci_high"]
    assert t.loc[("a", "governor"), "mean"] == 0


def test_central_palaces_and_governor():
    f = synthetic(6000)
    f["palaces_central"] = RNG.integers(0, 4, len(f))
    f["palaces_outer"] = RNG.integers(0, 4, len(f))
    f["chose_governor"] = RNG.integers(0, 4, len(f))
    p = 0.1 + 0.1 * f["palaces_central"] + np.where(f["chose_governor"] >= 2, 0.1, 0.0)
    f["winner"] = RNG.random(len(f)) < p
    t = central_vs_outer(f)
    rates = t[t["measure"] == "win_rate_by_central"].set_index("palaces_central")
    for k in range(4):
        truth = 0.1 + 0.1 * k + 0.05  # half the rows chose the governor twice or more
        assert abs(rates.loc[k, "rate"] - truth) < 0.05
    assert rates.loc[3, "ci_low"] > rates.loc[0, "ci_high"]
    g = governor_value(f).set_index("governor_choices")
    assert g.loc["2", "ci_low"] > g.loc["0", "ci_high"] - 0.03
    assert set(g.index) == {"0", "1", "2", "3+"}


def test_village_and_road_value():
    names = [slug(v) for v in COMPONENTS.village_names]
    f = synthetic(3000)
    lam = np.arange(len(names)) % 5
    for v, name in enumerate(names):
        tolls = RNG.poisson(lam[v] * 2, 3000)
        f[f"tolls_{name}"] = np.repeat(tolls, 4)
        f[f"houses_{name}"] = 2 if lam[v] > 0 else 0
    t = village_value(f).set_index("village")
    for v, name in enumerate(names):
        assert inside(t.loc[[name]], 2.0 * lam[v]).all() or lam[v] == 0
        if lam[v] > 0:
            assert abs(t.loc[name, "per_house"] - lam[v]) < 0.2
    assert (t["n"] == 3000).all()
    roads = road_value(f).set_index("road")
    meta = COMPONENTS.frame_meta()
    r0 = roads.loc["Delhi-Jaipur"]
    truth = sum(2.0 * lam[v] for v in meta["road_villages"][0] if v >= 0)
    assert r0["ci_low"] <= truth <= r0["ci_high"]


def test_missing_columns_are_one_line_errors():
    with pytest.raises(UserError, match="card_value needs the column 'card_final'"):
        card_value(pd.DataFrame({"winner": [True]}))
    with pytest.raises(UserError, match="tolls_<village>"):
        village_value(pd.DataFrame({"game_id": [0]}))
    assert set(ANALYSES) == set(REQUIRED_COLUMNS)


def real_frame(G=120, n=4):
    lineup = ["balanced", "hoarder", "random", "tollroad"]
    specs = [REGISTRY.parse(s) for s in lineup]
    ids = np.array([s.strategy_id for s, _ in specs], np.int64)
    gids = np.arange(G, dtype=np.int64)
    lineups = ((gids[:, None] + np.arange(n)[None, :]) % n).astype(np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    play_batch_nb(COMP, n, 0, 3, gids, gids, lineups, ids, np.stack([v for _, v in specs]),
                  res, setups, *kernel_switches(ids))
    frame = pd.DataFrame({name: res[name] for name in res.dtype.names})
    frame["strategy"] = np.array(lineup)[lineups.reshape(-1)]
    for key, col in frame_columns(COMPONENTS.frame_meta(), res, setups).items():
        frame[key] = col
    return frame


def test_every_analysis_runs_on_real_games():
    frame = real_frame()
    for name, fn in ANALYSES.items():
        table = fn(frame)
        assert len(table) and "n" in table.columns, name
        assert {"ci_low", "ci_high"} <= set(table.columns) or name == "village_value", name
    ends = game_ends(frame)
    assert ends["successes"].sum() == 120
    income = income_by_source(frame)
    tolls = income[income["source"] == "tolls_in"].set_index("strategy")
    assert tolls.loc["tollroad", "mean"] > tolls.loc["random", "mean"]


def test_toll_heatmap_draws():
    from tajsim.games.maharaja.report.board_plot import toll_heatmap

    fig = toll_heatmap(real_frame(40))
    assert fig.axes
