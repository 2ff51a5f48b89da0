"""The rules of Taj Mahal as Numba kernels over flat ``int64`` arrays.

Two arrays carry everything:

* ``comp``: int64[COMP_SIZE], the packed components (board, tiles, cards); read only.
* ``state``: int64[STATE_SIZE], one game; layout in :mod:`tajsim.games.tajmahal.engine.enums`.

The game is a state machine of decisions (``PHASE_*``): ``legal_actions_nb`` lists the legal
actions of the player to move (``state[S_CUR]``) and ``apply_action_nb`` applies one. Chance
(shuffles, reshuffles, unrest draws) uses the stream stored in ``state[S_RNG]``, so a game is a pure
function of its seeds and its actions. Every kernel also runs uncompiled (``NUMBA_DISABLE_JIT=1``).

Rule decisions are cited in ``docs/rules.md`` (R-numbers in comments below).
"""

from __future__ import annotations

import numpy as np
from numba import types
from numba.extending import intrinsic

from tajsim.engine.arrays import borrowed
from tajsim.engine.compensation import RULES_MASK, seat_compensation
from tajsim.engine.ranking import rank_seats, ranking_key
from tajsim.engine.rng import game_seeds, seed_policy_streams, shuffle_slice
from tajsim.engine.targets import into_play_loop, kernel
from tajsim.games.tajmahal.engine.enums import (
    ACTION_BID,
    ACTION_CITY,
    ACTION_TAKE,
    ACTION_WITHDRAW,
    ADVISOR_PRESTIGE,
    BID_EXTRA,
    BONUS,
    C_ADJ_MASK,
    C_AGRA_CITY,
    C_AGRA_PROVINCE,
    C_BONUS_TILES,
    C_CARD_COLOUR,
    C_CARD_SYM,
    C_CITY_FORTRESS,
    C_COLOUR_MASK,
    C_N_BONUS_TILES,
    C_N_CITIES,
    C_PROV_CITIES,
    C_PROV_MASK,
    C_PROV_N_CITIES,
    C_TILE_GOODS,
    COLOURLESS,
    DISPLAY_SIZE,
    EDITION_2000,
    EDITION_2018,
    FIRST_PRESTIGE,
    FIRST_WHITE,
    HAND_START,
    LOC_DECK,
    LOC_DISCARD,
    LOC_DISPLAY,
    LOC_HAND,
    LOC_ROW,
    LOC_SUPPLY,
    LOC_UNREST,
    LOWER_SCORE_WINS,
    MASK_DECK,
    MASK_DISCARD,
    MASK_DISPLAY,
    MASK_HAND,
    MASK_PUBLIC,
    MASK_ROW,
    MASK_UNREST,
    MAX_CITIES,
    MAX_CITIES_PER_PROVINCE,
    MAX_PLAYERS,
    N_ADVISORS,
    N_BONUS_KINDS,
    N_CARDS,
    N_COLOURED,
    N_COLOURS,
    N_DECK_CARDS,
    N_GOODS,
    N_MASK_BLOCKS,
    N_MASK_WORDS,
    N_PARTS,
    N_PROVINCES,
    N_SYMBOLS,
    N_VISITS,
    PART_BONUS,
    PART_CARDS,
    PART_COMMODITY,
    PART_CONNECTION,
    PART_PALACE,
    PART_SPECIAL,
    PHASE_BID,
    PHASE_CROWN,
    PHASE_DISPLAY,
    PHASE_GAME_OVER,
    PHASE_PALACE,
    PRESTIGE_ENLIGHTENMENT,
    PRESTIGE_NOBILITY,
    S_BONUS_AT,
    S_BONUS_HELD,
    S_BONUS_START,
    S_BONUS_TAKER,
    S_CARD_LOC,
    S_CARD_PUBLIC,
    S_CITY_PALACES,
    S_CONN_BY_VISIT,
    S_CROWN_CITY,
    S_CROWN_PENDING,
    S_CUR,
    S_DECK,
    S_DECK_LEN,
    S_DECK_MISSED,
    S_DECK_TOP,
    S_DISCARD_N,
    S_DISPLAY_MISSED,
    S_DISPLAY_N,
    S_DISPLAY_SHORT,
    S_EDITION,
    S_EXHAUSTED_VISIT,
    S_FIRST,
    S_GOODS,
    S_HAND_N,
    S_LOC_MASK,
    S_N_PLAYERS,
    S_N_PROTESTS,
    S_N_RESHUFFLES,
    S_PALACE_BITS,
    S_PALACES,
    S_PENDING,
    S_PHASE,
    S_PLAY_SEED,
    S_PRESTIGE_GAINS,
    S_PROTEST_DONE,
    S_PROVINCE,
    S_PROVINCE_TILE,
    S_RANK,
    S_RNG,
    S_ROW_COLOUR,
    S_ROW_N,
    S_ROW_SYM,
    S_RULES,
    S_SCORE,
    S_SEAT,
    S_SETUP_SEED,
    S_SHORT_DEALS,
    S_STEP,
    S_TILE_OWNER,
    S_TOKEN_SUPPLY,
    S_TOKENS,
    S_TURNS,
    S_UNREST_COLOURS,
    S_UNREST_SYM,
    S_VISIT,
    S_WD_BONUS,
    S_WD_N_BONUS,
    S_WD_PALACED,
    S_WD_PLAYED,
    S_WD_PROVINCE,
    S_WINNER,
    S_WITHDRAWN,
    SEAT_ASIDE,
    SEAT_CROWN,
    SEAT_EMPTY,
    SEAT_PRESENT,
    SEAT_PROVINCE,
    TOKENS_PER_ADVISOR,
)

P = MAX_PLAYERS


# ---------------------------------------------------------------------------
# Small accessors
# ---------------------------------------------------------------------------
@kernel(inline="always")
def card_colour(comp, card):
    return comp[C_CARD_COLOUR + card]


@kernel(inline="always")
def card_sym(comp, card, sym):
    return comp[C_CARD_SYM + card * N_SYMBOLS + sym]


