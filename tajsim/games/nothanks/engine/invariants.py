"""No Thanks!'s invariants (checked after every action by the conformance suite), a reference
legal list and the hidden-information redraw."""

from __future__ import annotations

import numpy as np

from tajsim.games.nothanks.engine import enums as E


def check_state(state: np.ndarray, comp: np.ndarray, where: str = "") -> None:
    """The deck is the cards 3..35 once each; the turned cards (only they) have owners; chips
    are never negative and none appear or vanish."""
    n = int(state[E.S_N_PLAYERS])
    turned = int(state[E.S_TURNED])
    deck = state[E.S_DECK:E.S_DECK + E.N_CARDS]
    assert sorted(deck.tolist()) == list(range(E.LOW_CARD, E.HIGH_CARD + 1)), f"{where}: deck"
    assert 0 <= turned <= E.N_PLAYED, f"{where}: turned {turned}"
    owner = state[E.S_OWNER:E.S_OWNER + E.N_CARDS]
    for i, card in enumerate(deck.tolist()):
        held = int(owner[card - E.LOW_CARD])
        assert (0 <= held < n) == (i < turned), f"{where}: card {card} owner {held}"
    chips = state[E.S_CHIPS:E.S_CHIPS + n]
    start = 11 if n <= 5 else (9 if n == 6 else 7)
    assert chips.min() >= 0 and int(chips.sum() + state[E.S_POT]) == n * start, \
        f"{where}: chips {chips.tolist()} + pot {int(state[E.S_POT])}"
    over = int(state[E.S_PHASE]) == E.PHASE_GAME_OVER
    assert over == (turned == E.N_PLAYED), f"{where}: game over at card {turned}"
    assert (int(state[E.S_CUR]) == -1) == over, f"{where}: current seat {int(state[E.S_CUR])}"


def check_legal(state: np.ndarray, comp: np.ndarray, legal: list[int], where: str = "") -> None:
    """The legal list against the rule: "no thanks" with a chip, taking always."""
    chips = int(state[E.S_CHIPS + int(state[E.S_CUR])])
    expected = ([E.ACT_PASS] if chips > 0 else []) + [E.ACT_TAKE]
    assert sorted(legal) == expected, f"{where}: legal {legal}, expected {expected}"


def redraw_hidden(state: np.ndarray, comp: np.ndarray, player: int,
                  rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` with the face-down cards (the deck below the face-up card and the 9
    put away) shuffled: no seat sees them."""
    out = state.copy()
    first_hidden = E.S_DECK + min(int(state[E.S_TURNED]) + 1, E.N_CARDS)
    rng.shuffle(out[first_hidden:E.S_DECK + E.N_CARDS])
    return out
