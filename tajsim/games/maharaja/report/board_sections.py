"""Maharaja's report section drawing the board at the end of a game played again from its seed
(``final_board``).
"""

from __future__ import annotations

import numpy as np

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.report.board_plot import draw_board
from tajsim.games.maharaja.report.section_helpers import (
    _components,
)
from tajsim.reporting.render import (
    ReportContext,
)
from tajsim.reporting.replay import replay_first_game


def section_final_board(ctx: ReportContext) -> None:
    ctx.heading(2, "The board at the end of a game")
    comps = _components(ctx)
    game = replay_first_game(ctx, comps)
    if game is None:
        ctx.para("The first game could not be played again to the recorded scores (a custom "
                 "strategy, rule option or component set), so its final board is not drawn.")
        return
    first = ctx.results.iloc[0]
    seats = np.arange(len(game.strategies))
    palaces, gold = game.state[E.S_PALACES + seats], game.state[E.S_GOLD + seats]
    labels = [f"P{p} {s}: {int(palaces[p])} palaces, {int(gold[p])} gold"
              for p, s in enumerate(game.strategies)]
    fig = draw_board(comps, state=game.state, seat_labels=labels,
                     title=f"Game {int(first['game_id'])} (seed {int(first['seed'])}) at its "
                           "end")
    ctx.figure(fig, "final_board",
               "The board at the end of the first game of the results, played again from its "
               "seed (its scores equal the recorded ones): houses as small squares in the "
               "seats' colours beside their village or under their city, palaces on the "
               "city's centre and ring of outer sites (grey: neutral palaces of unused "
               "colours), architects as triangles above their city, the Maharaja's city "
               "ringed in gold.", ctx.results)
