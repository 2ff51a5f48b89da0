"""The reference manual's examples and FAQ answers, played as scenarios ([M §4.4, §7])."""

from __future__ import annotations

from maharaja_helpers import (
    DONE,
    A,
    C,
    act,
    build,
    card,
    city_loc,
    everyone_gold,
    free_build,
    gold,
    houses_at,
    legal,
    open_villages,
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


def test_faq_no_city_build_without_the_architect():
    """"Can I build in a city without my architect? No.\""""
    state = setup(4)
    set_architect(state, 0, "Agra")
    pick_all(state, [(A.PALACE_HOUSE, A.HOUSE)] + everyone_gold(3))
    to_turn_of(state, 0)
    now = legal(state)
    assert build(city_loc("Delhi")) not in now and build(city_loc("Agra")) in now
    assert E.ACTION_PALACE in now  # the palace only where the architect stands: Agra


def test_faq_no_passing_an_empty_village():
    """"Can I move my architect through a village with no houses? No.\""""
    state = setup(4)
    pick_all(state, everyone_gold(4))
    assert all(state[E.S_LOC_TOTAL + v] == 0 for v in road_villages("Camp", "Varanasi"))
    assert travel("Camp", "Varanasi") not in legal(state)


def test_faq_skipping_an_action_pays_the_others():
    """"What happens if I can't complete an action? ... all other players gain 2 gold.\""""
    state = setup(3)
    pick_all(state, [(A.HOUSE, A.GOLD), (A.GOLD, A.GOLD), (A.GOLD, A.GOLD)])
    act(state, DONE)
    assert [part(state, q, E.PART_PENALTIES_IN) for q in range(3)] == [0, 2, 2]


def test_faq_two_character_powers_in_one_turn():
    """"Can I use two character powers in one turn? Yes, if you take a new character card
    during your turn.": the Builder's free house, then the Artisan's cheaper palace."""
    state = setup(4, cards=[C.BUILDER, 0, 1, 2])
    set_architect(state, 0, "Delhi")
    pick_all(state, [(A.CHARACTER, A.PALACE)] + everyone_gold(3))
    to_turn_of(state, 0)
    free = next(v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] == 0)
    act(state, free_build(free), card(C.ARTISAN))
    g = gold(state, 0)
    act(state, E.ACTION_PALACE)
    assert gold(state, 0) == g - 9 and houses_at(state, free, 0) == 1
    act(state, DONE)
    assert state[E.S_PEN_COUNT + 0] == 0


def test_faq_no_move_into_a_full_village():
    """"Can I move a house into a village that already has two houses? No.\""""
    state = setup(4)
    full = [v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] == 2]
    assert full
    mine = next(v for v in range(E.N_VILLAGES) if houses_at(state, v, 0))
    pick_all(state, [(A.MOVE_HOUSE, A.GOLD)] + everyone_gold(3))
    act(state, E.ACTION_MOVE_FROM + mine)
    assert not set(legal(state)) & {E.ACTION_MOVE_TO + v for v in full}


def test_faq_builder_bonus_without_house_actions():
    """"Does the Builder's free house count toward action limits? No. It is a bonus action; may
    be used even if both actions are 'pass'" (here: two gold actions)."""
    state = setup(4, cards=[C.BUILDER, 0, 1, 2])
    pick_all(state, everyone_gold(4))
    to_turn_of(state, 0)
    free = next(v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] == 0)
    assert free_build(free) in legal(state)
    act(state, free_build(free), DONE)
    assert state[E.S_PEN_COUNT + 0] == 0


def test_faq_two_houses_not_both_in_villages():
    """"Can I build both houses from 'Build 2 Houses' in villages? No.\""""
    state = setup(4)
    pick_all(state, [(A.TWO_HOUSES, A.GOLD)] + everyone_gold(3))
    free = [v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] == 0]
    act(state, build(free[0]))
    assert not any(build(v) in legal(state) for v in free[1:])


def test_manual_turn_example_travel_and_tolls_then_palace():
    """A whole turn as the manual describes it: travel through villages paying their owners,
    build in the city reached, the Maharaja's city scored for gold at the end of the round."""
    state = setup(4, cards=[0, 1, 2, 3])
    open_villages(state, road_villages("Camp", "Jaipur"), 2)
    open_villages(state, road_villages("Delhi", "Jaipur"), 3)
    place_house(state, 1, city_loc("Delhi"))
    pick_all(state, [(A.PALACE, A.GOLD)] + everyone_gold(3))
    owed = [0] * 4
    for v in road_villages("Camp", "Jaipur") + road_villages("Jaipur", "Delhi"):
        if houses_at(state, v, 0) == 0:
            for q in range(1, 4):
                owed[q] += houses_at(state, v, q)
    act(state, travel("Camp", "Jaipur"), travel("Jaipur", "Delhi"), E.ACTION_PALACE)
    assert [part(state, q, E.PART_TOLLS_IN) for q in range(4)] == owed
    assert part(state, 0, E.PART_TOLLS_OUT) == -sum(owed) and sum(owed) >= 4
    act(state, DONE)
    for _ in range(3):
        act(state, DONE)
    # Delhi scored: seat 0 has the central palace (3) and its architect (1), seat 1 a house
    assert part(state, 0, E.PART_CITY) == 12 and part(state, 1, E.PART_CITY) == 9
