"""One test (or a few) per rule of ``docs/games/maharaja/rules.md`` (R-numbers in the names).

Positions are built from a real set-up game (``maharaja_helpers.setup``) and changed only in
ways that keep every invariant; every action goes through ``act``, which also compares the
kernels' legal list with the independent reference and checks every invariant afterwards.
"""

from __future__ import annotations

import numpy as np
import pytest
from maharaja_helpers import (
    CITY,
    COMP,
    COMPONENTS,
    DONE,
    VILLAGE,
    A,
    C,
    P,
    act,
    build,
    card,
    city_loc,
    everyone_gold,
    free_build,
    give_gold,
    gold,
    governor,
    houses_at,
    legal,
    new_game,
    open_villages,
    pair,
    part,
    pick_all,
    place_house,
    road_villages,
    set_architect,
    setup,
    to_turn_of,
    travel,
)

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb

DELHI, JODHPUR, JAIPUR, AGRA = CITY["Delhi"], CITY["Jodhpur"], CITY["Jaipur"], CITY["Agra"]


def start_turn(state, picks, seat):
    """Everyone picks, then the seats before ``seat`` end their turns at once."""
    pick_all(state, picks)
    to_turn_of(state, seat)


# ---------------------------------------------------------------------------------------------
# R1-R2: the Maharaja and the governor track
# ---------------------------------------------------------------------------------------------
def test_r1_r2_maharaja_visits_lowest_governor_which_goes_on_top():
    state = setup(order=0)  # order 0: Delhi, Jodhpur, Jaipur ... from the bottom
    assert state[E.S_ROUND] == 1 and state[E.S_MAHARAJA] == DELHI
    assert state[E.S_GOV_POS + DELHI] == E.TRACK_START_BOXES + 1  # box 1
    assert state[E.S_ROUND_BOX] == 1
    for c in range(1, E.N_CITIES):
        assert state[E.S_GOV_POS + c] == c + 1
    pick_all(state, everyone_gold(4))
    for _ in range(4):
        act(state, DONE)
    assert state[E.S_ROUND] == 2 and state[E.S_MAHARAJA] == JODHPUR
    assert state[E.S_GOV_POS + JODHPUR] == E.TRACK_START_BOXES + 2 and state[E.S_ROUND_BOX] == 2


# ---------------------------------------------------------------------------------------------
# R3-R7: setup
# ---------------------------------------------------------------------------------------------
def test_r3_starting_material():
    state = new_game(3)
    for p in range(3):
        assert gold(state, p) == 15 and state[E.S_POOL + p] == 4
        assert state[E.S_QUARRY + p] == 16 and state[E.S_ARCH + p] == E.START
        assert state[E.S_PALACES + p] == 0
    assert state[E.S_MAHARAJA] == E.START and state[E.S_PHASE] == E.PHASE_DRAFT
    state = setup(3)
    for p in range(3):
        assert state[E.S_POOL + p] == 6 and state[E.S_QUARRY + p] == 10


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_r4_unused_colours_palaces(n):
    state = new_game(n)
    for c in range(E.N_CITIES):
        row = state[E.S_SITE + c * E.N_SITES:E.S_SITE + (c + 1) * E.N_SITES]
        assert (row == E.SITE_NEUTRAL).sum() == 5 - n
        assert row[0] == E.SITE_EMPTY


def test_r5_village_cap_two_players_one_house():
    state = new_game(2)
    act(state, card(0), card(1))
    act(state, build(0))  # seat 0 (card 1) first
    assert build(0) not in legal(state)
    state = new_game(4)
    act(state, card(0), card(1), card(2), card(3))
    act(state, build(0))
    assert build(0) in legal(state)
    act(state, build(0))
    assert build(0) not in legal(state)


def test_r5_city_houses_unlimited():
    state = setup(4)
    place_house(state, 0, city_loc("Delhi"), 3)
    set_architect(state, 0, "Delhi")
    start_turn(state, [(A.TWO_HOUSES, A.HOUSE)] + everyone_gold(3), 0)
    assert build(city_loc("Delhi")) in legal(state)
    act(state, build(city_loc("Delhi")), build(city_loc("Delhi")), build(city_loc("Delhi")))
    assert houses_at(state, city_loc("Delhi"), 0) == 6


