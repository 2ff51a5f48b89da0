"""Compiled kernels and the same code under ``NUMBA_DISABLE_JIT=1`` play identical games.

A subprocess with ``NUMBA_DISABLE_JIT=1`` plays a few small games (setup, random strategy,
every action, final state) and the batch kernel's result records; this process does the same
compiled. Final state vectors, action lists and records must agree byte for byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tajsim.games.tajmahal.engine import enums as E

ROOT = Path(__file__).resolve().parents[1]
GAMES = [(2, E.EDITION_2018, 0), (3, E.EDITION_2000, 1), (5, E.EDITION_2018, 2)]
SEED = 77

WORKER = r"""
import sys
import numpy as np
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.components import default_components


def play(comp, n, edition, seed, game_id):
    from tajsim.games.tajmahal.play.nb import play_out_nb, start_game_nb
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(comp, n, edition, seed, game_id, game_id, state, prng)
    actions = np.full(5000, -1, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    k = play_out_nb(comp, state, np.zeros(n, np.int64), np.zeros((n, 16)), prng, legal, actions)
    return state, actions[:k]


def records(comp, n, edition, seed, game_id):
    from tajsim.games.tajmahal.play.nb import play_batch_nb
    ids = np.array([game_id], np.int64)
    res = np.zeros(n, E.RESULT_DTYPE)
    setups = np.zeros(1, E.SETUP_DTYPE)
    play_batch_nb(comp, n, edition, seed, ids, ids, np.zeros((1, n), np.int64),
                  np.zeros(1, np.int64), np.zeros((1, 16)), res, setups)
    return res, setups


def main():
    from numba.core import config
    assert config.DISABLE_JIT, "NUMBA_DISABLE_JIT=1 is not in effect"
    games, seed, path = eval(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    comp = default_components().packed()
    out = {}
    for i, (n, edition, game_id) in enumerate(games):
        state, actions = play(comp, n, edition, seed, game_id)
        out[f"state{i}"], out[f"actions{i}"] = state, actions
        try:
            res, setups = records(comp, n, edition, seed, game_id)
            out[f"results{i}"], out[f"setups{i}"] = res, setups
        except Exception as exc:  # reported by the test
            out[f"records_error{i}"] = np.array(f"{type(exc).__name__}: {exc}")
    np.savez(path, **out)


if __name__ == "__main__":
    main()
"""


@pytest.fixture(scope="module")
def uncompiled(tmp_path_factory):
    out = tmp_path_factory.mktemp("nojit") / "games.npz"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", WORKER, repr(GAMES), str(SEED), str(out)],
                          env=env, capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert proc.returncode == 0, f"NUMBA_DISABLE_JIT=1 worker failed:\n{proc.stderr[-3000:]}"
    with np.load(out, allow_pickle=False) as data:
        return dict(data)


def _compiled():
    """The worker's functions, run here with the compiled kernels."""
    namespace: dict = {"__name__": "worker"}
    exec(compile(WORKER, "worker", "exec"), namespace)
    return namespace


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_states_and_actions_agree(comp, uncompiled, i):
    n, edition, game_id = GAMES[i]
    state, actions = _compiled()["play"](comp, n, edition, SEED, game_id)
    assert state[E.S_PHASE] == E.PHASE_GAME_OVER
    assert actions.tobytes() == uncompiled[f"actions{i}"].tobytes()
    assert state.tobytes() == uncompiled[f"state{i}"].tobytes()


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_result_records_agree(comp, uncompiled, i):
    n, edition, game_id = GAMES[i]
    res, setups = _compiled()["records"](comp, n, edition, SEED, game_id)
    assert f"records_error{i}" not in uncompiled, str(uncompiled[f"records_error{i}"])
    assert res.tobytes() == uncompiled[f"results{i}"].tobytes()
    assert setups.tobytes() == uncompiled[f"setups{i}"].tobytes()
