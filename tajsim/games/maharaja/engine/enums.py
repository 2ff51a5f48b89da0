"""Integer constants of Maharaja shared by the compiled kernels and the Python layer.

Everything the kernels see is a flat ``int64`` array. This module is the one place that says
what each slot means: the nine actions and their 45 pairs, the characters, the action encoding,
the packed components (``comp``) and the game state vector (``state``). Kernels import the
module-level integers (numba freezes them as compile-time constants); the Python layer uses the
same names. Rule numbers (R1 ...) refer to ``docs/games/maharaja/rules.md``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# ---------------------------------------------------------------------------------------------
# Editions, players, rule options (bits of the rules code, see GameSpec.rules_code)
# ---------------------------------------------------------------------------------------------
EDITION_BASIC = 0
EDITION_NAMES = ("basic",)
MIN_PLAYERS = 2
MAX_PLAYERS = 5
#: The score's direction (``GameSpec.better_score`` is derived from it): the highest wins (R40).
LOWER_SCORE_WINS = False
P = MAX_PLAYERS
RULES_EDITION_MASK = 0xFF

OPT_NO_LONE_BONUS = 8  # R31: no +5 gold for a lone scorer
OPT_PENALTY_PER_TURN = 9  # R17: 2 gold per turn with an unperformed action, not per action
OPT_STATIC_ORDER = 10  # R15: turn order fixed at the reveal, not re-read after each turn
OPT_FREE_PALACE_SITE = 11  # R22: the builder picks centre or outer, centre not first
OPT_UNLIMITED_HOUSES = 12  # R6: the quarry never runs out (houses not limited to 20 a colour)
OPT_SEVERAL_PALACES = 13  # R21: a player may build more than one palace in a city
OPT_TEN_ROUNDS = 14  # R39: the game ends after round 10 whatever the governor track shows (R27)
# Variants (not the rules; docs/games/maharaja/rules.md "Variants (not the rules)"):
OPT_REVERSED_DRAFT = 15  # V1: the last seat drafts its character first, seat 0 last
OPT_RANDOM_DRAFT = 16  # V2: the draft order is a permutation drawn from the setup stream
OPT_HALF_MONK = 17  # V3: the bank pays half the Wandering Monk's tolls (rounded up), he the rest


# ---------------------------------------------------------------------------------------------
# The nine actions of the action disc and their 45 unordered pairs (R11)
# ---------------------------------------------------------------------------------------------
class Act(NamedTuple):
    GOLD: int = 0  # +2 gold
    HOUSE: int = 1  # build 1 house (village, or the architect's city)
    TWO_HOUSES: int = 2  # build 2 houses, at least one in the architect's city
    MOVE_HOUSE: int = 3  # move one own house
    QUARRY: int = 4  # take 2 houses from the quarry into the pool
    PALACE: int = 5  # build a palace in the architect's city
    PALACE_HOUSE: int = 6  # a palace and a house
    GOVERNOR: int = 7  # move a governor 2 boxes down
    CHARACTER: int = 8  # take a character card


ACT = Act()
N_ACT = 9
ACT_NAMES = ("gold", "house", "two houses", "move house", "quarry", "palace",
             "palace+house", "governor", "character")
ACT_SLUGS = ("gold", "house", "two_houses", "move_house", "quarry", "palace", "palace_house",
             "governor", "character")
N_PAIRS = N_ACT * (N_ACT + 1) // 2  # 45
# pair k = (PAIR_A[k], PAIR_B[k]) with PAIR_A[k] <= PAIR_B[k], in lexicographic order
PAIR_A = np.array([a for a in range(N_ACT) for b in range(a, N_ACT)], np.int64)
PAIR_B = np.array([b for a in range(N_ACT) for b in range(a, N_ACT)], np.int64)


def pair_index(a: int, b: int) -> int:
    """Index (0..44) of the unordered action pair {a, b}."""
    a, b = min(a, b), max(a, b)
    return a * N_ACT - a * (a - 1) // 2 + (b - a)


# ---------------------------------------------------------------------------------------------
# Characters (R33-R38). Card k carries the number k + 1; lower numbers act first and win ties.
# The Yogi (7) belongs to an advanced game whose text is public nowhere: left out.
# ---------------------------------------------------------------------------------------------
class Card(NamedTuple):
    MOGUL: int = 0
    TRADER: int = 1
    SADHU: int = 2
    MONK: int = 3  # the Wandering Monk
    BUILDER: int = 4
    ARTISAN: int = 5


CARD = Card()
N_CARDS = 6
CARD_NAMES = ("Mogul", "Trader", "Sadhu", "Wandering Monk", "Builder", "Artisan")

# ---------------------------------------------------------------------------------------------
# Board sizes. Junctions 0..6 are the cities (city c = junction c), junction 7 the start.
# Locations (where houses stand): villages 0..29, then city c at LOC_CITY + c.
# ---------------------------------------------------------------------------------------------
N_CITIES = 7
N_JUNCTIONS = N_CITIES + 1
START = N_CITIES  # junction index of the start location
N_VILLAGES = 30
LOC_CITY = N_VILLAGES
N_LOCS = N_VILLAGES + N_CITIES  # 37
MAX_ROADS = 20  # 8 junctions of at most 5 roads
MAX_DEGREE = 5
MIN_DEGREE = 3
MAX_ROAD_VILLAGES = 2
N_SITES = 7  # palace sites per city: site 0 the centre, 1..6 outer
SITE_CENTRE = 0
SITE_EMPTY = -1
SITE_NEUTRAL = -2  # an unused colour's palace (R4)
N_GOVERNORS = N_CITIES
TRACK_START_BOXES = 7  # boxes above the arrow (governor positions 1..7 at setup)
MAX_ROUND_BOXES = 16  # upper bound on the round boxes a components file may declare
TRACK_SIZE = TRACK_START_BOXES + MAX_ROUND_BOXES + 1  # positions 0..23, 0 unused
MAX_ROUNDS = 30  # R29: simulator bound (never reached by the 10-box track in practice)
MAX_TRAVELS_PER_TURN = 2 * N_JUNCTIONS  # R9: simulator bound on road steps in one turn
PALACE_POINTS = 10_000  # score = PALACE_POINTS * palaces + gold (R40)
N_ORDERS = 5040  # 7! governor orders
ENUM_SETUP_BASE = 1 << 40  # setup ids ENUM_SETUP_BASE + k (k < 5040) name order k (Lehmer)

# ---------------------------------------------------------------------------------------------
# Score parts (state[S_PARTS + p * N_PARTS + part]); they sum to the score.
# ---------------------------------------------------------------------------------------------
PART_PALACES = 0  # PALACE_POINTS per palace
PART_START = 1  # starting gold
PART_CITY = 2  # city scoring by rank
PART_LONE = 3  # lone-scorer bonus
PART_TOLLS_IN = 4  # tolls received from travellers (and from the bank for the Monk)
PART_GOLD_ACTION = 5  # the gold action
PART_TRADER = 6  # the Trader's gold
PART_PENALTIES_IN = 7  # 2 gold for each action another player did not carry out
PART_BUILD_SPENT = 8  # houses and palaces paid (<= 0)
PART_TOLLS_OUT = 9  # tolls paid (<= 0)
N_PARTS = 10
PART_NAMES = ("palaces", "start", "city", "lone", "tolls_in", "gold_action", "trader",
              "penalties_in", "build_spent", "tolls_out")
GOLD_PARTS = tuple(range(PART_START, N_PARTS))

# ---------------------------------------------------------------------------------------------
# Decision phases
# ---------------------------------------------------------------------------------------------
PHASE_DRAFT = 0  # setup: take a character card (seat order)
PHASE_SETUP_HOUSE = 1  # setup: place a free house in a village (card order, 4 rounds)
PHASE_PICK = 2  # secret choice of an action pair (seat order; hidden until the reveal)
PHASE_TURN = 3  # the revealed turn: travel, builds, moves, governor, card ... done
PHASE_MOVE_TO = 4  # destination of a house being moved
PHASE_REPLACE = 5  # a player whose card was taken picks one from the bank
PHASE_GAME_OVER = 6
PHASE_NAMES = ("draft", "setup_house", "pick", "turn", "move_to", "replace", "game_over")

END_NONE = 0
END_PALACES = 1  # someone built a 7th palace
END_TRACK = 2  # a governor reached the last round box
END_BOTH = 3
END_ROUND_CAP = 4  # R29: MAX_ROUNDS played
END_CAUSE_NAMES = ("none", "seventh_palace", "round_10", "both", "round_cap")

# ---------------------------------------------------------------------------------------------
# Action encoding: one integer space for every decision.
#   ACTION_PICK + k         secret choice of action pair k (0..44)
#   ACTION_DONE             end the turn (unperformed actions are penalised, R17)
#   ACTION_TRAVEL + r       move the architect along road r to its other end (tolls, R8-R9)
#   ACTION_BUILD + loc      build a paid house at location loc; in PHASE_SETUP_HOUSE the free
#                           initial house in village loc
#   ACTION_FREE_BUILD + loc the Builder's free house at loc (R37)
#   ACTION_MOVE_FROM + loc  start moving one own house away from loc
#   ACTION_MOVE_TO + loc    ... to loc (PHASE_MOVE_TO)
#   ACTION_PALACE + s       a palace in the architect's city, s = 0 centre, 1 an outer site
#   ACTION_GOVERNOR + c     move city c's governor 2 boxes down (R25)
#   ACTION_CARD + k         take character card k (draft, the character action, replacement)
# ---------------------------------------------------------------------------------------------
ACTION_PICK = 0
ACTION_DONE = ACTION_PICK + N_PAIRS  # 45
ACTION_TRAVEL = ACTION_DONE + 1  # 46
ACTION_BUILD = ACTION_TRAVEL + MAX_ROADS  # 66
ACTION_FREE_BUILD = ACTION_BUILD + N_LOCS  # 103
ACTION_MOVE_FROM = ACTION_FREE_BUILD + N_LOCS  # 140
ACTION_MOVE_TO = ACTION_MOVE_FROM + N_LOCS  # 177
ACTION_PALACE = ACTION_MOVE_TO + N_LOCS  # 214
ACTION_GOVERNOR = ACTION_PALACE + 2  # 216
ACTION_CARD = ACTION_GOVERNOR + N_GOVERNORS  # 223
N_ACTIONS = ACTION_CARD + N_CARDS  # 229

# ---------------------------------------------------------------------------------------------
# Packed components: comp = Components.packed(), int64[COMP_SIZE]
#
#   roads     C_ROAD_A[r], C_ROAD_B[r]  junctions joined by road r (r < C_N_ROADS)
#             C_ROAD_NV[r]              villages on it (1 or 2), C_ROAD_VIL[2r..2r+1] (-1 pad)
#             C_ROAD_TRAFFIC[r]         shortest city-to-city paths using the road (heuristics)
#   junction  C_JUNC_NROADS[j], C_JUNC_ROADS[j * MAX_DEGREE + i]  roads at junction j
#             C_HOPS[i * N_JUNCTIONS + j]  fewest roads between junctions i and j
#   village   C_VILLAGE_ROAD[v]
#   numbers   gold table C_GOLD_TABLE[n * MAX_PLAYERS + rank] (n = players), costs, points ...
# ---------------------------------------------------------------------------------------------
_c = 0


def _comp_slot(size: int = 1) -> int:
    global _c
    start = _c
    _c += size
    return start


C_N_ROADS = _comp_slot()
C_START_GOLD = _comp_slot()
C_HOUSE_COST = _comp_slot()
C_PALACE_COST = _comp_slot()
C_ARTISAN_COST = _comp_slot()
C_TOLL = _comp_slot()  # gold per house of another player in a village passed
C_PENALTY = _comp_slot()  # gold to each other player per unperformed action
C_LONE_BONUS = _comp_slot()
C_HOUSES_PER_COLOUR = _comp_slot()
C_START_HOUSES = _comp_slot()  # free initial houses per player
C_QUARRY_GIFT = _comp_slot()  # houses from the quarry after the initial placement
C_QUARRY_TAKE = _comp_slot()  # houses per quarry action
C_GOLD_ACTION = _comp_slot()
C_TRADER_GOLD = _comp_slot()
C_PALACES_PER_PLAYER = _comp_slot()
C_PTS_ARCHITECT = _comp_slot()
C_PTS_HOUSE = _comp_slot()
C_PTS_OUTER = _comp_slot()
C_PTS_CENTRE = _comp_slot()
C_PTS_SADHU_OUTER = _comp_slot()
C_VILLAGE_CAP = _comp_slot()
C_VILLAGE_CAP_2P = _comp_slot()
C_ROUND_BOXES = _comp_slot()
C_GOVERNOR_STEP = _comp_slot()
C_GOLD_TABLE = _comp_slot((MAX_PLAYERS + 1) * MAX_PLAYERS)
C_ROAD_A = _comp_slot(MAX_ROADS)
C_ROAD_B = _comp_slot(MAX_ROADS)
C_ROAD_NV = _comp_slot(MAX_ROADS)
C_ROAD_VIL = _comp_slot(MAX_ROADS * MAX_ROAD_VILLAGES)
C_ROAD_TRAFFIC = _comp_slot(MAX_ROADS)
C_JUNC_NROADS = _comp_slot(N_JUNCTIONS)
C_JUNC_ROADS = _comp_slot(N_JUNCTIONS * MAX_DEGREE)
C_HOPS = _comp_slot(N_JUNCTIONS * N_JUNCTIONS)
C_VILLAGE_ROAD = _comp_slot(N_VILLAGES)
# Derived from the words above (left out of Components.digest): road r's villages as bits
C_ROAD_VMASK = _comp_slot(MAX_ROADS)
COMP_SIZE = _c

# ---------------------------------------------------------------------------------------------
# Game state vector: state = int64[STATE_SIZE]. Scalars first, then blocks.
#
#   governor track   S_BOX[pos] = city whose governor stands at position pos (-1 empty);
#                    positions 1..7 are the start boxes above the arrow (1 = bottom), position
#                    7 + k is round box k. S_GOV_POS[c] is the inverse. The Maharaja visits the
#                    city of the lowest governor; that governor then goes above the topmost.
#   houses           S_HOUSES[loc * P + p] houses of player p at location loc;
#                    S_LOC_TOTAL[loc] all players' houses there.
#   palaces          S_SITE[c * N_SITES + s] owner of site s of city c: a seat, SITE_EMPTY or
#                    SITE_NEUTRAL (site 0 = centre).
#   turn             S_T_* describe the turn of S_TURN_PLAYER: allowances from the revealed
#                    pair and what has been done so far.
# ---------------------------------------------------------------------------------------------
_s = 0


def _state_slot(size: int = 1) -> int:
    global _s
    start = _s
    _s += size
    return start


S_N_PLAYERS = _state_slot()
S_RULES = _state_slot()  # the rules code (edition + option bits)
S_ROUND = _state_slot()  # 1.. while playing (0 during setup)
S_PHASE = _state_slot()
S_CUR = _state_slot()  # seat to decide, -1 when over
S_STEP = _state_slot()  # actions applied
S_RNG = _state_slot()  # chance stream (splitmix64; Maharaja has no chance after setup)
S_SETUP_SEED = _state_slot()
S_PLAY_SEED = _state_slot()
#: The words a hidden-information redraw rewrites every time (no hidden fact of the game).
CHANCE_WORDS = (S_RNG,)
S_MAHARAJA = _state_slot()  # junction of the Maharaja
S_TURN_PLAYER = _state_slot()  # seat whose turn it is (PHASE_TURN / MOVE_TO / REPLACE)
S_COUNTER = _state_slot()  # draft / setup-house / pick progress
S_MOVE_FROM = _state_slot()  # location of the house being moved, -1
S_END_CAUSE = _state_slot()
S_END_ROUND = _state_slot()
S_GOV_TOP = _state_slot()  # position of the topmost governor
S_ROUND_BOX = _state_slot()  # round box reached by this round's governor
S_ORDER_INDEX = _state_slot()  # Lehmer index (0..5039) of the setup governor order
S_N_TURNS = _state_slot()
S_MONK_TOLLS = _state_slot()  # tolls the bank paid for the Wandering Monk
S_T_SLOT0 = _state_slot()  # the revealed actions of the turn player
S_T_SLOT1 = _state_slot()
S_T_PAL_ALLOWED = _state_slot()
S_T_PAL_BUILT = _state_slot()
S_T_HOUSES_ALLOWED = _state_slot()  # paid houses the pair allows
S_T_MIN_CITY = _state_slot()  # of which at least this many in a city (two-houses actions)
S_T_CITY_BUILT = _state_slot()
S_T_VILLAGE_BUILT = _state_slot()
S_T_MOVES_ALLOWED = _state_slot()
S_T_MOVES_DONE = _state_slot()
S_T_GOV_ALLOWED = _state_slot()
S_T_GOV_DONE = _state_slot()
S_T_CHAR_ALLOWED = _state_slot()
S_T_CHAR_DONE = _state_slot()
S_T_QUARRY_SHORT = _state_slot()  # quarry actions that got fewer than 2 houses
S_T_BUILDER_USED = _state_slot()
S_T_TRADER_PAID = _state_slot()
S_T_TRAVELS = _state_slot()
S_BOX = _state_slot(TRACK_SIZE)
S_GOV_POS = _state_slot(N_GOVERNORS)
S_GOV_ORDER0 = _state_slot(N_GOVERNORS)  # setup: city of the governor at position 1..7
S_CARD_OWNER = _state_slot(N_CARDS)  # seat holding card k, -1 in the bank
S_CARD_OF = _state_slot(P)  # card held by seat p, -1 none (only during a replacement)
S_FIRST_CARD = _state_slot(P)  # card drafted at setup
S_PICK = _state_slot(P)  # pair chosen this round, -1 not yet (hidden until S_REVEALED)
S_REVEALED = _state_slot(P)
S_ACTED = _state_slot(P)
S_ORDER = _state_slot(P)  # static turn order of this round (OPT_STATIC_ORDER)
S_ARCH = _state_slot(P)  # junction of each architect
S_GOLD = _state_slot(P)
S_POOL = _state_slot(P)  # houses ready to build
S_QUARRY = _state_slot(P)  # houses of that colour still in the quarry
S_PALACES = _state_slot(P)
S_CENTRAL = _state_slot(P)  # of which central
S_HOUSES = _state_slot(N_LOCS * P)
S_LOC_TOTAL = _state_slot(N_LOCS)
S_SITE = _state_slot(N_CITIES * N_SITES)
S_PARTS = _state_slot(P * N_PARTS)
# statistics for the records (never read by the rules)
S_PEN_COUNT = _state_slot(P)  # actions this player left unperformed
S_PEN_BY_ACT = _state_slot(P * N_ACT)  # unperformed actions of each seat, by kind
S_TOLL_BY_VILLAGE = _state_slot(N_VILLAGES)  # tolls earned in each village
S_CARD_BY_ROUND = _state_slot(MAX_ROUNDS * P)  # card held at each round's scoring, -1
S_PALACE_ROUND = _state_slot(P * N_CITIES)  # round of each player's k-th palace, 0 none
S_GOV_MOVES = _state_slot(P)
S_CHOSEN = _state_slot(P * N_ACT)  # actions of each kind each seat revealed
S_HOUSES_BUILT = _state_slot(P)  # paid, free and setup houses placed
S_HOUSE_MOVES = _state_slot(P)
S_VISIT_CITY = _state_slot(MAX_ROUNDS)  # city scored in each round, -1
S_RANK = _state_slot(P)  # final rank (1 = winner), 0 while playing
S_WINNER = _state_slot(P)
S_DRAFT_SEAT = _state_slot(P)  # seat that drafts k-th (R3; V1/V2 change it), -1 unused
STATE_SIZE = _s

del _c, _s

# ---------------------------------------------------------------------------------------------
# Records written by the batch kernels
# ---------------------------------------------------------------------------------------------
RESULT_DTYPE = np.dtype(
    [("game_id", np.int64), ("seat", np.int8), ("strategy_id", np.int16),
     ("score", np.int32), ("rank", np.int8), ("winner", np.bool_)]
    + [(f"pts_{name}", np.int32) for name in PART_NAMES]
    + [
        ("palaces", np.int8),
        ("palaces_central", np.int8),
        ("palaces_outer", np.int8),
        ("gold", np.int16),
        ("houses_board", np.int8),  # houses standing at the end
        ("houses_city", np.int8),
        ("houses_village", np.int8),
        ("houses_built", np.int8),  # houses placed during the game (setup included)
        ("house_moves", np.int8),
        ("tolls_paid", np.int16),  # gold the seat paid (the Monk's are in monk_tolls)
        ("tolls_received", np.int16),
        ("penalties", np.int8),  # own actions not carried out
        ("governor_moves", np.int8),
        ("card_first", np.int8),  # character drafted at setup (0 = Mogul ... 5 = Artisan)
        ("card_final", np.int8),
    ]
    # chose_<action>: how often the seat revealed that action (a pair counts both)
    + [(f"chose_{slug}", np.int8) for slug in ACT_SLUGS]
    # missed_<action>: how often the seat left that action unperformed (R17)
    + [(f"missed_{slug}", np.int8) for slug in ACT_SLUGS]
)
SETUP_DTYPE = np.dtype(
    [
        ("game_id", np.int64),
        ("setup_id", np.int64),
        ("n_rounds", np.int8),
        ("end_cause", np.int8),  # END_* code
        ("n_actions", np.int16),
        ("order_index", np.int16),  # Lehmer index of the governor order (0..5039)
        ("monk_tolls", np.int16),  # tolls the bank paid for the Wandering Monk
        # governor_order[k] = city of the governor at start box k + 1 (box 1 = bottom = visited
        # first)
        ("governor_order", np.int8, (N_GOVERNORS,)),
        # visit_city[r] = city scored in round r + 1, -1 after the end
        ("visit_city", np.int8, (MAX_ROUNDS,)),
        # card_by_round[r, s] = character held by seat s at round r + 1's scoring, -1
        ("card_by_round", np.int8, (MAX_ROUNDS, MAX_PLAYERS)),
        # palace_round[s, k] = round in which seat s built its (k + 1)-th palace, 0 never
        ("palace_round", np.int8, (MAX_PLAYERS, N_CITIES)),
        # tolls_by_village[v] = gold earned by house owners in village v
        ("tolls_by_village", np.int16, (N_VILLAGES,)),
        # village_houses[v] = houses standing in village v at the end
        ("village_houses", np.int8, (N_VILLAGES,)),
        # score_by_round[r, s] = seat s's score after round r + 1 (the last: final), -1 none;
        # turn_by_round[r, s] = its place (0 first) in round r + 1's reveal order, -1 none
        ("score_by_round", np.int32, (MAX_ROUNDS, MAX_PLAYERS)),
        ("turn_by_round", np.int8, (MAX_ROUNDS, MAX_PLAYERS)),
        ("draft_pos_by_seat", np.int8, (MAX_PLAYERS,)),  # place (0 first) in the draft, -1
    ]
)

#: The table size played when none is given.
DEFAULT_PLAYERS = 4
#: Decisions of one turn besides road steps (R12-R22, R37): at most 10 building or moving houses
#: (four paid houses, two moves of two decisions each, the Builder's house or move), 2 palaces,
#: 2 governors, 2 character cards with a replacement each, and `done`: 19, rounded up.
MAX_TURN_OTHER_DECISIONS = 20
#: The most decisions one game can take: a draft pick per card, at most 10 setup houses a seat
#: (the components' range), then at most MAX_ROUNDS rounds (R29) of a secret pick and one turn
#: per seat of at most MAX_TRAVELS_PER_TURN road steps (R9) and MAX_TURN_OTHER_DECISIONS others.
MAX_GAME_LENGTH = (N_CARDS + 10 * MAX_PLAYERS
                   + MAX_ROUNDS * MAX_PLAYERS * (1 + MAX_TRAVELS_PER_TURN
                                                 + MAX_TURN_OTHER_DECISIONS))
