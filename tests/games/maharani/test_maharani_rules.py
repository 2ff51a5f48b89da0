"""One test (or a few) per rule of the French text, on states built for the purpose, and the
text's own examples. Rule numbers follow docs/games/maharani/rules.md.

Geometry of the shipped palace used here (north-west quarter 1, "Lion"): L01 (row 0, col 1, half
column E), L02 (0,2 E+W), L03 (0,3 W, next to M01 of quarter 2 across the border), L05 (1,1
E+W), L07 (1,3 central). Seats with 4 players: P0 south, P1 west, P2 north, P3 east; with the
arrow south, turntable places 1-4 lie over quarters 3, 1, 2, 4.
"""

from __future__ import annotations

import numpy as np
import pytest
from maharani_helpers import (
    MCOMP,
    MCOMPONENTS,
    Builder,
    act,
    fitting_arrow,
    gold,
    legal,
    part,
    place,
    seat_side,
    slot_over,
)

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.engine.invariants import check_state
from tajsim.games.maharani.play.nb import start_game_nb

SOUTH, WEST, NORTH, EAST = E.DIR.S, E.DIR.W, E.DIR.N, E.DIR.E
LION, MONKEY, PEACOCK, ELEPHANT = 0, 1, 2, 3
LION_SLOT = 1  # turntable place over quarter 1 with the arrow south


def start(comp, n, rules=0, seed=1, game_id=0, setup_id=0):
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(comp, n, rules, seed, game_id, setup_id, state, prng)
    return state


# ------------------------------------------------------------------------------------------
# S1-S3 setup
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, per_colour, colours", [(2, 7, 4), (3, 10, 3), (4, 8, 4)])
def test_setup_artisans_markers_turntable(n, per_colour, colours):
    state = start(MCOMP, n)
    check_state(state, MCOMP)
    reserves = state[E.S_RESERVE:E.S_RESERVE + 4].tolist()
    assert reserves == [per_colour] * colours + [0] * (4 - colours)
    assert state[E.S_MARKER:E.S_MARKER + 4 * n].tolist() == [1] * 4 * n
    assert state[E.S_BAG_N] == 56 and all(state[E.S_SLOT + k] >= 0 for k in range(4))
    assert state[E.S_CUR] == 0 and state[E.S_FACING] == seat_side(MCOMP, n, 0)
    assert state[E.S_OPENING:E.S_OPENING + 4].tolist() == state[E.S_SLOT:E.S_SLOT + 4].tolist()
    assert all(nb.score_of(state, p) == 0 for p in range(n))


def test_setup_stream_fixes_the_opening_and_chance_the_bag():
    a = start(MCOMP, 4, seed=5, game_id=1, setup_id=9)
    b = start(MCOMP, 4, seed=5, game_id=2, setup_id=9)
    c = start(MCOMP, 4, seed=5, game_id=1, setup_id=10)
    assert a[E.S_OPENING:E.S_OPENING + 4].tolist() == b[E.S_OPENING:E.S_OPENING + 4].tolist()
    assert sorted(a[E.S_BAG:E.S_BAG + 56]) == sorted(b[E.S_BAG:E.S_BAG + 56])
    assert a[E.S_BAG:E.S_BAG + 56].tolist() != b[E.S_BAG:E.S_BAG + 56].tolist()
    assert a[E.S_OPENING:E.S_OPENING + 4].tolist() != c[E.S_OPENING:E.S_OPENING + 4].tolist()


# ------------------------------------------------------------------------------------------
# R5 the turntable turns toward the active player; play runs clockwise
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n, sides", [(4, [SOUTH, WEST, NORTH, EAST, SOUTH]),
                                      (3, [SOUTH, WEST, NORTH, SOUTH]),
                                      (2, [SOUTH, NORTH, SOUTH])])
def test_turntable_turns_toward_each_player(n, sides):
    state = start(MCOMP, n)
    seen = [int(state[E.S_FACING])]
    for _ in range(len(sides) - 1):
        first = legal(state, MCOMP)[0]
        act(state, MCOMP, first)
        if state[E.S_PHASE] == E.PHASE_ARTISAN:
            act(state, MCOMP, legal(state, MCOMP)[0])
        if state[E.S_PHASE] == E.PHASE_SECOND:
            act(state, MCOMP, E.ACTION_STOP)
        seen.append(int(state[E.S_FACING]))
    assert seen == sides


