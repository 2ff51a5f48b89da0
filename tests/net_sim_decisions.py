"""Run under numba's CUDA simulator by ``net_checks.check_simulator_decides_as_the_cpu``: a
wing's ``net_choose`` decides at the conformance decision points on the CPU and in a CUDA
kernel, and the two must be equal.

Arguments: the game, the number of decision states a line-up, and the trailing buffers
``net_choose`` takes after ``net`` as JSON ``[[size, dtype, cpu_fill, gpu_fill], ...]`` (the GPU
side's fill may be garbage the kernel must write before it reads). The weights are the file
``$TAJSIM_<GAME>_NET`` names, read by the wing's own registry."""

from __future__ import annotations

import importlib
import json
import os
import sys

import numpy as np
from numba import cuda

from tajsim.engine.gpu import net_weights
from tajsim.engine.targets import device_function
from tajsim.play import conformance as C

game, n_states, buffers = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
spec = importlib.import_module(f"tajsim.games.{game}.spec").SPEC
net_choose = importlib.import_module(f"tajsim.games.{game}.strategies.net").net_choose
net_format = importlib.import_module(f"tajsim.games.{game}.strategies.net_weights").FORMAT
comp = spec.components.default().packed()
# the spec's ``net`` plays the test's file, not the shipped weights
_, fingerprint = net_format.load_net_file(os.environ[f"TAJSIM_{game.upper()}_NET"])
assert fingerprint in spec.strategies.get("net").params, "the spec's net is not the test file's"
choose = device_function(net_choose)


@cuda.jit
def decide_1(states, comp, players, params, prngs, legals, ns, net, buf0, out):
    i = cuda.grid(1)
    if i < states.shape[0]:
        out[i] = choose(states[i], comp, players[i], params, prngs[i], legals[i], ns[i], net,
                        buf0[i])


@cuda.jit
def decide_2(states, comp, players, params, prngs, legals, ns, net, buf0, buf1, out):
    i = cuda.grid(1)
    if i < states.shape[0]:
        out[i] = choose(states[i], comp, players[i], params, prngs[i], legals[i], ns[i], net,
                        buf0[i], buf1[i])


decide = {1: decide_1, 2: decide_2}[len(buffers)]
net_id = spec.strategies.get("net").strategy_id
for text, n_players in (("net", 2), ("net:temperature=3", 2), ("net", 4)):
    _, params = spec.strategies.parse(text)
    net = net_weights(spec, np.array([net_id]), params[None, :])
    points = C.decision_states(spec, n_players, n_states, seed=2)
    g = len(points)
    states = np.stack([s for s, _, _, _ in points])
    prngs = np.stack([p for _, p, _, _ in points])
    players = np.array([q for _, _, q, _ in points], np.int64)
    legals = np.zeros((g, spec.n_actions), np.int64)
    ns = np.array([len(lg) for _, _, _, lg in points], np.int64)
    for i, (_, _, _, lg) in enumerate(points):
        legals[i, :len(lg)] = lg
    cpu = np.array([net_choose(states[i].copy(), comp, players[i], params, prngs[i].copy(),
                               legals[i].copy(), ns[i], net,
                               *(np.full(size, fill, dtype) for size, dtype, fill, _ in buffers))
                    for i in range(g)])
    out = np.zeros(g, np.int64)
    gpu_buffers = [np.full((g, size), fill, dtype) for size, dtype, _, fill in buffers]
    decide[1, g](states, comp, players, params, prngs.copy(), legals, ns, net, *gpu_buffers, out)
    assert np.array_equal(cpu, out), (text, cpu, out)
    print(text, n_players, g, "decisions equal")
