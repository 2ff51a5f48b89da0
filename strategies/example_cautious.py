"""Example pure-Python strategy for tajsim: "cautious".

Load it as ``py:strategies/example_cautious.py`` (see docs/strategies.md). This folder is a
plug-in folder, not a package: files are loaded by path.

The strategy:

* Bid: withdraw as soon as it holds a majority in a seat still in the court, or when it has no
  bid that would take a lead somewhere; otherwise play the bid that takes the lead in the most
  seats (elephants and the crown count double), preferring cards of its most-held colour last
  so that those stay in hand for the end-game points.
* Palace: the city with a bonus tile, else the city that touches most of its own palaces.
* Crown: the city that touches most of its own palaces.
* Display: a colourless card if there is one, else a card of its most-held colour.
"""

from __future__ import annotations

from collections import Counter

from tajsim.games.tajmahal.engine.enums import (
    COLOURLESS,
    N_SYMBOLS,
    SEAT_CROWN,
    SEAT_PRESENT,
    SEAT_PROVINCE,
)
from tajsim.games.tajmahal.strategies.view import PlayerView
from tajsim.strategies.python_policy import PythonPolicy


class Cautious(PythonPolicy):
    name = "cautious"
    game = "tajmahal"
    description = "withdraws as soon as it leads a seat; keeps its main colour for the end"

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        if view.phase == "bid":
            return self._bid(view, legal)
        if view.phase in ("palace", "crown"):
            return self._city(view, legal)
        return self._take(view, legal)

    # -- decisions ------------------------------------------------------------------------
    def _bid(self, view: PlayerView, legal: list[int]) -> int:
        me = view.player
        leads = [s for s in range(N_SYMBOLS)
                 if view.court[s] == SEAT_PRESENT and view.majority(s)]
        if leads:
            return 0  # withdraw and take them
        main = self._main_colour(view)
        best, best_score = 0, 0.0
        for action in legal:
            kind = view.decode(action)
            if kind[0] != "bid":
                continue
            _, card, extra = kind
            counts = list(view.row_symbols[me])
            for c in (card, extra):
                if c is not None:
                    for s, k in enumerate(view.card_symbols(c)):
                        counts[s] += k
            score = 0.0
            for s in range(N_SYMBOLS):
                if view.court[s] == SEAT_PRESENT and view.majority(s, counts):
                    score += 2.0 if s in (SEAT_CROWN, SEAT_PROVINCE) else 1.0
            if extra is not None:
                score -= 0.6  # a colourless card is worth a point at the end
            if view.card_colour(card) == main:
                score -= 0.3
            if score > best_score:
                best, best_score = action, score
        return best

    def _city(self, view: PlayerView, legal: list[int]) -> int:
        comps = view.components
        me = view.player

        def value(action: int) -> float:
            city = view.decode(action)[1]
            v = 0.0
            if view.phase == "palace" and view.bonus_at[city] >= 0:
                v += 2.0
            if comps is not None:
                for a, b in comps.roads:
                    other = b if a == city else a if b == city else None
                    if other is not None and view.palaces[other][me] > 0:
                        v += 1.0
            return v

        return max(legal, key=value)

    def _take(self, view: PlayerView, legal: list[int]) -> int:
        main = self._main_colour(view)

        def value(action: int) -> float:
            card = view.decode(action)[1]
            colour = view.card_colour(card)
            return 2.0 if colour == COLOURLESS else 1.0 if colour == main else 0.0

        return max(legal, key=value)

    @staticmethod
    def _main_colour(view: PlayerView) -> int:
        colours = Counter(view.card_colour(c) for c in view.hand
                          if view.card_colour(c) != COLOURLESS)
        return colours.most_common(1)[0][0] if colours else -1