def test_slot_quarters_follow_the_arrow():
    # turning the arrow one side clockwise moves every place one quarter clockwise
    clockwise = [LION, MONKEY, ELEPHANT, PEACOCK]
    for side in range(4):
        for k in range(4):
            q = MCOMPONENTS.slot_quarter[side, k]
            q_next = MCOMPONENTS.slot_quarter[(side + 1) % 4, k]
            assert clockwise[(clockwise.index(q) + 1) % 4] == q_next


# ------------------------------------------------------------------------------------------
# R6 where a tile may go: its own quarter freely, another by turning the source marker down
# ------------------------------------------------------------------------------------------
def lion_tile_builder(rules=0):
    b = Builder(4, rules).turn(0)
    b.slot(LION_SLOT, "blue-03")  # over quarter 1 (Lion)
    b.slot(2, "orange-03")  # over quarter 2 (Monkey)
    b.slot(0, "green-03").slot(3, "red-03")
    return b


def test_own_quarter_needs_no_marker():
    b = lion_tile_builder()
    state = b.build()
    s = b.s("L01")
    arrow = fitting_arrow(MCOMPONENTS, b.t("blue-03"), s)[0]
    act(state, b.comp, place(LION_SLOT, s, arrow))
    assert state[E.S_MARKER:E.S_MARKER + 4].tolist() == [1, 1, 1, 1]
    assert state[E.S_MARKER_TURNS] == 0


def test_other_quarter_turns_the_source_marker_down():
    b = lion_tile_builder()
    state = b.build()
    s = b.s("M04")  # quarter 2, half column N
    arrow = fitting_arrow(MCOMPONENTS, b.t("blue-03"), s)[0]
    act(state, b.comp, place(LION_SLOT, s, arrow))
    assert state[E.S_MARKER:E.S_MARKER + 4].tolist() == [0, 1, 1, 1]  # Lion's marker
    assert state[E.S_MARKER_TURNS] == 1


def test_face_down_marker_keeps_its_quarters_tiles_at_home():
    b = lion_tile_builder().marker(0, LION, 0)
    state = b.build()
    acts = legal(state, b.comp)
    lion_tile_spaces = {nb.decode_place(a)[1] for a in acts if a < E.N_PLACE_ACTIONS
                        and nb.decode_place(a)[0] == LION_SLOT}
    assert lion_tile_spaces and all(MCOMPONENTS.space_quarter[s] == LION
                                    for s in lion_tile_spaces)
    monkey_tile_quarters = {int(MCOMPONENTS.space_quarter[nb.decode_place(a)[1]]) for a in acts
                            if a < E.N_PLACE_ACTIONS and nb.decode_place(a)[0] == 2}
    assert monkey_tile_quarters == {0, 1, 2, 3}  # its marker is up: anywhere


def test_option_target_marker_turns_the_destination_marker():
    b = lion_tile_builder(rules=E.OPT_TARGET_MARKER)
    state = b.build()
    s = b.s("M04")
    act(state, b.comp, place(LION_SLOT, s, fitting_arrow(MCOMPONENTS, b.t("blue-03"), s)[0]))
    assert state[E.S_MARKER:E.S_MARKER + 4].tolist() == [1, 0, 1, 1]  # Monkey's marker
    # now no tile from another place may go into quarter 2, but quarter 2's own tile may
    acts = [a for a in legal(state, b.comp) if a < E.N_PLACE_ACTIONS]
    for a in acts:
        slot, sp, _ = nb.decode_place(a)
        if MCOMPONENTS.space_quarter[sp] == MONKEY:
            assert slot == 2


# ------------------------------------------------------------------------------------------
# R6b orientation: no half column; the arrow may point anywhere the columns allow
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("tid, sid, n_arrows", [("blue-01", "L07", 4), ("blue-09", "L02", 2),
                                                ("blue-03", "L01", 1), ("blue-07", "L04", 1),
                                                ("blue-03", "L02", 0), ("blue-01", "L01", 0)])
def test_orientations_follow_the_columns(tid, sid, n_arrows):
    b = Builder(4).turn(0).slot(LION_SLOT, tid).slot(0, "green-03").slot(2, "orange-03") \
        .slot(3, "red-03")
    state = b.build()
    s = b.s(sid)
    acts = [a for a in legal(state, b.comp) if a < E.N_PLACE_ACTIONS
            and nb.decode_place(a)[:2] == (LION_SLOT, s)]
    assert len(acts) == n_arrows
    for a in acts:  # every listed orientation covers the space's columns exactly
        assert nb.decode_place(a)[2] in fitting_arrow(MCOMPONENTS, b.t(tid), s)


