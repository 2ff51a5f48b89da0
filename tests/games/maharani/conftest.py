"""Fixtures shared by the Maharani strategy tests: ``decision_states`` plays ``balanced``
games (some moves random) and keeps decisions with a choice."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from maharani_helpers import MCOMP

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.play.nb import start_game_nb
from tajsim.games.maharani.strategies.nb import choose_action_nb
from tajsim.games.maharani.strategies.registry import REGISTRY

#: A decision: (state int64[STATE_SIZE], prng int64[MAX_PLAYERS], player, legal int64[k]).
Decision = tuple[np.ndarray, np.ndarray, int, np.ndarray]


def collect_decisions(n_players: int, seed: int, n_states: int, keep_share: float | None = None,
                      balanced_share: float = 0.7) -> list[Decision]:
    """``n_states`` decisions with a choice, from games of ``n_players`` started with ``seed``
    (game ids 0, 1, ...) in which each move is ``balanced``'s with probability
    ``balanced_share`` (1: every move, no draw), else ``random``'s.

    ``keep_share`` None: four steps a game drawn below 70, the decisions with a choice at those
    steps kept; else each decision with a choice kept with that probability. Every draw comes
    from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    legal = np.empty(E.N_ACTIONS, np.int64)
    spec, params = REGISTRY.parse("balanced")
    out: list[Decision] = []
    game = 0
    while len(out) < n_states:
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(MCOMP, n_players, 0, seed, game, game, state, prng)
        stops = set(rng.integers(0, 70, size=4).tolist()) if keep_share is None else set()
        step = 0
        while state[E.S_PHASE] != E.PHASE_GAME_OVER and len(out) < n_states:
            k = nb.legal_actions_nb(state, MCOMP, legal)
            p = int(state[E.S_CUR])
            if k > 1 and (step in stops if keep_share is None else rng.random() < keep_share):
                out.append((state.copy(), prng.copy(), p, legal[:k].copy()))
            sid = spec.strategy_id if balanced_share >= 1.0 or rng.random() < balanced_share \
                else 0
            a = legal[0] if k == 1 else choose_action_nb(sid, state, MCOMP, p, params, prng,
                                                         legal, k, None, True)
            nb.apply_action_nb(state, MCOMP, a)
            step += 1
        game += 1
    return out


@pytest.fixture(scope="session")
def decision_states() -> Callable[..., list[Decision]]:
    """:func:`collect_decisions`, for a test's own player count and seed."""
    return collect_decisions
