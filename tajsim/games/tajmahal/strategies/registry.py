"""Taj Mahal's strategies: name -> compiled id, description and parameters.

Compiled strategies are picked by integer id inside the kernels (``choose_action_nb``).
Parametric strategies share one id and differ by their weight vector; each named preset is
registered as its own entry so that ``--strategies balanced,random`` works everywhere.

Registered names (:data:`REGISTRY`, a :class:`~tajsim.strategies.spec.StrategyRegistry`):

* ``random`` - uniform over the legal actions;
* ``greedy`` - one-step look-ahead in raw points;
* the heuristic presets from ``presets.toml`` (``balanced``, ``commodity``, ``network``,
  ``hoarder``, ``collector`` and, once ``tajsim tune`` has run, ``tuned``);
* ``ismcts`` - information-set Monte Carlo tree search.

``REGISTRY.parse("name:key=value:...")`` overrides parameters by name. Every compiled strategy
also takes the generic options ``temperature`` (one unit = one point of the heuristic's values;
``random`` ignores it) and ``forbid`` (the families of ``restrictions.RESTRICTIONS``): the last
two slots of the vector (:mod:`tajsim.engine.choice`). Pure-Python strategies
(``py:path/to/file.py``) are not compiled; see :mod:`tajsim.strategies.python_policy`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np

from tajsim.engine.game_options import TuningSpace
from tajsim.games.tajmahal.strategies.heuristic import WEIGHT_NAMES
from tajsim.games.tajmahal.strategies.ids import (
    N_PARAMS,
    N_WEIGHTS,
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_ISMCTS,
    STRATEGY_RANDOM,
    kernel_switches,
)
from tajsim.games.tajmahal.strategies.ismcts import ISMCTS_PARAM_NAMES
from tajsim.games.tajmahal.strategies.restrictions import RESTRICTIONS
from tajsim.strategies.presets import load_weight_presets
from tajsim.strategies.spec import (
    INTERNAL_SLOT,
    ParamRange,
    StrategyRegistry,
    StrategySpec,
    bool_param,
    float_param,
    int_param,
)

REGISTRY = StrategyRegistry("Taj Mahal", N_PARAMS, kernel_switches, generic_options=True,
                            restrictions=RESTRICTIONS)
# Module-level names of the registry's methods (the wing's own code and its tests use them).
register = REGISTRY.register
strategy_names = REGISTRY.names
all_strategies = REGISTRY.all
get_strategy = REGISTRY.get
parse_strategy = REGISTRY.parse

PRESETS_FILE = "presets.toml"
# Names of the rollout weights of ismcts (params[N_WEIGHTS:]).
ROLLOUT_WEIGHT_NAMES = tuple(f"r_{name}" for name in WEIGHT_NAMES)
# Default ismcts settings; the rollout policy is the heuristic with the ``ISMCTS_ROLLOUT_PRESET``
# weights.
ISMCTS_DEFAULTS = {
    "iterations": 500.0,
    "exploration": 0.7,
    "rollout": float(STRATEGY_HEURISTIC),
    "horizon": 0.0,
    "reward_scale": 5.0,
    "card_value": 0.5,
    "win_bonus": 0.0,
    "group": 1.0,
    "ms": 0.0,  # no time budget: `iterations` a decision (records reproducible)
}
# Rollout weights of ismcts: the tuned preset when it exists, else balanced.
ISMCTS_ROLLOUT_PRESETS = ("tuned", "balanced")

#: What every heuristic weight (and ismcts's r_* rollout weight) may be: a finite number. The
#: bound is far beyond any useful weight (the presets and the tuning box stay within -3..6).
WEIGHT_RANGE = float_param(-1000, 1000)
#: What each ismcts setting may be (``docs/strategies.md`` lists them).
ISMCTS_RANGES: dict[str, ParamRange] = {
    "iterations": int_param(1, 100_000, "each iteration adds a tree node and plays the game "
                                        "out: more would take hours a decision"),
    "exploration": float_param(0, 100),
    "rollout": int_param(0, 2, "the rollout policy: 0 random, 1 greedy, 2 the heuristic with "
                               "the r_* weights"),
    "horizon": int_param(-1, 1000, "visit ends rolled out before evaluating; -1: to the end "
                                   "of the game"),
    "reward_scale": float_param(0.001, 1000),
    "card_value": float_param(-100, 100),
    "win_bonus": float_param(0, 1000),
    "group": bool_param(),
    "ms": float_param(0, 60_000, "CPU milliseconds a decision (0: no time budget, the "
                                 "iterations decide; a budget makes records machine-dependent)"),
}


# ---------------------------------------------------------------------------
# Presets
# ---------------------------------------------------------------------------
def presets_path() -> Path:
    """Path of the shipped ``presets.toml``."""
    return Path(str(resources.files("tajsim.games.tajmahal.strategies").joinpath(PRESETS_FILE)))


def load_presets(path: str | Path | None = None) -> dict[str, dict]:
    """Preset tables by name: ``{"description": str, "weights": np.ndarray[N_WEIGHTS]}``.

    Missing weights take the ``balanced`` value; unknown keys are a ``UserError``.
    """
    return load_weight_presets(path if path is not None else presets_path(), WEIGHT_NAMES,
                               "heuristic presets", WEIGHT_RANGE)


def heuristic_spec(name: str, weights: np.ndarray, description: str) -> StrategySpec:
    return StrategySpec(
        name=name,
        strategy_id=STRATEGY_HEURISTIC,
        description=f"heuristic preset: {description}",
        params=tuple(float(x) for x in weights),
        param_names=WEIGHT_NAMES,
        param_ranges=(WEIGHT_RANGE,) * len(WEIGHT_NAMES),
        tags=("heuristic", "preset"),
        cost=7.0,  # about 3,000 games/s on one core against about 21,000 with random
        deterministic=True,
    )


def _rollout_preset(presets: dict[str, dict]) -> str:
    return next(name for name in ISMCTS_ROLLOUT_PRESETS if name in presets)


def ismcts_spec(rollout_weights: np.ndarray, rollout_preset: str) -> StrategySpec:
    params = [ISMCTS_DEFAULTS[k] for k in ISMCTS_PARAM_NAMES]
    params += [0.0] * (N_WEIGHTS - len(params))
    params += [float(x) for x in rollout_weights]
    names = ISMCTS_PARAM_NAMES + tuple(
        f"_unused{i}" for i in range(len(ISMCTS_PARAM_NAMES), N_WEIGHTS)
    )
    return StrategySpec(
        name="ismcts",
        strategy_id=STRATEGY_ISMCTS,
        description=(
            "information-set MCTS with determinisation; heuristic rollouts "
            f"({rollout_preset} weights, r_* parameters)"
        ),
        params=tuple(params),
        param_names=names + ROLLOUT_WEIGHT_NAMES,
        param_ranges=tuple(ISMCTS_RANGES.get(name, INTERNAL_SLOT) for name in names)
        + (WEIGHT_RANGE,) * len(ROLLOUT_WEIGHT_NAMES),
        tags=("search",),
        # four ismcts seats at 500 iterations: about 1 s a game, 21,000 random games' worth
        cost=42.0,
        cost_param="iterations",
        # under a time budget: about 209 decisions a 4-player game of ms each, against a
        # 40 us random game
        budget_param="ms",
        cost_per_budget=5200.0,
    )


def _register_builtin() -> None:
    register(
        StrategySpec(
            name="random",
            strategy_id=STRATEGY_RANDOM,
            description="uniform over the legal actions (every card id is its own action)",
            tags=("baseline",),
        )
    )
    register(
        StrategySpec(
            name="greedy",
            strategy_id=STRATEGY_GREEDY,
            description="one-step look-ahead in raw points: withdraw now or the best bid",
            tags=("baseline",),
            cost=7.0,
            deterministic=True,
        )
    )
    presets = load_presets()
    for name, preset in presets.items():
        register(heuristic_spec(name, preset["weights"], preset["description"]))
    rollout = _rollout_preset(presets)
    register(ismcts_spec(presets[rollout]["weights"], rollout))


def reload_presets() -> None:
    """Re-read ``presets.toml`` (after ``tajsim tune`` wrote it) and re-register the presets."""
    presets = load_presets()
    for name, preset in presets.items():
        register(heuristic_spec(name, preset["weights"], preset["description"]), replace=True)
    rollout = _rollout_preset(presets)
    register(ismcts_spec(presets[rollout]["weights"], rollout), replace=True)


_register_builtin()


#: What ``tajsim tune`` may change: the heuristic's weights (same order as ``WEIGHT_NAMES``),
#: within these bounds, in units of ``step``.
TUNING = TuningSpace(
    strategy_id=STRATEGY_HEURISTIC,
    names=WEIGHT_NAMES,
    lower=(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.05, -3, 0, 0),
    upper=(4, 4, 4, 4, 4, 4, 4, 6, 3, 3, 3, 4, 3.0, 3, 3, 1),
    step=(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.7, 0.25, 0.3, 0.3, 0.5, 0.25, 0.5, 0.3, 0.15),
    presets_path=presets_path,
    check_presets=load_presets,
    reload=reload_presets,
    start="balanced",
    field=("balanced", "commodity", "network", "collector", "hoarder"),
)
