"""The parametric heuristic family and ``greedy``: one compiled policy, behaviour set by weights.

Every decision is a one-step look-ahead scored with a weight vector ``w`` (float64[N_WEIGHTS]):

* **Bid.** Withdrawing now is worth the court seats the player holds a majority in (each valued
  by what it gives: a palace, its bonus tile and the chain of provinces it connects, the crown
  palace, the province tile's goods, progress toward an advisor pair), plus the display cards it
  would take (and the deck card for withdrawing without playing), plus a withdrawal bias.
  Playing a card (and optionally a colourless card) is worth, for every seat, the value of the
  seat times the chance of still holding the majority at the player's next turn, minus the
  value of the cards spent. The chance comes from what the player can see: each opponent's row
  colour, its public cards, and the frequency of each symbol among the cards it cannot see
  (:func:`~tajsim.games.tajmahal.strategies.features.threat_table`). The best is chosen.
* **Palace / crown city.** Connection gain, the bonus tile on the city, and roads toward
  provinces still to be visited; a crown palace stacked on the player's own palace gets
  neither (R9: it links nothing new), so a spreading city wins a tie.
* **Display card.** Value of the card kept in hand (end-game colour, colourless cards) plus
  interest in the symbols the weights favour.

``greedy`` is this kernel with fixed weights that count raw points (no archetype bias); the
presets (commodity, network, hoarder, collector, balanced, tuned) are weight vectors in
``presets.toml``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tajsim.engine.arrays import borrowed
from tajsim.engine.targets import kernel
from tajsim.games.tajmahal.engine.enums import (
    ACTION_CITY,
    ACTION_TAKE,
    ACTION_WITHDRAW,
    BONUS,
    C_CARD_COLOUR,
    C_CARD_SYM,
    COLOURLESS,
    EDITION_2018,
    FIRST_PRESTIGE,
    MASK_DISPLAY,
    MAX_LEGAL,
    MAX_PLAYERS,
    N_ADVISORS,
    N_MASK_WORDS,
    N_SYMBOLS,
    N_VISITS,
    PHASE_BID,
    PHASE_CROWN,
    PHASE_DISPLAY,
    PHASE_PALACE,
    PRESTIGE_NOBILITY,
    S_EDITION,
    S_LOC_MASK,
    S_N_PLAYERS,
    S_PALACES,
    S_PHASE,
    S_PROTEST_DONE,
    S_PROVINCE,
    S_ROW_N,
    S_ROW_SYM,
    S_SEAT,
    S_UNREST_SYM,
    S_VISIT,
    SEAT_CROWN,
    SEAT_PRESENT,
    SEAT_PROVINCE,
)
from tajsim.games.tajmahal.engine.nb import (
    bid_cards,
    bid_symbols,
    has_majority,
    is_open_city,
    low_bit_index,
    palace_cities,
    word_card,
)
from tajsim.games.tajmahal.strategies.features import (
    LINK_MEMO_SIZE,
    N_COLS,
    THREAT_SCRATCH,
    V_COL_N,
    V_COL_SYM,
    V_MY_BEST,
    V_MY_COL,
    V_UNSEEN,
    VIEW_SIZE,
    bonus_value,
    build_count_view,
    build_view,
    city_bonus_kind,
    city_links,
    current_tile,
    future_roads,
    is_active,
    pair_progress,
    province_city,
    province_links,
    province_n_cities,
    threat_table,
    tile_points,
    visits_left,
)
from tajsim.games.tajmahal.strategies.ids import N_LEARNED_SLOTS, N_WEIGHTS

P = MAX_PLAYERS

# Weight slots (names in ``WEIGHT_NAMES``; documented in docs/strategies.md).
W_PALACE = 0  # the once-per-visit palace point
W_CONNECT = 1  # each province connected by the palace chain
W_BONUS = 2  # each point of a +2 / Taj Mahal bonus tile
W_COMMODITY = 3  # each commodity point (province tiles, commodity bonus tiles)
W_CROWN = 4  # extra value of the crown (flexible palace) beyond its points
W_ELEPHANT = 5  # extra value of a province tile beyond its points (future goods)
W_ADVISOR = 6  # extra value of each advisor token beyond its palace
W_PAIR = 7  # value of completing an advisor pair (a prestige card)
W_CARD = 8  # value of a coloured card kept in hand
W_WHITE = 9  # value of a colourless card kept in hand
W_TAKE = 10  # weight of the display cards (and deck card) taken on withdrawal
W_ENDGAME = 11  # extra value of best-colour cards, growing toward the last visit
W_CAUTION = 12  # how seriously opponents' possible over-bids are taken (1 = as estimated)
W_WD_BIAS = 13  # points added to withdrawing (> 0 withdraws earlier)
W_SPREAD = 14  # value per road from a palace city toward provinces still to come
W_TEMPO = 15  # share of the display value lost per opponent still bidding when continuing
WEIGHT_NAMES = (
    "palace", "connect", "bonus", "commodity", "crown", "elephant", "advisor", "pair",
    "card", "white", "take", "endgame", "caution", "wd_bias", "spread", "tempo",
)
assert len(WEIGHT_NAMES) == N_WEIGHTS

# greedy: raw points and card values, no archetype bias. Caution 0.5, not 1: the threat table
# gives the chance an opponent *can* over-bid a seat, but an opponent plays one card a turn, for
# one of the seats it contests, or withdraws. Taken at 1 every bid looked lost, and greedy
# withdrew at once nearly every visit (0.5% of the wins against the field, below random).
GREEDY_WEIGHTS = np.array(
    [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.5, 1.0, 1.0, 0.0, 0.5, 0.0, 0.0, 0.0]
)


# ---------------------------------------------------------------------------
# Card values
# ---------------------------------------------------------------------------
# The per-card and per-seat helpers are inlined (inline="always"): called for every display
# card and every city at every bid, their out-of-line calls (reference counting on four array
# arguments each) cost more than their arithmetic.
@kernel(inline="always")
def colour_keep_value(state, view, w, col):
    """Value of keeping a non-prestige card of colour ``col`` in hand (what spending it costs,
    what taking it gains; a prestige card is worth nothing: it returns to hand after the
    visit)."""
    if col == COLOURLESS:
        return w[W_WHITE]
    progress = state[S_VISIT] / (N_VISITS - 1.0)
    best = view[V_MY_BEST]
    fit = 1.0 if best <= 0 else view[V_MY_COL + col] / best
    if fit > 1.0:
        fit = 1.0
    return w[W_CARD] * (1.0 + w[W_ENDGAME] * progress * fit)


@kernel(inline="always")
def symbol_interest(w, s):
    """Small bonus per symbol when choosing display cards, from the seat weights."""
    if s < N_ADVISORS:
        return 0.1 * (w[W_ADVISOR] + w[W_PAIR] * 0.5 + w[W_CONNECT] * 0.5)
    if s == SEAT_CROWN:
        return 0.1 * (w[W_CROWN] + w[W_CONNECT])
    return 0.1 * (w[W_ELEPHANT] + w[W_COMMODITY])


@kernel(inline="always")
def card_values(state, view, w, keep, interest):
    """The per-decision tables of card values: ``keep[col]`` (float64[N_COLS]), the value of
    keeping a non-prestige card of colour ``col`` (``colour_keep_value``), and ``interest[s]``
    (float64[N_SYMBOLS]), ``symbol_interest``. Computed once per decision, not once per card."""
    for col in range(N_COLS):
        keep[col] = colour_keep_value(state, view, w, col)
    for s in range(N_SYMBOLS):
        interest[s] = symbol_interest(w, s)


@kernel(inline="always")
def take_value(comp, keep, interest, card):
    """Value of taking ``card`` from the display: keeping it (nothing for a prestige card,
    which returns to hand after the visit) plus the interest in its symbols; ``keep`` and
    ``interest`` from ``card_values``."""
    v = 0.0 if card >= FIRST_PRESTIGE else keep[comp[C_CARD_COLOUR + card]]
    for s in range(N_SYMBOLS):
        k = comp[C_CARD_SYM + card * N_SYMBOLS + s]
        if k > 0:
            v += k * interest[s]
    return v


@kernel(inline="always")
def display_value(state, comp, keep, interest, k):
    """Value of the best ``k`` display cards for the player (``card_values`` tables)."""
    b1 = -1e9
    b2 = -1e9
    n = 0
    for word in range(N_MASK_WORDS):  # the display's cards, in ascending order
        m = state[S_LOC_MASK + MASK_DISPLAY * N_MASK_WORDS + word]
        while m != 0:
            low = m & -m
            m ^= low
            v = take_value(comp, keep, interest, word_card(word, low_bit_index(low)))
            n += 1
            if v > b1:
                b2 = b1
                b1 = v
            elif v > b2:
                b2 = v
    if n == 0:
        return 0.0
    if k == 1 or n == 1:
        return b1
    return b1 + b2


@kernel(inline="always")
def mean_unseen_value(state, comp, view, w):
    """Expected value of a card drawn blind (colour frequencies among unseen cards)."""
    u = view[V_UNSEEN]
    if u <= 0:
        return w[W_CARD]
    progress = state[S_VISIT] / (N_VISITS - 1.0)
    best = view[V_MY_BEST]
    total = 0.0
    for col in range(N_COLS):
        n = view[V_COL_N + col]
        if col == COLOURLESS:
            total += n * w[W_WHITE]
        else:
            fit = 1.0 if best <= 0 else min(1.0, view[V_MY_COL + col] / best)
            total += n * w[W_CARD] * (1.0 + w[W_ENDGAME] * progress * fit)
    return total / u


# ---------------------------------------------------------------------------
# Seat values
# ---------------------------------------------------------------------------
@kernel(inline="always")
def seat_values(state, comp, view, w, player, seat_v, unseen_value, memo):
    """Value of winning each court seat now (``seat_v``, float64[N_SYMBOLS]) and the once-per-
    visit value of placing at least one palace (returned), both weighted by ``w``;
    ``unseen_value`` is ``mean_unseen_value`` (the caller needs it too: computed once);
    ``memo`` is the links memo (``province_links``).

    ``seat_v`` of the crown holds its value beyond the palace point; an advisor seat holds the
    best open city's bonus tile and growth, plus the advisor and pair terms.
    """
    prov = state[S_PROVINCE]
    n_cities = province_n_cities(comp, prov)
    draw_v = unseen_value * w[W_TAKE]
    mine = palace_cities(state, comp, player)
    at = province_links(state, comp, mine, player, memo)
    best_open_links = -1
    best_any_links = 0
    best_open_city_v = 0.0
    best_any_spread = 0.0
    n_open = 0
    for i in range(n_cities):
        city = province_city(comp, prov, i)
        links = np.int64(memo[at + i])
        spread = w[W_SPREAD] * future_roads(state, comp, city)
        if links > best_any_links:
            best_any_links = links
        if spread > best_any_spread:
            best_any_spread = spread
        if is_open_city(state, city):
            n_open += 1
            if links > best_open_links:
                best_open_links = links
            v = bonus_value(state, player, city_bonus_kind(state, city), w[W_BONUS],
                            w[W_COMMODITY], draw_v) + spread
            if v > best_open_city_v:
                best_open_city_v = v
    palace_base = w[W_PALACE] + w[W_CONNECT] * max(best_open_links, 0)
    left = visits_left(state)
    for s in range(N_SYMBOLS):
        seat_v[s] = 0.0
    for a in range(N_ADVISORS):
        held, mine = pair_progress(state, player, a)
        pair = 0.0
        if mine == 0:
            if held == 1:
                pair = w[W_PAIR]
            elif held == 0 and left > 0:
                pair = 0.3 * w[W_PAIR]
        if n_open > 0:
            seat_v[a] = best_open_city_v + w[W_ADVISOR] + pair
        else:
            seat_v[a] = pair
    extra_links = best_any_links - max(best_open_links, 0)
    seat_v[SEAT_CROWN] = w[W_CROWN] + best_any_spread + w[W_CONNECT] * extra_links
    if n_open == 0:  # only the crown can give the palace point
        seat_v[SEAT_CROWN] += w[W_PALACE] + w[W_CONNECT] * max(best_open_links, 0)
    seat_v[SEAT_PROVINCE] = w[W_COMMODITY] * tile_points(state, comp, player, current_tile(state))
    seat_v[SEAT_PROVINCE] += w[W_ELEPHANT] * (left / (N_VISITS - 1.0) + 0.5)
    if n_open == 0:
        return 0.0
    return palace_base


# ---------------------------------------------------------------------------
# The bid decision
# ---------------------------------------------------------------------------
@kernel(inline="always")
def reach_prob(a, b, need):
    """Chance an opponent gains ``need`` symbols in one play (a: >= 1, b: >= 2)."""
    if need <= 0:
        return 1.0
    if need == 1:
        return a
    if need == 2:
        return b
    return 0.15 * b


# A play adds at most three symbols: a coloured card shows two, a colourless card one (the
# component loader checks both).
MAX_PLAY_SYMBOLS = 3


@kernel(inline="always")
def hold_table(state, view, player, caution, threat_a, threat_b, unrest_live, hold):
    """Chance of still holding each seat's majority at the player's next turn, for every number
    of symbols a play could add: ``hold[s * (MAX_PLAY_SYMBOLS + 1) + add]`` (0 where the seat
    is gone or the player would show no symbol s). It depends on the play only through ``add``,
    so ``decide_bid`` computes it once per decision instead of once per legal bid.
    """
    n = state[S_N_PLAYERS]
    u = view[V_UNSEEN]
    for s in range(N_SYMBOLS):
        first = s * (MAX_PLAY_SYMBOLS + 1)
        row = state[S_ROW_SYM + player * N_SYMBOLS + s]
        present = state[S_SEAT + s] == SEAT_PRESENT
        for add in range(MAX_PLAY_SYMBOLS + 1):
            hold[first + add] = 1.0 if present and row + add > 0 else 0.0
        if not present:
            continue
        # Each opponent once for the four plays: the same factors, multiplied in the same
        # order (opponents ascending) into each slot as one opponent loop per slot would.
        for q in range(n):
            if q == player or not is_active(state, q):
                continue
            a = threat_a[q, s]
            b = threat_b[q, s]
            gap = row - state[S_ROW_SYM + q * N_SYMBOLS + s]
            for add in range(MAX_PLAY_SYMBOLS + 1):
                if row + add == 0:
                    continue
                need = gap + add
                r = reach_prob(a, b, need)
                if need > 0:
                    r = min(1.0, r * caution)
                hold[first + add] *= 1.0 - r
        if unrest_live:
            for add in range(MAX_PLAY_SYMBOLS + 1):
                if row + add == 0:
                    continue
                need = row + add - state[S_UNREST_SYM + s]
                if need <= 0:
                    hold[first + add] = 0.0
                elif need == 1 and u > 0:
                    f = 0.0
                    for c in range(N_COLS):
                        f += view[V_COL_SYM + c * N_SYMBOLS + s]
                    hold[first + add] *= 1.0 - min(1.0, caution * f / u)


@kernel(inline="always")
def play_tables(state, player, hold, seat_v, gain, miss):
    """What a play adding ``add`` symbols ``s`` is worth, per slot ``s * (MAX_PLAY_SYMBOLS + 1)
    + add`` of ``hold``: ``gain``, the seat's value times the chance of holding it, and
    ``miss``, the factor of the chance of no palace (``1 - hold`` for a palace seat, else 1).
    A seat that is gone, or that the player would still show none of, gains -0.0 and misses
    1.0, so the bid loop adds and multiplies every slot without a test: ``x + -0.0`` and
    ``x * 1.0`` are ``x`` bit for bit (a ``+0.0`` would turn a ``-0.0`` value into ``+0.0``),
    and its values stay those of skipping the seat."""
    for s in range(N_SYMBOLS):
        present = state[S_SEAT + s] == SEAT_PRESENT
        row = state[S_ROW_SYM + player * N_SYMBOLS + s]
        palace_seat = s < N_ADVISORS or s == SEAT_CROWN
        for add in range(MAX_PLAY_SYMBOLS + 1):
            at = s * (MAX_PLAY_SYMBOLS + 1) + add
            if not present or row + add == 0:
                gain[at] = -0.0
                miss[at] = 1.0
            else:
                h = hold[at]
                gain[at] = h * seat_v[s]
                miss[at] = 1.0 - h if palace_seat else 1.0


# Layout of decide_bid's scratch (float64[BID_WORK_SIZE], after the view): the threat tables,
# seat values, hold table, keep values by colour, symbol interest, threat_table's own scratch,
# and the play tables (play_tables).
AT_THREAT_A = 0  # [P * N_SYMBOLS]
AT_THREAT_B = AT_THREAT_A + P * N_SYMBOLS  # [P * N_SYMBOLS]
AT_SEAT_V = AT_THREAT_B + P * N_SYMBOLS  # [N_SYMBOLS]
AT_HOLD = AT_SEAT_V + N_SYMBOLS  # [N_SYMBOLS * (MAX_PLAY_SYMBOLS + 1)]
AT_KEEP = AT_HOLD + N_SYMBOLS * (MAX_PLAY_SYMBOLS + 1)  # [N_COLS]
AT_INTEREST = AT_KEEP + N_COLS  # [N_SYMBOLS]
AT_THREAT_SCRATCH = AT_INTEREST + N_SYMBOLS  # [THREAT_SCRATCH]
AT_GAIN = AT_THREAT_SCRATCH + THREAT_SCRATCH  # [N_SYMBOLS * (MAX_PLAY_SYMBOLS + 1)]
AT_MISS = AT_GAIN + N_SYMBOLS * (MAX_PLAY_SYMBOLS + 1)  # [N_SYMBOLS * (MAX_PLAY_SYMBOLS + 1)]
BID_WORK_SIZE = AT_MISS + N_SYMBOLS * (MAX_PLAY_SYMBOLS + 1)


@kernel(inline="always")
def decide_bid(state, comp, player, w, legal, n_legal, view, work, values, memo):
    """Best bid action (or withdrawal) by one-step look-ahead; see the module docstring.

    ``work``: float64[BID_WORK_SIZE], scratch; ``values[i]`` gets the value of ``legal[i]``;
    ``memo``: the links memo (``province_links``).
    """
    threat_a = work[AT_THREAT_A:AT_THREAT_B].reshape((P, N_SYMBOLS))
    threat_b = work[AT_THREAT_B:AT_SEAT_V].reshape((P, N_SYMBOLS))
    seat_v = work[AT_SEAT_V:AT_HOLD]
    hold = work[AT_HOLD:AT_KEEP]
    keep = work[AT_KEEP:AT_INTEREST]  # the value of keeping a card of each colour
    interest = work[AT_INTEREST:AT_THREAT_SCRATCH]
    n = state[S_N_PLAYERS]
    n_others = 0
    for q in range(n):
        if q != player and is_active(state, q):
            n_others += 1
    threat_table(state, comp, view, player, threat_a, threat_b,
                 work[AT_THREAT_SCRATCH:BID_WORK_SIZE])
    unseen_value = mean_unseen_value(state, comp, view, w)
    palace_base = seat_values(state, comp, view, w, player, seat_v, unseen_value, memo)
    # Unrest (2 players, 2018): each turn may add a card to unrest, a rival of its own.
    unrest_live = (n == 2 and state[S_EDITION] == EDITION_2018 and state[S_PROTEST_DONE] == 0)
    # Withdrawing now.
    card_values(state, view, w, keep, interest)
    disp = display_value(state, comp, keep, interest, 1 if n_others == 0 else 2)
    wd = w[W_WD_BIAS] + w[W_TAKE] * disp
    if state[S_ROW_N + player] == 0:
        wd += w[W_TAKE] * unseen_value
    any_palace = False
    for s in range(N_SYMBOLS):
        if state[S_SEAT + s] == SEAT_PRESENT and has_majority(state, player, s):
            wd += seat_v[s]
            if s < N_ADVISORS or s == SEAT_CROWN:
                any_palace = True
    if any_palace:
        wd += palace_base
    best_action = ACTION_WITHDRAW
    best_value = wd
    if legal[0] != ACTION_WITHDRAW:  # a restriction (blind_withdraw) took withdrawing away
        best_action = legal[0]
        best_value = -1e18
    # Continuing: value at the next turn, the same display later, minus the cards spent.
    disp_later = w[W_TAKE] * disp
    if n > 1:
        disp_later *= max(0.0, 1.0 - w[W_TEMPO] * n_others / (n - 1.0))
    hold_table(state, view, player, w[W_CAUTION], threat_a, threat_b, unrest_live, hold)
    gain = work[AT_GAIN:AT_MISS]
    miss = work[AT_MISS:BID_WORK_SIZE]
    play_tables(state, player, hold, seat_v, gain, miss)
    for i in range(n_legal):
        action = legal[i]
        if action == ACTION_WITHDRAW:
            values[i] = wd  # hook: the temperature draws from every value
            continue
        card, extra = bid_cards(action)
        value = disp_later - keep[comp[C_CARD_COLOUR + card]]  # bids play coloured cards
        if extra >= 0:
            value -= 0.0 if extra >= FIRST_PRESTIGE else keep[comp[C_CARD_COLOUR + extra]]
            if extra == PRESTIGE_NOBILITY:
                value += 2.0 * w[W_BONUS]
        miss_palace = 1.0
        for s in range(N_SYMBOLS):
            at = s * (MAX_PLAY_SYMBOLS + 1) + bid_symbols(comp, card, extra, s)
            value += gain[at]
            miss_palace *= miss[at]
        value += (1.0 - miss_palace) * palace_base
        values[i] = value  # hook: the temperature draws from every value
        if value > best_value:
            best_value = value
            best_action = action
    return best_action


# ---------------------------------------------------------------------------
# Palaces, crown, display
# ---------------------------------------------------------------------------
# What a crown palace stacked on a city holding the player's own palace loses to any other city:
# more than the 0.02 that decide_city adds for a city that is not open and the 0.01 it takes
# off a city whose bonus tile the crown would waste, so a spreading city always wins a tie.
STACKED_CROWN_MARGIN = 0.05


@kernel(inline="always")
def decide_city(state, comp, player, w, legal, n_legal, view, crown, values, memo):
    """Best palace (``crown`` False) or crown (True) city among ``legal[:n_legal]``; the value
    of ``legal[i]`` goes to ``values[i]``; ``memo`` is the links memo (``province_links``).

    ``view`` (float64[VIEW_SIZE]) is scratch: the card counts behind the value of a card
    drawn blind are counted (``build_count_view``) only when a palace city offers the
    draw bonus tile, the one value that needs them."""
    draw_v = 0.0
    counted = False
    mine = palace_cities(state, comp, player)
    best_action = legal[0]
    best_value = -1e18
    for i in range(n_legal):
        city = legal[i] - ACTION_CITY
        v = w[W_CONNECT] * city_links(state, comp, mine, player, memo, city)
        if crown and state[S_PALACES + city * P + player] > 0:
            # R9: a second palace of the player's on one city links nothing new and opens no
            # road its first palace does not already hold, so any other city is worth as much
            # or more; the margin makes a spreading city win the tie.
            v -= STACKED_CROWN_MARGIN
        else:
            v += w[W_SPREAD] * future_roads(state, comp, city)
        kind = city_bonus_kind(state, city)
        if not crown:
            if kind == BONUS.DRAW and not counted:
                build_count_view(state, comp, player, view, True)
                draw_v = mean_unseen_value(state, comp, view, w) * w[W_TAKE]
                counted = True
            v += bonus_value(state, player, kind, w[W_BONUS], w[W_COMMODITY], draw_v)
        elif kind >= 0 and kind != BONUS.TAJ4:
            v -= 0.01  # a crown palace there would waste the tile for everyone after the visit
        if crown and not is_open_city(state, city):
            v += 0.02  # prefer leaving open cities open
        values[i] = v  # hook: the temperature draws from every value
        if v > best_value:
            best_value = v
            best_action = legal[i]
    return best_action


@kernel(inline="always")
def decide_display(state, comp, player, w, legal, n_legal, view, work, values):
    """Best display card among ``legal[:n_legal]``; ``view`` (float64[VIEW_SIZE]) is scratch
    for the player's own colour counts, all that a card's value reads of it, ``work``
    (float64[BID_WORK_SIZE]) for the card value tables; ``values[i]`` gets ``legal[i]``'s."""
    build_count_view(state, comp, player, view, False)
    keep = work[AT_KEEP:AT_INTEREST]
    interest = work[AT_INTEREST:AT_THREAT_SCRATCH]
    card_values(state, view, w, keep, interest)
    best_action = legal[0]
    best_value = -1e18
    for i in range(n_legal):
        card = legal[i] - ACTION_TAKE
        v = take_value(comp, keep, interest, card)
        values[i] = v  # hook: the temperature draws from every value
        if v > best_value:
            best_value = v
            best_action = legal[i]
    return best_action


