"""Analyses by name, as experiment files call them."""

from __future__ import annotations

import pandas as pd
import pytest

from tajsim.analysis.registry import (
    REQUIRED_COLUMNS,
    AnalysisCache,
    analyses_for,
    missing_columns,
    required_columns_for,
    run_analyses,
)
from tajsim.errors import UserError
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return make_synthetic_results(400, n_setups=40, seed=81)


def test_every_analysis_runs_and_returns_n_and_intervals(frame):
    available = analyses_for("tajmahal")
    # these need frames of their own shape (variants; restricted seats; levels head to head):
    # their own tests run them
    shaped = {"robustness", "skill_levels", "restricted_play", "skill_profile",
              "variant_comparison"}
    # the arc's need the score trajectories of real records (tests/test_arc_analysis.py)
    shaped |= {"arc_summary", "comeback_by_deficit", "arc_by_round", "kingmaking", "turn_order"}
    names = [n for n in available if n not in shaped]
    out = run_analyses(frame, names, "tajmahal")
    assert list(out) == names
    assert set(required_columns_for("tajmahal")) == set(available)
    assert set(REQUIRED_COLUMNS) < set(available)  # the generic ones, plus the game's
    no_interval = {"seat_rotation_check"}  # counts only
    for name, table in out.items():
        assert isinstance(table, pd.DataFrame) and not table.empty, name
        assert "n" in table.columns, name
        if name not in no_interval:
            assert {"ci_low", "ci_high"} <= set(table.columns), name


def test_entries_with_arguments_and_aliases(frame):
    out = run_analyses(frame, [
        {"name": "goods_value", "as": "goods_lpm", "model": "lpm"},
        {"name": "setup_feature_tests", "as": "alpha", "strategy": "alpha", "seat": -1},
        {"name": "win_rates", "by": ["n_players", "seat"]},
    ])
    assert set(out) == {"goods_lpm", "alpha", "win_rates"}
    assert (out["goods_lpm"]["model"] == "lpm").all()
    assert len(out["win_rates"]) == 4


def test_bad_entries_are_user_errors(frame):
    with pytest.raises(UserError, match="analysis 'nope'"):
        run_analyses(frame, ["nope"])
    with pytest.raises(UserError, match="bad arguments"):
        run_analyses(frame, [{"name": "goods_value", "modl": "lpm"}])
    with pytest.raises(UserError, match="needs columns"):
        run_analyses(frame.drop(columns=["goods_rice"]), ["goods_value"])
    with pytest.raises(UserError, match="not a name"):
        run_analyses(frame, [42])
    assert missing_columns(frame.drop(columns=[c for c in frame if c.startswith("visit_")]),
                           "chain_points_by_province") == ["visit_*"]


def test_the_cache_computes_each_analysis_once(frame):
    cache = AnalysisCache(frame, "tajmahal")
    first = cache.get("win_rates", by=("n_players", "seat"))
    again = run_analyses(frame, [{"name": "win_rates", "by": ["n_players", "seat"]}],
                         "tajmahal", cache)["win_rates"]
    assert again is first and cache.computed == 1
    cache.get("win_rates", by=("n_players",))
    assert cache.computed == 2