def test_r6_quarry_runs_out_and_counts_as_unperformed():
    state = setup(4)
    state[E.S_QUARRY + 0] = 1
    state[E.S_POOL + 0] += 9  # the same 20 houses, nine more in the pool
    start_turn(state, [(A.QUARRY, A.GOLD)] + everyone_gold(3), 0)
    assert state[E.S_QUARRY + 0] == 0 and state[E.S_POOL + 0] == 16
    act(state, DONE)
    assert [part(state, q, E.PART_PENALTIES_IN) for q in (1, 2, 3)] == [2, 2, 2]
    assert state[E.S_PEN_BY_ACT + A.QUARRY] == 1  # seat 0


def test_r6_unlimited_houses_option():
    state = setup(4, options={"unlimited_houses": True})
    q0 = int(state[E.S_QUARRY + 0])
    start_turn(state, [(A.QUARRY, A.QUARRY)] + everyone_gold(3), 0)
    assert state[E.S_QUARRY + 0] == q0 and state[E.S_POOL + 0] == 10
    act(state, DONE)
    assert state[E.S_PEN_COUNT + 0] == 0


def test_r7_draft_in_seat_order_and_houses_in_card_order():
    state = new_game(3)
    assert state[E.S_CUR] == 0
    act(state, card(4))
    assert state[E.S_CUR] == 1 and card(4) not in legal(state)
    act(state, card(2), card(0))
    # cards: seat 0 has 5, seat 1 has 3, seat 2 has 1 -> placing order 2, 1, 0, four times
    seats = []
    for _i in range(12):
        seats.append(int(state[E.S_CUR]))
        act(state, legal(state)[0])
    assert seats == [2, 1, 0] * 4
    assert state[E.S_ROUND] == 1 and all(state[E.S_POOL + p] == 6 for p in range(3))


# ---------------------------------------------------------------------------------------------
# R8-R10: travel and tolls
# ---------------------------------------------------------------------------------------------
def test_r8_village_without_house_blocks_the_road():
    state = setup(4)
    v1, v2 = road_villages("Camp", "Agra")
    start_turn(state, everyone_gold(4), 0)
    assert travel("Camp", "Agra") not in legal(state)
    place_house(state, 1, v1)
    assert travel("Camp", "Agra") not in legal(state)  # the second village is still empty
    place_house(state, 2, v2)
    assert travel("Camp", "Agra") in legal(state)


def test_r9_tolls_go_to_the_owners_per_house():
    state = setup(4)
    v1, v2 = road_villages("Camp", "Agra")
    place_house(state, 1, v1)
    place_house(state, 2, v1)
    place_house(state, 2, v2)
    start_turn(state, everyone_gold(4), 0)
    g = [gold(state, q) for q in range(4)]
    act(state, travel("Camp", "Agra"))
    assert state[E.S_ARCH + 0] == AGRA
    assert gold(state, 0) == g[0] - 3 and gold(state, 1) == g[1] + 1 and gold(state, 2) == g[2] + 2
    assert part(state, 0, E.PART_TOLLS_OUT) == -3 and part(state, 2, E.PART_TOLLS_IN) == 2
    assert state[E.S_TOLL_BY_VILLAGE + v1] == 2 and state[E.S_TOLL_BY_VILLAGE + v2] == 1


def test_r9_own_house_makes_a_village_free():
    state = setup(4)
    v1, v2 = road_villages("Camp", "Agra")
    place_house(state, 0, v1)
    place_house(state, 1, v1)
    place_house(state, 1, v2)
    start_turn(state, everyone_gold(4), 0)
    g0, g1 = gold(state, 0), gold(state, 1)
    act(state, travel("Camp", "Agra"))
    assert gold(state, 0) == g0 - 1 and gold(state, 1) == g1 + 1  # only the second village


def test_r9_cannot_travel_without_the_toll():
    state = setup(4)
    for v in road_villages("Camp", "Agra"):
        place_house(state, 1, v, 2)
    start_turn(state, everyone_gold(4), 0)
    # seat 0 has 15 + 4 gold; spend down to 3
    state[E.S_GOLD + 0] = 3
    state[E.S_PARTS + 0 * E.N_PARTS + E.PART_BUILD_SPENT] -= gold_gap(state, 0)
    assert travel("Camp", "Agra") not in legal(state)  # 4 gold due


def gold_gap(state, p):
    """Make gold == sum of parts again after a direct change of S_GOLD (test helper)."""
    parts = int(state[E.S_PARTS + p * E.N_PARTS + 1:E.S_PARTS + (p + 1) * E.N_PARTS].sum())
    return parts - int(state[E.S_GOLD + p])


