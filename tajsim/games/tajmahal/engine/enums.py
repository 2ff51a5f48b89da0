"""Integer constants shared by the compiled kernels and the Python layer.

Everything the kernels see is a flat ``int64`` array. This module is the single
place that says what each slot means: symbols, colours, goods, card ids, the
action encoding, the packed component array (``comp``) and the game state
vector (``state``). Kernels import the module-level integers (numba freezes them
as compile-time constants); the Python layer uses the same names.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

# ---------------------------------------------------------------------------
# Editions and player counts
# ---------------------------------------------------------------------------
EDITION_2018 = 0
EDITION_2000 = 1
EDITION_NAMES = ("2018", "2000")
MIN_PLAYERS = (2, 3)  # by edition
MAX_PLAYERS = 5
#: The score's direction (``GameSpec.better_score`` is derived from it): the highest wins (R19).
LOWER_SCORE_WINS = False
N_VISITS = 12
HAND_START = 6
DISPLAY_SIZE = (0, 0, 3, 5, 7, 9)  # by player count


# ---------------------------------------------------------------------------
# Court symbols. Advisors 0..3 each win one advisor token (a palace);
# the Grand Mogul wins the crown, the elephant wins the province tile.
# ---------------------------------------------------------------------------
class Symbol(NamedTuple):
    VIZIER: int = 0
    GENERAL: int = 1
    MONK: int = 2
    PRINCESS: int = 3
    MOGUL: int = 4
    ELEPHANT: int = 5


SYM = Symbol()
N_SYMBOLS = 6
N_ADVISORS = 4
SYMBOL_NAMES = ("vizier", "general", "monk", "princess", "mogul", "elephant")
# Seats of the court use the symbol index: seats 0..3 advisor tokens, 4 crown, 5 province tile.
SEAT_CROWN = 4
SEAT_PROVINCE = 5
SEAT_EMPTY = 0  # claimed this visit (or token in a player's hands)
SEAT_PRESENT = 1
SEAT_ASIDE = 2  # set aside by a 2-player protest
TOKENS_PER_ADVISOR = 6

# ---------------------------------------------------------------------------
# Colours and goods
# ---------------------------------------------------------------------------
N_COLOURS = 4
COLOURLESS = 4
COLOUR_NAMES = ("red", "yellow", "green", "blue", "white")


class Good(NamedTuple):
    RICE: int = 0
    TEA: int = 1
    SPICES: int = 2
    JEWELS: int = 3


GOOD = Good()
N_GOODS = 4
GOOD_NAMES = ("rice", "tea", "spices", "jewels")


class Bonus(NamedTuple):
    """Bonus tile kinds. 0..3 are commodities (same index as ``Good``)."""

    RICE: int = 0
    TEA: int = 1
    SPICES: int = 2
    JEWELS: int = 3
    PLUS2: int = 4
    DRAW: int = 5
    TAJ4: int = 6


BONUS = Bonus()
N_BONUS_KINDS = 7
BONUS_NAMES = ("rice", "tea", "spices", "jewels", "plus2", "draw", "taj4")

# ---------------------------------------------------------------------------
# Cards. Ids are fixed: 0..83 coloured (colour = id // 21), 84..95 white
# influence cards, 96..99 the prestige (2000: special) cards.
# ---------------------------------------------------------------------------
N_CARDS = 100
N_DECK_CARDS = 96
N_COLOURED = 84
CARDS_PER_COLOUR = 21
FIRST_WHITE = 84
FIRST_PRESTIGE = 96
PRESTIGE_MIGHT = 96  # 2000: Elephant        - one elephant symbol
PRESTIGE_KNOWLEDGE = 97  # 2000: Grand Mogul - one mogul symbol
PRESTIGE_NOBILITY = 98  # 2000: +2           - scores 2 when played
PRESTIGE_ENLIGHTENMENT = 99  # 2000: Colour Change
PRESTIGE_NAMES_2018 = ("Might", "Knowledge", "Nobility", "Enlightenment")
PRESTIGE_NAMES_2000 = ("Elephant", "Grand Mogul", "+2", "Colour Change")
# Which advisor pair gives which prestige card (index = advisor symbol).
ADVISOR_PRESTIGE = (PRESTIGE_KNOWLEDGE, PRESTIGE_MIGHT, PRESTIGE_ENLIGHTENMENT, PRESTIGE_NOBILITY)

# ---------------------------------------------------------------------------
# Card locations (state[S_CARD_LOC + card])
# ---------------------------------------------------------------------------
LOC_DECK = 0
LOC_DISCARD = 1
LOC_DISPLAY = 2
LOC_UNREST = 3
LOC_SUPPLY = 4  # prestige card beside the board
LOC_HAND = 10  # + player
LOC_ROW = 20  # + player

# ---------------------------------------------------------------------------
# Score parts (state[S_SCORE + p * N_PARTS + part]); they always sum to the score.
# ---------------------------------------------------------------------------
PART_PALACE = 0  # 1 per visit in which the player placed a palace
PART_CONNECTION = 1  # 1 per other province reached by an unbroken chain of palaces
PART_COMMODITY = 2  # goods from bonus tiles and province tiles
PART_BONUS = 3  # +2 and Taj Mahal +4 bonus tiles
PART_SPECIAL = 4  # +2 / Nobility card plays
PART_CARDS = 5  # end of game: colourless cards plus cards of the best colour
N_PARTS = 6
PART_NAMES = ("palace", "connection", "commodity", "bonus", "special", "cards")

# ---------------------------------------------------------------------------
# Decision phases
# ---------------------------------------------------------------------------
PHASE_BID = 0  # play a coloured card (+ optional colourless card) or withdraw
PHASE_PALACE = 1  # place a palace for an advisor token on an open city
PHASE_CROWN = 2  # place the crown palace on any city of the province
PHASE_DISPLAY = 3  # take a card from the display
PHASE_GAME_OVER = 4
PHASE_NAMES = ("bid", "palace", "crown", "display", "game_over")

# ---------------------------------------------------------------------------
# Action encoding: one integer space for every decision.
#   0                         withdraw
#   1 .. 1428                 bid: 1 + coloured_card * 17 + extra, extra 0 = no colourless
#                             card, extra k (1..16) = colourless card FIRST_WHITE + k - 1
#   ACTION_CITY + c           a palace or the crown palace on city c
#   ACTION_TAKE + card        take that card from the display
# ---------------------------------------------------------------------------
ACTION_WITHDRAW = 0
BID_EXTRA = 17
ACTION_BID = 1
ACTION_CITY = ACTION_BID + N_COLOURED * BID_EXTRA  # 1429
MAX_CITIES = 64
ACTION_TAKE = ACTION_CITY + MAX_CITIES  # 1493
N_ACTIONS = ACTION_TAKE + N_DECK_CARDS  # 1589
MAX_LEGAL = N_ACTIONS  # upper bound on legal actions at one decision

# ---------------------------------------------------------------------------
# Packed components: comp = Components.packed(), int64[COMP_SIZE]
# ---------------------------------------------------------------------------
N_PROVINCES = 12
MAX_CITIES_PER_PROVINCE = 8
MAX_ROADS = 160
MAX_BONUS_TILES = 40

C_N_CITIES = 0
C_AGRA_CITY = 1
C_AGRA_PROVINCE = 2
C_N_ROADS = 3
C_N_BONUS_TILES = 4  # square bonus tiles (placed at random on the fortresses other than Agra)
C_CITY_PROVINCE = 8  # [MAX_CITIES]
C_CITY_FORTRESS = C_CITY_PROVINCE + MAX_CITIES  # [MAX_CITIES] 0/1
C_PROV_N_CITIES = C_CITY_FORTRESS + MAX_CITIES  # [N_PROVINCES]
C_PROV_CITIES = C_PROV_N_CITIES + N_PROVINCES  # [N_PROVINCES * MAX_CITIES_PER_PROVINCE], -1 padded
C_ADJ_START = C_PROV_CITIES + N_PROVINCES * MAX_CITIES_PER_PROVINCE  # [MAX_CITIES + 1] CSR
C_ADJ = C_ADJ_START + MAX_CITIES + 1  # [2 * MAX_ROADS] neighbour cities
C_TILE_GOODS = C_ADJ + 2 * MAX_ROADS  # [N_PROVINCES * N_GOODS]; tile t (0-based) = number t + 1
C_BONUS_TILES = C_TILE_GOODS + N_PROVINCES * N_GOODS  # [MAX_BONUS_TILES] Bonus kinds
C_CARD_COLOUR = C_BONUS_TILES + MAX_BONUS_TILES  # [N_CARDS]
C_CARD_SYM = C_CARD_COLOUR + N_CARDS  # [N_CARDS * N_SYMBOLS]
# Card sets as location-mask words (see S_LOC_MASK below), derived from the two tables above so
# that counting cards of a colour or symbol in a location is a popcount:
N_MASK_WORDS = 5
# [N_MASK_WORDS * (N_COLOURS + 1)]: word w of the cards of colour c at w * (N_COLOURS + 1) + c
C_COLOUR_MASK = C_CARD_SYM + N_CARDS * N_SYMBOLS
# [N_MASK_WORDS * N_SYMBOLS * 2]: word w of the deck cards showing symbol s at least once
# (at (w * N_SYMBOLS + s) * 2) and at least twice (+ 1)
C_SYMBOL_MASK = C_COLOUR_MASK + N_MASK_WORDS * (N_COLOURS + 1)
# [MAX_CITIES]: city c's neighbours as bits (uint64 bit patterns stored as int64), from C_ADJ
C_ADJ_MASK = C_SYMBOL_MASK + N_MASK_WORDS * N_SYMBOLS * 2
# [N_PROVINCES]: province p's cities as bits, from C_PROV_CITIES
C_PROV_MASK = C_ADJ_MASK + MAX_CITIES
COMP_SIZE = C_PROV_MASK + N_PROVINCES

# ---------------------------------------------------------------------------
# Game state vector: state = int64[STATE_SIZE]. Scalars first, then blocks.
# p = player (0 = first player of the first visit), P = MAX_PLAYERS.
# ---------------------------------------------------------------------------
S_N_PLAYERS = 0
S_EDITION = 1
S_VISIT = 2  # 0..11 while playing, 12 when over
S_PROVINCE = 3  # province being visited
S_FIRST = 4  # first player of this visit
S_CUR = 5  # player to decide
S_PHASE = 6
S_PENDING = 7  # palaces still to place (PHASE_PALACE) or cards to take (PHASE_DISPLAY)
S_CROWN_PENDING = 8  # withdrawing player still has to place the crown palace
S_CROWN_CITY = 9  # city of this visit's crown palace, -1 if none
S_DECK_TOP = 10  # next card is state[S_DECK + S_DECK_TOP]
S_DECK_LEN = 11  # cards S_DECK_TOP .. S_DECK_LEN - 1 of the deck block are in the deck
S_PROTEST_DONE = 12  # 2 players: a protest already happened this visit
S_STEP = 13  # actions applied so far
S_RNG = 14  # splitmix64 state of the chance stream (read as uint64)
S_WD_PLAYED = 15  # withdrawing player had played at least one card this visit
S_WD_PALACED = 16  # withdrawing player placed at least one palace this turn
S_WD_PROVINCE = 17  # withdrawing player claimed the province tile
S_N_RESHUFFLES = 18
S_N_PROTESTS = 19
S_WD_N_BONUS = 20  # bonus tiles claimed in this withdrawal (kinds at S_WD_BONUS)
S_TURNS = 21  # bid decisions taken (plays + withdrawals)
S_SETUP_SEED = 22
S_PLAY_SEED = 23
#: The words a hidden-information redraw rewrites every time (no hidden fact of the game).
CHANCE_WORDS = (S_RNG, S_PLAY_SEED)
S_DISPLAY_N = 24  # cards in the display
S_DISCARD_N = 25  # cards in the discard pile
S_WD_BONUS = 26  # [6] bonus kinds claimed in this withdrawal, resolved after the palaces
S_SEAT = 32  # [N_SYMBOLS] SEAT_EMPTY / SEAT_PRESENT / SEAT_ASIDE
S_TOKEN_SUPPLY = 38  # [N_ADVISORS]
S_UNREST_SYM = 42  # [N_SYMBOLS] symbols showing in unrest (2 players)
S_UNREST_COLOURS = 48  # [N_COLOURS] coloured cards in unrest
S_PROVINCE_TILE = 52  # [N_PROVINCES] tile index lying on each province (setup)
S_TILE_OWNER = 64  # [N_PROVINCES] by tile: -1 on the board, p claimed, -2 left play unclaimed
S_CARD_LOC = 76  # [N_CARDS]
S_CARD_PUBLIC = S_CARD_LOC + N_CARDS  # [N_CARDS] 1 if every player knows where the card is
S_DECK = S_CARD_PUBLIC + N_CARDS  # [N_DECK_CARDS] deck order
S_BONUS_AT = S_DECK + N_DECK_CARDS  # [MAX_CITIES] bonus kind lying on city, -1 none
S_BONUS_TAKER = S_BONUS_AT + MAX_CITIES  # [MAX_CITIES] player who claimed the city's tile, -1
S_CITY_PALACES = S_BONUS_TAKER + MAX_CITIES  # [MAX_CITIES] palaces on city (all players)
S_PALACES = S_CITY_PALACES + MAX_CITIES  # [MAX_CITIES * P] palaces of player p on city c: c * P + p
S_WITHDRAWN = S_PALACES + MAX_CITIES * MAX_PLAYERS  # [P]
S_ROW_COLOUR = S_WITHDRAWN + MAX_PLAYERS  # [P] colour of the row's first card, -1 empty row
S_ROW_N = S_ROW_COLOUR + MAX_PLAYERS  # [P] cards in the row
S_ROW_SYM = S_ROW_N + MAX_PLAYERS  # [P * N_SYMBOLS]
S_TOKENS = S_ROW_SYM + MAX_PLAYERS * N_SYMBOLS  # [P * N_ADVISORS] advisor tokens held
S_GOODS = S_TOKENS + MAX_PLAYERS * N_ADVISORS  # [P * N_GOODS]
S_BONUS_HELD = S_GOODS + MAX_PLAYERS * N_GOODS  # [P * N_BONUS_KINDS] bonus tiles claimed
S_SCORE = S_BONUS_HELD + MAX_PLAYERS * N_BONUS_KINDS  # [P * N_PARTS]
S_CONN_BY_VISIT = S_SCORE + MAX_PLAYERS * N_PARTS  # [N_VISITS * P] palace + connection pts
S_PRESTIGE_GAINS = S_CONN_BY_VISIT + N_VISITS * MAX_PLAYERS  # [P] prestige cards received
S_RANK = S_PRESTIGE_GAINS + MAX_PLAYERS  # [P] final rank (1 = best), 0 while playing
S_WINNER = S_RANK + MAX_PLAYERS  # [P] 1 for every (tied) winner
S_HAND_N = S_WINNER + MAX_PLAYERS  # [P] cards in hand
S_BONUS_START = S_HAND_N + MAX_PLAYERS  # [MAX_CITIES] bonus kind on each city at setup, -1 none
# Derived location masks (kept by move_card): card bits per location, one word per colour group.
# Word card // 21 for coloured cards (bit card % 21), word 4 for cards 84..99 (bit card - 84);
# N_MASK_WORDS (5) words per block.
MASK_HAND = 0  # + p
MASK_ROW = MAX_PLAYERS  # + p
MASK_DISPLAY = 2 * MAX_PLAYERS
MASK_UNREST = 2 * MAX_PLAYERS + 1
MASK_DECK = 2 * MAX_PLAYERS + 2
MASK_DISCARD = 2 * MAX_PLAYERS + 3
N_MASK_LOCS = 2 * MAX_PLAYERS + 4
MASK_PUBLIC = N_MASK_LOCS  # not a location: the cards with S_CARD_PUBLIC == 1
N_MASK_BLOCKS = N_MASK_LOCS + 1
S_LOC_MASK = S_BONUS_START + MAX_CITIES  # [N_MASK_BLOCKS * N_MASK_WORDS]
# Card shortages (R3: with the deck and the discard pile both empty, players get what is left).
S_SHORT_DEALS = S_LOC_MASK + N_MASK_BLOCKS * N_MASK_WORDS  # visits whose display was dealt short
S_DISPLAY_SHORT = S_SHORT_DEALS + 1  # display cards not dealt, over the game
S_EXHAUSTED_VISIT = S_SHORT_DEALS + 2  # first visit (1..12) a draw found no card; 0 never
S_DISPLAY_MISSED = S_SHORT_DEALS + 3  # [P] display cards a player was owed but not given
S_DECK_MISSED = S_DISPLAY_MISSED + MAX_PLAYERS  # [P] deck draws a player was owed but not given
# Derived palace index (kept by add_palace): the cities holding a palace of p as bits, cities
# 0..31 in word p * 2 (bit city), 32..63 in word p * 2 + 1 (bit city - 32).
S_PALACE_BITS = S_DECK_MISSED + MAX_PLAYERS  # [P * 2]
# The whole rules code (S_EDITION keeps the edition alone): the seat-compensation variant's
# amounts ride in its high bits (tajsim.engine.compensation).
S_RULES = S_PALACE_BITS + MAX_PLAYERS * 2
STATE_SIZE = S_RULES + 1

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
        ("pts_palace", np.int16),
        ("pts_connection", np.int16),
        ("pts_commodity", np.int16),
        ("pts_bonus", np.int16),
        ("pts_special", np.int16),
        ("pts_cards", np.int16),
        ("goods_rice", np.int8),
        ("goods_tea", np.int8),
        ("goods_spices", np.int8),
        ("goods_jewels", np.int8),
        ("n_palaces", np.int16),
        ("n_province_tiles", np.int8),
        ("n_bonus_tiles", np.int8),
        ("n_prestige", np.int8),
        ("hand_end", np.int16),
        # Cards the player was owed but not given because the deck and the discard pile were
        # both empty (R3): display cards to take, and deck draws.
        ("display_cards_missed", np.int8),
        ("deck_cards_missed", np.int8),
    ]
)
# Per-game setup record (one row per game): what the analysis layer groups by.
SETUP_DTYPE = np.dtype(
    [
        ("game_id", np.int64),
        ("setup_id", np.int64),
        ("n_turns", np.int16),
        ("n_reshuffles", np.int8),
        ("n_protests", np.int8),
        # Card shortages (R3): visits whose display was dealt short, the display cards not
        # dealt, and the first visit (1..12) in which a draw found no card (0: never).
        ("n_short_deals", np.int8),
        ("display_cards_short", np.int8),
        ("exhausted_visit", np.int8),
        # province_order[k] = province visited at visit k
        ("province_order", np.int8, (N_PROVINCES,)),
        # bonus_at[c] = Bonus kind lying on city c at the start, -1 none
        ("bonus_at", np.int8, (MAX_CITIES,)),
        # tile_owner[t] = seat that claimed province tile t (visit t), -1 nobody
        ("tile_owner", np.int8, (N_PROVINCES,)),
        # conn_by_visit[k, s] = palace + connection points seat s scored at visit k
        ("conn_by_visit", np.int8, (N_VISITS, MAX_PLAYERS)),
        # score_by_round[k, s] = seat s's score after visit k + 1 (the last: final), -1 none
        ("score_by_round", np.int32, (N_VISITS, MAX_PLAYERS)),
    ]
)

#: The table size played when none is given.
DEFAULT_PLAYERS = 4
#: The most decisions one game can take. Per visit (R4-R13): each bid lays one of the N_COLOURED
#: coloured cards (none comes back into a hand still in the visit), each seat withdraws once and
#: takes at most two display cards, each advisor token claimed places one palace, the crown one
#: more.
MAX_GAME_LENGTH = N_VISITS * (N_COLOURED + 3 * MAX_PLAYERS + N_ADVISORS + 1)
