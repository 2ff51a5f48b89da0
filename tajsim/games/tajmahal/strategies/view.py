"""What a Taj Mahal seat may see, as plain Python values: the :class:`PlayerView` that pure-Python
policies receive (``tajsim.strategies.python_policy``), and :func:`decode_action`.

A view holds the seat's own hand, the rows, the display, unrest, the court, the board, scores,
hand sizes and the cards whose location is public, and nothing else: no other hand, no deck
order, no chance stream (the conformance suite checks that two states differing only in hidden
cards give equal views).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb

__all__ = ["PlayerView", "decode_action", "view"]


def decode_action(action: int) -> tuple:
    """``("withdraw",)``, ``("bid", card, extra_or_None)``, ``("city", city)`` or
    ``("take", card)``."""
    if action == E.ACTION_WITHDRAW:
        return ("withdraw",)
    if E.ACTION_BID <= action < E.ACTION_CITY:
        card, slot = divmod(action - E.ACTION_BID, E.BID_EXTRA)
        return ("bid", card, E.FIRST_WHITE + slot - 1 if slot else None)
    if E.ACTION_CITY <= action < E.ACTION_TAKE:
        return ("city", action - E.ACTION_CITY)
    if E.ACTION_TAKE <= action < E.N_ACTIONS:
        return ("take", action - E.ACTION_TAKE)
    raise ValueError(f"not an action number: {action}")


@dataclass(frozen=True)
class PlayerView:
    """What seat ``player`` may see, built from the state by :meth:`from_state`.

    Card ids are 0..99 (``card_colour`` / ``card_symbols`` describe them); cities and provinces
    are indices into ``components`` (board structure: ``components.province_cities(p)``,
    ``neighbours``). Symbol, colour and bonus-kind numbers follow the wing's ``engine.enums``.
    """

    player: int
    n_players: int
    edition: str
    visit: int  # 0..11
    province: int  # province being visited
    phase: str  # "bid", "palace", "crown" or "display"
    pending: int  # palaces still to place / display cards still to take
    first_player: int
    hand: tuple[int, ...]  # own hand
    hand_sizes: tuple[int, ...]
    known_cards: tuple[tuple[int, ...], ...]  # public cards in each hand (taken from the display)
    rows: tuple[tuple[int, ...], ...]
    row_symbols: tuple[tuple[int, ...], ...]  # per player, per symbol
    row_colours: tuple[int, ...]  # -1: empty row
    withdrawn: tuple[bool, ...]
    display: tuple[int, ...]
    unrest: tuple[int, ...]
    discard: tuple[int, ...]
    deck_size: int
    court: tuple[int, ...]  # per symbol: SEAT_EMPTY / SEAT_PRESENT / SEAT_ASIDE
    token_supply: tuple[int, ...]
    tokens: tuple[tuple[int, ...], ...]  # advisor tokens held, per player
    goods: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    score_parts: tuple[tuple[int, ...], ...]
    palaces: tuple[tuple[int, ...], ...]  # palaces[city][player]
    bonus_at: tuple[int, ...]  # bonus kind lying on each city, -1 none
    crown_city: int
    province_tile: tuple[int, ...]  # tile index on each province (tile t is visited at t)
    tile_owner: tuple[int, ...]
    prestige_holder: tuple[int, ...]  # per prestige card: seat holding it, -1 supply
    card_colour_table: tuple[int, ...]
    card_symbol_table: tuple[tuple[int, ...], ...]
    components: object | None = None

    # -- building -------------------------------------------------------------------------
    @classmethod
    def from_state(cls, state: np.ndarray, comp: np.ndarray, player: int,
                   components=None) -> PlayerView:
        """The view of ``player``; reads only information that seat may know."""
        n = int(state[E.S_N_PLAYERS])
        loc = state[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
        public = state[E.S_CARD_PUBLIC:E.S_CARD_PUBLIC + E.N_CARDS]

        def at(where: int) -> tuple[int, ...]:
            return tuple(int(c) for c in np.flatnonzero(loc == where))

        known = tuple(
            tuple(int(c) for c in np.flatnonzero((loc == E.LOC_HAND + q) & (public == 1)))
            for q in range(n)
        )
        syms = comp[E.C_CARD_SYM:E.C_CARD_SYM + E.N_CARDS * E.N_SYMBOLS].reshape(
            E.N_CARDS, E.N_SYMBOLS)
        cities = int(comp[E.C_N_CITIES])
        pal = state[E.S_PALACES:E.S_PALACES + E.MAX_CITIES * E.MAX_PLAYERS].reshape(
            E.MAX_CITIES, E.MAX_PLAYERS)
        holder = []
        for card in range(E.FIRST_PRESTIGE, E.N_CARDS):
            where = int(loc[card])
            if E.LOC_HAND <= where < E.LOC_HAND + E.MAX_PLAYERS:
                holder.append(where - E.LOC_HAND)
            elif E.LOC_ROW <= where < E.LOC_ROW + E.MAX_PLAYERS:
                holder.append(where - E.LOC_ROW)
            else:
                holder.append(-1)
        return cls(
            player=int(player),
            n_players=n,
            edition=E.EDITION_NAMES[int(state[E.S_EDITION])],
            visit=int(state[E.S_VISIT]),
            province=int(state[E.S_PROVINCE]),
            phase=E.PHASE_NAMES[int(state[E.S_PHASE])],
            pending=int(state[E.S_PENDING]),
            first_player=int(state[E.S_FIRST]),
            hand=at(E.LOC_HAND + player),
            hand_sizes=tuple(int(x) for x in state[E.S_HAND_N:E.S_HAND_N + n]),
            known_cards=known,
            rows=tuple(at(E.LOC_ROW + q) for q in range(n)),
            row_symbols=tuple(
                tuple(int(x) for x in state[E.S_ROW_SYM + q * E.N_SYMBOLS:
                                            E.S_ROW_SYM + (q + 1) * E.N_SYMBOLS])
                for q in range(n)
            ),
            row_colours=tuple(int(x) for x in state[E.S_ROW_COLOUR:E.S_ROW_COLOUR + n]),
            withdrawn=tuple(bool(x) for x in state[E.S_WITHDRAWN:E.S_WITHDRAWN + n]),
            display=at(E.LOC_DISPLAY),
            unrest=at(E.LOC_UNREST),
            discard=at(E.LOC_DISCARD),
            deck_size=int(state[E.S_DECK_LEN] - state[E.S_DECK_TOP]),
            court=tuple(int(x) for x in state[E.S_SEAT:E.S_SEAT + E.N_SYMBOLS]),
            token_supply=tuple(int(x) for x in
                               state[E.S_TOKEN_SUPPLY:E.S_TOKEN_SUPPLY + E.N_ADVISORS]),
            tokens=tuple(
                tuple(int(x) for x in state[E.S_TOKENS + q * E.N_ADVISORS:
                                            E.S_TOKENS + (q + 1) * E.N_ADVISORS])
                for q in range(n)
            ),
            goods=tuple(
                tuple(int(x) for x in state[E.S_GOODS + q * E.N_GOODS:
                                            E.S_GOODS + (q + 1) * E.N_GOODS])
                for q in range(n)
            ),
            scores=tuple(int(nb.score_of(state, q)) for q in range(n)),
            score_parts=tuple(
                tuple(int(x) for x in state[E.S_SCORE + q * E.N_PARTS:
                                            E.S_SCORE + (q + 1) * E.N_PARTS])
                for q in range(n)
            ),
            palaces=tuple(tuple(int(x) for x in pal[c, :n]) for c in range(cities)),
            bonus_at=tuple(int(x) for x in state[E.S_BONUS_AT:E.S_BONUS_AT + cities]),
            crown_city=int(state[E.S_CROWN_CITY]),
            province_tile=tuple(int(x) for x in
                                state[E.S_PROVINCE_TILE:E.S_PROVINCE_TILE + E.N_PROVINCES]),
            tile_owner=tuple(int(x) for x in
                             state[E.S_TILE_OWNER:E.S_TILE_OWNER + E.N_PROVINCES]),
            prestige_holder=tuple(holder),
            card_colour_table=tuple(int(x) for x in
                                    comp[E.C_CARD_COLOUR:E.C_CARD_COLOUR + E.N_CARDS]),
            card_symbol_table=tuple(tuple(int(x) for x in row) for row in syms),
            components=components,
        )

    # -- helpers --------------------------------------------------------------------------
    def card_colour(self, card: int) -> int:
        """0..3 coloured, 4 (``COLOURLESS``) white and prestige cards."""
        return self.card_colour_table[card]

    def card_symbols(self, card: int) -> tuple[int, ...]:
        """Symbol counts of ``card`` (index = ``enums.SYM``)."""
        return self.card_symbol_table[card]

    @staticmethod
    def decode(action: int) -> tuple:
        return decode_action(action)

    def province_cities(self) -> list[int]:
        """Cities of the province being visited (needs ``components``)."""
        if self.components is None:
            raise ValueError("this view was built without components")
        return [int(c) for c in self.components.province_cities(self.province)]

    def majority(self, sym: int, counts: Sequence[int] | None = None) -> bool:
        """Would the player hold the majority in ``sym`` with row counts ``counts`` (default:
        its current row) against the players still in the visit (and the unrest cards)?"""
        mine = (counts or self.row_symbols[self.player])[sym]
        if mine == 0:
            return False
        for q in range(self.n_players):
            if q != self.player and not self.withdrawn[q] and self.row_symbols[q][sym] >= mine:
                return False
        unrest = sum(self.card_symbols(c)[sym] for c in self.unrest)
        return unrest < mine


def view(state: np.ndarray, comp: np.ndarray, player: int, components=None) -> PlayerView:
    """The view of ``player`` (the spec's ``view``)."""
    return PlayerView.from_state(state, comp, player, components)
