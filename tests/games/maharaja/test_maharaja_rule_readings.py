"""Two readings of the rules texts that ``docs/games/maharaja/rules.md`` states (issue 23).

* R38a: a character's power works only while its card is held ([M §7] "if you take a new
  character card during your turn, you may use both abilities"): a Builder given up with its
  bonus unused loses the bonus, and whoever takes the card gets it.
* R39a: the rule option ``ten_rounds`` ends the game after round 10 whatever the governor
  track shows (R27 can leave the governor of round 10 short of the last box); off, the game
  runs until a governor reaches the last box.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from maharaja_helpers import (
    CITY,
    DONE,
    A,
    C,
    act,
    card,
    everyone_gold,
    free_build,
    governor,
    houses_at,
    legal,
    pick_all,
    setup,
    to_turn_of,
)

from tajsim.engine.base_game import GameRecord
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.game import Game
from tajsim.games.maharaja.spec import SPEC
from tajsim.play.mixed import play_python_games


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


# ---------------------------------------------------------------------------------------------
# R39a: rule option ten_rounds
# ---------------------------------------------------------------------------------------------
def lengthened_game(options=None) -> np.ndarray:
    """Round 1 of a 4-player game where R27 lowers the top of the track by one box (the
    position of ``test_r27_top_governor_over_a_gap_makes_the_game_longer``): Udaipur's
    governor stands in the empty position 1 and Delhi's governor, on top, is moved down over
    the gap left under it."""
    state = setup(4, options=options)
    udaipur = CITY["Udaipur"]
    state[E.S_BOX + 7] = -1
    state[E.S_BOX + 1] = udaipur
    state[E.S_GOV_POS + udaipur] = 1
    pick_all(state, [(A.GOVERNOR, A.GOLD)] + everyone_gold(3))
    act(state, governor("Delhi"))
    return state


def play_gold_rounds(state: np.ndarray) -> int:
    """Finish the current round and play gold-only rounds to the end; the last round."""
    while state[E.S_PHASE] != E.PHASE_GAME_OVER:
        if state[E.S_PHASE] == E.PHASE_PICK:
            pick_all(state, everyone_gold(4))
        act(state, DONE)
    return int(state[E.S_END_ROUND])


def test_track_lowered_by_a_governor_runs_an_eleventh_round_by_default():
    state = lengthened_game()
    assert play_gold_rounds(state) == 11
    assert state[E.S_END_CAUSE] == E.END_TRACK and state[E.S_ROUND_BOX] == 10


def test_ten_rounds_ends_after_round_ten_with_the_track_short_of_its_last_box():
    state = lengthened_game({"ten_rounds": True})
    assert play_gold_rounds(state) == 10
    assert state[E.S_END_CAUSE] == E.END_TRACK and state[E.S_ROUND_BOX] == 9


def test_ten_rounds_leaves_an_unlengthened_game_as_it_is():
    """Without a lowered track the option changes nothing: the game ends after round 10 with
    the governor in the last box, exactly as under the defaults."""
    ends = []
    for options in (None, {"ten_rounds": True}):
        state = setup(2, options=options)
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            pick_all(state, everyone_gold(2))
            act(state, DONE, DONE)
        ends.append((int(state[E.S_END_ROUND]), int(state[E.S_ROUND_BOX]),
                     int(state[E.S_END_CAUSE])))
    assert ends[0] == ends[1] == (10, 10, E.END_TRACK)


def test_ten_rounds_is_a_declared_rule_option_off_by_default():
    option = {o.name: o for o in SPEC.options}["ten_rounds"]
    assert option.bit == E.OPT_TEN_ROUNDS and option.default is False
    assert SPEC.rules_code(None, {"ten_rounds": True}) == 1 << E.OPT_TEN_ROUNDS
    assert SPEC.rules_code(None, None) == 0


GOVERNOR_MOVER = "py:" + str(Path(__file__).resolve().parents[3] / "strategies"
                             / "maharaja_governor_mover.py")


def governor_heavy_games(options):
    """Rounds and final scores of 60 games of governor_mover (the governor action twice a
    round) in every seat: R27 lengthens most of them (rules.md, R39a)."""
    table = [GOVERNOR_MOVER] * 4
    results, setups, _ = play_python_games(SPEC, table, 60, seed=27, options=options)
    return np.asarray(setups["n_rounds"]), results["score"].reshape(60, 4)


def test_ten_rounds_cuts_exactly_the_games_that_ran_past_round_ten():
    rounds, scores = governor_heavy_games(None)
    rounds_ten, scores_ten = governor_heavy_games({"ten_rounds": True})
    longer = rounds > 10
    assert longer.any() and not longer.all()
    assert (rounds_ten == np.minimum(rounds, 10)).all()
    # a game over by round 10 under the defaults is played identically with the option
    assert np.array_equal(scores_ten[~longer], scores[~longer])


def test_the_runner_plays_ten_rounds_by_name():
    """``options={"ten_rounds": True}`` through the batch runner (what ``--option
    ten_rounds=on`` and experiment files pass): the run's rules code, which the kernels play,
    carries the option's bit, and the compiled random field, whose games all end by round 10
    (the compiled strategies rarely take the governor; governor_mover above is a Python
    policy), plays exactly the default games."""
    from tajsim.running.simulate import run_simulation

    kwargs = dict(games=40, players=3, strategies="random", seed=4, game="maharaja",
                  workers=1, progress=False)
    default = run_simulation(**kwargs)
    ten = run_simulation(**kwargs, options={"ten_rounds": True})
    assert default.config.rules == SPEC.rules_code() == 0
    assert ten.config.rules == SPEC.rules_code(None, {"ten_rounds": True}) != 0
    assert default.records["n_rounds"].max() <= 10
    cols = ["game_id", "seat", "score", "rank", "n_rounds", "end_cause"]
    assert ten.records[cols].equals(default.records[cols])


def test_a_record_replays_under_ten_rounds():
    game = Game(n_players=4, seed=3, options={"ten_rounds": True})
    while not game.is_over:
        game.apply(game.legal_actions()[0])
    record = game.record()
    assert record.options == {"ten_rounds": True}
    again = Game.replay(GameRecord.from_json(record.to_json()))
    assert np.array_equal(again.state, game.state)
    assert again.round <= 10


@pytest.mark.parametrize(("options", "why"), [
    (None, "round 11: a governor reached the last box"),
    ({"ten_rounds": True}, "round 10: round 10 was played (rule option ten_rounds)"),
])
def test_the_end_of_a_lengthened_game_says_why(options, why):
    """What ``tajsim replay`` prints when the game ends, on the lengthened track."""
    game = Game(n_players=4, options=options)
    game.state[:] = lengthened_game(options)
    lines: list[str] = []
    while not game.is_over:
        if game.phase == "pick":
            action = E.ACTION_PICK + E.pair_index(A.GOLD, A.GOLD)
        else:
            action = DONE
        before = game.state.copy()
        game.apply(action)
        lines = game.events(before, action, game.state)
    assert f"The game ends after {why}" in lines
