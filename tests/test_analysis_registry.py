"""Analyses by name, as experiment files call them."""

from __future__ import annotations

import pandas as pd
import pytest

from tajsim.analysis.registry import ANALYSES, REQUIRED_COLUMNS, missing_columns, run_analyses
from tajsim.analysis.synthetic import make_synthetic_results
from tajsim.errors import UserError


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return make_synthetic_results(400, n_setups=40, seed=81)


def test_every_analysis_runs_and_returns_n_and_intervals(frame):
    names = [n for n in ANALYSES if n != "robustness"]
    out = run_analyses(frame, names)
    assert list(out) == names
    assert set(REQUIRED_COLUMNS) == set(ANALYSES)
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
    with pytest.raises(UserError, match="unknown analysis 'nope'"):
        run_analyses(frame, ["nope"])
    with pytest.raises(UserError, match="bad arguments"):
        run_analyses(frame, [{"name": "goods_value", "modl": "lpm"}])
    with pytest.raises(UserError, match="needs columns"):
        run_analyses(frame.drop(columns=["goods_rice"]), ["goods_value"])
    with pytest.raises(UserError, match="not a name"):
        run_analyses(frame, [42])
    assert missing_columns(frame.drop(columns=[c for c in frame if c.startswith("visit_")]),
                           "chain_points_by_province") == ["visit_*"]