@kernel(inline="always")
def bid_cards(action):
    """The cards of a bid action: (the coloured card, the colourless extra card or -1)."""
    code = action - ACTION_BID
    extra_slot = code % BID_EXTRA
    return code // BID_EXTRA, FIRST_WHITE + extra_slot - 1 if extra_slot > 0 else -1


@kernel(inline="always")
def bid_symbols(comp, card, extra, sym):
    """Symbols ``sym`` a bid shows: the coloured ``card`` and the ``extra`` card (-1: none)."""
    k = comp[C_CARD_SYM + card * N_SYMBOLS + sym]
    if extra >= 0:
        k += comp[C_CARD_SYM + extra * N_SYMBOLS + sym]
    return k


@kernel(inline="always")
def score_of(state, p):
    """Total score of player ``p`` (the sum of its parts)."""
    total = 0
    for k in range(N_PARTS):
        total += state[S_SCORE + p * N_PARTS + k]
    return total


@kernel(inline="always")
def is_open_city(state, city):
    """A city is open if it has no palace, or only this visit's crown palace (rule R7)."""
    n = state[S_CITY_PALACES + city]
    return n == 0 or (n == 1 and state[S_CROWN_CITY] == city)


# de Bruijn table: index of the single set bit of a 32-bit power of two
DEBRUIJN = np.array([0, 1, 28, 2, 29, 14, 24, 3, 30, 22, 20, 15, 25, 17, 4, 8, 31, 27, 13, 23,
                     21, 19, 16, 7, 26, 12, 18, 6, 11, 5, 10, 9], np.int64)


@kernel(inline="always")
def low_bit_index(low):
    """Index of ``low`` (a power of two below 2**32)."""
    return DEBRUIJN[((low * 0x077CB531) & 0xFFFFFFFF) >> 27]


def _location_tables():
    """Per location (``LOC_*``, below ``LOC_ROW + P``): its mask block (-1: not tracked, the
    supply) and the state index of its card counter (-1: none)."""
    n = LOC_ROW + P
    block_of = np.full(n, -1, np.int64)
    counter_at = np.full(n, -1, np.int64)
    block_of[LOC_DISPLAY] = MASK_DISPLAY
    block_of[LOC_UNREST] = MASK_UNREST
    block_of[LOC_DECK] = MASK_DECK
    block_of[LOC_DISCARD] = MASK_DISCARD
    for p in range(P):
        block_of[LOC_HAND + p] = MASK_HAND + p
        block_of[LOC_ROW + p] = MASK_ROW + p
        counter_at[LOC_HAND + p] = S_HAND_N + p
    counter_at[LOC_DISPLAY] = S_DISPLAY_N
    counter_at[LOC_DISCARD] = S_DISCARD_N
    return block_of, counter_at


# Tables, not branches: move_card is the engine's most frequent call.
LOC_MASK_BLOCK, LOC_COUNTER_AT = _location_tables()


@kernel(inline="always")
def mask_loc(loc):
    """Mask block of location ``loc`` (-1: not tracked)."""
    return LOC_MASK_BLOCK[loc]


@kernel(inline="always")
def card_word(card):
    return card // 21 if card < N_COLOURED else 4


@kernel(inline="always")
def card_bit(card):
    return 1 << (card % 21 if card < N_COLOURED else card - N_COLOURED)


@kernel(inline="always")
def word_card(word, bit_index):
    return word * 21 + bit_index if word < 4 else N_COLOURED + bit_index


# Bits of the deck cards in each mask word (cards 84..95 of word 4; 96..99 are prestige cards).
DECK_WORD_BITS = np.array([(1 << 21) - 1] * 4 + [(1 << (N_DECK_CARDS - N_COLOURED)) - 1],
                          np.int64)


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's ctpop: one popcnt instruction on the CPU, one popc.b64 on the GPU."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.int64), codegen


def _popcount_python(x):
    """``popcount`` uncompiled: Python's own count."""
    return int(x).bit_count()


@kernel(python=_popcount_python, inline="always")
def popcount(x):
    """Number of set bits of the mask word ``x`` (0 <= x < 2**63)."""
    return _ctpop(x)


@kernel
def rebuild_card_masks_nb(state):
    """Recompute the location masks from ``S_CARD_LOC`` (after code that relocates cards by
    writing ``S_CARD_LOC`` directly, such as a determinisation)."""
    for i in range(N_MASK_BLOCKS * N_MASK_WORDS):
        state[S_LOC_MASK + i] = 0
    for card in range(N_CARDS):
        m = mask_loc(state[S_CARD_LOC + card])
        if m >= 0:
            state[S_LOC_MASK + m * N_MASK_WORDS + card_word(card)] |= card_bit(card)
        if state[S_CARD_PUBLIC + card] == 1:
            state[S_LOC_MASK + MASK_PUBLIC * N_MASK_WORDS + card_word(card)] |= card_bit(card)


@kernel(inline="always")
def move_card(state, card, loc, public):
    """Move ``card`` to ``loc`` (``public``: 1 if everyone may know where it is), keeping the
    hand, display and discard counters and the location masks right.

    Callers pass ``np.int64(...)``, never a literal, for ``loc`` and ``public`` (and
    ``move_all``'s ``block`` and ``loc``): numba compiles a kernel once per tuple of literal
    values, and the six literal signatures of this one cost 4 s of every cold compile."""
    old = state[S_CARD_LOC + card]
    w = card_word(card)
    b = card_bit(card)
    block = mask_loc(old)
    if block >= 0:
        state[S_LOC_MASK + block * N_MASK_WORDS + w] &= ~b
    block = mask_loc(loc)
    if block >= 0:
        state[S_LOC_MASK + block * N_MASK_WORDS + w] |= b
    at = S_LOC_MASK + MASK_PUBLIC * N_MASK_WORDS + w
    state[at] = (state[at] & ~b) | (b if public == 1 else 0)
    at = LOC_COUNTER_AT[old]
    if at >= 0:
        state[at] -= 1
    at = LOC_COUNTER_AT[loc]
    if at >= 0:
        state[at] += 1
    state[S_CARD_LOC + card] = loc
    state[S_CARD_PUBLIC + card] = public


