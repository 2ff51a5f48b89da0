"""No Thanks!'s game spec: everything the generic layers need to run, analyse and report it."""

from __future__ import annotations

from pathlib import Path

from tajsim.engine.components import ComponentSet
from tajsim.engine.game_kernels import GameKernels, GpuKernels
from tajsim.engine.game_notes import GameNotes
from tajsim.engine.spec import GameSpec
from tajsim.games.nothanks import SOURCE_FOLDERS
from tajsim.games.nothanks.engine import enums as E
from tajsim.games.nothanks.engine import nb
from tajsim.games.nothanks.engine.game import Game
from tajsim.games.nothanks.engine.invariants import check_legal, check_state, redraw_hidden
from tajsim.games.nothanks.golden import GOLDEN_CASES
from tajsim.games.nothanks.play.nb import (
    play_batch_nb,
    play_batch_parallel_nb,
    play_out_nb,
    write_records_nb,
)
from tajsim.games.nothanks.play.records import (
    frame_columns,
    setup_feature_columns,
    setup_features,
)
from tajsim.games.nothanks.strategies.nb import N_PARAMS, choose_action_nb, choose_simple_nb
from tajsim.games.nothanks.strategies.registry import REGISTRY
from tajsim.games.nothanks.strategies.view import player_view

WING = Path(__file__).resolve().parent
REPO = WING.parents[2]

SPEC = GameSpec(
    name="nothanks",
    title="No Thanks!",
    editions=E.EDITION_NAMES,
    players={E.EDITION_NAMES[0]: (E.MIN_PLAYERS, E.MAX_PLAYERS)},
    default_players=4,
    # Each "no thanks" moves a chip onto the card and a seat without chips must take it, so a card
    # sees at most all the chips in play passed before it is taken.
    max_game_length=E.N_PLAYED * (1 + max(n * E.START_CHIPS[n]
                                          for n in range(E.MIN_PLAYERS, E.MAX_PLAYERS + 1))),
    max_players=E.MAX_PLAYERS,
    state_size=E.STATE_SIZE,
    comp_size=E.COMP_SIZE,
    n_actions=E.N_ACTIONS,
    n_params=N_PARAMS,
    kernels=GameKernels(
        start_game=nb.start_game_nb,
        legal_actions=nb.legal_actions_nb,
        apply_action=nb.apply_action_nb,
        choose_action=choose_action_nb,
        play_out=play_out_nb,
        write_records=write_records_nb,
        play_batch=play_batch_nb,
        play_batch_parallel=play_batch_parallel_nb,
        current_player=nb.current_player_nb,
        phase=nb.phase_nb,
        gpu=GpuKernels(
            choose_simple=choose_simple_nb,
            work_size=0,  # no policy needs scratch
        ),
    ),
    result_dtype=E.RESULT_DTYPE,
    setup_dtype=E.SETUP_DTYPE,
    score_parts=E.PART_NAMES,
    phase_names=E.PHASE_NAMES,
    components=ComponentSet.without_files("No Thanks!", E.COMP_SIZE,
                                          "no component files (cards 3 to 35)"),
    strategies=REGISTRY,
    game_class=Game,
    frame_columns=frame_columns,
    setup_features=setup_features,
    setup_feature_columns=setup_feature_columns,
    check_state=check_state,
    redraw_hidden=redraw_hidden,
    view=player_view,
    source_folders=tuple(WING / folder for folder in SOURCE_FOLDERS),
    golden_dir=REPO / "tests" / "golden" / "nothanks",
    golden_cases=GOLDEN_CASES,
    check_legal=check_legal,
    seat_cost_us=1.1,  # random: about 4.2 µs of CPU a 4-player game (tajsim bench --profile)
    better_score="lower",
    description=("Gimmler's No Thanks! (2004): pay a chip to refuse the face-up card or take it "
                 "with its chips; a run of consecutive cards scores its lowest card, each chip "
                 "one point off. The lowest score wins."),
    notes=GameNotes(seat_note="seat 0 decides on the first card",
                    setup_features_text="whether card 35 is among the 9 cards put away"),
    observation={"phase": E.PHASE_NAMES, "chips": (E.MAX_PLAYERS,), "holder": (E.N_CARDS,)},
)
SPEC.check_layout()
