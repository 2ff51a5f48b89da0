"""Skill profiles in a game's default report (issue 40 s3): the profile's design (every
seating of two levels, each level in each seat equally often, at 2 and 4 players), the
provenance ``tajsim profile`` writes beside its table, the ``[report] profiles`` key of an
experiment file (checked when the file is read: one line naming the bad folder), and the
``skill_profile`` section showing stored profiles with their n, intervals and command."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from tajsim.analysis.skill_matches import arrangements, match_runs
from tajsim.analysis.skill_profile import PROFILE_COLUMNS, play_profile, skill_profile
from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.reporting.report import build_report
from tajsim.reporting.skill_chain_sections import read_stored_profile
from tajsim.running.experiments import check_experiment, check_profiles, load_experiment


def seatings(a: str, b: str, players: int, games: int) -> Counter:
    """The line-ups a match plays, game by game, as the runner seats them: a rotated run plays
    its representative's rotations in turn (game g: rotation g mod players)."""
    played: Counter = Counter()
    for run in match_runs(a, b, players, games, seed=1):
        base = run.strategies if len(run.strategies) == players else run.strategies * players
        for g in range(run.games):
            shift = g % players if run.rotate else 0
            played[tuple(base[shift:] + base[:shift])] += 1
    return played


@pytest.mark.parametrize("players, games", [(2, 10), (4, 36), (4, 5)])
def test_the_design_covers_every_seating_and_each_level_each_seat_equally(players, games):
    played = seatings("A", "B", players, games)
    # every arrangement of the two levels (2 players: AB, BA; 4: the six of AABB), none other
    expected = {tuple("B" if c else "A" for c in arr) for arr in arrangements(players)}
    assert set(played) == expected
    assert len(set(played.values())) == 1  # each arrangement equally often
    total = sum(played.values())
    assert total >= games and total % (2 if players == 2 else 12) == 0
    for seat in range(players):  # each level in each seat equally often
        in_seat = Counter()
        for lineup, k in played.items():
            in_seat[lineup[seat]] += k
        assert in_seat["A"] == in_seat["B"] == total // 2


def test_a_played_profile_matches_its_design_and_the_matrix_from_its_games():
    r = play_profile("maharani", 2, ["random", "greedy", "balanced"], games=6, seed=3,
                     workers=1)
    table = skill_profile(r)
    pairs = table[table["kind"] == "pair"]
    assert len(pairs) == 6 and (pairs["n"] == 6).all() and pairs["seats_balanced"].all()
    # one cell recomputed by hand from the frame: greedy's wins against random
    games = r[r["run_id"].astype(str).str.startswith("random v greedy")]
    won = games.loc[games["strategy"] == "greedy"]
    ties = games.groupby(["run_id", "game_id"], observed=True)["winner"].transform("sum")
    share = float((won["winner"] / ties.loc[won.index]).sum()) / 6
    cell = table.set_index(["level", "opponent"]).loc[("greedy", "random")]
    assert cell["share"] == pytest.approx(share)


# -- stored profiles -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("profiles") / "profile_2p"
    res = CliRunner().invoke(cli, ["profile", "--game", "maharani", "-p", "2", "--games", "4",
                                   "--levels", "random,greedy,balanced", "-q", "-w", "1",
                                   "--seed", "2", "--out", str(folder)])
    assert res.exit_code == 0, res.output
    return folder


def test_tajsim_profile_writes_its_provenance(stored):
    info = json.loads((stored / "profile.json").read_text())
    assert info["game"] == "maharani" and info["players"] == 2
    assert info["levels"] == ["random", "greedy", "balanced"]
    assert info["command"].startswith("tajsim profile --game maharani -p 2 --games 4")
    assert info["wall_s"] >= 0 and info["cpu_s"] >= 0
    table, read = read_stored_profile(stored)
    assert list(table.columns) == list(PROFILE_COLUMNS) and table.attrs["levels"] == \
        info["levels"]
    assert table["n"].dtype == "int64" and table["seats_balanced"].dtype == bool