@kernel
def move_all(state, block, loc):
    """Move every card of mask block ``block`` to ``loc`` (publicly), in ascending card order."""
    state = borrowed(state)
    for w in range(N_MASK_WORDS):
        m = state[S_LOC_MASK + block * N_MASK_WORDS + w]
        while m != 0:
            low = m & -m
            m ^= low
            move_card(state, word_card(w, low_bit_index(low)), loc, np.int64(1))


@kernel
def draw_card(state):
    """Take the top card of the deck (it stays where it is until the caller moves it).

    When the deck is empty the discard pile is shuffled into a new deck (R3). Returns -1 when
    both are empty.
    """
    state = borrowed(state)
    if state[S_DECK_TOP] >= state[S_DECK_LEN]:
        if state[S_DISCARD_N] == 0:
            if state[S_EXHAUSTED_VISIT] == 0:
                state[S_EXHAUSTED_VISIT] = state[S_VISIT] + 1
            return -1
        k = 0
        for w in range(N_MASK_WORDS):  # ascending card order
            m = state[S_LOC_MASK + MASK_DISCARD * N_MASK_WORDS + w] & DECK_WORD_BITS[w]
            while m != 0:
                low = m & -m
                m ^= low
                state[S_DECK + k] = word_card(w, low_bit_index(low))
                k += 1
        shuffle_slice(state, S_DECK, S_DECK + k, state, S_RNG)
        for i in range(k):
            move_card(state, state[S_DECK + i], np.int64(LOC_DECK), np.int64(0))
        state[S_DECK_TOP] = 0
        state[S_DECK_LEN] = k
        state[S_N_RESHUFFLES] += 1
    card = state[S_DECK + state[S_DECK_TOP]]
    state[S_DECK_TOP] += 1
    return card


@kernel
def draw_to_hand(state, p):
    """Draw the top card into ``p``'s hand (hidden from the others). Returns the card, or -1
    (counted as a card ``p`` was owed but did not get) when the deck and discards are empty."""
    state = borrowed(state)
    card = draw_card(state)
    if card >= 0:
        move_card(state, card, LOC_HAND + p, np.int64(0))
    else:
        state[S_DECK_MISSED + p] += 1
    return card


# ---------------------------------------------------------------------------
# Setup and visits
# ---------------------------------------------------------------------------
@kernel
def init_state_nb(comp, n_players, edition, setup_seed, play_seed, state):
    """Set up a new game in ``state`` (int64[STATE_SIZE]) and prepare the first visit.

    ``setup_seed`` fixes the board (province order and bonus tiles), ``play_seed`` the deck and
    every later chance event, so many games can share one setup.
    """
    state[:] = 0
    state[S_N_PLAYERS] = n_players
    state[S_EDITION] = edition & RULES_MASK
    state[S_RULES] = edition
    state[S_SETUP_SEED] = setup_seed
    state[S_PLAY_SEED] = play_seed
    # Province tiles: tile 12 on Agra's province, the other 11 shuffled over the rest (setup).
    state[S_RNG] = setup_seed
    agra_prov = comp[C_AGRA_PROVINCE]
    for t in range(N_PROVINCES - 1):
        state[S_PROVINCE_TILE + t] = t
    shuffle_slice(state, S_PROVINCE_TILE, S_PROVINCE_TILE + N_PROVINCES - 1, state, S_RNG)
    # Spread the shuffled tiles over the provinces other than Agra's, in index order.
    for i in range(N_PROVINCES - 1, -1, -1):
        if i > agra_prov:
            state[S_PROVINCE_TILE + i] = state[S_PROVINCE_TILE + i - 1]
    state[S_PROVINCE_TILE + agra_prov] = N_PROVINCES - 1
    for t in range(N_PROVINCES):
        state[S_TILE_OWNER + t] = -1
    # Bonus tiles: Taj Mahal +4 on Agra, the square tiles shuffled over the other fortresses.
    n_cities = comp[C_N_CITIES]
    for c in range(MAX_CITIES):
        state[S_BONUS_AT + c] = -1
        state[S_BONUS_TAKER + c] = -1
    # The tile order is shuffled in the deck's slots, which are filled only below (no
    # allocation: the same source runs on a GPU).
    n_bonus = comp[C_N_BONUS_TILES]
    for i in range(n_bonus):
        state[S_DECK + i] = comp[C_BONUS_TILES + i]
    shuffle_slice(state, S_DECK, S_DECK + n_bonus, state, S_RNG)
    k = 0
    agra = comp[C_AGRA_CITY]
    for c in range(n_cities):
        if comp[C_CITY_FORTRESS + c] == 1:
            if c == agra:
                state[S_BONUS_AT + c] = BONUS.TAJ4
            elif k < n_bonus:
                state[S_BONUS_AT + c] = state[S_DECK + k]
                k += 1
    for c in range(MAX_CITIES):
        state[S_BONUS_START + c] = state[S_BONUS_AT + c]
    # Cards: the deck is shuffled with the play stream; prestige cards wait in the supply.
    state[S_RNG] = play_seed
    for card in range(N_DECK_CARDS):
        state[S_DECK + card] = card
        state[S_CARD_LOC + card] = LOC_DECK
    shuffle_slice(state, S_DECK, S_DECK + N_DECK_CARDS, state, S_RNG)
    state[S_DECK_TOP] = 0
    state[S_DECK_LEN] = N_DECK_CARDS
    for card in range(FIRST_PRESTIGE, N_CARDS):
        state[S_CARD_LOC + card] = LOC_SUPPLY
        state[S_CARD_PUBLIC + card] = 1
    rebuild_card_masks_nb(state)
    for _ in range(HAND_START):
        for p in range(n_players):
            draw_to_hand(state, p)
    for a in range(N_ADVISORS):
        state[S_TOKEN_SUPPLY + a] = TOKENS_PER_ADVISOR
    for s in range(N_SYMBOLS):
        state[S_SEAT + s] = SEAT_EMPTY
    # The seat-compensation variant (not the rules): points given at setup, counted in the
    # bonus part; 0 by default.
    for p in range(n_players):
        state[S_SCORE + p * N_PARTS + PART_BONUS] += seat_compensation(edition, p, play_seed)
    state[S_FIRST] = 0
    state[S_VISIT] = 0
    prepare_visit(state, comp)


