"""The worked examples of the 2018 rulebook, replayed through the kernels.

The rulebook shows the examples as pictures; the rows, boards and tiles below are reconstructed
to agree with every sentence of the text (quoted in each test). Cards are looked up by colour
and symbols (``Cards``), cities by the board's roads, so the tests follow the data files.
"""

from __future__ import annotations

import itertools

import pytest
from tajmahal_helpers import (
    WITHDRAW,
    Cards,
    StateBuilder,
    act,
    auto,
    bid,
    cards_at,
    cities_of,
    city,
    legal,
    neighbours,
    part,
    province_of,
    score,
    seat,
    take,
    tokens,
)

from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb

SYM, BONUS, GOOD = E.SYM, E.BONUS, E.GOOD


# ---------------------------------------------------------------------------------------------
# Determining Majority Example (Lena, Greg, Nicole)
# ---------------------------------------------------------------------------------------------
def test_majority_example(comp):
    """Lena's row: Grand Mogul x2, general, princess. Greg's: general, princess, then elephant
    + general, then elephant + princess. Nicole's: elephant + vizier, then elephant x2 with a
    white general."""
    lena, greg, nicole = 0, 1, 2
    cards = Cards(comp)
    l1, l2 = cards("blue", "general", "mogul"), cards("blue", "mogul", "princess")
    g1, g2 = cards("yellow", "general", "princess"), cards("yellow", "elephant", "general")
    g3 = cards("yellow", "elephant", "princess")
    n1, n2 = cards("green", "elephant", "vizier"), cards("green", "elephant", "elephant")
    n_white = cards("white", "general")
    shown = cards.any("red", 5)
    state = (StateBuilder(comp, 3).hand(lena, l1, l2).hand(greg, g1, g2, g3)
             .hand(nicole, n1, n2, n_white).display(*shown).turn(lena).build())

    # 1. "On their first turns of the visit, Lena, Greg, and Nicole all influence the court by
    #    playing one card each."  2. "... Greg and Lena play one card each, while Nicole plays
    #    two cards."
    act(state, comp, bid(l1), bid(g1), bid(n1), bid(l2), bid(g2), bid(n2, n_white))

    # 3. "Lena withdraws. She has majority in the Grand Mogul and takes the crown. She does not
    #    have majority in the princess or general, so she does not take those tokens."
    act(state, comp, WITHDRAW)
    assert state[E.S_PHASE] == E.PHASE_CROWN and state[E.S_CUR] == lena
    assert seat(state, SYM.MOGUL) == E.SEAT_EMPTY
    for sym in (SYM.PRINCESS, SYM.GENERAL, SYM.VIZIER, SYM.MONK, SYM.ELEPHANT):
        assert seat(state, sym) == E.SEAT_PRESENT
    assert [tokens(state, lena, a) for a in range(E.N_ADVISORS)] == [0, 0, 0, 0]
    province = int(state[E.S_PROVINCE])
    act(state, comp, city(cities_of(comp, province)[0]), take(shown[0]), take(shown[1]))
    assert state[E.S_CUR] == greg and state[E.S_PHASE] == E.PHASE_BID

    # 4. "Greg takes his third turn by playing a card. Then Nicole withdraws. She has majority in
    #    the elephant and the vizier, so she takes the province token and the vizier token ...
    #    She does not have majority in the general."
    act(state, comp, bid(g3), WITHDRAW)
    assert tokens(state, nicole, SYM.VIZIER) == 1
    assert seat(state, SYM.VIZIER) == E.SEAT_EMPTY
    assert seat(state, SYM.ELEPHANT) == E.SEAT_EMPTY
    assert seat(state, SYM.GENERAL) == E.SEAT_PRESENT
    assert state[E.S_PHASE] == E.PHASE_PALACE and state[E.S_PENDING] == 1
    auto(state, comp)  # one palace, two display cards
    assert state[E.S_TILE_OWNER + 0] == nicole

    # 5. "Greg withdraws. Of the remaining court members, he has majority in the general and the
    #    princess, so he takes those tokens. The monk ... stays in its seat."
    act(state, comp, WITHDRAW)
    assert tokens(state, greg, SYM.GENERAL) == 1 and tokens(state, greg, SYM.PRINCESS) == 1
    assert state[E.S_PENDING] == 2  # two palaces to place
    assert seat(state, SYM.MONK) == E.SEAT_PRESENT
    auto(state, comp)  # the last player takes the one card left without a decision
    assert state[E.S_VISIT] == 1
    assert seat(state, SYM.MONK) == E.SEAT_PRESENT
    assert state[E.S_TOKEN_SUPPLY + SYM.MONK] == E.TOKENS_PER_ADVISOR - 1  # monk never moved
    assert [tokens(state, lena, a) for a in range(E.N_ADVISORS)] == [0, 0, 0, 0]
    assert shown[4] in cards_at(state, E.LOC_HAND + greg)