def test_r9_travel_cap_per_turn():
    state = setup(4)
    open_villages(state, road_villages("Camp", "Agra"), 0)
    start_turn(state, everyone_gold(4), 0)
    for i in range(E.MAX_TRAVELS_PER_TURN):
        act(state, travel("Camp", "Agra") if i % 2 == 0 else travel("Agra", "Camp"))
    assert not any(E.ACTION_TRAVEL <= a < E.ACTION_BUILD for a in legal(state))


def test_r10_wandering_monk_travels_free_and_the_bank_pays():
    state = setup(4, cards=[C.MONK, 0, 1, 2])
    v1, v2 = road_villages("Camp", "Agra")
    place_house(state, 1, v1, 2)
    place_house(state, 2, v2, 2)
    state[E.S_GOLD + 0] = 0
    state[E.S_PARTS + E.PART_BUILD_SPENT] -= gold_gap(state, 0)
    start_turn(state, everyone_gold(4), 0)
    g = [gold(state, q) for q in range(4)]
    act(state, travel("Camp", "Agra"))
    assert gold(state, 0) == g[0] and gold(state, 1) == g[1] + 2 and gold(state, 2) == g[2] + 2
    assert state[E.S_MONK_TOLLS] == 4


# ---------------------------------------------------------------------------------------------
# R11-R17: the secret choice, the reveal, turn order, ending a turn, penalties
# ---------------------------------------------------------------------------------------------
def test_r11_secret_pick_of_45_pairs_in_seat_order():
    state = setup(3)
    assert legal(state) == list(range(E.ACTION_PICK, E.ACTION_PICK + 45))
    act(state, pair(A.PALACE, A.PALACE))
    assert state[E.S_CUR] == 1 and state[E.S_PICK + 0] == E.pair_index(A.PALACE, A.PALACE)
    assert state[E.S_REVEALED + 0] == 0
    act(state, pair(A.GOLD, A.CHARACTER), pair(A.HOUSE, A.GOVERNOR))
    assert state[E.S_PHASE] == E.PHASE_TURN and state[E.S_REVEALED + 0] == 1
    assert state[E.S_REVEALED + 1] == 0 and state[E.S_REVEALED + 2] == 0


def test_r12_actions_interleaved_with_travel():
    """The manual's example: build one house, exchange the character, then build a palace."""
    state = setup(4, cards=[2, 0, 1, 3])
    open_villages(state, road_villages("Camp", "Agra"), 1)
    start_turn(state, [(A.PALACE_HOUSE, A.CHARACTER)] + everyone_gold(3), 0)
    act(state, travel("Camp", "Agra"), build(city_loc("Agra")), card(C.ARTISAN))
    g = gold(state, 0)
    act(state, E.ACTION_PALACE)
    assert gold(state, 0) == g - 9  # the Artisan's price: the new card works at once
    act(state, DONE)
    assert state[E.S_PEN_COUNT + 0] == 0


def test_r13_gold_and_quarry_at_the_reveal():
    state = setup(4)
    start_turn(state, [(A.GOLD, A.GOLD), (A.QUARRY, A.GOLD), (A.GOLD, A.GOLD),
                       (A.GOLD, A.GOLD)], 0)
    assert part(state, 0, E.PART_GOLD_ACTION) == 4
    act(state, DONE)
    assert state[E.S_CUR] == 1 and state[E.S_POOL + 1] == 8
    assert part(state, 1, E.PART_GOLD_ACTION) == 2


def test_r14_turn_order_by_character_card():
    state = setup(4, cards=[3, 5, 0, 1])
    pick_all(state, everyone_gold(4))
    order = []
    while state[E.S_ROUND] == 1:
        order.append(int(state[E.S_CUR]))
        act(state, DONE)
    assert order == [2, 3, 0, 1]


@pytest.mark.parametrize("static", [False, True])
def test_r15_turn_order_after_a_card_is_taken(static):
    # seats 0..3 hold cards 1, 2, 5, 6; seat 0 takes card 6 from seat 3, which takes the Mogul
    state = setup(4, cards=[0, 1, 4, 5], options={"static_order": static})
    pick_all(state, [(A.CHARACTER, A.GOLD)] + everyone_gold(3))
    assert state[E.S_CUR] == 0
    act(state, card(C.ARTISAN))
    assert state[E.S_PHASE] == E.PHASE_REPLACE and state[E.S_CUR] == 3
    assert card(C.MOGUL) in legal(state)  # the card just returned may be taken
    act(state, card(C.MOGUL))
    assert state[E.S_CUR] == 0 and state[E.S_PHASE] == E.PHASE_TURN
    act(state, DONE)
    # dynamic: seat 3 now holds card 1 and has not acted -> it goes next
    assert state[E.S_CUR] == (1 if static else 3)


