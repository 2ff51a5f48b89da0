"""The batch kernels and the records: line-ups, parallel == sequential, the record fields,
the frame columns and setup features, the game spec."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from maharaja_helpers import COMP, COMPONENTS

from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.setups import enumerated_setup_ids, order_of_index
from tajsim.games.maharaja.play.nb import play_batch_nb, play_batch_parallel_nb
from tajsim.games.maharaja.play.records import (
    frame_columns,
    setup_feature_columns,
    setup_features,
)
from tajsim.games.maharaja.spec import SPEC
from tajsim.games.maharaja.strategies.ids import kernel_switches
from tajsim.games.maharaja.strategies.registry import REGISTRY
from tajsim.running.simulate import simulate


def run(lineup, n, G, seed=1, setup_ids=None, parallel=0, rules=0):
    specs = [REGISTRY.parse(s) for s in lineup]
    ids = np.array([s.strategy_id for s, _ in specs], np.int64)
    params = np.stack([v for _, v in specs])
    gids = np.arange(G, dtype=np.int64)
    sids = gids if setup_ids is None else np.asarray(setup_ids, np.int64)
    lineups = ((np.arange(G)[:, None] + np.arange(n)[None, :]) % len(lineup)).astype(np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    if parallel:
        play_batch_parallel_nb(COMP, n, rules, seed, gids, sids, lineups, ids, params, res,
                               setups, parallel, *kernel_switches(ids))
    else:
        play_batch_nb(COMP, n, rules, seed, gids, sids, lineups, ids, params, res, setups,
                      *kernel_switches(ids))
    return res, setups


def test_records_are_consistent():
    n, G = 4, 60
    res, setups = run(["random", "balanced", "hoarder"], n, G)
    parts = np.stack([res[f"pts_{k}"] for k in E.PART_NAMES], axis=1)
    assert (parts.sum(axis=1) == res["score"]).all()
    palaces = res["palaces"].astype(np.int64)
    assert (res["pts_palaces"] == E.PALACE_POINTS * palaces).all()
    assert (res["score"] == E.PALACE_POINTS * palaces + res["gold"]).all()
    assert (res["palaces"] == res["palaces_central"] + res["palaces_outer"]).all()
    assert (res["houses_board"] == res["houses_city"] + res["houses_village"]).all()
    assert (res["houses_built"] == res["houses_board"]).all()
    ranks = res["rank"].reshape(G, n)
    assert (np.sort(ranks, axis=1) == np.arange(1, n + 1)).all()
    assert (res["winner"] == (res["rank"] == 1)).all()
    chose = np.stack([res[f"chose_{s}"] for s in E.ACT_SLUGS], axis=1).sum(axis=1)
    assert (chose.reshape(G, n).sum(axis=1) == 2 * n * setups["n_rounds"]).all()
    tolls_in = res["tolls_received"].reshape(G, n).sum(axis=1)
    tolls_out = res["tolls_paid"].reshape(G, n).sum(axis=1)
    assert (tolls_in == tolls_out + setups["monk_tolls"]).all()
    assert (setups["tolls_by_village"].sum(axis=1) == tolls_in).all()
    pens = res["penalties"].reshape(G, n)
    missed = np.stack([res[f"missed_{s}"] for s in E.ACT_SLUGS], axis=1).sum(axis=1)
    assert (missed == res["penalties"]).all() and (res["missed_gold"] == 0).all()
    # each unperformed action pays the penalty to each other player: a seat receives it for
    # every action the others left undone
    others = pens.sum(axis=1, keepdims=True) - pens
    assert pens.sum() > 0
    assert (res["pts_penalties_in"].reshape(G, n) == COMP[E.C_PENALTY] * others).all()
    assert (setups["end_cause"] != E.END_NONE).all()
    for g in range(G):
        assert tuple(setups["governor_order"][g]) == order_of_index(int(setups["order_index"][g]))
        rounds = setups["n_rounds"][g]
        assert (setups["visit_city"][g, :rounds] >= 0).all()
        assert (setups["visit_city"][g, rounds:] == -1).all()
        assert (setups["card_by_round"][g, :rounds, :n] >= 0).all()


def test_parallel_equals_sequential():
    a = run(["random"], 3, 40)
    b = run(["random"], 3, 40, parallel=3)
    assert a[0].tobytes() == b[0].tobytes() and a[1].tobytes() == b[1].tobytes()


def test_games_do_not_depend_on_their_batch():
    full, full_s = run(["random", "balanced"], 2, 30)
    ids = np.arange(10, 30, dtype=np.int64)
    specs = [REGISTRY.parse(s) for s in ["random", "balanced"]]
    res = np.zeros(20 * 2, E.RESULT_DTYPE)
    setups = np.zeros(20, E.SETUP_DTYPE)
    lineups = ((ids[:, None] + np.arange(2)[None, :]) % 2).astype(np.int64)
    play_batch_nb(COMP, 2, 0, 1, ids, ids, lineups, np.array([0, 2], np.int64),
                  np.stack([v for _, v in specs]), res, setups, None, True)
    assert res.tobytes() == full[20:].tobytes() and setups.tobytes() == full_s[10:].tobytes()


def test_enumerated_setups_in_a_batch():
    ids = enumerated_setup_ids()[[0, 5, 4000]]
    _, setups = run(["random"], 2, 3, setup_ids=ids)
    assert setups["order_index"].tolist() == [0, 5, 4000]
    assert tuple(setups["governor_order"][1]) == order_of_index(5)


def test_frame_columns_and_setup_features():
    n, G = 3, 25
    res, setups = run(["random", "balanced"], n, G)
    meta = COMPONENTS.frame_meta()
    cols = frame_columns(meta, res, setups)
    frame = pd.DataFrame(cols)
    assert len(frame) == G * n
    assert (frame["order_index"].to_numpy()[::n] == setups["order_index"]).all()
    first = np.array([meta["city_names"][c] for c in setups["governor_order"][:, 0]])
    assert (frame["first_city"].astype(str).to_numpy()[::n] ==
            np.char.lower(first)).all()
    assert (frame["visit_delhi"].between(0, E.MAX_ROUNDS)).all()
    rounds = sum(frame[f"rounds_{c}"] for c in ("mogul", "trader", "sadhu", "monk",
                                                "builder", "artisan"))
    assert (rounds.to_numpy() == np.repeat(setups["n_rounds"], n)).all()
    assert (frame["first_palace_round"] <= frame["last_palace_round"]).all()
    tempo = frame[[f"palace_round_{k}" for k in range(1, 8)]].to_numpy()
    assert (tempo[:, 0] == frame["first_palace_round"]).all()
    assert (tempo.max(axis=1) == frame["last_palace_round"]).all()
    assert ((tempo > 0).sum(axis=1) == res["palaces"]).all()
    feats = setup_features(meta, setups)
    assert [f.name for f in feats] == ["first_city", "governor_order"]
    assert [f.codes for f in setup_features(meta, None)] == [None, None]
    for f in feats:
        assert f.codes.shape == (G,) and f.codes.min() >= 0
        assert f.codes.max() < len(f.labels)
    assert len(feats[1].labels) == 5040 and feats[1].labels[0].startswith("delhi>jodhpur")
    assert set(setup_feature_columns(list(frame.columns))) == \
        {"first_city"} | {c for c in frame.columns if c.startswith("visit_")}


def test_game_spec_is_complete():
    assert isinstance(SPEC, GameSpec)
    SPEC.check_layout()
    assert SPEC.score_parts == E.PART_NAMES and SPEC.max_players == 5
    assert SPEC.check_players(5) == 5
    assert SPEC.rules_code() == 0
    assert SPEC.rules_code(options={"no_lone_bonus": True}) == 1 << E.OPT_NO_LONE_BONUS
    assert {o.name for o in SPEC.options} == {"no_lone_bonus", "penalty_per_turn",
                                              "static_order", "free_palace_site",
                                              "unlimited_houses", "several_palaces",
                                              "ten_rounds", "reversed_draft", "random_draft",
                                              "half_monk"}
    assert all(path.is_dir() for path in SPEC.source_folders)
    assert SPEC.golden_dir.is_dir() and list(SPEC.golden_dir.glob("*.txt"))
    assert SPEC.components.default().digest() == COMPONENTS.digest()
    assert SPEC.components.validate(COMPONENTS.board_path, COMPONENTS.components_path) == []
    assert SPEC.current_player(SPEC.game_class(2).state) == 0
    assert "penalties" in SPEC.result_metrics and "n_rounds" in SPEC.game_metrics


def test_enumerated_setups_play_every_governor_order_in_turn():
    frame = simulate(game="maharaja", games=6, players=3, strategies="random", seed=2,
                     setups="enumerated", games_per_setup=2, workers=1, progress=False)
    ids = enumerated_setup_ids()
    per_game = frame.drop_duplicates("game_id").sort_values("game_id")
    assert per_game["setup_id"].tolist() == [int(ids[k]) for k in (0, 0, 1, 1, 2, 2)]
    assert per_game["order_index"].tolist() == [0, 0, 1, 1, 2, 2]
    # the same run with random setups draws other orders
    drawn = simulate(game="maharaja", games=6, players=3, strategies="random", seed=2,
                     games_per_setup=2, workers=1, progress=False)
    assert drawn.drop_duplicates("game_id")["setup_id"].tolist() == [0, 0, 1, 1, 2, 2]
    with pytest.raises(UserError, match="Taj Mahal does not list its setups"):
        simulate(games=2, setups="enumerated", workers=1, progress=False)
    with pytest.raises(UserError, match="setups 'all'; expected one of: random, enumerated"):
        simulate(game="maharaja", games=2, setups="all", workers=1, progress=False)
