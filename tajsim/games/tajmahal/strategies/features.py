"""What a seat may see, as compiled helpers shared by the heuristic, greedy and search policies.

Every function here reads only information that ``player`` is allowed to know:

* its own hand (``S_CARD_LOC == LOC_HAND + player``, public or not);
* every card whose location is public (``S_CARD_PUBLIC == 1``: rows, display, unrest, discards,
  prestige cards, cards taken from the display into a hand);
* counts that are open information: hand sizes ``S_HAND_N``, deck size, court seats, board,
  palaces, bonus tiles, goods, tokens, scores.

A card is *unseen* by ``player`` when it lies in the deck or in another player's hand without
being public. Unseen cards are only ever used as a multiset (how many unseen cards of each
colour show each symbol), never by position, so permuting them cannot change any value computed
here; ``tests/games/tajmahal/test_tajmahal_hidden_info.py`` checks that for every strategy.

The small helpers are inlined into their callers (``inline="always"``, numba IR): an
out-of-line call costs reference counting on each array argument (state, comp, view, weights),
which cost more than the helpers' own work (issue 20).
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.engine.enums import (
    ADVISOR_PRESTIGE,
    BONUS,
    C_ADJ,
    C_ADJ_START,
    C_CARD_COLOUR,
    C_CARD_SYM,
    C_CITY_PROVINCE,
    C_COLOUR_MASK,
    C_PROV_CITIES,
    C_PROV_N_CITIES,
    C_SYMBOL_MASK,
    C_TILE_GOODS,
    COLOURLESS,
    LOC_DECK,
    LOC_HAND,
    MASK_DECK,
    MASK_HAND,
    MASK_PUBLIC,
    MAX_CITIES_PER_PROVINCE,
    MAX_PLAYERS,
    N_ADVISORS,
    N_CARDS,
    N_COLOURS,
    N_DECK_CARDS,
    N_GOODS,
    N_MASK_WORDS,
    N_SYMBOLS,
    N_VISITS,
    S_BONUS_AT,
    S_CARD_LOC,
    S_CARD_PUBLIC,
    S_GOODS,
    S_HAND_N,
    S_LOC_MASK,
    S_N_PLAYERS,
    S_PROVINCE,
    S_PROVINCE_TILE,
    S_ROW_COLOUR,
    S_TOKENS,
    S_VISIT,
    S_WITHDRAWN,
)
from tajsim.games.tajmahal.engine.nb import (
    DECK_WORD_BITS,
    connected_from,
    low_bit_index,
    popcount,
    word_card,
)

P = MAX_PLAYERS
N_COLS = N_COLOURS + 1  # four colours and colourless

# Layout of the per-decision ``view`` statistics (float64[VIEW_SIZE]) built by ``build_view``.
V_UNSEEN = 0  # number of cards unseen by the player
V_COL_N = 1  # [N_COLS] unseen cards by colour
V_COL_SYM = V_COL_N + N_COLS  # [N_COLS * N_SYMBOLS] unseen cards of colour c showing symbol s
V_COL_SYM2 = V_COL_SYM + N_COLS * N_SYMBOLS  # [N_COLS * N_SYMBOLS] ... showing s at least twice
V_HIDDEN_N = V_COL_SYM2 + N_COLS * N_SYMBOLS  # [P] unseen cards in each hand
# [P * N_COLS * N_SYMBOLS] public cards known to be in each hand, by colour and symbol count
V_KNOWN_SYM = V_HIDDEN_N + P
V_MY_COL = V_KNOWN_SYM + P * N_COLS * N_SYMBOLS  # [N_COLS] player's hand by colour
V_MY_BEST = V_MY_COL + N_COLS  # count of the player's most held colour
V_MEAN_CARD = V_MY_BEST + 1  # mean (unweighted) symbols per unseen card, for information
VIEW_SIZE = V_MEAN_CARD + 1


@kernel(inline="always")
def is_unseen(state, player, card):
    """True if ``player`` cannot know where ``card`` is (deck, or another hand unannounced)."""
    loc = state[S_CARD_LOC + card]
    if loc == LOC_DECK:
        return True
    if loc >= LOC_HAND and loc < LOC_HAND + P and loc != LOC_HAND + player:
        return state[S_CARD_PUBLIC + card] == 0
    return False


@kernel(inline="always")
def symbol_counts(comp, cards, w, s):
    """(cards showing symbol ``s`` at least once, at least twice) among the deck cards
    ``cards`` of mask word ``w``: popcounts against the component symbol masks."""
    sym = C_SYMBOL_MASK + (w * N_SYMBOLS + s) * 2
    return popcount(cards & comp[sym]), popcount(cards & comp[sym + 1])


@kernel(inline="always")
def build_view(state, comp, player, view):
    """Fill ``view`` (float64[VIEW_SIZE]) with counts the player is allowed to know.

    Works on the location masks (``S_LOC_MASK``): the unseen cards are the deck plus the cards
    in other hands not marked public, and their counts by colour and symbol are popcounts
    against the component masks (``C_COLOUR_MASK``, ``C_SYMBOL_MASK``). ``build_view_slow``
    is the same by a walk over the cards; a test keeps them equal.
    """
    view[:] = 0.0
    public = S_LOC_MASK + MASK_PUBLIC * N_MASK_WORDS
    deck = S_LOC_MASK + MASK_DECK * N_MASK_WORDS
    mine = S_LOC_MASK + (MASK_HAND + player) * N_MASK_WORDS
    symbols = 0  # symbols shown by the unseen cards
    for w in range(N_MASK_WORDS):
        others = 0
        for q in range(P):
            if q == player:
                continue
            hand_q = state[S_LOC_MASK + (MASK_HAND + q) * N_MASK_WORDS + w]
            others |= hand_q
            known = hand_q & (state[public + w] | ~DECK_WORD_BITS[w])  # public, or prestige
            if known == 0:
                continue
            # Another hand's known cards: their symbols by popcounts against the deck cards'
            # symbol masks (a symbol shows at most twice on a card), colour by colour; the
            # prestige cards, outside those masks, one by one. Every slot is a sum of small
            # integers, exact in any order: the same view as a walk over the cards.
            view[V_HIDDEN_N + q] -= popcount(known)
            known_deck = known & DECK_WORD_BITS[w]
            if known_deck != 0:
                for col in range(N_COLS):
                    cards = known_deck & comp[C_COLOUR_MASK + w * N_COLS + col]
                    if cards == 0:
                        continue
                    row = V_KNOWN_SYM + (q * N_COLS + col) * N_SYMBOLS
                    for s in range(N_SYMBOLS):
                        once, twice = symbol_counts(comp, cards, w, s)
                        view[row + s] += once + twice
            prestige = known & ~DECK_WORD_BITS[w]
            while prestige != 0:
                low = prestige & -prestige
                prestige ^= low
                card = word_card(w, low_bit_index(low))
                col = comp[C_CARD_COLOUR + card]
                for s in range(N_SYMBOLS):
                    k = comp[C_CARD_SYM + card * N_SYMBOLS + s]
                    view[V_KNOWN_SYM + (q * N_COLS + col) * N_SYMBOLS + s] += k
        unseen = (state[deck + w] | (others & ~state[public + w])) & DECK_WORD_BITS[w]
        my_hand = state[mine + w]
        for col in range(N_COLS):
            colour = comp[C_COLOUR_MASK + w * N_COLS + col]
            if colour == 0:  # a word holds the cards of one or two colours
                continue
            view[V_MY_COL + col] += popcount(my_hand & colour)
            cards = unseen & colour
            if cards == 0:
                continue
            n_cards = popcount(cards)
            view[V_UNSEEN] += n_cards
            view[V_COL_N + col] += n_cards
            for s in range(N_SYMBOLS):
                once, twice = symbol_counts(comp, cards, w, s)
                view[V_COL_SYM + col * N_SYMBOLS + s] += once
                view[V_COL_SYM2 + col * N_SYMBOLS + s] += twice
                symbols += once + twice  # a card shows a symbol at most twice
    # the slots are sums of small integers, exact in any order: summed in an integer first
    view[V_MEAN_CARD] = symbols
    finish_view(state, player, view)


@kernel(inline="always")
def build_count_view(state, comp, player, view, unseen):
    """Fill only the card counts of ``view`` (float64[VIEW_SIZE]) that the palace, crown and
    display decisions read: ``V_MY_COL`` and ``V_MY_BEST`` and, with ``unseen``, ``V_UNSEEN``
    and ``V_COL_N``; the other slots are left as they are. Each filled slot gets exactly the
    value ``build_view`` gives it (the same popcounts, summed in the same order), at a fraction
    of the cost: no symbol counts, no public cards of other hands."""
    public = S_LOC_MASK + MASK_PUBLIC * N_MASK_WORDS
    deck = S_LOC_MASK + MASK_DECK * N_MASK_WORDS
    mine = S_LOC_MASK + (MASK_HAND + player) * N_MASK_WORDS
    for col in range(N_COLS):
        view[V_MY_COL + col] = 0.0
        if unseen:
            view[V_COL_N + col] = 0.0
    if unseen:
        view[V_UNSEEN] = 0.0
    for w in range(N_MASK_WORDS):
        cards_unseen = 0
        if unseen:
            others = 0
            for q in range(P):
                if q != player:
                    others |= state[S_LOC_MASK + (MASK_HAND + q) * N_MASK_WORDS + w]
            cards_unseen = (state[deck + w] | (others & ~state[public + w])) & DECK_WORD_BITS[w]
        my_hand = state[mine + w]
        for col in range(N_COLS):
            colour = comp[C_COLOUR_MASK + w * N_COLS + col]
            view[V_MY_COL + col] += popcount(my_hand & colour)
            cards = cards_unseen & colour
            if cards != 0:
                n_cards = popcount(cards)
                view[V_UNSEEN] += n_cards
                view[V_COL_N + col] += n_cards
    best = 0.0
    for c in range(N_COLOURS):
        if view[V_MY_COL + c] > best:
            best = view[V_MY_COL + c]
    view[V_MY_BEST] = best


@kernel
def build_view_slow(state, comp, player, view):
    """``build_view`` by a walk over the cards and their locations (the reference)."""
    view[:] = 0.0
    my_loc = LOC_HAND + player
    for card in range(N_CARDS):
        loc = state[S_CARD_LOC + card]
        col = comp[C_CARD_COLOUR + card]
        if loc == my_loc:
            view[V_MY_COL + col] += 1.0
        elif card < N_DECK_CARDS and is_unseen(state, player, card):
            view[V_UNSEEN] += 1.0
            view[V_COL_N + col] += 1.0
            for s in range(N_SYMBOLS):
                k = comp[C_CARD_SYM + card * N_SYMBOLS + s]
                if k >= 1:
                    view[V_COL_SYM + col * N_SYMBOLS + s] += 1.0
                    view[V_MEAN_CARD] += k
                if k >= 2:
                    view[V_COL_SYM2 + col * N_SYMBOLS + s] += 1.0
        elif loc >= LOC_HAND and loc < LOC_HAND + P:  # public card in another hand
            q = loc - LOC_HAND
            for s in range(N_SYMBOLS):
                k = comp[C_CARD_SYM + card * N_SYMBOLS + s]
                view[V_KNOWN_SYM + (q * N_COLS + col) * N_SYMBOLS + s] += k
            view[V_HIDDEN_N + q] -= 1.0
    finish_view(state, player, view)


@kernel(inline="always")
def finish_view(state, player, view):
    """The parts of the view computed from the counts: hidden hand sizes, best colour, mean."""
    for q in range(P):
        if q != player:
            view[V_HIDDEN_N + q] += state[S_HAND_N + q]
    best = 0.0
    for c in range(N_COLOURS):
        if view[V_MY_COL + c] > best:
            best = view[V_MY_COL + c]
    view[V_MY_BEST] = best
    if view[V_UNSEEN] > 0:
        view[V_MEAN_CARD] /= view[V_UNSEEN]


@kernel(inline="always")
def p_any(miss, frac, n_draws):
    """Probability that ``n_draws`` cards drawn with replacement include a card of a kind that
    makes up ``frac`` of the pool; ``miss = 1 - frac`` is passed in because it is shared by every
    opponent with the same row colour.

    ``1 - miss ** n`` by repeated multiplication (``n_draws`` is a whole number, a hand size):
    only IEEE operations, which round alike on the CPU and the GPU (``exp`` and ``log`` differ
    between libm and libdevice in the last bits, enough to turn a near-tie the other way).
    """
    if frac <= 0.0 or n_draws <= 0:
        return 0.0
    if frac >= 1.0:
        return 1.0
    keep = 1.0
    for _ in range(np.int64(n_draws)):
        keep *= miss
    return 1.0 - keep


@kernel(inline="always")
def p_any_from(keep, frac, n_draws):
    """``p_any(miss, frac, n_draws)`` given ``keep``, ``miss`` multiplied ``int(n_draws)`` times
    into 1.0 (the same products in the same order, so the same value): ``threat_table`` runs
    a symbol's three products side by side in registers, independent chains the CPU
    overlaps, instead of one chain after the other."""
    if frac <= 0.0 or n_draws <= 0:
        return 0.0
    if frac >= 1.0:
        return 1.0
    return 1.0 - keep


# Scratch of threat_table: per row colour (N_COLOURS: none yet; N_COLS: colourless), symbol and
# slot (share of unseen cards showing it once, twice, then 1 - that share).
THREAT_SCRATCH = (N_COLS + 1) * N_SYMBOLS * 4


@kernel(inline="always")
def is_active(state, q):
    """Whether seat ``q`` plays and has not withdrawn from the visit."""
    return q < state[S_N_PLAYERS] and state[S_WITHDRAWN + q] == 0


@kernel(inline="always")
def threat_table(state, comp, view, player, a_out, b_out, scratch):
    """For each other active player q (``is_active``) and symbol s: the chance that q can add at
    least one (``a_out[q, s]``) and at least two (``b_out[q, s]``) symbols s in a single play.

    Uses q's row colour (public), its known public cards and the unseen-card frequencies applied
    to its number of unseen cards; nothing about the actual hidden hand. The frequencies depend
    on the row colour, not on q, so each is computed once per colour.
    ``scratch``: float64[THREAT_SCRATCH].
    """
    u = view[V_UNSEEN]
    # freq[c, s, k]: share of unseen cards of colour c (c = N_COLOURS: any colour, for a player
    # with no row yet; c = N_COLS: colourless) showing symbol s once (k = 0) / twice (k = 1);
    # freq[c, s, 2 + k] is 1 - that share. Bit c of done: row c computed.
    freq = scratch[:THREAT_SCRATCH].reshape((N_COLS + 1, N_SYMBOLS, 4))
    done = 0
    for q in range(P):
        for s in range(N_SYMBOLS):
            a_out[q, s] = 0.0
            b_out[q, s] = 0.0
        if q == player or not is_active(state, q):
            continue
        h = view[V_HIDDEN_N + q]
        col = state[S_ROW_COLOUR + q]
        c = col if col >= 0 else N_COLOURS
        if not done & (1 << c):
            for s in range(N_SYMBOLS):
                if u > 0:
                    if col >= 0:
                        f1 = view[V_COL_SYM + col * N_SYMBOLS + s] / u
                        f2 = view[V_COL_SYM2 + col * N_SYMBOLS + s] / u
                    else:
                        f1 = 0.0
                        f2 = 0.0
                        for k in range(N_COLOURS):
                            f1 += view[V_COL_SYM + k * N_SYMBOLS + s] / u
                            f2 += view[V_COL_SYM2 + k * N_SYMBOLS + s] / u
                else:
                    f1 = 0.0
                    f2 = 0.0
                freq[c, s, 0] = f1
                freq[c, s, 1] = f2
                freq[c, s, 2] = 1.0 - f1
                freq[c, s, 3] = 1.0 - f2
            done |= 1 << c
        if not done & (1 << N_COLS):
            for s in range(N_SYMBOLS):
                fw = view[V_COL_SYM + COLOURLESS * N_SYMBOLS + s] / u if u > 0 else 0.0
                freq[N_COLS, s, 0] = fw
                freq[N_COLS, s, 2] = 1.0 - fw
            done |= 1 << N_COLS
        n_draws = np.int64(h) if h > 0 else 0
        for s in range(N_SYMBOLS):
            # the products in registers (scratch memory made every step a load and a store)
            miss_col = freq[c, s, 2]
            miss_two = freq[c, s, 3]
            miss_white = freq[N_COLS, s, 2]
            keep_col = 1.0
            keep_two = 1.0
            keep_white = 1.0
            for _ in range(n_draws):
                keep_col *= miss_col
                keep_two *= miss_two
                keep_white *= miss_white
            p_col = p_any_from(keep_col, freq[c, s, 0], h)
            p_two = p_any_from(keep_two, freq[c, s, 1], h)
            p_white = p_any_from(keep_white, freq[N_COLS, s, 0], h)
            known_col = 0.0
            if col >= 0:
                known_col = view[V_KNOWN_SYM + (q * N_COLS + col) * N_SYMBOLS + s]
            else:
                for k in range(N_COLOURS):
                    known_col += view[V_KNOWN_SYM + (q * N_COLS + k) * N_SYMBOLS + s]
            if known_col > 0:
                p_col = 1.0
            if view[V_KNOWN_SYM + (q * N_COLS + COLOURLESS) * N_SYMBOLS + s] > 0:
                p_white = 1.0
            a_out[q, s] = 1.0 - (1.0 - p_col) * (1.0 - p_white)
            b_out[q, s] = min(1.0, p_two + p_col * p_white * (1.0 - p_two))


@kernel(inline="always")
def links_if(state, comp, mine, city):
    """Provinces connected to the current one if the player whose palace cities are ``mine``
    (``palace_cities``) had one more palace on ``city``."""
    return connected_from(comp, mine | (np.uint64(1) << np.uint64(city)), state[S_PROVINCE])


# The links memo (float64[LINK_MEMO_SIZE], in the heuristic's scratch): per player, the key of
# the row it holds (the province + 1, 0 for none; the low and high 32 bits of the palace cities
# ``mine``), then ``links_if`` for each city of the province, in province order. ``links_if``
# is a road search per city, and the heuristic asks for every city of the province at every bid
# and palace decision, while its inputs change only when the player builds or a visit starts.
LINK_KEY = 3
LINK_ROW = LINK_KEY + MAX_CITIES_PER_PROVINCE
LINK_MEMO_SIZE = MAX_PLAYERS * LINK_ROW


@kernel(inline="always")
def province_links(state, comp, mine, player, memo):
    """Offset in ``memo`` (the links memo, zeroed when allocated) of ``player``'s row:
    ``memo[offset + i]`` is ``links_if(state, comp, mine, city)`` for the province's ``i``-th
    city (``province_city``). Filled on a key miss only.

    The key is the province and ``mine``: with the board ``comp`` they fix every value, so a
    row computed in one game (or one determinisation) is right in another. A memo must not be
    shared between two boards (every caller allocates its scratch per batch or per call)."""
    prov = state[S_PROVINCE]
    row = player * LINK_ROW
    lo = np.float64(np.int64(mine & np.uint64(0xFFFFFFFF)))
    hi = np.float64(np.int64(mine >> np.uint64(32)))
    if memo[row] != prov + 1 or memo[row + 1] != lo or memo[row + 2] != hi:
        for i in range(province_n_cities(comp, prov)):
            memo[row + LINK_KEY + i] = links_if(state, comp, mine, province_city(comp, prov, i))
        memo[row] = prov + 1
        memo[row + 1] = lo
        memo[row + 2] = hi
    return row + LINK_KEY


@kernel(inline="always")
def city_links(state, comp, mine, player, memo, city):
    """``links_if(state, comp, mine, city)`` for a ``city`` of the current province, read from
    the links memo (``province_links``)."""
    at = province_links(state, comp, mine, player, memo)
    prov = state[S_PROVINCE]
    i = 0  # the city's place in its province: the memo's order
    while province_city(comp, prov, i) != city:
        i += 1
    return np.int64(memo[at + i])


@kernel(inline="always")
def future_roads(state, comp, city):
    """Roads from ``city`` to provinces that are still to be visited (room to grow a chain)."""
    visit = state[S_VISIT]
    count = 0
    prov = comp[C_CITY_PROVINCE + city]
    for k in range(comp[C_ADJ_START + city], comp[C_ADJ_START + city + 1]):
        other = comp[C_ADJ + k]
        op = comp[C_CITY_PROVINCE + other]
        if op != prov and state[S_PROVINCE_TILE + op] > visit:
            count += 1
    return count


@kernel(inline="always")
def good_points(state, player, good, extra_held):
    """Points for one more good of kind ``good`` (R11), given ``extra_held`` already pending."""
    return 1.0 + state[S_GOODS + player * N_GOODS + good] + extra_held


@kernel(inline="always")
def tile_points(state, comp, player, tile):
    """Commodity points ``player`` would score for province tile ``tile`` (R13)."""
    pts = 0.0
    for g in range(N_GOODS):
        held = state[S_GOODS + player * N_GOODS + g]
        for k in range(comp[C_TILE_GOODS + tile * N_GOODS + g]):
            pts += 1.0 + held + k
    return pts


@kernel(inline="always")
def current_tile(state):
    return state[S_PROVINCE_TILE + state[S_PROVINCE]]


@kernel(inline="always")
def bonus_value(state, player, kind, w_bonus, w_commodity, w_draw):
    """Weighted value of claiming a bonus tile of ``kind``."""
    if kind < 0:
        return 0.0
    if kind < N_GOODS:
        return w_commodity * good_points(state, player, kind, 0)
    if kind == BONUS.PLUS2:
        return 2.0 * w_bonus
    if kind == BONUS.TAJ4:
        return 4.0 * w_bonus
    if kind == BONUS.DRAW:
        return w_draw
    return 0.0


@kernel(inline="always")
def city_bonus_kind(state, city):
    return state[S_BONUS_AT + city]


@kernel(inline="always")
def province_city(comp, prov, i):
    return comp[C_PROV_CITIES + prov * MAX_CITIES_PER_PROVINCE + i]


@kernel(inline="always")
def province_n_cities(comp, prov):
    return comp[C_PROV_N_CITIES + prov]


@kernel(inline="always")
def visits_left(state):
    """Visits after the current one."""
    return N_VISITS - 1 - state[S_VISIT]


@kernel(inline="always")
def pair_progress(state, player, advisor):
    """(tokens of ``advisor`` held, 1 if ``player`` already holds its prestige card)."""
    held = state[S_TOKENS + player * N_ADVISORS + advisor]
    card = ADVISOR_PRESTIGE[advisor]
    mine = 1 if state[S_CARD_LOC + card] == LOC_HAND + player else 0
    return held, mine
