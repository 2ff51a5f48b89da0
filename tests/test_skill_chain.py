"""Skill chains (tajsim.analysis.skill_chain, tajsim chain): the stopping rule on synthetic
outcomes, each step's figures against hand computations, the levels, the seatings of a match,
reproducibility from a seed on a tiny real chain, the files written and the CLI's bad input."""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_checks import one_line_error
from click.testing import CliRunner
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

from tajsim.analysis.skill_chain import (
    StepDesign,
    chain_levels,
    concat_outcomes,
    elo_gap,
    one_sided_p,
    play_chain,
    run_chain,
    stage_outcomes,
    step_design,
    step_statistics,
)
from tajsim.analysis.skill_matches import (
    MatchOutcomes,
    arrangements,
    match_block,
    match_runs,
    rotation_classes,
)
from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.reporting.skill_chain_sections import chain_markdown, read_chain, write_chain


def synthetic(stronger_wins: int, n: int, ties: int = 0) -> MatchOutcomes:
    """A step's outcomes with A the weaker level: the stronger level wins ``stronger_wins``
    games alone, ``ties`` are shared, the weaker level wins the rest; seat 0 wins every even
    game."""
    weaker_wins = n - stronger_wins - ties
    share_a = np.array([0.0] * stronger_wins + [0.5] * ties + [1.0] * weaker_wins)
    a_won = share_a > 0
    b_won = share_a < 1
    first = (np.arange(n) % 2 == 0).astype(float)
    return MatchOutcomes("w", "s", share_a, a_won, b_won, first, np.zeros(n, bool),
                         np.zeros(2, np.int64), np.zeros(2, np.int64))


# -- the stopping rule ---------------------------------------------------------------------------
def test_chain_stops_at_the_first_step_that_is_not_significant():
    planned = {1: synthetic(320, 400), 2: synthetic(260, 400), 3: synthetic(200, 400),
               4: synthetic(390, 400)}
    played: list[int] = []
    seen: list[tuple[int, str]] = []

    def play(k: int, weaker: str, stronger: str) -> MatchOutcomes:
        played.append(k)
        return planned[k]

    table = run_chain(["L0", "L1", "L2", "L3", "L4"], play,
                      on_step=lambda t: seen.append((len(t), t.attrs["ended"])))
    assert played == [1, 2, 3]  # step 4 would gain, but the chain ended at step 3
    # what the CLI writes after each step: an interrupted chain says it was still climbing
    assert seen == [(1, "running"), (2, "running"), (3, "not significant")]
    assert table["significant"].tolist() == [True, True, False]
    assert table["ends_chain"].tolist() == [False, False, True]
    assert table.attrs["chain_length"] == 2 and table.attrs["ended"] == "not significant"
    assert table["weaker"].tolist() == ["L0", "L1", "L2"]
    assert table["stronger"].tolist() == ["L1", "L2", "L3"]


def test_the_stopping_threshold_is_the_one_sided_five_percent_test():
    # z = (k/n - 1/2) / sqrt(1/4n): 400 games, 217 wins -> z = 1.70 (p 0.045): significant;
    # 216 -> z = 1.60 (p 0.055): the chain ends there
    for wins, significant in ((217, True), (216, False)):
        table = run_chain(["a", "b"], lambda k, w, s, x=wins: synthetic(x, 400))
        assert bool(table["significant"].iloc[0]) is significant
        expected = proportions_ztest(wins, 400, value=0.5, alternative="larger",
                                     prop_var=0.5)[1]
        assert table["p_value"].iloc[0] == pytest.approx(expected, rel=1e-9)


def test_a_chain_whose_every_step_gains_says_its_length_is_a_lower_bound():
    table = run_chain(["a", "b", "c"], lambda k, w, s: synthetic(300, 400))
    assert table.attrs["chain_length"] == 2 and table.attrs["ended"] == "levels exhausted"
    table.attrs.update(title="Test", players=2, games=400, seed=0, param="iterations")
    assert "at least 2" in chain_markdown(table)
    table.attrs["ended"] = "running"
    assert "still climbing" in chain_markdown(table)


# -- the group-sequential step -------------------------------------------------------------
def test_the_stages_halve_back_from_the_full_step_in_whole_blocks():
    assert step_design(2000, 2).stages == (250, 500, 1000, 2000)
    assert step_design(2000, 12).stages == (252, 504, 1008, 2004)  # 4 players: 12-game blocks
    assert step_design(2000, 2).increments() == [250, 250, 500, 1000]
    assert step_design(2000, 2, looks=1).stages == (2000,)
    assert step_design(2000, 2, looks=2).stages == (1000, 2000)
    # stages that rounding makes equal are one look: 6 games, blocks of 2 -> 2, 2, 4, 6
    assert step_design(6, 2).stages == (2, 4, 6)


def test_the_last_look_spends_what_the_interim_looks_leave():
    design = step_design(2000, 2)  # 3 interim looks at 0.001
    assert design.looks == 4 and design.final_level == pytest.approx(0.047)
    assert [design.level(k) for k in range(4)] == pytest.approx([0.001] * 3 + [0.047])
    assert step_design(2000, 2, looks=1).final_level == 0.05
    assert step_design(2000, 2, looks=3, interim_p=0.01).final_level == pytest.approx(0.03)
    # the step's type I error is at most alpha (Bonferroni): the levels sum to it
    assert sum(design.level(k) for k in range(design.looks)) == pytest.approx(0.05)


def staged(plans: dict[int, list[MatchOutcomes]], calls: list[tuple[int, int]]):
    """A ``play_step(k, weaker, stronger, stage)`` that serves planned stage outcomes."""
    def play(k: int, weaker: str, stronger: str, stage: int) -> MatchOutcomes:
        calls.append((k, stage))
        return plans[k][stage]
    return play


