"""Where a decision of Taj Mahal's ``net`` spends its time (docs/net.md, "Cost"): each part timed
in a compiled loop over 2-player decision states (``tajsim.play.conformance.decision_states``),
this thread's CPU time a decision, so no Python call overhead is counted. The parts run in the
policy's order: the observation, then the inputs, then the hidden layer and theta; then
``tuned``'s pass alone, ``tuned``'s pass with the candidates' features, ``net_scores`` and
``net_choose`` whole. Prints one line a part.

    python benchmarks/net_profile_tajmahal.py --states 400 --reps 20
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit

from tajsim.engine.net_nb import MAX_HIDDEN, net_forward, net_set_offset
from tajsim.games.tajmahal.interop_nb import encode_observation
from tajsim.games.tajmahal.spec import SPEC
from tajsim.games.tajmahal.strategies import net as N
from tajsim.games.tajmahal.strategies.heuristic import HEURISTIC_WORK_SIZE, weighted_policy_nb
from tajsim.play import conformance

OFFSETS = N.OBS_OFFSETS


@njit
def _observation(states, comp, players, obs, reps):
    for _ in range(reps):
        for i in range(states.shape[0]):
            encode_observation(states[i], comp, players[i], OFFSETS, obs)


@njit
def _inputs(states, comp, players, obs, x, reps):
    for _ in range(reps):
        for i in range(states.shape[0]):
            encode_observation(states[i], comp, players[i], OFFSETS, obs)
            N.net_inputs(obs, players[i], x)


@njit
def _forward(states, comp, players, obs, x, h, theta, net, base, reps):
    for _ in range(reps):
        for i in range(states.shape[0]):
            encode_observation(states[i], comp, players[i], OFFSETS, obs)
            N.net_inputs(obs, players[i], x)
            net_forward(net, base, x, h, theta)


@njit
def _tuned(states, comp, players, params, legal, n_legal, work, reps):
    for _ in range(reps):
        for i in range(states.shape[0]):
            weighted_policy_nb(states[i], comp, players[i], params, legal[i], n_legal[i], work)


@njit
def _candidates(states, comp, players, params, legal, n_legal, work, scratch, reps):
    for _ in range(reps):
        for i in range(states.shape[0]):
            N.candidates(states[i], comp, players[i], params, legal[i], n_legal[i], work,
                         scratch)


@njit
def _scores(states, comp, players, params, legal, n_legal, net, scratch, work, reps):
    for _ in range(reps):
        for i in range(states.shape[0]):
            N.net_scores(states[i], comp, players[i], params, legal[i], n_legal[i], net,
                         scratch, work)


@njit
def _choose(states, comp, players, params, legal, n_legal, net, scratch, work, reps):
    prng = np.zeros(states.shape[0], np.int64)
    for _ in range(reps):
        for i in range(states.shape[0]):
            N.net_choose(states[i], comp, players[i], params, prng, legal[i], n_legal[i], net,
                         scratch, work)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=400, help="decision states asked for")
    parser.add_argument("--reps", type=int, default=20)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    spec = SPEC
    comp = spec.components.default().packed()
    _, params = spec.strategies.parse("net")
    net = spec.strategies.kernel_switches([spec.net.strategy_id], [params])[3]
    base = net_set_offset(net, N.fingerprint_of(params))
    points = conformance.decision_states(spec, 2, args.states, seed=args.seed)
    states = np.stack([p[0] for p in points])
    players = np.array([p[2] for p in points], np.int64)
    legal = np.zeros((len(points), spec.n_actions), np.int64)
    n_legal = np.array([len(p[3]) for p in points], np.int64)
    for i, p in enumerate(points):
        legal[i, :len(p[3])] = p[3]
    obs = np.empty(N.OBS_SIZE, np.int64)
    x = np.empty(N.D_IN, np.int64)
    h = np.empty(MAX_HIDDEN, np.int64)
    theta = np.empty(N.N_FEATURES, np.int64)
    work = np.zeros(HEURISTIC_WORK_SIZE)
    scratch = np.empty(N.SCRATCH_SIZE, np.int64)
    parts = (
        ("the observation", _observation, (states, comp, players, obs)),
        ("the observation and the inputs", _inputs, (states, comp, players, obs, x)),
        ("... and the hidden layer and theta", _forward,
         (states, comp, players, obs, x, h, theta, net, base)),
        ("tuned's pass alone", _tuned, (states, comp, players, params, legal, n_legal, work)),
        ("tuned's pass with the candidates' features", _candidates,
         (states, comp, players, params, legal, n_legal, work, scratch)),
        ("net_scores", _scores, (states, comp, players, params, legal, n_legal, net, scratch,
                                 work)),
        ("net_choose (the whole decision)", _choose,
         (states, comp, players, params, legal, n_legal, net, scratch, work)),
    )
    nonzero = []
    for i in range(len(points)):
        encode_observation(states[i], comp, players[i], OFFSETS, obs)
        N.net_inputs(obs, players[i], x)
        nonzero.append(int(np.count_nonzero(x)))
    print(f"{len(points)} decision states, {np.mean(n_legal):.1f} legal actions and "
          f"{np.mean(nonzero):.1f} non-zero inputs on average; {args.reps} passes")
    for label, func, fargs in parts:
        func(*fargs, 1)  # compile
        t0 = time.thread_time()
        func(*fargs, args.reps)
        us = (time.thread_time() - t0) / args.reps / len(points) * 1e6
        print(f"{label}: {us:.2f} us a decision", flush=True)


if __name__ == "__main__":
    main()