# ------------------------------------------------------------------------------------------
# R7 zone gold: 1 alone, else the zone's size; edges only, across quarter borders
# ------------------------------------------------------------------------------------------
def lay_blue(b, state, slot, sid, tid, arrow=None):
    s = b.s(sid)
    arrows = fitting_arrow(b.c, b.t(tid), s)
    act(state, b.comp, place(slot, s, arrows[0] if arrow is None else arrow))


def test_example_blue_tiles_one_then_three_gold():
    """French example: a blue tile top right touching no blue tile earns 1 gold; a second blue
    tile top left joining it through the blue tile between them makes a zone of 3: 3 gold."""
    b = Builder(4).turn(0).lay("L02", "blue-09", by=1)
    b.slot(LION_SLOT, "blue-06").slot(0, "blue-05").slot(2, "orange-03").slot(3, "red-03")
    state = b.build()
    z0 = part(state, 0, E.PART_ZONES)
    lay_blue(b, state, LION_SLOT, "L13", "blue-06")  # alone
    assert part(state, 0, E.PART_ZONES) - z0 == 1
    b2 = Builder(4).turn(0).lay("L01", "blue-05").lay("L03", "blue-06")
    b2.slot(LION_SLOT, "blue-09").slot(0, "green-03").slot(2, "orange-03").slot(3, "red-03")
    st2 = b2.build()
    z0 = part(st2, 0, E.PART_ZONES)
    lay_blue(b2, st2, LION_SLOT, "L02", "blue-09")  # joins L01 and L03: 3 tiles
    assert part(st2, 0, E.PART_ZONES) - z0 == 3


def test_zone_crosses_quarter_borders_but_not_diagonals():
    """Zones are not limited by quarter borders (Cas particulier); L05 (1,1) is diagonal to
    L02 (0,2) and does not join."""
    b = Builder(4).turn(0).lay("M01", "blue-07").lay("L05", "blue-10")
    b.slot(LION_SLOT, "blue-06").slot(0, "blue-09").slot(2, "orange-03").slot(3, "red-03")
    state = b.build()
    z0 = part(state, 0, E.PART_ZONES)
    lay_blue(b, state, LION_SLOT, "L03", "blue-06")  # L03 (0,3) touches M01 (0,4)
    assert part(state, 0, E.PART_ZONES) - z0 == 2
    z1 = part(state, 0, E.PART_ZONES)
    lay_blue(b, state, 0, "L02", "blue-09")  # L02-L03-M01, not L05 (diagonal)
    assert part(state, 0, E.PART_ZONES) - z1 == 3


def test_diagonal_tiles_make_no_zone():
    b = Builder(4).turn(0).lay("L05", "blue-10")  # (1,1)
    b.slot(LION_SLOT, "blue-03").slot(0, "green-03").slot(2, "orange-03").slot(3, "red-03")
    state = b.build()
    z0 = part(state, 0, E.PART_ZONES)
    lay_blue(b, state, LION_SLOT, "L10", "blue-03")  # (2,2): diagonal to (1,1)
    assert part(state, 0, E.PART_ZONES) - z0 == 1


# ------------------------------------------------------------------------------------------
# R8 artisans (3-4 players)
# ------------------------------------------------------------------------------------------
def artisan_builder(n=4):
    b = Builder(n).turn(0)
    b.slot(LION_SLOT, "blue-06").slot(0, "green-03").slot(2, "orange-03").slot(3, "red-03")
    return b


def test_arrow_at_the_player_places_a_new_artisan():
    """French example: an orange tile whose arrow points at the green player: she must put an
    artisan from her reserve on it; alone it earns 1 gold."""
    b = artisan_builder()
    state = b.build()
    s = b.s("L01")
    assert SOUTH in fitting_arrow(b.c, b.t("blue-06"), s)
    act(state, b.comp, place(LION_SLOT, s, SOUTH))
    assert state[E.S_SPACE_ARTISAN + s] == 0
    assert state[E.S_RESERVE + 0] == 7
    assert part(state, 0, E.PART_GROUPS) == 1
    assert state[E.S_ARTISANS_NEW] == 1


def test_arrow_at_another_player_places_nothing():
    b = Builder(4).turn(0)
    b.slot(LION_SLOT, "blue-05").slot(0, "green-03").slot(2, "orange-03").slot(3, "red-03")
    state = b.build()
    s = b.s("L01")
    arrow = fitting_arrow(b.c, b.t("blue-05"), s)[0]
    assert arrow == WEST  # P1's side
    act(state, b.comp, place(LION_SLOT, s, arrow))
    assert state[E.S_SPACE_ARTISAN + s] == -1
    assert state[E.S_RESERVE:E.S_RESERVE + 4].tolist() == [8, 8, 8, 8]


