"""One test (or a few) per rule of docs/rules.md, including the edge cases.

States are built with ``StateBuilder`` (see conftest); every action goes through ``act``, which
also checks that the kernel's legal list equals the rules' list and that all state invariants
hold afterwards. Rule numbers (S1.., R1..) refer to docs/rules.md.
"""

from __future__ import annotations

import numpy as np
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
    loc,
    part,
    score,
    seat,
    take,
    tokens,
    withdraw_all,
)

from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb
from tajsim.games.tajmahal.spec import SPEC
from tajsim.play.conformance import kernel_game_actions

SYM, BONUS = E.SYM, E.BONUS
ENL, NOB, MIGHT, KNOW = (E.PRESTIGE_ENLIGHTENMENT, E.PRESTIGE_NOBILITY, E.PRESTIGE_MIGHT,
                         E.PRESTIGE_KNOWLEDGE)


def solo(comp, cards, *row, n=3, visit=0, display=1, edition=E.EDITION_2018):
    """P0 to act with ``row`` in the row; every other player has withdrawn (P0 is last)."""
    b = StateBuilder(comp, n, edition, visit=visit).withdrawn(*range(1, n)).turn(0)
    b.row(0, *row).display(*cards.any("white", display))
    return b


def bid_actions(actions):
    return [a for a in actions if E.ACTION_BID <= a < E.ACTION_CITY]


# ---------------------------------------------------------------------------------------------
# Setup (S1-S4)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, edition", [(2, 0), (3, 0), (4, 1), (5, 0), (5, 1)])
def test_setup(comp, n, edition):
    state = np.zeros(E.STATE_SIZE, np.int64)
    nb.init_state_nb(comp, n, edition, 11, 12, state)
    for p in range(n):
        assert state[E.S_HAND_N + p] == E.HAND_START
    assert state[E.S_DISPLAY_N] == E.DISPLAY_SIZE[n]
    assert state[E.S_DECK_LEN] - state[E.S_DECK_TOP] == 96 - 6 * n - E.DISPLAY_SIZE[n]
    for card in range(E.FIRST_PRESTIGE, E.N_CARDS):
        assert loc(state, card) == E.LOC_SUPPLY
    # S1: tile 12 on Agra's province, the others one per province.
    tiles = state[E.S_PROVINCE_TILE:E.S_PROVINCE_TILE + E.N_PROVINCES]
    assert sorted(tiles.tolist()) == list(range(E.N_PROVINCES))
    assert tiles[comp[E.C_AGRA_PROVINCE]] == E.N_PROVINCES - 1
    # Taj Mahal +4 on Agra, the square tiles one per other fortress.
    bonus = state[E.S_BONUS_AT:E.S_BONUS_AT + E.MAX_CITIES]
    assert bonus[comp[E.C_AGRA_CITY]] == BONUS.TAJ4
    fort = [c for c in range(comp[E.C_N_CITIES]) if comp[E.C_CITY_FORTRESS + c]
            and c != comp[E.C_AGRA_CITY]]
    assert sorted(bonus[fort].tolist()) == sorted(
        comp[E.C_BONUS_TILES:E.C_BONUS_TILES + comp[E.C_N_BONUS_TILES]].tolist())
    others = [c for c in range(E.MAX_CITIES) if c not in fort and c != comp[E.C_AGRA_CITY]]
    assert (bonus[others] == -1).all()
    # First visit (S3, R1, R2): seat 0 starts, province of tile 1, court full.
    assert state[E.S_FIRST] == state[E.S_CUR] == 0 and state[E.S_VISIT] == 0
    assert tiles[state[E.S_PROVINCE]] == 0
    assert (state[E.S_SEAT:E.S_SEAT + E.N_SYMBOLS] == E.SEAT_PRESENT).all()
    assert (state[E.S_TOKEN_SUPPLY:E.S_TOKEN_SUPPLY + 4] == E.TOKENS_PER_ADVISOR - 1).all()


def test_setup_and_play_streams_are_separate(comp):
    """S4: the setup seed fixes the board, the play seed the deck."""
    a, b, c = (np.zeros(E.STATE_SIZE, np.int64) for _ in range(3))
    nb.init_state_nb(comp, 4, 0, 5, 100, a)
    nb.init_state_nb(comp, 4, 0, 5, 200, b)
    nb.init_state_nb(comp, 4, 0, 6, 100, c)
    board = slice(E.S_PROVINCE_TILE, E.S_PROVINCE_TILE + E.N_PROVINCES)
    bonus = slice(E.S_BONUS_AT, E.S_BONUS_AT + E.MAX_CITIES)
    deck = slice(E.S_DECK, E.S_DECK + E.N_DECK_CARDS)
    assert np.array_equal(a[board], b[board]) and np.array_equal(a[bonus], b[bonus])
    assert not np.array_equal(a[deck], b[deck])
    assert np.array_equal(a[deck], c[deck])
    assert not (np.array_equal(a[board], c[board]) and np.array_equal(a[bonus], c[bonus]))


