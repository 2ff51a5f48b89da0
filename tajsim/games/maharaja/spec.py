"""Maharaja's game spec: everything the generic layers need to run, analyse and report it."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tajsim.engine.components import ComponentSet
from tajsim.engine.game_kernels import GameKernels, GpuKernels
from tajsim.engine.game_notes import GameNotes, ScoreDisplay
from tajsim.engine.game_options import RuleOption
from tajsim.engine.learned import LearnedPolicy
from tajsim.engine.spec import GameSpec
from tajsim.games.maharaja import SOURCE_FOLDERS
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.engine.components import (
    alternative_components,
    default_components,
    detect_kind,
    load_components,
    validate_files,
)
from tajsim.games.maharaja.engine.game import OPTIONS, Game
from tajsim.games.maharaja.engine.invariants import check_legal_list, check_state, redraw_hidden
from tajsim.games.maharaja.engine.setups import enumerated_setup_ids
from tajsim.games.maharaja.golden import GOLDEN_CASES
from tajsim.games.maharaja.play.nb import (
    play_batch_nb,
    play_batch_parallel_nb,
    play_out_nb,
    write_records_nb,
)
from tajsim.games.maharaja.play.records import (
    frame_columns,
    setup_feature_columns,
    setup_features,
)
from tajsim.games.maharaja.strategies.ids import N_PARAMS, WEIGHT_ONE, WORK_SIZE
from tajsim.games.maharaja.strategies.learned import (
    FEATURE_NAMES,
    WEIGHT_OFFSET,
    expert_with_rollout,
    learned_features_nb,
)
from tajsim.games.maharaja.strategies.nb import choose_action_nb
from tajsim.games.maharaja.strategies.registry import LEARNED_BASE, LEARNED_FILE, REGISTRY
from tajsim.games.maharaja.strategies.restrictions import RESTRICTIONS
from tajsim.games.maharaja.strategies.rollout import choose_simple_nb
from tajsim.games.maharaja.strategies.view import player_view

WING = Path(__file__).resolve().parent
#: The search ``tajsim train`` imitates (a pick costs a few ms on one core: about 70 iterations
#: a millisecond at 2 players, docs/games/maharaja/strategies.md).
EXPERT = "search:iterations=200"
REPO = WING.parents[2]


#: Decisions of one turn besides road steps (R12-R22, R37): at most 10 building or moving houses
#: (four paid houses, two moves of two decisions each, the Builder's house or move), 2 palaces,
#: 2 governors, 2 character cards with a replacement each, and `done`: 19, rounded up.
MAX_TURN_OTHER_DECISIONS = 20

SPEC = GameSpec(
    name="maharaja",
    title="Maharaja",
    editions=E.EDITION_NAMES,
    players={"basic": (E.MIN_PLAYERS, E.MAX_PLAYERS)},
    default_players=4,
    # A draft pick per card, at most 10 setup houses a seat (the components' range), then at
    # most MAX_ROUNDS rounds (R29) of a secret pick and one turn per seat; a turn is at most
    # MAX_TRAVELS_PER_TURN road steps (R9) and MAX_TURN_OTHER_DECISIONS other decisions.
    max_game_length=E.N_CARDS + 10 * E.MAX_PLAYERS
    + E.MAX_ROUNDS * E.MAX_PLAYERS * (1 + E.MAX_TRAVELS_PER_TURN + MAX_TURN_OTHER_DECISIONS),
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
            work_size=WORK_SIZE,  # the heuristic's integer scratch
            work_dtype=np.int64,
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
        file_kinds=("board", "components"),
        detect_kind=detect_kind,
    ),
    strategies=REGISTRY,
    game_class=Game,
    frame_columns=frame_columns,
    setup_features=setup_features,
    setup_feature_columns=setup_feature_columns,
    check_state=check_state,
    redraw_hidden=redraw_hidden,
    view=player_view,
    source_folders=tuple(WING / folder for folder in SOURCE_FOLDERS),
    analyses_module="tajsim.games.maharaja.analyses",
    report_module="tajsim.games.maharaja.report",
    golden_dir=REPO / "tests" / "golden" / "maharaja",
    golden_cases=GOLDEN_CASES,
    check_legal=check_legal_list,
    seat_cost_us=10.8,  # random: about 23,000 4-player games/s on one core
    board_picture="tajsim.games.maharaja.report.board_plot:draw_board",
    enumerated_setups=enumerated_setup_ids,
    # The score is a ranking key (10,000 x palaces + gold): summaries and reports show palaces
    # and gold, and the gold by source, instead of some 60,000 "points".
    score_display=ScoreDisplay(
        measures=("palaces", "gold"),
        total="gold",
        parts=tuple(E.PART_NAMES[i] for i in E.GOLD_PARTS),
        unit="gold",
        note=("`score` is the ranking key 10,000 × palaces + gold, not points: players are "
              "ranked by palaces, then by gold."),
    ),
    restrictions=RESTRICTIONS,
    # `tajsim train --game maharaja`: the linear policy over the heuristic's per-action value
    # and features of the action (strategies/learned.py), imitating the search's picks.
    learned=LearnedPolicy(
        feature_names=FEATURE_NAMES,
        features=learned_features_nb,
        strategy="learned",
        weight_offset=WEIGHT_OFFSET,
        base=LEARNED_BASE,
        expert=EXPERT,
        data_file=lambda: LEARNED_FILE,
        expert_with_rollout=expert_with_rollout,
        value_scale=WEIGHT_ONE,  # one unit of temperature = one gold, as for the heuristic
    ),
    description=("Kramer & Kiesling's Maharaja (2004): secret pairs of actions, architects "
                 "travelling a road network with tolls, palaces in seven cities; the first "
                 "to seven palaces (or the most after round 10) wins. Score = 10000 x palaces "
                 "+ gold, which orders players exactly as the rules do before the character "
                 "tie-break."),
    options=tuple(RuleOption(name, bit, default, text)
                  for name, (bit, default, text) in OPTIONS.items()),
    # The governor order is the game's only chance: a line-up of strategies that draw none
    # replays its games beyond 5,040 orders x seatings (tajsim.running.repeats says so).
    chance_only_in_setup=True,
    notes=GameNotes(
        seat_note="seat 0 chooses a character card first",
        setup_features_text="the governor order: which city is visited in each round",
        # Why the generic setup-balance section (ICC, per-setup tests) is left out for such a
        # line-up (it runs when a strategy draws chance: a temperature above 0, or random).
        setup_balance_note=(
            "these strategies draw no chance (temperature 0), so a game is a "
            "function of the governor order and the seating, and the games of one order are "
            "not independent draws: a mirror match has one game per order, and across the "
            "seat rotations of a field the games of an order are tied together (a strategy "
            "that wins every rotation wins once in each seat), which pushes the share of the "
            "variance due to the setup below 0. The section \"The governor order and the "
            "seats\" shows each seat's win rate by order instead (exact when every order is "
            "played: setups = \"enumerated\"). Give the strategies a temperature "
            "(balanced:temperature=1) for independent games of each order."),
        # The strength ladder (tajsim ladder --game maharaja): the result fields it shows beside
        # the score parts (gold breaks ties; houses, governor moves and unperformed actions tell
        # the presets apart).
        ladder_columns=("gold", "houses_village", "chose_governor", "penalties"),
        # What `tajsim compare` compares besides the win share: the score is a ranking key
        # (palaces x 10,000 + gold), not points a player would name.
        compare_measures=("palaces", "gold"),
    ),
    # The padded shape of each variable-length view field (the fixed-shape observations of
    # tajsim.interop.encoding): per-seat blocks to MAX_PLAYERS, the turn's 20 values.
    observation={
        "phase": E.PHASE_NAMES, "governor_boxes": (E.TRACK_SIZE - 1,),
        "cards": (E.MAX_PLAYERS,), "gold": (E.MAX_PLAYERS,), "palaces": (E.MAX_PLAYERS,),
        "pool": (E.MAX_PLAYERS,), "quarry": (E.MAX_PLAYERS,),
        "architects": (E.MAX_PLAYERS,), "houses": (E.N_LOCS, E.MAX_PLAYERS),
        "sites": (E.N_CITIES, E.N_SITES), "picks": (E.MAX_PLAYERS,), "turn": (20,),
    },
)
SPEC.check_layout()
