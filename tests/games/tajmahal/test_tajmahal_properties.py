"""Properties of whole random games (hypothesis over seeds, player counts and editions).

Each example plays one game with the ``random`` strategy through ``play_out_nb`` and then
replays its actions step by step (``tajsim.play.conformance.check_kernel_game``), checking at
every step:
every card id has exactly one valid location and the counters and the deck slice match;
advisor tokens are conserved (supply + seats + held + set aside == 6 per kind); no score ever
falls; each province tile is claimed at most once; palaces go only on open cities of the current
province and the crown palace only in the current province; the score is the sum of its parts
(and each part matches what it counts); the kernel's legal list equals an independent Python
version of the rules; the step-by-step replay ends in exactly ``play_out_nb``'s state.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.spec import SPEC
from tajsim.play import conformance as C


def check_kernel_game(comp, n, edition, seed, game_id=0):
    return C.check_kernel_game(SPEC, n, edition, seed, game_id, comp=comp)


def kernel_game_actions(comp, n, edition, seed, game_id):
    return C.kernel_game_actions(SPEC, n, edition, seed, game_id, comp=comp)


CONFIGS = [(2, E.EDITION_2018), (3, E.EDITION_2018), (4, E.EDITION_2018), (5, E.EDITION_2018),
           (3, E.EDITION_2000), (4, E.EDITION_2000), (5, E.EDITION_2000)]
seeds = st.integers(min_value=0, max_value=2**63 - 1)
game_ids = st.integers(min_value=0, max_value=10**6)
configs = st.sampled_from(CONFIGS)
fast = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.too_slow])


@fast
@given(config=configs, seed=seeds, game_id=game_ids)
def test_random_games_keep_every_invariant(comp, config, seed, game_id):
    n, edition = config
    check_kernel_game(comp, n, edition, seed, game_id)


@pytest.mark.parametrize("n, edition", CONFIGS)
def test_every_configuration_at_least_once(comp, n, edition):
    check_kernel_game(comp, n, edition, seed=2024, game_id=n)


@settings(max_examples=15, deadline=None)
@given(config=configs, seed=seeds, game_id=game_ids)
def test_same_seed_same_game(comp, config, seed, game_id):
    n, edition = config
    a = kernel_game_actions(comp, n, edition, seed, game_id)
    b = kernel_game_actions(comp, n, edition, seed, game_id)
    for x, y in zip(a, b):
        assert np.array_equal(np.asarray(x), np.asarray(y))


@settings(max_examples=12, deadline=None)
@given(config=configs, seed=st.integers(0, 2**31 - 1), game_id=st.integers(0, 1000))
def test_game_record_replays_exactly(config, seed, game_id):
    """Game.record().to_json -> GameRecord.from_json -> replay gives the identical state; the
    step-by-step ``play_game`` and the compiled ``play_out_nb`` play the same game."""
    from tajsim.games.tajmahal.engine.game import Game, GameRecord
    from tajsim.play.mixed import play_game

    n, edition = config
    game = play_game(["random"] * n, E.EDITION_NAMES[edition], seed=seed, game_id=game_id)
    text = game.record().to_json()
    assert json.loads(text)["actions"] == game.actions
    again = Game.replay(GameRecord.from_json(text))
    assert np.array_equal(again.state, game.state)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        game.record().save(path)
        assert np.array_equal(Game.replay(GameRecord.load(path)).state, game.state)
    _, _, final, actions = kernel_game_actions(game.comp, n, edition, seed, game_id)
    assert actions == game.actions and np.array_equal(final, game.state)


def test_partial_replay_is_a_prefix():
    from tajsim.games.tajmahal.engine.game import Game
    from tajsim.play.mixed import play_game

    game = play_game(["random"] * 3, "2018", seed=5)
    record = game.record()
    half = Game.replay(record, upto=len(game.actions) // 2)
    assert half.actions == game.actions[: len(game.actions) // 2]
    for action in game.actions[len(half.actions):]:
        half.apply(action)
    assert np.array_equal(half.state, game.state)


def test_batch_records_match_step_by_step_games(comp):
    """The batch kernel writes the final scores, ranks, winners and turns of the games the
    Game API plays action by action (``play_game``: Python's ``Game.apply``, the random
    policy drawing from the same streams)."""
    from tajsim.games.tajmahal.play.nb import play_batch_nb
    from tajsim.play.mixed import play_game

    n, G = 4, 4
    ids = np.arange(G, dtype=np.int64)
    results = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    play_batch_nb(comp, n, E.EDITION_2018, 9, ids, ids, np.zeros((G, n), np.int64),
                  np.zeros(1, np.int64), np.zeros((1, 16)), results, setups)
    for g in range(G):
        game = play_game(["random"] * n, "2018", seed=9, game_id=g)
        rows = results[g * n:(g + 1) * n]
        assert rows["score"].tolist() == game.scores()
        assert rows["rank"].tolist() == game.ranks()
        assert rows["winner"].tolist() == [p in game.winners() for p in range(n)]
        parts = np.array([list(game.score_parts(p).values()) for p in range(n)])
        assert np.array_equal(parts.sum(axis=1), rows["score"])
        assert setups["n_turns"][g] == game.state[E.S_TURNS]


# ---------------------------------------------------------------------------------------------
# The checker itself: each corruption of a real mid-game state is caught
# ---------------------------------------------------------------------------------------------
def _mid_game(comp, n=3, edition=E.EDITION_2018):
    from tajsim.games.tajmahal.engine import nb

    start, _, _, actions = kernel_game_actions(comp, n, edition, 8, 1)
    state = start.copy()
    for a in actions[:len(actions) // 2]:
        nb.apply_action_nb(state, comp, a)
    return state


def _first(state, where):
    return int(np.flatnonzero(state[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS] == where)[0])


CORRUPTIONS = {
    "card on an empty seat": lambda s: s.__setitem__(E.S_CARD_LOC + _first(s, E.LOC_DECK),
                                                     E.LOC_HAND + 4),
    "prestige card in the deck": lambda s: s.__setitem__(E.S_CARD_LOC + E.PRESTIGE_MIGHT,
                                                         E.LOC_DECK),
    "hand counter": lambda s: s.__setitem__(E.S_HAND_N, s[E.S_HAND_N] + 1),
    "display counter": lambda s: s.__setitem__(E.S_DISPLAY_N, s[E.S_DISPLAY_N] + 1),
    "deck slice": lambda s: s.__setitem__(E.S_DECK_LEN, s[E.S_DECK_LEN] - 1),
    "hand card also in deck slice": lambda s: s.__setitem__(
        E.S_DECK + s[E.S_DECK_TOP], _first(s, E.LOC_HAND)),
    "token supply": lambda s: s.__setitem__(E.S_TOKEN_SUPPLY + 2, s[E.S_TOKEN_SUPPLY + 2] + 1),
    "token held": lambda s: s.__setitem__(E.S_TOKENS + 1, s[E.S_TOKENS + 1] + 1),
    "commodity points": lambda s: s.__setitem__(E.S_SCORE + E.PART_COMMODITY,
                                                s[E.S_SCORE + E.PART_COMMODITY] + 1),
    "palace points": lambda s: s.__setitem__(E.S_SCORE + E.PART_PALACE,
                                             s[E.S_SCORE + E.PART_PALACE] + 1),
    "city palace total": lambda s: s.__setitem__(E.S_CITY_PALACES, s[E.S_CITY_PALACES] + 1),
    "row symbols": lambda s: s.__setitem__(E.S_ROW_SYM + 3, s[E.S_ROW_SYM + 3] + 1),
    "future tile claimed": lambda s: s.__setitem__(E.S_TILE_OWNER + 11, 0),
    "goods": lambda s: s.__setitem__(E.S_GOODS + 1, s[E.S_GOODS + 1] + 1),
    "public deck card": lambda s: s.__setitem__(E.S_CARD_PUBLIC + _first(s, E.LOC_DECK), 1),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_check_state_catches_corruption(comp, name):
    from tajsim.games.tajmahal.engine.invariants import check_state

    state = _mid_game(comp)
    check_state(state, comp)
    CORRUPTIONS[name](state)
    with pytest.raises(AssertionError):
        check_state(state, comp)


def test_check_legal_list_catches_wrong_lists(comp):
    from tajsim.games.tajmahal.engine import nb
    from tajsim.games.tajmahal.engine.invariants import check_legal_list

    state = _mid_game(comp)
    buf = np.empty(E.N_ACTIONS, np.int64)
    legal = buf[:nb.legal_actions_nb(state, comp, buf)].tolist()
    check_legal_list(state, comp, legal)
    for wrong in (legal[:-1], legal + [E.N_ACTIONS - 1], legal[::-1], []):
        with pytest.raises(AssertionError):
            check_legal_list(state, comp, wrong)


def test_bad_game_records_are_user_errors():
    from tajsim.errors import UserError
    from tajsim.games.tajmahal.engine.game import Game, GameRecord, IllegalActionError

    for text in ("not json", "{}", '{"n_players": 3, "colour": "red"}'):
        with pytest.raises(UserError):
            GameRecord.from_json(text)
    with pytest.raises(IllegalActionError):
        Game.replay(GameRecord(n_players=3, actions=[E.ACTION_TAKE]))
