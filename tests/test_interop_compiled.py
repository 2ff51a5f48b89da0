"""The compiled observations (``tajsim.interop.compiled``): each wing's ``encode_observation``
writes exactly the array that ``tajsim.interop.encoding`` makes from the Python view, at sampled
states of every game (every table size, every seat, a heuristic's and random games, terminal
states included), compiled and under ``NUMBA_DISABLE_JIT=1``; the environments that use it
return what the Python path returns."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tajsim.games.registry import GAMES
from tajsim.interop.compiled import observation_kernel
from tajsim.interop.encoding import layout
from tajsim.interop.vector import VectorEnv

ROOT = Path(__file__).resolve().parents[1]


def sampled_states(name: str, games: int = 2, stride: int = 3, seed: int = 11):
    """(state, n_players) at every ``stride``-th decision and at the end of ``games`` games per
    table size and opponent (the game's heuristic preset, random): seeded, so the same states
    in every process."""
    spec = GAMES[name]
    edition = spec.default_edition
    comp = spec.components.default().packed()
    k = spec.kernels
    legal = np.empty(spec.n_actions, np.int64)
    rng = np.random.default_rng(seed)
    low, high = spec.players[edition]
    for preset in (spec.reference_preset, "random"):
        strategy, params = spec.strategies.parse(preset)
        switches = spec.strategies.kernel_switches([strategy.strategy_id], [params])
        for n in range(low, high + 1):
            for g in range(games):
                state = np.zeros(spec.state_size, np.int64)
                prng = np.zeros(spec.max_players, np.int64)
                k.start_game(comp, n, spec.rules_code(edition), seed, g, g, state, prng)
                step = 0
                while (p := spec.current_player(state)) >= 0:
                    if step % stride == 0:
                        yield state.copy(), n
                    count = int(k.legal_actions(state, comp, legal))
                    if preset == "random":
                        action = int(legal[rng.integers(count)])
                    else:
                        action = int(k.choose_action(strategy.strategy_id, state, comp, p,
                                                     params, prng, legal, count, *switches))
                    k.apply_action(state, comp, action)
                    step += 1
                yield state.copy(), n  # the terminal state


def mismatches(name: str, games: int = 2, stride: int = 3) -> tuple[int, list[str]]:
    """(observations compared, the fields of the first few that differ) over the sampled
    states, every seat."""
    spec = GAMES[name]
    kern = observation_kernel(spec)
    assert kern is not None, f"{name} has no compiled observation"
    lay = layout(spec)
    comp = spec.components.default().packed()
    components = spec.components.default()
    compared, bad = 0, []
    for state, n in sampled_states(name, games, stride):
        for seat in range(n):
            want = lay.encode(spec.view(state, comp, seat, components))
            got = kern.observe(state, comp, seat)
            compared += 1
            if not np.array_equal(want, got) and len(bad) < 5:
                bad += [f"seat {seat}: {f.name}" for f in lay.fields
                        if not np.array_equal(want[f.offset:f.offset + f.size],
                                              got[f.offset:f.offset + f.size])]
    return compared, bad


@pytest.mark.parametrize("game", list(GAMES))
def test_the_compiled_observation_equals_the_python_encoding(game):
    compared, bad = mismatches(game)
    assert not bad, f"{game}: the compiled observation differs in {bad}"
    assert compared > 100  # not an empty check: every table size, seats, terminal states


@pytest.mark.parametrize("game", list(GAMES))
def test_a_batch_is_the_rows_observations(game):
    spec = GAMES[game]
    kern = observation_kernel(spec)
    comp = spec.components.default().packed()
    picked = [(s, n) for s, n in sampled_states(game, games=1, stride=7)][:40]
    states = np.stack([s for s, _ in picked])
    seats = np.array([i % n for i, (_, n) in enumerate(picked)], np.int64)
    batch = kern.observe_rows(states, comp, seats)
    assert batch.shape == (len(picked), layout(spec).size)
    for i in range(len(picked)):
        assert np.array_equal(batch[i], kern.observe(states[i], comp, int(seats[i])))
    # the rows differ (the check compares something)
    assert len({row.tobytes() for row in batch}) > 1


WORKER = """
import sys
from numba.core import config
assert config.DISABLE_JIT, "NUMBA_DISABLE_JIT=1 is not in effect"
sys.path.insert(0, sys.argv[1])
from test_interop_compiled import mismatches
for game in sys.argv[2:]:
    compared, bad = mismatches(game, games=1, stride=9)
    assert compared > 20 and not bad, (game, compared, bad)
    print(game, compared)
"""


def test_the_kernels_run_uncompiled_too():
    """Under ``NUMBA_DISABLE_JIT=1`` the same source runs as Python: still the same arrays."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", WORKER, str(ROOT / "tests"), *GAMES], env=env,
                          capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert sorted(line.split()[0] for line in proc.stdout.splitlines()) == sorted(GAMES)


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("observation", ["raw", "scaled"])
def test_the_batched_env_observes_the_same_either_way(game, observation):
    spec = GAMES[game]
    players = spec.players[spec.default_edition][0]
    envs = [VectorEnv(game=game, num_envs=6, players=players, seat=players - 1,
                      opponents="random", observation=observation, compiled_observation=c)
            for c in (True, False)]
    assert envs[0]._compiled is not None and envs[1]._compiled is None
    outs = [env.reset(seed=3) for env in envs]
    assert np.array_equal(outs[0][0], outs[1][0]) and np.array_equal(outs[0][1], outs[1][1])
    rng = np.random.default_rng(0)
    for _ in range(40):
        actions = envs[0].sample(rng)
        outs = [env.step(actions) for env in envs]
        for a, b in zip(*outs):
            assert np.array_equal(a, b)