def test_r16_done_passes_the_turn():
    state = setup(4)
    pick_all(state, everyone_gold(4))
    act(state, DONE)
    assert state[E.S_ACTED + 0] == 1 and state[E.S_CUR] == 1 and state[E.S_REVEALED + 1] == 1


@pytest.mark.parametrize("per_turn", [False, True])
def test_r17_penalty_for_unperformed_actions(per_turn):
    state = setup(4, options={"penalty_per_turn": per_turn})
    pick_all(state, [(A.PALACE, A.GOVERNOR)] + everyone_gold(3))
    act(state, DONE)  # neither action carried out
    gain = 2 if per_turn else 4
    assert [part(state, q, E.PART_PENALTIES_IN) for q in range(4)] == [0, gain, gain, gain]
    assert state[E.S_PEN_COUNT + 0] == 2
    assert state[E.S_PEN_BY_ACT + A.PALACE] == 1 and state[E.S_PEN_BY_ACT + A.GOVERNOR] == 1
    assert state[E.S_PEN_BY_ACT + E.N_ACT:E.S_PEN_BY_ACT + P * E.N_ACT].sum() == 0


def test_r17_gold_action_is_always_carried_out():
    state = setup(4)
    pick_all(state, everyone_gold(4))
    act(state, DONE)
    assert [part(state, q, E.PART_PENALTIES_IN) for q in range(4)] == [0, 0, 0, 0]


# ---------------------------------------------------------------------------------------------
# R18-R20: houses
# ---------------------------------------------------------------------------------------------
def test_r18_two_houses_need_one_in_a_city():
    state = setup(4)
    start_turn(state, [(A.TWO_HOUSES, A.GOLD)] + everyone_gold(3), 0)
    free = [v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] < 2]
    act(state, build(free[0]))
    # the second house must stand in a city: no village is legal any more
    assert not any(build(v) in legal(state) for v in range(E.N_VILLAGES))
    act(state, DONE)
    assert state[E.S_PEN_COUNT + 0] == 1 and state[E.S_PEN_BY_ACT + A.TWO_HOUSES] == 1


def test_r18_two_houses_village_and_city_complete():
    state = setup(4)
    set_architect(state, 0, "Delhi")
    start_turn(state, [(A.TWO_HOUSES, A.HOUSE)] + everyone_gold(3), 0)
    free = [v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] == 0]
    act(state, build(free[0]), build(free[1]))  # house + the village half of two houses
    assert not any(build(v) in legal(state) for v in range(E.N_VILLAGES))
    act(state, build(city_loc("Delhi")), DONE)
    assert state[E.S_PEN_COUNT + 0] == 0


def test_r18_house_costs_one_gold():
    state = setup(4)
    start_turn(state, [(A.HOUSE, A.GOLD)] + everyone_gold(3), 0)
    g, pool = gold(state, 0), int(state[E.S_POOL + 0])
    act(state, build(20))
    assert gold(state, 0) == g - 1 and state[E.S_POOL + 0] == pool - 1
    assert part(state, 0, E.PART_BUILD_SPENT) == -1


def test_r19_city_house_needs_the_architect():
    state = setup(4)
    start_turn(state, [(A.HOUSE, A.GOLD)] + everyone_gold(3), 0)
    assert not any(build(E.LOC_CITY + c) in legal(state) for c in range(E.N_CITIES))
    set_architect(state, 0, "Jaipur")
    assert [c for c in range(E.N_CITIES) if build(E.LOC_CITY + c) in legal(state)] == [JAIPUR]


def test_r20_move_a_house():
    state = setup(4)
    place_house(state, 0, city_loc("Agra"))
    set_architect(state, 0, "Delhi")
    start_turn(state, [(A.MOVE_HOUSE, A.GOLD)] + everyone_gold(3), 0)
    # out of a city without the architect: allowed
    act(state, E.ACTION_MOVE_FROM + city_loc("Agra"))
    dests = [a - E.ACTION_MOVE_TO for a in legal(state)]
    assert city_loc("Delhi") in dests and city_loc("Agra") not in dests
    assert all(state[E.S_LOC_TOTAL + v] < 2 for v in dests if v < E.N_VILLAGES)
    act(state, E.ACTION_MOVE_TO + city_loc("Delhi"))
    assert houses_at(state, city_loc("Delhi"), 0) == 1
    assert houses_at(state, city_loc("Agra"), 0) == 0
    act(state, DONE)
    assert state[E.S_PEN_COUNT + 0] == 0


