"""A reading of the rules texts that ``docs/games/maharaja/rules.md`` states (issue 23).

* R38a: a character's power works only while its card is held ([M §7] "if you take a new
  character card during your turn, you may use both abilities"): a Builder given up with its
  bonus unused loses the bonus, and whoever takes the card gets it.
"""

from __future__ import annotations

from maharaja_helpers import (
    DONE,
    A,
    C,
    act,
    card,
    everyone_gold,
    free_build,
    houses_at,
    legal,
    pick_all,
    setup,
    to_turn_of,
)

from tajsim.games.maharaja.engine import enums as E


def builder_actions(actions: list[int]) -> list[int]:
    """The free builds and house moves among ``actions`` (a seat without a move-house action
    can only move a house with the Builder's bonus)."""
    return [a for a in actions if E.ACTION_FREE_BUILD <= a < E.ACTION_MOVE_TO]


# ---------------------------------------------------------------------------------------------
# R37a: a power works only while its card is held
# ---------------------------------------------------------------------------------------------
def test_builder_given_up_with_its_bonus_unused_loses_it():
    state = setup(4, cards=[C.BUILDER, 0, 1, 2])
    pick_all(state, [(A.CHARACTER, A.GOLD)] + everyone_gold(3))
    to_turn_of(state, 0)
    empty = next(v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] == 0)
    assert free_build(empty) in legal(state)  # the bonus is there while the card is held
    act(state, card(C.ARTISAN))  # the Builder goes back to the bank, its bonus unused
    assert state[E.S_CARD_OF + 0] == C.ARTISAN and state[E.S_T_BUILDER_USED] == 0
    assert builder_actions(legal(state)) == []
    act(state, DONE)
    assert houses_at(state, empty, 0) == 0 and state[E.S_PEN_COUNT + 0] == 0


def test_builder_taken_back_in_the_same_turn_brings_its_unused_bonus_back():
    """The power follows the card: given up and taken back with the second character action,
    the Builder's bonus (not yet used this turn) is there again."""
    state = setup(4, cards=[C.BUILDER, 0, 1, 2])
    pick_all(state, [(A.CHARACTER, A.CHARACTER)] + everyone_gold(3))
    to_turn_of(state, 0)
    act(state, card(C.ARTISAN))
    assert builder_actions(legal(state)) == []
    act(state, card(C.BUILDER))
    empty = next(v for v in range(E.N_VILLAGES) if state[E.S_LOC_TOTAL + v] == 0)
    assert free_build(empty) in legal(state)


def test_builder_taken_from_its_holder_works_for_the_taker_not_the_robbed():
    """Seat 3 (card 2, acting before seat 0's Builder) takes the Builder from seat 0 and gets
    its bonus at once; seat 0, left with a card from the bank, has none in its own turn."""
    state = setup(4, cards=[C.BUILDER, 0, 1, 2])
    pick_all(state, [(A.GOLD, A.GOLD), (A.GOLD, A.GOLD), (A.GOLD, A.GOLD),
                     (A.CHARACTER, A.GOLD)])
    to_turn_of(state, 3)
    assert builder_actions(legal(state)) == []  # seat 3 holds card 2: no bonus yet
    act(state, card(C.BUILDER))
    assert state[E.S_PHASE] == E.PHASE_REPLACE and state[E.S_CUR] == 0
    act(state, card(C.ARTISAN))  # the robbed seat takes a card from the bank
    assert state[E.S_CUR] == 3 and state[E.S_CARD_OF + 3] == C.BUILDER
    assert builder_actions(legal(state)) != []
    act(state, DONE)
    to_turn_of(state, 0)
    assert builder_actions(legal(state)) == []
