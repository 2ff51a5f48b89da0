"""Records identical on the GPU with every rule option and every strategy (issue 42, section 1's
must-show), checked without a GPU: each rule option of each game (alone, on a table of its
default edition) and the seat compensation, played by every strategy the GPU plays, in
numba-cuda's simulator against the CPU kernels, record field for record field and state slot
for state slot (``tests/gpu_sim_check.py``), with every ``cuda.local.array`` poisoned (a GPU's
local memory is not cleared). One game a case: the simulator runs the kernels as Python, and the
suite runs on CI's 2 cores.
"""

from __future__ import annotations

import pytest
from test_gpu import GPU_GAMES, gpu_strategies, simulate_cases

from tajsim.games.registry import get_game

#: Seat compensations played: a few units, one seat without (in the game's own units).
COMPENSATION = [0, 1, 2, 3]


def option_sets(game: str) -> list[tuple[str, dict]]:
    """``(label, options)``: each rule option on alone, then the seat compensation."""
    spec = get_game(game)
    sets = [(o.name, {o.name: not o.default}) for o in spec.options]
    if spec.compensation is not None:
        sets.append(("compensation", {"compensation": COMPENSATION}))
    return sets


def option_cases(game: str) -> list[dict]:
    """Every option set and every strategy the GPU plays, each at least once: the strategies in
    tables of four (the last filled with ``random``), case ``k`` the ``k``-th option set (in
    turn) at the ``k``-th table (in turn), as many cases as option sets or tables, one game
    each (every pair would double Maharaja's 11 cases; the simulator runs the kernels as
    Python)."""
    spec = get_game(game)
    edition = spec.editions[-1]
    low, high = spec.players[edition]
    players = max(low, min(4, high))
    names = gpu_strategies(game)
    tables = [names[k:k + players] for k in range(0, len(names), players)]
    tables[-1] += ["random"] * (players - len(tables[-1]))
    sets = option_sets(game)
    cases = []
    for k in range(max(len(sets), len(tables))):
        options = sets[k % len(sets)][1]
        if "compensation" in options:
            options = {"compensation": COMPENSATION[:players]}
        cases.append({"game": game, "players": players, "edition": edition, "games": 1,
                      "strategies": tables[k % len(tables)], "options": options,
                      "seed": 101 + k, "poison": True})
    return cases


GAMES_WITH_OPTIONS = [g for g in GPU_GAMES if option_sets(g)]


@pytest.mark.parametrize("game", GAMES_WITH_OPTIONS)
def test_every_rule_option_and_strategy_equal_the_cpu_in_the_simulator(game):
    cases = option_cases(game)
    assert {s for c in cases for s in c["strategies"]} == set(gpu_strategies(game))
    assert {next(iter(c["options"])) for c in cases} == {
        next(iter(o)) for _, o in option_sets(game)}
    spec = get_game(game)
    for case in cases:  # every case plays other rules than the edition's own
        assert spec.rules_code(case["edition"], case["options"]) != \
            spec.rules_code(case["edition"]), case
    for case, report in zip(cases, simulate_cases(cases), strict=True):
        assert report["games"] == 1
        assert report["differences"] == [], (case, report["differences"])
