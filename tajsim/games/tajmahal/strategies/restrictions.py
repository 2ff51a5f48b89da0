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

Surgical families (issue 39: one card, one option or one decision kind each;
``Restriction.surgical``), beside the broad ones above:

* ``might``, ``knowledge``, ``nobility``, ``enlightenment``: every bid with that one prestige
  card (2000: Elephant, Grand Mogul, +2, Colour Change) as its extra card (R5); the card is kept
  in hand (it still counts at the end, R18). ``nobility`` is the Princess pair's card (R14);
* ``crown_claim``: the crown alone, not the Grand-Mogul cards: withdrawing while the crown is in
  its seat and the seat holds its majority (R6), which would claim it (R9). The seat may play
  Grand-Mogul cards (for their colour, their other symbols, or to deny the crown) but must not
  withdraw with the crown's majority; it is lifted when withdrawing is the only action (no card
  it may play: the rules force the withdrawal, and the crown with it);
* ``connections`` and ``blind_withdraw`` above are surgical too (one placement option, one
  decision kind).

A restriction never leaves a seat without an action: when every legal action of a decision
belongs to a forbidden family, the restriction is lifted for that decision (:func:`lifted`
says when). A bid always offers withdrawing, and the display never shows a forbidden card, so
``goods``, ``crown``, ``special_cards`` and the four prestige-card families are never lifted;
``connections`` is lifted when every city the seat may take links to its own palaces,
``blind_withdraw`` and ``crown_claim`` when the seat holds no coloured card it may play
(``docs/games/tajmahal/strategies.md`` gives how often).
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
    PRESTIGE_ENLIGHTENMENT,
    PRESTIGE_KNOWLEDGE,
    PRESTIGE_MIGHT,
    PRESTIGE_NOBILITY,
    S_CUR,
    S_ROW_N,
    S_SEAT,
    SEAT_CROWN,
    SEAT_PRESENT,
    SYM,
)
from tajsim.games.tajmahal.engine.nb import bid_cards, bid_symbols, has_majority, palace_cities

__all__ = ["PRESTIGE_FAMILIES", "RESTRICTIONS", "count_allowed", "forbidden", "is_forbidden",
           "lifted", "restrict_legal"]

F_GOODS = 0
F_CROWN = 1
F_CONNECTIONS = 2
F_SPECIAL_CARDS = 3
F_BLIND_WITHDRAW = 4
F_MIGHT = 5
F_KNOWLEDGE = 6
F_NOBILITY = 7
F_ENLIGHTENMENT = 8
F_CROWN_CLAIM = 9
#: (family bit, prestige card id) of the one-card families.
PRESTIGE_FAMILIES = ((F_MIGHT, PRESTIGE_MIGHT), (F_KNOWLEDGE, PRESTIGE_KNOWLEDGE),
                     (F_NOBILITY, PRESTIGE_NOBILITY), (F_ENLIGHTENMENT, PRESTIGE_ENLIGHTENMENT))
assert all(family == F_MIGHT + card - PRESTIGE_MIGHT for family, card in PRESTIGE_FAMILIES)
RESTRICTIONS = (
    Restriction("goods", F_GOODS,
                "no card showing an elephant played: never the province tile (goods only "
                "from commodity bonus tiles)"),
    Restriction("crown", F_CROWN,
                "no card showing a Grand Mogul played: never the crown, no crown palace"),
    Restriction("connections", F_CONNECTIONS,
                "no palace (nor the crown palace) on a city with a road to one of its palaces "
                "in another province: no connection made", "option", True),
    Restriction("special_cards", F_SPECIAL_CARDS,
                "no special (2000) / prestige (2018) card played: they are kept in hand"),
    Restriction("blind_withdraw", F_BLIND_WITHDRAW,
                "no withdrawing before playing a card in the visit (no deck card drawn "
                "instead of competing)", "decision", True),
    Restriction("might", F_MIGHT,
                "the Might (2000: Elephant) card never played: kept in hand", "card", True),
    Restriction("knowledge", F_KNOWLEDGE,
                "the Knowledge (2000: Grand Mogul) card never played: kept in hand", "card",
                True),
    Restriction("nobility", F_NOBILITY,
                "the Nobility (2000: +2) card, the Princess pair's, never played: kept in hand",
                "card", True),
    Restriction("enlightenment", F_ENLIGHTENMENT,
                "the Enlightenment (2000: Colour Change) card never played: kept in hand",
                "card", True),
    Restriction("crown_claim", F_CROWN_CLAIM,
                "the crown alone: no withdrawing with the Grand-Mogul majority while the crown "
                "is in its seat (Grand-Mogul cards may be played; lifted when withdrawing is "
                "forced)", "option", True),
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
        cur = state[S_CUR]
        if (mask >> F_BLIND_WITHDRAW) & 1 == 1 and state[S_ROW_N + cur] == 0:
            return True
        return (mask >> F_CROWN_CLAIM) & 1 == 1 \
            and state[S_SEAT + SEAT_CROWN] == SEAT_PRESENT \
            and has_majority(state, cur, SEAT_CROWN)
    if action < ACTION_CITY:  # a bid
        card, extra = bid_cards(action)
        if (mask >> F_GOODS) & 1 and bid_symbols(comp, card, extra, SYM.ELEPHANT) > 0:
            return True
        if (mask >> F_CROWN) & 1 and bid_symbols(comp, card, extra, SYM.MOGUL) > 0:
            return True
        if extra >= FIRST_PRESTIGE:
            if (mask >> F_SPECIAL_CARDS) & 1:
                return True
            # the one-card families' bits follow the prestige ids (F_MIGHT + id - 96)
            return (mask >> (F_MIGHT + extra - PRESTIGE_MIGHT)) & 1 == 1
        return False
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


@njit(cache=True)
def count_allowed(state, comp, legal, n_legal, mask):
    """How many of ``legal[:n_legal]`` no family of ``mask`` forbids (0: every one is, the
    restriction is lifted): the footprint's count (:mod:`tajsim.play.footprint`)."""
    allowed = 0
    for i in range(n_legal):
        if not forbidden(state, comp, legal[i], mask):
            allowed += 1
    return allowed


@njit(cache=True)
def is_forbidden(state, comp, action, mask):
    """``forbidden`` with the signature every wing shares (:mod:`tajsim.play.footprint`)."""
    return forbidden(state, comp, action, mask)
