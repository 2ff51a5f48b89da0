"""Helpers shared by the Maharaja tests (imported as ``from maharaja_helpers import ...``).

* ``COMPONENTS`` / ``COMP``: the shipped components and their packed array.
* :func:`new_game` starts a game (kernels), :func:`act` applies actions after checking that the
  kernels' legal list equals the independent reference (``expected_legal``) and, after each,
  every invariant (``check_state``).
* :func:`setup` drafts the given cards and places the given starting houses, reaching round 1;
  :func:`pick_all` makes every seat's secret choice.
* :func:`give_gold`, :func:`place_house`, :func:`set_governor_order` change a state in ways
  that keep every invariant (gold through a recorded part, houses from the pool), to build the
  positions the rule tests need.
* :func:`collect_states` plays games between a mix of strategies and keeps states at decisions
  with a choice (the strategy tests' samples).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.engine.invariants import check_state, expected_legal
from tajsim.games.maharaja.engine.setups import setup_id_of_order
from tajsim.games.maharaja.play.nb import start_game_nb
from tajsim.games.maharaja.spec import SPEC as MAHARAJA_SPEC
from tajsim.games.maharaja.strategies.nb import choose_action_nb
from tajsim.games.maharaja.strategies.registry import REGISTRY


def rules_code(options=None) -> int:
    """The rules code of the kernels for these rule options (edition basic)."""
    return MAHARAJA_SPEC.rules_code(None, options)

COMPONENTS = default_components()
COMP = COMPONENTS.packed()
P = E.MAX_PLAYERS
A = E.ACT
C = E.CARD
CITY = {name: c for c, name in enumerate(COMPONENTS.city_names)}
VILLAGE = {name: v for v, name in enumerate(COMPONENTS.village_names)}
START = E.START
DONE = E.ACTION_DONE


def pair(a: int, b: int) -> int:
    """The pick action for actions a and b."""
    return E.ACTION_PICK + E.pair_index(a, b)


def build(loc: int) -> int:
    return E.ACTION_BUILD + loc


def free_build(loc: int) -> int:
    return E.ACTION_FREE_BUILD + loc


def city_loc(name: str) -> int:
    return E.LOC_CITY + CITY[name]


def road(a: str, b: str) -> int:
    """Index of the road between junctions named a and b."""
    names = COMPONENTS.junction_names
    ja, jb = names.index(a), names.index(b)
    for r in range(COMPONENTS.n_roads):
        if {int(x) for x in COMPONENTS.roads[r]} == {ja, jb}:
            return r
    raise KeyError((a, b))


def travel(a: str, b: str) -> int:
    return E.ACTION_TRAVEL + road(a, b)


def road_villages(a: str, b: str) -> list[int]:
    return [int(v) for v in COMPONENTS.road_villages[road(a, b)] if v >= 0]


def card(k: int) -> int:
    return E.ACTION_CARD + k


def governor(city: str) -> int:
    return E.ACTION_GOVERNOR + CITY[city]


def legal(state: np.ndarray, comp: np.ndarray = COMP) -> list[int]:
    buf = np.empty(E.N_ACTIONS, np.int64)
    n = nb.legal_actions_nb(state, comp, buf)
    return [int(a) for a in buf[:n]]


def act(state: np.ndarray, *actions: int, comp: np.ndarray = COMP) -> None:
    """Apply ``actions`` in turn; each must be legal, the legal list must equal the reference,
    and every invariant must hold after each."""
    for action in actions:
        now = legal(state, comp)
        ref = expected_legal(state, comp)
        assert now == ref, f"kernel legal list {now[:30]} != reference {ref[:30]}"
        assert action in now, (f"action {action} not legal in phase "
                               f"{E.PHASE_NAMES[int(state[E.S_PHASE])]}: {now[:40]}")
        nb.apply_action_nb(state, comp, action)
        check_state(state, comp, f"after action {action}")


def new_game(n: int = 4, order=None, options=None, seed: int = 1, game_id: int = 0,
             comp: np.ndarray = COMP) -> np.ndarray:
    """A game set up to the draft. ``order``: a governor order index (Lehmer) or None."""
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(P, np.int64)
    setup_id = game_id if order is None else setup_id_of_order(order)
    start_game_nb(comp, n, rules_code(options), seed, game_id, setup_id, state, prng)
    check_state(state, comp, "start")
    return state


def setup(n: int = 4, cards=None, houses=None, order: int | None = 0, options=None,
          comp: np.ndarray = COMP) -> np.ndarray:
    """A game in round 1's pick phase. ``cards[s]`` = card drafted by seat s (default: seat
    s takes card s); ``houses``: the villages of the 4 * n starting houses in placement order
    (default: the first legal village each time). ``order``: governor order index (0: cities
    0..6 from the bottom, so Delhi is scored in round 1)."""
    state = new_game(n, order, options, comp=comp)
    cards = list(range(n)) if cards is None else list(cards)
    for k in cards:
        act(state, card(k), comp=comp)
    for i in range(n * int(comp[E.C_START_HOUSES])):
        v = houses[i] if houses is not None else legal(state, comp)[0] - E.ACTION_BUILD
        act(state, build(v), comp=comp)
    assert state[E.S_PHASE] == E.PHASE_PICK
    return state


def pick_all(state: np.ndarray, picks, comp: np.ndarray = COMP) -> None:
    """Every seat (in seat order) picks; ``picks[s]`` = (a, b) action kinds."""
    for a, b in picks:
        act(state, pair(a, b), comp=comp)


def give_gold(state: np.ndarray, p: int, amount: int) -> None:
    """Gold for seat p, recorded as city gold (keeps gold == the sum of its parts)."""
    state[E.S_GOLD + p] += amount
    state[E.S_PARTS + p * E.N_PARTS + E.PART_CITY] += amount


def place_house(state: np.ndarray, p: int, loc: int, count: int = 1) -> None:
    """Put ``count`` of p's houses at ``loc`` from its pool (then the quarry)."""
    for _ in range(count):
        if state[E.S_POOL + p] == 0:
            state[E.S_QUARRY + p] -= 1
            state[E.S_POOL + p] += 1
        state[E.S_POOL + p] -= 1
        state[E.S_HOUSES + loc * P + p] += 1
        state[E.S_LOC_TOTAL + loc] += 1
        state[E.S_HOUSES_BUILT + p] += 1


