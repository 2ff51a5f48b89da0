"""The spec's table size and game-length bound: every entry point reads them, none invents one.

A 2-player-only game (Taj Mahal's 2018 wing under another name, its range narrowed to 2
players, as a newcomer's 2-player wing would declare it) is registered for the test, and every
documented command and library entry point runs it with no player count given.
"""

from __future__ import annotations

import dataclasses
import sys

import numpy as np
import pytest
from click.testing import CliRunner

import tajsim
from tajsim.cli.main import cli
from tajsim.engine.base_game import BaseGame
from tajsim.engine.spec import GameSpec
from tajsim.engine.wing import REPO
from tajsim.errors import UserError
from tajsim.games import registry
from tajsim.games.registry import GAMES
from tajsim.play import conformance as C

GAME_NAMES = list(GAMES)


@pytest.fixture
def duel(monkeypatch) -> GameSpec:
    """A registered game whose only table has 2 players (its default)."""
    base = GAMES["tajmahal"]
    spec = dataclasses.replace(base, name="duel", title="Duel", editions=("2018",),
                               players={"2018": (2, 2)}, default_players=2,
                               game_class=BaseGame,  # a class bound to this spec
                               # the shipped Python example policy names Taj Mahal
                               notes=dataclasses.replace(base.notes, example_policy=""))
    monkeypatch.setitem(registry.GAMES, "duel", spec)
    # its wing's sources (the code fingerprint of a run) are Taj Mahal's
    monkeypatch.setitem(sys.modules, "tajsim.games.duel", sys.modules["tajsim.games.tajmahal"])
    return spec


def run(*args: str):
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_every_command_plays_a_two_player_game_without_players(duel, tmp_path):
    out = run("simulate", "--game", "duel", "-n", "20", "-q")
    assert "player count" not in out
    assert "2 players" in run("replay", "--game", "duel", "--seed", "1")
    assert "2 players" in run("compare", "random", "greedy", "--game", "duel", "-n", "8")
    run("bench", "--game", "duel", "--games", "20", "--repeat", "1", "--warmup", "0",
        "-w", "1", "-q")
    run("tune", "--game", "duel", "--generations", "1", "--popsize", "4", "--games", "4",
        "--heldout", "4", "-q")
    doc = tmp_path / "ladder.md"
    run("ladder", "--game", "duel", "--strategies", "random,balanced", "--search", "",
        "--random-games", "4", "--field-games", "4", "--h2h-games", "4",
        "--search-field-games", "2", "--search-h2h-games", "2", "--python-games", "2",
        "--output", doc.as_posix(), "-q")
    assert "2 players" in doc.read_text()
    assert "Duel: 2-2 players; 2 when --players is left out." in run("strategies", "--game",
                                                                      "duel", "--no-params")


def test_the_library_plays_a_two_player_game_without_players(duel):
    df = tajsim.simulate(games=6, game="duel", progress=False)
    assert set(df.groupby("game_id").size()) == {2}
    assert tajsim.game("duel").n_players == 2
    assert tajsim.Game(game="duel").n_players == 2


@pytest.mark.parametrize("name", GAME_NAMES)
def test_the_default_table_lies_in_every_editions_range(name):
    spec = GAMES[name]
    for edition, (low, high) in spec.players.items():
        assert low <= spec.default_player_count(edition) <= high
        assert spec.players_or_default(None, edition) == spec.default_player_count(edition)
        assert spec.players_or_default(low, edition) == low
    assert tajsim.game(name).n_players == spec.default_player_count()


def test_a_default_outside_every_range_is_refused_when_the_spec_is_checked():
    bad = dataclasses.replace(GAMES["maharani"], default_players=9)
    with pytest.raises(ValueError, match="default_players = 9 is in no edition's range"):
        bad.check_layout()
    with pytest.raises(ValueError, match="max_game_length = 0"):
        dataclasses.replace(GAMES["maharani"], max_game_length=0).check_layout()