# ---------------------------------------------------------------------------------------------
# Visits follow the tile numbers; first player marker; 12 visits (R1, R15-R17)
# ---------------------------------------------------------------------------------------------
def _visit_starts(comp, n, edition, seed):
    """(province, first player, current player) at the start of each visit of a random game."""
    start, _, final, actions = kernel_game_actions(SPEC, n, edition, seed, 0, comp=comp)
    state = start.copy()
    seen = [(int(state[E.S_PROVINCE]), int(state[E.S_FIRST]), int(state[E.S_CUR]))]
    for a in actions:
        visit = state[E.S_VISIT]
        nb.apply_action_nb(state, comp, a)
        if state[E.S_VISIT] != visit and state[E.S_PHASE] != E.PHASE_GAME_OVER:
            seen.append((int(state[E.S_PROVINCE]), int(state[E.S_FIRST]), int(state[E.S_CUR])))
    return state, seen


@pytest.mark.parametrize("n, edition", [(2, 0), (3, 1), (5, 0)])
def test_visit_order_first_player_and_game_end(comp, n, edition):
    state, seen = _visit_starts(comp, n, edition, seed=3)
    assert len(seen) == E.N_VISITS
    tiles = state[E.S_PROVINCE_TILE:E.S_PROVINCE_TILE + E.N_PROVINCES]
    assert [int(tiles[prov]) for prov, _, _ in seen] == list(range(E.N_VISITS))
    assert seen[-1][0] == comp[E.C_AGRA_PROVINCE]  # tile 12 last
    assert [first for _, first, _ in seen] == [v % n for v in range(E.N_VISITS)]
    assert all(first == cur for _, first, cur in seen)
    assert state[E.S_PHASE] == E.PHASE_GAME_OVER and state[E.S_VISIT] == E.N_VISITS
    assert (state[E.S_TILE_OWNER:E.S_TILE_OWNER + E.N_PROVINCES] != -1).all()


def test_unclaimed_province_tile_leaves_play(comp):
    """R16: nobody shows an elephant; the tile leaves play and the next visit is tile 2's."""
    state = StateBuilder(comp, 3).display(*Cards(comp).any("red", 5)).build()
    withdraw_all(state, comp)
    assert state[E.S_TILE_OWNER + 0] == -2
    assert state[E.S_VISIT] == 1
    assert state[E.S_PROVINCE_TILE + state[E.S_PROVINCE]] == 1
    assert seat(state, SYM.ELEPHANT) == E.SEAT_PRESENT  # tile 2 on the pedestal


def test_crown_returns_palace_stays_marker_moves(comp):
    """R15: after the visit the crown is back in its seat, the crown palace stays as a normal
    palace, the first player marker passes clockwise."""
    cards = Cards(comp)
    b = StateBuilder(comp, 3, visit=4).turn(1, first=1)
    b.row(1, cards("red", "elephant", "mogul")).display(*cards.any("green", 5))
    state = b.build()
    prov = int(state[E.S_PROVINCE])
    target = cities_of(comp, prov)[1]
    act(state, comp, WITHDRAW, city(target))
    withdraw_all(state, comp)
    assert state[E.S_VISIT] == 5
    assert seat(state, SYM.MOGUL) == E.SEAT_PRESENT and state[E.S_CROWN_CITY] == -1
    assert state[E.S_PALACES + target * E.MAX_PLAYERS + 1] == 1
    assert state[E.S_FIRST] == 2 and state[E.S_CUR] == 2


# ---------------------------------------------------------------------------------------------
# Influencing the court (R4, R5, R5b)
# ---------------------------------------------------------------------------------------------
def test_first_card_any_colour_then_the_row_colour(comp):
    cards = Cards(comp)
    red, yellow = cards.any("red", 2), cards.any("yellow", 1)
    white = cards("white", "elephant")
    state = StateBuilder(comp, 3).hand(0, *red, *yellow, white).turn(0).build()
    want = sorted([WITHDRAW] + [bid(c) for c in red + yellow] + [bid(c, white) for c in
                                                                   red + yellow])
    assert legal(state, comp) == want
    act(state, comp, bid(red[0], white))
    assert state[E.S_ROW_COLOUR + 0] == 0
    act(state, comp, WITHDRAW, WITHDRAW)  # P1, P2 withdraw (empty display: no decisions)
    assert state[E.S_CUR] == 0
    assert legal(state, comp) == [WITHDRAW, bid(red[1])]


def test_colourless_card_never_alone(comp):
    cards = Cards(comp)
    state = StateBuilder(comp, 3).hand(0, *cards.any("white", 3), MIGHT, NOB).turn(0).build()
    assert legal(state, comp) == [WITHDRAW]


