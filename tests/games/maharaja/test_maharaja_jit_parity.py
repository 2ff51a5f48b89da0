"""Compiled kernels and the same code under ``NUMBA_DISABLE_JIT=1`` play identical Maharaja
games.

A subprocess with ``NUMBA_DISABLE_JIT=1`` plays a few small games (setup, a strategy in every
seat, every action, final state) and the batch kernel's records; this process does the same
compiled. Final state vectors, action lists and records must agree byte for byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
# (players, strategy id per seat, params key, rules code, game id)
GAMES = [(2, (0, 0), "none", 0, 0), (3, (1, 2, 0), "balanced", 1 << 9 | 1 << 10, 1),
         (5, (0, 0, 0, 0, 0), "none", 1 << 11 | 1 << 12 | 1 << 13 | 1 << 8, 2),
         (2, (3, 2), "search", 0, 3),
         # turnsearch (id 5) searches the draft, setup houses and turn steps too
         (2, (5, 2), "turnsearch:iterations=2:candidates=2:step_candidates=2:horizon=0:"
                     "step_horizon=0", 0, 4)]
SEED = 77

WORKER = r"""
import sys
import numpy as np
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.strategies.registry import REGISTRY


def params_of(key, n):
    if key == "none":
        return np.zeros((n, 32))
    if key == "search":
        spec, vec = REGISTRY.parse("search:iterations=2:candidates=2:horizon=0")
        return np.tile(vec, (n, 1))
    spec, vec = REGISTRY.parse(key)
    return np.tile(vec, (n, 1))


def play(comp, n, ids, key, rules, seed, game_id):
    from tajsim.games.maharaja.play.nb import play_out_nb, start_game_nb
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(comp, n, rules, seed, game_id, game_id, state, prng)
    actions = np.full(5000, -1, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    k = play_out_nb(comp, state, np.array(ids, np.int64), params_of(key, n), prng, legal,
                    actions)
    return state, actions[:k]


def records(comp, n, ids, key, rules, seed, game_id):
    from tajsim.games.maharaja.play.nb import play_batch_nb
    gids = np.array([game_id], np.int64)
    res = np.zeros(n, E.RESULT_DTYPE)
    setups = np.zeros(1, E.SETUP_DTYPE)
    lineup_ids = np.array(ids, np.int64)
    play_batch_nb(comp, n, rules, seed, gids, gids, np.arange(n, dtype=np.int64)[None, :],
                  lineup_ids, params_of(key, n), res, setups)
    return res, setups


def main():
    from numba.core import config
    assert config.DISABLE_JIT, "NUMBA_DISABLE_JIT=1 is not in effect"
    games, seed, path = eval(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    comp = default_components().packed()
    out = {}
    for i, (n, ids, key, rules, game_id) in enumerate(games):
        state, actions = play(comp, n, ids, key, rules, seed, game_id)
        out[f"state{i}"], out[f"actions{i}"] = state, actions
        res, setups = records(comp, n, ids, key, rules, seed, game_id)
        out[f"results{i}"], out[f"setups{i}"] = res, setups
    np.savez(path, **out)


if __name__ == "__main__":
    main()
"""


@pytest.fixture(scope="module")
def uncompiled(tmp_path_factory):
    import numpy as np

    out = tmp_path_factory.mktemp("nojit") / "games.npz"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", WORKER, repr(GAMES), str(SEED), str(out)],
                          env=env, capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, f"NUMBA_DISABLE_JIT=1 worker failed:\n{proc.stderr[-3000:]}"
    with np.load(out, allow_pickle=False) as data:
        return dict(data)


def _compiled():
    namespace: dict = {"__name__": "worker"}
    exec(compile(WORKER, "worker", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_states_actions_and_records_agree(uncompiled, i):
    from tajsim.games.maharaja.engine import enums as E
    from tajsim.games.maharaja.engine.components import default_components

    comp = default_components().packed()
    n, ids, key, rules, game_id = GAMES[i]
    worker = _compiled()
    state, actions = worker["play"](comp, n, ids, key, rules, SEED, game_id)
    assert state[E.S_PHASE] == E.PHASE_GAME_OVER
    assert actions.tobytes() == uncompiled[f"actions{i}"].tobytes()
    assert state.tobytes() == uncompiled[f"state{i}"].tobytes()
    res, setups = worker["records"](comp, n, ids, key, rules, SEED, game_id)
    assert res.tobytes() == uncompiled[f"results{i}"].tobytes()
    assert setups.tobytes() == uncompiled[f"setups{i}"].tobytes()
