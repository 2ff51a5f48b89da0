"""Integer constants of No Thanks!: the single place that says what each state slot means.

The kernels import these module-level integers (numba freezes them as compile-time constants);
the Python layer uses the same names.
"""

from __future__ import annotations

import numpy as np

EDITION_NAMES = ("2004",)  # Amigo, 2004; edition index 0
MIN_PLAYERS = 3
MAX_PLAYERS = 7
#: The score's direction (``GameSpec.better_score`` is derived from it): the lowest score wins.
LOWER_SCORE_WINS = True
LOW_CARD = 3
HIGH_CARD = 35
N_CARDS = HIGH_CARD - LOW_CARD + 1  # 33
N_REMOVED = 9  # put away face down before the game, seen by no one
N_PLAYED = N_CARDS - N_REMOVED  # 24 cards are turned up
#: Chips each player starts with, by player count (the published rule).
START_CHIPS = (0, 0, 0, 11, 11, 11, 9, 7)
#: The table size played when none is given.
DEFAULT_PLAYERS = 4
#: The most decisions one game can take: each "no thanks" moves a chip onto the card and a seat
#: without chips must take it, so a card sees at most every chip in play passed before it goes.
MAX_GAME_LENGTH = N_PLAYED * (1 + max(n * START_CHIPS[n]
                                      for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)))

# Actions
ACT_PASS = 0  # "no thanks": pay a chip onto the card
ACT_TAKE = 1  # take the card and its chips
N_ACTIONS = 2
ACTION_NAMES = ("no thanks", "take")

# Phases
PHASE_DECIDE = 0
PHASE_GAME_OVER = 1
PHASE_NAMES = ("decide", "game_over")

# Score parts: card points (the lowest card of each run) and chips (minus one each)
PART_NAMES = ("cards", "chips")
N_PARTS = 2

# No component files: the packed components are one unused slot (the generic layers pass it).
COMP_SIZE = 1

# ---------------------------------------------------------------------------
# State vector (int64[STATE_SIZE])
# ---------------------------------------------------------------------------
S_PHASE = 0
S_CUR = 1  # seat to decide, -1 when the game is over
S_N_PLAYERS = 2
S_RULES = 3
S_TURNED = 4  # index in the deck of the face-up card (N_PLAYED: none left)
S_POT = 5  # chips on the face-up card
S_STEP = 6  # actions applied
S_RNG = 7  # chance stream during setup only (0 afterwards)
S_DECK = 8  # the 33 cards: [0, N_PLAYED) in turn order, the rest put away (hidden)
S_OWNER = S_DECK + N_CARDS  # owner seat of card LOW_CARD + k, -1 if nobody took it
S_CHIPS = S_OWNER + N_CARDS  # chips of each seat
S_PASSES = S_CHIPS + MAX_PLAYERS  # "no thanks" said by each seat
S_RANK = S_PASSES + MAX_PLAYERS  # 1 = lowest score (ties share a rank), 0 while the game runs
STATE_SIZE = S_RANK + MAX_PLAYERS

# ---------------------------------------------------------------------------
# Records
# ---------------------------------------------------------------------------
RESULT_DTYPE = np.dtype(
    [("game_id", np.int64), ("seat", np.int8), ("strategy_id", np.int16),
     ("score", np.int32), ("rank", np.int8), ("winner", np.bool_)]
    + [(f"pts_{name}", np.int32) for name in PART_NAMES]
    + [("cards", np.int8), ("runs", np.int8), ("chips", np.int8), ("passes", np.int16)]
)
SETUP_DTYPE = np.dtype([
    ("game_id", np.int64),
    ("setup_id", np.int64),
    ("n_actions", np.int16),
    ("removed", np.int8, (N_REMOVED,)),  # the cards put away, in deck order
])
