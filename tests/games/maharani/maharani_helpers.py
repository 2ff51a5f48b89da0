"""Shared helpers of the Maharani tests (imported as ``from maharani_helpers import ...``; a
module rather than a conftest so that it cannot clash with the main tree's ``tests/conftest``).

* ``MCOMPONENTS`` / ``MCOMP``: the shipped components and their packed array (read only);
* :class:`Builder`: a real set-up game whose turntable is emptied back into the bag, then the
  tiles, artisans, markers, turn and bag order a test names; ``build()`` checks every invariant;
* :func:`act`: apply actions after checking each is legal (kernel list == reference list);
* :func:`place`, finders for tiles and spaces by id, kind and colour, and :func:`fitting_arrow`;
* :func:`collect_decisions`: decisions with a choice from ``balanced`` games (some moves random),
  the strategy tests' samples.
"""

from __future__ import annotations

import numpy as np

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.engine.components import (
    Components,
    default_components,
    fit_directions,
)
from tajsim.games.maharani.engine.invariants import check_legal_list, check_state
from tajsim.games.maharani.play.nb import start_game_nb
from tajsim.games.maharani.strategies.nb import choose_action_nb
from tajsim.games.maharani.strategies.registry import REGISTRY

P = E.MAX_PLAYERS


#: The shipped components and their packed array (tests that change them take a copy).
MCOMPONENTS: Components = default_components()
MCOMP: np.ndarray = MCOMPONENTS.packed()
MCOMP.flags.writeable = False


def place(slot: int, space: int, arrow: int) -> int:
    """The action laying turntable place ``slot`` on ``space`` with the arrow toward ``arrow``."""
    return (slot * E.MAX_SPACES + space) * E.N_DIRS + arrow


def legal(state: np.ndarray, comp: np.ndarray) -> list[int]:
    buf = np.empty(E.N_ACTIONS, np.int64)
    k = nb.legal_actions_nb(state, comp, buf)
    return [int(a) for a in buf[:k]]


def act(state: np.ndarray, comp: np.ndarray, *actions: int, check: bool = True) -> None:
    """Apply ``actions`` in turn; each must be legal (and the legal list right)."""
    for action in actions:
        now = legal(state, comp)
        check_legal_list(state, comp, now, f"before action {action}")
        assert action in now, f"action {action} not legal: {now[:12]}..."
        nb.apply_action_nb(state, comp, action)
        if check:
            check_state(state, comp, f"after action {action}")


def gold(state: np.ndarray, p: int) -> int:
    return int(nb.score_of(state, p))


def part(state: np.ndarray, p: int, k: int) -> int:
    return int(state[E.S_SCORE + p * E.N_PARTS + k])


def space(components: Components, sid: str) -> int:
    return components.space_ids.index(sid)


def tile(components: Components, tid: str) -> int:
    return components.tile_ids.index(tid)


def fitting_arrow(components: Components, t: int, s: int) -> list[int]:
    """Arrow directions in which tile t covers space s exactly."""
    fit = fit_directions(int(components.tile_marks[t]), int(components.space_marks[s]))
    return [a for a in range(4) if fit >> a & 1]


def tiles_fitting(components: Components, s: int, colour: str | None = None,
                  arrow: int | None = None, exclude: tuple[int, ...] = ()) -> list[int]:
    """Tiles (of ``colour``) that fit space s (with the arrow toward ``arrow``)."""
    out = []
    for t in range(components.n_tiles):
        if t in exclude:
            continue
        if colour is not None and components.colour_names[int(components.tile_colour[t])] != colour:
            continue
        arrows = fitting_arrow(components, t, s)
        if arrows and (arrow is None or arrow in arrows):
            out.append(t)
    return out


def seat_side(comp: np.ndarray, n: int, p: int) -> int:
    return int(comp[E.C_SEAT_SIDE + n * P + p])


def slot_over(comp: np.ndarray, facing: int, quarter: int) -> int:
    """The turntable place lying over ``quarter`` when the arrow points to ``facing``."""
    for k in range(E.N_SLOTS):
        if int(comp[E.C_SLOT_QUARTER + facing * 4 + k]) == quarter:
            return k
    raise AssertionError("no place over that quarter")


