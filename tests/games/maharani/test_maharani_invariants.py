"""The invariant checks can fail, and the compiled twin (``invariants_nb``) agrees with the
Python reference (``invariants``) on valid and on deliberately corrupted states."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from maharani_helpers import MCOMP

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.engine.invariants import check_state, expected_legal
from tajsim.games.maharani.engine.invariants_nb import (
    INVARIANT_NAMES,
    SCRATCH_SIZE,
    check_games_nb,
    check_state_nb,
)
from tajsim.games.maharani.engine.reference_nb import expected_legal_nb
from tajsim.games.maharani.play.nb import play_out_nb, start_game_nb
from tajsim.games.maharani.strategies.ids import N_PARAMS
from tajsim.games.maharani.strategies.registry import REGISTRY

SCRATCH = np.zeros(SCRATCH_SIZE, np.int64)


def sampled_states(n: int, seed: int, every: int = 7):
    """States along random games (every ``every``-th step and the final one)."""
    out = []
    legal = np.empty(E.N_ACTIONS, np.int64)
    for game in range(2):
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(MCOMP, n, 0, seed, game, game, state, prng)
        step = 0
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            if step % every == 0:
                out.append(state.copy())
            k = nb.legal_actions_nb(state, MCOMP, legal)
            nb.apply_action_nb(state, MCOMP, legal[(step * 7919) % k])
            step += 1
        out.append(state.copy())
    return out


@pytest.mark.parametrize("n", [2, 3, 4])
def test_twins_agree_on_valid_states(n):
    ref = np.empty(E.N_ACTIONS, np.int64)
    for state in sampled_states(n, seed=n):
        check_state(state, MCOMP)
        assert check_state_nb(state, MCOMP, SCRATCH) == 0
        k = expected_legal_nb(state, MCOMP, ref)
        assert ref[:k].tolist() == expected_legal(state, MCOMP)


def corrupt(state: np.ndarray, how: str) -> np.ndarray:
    s = state.copy()
    board = [sp for sp in range(56) if s[E.S_SPACE_TILE + sp] >= 0]
    if how == "bag duplicate":
        s[E.S_BAG + 1] = s[E.S_BAG]
    elif how == "tile location":
        s[E.S_TILE_LOC + int(s[E.S_SLOT + 1])] = E.LOC_BAG
    elif how == "colour mask":
        s[E.S_COLOUR_MASK] ^= 1 << 55
    elif how == "reserve":
        s[E.S_RESERVE] += 1
    elif how == "marker":
        s[E.S_MARKER] = 2
    elif how == "zone gold":
        s[E.S_SCORE + E.PART_ZONES] -= 1
    elif how == "second part":
        s[E.S_SCORE + E.PART_SECOND] -= 2
    elif how == "rank while playing":
        s[E.S_RANK] = 1
    elif how == "facing":
        s[E.S_FACING] = (s[E.S_FACING] + 1) % 4
    elif how == "arrow":
        sp = next(x for x in board if bin(int(MCOMP[E.C_SPACE_MARKS + x])).count("1") == 1
                  and MCOMP[E.C_SPACE_MARKS + x] != E.MARK_CENTRE)
        s[E.S_SPACE_ARROW + sp] = (s[E.S_SPACE_ARROW + sp] + 1) % 4
    elif how == "space gold":
        s[E.S_SPACE_GOLD + board[0]] += 1
    elif how == "pending":
        s[E.S_PENDING] = 1
    elif how == "central out":
        s[E.S_CENTRAL_OUT] = 1
    elif how == "two artisans":
        # two artisans of colour 0 on tiles of one colour in one quarter
        same = [(x, y) for x in board for y in board if x < y
                and MCOMP[E.C_SPACE_QUARTER + x] == MCOMP[E.C_SPACE_QUARTER + y]
                and MCOMP[E.C_TILE_COLOUR + s[E.S_SPACE_TILE + x]]
                == MCOMP[E.C_TILE_COLOUR + s[E.S_SPACE_TILE + y]]]
        a, b = same[0]
        for sp in (a, b):
            if s[E.S_SPACE_ARTISAN + sp] != 0:
                s[E.S_SPACE_ARTISAN + sp] = 0
                s[E.S_RESERVE] -= 1
        nb.rebuild_masks_nb(s, MCOMP)
    return s


CORRUPTIONS = ["bag duplicate", "tile location", "colour mask", "reserve", "marker",
               "zone gold", "second part", "rank while playing", "facing", "arrow",
               "space gold", "pending", "central out", "two artisans"]


@pytest.mark.parametrize("how", CORRUPTIONS)
def test_both_checkers_catch_corruptions(how):
    # a mid-game state with a laid board and tiles in the bag
    state = next(st for st in sampled_states(4, seed=11, every=1)
                 if st[E.S_PHASE] == E.PHASE_FIRST and st[E.S_CENTRAL_OUT] == 0
                 and bin(int(st[E.S_FILLED])).count("1") >= 24)
    bad = corrupt(state, how)
    with pytest.raises(AssertionError):
        check_state(bad, MCOMP, how)
    code = check_state_nb(bad, MCOMP, SCRATCH)
    assert code != 0, f"compiled twin missed: {how}"
    assert 0 < code < len(INVARIANT_NAMES)


def test_checked_games_are_the_random_games_of_the_runner():
    n, ids = 3, np.arange(12, dtype=np.int64)
    codes = np.zeros(12, np.int64)
    steps = np.zeros(12, np.int64)
    check_games_nb(MCOMP, n, 0, 4, ids, codes, steps)
    assert codes.tolist() == [0] * 12
    for g in ids:
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(MCOMP, n, 0, 4, g, g, state, prng)
        k = play_out_nb(MCOMP, state, np.zeros(n, np.int64), np.zeros((n, N_PARAMS)), prng,
                        np.empty(E.N_ACTIONS, np.int64), np.empty(0, np.int64),
                        *REGISTRY.kernel_switches([0]))
        assert k == steps[g]


# A rules helper broken on purpose (its body swapped under NUMBA_DISABLE_JIT=1, so every caller
# runs the wrong code), then random games checked: the checks must flag it, which they can only
# because they do not call that helper themselves.
BROKEN_HELPER_WORKER = r"""
import sys
import numpy as np
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.engine.components import default_components
from tajsim.games.maharani.engine.invariants_nb import check_games_nb


