"""The registered Maharani strategies: ``REGISTRY`` (a :class:`StrategyRegistry`).

* ``random``: uniform over the legal actions;
* ``greedy``: the most gold from each decision (zone, group, a quarter completed this turn,
  the 2 gold of a second tile);
* the heuristic presets of ``presets.toml`` (``balanced``, ``zones``, ``artisans``,
  ``thrifty``, and ``tuned`` when present): one compiled kernel, different weights;
* ``mcts``: determinised Monte Carlo tree search over the hidden bag, heuristic rollouts.

``REGISTRY.parse("name:key=value:...")`` gives the compiled id and the ``float64[N_PARAMS]``
vector the kernels receive. Every strategy also takes the generic options ``temperature`` (one
unit = one gold of the heuristic's values) and ``forbid`` (the families of
``restrictions.RESTRICTIONS``): the last two slots of the vector (:mod:`tajsim.engine.choice`).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tajsim.games.maharani.strategies.heuristic import WEIGHT_NAMES
from tajsim.games.maharani.strategies.ids import (
    N_PARAMS,
    N_WEIGHTS,
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_MCTS,
    STRATEGY_RANDOM,
    kernel_switches,
)
from tajsim.games.maharani.strategies.mcts import MCTS_PARAM_NAMES
from tajsim.games.maharani.strategies.restrictions import RESTRICTIONS
from tajsim.strategies.presets import load_weight_presets
from tajsim.strategies.spec import (
    INTERNAL_SLOT,
    ParamRange,
    StrategyRegistry,
    StrategySpec,
    float_param,
    int_param,
)

__all__ = ["MCTS_DEFAULTS", "PRESETS_FILE", "REGISTRY", "load_presets"]

PRESETS_FILE = Path(__file__).resolve().parent / "presets.toml"
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
    "iterations": int_param(1, 100_000, "each iteration plays a rollout: more would take "
                                        "hours a decision"),
    "exploration": float_param(0, 1000),
    "rollout": int_param(0, 2, "the rollout policy: 0 random, 1 greedy, 2 the heuristic with "
                               "the r_* weights"),
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


def mcts_spec(rollout_weights: np.ndarray, rollout_preset: str) -> StrategySpec:
    params = [MCTS_DEFAULTS[k] for k in MCTS_PARAM_NAMES]
    params += [0.0] * (N_WEIGHTS - len(params))
    params += [float(x) for x in rollout_weights]
    names = MCTS_PARAM_NAMES + tuple(f"_unused{i}" for i in range(len(MCTS_PARAM_NAMES),
                                                                  N_WEIGHTS))
    return StrategySpec(
        name="mcts", strategy_id=STRATEGY_MCTS,
        description=("determinised MCTS over the hidden bag; heuristic rollouts "
                     f"({rollout_preset} weights, r_* parameters)"),
        params=tuple(params), param_names=names + ROLLOUT_WEIGHT_NAMES, tags=("search",),
        param_ranges=tuple(MCTS_RANGES.get(name, INTERNAL_SLOT) for name in names)
        + (WEIGHT_RANGE,) * len(ROLLOUT_WEIGHT_NAMES),
        n_params=N_PARAMS,
        # One seat of 300 iterations: about 0.37 s per 4-player game, 13,700 random games.
        cost=180.0, cost_param="iterations",
        # under a time budget: about 70 decisions a 4-player game of ms each, against a
        # 27 us random game
        budget_param="ms", cost_per_budget=2600.0)


def build_registry(presets_path: str | Path | None = None) -> StrategyRegistry:
    """A registry with every strategy (presets read from ``presets_path``)."""
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
    reg.register(mcts_spec(presets[rollout]["weights"], rollout))
    return reg


REGISTRY = build_registry()
