"""The batch runner: schema, determinism across workers and chunking, resume, aggregates."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tajsim.errors import UserError
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.component_files import default_components
from tajsim.running.aggregates import Aggregates
from tajsim.running.config import RunConfig, default_chunk_size, lineup_codes, resolve_seating
from tajsim.running.run_reading import IncompleteRunWarning, load_aggregates, load_results
from tajsim.running.simulate import run_simulation, simulate
from tajsim.running.store import RunStore

GAMES = 300
CHUNK = 64


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    """One-worker run every other run must reproduce exactly."""
    return simulate(GAMES, 4, ["greedy", "random"], seed=11, workers=1, chunk_size=CHUNK)


def expected_columns() -> list[str]:
    comps = default_components()
    cols = ["game_id", "seed", "edition", "n_players", "seat", "strategy", "score", "rank",
            "winner", *(f"pts_{p}" for p in E.PART_NAMES), *(f"goods_{g}" for g in E.GOOD_NAMES),
            "n_palaces", "n_province_tiles", "n_bonus_tiles", "n_prestige", "hand_end",
            "display_cards_missed", "deck_cards_missed", "setup_id"]
    cols += [f"visit_{s}" for s in comps.province_slugs]
    cols += [f"bonus_{comps.city_slugs[c]}" for c in comps.bonus_cities]
    cols += [f"tile_won_v{k}" for k in range(1, 13)]
    cols += [f"chain_v{k}" for k in range(1, 13)]
    cols += ["n_turns", "n_reshuffles", "n_protests", "n_short_deals", "display_cards_short",
             "exhausted_visit"]
    cols += [f"score_r{k}" for k in range(1, 13)] + ["arc_rounds"]  # the score trajectory
    return cols


# -- schema -------------------------------------------------------------------------------------
def test_schema_columns_and_dtypes(reference):
    df = reference
    assert list(df.columns) == expected_columns()
    dtypes = {
        "game_id": "int64", "seed": "int64", "n_players": "int8", "seat": "int8",
        "score": "int16", "rank": "int8", "winner": "bool", "pts_palace": "int16",
        "goods_rice": "int8", "n_palaces": "int16", "n_province_tiles": "int8",
        "n_bonus_tiles": "int8", "n_prestige": "int8", "hand_end": "int16", "setup_id": "int64",
        "visit_agra": "int8", "tile_won_v1": "bool", "chain_v12": "int8", "n_turns": "int16",
        "n_reshuffles": "int8", "n_protests": "int8", "display_cards_missed": "int8",
        "deck_cards_missed": "int8", "n_short_deals": "int8", "display_cards_short": "int8",
        "exhausted_visit": "int8", "score_r1": "int32", "score_r12": "int32", "arc_rounds": "int8",
    }
    for col, dtype in dtypes.items():
        assert str(df[col].dtype) == dtype, col
    assert list(df["edition"].cat.categories) == ["2018", "2000"]
    assert list(df["strategy"].cat.categories) == ["greedy", "random"]
    bonus = [c for c in df.columns if c.startswith("bonus_")]
    assert all(isinstance(df[c].dtype, pd.CategoricalDtype) for c in bonus)
    assert set(df[bonus[0]].cat.categories) == {"rice", "tea", "spices", "jewels", "plus2", "draw"}


def test_schema_invariants(reference):
    df = reference
    n = 4
    assert len(df) == GAMES * n
    assert (df["game_id"].to_numpy() == np.repeat(np.arange(GAMES), n)).all()
    assert (df["seat"].to_numpy() == np.tile(np.arange(n), GAMES)).all()
    parts = df[[f"pts_{p}" for p in E.PART_NAMES]].sum(axis=1)
    assert (parts == df["score"]).all()
    chain = df[[f"chain_v{k}" for k in range(1, 13)]].sum(axis=1)
    assert (chain == df["pts_palace"] + df["pts_connection"]).all()
    tiles = df[[f"tile_won_v{k}" for k in range(1, 13)]]
    assert (tiles.sum(axis=1) == df["n_province_tiles"]).all()
    per_game = tiles.groupby(df["game_id"]).sum()
    assert (per_game <= 1).all().all()
    visits = df[[c for c in df.columns if c.startswith("visit_")]].to_numpy()
    assert (np.sort(visits, axis=1) == np.arange(1, 13)).all()
    assert (df["visit_agra"] == 12).all()
    assert df.groupby("game_id")["winner"].sum().min() >= 1
    assert (df.loc[df["winner"], "rank"] == 1).all()
    # every bonus city carries a tile (15 square tiles on the 15 fortresses other than Agra)
    bonus = df[[c for c in df.columns if c.startswith("bonus_")]]
    assert not bonus.isna().any().any()
    # per-game columns repeat on every row of the game
    for col in ("setup_id", "n_turns", "visit_kabul", bonus.columns[0]):
        assert (df.groupby("game_id")[col].nunique() == 1).all()


def test_rows_match_the_game_api(reference):
    from tajsim.play.mixed import play_game

    for game_id in (0, 1, 137):
        rows = reference[reference["game_id"] == game_id]
        lineup = list(rows["strategy"].astype(str))
        game = play_game(lineup, seed=11, game_id=game_id)
        assert game.scores() == list(rows["score"])
        assert game.ranks() == list(rows["rank"])


# -- seating ------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 5), m=st.integers(1, 5), start=st.integers(0, 10_000))
def test_rotation_balances_seats(players, m, start):
    if m > players:
        return
    seating = resolve_seating(True, m, players)
    ids = np.arange(start, start + m * players * 3)  # whole blocks of m * players games
    codes = lineup_codes(seating, list(range(m)), players, ids)
    counts = np.zeros((m, players), int)
    for p in range(players):
        np.add.at(counts[:, p], codes[:, p], 1)
    # each strategy sits in each seat equally often over whole blocks
    assert (counts == counts[:, :1]).all()
    assert (codes >= 0).all() and (codes < m).all()
    # and every seat sees the same line-ups (own strategy, opponents), so seats are comparable
    from collections import Counter

    seen = [Counter((row[p], tuple(sorted(np.delete(row, p)))) for row in codes)
            for p in range(players)]
    assert all(c == seen[0] for c in seen)


def test_round_robin_balances_seats_and_tables():
    m, players = 5, 3
    combos = 10
    ids = np.arange(combos * players * 2)
    codes = lineup_codes("round-robin", list(range(m)), players, ids)
    assert all(len(set(row)) == players for row in codes)
    counts = np.zeros((m, players), int)
    for p in range(players):
        np.add.at(counts[:, p], codes[:, p], 1)
    assert (counts == counts[0, 0]).all()
    tables = {tuple(sorted(r)) for r in codes}
    assert len(tables) == combos


def test_seating_resolution_errors():
    assert resolve_seating("auto", 4, 4) == "fixed"
    assert resolve_seating("auto", 2, 4) == "rotate"
    assert resolve_seating(True, 4, 4) == "rotate"
    for args in (("auto", 5, 4), (False, 2, 4), ("round-robin", 3, 4), ("sideways", 1, 4)):
        with pytest.raises(UserError):
            resolve_seating(*args)


def test_duplicate_strategies_with_fixed_seats():
    df = simulate(20, 3, ["random", "greedy", "random"], seed=2, workers=1)
    assert list(df["strategy"].cat.categories) == ["random", "greedy"]
    assert list(df["strategy"].astype(str)[:3]) == ["random", "greedy", "random"]


def test_strategy_parameters_are_kept_as_text():
    df = simulate(12, 2, ["balanced:palace=3", "balanced"], seed=1, workers=1)
    assert list(df["strategy"].cat.categories) == ["balanced:palace=3", "balanced"]
    cfg = RunConfig.make(12, 2, ["balanced:palace=3", "balanced"])
    assert cfg.lineup_params[0] != cfg.lineup_params[1]


# -- determinism --------------------------------------------------------------------------------
@pytest.mark.parametrize("workers,mode", [(2, "threads"), (2, "prange"), (2, "processes")])
def test_same_results_whatever_the_workers(reference, workers, mode):
    res = run_simulation(GAMES, 4, ["greedy", "random"], seed=11, workers=workers,
                         chunk_size=CHUNK, mode=mode, progress=False)
    pd.testing.assert_frame_equal(res.records, reference)


def test_chunk_size_does_not_change_results(reference):
    other = simulate(GAMES, 4, ["greedy", "random"], seed=11, workers=1, chunk_size=100)
    pd.testing.assert_frame_equal(other, reference)


def test_chunk_files_are_byte_identical(tmp_path):
    kwargs = dict(games=150, players=3, strategies="random", seed=4, chunk_size=50,
                  progress=False)
    run_simulation(**kwargs, workers=1, out=tmp_path / "a")
    run_simulation(**kwargs, workers=2, out=tmp_path / "b")
    for kind in ("chunks", "aggregates"):
        a = sorted((tmp_path / "a" / kind).iterdir())
        b = sorted((tmp_path / "b" / kind).iterdir())
        # 3 Parquet chunks; 3 aggregates, each with its check file (sizes and SHA-256)
        assert [p.name for p in a] == [p.name for p in b]
        assert len(a) == (3 if kind == "chunks" else 6)
        assert all(x.read_bytes() == y.read_bytes() for x, y in zip(a, b))


def test_games_per_setup_shares_the_board():
    df = simulate(12, 3, "random", seed=9, games_per_setup=4, workers=1)
    assert (df["setup_id"] == df["game_id"] // 4).all()
    setup_cols = [c for c in df.columns if c.startswith(("visit_", "bonus_"))]
    per_setup = df.groupby("setup_id")[setup_cols].nunique()
    assert (per_setup == 1).all().all()
    assert df.groupby("setup_id")["game_id"].nunique().eq(4).all()
    assert df[setup_cols].drop_duplicates().shape[0] == 3
    # the deals differ between games of one setup
    assert df.groupby("setup_id")["n_turns"].nunique().max() > 1


# -- output directory, resume -------------------------------------------------------------------
def test_interrupted_run_resumes_without_loss_or_duplicates(tmp_path):
    out = tmp_path / "run"
    kwargs = dict(games=200, players=4, strategies="greedy,random", seed=21, chunk_size=30,
                  progress=False)

    class CrashError(Exception):
        pass

    seen = []

    def crash_after_three(index):
        seen.append(index)
        if len(seen) == 3:
            raise CrashError

    with pytest.raises(CrashError):
        run_simulation(**kwargs, workers=1, out=out, on_chunk=crash_after_three)
    assert len(list((out / "chunks").glob("*.parquet"))) == 3
    with pytest.warns(IncompleteRunWarning, match=r"incomplete run: 3 of 7 chunks \(90 of 200"):
        partial = load_results(out)
    assert len(partial) == 3 * 30 * 4 and not partial.attrs["run_status"]["complete"]
    assert not list(out.rglob(".*tmp*")) and not (out / ".lock").exists()
    again = run_simulation(**kwargs, workers=2, out=out)
    assert again.chunks_run == 7 - 3
    full = simulate(**{k: v for k, v in kwargs.items() if k != "progress"}, workers=1)
    pd.testing.assert_frame_equal(again.records, full)
    assert not again.records.duplicated(["game_id", "seat"]).any()
    assert again.aggregates.games == 200
    # a complete run is not played again
    assert run_simulation(**kwargs, out=out).chunks_run == 0
    summary = pd.read_csv(out / "summary.csv")
    assert summary.loc[summary["group"] == "all", "n"].item() == 800


def test_partial_chunk_files_are_redone(tmp_path):
    out = tmp_path / "run"
    kwargs = dict(games=60, players=2, strategies="random", seed=3, chunk_size=20,
                  progress=False)
    run_simulation(**kwargs, out=out)
    # a crash between the records and the aggregates of chunk 1, and a stray temporary file
    (out / "aggregates" / "chunk-000001.npz").unlink()
    (out / "chunks" / ".chunk-000001.parquet.tmp-999").write_bytes(b"partial")
    res = run_simulation(**kwargs, out=out)
    assert res.chunks_run == 1
    assert not list(out.rglob(".*tmp*"))
    pd.testing.assert_frame_equal(res.records, simulate(60, 2, "random", seed=3))


def test_other_configuration_in_the_same_directory_is_refused(tmp_path):
    out = tmp_path / "run"
    run_simulation(40, 2, "random", seed=1, out=out, chunk_size=20, progress=False)
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    with pytest.raises(UserError, match="seed: 1 there, 2 now"):
        run_simulation(40, 2, "random", seed=2, out=out, chunk_size=20)
    with pytest.raises(UserError, match="games"):
        run_simulation(80, 2, "random", seed=1, out=out, chunk_size=20)
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert before == after


def test_foreign_directory_is_left_alone(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match="not empty"):
        run_simulation(10, 2, "random", out=tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_live_lock_is_respected(tmp_path):
    import os
    import socket

    out = tmp_path / "run"
    out.mkdir()
    (out / ".lock").write_text(f"{socket.gethostname()} {os.getppid()}")
    with pytest.raises(UserError, match="another tajsim run"):
        RunStore(out).open(RunConfig.make(10, 2))
    (out / ".lock").write_text(f"{socket.gethostname()} 999999999")  # stale: taken over
    with RunStore(out) as store:
        assert store.open(RunConfig.make(10, 2)) == set()


def test_manifest_records_the_configuration(tmp_path):
    out = tmp_path / "run"
    run_simulation(30, 3, "greedy,random", seed=5, out=out, chunk_size=10, progress=False)
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["config"]["strategies"] == ["greedy", "random"]
    assert manifest["config"]["seating"] == "rotate"
    assert manifest["n_chunks"] == 3


# -- aggregates ---------------------------------------------------------------------------------
def test_no_records_summary_equals_summary_from_rows(reference, tmp_path):
    summary = simulate(GAMES, 4, ["greedy", "random"], seed=11, records=False, workers=2,
                       chunk_size=CHUNK, out=tmp_path / "agg")
    assert not (tmp_path / "agg" / "chunks").exists() or \
        not list((tmp_path / "agg" / "chunks").iterdir())
    df = reference
    share = df["winner"] / df.groupby("game_id")["winner"].transform("sum")
    by_strategy = share.groupby(df["strategy"], observed=True).mean()
    rows = summary[summary["group"] == "strategy"].set_index("strategy")
    for name, rate in by_strategy.items():
        assert rows.loc[name, "win_rate"] == pytest.approx(rate, abs=1e-12)
        assert rows.loc[name, "score"] == pytest.approx(
            df.loc[df["strategy"] == name, "score"].mean())
        sd = df.loc[df["strategy"] == name, "score"].std()
        assert rows.loc[name, "score_sd"] == pytest.approx(sd)
        # <= : a strategy that never wins (random against greedy) has rate and lower bound 0
        assert rows.loc[name, "win_ci_low"] <= rate <= rows.loc[name, "win_ci_high"]
        assert rows.loc[name, "win_ci_low"] < rows.loc[name, "win_ci_high"]
    seats = summary[summary["group"] == "seat"].set_index("seat")
    for seat, mean in df.groupby("seat")["pts_commodity"].mean().items():
        assert seats.loc[seat, "pts_commodity"] == pytest.approx(mean)
    assert summary.loc[summary["group"] == "all", "win_rate"].item() == pytest.approx(0.25)
    merged = load_aggregates(tmp_path / "agg")
    assert merged.games == GAMES


def test_aggregates_merge_in_any_order_and_round_trip():
    from tajsim.running.chunk import run_chunk

    cfg = RunConfig.make(90, 3, "random,greedy", seed=8, chunk_size=30)
    task = cfg.task()
    parts = [run_chunk(task, k).aggregates for k in range(3)]
    a = Aggregates.from_task(task)
    for p in parts:
        a.merge(p)
    b = Aggregates.from_task(task)
    for p in reversed(parts):
        b.merge(Aggregates.from_bytes(p.to_bytes()))
    assert a.to_bytes() == b.to_bytes()
    assert a.games == 90
    assert a.arrays["n"].sum() == 270
    features = a.setup_features()
    visit = features[features["feature"] == "visit_agra"]
    assert set(visit["value"]) == {"12"} and visit["n"].sum() == 270
    assert len(a.game_stats()) == len(a.game_metrics) == 9  # 6 setup scalars + 3 derived


def test_default_chunk_size_depends_on_games_and_cost_only():
    """Chunks: at least TARGET_CHUNKS of them, each 0.05-2 s of one core, at most 10,000 games;
    a pure function of the games and the expected cost of a game (never of the workers)."""
    assert default_chunk_size(10) == 10
    assert default_chunk_size(100_000, 50e-6) == 1563  # 64 chunks of cheap games
    assert default_chunk_size(10**8, 50e-6) == 10_000
    assert default_chunk_size(1000, 50e-6) == 1000  # 0.05 s in all: one chunk
    assert default_chunk_size(320, 1.0) == 2  # a second a game: 2-second chunks
    # a run that keeps its rows: chunks of at least 0.2 s (a chunk file's fixed cost)
    assert default_chunk_size(100_000, 50e-6, records=True) == 4000
    assert default_chunk_size(10**7, 50e-6, records=True) == 10_000
    assert default_chunk_size(320, 1.0, records=True) == 2
    searching = RunConfig.make(games=320, players=4, strategies="ismcts")
    assert searching.n_chunks >= 64  # every core of a 16-core machine busy, the bar moving
    cheap = RunConfig.make(games=320, players=4, strategies="random")
    assert cheap.n_chunks == 1
    assert RunConfig.make(games=100_000, players=4, strategies="greedy").n_chunks == 64


def test_alternative_components_run():
    df = simulate(8, 3, "random", seed=1, components="alternative:2")
    from tajsim.games.tajmahal.engine.alternatives import alternative_components

    alt = alternative_components(2)
    expected = {f"bonus_{alt.city_slugs[c]}" for c in alt.bonus_cities}
    assert expected == {c for c in df.columns if c.startswith("bonus_")}


def test_round_robin_run():
    df = simulate(24, 3, "random,greedy,balanced,commodity", rotate="round-robin", seed=3)
    assert list(df["strategy"].cat.categories) == ["random", "greedy", "balanced", "commodity"]
    per_game = df.groupby("game_id")["strategy"].nunique()
    assert (per_game == 3).all()
    counts = df.groupby(["strategy", "seat"], observed=True).size().unstack()
    assert counts.shape == (4, 3) and (counts == counts.iloc[0, 0]).all().all()


def test_kernel_switches_leave_out_only_unused_families():
    """A kernel compiled without ISMCTS / the heuristics / the learned policy plays the same
    games as the full one, and refuses a lineup that needs what it left out instead of playing
    it wrongly."""
    from tajsim.games.tajmahal.play.nb import play_batch_nb
    from tajsim.games.tajmahal.strategies.ids import (
        ISMCTS_ROLLOUT_SLOT,
        N_PARAMS,
        ROLLOUT_LEARNED,
        STRATEGY_GREEDY,
        STRATEGY_HEURISTIC,
        STRATEGY_ISMCTS,
        STRATEGY_LEARNED,
        STRATEGY_RANDOM,
        kernel_switches,
    )

    # the fourth switch, net, is None without a net seat or a net rollout
    assert kernel_switches([STRATEGY_RANDOM]) == (None, None, None, None)
    assert kernel_switches([STRATEGY_RANDOM, STRATEGY_GREEDY]) == (None, True, None, None)
    assert kernel_switches([STRATEGY_HEURISTIC]) == (None, True, None, None)
    assert kernel_switches([STRATEGY_LEARNED]) == (None, True, True, None)
    # A search's rollout policy is a parameter: without the rows, learned is kept
    assert kernel_switches([STRATEGY_ISMCTS]) == (True, True, True, None)
    rows = np.zeros((2, N_PARAMS))
    assert kernel_switches([STRATEGY_ISMCTS, STRATEGY_RANDOM], rows) == (True, True, None, None)
    rows[1, ISMCTS_ROLLOUT_SLOT] = ROLLOUT_LEARNED  # a random seat's slot says nothing
    assert kernel_switches([STRATEGY_ISMCTS, STRATEGY_RANDOM], rows) == (True, True, None, None)
    rows[0, ISMCTS_ROLLOUT_SLOT] = ROLLOUT_LEARNED
    assert kernel_switches([STRATEGY_ISMCTS, STRATEGY_RANDOM], rows) == (True, True, True, None)

    comp = default_components().packed()
    n, G = 3, 6
    ids = np.arange(G, dtype=np.int64)

    def play(lineup_ids, *switches):
        results, setups = np.zeros(G * n, E.RESULT_DTYPE), np.zeros(G, E.SETUP_DTYPE)
        lineups = np.tile(np.arange(n) % len(lineup_ids), (G, 1)).astype(np.int64)
        play_batch_nb(comp, n, E.EDITION_2018, 5, ids, ids, lineups, lineup_ids,
                      np.zeros((len(lineup_ids), 32)), results, setups, *switches)
        return results

    only_random = np.array([STRATEGY_RANDOM], np.int64)
    assert play(only_random).tobytes() == play(only_random, None, None, None).tobytes()
    with_greedy = np.array([STRATEGY_RANDOM, STRATEGY_GREEDY], np.int64)
    assert play(with_greedy).tobytes() == play(with_greedy, None, True, None).tobytes()
    with pytest.raises(ValueError, match="heuristic"):
        play(with_greedy, None, None, None)
    with_learned = np.array([STRATEGY_RANDOM, STRATEGY_LEARNED], np.int64)
    with pytest.raises(ValueError, match="learned"):
        play(with_learned, None, True, None)


def test_ismcts_refuses_a_learned_rollout_compiled_out():
    """ISMCTS compiled with ``learned=None`` refuses to roll out with ``learned`` (the
    line-up's ids cannot show it) rather than rolling out with another policy."""
    from tajsim.games.registry import get_game
    from tajsim.games.tajmahal.strategies.ids import ISMCTS_ROLLOUT_SLOT, ROLLOUT_LEARNED
    from tajsim.games.tajmahal.strategies.ismcts import ismcts_search

    spec = get_game("tajmahal")
    game = spec.game_class(2, "2018", 1, 0, 0)
    legal = np.empty(spec.n_actions, np.int64)
    n = spec.kernels.legal_actions(game.state, game.comp, legal)
    params = spec.strategies.parse("ismcts:iterations=4")[1].copy()
    assert int(params[ISMCTS_ROLLOUT_SLOT]) != ROLLOUT_LEARNED
    visits = np.empty(n)
    args = (game.state.copy(), game.comp, spec.current_player(game.state), params,
            game.prng.copy(), legal, n, visits)
    ismcts_search(*args, None)  # another rollout policy plays without the learned policy
    params[ISMCTS_ROLLOUT_SLOT] = ROLLOUT_LEARNED
    with pytest.raises(ValueError, match="learned"):
        ismcts_search(*args, None)


def test_runner_wilson_interval_holds_rates_of_0_and_1():
    from tajsim.running.aggregates import wilson_interval as runner_wilson

    low, high = runner_wilson(np.array([0.0, 300.0, 12.5]), np.array([300.0, 300.0, 300.0]))
    assert low[0] == 0.0 and high[1] == 1.0  # exact: no bound a hair past the rate
    assert low[2] < 12.5 / 300 < high[2]
