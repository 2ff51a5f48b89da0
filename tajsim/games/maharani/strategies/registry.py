"""The registered Maharani strategies: ``REGISTRY`` (a :class:`StrategyRegistry`).

* ``random``: uniform over the legal actions;
* ``greedy``: the most gold from each decision (zone, group, a quarter completed this turn,
  the 2 gold of a second tile);
* the heuristic presets of ``presets.toml`` (``balanced``, ``zones``, ``artisans``,
  ``thrifty``, and ``tuned`` when present): one compiled kernel, different weights;
* ``mcts``: determinised Monte Carlo tree search over the hidden bag, heuristic rollouts;
* ``learned``: a linear policy over per-action features (``learned.py``), its weights in
  ``data/learned.toml`` (written by ``tajsim train --game maharani``);
* ``net``: a small policy-and-value network over the seat's observation (``net.py``), its
  weights in ``data/net_weights.npz`` (written by ``tajsim train --game maharani --agent net``;
  the environment variable ``TAJSIM_MAHARANI_NET`` names another file).

``REGISTRY.parse("name:key=value:...")`` gives the compiled id and the ``float64[N_PARAMS]``
vector the kernels receive. Every strategy also takes the generic options ``temperature`` (one
unit = one gold of the heuristic's values) and ``forbid`` (the families of
``restrictions.RESTRICTIONS``): the last two slots of the vector (:mod:`tajsim.engine.choice`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tajsim.engine.net_switch import FP_SLOT, with_net_rollout
from tajsim.engine.net_switch import net_params as shared_net_params
from tajsim.engine.net_weights import load_wing_net_file
from tajsim.engine.net_weights import net_file as shared_net_file
from tajsim.games.maharani.strategies.heuristic import WEIGHT_NAMES
from tajsim.games.maharani.strategies.ids import (
    LEARNED_OFFSET,
    N_PARAMS,
    N_WEIGHTS,
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_MCTS,
    STRATEGY_NET,
    STRATEGY_RANDOM,
    kernel_switches,
)
from tajsim.games.maharani.strategies.learned import FEATURE_NAMES
from tajsim.games.maharani.strategies.mcts import (
    I_ROLLOUT,
    MCTS_PARAM_NAMES,
    ROLLOUT_LEARNED,
    ROLLOUT_NET,
)
from tajsim.games.maharani.strategies.net_weights import FORMAT, NetWeights
from tajsim.games.maharani.strategies.restrictions import RESTRICTIONS
from tajsim.strategies.learned_file import LearnedFile, load_learned_file
from tajsim.strategies.presets import load_weight_presets
from tajsim.strategies.spec import (
    INTERNAL_SLOT,
    ParamRange,
    StrategyRegistry,
    StrategySpec,
    float_param,
    int_param,
)

__all__ = ["LEARNED_BASE", "LEARNED_FILE", "MCTS_DEFAULTS", "NET_ENV", "NET_FILE",
           "PRESETS_FILE", "REGISTRY", "expert_with_learned_rollout", "load_learned",
           "load_presets", "net_file", "net_params"]

PRESETS_FILE = Path(__file__).resolve().parent / "presets.toml"
#: The shipped weights of ``learned`` (``tajsim train --game maharani --install`` rewrites it).
LEARNED_FILE = Path(__file__).resolve().parent / "data" / "learned.toml"
#: The preset whose value is ``learned``'s first feature (the best hand-written preset).
LEARNED_BASE = "balanced"
#: The shipped weights of ``net`` (``tajsim train --game maharani --agent net --install``
#: rewrites it), and the environment variable that names another file instead.
NET_FILE = Path(__file__).resolve().parent / "data" / "net_weights.npz"
NET_ENV = "TAJSIM_MAHARANI_NET"
#: The names of ``learned``'s feature weights (theta) in its vector, and of mcts's learned
#: rollout's (``rollout=3``).
THETA_NAMES = tuple(f"w_{name}" for name in FEATURE_NAMES)
ROLLOUT_THETA_NAMES = tuple(f"r_w_{name}" for name in FEATURE_NAMES)
#: A feature weight: any finite number of a sane size (scores stay exact 64-bit integers).
THETA_RANGE = float_param(-1e6, 1e6)
#: Rollout weights of mcts: the ``tuned`` preset when it exists, else ``balanced``.
MCTS_ROLLOUT_PRESETS = ("tuned", "balanced")
MCTS_DEFAULTS = {
    "iterations": 300.0,
    "exploration": 0.7,
    "rollout": float(STRATEGY_HEURISTIC),
    "horizon": 8.0,
    "width": 6.0,
    "margin": 10.0,
    "artisan_value": 0.5,
    "ms": 0.0,  # no time budget: `iterations` a decision (records reproducible)
}
ROLLOUT_WEIGHT_NAMES = tuple(f"r_{name}" for name in WEIGHT_NAMES)

#: What every heuristic weight (and mcts's r_* rollout weight) may be: a finite number (the
#: kernels turn it into thousandths; the presets stay within 0..3).
WEIGHT_RANGE = float_param(-1000, 1000)
#: What each mcts setting may be (``docs/games/maharani/strategies.md`` lists them).
MCTS_RANGES: dict[str, ParamRange] = {
    "iterations": int_param(1, 1 << 22, "each iteration plays a rollout: the most take "
                                        "about 3 CPU minutes an opening decision"),
    "exploration": float_param(0, 1000),
    "rollout": int_param(0, 3, "the rollout policy: 0 random, 1 greedy, 2 the heuristic with "
                               "the r_* weights, 3 learned with the r_* and r_w_* weights"),
    "horizon": int_param(-1, 1000, "turns rolled out before evaluating; -1: to the end of the "
                                   "game"),
    "width": int_param(0, 1000, "candidate actions a decision; 0: every legal action"),
    "margin": float_param(0.001, 10_000, "gold at which the reward saturates"),
    "artisan_value": float_param(0, 100),
    "ms": float_param(0, 60_000, "CPU milliseconds a decision (0: no time budget, the "
                                 "iterations decide; a budget makes records machine-dependent)"),
}


def load_presets(path: str | Path | None = None) -> dict[str, dict]:
    """Preset tables by name: ``{"description": str, "weights": float64[len(WEIGHT_NAMES)]}``.

    Missing weights take the ``balanced`` value; unknown keys are a one-line ``UserError``.
    """
    return load_weight_presets(path if path is not None else PRESETS_FILE, WEIGHT_NAMES,
                               "heuristic presets", WEIGHT_RANGE)


def heuristic_spec(name: str, weights: np.ndarray, description: str) -> StrategySpec:
    return StrategySpec(name=name, strategy_id=STRATEGY_HEURISTIC,
                        description=f"heuristic preset: {description}",
                        params=tuple(float(x) for x in weights), param_names=WEIGHT_NAMES,
                        param_ranges=(WEIGHT_RANGE,) * len(WEIGHT_NAMES),
                        tags=("heuristic", "preset"), n_params=N_PARAMS,
                        cost=7.0)  # about 5,200 4-player games/s per core against 37,000


def mcts_spec(rollout_weights: np.ndarray, rollout_preset: str,
              rollout_theta: np.ndarray) -> StrategySpec:
    """``mcts`` with these rollout weights (``r_*``) and, for ``rollout=3``, these ``learned``
    feature weights (``r_w_*``, 2 * N_WEIGHTS slots on: the layout of ``learned``'s vector
    seen from the rollouts' slice ``params[N_WEIGHTS:]``)."""
    params = [MCTS_DEFAULTS[k] for k in MCTS_PARAM_NAMES]
    params += [0.0] * (N_WEIGHTS - len(params))
    params += [float(x) for x in rollout_weights]
    params += [0.0] * (2 * N_WEIGHTS - len(params))
    params += [float(x) for x in rollout_theta]
    names = MCTS_PARAM_NAMES + tuple(f"_unused{i}" for i in range(len(MCTS_PARAM_NAMES),
                                                                  N_WEIGHTS))
    gap = tuple(f"_unused{i}" for i in range(N_WEIGHTS + len(ROLLOUT_WEIGHT_NAMES),
                                             2 * N_WEIGHTS))
    return StrategySpec(
        name="mcts", strategy_id=STRATEGY_MCTS,
        description=("determinised MCTS over the hidden bag; heuristic rollouts "
                     f"({rollout_preset} weights, r_* parameters; rollout=3: learned, "
                     "r_w_* its feature weights)"),
        params=tuple(params),
        param_names=names + ROLLOUT_WEIGHT_NAMES + gap + ROLLOUT_THETA_NAMES, tags=("search",),
        param_ranges=tuple(MCTS_RANGES.get(name, INTERNAL_SLOT) for name in names)
        + (WEIGHT_RANGE,) * len(ROLLOUT_WEIGHT_NAMES) + (INTERNAL_SLOT,) * len(gap)
        + (THETA_RANGE,) * len(ROLLOUT_THETA_NAMES),
        n_params=N_PARAMS,
        # One seat of 300 iterations: about 0.37 s per 4-player game, 13,700 random games.
        cost=180.0, cost_param="iterations",
        # under a time budget: about 70 decisions a 4-player game of ms each, against a
        # 27 us random game
        budget_param="ms", cost_per_budget=2600.0)


def load_learned(path: str | Path | None = None) -> LearnedFile:
    """``learned``'s weights file (``LEARNED_FILE`` by default), checked against this game's
    features and vector length (a one-line ``UserError`` otherwise)."""
    return load_learned_file(path if path is not None else LEARNED_FILE, game="maharani",
                             features=FEATURE_NAMES, n_params=N_PARAMS)


def learned_spec(weights: LearnedFile) -> StrategySpec:
    """``learned``: the base preset's vector (``base_params``) with theta at
    ``LEARNED_OFFSET``; the base slots keep the preset's names, theta's are ``w_<feature>``."""
    params = [float(x) for x in weights.base_params[:LEARNED_OFFSET]]
    params += [float(x) for x in weights.theta]
    names = WEIGHT_NAMES + tuple(f"_unused{i}" for i in range(len(WEIGHT_NAMES),
                                                              LEARNED_OFFSET))
    return StrategySpec(
        name="learned", strategy_id=STRATEGY_LEARNED,
        description=(f"linear policy over {len(FEATURE_NAMES)} per-action features, the first "
                     f"{weights.base}'s value; fitted to imitate mcts (tajsim train)"),
        params=tuple(params), param_names=names + THETA_NAMES, tags=("learned",),
        param_ranges=(WEIGHT_RANGE,) * len(WEIGHT_NAMES)
        + (INTERNAL_SLOT,) * (LEARNED_OFFSET - len(WEIGHT_NAMES))
        + (THETA_RANGE,) * len(THETA_NAMES),
        n_params=N_PARAMS,
        cost=10.0)  # about 1.45 x balanced's cost per game (benchmarks/learned_maharani.py)


def expert_with_learned_rollout(expert_params: np.ndarray,
                                learned_params: np.ndarray) -> np.ndarray:
    """mcts's vector ``expert_params`` (float64[N_PARAMS]) with ``learned`` (its vector,
    ``learned_params``) as its rollout policy: ``rollout=3``, the rollout weights its base
    weights and the ``r_w_*`` its theta (expert iteration's later rounds). Everything else,
    the generic options included, is the expert's."""
    out = np.array(expert_params, np.float64, copy=True)
    learned = np.asarray(learned_params, np.float64)
    out[I_ROLLOUT] = float(ROLLOUT_LEARNED)
    out[N_WEIGHTS:2 * N_WEIGHTS] = learned[:LEARNED_OFFSET]
    out[2 * N_WEIGHTS:2 * N_WEIGHTS + len(FEATURE_NAMES)] = \
        learned[LEARNED_OFFSET:LEARNED_OFFSET + len(FEATURE_NAMES)]
    return out


def net_file() -> Path:
    """The weights file ``net`` plays: ``$TAJSIM_MAHARANI_NET`` when set, else ``NET_FILE``."""
    return shared_net_file(NET_ENV, NET_FILE)


def net_params(base_weights: np.ndarray, fingerprint: int) -> np.ndarray:
    """``net``'s vector (float64[N_PARAMS]): the base preset's weights (its candidates' values)
    first, the weights set's fingerprint at ``FP_SLOT``, the generic options 0."""
    return shared_net_params(N_PARAMS, base_weights, fingerprint, FP_SLOT)


def net_spec(base_weights: np.ndarray, weights: NetWeights, fingerprint: int) -> StrategySpec:
    """``net`` playing these weights (their set's ``fingerprint``, its vector: ``net_params``)."""
    params = net_params(base_weights, fingerprint)
    names = tuple(f"_base_{name}" for name in WEIGHT_NAMES)
    names += tuple(f"_unused{i}" for i in range(len(names), FP_SLOT)) + ("_fingerprint",)
    names += tuple(f"_unused{i}" for i in range(FP_SLOT + 1, N_PARAMS - 2))
    trained = weights.meta.get("train_cpu_s")
    return StrategySpec(
        name="net", strategy_id=STRATEGY_NET,
        description=(f"policy-and-value network ({weights.hidden} hidden units over the seat's "
                     f"observation) weighing {LEARNED_BASE}'s best candidates; trained by expert "
                     "iteration from mcts (tajsim train --agent net"
                     + (f", {float(trained) / 60:.0f} CPU min" if trained else "") + ")"),
        params=tuple(float(x) for x in params[:N_PARAMS - 2]), param_names=names,
        param_ranges=(INTERNAL_SLOT,) * len(names), tags=("learned", "net"),
        n_params=N_PARAMS,
        # measured: 4.9 x balanced's (7.0) CPU a game, 2,125 against 10,487 2-player games/s
        # (tajsim bench --game maharani -p 2 -s net,net -w 1 --seconds 2; docs/net.md)
        cost=34.0)


def expert_with_net_rollout(mcts_params: np.ndarray, net_vector: np.ndarray) -> np.ndarray:
    """mcts's vector ``mcts_params`` rolling out with ``net`` (its vector ``net_vector``):
    ``rollout`` = ``ROLLOUT_NET``, the rollouts' slice ``[N_WEIGHTS:]`` ``net``'s own first
    slots (balanced's weights, the fingerprint): the network-guided search. The parameter
    check allows rollout 0..3, so this vector is built here, not parsed."""
    return with_net_rollout(mcts_params, net_vector, N_PARAMS, I_ROLLOUT, ROLLOUT_NET, N_WEIGHTS)


def build_registry(presets_path: str | Path | None = None,
                   learned_path: str | Path | None = None,
                   net_path: str | Path | None = None) -> StrategyRegistry:
    """A registry with every strategy (presets read from ``presets_path``, ``learned``'s
    weights from ``learned_path``, ``net``'s from ``net_path``, default :func:`net_file`:
    ``net`` is registered when that file exists)."""
    reg = StrategyRegistry("Maharani", N_PARAMS, kernel_switches, generic_options=True,
                           restrictions=RESTRICTIONS)
    reg.register(StrategySpec("random", STRATEGY_RANDOM,
                              "uniform over the legal actions (tile, space and arrow each count)",
                              tags=("baseline",), n_params=N_PARAMS))
    reg.register(StrategySpec("greedy", STRATEGY_GREEDY,
                              "the most gold from each decision: zone, group, a quarter "
                              "completed this turn, minus 2 for a second tile",
                              tags=("baseline",), n_params=N_PARAMS, cost=5.0))
    presets = load_presets(presets_path)
    for name, preset in presets.items():
        reg.register(heuristic_spec(name, preset["weights"], preset["description"]))
    rollout = next(name for name in MCTS_ROLLOUT_PRESETS if name in presets)
    weights = load_learned(learned_path)
    reg.register(mcts_spec(presets[rollout]["weights"], rollout, weights.theta))
    reg.register(learned_spec(weights))
    loaded = load_wing_net_file(FORMAT, net_path, NET_ENV, NET_FILE)
    if loaded is not None:
        net_weights, fingerprint = loaded
        reg.register(net_spec(presets[LEARNED_BASE]["weights"], net_weights, fingerprint))
    return reg


REGISTRY = build_registry()