def test_r20_no_move_into_a_full_village():
    state = setup(4)
    full = [v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] == 2]
    mine = [v for v in range(E.N_VILLAGES) if houses_at(state, v, 0) > 0]
    start_turn(state, [(A.MOVE_HOUSE, A.GOLD)] + everyone_gold(3), 0)
    act(state, E.ACTION_MOVE_FROM + mine[0])
    assert not any(E.ACTION_MOVE_TO + v in legal(state) for v in full)


# ---------------------------------------------------------------------------------------------
# R21-R23: palaces
# ---------------------------------------------------------------------------------------------
def palace_turn(state, picks, seat=0, where="Delhi"):
    set_architect(state, seat, where)
    give_gold(state, seat, 40)
    start_turn(state, picks, seat)


def test_r21_one_palace_per_player_per_city():
    state = setup(4)
    palace_turn(state, [(A.PALACE, A.PALACE)] + everyone_gold(3))
    act(state, E.ACTION_PALACE)
    assert not any(a in legal(state) for a in (E.ACTION_PALACE, E.ACTION_PALACE + 1))


def test_r21_several_palaces_option():
    state = setup(4, options={"several_palaces": True})
    palace_turn(state, [(A.PALACE, A.PALACE)] + everyone_gold(3))
    act(state, E.ACTION_PALACE, E.ACTION_PALACE + 1)
    assert state[E.S_PALACES + 0] == 2 and state[E.S_CENTRAL + 0] == 1


def test_r22_first_palace_takes_the_centre():
    state = setup(4)
    palace_turn(state, [(A.PALACE, A.GOLD), (A.PALACE, A.GOLD)] + everyone_gold(2))
    palace_moves = [a for a in legal(state) if E.ACTION_PALACE <= a < E.ACTION_GOVERNOR]
    assert palace_moves == [E.ACTION_PALACE]
    act(state, E.ACTION_PALACE, DONE)
    set_architect(state, 1, "Delhi")
    give_gold(state, 1, 20)
    assert [a for a in legal(state) if E.ACTION_PALACE <= a < E.ACTION_GOVERNOR] == \
        [E.ACTION_PALACE + 1]
    act(state, E.ACTION_PALACE + 1)
    row = state[E.S_SITE + DELHI * E.N_SITES:E.S_SITE + (DELHI + 1) * E.N_SITES]
    assert row[0] == 0 and 1 in row[1:].tolist()


def test_r22_free_site_option():
    state = setup(4, options={"free_palace_site": True})
    palace_turn(state, [(A.PALACE, A.GOLD)] + everyone_gold(3))
    assert [a for a in legal(state) if E.ACTION_PALACE <= a < E.ACTION_GOVERNOR] == \
        [E.ACTION_PALACE, E.ACTION_PALACE + 1]


def test_r23_palace_costs_twelve():
    state = setup(4)
    palace_turn(state, [(A.PALACE_HOUSE, A.GOLD)] + everyone_gold(3))
    g = gold(state, 0)
    act(state, E.ACTION_PALACE, build(city_loc("Delhi")), DONE)
    assert gold(state, 0) == g - 13 and state[E.S_PEN_COUNT + 0] == 0
    assert state[E.S_PALACE_ROUND + 0] == 1


def test_r23_palace_needs_the_gold_and_a_city():
    state = setup(4)
    start_turn(state, [(A.PALACE, A.GOLD)] + everyone_gold(3), 0)
    assert E.ACTION_PALACE not in legal(state)  # the architect stands at the start
    set_architect(state, 0, "Delhi")
    assert E.ACTION_PALACE in legal(state)  # 15 + 2 gold
    state[E.S_GOLD + 0] = 11
    state[E.S_PARTS + E.PART_BUILD_SPENT] -= gold_gap(state, 0)
    assert E.ACTION_PALACE not in legal(state)


# ---------------------------------------------------------------------------------------------
# R25-R27: the governor action
# ---------------------------------------------------------------------------------------------
def track(state):
    return [int(state[E.S_BOX + pos]) for pos in range(1, int(state[E.S_GOV_TOP]) + 1)]


def test_r25_governor_moves_two_down_passed_ones_move_up():
    state = setup(4)  # positions 2..7 = cities 1..6, Delhi at 8
    start_turn(state, [(A.GOVERNOR, A.GOLD)] + everyone_gold(3), 0)
    act(state, governor("Lucknow"))  # Lucknow (city 4) at position 5 -> 3
    assert track(state) == [-1, 1, 4, 2, 3, 5, 6, 0]