def set_architect(state: np.ndarray, p: int, junction: str | int) -> None:
    j = junction if isinstance(junction, int) else COMPONENTS.junction_names.index(junction)
    state[E.S_ARCH + p] = j


def gold(state: np.ndarray, p: int) -> int:
    return int(state[E.S_GOLD + p])


def part(state: np.ndarray, p: int, k: int) -> int:
    return int(state[E.S_PARTS + p * E.N_PARTS + k])


def houses_at(state: np.ndarray, loc: int, p: int) -> int:
    return int(state[E.S_HOUSES + loc * P + p])


def open_villages(state: np.ndarray, villages, owner: int) -> None:
    """One house of ``owner`` in each of ``villages`` that is still empty."""
    for v in villages:
        if state[E.S_LOC_TOTAL + v] == 0:
            place_house(state, owner, v)


def to_turn_of(state: np.ndarray, seat: int) -> None:
    """End the turns of the seats acting before ``seat`` (each picked gold + gold)."""
    while int(state[E.S_CUR]) != seat or int(state[E.S_PHASE]) != E.PHASE_TURN:
        assert state[E.S_PHASE] == E.PHASE_TURN, E.PHASE_NAMES[int(state[E.S_PHASE])]
        act(state, DONE)


def everyone_gold(n: int) -> list[tuple[int, int]]:
    return [(A.GOLD, A.GOLD)] * n


def collect_states(mix: Sequence[str], n_games: int, seed: int, keep_share: float,
                   rng_seed: int) -> list[np.ndarray]:
    """States (int64[STATE_SIZE] copies) at decisions with more than one legal action, from
    ``n_games`` games of 2 to 5 players (game g: 2 + g % 4 players, seat p plays
    ``mix[(g + p) % len(mix)]``, started with ``seed``); each such state is kept with
    probability ``keep_share``, drawn from ``numpy.random.default_rng(rng_seed)``."""
    rng = np.random.default_rng(rng_seed)
    out = []
    buf = np.empty(E.N_ACTIONS, np.int64)
    for g in range(n_games):
        n = 2 + g % 4
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(COMP, n, 0, seed, g, g, state, prng)
        seats = [REGISTRY.parse(mix[(g + p) % len(mix)]) for p in range(n)]
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            k = nb.legal_actions_nb(state, COMP, buf)
            p = int(state[E.S_CUR])
            if k > 1 and rng.random() < keep_share:
                out.append(state.copy())
            spec, params = seats[p]
            a = buf[0] if k == 1 else choose_action_nb(spec.strategy_id, state, COMP, p, params,
                                                       prng, buf, k)
            nb.apply_action_nb(state, COMP, a)
    return out
