"""Shared helpers of the Taj Mahal tests (imported as ``from tajmahal_helpers import ...``; the
``components`` / ``comp`` fixtures, the shipped component data and its packed array, are in
this folder's ``conftest.py``).

* :class:`Cards`: find card ids by colour and symbols ("blue", "general", "mogul"), each id
  handed out once, so tests do not depend on the card numbering of the data file.
* :class:`StateBuilder`: a real set-up game whose hands and display are emptied back into the
  deck, then the cards, rows, court, palaces, tiles and turn that a test names. ``build()``
  rebuilds the deck slice and checks every state invariant (``api_test.check_state``).
* :func:`act` applies an action after checking it is legal (kernel list == rules list);
  :func:`bid`, :func:`city`, :func:`take`, ``WITHDRAW`` build actions.
* Board helpers: :func:`cities_of`, :func:`neighbours`, :func:`province_of`.
"""

from __future__ import annotations

import numpy as np

from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb
from tajsim.games.tajmahal.engine.invariants import check_legal_list, check_state

WITHDRAW = E.ACTION_WITHDRAW
SYM_INDEX = {name: i for i, name in enumerate(E.SYMBOL_NAMES)}
COLOUR_INDEX = {name: i for i, name in enumerate(E.COLOUR_NAMES)}


# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------
def bid(card: int, extra: int | None = None) -> int:
    """Play coloured ``card``, optionally with colourless card ``extra``."""
    return E.ACTION_BID + card * E.BID_EXTRA + (0 if extra is None else 1 + extra - E.FIRST_WHITE)


def city(c: int) -> int:
    """A palace (or the crown palace) on city ``c``."""
    return E.ACTION_CITY + c


def take(card: int) -> int:
    """Take ``card`` from the display."""
    return E.ACTION_TAKE + card


def legal(state, comp) -> list[int]:
    buf = np.empty(E.N_ACTIONS, np.int64)
    n = nb.legal_actions_nb(state, comp, buf)
    return [int(a) for a in buf[:n]]


def act(state, comp, *actions: int, check: bool = True) -> None:
    """Apply ``actions`` in turn; each must be legal (and the legal list right)."""
    for action in actions:
        now = legal(state, comp)
        check_legal_list(state, comp, now, f"before action {action}")
        assert action in now, (f"action {action} not legal in phase "
                               f"{E.PHASE_NAMES[state[E.S_PHASE]]}: {now[:20]}")
        nb.apply_action_nb(state, comp, action)
        if check:
            check_state(state, comp, f"after action {action}")


def auto(state, comp, until_phase: int = E.PHASE_BID) -> None:
    """Resolve the pending decisions (palaces, crown, display) by taking the first legal action
    each time, until the game is back in ``until_phase`` (or over)."""
    while state[E.S_PHASE] not in (until_phase, E.PHASE_GAME_OVER):
        act(state, comp, legal(state, comp)[0])


def withdraw_all(state, comp) -> None:
    """Everyone still in the visit withdraws in turn (decisions: first legal action)."""
    visit = state[E.S_VISIT]
    while state[E.S_VISIT] == visit and state[E.S_PHASE] != E.PHASE_GAME_OVER:
        if state[E.S_PHASE] == E.PHASE_BID:
            act(state, comp, WITHDRAW)
        else:
            auto(state, comp)


def score(state, p: int) -> int:
    return int(nb.score_of(state, p))


def part(state, p: int, k: int) -> int:
    return int(state[E.S_SCORE + p * E.N_PARTS + k])


def loc(state, card: int) -> int:
    return int(state[E.S_CARD_LOC + card])


def cards_at(state, where: int) -> list[int]:
    return [int(c) for c in np.flatnonzero(state[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS] == where)]


def tokens(state, p: int, adv: int) -> int:
    return int(state[E.S_TOKENS + p * E.N_ADVISORS + adv])


def seat(state, sym: int) -> int:
    return int(state[E.S_SEAT + sym])


# ---------------------------------------------------------------------------------------------
# Board and cards
# ---------------------------------------------------------------------------------------------
def cities_of(comp, prov: int) -> list[int]:
    base = E.C_PROV_CITIES + prov * E.MAX_CITIES_PER_PROVINCE
    return [int(c) for c in comp[base:base + E.MAX_CITIES_PER_PROVINCE] if c >= 0]


def neighbours(comp, c: int) -> list[int]:
    return [int(x) for x in comp[E.C_ADJ + comp[E.C_ADJ_START + c]:
                                 E.C_ADJ + comp[E.C_ADJ_START + c + 1]]]


def province_of(comp, c: int) -> int:
    return int(comp[E.C_CITY_PROVINCE + c])


def symbols_of(comp, card: int) -> list[int]:
    return [int(x) for x in comp[E.C_CARD_SYM + card * E.N_SYMBOLS:
                                 E.C_CARD_SYM + (card + 1) * E.N_SYMBOLS]]