def score_without_quarters(state, p):
    total = 0
    for k in range(N_PARTS):
        if k != PART_QUARTERS:
            total += state[S_SCORE + p * N_PARTS + k]
    return total


def options_moving_the_wrong_colour(state, comp, p, s, colour):
    others = other_same_colour(state, comp, s, colour)
    a = colour_a(state[S_N_PLAYERS], p)
    if (state[S_ARTISAN_MASK + a] & others) != 0:
        return 1 << ART_MOVE_B
    return (1 << ART_NEW_A) if state[S_RESERVE + a] > 0 else 0


broken = {"score_of": score_without_quarters,
          "artisan_options_for": options_moving_the_wrong_colour}
name, n = sys.argv[1], int(sys.argv[2])
if name != "none":
    getattr(nb, name).__code__ = broken[name].__code__
games = 4
codes = np.zeros(games, np.int64)
steps = np.zeros(games, np.int64)
check_games_nb(default_components().packed(), n, 0, 5, np.arange(games, dtype=np.int64), codes,
               steps)
print(" ".join(str(c) for c in codes))
"""


def checked_codes_with(helper: str, n: int) -> list[int]:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    root = Path(__file__).resolve().parents[3]
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", BROKEN_HELPER_WORKER, helper, str(n)],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return [int(c) for c in done.stdout.split()]


@pytest.mark.parametrize("helper, n, names", [
    ("none", 2, ()),
    ("score_of", 3, ("the end of the game (ranks, winners, quarters)",)),
    ("artisan_options_for", 2, ("legal list differs from the loop reference",
                                "group gold differs from a flood fill")),
])
def test_a_broken_rules_helper_is_caught(helper, n, names):
    codes = checked_codes_with(helper, n)
    if not names:  # the intact rules: every game passes under NUMBA_DISABLE_JIT too
        assert codes == [0] * 4  # the worker's four games
    else:
        flagged = {INVARIANT_NAMES[c] for c in codes if c != 0}
        assert flagged and flagged <= set(names), (helper, codes)
