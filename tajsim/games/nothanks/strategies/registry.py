"""The registered No Thanks! strategies."""

from __future__ import annotations

from tajsim.games.nothanks.strategies.nb import N_PARAMS, STRATEGY_GREEDY, STRATEGY_RANDOM
from tajsim.strategies.spec import StrategyRegistry, StrategySpec, float_param

REGISTRY = StrategyRegistry("No Thanks!", N_PARAMS)
REGISTRY.register(StrategySpec(
    "random", STRATEGY_RANDOM, "uniform over the legal actions", tags=("baseline",)))
REGISTRY.register(StrategySpec(
    "greedy", STRATEGY_GREEDY,
    "takes the card when it costs at most `threshold` points (card points added minus chips)",
    params=(8.0,), param_names=("threshold",),
    param_ranges=(float_param(-40, 40, "a card costs -36 to 35 points"),),
    tags=("heuristic",)))
