"""The Maharaja heuristic's draft (setup): each card valued by its expected win share among the
cards the table will likely hold, from a measured model of the cards (see ``heuristic``)."""

from __future__ import annotations

import numpy as np

from tajsim.engine.arrays import borrowed
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    N_CARDS,
    S_CARD_OWNER,
    S_COUNTER,
    S_N_PLAYERS,
)
from tajsim.games.maharaja.strategies.heuristic_work import (
    I_CARD,
    I_CARD0,
    wt,
)
from tajsim.games.maharaja.strategies.ids import (
    WEIGHT_ONE,
)

# The draft's model of the cards (measured, see ``draft_share``): what each card is worth in a
# game of this heuristic, as a Bradley-Terry strength (int64[N_CARDS], x 1024, the Wandering
# Monk = 1024), and the factor (x 1024) of the first seat to act, the holder of the lowest card
# held. Fitted by maximum likelihood to 10,080 four-player games of 4 x ``balanced`` (this
# heuristic, its draft replaced by a uniformly random one; master seed 11): the win share of
# card c among the cards S held is w(c, S) / the sum over S of w, w = strength x (the first
# factor if c is the lowest card of S). Measured win rates of the cards in those games: Monk
# 43.7%, Mogul 32.4%, Builder 24.4%, Trader 24.0%, Sadhu 12.9%, Artisan 12.8% (n about 6,700
# each); the Trader wins 38.7% where it acts first, 14.3% behind the Mogul.
DRAFT_STRENGTH = np.array([171, 255, 210, 1024, 502, 249], np.int64)
DRAFT_FIRST = 3614
DRAFT_ONE = 1024
DRAFT_WIN_GOLD = 100  # gold a whole win is worth in the draft's values (0.1 of a win: 10 gold)


@kernel(inline="always")
def draft_weight(card, held):
    """Bradley-Terry weight of ``card`` among the cards of bit mask ``held`` (it included)."""
    w = DRAFT_STRENGTH[card]
    if held & ((np.int64(1) << card) - 1) == 0:  # the lowest card acts first every round
        w = w * DRAFT_FIRST // DRAFT_ONE
    return w


@kernel
def draft_share(card, held):
    """Expected win share of ``card`` among the cards of bit mask ``held``, in fixed-point
    gold (``DRAFT_WIN_GOLD`` gold a whole win)."""
    total = 0
    for k in range(N_CARDS):
        if (held >> k) & 1:
            total += draft_weight(k, held)
    return draft_weight(card, held) * WEIGHT_ONE * DRAFT_WIN_GOLD // total


@kernel
def likely_draft(state, p, card):
    """The cards (bit mask) held after the draft if p takes ``card`` now: the cards the seats
    before p took, and for each seat after p, in seat order (R7), the card with the best
    ``draft_share`` among the cards held by then (what the others will likely take). The seats
    before p are those that drafted already (S_COUNTER of them; seat order unless a draft
    variant changed it: rules.md V1/V2), so their cards are every card held now."""
    n = state[S_N_PLAYERS]
    held = np.int64(1) << card
    for k in range(N_CARDS):
        if state[S_CARD_OWNER + k] >= 0:
            held |= np.int64(1) << k
    for _ in range(state[S_COUNTER] + 1, n):
        best_k = 0
        best = -1
        for k in range(N_CARDS):
            if (held >> k) & 1 == 0:
                share = draft_share(k, held | (np.int64(1) << k))
                if share > best:
                    best = share
                    best_k = k
        held |= np.int64(1) << best_k
    return held


@kernel
def draft_value(state, comp, p, card, work):
    """What ``card`` is worth to p at the draft: its win share among the cards the table will
    likely hold (``likely_draft``), plus the preset's liking for it (``card`` x its weight)."""
    state = borrowed(state)
    work = borrowed(work)
    share = draft_share(card, likely_draft(state, p, card))
    return share + wt(work, I_CARD) * wt(work, I_CARD0 + card) // WEIGHT_ONE