def test_no_matching_card_must_withdraw(comp):
    """R5b: a player with no playable card must withdraw."""
    cards = Cards(comp)
    b = StateBuilder(comp, 3).row(0, *cards.any("red", 1)).turn(0)
    state = b.hand(0, *cards.any("blue", 2), cards("white", "vizier"), NOB).build()
    assert legal(state, comp) == [WITHDRAW]


def test_last_player_keeps_playing(comp):
    cards = Cards(comp)
    red = cards.any("red", 3)
    state = solo(comp, cards).hand(0, *red).build()
    for c in red:
        act(state, comp, bid(c))
        assert state[E.S_CUR] == 0 and state[E.S_PHASE] == E.PHASE_BID
    assert state[E.S_ROW_N] == 3


EDITIONS = pytest.mark.parametrize("edition", [E.EDITION_2018, E.EDITION_2000])


@EDITIONS
def test_enlightenment_off_colour_card(comp, edition):
    """R5: with Enlightenment (2000: Colour Change) any colour may be played; the row keeps its
    colour; the card is legal only with Enlightenment, which returns to the hand afterwards."""
    cards = Cards(comp)
    red, blue = cards.any("red", 2), cards.any("blue", 2)
    white = cards("white", "elephant")
    b = StateBuilder(comp, 3, edition).row(0, cards.any("red", 1)[0]).turn(0)
    state = b.hand(0, *red, *blue, white, ENL).build()
    now = legal(state, comp)
    for c in blue:
        assert bid(c, ENL) in now and bid(c) not in now and bid(c, white) not in now
    for c in red:  # R5 decision: also legal (useless) with a card of the row's colour
        assert bid(c) in now and bid(c, ENL) in now and bid(c, white) in now
    act(state, comp, bid(blue[0], ENL))
    assert state[E.S_ROW_COLOUR + 0] == 0  # still red
    assert loc(state, ENL) == E.LOC_ROW + 0
    act(state, comp, WITHDRAW, WITHDRAW)  # P1 and P2 (empty rows, empty display)
    now = legal(state, comp)
    assert bid(blue[1]) not in now and bid(blue[1], ENL) not in now  # Enlightenment is used
    assert bid(red[0]) in now
    act(state, comp, WITHDRAW)
    auto(state, comp)
    assert loc(state, ENL) == E.LOC_HAND + 0  # prestige card back to the hand (R13)
    assert loc(state, blue[0]) == E.LOC_DISCARD


def test_enlightenment_on_first_card_sets_its_colour(comp):
    cards = Cards(comp)
    blue = cards.any("blue", 1)
    state = StateBuilder(comp, 3).hand(0, *blue, ENL).turn(0).build()
    act(state, comp, bid(blue[0], ENL))
    assert state[E.S_ROW_COLOUR + 0] == 3


@EDITIONS
def test_nobility_scores_two_each_play(comp, edition):
    """Nobility (2000: +2) scores 2 every time it is played, once per visit."""
    cards = Cards(comp)
    red = cards.any("red", 2)
    state = StateBuilder(comp, 3, edition).hand(0, *red, NOB).turn(0).build()
    act(state, comp, bid(red[0], NOB))
    assert part(state, 0, E.PART_SPECIAL) == 2 and score(state, 0) == 2
    withdraw_all(state, comp)  # P1, P2, then P0 (Nobility back to hand)
    assert state[E.S_VISIT] == 1 and loc(state, NOB) == E.LOC_HAND + 0
    act(state, comp, WITHDRAW)  # P1 starts visit 2
    auto(state, comp)
    act(state, comp, WITHDRAW)
    auto(state, comp)
    assert state[E.S_CUR] == 0
    act(state, comp, bid(red[1], NOB))
    assert part(state, 0, E.PART_SPECIAL) == 4


@pytest.mark.parametrize("prestige, sym", [(MIGHT, SYM.ELEPHANT), (KNOW, SYM.MOGUL)])
def test_might_and_knowledge_add_one_symbol(comp, prestige, sym):
    cards = Cards(comp)
    red = cards("red", "vizier", "general")
    state = StateBuilder(comp, 3).hand(0, red, prestige).turn(0).build()
    act(state, comp, bid(red, prestige))
    assert state[E.S_ROW_SYM + sym] == 1 and state[E.S_ROW_N] == 2
    assert part(state, 0, E.PART_SPECIAL) == 0


