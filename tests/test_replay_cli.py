"""``tajsim replay`` prints a full legal game (click's CliRunner)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from tajsim.games.tajmahal.engine.game import Game, GameRecord
from tajsim.play.mixed import play_game

ACTION_LINE = re.compile(r"^  V(\d\d) P(\d) \[(bid|palace|crown|display)\] (.+)$")


@pytest.fixture(scope="module")
def cli():
    from tajsim.cli.main import cli

    return cli


def _actions(output: str) -> list[tuple[int, int, str, str]]:
    return [(int(m[1]), int(m[2]), m[3], m[4]) for m in map(ACTION_LINE.match,
                                                            output.splitlines()) if m]


def _labels(record: GameRecord) -> list[tuple[int, int, str, str]]:
    """(visit, player, phase, label) of every action, replayed with legality checks."""
    game = Game.replay(record, upto=0)
    out = []
    for action in record.actions:
        out.append((game.visit, game.current_player, game.phase, game.action_label(action)))
        game.apply(action)  # raises IllegalActionError on an illegal action
    assert game.is_over
    return out


def test_replay_prints_a_full_legal_game(cli, tmp_path):
    path = tmp_path / "game.json"
    result = CliRunner().invoke(cli, ["replay", "--players", "4", "--seed", "1", "--save",
                                      str(path)])
    assert result.exit_code == 0, result.output
    out = result.output
    record = GameRecord.load(path)
    assert record.n_players == 4 and record.seed == 1 and record.edition == "2018"
    printed = _actions(out)
    assert printed == _labels(record)  # every action printed, in order, and legal
    assert [v for v in range(1, 13) if f"Visit {v}/12:" in out] == list(range(1, 13))
    assert {v for v, _, _, _ in printed} == set(range(1, 13))
    assert "Game over after 12 visits (2018 edition)" in out
    assert "Province order:" in out and "Ranks:" in out
    same = play_game(["random"] * 4, "2018", seed=1)
    assert record.actions == same.actions
    for p, s in enumerate(same.scores()):
        assert re.search(rf"P{p}\s+score\s+{s} ", out)


def test_replay_of_a_saved_record_prints_the_same_game(cli, tmp_path):
    path = tmp_path / "game.json"
    first = CliRunner().invoke(cli, ["replay", "--players", "3", "--seed", "4", "--edition",
                                     "2000", "--save", str(path)])
    assert first.exit_code == 0, first.output
    again = CliRunner().invoke(cli, ["replay", "--record", str(path)])
    assert again.exit_code == 0, again.output
    assert _actions(again.output) == _actions(first.output)


@pytest.mark.parametrize("args", [
    ["--players", "2", "--edition", "2000"],
    ["--players", "6"],
    ["--players", "3", "--strategies", "random,random"],
    ["--players", "3", "--strategies", "no_such_strategy"],
])
def test_replay_user_errors_are_one_line(cli, args):
    result = CliRunner().invoke(cli, ["replay", *args])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), result.output


def test_replay_missing_record_file(cli, tmp_path):
    result = CliRunner().invoke(cli, ["replay", "--record", str(tmp_path / "nope.json")])
    assert result.exit_code == 2 and "error:" in result.output


def test_replay_prints_every_event_a_referee_needs(cli):
    """2-player unrest and protests, reshuffles, forced display takes, prestige cards and the
    card shortages of R3 are printed as they happen, each as often as the records count it."""
    from tajsim.running.simulate import simulate

    out = CliRunner().invoke(cli, ["replay", "--players", "2", "--seed", "9", "--strategies",
                                   "balanced"]).output
    rec = simulate(1, 2, "balanced", seed=9, workers=1, progress=False).iloc[0]
    assert rec["n_protests"] > 0
    assert out.count("protest (a second card of that colour)") == rec["n_protests"]
    assert "unrest: " in out and "from the display (no choice left)" in out
    assert "turns an advisor pair into" in out
    five = CliRunner().invoke(cli, ["replay", "--players", "5", "--edition", "2000", "--seed",
                                    "4", "--strategies", "balanced"]).output
    rec5 = simulate(1, 5, "balanced", edition="2000", seed=4, workers=1, progress=False)
    first = rec5.iloc[0]
    assert five.count("the deck ran out") == first["n_reshuffles"]
    assert five.count("the display gets") == first["n_short_deals"] > 0
    owed = int(rec5["display_cards_missed"].sum())
    printed = sum(int(line.split("owed ")[1].split()[0]) for line in five.splitlines()
                  if "more display card(s)" in line)
    assert printed == owed
