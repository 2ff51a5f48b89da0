"""Skill chains (tajsim.analysis.skill_chain, tajsim chain): the stopping rule on synthetic
outcomes, each step's figures against hand computations, the levels, the seatings of a match,
reproducibility from a seed on a tiny real chain, the files written and the CLI's bad input."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from statsmodels.stats.proportion import proportion_confint, proportions_ztest

from tajsim.analysis.skill_chain import (
    chain_levels,
    elo_gap,
    one_sided_p,
    play_chain,
    run_chain,
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
from tajsim.reporting.skill_chain_sections import chain_markdown, write_chain


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
    # the range of iterations ends at 100,000: 25 * 4**6 = 102,400 is not a level
    top = chain_levels("maharani", "mcts:iterations=25:exploration=1", max_steps=9)
    assert top.budgets[-1] == 25_600 and top.ended_by_range
    assert all("exploration=1" in t for t in top.labels)
    timed = chain_levels("maharani", "mcts:ms=2", max_steps=2)
    assert timed.param == "ms" and timed.labels[-1] == "mcts:ms=32"
    assert chain_levels("tajmahal", max_steps=1).labels == ["ismcts:iterations=500",
                                                            "ismcts:iterations=2000"]
    assert chain_levels("maharaja", "10", max_steps=1).labels[1] == "search:iterations=40"


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
    assert tiny_chain["n"].iloc[0] == 6
    assert tiny_chain["weaker"].iloc[0] == "mcts:iterations=1"
    assert tiny_chain.attrs["players"] == 2 and tiny_chain.attrs["seed"] == 11


def test_the_chain_files(tiny_chain, tmp_path):
    paths = write_chain(tiny_chain, tmp_path, command="tajsim chain ...")
    assert [p.name for p in paths] == ["chain.csv", "chain.md", "fig_chain.png"]
    text = (tmp_path / "chain.md").read_text()
    assert "Chain length" in text and "tajsim chain ..." in text and "fig_chain.png" in text
    back = pd.read_csv(tmp_path / "chain.csv")
    assert list(back["n"]) == list(tiny_chain["n"])


# -- the command line ----------------------------------------------------------------------
def one_line_error(res, *needles: str) -> None:
    assert res.exit_code == 2, res.output
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("error: "), res.stderr
    for needle in needles:
        assert needle in res.stderr, res.stderr


@pytest.mark.parametrize("args, needle", [
    (["--game", "maharani", "--games", "0"], "--games 0"),
    (["--game", "maharani", "--start", "balanced"], "search"),
    (["--game", "nothanks"], "no search strategy"),
    (["--game", "maharani", "--factor", "1"], "factor"),
    (["--game", "maharani", "--max-steps", "0"], "max steps"),
    (["--game", "maharani", "-p", "9"], "9"),
    (["--game", "maharani", "--start", "mcts:iterations=x"], "iterations=x"),
])
def test_cli_bad_input_is_one_line(args, needle, tmp_path):
    res = CliRunner().invoke(cli, ["chain", *args, "--out", str(tmp_path / "c")])
    one_line_error(res, needle)


def test_cli_refuses_a_folder_of_other_files(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    res = CliRunner().invoke(cli, ["chain", "--game", "maharani", "--out", str(tmp_path)])
    one_line_error(res, "other files")
