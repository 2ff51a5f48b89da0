"""Taj Mahal's golden transcripts (``tests/golden/tajmahal/<name>.txt``): whole games from fixed
seeds, with ``random`` in every seat or the strategies side by side, so that they pin the rules,
the strategies' decisions and the display. ``tests/make_golden.py`` writes them, the conformance
suite replays them (both read ``GameSpec.golden_cases``). Outside the folders of the code
fingerprint: a new case recompiles nothing."""

from __future__ import annotations

from tajsim.engine.golden_case import GoldenCase

GOLDEN_CASES = (
    GoldenCase("2p_2018", 2, "2018", 1, 0, ("random",) * 2),
    GoldenCase("4p_2018", 4, "2018", 2, 5, ("random",) * 4),
    GoldenCase("5p_2000", 5, "2000", 3, 7, ("random",) * 5),
    GoldenCase("4p_2018_strategies", 4, "2018", 4, 3,
               ("greedy", "balanced", "ismcts:iterations=60", "network")),
)