def test_r26_governor_needs_two_boxes_below():
    state = setup(4)
    start_turn(state, [(A.GOVERNOR, A.GOLD)] + everyone_gold(3), 0)
    movable = [a - E.ACTION_GOVERNOR for a in legal(state)
               if E.ACTION_GOVERNOR <= a < E.ACTION_CARD]
    assert movable == [c for c in range(E.N_CITIES) if state[E.S_GOV_POS + c] >= 3]
    assert JODHPUR not in movable  # position 2: only one box below


def test_r27_gaps():
    state = setup(4)
    # move the governor at position 3 (Jaipur) to 1: Jodhpur, passed, moves up to 3; box 2 empty
    start_turn(state, [(A.GOVERNOR, A.GOLD)] + everyone_gold(3), 0)
    act(state, governor("Jaipur"))
    assert track(state) == [2, -1, 1, 3, 4, 5, 6, 0]
    for _ in range(4):
        act(state, DONE)
    assert state[E.S_ROUND] == 2 and state[E.S_MAHARAJA] == JAIPUR  # the lowest governor
    assert state[E.S_ROUND_BOX] == 2 and track(state)[-1] == JAIPUR


def test_r27_top_governor_over_a_gap_makes_the_game_longer():
    state = setup(4)
    # Udaipur's governor (position 7) is moved to the empty position 1: a gap under Delhi (8)
    udaipur = CITY["Udaipur"]
    state[E.S_BOX + 7] = -1
    state[E.S_BOX + 1] = udaipur
    state[E.S_GOV_POS + udaipur] = 1
    start_turn(state, [(A.GOVERNOR, A.GOLD)] + everyone_gold(3), 0)
    act(state, governor("Delhi"))  # 8 -> 6: passes the gap at 7 and Varanasi at 6 (-> 7)
    assert state[E.S_GOV_TOP] == 7 and state[E.S_GOV_POS + DELHI] == 6
    for _ in range(4):
        act(state, DONE)
    assert state[E.S_ROUND] == 2 and state[E.S_MAHARAJA] == udaipur
    assert state[E.S_ROUND_BOX] == 1  # box 1 again: round 2 counts as the first box


# ---------------------------------------------------------------------------------------------
# R28: the character action
# ---------------------------------------------------------------------------------------------
def test_r28_take_a_card_from_the_bank():
    state = setup(4, cards=[0, 1, 2, 3])
    start_turn(state, [(A.CHARACTER, A.GOLD)] + everyone_gold(3), 0)
    assert [a - E.ACTION_CARD for a in legal(state) if a >= E.ACTION_CARD] == [1, 2, 3, 4, 5]
    act(state, card(C.BUILDER))
    assert state[E.S_CARD_OF + 0] == C.BUILDER and state[E.S_CARD_OWNER + 0] == -1
    assert state[E.S_PHASE] == E.PHASE_TURN


def test_r28_take_a_card_from_a_player():
    state = setup(4, cards=[0, 1, 2, 3])
    start_turn(state, [(A.CHARACTER, A.GOLD)] + everyone_gold(3), 0)
    act(state, card(2))  # seat 2's Sadhu
    assert state[E.S_PHASE] == E.PHASE_REPLACE and state[E.S_CUR] == 2
    assert [a - E.ACTION_CARD for a in legal(state)] == [0, 4, 5]  # Mogul returned + bank
    act(state, card(5))
    assert state[E.S_CARD_OF + 2] == 5 and state[E.S_CARD_OF + 0] == 2


# ---------------------------------------------------------------------------------------------
# R30-R32: scoring
# ---------------------------------------------------------------------------------------------
def test_r30_presence_points():
    state = setup(4, cards=[0, C.SADHU, 1, 3])
    d = DELHI
    base = E.S_SITE + d * E.N_SITES
    state[base + 0] = 0  # seat 0 central palace
    state[base + 2] = 1  # seat 1 outer palace (Sadhu: 2 points)
    state[base + 3] = 2  # seat 2 outer palace
    for q, k in ((0, 0), (1, 0), (2, 0)):
        state[E.S_PALACES + q] += 1
        state[E.S_PARTS + q * E.N_PARTS + E.PART_PALACES] += E.PALACE_POINTS
        state[E.S_PALACE_ROUND + q * E.N_CITIES + k] = 1
    state[E.S_CENTRAL + 0] = 1
    place_house(state, 2, city_loc("Delhi"), 2)
    set_architect(state, 3, "Delhi")
    pts = [int(nb.city_points(state, COMP, d, q)) for q in range(4)]
    assert pts == [3, 2, 3, 1]


