"""Compiled kernels and the same code under ``NUMBA_DISABLE_JIT=1`` play identical games.

A subprocess with ``NUMBA_DISABLE_JIT=1`` plays a few games (random, greedy and a heuristic
preset, every rule option), writes the batch kernel's records and takes MCTS decisions at a
mid-game state; this process does the same compiled. States, action lists, records and
decisions must agree byte for byte.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tajsim.games.maharani.engine import enums as E

ROOT = Path(__file__).resolve().parents[3]
# (players, rules code, game id, strategy name)
GAMES = [(2, 0, 0, "random"), (3, E.OPT_TARGET_MARKER, 1, "greedy"),
         (4, E.OPT_FREE_REFRESH, 2, "artisans"), (2, E.OPT_ROUND_END, 3, "greedy")]
SEED = 77

WORKER = r"""
import sys
import numpy as np
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import default_components
from tajsim.games.maharani.strategies.registry import REGISTRY


def play(comp, n, rules, seed, game_id, name):
    from tajsim.games.maharani.play.nb import play_out_nb, start_game_nb
    spec, params = REGISTRY.parse(name)
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(comp, n, rules, seed, game_id, game_id, state, prng)
    actions = np.full(400, -1, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    k = play_out_nb(comp, state, np.full(n, spec.strategy_id, np.int64),
                    np.tile(params, (n, 1)), prng, legal, actions,
                    *REGISTRY.kernel_switches([spec.strategy_id]))
    return state, actions[:k]


def records(comp, n, rules, seed, game_id, name):
    from tajsim.games.maharani.play.nb import play_batch_nb
    spec, params = REGISTRY.parse(name)
    ids = np.array([game_id, game_id + 100], np.int64)
    res = np.zeros(2 * n, E.RESULT_DTYPE)
    setups = np.zeros(2, E.SETUP_DTYPE)
    play_batch_nb(comp, n, rules, seed, ids, ids, np.zeros((2, n), np.int64),
                  np.array([spec.strategy_id], np.int64), params[None, :], res, setups,
                  *REGISTRY.kernel_switches([spec.strategy_id]))
    return res, setups


def mcts_decisions(comp, seed):
    from tajsim.games.maharani.engine import nb
    from tajsim.games.maharani.play.nb import start_game_nb
    from tajsim.games.maharani.strategies.nb import choose_action_nb
    spec, params = REGISTRY.parse("mcts:iterations=12:horizon=2:width=4")
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(comp, 3, 0, seed, 3, 3, state, prng)
    legal = np.empty(E.N_ACTIONS, np.int64)
    for _ in range(20):  # into the game with the first legal actions
        k = nb.legal_actions_nb(state, comp, legal)
        nb.apply_action_nb(state, comp, legal[k - 1])
    out = []
    work, heur, *_ = REGISTRY.kernel_switches([spec.strategy_id])
    for _ in range(2):
        k = nb.legal_actions_nb(state, comp, legal)
        p = state[E.S_CUR]
        a = choose_action_nb(spec.strategy_id, state, comp, p, params, prng, legal, k, work,
                             heur)
        out.append(a)
        nb.apply_action_nb(state, comp, a)
    return np.array(out, np.int64), prng.copy()


def main():
    from numba.core import config
    games, seed, path = eval(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    if sys.argv[4] == "nojit":
        assert config.DISABLE_JIT, "NUMBA_DISABLE_JIT=1 is not in effect"
    comp = default_components().packed()
    out = {}
    for i, game in enumerate(games):
        out[f"state{i}"], out[f"actions{i}"] = play(comp, *game[:2], seed, *game[2:])
        out[f"results{i}"], out[f"setups{i}"] = records(comp, *game[:2], seed, *game[2:])
    out["mcts"], out["mcts_prng"] = mcts_decisions(comp, seed)
    np.savez(path, **out)


if __name__ == "__main__":
    main()
"""


def run_worker(tmp_path_factory, nojit: bool) -> dict:
    out = tmp_path_factory.mktemp("nojit" if nojit else "jit") / "games.npz"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT),
                                                       os.environ.get("PYTHONPATH", "")]))
    if nojit:
        env["NUMBA_DISABLE_JIT"] = "1"
    proc = subprocess.run([sys.executable, "-c", WORKER, repr(GAMES), str(SEED), str(out),
                           "nojit" if nojit else "jit"], env=env, capture_output=True,
                          text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, f"worker failed (nojit={nojit}):\n{proc.stderr[-3000:]}"
    with np.load(out, allow_pickle=False) as data:
        return dict(data)


@pytest.fixture(scope="module")
def uncompiled(tmp_path_factory):
    return run_worker(tmp_path_factory, nojit=True)


@pytest.fixture(scope="module")
def compiled():
    namespace: dict = {"__name__": "worker"}
    exec(compile(WORKER, "worker", "exec"), namespace)
    from tajsim.games.maharani.engine.components import default_components

    comp = default_components().packed()
    out = {}
    for i, game in enumerate(GAMES):
        out[f"state{i}"], out[f"actions{i}"] = namespace["play"](comp, *game[:2], SEED,
                                                                 *game[2:])
        out[f"results{i}"], out[f"setups{i}"] = namespace["records"](comp, *game[:2], SEED,
                                                                     *game[2:])
    out["mcts"], out["mcts_prng"] = namespace["mcts_decisions"](comp, SEED)
    return out


@pytest.mark.parametrize("i", range(len(GAMES)))
def test_states_actions_and_records_agree(compiled, uncompiled, i):
    assert compiled[f"state{i}"][E.S_PHASE] == E.PHASE_GAME_OVER
    for key in ("actions", "state", "results", "setups"):
        assert compiled[f"{key}{i}"].tobytes() == uncompiled[f"{key}{i}"].tobytes(), key


def test_mcts_decisions_agree(compiled, uncompiled):
    assert compiled["mcts"].tobytes() == uncompiled["mcts"].tobytes()
    assert compiled["mcts_prng"].tobytes() == uncompiled["mcts_prng"].tobytes()
