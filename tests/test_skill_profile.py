"""Skill profiles (tajsim.analysis.skill_profile, the report section ``skill_profile``, tajsim
profile): the levels each game's registry gives, the matrix on hand-made results (diagonal,
antisymmetry, n, intervals, the first seat), the seatings of real matches (each level in each
seat equally often, every arrangement equally often), reproducibility from a seed, the section
and the CLI's bad input."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from cli_checks import one_line_error
from click.testing import CliRunner
from statsmodels.stats.proportion import proportion_confint

from tajsim.analysis.registry import run_analyses
from tajsim.analysis.skill_profile import (
    play_profile,
    profile_levels,
    profile_matrix,
    skill_profile,
)
from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.reporting.report import build_report


def test_levels_from_each_games_registry():
    assert profile_levels("maharani") == ["random", "greedy", "balanced",
                                          "mcts:iterations=75", "mcts:iterations=300"]
    assert profile_levels("tajmahal", [100, 400])[-2:] == ["ismcts:iterations=100",
                                                           "ismcts:iterations=400"]
    assert profile_levels("maharaja")[2:] == ["balanced", "search:iterations=20",
                                              "search:iterations=80"]
    assert profile_levels("nothanks") == ["random", "greedy"]  # no preset, no search
    with pytest.raises(UserError, match="iterations"):
        profile_levels("maharani", [0])


def hand_results(outcomes: dict[tuple[str, str], list[int]]) -> pd.DataFrame:
    """Two-player results: for each pair (a, b) a list of winners per game (0: seat 0, 1: seat
    1, 2: a shared win), a in seat 0 on even games, b on odd ones; a mirror has a == b."""
    rows = []
    for (a, b), winners in outcomes.items():
        for g, w in enumerate(winners):
            seats = (a, b) if g % 2 == 0 else (b, a)
            for seat, strategy in enumerate(seats):
                won = w == 2 or w == seat
                rows.append({"run_id": f"{a} v {b}", "seed": 0, "n_players": 2, "game_id": g,
                             "seat": seat, "strategy": strategy, "winner": won,
                             "rank": 1 if won else 2, "score": 0})
    return pd.DataFrame(rows)


def test_the_matrix_on_hand_made_results():
    frame = hand_results({
        ("r", "r"): [0, 1, 0, 0],            # mirror: the first seat wins 3 of 4
        ("r", "g"): [1, 0, 1, 0, 2, 0],      # g wins 5 games (seated 1, 0, 1, 0, 0), one shared
        ("g", "b"): [1, 0, 1, 0, 1, 0, 1, 0],  # b wins every game
        ("r", "b"): [1, 0],
    })
    table = skill_profile(frame, levels=["r", "g", "b"])
    cells = table.set_index(["level", "opponent"])
    # diagonal: the mirror, share 1/2 by definition, first seat 3 of 4
    assert cells.loc[("r", "r"), "share"] == 0.5 and cells.loc[("r", "r"), "n"] == 4
    assert cells.loc[("r", "r"), "first_seat_rate"] == pytest.approx(0.75)
    assert ("g", "g") not in cells.index  # no mirror played
    # g against r: 5 wins and one shared of 6 -> 5.5 / 6
    assert cells.loc[("g", "r"), "share"] == pytest.approx(5.5 / 6)
    low, high = proportion_confint(5.5, 6, method="wilson")
    assert (cells.loc[("g", "r"), "ci_low"], cells.loc[("g", "r"), "ci_high"]) == \
        pytest.approx((low, high))
    assert cells.loc[("b", "g"), "share"] == 1.0 and cells.loc[("b", "g"), "n"] == 8
    # antisymmetry: the same games seen from both sides
    for a, b in (("r", "g"), ("g", "b"), ("r", "b")):
        assert cells.loc[(a, b), "share"] + cells.loc[(b, a), "share"] == pytest.approx(1.0)
        assert cells.loc[(a, b), "ci_low"] == pytest.approx(1 - cells.loc[(b, a), "ci_high"])
        assert cells.loc[(a, b), "n"] == cells.loc[(b, a), "n"]
        assert cells.loc[(a, b), "p_value"] == cells.loc[(b, a), "p_value"]
        assert cells.loc[(a, b), "seats_balanced"]
    every = table[table["kind"] == "all"].iloc[0]
    assert every["n"] == 4 + 6 + 8 + 2
    wins = 3 + 3.5 + 4 + 1  # seat 0's win values: mirror, r-g (one shared), g-b, r-b
    assert every["first_seat_rate"] == pytest.approx(wins / 20)
    matrix = profile_matrix(table)
    assert list(matrix.index) == ["r", "g", "b"] and np.isnan(matrix.loc["g", "g"])
    off = matrix.to_numpy()
    mask = ~np.eye(3, dtype=bool)
    assert np.allclose((off + off.T)[mask], 1.0)


def test_unbalanced_seats_are_flagged_and_other_games_left_out():
    frame = hand_results({("r", "g"): [0, 0, 0], ("r", "b"): [0, 1]})
    third = frame[frame["run_id"] == "r v b"].copy()
    third["run_id"] = "three"
    third.loc[third["seat"] == 1, "strategy"] = "x"  # a pair of other levels: not in levels
    table = skill_profile(pd.concat([frame, third]), levels=["r", "g", "b"])
    cells = table.set_index(["level", "opponent"])
    assert not cells.loc[("r", "g"), "seats_balanced"]  # 3 games: r sat first twice
    assert cells.loc[("r", "b"), "seats_balanced"]
    assert "x" not in set(table["level"])


def test_no_pairs_give_an_empty_table():
    """Games that seat three strategies are neither pairs nor mirrors: played games and still
    no profile; a mirror of the same frame is one."""
    rows = [{"run_id": "three", "seed": 0, "n_players": 3, "game_id": g, "seat": seat,
             "strategy": strategy, "winner": seat == g % 3, "rank": 1 if seat == g % 3 else 2,
             "score": 0}
            for g in range(6) for seat, strategy in enumerate(("x", "y", "z"))]
    three = pd.DataFrame(rows)
    table = skill_profile(three)
    assert table.empty and "share" in table.columns
    mirror = three.assign(strategy="z")
    assert len(skill_profile(mirror)[lambda t: t["kind"] == "mirror"]) == 1
    assert skill_profile(three.iloc[:0]).empty


# -- real matches --------------------------------------------------------------------------
LEVELS = ["random", "greedy", "balanced"]


@pytest.fixture(scope="module")
def four_player() -> pd.DataFrame:
    return play_profile("maharani", 4, LEVELS, games=12, seed=5, workers=1)


def test_real_matches_seat_every_level_in_every_seat_equally_often(four_player):
    r = four_player
    table = skill_profile(r)
    assert table.attrs["levels"] == LEVELS
    pairs = table[table["kind"] == "pair"]
    assert len(pairs) == 6 and (pairs["n"] == 12).all() and pairs["seats_balanced"].all()
    mirrors = table[table["kind"] == "mirror"]
    assert len(mirrors) == 3 and (mirrors["share"] == 0.5).all()
    for (a, b) in (("random", "greedy"), ("greedy", "balanced")):
        games = r[r["run_id"].astype(str).str.startswith(f"{a} v {b}")]
        per_seat = games.groupby(["seat", "strategy"], observed=True).size().unstack()
        assert (per_seat.to_numpy() == 6).all()  # 12 games: each level 6 times in each seat
        patterns = games.sort_values("seat").groupby(["run_id", "game_id"], observed=True)[
            "strategy"].agg(lambda s, first=a: "".join("A" if x == first else "B" for x in s))
        counts = patterns.value_counts()
        assert len(counts) == 6 and (counts == 2).all()  # every 2-vs-2 arrangement twice
    cells = table.set_index(["level", "opponent"])
    assert cells.loc[("greedy", "random"), "share"] + \
        cells.loc[("random", "greedy"), "share"] == pytest.approx(1.0)


def test_a_profile_is_reproducible_from_its_seed(four_player):
    again = play_profile("maharani", 4, LEVELS, games=12, seed=5, workers=1)
    pd.testing.assert_frame_equal(four_player.reset_index(drop=True),
                                  again.reset_index(drop=True))
    other = play_profile("maharani", 4, LEVELS, games=12, seed=6, workers=1)
    assert list(other["strategy"]) == list(four_player["strategy"])  # the same matches
    assert not other["score"].reset_index(drop=True).equals(
        four_player["score"].reset_index(drop=True))


def test_the_registry_and_the_report_section(four_player, tmp_path):
    out = run_analyses(four_player, ["skill_profile"], "maharani")["skill_profile"]
    assert {"n", "ci_low", "ci_high"} <= set(out.columns)
    report = build_report(four_player, tmp_path, sections=["skill_profile"], game="maharani",
                          config={"seed": 5})
    text = report.read_text()
    assert "## Skill profile" in text and "first seat" in text
    assert (tmp_path / "table_skill_profile.csv").is_file()
    assert (tmp_path / "fig_skill_profile.png").is_file()
    # one pair is no profile: the section adds nothing, not even its heading
    pair = four_player[four_player["run_id"].astype(str).str.startswith("random v greedy")]
    quiet = build_report(pair, tmp_path / "pair", sections=["overview", "skill_profile"],
                         game="maharani")
    assert "Skill profile" not in quiet.read_text()


# -- the command line ----------------------------------------------------------------------


@pytest.mark.parametrize("args, needle", [
    (["--levels", "random,greedy"], "three or more"),
    (["--levels", "random,greedy,random"], "three or more"),
    (["--levels", "random,greedy,nope"], "nope"),
    (["--search-budgets", "x"], "--search-budgets"),
    (["--search-budgets", "10", "--levels", "random,greedy,balanced"], "both given"),
    (["--games", "0"], "--games 0"),
    (["-p", "7"], "7"),
])
def test_cli_bad_input_is_one_line(args, needle, tmp_path):
    res = CliRunner().invoke(cli, ["profile", "--game", "maharani", *args, "--out",
                                   str(tmp_path / "p")])
    one_line_error(res, needle)


def test_cli_writes_a_profile_report(tmp_path):
    res = CliRunner().invoke(cli, ["profile", "--game", "maharani", "-p", "2", "--games", "4",
                                   "--levels", "random,greedy,balanced", "-q", "-w", "1",
                                   "--out", str(tmp_path / "p")])
    assert res.exit_code == 0, res.output
    text = (tmp_path / "p" / "report.md").read_text()
    assert "## Skill profile" in text
