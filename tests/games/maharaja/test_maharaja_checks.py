"""The invariant checks: the Python ``check_state`` and its compiled twin ``check_state_nb``
agree on valid states and both catch each kind of corruption; ``maharaja_check_many.py`` runs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from maharaja_helpers import COMP

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.engine.checks_nb import CHECK_NAMES, check_state_nb
from tajsim.games.maharaja.engine.invariants import check_state
from tajsim.games.maharaja.play.nb import start_game_nb


def states_of_games(n_games=8):
    rng = np.random.default_rng(3)
    out = []
    legal = np.empty(E.N_ACTIONS, np.int64)
    for g in range(n_games):
        n = 2 + g % 4
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(COMP, n, 0, 9, g, g, state, prng)
        while True:
            out.append(state.copy())
            k = nb.legal_actions_nb(state, COMP, legal)
            if k == 0:
                break
            nb.apply_action_nb(state, COMP, legal[rng.integers(k)])
    return out


STATES = states_of_games()


def test_valid_states_pass_both():
    for s in STATES:
        check_state(s, COMP)
        assert check_state_nb(s, COMP) == 0


def _in_play(pred):
    for s in STATES:
        if pred(s):
            return s.copy()
    raise AssertionError("no such state")


def c_gold(s):
    s[E.S_GOLD] += 1


def c_part(s):
    s[E.S_PARTS + E.PART_TOLLS_OUT] += 1
    s[E.S_GOLD] += 1


def c_tolls(s):
    s[E.S_TOLL_BY_VILLAGE + 3] += 1


def c_card(s):
    s[E.S_CARD_OF + 1] = s[E.S_CARD_OF + 0]


def c_house_total(s):
    s[E.S_LOC_TOTAL + 5] += 1


def c_village_cap(s):
    for _ in range(3):
        s[E.S_HOUSES + 7 * E.MAX_PLAYERS + 0] += 1
        s[E.S_LOC_TOTAL + 7] += 1
        s[E.S_POOL + 0] -= 1
        s[E.S_HOUSES_BUILT + 0] += 1


def c_supply(s):
    s[E.S_QUARRY + 0] += 1


def c_palace(s):
    """A palace counted (with its points and round) that stands on no site."""
    s[E.S_PALACES + 0] += 1
    s[E.S_PARTS + E.PART_PALACES] += E.PALACE_POINTS
    s[E.S_PALACE_ROUND + int(s[E.S_PALACES + 0]) - 1] = max(1, int(s[E.S_ROUND]))


def c_outer_before_centre(s):
    s[E.S_SITE + 6 * E.N_SITES + E.N_SITES - 1] = 0
    s[E.S_PALACES + 0] += 1
    s[E.S_PARTS + E.PART_PALACES] += E.PALACE_POINTS
    s[E.S_PALACE_ROUND + int(s[E.S_PALACES + 0]) - 1] = max(1, int(s[E.S_ROUND]))


def c_track(s):
    a = int(s[E.S_GOV_POS + 0])
    s[E.S_GOV_POS + 0] = s[E.S_GOV_POS + 1]
    s[E.S_BOX + a] = -1


def c_architect(s):
    s[E.S_ARCH + 1] = 9


def c_allowance(s):
    s[E.S_T_HOUSES_ALLOWED] += 1


def c_chosen(s):
    s[E.S_CHOSEN + 4] += 1


def c_rank(s):
    s[E.S_RANK + 0], s[E.S_RANK + 1] = s[E.S_RANK + 1], s[E.S_RANK + 0]


def in_round(s):
    return s[E.S_ROUND] >= 2 and s[E.S_PHASE] != E.PHASE_GAME_OVER


CASES = [  # (corruption, where it can be made, the check that must catch it, its message)
    (c_gold, in_round, 3, "gold"), (c_part, in_round, 3, "part tolls_out positive"),
    (c_tolls, in_round, 4, "tolls by village"), (c_card, in_round, 2, "card 0 owner"),
    (c_house_total, in_round, 6, "location totals != sum over seats"),
    (c_village_cap, lambda s: in_round(s) and s[E.S_POOL] >= 3 and s[E.S_LOC_TOTAL + 7] == 0,
     6, "a village holds more than 2 houses"),
    (c_supply, in_round, 6, "seat 0 houses 21 != 20"),
    (c_palace, in_round, 7, "seat 0 palaces 0 on the board vs 1"),
    (c_outer_before_centre, lambda s: in_round(s) and s[E.S_N_PLAYERS] == 5
     and s[E.S_SITE + 6 * E.N_SITES] == E.SITE_EMPTY and s[E.S_PALACES] < 6,
     7, "an outer palace while the centre is free"),
    (c_track, in_round, 8, "governor positions"), (c_architect, in_round, 9, "architect 1"),
    (c_allowance, lambda s: s[E.S_PHASE] == E.PHASE_TURN, 10, "turn allowances"),
    (c_chosen, in_round, 12, "actions revealed for"),
    (c_rank, lambda s: s[E.S_PHASE] == E.PHASE_GAME_OVER, 13, "rank"),
]


@pytest.mark.parametrize("corrupt,where,code,message", CASES,
                         ids=[c[0].__name__ for c in CASES])
def test_both_checks_catch_corruption(corrupt, where, code, message):
    """Each corruption is caught by the check written for it: the compiled check's code (its
    name in ``CHECK_NAMES``) and the Python check's message."""
    state = _in_play(where)
    corrupt(state)
    with pytest.raises(AssertionError, match=message):
        check_state(state, COMP)
    assert check_state_nb(state, COMP) == code, CHECK_NAMES[check_state_nb(state, COMP)]


def test_check_many_runs(capsys):
    from maharaja_check_many import main

    assert main(["--games", "40", "--python-games", "3", "--players", "2", "5"]) == 0
    out = capsys.readouterr().out
    assert "0 violations" in out and "5 players: 40 games" in out


# A rules helper broken on purpose (its body swapped under NUMBA_DISABLE_JIT=1, so every caller
# runs the wrong code), then random games checked: the compiled check must flag it, which it can
# only because it does not call that helper itself.
BROKEN_HELPER_WORKER = r"""
import sys
import numpy as np
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.engine.checks_nb import CHECK_NAMES, check_state_nb
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.play.nb import start_game_nb


def score_without_palaces(state, p):
    total = 0
    for k in range(N_PARTS):
        if k != PART_PALACES:
            total += state[S_PARTS + p * N_PARTS + k]
    return total


if sys.argv[1] != "none":
    nb.score_of.__code__ = score_without_palaces.__code__
comp = default_components().packed()
rng = np.random.default_rng(5)
legal = np.empty(E.N_ACTIONS, np.int64)
codes = []
for game in range(4):
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(comp, 3, 0, 9, game, game, state, prng)
    while True:
        k = nb.legal_actions_nb(state, comp, legal)
        if k == 0:
            break
        nb.apply_action_nb(state, comp, legal[rng.integers(k)])
    codes.append(check_state_nb(state, comp))
print(" ".join(str(c) for c in codes))
"""


def checked_codes_with(helper: str) -> list[int]:
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    root = Path(__file__).resolve().parents[3]
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", BROKEN_HELPER_WORKER, helper],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return [int(c) for c in done.stdout.split()]


@pytest.mark.parametrize("helper", ["none", "score_of"])
def test_a_broken_rules_helper_is_caught(helper):
    codes = checked_codes_with(helper)
    if helper == "none":  # the intact rules: every final state passes uncompiled too
        assert codes == [0] * len(codes)
    else:
        assert set(codes) - {0} == {CHECK_NAMES.index(
            "ranks, winners or the end cause inconsistent")}, codes
