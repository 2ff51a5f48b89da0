"""The connection heat map's numbers: each province's chain points net of its visit slot."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tajsim.games.tajmahal.analyses.connections import CHAIN_COLUMNS, province_columns
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results
from tajsim.games.tajmahal.report.province_effects import province_effects_net_of_visit

#: Synthetic chain points at a visit: placed ~ Bernoulli(0.55), plus Poisson(rate) per palace.
PLACED = 0.55


def test_a_planted_province_value_is_found_and_agra_is_not_identified():
    frame = make_synthetic_results(3000, province_chain_rate={"multan": 2.0}, seed=11)
    table = province_effects_net_of_visit(frame).set_index("province")
    # Truth: E[chain] = 0.55 (1 + rate); the other provinces of a slot are the ten others
    # (Agra is always 12th), so multan's effect is 0.55 (2.0 - 0.8) and every other
    # province's is 0.55 (0.8 - (9 x 0.8 + 2.0) / 10).
    truth = {p: PLACED * (0.8 - (9 * 0.8 + 2.0) / 10) for p in table.index}
    truth["multan"] = PLACED * (2.0 - 0.8)
    assert not table.loc["agra", "identified"] and np.isnan(table.loc["agra", "effect"])
    assert table.loc["agra", "mean_visit"] == 12.0 and np.isfinite(table.loc["agra", "raw_mean"])
    shown = table.drop(index="agra")
    assert shown["identified"].all()
    assert shown.loc["multan", "ci_low"] <= truth["multan"] <= shown.loc["multan", "ci_high"]
    z = (shown["effect"] - pd.Series(truth)[shown.index]) / shown["se"]
    assert (z.abs() < 3.5).all(), z
    assert (table["n"] == 3000).all() and (table["n_player_games"] == 12000).all()
    np.testing.assert_allclose(shown["raw_mean"] - shown["effect"], shown["slot_mean"])


def test_a_pure_visit_trend_gives_no_province_effect():
    """Chain points that grow with the visit (k points in visit k) and nothing else: the raw
    means differ by province (Agra, last, has the most) but no province is worth more."""
    frame = make_synthetic_results(400, seed=12)
    for k, column in enumerate(CHAIN_COLUMNS, start=1):
        frame[column] = k
    table = province_effects_net_of_visit(frame).set_index("province")
    shown = table[table["identified"]]
    np.testing.assert_allclose(shown["effect"], 0.0, atol=1e-12)
    np.testing.assert_allclose(shown["se"], 0.0, atol=1e-12)
    assert table.loc["agra", "raw_mean"] == 12.0 and shown["raw_mean"].max() < 7.0


def _brute_force(frame: pd.DataFrame) -> dict[str, float]:
    """The definition, row by row: chain points at a province minus the mean chain points of
    the other provinces visited in the same slot (same player count)."""
    pcols = province_columns(frame)
    visits = frame[pcols].to_numpy()
    chains = frame[list(CHAIN_COLUMNS)].to_numpy(float)
    players = frame["n_players"].to_numpy()
    out = {}
    for p, column in enumerate(pcols):
        diffs = []
        for i in range(len(frame)):
            k = visits[i, p]
            others = [chains[j, k - 1] for j in range(len(frame))
                      if players[j] == players[i] and visits[j, p] != k]
            diffs.append(chains[i, k - 1] - np.mean(others) if others else np.nan)
        out[column.removeprefix("visit_")] = float(np.mean(diffs))
    return out


def test_the_effect_follows_its_definition():
    frame = pd.concat([make_synthetic_results(25, n_players=3, seed=13).assign(run_id="a"),
                       make_synthetic_results(20, n_players=4, seed=14).assign(run_id="b")],
                      ignore_index=True)
    table = province_effects_net_of_visit(frame).set_index("province")
    expected = _brute_force(frame)
    for province, value in expected.items():
        got = table.loc[province, "effect"]
        if np.isnan(value):
            assert np.isnan(got)
        else:
            assert got == pytest.approx(value, abs=1e-12)


def test_the_interval_matches_the_spread_over_repeated_runs():
    """The clustered standard error is the standard deviation of the estimate over runs."""
    runs = [province_effects_net_of_visit(make_synthetic_results(300, seed=100 + i))
            for i in range(60)]
    effects = np.array([run["effect"].to_numpy() for run in runs])
    errors = np.array([run["se"].to_numpy() for run in runs])
    identified = runs[0]["identified"].to_numpy()
    spread = effects[:, identified].std(axis=0, ddof=1)
    ratio = errors[:, identified].mean(axis=0) / spread
    # 60 runs: the spread itself is known to about +-10%.
    assert 0.75 < float(np.median(ratio)) < 1.25, ratio
    assert ((0.6 < ratio) & (ratio < 1.6)).all(), ratio


def test_bad_input_names_what_is_missing():
    frame = make_synthetic_results(20, seed=15).drop(columns=["visit_agra"])
    with pytest.raises(ValueError, match="11 visit_<province> columns, expected 12"):
        province_effects_net_of_visit(frame)
