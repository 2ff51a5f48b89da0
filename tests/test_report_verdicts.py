"""The report states each conclusion with its kind's test (issue 39): the strongest strategy as
a tested argmax, the first seat's edge as an equivalence verdict with its margin, goods not told
apart said so, and each section's minimum detectable effect at its n. Planted synthetic data."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results
from tajsim.reporting.report import build_report

SECTIONS = ["win_rates", "seat_advantage", "score_composition", "commodities"]


def _report(tmp_path: Path, frame: pd.DataFrame, sections: list[str] = SECTIONS,
            **config) -> str:
    return build_report(frame, tmp_path, sections=sections, game="tajmahal",
                        config=config or None).read_text()


def test_equal_strategies_are_not_told_apart_and_a_null_gets_its_margin(tmp_path: Path):
    frame = make_synthetic_results(3000, seed=91, strategies=("alpha", "beta"),
                                   strategy_strength={"alpha": 0.0, "beta": 0.0},
                                   good_value={"jewels": 0.6, "rice": 0.25, "spices": 0.25})
    md = _report(tmp_path / "a", frame)
    assert "alpha and beta are not told apart at the top" in md
    assert "probability of ranking first" in md
    # no planted seat effect at 3,000 games: an equivalence with the margin, not "no effect"
    assert "the first seat's edge is within ±2.0 points (equivalent" in md
    assert "smallest true difference these data detect" in md  # win rates at their n
    assert "The smallest difference in mean score between two groups" in md
    assert "Goods by their value for winning: jewels, then" in md
    assert "(not told apart)" in md


def test_a_strong_strategy_is_told_apart_and_few_games_are_inconclusive(tmp_path: Path):
    frame = make_synthetic_results(2000, seed=92, strategies=("alpha", "beta"),
                                   strategy_strength={"alpha": 0.8, "beta": 0.0})
    md = _report(tmp_path / "b", frame, ["win_rates"])
    assert "alpha wins most often" in md and "told apart from every other strategy" in md
    few = make_synthetic_results(120, seed=93, strategies=("alpha", "beta"))
    md = _report(tmp_path / "c", few, ["seat_advantage"])
    assert "inconclusive: no edge is shown, yet none within ±2.0 points either" in md
    # an experiment's margin reaches the verdict
    md = _report(tmp_path / "d", few, ["seat_advantage"], equivalence_margin=0.3)
    assert "within ±30.0 points" in md
