"""Maharaja's restriction families (restricted play, ``balanced:forbid=governor``).

Each family is something a player chooses; ``RESTRICTIONS`` declares them (the spec and the
registry carry the same tuple) and :func:`restrict_legal` removes a mask of them from a legal
list before a strategy chooses:

* ``governor``: every secret pair with the governor action, and governor moves in a turn;
* ``village_houses``: paid and free (Builder) houses in villages, and a moved house landing in
  a village. The four setup houses stand in villages by rule (R5), so they stay: a restricted
  seat still earns the tolls of its setup houses, and of nothing it builds;
* ``character``: every secret pair with the character action, and taking a card in a turn
  (the setup draft and a robbed seat's replacement are forced, so they stay);
* ``outer_palaces``: a palace on an outer site (the central site stays);
* ``draft_<card>`` (``draft_mogul`` ... ``draft_artisan``, one a card): that card in the setup
  draft (R7). Taking it later with the character action, or as a robbed seat's replacement,
  stays. Five of them together force the sixth card: the strategy option ``draft=<card>``
  (``hoarder:draft=monk``, :mod:`~tajsim.games.maharaja.strategies.registry`) sets them, so a
  seat made to take a card is a restricted seat, on every path that restricts (the CPU
  dispatcher, the search's own choice, the GPU's ``choose_simple`` and the batch loop, which
  sends a restricted ``random`` seat to the dispatcher).

Surgical families (issue 39: one card, one option or one decision kind each;
``Restriction.surgical``):

* ``mogul``, ``trader``, ``sadhu``, ``monk``, ``builder``, ``artisan`` (one a card): never take
  that character card, nor so keep it: not in the setup draft, not with the character action, not
  as a robbed seat's replacement (the draft and the replacement always leave other cards);
  ``monk`` is the Wandering Monk (R10, R36);
* ``central_palaces``: no palace on the central site of a city (R22-R23; the outer sites stay);
* ``governor`` and ``character`` above are surgical too (one decision kind each).

A restriction never leaves a seat without an action: when every legal action of a decision
belongs to a forbidden family (in practice only ``village_houses`` when a house being moved can
land only in villages, and a forced draft whose card an earlier seat took), the restriction is
lifted for that decision: a forced draft forces its card when it is still there, and leaves the
strategy its own choice otherwise. The turn always offers ``done`` and the pick always offers
pairs outside any one family, so the other families are never lifted.
"""

from __future__ import annotations

from numba import njit

from tajsim.engine.arrays import borrowed
from tajsim.engine.game_options import Restriction
from tajsim.engine.targets import kernel
from tajsim.games.maharaja.engine.enums import (
    ACT,
    ACTION_BUILD,
    ACTION_CARD,
    ACTION_DONE,
    ACTION_FREE_BUILD,
    ACTION_GOVERNOR,
    ACTION_MOVE_FROM,
    ACTION_MOVE_TO,
    ACTION_PALACE,
    ACTION_PICK,
    CARD_NAMES,
    N_CARDS,
    N_VILLAGES,
    PAIR_A,
    PAIR_B,
    PHASE_DRAFT,
    PHASE_SETUP_HOUSE,
    PHASE_TURN,
    S_PHASE,
)

__all__ = ["CARD_SLUGS", "F_CARD", "F_DRAFT", "RESTRICTIONS", "count_allowed", "draft_mask",
           "forbidden", "forced_card", "is_forbidden", "restrict_legal"]

#: The cards' names in options and analyses, in card-code order (``CARD_NAMES`` slugged).
CARD_SLUGS = ("mogul", "trader", "sadhu", "monk", "builder", "artisan")
assert len(CARD_SLUGS) == N_CARDS

F_GOVERNOR = 0
F_VILLAGE_HOUSES = 1
F_CHARACTER = 2
F_OUTER_PALACES = 3
#: Bit of the first draft family (``draft_mogul``); card k's is F_DRAFT + k.
F_DRAFT = 4
#: Bit of the first card family (``mogul``: never take it); card k's is F_CARD + k.
F_CARD = F_DRAFT + N_CARDS
F_CENTRAL_PALACES = F_CARD + N_CARDS
RESTRICTIONS = (
    Restriction("governor", F_GOVERNOR,
                "no governor action: no secret pair holding it, no governor move", "decision",
                True),
    Restriction("village_houses", F_VILLAGE_HOUSES,
                "no house built in or moved to a village (the setup houses stay): no new "
                "tolls earned"),
    Restriction("character", F_CHARACTER,
                "no character change: no secret pair holding the character action, no card "
                "taken in a turn (the draft stays)", "decision", True),
    Restriction("outer_palaces", F_OUTER_PALACES,
                "no palace on an outer site of a city (the central site stays)"),
    *(Restriction(f"draft_{slug}", F_DRAFT + card,
                  f"not the {CARD_NAMES[card]} in the setup draft (the character action may "
                  "take it later); draft=CARD forbids the other five")
      for card, slug in enumerate(CARD_SLUGS)),
    *(Restriction(slug, F_CARD + card,
                  f"never take the {CARD_NAMES[card]}: not drafted, not taken with the character "
                  "action, not chosen as a replacement", "card", True)
      for card, slug in enumerate(CARD_SLUGS)),
    Restriction("central_palaces", F_CENTRAL_PALACES,
                "no palace on the central site of a city (the outer sites stay)", "option", True),
)
#: Every draft family's bits (bit F_DRAFT + card).
ALL_DRAFTS = ((1 << N_CARDS) - 1) << F_DRAFT