def test_second_artisan_makes_a_group_of_two():
    """French example: a new artisan next to one of hers: a group of two, 2 gold."""
    b = artisan_builder().lay("L02", "orange-09", artisan=0)
    state = b.build()
    g0 = part(state, 0, E.PART_GROUPS)
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH))
    assert part(state, 0, E.PART_GROUPS) - g0 == 2


def test_artisan_moves_from_the_other_tile_of_that_colour_in_the_quarter():
    """French example: a second blue tile in the quarter: her artisan on the other blue tile
    moves onto the new one (no new artisan)."""
    b = artisan_builder().lay("L13", "blue-03", artisan=0)
    state = b.build()
    reserve = int(state[E.S_RESERVE])
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH))
    assert state[E.S_SPACE_ARTISAN + b.s("L13")] == -1
    assert state[E.S_SPACE_ARTISAN + b.s("L01")] == 0
    assert state[E.S_RESERVE] == reserve and state[E.S_ARTISANS_MOVED] == 1


def test_same_colour_in_another_quarter_does_not_move():
    b = artisan_builder().lay("M04", "blue-03", artisan=0)
    state = b.build()
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH))
    assert state[E.S_SPACE_ARTISAN + b.s("M04")] == 0
    assert state[E.S_SPACE_ARTISAN + b.s("L01")] == 0
    assert state[E.S_ARTISANS_NEW] == 2


def test_empty_reserve_lays_the_tile_without_artisan():
    b = artisan_builder().reserve(0, 0)
    state = b.build(check=False)  # reserve 0 with no artisan on the board: not reachable
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH), check=False)
    assert state[E.S_SPACE_ARTISAN + b.s("L01")] == -1
    assert part(state, 0, E.PART_GROUPS) == 0


def test_example_eight_gold_zone_and_group_across_quarters():
    """French example: a blue tile top left with an artisan extends a blue zone lying across two
    quarters and her group of artisans: 8 gold in all (here a zone of 5 and a group of 3)."""
    b = Builder(4).turn(0)
    b.lay("M01", "blue-07", artisan=0).lay("M02", "blue-09").lay("M04", "blue-03")
    b.lay("L02", "blue-10").lay("L07", "orange-01", artisan=0)
    b.slot(LION_SLOT, "blue-04").slot(0, "green-03").slot(2, "orange-03").slot(3, "red-03")
    state = b.build()
    g0, z0, a0 = gold(state, 0), part(state, 0, E.PART_ZONES), part(state, 0, E.PART_GROUPS)
    s = b.s("L03")
    assert SOUTH in fitting_arrow(b.c, b.t("blue-04"), s)
    act(state, b.comp, place(LION_SLOT, s, SOUTH))
    assert part(state, 0, E.PART_ZONES) - z0 == 5  # L03, L02, M01, M02, M04
    assert part(state, 0, E.PART_GROUPS) - a0 == 3  # L03, M01, L07
    assert gold(state, 0) - g0 == 8


# ------------------------------------------------------------------------------------------
# R8b artisans with 2 players: two colours, chosen
# ------------------------------------------------------------------------------------------
def two_player_builder():
    b = Builder(2).turn(0)
    b.slot(LION_SLOT, "blue-06").slot(0, "green-03").slot(2, "orange-03").slot(3, "red-03")
    return b


def test_two_players_choose_the_colour_of_a_new_artisan():
    b = two_player_builder()
    state = b.build()
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH))
    assert state[E.S_PHASE] == E.PHASE_ARTISAN
    assert legal(state, b.comp) == [E.ACTION_ARTISAN + E.ART_NEW_A, E.ACTION_ARTISAN + E.ART_NEW_B]
    act(state, b.comp, E.ACTION_ARTISAN + E.ART_NEW_B)
    assert state[E.S_SPACE_ARTISAN + b.s("L01")] == 1  # seat 0's second colour
    assert state[E.S_PHASE] == E.PHASE_SECOND


def test_two_players_move_or_second_colour():
    b = two_player_builder().lay("L13", "blue-03", artisan=0)
    state = b.build()
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH))
    assert legal(state, b.comp) == [E.ACTION_ARTISAN + E.ART_NEW_B,
                                    E.ACTION_ARTISAN + E.ART_MOVE_A]
    act(state, b.comp, E.ACTION_ARTISAN + E.ART_NEW_B)
    assert state[E.S_SPACE_ARTISAN + b.s("L13")] == 0
    assert state[E.S_SPACE_ARTISAN + b.s("L01")] == 1