def test_a_player_count_given_is_still_checked(duel):
    with pytest.raises(UserError, match="player count 3 is not allowed in Duel; expected 2 to 2"):
        duel.players_or_default(3)


# ---------------------------------------------------------------------------------------------
# The length bound: derived in each wing, checked here on the longest games we can make
# ---------------------------------------------------------------------------------------------
def _longest(spec: GameSpec, n_players: int, pick: str, games: int, options=None) -> int:
    """The longest of ``games`` games where every seat plays the first, the last or a uniformly
    random legal action (the last action keeps a Maharaja turn going longest; the first keeps
    refreshing in Maharani)."""
    rng = np.random.default_rng(7)
    longest = 0
    for g in range(games):
        game = spec.game_class(n_players, seed=11, game_id=g, options=options)
        steps = 0
        while not game.is_over:
            legal = game.legal_actions()
            k = 0 if pick == "first" else len(legal) - 1 if pick == "last" \
                else int(rng.integers(len(legal)))
            game.apply(legal[k])
            steps += 1
            spec.check_game_length(steps, f"{spec.name} {pick}")
        longest = max(longest, steps)
    return longest


@pytest.mark.parametrize("name", GAME_NAMES)
def test_no_game_passes_its_length_bound(name):
    spec = GAMES[name]
    high = max(h for _, h in spec.players.values())
    for pick in ("first", "last", "random"):
        longest = _longest(spec, high, pick, 3)
        assert 0 < longest <= spec.max_game_length
    for option in spec.options:  # each rule option on its own may lengthen a game
        _longest(spec, high, "first", 1, {option.name: True})
        _longest(spec, high, "last", 1, {option.name: True})


def test_the_kernel_games_are_checked_against_the_bound():
    spec = dataclasses.replace(GAMES["nothanks"], max_game_length=10)
    with pytest.raises(AssertionError, match="past its bound max_game_length = 10"):
        C.kernel_game_actions(spec, 3, seed=1)


# ---------------------------------------------------------------------------------------------
# GameSpec.from_wing: the wing's layout states the facts, its spec.py only what no module says
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", GAME_NAMES)
def test_every_wing_is_read_by_convention(name):
    spec = GAMES[name]
    again = GameSpec.from_wing(f"tajsim.games.{name}", **{
        f.name: getattr(spec, f.name) for f in dataclasses.fields(spec)
        if f.name in ("title", "components", "description", "better_score", "seat_cost_us",
                      "notes", "observation", "options", "learned", "board_picture",
                      "score_display", "enumerated_setups", "chance_only_in_setup",
                      "phase_names", "compensation", "net")},
        gpu_work_size=spec.kernels.gpu.work_size, gpu_work_dtype=spec.kernels.gpu.work_dtype)
    for f in dataclasses.fields(spec):
        assert getattr(again, f.name) == getattr(spec, f.name) or f.name == "game_class", f.name
    assert spec.source_folders and spec.golden_dir == REPO / "tests" / "golden" / name
    assert spec.view.__name__ == "view" and spec.restrictions == spec.strategies.restrictions


def test_a_fact_the_wing_states_nowhere_is_named():
    with pytest.raises(ValueError, match="nothanks: the wing states no title, components"):
        GameSpec.from_wing("tajsim.games.nothanks")


def test_a_wing_without_switches_gets_the_templates_hooks():
    from tajsim.play import generate_batch as G

    assert G.default_hooks("nothanks", ()) == ["new_work_nb", "decide_nb"]
    assert G.default_hooks("maharani", G.switches_of("maharani")) == []
    text = G.render("nothanks")
    assert "def decide_nb(" in text and "import choose_action_nb" in text
    assert "def decide_nb(" not in G.render("maharani")
    with pytest.raises(ValueError, match="no new_work_nb, decide_nb; expected them in a game "
                                         "with kernel switches"):
        G.default_hooks("nothanks", (("search", True),))