@pytest.mark.parametrize("game", list(GAMES))
def test_seat_env_observes_the_same_either_way(game):
    pytest.importorskip("gymnasium")
    from tajsim.interop.gymnasium import SeatEnv

    envs = [SeatEnv(game=game, seat=1, observation=o, opponents="random")
            for o in ("raw", "scaled") for _ in range(2)]
    for env in envs[1::2]:
        env._compiled = None  # the Python view, encoded
    assert all(env._compiled is not None for env in envs[0::2])
    rng = np.random.default_rng(5)
    for a, b in (envs[0:2], envs[2:4]):
        oa, _ = a.reset(seed=4)
        ob, _ = b.reset(seed=4)
        done = False
        while not done:
            assert np.array_equal(oa["observation"], ob["observation"])
            action = int(rng.choice(np.flatnonzero(oa["action_mask"])))
            oa, _, done, _, _ = a.step(action)
            ob, _, _, _, _ = b.step(action)
        assert np.array_equal(oa["observation"], ob["observation"])  # the final one too


@pytest.mark.parametrize("game", list(GAMES))
def test_pettingzoo_observes_the_same_either_way(game):
    pytest.importorskip("pettingzoo")
    from tajsim.interop.pettingzoo import env as pz_env

    envs = [pz_env(game=game) for _ in range(2)]
    envs[1].unwrapped._compiled = None  # the Python view, encoded
    assert envs[0].unwrapped._compiled is not None
    for e in envs:
        e.reset(seed=6)
    rng = np.random.default_rng(1)
    for agent in envs[0].agent_iter():
        assert agent == envs[1].agent_selection
        for seat in envs[0].possible_agents:
            a, b = envs[0].observe(seat), envs[1].observe(seat)
            assert np.array_equal(a["observation"], b["observation"])
        assert np.array_equal(envs[0].unwrapped.state(), envs[1].unwrapped.state())
        obs, _, terminated, truncated, _ = envs[0].last()
        action = None if terminated or truncated else int(
            rng.choice(np.flatnonzero(obs["action_mask"])))
        for e in envs:
            e.step(action)
