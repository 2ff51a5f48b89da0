"""Maharaja's game spec: what the wing's modules cannot say (the rest is read from them by
convention, :meth:`GameSpec.from_wing`)."""

from __future__ import annotations

import numpy as np

from tajsim.engine.compensation import SeatCompensation
from tajsim.engine.components import ComponentSet
from tajsim.engine.game_notes import GameNotes, ScoreDisplay
from tajsim.engine.game_options import RuleOption
from tajsim.engine.learned import LearnedPolicy
from tajsim.engine.net_agent import NetAgent
from tajsim.engine.spec import GameSpec
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import (
    alternative_components,
    default_components,
    detect_kind,
    load_components,
    validate_files,
)
from tajsim.games.maharaja.engine.game import OPTIONS
from tajsim.games.maharaja.engine.setups import enumerated_setup_ids
from tajsim.games.maharaja.strategies.ids import STRATEGY_NET, WEIGHT_ONE, WORK_SIZE
from tajsim.games.maharaja.strategies.learned import (
    FEATURE_NAMES,
    WEIGHT_OFFSET,
    expert_with_rollout,
    learned_features_nb,
)
from tajsim.games.maharaja.strategies.net import (
    D_IN,
    N_CANDIDATES,
    N_FEATURES,
    VALUE_PRIOR,
    net_features_nb,
)
from tajsim.games.maharaja.strategies.net_weights import FORMAT
from tajsim.games.maharaja.strategies.registry import (
    LEARNED_BASE,
    LEARNED_FILE,
    NET_FILE,
    load_learned_weights,
    load_presets,
    net_params,
)

#: The search ``tajsim train`` imitates (a pick costs a few ms on one core: about 70 iterations
#: a millisecond at 2 players, docs/games/maharaja/strategies.md).
EXPERT = "search:iterations=200"
#: The search ``tajsim train --agent net`` imitates: ``turnsearch`` at its defaults searches
#: every decision the network makes (``search`` only the secret pick).
NET_EXPERT = "turnsearch"


def net_anchor() -> np.ndarray:
    """``net``'s linear policy (theta0 with ``U = 0``) that scores its candidates as ``learned``
    does: ``learned``'s weights on the first 15 features less the value prior (the network adds
    it), 0 on the others."""
    theta = np.zeros(N_FEATURES)
    learned = load_learned_weights()[1]
    theta[:len(learned)] = learned
    theta[0] -= VALUE_PRIOR
    return theta


SPEC = GameSpec.from_wing(
    __package__,
    # The seat-compensation variant (not the rules): amounts given at setup, one a seat.
    compensation=SeatCompensation(
        currency="gold", part="start",
        why=("gold is both the ranking's second key (after palaces) and what palaces are "
             "bought with (12 each), so extra starting gold helps a seat as the game itself "
             "rewards; palaces, the first key, come in units too coarse to balance by")),
    title="Maharaja",
    gpu_work_size=WORK_SIZE,  # the heuristic's integer scratch
    gpu_work_dtype=np.int64,
    components=ComponentSet(
        default=default_components,
        load=load_components,
        validate=validate_files,
        alternative=alternative_components,
        file_kinds=("board", "components"),
        detect_kind=detect_kind,
    ),
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
    # ``net`` and how ``tajsim train --agent net`` fits it: turnsearch at its defaults as the
    # expert, hoarder's weights for the candidates and their values.
    net=NetAgent(
        n_inputs=D_IN,
        n_features=N_FEATURES,
        max_candidates=N_CANDIDATES,
        features=net_features_nb,
        value_prior=VALUE_PRIOR,
        strategy="net",
        strategy_id=STRATEGY_NET,
        base=LEARNED_BASE,
        expert=NET_EXPERT,
        weights=FORMAT,
        params_of=lambda fp: net_params(load_presets()[LEARNED_BASE]["weights"], fp),
        data_file=lambda: NET_FILE,
        outcome=lambda state, n: [float(state[E.S_WINNER + p] == 1) for p in range(n)],
        anchor=net_anchor,
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