# ---------------------------------------------------------------------------------------------
# Majorities (R6)
# ---------------------------------------------------------------------------------------------
def test_majority_tie_claims_nothing_and_withdrawn_rows_stop_counting(comp):
    """P0 and P1 show one vizier each: P0 withdraws and claims nothing (tie). P1, withdrawing
    afterwards, claims it: P0's row no longer counts."""
    cards = Cards(comp)
    b = StateBuilder(comp, 3).turn(0).withdrawn(2)
    b.row(0, cards("red", "vizier", "elephant")).row(1, cards("blue", "vizier", "elephant"))
    state = b.display(*cards.any("green", 3)).build()
    act(state, comp, WITHDRAW)
    assert tokens(state, 0, SYM.VIZIER) == 0 and seat(state, SYM.VIZIER) == E.SEAT_PRESENT
    assert state[E.S_TILE_OWNER + 0] == -1  # elephants tied too
    auto(state, comp)
    act(state, comp, WITHDRAW)
    assert tokens(state, 1, SYM.VIZIER) == 1


@pytest.mark.parametrize("edition", [E.EDITION_2018, E.EDITION_2000])
def test_symbol_needed_zero_against_zero_claims_nothing(comp, edition):
    cards = Cards(comp)
    state = solo(comp, cards, cards("red", "elephant", "elephant"), edition=edition).build()
    act(state, comp, WITHDRAW)
    for a in range(E.N_ADVISORS):
        assert tokens(state, 0, a) == 0
    assert state[E.S_TILE_OWNER + 0] == 0  # the elephant it has
    assert state[E.S_PHASE] == E.PHASE_BID and state[E.S_VISIT] == 1
    # no advisor token left its seat: no seat was refilled from the supply
    assert (state[E.S_TOKEN_SUPPLY:E.S_TOKEN_SUPPLY + 4] == E.TOKENS_PER_ADVISOR - 1).all()


def test_strict_majority_against_players_still_in(comp):
    cards = Cards(comp)
    b = StateBuilder(comp, 3).turn(0).display(*cards.any("green", 5))
    b.row(0, cards("yellow", "vizier", "monk"), cards("yellow", "princess", "vizier"))
    b.row(1, cards("blue", "vizier", "monk"), cards("blue", "general", "mogul"))
    b.row(2, cards("green", "princess", "monk"))
    state = b.build()
    act(state, comp, WITHDRAW)
    # vizier 2 > 1, 0: claimed; monk 1 vs 1, 1: tie; princess 1 vs 0, 1: tie
    assert [tokens(state, 0, a) for a in range(4)] == [1, 0, 0, 0]


def test_claimed_token_is_gone_for_the_visit(comp):
    cards = Cards(comp)
    b = solo(comp, cards, cards("red", "vizier", "general"))
    state = b.seat(SYM.VIZIER, E.SEAT_EMPTY).tokens(1, SYM.VIZIER).build()
    act(state, comp, WITHDRAW)
    assert tokens(state, 0, SYM.VIZIER) == 0 and tokens(state, 0, SYM.GENERAL) == 1


# ---------------------------------------------------------------------------------------------
# Palaces, bonus tiles, the crown (R7-R10, R12)
# ---------------------------------------------------------------------------------------------
def test_palaces_only_on_open_cities(comp):
    """A city is open with no palace or only this visit's crown palace."""
    cards = Cards(comp)
    b = solo(comp, cards, cards("red", "vizier", "general"))
    c = cities_of(comp, b.province)
    state = b.palace(1, c[0]).crown_palace(2, c[1]).build()
    act(state, comp, WITHDRAW)
    assert state[E.S_PHASE] == E.PHASE_PALACE and state[E.S_PENDING] == 2
    assert legal(state, comp) == [city(x) for x in c[1:]]
    act(state, comp, city(c[1]))
    assert legal(state, comp) == [city(x) for x in c[2:]]  # c[1] now holds two palaces


def test_crown_palace_on_occupied_city_claims_no_bonus(comp):
    """R9: the crown palace goes on any city, occupied or not, and claims no bonus tile; the
    crown city stays open, and a later palace there claims the tile."""
    cards = Cards(comp)
    b = StateBuilder(comp, 3).turn(0).withdrawn(2).display(*cards.any("white", 3))
    c = cities_of(comp, b.province)
    b.clear_bonus(b.province).bonus(c[1], BONUS.PLUS2).palace(2, c[0])
    b.row(0, cards("red", "mogul", "elephant"))
    b.row(1, cards("blue", "elephant", "vizier"), cards("blue", "elephant", "elephant"))
    state = b.build()
    act(state, comp, WITHDRAW)
    assert state[E.S_PHASE] == E.PHASE_CROWN
    assert legal(state, comp) == [city(x) for x in c]  # every city, c[0] occupied
    act(state, comp, city(c[1]))
    assert state[E.S_BONUS_AT + c[1]] == BONUS.PLUS2 and part(state, 0, E.PART_BONUS) == 0
    assert part(state, 0, E.PART_PALACE) == 1  # R12: the crown palace alone scores 1
    auto(state, comp)
    act(state, comp, WITHDRAW)
    assert city(c[1]) in legal(state, comp) and city(c[0]) not in legal(state, comp)
    act(state, comp, city(c[1]))
    assert part(state, 1, E.PART_BONUS) == 2 and state[E.S_BONUS_TAKER + c[1]] == 1