@pytest.mark.parametrize("n,table", [(2, [10, 5]), (3, [11, 7, 3]), (4, [12, 9, 6, 3]),
                                     (5, [13, 10, 7, 4, 1])])
def test_r31_gold_by_rank(n, table):
    state = setup(n)
    for q in range(n):  # seat q: n - q houses in Delhi
        place_house(state, q, city_loc("Delhi"), n - q)
    pick_all(state, everyone_gold(n))
    before = [part(state, q, E.PART_CITY) for q in range(n)]
    for _ in range(n):
        act(state, DONE)
    assert [part(state, q, E.PART_CITY) - before[q] for q in range(n)] == table


def test_r31_ties_to_the_lower_card_and_no_points_no_gold():
    state = setup(4, cards=[3, 1, 2, 0])
    place_house(state, 0, city_loc("Delhi"), 2)
    place_house(state, 1, city_loc("Delhi"), 2)
    pick_all(state, everyone_gold(4))
    for _ in range(4):
        act(state, DONE)
    gains = [part(state, q, E.PART_CITY) for q in range(4)]
    assert gains == [9, 12, 0, 0]  # seat 1 holds card 2, seat 0 card 4


@pytest.mark.parametrize("option", [False, True])
def test_r31_lone_scorer_bonus(option):
    state = setup(4, options={"no_lone_bonus": option})
    place_house(state, 2, city_loc("Delhi"))
    pick_all(state, everyone_gold(4))
    for _ in range(4):
        act(state, DONE)
    assert part(state, 2, E.PART_CITY) == 12
    assert part(state, 2, E.PART_LONE) == (0 if option else 5)


# ---------------------------------------------------------------------------------------------
# R33-R38: characters
# ---------------------------------------------------------------------------------------------
def test_r34_trader_gold_each_turn_and_when_taken():
    state = setup(4, cards=[C.TRADER, 0, 2, 3])
    pick_all(state, [(A.CHARACTER, A.GOLD)] + everyone_gold(3))
    to_turn_of(state, 0)
    assert part(state, 0, E.PART_TRADER) == 1
    act(state, card(C.ARTISAN))  # gives the Trader back: no more Trader gold this turn
    act(state, DONE)
    state2 = setup(4, cards=[0, 2, 3, 4])
    start_turn(state2, [(A.CHARACTER, A.GOLD)] + everyone_gold(3), 0)
    act(state2, card(C.TRADER))
    assert part(state2, 0, E.PART_TRADER) == 1


def test_r35_sadhu_outer_palaces_two_points():
    state = setup(4, cards=[C.SADHU, 0, 1, 3])
    base = E.S_SITE + DELHI * E.N_SITES
    state[base + 0] = 1
    state[base + 2] = 0
    for q, central in ((0, 0), (1, 1)):
        state[E.S_PALACES + q] += 1
        state[E.S_CENTRAL + q] += central
        state[E.S_PARTS + q * E.N_PARTS + E.PART_PALACES] += E.PALACE_POINTS
        state[E.S_PALACE_ROUND + q * E.N_CITIES] = 1
    assert nb.city_points(state, COMP, DELHI, 0) == 2
    assert nb.city_points(state, COMP, DELHI, 1) == 3


def test_r37_builder_free_house_and_move():
    state = setup(4, cards=[C.BUILDER, 0, 1, 2])
    start_turn(state, everyone_gold(4), 0)  # seat 0 acts last (card 5)
    assert state[E.S_CUR] == 0
    free = [v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] == 0]
    g = gold(state, 0)
    assert free_build(free[0]) in legal(state)  # even without a house action
    act(state, free_build(free[0]))
    assert gold(state, 0) == g and not any(E.ACTION_FREE_BUILD <= a < E.ACTION_MOVE_FROM
                                           for a in legal(state))
    assert not any(E.ACTION_MOVE_FROM <= a < E.ACTION_MOVE_TO for a in legal(state))
    state2 = setup(4, cards=[C.BUILDER, 0, 1, 2])
    start_turn(state2, everyone_gold(4), 0)
    mine = [v for v in range(E.N_VILLAGES) if houses_at(state2, v, 0)]
    act(state2, E.ACTION_MOVE_FROM + mine[0])
    dest = legal(state2)[0]
    act(state2, dest)
    assert state2[E.S_T_BUILDER_USED] == 1
    assert not any(E.ACTION_FREE_BUILD <= a < E.ACTION_MOVE_TO for a in legal(state2))


