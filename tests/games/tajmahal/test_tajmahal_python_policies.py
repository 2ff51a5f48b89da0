"""Pure-Python strategies: the interface, plug-in loading and mixed tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tajsim.errors import UserError
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.spec import SPEC
from tajsim.games.tajmahal.strategies.view import PlayerView, decode_action
from tajsim.play import mixed
from tajsim.play.mixed import play_game
from tajsim.strategies.python_policy import PythonPolicy, load_policy_file


def play_mixed_game(seats, **kwargs):
    return mixed.play_mixed_game(SPEC, seats, **kwargs)


def play_python_games(seats, n_games, **kwargs):
    return mixed.play_python_games(SPEC, seats, n_games, **kwargs)


def resolve_seat(seat):
    return mixed.resolve_seat(SPEC, seat)

EXAMPLE = Path(__file__).resolve().parents[3] / "strategies" / "example_cautious.py"


class FirstLegal(PythonPolicy):
    name = "first"

    def __init__(self):
        self.views = []

    def choose(self, view, legal):
        self.views.append(view)
        return legal[0]


def test_decode_action():
    assert decode_action(0) == ("withdraw",)
    assert decode_action(E.ACTION_BID + 5 * E.BID_EXTRA) == ("bid", 5, None)
    assert decode_action(E.ACTION_BID + 5 * E.BID_EXTRA + 3) == ("bid", 5, E.FIRST_WHITE + 2)
    assert decode_action(E.ACTION_CITY + 7) == ("city", 7)
    assert decode_action(E.ACTION_TAKE + 9) == ("take", 9)
    with pytest.raises(ValueError):
        decode_action(E.N_ACTIONS)


def test_example_file_loads_as_plugin():
    policy = load_policy_file(EXAMPLE)
    assert policy.name == "cautious"
    kind, obj = resolve_seat(f"py:{EXAMPLE}")
    assert kind == "py" and hasattr(obj, "choose")
    # the plug-in folder is loaded by path: it is not a package
    assert not (EXAMPLE.parent / "__init__.py").exists()


def test_bad_plugins_fail_with_one_line(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_policy_file(tmp_path / "missing.py")
    empty = tmp_path / "empty.py"
    empty.write_text("X = 1\n")
    with pytest.raises(UserError, match="one policy class"):
        load_policy_file(empty)
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('boom')\n")
    with pytest.raises(UserError, match="failed to load"):
        load_policy_file(broken)
    wrong = tmp_path / "wrong.py"
    wrong.write_text("class P:\n    def choose(self, view, legal):\n        return -5\n"
                     "    def reset(self, n, seat):\n        pass\n")
    with pytest.raises(UserError, match="not one of"):
        play_mixed_game([f"py:{wrong}", "random", "random"], seed=1)


def test_python_seat_at_a_mixed_table(components):
    first = FirstLegal()
    game = play_mixed_game([first, "balanced", "ismcts:iterations=8", f"py:{EXAMPLE}"],
                           seed=4, game_id=2, components=components)
    assert game.is_over
    assert game.strategies[1] == "balanced" and game.strategies[3] == "py:cautious"
    assert first.views and all(isinstance(v, PlayerView) for v in first.views)
    view = first.views[-1]
    assert view.player == 0
    # the view shows the own hand, and of the other hands only their public cards
    assert not set(view.hand) & {c for q, cards in enumerate(view.known_cards) if q != 0
                                 for c in cards}
    assert len(view.hand) == view.hand_sizes[0]


def test_compiled_seats_in_the_python_loop_match_play_game(components):
    seats = ["balanced", "greedy", "random"]
    a = play_mixed_game(seats, seed=9, game_id=3, components=components)
    b = play_game(seats, seed=9, game_id=3, components=components)
    assert a.actions == b.actions
    assert np.array_equal(a.state, b.state)


def test_example_beats_random_and_records(components):
    results, setups, lineups = play_python_games(
        [f"py:{EXAMPLE}", "random", "random", "random"], 48, seed=5, components=components)
    assert results.shape == (48 * 4,)
    winner = results["winner"].reshape(48, 4).astype(float)
    share = (winner / winner.sum(1, keepdims=True) * (lineups == 0)).sum(1).mean()
    assert share > 0.35  # parity 25%; measured about 70%
    assert (results["strategy_id"].reshape(48, 4)[lineups == 0] == -1).all()


def test_a_policy_of_another_game_is_refused():
    class Other(PythonPolicy):
        name = "other"
        game = "maharaja"

        def choose(self, view, legal):
            return legal[0]

    with pytest.raises(UserError, match="plays 'maharaja'"):
        play_mixed_game([Other(), "random"], seed=1)