def test_the_section_shows_a_stored_profile(stored, tmp_path):
    import tajsim

    field = tajsim.simulate(games=4, players=2, strategies="greedy,balanced", game="maharani",
                            seed=1, progress=False)
    report = build_report(field, tmp_path / "r", sections=["overview", "skill_profile"],
                          game="maharani", config={"seed": 1, "profiles": [str(stored)]})
    text = report.read_text()
    assert "## Skill profile" in text and "### 2 players" in text
    assert "tajsim profile --game maharani -p 2 --games 4" in text
    assert "first seat" in text and "(4)" in text  # the mirror's first seat with its n
    assert (tmp_path / "r" / "fig_skill_profile_2p.png").is_file()
    saved = pd.read_csv(tmp_path / "r" / "table_skill_profile_2p.csv")
    assert {"n", "ci_low", "ci_high", "first_seat_rate"} <= set(saved.columns)
    # without the key the section adds nothing (the games hold no profile)
    plain = build_report(field, tmp_path / "p", sections=["overview", "skill_profile"],
                         game="maharani", config={"seed": 1})
    assert "Skill profile" not in plain.read_text()


def experiment(tmp_path: Path, profiles: str) -> Path:
    path = tmp_path / "e.toml"
    path.write_text(f'name = "e"\ngame = "maharani"\n[simulate]\ngames = 4\nplayers = 2\n'
                    f'strategies = ["greedy"]\n[report]\nsections = ["skill_profile"]\n'
                    f"profiles = {profiles}\n")
    return path


def test_the_report_key_names_profiles_of_the_game(stored, tmp_path):
    exp = load_experiment(experiment(tmp_path, json.dumps([str(stored)])))
    assert exp.raw["report"]["profiles"] == [str(stored)]
    check_profiles(exp)
    with pytest.raises(UserError, match="list of folders") as err:
        load_experiment(experiment(tmp_path, '"reports/profile_2p"'))
    assert "\n" not in str(err.value)
    # the folders are checked with the runs, before anything is played (so that the report
    # folder's own checks come first: a fresh checkout's refusals are unchanged)
    nowhere = load_experiment(experiment(tmp_path, json.dumps([str(tmp_path / "nowhere")])))
    with pytest.raises(UserError, match="lacks table_skill_profile.csv, profile.json"):
        check_experiment(nowhere)
    res = CliRunner().invoke(cli, ["run", str(tmp_path / "e.toml"), "--out",
                                   str(tmp_path / "out"), "-q"])
    assert res.exit_code == 2 and res.stderr.count("\n") == 1 and "nowhere" in res.stderr
    assert not (tmp_path / "out" / "runs").exists()
    other = tmp_path / "other"
    shutil.copytree(stored, other)
    info = json.loads((other / "profile.json").read_text())
    (other / "profile.json").write_text(json.dumps({**info, "game": "maharaja"}))
    with pytest.raises(UserError, match="a profile of maharani"):
        check_profiles(load_experiment(experiment(tmp_path, json.dumps([str(other)]))))


@pytest.mark.parametrize(("rate", "n", "words"), [
    (0.504, 15_000, "is equivalent to none within ±2 points"),
    (0.54, 15_000, "differs from none"),
    (0.51, 200, "is inconclusive against ±2 points"),
])
def test_the_first_seats_rate_is_a_verdict_not_a_p_value(rate, n, words):
    """A profile's first-seat headline is an equivalence test: a large p alone is never read
    as "no edge" (issue 39: nulls are equivalences with a margin)."""
    from tajsim.reporting.skill_chain_sections import _first_seat_test

    text = _first_seat_test(pd.Series({"first_seat_rate": rate, "n": n}), [2], 0.02)
    assert words in text
    assert _first_seat_test(pd.Series({"first_seat_rate": rate, "n": n}), [2, 4], 0.02) == ""
