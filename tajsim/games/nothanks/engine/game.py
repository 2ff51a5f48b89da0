"""Step-by-step No Thanks!: ``Game`` wraps one state vector with readable actions and a state
display."""

from __future__ import annotations

import numpy as np

from tajsim.engine.base_game import BaseGame
from tajsim.games.nothanks.engine import enums as E
from tajsim.games.nothanks.engine import nb

__all__ = ["Game"]


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


class Game(BaseGame):
    """One game of No Thanks!, played step by step (3 to 7 players, edition ``"2004"``)."""

    @property
    def card(self) -> int:
        """The face-up card (-1 at the end)."""
        turned = int(self.state[E.S_TURNED])
        return -1 if turned >= E.N_PLAYED else int(self.state[E.S_DECK + turned])

    def cards_of(self, player: int) -> list[int]:
        owner = self.state[E.S_OWNER:E.S_OWNER + E.N_CARDS]
        return [E.LOW_CARD + int(k) for k in np.flatnonzero(owner == player)]

    def action_label(self, action: int) -> str:
        if action == E.ACT_PASS:
            return f"no thanks (a chip on {self.card})"
        if action == E.ACT_TAKE:
            return f"take {self.card} (+{_chips(int(self.state[E.S_POT]))})"
        return f"invalid action {action}"

    def events(self, before: np.ndarray, action: int, after: np.ndarray) -> list[str]:
        turned = int(after[E.S_TURNED])
        if turned == int(before[E.S_TURNED]) or turned >= E.N_PLAYED:
            return []
        return [f"turns {int(after[E.S_DECK + turned])}"]

    def __str__(self) -> str:
        to_come = max(0, E.N_PLAYED - int(self.state[E.S_TURNED]) - 1)
        lines = [f"card {self.card}, {_chips(int(self.state[E.S_POT]))} on it, {to_come} to come"
                 if self.card >= 0 else "no card left"]
        for p in range(self.n_players):
            lines.append(f"P{p}: {_chips(int(self.state[E.S_CHIPS + p]))}, cards "
                         f"{' '.join(map(str, self.cards_of(p))) or '-'}")
        return "\n".join(lines)

    def final_summary(self) -> list[str]:
        removed = self.state[E.S_DECK + E.N_PLAYED:E.S_DECK + E.N_CARDS]
        lines = [f"put away: {' '.join(str(int(c)) for c in sorted(removed))}"]
        for p in range(self.n_players):
            parts = self.score_parts(p)
            lines.append(f"  P{p}  score {sum(parts.values()):4d} (cards={parts['cards']} "
                         f"chips={parts['chips']})")
        lines.append(f"Ranks: {self.ranks()}  winners: {self.winners()} (the lowest score wins)")
        return lines

    def scores(self) -> list[int]:
        return [int(nb.score_nb(self.state, p)) for p in range(self.n_players)]

    def score_parts(self, player: int) -> dict[str, int]:
        return {"cards": int(nb.card_points_nb(self.state, player)),
                "chips": -int(self.state[E.S_CHIPS + player])}

    def ranks(self) -> list[int]:
        return [int(self.state[E.S_RANK + p]) for p in range(self.n_players)]