# ---------------------------------------------------------------------------------------------
# Scoring Commodities Example (Nicole)
# ---------------------------------------------------------------------------------------------
def _visit_with_tile(comp, goods):
    """First visit whose province tile carries exactly ``goods``."""
    for t in range(E.N_PROVINCES):
        tile = [int(comp[E.C_TILE_GOODS + t * E.N_GOODS + g]) for g in range(E.N_GOODS)]
        if tile == [1 if g in goods else 0 for g in range(E.N_GOODS)]:
            return t
    pytest.skip(f"no province tile with goods {goods} in the data")


def _nicole_claims(comp, cards, visit, bonus_kinds, row_cards, before=()):
    """Nicole (seat 0; the others have withdrawn) at ``visit`` with ``before`` bonus tiles held
    and ``row_cards`` in her row withdraws, putting her palaces on cities that carry
    ``bonus_kinds`` (in order) and then on cities without a tile. Returns (state, commodity
    points before her withdrawal)."""
    b = StateBuilder(comp, 3, visit=visit).withdrawn(1, 2).turn(0)
    for kind in before:
        b.claimed_bonus(0, kind)
    b.clear_bonus(b.province)
    cities = cities_of(comp, b.province)
    for c, kind in zip(cities, bonus_kinds):
        b.bonus(c, kind)
    b.row(0, *row_cards)
    b.display(*cards.any("blue", 1))
    state = b.build()
    before_points = part(state, 0, E.PART_COMMODITY)
    act(state, comp, WITHDRAW)
    free = iter(cities[len(bonus_kinds):])
    for c in cities[:len(bonus_kinds)]:
        assert state[E.S_PHASE] == E.PHASE_PALACE
        act(state, comp, city(c))
    while state[E.S_PHASE] == E.PHASE_PALACE:
        act(state, comp, city(next(free)))
    return state, before_points


def test_commodity_example(comp):
    cards = Cards(comp)
    # "During the third visit, Nicole claims a rice and a tea bonus token, so she scores two
    #  points (one point for each new token)."  (vizier + general: two palaces)
    state, before = _nicole_claims(comp, cards, 2, [BONUS.RICE, BONUS.TEA],
                                   [cards("red", "vizier", "general")])
    assert part(state, 0, E.PART_COMMODITY) - before == 2
    assert before == 0

    # "During the fifth visit, Nicole claims another rice bonus token. She scores one point for
    #  the new rice token, and she scores one additional point for the rice token she already
    #  has."
    cards = Cards(comp)  # a new game state: every card is free again
    row = [cards("red", "vizier", "general")]
    state, before = _nicole_claims(comp, cards, 4, [BONUS.RICE], row,
                                   before=[BONUS.RICE, BONUS.TEA])
    assert before == 2
    assert part(state, 0, E.PART_COMMODITY) - before == 2

    # "During the sixth visit, Nicole claims a gems bonus token, and scores one point for it ...
    #  Also during the sixth visit, Nicole scores two points for claiming the province token (one
    #  for each commodity on it), and then scores three additional points for the bonus tokens
    #  she already has that match the commodities on the province token."
    # A tile consistent with that: rice + jewels (2 rice + 1 jewels already held = 3).
    visit = _visit_with_tile(comp, (GOOD.RICE, GOOD.JEWELS))
    cards = Cards(comp)
    held = [BONUS.RICE, BONUS.TEA, BONUS.RICE]
    row = [cards("red", "elephant", "vizier")]
    state, before = _nicole_claims(comp, cards, visit, [BONUS.JEWELS], row, before=held)
    assert before == 1 + 2 + 1  # rice 1 + 2, tea 1
    assert state[E.S_TILE_OWNER + visit] == 0
    assert part(state, 0, E.PART_COMMODITY) - before == 1 + 2 + 3
    assert state[E.S_GOODS + GOOD.RICE] == 3 and state[E.S_GOODS + GOOD.JEWELS] == 2


