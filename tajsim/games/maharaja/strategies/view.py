"""What one seat may see, for pure-Python policies: :class:`PlayerView`.

Everything on the table is public in Maharaja: the board (houses, palaces, architects, the
Maharaja), the governor track, every seat's character card, pool and quarry. Gold is kept hidden
in the box, but every change of it is public (revealed actions, tolls, scorings, penalties), so
a seat with perfect memory knows everyone's gold: the view shows it (see
``docs/games/maharaja/strategies.md``). Hidden: the pairs other seats chose this round until
they are revealed (``picks[q]`` is None then).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from tajsim.games.maharaja.engine import enums as E

P = E.MAX_PLAYERS


@dataclass(frozen=True)
class PlayerView:
    """The game as seat ``player`` sees it (plain Python values)."""

    player: int
    n_players: int
    round: int
    phase: str
    maharaja: int  # junction of the Maharaja (a city index, or START before round 1)
    governor_boxes: tuple[int, ...]  # city of the governor at positions 1.. (-1 empty)
    cards: tuple[int, ...]  # character of each seat (-1 during a replacement)
    gold: tuple[int, ...]
    palaces: tuple[int, ...]
    pool: tuple[int, ...]
    quarry: tuple[int, ...]
    architects: tuple[int, ...]  # junction of each architect
    houses: tuple[tuple[int, ...], ...]  # houses[loc][seat]
    sites: tuple[tuple[int, ...], ...]  # sites[city][site]: seat, SITE_EMPTY or SITE_NEUTRAL
    picks: tuple[int | None, ...]  # own pick; others' only once revealed
    turn: dict[str, int] | None  # the turn's allowances and progress, during a turn

    @classmethod
    def of(cls, state: np.ndarray, comp: np.ndarray, player: int,
           components: object = None) -> PlayerView:
        s = state
        n = int(s[E.S_N_PLAYERS])
        picks: list[int | None] = []
        for q in range(n):
            pick = int(s[E.S_PICK + q])
            visible = q == player or bool(s[E.S_REVEALED + q])
            picks.append(pick if pick >= 0 and visible else None)
        turn = None
        if int(s[E.S_PHASE]) in (E.PHASE_TURN, E.PHASE_MOVE_TO, E.PHASE_REPLACE):
            keys = ("S_TURN_PLAYER", "S_T_SLOT0", "S_T_SLOT1", "S_T_PAL_ALLOWED",
                    "S_T_PAL_BUILT", "S_T_HOUSES_ALLOWED", "S_T_MIN_CITY", "S_T_CITY_BUILT",
                    "S_T_VILLAGE_BUILT", "S_T_MOVES_ALLOWED", "S_T_MOVES_DONE",
                    "S_T_GOV_ALLOWED", "S_T_GOV_DONE", "S_T_CHAR_ALLOWED", "S_T_CHAR_DONE",
                    "S_T_QUARRY_SHORT", "S_T_BUILDER_USED", "S_T_TRADER_PAID", "S_T_TRAVELS",
                    "S_MOVE_FROM")
            turn = {k[2:].lower(): int(s[getattr(E, k)]) for k in keys}
        return cls(
            player=int(player), n_players=n, round=int(s[E.S_ROUND]),
            phase=E.PHASE_NAMES[int(s[E.S_PHASE])], maharaja=int(s[E.S_MAHARAJA]),
            governor_boxes=tuple(int(x) for x in s[E.S_BOX + 1:E.S_BOX + E.TRACK_SIZE]),
            cards=tuple(int(s[E.S_CARD_OF + q]) for q in range(n)),
            gold=tuple(int(s[E.S_GOLD + q]) for q in range(n)),
            palaces=tuple(int(s[E.S_PALACES + q]) for q in range(n)),
            pool=tuple(int(s[E.S_POOL + q]) for q in range(n)),
            quarry=tuple(int(s[E.S_QUARRY + q]) for q in range(n)),
            architects=tuple(int(s[E.S_ARCH + q]) for q in range(n)),
            houses=tuple(tuple(int(s[E.S_HOUSES + loc * P + q]) for q in range(n))
                         for loc in range(E.N_LOCS)),
            sites=tuple(tuple(int(s[E.S_SITE + c * E.N_SITES + k]) for k in range(E.N_SITES))
                        for c in range(E.N_CITIES)),
            picks=tuple(picks), turn=turn,
        )


def view(state: np.ndarray, comp: np.ndarray, player: int,
                components: object = None) -> PlayerView:
    """``GameSpec.view``: what seat ``player`` may see."""
    return PlayerView.of(state, comp, player, components)
