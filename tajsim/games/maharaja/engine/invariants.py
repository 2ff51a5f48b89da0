"""Invariants, an independent reference of the legal actions, and hidden-information redraws.

* :func:`check_state` - every invariant of a Maharaja state; ``AssertionError`` naming the broken
  one (plain ``if`` checks: they run under ``python -O`` too).
* :func:`expected_legal` - the legal actions recomputed in plain Python from the rules text
  (``docs/games/maharaja/rules.md``), independently of the kernels; tests compare the two after
  every action of many random games.
* :func:`redraw_hidden` - a copy of a state with everything a seat cannot see redrawn: the
  other seats' unrevealed picks and the chance stream (the conformance suite's
  hidden-information test: no decision may change).
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.compensation import drawn_range
from tajsim.games.maharaja.engine import enums as E

__all__ = ["check_legal_list", "check_state", "expected_legal", "redraw_hidden"]

P = E.MAX_PLAYERS


def _require(cond, what: str, where: str) -> None:
    if not cond:
        raise AssertionError(f"{where}: {what}" if where else what)


def _opt(state: np.ndarray, bit: int) -> bool:
    return bool((int(state[E.S_RULES]) >> bit) & 1)


def _cap(state: np.ndarray, comp: np.ndarray) -> int:
    return int(comp[E.C_VILLAGE_CAP_2P] if state[E.S_N_PLAYERS] == 2 else comp[E.C_VILLAGE_CAP])


def _allowances(k0: int, k1: int) -> dict[str, int]:
    out = dict(pal=0, houses=0, min_city=0, moves=0, gov=0, char=0)
    for kind in (k0, k1):
        if kind == E.ACT.HOUSE:
            out["houses"] += 1
        elif kind == E.ACT.TWO_HOUSES:
            out["houses"] += 2
            out["min_city"] += 1
        elif kind == E.ACT.MOVE_HOUSE:
            out["moves"] += 1
        elif kind == E.ACT.PALACE:
            out["pal"] += 1
        elif kind == E.ACT.PALACE_HOUSE:
            out["pal"] += 1
            out["houses"] += 1
        elif kind == E.ACT.GOVERNOR:
            out["gov"] += 1
        elif kind == E.ACT.CHARACTER:
            out["char"] += 1
    return out


def check_state(state: np.ndarray, comp: np.ndarray, where: str = "") -> None:
    """Every invariant a reachable state satisfies.

    * layout: ``int64[STATE_SIZE]``; 2-5 players; phase, seat to move and round in range;
    * characters: cards distinct, owners and holders consistent; after the draft every seat
      holds one, except the seat choosing a replacement;
    * gold: never negative; equals the sum of its parts (start, city, lone bonus, tolls in,
      gold action, Trader, penalties in, build spending, tolls out), with each part's sign;
      tolls received = tolls paid + tolls the bank paid for the Monk; penalties received =
      penalty x (players - 1) x actions left unperformed (per-action rule);
    * houses: location totals = the sum over seats; villages within their cap; each colour's
      pool + quarry + houses on the board = houses per colour (limited supply);
    * palaces: a seat's count = the sites it owns <= palaces per player; its central count; one
      palace per seat per city (unless ``several_palaces``); the centre taken before any
      player's outer site (unless ``free_palace_site``); 5 - players neutral outer palaces in
      every city; the score part = PALACE_POINTS x palaces; the rounds of the palaces recorded;
    * governor track: 7 governors on distinct boxes, box table and positions consistent, the top
      position right, the round box within the track;
    * the Maharaja at the start before round 1, in a city after; architects on junctions;
    * picks and turns: picks made in seat order, revealed only when the seat's turn came, acted
      seats revealed; the turn player's allowances match its revealed pair and what it did stays
      within them; a house being moved stands where it is lifted from;
    * game over: ranks a permutation consistent with (score, character card), winners rank 1,
      end cause and round recorded.
    """
    w = where
    _require(state.dtype == np.int64 and state.shape == (E.STATE_SIZE,),
             f"state is not int64[{E.STATE_SIZE}] (got {state.dtype}{state.shape})", w)
    s = state.tolist()  # plain ints: indexing a list is several times faster than numpy
    c = comp.tolist()
    n = s[E.S_N_PLAYERS]
    _require(E.MIN_PLAYERS <= n <= E.MAX_PLAYERS, f"player count {n}", w)
    rules = s[E.S_RULES]
    _require(rules & E.RULES_EDITION_MASK == E.EDITION_BASIC, f"edition {rules & 0xFF}", w)
    phase = s[E.S_PHASE]
    _require(0 <= phase < len(E.PHASE_NAMES), f"phase {phase}", w)
    over = phase == E.PHASE_GAME_OVER
    cur = s[E.S_CUR]
    _require((cur == -1) if over else (0 <= cur < n), f"seat to move {cur} in {phase}", w)
    rnd = s[E.S_ROUND]
    setup = phase in (E.PHASE_DRAFT, E.PHASE_SETUP_HOUSE)
    _require((rnd == 0) if setup else (1 <= rnd <= E.MAX_ROUNDS), f"round {rnd}", w)
    if _opt(s, E.OPT_TEN_ROUNDS):
        _require(rnd <= c[E.C_ROUND_BOXES], f"round {rnd} under ten_rounds", w)

    # characters
    holders = s[E.S_CARD_OWNER:E.S_CARD_OWNER + E.N_CARDS]
    card_of = s[E.S_CARD_OF:E.S_CARD_OF + P]
    for k, q in enumerate(holders):
        _require(-1 <= q < n, f"card {k} held by seat {q}", w)
        if q >= 0:
            _require(card_of[q] == k, f"card {k} owner {q} holds {card_of[q]}", w)
    # the draft order (R3; the variants V1 reversed, V2 random)
    draft = [int(x) for x in s[E.S_DRAFT_SEAT:E.S_DRAFT_SEAT + n]]
    _require(sorted(draft) == list(range(n))
             and all(int(x) == -1 for x in s[E.S_DRAFT_SEAT + n:E.S_DRAFT_SEAT + P]),
             f"draft order {draft} is not a permutation of the seats", w)
    if not _opt(s, E.OPT_RANDOM_DRAFT):
        want = list(range(n))[::-1] if _opt(s, E.OPT_REVERSED_DRAFT) else list(range(n))
        _require(draft == want, f"draft order {draft}, the rules say {want}", w)
    if phase == E.PHASE_DRAFT:
        _require(cur == draft[s[E.S_COUNTER]], f"seat {cur} drafts at position "
                 f"{s[E.S_COUNTER]} of {draft}", w)
    for q in range(n):
        k = card_of[q]
        if k >= 0:
            _require(holders[k] == q, f"seat {q} holds card {k} owned by {holders[k]}", w)
        elif phase == E.PHASE_DRAFT:
            _require(draft.index(q) >= s[E.S_COUNTER],
                     f"seat {q} has no card after its draft turn", w)
        else:
            _require(phase == E.PHASE_REPLACE and q == cur,
                     f"seat {q} has no card outside its replacement", w)
    for q in range(n, P):
        _require(card_of[q] == -1 and s[E.S_GOLD + q] == 0, f"unused seat {q} has material", w)

    # gold and its parts
    NP = E.N_PARTS
    parts = [s[E.S_PARTS + q * NP:E.S_PARTS + (q + 1) * NP] for q in range(P)]
    start_gold = c[E.C_START_GOLD]
    for q in range(n):
        gold = s[E.S_GOLD + q]
        pq = parts[q]
        _require(gold >= 0, f"seat {q} gold {gold}", w)
        _require(gold == sum(pq[1:]), f"seat {q} gold {gold} != parts {pq}", w)
        low, high = drawn_range(rules, q)
        _require(start_gold + low <= pq[E.PART_START] <= start_gold + high, f"seat {q} start "
                 "part (the starting gold plus the seat's compensation)", w)
        for k in (E.PART_CITY, E.PART_LONE, E.PART_TOLLS_IN, E.PART_GOLD_ACTION, E.PART_TRADER,
                  E.PART_PENALTIES_IN):
            _require(pq[k] >= 0, f"seat {q} part {E.PART_NAMES[k]} negative", w)
        for k in (E.PART_BUILD_SPENT, E.PART_TOLLS_OUT):
            _require(pq[k] <= 0, f"seat {q} part {E.PART_NAMES[k]} positive", w)
        _require(pq[E.PART_PALACES] == E.PALACE_POINTS * s[E.S_PALACES + q],
                 f"seat {q} palace points", w)
    tolls_in = sum(parts[q][E.PART_TOLLS_IN] for q in range(n))
    tolls_out = -sum(parts[q][E.PART_TOLLS_OUT] for q in range(n))
    _require(tolls_in == tolls_out + s[E.S_MONK_TOLLS],
             f"tolls received {tolls_in} != paid {tolls_out} + bank for the Monk "
             f"{s[E.S_MONK_TOLLS]}", w)
    tolls_v = sum(s[E.S_TOLL_BY_VILLAGE:E.S_TOLL_BY_VILLAGE + E.N_VILLAGES])
    _require(tolls_v == tolls_in, f"tolls by village {tolls_v} != tolls received {tolls_in}", w)
    missed = sum(s[E.S_PEN_COUNT:E.S_PEN_COUNT + n])
    for q in range(P):
        by_kind = s[E.S_PEN_BY_ACT + q * E.N_ACT:E.S_PEN_BY_ACT + (q + 1) * E.N_ACT]
        _require(sum(by_kind) == (s[E.S_PEN_COUNT + q] if q < n else 0),
                 f"seat {q}: penalties by action {by_kind} != {s[E.S_PEN_COUNT + q]}", w)
        _require(by_kind[E.ACT.GOLD] == 0, f"seat {q}: a gold action counted unperformed", w)
    if not (rules >> E.OPT_PENALTY_PER_TURN) & 1:
        got = sum(parts[q][E.PART_PENALTIES_IN] for q in range(n))
        _require(got == c[E.C_PENALTY] * (n - 1) * missed,
                 f"penalty gold {got} for {missed} unperformed actions", w)

    # houses
    cap = c[E.C_VILLAGE_CAP_2P] if n == 2 else c[E.C_VILLAGE_CAP]
    houses = s[E.S_HOUSES:E.S_HOUSES + E.N_LOCS * P]
    grid = state[E.S_HOUSES:E.S_HOUSES + E.N_LOCS * P].reshape(E.N_LOCS, P)
    totals = state[E.S_LOC_TOTAL:E.S_LOC_TOTAL + E.N_LOCS]
    _require(grid.min() >= 0 and not grid[:, n:].any(), "house counts", w)
    _require(bool((totals == grid.sum(axis=1)).all()), "location totals != sum over seats", w)
    _require(int(totals[:E.N_VILLAGES].max()) <= cap,
             f"a village holds more than {cap} houses: {totals[:E.N_VILLAGES].tolist()}", w)
    per_seat = grid.sum(axis=0).tolist()
    limited = not (rules >> E.OPT_UNLIMITED_HOUSES) & 1
    for q in range(n):
        pool, quarry = s[E.S_POOL + q], s[E.S_QUARRY + q]
        _require(pool >= 0 and quarry >= 0, f"seat {q} pool {pool} quarry {quarry}", w)
        if limited:
            total = pool + quarry + per_seat[q]
            _require(total == c[E.C_HOUSES_PER_COLOUR],
                     f"seat {q} houses {total} != {c[E.C_HOUSES_PER_COLOUR]}", w)
        built = s[E.S_HOUSES_BUILT + q]
        _require(built == per_seat[q], f"seat {q} houses built {built} != on the board "
                 f"{per_seat[q]}", w)

    # palaces
    NS = E.N_SITES
    sites = s[E.S_SITE:E.S_SITE + E.N_CITIES * NS]
    several = (rules >> E.OPT_SEVERAL_PALACES) & 1
    free_site = (rules >> E.OPT_FREE_PALACE_SITE) & 1
    count = [0] * P
    central = [0] * P
    for city in range(E.N_CITIES):
        row = sites[city * NS:(city + 1) * NS]
        _require(all(x == E.SITE_NEUTRAL for x in row[1:1 + P - n]),
                 f"city {city}: neutral palaces {row}", w)
        _require(all(x == E.SITE_EMPTY or 0 <= x < n for x in row[1 + P - n:]) and
                 (row[0] == E.SITE_EMPTY or 0 <= row[0] < n), f"city {city} sites {row}", w)
        owners = [x for x in row if x >= 0]
        if not several:
            _require(len(owners) == len(set(owners)), f"city {city}: two palaces of one seat",
                     w)
        if not free_site and any(x >= 0 for x in row[1:]):
            _require(row[0] >= 0, f"city {city}: an outer palace while the centre is free", w)
        for x in owners:
            count[x] += 1
        if row[0] >= 0:
            central[row[0]] += 1
    for q in range(n):
        _require(count[q] == s[E.S_PALACES + q], f"seat {q} palaces {count[q]} on the board "
                 f"vs {s[E.S_PALACES + q]}", w)
        _require(count[q] <= c[E.C_PALACES_PER_PLAYER], f"seat {q} {count[q]} palaces", w)
        _require(central[q] == s[E.S_CENTRAL + q], f"seat {q} central palaces", w)
        rounds = s[E.S_PALACE_ROUND + q * E.N_CITIES:E.S_PALACE_ROUND + (q + 1) * E.N_CITIES]
        _require(sum(1 for x in rounds if x > 0) == count[q] and max(rounds) <= rnd
                 and all(a <= b for a, b in zip(rounds[:count[q]], rounds[1:count[q]])),
                 f"seat {q} palace rounds {rounds}", w)

    # governor track
    pos = s[E.S_GOV_POS:E.S_GOV_POS + E.N_GOVERNORS]
    last = E.TRACK_START_BOXES + c[E.C_ROUND_BOXES]
    _require(len(set(pos)) == E.N_GOVERNORS and min(pos) >= 1 and max(pos) <= last,
             f"governor positions {pos}", w)
    boxes = s[E.S_BOX:E.S_BOX + E.TRACK_SIZE]
    for x in range(1, E.TRACK_SIZE):
        g = boxes[x]
        _require(g == -1 or (0 <= g < E.N_GOVERNORS and pos[g] == x),
                 f"track box {x} holds {g}", w)
    _require(sum(1 for g in boxes[1:] if g >= 0) == E.N_GOVERNORS, "track boxes", w)
    _require(s[E.S_GOV_TOP] == max(pos), f"top {s[E.S_GOV_TOP]} != {max(pos)}", w)
    order0 = s[E.S_GOV_ORDER0:E.S_GOV_ORDER0 + E.N_GOVERNORS]
    _require(sorted(order0) == list(range(E.N_GOVERNORS)), f"setup order {order0}", w)
    if not setup:
        maha = s[E.S_MAHARAJA]
        _require(0 <= maha < E.N_CITIES and s[E.S_VISIT_CITY + rnd - 1] == maha,
                 f"Maharaja in {maha}", w)
        _require(1 <= s[E.S_ROUND_BOX] <= c[E.C_ROUND_BOXES], f"round box {s[E.S_ROUND_BOX]}",
                 w)
    else:
        _require(s[E.S_MAHARAJA] == E.START, "Maharaja left the start during setup", w)
    for q in range(n):
        _require(0 <= s[E.S_ARCH + q] < E.N_JUNCTIONS, f"architect {q}", w)

    # picks and turns
    picks = s[E.S_PICK:E.S_PICK + P]
    revealed = s[E.S_REVEALED:E.S_REVEALED + P]
    acted = s[E.S_ACTED:E.S_ACTED + P]
    if phase == E.PHASE_PICK:
        k = s[E.S_COUNTER]
        _require(cur == k, f"pick counter {k} vs seat to move {cur}", w)
        for q in range(n):
            made = picks[q] >= 0
            _require(made == (q < k), f"seat {q} pick made={made} at counter {k}", w)
            _require(not revealed[q] and not acted[q], f"seat {q} revealed", w)
    if phase in (E.PHASE_TURN, E.PHASE_MOVE_TO, E.PHASE_REPLACE):
        tp = s[E.S_TURN_PLAYER]
        _require(0 <= tp < n and revealed[tp] and not acted[tp], f"turn player {tp}", w)
        if phase != E.PHASE_REPLACE:
            _require(cur == tp, "the turn player is not deciding", w)
        for q in range(n):
            _require(0 <= picks[q] < E.N_PAIRS, f"seat {q} pick", w)
            if acted[q]:
                _require(bool(revealed[q]), f"seat {q} acted unrevealed", w)
        pair = picks[tp]
        k0, k1 = s[E.S_T_SLOT0], s[E.S_T_SLOT1]
        _require((k0, k1) == (int(E.PAIR_A[pair]), int(E.PAIR_B[pair])), "turn slots", w)
        al = _allowances(k0, k1)
        _require(s[E.S_T_PAL_ALLOWED] == al["pal"] and s[E.S_T_HOUSES_ALLOWED] == al["houses"]
                 and s[E.S_T_MIN_CITY] == al["min_city"]
                 and s[E.S_T_MOVES_ALLOWED] == al["moves"]
                 and s[E.S_T_GOV_ALLOWED] == al["gov"] and s[E.S_T_CHAR_ALLOWED] == al["char"],
                 "turn allowances", w)
        cb, vb = s[E.S_T_CITY_BUILT], s[E.S_T_VILLAGE_BUILT]
        _require(0 <= cb and 0 <= vb and cb + vb <= al["houses"] and
                 vb <= al["houses"] - al["min_city"], f"houses built {cb}+{vb}", w)
        _require(0 <= s[E.S_T_PAL_BUILT] <= al["pal"], "palaces built", w)
        _require(0 <= s[E.S_T_MOVES_DONE] <= al["moves"], "moves", w)
        _require(0 <= s[E.S_T_GOV_DONE] <= al["gov"], "governor moves", w)
        _require(0 <= s[E.S_T_CHAR_DONE] <= al["char"], "card takes", w)
        _require(0 <= s[E.S_T_TRAVELS] <= E.MAX_TRAVELS_PER_TURN, "travels", w)
    mf = s[E.S_MOVE_FROM]
    if phase == E.PHASE_MOVE_TO:
        _require(0 <= mf < E.N_LOCS and houses[mf * P + cur] > 0, f"house lifted from {mf}", w)
    else:
        _require(mf == -1, f"move source {mf} outside a move", w)
    chosen = sum(s[E.S_CHOSEN:E.S_CHOSEN + n * E.N_ACT])
    in_turn = sum(1 for q in range(n) if revealed[q] and not acted[q])
    _require(chosen == 2 * (s[E.S_N_TURNS] + in_turn),
             f"{chosen} actions revealed for {s[E.S_N_TURNS]} turns", w)

    # the end
    if over:
        scores = [sum(parts[q]) for q in range(n)]
        order = sorted(range(n), key=lambda q: (-scores[q], card_of[q]))
        for r, q in enumerate(order):
            _require(s[E.S_RANK + q] == r + 1, f"seat {q} rank {s[E.S_RANK + q]} expected "
                     f"{r + 1}", w)
            _require(s[E.S_WINNER + q] == (1 if r == 0 else 0), f"seat {q} winner flag", w)
        _require(s[E.S_END_CAUSE] != E.END_NONE and s[E.S_END_ROUND] == rnd,
                 "end cause and round", w)
    else:
        _require(s[E.S_END_CAUSE] == E.END_NONE, "end cause set during play", w)


# ---------------------------------------------------------------------------------------------
# The legal actions, independently
# ---------------------------------------------------------------------------------------------
def _road_villages(comp: np.ndarray, r: int) -> list[int]:
    nv = int(comp[E.C_ROAD_NV + r])
    return [int(comp[E.C_ROAD_VIL + r * E.MAX_ROAD_VILLAGES + i]) for i in range(nv)]


def expected_legal(state: np.ndarray, comp: np.ndarray) -> list[int]:
    """The legal actions of the seat to decide, from the rules, in increasing order.

    Written from ``docs/games/maharaja/rules.md`` without the kernels' helpers: a slow
    reference that the tests hold the kernels' list to.
    """
    s = state
    phase = int(s[E.S_PHASE])
    n = int(s[E.S_N_PLAYERS])
    if phase == E.PHASE_GAME_OVER:
        return []
    p = int(s[E.S_CUR])
    cap = _cap(s, comp)
    houses = s[E.S_HOUSES:E.S_HOUSES + E.N_LOCS * P].reshape(E.N_LOCS, P)[:, :n]
    total = houses.sum(axis=1)
    free_cards = [k for k in range(E.N_CARDS) if int(s[E.S_CARD_OWNER + k]) < 0]
    if phase == E.PHASE_DRAFT or phase == E.PHASE_REPLACE:
        return [E.ACTION_CARD + k for k in free_cards]
    if phase == E.PHASE_SETUP_HOUSE:
        return [E.ACTION_BUILD + v for v in range(E.N_VILLAGES) if total[v] < cap]
    if phase == E.PHASE_PICK:
        return [E.ACTION_PICK + k for k in range(E.N_PAIRS)]
    arch = int(s[E.S_ARCH + p])
    here_city = arch if arch < E.START else None

    def may_receive(loc: int, exclude: int = -1) -> bool:
        if loc == exclude:
            return False
        if loc < E.N_VILLAGES:
            return total[loc] < cap
        return here_city is not None and loc == E.LOC_CITY + here_city

    if phase == E.PHASE_MOVE_TO:
        src = int(s[E.S_MOVE_FROM])
        return [E.ACTION_MOVE_TO + loc for loc in range(E.N_LOCS) if may_receive(loc, src)]
    # the turn
    out = [E.ACTION_DONE]
    gold = int(s[E.S_GOLD + p])
    card = int(s[E.S_CARD_OF + p])
    if int(s[E.S_T_TRAVELS]) < E.MAX_TRAVELS_PER_TURN:
        for r in range(int(comp[E.C_N_ROADS])):
            a, b = int(comp[E.C_ROAD_A + r]), int(comp[E.C_ROAD_B + r])
            if arch not in (a, b):
                continue
            vil = _road_villages(comp, r)
            if any(total[v] == 0 for v in vil):
                continue  # a village without a house cannot be passed
            toll = sum(int(total[v]) * int(comp[E.C_TOLL]) for v in vil if houses[v, p] == 0)
            own = (toll // 2 if _opt(s, E.OPT_HALF_MONK) else 0) if card == E.CARD.MONK else toll
            if own <= gold:
                out.append(E.ACTION_TRAVEL + r)
    pool = int(s[E.S_POOL + p])
    allowed = int(s[E.S_T_HOUSES_ALLOWED])
    cb, vb = int(s[E.S_T_CITY_BUILT]), int(s[E.S_T_VILLAGE_BUILT])
    min_city = int(s[E.S_T_MIN_CITY])
    if pool > 0 and cb + vb < allowed and gold >= int(comp[E.C_HOUSE_COST]):
        for loc in range(E.N_LOCS):
            if loc < E.N_VILLAGES and vb + 1 > allowed - min_city:
                continue  # the two-houses action still needs its city house
            if may_receive(loc):
                out.append(E.ACTION_BUILD + loc)
    builder_free = card == E.CARD.BUILDER and not s[E.S_T_BUILDER_USED]
    if pool > 0 and builder_free:
        out += [E.ACTION_FREE_BUILD + loc for loc in range(E.N_LOCS) if may_receive(loc)]
    if int(s[E.S_T_MOVES_DONE]) < int(s[E.S_T_MOVES_ALLOWED]) or builder_free:
        for loc in range(E.N_LOCS):
            if houses[loc, p] > 0 and any(may_receive(d, loc) for d in range(E.N_LOCS)):
                out.append(E.ACTION_MOVE_FROM + loc)
    price = int(comp[E.C_ARTISAN_COST] if card == E.CARD.ARTISAN else comp[E.C_PALACE_COST])
    if (here_city is not None and int(s[E.S_T_PAL_BUILT]) < int(s[E.S_T_PAL_ALLOWED])
            and gold >= price and int(s[E.S_PALACES + p]) < int(comp[E.C_PALACES_PER_PLAYER])):
        row = [int(x) for x in s[E.S_SITE + here_city * E.N_SITES:
                                 E.S_SITE + (here_city + 1) * E.N_SITES]]
        if _opt(s, E.OPT_SEVERAL_PALACES) or p not in row:
            centre = row[0] == E.SITE_EMPTY
            outer = any(x == E.SITE_EMPTY for x in row[1:])
            if centre:
                out.append(E.ACTION_PALACE)
            if outer and (not centre or _opt(s, E.OPT_FREE_PALACE_SITE)):
                out.append(E.ACTION_PALACE + 1)
    if int(s[E.S_T_GOV_DONE]) < int(s[E.S_T_GOV_ALLOWED]):
        step = int(comp[E.C_GOVERNOR_STEP])
        out += [E.ACTION_GOVERNOR + g for g in range(E.N_GOVERNORS)
                if int(s[E.S_GOV_POS + g]) - step >= 1]
    if int(s[E.S_T_CHAR_DONE]) < int(s[E.S_T_CHAR_ALLOWED]):
        out += [E.ACTION_CARD + k for k in range(E.N_CARDS) if k != card]
    return sorted(out)


def check_legal_list(state: np.ndarray, comp: np.ndarray, legal, where: str = "") -> None:
    """The kernel's legal list has exactly the actions of :func:`expected_legal`
    (``GameSpec.check_legal``)."""
    got = sorted(int(a) for a in legal)
    want = expected_legal(state, comp)
    if got != want or len(set(got)) != len(got):
        extra = sorted(set(got) - set(want))[:5]
        missing = sorted(set(want) - set(got))[:5]
        raise AssertionError(f"{where}: legal list differs from the rules: extra {extra}, "
                             f"missing {missing} (phase {E.PHASE_NAMES[int(state[E.S_PHASE])]})")


# ---------------------------------------------------------------------------------------------
# Hidden information
# ---------------------------------------------------------------------------------------------
def redraw_hidden(state: np.ndarray, comp: np.ndarray, player: int,
                  rng: np.random.Generator) -> np.ndarray:
    """A copy of ``state`` with what ``player`` cannot see redrawn consistently: every other
    seat's pick that is made but not yet revealed becomes a random pair, and the chance stream
    ``S_RNG`` (never used after setup) a random word."""
    out = state.copy()
    n = int(state[E.S_N_PLAYERS])
    for q in range(n):
        if q != player and out[E.S_PICK + q] >= 0 and not out[E.S_REVEALED + q]:
            out[E.S_PICK + q] = int(rng.integers(E.N_PAIRS))
    out[E.S_RNG] = int(rng.integers(-(2 ** 63), 2 ** 63 - 1, dtype=np.int64))
    return out