def test_commodity_example_tile_with_rice_and_tea(comp):
    """The same sixth visit with a rice + tea province tile also scores 2 + 3."""
    visit = _visit_with_tile(comp, (GOOD.RICE, GOOD.TEA))
    cards = Cards(comp)
    held = [BONUS.RICE, BONUS.TEA, BONUS.RICE]
    row = [cards("red", "elephant", "vizier")]
    state, before = _nicole_claims(comp, cards, visit, [BONUS.JEWELS], row, before=held)
    assert part(state, 0, E.PART_COMMODITY) - before == 1 + 2 + 3


# ---------------------------------------------------------------------------------------------
# Connecting Provinces Example (Lena blue, Nicole red, Greg yellow)
# ---------------------------------------------------------------------------------------------
def _chain(comp, start, avoid):
    """(u, v): u next to ``start`` in another province, v next to u in a third province."""
    home = province_of(comp, start)
    for u in neighbours(comp, start):
        if province_of(comp, u) == home or u in avoid:
            continue
        for v in neighbours(comp, u):
            if province_of(comp, v) not in (home, province_of(comp, u)) and v not in avoid:
                return u, v
    return None


def connection_layout(comp):
    """A province X with cities a (crown palace), b (Greg's bonus city), x (Nicole's palace),
    Greg's chain a-u-v and Nicole's chain x-y-z through two other provinces each, b not next to
    u or v (so Greg's chain runs through the crown city), and a city w for Lena's old palace
    that is not next to a."""
    n_cities = int(comp[E.C_N_CITIES])
    for prov in range(E.N_PROVINCES):
        for a, b, x in itertools.permutations(cities_of(comp, prov), 3):
            greg = _chain(comp, a, ())
            if greg is None:
                continue
            u, v = greg
            if u in neighbours(comp, b) or v in neighbours(comp, b):
                continue
            nicole = _chain(comp, x, (u, v))
            if nicole is None:
                continue
            y, z = nicole
            for w in range(n_cities):
                if (province_of(comp, w) != prov and w not in (u, v, y, z)
                        and w not in neighbours(comp, a)):
                    return dict(prov=prov, a=a, b=b, x=x, u=u, v=v, y=y, z=z, w=w)
    pytest.skip("the board has no layout for the connecting-provinces example")


def _visit_of(comp, prov):
    state = StateBuilder(comp, 3).build()
    return next(v for v in range(E.N_VISITS) if nb.province_of_visit(state, v) == prov)


