"""Taj Mahal's game spec: everything the generic layers (runner, analyses, reports, command
line) know about the game. Registered in :mod:`tajsim.games.registry`."""

from __future__ import annotations

from pathlib import Path

from tajsim.engine.components import ComponentSet
from tajsim.engine.game_kernels import GameKernels, GpuKernels
from tajsim.engine.game_notes import GameNotes
from tajsim.engine.learned import LearnedPolicy
from tajsim.engine.spec import GameSpec
from tajsim.games.tajmahal import SOURCE_FOLDERS
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb
from tajsim.games.tajmahal.engine.alternatives import alternative_components
from tajsim.games.tajmahal.engine.component_files import (
    default_components,
    detect_kind,
    load_components,
    validate_files,
)
from tajsim.games.tajmahal.engine.game import Game
from tajsim.games.tajmahal.engine.invariants import (
    check_legal_list,
    check_state,
    check_step,
    redraw_hidden,
)
from tajsim.games.tajmahal.golden import GOLDEN_CASES
from tajsim.games.tajmahal.play import nb as play_nb
from tajsim.games.tajmahal.play.records import (
    frame_columns,
    setup_feature_columns,
    setup_features,
)
from tajsim.games.tajmahal.strategies.heuristic import HEURISTIC_WORK_SIZE
from tajsim.games.tajmahal.strategies.ids import LEARNED_OFFSET, VALUE_ONE
from tajsim.games.tajmahal.strategies.learned import FEATURE_NAMES, learned_features_nb
from tajsim.games.tajmahal.strategies.nb import choose_action_nb
from tajsim.games.tajmahal.strategies.registry import (
    LEARNED_BASE,
    LEARNED_EXPERT,
    REGISTRY,
    TUNING,
    expert_with_rollout,
    learned_path,
)
from tajsim.games.tajmahal.strategies.restrictions import RESTRICTIONS
from tajsim.games.tajmahal.strategies.rollout import choose_simple_nb
from tajsim.games.tajmahal.strategies.view import view_of

_WING = Path(__file__).resolve().parent


SPEC = GameSpec(
    name="tajmahal",
    title="Taj Mahal",
    description="Reiner Knizia's Taj Mahal (Alea 2000, Rio Grande 2018): 12 visits to the "
                "provinces of India, bidding for the favour of the court with coloured cards",
    editions=E.EDITION_NAMES,
    players={name: (E.MIN_PLAYERS[i], E.MAX_PLAYERS) for i, name in enumerate(E.EDITION_NAMES)},
    default_players=4,
    # Per visit (R4-R13): each bid lays one of the N_COLOURED coloured cards (none comes back
    # into a hand still in the visit), each seat withdraws once and takes at most two display
    # cards, each advisor token claimed places one palace, the crown one more.
    max_game_length=E.N_VISITS * (E.N_COLOURED + 3 * E.MAX_PLAYERS + E.N_ADVISORS + 1),
    max_players=E.MAX_PLAYERS,
    state_size=E.STATE_SIZE,
    comp_size=E.COMP_SIZE,
    n_actions=E.N_ACTIONS,
    n_params=REGISTRY.n_params,
    kernels=GameKernels(
        start_game=nb.start_game_nb,
        legal_actions=nb.legal_actions_nb,
        apply_action=nb.apply_action_nb,
        choose_action=choose_action_nb,
        play_out=play_nb.play_out_nb,
        write_records=play_nb.write_records_nb,
        play_batch=play_nb.play_batch_nb,
        play_batch_parallel=play_nb.play_batch_parallel_nb,
        current_player=nb.current_player_nb,
        phase=nb.phase_nb,
        gpu=GpuKernels(
            choose_simple=choose_simple_nb,
            work_size=HEURISTIC_WORK_SIZE,
        ),
        count_legal=nb.count_legal_nb,
        nth_legal=nb.nth_legal_nb,
    ),
    result_dtype=E.RESULT_DTYPE,
    setup_dtype=E.SETUP_DTYPE,
    score_parts=E.PART_NAMES,
    phase_names=E.PHASE_NAMES[:E.PHASE_GAME_OVER],
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
    view=view_of,
    source_folders=tuple(_WING / f for f in SOURCE_FOLDERS),
    analyses_module="tajsim.games.tajmahal.analyses",
    report_module="tajsim.games.tajmahal.report",
    golden_dir=_WING.parents[2] / "tests" / "golden" / "tajmahal",
    golden_cases=GOLDEN_CASES,
    check_legal=check_legal_list,
    check_step=check_step,
    seat_cost_us=11.5,  # random: about 21,000 4-player games/s on one core
    tuning=TUNING,
    board_picture="tajsim.games.tajmahal.report.board_plot:plot_board",
    restrictions=RESTRICTIONS,
    # The learned policy (tajsim train --game tajmahal): tuned's value and 14 more features
    # per action, fitted to imitate ismcts at 800 iterations (about 2 ms a decision).
    learned=LearnedPolicy(
        feature_names=FEATURE_NAMES,
        features=learned_features_nb,
        strategy="learned",
        weight_offset=LEARNED_OFFSET,
        base=LEARNED_BASE,
        expert=LEARNED_EXPERT,
        data_file=learned_path,
        expert_with_rollout=expert_with_rollout,
        value_scale=VALUE_ONE,
    ),
    notes=GameNotes(
        seat_note="seat 0 plays first in the first visit",
        setup_features_text="province visit numbers and bonus tiles by city",
        # The strength ladder: where it is written, the result fields it shows beside the
        # score parts, the head-to-head pairs its summary states, the example plug-in.
        ladder_document="docs/strategies.md",
        ladder_columns=("n_prestige", "n_province_tiles"),
        ladder_pairs=(("tuned", "balanced"),),
        example_policy="strategies/example_cautious.py",
    ),
    # The padded shape of each variable-length view field (the fixed-shape observations of
    # tajsim.interop.encoding: card lists as card ids, per-seat blocks to MAX_PLAYERS).
    observation={
        "edition": E.EDITION_NAMES, "phase": E.PHASE_NAMES,
        "hand": (E.N_CARDS,), "hand_sizes": (E.MAX_PLAYERS,),
        "known_cards": (E.MAX_PLAYERS, E.N_CARDS), "rows": (E.MAX_PLAYERS, E.N_CARDS),
        "row_symbols": (E.MAX_PLAYERS, E.N_SYMBOLS), "row_colours": (E.MAX_PLAYERS,),
        "withdrawn": (E.MAX_PLAYERS,), "display": (E.N_CARDS,), "unrest": (E.N_CARDS,),
        "discard": (E.N_CARDS,), "court": (E.N_SYMBOLS,), "token_supply": (E.N_ADVISORS,),
        "tokens": (E.MAX_PLAYERS, E.N_ADVISORS), "goods": (E.MAX_PLAYERS, E.N_GOODS),
        "scores": (E.MAX_PLAYERS,), "score_parts": (E.MAX_PLAYERS, E.N_PARTS),
        "palaces": (E.MAX_CITIES, E.MAX_PLAYERS), "bonus_at": (E.MAX_CITIES,),
        "province_tile": (E.N_PROVINCES,), "tile_owner": (E.N_PROVINCES,),
        "prestige_holder": (E.N_CARDS - E.FIRST_PRESTIGE,),
        "card_colour_table": (E.N_CARDS,), "card_symbol_table": (E.N_CARDS, E.N_SYMBOLS),
        "components": None,
    },
)
SPEC.check_layout()