def test_crown_palace_on_own_palace_city(comp):
    cards = Cards(comp)
    b = solo(comp, cards, cards("red", "mogul", "vizier"))
    c = cities_of(comp, b.province)
    state = b.build()
    act(state, comp, WITHDRAW, city(c[2]))
    assert state[E.S_PHASE] == E.PHASE_CROWN
    act(state, comp, city(c[2]))
    assert state[E.S_PALACES + c[2] * E.MAX_PLAYERS] == 2
    assert part(state, 0, E.PART_PALACE) == 1


def test_palace_point_once_per_visit_and_none_without_palace(comp):
    cards = Cards(comp)
    state = solo(comp, cards, cards("red", "vizier", "general"), cards("red", "monk",
                                                                         "princess")).build()
    act(state, comp, WITHDRAW)
    auto(state, comp)
    assert part(state, 0, E.PART_PALACE) == 1  # four palaces, one point
    assert int(sum(state[E.S_PALACES + c * E.MAX_PLAYERS] for c in range(E.MAX_CITIES))) == 4
    cards = Cards(comp)
    state = solo(comp, cards, cards("red", "elephant", "elephant")).build()
    act(state, comp, WITHDRAW)
    assert part(state, 0, E.PART_PALACE) == 0 and part(state, 0, E.PART_CONNECTION) == 0


def test_advisor_token_without_open_city_gives_no_palace(comp):
    """R7 decision: every city closed, the token is still taken, no palace, no point."""
    cards = Cards(comp)
    b = solo(comp, cards, cards("red", "vizier", "elephant"))
    state = b.palace(1, *cities_of(comp, b.province)).build()
    act(state, comp, WITHDRAW)
    assert tokens(state, 0, SYM.VIZIER) == 1
    assert state[E.S_VISIT] == 1
    assert part(state, 0, E.PART_PALACE) == 0


@pytest.mark.parametrize("kind", [BONUS.PLUS2, BONUS.TAJ4, BONUS.DRAW, BONUS.RICE,
                                  BONUS.JEWELS])
def test_bonus_tiles(comp, kind):
    cards = Cards(comp)
    b = StateBuilder(comp, 3).turn(0).withdrawn(2).display(*cards.any("white", 3))
    c = cities_of(comp, b.province)
    b.clear_bonus(b.province).bonus(c[0], kind)
    b.row(0, cards("red", "vizier", "general"))
    top = cards.any("green", 1)[0]
    state = b.deck_top(top).build()
    hand = int(state[E.S_HAND_N])
    act(state, comp, WITHDRAW, city(c[0]), city(c[1]))
    assert state[E.S_BONUS_TAKER + c[0]] == 0 and state[E.S_BONUS_AT + c[0]] == -1
    assert state[E.S_BONUS_HELD + kind] == 1
    if kind == BONUS.PLUS2:
        assert part(state, 0, E.PART_BONUS) == 2
    elif kind == BONUS.TAJ4:
        assert part(state, 0, E.PART_BONUS) == 4
    elif kind == BONUS.DRAW:
        assert loc(state, top) == E.LOC_HAND + 0 and state[E.S_CARD_PUBLIC + top] == 0
        assert state[E.S_HAND_N] == hand + 1  # before taking display cards
    else:
        assert part(state, 0, E.PART_COMMODITY) == 1 and state[E.S_GOODS + kind] == 1
    # R10: bonus tiles are resolved before the display (no crown here).
    assert state[E.S_PHASE] == E.PHASE_DISPLAY


