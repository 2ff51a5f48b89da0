"""Taj Mahal's restriction families (restricted play, ``balanced:forbid=goods``).

Each family is something a player chooses; ``RESTRICTIONS`` declares them (the spec and the
registry carry the same tuple) and :func:`restrict_legal` removes a mask of them from a legal
list before a strategy chooses:

* ``goods``: every bid whose cards show an elephant (the coloured card's or the extra's, the
  Might / Elephant card included). The elephant majority wins the province tile and its goods,
  and a majority needs at least one symbol (R6), so the seat never wins a province tile: its
  goods come from commodity bonus tiles only;
* ``crown``: every bid whose cards show a Grand Mogul (Knowledge / Grand Mogul card included):
  the seat never wins the crown, so it never places the crown palace;
* ``connections``: a palace or the crown palace on a city with a road to a city of another
  province that holds one of the seat's palaces: it never links two of its palaces across a
  province border, so it scores connections only where the restriction is lifted;
* ``special_cards``: every bid with a special (2000) / prestige (2018) card as its extra card:
  the four cards won by advisor pairs are kept, never played (so never their symbol, +2, or
  colour change);
* ``blind_withdraw``: withdrawing before playing a card in the visit (which draws the deck's
  top card instead of competing).

A restriction never leaves a seat without an action: when every legal action of a decision
belongs to a forbidden family, the restriction is lifted for that decision (:func:`lifted`
says when). A bid always offers withdrawing, and the display never shows a forbidden card, so
``goods``, ``crown`` and ``special_cards`` are never lifted; ``connections`` is lifted when every
city the seat may take links to its own palaces, ``blind_withdraw`` when the seat holds no
coloured card it may play (``docs/games/tajmahal/strategies.md`` gives how often).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.arrays import borrowed
from tajsim.engine.game_options import Restriction
from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.engine.enums import (
    ACTION_CITY,
    ACTION_TAKE,
    ACTION_WITHDRAW,
    C_ADJ,
    C_ADJ_START,
    C_CITY_PROVINCE,
    FIRST_PRESTIGE,
    S_CUR,
    S_ROW_N,
    SYM,
)
from tajsim.games.tajmahal.engine.nb import bid_cards, bid_symbols, palace_cities

__all__ = ["RESTRICTIONS", "forbidden", "lifted", "restrict_legal"]

F_GOODS = 0
F_CROWN = 1
F_CONNECTIONS = 2
F_SPECIAL_CARDS = 3
F_BLIND_WITHDRAW = 4
RESTRICTIONS = (
    Restriction("goods", F_GOODS,
                "no card showing an elephant played: never the province tile (goods only "
                "from commodity bonus tiles)"),
    Restriction("crown", F_CROWN,
                "no card showing a Grand Mogul played: never the crown, no crown palace"),
    Restriction("connections", F_CONNECTIONS,
                "no palace (nor the crown palace) on a city with a road to one of its palaces "
                "in another province: no connection made"),
    Restriction("special_cards", F_SPECIAL_CARDS,
                "no special (2000) / prestige (2018) card played: they are kept in hand"),
    Restriction("blind_withdraw", F_BLIND_WITHDRAW,
                "no withdrawing before playing a card in the visit (no deck card drawn "
                "instead of competing)"),
)


@kernel
def links_own_palace(state, comp, city):
    """Whether ``city`` has a road to a city of another province holding a palace of the seat
    to move."""
    mine = palace_cities(state, comp, state[S_CUR])
    prov = comp[C_CITY_PROVINCE + city]
    for k in range(comp[C_ADJ_START + city], comp[C_ADJ_START + city + 1]):
        other = comp[C_ADJ + k]
        if comp[C_CITY_PROVINCE + other] != prov \
                and (mine >> np.uint64(other)) & np.uint64(1) != np.uint64(0):
            return True
    return False


@kernel
def forbidden(state, comp, action, mask):
    """Whether ``action`` of the seat to move belongs to a family of ``mask`` (int64, bit
    ``F_*`` per family)."""
    state = borrowed(state)
    comp = borrowed(comp)
    if action == ACTION_WITHDRAW:
        return (mask >> F_BLIND_WITHDRAW) & 1 == 1 and state[S_ROW_N + state[S_CUR]] == 0
    if action < ACTION_CITY:  # a bid
        card, extra = bid_cards(action)
        if (mask >> F_GOODS) & 1 and bid_symbols(comp, card, extra, SYM.ELEPHANT) > 0:
            return True
        if (mask >> F_CROWN) & 1 and bid_symbols(comp, card, extra, SYM.MOGUL) > 0:
            return True
        return (mask >> F_SPECIAL_CARDS) & 1 == 1 and extra >= FIRST_PRESTIGE
    if action < ACTION_TAKE:  # a palace or the crown palace
        return (mask >> F_CONNECTIONS) & 1 == 1 \
            and links_own_palace(state, comp, action - ACTION_CITY)
    return False


@kernel
def restrict_legal(state, comp, legal, n_legal, mask):
    """Move the actions no family of ``mask`` forbids to the front of ``legal[:n_legal]`` (in
    their order) and return how many there are; when there are none, the list is left as it
    was (the restriction is lifted for this decision) and ``n_legal`` returned.

    One pass: an allowed action swaps with the first slot not yet kept, so nothing moves until
    an allowed action is found. ``legal``: int64[>= n_legal], the caller's buffer (refilled
    before each decision; past the returned count it holds the forbidden actions).
    """
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    if mask == 0:
        return n_legal
    kept = 0
    for i in range(n_legal):
        action = legal[i]
        if not forbidden(state, comp, action, mask):
            legal[i] = legal[kept]
            legal[kept] = action
            kept += 1
    return kept if kept > 0 else n_legal


@njit(cache=True)
def lifted(state, comp, legal, n_legal, mask):
    """Whether the restriction ``mask`` would be lifted at this decision (every legal action
    forbidden): what the tests and the docs' count of lifts read."""
    if mask == 0 or not n_legal > 1:
        return False
    for i in range(n_legal):
        if not forbidden(state, comp, legal[i], mask):
            return False
    return True