def draft_mask(card: int) -> int:
    """The restriction mask that forces ``card`` (a card code) in the setup draft: the draft
    families of the five other cards (lifted when an earlier seat took ``card``)."""
    if not 0 <= card < N_CARDS:
        raise ValueError(f"card code {card}; expected 0 to {N_CARDS - 1}")
    return ALL_DRAFTS & ~(1 << (F_DRAFT + card))


def forced_card(mask: int) -> int:
    """The card a restriction mask forces in the draft (its draft families are the five
    other cards'), or -1 when it forces none."""
    drafts = (int(mask) & ALL_DRAFTS) >> F_DRAFT
    free = [card for card in range(N_CARDS) if not drafts >> card & 1]
    return free[0] if len(free) == 1 else -1


@kernel
def forbidden(state, action, mask):
    """Whether ``action`` belongs to a family of ``mask`` (int64, bit ``F_*`` per family)."""
    state = borrowed(state)
    if action < ACTION_DONE:  # a secret pair
        pair = action - ACTION_PICK
        for act in (PAIR_A[pair], PAIR_B[pair]):
            if act == ACT.GOVERNOR and (mask >> F_GOVERNOR) & 1:
                return True
            if act == ACT.CHARACTER and (mask >> F_CHARACTER) & 1:
                return True
        return False
    if (mask >> F_VILLAGE_HOUSES) & 1:
        if ACTION_BUILD <= action < ACTION_MOVE_FROM and state[S_PHASE] != PHASE_SETUP_HOUSE:
            loc = (action - ACTION_BUILD) if action < ACTION_FREE_BUILD else \
                (action - ACTION_FREE_BUILD)
            if loc < N_VILLAGES:
                return True
        if ACTION_MOVE_TO <= action < ACTION_PALACE and action - ACTION_MOVE_TO < N_VILLAGES:
            return True
    if action == ACTION_PALACE + 1 and (mask >> F_OUTER_PALACES) & 1:
        return True
    if action == ACTION_PALACE and (mask >> F_CENTRAL_PALACES) & 1:
        return True
    if ACTION_GOVERNOR <= action < ACTION_CARD and (mask >> F_GOVERNOR) & 1:
        return True
    if action >= ACTION_CARD:
        if (mask >> (F_CARD + action - ACTION_CARD)) & 1:  # in every phase that takes a card
            return True
        phase = state[S_PHASE]
        if phase == PHASE_TURN and (mask >> F_CHARACTER) & 1:
            return True
        if phase == PHASE_DRAFT and (mask >> (F_DRAFT + action - ACTION_CARD)) & 1:
            return True
    return False


@kernel
def restrict_legal(state, legal, n_legal, mask):
    """Move the actions no family of ``mask`` forbids to the front of ``legal[:n_legal]`` (in
    their order) and return how many there are; when there are none, the list is left as it
    was (the restriction is lifted for this decision) and ``n_legal`` returned.

    One pass: an allowed action swaps with the first slot not yet kept, so nothing moves until
    an allowed action is found. ``legal``: int64[>= n_legal], the caller's buffer (refilled
    before each decision; past the returned count it holds the forbidden actions).
    """
    state = borrowed(state)
    legal = borrowed(legal)
    if mask == 0:
        return n_legal
    kept = 0
    for i in range(n_legal):
        action = legal[i]
        if not forbidden(state, action, mask):
            legal[i] = legal[kept]
            legal[kept] = action
            kept += 1
    return kept if kept > 0 else n_legal


@njit(cache=True)
def lifted(state, legal, n_legal, mask):
    """Whether the restriction ``mask`` would be lifted at this decision (every legal action
    forbidden): what the tests and the docs' count of lifts read."""
    if mask == 0 or not n_legal > 1:
        return False
    for i in range(n_legal):
        if not forbidden(state, legal[i], mask):
            return False
    return True


@njit(cache=True)
def count_allowed(state, comp, legal, n_legal, mask):
    """How many of ``legal[:n_legal]`` no family of ``mask`` forbids (0: every one is, the
    restriction is lifted): the footprint's count (:mod:`tajsim.play.footprint`). ``comp`` is
    unused (the families read the state only); every wing takes it."""
    allowed = 0
    for i in range(n_legal):
        if not forbidden(state, legal[i], mask):
            allowed += 1
    return allowed


@njit(cache=True)
def is_forbidden(state, comp, action, mask):
    """``forbidden`` with the signature every wing shares (:mod:`tajsim.play.footprint`);
    ``comp`` is unused."""
    return forbidden(state, action, mask)
