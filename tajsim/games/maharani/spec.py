"""The :class:`GameSpec` of Maharani: everything the generic layers know about the game."""

from __future__ import annotations

from pathlib import Path

from tajsim.engine.components import ComponentSet
from tajsim.engine.game_kernels import GameKernels, GpuKernels
from tajsim.engine.game_notes import GameNotes
from tajsim.engine.game_options import RuleOption
from tajsim.engine.learned import LearnedPolicy
from tajsim.engine.spec import GameSpec
from tajsim.games.maharani import SOURCE_FOLDERS
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.engine.components import (
    alternative_components,
    default_components,
    detect_kind,
    load_components,
    validate_files,
)
from tajsim.games.maharani.engine.game import Game
from tajsim.games.maharani.engine.invariants import (
    check_legal_list,
    check_state,
    check_step,
    redraw_hidden,
)
from tajsim.games.maharani.golden import GOLDEN_CASES
from tajsim.games.maharani.play.nb import (
    play_batch_nb,
    play_batch_parallel_nb,
    play_out_nb,
    write_records_nb,
)
from tajsim.games.maharani.play.records import (
    frame_columns,
    setup_feature_columns,
    setup_features,
)
from tajsim.games.maharani.strategies.ids import LEARNED_OFFSET, N_PARAMS, TEMPERATURE_SCALE
from tajsim.games.maharani.strategies.learned import FEATURE_NAMES, learned_features_nb
from tajsim.games.maharani.strategies.nb import choose_action_nb
from tajsim.games.maharani.strategies.registry import (
    LEARNED_BASE,
    LEARNED_FILE,
    REGISTRY,
    expert_with_learned_rollout,
)
from tajsim.games.maharani.strategies.restrictions import RESTRICTIONS
from tajsim.games.maharani.strategies.rollout import choose_simple_nb
from tajsim.games.maharani.strategies.view import view

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]


OPTIONS = (
    RuleOption(
        name="free_refresh", bit=8, default=False,
        description="refreshing is legal even with every action marker face up (a pass); the "
                    "default needs a face-down marker (R9b). Games stop after 8 rounds without "
                    "a tile laid (R12c)"),
    RuleOption(
        name="target_marker", bit=9, default=False,
        description="laying a tile in another quarter turns the marker of the quarter it goes "
                    "INTO (a German review's reading); the default turns the marker of the "
                    "quarter the tile came from, as the French text says (R6)"),
)
assert {o.name: 1 << o.bit for o in OPTIONS} == {"free_refresh": E.OPT_FREE_REFRESH,
                                                 "target_marker": E.OPT_TARGET_MARKER}

SPEC = GameSpec(
    name="maharani",
    title="Maharani",
    editions=E.EDITION_NAMES,
    players={E.EDITION_NAMES[0]: (E.MIN_PLAYERS, E.MAX_PLAYERS)},
    default_players=4,
    # A turn is PLACE [ARTISAN] (PLACE [ARTISAN] | STOP), at most 4 decisions, or REFRESH (R9b):
    # at most MAX_TILES turns lay a tile; between two of them a seat refreshes at most once,
    # or, under free_refresh, STALL_ROUNDS rounds pass (R12c). The free_refresh count is larger.
    max_game_length=4 * E.MAX_TILES + (E.MAX_TILES + 1) * E.STALL_ROUNDS * E.MAX_PLAYERS,
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
            work_size=1,  # the heuristic needs no scratch: any array switches it on
        ),
    ),
    result_dtype=E.RESULT_DTYPE,
    setup_dtype=E.SETUP_DTYPE,
    score_parts=E.PART_NAMES,
    phase_names=E.PHASE_NAMES,
    components=ComponentSet(
        default=default_components,
        load=load_components,
        validate=validate_files,
        alternative=alternative_components,
        file_kinds=("board", "tiles"),
        detect_kind=detect_kind,
    ),
    strategies=REGISTRY,
    game_class=Game,
    frame_columns=frame_columns,
    setup_features=setup_features,
    setup_feature_columns=setup_feature_columns,
    check_state=check_state,
    redraw_hidden=redraw_hidden,
    view=view,
    source_folders=tuple(HERE / name for name in SOURCE_FOLDERS),
    analyses_module="tajsim.games.maharani.analyses",
    report_module="tajsim.games.maharani.report",
    golden_dir=ROOT / "tests" / "golden" / "maharani",
    golden_cases=GOLDEN_CASES,
    description=("Wolfgang Panning's Maharani (Queen Games 2012): mosaic tiles from a turntable "
                 "into four palace quarters; gold for zones, artisan groups and quarter "
                 "scorings"),
    options=OPTIONS,
    restrictions=RESTRICTIONS,
    # ``learned`` and how ``tajsim train`` fits it: mcts at 200 iterations (about 4 ms a
    # decision on one core) as the expert, its later rounds rolled out by the learned policy.
    learned=LearnedPolicy(
        feature_names=FEATURE_NAMES,
        features=learned_features_nb,
        strategy="learned",
        weight_offset=LEARNED_OFFSET,
        base=LEARNED_BASE,
        expert="mcts:iterations=200",
        data_file=lambda: LEARNED_FILE,
        expert_with_rollout=expert_with_learned_rollout,
        value_scale=TEMPERATURE_SCALE,
    ),
    check_legal=check_legal_list,
    check_step=check_step,
    board_picture="tajsim.games.maharani.report.board_plot:draw_palace",
    seat_cost_us=6.7,  # random: about 37,000 4-player games/s on one core
    notes=GameNotes(
        seat_note="seat 0 plays the first turn",
        setup_features_text="central tiles and a repeated colour among the four opening tiles",
    ),
    # The padded shape of each variable-length view field (the fixed-shape observations of
    # tajsim.interop.encoding): tile lists as tile ids.
    observation={
        "turntable": (E.N_SLOTS,), "board": (E.MAX_SPACES, 3), "bag": (E.MAX_TILES,),
        "out_of_play": (E.MAX_TILES,), "markers": (E.MAX_PLAYERS, 4),
        "reserves": (E.N_ARTISAN_COLOURS,), "gold_parts": (E.MAX_PLAYERS, E.N_PARTS),
    },
)
SPEC.check_layout()