class Cards:
    """Hands out card ids by description, each id once per ``Cards`` object.

    ``cards("blue", "general", "mogul")`` is a blue card showing exactly one general and one
    mogul; ``cards("white", "elephant")`` a colourless influence card; prestige cards have fixed
    ids (``E.PRESTIGE_*``).
    """

    def __init__(self, comp) -> None:
        self.comp = comp
        self.used: set[int] = set()

    def __call__(self, colour: str, *symbols: str) -> int:
        want = [0] * E.N_SYMBOLS
        for s in symbols:
            want[SYM_INDEX[s]] += 1
        c = COLOUR_INDEX[colour]
        for card in range(E.N_DECK_CARDS):
            if (card not in self.used and self.comp[E.C_CARD_COLOUR + card] == c
                    and symbols_of(self.comp, card) == want):
                self.used.add(card)
                return card
        raise LookupError(f"no (more) {colour} card with exactly {symbols} in the data")

    def any(self, colour: str, n: int = 1, avoid: tuple[str, ...] = ()) -> list[int]:
        """``n`` unused cards of ``colour`` showing none of the ``avoid`` symbols."""
        c = COLOUR_INDEX[colour]
        out = []
        for card in range(E.N_DECK_CARDS):
            syms = symbols_of(self.comp, card)
            if (card not in self.used and self.comp[E.C_CARD_COLOUR + card] == c
                    and not any(syms[SYM_INDEX[s]] for s in avoid)):
                out.append(card)
                self.used.add(card)
                if len(out) == n:
                    return out
        raise LookupError(f"not {n} unused {colour} cards without {avoid}")


