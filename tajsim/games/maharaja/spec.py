"""Maharaja's game spec: everything the generic layers need to run, analyse and report it."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tajsim.engine.spec import GameKernels, GameSpec, RuleOption
from tajsim.games.maharaja import SOURCE_FOLDERS
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import (
    alternative_components,
    default_components,
    load_components,
    validate_file,
)
from tajsim.games.maharaja.engine.game import OPTIONS, Game, MaharajaRecord
from tajsim.games.maharaja.engine.invariants import check_state, redraw_hidden
from tajsim.games.maharaja.engine.nb import apply_action_nb, legal_actions_nb
from tajsim.games.maharaja.engine.setups import enumerated_setup_ids, order_of_index
from tajsim.games.maharaja.play.nb import (
    play_batch_nb,
    play_batch_parallel_nb,
    play_out_nb,
    start_game_nb,
    write_records_nb,
)
from tajsim.games.maharaja.play.records import (
    frame_columns,
    setup_feature_columns,
    setup_features,
)
from tajsim.games.maharaja.strategies.ids import N_PARAMS
from tajsim.games.maharaja.strategies.nb import choose_action_nb
from tajsim.games.maharaja.strategies.registry import REGISTRY
from tajsim.games.maharaja.strategies.view import player_view

WING = Path(__file__).resolve().parent
REPO = WING.parents[2]

COMPONENTS_API = SimpleNamespace(
    default=default_components,
    load=load_components,
    alternative=alternative_components,
    validate_file=validate_file,
)

SPEC = GameSpec(
    name="maharaja",
    title="Maharaja",
    editions=E.EDITION_NAMES,
    players={"basic": (E.MIN_PLAYERS, E.MAX_PLAYERS)},
    max_players=E.MAX_PLAYERS,
    state_size=E.STATE_SIZE,
    comp_size=E.COMP_SIZE,
    n_actions=E.N_ACTIONS,
    n_params=N_PARAMS,
    kernels=GameKernels(
        start_game=start_game_nb,
        legal_actions=legal_actions_nb,
        apply_action=apply_action_nb,
        choose_action=choose_action_nb,
        play_out=play_out_nb,
        write_records=write_records_nb,
        play_batch=play_batch_nb,
        play_batch_parallel=play_batch_parallel_nb,
    ),
    result_dtype=E.RESULT_DTYPE,
    setup_dtype=E.SETUP_DTYPE,
    score_parts=E.PART_NAMES,
    phase_names=E.PHASE_NAMES,
    components=COMPONENTS_API,
    strategies=REGISTRY,
    game_class=Game,
    record_class=MaharajaRecord,
    frame_columns=frame_columns,
    setup_features=setup_features,
    setup_feature_columns=setup_feature_columns,
    current_player=lambda state: int(state[E.S_CUR]),
    phase_of=lambda state: int(state[E.S_PHASE]),
    check_state=check_state,
    redraw_hidden=redraw_hidden,
    view=player_view,
    source_folders=tuple(WING / folder for folder in SOURCE_FOLDERS),
    analyses_module="tajsim.games.maharaja.analyses",
    report_module="tajsim.games.maharaja.report",
    golden_dir=REPO / "tests" / "games" / "maharaja" / "golden",
    description=("Kramer & Kiesling's Maharaja (2004): secret pairs of actions, architects "
                 "travelling a road network with tolls, palaces in seven cities; the first "
                 "to seven palaces (or the most after round 10) wins. Score = 10000 x palaces "
                 "+ gold, which orders players exactly as the rules do before the character "
                 "tie-break."),
    options=tuple(RuleOption(name, bit, default, text)
                  for name, (bit, default, text) in OPTIONS.items()),
    extras={
        "enumerated_setup_ids": enumerated_setup_ids,
        "order_of_index": order_of_index,
        "board_plot_module": "tajsim.games.maharaja.board_plot",
        "palace_points": E.PALACE_POINTS,
    },
)
SPEC.check_layout()