def test_a_large_gain_stops_at_the_first_look_and_a_null_step_plays_every_game():
    design = StepDesign((100, 200, 400, 800))
    # step 1: 80 of the first 100 games (p ~ 1e-9 < 0.001): stops at look 1
    # step 2: half of every stage's games: plays all 800 and ends the chain
    plans = {1: [synthetic(80, 100)] + [synthetic(90, 100)] * 3,
             2: [synthetic(50, 100), synthetic(50, 100), synthetic(100, 200),
                 synthetic(200, 400)]}
    calls: list[tuple[int, int]] = []
    table = run_chain(["a", "b", "c"], staged(plans, calls), design=design)
    assert calls == [(1, 0), (2, 0), (2, 1), (2, 2), (2, 3)]
    assert table["n"].tolist() == [100, 800]
    assert table["look"].tolist() == [1, 4] and table["looks"].tolist() == [4, 4]
    assert table["level"].tolist() == pytest.approx([0.001, 0.047])
    assert table["significant"].tolist() == [True, False]
    assert table.attrs["chain_length"] == 1 and table.attrs["ended"] == "not significant"
    assert table["share"].iloc[1] == pytest.approx(0.5)


def test_an_interim_look_needs_the_boundary_and_the_last_look_its_reduced_level():
    design = StepDesign((100, 200, 400, 800))
    # 60 of 100 at look 1: p = 0.023 > 0.001, play on; the step's 800 games decide:
    # 424 wins: z = 1.70, p = 0.045 < 0.047, significant; 423: p = 0.052, not; 425: p = 0.039
    for last_wins, significant in ((424, True), (423, False), (425, True)):
        stages = [synthetic(60, 100), synthetic(50, 100), synthetic(100, 200),
                  synthetic(last_wins - 210, 400)]
        table = run_chain(["a", "b"], staged({1: stages}, []), design=design)
        assert table["n"].iloc[0] == 800 and table["look"].iloc[0] == 4
        expected = proportions_ztest(last_wins, 800, value=0.5, alternative="larger",
                                     prop_var=0.5)[1]
        assert table["p_value"].iloc[0] == pytest.approx(expected, rel=1e-9)
        assert bool(table["significant"].iloc[0]) is significant
    # 1,037 of 2,000: p = 0.049, significant in one look at 5%, not at the last of four (0.047)
    full = synthetic(1037, 2000)
    assert 0.047 < one_sided_p(1.0 - full.share_a) < 0.05
    assert bool(run_chain(["a", "b"], lambda k, w, s: full)["significant"].iloc[0])
    parts = {1: [synthetic(125, 250), synthetic(125, 250), synthetic(250, 500),
                 synthetic(1037 - 500, 1000)]}
    table = run_chain(["a", "b"], staged(parts, []), design=step_design(2000, 2))
    assert table["n"].iloc[0] == 2000 and table["share"].iloc[0] == pytest.approx(1037 / 2000)
    assert not bool(table["significant"].iloc[0])


def test_stage_outcomes_concatenate_in_order():
    a, b = synthetic(3, 4), synthetic(1, 4)
    both = concat_outcomes([a, b])
    assert both.n == 8
    np.testing.assert_array_equal(both.share_a, np.r_[a.share_a, b.share_a])
    assert concat_outcomes([a]) is a


def test_a_look_plays_a_prefix_of_the_full_steps_games():
    # mcts at 1 iteration against 64 (a large gain): the step stops at its first look with the
    # Haybittle-Peto boundary, and plays all three looks with a boundary it cannot reach; the
    # stopped step's games are the first games of the full step's, outcome for outcome
    seen: dict[str, list[MatchOutcomes]] = {"early": [], "full": []}

    def player(key: str):
        def play(k: int, weaker: str, stronger: str, stage: int) -> MatchOutcomes:
            out = stage_outcomes("maharani", 2, weaker, stronger, design, k, stage, 5,
                                 workers=1)
            seen[key].append(out)
            return out
        return play

    levels = ["mcts:iterations=1", "mcts:iterations=64"]
    design = step_design(24, 2, looks=3)
    assert design.stages == (6, 12, 24)
    early = run_chain(levels, player("early"), design=step_design(24, 2, 3, interim_p=0.02))
    full = run_chain(levels, player("full"), design=step_design(24, 2, 3, interim_p=1e-12))
    assert early["look"].iloc[0] < 3 and full["look"].iloc[0] == 3
    assert full["n"].iloc[0] == 24
    n = int(early["n"].iloc[0])
    stopped, whole = concat_outcomes(seen["early"]), concat_outcomes(seen["full"])
    assert stopped.n == n < whole.n
    for name in ("share_a", "a_won", "b_won", "first_seat", "first_is_a"):
        np.testing.assert_array_equal(getattr(stopped, name), getattr(whole, name)[:n])


def test_a_chain_that_ends_on_a_loss_does_not_claim_where_strong_play_ends():
    # more budget plays worse (a dip of the search's curve at its start): the page says the
    # chain has not measured the top
    table = run_chain(["a", "b"], lambda k, w, s: synthetic(660, 2000))
    table.attrs.update(title="Test", players=2, games=2000, seed=0, param="iterations")
    assert table["equivalence"].iloc[0] == "differs"
    text = chain_markdown(table)
    assert "does not measure where strong play ends" in text
    assert "strong play for this game" not in text
    gained = run_chain(["a", "b"], lambda k, w, s: synthetic(1010, 2000))
    gained.attrs.update(title="Test", players=2, games=2000, seed=0, param="iterations")
    assert "strong play for this game at this table size ends at `a`" in chain_markdown(gained)


# -- each step's figures against hand computations -----------------------------------------
def test_step_figures_by_hand():
    # 30 sole wins of the stronger level, 2 shared, 8 of the weaker: 40 games
    out = synthetic(30, 40, ties=2)
    stats = step_statistics(1.0 - out.share_a, out.a_won, out.first_seat,
                            tied=out.a_won & out.b_won)
    p = 31 / 40  # 30 + 2 halves
    assert stats.n == 40 and stats.share == pytest.approx(p)
    low, high = proportion_confint(31, 40, alpha=0.05, method="wilson")
    assert (stats.ci_low, stats.ci_high) == pytest.approx((low, high), rel=1e-12)
    assert stats.elo == pytest.approx(400 * math.log10(p / (1 - p)), rel=1e-12)
    assert stats.elo_ci_low == pytest.approx(400 * math.log10(low / (1 - low)), rel=1e-12)
    assert stats.elo_ci_high == pytest.approx(400 * math.log10(high / (1 - high)), rel=1e-12)
    # upsets: the weaker level wins 8 games alone and shares 2: 10 of 40
    assert stats.upset_rate == pytest.approx(10 / 40)
    u_low, u_high = proportion_confint(10, 40, alpha=0.05, method="wilson")
    assert (stats.upset_ci_low, stats.upset_ci_high) == pytest.approx((u_low, u_high))
    assert stats.tie_rate == pytest.approx(2 / 40)
    z = (p - 0.5) / math.sqrt(0.25 / 40)
    assert stats.p_value == pytest.approx(0.5 * math.erfc(z / math.sqrt(2)), rel=1e-9)
    assert stats.first_seat_rate == pytest.approx(0.5)