@kernel
def province_of_visit(state, visit):
    """Province whose tile number is ``visit + 1`` (visits follow tile order, R1)."""
    for prov in range(N_PROVINCES):
        if state[S_PROVINCE_TILE + prov] == visit:
            return prov
    return -1


@kernel
def prepare_visit(state, comp):
    """Preparing a visit (R1-R3): province, advisor seats, crown, province tile, display."""
    state = borrowed(state)
    n = state[S_N_PLAYERS]
    state[S_PROVINCE] = province_of_visit(state, state[S_VISIT])
    for a in range(N_ADVISORS):
        if state[S_SEAT + a] == SEAT_EMPTY and state[S_TOKEN_SUPPLY + a] > 0:
            state[S_TOKEN_SUPPLY + a] -= 1
            state[S_SEAT + a] = SEAT_PRESENT
    state[S_SEAT + SEAT_CROWN] = SEAT_PRESENT
    state[S_SEAT + SEAT_PROVINCE] = SEAT_PRESENT
    state[S_CROWN_CITY] = -1
    for k in range(DISPLAY_SIZE[n]):
        card = draw_card(state)
        if card < 0:  # deck and discards exhausted: deal what there is (R3), and count it
            state[S_SHORT_DEALS] += 1
            state[S_DISPLAY_SHORT] += DISPLAY_SIZE[n] - k
            break
        move_card(state, card, np.int64(LOC_DISPLAY), np.int64(1))
    for p in range(n):
        state[S_WITHDRAWN + p] = 0
        state[S_ROW_COLOUR + p] = -1
        state[S_ROW_N + p] = 0
        for s in range(N_SYMBOLS):
            state[S_ROW_SYM + p * N_SYMBOLS + s] = 0
    state[S_PROTEST_DONE] = 0
    state[S_CUR] = state[S_FIRST]
    state[S_PHASE] = PHASE_BID


@kernel
def end_visit(state, comp):
    """Ending a visit (R14-R17), then the next visit or the final scoring."""
    state = borrowed(state)
    comp = borrowed(comp)
    n = state[S_N_PLAYERS]
    # unrest and display leftovers are discarded
    move_all(state, np.int64(MASK_UNREST), np.int64(LOC_DISCARD))
    move_all(state, np.int64(MASK_DISPLAY), np.int64(LOC_DISCARD))
    for s in range(N_SYMBOLS):
        state[S_UNREST_SYM + s] = 0
    for c in range(N_COLOURS):
        state[S_UNREST_COLOURS + c] = 0
    # Advisor pairs give the prestige card, from the supply or its holder (R14).
    for p in range(n):
        for a in range(N_ADVISORS):
            if state[S_TOKENS + p * N_ADVISORS + a] >= 2:
                state[S_TOKENS + p * N_ADVISORS + a] -= 2
                state[S_TOKEN_SUPPLY + a] += 2
                card = ADVISOR_PRESTIGE[a]
                if state[S_CARD_LOC + card] != LOC_HAND + p:
                    move_card(state, card, LOC_HAND + p, np.int64(1))
                    state[S_PRESTIGE_GAINS + p] += 1
    # A province tile nobody claimed (or set aside by a protest) leaves play (R16).
    tile = state[S_PROVINCE_TILE + state[S_PROVINCE]]
    if state[S_TILE_OWNER + tile] == -1:
        state[S_TILE_OWNER + tile] = -2
    # Tokens set aside by a protest go back to their seats; the crown returns (R15).
    for a in range(N_ADVISORS):
        if state[S_SEAT + a] == SEAT_ASIDE:
            state[S_SEAT + a] = SEAT_PRESENT
    state[S_CROWN_CITY] = -1
    state[S_FIRST] = (state[S_FIRST] + 1) % n
    state[S_VISIT] += 1
    if state[S_VISIT] >= N_VISITS:
        final_scoring(state, comp)
    else:
        prepare_visit(state, comp)


@kernel
def hand_scoring_points(state, comp, p):
    """End-of-game card points of ``p``: colourless cards plus the cards of the best colour.

    Counted with popcounts of ``p``'s hand mask against the colour masks (``C_COLOUR_MASK``):
    one per mask word and colour instead of a walk over every card per colour."""
    hand = S_LOC_MASK + (MASK_HAND + p) * N_MASK_WORDS
    colourless = 0
    best = 0
    for c in range(N_COLOURS + 1):
        count = 0
        for w in range(N_MASK_WORDS):
            count += popcount(state[hand + w] & comp[C_COLOUR_MASK + w * (N_COLOURS + 1) + c])
        if c == COLOURLESS:
            colourless = count
        elif count > best:
            best = count
    return colourless + best


@kernel
def final_scoring(state, comp):
    """Final scoring and ranks (R18-R19): the highest score wins; in the 2018 edition a tie goes
    to the most cards in hand, in 2000 it stands (shared wins)."""
    state = borrowed(state)
    comp = borrowed(comp)
    n = state[S_N_PLAYERS]
    for p in range(n):
        state[S_SCORE + p * N_PARTS + PART_CARDS] = hand_scoring_points(state, comp, p)
    tie_break_on_hand = state[S_EDITION] == EDITION_2018
    for p in range(n):
        more_cards = state[S_HAND_N + p] if tie_break_on_hand else 0
        state[S_RANK + p] = ranking_key(score_of(state, p), more_cards, LOWER_SCORE_WINS)
    rank_seats(state, n, S_RANK, S_WINNER)
    state[S_PHASE] = PHASE_GAME_OVER
    state[S_CUR] = -1