def test_connecting_provinces_example(comp):
    lena, nicole, greg = 0, 1, 2
    L = connection_layout(comp)
    cards = Cards(comp)
    b = StateBuilder(comp, 3, visit=_visit_of(comp, L["prov"])).turn(lena)
    b.clear_bonus(L["prov"]).bonus(L["b"], BONUS.PLUS2)
    b.palace(greg, L["u"], L["v"]).palace(nicole, L["y"], L["z"]).palace(lena, L["w"])
    # Lena: Grand Mogul x2 (crown); Nicole: mogul + vizier (vizier); Greg: general + princess
    # (ties Lena's general and princess, then two palaces).
    b.row(lena, cards("blue", "general", "mogul"), cards("blue", "mogul", "princess"))
    b.row(nicole, cards("red", "mogul", "vizier"))
    b.row(greg, cards("yellow", "general", "princess"))
    b.display(*cards.any("green", 5))
    state = b.build()

    # "Lena withdraws first. She places the crown palace and scores one point ... Lena can't
    #  trace an uninterrupted line to any of her palaces in other provinces."
    act(state, comp, WITHDRAW)
    assert state[E.S_PHASE] == E.PHASE_CROWN
    act(state, comp, city(L["a"]))
    assert part(state, lena, E.PART_PALACE) == 1 and part(state, lena, E.PART_CONNECTION) == 0
    auto(state, comp)

    # "Nicole withdraws next. She scores one point for placing at least one palace this visit.
    #  She also scores two points for connecting to two other provinces."
    act(state, comp, WITHDRAW, city(L["x"]))
    assert part(state, nicole, E.PART_PALACE) == 1
    assert part(state, nicole, E.PART_CONNECTION) == 2
    auto(state, comp)

    # "Greg withdraws last. He places one of his palaces on the same city as Lena's crown palace.
    #  He places his other palace on another city and takes the bonus token from it. He scores
    #  one point ... and two additional points for connecting to two other provinces."
    visit = int(state[E.S_VISIT])
    act(state, comp, WITHDRAW)
    assert city(L["a"]) in legal(state, comp)  # only the crown palace: still open
    act(state, comp, city(L["a"]), city(L["b"]))
    assert part(state, greg, E.PART_PALACE) == 1
    assert part(state, greg, E.PART_CONNECTION) == 2
    assert part(state, greg, E.PART_BONUS) == 2
    assert state[E.S_CONN_BY_VISIT + visit * E.MAX_PLAYERS + greg] == 3
    assert state[E.S_VISIT] == visit + 1  # Greg was last: he took the last card, visit over


@pytest.mark.parametrize("case", ["complete", "interrupted", "province_once", "one_province"])
def test_connection_chains(comp, case):
    """An interruption (a city without the player's palace) breaks the chain; a province reached
    through two of its cities counts once; a chain that ends after one province scores one."""
    L = connection_layout(comp)
    x, y, z = L["x"], L["y"], L["z"]
    prov_y = province_of(comp, y)
    ring = [c for c in neighbours(comp, y) if province_of(comp, c) == prov_y]
    old = {"complete": [y, z], "interrupted": [z], "province_once": [y, ring[0], z],
           "one_province": [y]}[case]
    want = {"complete": 2, "interrupted": 0, "province_once": 2, "one_province": 1}[case]
    cards = Cards(comp)
    b = StateBuilder(comp, 3, visit=_visit_of(comp, L["prov"])).withdrawn(1, 2).turn(0)
    b.clear_bonus(L["prov"]).palace(0, *old).row(0, cards("red", "mogul", "vizier"))
    b.display(*cards.any("green", 1))
    state = b.build()
    act(state, comp, WITHDRAW, city(x))
    if state[E.S_PHASE] == E.PHASE_CROWN:
        act(state, comp, city(x))
    assert part(state, 0, E.PART_PALACE) == 1
    assert part(state, 0, E.PART_CONNECTION) == want


# ---------------------------------------------------------------------------------------------
# Two players: unrest and protests
# ---------------------------------------------------------------------------------------------
def _two_player(comp, cards, unrest, rows, deck_top, hands=((), ())):
    """2-player 2018 state, P0 to act, three display cards."""
    b = StateBuilder(comp, 2).turn(0)
    b.row(0, *rows[0]).row(1, *rows[1]).unrest(*unrest).deck_top(*deck_top)
    b.hand(0, *hands[0]).hand(1, *hands[1]).display(*cards.any("white", 3))
    return b.build()


