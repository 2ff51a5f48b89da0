"""Taj Mahal's game spec: what the wing's modules cannot say (the rest is read from them by
convention, :meth:`GameSpec.from_wing`). Registered in :mod:`tajsim.games.registry`."""

from __future__ import annotations

from tajsim.engine.compensation import SeatCompensation
from tajsim.engine.components import ComponentSet
from tajsim.engine.game_notes import GameNotes
from tajsim.engine.learned import LearnedPolicy
from tajsim.engine.net_agent import NetAgent
from tajsim.engine.spec import GameSpec
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.alternatives import alternative_components
from tajsim.games.tajmahal.engine.component_files import (
    default_components,
    detect_kind,
    load_components,
    validate_files,
)
from tajsim.games.tajmahal.strategies.heuristic import HEURISTIC_WORK_SIZE
from tajsim.games.tajmahal.strategies.ids import LEARNED_OFFSET, STRATEGY_NET, VALUE_ONE
from tajsim.games.tajmahal.strategies.learned import FEATURE_NAMES, learned_features_nb
from tajsim.games.tajmahal.strategies.net import (
    D_IN,
    N_CANDIDATES,
    VALUE_PRIOR,
    net_features_nb,
)
from tajsim.games.tajmahal.strategies.net_weights import FORMAT as NET_FORMAT
from tajsim.games.tajmahal.strategies.registry import (
    LEARNED_BASE,
    LEARNED_EXPERT,
    NET_FILE,
    expert_with_rollout,
    learned_path,
    load_learned,
    load_presets,
    net_params,
)

SPEC = GameSpec.from_wing(
    __package__,
    # The seat-compensation variant (not the rules): amounts given at setup, one a seat.
    compensation=SeatCompensation(
        currency="points", part="bonus",
        why="points are the score, and the bonus tiles already give points outright"),
    title="Taj Mahal",
    description="Reiner Knizia's Taj Mahal (Alea 2000, Rio Grande 2018): 12 visits to the "
                "provinces of India, bidding for the favour of the court with coloured cards",
    phase_names=E.PHASE_NAMES[:E.PHASE_GAME_OVER],
    gpu_work_size=HEURISTIC_WORK_SIZE,
    components=ComponentSet(
        default=default_components,
        load=load_components,
        validate=validate_files,
        alternative=alternative_components,
        file_kinds=("board", "components"),
        detect_kind=detect_kind,
    ),
    seat_cost_us=11.5,  # random: about 21,000 4-player games/s on one core
    board_picture="tajsim.games.tajmahal.report.board_plot:plot_board",
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
    # ``net`` and how ``tajsim train --agent net`` fits it: ismcts at its default budget (500
    # iterations) as the expert, tuned's weights for the candidates' values, learned's theta
    # as the linear policy the final weights are blended with.
    net=NetAgent(
        n_inputs=D_IN,
        n_features=len(FEATURE_NAMES),
        max_candidates=N_CANDIDATES,
        features=net_features_nb,
        value_prior=VALUE_PRIOR,
        strategy="net",
        strategy_id=STRATEGY_NET,
        base=LEARNED_BASE,
        expert="ismcts",
        weights=NET_FORMAT,
        params_of=lambda fp: net_params(load_presets()[LEARNED_BASE]["weights"], fp),
        data_file=lambda: NET_FILE,
        outcome=lambda state, n: [float(state[E.S_WINNER + p] == 1) for p in range(n)],
        anchor=lambda: load_learned().theta,
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
