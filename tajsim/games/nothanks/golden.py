"""No Thanks!'s golden transcripts (``tests/golden/nothanks/<name>.txt``): whole games from fixed
seeds, with ``random`` in every seat or the strategies side by side, so that they pin the rules,
the strategies' decisions and the display. ``tests/make_golden.py`` writes them, the conformance
suite replays them (both read ``GameSpec.golden_cases``). Outside the folders of the code
fingerprint: a new case recompiles nothing."""

from __future__ import annotations

from tajsim.engine.golden_case import GoldenCase

GOLDEN_CASES = (
    GoldenCase("3p_random", 3, "2004", 1, 0, ("random",) * 3),
    GoldenCase("5p_strategies", 5, "2004", 2, 3,
               ("greedy", "random", "greedy:threshold=2", "greedy:threshold=15", "random")),
    GoldenCase("7p_random", 7, "2004", 3, 5, ("random",) * 7),
)
