"""Per-decision kernels allocate nothing: ``legal_actions_nb``, ``apply_action_nb`` and every
compiled strategy (MCTS with its workspace) leave numba's allocation counter unchanged.

Runs in a subprocess with ``NUMBA_NRT_STATS=1`` (numba counts its runtime allocations only
then). The batch kernel allocates its scratch once per batch, which is allowed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

WORKER = r"""
import numpy as np
from numba import njit
from numba.core.runtime import rtsys
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.engine.components import default_components
from tajsim.games.maharani.play.nb import start_game_nb
from tajsim.games.maharani.strategies.nb import choose_action_nb
from tajsim.games.maharani.strategies.registry import REGISTRY


@njit
def play_steps(comp, state, prng, legal, sid, params, work, heur, steps):
    # ``steps`` decisions of strategy ``sid`` at every seat: legal list, choice, application
    done = 0
    while done < steps and state[E.S_PHASE] != E.PHASE_GAME_OVER:
        k = nb.legal_actions_nb(state, comp, legal)
        p = state[E.S_CUR]
        a = choose_action_nb(sid, state, comp, p, params, prng, legal, k, work, heur)
        nb.apply_action_nb(state, comp, a)
        done += 1
    return done


comp = default_components().packed()
work, heur, *_ = REGISTRY.kernel_switches([3])
legal = np.empty(E.N_ACTIONS, np.int64)
for name in ["random", "greedy", "balanced", "zones", "mcts:iterations=20:horizon=2"]:
    spec, params = REGISTRY.parse(name)
    for n in (2, 3, 4):
        state0 = np.zeros(E.STATE_SIZE, np.int64)
        prng0 = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(comp, n, 0, 3, n, n, state0, prng0)
        counts = []
        for steps in (1, 1, 40):  # the first call compiles
            state, prng = state0.copy(), prng0.copy()
            before = rtsys.get_allocation_stats().alloc
            done = play_steps(comp, state, prng, legal, spec.strategy_id, params, work, heur,
                              steps)
            counts.append(rtsys.get_allocation_stats().alloc - before)
        if counts[1] != counts[2]:
            raise SystemExit(f"{name}, {n} players: {counts[1]} allocations for 1 decision, "
                             f"{counts[2]} for {done}")
print("ok")
"""


def test_per_decision_kernels_allocate_nothing():
    env = dict(os.environ, NUMBA_NRT_STATS="1",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", WORKER], env=env, capture_output=True,
                          text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-3000:]
    assert proc.stdout.strip() == "ok"
