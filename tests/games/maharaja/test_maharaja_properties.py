"""Property tests over random Maharaja games (hypothesis draws seeds, player counts, options).

Over every action of each game: every invariant (``check_state``: gold and houses conserved,
palaces only where allowed, the score the sum of its parts ...), and the kernels' legal list
equal to the independent reference. Across games: the same seed gives the same game, a game
record replays exactly, and the batch records agree with the step-by-step game.
"""

from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from maharaja_helpers import COMP, rules_code

from tajsim.engine.base_game import GameRecord
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.engine.game import OPTIONS, Game
from tajsim.games.maharaja.engine.invariants import check_state, expected_legal
from tajsim.games.maharaja.play.nb import play_batch_nb, start_game_nb

SETTINGS = settings(max_examples=12, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
options_st = st.fixed_dictionaries({name: st.booleans() for name in OPTIONS})


def random_game(n, seed, game_id, options, pick_seed, check=True):
    """A game played with uniform random choices drawn from ``pick_seed``; returns (state,
    actions)."""
    rng = np.random.default_rng(pick_seed)
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(COMP, n, rules_code(options), seed, game_id, game_id, state, prng)
    legal = np.empty(E.N_ACTIONS, np.int64)
    actions = []
    step = 0
    while True:
        if check:
            check_state(state, COMP, f"seed {seed} step {step}")
        k = nb.legal_actions_nb(state, COMP, legal)
        if check:
            assert legal[:k].tolist() == expected_legal(state, COMP), f"step {step}"
        if k == 0:
            break
        a = int(legal[rng.integers(k)])
        for p in range(n):
            assert nb.score_of(state, p) == E.PALACE_POINTS * state[E.S_PALACES + p] + \
                state[E.S_GOLD + p]
        nb.apply_action_nb(state, COMP, a)
        actions.append(a)
        step += 1
    return state, actions


@SETTINGS
@given(n=st.integers(2, 5), seed=st.integers(0, 2**32), options=options_st,
       pick=st.integers(0, 2**32))
def test_invariants_and_legal_lists_over_random_games(n, seed, options, pick):
    state, _ = random_game(n, seed, 0, options, pick)
    assert state[E.S_PHASE] == E.PHASE_GAME_OVER
    assert sorted(int(state[E.S_RANK + p]) for p in range(n)) == list(range(1, n + 1))


@SETTINGS
@given(n=st.integers(2, 5), seed=st.integers(0, 2**32), pick=st.integers(0, 2**32))
def test_same_seed_same_game(n, seed, pick):
    a, acts_a = random_game(n, seed, 3, {}, pick, check=False)
    b, acts_b = random_game(n, seed, 3, {}, pick, check=False)
    assert acts_a == acts_b and a.tobytes() == b.tobytes()


@SETTINGS
@given(n=st.integers(2, 5), seed=st.integers(0, 2**32), options=options_st,
       pick=st.integers(0, 2**32))
def test_records_replay_exactly(n, seed, options, pick):
    state, actions = random_game(n, seed, 1, options, pick, check=False)
    on = {k: v for k, v in options.items() if v != OPTIONS[k][1]}
    record = GameRecord(game="maharaja", n_players=n, seed=seed, game_id=1, setup_id=1,
                        actions=actions, options=on)
    game = Game.replay(GameRecord.from_json(record.to_json()))
    assert game.state.tobytes() == state.tobytes()


@SETTINGS
@given(n=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_batch_records_match_the_step_by_step_game(n, seed):
    from tajsim.play.mixed import play_game

    G = 3
    ids = np.arange(G, dtype=np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    play_batch_nb(COMP, n, 0, seed, ids, ids, np.zeros((G, n), np.int64),
                  np.zeros(1, np.int64), np.zeros((1, 32)), res, setups, None, None)
    for g in range(G):
        game = play_game(["random"] * n, seed=seed, game_id=g, game="maharaja")
        rows = res[g * n:(g + 1) * n]
        assert rows["score"].tolist() == game.scores()
        assert rows["rank"].tolist() == game.ranks()
        parts = np.stack([rows[f"pts_{k}"] for k in E.PART_NAMES], axis=1)
        assert (parts.sum(axis=1) == rows["score"]).all()
        assert setups["n_actions"][g] == len(game.actions)
        assert setups["n_rounds"][g] == game.round
