"""Taj Mahal's invariants: what every reachable state, legal list and step satisfies, and the
redraw of what a seat cannot see.

The generic conformance suite (:mod:`tajsim.play.conformance`) plays random games of every game
and calls these through the game's spec after every action; the checks use plain
``if ...: raise AssertionError`` so that they still run under ``python -O``.

* :func:`check_state` - every invariant of one state vector (cards, tokens, palaces, goods,
  scores); see its docstring for the list.
* :func:`check_legal_list` - the kernel's legal list against :func:`expected_legal`, a plain
  Python version of the rules.
* :func:`check_step` - what spans one action: scores never fall, a province tile is claimed at
  most once and keeps its owner, palaces only on open cities of the current province, the crown
  palace in the current province, ``S_STEP`` counts the actions.
* :func:`redraw_hidden` - a copy of a state with the cards a seat cannot see dealt again.
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.compensation import drawn_range, strip
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb

__all__ = ["check_legal_list", "check_state", "check_step", "expected_legal", "redraw_hidden"]

P = E.MAX_PLAYERS


def _require(cond, what: str, where: str = "") -> None:
    if not cond:
        raise AssertionError(f"{where}: {what}" if where else what)


def _card_syms(comp: np.ndarray) -> np.ndarray:
    return comp[E.C_CARD_SYM:E.C_CARD_SYM + E.N_CARDS * E.N_SYMBOLS].reshape(E.N_CARDS, -1)


def check_state(state: np.ndarray, comp: np.ndarray, where: str = "") -> None:
    """Every invariant a reachable state satisfies.

    * the array is ``int64[STATE_SIZE]``; phase, current player, visit and province are in range;
    * cards: each of the 100 card ids has exactly one valid location (deck, discard, display,
      unrest (2-player 2018 only), supply (prestige cards only), the hand or row of a seated
      player); the counters ``S_HAND_N``, ``S_DISPLAY_N``, ``S_DISCARD_N``, ``S_ROW_N`` match the
      locations; the deck slice ``S_DECK[S_DECK_TOP:S_DECK_LEN]`` holds exactly the ``LOC_DECK``
      cards, once each, and none of them is public;
    * rows: symbol counters equal the sum of the row's cards; an empty row has no colour; a
      withdrawn player has no row; unrest symbol and colour counters match the unrest cards;
    * advisor tokens: supply + seat + held + set aside == 6 of each kind;
    * palaces: per-city totals equal the sum over players; no palace off the board; the crown
      palace (if any) lies in the current province;
    * goods and score parts: goods of a kind = bonus tiles of that kind + goods on the province
      tiles owned; commodity points = sum of n(n+1)/2; bonus points = 2 per +2 tile + 4 per
      Taj Mahal tile; palace + connection points = the per-visit record; Nobility points are
      even; no part is negative;
    * bonus tiles: a tile lies where setup put it until it is claimed, and the claimed tiles of
      each player are the ``S_BONUS_HELD`` counts;
    * province tiles: tiles of past visits are claimed or out of play, future tiles are on the
      board; the current tile is on the board or claimed this visit;
    * card shortages (R3): no deck draw is counted as missed, no display as dealt short, before
      a draw first found the deck and the discard pile empty; counts are never negative and a
      short deal misses at least one card;
    * game over: ranks and winners are consistent with the scores.
    """
    w = where
    _require(state.dtype == np.int64 and state.shape == (E.STATE_SIZE,), "state is not "
             f"int64[{E.STATE_SIZE}] (got {state.dtype}{state.shape})", w)
    n = int(state[E.S_N_PLAYERS])
    ed = int(state[E.S_EDITION])
    _require(strip(int(state[E.S_RULES])) == ed, f"rules code {int(state[E.S_RULES])} is not "
             f"edition {ed} with seat compensation", w)
    _require(ed in (E.EDITION_2018, E.EDITION_2000), f"bad edition {ed}", w)
    _require(E.MIN_PLAYERS[ed] <= n <= E.MAX_PLAYERS, f"bad player count {n}", w)
    phase = int(state[E.S_PHASE])
    over = phase == E.PHASE_GAME_OVER
    _require(0 <= phase <= E.PHASE_GAME_OVER, f"bad phase {phase}", w)
    visit = int(state[E.S_VISIT])
    if over:
        _require(visit == E.N_VISITS, f"game over at visit {visit}", w)
        _require(state[E.S_CUR] == -1, "current player set after the game", w)
    else:
        _require(0 <= visit < E.N_VISITS, f"bad visit {visit}", w)
        cur = int(state[E.S_CUR])
        _require(0 <= cur < n, f"bad current player {cur}", w)
        _require(state[E.S_WITHDRAWN + cur] == 0 or phase != E.PHASE_BID,
                 f"withdrawn player {cur} asked to bid", w)
        _require(state[E.S_PROVINCE] == nb.province_of_visit(state, visit),
                 "current province is not the one of this visit's tile", w)
    two_player = n == 2 and ed == E.EDITION_2018

    # --- cards ---------------------------------------------------------------------------
    loc = state[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
    ids = np.arange(E.N_CARDS)
    hand = (loc >= E.LOC_HAND) & (loc < E.LOC_HAND + n)
    row = (loc >= E.LOC_ROW) & (loc < E.LOC_ROW + n)
    deck_card = ids < E.N_DECK_CARDS
    valid = hand | row
    valid |= deck_card & ((loc == E.LOC_DECK) | (loc == E.LOC_DISCARD) | (loc == E.LOC_DISPLAY))
    if two_player:
        valid |= deck_card & (loc == E.LOC_UNREST)
    valid |= ~deck_card & (loc == E.LOC_SUPPLY)
    bad = np.flatnonzero(~valid)
    _require(bad.size == 0, f"cards with no valid location: {[(int(c), int(loc[c])) for c in bad]}",
             w)
    for p in range(P):
        k = int(np.count_nonzero(loc == E.LOC_HAND + p))
        _require(state[E.S_HAND_N + p] == k, f"S_HAND_N[{p}]={state[E.S_HAND_N + p]}, "
                 f"{k} cards in hand", w)
    _require(state[E.S_DISPLAY_N] == np.count_nonzero(loc == E.LOC_DISPLAY),
             "S_DISPLAY_N does not match the display", w)
    _require(state[E.S_DISCARD_N] == np.count_nonzero(loc == E.LOC_DISCARD),
             "S_DISCARD_N does not match the discard pile", w)
    masks = state.copy()
    nb.rebuild_card_masks_nb(masks)
    block = slice(E.S_LOC_MASK, E.S_LOC_MASK + E.N_MASK_BLOCKS * E.N_MASK_WORDS)
    _require(np.array_equal(masks[block], state[block]),
             "location masks (S_LOC_MASK) do not match S_CARD_LOC", w)
    top, length = int(state[E.S_DECK_TOP]), int(state[E.S_DECK_LEN])
    _require(0 <= top <= length <= E.N_DECK_CARDS, f"bad deck slice {top}:{length}", w)
    deck = state[E.S_DECK + top:E.S_DECK + length]
    in_deck = np.flatnonzero(loc == E.LOC_DECK)
    _require(np.array_equal(np.sort(deck), in_deck),
             f"deck slice {sorted(deck.tolist())} != LOC_DECK cards {in_deck.tolist()}", w)
    public = state[E.S_CARD_PUBLIC:E.S_CARD_PUBLIC + E.N_CARDS]
    _require(not public[in_deck].any(), "a card in the deck is marked public", w)
    _require(bool(np.all((public == 0) | (public == 1))), "S_CARD_PUBLIC not 0/1", w)
    _require(n == 2 and ed == E.EDITION_2018 or not (loc == E.LOC_UNREST).any(),
             "unrest cards outside a 2-player 2018 game", w)

    # --- rows and unrest -----------------------------------------------------------------
    syms = _card_syms(comp)
    colours = comp[E.C_CARD_COLOUR:E.C_CARD_COLOUR + E.N_CARDS]
    for p in range(n):
        in_row = loc == E.LOC_ROW + p
        k = int(np.count_nonzero(in_row))
        _require(state[E.S_ROW_N + p] == k, f"S_ROW_N[{p}] != cards in row", w)
        want = syms[in_row].sum(axis=0)
        got = state[E.S_ROW_SYM + p * E.N_SYMBOLS:E.S_ROW_SYM + (p + 1) * E.N_SYMBOLS]
        _require(np.array_equal(want, got), f"row symbols of {p}: {got.tolist()} != "
                 f"{want.tolist()}", w)
        colour = int(state[E.S_ROW_COLOUR + p])
        if k == 0:
            _require(colour == -1, f"empty row of {p} has colour {colour}", w)
        else:
            _require(0 <= colour < E.N_COLOURS, f"row of {p} has colour {colour}", w)
            coloured = colours[in_row]
            _require((coloured < E.N_COLOURS).any(), f"row of {p} has no coloured card", w)
            _require(np.count_nonzero(coloured == E.COLOURLESS) <= np.count_nonzero(
                coloured < E.N_COLOURS), f"row of {p}: more colourless than coloured cards", w)
            _require(np.count_nonzero(coloured[coloured < E.N_COLOURS] != colour)
                     <= int(in_row[E.PRESTIGE_ENLIGHTENMENT]),
                     f"row of {p}: off-colour cards without Enlightenment", w)
        resolving = phase in (E.PHASE_PALACE, E.PHASE_CROWN) and p == state[E.S_CUR]
        if state[E.S_WITHDRAWN + p] and not resolving:  # the row goes after palace scoring
            _require(k == 0, f"withdrawn player {p} still has a row", w)
    in_unrest = loc == E.LOC_UNREST
    got = state[E.S_UNREST_SYM:E.S_UNREST_SYM + E.N_SYMBOLS]
    _require(np.array_equal(syms[in_unrest].sum(axis=0), got), "unrest symbols mismatch", w)
    for c in range(E.N_COLOURS):
        _require(state[E.S_UNREST_COLOURS + c] == np.count_nonzero(in_unrest & (colours == c)),
                 f"unrest colour {c} count mismatch", w)
        _require(np.count_nonzero(in_unrest & (colours == c)) <= 1,
                 f"two unrest cards of colour {c} (a protest was missed)", w)
    if state[E.S_PROTEST_DONE]:
        _require(not in_unrest.any(), "unrest cards after this visit's protest", w)

    # --- court and advisor tokens --------------------------------------------------------
    seats = state[E.S_SEAT:E.S_SEAT + E.N_SYMBOLS]
    _require(bool(np.isin(seats, (E.SEAT_EMPTY, E.SEAT_PRESENT, E.SEAT_ASIDE)).all()),
             f"bad seats {seats.tolist()}", w)
    if not two_player:
        _require(not (seats == E.SEAT_ASIDE).any(), "token set aside outside 2-player", w)
    for a in range(E.N_ADVISORS):
        supply = int(state[E.S_TOKEN_SUPPLY + a])
        held = state[E.S_TOKENS + a:E.S_TOKENS + P * E.N_ADVISORS:E.N_ADVISORS]
        _require(supply >= 0 and (held >= 0).all(), f"negative token count of kind {a}", w)
        _require(not held[n:].any(), f"tokens held by an empty seat (kind {a})", w)
        total = supply + int(held.sum()) + (1 if seats[a] != E.SEAT_EMPTY else 0)
        _require(total == E.TOKENS_PER_ADVISOR, f"advisor tokens of kind {a}: {total} != 6 "
                 f"(supply {supply}, held {held.tolist()}, seat {int(seats[a])})", w)
        if not over and phase == E.PHASE_BID:
            _require((held[:n] <= 2).all(), f"a player holds more than 2 tokens of kind {a}", w)

    # --- palaces -------------------------------------------------------------------------
    n_cities = int(comp[E.C_N_CITIES])
    pal = state[E.S_PALACES:E.S_PALACES + E.MAX_CITIES * P].reshape(E.MAX_CITIES, P)
    city_total = state[E.S_CITY_PALACES:E.S_CITY_PALACES + E.MAX_CITIES]
    _require((pal >= 0).all(), "negative palace count", w)
    _require(not pal[:, n:].any(), "palaces of an empty seat", w)
    _require(np.array_equal(pal.sum(axis=1), city_total), "S_CITY_PALACES != sum of palaces", w)
    _require(not city_total[n_cities:].any(), "palace off the board", w)
    for q in range(P):
        bits = sum(1 << c for c in range(E.MAX_CITIES) if pal[c, q] > 0)
        held = int(state[E.S_PALACE_BITS + 2 * q]) | (int(state[E.S_PALACE_BITS + 2 * q + 1]) << 32)
        _require(held == bits, f"S_PALACE_BITS of seat {q} ({held:#x}) != its palace cities "
                 f"({bits:#x})", w)
    crown = int(state[E.S_CROWN_CITY])
    if crown >= 0:
        _require(comp[E.C_CITY_PROVINCE + crown] == state[E.S_PROVINCE],
                 "crown palace outside the current province", w)
        _require(city_total[crown] >= 1, "crown city without a palace", w)
        _require(seats[E.SEAT_CROWN] == E.SEAT_EMPTY, "crown palace placed, crown in seat", w)

    # --- province and bonus tiles ---------------------------------------------------------
    owner = state[E.S_TILE_OWNER:E.S_TILE_OWNER + E.N_PROVINCES]
    _require(bool(np.all((owner >= -2) & (owner < n))), f"bad tile owners {owner.tolist()}", w)
    for t in range(E.N_PROVINCES):
        if t < visit:
            _require(owner[t] != -1, f"tile {t + 1} of a past visit still on the board", w)
        elif t > visit:
            _require(owner[t] == -1, f"tile {t + 1} of a future visit left the board", w)
        else:
            _require(owner[t] >= -1, f"tile {t + 1} left play during its visit", w)
            if owner[t] >= 0:
                _require(seats[E.SEAT_PROVINCE] == E.SEAT_EMPTY, "claimed tile still seated", w)
    bonus_at = state[E.S_BONUS_AT:E.S_BONUS_AT + E.MAX_CITIES]
    bonus_start = state[E.S_BONUS_START:E.S_BONUS_START + E.MAX_CITIES]
    taker = state[E.S_BONUS_TAKER:E.S_BONUS_TAKER + E.MAX_CITIES]
    for c in np.flatnonzero((bonus_at != bonus_start) | (taker != -1)):
        _require(bonus_at[c] == -1 and 0 <= taker[c] < n and bonus_start[c] >= 0,
                 f"bonus tile on city {c} moved without a taker", w)
    held_bonus = state[E.S_BONUS_HELD:E.S_BONUS_HELD + P * E.N_BONUS_KINDS].reshape(P, -1)
    tile_goods = comp[E.C_TILE_GOODS:E.C_TILE_GOODS + E.N_PROVINCES * E.N_GOODS].reshape(
        E.N_PROVINCES, E.N_GOODS)
    pending = np.zeros(E.N_BONUS_KINDS, np.int64)  # claimed in this withdrawal, not resolved
    for i in range(int(state[E.S_WD_N_BONUS])):
        pending[state[E.S_WD_BONUS + i]] += 1
    _require(phase == E.PHASE_PALACE or not pending.any(), "unresolved bonus tiles", w)
    for p in range(P):
        taken = bonus_start[taker == p]
        want = np.bincount(taken, minlength=E.N_BONUS_KINDS)
        if phase == E.PHASE_PALACE and p == state[E.S_CUR]:
            want = want - pending
        _require(np.array_equal(want, held_bonus[p]),
                 f"bonus tiles held by {p}: {held_bonus[p].tolist()} != {want.tolist()}", w)

    # --- goods and scores ----------------------------------------------------------------
    for p in range(P):
        parts = state[E.S_SCORE + p * E.N_PARTS:E.S_SCORE + (p + 1) * E.N_PARTS]
        _require((parts >= 0).all(), f"negative score part of {p}: {parts.tolist()}", w)
        if p >= n:
            _require(not parts.any(), f"score for empty seat {p}", w)
            continue
        goods = state[E.S_GOODS + p * E.N_GOODS:E.S_GOODS + (p + 1) * E.N_GOODS]
        owned = tile_goods[owner == p].sum(axis=0)
        _require(np.array_equal(goods, held_bonus[p, :E.N_GOODS] + owned),
                 f"goods of {p} {goods.tolist()} != bonus + province tiles", w)
        # the seat's compensation (a variant, 0 by default) is counted in its bonus part
        tiles = 2 * held_bonus[p, E.BONUS.PLUS2] + 4 * held_bonus[p, E.BONUS.TAJ4]
        low, high = drawn_range(int(state[E.S_RULES]), p)
        _require(tiles + low <= parts[E.PART_BONUS] <= tiles + high, f"bonus points of {p}", w)
        _require(parts[E.PART_COMMODITY] == int((goods * (goods + 1) // 2).sum()),
                 f"commodity points of {p} {int(parts[E.PART_COMMODITY])} != sum n(n+1)/2 "
                 f"of {goods.tolist()}", w)
        conn = state[E.S_CONN_BY_VISIT + p:E.S_CONN_BY_VISIT + E.N_VISITS * P:P]
        _require(parts[E.PART_PALACE] + parts[E.PART_CONNECTION] == conn.sum(),
                 f"palace + connection points of {p} != per-visit record", w)
        _require(parts[E.PART_PALACE] <= min(visit + 1, E.N_VISITS),
                 f"more palace points than visits for {p}", w)
        _require(parts[E.PART_SPECIAL] % 2 == 0, f"odd Nobility points for {p}", w)
        if not over:
            _require(parts[E.PART_CARDS] == 0, f"card points before the end for {p}", w)
        _require(nb.score_of(state, p) == parts.sum(), "score_of != sum of parts", w)

    # --- end of game ---------------------------------------------------------------------
    missed = np.concatenate([state[E.S_DISPLAY_MISSED:E.S_DISPLAY_MISSED + E.MAX_PLAYERS],
                             state[E.S_DECK_MISSED:E.S_DECK_MISSED + E.MAX_PLAYERS]])
    short_deals, short_cards = int(state[E.S_SHORT_DEALS]), int(state[E.S_DISPLAY_SHORT])
    _require((missed >= 0).all() and short_deals >= 0, "negative shortage counter", w)
    _require(short_deals <= short_cards, "a short deal with no card missing", w)
    if state[E.S_EXHAUSTED_VISIT] == 0:
        # (A display can hold fewer cards than a withdrawal takes only after a short deal in a
        # real game; built test states may set one up directly, so that is not required here.)
        deck_missed = missed[E.MAX_PLAYERS:]
        _require(not deck_missed.any() and short_cards == 0,
                 "deck cards counted as missed although no draw found the deck and discards "
                 "empty", w)
    else:
        _require(1 <= state[E.S_EXHAUSTED_VISIT] <= visit + 1, "exhaustion visit out of range",
                 w)
    _require(not missed[n:E.MAX_PLAYERS].any() and not missed[E.MAX_PLAYERS + n:].any(),
             "missed cards of an empty seat", w)
    if over:
        scores = np.array([nb.score_of(state, p) for p in range(n)])
        hands = state[E.S_HAND_N:E.S_HAND_N + n]
        for p in range(n):
            mine = colours[loc == E.LOC_HAND + p]
            best = max(int(np.count_nonzero(mine == c)) for c in range(E.N_COLOURS))
            cards = int(np.count_nonzero(mine == E.COLOURLESS)) + best
            _require(state[E.S_SCORE + p * E.N_PARTS + E.PART_CARDS] == cards,
                     f"card points of {p} != colourless + best colour ({cards})", w)
            if ed == E.EDITION_2018:
                ahead = np.count_nonzero((scores > scores[p])
                                         | ((scores == scores[p]) & (hands > hands[p])))
            else:
                ahead = np.count_nonzero(scores > scores[p])
            _require(state[E.S_RANK + p] == ahead + 1, f"rank of {p}", w)
            _require(state[E.S_WINNER + p] == (1 if ahead == 0 else 0), f"winner flag of {p}", w)
        _require(state[E.S_WINNER:E.S_WINNER + n].any(), "nobody won", w)


# ---------------------------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------------------------
def expected_legal(state: np.ndarray, comp: np.ndarray) -> list[int]:
    """The legal actions recomputed from the rules in plain Python (an independent version of
    ``legal_actions_nb``, ascending)."""
    phase = int(state[E.S_PHASE])
    loc = state[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
    colours = comp[E.C_CARD_COLOUR:E.C_CARD_COLOUR + E.N_CARDS]
    prov = int(state[E.S_PROVINCE])
    cities = [int(c) for c in comp[E.C_PROV_CITIES + prov * E.MAX_CITIES_PER_PROVINCE:
                                   E.C_PROV_CITIES + (prov + 1) * E.MAX_CITIES_PER_PROVINCE]
              if c >= 0]
    out: list[int] = []
    if phase == E.PHASE_BID:
        p = int(state[E.S_CUR])
        mine = np.flatnonzero(loc == E.LOC_HAND + p)
        coloured = [int(c) for c in mine if colours[c] < E.N_COLOURS]
        colourless = [int(c) for c in mine if colours[c] == E.COLOURLESS]
        row_colour = int(state[E.S_ROW_COLOUR + p])
        out.append(E.ACTION_WITHDRAW)
        for card in coloured:
            matches = row_colour < 0 or colours[card] == row_colour
            base = E.ACTION_BID + card * E.BID_EXTRA
            if matches:
                out.append(base)
            for extra in colourless:
                if matches or extra == E.PRESTIGE_ENLIGHTENMENT:
                    out.append(base + 1 + extra - E.FIRST_WHITE)
    elif phase == E.PHASE_PALACE:
        crown = int(state[E.S_CROWN_CITY])
        for c in cities:
            k = int(state[E.S_CITY_PALACES + c])
            if k == 0 or (k == 1 and crown == c):
                out.append(E.ACTION_CITY + c)
    elif phase == E.PHASE_CROWN:
        out = [E.ACTION_CITY + c for c in cities]
    elif phase == E.PHASE_DISPLAY:
        out = [E.ACTION_TAKE + int(c) for c in np.flatnonzero(loc == E.LOC_DISPLAY)]
    return sorted(out)


def check_legal_list(state: np.ndarray, comp: np.ndarray, legal, where: str = "") -> None:
    """``legal`` (the kernel's list) is non-empty while the game runs, strictly ascending, in
    range, and equals :func:`expected_legal`; a display decision is a real choice."""
    w = where
    legal = [int(a) for a in legal]
    phase = int(state[E.S_PHASE])
    if phase == E.PHASE_GAME_OVER:
        _require(not legal, "legal actions after the game", w)
        return
    _require(len(legal) > 0, f"no legal action in phase {E.PHASE_NAMES[phase]}", w)
    _require(all(0 <= a < E.N_ACTIONS for a in legal), "legal action out of range", w)
    _require(all(a < b for a, b in zip(legal, legal[1:])), "legal actions not ascending", w)
    want = expected_legal(state, comp)
    if legal != want:
        extra = sorted(set(legal) - set(want))
        missing = sorted(set(want) - set(legal))
        raise AssertionError(f"{w}: legal actions differ from the rules: kernel-only {extra[:10]}, "
                             f"missing {missing[:10]}")
    if phase == E.PHASE_DISPLAY:
        _require(len(legal) > state[E.S_PENDING] > 0, "display decision without a choice", w)


# ---------------------------------------------------------------------------------------------
# Steps
# ---------------------------------------------------------------------------------------------
def check_step(before: np.ndarray, action: int, after: np.ndarray, comp: np.ndarray,
               where: str = "") -> None:
    """What one action may change: palaces go only on open cities of the current province and
    the crown palace only in it; no score falls; a claimed province tile keeps its owner;
    ``S_STEP`` counts the action."""
    w = where
    phase = int(before[E.S_PHASE])
    if phase in (E.PHASE_PALACE, E.PHASE_CROWN):
        city = action - E.ACTION_CITY
        _require(comp[E.C_CITY_PROVINCE + city] == before[E.S_PROVINCE],
                 f"palace on city {city} outside the current province", w)
        if phase == E.PHASE_PALACE:
            _require(nb.is_open_city(before, city), f"palace on closed city {city}", w)
    n = int(before[E.S_N_PLAYERS])
    old = np.array([nb.score_of(before, p) for p in range(n)])
    new = np.array([nb.score_of(after, p) for p in range(n)])
    _require((new >= old).all(), f"a score fell: {old} -> {new}", w)
    owner_before = before[E.S_TILE_OWNER:E.S_TILE_OWNER + E.N_PROVINCES]
    owner_after = after[E.S_TILE_OWNER:E.S_TILE_OWNER + E.N_PROVINCES]
    claimed = owner_before >= 0
    _require(np.array_equal(owner_after[claimed], owner_before[claimed]),
             "a claimed province tile changed hands", w)
    _require(after[E.S_STEP] == before[E.S_STEP] + 1, "S_STEP does not count the actions", w)


# ---------------------------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------------------------
def hidden_positions(state: np.ndarray, player: int) -> list[tuple[str, int, int]]:
    """(kind, where, card) of every card ``player`` cannot see: deck slots and hidden hand
    places of the other players (their order is irrelevant for a hand)."""
    out = []
    for i in range(int(state[E.S_DECK_TOP]), int(state[E.S_DECK_LEN])):
        out.append(("deck", i, int(state[E.S_DECK + i])))
    n = int(state[E.S_N_PLAYERS])
    for q in range(n):
        if q == player:
            continue
        for card in range(E.N_DECK_CARDS):
            if (state[E.S_CARD_LOC + card] == E.LOC_HAND + q
                    and state[E.S_CARD_PUBLIC + card] == 0):
                out.append(("hand", q, card))
    return out


def redraw_hidden(state: np.ndarray, comp: np.ndarray, player: int,
                  rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` with the cards hidden from ``player`` dealt again at random to the
    same hidden places (deck order and which hidden card is in which hand) and new chance seeds.

    What ``player`` sees is unchanged; a strategy that reads anything else may decide
    differently, which the conformance suite catches.
    """
    out = state.copy()
    places = hidden_positions(state, player)
    cards = np.array([c for _, _, c in places], np.int64)
    shuffled = rng.permutation(cards)
    relabel = {int(a): int(b) for a, b in zip(cards, shuffled)}
    # Deck slots already drawn keep stale ids; relabel them too so that they tell nothing.
    for i in range(int(state[E.S_DECK_TOP])):
        out[E.S_DECK + i] = relabel.get(int(state[E.S_DECK + i]), int(state[E.S_DECK + i]))
    for (kind, where, _), card in zip(places, shuffled):
        if kind == "deck":
            out[E.S_DECK + where] = card
            out[E.S_CARD_LOC + card] = E.LOC_DECK
        else:
            out[E.S_CARD_LOC + card] = E.LOC_HAND + where
        out[E.S_CARD_PUBLIC + card] = 0
    # Derived per-location masks follow the new hands, so a policy reading them is caught too.
    nb.rebuild_card_masks_nb(out)
    out[E.S_RNG] = int(rng.integers(1, 2**62))
    out[E.S_PLAY_SEED] = int(rng.integers(1, 2**62))
    return out