class Builder:
    """A game state assembled for a rule test (see the module doc)."""

    def __init__(self, n_players: int = 4, rules: int = 0, components: Components | None = None,
                 seed: int = 0) -> None:
        self.c = components or default_components()
        self.comp = self.c.packed()
        self.n = n_players
        self.state = np.zeros(E.STATE_SIZE, np.int64)
        self.prng = np.zeros(P, np.int64)
        start_game_nb(self.comp, n_players, rules, seed, 0, 0, self.state, self.prng)
        st = self.state
        for k in range(E.N_SLOTS):
            t = int(st[E.S_SLOT + k])
            st[E.S_SLOT + k] = -1
            st[E.S_TILE_LOC + t] = E.LOC_BAG
        self.bag_top: list[int] = []

    def t(self, tid: str) -> int:
        return tile(self.c, tid)

    def s(self, sid: str) -> int:
        return space(self.c, sid)

    def slot(self, k: int, tid: str | int) -> Builder:
        t = self.t(tid) if isinstance(tid, str) else int(tid)
        assert self.state[E.S_TILE_LOC + t] == E.LOC_BAG, f"tile {t} already used"
        self.state[E.S_SLOT + k] = t
        self.state[E.S_TILE_LOC + t] = E.LOC_SLOT + k
        return self

    def lay(self, sid: str | int, tid: str | int, arrow: int | None = None, by: int = 0,
            artisan: int | None = None) -> Builder:
        """A tile already on the board (laid by seat ``by``; 1 zone gold credited), optionally
        with artisan colour ``artisan`` on it (1 group gold credited to its owner)."""
        st = self.state
        s = self.s(sid) if isinstance(sid, str) else int(sid)
        t = self.t(tid) if isinstance(tid, str) else int(tid)
        assert st[E.S_TILE_LOC + t] == E.LOC_BAG, f"tile {t} already used"
        arrows = fitting_arrow(self.c, t, s)
        assert arrows, f"tile {self.c.tile_ids[t]} does not fit space {self.c.space_ids[s]}"
        arrow = arrows[0] if arrow is None else arrow
        assert arrow in arrows
        st[E.S_SPACE_TILE + s] = t
        st[E.S_SPACE_ARROW + s] = arrow
        st[E.S_SPACE_BY + s] = by
        st[E.S_TILE_LOC + t] = E.LOC_BOARD
        st[E.S_TILE_SPACE + t] = s
        st[E.S_SPACE_GOLD + s] = 1
        st[E.S_SCORE + by * E.N_PARTS + E.PART_ZONES] += 1
        st[E.S_ZONE_BY_COLOUR + by * E.N_COLOURS + int(self.c.tile_colour[t])] += 1
        st[E.S_TILES_PLACED + by] += 1
        if artisan is not None:
            owner = artisan // 2 if self.n == 2 else artisan
            st[E.S_SPACE_ARTISAN + s] = artisan
            st[E.S_RESERVE + artisan] -= 1
            st[E.S_SPACE_GOLD + s] += 1
            st[E.S_SCORE + owner * E.N_PARTS + E.PART_GROUPS] += 1
            st[E.S_ARTISANS_NEW + owner] += 1
        return self

    def fill(self, sids, by: int = 0, avoid_colours: tuple[str, ...] = ()) -> Builder:
        """Lay some fitting tile (not of ``avoid_colours``) on each space of ``sids``."""
        for sid in sids:
            s = self.s(sid) if isinstance(sid, str) else int(sid)
            for t in range(self.c.n_tiles):
                name = self.c.colour_names[int(self.c.tile_colour[t])]
                if (self.state[E.S_TILE_LOC + t] == E.LOC_BAG and name not in avoid_colours
                        and fitting_arrow(self.c, t, s)):
                    self.lay(s, t, by=by)
                    break
            else:
                raise AssertionError(f"no free tile fits {sid}")
        return self

    def marker(self, p: int, quarter: int, up: int) -> Builder:
        self.state[E.S_MARKER + p * E.N_QUARTERS + quarter] = up
        return self

    def reserve(self, a: int, k: int) -> Builder:
        self.state[E.S_RESERVE + a] = k
        return self

    def turn(self, p: int) -> Builder:
        self.state[E.S_CUR] = p
        self.state[E.S_FACING] = seat_side(self.comp, self.n, p)
        return self

    def scored(self, *quarters: int) -> Builder:
        for q in quarters:
            self.state[E.S_SCORED] |= 1 << q
            self.state[E.S_Q_SCORED_TURN + q] = 0
        return self

    def bag_order(self, *tids: str | int) -> Builder:
        """Tiles drawn first from the bag, in this order."""
        self.bag_top = [self.t(x) if isinstance(x, str) else int(x) for x in tids]
        return self

    def build(self, check: bool = True) -> np.ndarray:
        st = self.state
        rest = [t for t in range(self.c.n_tiles) if st[E.S_TILE_LOC + t] == E.LOC_BAG
                and t not in self.bag_top]
        order = rest + self.bag_top[::-1]  # drawn from the end
        st[E.S_BAG:E.S_BAG + E.MAX_TILES] = -1
        st[E.S_BAG:E.S_BAG + len(order)] = order
        st[E.S_BAG_N] = len(order)
        nb.rebuild_masks_nb(st, self.comp)
        # reserves were lowered for artisans laid; artisans of scored quarters are not allowed
        if check:
            check_state(st, self.comp, "builder")
        return st


#: A decision: (state int64[STATE_SIZE], prng int64[MAX_PLAYERS], player, legal int64[k]).
Decision = tuple[np.ndarray, np.ndarray, int, np.ndarray]


def collect_decisions(n_players: int, seed: int, n_states: int, keep_share: float | None = None,
                      balanced_share: float = 0.7) -> list[Decision]:
    """``n_states`` decisions with a choice, from games of ``n_players`` started with ``seed``
    (game ids 0, 1, ...) in which each move is ``balanced``'s with probability
    ``balanced_share`` (1: every move, no draw), else ``random``'s.

    ``keep_share`` None: four steps a game drawn below 70, the decisions with a choice at those
    steps kept; else each decision with a choice kept with that probability. Every draw comes
    from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    legal = np.empty(E.N_ACTIONS, np.int64)
    spec, params = REGISTRY.parse("balanced")
    out: list[Decision] = []
    game = 0
    while len(out) < n_states:
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(MCOMP, n_players, 0, seed, game, game, state, prng)
        stops = set(rng.integers(0, 70, size=4).tolist()) if keep_share is None else set()
        step = 0
        while state[E.S_PHASE] != E.PHASE_GAME_OVER and len(out) < n_states:
            k = nb.legal_actions_nb(state, MCOMP, legal)
            p = int(state[E.S_CUR])
            if k > 1 and (step in stops if keep_share is None else rng.random() < keep_share):
                out.append((state.copy(), prng.copy(), p, legal[:k].copy()))
            sid = spec.strategy_id if balanced_share >= 1.0 or rng.random() < balanced_share \
                else 0
            a = legal[0] if k == 1 else choose_action_nb(sid, state, MCOMP, p, params, prng,
                                                         legal, k, None, True)
            nb.apply_action_nb(state, MCOMP, a)
            step += 1
        game += 1
    return out