def test_two_players_both_colours_present_choose_which_moves():
    b = two_player_builder().lay("L13", "blue-03", artisan=0).lay("L10", "blue-04", artisan=1)
    state = b.build()
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH))
    assert legal(state, b.comp) == [E.ACTION_ARTISAN + E.ART_MOVE_A,
                                    E.ACTION_ARTISAN + E.ART_MOVE_B]
    act(state, b.comp, E.ACTION_ARTISAN + E.ART_MOVE_B)
    assert state[E.S_SPACE_ARTISAN + b.s("L10")] == -1
    assert state[E.S_SPACE_ARTISAN + b.s("L01")] == 1


def test_two_players_must_move_when_no_new_artisan_is_left():
    b = two_player_builder().lay("L13", "blue-03", artisan=0).reserve(1, 0)
    state = b.build(check=False)
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH), check=False)
    assert state[E.S_PHASE] == E.PHASE_SECOND  # a single option: applied with the tile
    assert state[E.S_SPACE_ARTISAN + b.s("L01")] == 0
    assert state[E.S_SPACE_ARTISAN + b.s("L13")] == -1


def test_two_colours_never_form_a_group():
    b = two_player_builder().lay("L02", "orange-09", artisan=0)
    state = b.build()
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH))
    g0 = part(state, 0, E.PART_GROUPS)
    act(state, b.comp, E.ACTION_ARTISAN + E.ART_NEW_B)
    assert part(state, 0, E.PART_GROUPS) - g0 == 1  # colour B next to colour A: alone


def test_two_players_colours_scored_separately():
    b = Builder(2).turn(0)
    lion = [sid for sid in b.c.space_ids if sid.startswith("L")]
    # artisans: colour A on two tiles, colour B on one; P1's colour C on one
    b.lay("L01", "blue-05", artisan=0).lay("L02", "orange-09", artisan=0)
    b.lay("L03", "green-06", artisan=1).lay("L05", "red-10", artisan=2)
    b.slot(LION_SLOT, "yellow-01").slot(0, "green-03").slot(2, "orange-03").slot(3, "red-03")
    b.fill([s for s in lion if s not in ("L01", "L02", "L03", "L05", "L07")])
    state = b.build()
    q0 = part(state, 0, E.PART_QUARTERS)
    arrow = [a for a in fitting_arrow(b.c, b.t("yellow-01"), b.s("L07")) if a != SOUTH][0]
    act(state, b.comp, place(LION_SLOT, b.s("L07"), arrow), E.ACTION_STOP)
    assert part(state, 0, E.PART_QUARTERS) - q0 == 6 + 4  # two colours: 6 + 4, not 9
    assert part(state, 1, E.PART_QUARTERS) == 4
    assert state[E.S_Q_ARTISANS + 0 * 4 + 0] == 3


# ------------------------------------------------------------------------------------------
# R9 a second tile for 2 gold; refreshing the markers; refilling the turntable
# ------------------------------------------------------------------------------------------
def test_second_tile_costs_two_gold_at_the_end_of_the_turn():
    """French example: the red player lays his second tile and moves his score marker 4 spaces
    on; at the end of his turn he moves it back 2."""
    b = Builder(4).turn(0).lay("L01", "blue-05").lay("L02", "blue-09").lay("L05", "blue-10")
    b.slot(LION_SLOT, "green-06").slot(0, "blue-06").slot(2, "orange-03").slot(3, "red-03")
    state = b.build()
    s13, s3 = b.s("L13"), b.s("L03")
    act(state, b.comp, place(LION_SLOT, s13, fitting_arrow(b.c, b.t("green-06"), s13)[0]))
    assert state[E.S_PHASE] == E.PHASE_SECOND and part(state, 0, E.PART_SECOND) == 0
    g0, z0 = gold(state, 0), part(state, 0, E.PART_ZONES)
    arrow = fitting_arrow(b.c, b.t("blue-06"), s3)[0]
    assert arrow == NORTH  # at P2: no artisan
    act(state, b.comp, place(0, s3, arrow))  # L03 joins L02-L01-L05: a zone of 4
    assert part(state, 0, E.PART_ZONES) - z0 == 4
    assert gold(state, 0) - g0 == 4 - 2
    assert part(state, 0, E.PART_SECOND) == -2 and state[E.S_SECOND_BOUGHT] == 1
    assert state[E.S_CUR] == 1  # two tiles: the turn is over


def test_stop_after_one_tile_costs_nothing():
    state = start(MCOMP, 3)
    first = [a for a in legal(state, MCOMP) if a < E.N_PLACE_ACTIONS][0]
    act(state, MCOMP, first, E.ACTION_STOP)
    assert part(state, 0, E.PART_SECOND) == 0 and state[E.S_CUR] == 1


