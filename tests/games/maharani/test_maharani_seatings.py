"""The seating alternatives (issue 23): where the position markers sit with 2 and 3 players is
reconstructed, so the other plausible seatings are component alternatives
(``alternative_components(1001)``, ``(1002)``; docs/games/maharani/components.md, "Seatings").
Each must load (as an alternative and as a user's board file), validate, and play."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from maharani_helpers import MCOMPONENTS

import tajsim
from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import (
    DEFAULT_BOARD,
    SEATING_SEED_BASE,
    SEATINGS,
    ComponentError,
    alternative_components,
    check_components,
    load_components,
    seating_alternative,
    validate_files,
)
from tajsim.games.maharani.engine.game import Game
from tajsim.games.registry import get_game
from tajsim.play.conformance import check_kernel_game
from tajsim.running.config import resolve_components

SPEC = get_game("maharani")
SEEDS = [SEATING_SEED_BASE + k for k in range(1, len(SEATINGS) + 1)]
SHIPPED = {2: ("south", "north"), 3: ("south", "west", "north")}


def sides(comps, n: int) -> tuple[str, ...]:
    return tuple(E.DIR_NAMES[d] for d in comps.seat_sides[n])


def test_the_shipped_seating_is_the_one_the_alternatives_leave_out():
    assert {n: sides(MCOMPONENTS, n) for n in (2, 3)} == SHIPPED
    assert sides(MCOMPONENTS, 4) == ("south", "west", "north", "east")


def test_the_seatings_cover_every_other_seating_up_to_a_turn_of_the_table():
    """With the first player at the south: 2 players face to face or side by side (either
    side), 3 players with the empty side after seat 0, 1 or 2; each once."""
    two = {SHIPPED[2]} | {s[2] for s in SEATINGS}
    three = {SHIPPED[3]} | {s[3] for s in SEATINGS}
    assert two == {("south", "north"), ("south", "west"), ("south", "east")}
    clockwise = ("south", "west", "north", "east")
    gaps = {next(i for i in range(3) if clockwise.index(row[(i + 1) % 3])
                 != (clockwise.index(row[i]) + 1) % 4) for row in three}
    assert len(three) == 3 and gaps == {0, 1, 2}
    assert all(row[0] == "south" for row in two | three)


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seating_alternative_changes_only_the_seats(seed):
    k = seed - SEATING_SEED_BASE
    alt = alternative_components(seed)
    assert check_components(alt) == []
    assert alt.digest() == seating_alternative(k).digest() != MCOMPONENTS.digest()
    assert {n: sides(alt, n) for n in (2, 3)} == SEATINGS[k - 1]
    assert alt.seat_sides[4] == MCOMPONENTS.seat_sides[4]
    for name in ("space_marks", "slot_quarter", "tile_marks", "tile_colour"):
        assert np.array_equal(getattr(alt, name), getattr(MCOMPONENTS, name))
    assert alt.provenance["positions"].startswith(
        f"reconstructed: alternative_components(seed={seed}), seating {k}")
    assert f"alternative seed={seed} (seating {k})" in alt.board_path
    assert alt.components_path == MCOMPONENTS.components_path


@pytest.mark.parametrize("seed", SEEDS)
def test_a_seating_written_into_a_board_file_validates_and_loads_the_same(seed, tmp_path):
    row = SEATINGS[seed - SEATING_SEED_BASE - 1]
    text = DEFAULT_BOARD.read_text()
    for key, n in (("two", 2), ("three", 3)):
        shipped = f"{key} = {json.dumps(list(SHIPPED[n]))}"
        assert shipped in text
        text = text.replace(shipped, f"{key} = {json.dumps(list(row[n]))}")
    board = Path(tmp_path) / "board.toml"
    board.write_text(text)
    assert validate_files(board, None) == []
    assert load_components(board, None).digest() == alternative_components(seed).digest()


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n_players", [2, 3])
def test_a_seating_alternative_plays(seed, n_players):
    comps, source = resolve_components(SPEC, f"alternative:{seed}")
    assert source.digest == comps.digest()
    state, actions = check_kernel_game(SPEC, n_players, seed=seed, game_id=n_players,
                                       comp=comps.packed())
    assert state[E.S_PHASE] == E.PHASE_GAME_OVER and actions
    # the turntable turns toward each seat's side of this seating
    game = Game(n_players, components=comps)
    seen = []
    while not game.is_over and len(seen) < n_players:
        seat = game.current_player
        if seat not in seen:
            seen.append(seat)
            assert E.DIR_NAMES[int(game.state[E.S_FACING])] == sides(comps, n_players)[seat]
        game.apply(game.legal_actions()[-1])


def test_a_seating_alternative_runs_through_the_runner():
    frame = tajsim.simulate(games=30, players=2, strategies="random", seed=3, game="maharani",
                            components={"alternative": SEEDS[0]}, workers=1, progress=False)
    shipped = tajsim.simulate(games=30, players=2, strategies="random", seed=3,
                              game="maharani", workers=1, progress=False)
    assert len(frame) == 60
    # the seats are part of the game: the same seeds play other games
    assert not frame["score"].equals(shipped["score"])


@pytest.mark.parametrize("seed", [SEATING_SEED_BASE, SEATING_SEED_BASE + len(SEATINGS) + 1,
                                  SEATING_SEED_BASE + 999])
def test_the_rest_of_the_seating_block_is_refused_in_one_line(seed):
    with pytest.raises(ComponentError, match=f"seed {seed} is in the block 1000-1999") as err:
        alternative_components(seed)
    assert "\n" not in str(err.value) and isinstance(err.value, UserError)
    with pytest.raises(ComponentError, match="seating alternative 0, expected 1 to 2"):
        seating_alternative(0)


def test_the_command_line_refuses_the_rest_of_the_block_and_plays_a_seating(tmp_path):
    bad = CliRunner().invoke(cli, ["simulate", "--game", "maharani", "-p", "2", "-n", "10",
                                   "--alternative", "1005", "-q"])
    assert bad.exit_code == 2 and bad.stderr.count("\n") == 1
    assert "seed 1005 is in the block 1000-1999 kept for the seatings" in bad.stderr
    good = CliRunner().invoke(cli, ["simulate", "--game", "maharani", "-p", "3", "-n", "12",
                                    "--alternative", "1002", "-q", "--out",
                                    str(tmp_path / "run")])
    assert good.exit_code == 0, good.output


def test_random_alternatives_outside_the_block_are_unchanged():
    """The seeds in use before the seatings (the robustness experiment uses 1-5) draw what they
    drew (digests computed before the seatings were added): the shipped seats, a random palace
    and tile table."""
    before = {1: "3758777f7863", 2: "244011c744fc", 5: "276f6f1600e3", 2000: "6f04da11e278"}
    for seed, digest in before.items():
        alt = alternative_components(seed)
        assert alt.digest() == digest and alt.seat_sides == MCOMPONENTS.seat_sides
