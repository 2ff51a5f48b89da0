"""A governor-heavy pure-Python strategy for Maharaja: "governor_mover".

Load it as ``py:strategies/maharaja_governor_mover.py`` (see docs/strategies.md). It exists to
exercise the governor track: every round it picks the governor action twice and moves a
governor chosen uniformly among those that can move; everything else (the draft, the starting
houses, a replacement card) it decides uniformly at random, and it ends each turn as soon as
its governor moves are done. It plays badly on purpose: it is the line-up in which rule R27
(a governor moved down from the top over an empty box lowers the top, so the game runs past
round 10) happens often, which ``experiments/maharaja/track_length.py`` measures with and
without the rule option ``ten_rounds`` (docs/games/maharaja/rules.md, R39a).

Its choices are a pure function of (``seed``, the number of games it has started, its seat and
the decisions so far), so the same games are played again under another rule option up to the
point where the rules differ.
"""

from __future__ import annotations

import random

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.strategies.view import PlayerView
from tajsim.strategies.python_policy import PythonPolicy

GOVERNOR_TWICE = E.ACTION_PICK + E.pair_index(E.ACT.GOVERNOR, E.ACT.GOVERNOR)


class GovernorMover(PythonPolicy):
    name = "governor_mover"
    game = "maharaja"
    description = "the governor action twice a round, random movable governors, nothing else"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.games_started = 0
        self.rng = random.Random(seed)

    def reset(self, n_players: int, seat: int) -> None:
        # A stream per game and seat (string seeds are hashed deterministically), so a game
        # does not depend on how many draws the previous games took.
        self.rng = random.Random(f"{self.seed}:{self.games_started}:{seat}")
        self.games_started += 1

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        if view.phase == "pick" and GOVERNOR_TWICE in legal:
            return GOVERNOR_TWICE
        if view.phase == "turn":
            moves = [a for a in legal if E.ACTION_GOVERNOR <= a < E.ACTION_CARD]
            if moves:
                return self.rng.choice(moves)
            if E.ACTION_DONE in legal:
                return E.ACTION_DONE
        return self.rng.choice(legal)