def test_refresh_turns_every_marker_up_and_ends_the_turn():
    b = lion_tile_builder().marker(0, LION, 0).marker(0, ELEPHANT, 0)
    state = b.build()
    assert E.ACTION_REFRESH in legal(state, b.comp)
    act(state, b.comp, E.ACTION_REFRESH)
    assert state[E.S_MARKER:E.S_MARKER + 4].tolist() == [1, 1, 1, 1]
    assert state[E.S_CUR] == 1 and state[E.S_REFRESHES] == 1
    assert nb.score_of(state, 0) == 0  # a refresh earns nothing


def test_refresh_needs_a_face_down_marker_unless_the_option():
    state = start(MCOMP, 4)
    assert E.ACTION_REFRESH not in legal(state, MCOMP)
    free = start(MCOMP, 4, rules=E.OPT_FREE_REFRESH)
    assert E.ACTION_REFRESH in legal(free, MCOMP)


def test_refill_in_order_one_to_four():
    b = lion_tile_builder().bag_order("yellow-03", "purple-03", "red-05")
    state = b.build()
    s1, s2 = b.s("L01"), b.s("L13")
    act(state, b.comp, place(LION_SLOT, s1, fitting_arrow(b.c, b.t("blue-03"), s1)[0]))
    act(state, b.comp, place(0, s2, fitting_arrow(b.c, b.t("green-03"), s2)[0]))
    assert state[E.S_SLOT + 0] == b.t("yellow-03") and state[E.S_SLOT + 1] == b.t("purple-03")
    assert state[E.S_SLOT + 2] == b.t("orange-03") and state[E.S_SLOT + 3] == b.t("red-03")


# ------------------------------------------------------------------------------------------
# R10 quarter scoring at the end of the turn that fills it
# ------------------------------------------------------------------------------------------
def almost_full_lion(n=4):
    b = Builder(n).turn(0)
    lion = [sid for sid in b.c.space_ids if sid.startswith("L") and sid != "L01"]
    # seat 0: 3 artisans, seat 1: 1 artisan, on differently coloured tiles
    b.lay("L02", "blue-09", artisan=0).lay("L05", "orange-09", artisan=0)
    b.lay("L13", "green-03", artisan=0).lay("L03", "red-06", artisan=1)
    b.slot(LION_SLOT, "purple-06").slot(0, "green-04").slot(2, "orange-03").slot(3, "red-03")
    b.fill([s for s in lion if s not in ("L02", "L05", "L13", "L03")], avoid_colours=("purple",))
    return b


def test_quarter_scored_when_its_turn_ends_then_artisans_go_home():
    b = almost_full_lion()
    state = b.build()
    q0 = [part(state, p, E.PART_QUARTERS) for p in range(4)]
    act(state, b.comp, place(LION_SLOT, b.s("L01"), SOUTH))  # last space; artisan for P0
    assert state[E.S_PENDING] == 1 and state[E.S_SCORED] == 0  # not yet: end of the turn
    assert state[E.S_Q_COMPLETED_BY + 0] == 0
    act(state, b.comp, E.ACTION_STOP)
    assert state[E.S_SCORED] == 1
    gains = [part(state, p, E.PART_QUARTERS) - q0[p] for p in range(4)]
    assert gains == [13, 4, 0, 0]  # 4 artisans of P0 (the new one counts), 1 of P1
    lion = np.flatnonzero(b.c.space_quarter == 0)
    assert all(state[E.S_SPACE_ARTISAN + s] == -1 for s in lion)
    assert state[E.S_RESERVE] == 8 and state[E.S_RESERVE + 1] == 8
    assert all(state[E.S_SPACE_TILE + s] >= 0 for s in lion)  # the tiles stay


def test_example_quarter_scoring_table():
    """French example: 5 green, 3 red, 1 blue, 0 yellow artisans: 18, 9, 4 and 0 gold."""
    assert [E.QUARTER_GOLD[k] for k in (5, 3, 1, 0)] == [18, 9, 4, 0]
    assert list(E.QUARTER_GOLD[1:]) == [4, 6, 9, 13, 18, 24]


