"""The :class:`GameSpec` of Maharani: what the wing's modules cannot say (the rest is read from
them by convention, :meth:`GameSpec.from_wing`)."""

from __future__ import annotations

from tajsim.engine.compensation import SeatCompensation
from tajsim.engine.components import ComponentSet
from tajsim.engine.game_notes import GameNotes
from tajsim.engine.game_options import RuleOption
from tajsim.engine.learned import LearnedPolicy
from tajsim.engine.net_agent import NetAgent
from tajsim.engine.spec import GameSpec
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import (
    alternative_components,
    default_components,
    detect_kind,
    load_components,
    validate_files,
)
from tajsim.games.maharani.strategies import net_weights
from tajsim.games.maharani.strategies.ids import LEARNED_OFFSET, STRATEGY_NET, TEMPERATURE_SCALE
from tajsim.games.maharani.strategies.learned import (
    FEATURE_NAMES,
    N_CANDIDATES,
    VALUE_PRIOR,
    learned_features_nb,
)
from tajsim.games.maharani.strategies.net import D_IN, net_features_nb
from tajsim.games.maharani.strategies.registry import (
    LEARNED_BASE,
    LEARNED_FILE,
    NET_FILE,
    expert_with_learned_rollout,
    load_learned,
    load_presets,
    net_params,
)

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
    RuleOption(
        name="round_end", bit=10, default=False,
        description="a VARIANT (tajsim's own, not the rules): once the bag is empty the game "
                    "ends at the end of the round, after the last seat's turn, so every seat "
                    "has as many turns; a full or stuck board still ends it at once (V1)"),
)
assert {o.name: 1 << o.bit for o in OPTIONS} == {"free_refresh": E.OPT_FREE_REFRESH,
                                                 "target_marker": E.OPT_TARGET_MARKER,
                                                 "round_end": E.OPT_ROUND_END}

SPEC = GameSpec.from_wing(
    __package__,
    # The seat-compensation variant (not the rules): amounts given at setup, one a seat.
    compensation=SeatCompensation(
        currency="gold", part="quarters",
        why="gold is the score (players are ranked by it), so a seat's gold is its points"),
    title="Maharani",
    description=("Wolfgang Panning's Maharani (Queen Games 2012): mosaic tiles from a turntable "
                 "into four palace quarters; gold for zones, artisan groups and quarter "
                 "scorings"),
    gpu_work_size=1,  # the heuristic needs no scratch: any array switches it on
    components=ComponentSet(
        default=default_components,
        load=load_components,
        validate=validate_files,
        alternative=alternative_components,
        file_kinds=("board", "tiles"),
        detect_kind=detect_kind,
    ),
    options=OPTIONS,
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
    # ``net`` and how ``tajsim train --agent net`` fits it: mcts at its default budget as the
    # expert, balanced's weights for the candidates' values.
    net=NetAgent(
        n_inputs=D_IN,
        n_features=len(FEATURE_NAMES),
        max_candidates=N_CANDIDATES,
        features=net_features_nb,
        value_prior=VALUE_PRIOR,
        strategy="net",
        strategy_id=STRATEGY_NET,
        base=LEARNED_BASE,
        expert="mcts",
        weights=net_weights.FORMAT,
        params_of=lambda fp: net_params(load_presets()[LEARNED_BASE]["weights"], fp),
        data_file=lambda: NET_FILE,
        outcome=lambda state, n: [float(state[E.S_WINNER + p] == 1) for p in range(n)],
        anchor=lambda: load_learned().theta,
    ),
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