def test_protest_sets_aside_majority_and_keeps_ties(comp):
    """Unrest: yellow elephant + vizier, green monk + mogul. Rows: P0 red elephant x2, P1 green
    vizier + general. The drawn yellow card starts a protest: the Grand Mogul and the monk
    (unrest 1 vs 0 and 0) are set aside; vizier (1 vs P1's 1) and elephant (1 vs P0's 2) are
    ties or less and stay; the drawn card is discarded, not added to unrest."""
    cards = Cards(comp)
    unrest = [cards("yellow", "elephant", "vizier"), cards("green", "monk", "mogul")]
    rows = [[cards("red", "elephant", "elephant")], [cards("green", "vizier", "general")]]
    drawn = cards("yellow", "elephant", "general")
    play0 = cards("red", "elephant", "princess")
    state = _two_player(comp, cards, unrest, rows, [drawn], hands=([play0], []))
    act(state, comp, bid(play0))  # end of P0's turn: the protest
    assert state[E.S_N_PROTESTS] == 1 and state[E.S_PROTEST_DONE] == 1
    assert seat(state, SYM.MOGUL) == E.SEAT_ASIDE
    assert seat(state, SYM.MONK) == E.SEAT_ASIDE  # monk 1 vs 0 and 0
    for sym in (SYM.VIZIER, SYM.ELEPHANT, SYM.GENERAL, SYM.PRINCESS):
        assert seat(state, sym) == E.SEAT_PRESENT
    assert cards_at(state, E.LOC_UNREST) == []
    for card in unrest + [drawn]:
        assert state[E.S_CARD_LOC + card] == E.LOC_DISCARD


def test_protest_ties_with_either_player_keep_the_token(comp):
    cards = Cards(comp)
    unrest = [cards("yellow", "vizier", "monk")]
    rows = [[cards("red", "vizier", "general")], [cards("green", "monk", "mogul")]]
    drawn = cards("yellow", "elephant", "elephant")
    play0 = cards("red", "elephant", "elephant")
    state = _two_player(comp, cards, unrest, rows, [drawn], hands=([play0], []))
    act(state, comp, bid(play0))
    assert state[E.S_N_PROTESTS] == 1
    assert seat(state, SYM.VIZIER) == E.SEAT_PRESENT  # tie with P0
    assert seat(state, SYM.MONK) == E.SEAT_PRESENT  # tie with P1


def test_protest_province_tile_goes_to_the_box_and_advisors_return(comp):
    """Unrest shows the most elephants and viziers: both set aside. The elephant majority can
    no longer take the tile; at the end of the visit the tile leaves play (box), the vizier
    returns to its seat (not a new one from the supply) and the court moves to tile 2."""
    cards = Cards(comp)
    unrest = [cards("yellow", "elephant", "elephant"), cards("blue", "elephant", "vizier")]
    rows = [[cards("red", "elephant", "general")], []]
    drawn = cards("blue", "elephant", "monk")
    plays = [cards("red", "general", "monk"), cards("red", "elephant", "elephant")]
    p1_cards = cards.any("green", 2, avoid=("vizier",))
    state = _two_player(comp, cards, unrest, rows, [drawn], hands=(plays, p1_cards))
    supply = int(state[E.S_TOKEN_SUPPLY + SYM.VIZIER])
    act(state, comp, bid(plays[0]))
    assert seat(state, SYM.ELEPHANT) == E.SEAT_ASIDE and seat(state, SYM.VIZIER) == E.SEAT_ASIDE
    assert seat(state, SYM.GENERAL) == E.SEAT_PRESENT  # P0 has 2, unrest 0
    # No more unrest this visit ("Only one protest can occur each visit").
    top = int(state[E.S_DECK_TOP])
    act(state, comp, bid(p1_cards[0]), bid(plays[1]), bid(p1_cards[1]))
    assert state[E.S_DECK_TOP] == top and cards_at(state, E.LOC_UNREST) == []
    # P0 withdraws with 3 elephants against none: the tile is aside, so nobody takes it.
    assert state[E.S_ROW_SYM + SYM.ELEPHANT] == 3
    act(state, comp, WITHDRAW)
    assert state[E.S_TILE_OWNER + 0] == -1
    assert tokens(state, 0, SYM.GENERAL) == 1
    auto(state, comp)
    act(state, comp, WITHDRAW)
    auto(state, comp)
    assert state[E.S_VISIT] == 1
    assert state[E.S_TILE_OWNER + 0] == -2  # back to the box
    assert state[E.S_PROVINCE] == nb.province_of_visit(state, 1)
    assert seat(state, SYM.VIZIER) == E.SEAT_PRESENT
    assert state[E.S_TOKEN_SUPPLY + SYM.VIZIER] == supply
    assert seat(state, SYM.ELEPHANT) == E.SEAT_PRESENT  # the next tile


