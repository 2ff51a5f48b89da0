"""Play games through the GPU batch kernels in numba-cuda's simulator and through the CPU kernels,
and report every difference (run by ``tests/test_gpu.py`` in a subprocess: the simulator must be
switched on before ``numba.cuda`` is first imported).

Usage: ``NUMBA_ENABLE_CUDASIM=1 python tests/gpu_sim_check.py CASES_JSON`` where the JSON is a
list of cases ``{"game", "players", "edition", "options": {name: true} (optional), "strategies",
"games", "seed",
"component_file": a components file (optional: a component alternative, e.g. a variant),
"params": {label: [weights]} (optional), "cpu_params": the same for the CPU side only
(optional: to show that a difference is caught), "poison": true (optional: every
``cuda.local.array`` starts filled with garbage, NaN in a float array, as a GPU's local memory
may, instead of whatever ``np.empty`` gives)}``; prints one JSON line per case:
``{"case": i, "games": G, "differences": [...]}`` (a difference names the game, the record or
state field and both values).
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator

import numpy as np

from tajsim.engine.gpu import line_up_switches, play_batch_gpu
from tajsim.engine.targets import simulated
from tajsim.games.registry import get_game


def cpu_play(spec, comp, n, rules, seed, game_ids, lineups, ids, params):
    """Records (``play_batch``) and final states (``start_game`` + ``play_out``) on the CPU."""
    G = game_ids.shape[0]
    results = np.zeros(G * n, spec.result_dtype)
    setups = np.zeros(G, spec.setup_dtype)
    switches = spec.strategies.kernel_switches(ids)
    k = spec.kernels
    k.play_batch(comp, n, rules, seed, game_ids, game_ids, lineups, ids, params, results,
                 setups, *switches)
    states = np.zeros((G, spec.state_size), np.int64)
    prng = np.zeros(spec.max_players, np.int64)
    legal = np.empty(spec.n_actions, np.int64)
    for g in range(G):
        seat_ids = ids[lineups[g]]
        seat_params = np.ascontiguousarray(params[lineups[g]])
        k.start_game(comp, n, rules, seed, game_ids[g], game_ids[g], states[g], prng)
        k.play_out(comp, states[g], seat_ids, seat_params, prng, legal, np.empty(0, np.int64),
                   *switches)
    return results, setups, states


def differences(spec, cpu, gpu, limit=5):
    """Every field (records and state slots) that differs, at most ``limit`` of each kind."""
    out = []
    for what, a, b in (("result", cpu[0], gpu[0]), ("setup", cpu[1], gpu[1])):
        for name in a.dtype.names:
            bad = np.flatnonzero(np.any((a[name] != b[name]).reshape(a.shape[0], -1), axis=1))
            for row in bad[:limit]:
                out.append(f"{what} row {row} field {name}: cpu {a[name][row].tolist()} "
                           f"gpu {b[name][row].tolist()}")
    rows, cols = np.nonzero(cpu[2] != gpu[2])
    for row, col in list(zip(rows, cols, strict=True))[:limit]:
        out.append(f"state of game {row} slot {col}: cpu {cpu[2][row, col]} "
                   f"gpu {gpu[2][row, col]}")
    return out


#: What a poisoned local array holds: NaN in a float array (every comparison with it is false,
#: every sum with it NaN), a large negative garbage word in an integer one.
POISON_INT = -0x5A5A5A5A5A5A5A5


@contextlib.contextmanager
def poisoned_local_arrays() -> Iterator[None]:
    """Within the block, the simulator's ``cuda.local.array`` returns arrays filled with poison
    instead of ``np.empty``'s (often zeros): a kernel that reads a local array before writing
    it then plays otherwise, as it may on a GPU, whose local memory is not cleared."""
    from numba.core import types
    from numba.cuda.simulator import kernelapi
    from numba.np import numpy_support

    def array(self, shape, dtype, alignment=None):
        if isinstance(dtype, types.Type):
            dtype = numpy_support.as_dtype(dtype)
        out = np.empty(shape, dtype)
        out[...] = np.nan if out.dtype.kind == "f" else POISON_INT
        return out

    plain = kernelapi.FakeCUDALocal.array
    kernelapi.FakeCUDALocal.array = array
    try:
        yield
    finally:
        kernelapi.FakeCUDALocal.array = plain


def run_case(case):
    spec = get_game(case["game"])
    n = int(case["players"])
    rules = spec.rules_code(case.get("edition"), case.get("options"))
    if case.get("component_file"):
        from tajsim.running.config import resolve_components

        components, _ = resolve_components(spec, component_file=case["component_file"])
    else:
        components = spec.components.default()
    comp = np.asarray(components.packed(), np.int64)
    strategies = list(case["strategies"])
    strategies = strategies * n if len(strategies) == 1 else strategies  # one for every seat
    labels = list(dict.fromkeys(strategies))
    ids, params, cpu_params = [], [], []
    for label in labels:
        strategy, vec = spec.strategies.parse(label)
        ids.append(strategy.strategy_id)
        params.append(case.get("params", {}).get(label, vec))
        cpu_params.append(case.get("cpu_params", {}).get(label, params[-1]))
    ids = np.asarray(ids, np.int64)
    params = np.ascontiguousarray(np.asarray(params, np.float64))
    cpu_params = np.ascontiguousarray(np.asarray(cpu_params, np.float64))
    seats = [labels.index(s) for s in strategies]
    G = int(case["games"])
    game_ids = np.arange(G, dtype=np.int64) + int(case.get("first", 0))
    # rotate the seats so every strategy sits in every seat
    lineups = np.array([[seats[(p + g) % n] for p in range(n)] for g in range(G)], np.int64)
    seed = int(case["seed"])
    cpu = cpu_play(spec, comp, n, rules, seed, game_ids, lineups, ids, cpu_params)
    results = np.zeros(G * n, spec.result_dtype)
    setups = np.zeros(G, spec.setup_dtype)
    states = np.zeros((G, spec.state_size), np.int64)
    heuristics, net = line_up_switches(spec, ids, params)
    poison = poisoned_local_arrays() if case.get("poison") else contextlib.nullcontext()
    with poison:
        play_batch_gpu(spec, comp, n, rules, seed, game_ids, game_ids, lineups, ids, params,
                       results, setups, heuristics, states, net=net)
    return {"games": G, "differences": differences(spec, cpu, (results, setups, states))}


def main() -> None:
    if not simulated():
        sys.exit("run with NUMBA_ENABLE_CUDASIM=1")
    cases = json.loads(sys.argv[1])
    for i, case in enumerate(cases):
        print(json.dumps({"case": i, **run_case(case)}), flush=True)


if __name__ == "__main__":
    main()
