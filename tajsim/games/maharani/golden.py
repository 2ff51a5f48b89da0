"""Maharani's golden transcripts (``tests/golden/maharani/<name>.txt``): whole games from fixed
seeds, with ``random`` in every seat or the strategies side by side, so that they pin the rules,
the strategies' decisions and the display. ``tests/make_golden.py`` writes them, the conformance
suite replays them (both read ``GameSpec.golden_cases``). Outside the folders of the code
fingerprint: a new case recompiles nothing."""

from __future__ import annotations

from tajsim.engine.golden_case import GoldenCase

GOLDEN_CASES = (
    GoldenCase("2p_random", 2, "2012", 1, 0, ("random",) * 2),
    GoldenCase("3p_random", 3, "2012", 2, 4, ("random",) * 3),
    GoldenCase("4p_random", 4, "2012", 3, 7, ("random",) * 4),
    GoldenCase("4p_strategies", 4, "2012", 4, 2,
               ("greedy", "balanced", "mcts:iterations=40", "thrifty")),
    GoldenCase("2p_strategies_target_marker", 2, "2012", 5, 1, ("artisans", "zones"),
               {"target_marker": True}),
)