def test_elo_gap_of_known_shares():
    assert elo_gap(0.5) == 0.0
    assert elo_gap(0.75) == pytest.approx(400 * math.log10(3))
    assert elo_gap(1 / 11) == pytest.approx(-400.0)
    assert elo_gap(1.0) == math.inf and elo_gap(0.0) == -math.inf
    assert np.isnan(one_sided_p(np.array([])))


def test_a_clean_sweep_has_an_infinite_gap_but_a_finite_interval_below():
    stats = step_statistics(np.ones(20), np.zeros(20, bool))
    assert stats.share == 1.0 and stats.elo == math.inf and stats.elo_ci_high == math.inf
    assert math.isfinite(stats.elo_ci_low) and stats.elo_ci_low > 0
    assert stats.upset_rate == 0.0 and stats.upset_ci_high > 0


# -- the levels ----------------------------------------------------------------------------
def test_levels_climb_the_search_budget_by_the_factor():
    levels = chain_levels("maharani", "25", max_steps=3)
    assert levels.labels == ["mcts:iterations=25", "mcts:iterations=100",
                             "mcts:iterations=400", "mcts:iterations=1600"]
    assert levels.param == "iterations" and not levels.ended_by_range
    # the range of iterations ends at 2**22 = 4,194,304: 25 * 4**9 = 6,553,600 is not a level
    top = chain_levels("maharani", "mcts:iterations=25:exploration=1", max_steps=12)
    assert top.budgets[-1] == 1_638_400 and top.ended_by_range
    assert all("exploration=1" in t for t in top.labels)
    timed = chain_levels("maharani", "mcts:ms=2", max_steps=2)
    assert timed.param == "ms" and timed.labels[-1] == "mcts:ms=32"
    assert chain_levels("tajmahal", max_steps=1).labels == ["ismcts:iterations=500",
                                                            "ismcts:iterations=2000"]
    assert chain_levels("maharaja", "10", max_steps=1).labels[1] == "search:iterations=40"
    # Maharaja's second search, the whole turn's, named by the start
    assert chain_levels("maharaja", "turnsearch:iterations=2", max_steps=2).labels == [
        "turnsearch:iterations=2", "turnsearch:iterations=8", "turnsearch:iterations=32"]


@pytest.mark.parametrize("game, start, factor, steps, needle", [
    ("nothanks", None, 4, 3, "no search strategy"),
    ("maharani", "balanced", 4, 3, "is not Maharani's search"),
    ("maharani", "mcts:iterations=0", 4, 3, "iterations"),
    ("maharani", "25", 1, 3, "factor"),
    ("maharani", "25", 4, 0, "max steps"),
])
def test_bad_levels_are_one_line_user_errors(game, start, factor, steps, needle):
    with pytest.raises(UserError, match=needle):
        chain_levels(game, start, factor=factor, max_steps=steps)


# -- the seatings of a match ---------------------------------------------------------------
def test_every_arrangement_equally_often_and_each_level_in_each_seat():
    assert arrangements(2) == [(0, 1), (1, 0)]
    assert len(arrangements(4)) == 6 and all(sum(a) == 2 for a in arrangements(4))
    assert len(arrangements(3)) == 6  # AAB x3 and ABB x3
    assert [match_block(p) for p in (2, 3, 4, 5)] == [2, 6, 12, 20]
    for players in (2, 3, 4, 5):
        runs = match_runs("A", "B", players, 1, seed=7)
        games = sum(r.games for r in runs)
        assert games == match_block(players)
        # what the runner's rotate seating plays: seat p of game g is entries[(p + g) % n]
        seen: dict[tuple[str, ...], int] = {}
        for r in runs:
            assert r.games % players == 0
            for g in range(r.games):
                lineup = tuple(r.strategies[(p + g) % players] for p in range(players))
                seen[lineup] = seen.get(lineup, 0) + 1
        assert len(seen) == len(arrangements(players))
        assert len(set(seen.values())) == 1  # each arrangement equally often
        a_per_seat = [sum(c for lu, c in seen.items() if lu[p] == "A") for p in range(players)]
        assert len(set(a_per_seat)) == 1
    assert sum(size for _, size in rotation_classes(4)) == 6
    seeds = {r.seed for r in match_runs("A", "B", 4, 12, seed=7)}
    assert len(seeds) == 2  # each run its own deals


# -- a tiny real chain: reproducible from its seed ------------------------------------------
@pytest.fixture(scope="module")
def tiny_chain() -> pd.DataFrame:
    table, _ = play_chain("maharani", 2, "1", games=6, max_steps=2, seed=11, workers=1)
    return table


def test_a_real_chain_is_reproducible_from_its_seed(tiny_chain):
    again, _ = play_chain("maharani", 2, "1", games=6, max_steps=2, seed=11, workers=1)
    pd.testing.assert_frame_equal(tiny_chain, again)
    assert tiny_chain["n"].iloc[0] == 6  # 4 games cannot reach p < 0.001: all 3 looks
    assert tiny_chain["look"].iloc[0] == 3 and tiny_chain.attrs["stages"] == [2, 4, 6]
    one_look, _ = play_chain("maharani", 2, "1", games=6, max_steps=1, seed=11, workers=1,
                             looks=1)
    assert one_look["looks"].iloc[0] == 1 and one_look["level"].iloc[0] == 0.05
    assert tiny_chain["weaker"].iloc[0] == "mcts:iterations=1"
    assert tiny_chain.attrs["players"] == 2 and tiny_chain.attrs["seed"] == 11


def _stage_runs(store: Path) -> list[Path]:
    return sorted(p for p in store.glob("step-*/look-*/run-*") if p.is_dir())