# ---------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------
@kernel(inline="always")
def bid_extras_allowed(extras, colour, row_colour):
    """Which colourless cards (bits of ``extras``, bit k = card FIRST_WHITE + k) may go with a
    card of ``colour`` into a row of ``row_colour`` (-1: empty): any of them on colour, only
    Enlightenment off colour (R4-R5). Off colour, a card can be played only with one."""
    if row_colour < 0 or colour == row_colour:
        return extras
    return extras & (1 << (PRESTIGE_ENLIGHTENMENT - FIRST_WHITE))


@kernel(inline=into_play_loop)
def legal_actions_nb(state, comp, out):
    """Write the legal actions of the player to move into ``out``; return how many.

    ``out`` is int64 with room for ``N_ACTIONS`` entries. Bids list every coloured card in hand
    that may be played (R4) alone and with each colourless card in hand; withdrawing is always
    legal in a bid. Order: ascending action number.
    """
    state = borrowed(state)
    comp = borrowed(comp)
    out = borrowed(out)
    phase = state[S_PHASE]
    n_out = 0
    if phase == PHASE_BID:
        p = state[S_CUR]
        out[0] = ACTION_WITHDRAW
        n_out = 1
        row_colour = state[S_ROW_COLOUR + p]
        hand = S_LOC_MASK + (MASK_HAND + p) * N_MASK_WORDS
        # Colourless cards in hand as a bit mask (bit k = card FIRST_WHITE + k): no allocation.
        extras = state[hand + 4]
        for colour in range(N_COLOURS):
            m = state[hand + colour]
            on_colour = row_colour < 0 or colour == row_colour
            allowed = bid_extras_allowed(extras, colour, row_colour)
            if not on_colour and allowed == 0:
                continue  # off colour: only with Enlightenment (R5)
            while m != 0:
                low = m & -m
                m ^= low
                card = colour * 21 + low_bit_index(low)
                base = ACTION_BID + card * BID_EXTRA
                if on_colour:
                    out[n_out] = base
                    n_out += 1
                bits = allowed
                while bits != 0:
                    lb = bits & -bits
                    bits ^= lb
                    out[n_out] = base + 1 + low_bit_index(lb)
                    n_out += 1
    elif phase == PHASE_PALACE or phase == PHASE_CROWN:
        prov = state[S_PROVINCE]
        for i in range(comp[C_PROV_N_CITIES + prov]):
            city = comp[C_PROV_CITIES + prov * MAX_CITIES_PER_PROVINCE + i]
            if phase == PHASE_CROWN or is_open_city(state, city):
                out[n_out] = ACTION_CITY + city
                n_out += 1
    elif phase == PHASE_DISPLAY:
        for w in range(N_MASK_WORDS):
            m = state[S_LOC_MASK + MASK_DISPLAY * N_MASK_WORDS + w]
            while m != 0:
                low = m & -m
                m ^= low
                out[n_out] = ACTION_TAKE + word_card(w, low_bit_index(low))
                n_out += 1
    return n_out


@kernel(inline="always")
def nth_bit_index(m, k):
    """Index of the ``k``-th lowest set bit (from 0) of the non-zero mask word ``m``."""
    for _ in range(k):
        m &= m - 1
    return low_bit_index(m & -m)


@kernel(inline="always")
def count_legal_nb(state, comp):
    """How many actions ``legal_actions_nb`` would list, counted without listing them: bit
    counts of the hand, the province's open cities, the display. With ``nth_legal_nb`` the
    random policy draws its action without building the list."""
    state = borrowed(state)
    comp = borrowed(comp)
    phase = state[S_PHASE]
    if phase == PHASE_BID:
        p = state[S_CUR]
        row_colour = state[S_ROW_COLOUR + p]
        hand = S_LOC_MASK + (MASK_HAND + p) * N_MASK_WORDS
        extras = state[hand + 4]
        n = 1  # withdrawing
        for colour in range(N_COLOURS):
            # each card of this colour: alone (on colour only), and with each allowed extra
            alone = 1 if row_colour < 0 or colour == row_colour else 0
            allowed = bid_extras_allowed(extras, colour, row_colour)
            n += popcount(state[hand + colour]) * (alone + popcount(allowed))
        return n
    if phase == PHASE_PALACE:
        prov = state[S_PROVINCE]
        n = 0
        for i in range(comp[C_PROV_N_CITIES + prov]):
            if is_open_city(state, comp[C_PROV_CITIES + prov * MAX_CITIES_PER_PROVINCE + i]):
                n += 1
        return n
    if phase == PHASE_CROWN:
        return comp[C_PROV_N_CITIES + state[S_PROVINCE]]
    if phase == PHASE_DISPLAY:
        return state[S_DISPLAY_N]
    return 0


