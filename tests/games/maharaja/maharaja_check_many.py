"""Play many random Maharaja games through the invariant checks after every action.

Usage (from the repository root)::

    PYTHONPATH=. python tests/games/maharaja/maharaja_check_many.py --games 100000
    PYTHONPATH=. python tests/games/maharaja/maharaja_check_many.py --games 2000 --python-games 200

For each player count (2 to 5) it plays ``--games`` games with uniform random choices (rule
options drawn at random for one game in four) and checks every state after every action with
``check_state_nb`` (the compiled twin of ``invariants.check_state``); the first
``--python-games`` games of each count are also checked with the Python ``check_state`` and
the kernels' legal list against the independent ``expected_legal`` after every action, and
any state the compiled check flags is checked again in Python for the message. It prints, per
player count, the games, actions checked, violations and the time taken; it exits 1 on any
violation.
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit

from tajsim.engine.rng import below, derive_seed
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.engine.checks_nb import CHECK_NAMES, check_state_nb
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.engine.invariants import check_state, expected_legal
from tajsim.games.maharaja.play.nb import start_game_nb

OPTION_BITS = (E.OPT_NO_LONE_BONUS, E.OPT_PENALTY_PER_TURN, E.OPT_STATIC_ORDER,
               E.OPT_FREE_PALACE_SITE, E.OPT_UNLIMITED_HOUSES, E.OPT_SEVERAL_PALACES)


@njit(cache=True)
def rules_of(seed, game_id):
    """Rule options for one game in four, drawn from (seed, game id)."""
    words = np.zeros(1, np.int64)
    words[0] = derive_seed(seed, game_id, 0x0B75)
    if below(words, 0, 4) != 0:
        return 0
    code = 0
    for bit in (8, 9, 10, 11, 12, 13):
        if below(words, 0, 2) == 1:
            code |= 1 << bit
    return code


@njit(cache=True)
def play_checked_nb(comp, n, seed, first, count, codes, steps, ends):
    """Play games first .. first + count - 1 at random, checking every state; the first broken
    invariant of game g and its step go to codes[g - first], steps[g - first], its end cause
    and last round to ends[g - first]. Returns the number of states checked."""
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    checked = 0
    for i in range(count):
        g = first + i
        start_game_nb(comp, n, rules_of(seed, g), seed, g, g, state, prng)
        step = 0
        codes[i] = 0
        while True:
            code = check_state_nb(state, comp)
            checked += 1
            if code != 0:
                codes[i] = code
                steps[i] = step
                break
            k = nb.legal_actions_nb(state, comp, legal)
            if k == 0:
                break
            nb.apply_action_nb(state, comp, legal[below(prng, state[E.S_CUR], k)])
            step += 1
        ends[i, 0] = state[E.S_END_CAUSE]
        ends[i, 1] = state[E.S_END_ROUND]
    return checked


def replay_to(comp, n, seed, g, step):
    """The state of game g after ``step`` actions (as ``play_checked_nb`` played it)."""
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    start_game_nb(comp, n, rules_of(seed, g), seed, g, g, state, prng)
    for _ in range(step):
        k = nb.legal_actions_nb(state, comp, legal)
        nb.apply_action_nb(state, comp, legal[below(prng, int(state[E.S_CUR]), k)])
    return state


def python_checked(comp, n, seed, count):
    """Games 0 .. count - 1 again, through the Python checks; returns (states, violations)."""
    violations = []
    states = 0
    legal = np.empty(E.N_ACTIONS, np.int64)
    for g in range(count):
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(comp, n, rules_of(seed, g), seed, g, g, state, prng)
        step = 0
        while True:
            try:
                check_state(state, comp, f"{n} players, game {g}, step {step}")
                k = nb.legal_actions_nb(state, comp, legal)
                ref = expected_legal(state, comp)
                if legal[:k].tolist() != ref:
                    raise AssertionError(f"{n} players, game {g}, step {step}: legal list "
                                         f"{legal[:k].tolist()[:12]} != reference {ref[:12]}")
            except AssertionError as exc:
                violations.append(str(exc))
                break
            states += 1
            if k == 0:
                break
            nb.apply_action_nb(state, comp, legal[below(prng, int(state[E.S_CUR]), k)])
            step += 1
    return states, violations


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games per player count")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 3, 4, 5])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--python-games", type=int, default=200,
                        help="games per count also checked in Python (slow)")
    args = parser.parse_args(argv)
    comp = default_components().packed()
    codes = np.zeros(1, np.int64)
    steps = np.zeros(1, np.int64)
    play_checked_nb(comp, 2, 0, 0, 1, codes, steps, np.zeros((1, 2), np.int64))  # compile
    failures = 0
    total_t = time.perf_counter()
    for n in args.players:
        t = time.perf_counter()
        codes = np.zeros(args.games, np.int64)
        steps = np.zeros(args.games, np.int64)
        ends = np.zeros((args.games, 2), np.int64)
        checked = play_checked_nb(comp, n, args.seed, 0, args.games, codes, steps, ends)
        dt = time.perf_counter() - t
        bad = np.flatnonzero(codes)
        t = time.perf_counter()
        py_states, py_bad = python_checked(comp, n, args.seed, min(args.python_games,
                                                                    args.games))
        dt_py = time.perf_counter() - t
        print(f"{n} players: {args.games} games, {checked} states checked (compiled) in "
              f"{dt:.1f} s: {len(bad)} violations; {min(args.python_games, args.games)} games, "
              f"{py_states} states through check_state + expected_legal in {dt_py:.1f} s: "
              f"{len(py_bad)} violations")
        causes = np.bincount(ends[:, 0], minlength=len(E.END_CAUSE_NAMES))
        print("   end causes: " + ", ".join(f"{name} {int(k)}" for name, k in
                                          zip(E.END_CAUSE_NAMES[1:], causes[1:]))
              + f"; rounds {int(ends[:, 1].min())}-{int(ends[:, 1].max())}")
        for i in bad[:5]:
            state = replay_to(comp, n, args.seed, int(i), int(steps[i]))
            try:
                check_state(state, comp, f"{n} players, game {i}, step {steps[i]}")
                why = "(the Python check passes: the two checks disagree)"
            except AssertionError as exc:
                why = str(exc)
            print(f"  game {i} step {steps[i]}: {CHECK_NAMES[codes[i]]}: {why}")
        for text in py_bad[:5]:
            print(f"  {text}")
        failures += len(bad) + len(py_bad)
    print(f"total: {failures} violations in {time.perf_counter() - total_t:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