# The policy's scratch (float64[HEURISTIC_WORK_SIZE]): the view, decide_bid's work, room for a
# copy of the greedy weights, then the value of each legal action of the last decision (the
# temperature draws from them: WORK_VALUES + i holds legal[i]'s), then the learned policy's
# feature row (one action's features at a time: a whole MAX_LEGAL x n_features matrix would
# be 200 KB of every GPU thread's local memory), then the links memo (``province_links``).
# Callers pass it in, zeroed when allocated (the CPU entry points allocate it, a GPU thread
# keeps it in local memory). Only two parts outlive a decision: the values, read by the
# dispatcher right after it, and the links memo, keyed by what fixes its values.
WORK_VIEW = 0
WORK_BID = WORK_VIEW + VIEW_SIZE
WORK_WEIGHTS = WORK_BID + BID_WORK_SIZE
WORK_VALUES = WORK_WEIGHTS + N_WEIGHTS
WORK_FEATURES = WORK_VALUES + MAX_LEGAL
WORK_LINKS = WORK_FEATURES + N_LEARNED_SLOTS
HEURISTIC_WORK_SIZE = WORK_LINKS + LINK_MEMO_SIZE


# The decisions and their parts are inlined into this kernel (each has one call site), so a
# decision makes no out-of-line call.
@kernel
def weighted_policy_nb(state, comp, player, w, legal, n_legal, work):
    """Decide with weights ``w`` (float64[>= N_WEIGHTS]); deterministic given the view.

    ``work``: float64[HEURISTIC_WORK_SIZE] scratch. Every candidate's value is left in
    ``work[WORK_VALUES + i]`` (points, for ``legal[i]``): the dispatcher's temperature draws
    from them.
    """
    # Borrowed views: no reference counting of the arrays inside (engine.arrays.borrowed); on
    # ``work``, whose slices every decision takes, it made ``balanced`` 12% faster.
    state = borrowed(state)
    comp = borrowed(comp)
    w = borrowed(w)
    legal = borrowed(legal)
    work = borrowed(work)
    view = work[WORK_VIEW:WORK_BID]
    values = work[WORK_VALUES:]
    phase = state[S_PHASE]
    if phase == PHASE_BID:
        # Only a bid reads the whole view; the other decisions count what they need.
        build_view(state, comp, player, view)
        return decide_bid(state, comp, player, w, legal, n_legal, view,
                          work[WORK_BID:WORK_WEIGHTS], values, work[WORK_LINKS:])
    if phase == PHASE_PALACE or phase == PHASE_CROWN:  # one call site: decide_city is inlined
        return decide_city(state, comp, player, w, legal, n_legal, view, phase == PHASE_CROWN,
                           values, work[WORK_LINKS:])
    if phase == PHASE_DISPLAY:
        return decide_display(state, comp, player, w, legal, n_legal, view,
                              work[WORK_BID:WORK_WEIGHTS], values)
    for i in range(n_legal):  # no other phase decides; equal values keep a draw uniform
        values[i] = 0.0
    return legal[0]