@pytest.mark.parametrize("count", [1, 2, 3, 4, 5, 6])
def test_quarter_gold_by_artisan_count(count):
    b = Builder(4).turn(0)
    b.slot(LION_SLOT, "blue-05").slot(0, "green-04").slot(2, "orange-03").slot(3, "red-03")
    colours = ["blue", "orange", "green", "purple", "red", "yellow"]
    lion = [sid for sid in b.c.space_ids if sid.startswith("L")]
    chosen = [sid for sid in lion if sid not in ("L01", "L07", "L09")][:count]
    for sid, colour in zip(chosen, colours):
        tid = next(b.c.tile_ids[t] for t in range(b.c.n_tiles)
                   if b.c.colour_names[b.c.tile_colour[t]] == colour
                   and b.state[E.S_TILE_LOC + t] == E.LOC_BAG
                   and fitting_arrow(b.c, t, b.s(sid)))
        b.lay(sid, tid, artisan=1)
    b.fill([s for s in lion if s not in chosen and s != "L01"])
    state = b.build()
    before = part(state, 1, E.PART_QUARTERS)
    act(state, b.comp, place(LION_SLOT, b.s("L01"), WEST), E.ACTION_STOP)  # arrow at P1: no
    # artisan for P0; P1 is not the active player, so no artisan either
    assert part(state, 1, E.PART_QUARTERS) - before == E.QUARTER_GOLD[count]


def test_tiles_of_a_scored_quarter_still_make_zones():
    """The tiles of a scored quarter can still belong to a zone and earn gold (Note)."""
    b = Builder(4).turn(0)
    b.slot(LION_SLOT, "green-06").slot(2, "red-07").slot(0, "orange-03").slot(3, "yellow-03")
    b.lay("L03", "red-06")
    b.fill([sid for sid in b.c.space_ids if sid.startswith("L") and sid != "L03"],
           avoid_colours=("red",)).scored(0)
    state = b.build()
    z0 = part(state, 0, E.PART_ZONES)
    s = b.s("M01")  # quarter 2, next to L03 of the scored quarter 1
    act(state, b.comp, place(2, s, fitting_arrow(b.c, b.t("red-07"), s)[0]))
    assert part(state, 0, E.PART_ZONES) - z0 == 2


# ------------------------------------------------------------------------------------------
# R11 central tiles leave play once the 8 central spaces are full
# ------------------------------------------------------------------------------------------
def test_surplus_central_tiles_leave_play():
    b = Builder(4).turn(0)
    central = [MCOMPONENTS.space_ids[s] for s in range(MCOMPONENTS.n_spaces)
               if MCOMPONENTS.space_marks[s] == E.MARK_CENTRE]
    assert len(central) == 8 and "L07" in central
    centrals = [f"{c}-0{k}" for c in ("orange", "green", "purple", "red") for k in (1, 2)]
    for sid, tid in zip([c for c in central if c != "L07"], centrals):
        b.lay(sid, tid)
    b.slot(LION_SLOT, "blue-01").slot(0, "blue-02").slot(2, "orange-03").slot(3, "red-03")
    b.bag_order("yellow-01", "yellow-03", "yellow-02", "yellow-04")
    state = b.build()
    act(state, b.comp, place(LION_SLOT, b.s("L07"), NORTH), E.ACTION_STOP)
    assert state[E.S_CENTRAL_OUT] == 1
    removed = [MCOMPONENTS.tile_ids[t] for t in range(60)
               if state[E.S_TILE_LOC + t] == E.LOC_REMOVED]
    assert removed == ["blue-02", "yellow-01", "yellow-02"]
    # places 1 and 2 refilled in order with the first non-central tiles drawn
    assert state[E.S_SLOT + 0] == b.t("yellow-03") and state[E.S_SLOT + 1] == b.t("yellow-04")
    assert all(state[E.S_SLOT + k] >= 0 for k in range(4))  # the turntable is full again


# ------------------------------------------------------------------------------------------
# R12-R13 the end of the game, ties
# ------------------------------------------------------------------------------------------
def test_game_ends_when_the_last_quarter_is_scored():
    state = start(MCOMP, 4, seed=3)
    buf = np.empty(E.N_ACTIONS, np.int64)
    bag_empty_while_playing = False
    while state[E.S_PHASE] != E.PHASE_GAME_OVER:
        nb.legal_actions_nb(state, MCOMP, buf)
        if state[E.S_BAG_N] == 0:
            bag_empty_while_playing = True
        nb.apply_action_nb(state, MCOMP, buf[0])
    assert bag_empty_while_playing  # the game goes on with the bag empty (R12a)
    assert state[E.S_END_REASON] == E.END_COMPLETE and state[E.S_SCORED] == 15
    assert state[E.S_FILLED] == (1 << 56) - 1
    check_state(state, MCOMP)