def test_resolution_order_bonus_before_crown_before_tile(comp):
    """R10: advisor palaces, bonus tiles, crown palace, palace scoring, then the province
    tile. The +2 tile is scored before the crown decision; the tile's goods count the bonus
    commodity claimed in the same withdrawal."""
    cards = Cards(comp)
    b = solo(comp, cards, cards("red", "vizier", "mogul"), cards("red", "elephant", "elephant"))
    c = cities_of(comp, b.province)
    tile_goods = [int(comp[E.C_TILE_GOODS + g]) for g in range(E.N_GOODS)]
    good = tile_goods.index(1)
    b.clear_bonus(b.province).bonus(c[0], good)
    state = b.build()
    act(state, comp, WITHDRAW, city(c[0]))
    assert state[E.S_PHASE] == E.PHASE_CROWN
    assert part(state, 0, E.PART_COMMODITY) == 1  # bonus resolved before the crown
    assert part(state, 0, E.PART_PALACE) == 0  # palace scoring after the crown
    assert state[E.S_TILE_OWNER] == -1  # tile after palace scoring
    act(state, comp, city(c[3]))
    assert state[E.S_TILE_OWNER] == 0
    goods = [int(state[E.S_GOODS + g]) for g in range(E.N_GOODS)]
    want = [tile_goods[g] + (g == good) for g in range(E.N_GOODS)]
    assert goods == want
    assert part(state, 0, E.PART_COMMODITY) == sum(k * (k + 1) // 2 for k in want)


# ---------------------------------------------------------------------------------------------
# After withdrawing (R13)
# ---------------------------------------------------------------------------------------------
def test_withdraw_first_without_cards_takes_two_and_the_top_card(comp):
    cards = Cards(comp)
    shown = cards.any("red", 5)
    top = cards.any("blue", 1)[0]
    state = StateBuilder(comp, 3).display(*shown).deck_top(top).turn(0).build()
    act(state, comp, WITHDRAW)
    assert state[E.S_PHASE] == E.PHASE_DISPLAY and state[E.S_PENDING] == 2
    assert legal(state, comp) == [take(c) for c in shown]
    act(state, comp, take(shown[3]))
    assert legal(state, comp) == [take(c) for c in shown if c != shown[3]]
    act(state, comp, take(shown[1]))
    assert sorted(cards_at(state, E.LOC_HAND + 0)) == sorted([shown[1], shown[3], top])
    assert state[E.S_CARD_PUBLIC + shown[1]] == 1 and state[E.S_CARD_PUBLIC + top] == 0
    assert state[E.S_CUR] == 1


def test_2000_withdraw_first_draws_the_top_card_before_the_display(comp):
    """2000 edition: "If you withdrew before playing any cards, draw the topmost [card] from the
    deck. Take 2 cards of your choice from the face-up supply": the drawn card is in the hand
    when the display choice is made (2018: after, see the test above)."""
    cards = Cards(comp)
    shown = cards.any("red", 5)
    top = cards.any("blue", 1)[0]
    state = StateBuilder(comp, 3, edition=E.EDITION_2000).display(*shown).deck_top(top) \
        .turn(0).build()
    act(state, comp, WITHDRAW)
    assert state[E.S_PHASE] == E.PHASE_DISPLAY and state[E.S_PENDING] == 2
    assert cards_at(state, E.LOC_HAND + 0) == [top]  # drawn before the choice
    act(state, comp, take(shown[0]), take(shown[4]))
    assert sorted(cards_at(state, E.LOC_HAND + 0)) == sorted([shown[0], shown[4], top])


def test_2018_withdraw_first_draws_the_top_card_after_the_display(comp):
    cards = Cards(comp)
    shown = cards.any("red", 5)
    top = cards.any("blue", 1)[0]
    state = StateBuilder(comp, 3).display(*shown).deck_top(top).turn(0).build()
    act(state, comp, WITHDRAW)
    assert cards_at(state, E.LOC_HAND + 0) == []  # nothing drawn yet at the choice
    act(state, comp, take(shown[0]), take(shown[4]))
    assert top in cards_at(state, E.LOC_HAND + 0)


def test_withdraw_after_playing_takes_two_only(comp):
    cards = Cards(comp)
    shown = cards.any("red", 5)
    b = StateBuilder(comp, 3).display(*shown).turn(0)
    state = b.row(0, cards("blue", "elephant", "elephant")).build()
    act(state, comp, WITHDRAW, take(shown[0]), take(shown[1]))
    assert sorted(cards_at(state, E.LOC_HAND + 0)) == [shown[0], shown[1]]


def test_last_player_takes_the_single_card_without_a_decision(comp):
    cards = Cards(comp)
    state = solo(comp, cards, cards("blue", "elephant", "elephant")).build()
    last = cards_at(state, E.LOC_DISPLAY)
    act(state, comp, WITHDRAW)  # no palace, no display decision: the visit is over
    assert state[E.S_VISIT] == 1 and last[0] in cards_at(state, E.LOC_HAND + 0)


def test_no_display_decision_without_a_choice(comp):
    """Two display cards and two picks: both taken without a decision."""
    cards = Cards(comp)
    shown = cards.any("red", 2)
    state = StateBuilder(comp, 3).display(*shown).turn(0).build()
    act(state, comp, WITHDRAW)
    assert state[E.S_PHASE] == E.PHASE_BID and state[E.S_CUR] == 1
    assert set(shown) <= set(cards_at(state, E.LOC_HAND + 0))


def test_prestige_cards_return_to_hand_others_discarded(comp):
    cards = Cards(comp)
    row = [cards("red", "elephant", "elephant"), MIGHT, cards("red", "elephant", "vizier"),
           cards("white", "general")]
    state = solo(comp, cards, *row).build()
    act(state, comp, WITHDRAW)
    auto(state, comp)
    assert loc(state, MIGHT) == E.LOC_HAND + 0
    for c in (row[0], row[2], row[3]):
        assert loc(state, c) == E.LOC_DISCARD


# ---------------------------------------------------------------------------------------------
# The deck (R3)
# ---------------------------------------------------------------------------------------------
def test_reshuffle_when_the_deck_is_empty(comp):
    """The deck is empty, the discard pile is shuffled into a new deck for the draw."""
    cards = Cards(comp)
    shown = cards.any("red", 5)
    state = StateBuilder(comp, 3).display(*shown).turn(0).build(rest="discard")
    assert state[E.S_DECK_LEN] == 0
    discards = state[E.S_DISCARD_N]
    act(state, comp, WITHDRAW, take(shown[0]), take(shown[1]))  # draws the top card
    assert state[E.S_N_RESHUFFLES] == 1
    assert state[E.S_DECK_LEN] - state[E.S_DECK_TOP] == discards - 1
    assert state[E.S_DISCARD_N] == 0 and state[E.S_HAND_N] == 3


def test_reshuffle_for_the_display(comp):
    state = StateBuilder(comp, 3).turn(0).build(rest="discard")
    withdraw_all(state, comp)  # three players withdraw with nothing, each draws ... reshuffle
    assert state[E.S_VISIT] == 1
    assert state[E.S_N_RESHUFFLES] == 1
    assert state[E.S_DISPLAY_N] == E.DISPLAY_SIZE[3]


def test_deck_and_discards_exhausted_deal_what_there_is(comp):
    """R3 decision: with no deck and no discard pile a draw gives nothing, the display gets
    what there is, and a player who should take two cards takes what is left."""
    cards = Cards(comp)
    shown = cards.any("red", 1)
    rest = [c for c in range(E.N_DECK_CARDS) if c not in shown]
    b = StateBuilder(comp, 3).display(*shown).turn(0)
    state = b.hand(1, *rest[:40]).hand(2, *rest[40:]).build()
    assert state[E.S_DECK_LEN] == 0 and state[E.S_DISCARD_N] == 0
    act(state, comp, WITHDRAW)  # the one card, no top card to draw
    assert cards_at(state, E.LOC_HAND + 0) == shown
    act(state, comp, WITHDRAW, WITHDRAW)  # nothing left to take
    assert state[E.S_VISIT] == 1 and state[E.S_DISPLAY_N] == 0
    assert state[E.S_N_RESHUFFLES] == 0
    assert legal(state, comp)[0] == WITHDRAW
    # ... and it is recorded: player 0 was owed one display card and the top card, players 1
    # and 2 two and one display cards and one top card each; the next display got no card.
    assert state[E.S_EXHAUSTED_VISIT] == 1
    assert list(state[E.S_DISPLAY_MISSED:E.S_DISPLAY_MISSED + 3]) == [1, 2, 1]
    assert list(state[E.S_DECK_MISSED:E.S_DECK_MISSED + 3]) == [1, 1, 1]
    assert state[E.S_SHORT_DEALS] == 1 and state[E.S_DISPLAY_SHORT] == E.DISPLAY_SIZE[3]


def test_shortages_reach_the_records(comp):
    """Five-player games run the deck and the discard pile dry often (R3): the result and setup
    records say how often, for whom, and from which visit."""
    from tajsim.running.simulate import simulate

    df = simulate(200, 5, "balanced", edition="2000", seed=4, workers=1, progress=False)
    games = df.groupby("game_id").first()
    hit = games["exhausted_visit"] > 0
    assert 0 < hit.mean() < 1  # some games run dry, some do not
    assert (games.loc[~hit, ["n_short_deals", "display_cards_short"]] == 0).all().all()
    per_game = df.groupby("game_id")[["display_cards_missed", "deck_cards_missed"]].sum()
    assert (per_game.sum(axis=1)[~hit.to_numpy()] == 0).all()
    assert per_game.sum(axis=1)[hit.to_numpy()].gt(0).mean() > 0.9


# ---------------------------------------------------------------------------------------------
# Ending a visit: advisor pairs (R14)
# ---------------------------------------------------------------------------------------------
PAIRS = {SYM.VIZIER: KNOW, SYM.GENERAL: MIGHT, SYM.MONK: ENL, SYM.PRINCESS: NOB}
ADVISOR_CARD = {SYM.VIZIER: ("vizier", "elephant"), SYM.GENERAL: ("general", "elephant"),
                SYM.MONK: ("monk", "elephant"), SYM.PRINCESS: ("princess", "elephant")}


@pytest.mark.parametrize("adv", list(PAIRS))
@pytest.mark.parametrize("holder", ["supply", "other", "self"])
def test_advisor_pair_gives_the_prestige_card(comp, adv, holder):
    """Two tokens of a kind return to the supply and give the matching prestige card, from the
    supply or from another player; the tokens go back even if the player has the card."""
    cards = Cards(comp)
    prestige = PAIRS[adv]
    b = solo(comp, cards, cards("red", *ADVISOR_CARD[adv])).tokens(0, adv)
    if holder == "other":
        b.hand(1, prestige)
    elif holder == "self":
        b.hand(0, prestige)
    state = b.build()
    supply = int(state[E.S_TOKEN_SUPPLY + adv])
    hand1 = int(state[E.S_HAND_N + 1])
    act(state, comp, WITHDRAW)
    auto(state, comp)
    assert state[E.S_VISIT] == 1
    assert tokens(state, 0, adv) == 0
    assert state[E.S_TOKEN_SUPPLY + adv] == supply + 2 - 1  # two back, one to the new seat
    assert loc(state, prestige) == E.LOC_HAND + 0
    assert state[E.S_PRESTIGE_GAINS] == (0 if holder == "self" else 1)
    assert state[E.S_HAND_N + 1] == hand1 - (1 if holder == "other" else 0)


def test_single_token_is_kept(comp):
    cards = Cards(comp)
    state = solo(comp, cards, cards("red", "vizier", "elephant")).build()
    act(state, comp, WITHDRAW)
    auto(state, comp)
    assert tokens(state, 0, SYM.VIZIER) == 1 and loc(state, KNOW) == E.LOC_SUPPLY


# ---------------------------------------------------------------------------------------------
# End of the game (R18, R19)
# ---------------------------------------------------------------------------------------------
def _final(comp, edition, hands, specials):
    cards = Cards(comp)
    b = StateBuilder(comp, 3, edition, visit=11)
    for p, spec in enumerate(hands):
        for colour, k in spec.items():
            if colour == "prestige":
                b.hand(p, *k)
            else:
                b.hand(p, *cards.any(colour, k))
    for p, pts in enumerate(specials):
        b.score(p, E.PART_SPECIAL, pts)
    state = b.build()
    nb.final_scoring(state, comp)
    return state


def test_final_card_scoring(comp):
    """R18: colourless cards (white and prestige) + the cards of the best colour."""
    state = _final(comp, E.EDITION_2018, [
        {"red": 3, "yellow": 2, "white": 1, "prestige": [MIGHT]},
        {},
        {"blue": 2, "green": 2, "prestige": [NOB, ENL]},
    ], [0, 0, 0])
    assert [part(state, p, E.PART_CARDS) for p in range(3)] == [3 + 2, 0, 2 + 2]
    assert state[E.S_PHASE] == E.PHASE_GAME_OVER


@pytest.mark.parametrize("edition", [E.EDITION_2018, E.EDITION_2000])
def test_tie_break_by_hand_size(comp, edition):
    """R19: 5 points each for P0 (3 cards) and P1 (5 cards). 2018: P1 wins on cards; 2000:
    shared."""
    state = _final(comp, edition, [{"red": 3}, {"white": 5}, {"red": 1}], [2, 0, 0])
    assert [score(state, p) for p in range(3)] == [5, 5, 1]
    ranks = [int(state[E.S_RANK + p]) for p in range(3)]
    winners = [int(state[E.S_WINNER + p]) for p in range(3)]
    if edition == E.EDITION_2018:
        assert ranks == [2, 1, 3] and winners == [0, 1, 0]
    else:
        assert ranks == [1, 1, 3] and winners == [1, 1, 0]


def test_tie_on_score_and_cards_is_shared_2018(comp):
    state = _final(comp, E.EDITION_2018, [{"red": 3}, {"white": 3}, {}], [2, 2, 0])
    assert [int(state[E.S_RANK + p]) for p in range(3)] == [1, 1, 3]
    assert [int(state[E.S_WINNER + p]) for p in range(3)] == [1, 1, 0]


# ---------------------------------------------------------------------------------------------
# The Python API: editions, player counts, illegal actions
# ---------------------------------------------------------------------------------------------
def test_2000_edition_rejects_two_players():
    from tajsim.errors import UserError
    from tajsim.games.tajmahal.engine.game import Game

    with pytest.raises(UserError) as info:
        Game(2, "2000")
    assert "\n" not in str(info.value) and "2000" in str(info.value)
    for bad_n, edition in [(1, "2018"), (6, "2018"), (6, "2000")]:
        with pytest.raises(UserError):
            Game(bad_n, edition)
    with pytest.raises(UserError):
        Game(3, "1999")
    Game(2, "2018")


def test_illegal_action_raises():
    from tajsim.games.tajmahal.engine.game import Game, IllegalActionError

    game = Game(3, "2018", seed=1)
    for bad in (-1, E.N_ACTIONS, E.ACTION_CITY, E.ACTION_TAKE + 95):
        with pytest.raises(IllegalActionError) as info:
            game.apply(bad)
        assert "\n" not in str(info.value)
    assert game.actions == [] and game.state[E.S_STEP] == 0
