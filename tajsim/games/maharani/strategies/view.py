"""What one seat may see, for slow pure-Python policies and for the hidden-information tests.

Everything in Maharani is public except the order of the tiles in the bag (hidden from every
seat), the chance stream and the seeds. :class:`PlayerView` holds the public facts and nothing
else, so two states that differ only in hidden facts give equal views.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb

__all__ = ["PlayerView", "decode_action", "view"]


def decode_action(action: int) -> tuple:
    """``("place", slot, space, arrow)``, ``("refresh",)``, ``("stop",)`` or
    ``("artisan", option)`` (``enums.ART_*``)."""
    if 0 <= action < E.N_PLACE_ACTIONS:
        slot, space, arrow = (int(x) for x in nb.decode_place(action))
        return ("place", slot, space, arrow)
    if action == E.ACTION_REFRESH:
        return ("refresh",)
    if action == E.ACTION_STOP:
        return ("stop",)
    if E.ACTION_ARTISAN <= action < E.N_ACTIONS:
        return ("artisan", action - E.ACTION_ARTISAN)
    raise ValueError(f"not an action number: {action}")


@dataclass(frozen=True)
class PlayerView:
    """The public state, as seen by seat ``player`` (tuples, so views compare by value).

    Spaces and tiles are indices into the components (``Components.space_ids``, ``tile_ids``);
    ``board[s]`` is (tile, arrow direction, artisan colour) with -1 for none; artisan colour a
    belongs to seat ``a // 2`` with 2 players, seat ``a`` otherwise.
    """

    player: int
    n_players: int
    rules: int
    turn: int
    phase: int
    current: int
    facing: int
    tiles_this_turn: int
    last_space: int
    artisan_options: int
    turntable: tuple[int, ...]
    board: tuple[tuple[int, int, int], ...]
    bag: tuple[int, ...]  # the tiles in the bag, ascending (their order is hidden)
    out_of_play: tuple[int, ...]
    markers: tuple[tuple[int, ...], ...]
    reserves: tuple[int, ...]
    gold_parts: tuple[tuple[int, ...], ...]
    scored: int
    pending: int

    @classmethod
    def from_state(cls, state: np.ndarray, comp: np.ndarray, player: int) -> PlayerView:
        st = [int(x) for x in state]
        n = st[E.S_N_PLAYERS]
        n_spaces, n_tiles = int(comp[E.C_N_SPACES]), int(comp[E.C_N_TILES])
        loc = st[E.S_TILE_LOC:E.S_TILE_LOC + n_tiles]
        return cls(
            player=int(player), n_players=n, rules=st[E.S_RULES], turn=st[E.S_TURN],
            phase=st[E.S_PHASE], current=st[E.S_CUR], facing=st[E.S_FACING],
            tiles_this_turn=st[E.S_TILES_THIS_TURN], last_space=st[E.S_LAST_SPACE],
            artisan_options=st[E.S_ARTISAN_OPTS],
            turntable=tuple(st[E.S_SLOT:E.S_SLOT + E.N_SLOTS]),
            board=tuple((st[E.S_SPACE_TILE + s], st[E.S_SPACE_ARROW + s],
                         st[E.S_SPACE_ARTISAN + s]) for s in range(n_spaces)),
            bag=tuple(t for t in range(n_tiles) if loc[t] == E.LOC_BAG),
            out_of_play=tuple(t for t in range(n_tiles) if loc[t] == E.LOC_REMOVED),
            markers=tuple(tuple(st[E.S_MARKER + p * 4:E.S_MARKER + p * 4 + 4])
                          for p in range(n)),
            reserves=tuple(st[E.S_RESERVE:E.S_RESERVE + E.N_ARTISAN_COLOURS]),
            gold_parts=tuple(tuple(st[E.S_SCORE + p * E.N_PARTS:E.S_SCORE + (p + 1) * E.N_PARTS])
                             for p in range(n)),
            scored=st[E.S_SCORED], pending=st[E.S_PENDING],
        )

    @property
    def gold(self) -> tuple[int, ...]:
        return tuple(sum(parts) for parts in self.gold_parts)


def view(state: np.ndarray, comp: np.ndarray, player: int, components: Any = None) -> PlayerView:
    """``GameSpec.view``: what seat ``player`` may see."""
    return PlayerView.from_state(state, comp, player)