@kernel
def load_greedy_weights(work):
    """Copy the greedy weights into ``work``'s weight slots, ``work[WORK_WEIGHTS:]``
    (``GREEDY_WEIGHTS`` is a read-only constant: a policy taking it as ``w`` would compile the
    heuristic a second time for that array type, and a GPU device function cannot return a
    new array)."""
    for i in range(N_WEIGHTS):
        work[WORK_WEIGHTS + i] = GREEDY_WEIGHTS[i]


def new_workspace() -> np.ndarray:
    """A fresh heuristic scratch array (float64[HEURISTIC_WORK_SIZE])."""
    return np.zeros(HEURISTIC_WORK_SIZE, np.float64)


@njit(cache=True)
def heuristic_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """The parametric heuristic: ``params[:N_WEIGHTS]`` are the weights (``WEIGHT_NAMES``).
    CPU entry point: allocates its scratch."""
    work = np.zeros(HEURISTIC_WORK_SIZE, np.float64)
    return weighted_policy_nb(state, comp, player, params, legal, n_legal, work)


@njit(cache=True)
def greedy_policy_nb(state, comp, player, params, prng, legal, n_legal):
    """One-step look-ahead in raw points (``GREEDY_WEIGHTS``); ignores ``params``.
    CPU entry point: allocates its scratch."""
    work = np.zeros(HEURISTIC_WORK_SIZE, np.float64)
    load_greedy_weights(work)
    return weighted_policy_nb(state, comp, player, work[WORK_WEIGHTS:], legal, n_legal, work)
