"""tajsim's games as OpenSpiel games, and OpenSpiel's bots as seats at tajsim's tables.

``import tajsim.interop.openspiel`` registers every game of ``tajsim.games.registry`` with
``pyspiel`` as ``tajsim_<name>`` (``tajsim_tajmahal``, ``tajsim_maharaja``, ``tajsim_maharani``),
so that ``pyspiel.load_game("tajsim_maharani", {"players": 3})`` works, and registers the seat
prefix ``openspiel:`` with :mod:`tajsim.play.mixed` (``openspiel:ismcts:iterations=200``).

The OpenSpiel game
------------------
* Parameters: ``players``, ``edition`` (the game's edition; Taj Mahal's as a number),
  ``seed`` (the master seed), ``deals`` (see chance) and one boolean per rule option
  (``GameSpec.options``).
* ``GameType``: sequential, imperfect information, terminal rewards.
  **Chance is explicit, once** (``EXPLICIT_STOCHASTIC``): a tajsim game draws all its chance
  (the deck, the bag, the setup...) from a stream seeded by (master seed, game id) and kept
  inside the state, so the kernels expose no chance event one by one. The initial state is
  one chance node, *the deal*: outcome ``k`` (uniform over ``deals`` outcomes, parameter,
  default 4096) starts game id ``k`` of the master seed ``seed``; every later chance event is
  fixed by it and hidden from the seats. (Sampled chance, the other way to say this, cannot
  pass OpenSpiel's serialisation test from Python: its ``SerializeGameAndState`` asks the game
  for an RNG state that a Python game cannot provide.) ``resample_from_infostate`` redraws
  the hidden facts and the chance stream with ``spec.redraw_hidden``; the world it draws is a
  state of the full game, not necessarily one of the ``deals`` deals.
  **Utility is the win share** (``CONSTANT_SUM``, sum 1): at the end each of the ``k`` tied
  winners gets ``1/k``, everyone else 0 -- the quantity the ladder and the reports measure.
* States step the game's compiled kernels through its ``BaseGame`` (``spec.game_class``).
  ``apply_action`` refuses an action that is not legal (a deal outside ``0 .. deals - 1``, a
  negative or out-of-range number, an action of another phase) before the kernels see it, with
  :class:`IllegalActionSpielError` (a ``pyspiel.SpielError`` and a tajsim ``UserError``), and
  so does ``deserialize_state`` for a record's action.
* Seeds: ``seed`` is an OpenSpiel integer (32-bit: 0 .. 2**31 - 1); the text parameter
  ``master_seed`` (decimal or ``0x`` hexadecimal) carries any master seed up to 2**63 - 1, and
  :func:`load_game` chooses between them.
* Players default to the game's own table size (``GameSpec.default_player_count``).
* Observers: one seat's view (``private_info=SINGLE_PLAYER`` with the public facts, OpenSpiel's
  default); a public-only or an all-seats observer is refused (``SpielError``): a game's view
  holds its seat's hidden facts, so it cannot stand for the public information.
* ``observation_string(p)`` lists the fields of the game's own view of seat ``p``
  (``spec.view``: only what that seat sees). ``information_state_string(p)`` adds perfect
  recall: a digest chained over the seat's view at each of its own past decisions and the
  action it took there (views are computed lazily: a rollout that never asks costs a state
  copy per step, not a view). What a seat saw only between two of its decisions and no longer
  sees at the next one is not in it: the same limit as ``redraw_hidden``, which deals again
  whatever the current view does not show.
* Serialisation is the game's ``GameRecord`` JSON (the record replays the state exactly); a
  state made by ``resample_from_infostate`` is not the replay of any record, so it also
  carries its raw vectors and the seats' recall digests.

OpenSpiel's bots as seats
-------------------------
``openspiel:BOT:key=value...`` plays through this adapter wherever seats play step by step:
``tajsim.play.mixed.play_mixed_game`` / ``play_game``, matches
(``tajsim.play.arena.play_mixed_lineups``) and the ladder (``tajsim ladder --openspiel``).
BOT is ``ismcts`` (OpenSpiel's information-set MCTS, ``ISMCTSBot``) or ``mcts`` (OpenSpiel's
``MCTSBot``, run on one world redrawn with ``resample_from_infostate`` per decision: plain MCTS
on the true state would read the other seats' cards). Keys: ``iterations`` (simulations per
decision, default 200), ``seconds`` (ISMCTS only: stop after this many seconds per decision
instead), ``uct_c`` (default 2), ``rollouts`` (random rollouts per leaf, default 1), ``seed``.
A bot's random stream is reseeded from (``seed``, game seed, game id, seat) at a game's first
decision, so a game's result does not depend on which games were played before it.
"""

from __future__ import annotations

from tajsim.interop import require

# First, so that the install hint comes even when the submodules are imported already.
require("pyspiel", "the OpenSpiel adapter (tajsim.interop.openspiel)")

from tajsim.games.registry import GAMES  # noqa: E402
from tajsim.interop.openspiel.bots import OpenSpielSeat, parse_bot, resolve_seat  # noqa: E402
from tajsim.interop.openspiel.game import (  # noqa: E402
    TajsimGame,
    TajsimState,
    register_game,
    state_from_game,
)
from tajsim.interop.openspiel.game_type import load_game, openspiel_name  # noqa: E402
from tajsim.interop.openspiel.state_data import IllegalActionSpielError  # noqa: E402
from tajsim.play.mixed import register_seat_resolver  # noqa: E402

__all__ = ["IllegalActionSpielError", "OpenSpielSeat", "TajsimGame", "TajsimState", "load_game",
           "openspiel_name", "parse_bot", "state_from_game"]

for _spec in GAMES.values():
    register_game(_spec)

register_seat_resolver("openspiel", resolve_seat)