def test_tiles_that_fit_nowhere_end_the_game_and_score_open_quarters():
    """R12b: tiles remain that cannot be laid (here: the last central tile once the central
    spaces are full, with one half-column space open and the bag empty): the game ends and the
    open quarter is scored as usual. Not reachable with a valid tile table (counts match by
    kind), so the state is assembled by hand."""
    b = Builder(4).turn(0)
    central = next(t for t in range(60) if b.c.tile_kind(t) == E.KIND.CENTRAL)
    b.slot(0, central)
    b.fill([sid for sid in b.c.space_ids if not sid.startswith("L")]).scored(1, 2, 3)
    b.fill([sid for sid in b.c.space_ids if sid.startswith("L") and sid not in ("L01", "L02")])
    b.lay("L02", next(b.c.tile_ids[t] for t in range(60) if b.state[E.S_TILE_LOC + t] == 0
                      and fitting_arrow(b.c, t, b.s("L02"))), artisan=0)
    for t in range(60):  # the bag is empty: the tiles left (one fits L01) are out of play
        if b.state[E.S_TILE_LOC + t] == E.LOC_BAG:
            b.state[E.S_TILE_LOC + t] = E.LOC_REMOVED
    state = b.build(check=False)
    assert legal(state, b.comp) == [E.ACTION_REFRESH]  # nothing to lay: only the refresh
    nb.apply_action_nb(state, b.comp, E.ACTION_REFRESH)
    assert state[E.S_PHASE] == E.PHASE_GAME_OVER and state[E.S_END_REASON] == E.END_STUCK
    assert state[E.S_SCORED] == 15 and state[E.S_Q_COMPLETED_BY + 0] == -1
    assert state[E.S_Q_GOLD + 0] == 4  # P0's artisan in the open quarter scored as usual


def test_ties_share_the_win():
    state = start(MCOMP, 4)
    for p, g in enumerate((20, 25, 25, 10)):
        state[E.S_SCORE + p * E.N_PARTS + E.PART_ZONES] = g
    nb.finish_game(state, MCOMP, E.END_COMPLETE)
    assert state[E.S_RANK:E.S_RANK + 4].tolist() == [3, 1, 1, 4]
    assert state[E.S_WINNER:E.S_WINNER + 4].tolist() == [0, 1, 1, 0]


def test_two_artisans_of_a_colour_on_one_tile_colour_in_a_quarter_is_caught():
    """The rules' "Important" case (opponents remove one) cannot arise here; the invariant
    check names it if it ever did."""
    b = Builder(4).turn(0).lay("L01", "blue-05", artisan=0).lay("L13", "blue-03", artisan=0)
    b.slot(LION_SLOT, "green-06").slot(0, "blue-06").slot(2, "orange-03").slot(3, "red-03")
    with pytest.raises(AssertionError, match="two artisans"):
        b.build()


def test_quarter_artisan_counts_never_exceed_six():
    """One artisan per tile colour and artisan colour in a quarter (R8): at most 6 of a colour
    scored, the table's bound; checked on the quarter scorings of whole games (greedy and
    balanced play, which build quarters up): a seat's count is one colour's at 3 and 4
    players, two colours' at 2 (R8b: at most 12)."""
    from tajsim.games.maharani.play.nb import play_out_nb
    from tajsim.games.maharani.strategies.registry import REGISTRY

    assert E.MAX_SCORED_ARTISANS == E.N_COLOURS == 6
    most = 0
    for game_id, (name, n) in enumerate([("greedy", 4), ("balanced", 4), ("greedy", 2),
                                         ("balanced", 3)] * 3):
        strategy, params = REGISTRY.parse(name)
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        start_game_nb(MCOMP, n, 0, 11, game_id, game_id, state, prng)
        play_out_nb(MCOMP, state, np.full(n, strategy.strategy_id, np.int64),
                    np.tile(params, (n, 1)), prng, np.empty(E.N_ACTIONS, np.int64),
                    np.full(400, -1, np.int64),
                    *REGISTRY.kernel_switches([strategy.strategy_id]))
        assert state[E.S_PHASE] == E.PHASE_GAME_OVER
        counts = state[E.S_Q_ARTISANS:E.S_Q_ARTISANS + E.N_QUARTERS * E.MAX_PLAYERS]
        colours = 2 if n == 2 else 1
        assert counts.min() >= 0 and counts.max() <= colours * E.MAX_SCORED_ARTISANS
        if n > 2:
            most = max(most, int(counts.max()))
    assert most >= 3  # the games did score quarters with several artisans of a colour
    assert slot_over(MCOMP, SOUTH, LION) == LION_SLOT
