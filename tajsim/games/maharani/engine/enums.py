"""Integer constants of Maharani shared by the compiled kernels and the Python layer.

Everything the kernels see is a flat ``int64`` array. This module is the single place that says
what each slot means: directions and column marks, the rules constants quoted from the French
text, the action encoding, the packed components (``comp``), the game state vector (``state``)
and the record dtypes. Kernels import the module-level integers (numba freezes them as
compile-time constants); the Python layer uses the same names. Rule numbers (R...) refer to
``docs/games/maharani/rules.md``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# ---------------------------------------------------------------------------
# Editions, rule options and player counts
# ---------------------------------------------------------------------------
EDITION_NAMES = ("2012",)  # Queen Games, 2012 (the French rules text); edition index 0
MIN_PLAYERS = 2
MAX_PLAYERS = 4
#: The score's direction (``GameSpec.better_score`` is derived from it): the most gold wins (R13).
LOWER_SCORE_WINS = False
# Rule options: bits of the rules code above the edition index (GameSpec.rules_code).
OPT_FREE_REFRESH = 1 << 8  # R9b: refreshing is legal even with every marker face up
OPT_TARGET_MARKER = 1 << 9  # R6c: the marker of the quarter placed INTO is turned, not the source
OPT_ROUND_END = 1 << 10  # V1 (a variant, not the rules): the game ends at the end of a round
EDITION_MASK = 0xFF
# Under OPT_FREE_REFRESH only: the game stops after this many rounds of turns in a row without a
# tile placed (a simulator safeguard against endless passing; R12c).
STALL_ROUNDS = 8
#: The table size played when none is given.
DEFAULT_PLAYERS = 4


# ---------------------------------------------------------------------------
# Directions (board sides) and column marks
# ---------------------------------------------------------------------------
class Dir(NamedTuple):
    """Board directions, clockwise. Also the four sides of the board (where players sit)."""

    N: int = 0
    E: int = 1
    S: int = 2
    W: int = 3


DIR = Dir()
N_DIRS = 4
DIR_NAMES = ("north", "east", "south", "west")
DIR_LETTERS = ("N", "E", "S", "W")
ARROW_CHARS = ("^", ">", "v", "<")
DIR_DR = (-1, 0, 1, 0)  # grid row step of each direction
DIR_DC = (0, 1, 0, -1)  # grid column step

# A column pattern is a 5-bit mask: bit d (0..3) = half column on the edge in direction d,
# bit 4 = central column. Board spaces use board directions; tiles use their own frame, in which
# the arrow points "north" (ahead = bit 0, right = bit 1, behind = bit 2, left = bit 3). A tile
# laid with its arrow pointing in board direction a has its edge bits rotated clockwise by a.
MARK_CENTRE = 16
N_PATTERNS = 32
EDGE_MASK = 15
TILE_EDGE_NAMES = ("ahead", "right", "behind", "left")  # tile frame, relative to the arrow


class Kind(NamedTuple):
    """Column-pattern classes (a pattern up to rotation)."""

    CENTRAL: int = 0  # one central column
    HALF: int = 1  # one half column
    CORNER: int = 2  # two half columns on adjacent edges
    STRAIGHT: int = 3  # two half columns on opposite edges


KIND = Kind()
N_KINDS = 4
KIND_NAMES = ("central", "half", "corner", "straight")


# ---------------------------------------------------------------------------
# Rules constants (sourced: the French rules; see docs/games/maharani/rules.md)
# ---------------------------------------------------------------------------
N_QUARTERS = 4
N_SLOTS = 4  # turntable places 1..4 (0-based here)
N_COLOURS = 6  # tile colours, 10 tiles each
N_ARTISAN_COLOURS = 4  # piece colours (red, green, blue, yellow)
ARTISAN_COLOUR_NAMES = ("red", "green", "blue", "yellow")
# Artisans per artisan colour, by player count (2 players: two colours of 7 each).
ARTISANS_PER_COLOUR = (0, 0, 7, 10, 8)
# Quarter scoring: gold by artisans of one colour in the quarter (index 0..6).
QUARTER_GOLD = (0, 4, 6, 9, 13, 18, 24)
MAX_SCORED_ARTISANS = 6  # one per tile colour (R8): the table never needs more
SECOND_TILE_COST = 2

# ---------------------------------------------------------------------------
# Size limits of a component set (user files are checked against them)
# ---------------------------------------------------------------------------
GRID = 8  # spaces sit on an 8 x 8 grid (row, column); drawing and adjacency
MAX_SPACES = 60  # space sets are bit masks in one positive int64 (bits 0..59)
MAX_TILES = 64

# ---------------------------------------------------------------------------
# Score parts (state[S_SCORE + p * N_PARTS + part]); they always sum to the score.
# ---------------------------------------------------------------------------
PART_ZONES = 0  # gold for the zone of each tile laid (R7)
PART_GROUPS = 1  # gold for the group of each artisan placed or moved (R8)
PART_QUARTERS = 2  # quarter scorings (R10)
PART_SECOND = 3  # second tiles paid for: -2 each (R9), never positive
N_PARTS = 4
PART_NAMES = ("zones", "groups", "quarters", "second")

# ---------------------------------------------------------------------------
# Decision phases
# ---------------------------------------------------------------------------
PHASE_FIRST = 0  # lay the mandatory first tile, or refresh the markers
PHASE_ARTISAN = 1  # 2 players only: which artisan goes on the tile just laid (a real choice)
PHASE_SECOND = 2  # lay a second tile (2 gold) or stop
PHASE_GAME_OVER = 3
PHASE_NAMES = ("first_tile", "artisan", "second_tile", "game_over")

# Why the game ended (state[S_END_REASON])
END_NONE = 0
END_COMPLETE = 1  # the last quarter was scored (R12)
END_STUCK = 2  # tiles remain that can be laid nowhere (R12b)
END_STALLED = 3  # OPT_FREE_REFRESH safeguard (R12c)
END_ROUND = 4  # OPT_ROUND_END (V1): the round in which the bag ran out was played to its end
END_NAMES = ("playing", "complete", "stuck", "stalled", "round_end")

# ---------------------------------------------------------------------------
# Action encoding: one integer space for every decision.
#
#   ACTION_PLACE + (slot * MAX_SPACES + space) * 4 + arrow
#       lay the tile of turntable place `slot` (0..3) on empty space `space` with its arrow
#       pointing in board direction `arrow` (0..3, which fixes the rotation); PHASE_FIRST and
#       PHASE_SECOND
#   ACTION_REFRESH      turn every action marker face up (the whole turn); PHASE_FIRST
#   ACTION_STOP         no second tile; PHASE_SECOND
#   ACTION_ARTISAN + k  2 players, PHASE_ARTISAN: k = ART_NEW_A, ART_NEW_B (a new artisan of the
#                       player's first / second colour), ART_MOVE_A, ART_MOVE_B (move that
#                       colour's artisan from the other tile of this colour in the quarter)
#
# A turn is a sequence of these atomic decisions: [PLACE [ARTISAN] (PLACE [ARTISAN] | STOP)]
# or [REFRESH]. In 3-4 player games the artisan step never has a choice and is applied with the
# tile; with 2 players it is a decision only when there are at least two options (R8b).
# ---------------------------------------------------------------------------
ACTION_PLACE = 0
N_PLACE_ACTIONS = N_SLOTS * MAX_SPACES * N_DIRS  # 960
ACTION_REFRESH = ACTION_PLACE + N_PLACE_ACTIONS
ACTION_STOP = ACTION_REFRESH + 1
ACTION_ARTISAN = ACTION_STOP + 1
ART_NEW_A = 0
ART_NEW_B = 1
ART_MOVE_A = 2
ART_MOVE_B = 3
N_ARTISAN_OPTIONS = 4
ARTISAN_OPTION_NAMES = ("new artisan of the first colour", "new artisan of the second colour",
                        "move the first colour's artisan", "move the second colour's artisan")
N_ACTIONS = ACTION_ARTISAN + N_ARTISAN_OPTIONS  # 966

# ---------------------------------------------------------------------------
# Packed components: comp = Components.packed(), int64[COMP_SIZE]
#
# Spaces are numbered 0..n_spaces-1 (file order); a set of spaces is a bit mask (bit s) in one
# int64. Directions index 0..3 = N, E, S, W.
# ---------------------------------------------------------------------------
C_N_SPACES = 0
C_N_TILES = 1
C_N_CENTRAL_SPACES = 2
C_ALL_SPACES = 3  # mask of every space
C_CENTRAL_MASK = 4  # mask of the spaces with a central column
C_SPACE_QUARTER = 8  # [MAX_SPACES]
C_SPACE_MARKS = C_SPACE_QUARTER + MAX_SPACES  # [MAX_SPACES] column pattern, board frame
C_SPACE_ROW = C_SPACE_MARKS + MAX_SPACES  # [MAX_SPACES] grid row 0..7 (north = 0)
C_SPACE_COL = C_SPACE_ROW + MAX_SPACES  # [MAX_SPACES] grid column 0..7 (west = 0)
C_NEIGH = C_SPACE_COL + MAX_SPACES  # [MAX_SPACES * 4] neighbour space in direction d, -1 none
C_NEIGH_MASK = C_NEIGH + MAX_SPACES * N_DIRS  # [MAX_SPACES] mask of the neighbours
C_QUARTER_MASK = C_NEIGH_MASK + MAX_SPACES  # [N_QUARTERS]
C_QUARTER_SIZE = C_QUARTER_MASK + N_QUARTERS  # [N_QUARTERS]
C_TILE_COLOUR = C_QUARTER_SIZE + N_QUARTERS  # [MAX_TILES]
C_TILE_MARKS = C_TILE_COLOUR + MAX_TILES  # [MAX_TILES] column pattern, tile frame
C_TILE_KIND = C_TILE_MARKS + MAX_TILES  # [MAX_TILES] Kind of the pattern
# [N_PATTERNS * N_PATTERNS]: bit a set when a tile of pattern t laid with its arrow in direction
# a covers exactly the column pattern m of a space (at t * N_PATTERNS + m).
C_FIT = C_TILE_KIND + MAX_TILES
# [N_PATTERNS]: mask of the spaces a tile of pattern t fits in some orientation.
C_PATTERN_SPACES = C_FIT + N_PATTERNS * N_PATTERNS
# [N_DIRS * N_SLOTS]: quarter under turntable place k when the arrow points to side d.
C_SLOT_QUARTER = C_PATTERN_SPACES + N_PATTERNS
# [(MAX_PLAYERS + 1) * MAX_PLAYERS]: side of seat p with n players (n * MAX_PLAYERS + p), -1.
C_SEAT_SIDE = C_SLOT_QUARTER + N_DIRS * N_SLOTS
# [(MAX_PLAYERS + 1) * N_DIRS]: seat sitting at side d with n players (n * N_DIRS + d), -1 none.
C_SIDE_SEAT = C_SEAT_SIDE + (MAX_PLAYERS + 1) * MAX_PLAYERS
COMP_SIZE = C_SIDE_SEAT + (MAX_PLAYERS + 1) * N_DIRS

# ---------------------------------------------------------------------------
# Tile locations (state[S_TILE_LOC + tile])
# ---------------------------------------------------------------------------
LOC_BAG = 0
LOC_REMOVED = 1  # surplus central tile out of play (R11)
LOC_BOARD = 2  # on space state[S_TILE_SPACE + tile]
LOC_SLOT = 4  # + k: on turntable place k

# ---------------------------------------------------------------------------
# Game state vector: state = int64[STATE_SIZE]. Scalars first, then blocks.
# p = seat (0 = first player), P = MAX_PLAYERS; a = artisan colour (see below); q = quarter.
#
# Artisan colours: with 3-4 players seat p plays colour p; with 2 players seat p plays colours
# 2p ("A") and 2p + 1 ("B"). Colours of seats that are not in the game keep 0 artisans.
#
#   scalars 0..31 | S_SLOT[4] | S_OPENING[4] | S_COLOUR_MASK[6] | S_ARTISAN_MASK[4]
#   | S_RESERVE[4] | S_MARKER[P*4] | S_SCORE[P*4] | per-seat counters [P] each
#   | S_Q_ARTISANS[4*P] | S_Q_GOLD[4*P] | S_ZONE_BY_COLOUR[P*6] | S_Q_COMPLETED_BY[4]
#   | S_Q_SCORED_TURN[4]
#   | per-space blocks [MAX_SPACES] each | S_TILE_LOC[MAX_TILES] | S_TILE_SPACE[MAX_TILES]
#   | S_BAG[MAX_TILES]
# ---------------------------------------------------------------------------
S_N_PLAYERS = 0
S_RULES = 1  # the rules code (edition + option bits)
S_CUR = 2  # seat to decide, -1 when over
S_PHASE = 3
S_STEP = 4  # actions applied so far
S_TURN = 5  # turns begun (the first turn is 0)
S_RNG = 6  # splitmix64 state of the chance stream (the bag shuffle)
S_SETUP_SEED = 7
S_PLAY_SEED = 8  # seed of the bag order ("bag seed" in the records)
#: The words a hidden-information redraw rewrites every time (no hidden fact of the game).
CHANCE_WORDS = (S_RNG, S_SETUP_SEED, S_PLAY_SEED)
S_FACING = 9  # side the turntable arrow points to (the current player's side)
S_TILES_THIS_TURN = 10  # tiles laid this turn (0, 1, 2)
S_LAST_SPACE = 11  # space of the tile laid last (-1 none); PHASE_ARTISAN places on it
S_BAG_N = 12  # tiles in the bag: state[S_BAG : S_BAG + S_BAG_N], drawn from the end
S_PENDING = 13  # mask of quarters whose last space was filled this turn (scored at its end)
S_SCORED = 14  # mask of quarters scored
S_FILLED = 15  # mask of filled spaces
S_CENTRAL_OUT = 16  # 1 once the central spaces are full and surplus central tiles leave play
S_END_REASON = 17
S_ARTISAN_OPTS = 18  # PHASE_ARTISAN: mask of the legal ART_* options
S_IDLE_TURNS = 19  # turns in a row without a tile laid (the OPT_FREE_REFRESH safeguard)
S_N_REMOVED = 20  # central tiles removed from play
S_N_REFRESHES = 21  # refresh turns, all seats
S_SLOT = 32  # [N_SLOTS] tile on turntable place k, -1 empty
S_OPENING = S_SLOT + N_SLOTS  # [N_SLOTS] the tiles dealt to the turntable at setup
S_COLOUR_MASK = S_OPENING + N_SLOTS  # [N_COLOURS] spaces holding a tile of colour c
S_ARTISAN_MASK = S_COLOUR_MASK + N_COLOURS  # [N_ARTISAN_COLOURS] spaces holding artisan a
S_RESERVE = S_ARTISAN_MASK + N_ARTISAN_COLOURS  # [N_ARTISAN_COLOURS] artisans in reserve
S_MARKER = S_RESERVE + N_ARTISAN_COLOURS  # [P * N_QUARTERS] 1 = face up (p * 4 + q)
S_SCORE = S_MARKER + MAX_PLAYERS * N_QUARTERS  # [P * N_PARTS]
S_TILES_PLACED = S_SCORE + MAX_PLAYERS * N_PARTS  # [P]
S_SECOND_BOUGHT = S_TILES_PLACED + MAX_PLAYERS  # [P] second tiles paid for
S_MARKER_TURNS = S_SECOND_BOUGHT + MAX_PLAYERS  # [P] action markers turned face down
S_REFRESHES = S_MARKER_TURNS + MAX_PLAYERS  # [P] refresh turns
S_ARTISANS_NEW = S_REFRESHES + MAX_PLAYERS  # [P] artisans placed from the reserve
S_ARTISANS_MOVED = S_ARTISANS_NEW + MAX_PLAYERS  # [P] artisans moved onto a new tile
S_COMPLETED = S_ARTISANS_MOVED + MAX_PLAYERS  # [P] quarters whose last space the seat filled
S_BEST_ZONE = S_COMPLETED + MAX_PLAYERS  # [P] largest zone gold of one tile
S_RANK = S_BEST_ZONE + MAX_PLAYERS  # [P] final rank (1 = best, ties share), 0 while playing
S_WINNER = S_RANK + MAX_PLAYERS  # [P] 1 for every (tied) winner
S_Q_ARTISANS = S_WINNER + MAX_PLAYERS  # [N_QUARTERS * P] seat's artisans at quarter q's scoring
S_Q_GOLD = S_Q_ARTISANS + N_QUARTERS * MAX_PLAYERS  # [N_QUARTERS * P] gold from that scoring
S_ZONE_BY_COLOUR = S_Q_GOLD + N_QUARTERS * MAX_PLAYERS  # [P * N_COLOURS] zone gold by tile colour
S_Q_COMPLETED_BY = S_ZONE_BY_COLOUR + MAX_PLAYERS * N_COLOURS  # [N_QUARTERS] seat, -1 never
S_Q_SCORED_TURN = S_Q_COMPLETED_BY + N_QUARTERS  # [N_QUARTERS] turn of the scoring, -1
S_SPACE_TILE = S_Q_SCORED_TURN + N_QUARTERS  # [MAX_SPACES] tile on space, -1 empty
S_SPACE_ARROW = S_SPACE_TILE + MAX_SPACES  # [MAX_SPACES] arrow direction of that tile, -1
S_SPACE_ARTISAN = S_SPACE_ARROW + MAX_SPACES  # [MAX_SPACES] artisan colour on space, -1 none
S_SPACE_BY = S_SPACE_ARTISAN + MAX_SPACES  # [MAX_SPACES] seat who laid the tile, -1
S_SPACE_GOLD = S_SPACE_BY + MAX_SPACES  # [MAX_SPACES] zone + group gold made by laying there
S_TILE_LOC = S_SPACE_GOLD + MAX_SPACES  # [MAX_TILES] LOC_*
S_TILE_SPACE = S_TILE_LOC + MAX_TILES  # [MAX_TILES] space of a tile on the board, -1
S_BAG = S_TILE_SPACE + MAX_TILES  # [MAX_TILES] bag contents (order hidden from every seat)
STATE_SIZE = S_BAG + MAX_TILES

# ---------------------------------------------------------------------------
# Per-game result record written by the batch kernels (one row per player).
# ---------------------------------------------------------------------------
RESULT_DTYPE = np.dtype(
    [
        ("game_id", np.int64),
        ("seat", np.int8),
        ("strategy_id", np.int16),
        ("score", np.int16),
        ("rank", np.int8),
        ("winner", np.bool_),
        ("pts_zones", np.int16),
        ("pts_groups", np.int16),
        ("pts_quarters", np.int16),
        ("pts_second", np.int16),
        ("tiles_placed", np.int8),
        ("second_tiles", np.int8),
        ("marker_turns", np.int8),
        ("refresh_turns", np.int8),
        ("artisans_placed", np.int8),
        ("artisans_moved", np.int8),
        ("quarters_completed", np.int8),
        ("best_zone", np.int8),
        # artisans of the seat (both colours with 2 players) at quarter k's scoring
        ("artisans_q1", np.int8),
        ("artisans_q2", np.int8),
        ("artisans_q3", np.int8),
        ("artisans_q4", np.int8),
        # gold the seat won at quarter k's scoring
        ("gold_q1", np.int16),
        ("gold_q2", np.int16),
        ("gold_q3", np.int16),
        ("gold_q4", np.int16),
        # zone gold the seat made with tiles of colour k (components' colour order, 1-based)
        ("zones_c1", np.int16),
        ("zones_c2", np.int16),
        ("zones_c3", np.int16),
        ("zones_c4", np.int16),
        ("zones_c5", np.int16),
        ("zones_c6", np.int16),
    ]
)
# Per-game setup record (one row per game).
SETUP_DTYPE = np.dtype(
    [
        ("game_id", np.int64),
        ("setup_id", np.int64),
        ("n_turns", np.int16),
        ("n_refreshes", np.int16),
        ("end_reason", np.int8),
        ("central_removed", np.int8),
        ("bag_seed", np.int64),
        # opening[k] = tile dealt to turntable place k at setup (tile index of the components)
        ("opening", np.int16, (N_SLOTS,)),
        # completed_by[q] = seat that filled quarter q's last space, -1 never completed
        ("completed_by", np.int8, (N_QUARTERS,)),
        # scored_turn[q] = turn at whose end quarter q was scored
        ("scored_turn", np.int16, (N_QUARTERS,)),
        # final board: tile on each space (-1 empty) and the gold made by laying it
        ("space_tile", np.int16, (MAX_SPACES,)),
        ("space_gold", np.int16, (MAX_SPACES,)),
        # score_by_round[r, s] = seat s's gold after round of turns r + 1 (rounds past the 32nd
        # fold into the last, which holds the final score), -1 none
        ("score_by_round", np.int32, (MAX_TILES // 2, MAX_PLAYERS)),
    ]
)

#: The most decisions one game can take. A turn is PLACE [ARTISAN] (PLACE [ARTISAN] | STOP), at
#: most 4 decisions, or REFRESH (R9b): at most MAX_TILES turns lay a tile; between two of them a
#: seat refreshes at most once, or, under free_refresh, STALL_ROUNDS rounds pass (R12c); the
#: free_refresh count is the larger.
MAX_GAME_LENGTH = 4 * MAX_TILES + (MAX_TILES + 1) * STALL_ROUNDS * MAX_PLAYERS