def named_run_folders(store: Path, table: pd.DataFrame, game: str, players: int, games: int,
                      seed: int, looks: int = 4) -> list[Path]:
    """The run folders ``stage_run_folders`` names for every look a chain's table played."""
    from tajsim.analysis.skill_chain import stage_run_folders

    design = step_design(games, match_block(players), looks)
    return [folder for r in table.itertuples()
            for stage in ([None] if looks == 1 else range(int(r.look)))
            for folder in stage_run_folders(store, game, players, r.weaker, r.stronger, design,
                                            int(r.step), stage, seed, games=games)]


def test_a_stored_chain_keeps_its_games_and_plays_only_the_missing_ones(tiny_chain, tmp_path):
    store = tmp_path / "games"
    first, _ = play_chain("maharani", 2, "1", games=6, max_steps=2, seed=11, workers=1,
                          store=store)
    pd.testing.assert_frame_equal(first, tiny_chain)  # storing changes no game
    assert first.attrs["stored_games"] == 0
    runs = _stage_runs(store)
    assert runs and all((r / "manifest.json").is_file() for r in runs)
    looks = {(r.parent.parent.name, r.parent.name) for r in runs}
    assert ("step-1", "look-1") in looks and ("step-1", "look-3") in looks
    assert runs == sorted(named_run_folders(store, first, "maharani", 2, 6, 11))
    # a run killed part way: the last chunk of one stage lost (its done mark), another
    # stage's chunk corrupted; played again, only those games are played, the rest read back
    lost = runs[0]
    marks = sorted((lost / "aggregates").glob("chunk-*.npz"))
    marks[-1].unlink()
    bad = sorted((runs[-1] / "chunks").glob("chunk-*.parquet"))[0]
    bad.write_bytes(bad.read_bytes()[:-7] + b"garbage")
    with pytest.warns(UserWarning):
        again, _ = play_chain("maharani", 2, "1", games=6, max_steps=2, seed=11, workers=1,
                              store=store)
    pd.testing.assert_frame_equal(again, tiny_chain)
    total = int(tiny_chain["n"].sum())
    assert 0 < again.attrs["stored_games"] < total
    # every game stored: nothing is played
    last, _ = play_chain("maharani", 2, "1", games=6, max_steps=2, seed=11, workers=1,
                         store=store)
    pd.testing.assert_frame_equal(last, tiny_chain)
    assert last.attrs["stored_games"] == total


def test_a_one_look_chain_announces_its_rounded_step_and_the_games_read_back(tmp_path):
    said: list[str] = []
    kwargs = dict(games=3, max_steps=1, seed=11, workers=1, looks=1, store=tmp_path,
                  announce=said.append)
    first, _ = play_chain("maharani", 2, "1", **kwargs)
    assert said == ["step 1: mcts:iterations=1 against mcts:iterations=4, 4 games"]  # 3 -> 4
    said.clear()
    again, _ = play_chain("maharani", 2, "1", **kwargs)
    pd.testing.assert_frame_equal(first, again, check_like=True, check_exact=True)
    assert said[1] == f"step 1: 4 of its games read back from {tmp_path}"
    runs = sorted(tmp_path.glob("step-*/run-*"))
    assert runs and runs == sorted(named_run_folders(tmp_path, first, "maharani", 2, 3, 11,
                                                     looks=1))


def test_a_stored_match_of_another_design_gets_its_own_folder(tmp_path):
    from tajsim.analysis.skill_matches import play_match

    one = play_match("maharani", 2, "random", "greedy", 4, seed=1, workers=1, store=tmp_path)
    with pytest.warns(UserWarning, match="played with another design or other engine code"):
        two = play_match("maharani", 2, "random", "greedy", 4, seed=2, workers=1,
                         store=tmp_path)
    assert len(list(tmp_path.iterdir())) == 2  # another seed: another run folder
    again = play_match("maharani", 2, "random", "greedy", 4, seed=1, workers=1, store=tmp_path)
    pd.testing.assert_frame_equal(again, one)
    assert not one.equals(two)


def test_the_chain_files(tiny_chain, tmp_path):
    paths = write_chain(tiny_chain, tmp_path, command="tajsim chain ...")
    assert [p.name for p in paths] == ["chain.csv", "chain.md", "fig_chain.png"]
    text = (tmp_path / "chain.md").read_text()
    assert "Chain length" in text and "tajsim chain ..." in text and "fig_chain.png" in text
    # the sequential design on the page: the looks, the boundary, the last look's level
    assert "in 3 looks, after 2, 4 and 6 games" in text and "0.047 = 0.05 - 2 x 0.001" not in text
    assert "0.048 = 0.05 - 2 x 0.001" in text and "| look |" in text
    back = pd.read_csv(tmp_path / "chain.csv")
    assert list(back["n"]) == list(tiny_chain["n"])


# -- the command line ----------------------------------------------------------------------


@pytest.mark.parametrize("args, needle", [
    (["--game", "maharani", "--games", "0"], "--games 0"),
    (["--game", "maharani", "--start", "balanced"], "search"),
    (["--game", "nothanks"], "no search strategy"),
    (["--game", "maharani", "--factor", "1"], "factor"),
    (["--game", "maharani", "--max-steps", "0"], "max steps"),
    (["--game", "maharani", "-p", "9"], "9"),
    (["--game", "maharani", "--start", "mcts:iterations=x"], "iterations=x"),
    (["--game", "maharani", "--looks", "0"], "--looks 0"),
    (["--game", "maharani", "--looks", "11"], "--looks 11"),
    (["--game", "maharani", "--interim-p", "0"], "--interim-p 0"),
    (["--game", "maharani", "--interim-p", "0.05"], "--interim-p 0.05"),
    (["--game", "maharani", "--looks", "10", "--interim-p", "0.007"], "interim p 0.007"),
    (["--game", "maharaja", "--start", "hoarder:iterations=2"], "turnsearch"),
])
def test_cli_bad_input_is_one_line(args, needle, tmp_path):
    res = CliRunner().invoke(cli, ["chain", *args, "--out", str(tmp_path / "c")])
    one_line_error(res, needle)


