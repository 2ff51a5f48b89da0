"""The strength ladder of a game's strategies, written into its strategies document
(``docs/strategies.md`` for Taj Mahal, ``docs/games/<game>/strategies.md`` for the others).

``tajsim ladder --game GAME`` plays, with seats rotated and 4 players by default:

1. **Against a random field**: each strategy in one seat, the other seats ``random``.
2. **Against the field of the others**: each strategy in one seat, the other seats filled from
   the other fast strategies in turn (the search strategy joins with fewer games).
3. **Head to head**: every pair, two seats each (A B A B, rotated); the share of the wins taken
   by the first strategy, parity 0.5.
4. **The search strategy** (the game's first strategy tagged ``search``) against the best preset
   of table 2, head to head, with the wall-clock seconds per game.
5. **Python seats**: the cost of a pure-Python policy at the table (the game's example plug-in,
   if it has one).
6. **OpenSpiel's bots** (only with ``openspiel``, e.g. ``("ismcts",)``; needs
   ``tajsim[interop]``): the search strategy against ``openspiel:BOT`` head to head with
   ``openspiel_players`` seats, (a) at equal iterations (both at ``openspiel_iterations``)
   and (b) at equal time per decision (the search at its own settings; OpenSpiel's ISMCTS
   stopped by the clock after the search's measured seconds per decision), with each side's
   seconds per decision.

Win shares count a tied win as shared. Intervals are Wilson 95% intervals over games (each game
gives the entry one share in [0, 1]). Everything is a pure function of the seed: game ``g`` of
a table has game id ``base + g`` with a base per table derived from the seed.

The measured section of ``docs/strategies.md`` lies between ``<!-- ladder:begin -->`` and
``<!-- ladder:end -->``; the prose around it is kept.

One module a job: ``config`` (what is played, the saved numbers' shape, where the document
goes), ``matches`` (playing the tables), ``markdown`` (the document) and ``saved`` (the JSON,
and the OpenSpiel tables a new run keeps from the saved ladder it replaces).
"""

from tajsim.reporting.ladder.config import (
    REPO,
    LadderConfig,
    LadderData,
    default_search,
    fast_strategies,
    ladder_document,
)
from tajsim.reporting.ladder.markdown import (
    BEGIN,
    END,
    render_markdown,
    render_openspiel,
    write_docs,
)
from tajsim.reporting.ladder.matches import openspiel_tables, run_ladder
from tajsim.reporting.ladder.saved import (
    check_openspiel_target,
    keep_openspiel,
    load_json,
    save_json,
)

__all__ = ["BEGIN", "END", "REPO", "LadderConfig", "LadderData", "check_openspiel_target",
           "default_search", "fast_strategies", "keep_openspiel", "ladder_document", "load_json",
           "openspiel_tables",
           "render_markdown", "render_openspiel", "run_ladder", "save_json", "write_docs"]