def test_r38_artisan_pays_nine():
    state = setup(4, cards=[C.ARTISAN, 0, 1, 2])
    set_architect(state, 0, "Delhi")
    start_turn(state, [(A.PALACE, A.GOLD)] + everyone_gold(3), 0)
    g = gold(state, 0)
    act(state, E.ACTION_PALACE)
    assert gold(state, 0) == g - 9 and part(state, 0, E.PART_BUILD_SPENT) == -9


# ---------------------------------------------------------------------------------------------
# R39-R40: the end
# ---------------------------------------------------------------------------------------------
def test_r39_ends_after_round_ten():
    state = setup(2)
    rounds = 0
    while state[E.S_PHASE] != E.PHASE_GAME_OVER:
        pick_all(state, everyone_gold(2))
        act(state, DONE, DONE)
        rounds += 1
    assert rounds == 10 and state[E.S_END_CAUSE] == E.END_TRACK and state[E.S_END_ROUND] == 10


def test_r39_ends_after_the_scoring_of_a_seventh_palace():
    state = setup(4)
    for c in range(1, E.N_CITIES):  # six palaces already
        state[E.S_SITE + c * E.N_SITES] = 0
        state[E.S_PALACE_ROUND + c - 1] = 1
    state[E.S_PALACES + 0] = 6
    state[E.S_CENTRAL + 0] = 6
    state[E.S_PARTS + E.PART_PALACES] = 6 * E.PALACE_POINTS
    palace_turn(state, [(A.PALACE, A.GOLD)] + everyone_gold(3))
    act(state, E.ACTION_PALACE)
    assert state[E.S_PHASE] == E.PHASE_TURN  # the round goes on
    for _ in range(4):
        act(state, DONE)
    assert state[E.S_PHASE] == E.PHASE_GAME_OVER and state[E.S_END_CAUSE] == E.END_PALACES
    assert state[E.S_RANK + 0] == 1 and state[E.S_WINNER + 0] == 1


def test_r40_ranking_palaces_then_gold_then_card():
    """Seat 0 has a second palace and the least gold: palaces rank first; between seats 1 and
    2 (one palace each) the gold decides."""
    state = setup(3, cards=[C.SADHU, C.MOGUL, C.MONK])  # no Trader: equal incomes
    for q in range(3):
        state[E.S_PALACES + q] = 1
        state[E.S_SITE + q * E.N_SITES] = q
        state[E.S_CENTRAL + q] = 1
        state[E.S_PALACE_ROUND + q * E.N_CITIES] = 1
        state[E.S_PARTS + q * E.N_PARTS + E.PART_PALACES] = E.PALACE_POINTS
    state[E.S_PALACES + 0] = 2  # seat 0's second palace, in city 3
    state[E.S_SITE + 3 * E.N_SITES] = 0
    state[E.S_CENTRAL + 0] = 2
    state[E.S_PALACE_ROUND + 0 * E.N_CITIES + 1] = 1
    state[E.S_PARTS + 0 * E.N_PARTS + E.PART_PALACES] = 2 * E.PALACE_POINTS
    give_gold(state, 1, 40)  # seat 1: most gold (the second palace earns seat 0 more)
    give_gold(state, 2, 25)
    while state[E.S_PHASE] != E.PHASE_GAME_OVER:
        pick_all(state, everyone_gold(3))
        for _ in range(3):
            act(state, DONE)
    g = [gold(state, q) for q in range(3)]
    assert g[0] < g[2] < g[1]
    ranks = [int(state[E.S_RANK + q]) for q in range(3)]
    assert ranks == [1, 2, 3]
    assert [int(state[E.S_WINNER + q]) for q in range(3)] == [1, 0, 0]
    scores = [int(nb.score_of(state, q)) for q in range(3)]
    assert scores == [(2 if q == 0 else 1) * E.PALACE_POINTS + g[q] for q in range(3)]


def test_r40_equal_score_goes_to_the_lower_card():
    state = setup(2, cards=[C.MONK, C.SADHU])
    while state[E.S_PHASE] != E.PHASE_GAME_OVER:
        pick_all(state, everyone_gold(2))
        act(state, DONE, DONE)
    assert nb.score_of(state, 0) == nb.score_of(state, 1)
    assert state[E.S_RANK + 1] == 1 and state[E.S_RANK + 0] == 2


def test_vocabulary_constants():
    assert len(VILLAGE) == 30 and len(CITY) == 7 and P == 5
    assert np.array_equal(COMP, COMPONENTS.packed())
