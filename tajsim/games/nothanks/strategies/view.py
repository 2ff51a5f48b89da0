"""What one seat may see, for pure-Python policies: :class:`PlayerView`.

Public: the face-up card and the chips on it, who holds each card, how many cards are still to
be turned. Chips are kept hidden at the table, but every chip paid or taken is public, so a seat
with perfect memory knows them: the view shows them. Hidden: the deck and the 9 cards put away.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tajsim.games.nothanks.engine import enums as E


@dataclass(frozen=True)
class PlayerView:
    """The game as seat ``player`` sees it (plain Python values)."""

    player: int
    n_players: int
    phase: str
    card: int  # the face-up card, -1 at the end
    pot: int  # chips on it
    to_come: int  # cards still face down in the deck (the 9 put away not counted)
    chips: tuple[int, ...]
    holder: tuple[int, ...]  # holder[k]: the seat holding card 3 + k, -1 if none


def view(state: np.ndarray, comp: np.ndarray, player: int,
                components: object = None) -> PlayerView:
    """``GameSpec.view``: what seat ``player`` may see."""
    n = int(state[E.S_N_PLAYERS])
    turned = int(state[E.S_TURNED])
    over = turned >= E.N_PLAYED
    return PlayerView(
        player=int(player), n_players=n, phase=E.PHASE_NAMES[int(state[E.S_PHASE])],
        card=-1 if over else int(state[E.S_DECK + turned]), pot=int(state[E.S_POT]),
        to_come=max(0, E.N_PLAYED - turned - 1),
        chips=tuple(int(state[E.S_CHIPS + q]) for q in range(n)),
        holder=tuple(int(x) for x in state[E.S_OWNER:E.S_OWNER + E.N_CARDS]))
