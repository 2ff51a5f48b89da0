"""Maharaja's analyses: each recovers an effect planted in synthetic data, and each runs on a
real batch of games."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from maharaja_helpers import COMP, COMPONENTS

from tajsim.analysis.stats import mean_ci
from tajsim.errors import UserError
from tajsim.games.maharaja.analyses import (
    ANALYSES,
    CONCLUSIONS,
    REQUIRED_COLUMNS,
    card_value,
    central_vs_outer,
    clustered_mean,
    game_ends,
    game_length,
    governor_value,
    income_by_source,
    order_balance,
    palace_tempo,
    penalties,
    road_value,
    seat_cards,
    village_value,
)
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.play.nb import play_batch_nb
from tajsim.games.maharaja.play.records import frame_columns, slug
from tajsim.games.maharaja.report.board_plot import toll_heatmap
from tajsim.games.maharaja.strategies.ids import kernel_switches
from tajsim.games.maharaja.strategies.registry import REGISTRY

RNG = np.random.default_rng(2024)


def synthetic(n_games=4000, n_players=4):
    rows = n_games * n_players
    frame = pd.DataFrame({
        "game_id": np.repeat(np.arange(n_games), n_players),
        "n_players": n_players,
        "seat": np.tile(np.arange(n_players), n_games),
        "strategy": np.where(np.arange(rows) % 2 == 0, "a", "b"),
    })
    return frame


def one_winner(frame, weight):
    """A ``winner`` column: one winner per game, drawn with probability proportional to
    ``weight`` among the game's players."""
    n = int(frame["n_players"].iloc[0])
    w = np.asarray(weight, float).reshape(-1, n)
    cum = np.cumsum(w / w.sum(axis=1, keepdims=True), axis=1)
    pick = (RNG.random((w.shape[0], 1)) > cum).sum(axis=1)
    won = np.zeros_like(w, dtype=bool)
    won[np.arange(w.shape[0]), np.minimum(pick, n - 1)] = True
    return won.reshape(-1)


def inside(table, truth, low="ci_low", high="ci_high", mean=None):
    """The planted value lies within one interval width of the estimate (about 4 standard
    errors: a fixed-seed test that still fails when the analysis is wrong)."""
    width = table[high] - table[low]
    centre = table[mean] if mean else (table[low] + table[high]) / 2
    return (centre - truth).abs() <= width


def covers(row, truth, low="ci_low", high="ci_high"):
    """As :func:`inside`, for one row: the truth within one interval width of its centre."""
    return abs((row[low] + row[high]) / 2 - truth) <= row[high] - row[low]


def test_clustered_mean_is_the_t_interval_with_one_value_per_game_and_wider_with_copies():
    y = RNG.normal(3.0, 2.0, 500)
    one = clustered_mean(y, np.arange(500))
    mean, low, high, n, sd = mean_ci(y)
    assert one["n"] == one["n_games"] == n == 500
    assert np.allclose([one["mean"], one["ci_low"], one["ci_high"]], [mean, low, high])
    # the same game's value counted twice: twice the rows, not a narrower interval
    twice = clustered_mean(np.repeat(y, 2), np.repeat(np.arange(500), 2))
    assert twice["n"] == 1000 and twice["n_games"] == 500
    assert np.isclose(twice["ci_high"] - twice["ci_low"], high - low, rtol=0.01)


