"""Maharaja's golden transcripts (``tests/golden/maharaja/<name>.txt``): whole games from fixed
seeds, with ``random`` in every seat or the strategies side by side, so that they pin the rules,
the strategies' decisions and the display. ``tests/make_golden.py`` writes them, the conformance
suite replays them (both read ``GameSpec.golden_cases``). Outside the folders of the code
fingerprint: a new case recompiles nothing."""

from __future__ import annotations

from tajsim.engine.golden_case import GoldenCase

GOLDEN_CASES = (
    GoldenCase("2p_random", 2, "basic", 1, 0, ("random",) * 2),
    GoldenCase("4p_random", 4, "basic", 2, 5, ("random",) * 4),
    GoldenCase("5p_random_options", 5, "basic", 3, 7, ("random",) * 5,
               {"penalty_per_turn": True, "static_order": True, "free_palace_site": True}),
    GoldenCase("4p_strategies", 4, "basic", 4, 3,
               ("greedy", "balanced", "search:iterations=16:candidates=3", "tollroad")),
    GoldenCase("3p_presets", 3, "basic", 5, 1, ("rusher", "hoarder", "character")),
)