# ---------------------------------------------------------------------------------------------
# States
# ---------------------------------------------------------------------------------------------
class StateBuilder:
    """Builds a state for a rules test.

    Starts from ``init_state_nb`` (so the board, tiles and court are set up as in a real game),
    puts every hand and the display back into the deck, and sets visit ``visit`` (first and
    current player ``visit % n_players``, earlier province tiles out of play). Then the test
    names what it needs; every method returns the builder::

        s = (StateBuilder(comp, 3).hand(0, a, b).row(1, c).display(d, e)
             .tokens(2, E.SYM.VIZIER).turn(1).build())

    ``build()`` puts the cards not placed anywhere into the deck (after any ``deck_top`` cards)
    or, with ``rest="discard"``, into the discard pile, and checks every invariant.
    """

    def __init__(self, comp, n_players: int = 3, edition: int = E.EDITION_2018,
                 visit: int = 0, seed: int = 1) -> None:
        self.comp = comp
        self.n = n_players
        self.state = np.zeros(E.STATE_SIZE, np.int64)
        nb.init_state_nb(comp, n_players, edition, seed, seed + 1000, self.state)
        self._order = [int(c) for c in self.state[E.S_DECK:E.S_DECK + E.N_DECK_CARDS]]
        for card in range(E.N_DECK_CARDS):
            if self.state[E.S_CARD_LOC + card] != E.LOC_DECK:
                nb.move_card(self.state, card, E.LOC_DECK, 0)
        self._top: list[int] = []
        self.at_visit(visit)

    # -- turn ---------------------------------------------------------------------------------
    def at_visit(self, visit: int) -> StateBuilder:
        s = self.state
        s[E.S_VISIT] = visit
        s[E.S_PROVINCE] = nb.province_of_visit(s, visit)
        for t in range(E.N_PROVINCES):
            s[E.S_TILE_OWNER + t] = -2 if t < visit else -1
        s[E.S_FIRST] = s[E.S_CUR] = visit % self.n
        return self

    @property
    def province(self) -> int:
        return int(self.state[E.S_PROVINCE])

    def turn(self, p: int, first: int | None = None) -> StateBuilder:
        """``p`` is to act (and the first player of the visit, unless ``first`` is given)."""
        self.state[E.S_CUR] = p
        self.state[E.S_FIRST] = p if first is None else first
        return self

    def withdrawn(self, *players: int) -> StateBuilder:
        for p in players:
            assert self.state[E.S_ROW_N + p] == 0, "a withdrawn player has no row"
            self.state[E.S_WITHDRAWN + p] = 1
        return self

    # -- cards --------------------------------------------------------------------------------
    def _move(self, cards, where: int, public: int) -> None:
        for card in cards:
            nb.move_card(self.state, card, where, public)

    def hand(self, p: int, *cards: int) -> StateBuilder:
        self._move(cards, E.LOC_HAND + p, 0)
        return self

    def row(self, p: int, *cards: int) -> StateBuilder:
        """Add ``cards`` to ``p``'s row in order; the first coloured card sets its colour."""
        s = self.state
        for card in cards:
            nb.add_to_row(s, self.comp, p, card)
            colour = self.comp[E.C_CARD_COLOUR + card]
            if s[E.S_ROW_COLOUR + p] < 0 and colour < E.N_COLOURS:
                s[E.S_ROW_COLOUR + p] = colour
        return self

    def display(self, *cards: int) -> StateBuilder:
        self._move(cards, E.LOC_DISPLAY, 1)
        return self

    def discard(self, *cards: int) -> StateBuilder:
        self._move(cards, E.LOC_DISCARD, 1)
        return self

    def unrest(self, *cards: int) -> StateBuilder:
        s = self.state
        for card in cards:
            nb.move_card(s, card, E.LOC_UNREST, 1)
            colour = self.comp[E.C_CARD_COLOUR + card]
            if colour < E.N_COLOURS:
                s[E.S_UNREST_COLOURS + colour] += 1
            for k in range(E.N_SYMBOLS):
                s[E.S_UNREST_SYM + k] += self.comp[E.C_CARD_SYM + card * E.N_SYMBOLS + k]
        return self

    def deck_top(self, *cards: int) -> StateBuilder:
        """These cards on top of the deck, the first one drawn first."""
        self._move(cards, E.LOC_DECK, 0)
        self._top.extend(cards)
        return self

    # -- court --------------------------------------------------------------------------------
    def seat(self, sym: int, status: int) -> StateBuilder:
        """Set a court seat; an advisor token leaving or entering its seat goes to or comes
        from the supply."""
        s = self.state
        if sym < E.N_ADVISORS:
            was = s[E.S_SEAT + sym] != E.SEAT_EMPTY
            now = status != E.SEAT_EMPTY
            s[E.S_TOKEN_SUPPLY + sym] += int(was) - int(now)
        s[E.S_SEAT + sym] = status
        return self

    def tokens(self, p: int, adv: int, k: int = 1) -> StateBuilder:
        """``p`` holds ``k`` more advisor tokens of kind ``adv`` (from the supply)."""
        self.state[E.S_TOKENS + p * E.N_ADVISORS + adv] += k
        self.state[E.S_TOKEN_SUPPLY + adv] -= k
        return self

    # -- board --------------------------------------------------------------------------------
    def palace(self, p: int, *cities: int) -> StateBuilder:
        for c in cities:
            self.state[E.S_PALACES + c * E.MAX_PLAYERS + p] += 1
            self.state[E.S_CITY_PALACES + c] += 1
            self.state[E.S_PALACE_BITS + p * 2 + (c >> 5)] |= 1 << (c & 31)
        return self

    def crown_palace(self, p: int, c: int) -> StateBuilder:
        """``p`` took the crown earlier this visit and put the crown palace on ``c``."""
        self.palace(p, c)
        self.state[E.S_CROWN_CITY] = c
        self.state[E.S_SEAT + E.SEAT_CROWN] = E.SEAT_EMPTY
        return self

    def bonus(self, c: int, kind: int) -> StateBuilder:
        """Bonus tile ``kind`` (-1: none) lies on city ``c`` (as if set up there)."""
        self.state[E.S_BONUS_AT + c] = kind
        self.state[E.S_BONUS_START + c] = kind
        return self

    def clear_bonus(self, prov: int) -> StateBuilder:
        for c in cities_of(self.comp, prov):
            self.bonus(c, -1)
        return self

    def claimed_bonus(self, p: int, kind: int) -> StateBuilder:
        """``p`` claimed a bonus tile of ``kind`` in an earlier visit (points included)."""
        s = self.state
        free = [c for c in range(int(self.comp[E.C_N_CITIES]))
                if province_of(self.comp, c) != self.province and s[E.S_BONUS_TAKER + c] < 0]
        c = free[0]
        s[E.S_BONUS_START + c] = kind
        s[E.S_BONUS_AT + c] = -1
        s[E.S_BONUS_TAKER + c] = p
        s[E.S_BONUS_HELD + p * E.N_BONUS_KINDS + kind] += 1
        if kind < E.N_GOODS:
            nb.gain_good(s, p, kind)
        elif kind == E.BONUS.PLUS2:
            s[E.S_SCORE + p * E.N_PARTS + E.PART_BONUS] += 2
        elif kind == E.BONUS.TAJ4:
            s[E.S_SCORE + p * E.N_PARTS + E.PART_BONUS] += 4
        return self

    def score(self, p: int, part: int, points: int) -> StateBuilder:
        self.state[E.S_SCORE + p * E.N_PARTS + part] = points
        return self

    # -- done ---------------------------------------------------------------------------------
    def build(self, rest: str = "deck", check: bool = True) -> np.ndarray:
        s = self.state
        if rest == "discard":
            for card in range(E.N_DECK_CARDS):
                if s[E.S_CARD_LOC + card] == E.LOC_DECK and card not in self._top:
                    nb.move_card(s, card, E.LOC_DISCARD, 1)
        deck = [c for c in self._top if s[E.S_CARD_LOC + c] == E.LOC_DECK]
        deck += [c for c in self._order if s[E.S_CARD_LOC + c] == E.LOC_DECK and c not in deck]
        s[E.S_DECK:E.S_DECK + E.N_DECK_CARDS] = 0
        s[E.S_DECK:E.S_DECK + len(deck)] = deck
        s[E.S_DECK_TOP] = 0
        s[E.S_DECK_LEN] = len(deck)
        if check:
            check_state(s, self.comp, "StateBuilder.build()")
        return s