def test_income_by_source_recovers_means():
    f = synthetic()
    a = f["strategy"] == "a"
    for s in ("city", "lone", "tolls_in", "gold_action", "trader", "penalties_in"):
        f[f"pts_{s}"] = RNG.poisson(np.where(a, 10, 4))
    f["pts_build_spent"] = -RNG.poisson(20, len(f))
    f["pts_tolls_out"] = -RNG.poisson(3, len(f))
    f["gold"] = RNG.poisson(15, len(f))
    t = income_by_source(f)
    city = t[t["source"] == "city"].set_index("strategy")
    assert inside(city.loc[["a"]], 10).all() and inside(city.loc[["b"]], 4).all()
    assert city.loc["a", "ci_low"] > city.loc["b", "ci_high"]
    assert abs(city.loc["a", "share"] - 1 / 6) < 0.01
    spent = t[t["source"] == "build_spent"]
    assert (spent["kind"] == "spending").all() and inside(spent, -20).all()
    assert spent["share"].isna().all()
    assert inside(t[t["kind"] == "final"], 15).all()
    assert (t["n"] == len(f) // 2).all() and (t["n_games"] == 4000).all()


def test_card_value_finds_the_strong_card():
    f = synthetic(6000)
    f["card_final"] = np.concatenate([RNG.permutation(6)[:4] for _ in range(6000)])
    f["card_first"] = np.concatenate([RNG.permutation(6)[:4] for _ in range(6000)])
    f["winner"] = one_winner(f, np.where(f["card_final"] == 5, 4.0, 1.0))
    f["gold"] = RNG.poisson(np.where(f["card_final"] == 1, 30, 15))
    t = card_value(f)
    final = t[t["held"] == "final"].set_index("card")
    # artisan against three others of weight 1 when it is held: 4 / 7 of those games
    assert inside(final.loc[["artisan"]], 4 / 7).all()
    assert final.loc["artisan", "ci_low"] > final.drop("artisan")["ci_high"].max()
    assert final.loc["trader", "gold_low"] > 25
    assert (final["baseline"] == 0.25).all()
    first = t[t["held"] == "first"]
    assert inside(first, 0.25).all()  # no planted effect on the drafted card: a quarter
    assert final["wins"].sum() == 6000


def test_palace_tempo_curve_and_first_palace_win_rate():
    f = synthetic()
    a = f["strategy"] == "a"
    # "a" builds its k-th palace in round k, "b" in round k + 2 (from its first on)
    first = np.where(a, 1, 3)
    for k in range(1, 8):
        f[f"palace_round_{k}"] = np.where(k <= 5, first + k - 1, 0)
    f["palaces"] = 5
    f["first_palace_round"] = f["palace_round_1"]
    f["last_palace_round"] = f["palace_round_5"]
    f["n_rounds"] = 9
    f["winner"] = one_winner(f, np.where(a, 3.0, 1.0))
    t = palace_tempo(f)
    curve = t[t["measure"] == "palaces_by_round"].set_index(["strategy", "round"])
    assert curve.loc[("a", 3), "mean"] == 3 and curve.loc[("b", 3), "mean"] == 1
    assert curve.loc[("a", 9), "mean"] == 5 and curve.loc[("b", 6), "mean"] == 4
    first_round = t[t["measure"] == "first_palace_round"].set_index("strategy")
    assert first_round.loc["a", "mean"] == 1 and first_round.loc["b", "mean"] == 3
    by_round = t[t["measure"] == "win_rate_by_first_palace_round"].set_index("round")
    assert inside(by_round.loc[[1]], 3 / 8, mean="mean").all()
    assert by_round.loc[1, "ci_low"] > by_round.loc[3, "ci_high"]


def test_game_ends_shares_and_rounds_with_names_or_codes():
    f = synthetic(5000)
    cause = RNG.random(5000) < 0.3
    names = np.where(cause, "seventh_palace", "round_10")
    f["n_rounds"] = np.repeat(np.where(cause, 7, 10), 4)
    for values in (pd.Categorical(np.repeat(names, 4), categories=list(E.END_CAUSE_NAMES)),
                   np.repeat(np.where(cause, E.END_PALACES, E.END_TRACK), 4).astype(np.int8)):
        t = game_ends(f.assign(end_cause=values)).set_index("end_cause")
        assert t.loc["seventh_palace", "n"] == 5000
        assert inside(t.loc[["seventh_palace"]], 0.3).all()
        assert t.loc["seventh_palace", "rounds"] == 7 and t.loc["round_10", "rounds"] == 10
        assert t.loc["round_cap", "successes"] == 0
    length = game_length(f.assign(end_cause=values)).set_index(["n_rounds", "end_cause"])
    assert length.loc[(7, "any"), "successes"] == cause.sum()
    assert inside(length.loc[[(10, "round_10")]], 0.7, mean="rate").all()
    assert (7, "round_10") not in length.index  # no game ended so


def test_games_of_several_runs_are_not_merged():
    """Two runs with the same game ids are different games (the generic game key)."""
    f = synthetic(100)
    f["end_cause"], f["n_rounds"] = E.END_PALACES, 8
    both = pd.concat([f.assign(run_id="x"), f.assign(run_id="y", end_cause=E.END_TRACK,
                                                      n_rounds=10)], ignore_index=True)
    t = game_ends(both).set_index("end_cause")
    assert t.loc["seventh_palace", "n"] == 200
    assert t.loc["seventh_palace", "successes"] == 100 == t.loc["round_10", "successes"]


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
    # share of player-games with at least one: 1 - exp(-1.5)
    assert covers(t.loc[("a", "all")], 1 - np.exp(-1.5), "any_low", "any_high")


def test_central_palaces_within_games():
    f = synthetic(6000)
    f["palaces"] = RNG.integers(3, 7, len(f))
    f["palaces_central"] = RNG.binomial(f["palaces"], 0.4)
    f["palaces_outer"] = f["palaces"] - f["palaces_central"]
    # a central palace is worth 2 gold more than an outer one; wins follow palaces only
    f["gold"] = 10 + 2 * f["palaces_central"] + RNG.normal(0, 3, len(f))
    f["winner"] = one_winner(f, np.exp(f["palaces"]))
    t = central_vs_outer(f)
    within = t[t["measure"] == "within_game"].set_index("outcome")
    assert covers(within.loc["gold"], 2.0)
    assert covers(within.loc["win"], 0.0)
    rates = t[t["measure"] == "win_rate_by_central"].set_index("level")
    assert rates.loc[0, "estimate"] < rates.loc[3, "estimate"]  # more palaces, more central
    means = t[t["measure"] == "central"].set_index("strategy")
    assert inside(means.loc[["a"]], 0.4 * 4.5, mean="estimate").all()


def test_governor_value_separates_the_strategy_from_the_action():
    f = synthetic(6000)
    a = (f["strategy"] == "a").to_numpy()
    # "a" wins more and moves governors more, but the action itself is worth nothing...
    f["chose_governor"] = RNG.poisson(np.where(a, 2.0, 0.5))
    f["gold"] = 12 + RNG.normal(0, 3, len(f))
    f["winner"] = one_winner(f, np.where(a, 3.0, 1.0))
    t = governor_value(f)
    rates = t[t["measure"] == "win_rate"].set_index("level")
    assert set(rates.index) == {"0", "1", "2", "3+"}
    assert rates.loc["3+", "ci_low"] > rates.loc["0", "ci_high"]  # the raw association
    within = t[t["measure"] == "within_game"].set_index("outcome")
    assert covers(within.loc["win"], 0.0) and covers(within.loc["gold"], 0.0)
    # ... and when it is worth 1.5 gold a choice, within-game comparison finds that
    f["gold"] = f["gold"] + 1.5 * f["chose_governor"]
    within = governor_value(f).query("measure == 'within_game'").set_index("outcome")
    assert covers(within.loc["gold"], 1.5)


def test_order_balance_finds_the_seat_a_first_city_favours_and_knows_an_exhaustive_run():
    f = synthetic(E.N_ORDERS)
    order = np.repeat(np.arange(E.N_ORDERS), 4)
    cities = ["agra", "delhi", "jaipur", "jodhpur", "lucknow", "udaipur", "varanasi"]
    f["order_index"] = order
    f["first_city"] = pd.Categorical(np.array(cities)[order // 720], categories=cities)
    seat0_wins = (f["first_city"] == "agra").to_numpy() & (f["seat"] == 0).to_numpy()
    weight = np.where(seat0_wins, 6.0, 1.0)  # seat 0 wins 2/3 of the Agra-first orders
    f["winner"] = one_winner(f, weight)
    t = order_balance(f).set_index(["first_city", "seat"])
    assert t["exhaustive"].all() and (t.loc["all", "n_orders"] == E.N_ORDERS).all()
    assert inside(t.loc[[("agra", 0)]], 2 / 3, mean="win_rate").all()
    assert t.loc[("agra", 0), "ci_low"] > t.loc[("delhi", 0), "ci_high"]
    assert inside(t.loc[[("delhi", 0)]], 0.25, mean="win_rate").all()
    assert (t.loc["all", "n"] == E.N_ORDERS).all()
    half = order_balance(f[f["order_index"] < 2520])  # half the orders: a sample, not all
    assert not half["exhaustive"].any()


def test_village_and_road_value():
    names = [slug(v) for v in COMPONENTS.village_names]
    f = synthetic(3000)
    lam = np.arange(len(names)) % 5
    for v, name in enumerate(names):
        tolls = RNG.poisson(lam[v] * 2, 3000)
        f[f"tolls_{name}"] = np.repeat(tolls, 4)
        f[f"houses_{name}"] = 2 if lam[v] > 0 else 0
    meta = COMPONENTS.frame_meta()
    t = village_value(f, meta=meta).set_index("village")
    for v, name in enumerate(names):
        assert inside(t.loc[[name]], 2.0 * lam[v]).all() or lam[v] == 0
        if lam[v] > 0:
            assert covers(t.loc[name], lam[v], "per_house_low", "per_house_high")
            assert t.loc[name, "held"] == 1
        else:
            assert np.isnan(t.loc[name, "per_house"]) and t.loc[name, "held"] == 0
    assert (t["n"] == 3000).all()
    assert t.loc[slug(COMPONENTS.village_names[0]), "road"] == "Delhi-Jaipur"
    roads = road_value(f).set_index("road")
    r0 = roads.loc["Delhi-Jaipur"]
    truth = sum(2.0 * lam[v] for v in meta["road_villages"][0] if v >= 0)
    assert r0["ci_low"] <= truth <= r0["ci_high"]


def test_seat_cards_tells_the_card_apart_from_the_seat():
    """A strong card that seat 0 holds more often: the raw seat rates differ, the card-adjusted
    ones much less; a planted seat effect stays after adjusting."""
    n_games = 8000
    f = synthetic(n_games)
    # seat 0 holds the Artisan (5) in about half its games, the others about a sixth
    cards = []
    for _ in range(n_games):
        first = 5 if RNG.random() < 0.5 else int(RNG.integers(0, 5))
        cards += [first, *RNG.permutation([c for c in range(6) if c != first])[:3]]
    f["card_final"] = cards
    f["card_first"] = f["card_final"]
    f["winner"] = one_winner(f, np.where(f["card_final"] == 5, 4.0, 1.0))
    t = seat_cards(f, held=("final",)).set_index(["measure", "seat", "card"])
    raw = t.loc["win_rate"].xs("all", level="card")
    adjusted = t.loc["card_adjusted"].droplevel("card")
    assert raw.loc[0, "ci_low"] > raw.loc[1:, "ci_high"].max()  # the card's fortune
    # ... mostly gone: what is left is the opponents' cards (seat 0's rivals hold the strong
    # card less often than seat 1's, whatever card seat 0 holds)
    spread = raw["estimate"].max() - raw["estimate"].min()
    left = adjusted["estimate"].max() - adjusted["estimate"].min()
    assert spread > 0.12 and left < spread / 4
    assert np.allclose(adjusted["coverage"], 1) and (adjusted["n"] == n_games).all()
    share = t.loc["share"]
    assert covers(share.loc[(0, "artisan")], 0.5)
    assert covers(share.loc[(1, "artisan")], 0.5 / 5)  # the Artisan left in half the games
    assert share.groupby(level="seat")["count"].sum().eq(n_games).all()
    # a seat effect with no card effect: seat 0 wins twice as often within every card
    f["winner"] = one_winner(f, np.where(f["seat"] == 0, 2.0, 1.0))
    t = seat_cards(f, held=("final",))
    adjusted = t[t["measure"] == "card_adjusted"].set_index("seat")
    assert covers(adjusted.loc[0], 0.4) and adjusted.loc[0, "ci_low"] > 0.3
    within = t[(t["measure"] == "win_rate") & (t["seat"] == 0) & (t["card"] != "all")]
    assert (within["ci_low"] > 0.25).all()
    with pytest.raises(UserError, match="held='last'"):
        seat_cards(f, held=("last",))


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
    frame["n_players"] = n
    for key, col in frame_columns(COMPONENTS.frame_meta(), res, setups).items():
        frame[key] = col
    return frame


def test_every_analysis_runs_on_real_games():
    frame = real_frame()
    for name, fn in ANALYSES.items():
        table = fn(frame)
        assert len(table) and "n" in table.columns, name
        assert {"ci_low", "ci_high"} <= set(table.columns), name
    ends = game_ends(frame)
    assert ends["successes"].sum() == 120
    for name, conclusion in CONCLUSIONS.items():
        findings = conclusion(frame)
        assert findings and all(f.value != "n/a" for f in findings), name
    income = income_by_source(frame)
    tolls = income[income["source"] == "tolls_in"].set_index("strategy")
    assert tolls.loc["tollroad", "mean"] > tolls.loc["random", "mean"]


def test_toll_heatmap_draws():
    fig = toll_heatmap(real_frame(40))
    board, bar = fig.axes  # the board and its colour bar
    assert board.get_title() == "Tolls earned per game in each village (n = 40 games)"
    assert bar.get_ylabel() == "mean tolls earned per game (gold)"


def test_governor_raw_gap_and_its_within_game_part():
    """The raw gap (top level minus never) carries a Newcombe interval, and the within-game
    coefficient scaled to the top level's mean count says how much of it one game's players
    show: none when the strategy, not the action, wins."""
    f = synthetic(6000)
    a = (f["strategy"] == "a").to_numpy()
    f["chose_governor"] = RNG.poisson(np.where(a, 2.0, 0.5))
    f["gold"] = 12 + RNG.normal(0, 3, len(f))
    f["winner"] = one_winner(f, np.where(a, 3.0, 1.0))
    t = governor_value(f).set_index("measure")
    rates = t.loc["win_rate"].set_index("level")
    gap, part = t.loc["raw_gap"], t.loc["within_game_gap"]
    assert gap["level"] == "3+ vs 0" and gap["n"] == rates.loc[["3+", "0"], "n"].sum()
    assert gap["estimate"] == pytest.approx(rates.loc["3+", "estimate"]
                                            - rates.loc["0", "estimate"])
    assert 0 < gap["ci_low"] < gap["estimate"] < gap["ci_high"]
    mean_top = f.loc[f["chose_governor"] >= 3, "chose_governor"].mean()
    within = t[t["outcome"] == "win"].loc["within_game"]
    assert part["estimate"] == pytest.approx(within["estimate"] * mean_top)
    assert covers(part, 0.0) and part["ci_high"] < gap["ci_low"] / 2
