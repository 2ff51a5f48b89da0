"""Connection scoring on synthetic data with planted province effects."""

from __future__ import annotations

import numpy as np
import pytest

from tajsim.games.tajmahal.analyses.connections import (
    chain_points_by_province,
    chain_points_by_visit,
    connection_distribution,
    connection_summary,
    province_adjacency_from_components,
    province_order_effects,
)
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results

PLACED = 0.55  # the generator's palace probability per visit


def test_chain_points_by_province_recover_planted_rates():
    frame = make_synthetic_results(2000, province_chain_rate={"delhi": 2.0, "kabul": 0.2},
                                   seed=31)
    table = chain_points_by_province(frame, confidence=0.99).set_index("province")
    assert len(table) == 12
    truth_delhi = PLACED * (1 + 2.0)
    truth_kabul = PLACED * (1 + 0.2)
    assert table.loc["delhi", "ci_low"] < truth_delhi < table.loc["delhi", "ci_high"]
    assert table.loc["kabul", "ci_low"] < truth_kabul < table.loc["kabul", "ci_high"]
    assert table["mean"].idxmax() == "delhi" and table["mean"].idxmin() == "kabul"
    assert table["share_of_chain_points"].sum() == pytest.approx(1.0)
    assert (table["n"] == len(frame)).all()
    assert table.loc["agra", "mean_visit"] == 12  # Agra's province is visited last


def test_chain_points_by_visit_and_distribution():
    frame = make_synthetic_results(500, seed=32)
    by_visit = chain_points_by_visit(frame)
    assert by_visit["visit"].tolist() == list(range(1, 13))
    assert by_visit["mean"].sum() == pytest.approx(
        (frame["pts_palace"] + frame["pts_connection"]).mean())
    dist = connection_distribution(frame, by=())
    assert dist["count"].sum() == len(frame)
    summary = connection_summary(frame, by=())
    assert summary["mean"].iloc[0] == pytest.approx(frame["pts_connection"].mean())


def test_province_order_effect_is_found_at_setup_level():
    frame = make_synthetic_results(3000, n_setups=300, seed=33)
    # Plant: every game gains connection points the earlier Delhi is visited.
    frame["pts_connection"] = frame["pts_connection"] + (12 - frame["visit_delhi"]) // 2
    table = province_order_effects(frame)
    top = table.iloc[0]
    assert top["feature"] == "visit_delhi"
    assert top["correlation"] < 0 and top["q_value"] < 0.01
    assert top["n"] == 300 and top["n_games"] == 3000  # one observation per setup
    # Visit numbers form a permutation, so when Delhi comes early the others come later on
    # average: their correlations move by about -r/11 (weak, opposite sign).
    others = table[(table["feature"] != "visit_delhi") & table["q_value"].notna()]
    assert (others["correlation"].abs() < 0.3 * abs(top["correlation"])).all()
    assert (others["correlation"] > -0.1).all()
    agra = table.set_index("feature").loc["visit_agra"]
    assert np.isnan(agra["correlation"])  # constant: Agra's province is always last


def test_consecutive_adjacency_feature():
    frame = make_synthetic_results(200, n_setups=20, seed=34)
    slugs = [c.removeprefix("visit_") for c in frame.columns if c.startswith("visit_")]
    chain = {a: {b} for a, b in zip(slugs, slugs[1:])}
    for a, b in zip(slugs, slugs[1:]):
        chain.setdefault(b, set()).add(a)
    table = province_order_effects(frame, province_adjacency=chain)
    assert "consecutive_adjacent" in set(table["feature"])


def test_adjacency_from_board_components():
    pytest.importorskip("tajsim.games.tajmahal.engine.components")
    from tajsim.games.tajmahal.engine.component_files import default_components

    comps = default_components()
    adjacency = province_adjacency_from_components(comps)
    assert set(adjacency) == set(comps.province_slugs)
    for a, others in adjacency.items():
        assert a not in others
        for b in others:
            assert a in adjacency[b]  # symmetric
