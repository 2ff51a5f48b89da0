"""The step-by-step Game API: labels, the state display, the referee's events, records and
replays, bad input as one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest
from maharaja_helpers import A, act, everyone_gold, pick_all, place_house, road_villages, setup

from tajsim.engine.base_game import GameRecord, IllegalActionError
from tajsim.errors import UserError
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.game import Game
from tajsim.games.maharaja.engine.setups import (
    enumerated_setup_ids,
    order_index_of,
    order_index_of_setup,
    order_of_index,
    setup_id_of_order,
)
from tajsim.games.registry import get_game
from tajsim.play.mixed import play_game as play_any_game

SPEC = get_game("maharaja")


def play_game(strategies, **kwargs):
    return play_any_game(strategies, game="maharaja", **kwargs)


def rules_code(options):
    return SPEC.rules_code(None, options)


def events_of(strategies, seed=1, game_id=0):
    """The game and every event of it, in order (each action's events read from the states
    before and after it)."""
    out = []
    pending = []

    def flush(game):
        if pending:
            before, action = pending.pop()
            out.extend(game.events(before, action, game.state))

    def on_action(game, player, action):
        flush(game)
        pending.append((game.state.copy(), action))

    game = play_game(strategies, seed=seed, game_id=game_id, on_action=on_action)
    flush(game)
    return game, out


def test_every_action_has_a_label():
    game = Game(4, seed=2)
    for a in range(E.N_ACTIONS):
        label = game.action_label(a)
        assert label and "invalid" not in label
    assert game.action_label(E.N_ACTIONS).startswith("<invalid")
    assert game.action_label(E.ACTION_PICK + E.pair_index(A.GOLD, A.PALACE)) == \
        "choose gold + palace"


def test_display_shows_the_table():
    game = Game(3, seed=4)
    text = str(game)
    assert "Round 0 | phase draft" in text and "Governors (bottom first)" in text
    for name in game.components.city_names:
        assert name in text
    game = play_game(["random"] * 3, seed=4)
    assert "Game over after round" in str(game) and "Ranks:" in str(game)


def test_referee_log_covers_a_game():
    game, events = events_of(["balanced", "tollroad", "rusher", "random"], seed=3)
    text = "\n".join(events)
    for needle in ("takes character", "places a free house", "chooses two actions in secret",
                   "reveals", "travels", "builds a palace", "builds a house",
                   "Scoring of", "Round 2: the Maharaja travels to", "The game ends after"):
        assert needle in text, needle
    assert any(" to P" in e and "travels" in e for e in events)  # a toll paid to someone
    n_scorings = sum(e.startswith("Scoring of") for e in events)
    assert n_scorings == game.round


def test_events_name_tolls_and_penalties():
    state = setup(4)
    v1, v2 = road_villages("Camp", "Agra")
    place_house(state, 1, v1)
    place_house(state, 2, v2)
    game = Game(4, seed=1, setup_id=setup_id_of_order(0))
    game.state = state
    pick_all(state, [(A.PALACE, A.GOLD)] + everyone_gold(3))
    before = state.copy()
    a = E.ACTION_TRAVEL + [r for r in range(game.components.n_roads)
                           if set(game.components.roads[r]) == {E.START, 3}][0]
    act(state, a)
    (line,) = game.events(before, a, state)
    assert "travels Camp -> Agra" in line and "1 to P1" in line and "1 to P2" in line
    before = state.copy()
    act(state, E.ACTION_DONE)
    lines = game.events(before, E.ACTION_DONE, state)
    assert "P0 did not carry out palace" in lines[1] and "2 gold" in lines[1]
    assert lines[2].startswith("P1 (2 Trader) reveals gold + gold")


def test_record_round_trip_with_options(tmp_path):
    game = play_game(["random", "random"], seed=9, game_id=2,
                     options={"penalty_per_turn": True})
    rec = game.record()
    assert rec.game == "maharaja" and rec.options == {"penalty_per_turn": True}
    path = tmp_path / "rec.json"
    rec.save(path)
    again = Game.replay(GameRecord.load(path))
    assert again.state.tobytes() == game.state.tobytes()
    assert again.rules == rules_code({"penalty_per_turn": True})
    half = Game.replay(rec, upto=10)
    assert len(half.actions) == 10


def test_bad_input_is_one_line():
    def one_line(error, match, call, *args, **kwargs):
        with pytest.raises(error, match=match) as info:
            call(*args, **kwargs)
        assert "\n" not in str(info.value), str(info.value)

    one_line(UserError, r"player count 6 is not allowed in Maharaja; expected 2 to 5", Game, 6)
    one_line(UserError, "unknown rule option 'yogi'", Game, 3, options={"yogi": True})
    one_line(UserError, "expected true or false", Game, 3, options={"static_order": 1})
    one_line(UserError, "unknown edition 'advanced'", Game, 3, edition="advanced")
    data = json.loads(play_game(["random"] * 2, seed=1).record().to_json())
    data["options"] = {"bogus": True}
    one_line(UserError, "unknown rule option 'bogus'", Game.replay, GameRecord.from_dict(data))
    data["options"] = {}
    data["actions"] = [0, 0, 0]
    one_line(UserError, "record action 1 of 3", Game.replay, GameRecord.from_dict(data))
    game = Game(2)
    one_line(IllegalActionError, "is not legal here", game.apply, E.ACTION_DONE)
    rec = game.record()
    rec.game = "tajmahal"
    one_line(UserError, "^the record is a game of 'tajmahal', not 'maharaja'$", Game.replay, rec)


def test_python_policies_play_beside_compiled_ones():
    class FirstLegal:
        name = "first_legal"
        game = "maharaja"

        def reset(self, n_players, seat):
            pass

        def choose(self, view, legal):
            return legal[0]

    game = play_game([FirstLegal(), "balanced", "random"], seed=5)
    assert game.is_over and game.strategies[0] == "py:first_legal"


def test_lehmer_code_is_a_bijection():
    seen = set()
    for k in range(E.N_ORDERS):
        order = order_of_index(k)
        assert order_index_of(order) == k
        seen.add(order)
    assert len(seen) == 5040
    assert order_of_index(0) == (0, 1, 2, 3, 4, 5, 6)
    assert order_of_index(5039) == (6, 5, 4, 3, 2, 1, 0)
    with pytest.raises(UserError):
        order_of_index(5040)
    with pytest.raises(UserError):
        order_index_of([0, 0, 1, 2, 3, 4, 5])


def test_enumerated_setups_name_their_order():
    ids = enumerated_setup_ids()
    assert ids.shape == (5040,) and order_index_of_setup(int(ids[17])) == 17
    assert order_index_of_setup(5) == -1
    for k in (0, 1, 777, 5039):
        game = Game(3, seed=1, setup_id=int(ids[k]))
        order = tuple(int(c) for c in game.state[E.S_GOV_ORDER0:E.S_GOV_ORDER0 + 7])
        assert order == order_of_index(k) and int(game.state[E.S_ORDER_INDEX]) == k
    # a random setup records the index of the order it drew
    game = Game(3, seed=1, setup_id=12)
    order = tuple(int(c) for c in game.state[E.S_GOV_ORDER0:E.S_GOV_ORDER0 + 7])
    assert order_of_index(int(game.state[E.S_ORDER_INDEX])) == order


def test_random_setups_cover_the_orders_evenly():
    from tajsim.games.maharaja.engine.nb import init_state_nb

    comp = Game(2).comp
    state = np.zeros(E.STATE_SIZE, np.int64)
    first = np.zeros(7, np.int64)
    for s in range(2100):
        init_state_nb(comp, 2, 0, s * 7919 + 1, 0, -1, state)
        first[state[E.S_GOV_ORDER0]] += 1
    assert first.min() > 220 and first.max() < 380  # 300 expected per city
