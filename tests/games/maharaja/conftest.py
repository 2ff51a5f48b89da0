"""Fixtures shared by the Maharaja strategy tests: ``states_from_games`` plays games between a
mix of strategies and keeps states at decisions with a choice."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest
from maharaja_helpers import COMP

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.play.nb import start_game_nb
from tajsim.games.maharaja.strategies.nb import choose_action_nb
from tajsim.games.maharaja.strategies.registry import REGISTRY


def collect_states(mix: Sequence[str], n_games: int, seed: int, keep_share: float,
                   rng_seed: int) -> list[np.ndarray]:
    """States (int64[STATE_SIZE] copies) at decisions with more than one legal action, from
    ``n_games`` games of 2 to 5 players (game g: 2 + g % 4 players, seat p plays
    ``mix[(g + p) % len(mix)]``, started with ``seed``); each such state is kept with
    probability ``keep_share``, drawn from ``numpy.random.default_rng(rng_seed)``."""
    rng = np.random.default_rng(rng_seed)
    out = []
    buf = np.empty(E.N_ACTIONS, np.int64)
    for g in range(n_games):
        n = 2 + g % 4
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(COMP, n, 0, seed, g, g, state, prng)
        seats = [REGISTRY.parse(mix[(g + p) % len(mix)]) for p in range(n)]
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            k = nb.legal_actions_nb(state, COMP, buf)
            p = int(state[E.S_CUR])
            if k > 1 and rng.random() < keep_share:
                out.append(state.copy())
            spec, params = seats[p]
            a = buf[0] if k == 1 else choose_action_nb(spec.strategy_id, state, COMP, p, params,
                                                       prng, buf, k)
            nb.apply_action_nb(state, COMP, a)
    return out


@pytest.fixture(scope="session")
def states_from_games() -> Callable[..., list[np.ndarray]]:
    """:func:`collect_states`, for a test module's own mix and seeds."""
    return collect_states
