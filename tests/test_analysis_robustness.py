"""Robustness: conclusions that hold in every variant, and one that does not."""

from __future__ import annotations

import pandas as pd

from tajsim.analysis.registry import conclusions_for, run_analyses
from tajsim.analysis.robustness import conclusion_values, robustness, split_variants
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