def test_cli_refuses_a_folder_of_other_files(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    res = CliRunner().invoke(cli, ["chain", "--game", "maharani", "--out", str(tmp_path)])
    one_line_error(res, "other files")


# -- tajsim chain --resume -----------------------------------------------------------------
#: A cheap real chain: Maharani at 2 players, mcts from 1 iteration, 20 games a step in 2 looks
#: (seed 1: steps 1 and 3 stop at their first look, step 2 plays both; all three significant).
RESUMABLE = ["chain", "--game", "maharani", "-p", "2", "--start", "1", "--games", "20",
             "--looks", "2", "--seed", "1", "-w", "1", "-q"]


def chain_run(out, *args: str, quiet: bool = True):
    flags = RESUMABLE if quiet else [a for a in RESUMABLE if a != "-q"]
    return CliRunner().invoke(cli, [*flags, "--out", str(out), *args])


def table_lines(folder) -> list[str]:
    return [line for line in (folder / "chain.md").read_text().splitlines()
            if line.startswith("| ") or line.startswith("**Chain length")]


@pytest.fixture(scope="module")
def fresh_chain(tmp_path_factory):
    out = tmp_path_factory.mktemp("fresh")
    res = chain_run(out, "--max-steps", "3")
    assert res.exit_code == 0, res.output
    return out


def test_a_resumed_chain_equals_the_chain_played_in_one_go(fresh_chain, tmp_path):
    assert chain_run(tmp_path, "--max-steps", "1").exit_code == 0
    one = (tmp_path / "chain.csv").read_text()
    res = chain_run(tmp_path, "--max-steps", "2", "--resume")
    assert res.exit_code == 0, res.output
    text = (tmp_path / "chain.md").read_text()
    assert "Resumed: step 1 played earlier, 2 in a resumed run" in text
    assert "--max-steps 2 " in text and "--resume" not in text.split("```")[1]
    assert re.search(r"^Cost: [\d,]+ s wall, [\d,]+ s CPU in all: [\d,]+ s wall, [\d,]+ s CPU "
                     r"earlier \(step 1\) and .* in the resumed run \(step 2; 1 worker", text,
                     re.MULTILINE), text
    assert (tmp_path / "chain.csv").read_text().startswith(one)  # step 1 kept as it was
    res = chain_run(tmp_path, "--max-steps", "3", "--resume")
    assert res.exit_code == 0, res.output
    # every column of every step, and the page's table, as the chain played in one go
    assert (tmp_path / "chain.csv").read_bytes() == (fresh_chain / "chain.csv").read_bytes()
    assert table_lines(tmp_path) == table_lines(fresh_chain)
    fresh = pd.read_csv(fresh_chain / "chain.csv")
    assert fresh["significant"].all() and fresh["look"].tolist() == [1, 2, 1]
    text = (tmp_path / "chain.md").read_text()
    assert "Resumed: steps 1-2 played earlier, 3 in a resumed run" in text
    made = text.split("```")[1].strip()
    assert made == (fresh_chain / "chain.md").read_text().split("```")[1].strip().replace(
        str(fresh_chain), str(tmp_path))
    # the API: kept steps read back and played on give the one-go table
    kept = read_chain(tmp_path).table.iloc[:1]
    table, _ = play_chain("maharani", 2, "1", games=20, looks=2, max_steps=3, seed=1,
                          workers=1, kept=kept)
    pd.testing.assert_frame_equal(table, fresh.astype(table.dtypes.to_dict()), rtol=1e-5)


def _contents(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file below ``folder`` (its games store included): bytes and modification time."""
    return {str(p.relative_to(folder)): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(folder.rglob("*")) if p.is_file()}


def test_resume_plays_nothing_where_there_is_nothing_to_play(fresh_chain, tmp_path):
    import shutil

    for steps in ("3", "2"):  # --max-steps not above the kept steps: reported as it is
        folder = tmp_path / steps
        shutil.copytree(fresh_chain, folder)
        before = _contents(folder)
        res = CliRunner().invoke(cli, [*RESUMABLE[:-1], "--out", str(folder), "--max-steps",
                                       steps, "--resume"])
        assert res.exit_code == 0, res.output
        assert "step 3 (kept)" in res.output and "nothing to play" in res.output
        assert _contents(folder) == before


def test_resume_of_an_ended_chain_says_it_has_ended(tmp_path):
    # 2 games a step cannot be significant (p >= 0.079): the chain ends at step 1
    args = ["chain", "--game", "maharani", "-p", "2", "--start", "1", "--games", "2",
            "--looks", "1", "--seed", "3", "-w", "1", "--out", str(tmp_path)]
    assert CliRunner().invoke(cli, [*args, "--max-steps", "1", "-q"]).exit_code == 0
    assert not pd.read_csv(tmp_path / "chain.csv")["significant"].iloc[0]
    before = _contents(tmp_path)
    res = CliRunner().invoke(cli, [*args, "--max-steps", "4", "--resume"])
    assert res.exit_code == 0, res.output
    assert "the chain has ended: step 1 is not significant; nothing to play" in res.output
    assert _contents(tmp_path) == before


@pytest.mark.parametrize("option, value, needle", [
    ("--games", "40", "--games 20, this command asks for --games 40"),
    ("--seed", "2", "--seed 1, this command asks for --seed 2"),
    ("--start", "4", "--start mcts:iterations=1, this command asks for --start "
                     "mcts:iterations=4"),
    ("--looks", "3", "--looks 2, this command asks for --looks 3"),
    ("--interim-p", "0.002", "--interim-p 0.001, this command asks for --interim-p 0.002"),
    ("--factor", "2", "--factor 4, this command asks for --factor 2"),
    ("-p", "4", "-p 2, this command asks for -p 4"),
    ("--game", "tajmahal", "--game maharani, this command asks for --game tajmahal"),
])
def test_resume_refuses_another_design(fresh_chain, option, value, needle):
    args = list(RESUMABLE)
    if option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option, value]
    if option == "--game":
        args[args.index("--start") + 1] = "ismcts:iterations=1"
    res = CliRunner().invoke(cli, [*args, "--out", str(fresh_chain), "--max-steps", "4",
                                   "--resume"])
    one_line_error(res, needle, str(fresh_chain))


@pytest.mark.parametrize("args", [
    ("--max-steps", "3"),  # the same command: it would replay the chain, rewriting its table
    ("--max-steps", "5"),
    ("--max-steps", "3", "--seed", "2"),  # another design
    ("--max-steps", "1", "--start", "4"),
])
def test_a_chain_is_not_replaced_without_resume_or_force(fresh_chain, tmp_path, args):
    import shutil

    out = tmp_path / "c"
    shutil.copytree(fresh_chain, out)
    before = (out / "chain.csv").read_bytes()
    needles = (f"--out {out} holds a chain already (chain.csv and chain.md); expected --resume "
               "to extend it, another --out, or --force")
    one_line_error(chain_run(out, *args), needles)
    assert (out / "chain.csv").read_bytes() == before
    (out / "chain.md").unlink()  # half a chain (killed between the two writes): refused too
    one_line_error(chain_run(out, *args), "holds a chain already (chain.csv);")
    res = chain_run(out, "--max-steps", "1", "--force", "--store", "none")
    assert res.exit_code == 0, res.output  # --force replaces it
    assert len(pd.read_csv(out / "chain.csv")) == 1


def test_resume_compares_editions_by_name(tmp_path):
    from tajsim.cli.chain import check_same_design

    design = dict(game="tajmahal", players=2, start="ismcts:iterations=16", games=2000,
                  looks=4, interim_p=0.001, factor=4.0, seed=1)
    earlier = {**design, "edition": None, "max_steps": 4, "out": "x", "workers": 1}
    check_same_design(earlier, tmp_path, **design, edition="2018")  # the default, named
    with pytest.raises(UserError, match="--edition 2018, this command asks for --edition 2000"):
        check_same_design(earlier, tmp_path, **design, edition="2000")
    # a one-look chain has no interim look: its --interim-p (unwritten by old chains) is moot
    check_same_design({**earlier, "looks": 1, "interim_p": None}, tmp_path,
                      **{**design, "looks": 1, "interim_p": 0.01}, edition="2018")


def test_the_command_keeps_its_games_and_reads_them_back(tmp_path):
    import shutil

    out = tmp_path / "c"
    res = chain_run(out, "--max-steps", "1", quiet=False)
    assert res.exit_code == 0, res.output
    assert _stage_runs(out / "games")  # the default store: games/ in --out
    assert "step 1, look 1 of 2: " in res.stdout and "read back" not in res.stdout
    before = (out / "chain.csv").read_bytes()
    # played again from the start (--force): every game read back, each look saying so
    res = chain_run(out, "--max-steps", "1", "--force", quiet=False)
    assert res.exit_code == 0, res.output
    assert (out / "chain.csv").read_bytes() == before
    looks = re.findall(r"^step 1, look \d of 2: ([\d,]+) of its games read back from (.+)$",
                       res.stdout, re.M)
    n = int(pd.read_csv(out / "chain.csv")["n"].sum())
    assert all(where == str(out / "games") for _, where in looks), res.stdout
    assert sum(int(count.replace(",", "")) for count, _ in looks) == n, res.stdout
    assert f"The cost leaves out the {n:,} games read back from `{out / 'games'}`" in (
        out / "chain.md").read_text()
    # a damaged stored chunk: played again, said in one line, the table the same
    bad = sorted((out / "games").rglob("chunk-*.parquet"))[0]
    bad.write_bytes(bad.read_bytes()[:-7] + b"garbage")
    res = chain_run(out, "--max-steps", "1", "--force")
    assert res.exit_code == 0, res.output
    assert (out / "chain.csv").read_bytes() == before
    warned = [line for line in res.stderr.splitlines() if "warning" in line.lower()]
    assert warned and all(line.startswith("warning: ") for line in warned), res.stderr
    assert "UserWarning" not in res.stderr
    read_back = int(re.search(r"leaves out the ([\d,]+) games read back",
                              (out / "chain.md").read_text()).group(1))
    assert 0 < read_back < n  # the damaged chunk's games were played again
    # extended with --resume: the games the earlier run read back stay left out of the cost
    res = chain_run(out, "--max-steps", "2", "--resume")
    assert res.exit_code == 0, res.output
    assert f"The cost leaves out the {read_back:,} games read back" in (
        out / "chain.md").read_text()
    # a folder of its own (--store) is in the command, and a resume without it reads it back
    own, mine = tmp_path / "own", tmp_path / "mine"
    assert chain_run(own, "--max-steps", "1", "--store", str(mine)).exit_code == 0
    made = (own / "chain.md").read_text().split("```")[1]
    assert f"--store {mine}" in made and _stage_runs(mine) and not (own / "games").exists()
    shutil.rmtree(own)
    assert chain_run(own, "--max-steps", "1", "--store", str(mine)).exit_code == 0
    res = chain_run(own, "--max-steps", "2", "--resume")
    assert res.exit_code == 0, res.output
    assert not (own / "games").exists() and (mine / "step-2").is_dir()
    bare = tmp_path / "bare"
    assert chain_run(bare, "--max-steps", "1", "--store", "none").exit_code == 0
    assert not (bare / "games").exists()
    assert (bare / "chain.csv").read_bytes() == before
    (tmp_path / "file").write_text("x")
    one_line_error(chain_run(tmp_path / "d", "--store", str(tmp_path / "file")), "--store",
                   "is a file")
    (tmp_path / "e").mkdir()
    (tmp_path / "e" / "games").write_text("x")
    one_line_error(chain_run(tmp_path / "e"), "games folder", "default games/ in --out")


def test_resume_without_an_earlier_chain_is_one_line(tmp_path):
    one_line_error(chain_run(tmp_path / "none", "--max-steps", "2", "--resume"),
                   "chain.csv is missing")
    tmp_path.joinpath("chain.csv").write_text("step\n1\n")
    one_line_error(chain_run(tmp_path, "--max-steps", "2", "--resume"), "chain.md is missing")
    # a chain stopped before its first step finished: its games, no table
    (tmp_path / "first" / "games" / "step-1").mkdir(parents=True)
    one_line_error(chain_run(tmp_path / "first", "--max-steps", "2", "--resume"),
                   "holds no finished step yet", "without --resume")


def _corrupt(kind: str, csv: str) -> str:
    lines = csv.splitlines()
    head, rows = lines[0].split(","), [line.split(",") for line in lines[1:]]
    if kind == "columns":
        return ",".join(head[:-1]) + "\n" + "\n".join(",".join(r[:-1]) for r in rows) + "\n"
    if kind == "value":
        rows[0][head.index("share")] = "lots"
    elif kind == "bool":
        rows[0][head.index("significant")] = "maybe"
    elif kind == "steps":
        rows[0][head.index("step")] = "2"
    elif kind == "level":
        rows[0][head.index("stronger")] = "mcts:iterations=5"
    elif kind == "games":
        rows[0][head.index("n")] = "12"
    elif kind == "empty":
        rows = []
    elif kind == "truncated":
        return "\n".join(lines)[: len(lines[0]) + 20]
    return "\n".join(",".join(r) for r in [head, *rows]) + "\n"


@pytest.mark.parametrize("kind, needle", [
    ("columns", "wrong columns (missing level)"),
    ("value", "column share: 'lots' is not a float"),
    ("bool", "column significant: 'maybe' is not a bool"),
    ("steps", "steps 2, 2, 3 are not 1 .. 3"),
    ("level", "step 1: levels mcts:iterations=1 -> mcts:iterations=5 are not the design's"),
    ("games", "step 1: n = 12 games at look 1 is not the design's 10"),
    ("empty", "holds no steps"),
    ("truncated", "chain.csv"),
])
def test_resume_refuses_a_corrupt_chain_csv(fresh_chain, tmp_path, kind, needle):
    import shutil

    shutil.copytree(fresh_chain, tmp_path, dirs_exist_ok=True)
    csv = tmp_path / "chain.csv"
    csv.write_text(_corrupt(kind, csv.read_text()))
    one_line_error(chain_run(tmp_path, "--max-steps", "4", "--resume"), needle, str(csv))


def test_resume_refuses_a_chain_md_without_its_command(fresh_chain, tmp_path):
    import shutil

    shutil.copytree(fresh_chain, tmp_path, dirs_exist_ok=True)
    md = tmp_path / "chain.md"
    md.write_text(md.read_text().replace("Made with:", "Made by hand:"))
    one_line_error(chain_run(tmp_path, "--max-steps", "4", "--resume"), "Made with",
                   str(md))


def test_a_resumed_chain_without_the_earlier_cost_says_so(tmp_path):
    assert chain_run(tmp_path, "--max-steps", "1").exit_code == 0
    md = tmp_path / "chain.md"
    md.write_text("\n".join(line for line in md.read_text().splitlines()
                            if not line.startswith("Cost:")) + "\n")
    res = chain_run(tmp_path, "--max-steps", "2", "--resume")
    assert res.exit_code == 0, res.output
    text = md.read_text()
    assert "Cost of the resumed run (step 2): " in text
    assert "the earlier run's (step 1) is not recorded" in text
    assert not re.search(r"^Cost: ", text, re.MULTILINE)


REPORTS = Path(__file__).resolve().parent.parent / "reports"


def test_the_shipped_one_look_chain_reads_back_with_its_design():
    stored = read_chain(REPORTS / "maharaja/chain_2p_search")  # written before the look columns
    assert stored.options["looks"] == 1 and stored.options["interim_p"] is None
    assert stored.table["look"].tolist() == [1, 1, 1]
    assert stored.table["level"].tolist() == [0.05] * 3 and stored.wall_s is None
    # an ended chain (its one step not significant): nothing will resume it and change its cost
    shipped = read_chain(REPORTS / "maharaja/chain_4p_start1")
    assert shipped.options["start"] == "turnsearch:iterations=1"
    assert (shipped.wall_s, shipped.cpu_s) == (782.0, 291.0)


def test_the_documented_resume_commands_extend_the_shipped_chains():
    """docs/running.md lists the command that extends each shipped chain whose end is not
    measured: each has the design of the chain in its --out (so --resume accepts it) and
    one step more than the chain has, whose stronger level is within the search's range (or
    the command would say "nothing to play")."""
    import shlex

    from tajsim.cli.chain import _edition_name, check_same_design
    from tajsim.games.registry import get_game
    from tajsim.reporting.skill_chain_sections import _made_with_options

    text = (REPORTS.parent / "docs/running.md").read_text()
    commands = [line for line in text.splitlines()
                if line.startswith("tajsim chain ") and line.endswith(" --resume")]
    assert len(commands) == 2
    for command in commands:
        options = _made_with_options(command.removesuffix(" --resume"), "docs/running.md")
        stored = read_chain(REPORTS.parent / options["out"])
        assert stored.table["significant"].all(), options["out"]  # its end not measured
        assert options["max_steps"] == len(stored.table) + 1, options["out"]
        reach = chain_levels(options["game"], options["start"], factor=options["factor"],
                             max_steps=options["max_steps"])
        assert len(reach.budgets) - 1 == options["max_steps"], (options["out"], reach.labels)
        design = {k: options[k] for k in ("game", "players", "start", "games", "looks",
                                          "interim_p", "factor", "seed")}
        check_same_design(stored.options, Path(options["out"]), **design,
                          edition=_edition_name(get_game(options["game"]), None))
        assert shlex.split(command)[:2] == ["tajsim", "chain"]


def test_the_readme_chain_table_is_the_shipped_chains():
    """README's table of the six chains: each row's last step, share, interval, n, p and
    length as its chain.csv holds them."""
    text = (REPORTS.parent / "README.md").read_text()
    rows = [line for line in text.splitlines() if line.startswith("| ") and "chain.md)" in line]
    assert len(rows) == 6
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        folder = REPORTS.parent / re.search(r"\(([^)]+)/chain\.md\)", cells[2]).group(1)
        table = read_chain(folder).table
        last = table.iloc[-1]
        share = (f"{100 * last.share:.1f}% [{100 * last.ci_low:.1f}, "
                 f"{100 * last.ci_high:.1f}]")
        assert cells[4] == share, (folder, cells[4], share)
        assert cells[5] == f"{int(last.n):,}", folder
        assert cells[6] == f"{last.p_value:.2g}", folder
        length = int(table["significant"].sum())
        assert cells[7] == (f"at least {length}: end not measured" if last.significant
                            else f"**{length}** (ends)"), folder


def shipped_chain_games() -> list[tuple[Path, Path]]:
    """(chain folder, run folder) of every stored run under the shipped chains' games/
    (``step-K/look-J/run-*``, or ``step-K/run-*`` for a one-look chain)."""
    return [(games.parent, run) for games in sorted(REPORTS.glob("**/games"))
            if (games.parent / "chain.md").exists()
            for run in sorted([*games.glob("step-*/look-*/run-*"), *games.glob("step-*/run-*")])]


def test_the_committed_chain_games_are_the_games_a_resume_reads_back():
    """The games of a chain step are committed so that a step of hours goes on over sittings
    on fresh clones. Every stored chunk must verify. A run of the step the chain has not
    finished must be one its ``--resume`` reads back (``stage_run_folders``, the folders the
    stored-chain tests above check the chain writes): its key digests the run's design and
    the game's code, so an edit to that code would leave those games unread and play them
    afresh (hours); such an edit must remove them on purpose, or wait for the step to end.
    A finished step's games are its table's evidence, played by the code of their day."""
    from tajsim.analysis.skill_chain import stage_run_folders
    from tajsim.running.run_reading import run_status

    for chain, run in shipped_chain_games():
        if not (run / "manifest.json").exists():
            continue  # opened by a run stopped before it wrote anything
        run_status(run)  # raises on a damaged chunk
        stored = read_chain(chain)
        options = stored.options
        one_look = run.parent.name.startswith("step-")
        step = int((run.parent if one_look else run.parent.parent).name.split("-")[1])
        if step <= len(stored.table):
            continue
        stage = None if one_look else int(run.parent.name.split("-")[1]) - 1
        levels = chain_levels(options["game"], options["start"], factor=options["factor"],
                              max_steps=step).labels
        design = step_design(options["games"], match_block(options["players"]),
                             options["looks"], interim_p=options["interim_p"] or 0.001)
        expected = stage_run_folders(chain / "games", options["game"], options["players"],
                                     levels[step - 1], levels[step], design, step, stage,
                                     options["seed"], games=options["games"],
                                     edition=options["edition"])
        assert run in expected, (
            f"{run.relative_to(REPORTS)} is not a run of its chain's design and this code "
            f"({[p.name for p in expected]}): --resume would play its games again; remove "
            "them on purpose, or make the edit once the step has ended")


def test_the_chain_games_are_committed_and_their_locks_and_partial_files_are_not():
    import shutil
    import subprocess

    root = REPORTS.parent
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    run = "reports/chain_2p/games/step-6/look-1/run-0-0123456789ab"
    one_look = "reports/maharaja/chain_2p_search/games/step-3/run-1-0123456789ab"
    paths = [f"{run}/chunks/chunk-000001.parquet", f"{run}/aggregates/chunk-000001.npz",
             f"{run}/aggregates/chunk-000001.check.json", f"{run}/manifest.json",
             f"{one_look}/chunks/chunk-000000.parquet",
             f"{run}/.lock", f"{run}/chunks/.chunk-000002.parquet.tmp-4242",
             "reports/default/runs/r/chunks/chunk-000001.parquet",
             "reports/x/chunks/chunk-000001.parquet", "reports/x/aggregates/chunk-000001.npz"]
    ignored = subprocess.run(["git", "-c", "core.excludesFile=/dev/null", "check-ignore",
                              "--no-index", *paths], cwd=root,
                             capture_output=True, text=True).stdout.split()
    assert ignored == paths[5:]  # the lock, a file being written, a run's chunks


def test_status_reads_where_a_step_stands_and_plays_nothing(fresh_chain, tmp_path):
    """``--status`` (the design options of ``--resume``): the kept steps, then the next step's
    looks from the games folder; a whole look's figures are the ones the chain computes there,
    a look missing a chunk has no verdict; nothing is played or written."""
    import shutil

    folder = tmp_path / "c"
    shutil.copytree(fresh_chain, folder)
    full = pd.read_csv(folder / "chain.csv")
    # the chain as it stood while step 3 was being played: its games stored, no row yet
    full.iloc[:2].to_csv(folder / "chain.csv", index=False)
    before = _contents(folder)
    res = CliRunner().invoke(cli, [*RESUMABLE[:-1], "--out", str(folder), "--status"])
    assert res.exit_code == 0, res.output
    assert _contents(folder) == before
    lines = res.output.splitlines()
    assert lines[0].startswith("step 1 (kept)") and lines[1].startswith("step 2 (kept)")
    step3 = full.iloc[2]
    assert lines[2].startswith(f"step 3: {step3.weaker} against {step3.stronger}, up to 20 "
                               "games in 2 looks; stored in ")
    share = f"{100 * step3.share:.1f}% [{100 * step3.ci_low:.1f}, {100 * step3.ci_high:.1f}]"
    assert lines[3].startswith("  look 1 of 2: 10 of its 10 games stored; 10 games so far: "
                               f"{step3.stronger} wins {share} (one-sided p = "
                               f"{step3.p_value:.2g} against the look's 0.001"), lines[3]
    assert lines[3].endswith("stops the step: significant") and len(lines) == 4
    # a chunk short: that look has no verdict
    done = sorted((folder / "games" / "step-3" / "look-1").rglob("aggregates/chunk-*.npz"))
    done[0].unlink()
    res = CliRunner().invoke(cli, [*RESUMABLE[:-1], "--out", str(folder), "--status"])
    assert res.exit_code == 0, res.output
    assert re.search(r"look 1 of 2: \d of its 10 games stored \(no verdict: a look counts "
                     r"when it is whole\)$", res.output.splitlines()[3]), res.output
    # the next step of the whole chain: nothing stored; another design: one line
    res = CliRunner().invoke(cli, [*RESUMABLE[:-1], "--out", str(fresh_chain), "--status"])
    assert res.output.splitlines()[-1] == (
        f"step 4 (mcts:iterations=64 against mcts:iterations=256): no games stored yet in "
        f"{fresh_chain / 'games'}")
    one_line_error(CliRunner().invoke(cli, [*RESUMABLE[:-1], "--out", str(fresh_chain),
                                            "--status", "--seed", "2"]),
                   "--status: the chain in", "--seed 1, this command asks for --seed 2")
