"""Maharaja's strategies, registered by name (``REGISTRY``).

* ``random`` - uniform over the legal actions;
* ``greedy`` - the heuristic kernel with fixed raw-gold weights (one-step look-ahead);
* the heuristic presets from ``presets.toml`` (``balanced``, ``rusher``, ``tollroad``,
  ``hoarder``, ``character``);
* ``search`` - decoupled bandit search over the secret pairs, heuristic rollouts.

``REGISTRY.parse("name:key=value:...")`` gives the compiled id and the parameter vector. Every
strategy also takes the generic options ``temperature`` (one unit = one gold of the heuristic's
values) and ``forbid`` (the families of ``restrictions.RESTRICTIONS``): the last two slots of
the vector (:mod:`tajsim.engine.choice`).
"""

from __future__ import annotations

from pathlib import Path

from tajsim.games.maharaja.strategies.heuristic_work import WEIGHT_NAMES
from tajsim.games.maharaja.strategies.ids import (
    MAX_CANDIDATES,
    MAX_ITERATIONS,
    N_PARAMS,
    N_WEIGHTS,
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_RANDOM,
    STRATEGY_SEARCH,
    kernel_switches,
)
from tajsim.games.maharaja.strategies.restrictions import RESTRICTIONS
from tajsim.games.maharaja.strategies.search import I_MS, I_ROLLOUT, SEARCH_PARAM_NAMES
from tajsim.strategies.presets import load_weight_presets
from tajsim.strategies.spec import (
    INTERNAL_SLOT,
    ParamRange,
    StrategyRegistry,
    StrategySpec,
    float_param,
    int_param,
)

__all__ = ["PRESETS_FILE", "REGISTRY", "SEARCH_DEFAULTS", "load_presets"]

PRESETS_FILE = Path(__file__).resolve().parent / "presets.toml"
# Search settings; its rollouts play the SEARCH_ROLLOUT_PRESET weights.
SEARCH_DEFAULTS = {
    "iterations": 80.0,
    "candidates": 6.0,
    "horizon": 0.0,
    "exploration": 6.0,
    "palace_value": 25.0,
    "rollout": float(STRATEGY_HEURISTIC),
    "win_bonus": 30.0,
    "ms": 0.0,  # no time budget: `iterations` a pick (records reproducible)
}
SEARCH_ROLLOUT_PRESET = "hoarder"
ROLLOUT_WEIGHT_NAMES = tuple(f"r_{name}" for name in WEIGHT_NAMES)

#: What every heuristic weight (and search's r_* rollout weight) may be: a finite number (the
#: kernels turn it into a fixed-point integer, w x 1024; the presets stay within 0..60).
WEIGHT_RANGE = float_param(-1000, 1000)
#: What each search setting may be: the kernel works in whole numbers (gold, counts) and its
#: tables end at MAX_ITERATIONS and MAX_CANDIDATES (``docs/games/maharaja/strategies.md``).
SEARCH_RANGES: dict[str, ParamRange] = {
    "iterations": int_param(1, MAX_ITERATIONS, "the search's integer log table ends there"),
    "candidates": int_param(1, MAX_CANDIDATES, "the search keeps at most that many pairs a "
                                               "seat"),
    "horizon": int_param(0, 100, "further rounds played out after the current one"),
    "exploration": int_param(0, 1000, "gold"),
    "palace_value": int_param(0, 100_000, "gold a palace"),
    "rollout": int_param(0, 2, "the rollout policy: 0 random, 1 greedy, 2 the heuristic with "
                               "the r_* weights"),
    "win_bonus": int_param(0, 100_000, "gold"),
    "ms": float_param(0, 60_000, "CPU milliseconds a pick (0: no time budget, the iterations "
                                 "decide; a budget makes records machine-dependent)"),
}


def load_presets(path: str | Path | None = None) -> dict[str, dict]:
    """Preset tables by name: ``{"description": str, "weights": float64[N_WEIGHTS]}``; missing
    weights take the ``balanced`` value; an unknown key is a one-line ``UserError``."""
    return load_weight_presets(path if path is not None else PRESETS_FILE, WEIGHT_NAMES,
                               "Maharaja presets", WEIGHT_RANGE)


def _search_deterministic(vec) -> bool:
    """Whether a search at parameters ``vec`` (temperature 0) draws no chance: its rollouts
    use the seat's stream only with the random rollout policy, and a time budget (``ms``)
    makes its picks depend on the machine's speed."""
    return int(vec[I_ROLLOUT]) != 0 and vec[I_MS] <= 0


def _build_registry() -> StrategyRegistry:
    reg = StrategyRegistry("Maharaja", N_PARAMS, kernel_switches, generic_options=True,
                           restrictions=RESTRICTIONS)
    reg.register(StrategySpec("random", STRATEGY_RANDOM,
                              "uniform over the legal actions (each step of a turn is one "
                              "action)", tags=("baseline",)))
    reg.register(StrategySpec("greedy", STRATEGY_GREEDY,
                              "one-step look-ahead in raw gold: the heuristic kernel with fixed "
                              "weights", tags=("baseline",), deterministic=True,
                              cost=10.0))  # about 2,400 4-player games/s against 23,000
    presets = load_presets()
    for name, preset in presets.items():
        reg.register(StrategySpec(name, STRATEGY_HEURISTIC,
                                  f"heuristic preset: {preset['description']}",
                                  tuple(float(x) for x in preset["weights"]), WEIGHT_NAMES,
                                  ("heuristic", "preset"), cost=10.5, deterministic=True,
                                  param_ranges=(WEIGHT_RANGE,) * len(WEIGHT_NAMES)))
    params = [SEARCH_DEFAULTS[k] for k in SEARCH_PARAM_NAMES]
    params += [0.0] * (N_WEIGHTS - len(params))
    params += [float(x) for x in presets[SEARCH_ROLLOUT_PRESET]["weights"]]
    names = SEARCH_PARAM_NAMES + tuple(f"_unused{i}"
                                       for i in range(len(SEARCH_PARAM_NAMES), N_WEIGHTS))
    reg.register(StrategySpec(
        "search", STRATEGY_SEARCH,
        "decoupled bandit search over the secret pairs (every seat's best candidates), "
        f"heuristic rollouts ({SEARCH_ROLLOUT_PRESET} weights, r_* parameters)",
        tuple(params), names + ROLLOUT_WEIGHT_NAMES, ("search",),
        # every seat searching, 80 iterations: about 12 games/s against 23,000 random
        cost=24.0, cost_param="iterations",
        # under a time budget: about 223 decisions a 4-player game of ms each, against a
        # 43 us random game
        budget_param="ms", cost_per_budget=5200.0,
        # its rollouts draw chance only with the random rollout policy (rollout = 0)
        deterministic=_search_deterministic,
        param_ranges=tuple(SEARCH_RANGES.get(name, INTERNAL_SLOT) for name in names)
        + (WEIGHT_RANGE,) * len(ROLLOUT_WEIGHT_NAMES)))
    return reg


REGISTRY = _build_registry()