@kernel(inline="always")
def nth_legal_nb(state, comp, k):
    """Entry ``k`` (``0 <= k < count_legal_nb``) of the list ``legal_actions_nb`` would write,
    found without writing it (same order: ascending action number)."""
    state = borrowed(state)
    comp = borrowed(comp)
    phase = state[S_PHASE]
    if phase == PHASE_BID:
        if k == 0:
            return ACTION_WITHDRAW
        k -= 1
        p = state[S_CUR]
        row_colour = state[S_ROW_COLOUR + p]
        hand = S_LOC_MASK + (MASK_HAND + p) * N_MASK_WORDS
        extras = state[hand + 4]
        for colour in range(N_COLOURS):
            m = state[hand + colour]
            on_colour = row_colour < 0 or colour == row_colour
            allowed = bid_extras_allowed(extras, colour, row_colour)
            # each card of this colour: alone (on colour only), then with each allowed extra
            per_card = popcount(allowed) + (1 if on_colour else 0)
            total = popcount(m) * per_card
            if k >= total:
                k -= total
                continue
            card = colour * 21 + nth_bit_index(m, k // per_card)
            r = k % per_card
            if on_colour:
                if r == 0:
                    return ACTION_BID + card * BID_EXTRA
                r -= 1
            return ACTION_BID + card * BID_EXTRA + 1 + nth_bit_index(allowed, r)
        return -1
    if phase == PHASE_PALACE or phase == PHASE_CROWN:
        prov = state[S_PROVINCE]
        for i in range(comp[C_PROV_N_CITIES + prov]):
            city = comp[C_PROV_CITIES + prov * MAX_CITIES_PER_PROVINCE + i]
            if phase == PHASE_CROWN or is_open_city(state, city):
                if k == 0:
                    return ACTION_CITY + city
                k -= 1
        return -1
    if phase == PHASE_DISPLAY:
        for w in range(N_MASK_WORDS):
            m = state[S_LOC_MASK + MASK_DISPLAY * N_MASK_WORDS + w]
            c = popcount(m)
            if k < c:
                return ACTION_TAKE + word_card(w, nth_bit_index(m, k))
            k -= c
    return -1


# ---------------------------------------------------------------------------
# Applying actions
# ---------------------------------------------------------------------------
# The steps of resolving an action. Each step function returns the next step (STEP_DONE when
# the game waits for a decision), and apply_action_nb runs them in a loop: steps never call each
# other, because numba re-optimises a callee's code inside every caller and a chain of tail calls
# made compilation time grow with the square of its length (apply_action_nb took 15 s to compile).
STEP_DONE = 0
STEP_AFTER_PALACES = 1
STEP_AFTER_CROWN = 2
STEP_CONTINUE_DISPLAY = 3
STEP_END_TURN = 4


# The steps of a bid, the most frequent action (play_cards, end_turn), and the withdrawal
# itself (withdraw, continue_display), each called from one place, are inlined here (numba
# IR): no reference counting on the state arrays per step. move_card, small, is inlined too;
# draw_card and move_all stay out of line: every inlined copy is type-inferred and optimised
# again, and inlining them with move_card raised the cold compile of a random run from 16 to
# 42 s of CPU time (before the borrowed arrays). This kernel is inlined into the play loop
# only (into_play_loop); the searches call it. The palace and crown steps and their
# road searches (after_palaces, after_crown, palace_cities, connected_from,
# connected_provinces) stay out of line too: inlined, they made a random game 7% slower
# (benchmarks/ab_trees.py, 2 rounds) for no gain in `balanced`.
@kernel(inline=into_play_loop)
def apply_action_nb(state, comp, action):
    """Apply a legal ``action`` for the player to move. Legality is the caller's duty."""
    state = borrowed(state)
    comp = borrowed(comp)
    state[S_STEP] += 1
    phase = state[S_PHASE]
    p = state[S_CUR]
    step = STEP_DONE
    if phase == PHASE_BID:
        state[S_TURNS] += 1
        if action == ACTION_WITHDRAW:
            step = withdraw(state, comp, p)
        else:
            play_cards(state, comp, p, action)
            step = STEP_END_TURN
    elif phase == PHASE_PALACE:
        city = action - ACTION_CITY
        add_palace(state, p, city)
        if state[S_BONUS_AT + city] >= 0:  # claim the bonus tile; resolved after all palaces
            state[S_WD_BONUS + state[S_WD_N_BONUS]] = state[S_BONUS_AT + city]
            state[S_WD_N_BONUS] += 1
            state[S_BONUS_TAKER + city] = p
            state[S_BONUS_AT + city] = -1
        state[S_PENDING] -= 1
        if state[S_PENDING] > 0 and has_open_city(state, comp):
            return
        step = STEP_AFTER_PALACES
    elif phase == PHASE_CROWN:
        city = action - ACTION_CITY
        add_palace(state, p, city)
        state[S_CROWN_CITY] = city  # no bonus tile for the crown palace (R9)
        state[S_CROWN_PENDING] = 0
        step = STEP_AFTER_CROWN
    elif phase == PHASE_DISPLAY:
        move_card(state, action - ACTION_TAKE, LOC_HAND + p, np.int64(1))
        state[S_PENDING] -= 1
        step = STEP_CONTINUE_DISPLAY
    while step != STEP_DONE:
        if step == STEP_AFTER_PALACES:
            step = after_palaces(state, comp, p)
        elif step == STEP_AFTER_CROWN:
            step = after_crown(state, comp, p)
        elif step == STEP_CONTINUE_DISPLAY:
            step = continue_display(state, comp, p)
        else:
            step = end_turn(state, comp)


@kernel(inline="always")
def play_cards(state, comp, p, action):
    """Influence the court: one coloured card, optionally one colourless card (R4-R5)."""
    card, extra = bid_cards(action)
    add_to_row(state, comp, p, card)
    if state[S_ROW_N + p] == 1:
        state[S_ROW_COLOUR + p] = card_colour(comp, card)
    if extra >= 0:
        add_to_row(state, comp, p, extra)
        if extra == PRESTIGE_NOBILITY:
            state[S_SCORE + p * N_PARTS + PART_SPECIAL] += 2


@kernel(inline="always")
def add_to_row(state, comp, p, card):
    move_card(state, card, LOC_ROW + p, np.int64(1))
    state[S_ROW_N + p] += 1
    for s in range(N_SYMBOLS):
        state[S_ROW_SYM + p * N_SYMBOLS + s] += card_sym(comp, card, s)


@kernel(inline="always")
def add_palace(state, p, city):
    state[S_PALACES + city * P + p] += 1
    state[S_CITY_PALACES + city] += 1
    state[S_PALACE_BITS + p * 2 + (city >> 5)] |= 1 << (city & 31)
    state[S_WD_PALACED] = 1


@kernel(inline="always")
def has_open_city(state, comp):
    prov = state[S_PROVINCE]
    for i in range(comp[C_PROV_N_CITIES + prov]):
        if is_open_city(state, comp[C_PROV_CITIES + prov * MAX_CITIES_PER_PROVINCE + i]):
            return True
    return False


@kernel(inline="always")
def has_majority(state, p, sym):
    """``p`` shows strictly more of ``sym`` than every other player still in the visit and,
    with two players (2018), than the unrest cards (R6, R20). At least one symbol is needed."""
    mine = state[S_ROW_SYM + p * N_SYMBOLS + sym]
    if mine == 0:
        return False
    for q in range(state[S_N_PLAYERS]):
        if q != p and state[S_WITHDRAWN + q] == 0:
            if state[S_ROW_SYM + q * N_SYMBOLS + sym] >= mine:
                return False
    return state[S_UNREST_SYM + sym] < mine


@kernel(inline="always")
def withdraw(state, comp, p):
    """Withdraw: claim the majorities, then resolve them in rulebook order (R6-R13).

    Returns the next step."""
    state[S_WD_PLAYED] = 1 if state[S_ROW_N + p] > 0 else 0
    state[S_WD_PALACED] = 0
    state[S_WD_PROVINCE] = 0
    state[S_WD_N_BONUS] = 0
    state[S_CROWN_PENDING] = 0
    n_advisors = 0
    for s in range(N_SYMBOLS):
        if state[S_SEAT + s] == SEAT_PRESENT and has_majority(state, p, s):
            state[S_SEAT + s] = SEAT_EMPTY
            if s < N_ADVISORS:
                state[S_TOKENS + p * N_ADVISORS + s] += 1
                n_advisors += 1
            elif s == SEAT_CROWN:
                state[S_CROWN_PENDING] = 1
            else:
                state[S_WD_PROVINCE] = 1
    state[S_WITHDRAWN + p] = 1
    state[S_PENDING] = n_advisors
    if n_advisors > 0 and has_open_city(state, comp):
        state[S_PHASE] = PHASE_PALACE
        return STEP_DONE
    return STEP_AFTER_PALACES


@kernel(inline="always")
def gain_good(state, p, good):
    """A good scores 1 plus the goods of its kind already held (R11)."""
    state[S_SCORE + p * N_PARTS + PART_COMMODITY] += 1 + state[S_GOODS + p * N_GOODS + good]
    state[S_GOODS + p * N_GOODS + good] += 1


@kernel
def after_palaces(state, comp, p):
    """Resolve the claimed bonus tiles (in placement order: the order cannot change any
    outcome, R10), then the crown. Returns the next step."""
    state = borrowed(state)
    state[S_PENDING] = 0
    for i in range(state[S_WD_N_BONUS]):
        kind = state[S_WD_BONUS + i]
        state[S_BONUS_HELD + p * N_BONUS_KINDS + kind] += 1
        if kind < N_GOODS:
            gain_good(state, p, kind)
        elif kind == BONUS.PLUS2:
            state[S_SCORE + p * N_PARTS + PART_BONUS] += 2
        elif kind == BONUS.TAJ4:
            state[S_SCORE + p * N_PARTS + PART_BONUS] += 4
        elif kind == BONUS.DRAW:
            draw_to_hand(state, p)
    state[S_WD_N_BONUS] = 0
    if state[S_CROWN_PENDING] == 1:
        state[S_PHASE] = PHASE_CROWN
        return STEP_DONE
    return STEP_AFTER_CROWN


@kernel(inline="always")
def palace_cities(state, comp, p):
    """The cities holding a palace of ``p``, as bits of a ``uint64`` (MAX_CITIES = 64), from
    the index ``add_palace`` keeps (``S_PALACE_BITS``) rather than a scan of every city."""
    return np.uint64(state[S_PALACE_BITS + p * 2]) \
        | (np.uint64(state[S_PALACE_BITS + p * 2 + 1]) << np.uint64(32))


@kernel(inline="always")
def lowest_city(bits):
    """Index of the lowest set bit of the non-zero ``uint64`` ``bits``."""
    return popcount(np.int64((bits & (~bits + np.uint64(1))) - np.uint64(1)))


@kernel
def connected_from(comp, mine, prov):
    """Other provinces reached from ``prov`` by an unbroken road path of the palace cities
    ``mine`` (``uint64`` bits, from ``palace_cities``) (R12). Allocates nothing: a search
    over the bit words of the cities' neighbours (``C_ADJ_MASK``) and the provinces' cities
    (``C_PROV_MASK``)."""
    reached = np.uint64(comp[C_PROV_MASK + prov]) & mine
    frontier = reached
    while frontier != 0:
        city = lowest_city(frontier)
        frontier &= frontier - np.uint64(1)
        new = np.uint64(comp[C_ADJ_MASK + city]) & mine & ~reached
        reached |= new
        frontier |= new
    provinces = 0
    for q in range(N_PROVINCES):
        if q != prov and (reached & np.uint64(comp[C_PROV_MASK + q])) != 0:
            provinces += 1
    return provinces


@kernel
def connected_provinces(state, comp, p, prov):
    """Other provinces reached from ``prov`` by an unbroken road path of ``p``'s palaces (R12)."""
    comp = borrowed(comp)
    return connected_from(comp, palace_cities(state, comp, p), prov)


@kernel
def after_crown(state, comp, p):
    """Palace scoring, the province tile, the row, then the display (R12-R13). Returns the
    next step."""
    state = borrowed(state)
    comp = borrowed(comp)
    prov = state[S_PROVINCE]
    base = S_SCORE + p * N_PARTS
    if state[S_WD_PALACED] == 1:
        links = connected_provinces(state, comp, p, prov)
        state[base + PART_PALACE] += 1
        state[base + PART_CONNECTION] += links
        state[S_CONN_BY_VISIT + state[S_VISIT] * P + p] += 1 + links
    if state[S_WD_PROVINCE] == 1:
        tile = state[S_PROVINCE_TILE + prov]
        state[S_TILE_OWNER + tile] = p
        for g in range(N_GOODS):
            for _ in range(comp[C_TILE_GOODS + tile * N_GOODS + g]):
                gain_good(state, p, g)
    # Prestige cards return to hand, the rest of the row is discarded (R13).
    row = S_LOC_MASK + (MASK_ROW + p) * N_MASK_WORDS
    for w in range(N_MASK_WORDS):
        m = state[row + w]
        while m != 0:
            low = m & -m
            m ^= low
            card = word_card(w, low_bit_index(low))
            if card >= FIRST_PRESTIGE:
                move_card(state, card, LOC_HAND + p, np.int64(1))
            else:
                move_card(state, card, np.int64(LOC_DISCARD), np.int64(1))
    state[S_ROW_N + p] = 0
    state[S_ROW_COLOUR + p] = -1
    for s in range(N_SYMBOLS):
        state[S_ROW_SYM + p * N_SYMBOLS + s] = 0
    last = True
    for q in range(state[S_N_PLAYERS]):
        if state[S_WITHDRAWN + q] == 0:
            last = False
    state[S_PENDING] = 1 if last else 2
    state[S_PHASE] = PHASE_DISPLAY
    if state[S_WD_PLAYED] == 0 and state[S_EDITION] == EDITION_2000:
        # 2000: "If you withdrew before playing any cards, draw the topmost [card] from the
        # deck. Take 2 cards of your choice from the face-up supply" - the draw comes first.
        draw_to_hand(state, p)
    return STEP_CONTINUE_DISPLAY


@kernel(inline="always")
def continue_display(state, comp, p):
    """Ask for a display card while there is a choice; take the rest when there is none.
    Returns the next step."""
    if state[S_PENDING] > 0 and state[S_DISPLAY_N] > state[S_PENDING]:
        return STEP_DONE  # a real choice: wait for PHASE_DISPLAY actions
    if state[S_PENDING] > 0:
        if state[S_DISPLAY_N] < state[S_PENDING]:  # the display ran short (R3)
            state[S_DISPLAY_MISSED + p] += state[S_PENDING] - state[S_DISPLAY_N]
        move_all(state, np.int64(MASK_DISPLAY), LOC_HAND + p)
    state[S_PENDING] = 0
    if state[S_WD_PLAYED] == 0 and state[S_EDITION] == EDITION_2018:
        # 2018: "take two cards from the display and draw the top card of the deck" (R13);
        # 2000 drew it before the display (after_crown).
        draw_to_hand(state, p)
    return STEP_END_TURN


@kernel(inline="always")
def end_turn(state, comp):
    """Unrest (2 players, 2018), then the next player in the visit or the end of the visit.
    Returns the next step (always STEP_DONE: the game waits for a decision or is over)."""
    n = state[S_N_PLAYERS]
    p = state[S_CUR]
    anyone_left = False
    for q in range(n):
        if state[S_WITHDRAWN + q] == 0:
            anyone_left = True
    if not anyone_left:
        end_visit(state, comp)
        return STEP_DONE
    if n == 2 and state[S_EDITION] == EDITION_2018 and state[S_PROTEST_DONE] == 0:
        resolve_unrest(state, comp)
    q = p
    for _ in range(n):
        q = (q + 1) % n
        if state[S_WITHDRAWN + q] == 0:
            break
    state[S_CUR] = q
    state[S_PHASE] = PHASE_BID
    return STEP_DONE


@kernel
def resolve_unrest(state, comp):
    """Draw a card into unrest; a second card of a colour already there starts a protest.

    Rules R20-R21."""
    state = borrowed(state)
    comp = borrowed(comp)
    card = draw_card(state)
    if card < 0:
        return
    colour = card_colour(comp, card)
    if colour != COLOURLESS and state[S_UNREST_COLOURS + colour] > 0:
        move_card(state, card, np.int64(LOC_DISCARD), np.int64(1))
        n = state[S_N_PLAYERS]
        for s in range(N_SYMBOLS):
            u = state[S_UNREST_SYM + s]
            if u == 0 or state[S_SEAT + s] != SEAT_PRESENT:
                continue
            most = True
            for q in range(n):
                if state[S_ROW_SYM + q * N_SYMBOLS + s] >= u:
                    most = False
            if most:
                state[S_SEAT + s] = SEAT_ASIDE
        move_all(state, np.int64(MASK_UNREST), np.int64(LOC_DISCARD))
        for s in range(N_SYMBOLS):
            state[S_UNREST_SYM + s] = 0
        for c in range(N_COLOURS):
            state[S_UNREST_COLOURS + c] = 0
        state[S_PROTEST_DONE] = 1
        state[S_N_PROTESTS] += 1
        # Set-aside tokens stay out of this visit; end_visit returns the advisors to their
        # seats and sends an unclaimed province tile to the box (R21).
        return
    move_card(state, card, np.int64(LOC_UNREST), np.int64(1))
    if colour != COLOURLESS:
        state[S_UNREST_COLOURS + colour] += 1
    for s in range(N_SYMBOLS):
        state[S_UNREST_SYM + s] += card_sym(comp, card, s)


# ---------------------------------------------------------------------------
# Whole-state helpers used by tests, records and policies
# ---------------------------------------------------------------------------


@kernel
def n_palaces_of(state, comp, p):
    total = 0
    for c in range(comp[C_N_CITIES]):
        total += state[S_PALACES + c * P + p]
    return total


@kernel
def start_game_nb(comp, n_players, edition, master_seed, game_id, setup_id, state, prng):
    """Set up game ``game_id`` in ``state`` and seed the seats' policy streams in ``prng``."""
    setup_seed, play_seed = game_seeds(master_seed, game_id, setup_id)
    init_state_nb(comp, n_players, edition, setup_seed, play_seed, state)
    seed_policy_streams(play_seed, prng)


@kernel
def current_player_nb(state):
    """Seat to decide, -1 when the game is over."""
    return -1 if state[S_PHASE] == PHASE_GAME_OVER else state[S_CUR]


@kernel
def phase_nb(state):
    """The decision phase (``PHASE_*``)."""
    return state[S_PHASE]