def test_unrest_counts_against_majorities(comp):
    """Before a protest, a withdrawing player must also beat the unrest cards."""
    cards = Cards(comp)
    unrest = [cards("yellow", "vizier", "monk")]
    rows = [[cards("red", "vizier", "general")], []]
    state = _two_player(comp, cards, unrest, rows, [cards("green", "elephant", "elephant")])
    act(state, comp, WITHDRAW)
    assert tokens(state, 0, SYM.VIZIER) == 0  # 1 vs unrest 1: tie
    assert tokens(state, 0, SYM.GENERAL) == 1  # 1 vs unrest 0
    assert seat(state, SYM.VIZIER) == E.SEAT_PRESENT


def test_unrest_beaten_by_more(comp):
    cards = Cards(comp)
    unrest = [cards("yellow", "vizier", "monk")]
    rows = [[cards("red", "vizier", "general"), cards("red", "vizier", "elephant")], []]
    state = _two_player(comp, cards, unrest, rows, [cards("green", "elephant", "elephant")])
    act(state, comp, WITHDRAW)
    assert tokens(state, 0, SYM.VIZIER) == 1


def test_unrest_drawn_after_each_turn_but_not_after_the_visit(comp):
    """A card goes to unrest after a play and after the first withdrawal; the second
    withdrawal ends the visit and the unrest cards are discarded without a protest."""
    cards = Cards(comp)
    red = cards.any("red", 1)
    # unrest, P1's card for withdrawing without playing, unrest
    tops = [cards("yellow", "elephant", "elephant"), cards("blue", "elephant", "elephant"),
            cards("green", "elephant", "elephant")]
    state = _two_player(comp, cards, [], [[], []], tops, hands=(red, []))
    act(state, comp, bid(red[0]))
    assert cards_at(state, E.LOC_UNREST) == [tops[0]]
    act(state, comp, WITHDRAW)  # P1 withdraws first (no row): 2 display cards + 1 deck card
    auto(state, comp)
    assert tops[1] in cards_at(state, E.LOC_HAND + 1)
    assert sorted(cards_at(state, E.LOC_UNREST)) == sorted([tops[0], tops[2]])
    assert state[E.S_N_PROTESTS] == 0
    unrest_cards = cards_at(state, E.LOC_UNREST)
    act(state, comp, WITHDRAW)
    auto(state, comp)
    assert state[E.S_VISIT] == 1
    assert state[E.S_N_PROTESTS] == 0
    for card in unrest_cards:
        assert state[E.S_CARD_LOC + card] == E.LOC_DISCARD
    assert cards_at(state, E.LOC_UNREST) == []


def test_colourless_unrest_card_is_no_protest(comp):
    cards = Cards(comp)
    red = cards.any("red", 1)
    white = [cards("white", "elephant"), cards("white", "elephant")]
    state = _two_player(comp, cards, [white[0]], [[], []], [white[1]], hands=(red, []))
    act(state, comp, bid(red[0]))
    assert state[E.S_N_PROTESTS] == 0
    assert sorted(cards_at(state, E.LOC_UNREST)) == sorted(white)
    assert state[E.S_UNREST_SYM + SYM.ELEPHANT] == 2


@pytest.mark.parametrize("edition, n", [(E.EDITION_2018, 3), (E.EDITION_2000, 3)])
def test_no_unrest_with_more_players(comp, edition, n):
    cards = Cards(comp)
    red = cards.any("red", 1)
    state = StateBuilder(comp, n, edition).hand(0, *red).turn(0).display(
        *cards.any("green", 5)).build()
    top = int(state[E.S_DECK_TOP])
    act(state, comp, bid(red[0]))
    assert state[E.S_DECK_TOP] == top and cards_at(state, E.LOC_UNREST) == []
    assert score(state, 0) == 0
