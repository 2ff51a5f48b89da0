"""Robustness: conclusions that hold in every variant, and one that does not; each conclusion
with its kind's test (a null as an equivalence, an order with Holm)."""

from __future__ import annotations

import pandas as pd
import pytest

from tajsim.analysis.registry import conclusions_for, run_analyses
from tajsim.analysis.robustness import conclusion_values, robustness, split_variants
from tajsim.errors import UserError
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results

TM_CONCLUSIONS = conclusions_for("tajmahal")
BASE = {
    "strategy_strength": {"alpha": 0.7, "beta": 0.3},
    "good_value": {"jewels": 0.5, "rice": 0.2},
    "seat_effect": [0.35, 0, 0, 0],
}


def _variants() -> dict[str, pd.DataFrame]:
    return {
        "default": make_synthetic_results(2500, seed=61, **BASE),
        "board_b": make_synthetic_results(2500, seed=62, **BASE),
        # The last seat, not the first, is favoured on this board.
        "mix_c": make_synthetic_results(2500, seed=63, **{**BASE,
                                                          "seat_effect": [-0.35, 0, 0, 0.35]}),
    }


def test_robustness_flags_what_holds_and_what_does_not():
    frames = _variants()
    table = robustness(frames, extra=TM_CONCLUSIONS).set_index("conclusion")
    assert table.loc["best_strategy[4p]", "holds_in_all"]
    assert table.loc["best_strategy[4p]", "consensus"] == "alpha"
    assert table.loc["most_valuable_good", "holds_in_all"]
    assert table.loc["most_valuable_good", "consensus"] == "jewels"
    seat = table.loc["first_seat_advantage[4p]"]
    assert not seat["holds_in_all"]
    assert (seat["default"], seat["board_b"], seat["mix_c"]) == ("+", "+", "-")
    assert seat["agree_share"] == 2 / 3
    assert (table["n"] == 7500).all() and (table["n_variants"] == 3).all()
    long = conclusion_values(frames, extra=TM_CONCLUSIONS)
    assert set(long["variant"]) == {"default", "board_b", "mix_c"}
    assert long["detail"].str.contains(r"\[").any()  # estimates come with intervals


def test_variant_column_and_registry():
    frames = _variants()
    combined = pd.concat([f.assign(variant=k) for k, f in frames.items()], ignore_index=True)
    assert set(split_variants(combined)) == set(frames)
    out = run_analyses(combined, ["robustness"])
    assert "holds_in_all" in out["robustness"].columns


def test_goods_not_told_apart_are_said_so_and_an_order_is_tested():
    """Two goods of equal planted value are "not told apart" (braces), never ranked by noise;
    the order's claims are Holm-tested with the coefficients' covariance."""
    frame = make_synthetic_results(3000, seed=71, strategy_strength={"alpha": 0.0},
                                   good_value={"jewels": 0.6, "rice": 0.25, "spices": 0.25})
    long = conclusion_values({"only": frame}, ["goods_value_ranking"],
                             extra=TM_CONCLUSIONS).set_index("conclusion")
    ranking = long.loc["goods_value_ranking"]
    assert ranking["value"].startswith("jewels > ")
    assert "{rice, spices" in ranking["value"] or "{rice, spices, tea}" in ranking["value"]
    assert "not told apart" in ranking["detail"] and ranking["kind"] == "order"
    assert ranking["p_value"] < 0.05
    assert long.loc["most_valuable_good", "value"] == "jewels"
    assert "P(first)" not in long.loc["most_valuable_good", "detail"]  # no bootstrap of a fit


def test_a_null_is_an_equivalence_with_its_margin():
    """No planted seat effect: equivalent within ±2 points at 3,000 games, inconclusive at 150
    (less power no longer makes a null hold), and a wider margin is an argument."""
    big = make_synthetic_results(3000, seed=72, strategy_strength={"alpha": 0.0})
    small = make_synthetic_results(150, seed=73, strategy_strength={"alpha": 0.0})
    table = robustness({"big": big, "small": small}, ["seat_advantage_sign"])
    row = table.set_index("conclusion").loc["first_seat_advantage[4p]"]
    assert (row["big"], row["small"]) == ("equivalent ±2 pts", "inconclusive")
    assert not row["holds_in_all"] and not row["holds_familywise"]
    wide = conclusion_values({"small": small}, ["seat_advantage_sign"], margin=0.25)
    assert wide["value"].iloc[0] == "equivalent ±25 pts"
    with pytest.raises(UserError, match="margin"):
        conclusion_values({"small": small}, ["seat_advantage_sign"], margin=-0.1)
