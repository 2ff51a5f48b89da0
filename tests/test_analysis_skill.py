"""The skill axis: each level's verdict of a key conclusion is marked holds, fails or
inconclusive against the reference level, on planted data (a null as an equivalence with its
margin, an order tested); the report section shows it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tajsim.analysis.registry import conclusions_for, run_analyses
from tajsim.analysis.skill import (
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    NOT_AVAILABLE,
    NOT_SIGNIFICANT,
    compare_value,
    skill_levels,
)
from tajsim.cli.main import cli
from tajsim.errors import UserError
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results
from tajsim.reporting.report import build_report

SEAT = "first_seat_advantage[4p]"


def _level(name: str, seat_effect: list[float], n_games: int, seed: int) -> pd.DataFrame:
    """A mirror match of strategy ``name`` with a planted first-seat effect."""
    return make_synthetic_results(n_games, strategies=(name,), seat_effect=seat_effect,
                                  seed=seed)


def _levels() -> dict[str, pd.DataFrame]:
    return {
        "random": _level("random", [0.0, 0, 0, 0], 3000, seed=81),   # no effect: equivalent
        "novice": _level("novice", [0.0, 0, 0, 0], 150, seed=85),    # too few games to tell
        "weak": _level("weak", [0.4, 0, 0, 0], 3000, seed=82),       # the reference: "+"
        "strong": _level("strong", [0.4, 0, 0, 0], 3000, seed=83),   # "+" again
        "expert": _level("expert", [-0.4, 0, 0, 0.4], 3000, seed=84),  # "-": reversed
    }


def test_statuses_on_planted_levels():
    table = skill_levels(_levels(), conclusions=("seat_advantage_sign", "best_strategy"),
                         reference="weak")
    seat = table[table["conclusion"] == SEAT].set_index("level")
    assert list(seat.index) == ["random", "novice", "weak", "strong", "expert"]  # in order
    # no effect over 3,000 games is an equivalence within ±2 points, over 150 inconclusive
    assert list(seat["value"]) == ["equivalent ±2 pts", INCONCLUSIVE, "+", "+", "-"]
    assert list(seat["status"]) == [FAILS, INCONCLUSIVE, HOLDS, HOLDS, FAILS]
    assert "detectable at this n" in seat.loc["novice", "detail"]
    assert seat.loc["novice", "mde"] > 0.05 > seat.loc["weak", "mde"]
    assert seat.loc["random", "p_value"] < 0.05 and pd.isna(seat.loc["novice", "p_value"])
    assert not seat["structural"].any() and not seat["holds_familywise"].any()
    assert seat.loc["weak", "is_reference"] and not seat.loc["strong", "is_reference"]
    assert (seat["reference_value"] == "+").all()
    assert seat["detail"].str.contains(r"\[").all()  # each estimate comes with its interval
    assert (seat.drop(index="novice")["n"] == 3000).all()
    # best_strategy needs two strategies: mirror matches at every level give it no row (a
    # conclusion computed at some levels only has "n/a" rows at the others)
    assert set(table["conclusion"]) == {SEAT}


def test_default_reference_is_the_most_common_value():
    table = skill_levels(_levels(), conclusions=("seat_advantage_sign",))
    assert set(table["reference_value"]) == {"+"}
    assert not table["is_reference"].any()


@pytest.mark.parametrize("reference,value,status", [
    ("+", "+", HOLDS), ("+", INCONCLUSIVE, INCONCLUSIVE), ("+", "-", FAILS),
    ("+", "equivalent ±2 pts", FAILS),  # the level finds the effect negligible
    ("equivalent ±2 pts", "equivalent ±2 pts", HOLDS),
    ("equivalent ±2 pts", "-", FAILS),
    ("equivalent ±2 pts", INCONCLUSIVE, INCONCLUSIVE),  # low power confirms nothing
    (INCONCLUSIVE, "+", INCONCLUSIVE),  # a reference that states nothing
    ("+", "n/a", NOT_AVAILABLE),
    ("city", "city", HOLDS), ("city", "tolls", FAILS),
    ("city", "{city, tolls}", INCONCLUSIVE),  # the argmax not told apart at the level
    ("{city, tolls}", "city", HOLDS),  # "not told apart" claims no equality
    ("{city, tolls}", "lone", FAILS),
    ("{city, tolls}", "{city, lone}", FAILS),  # tolls > lone, then lone > tolls
    ("a > b > c", "a > b > c", HOLDS),
    ("a > b > c", "{a, b} > c", INCONCLUSIVE),
    ("a > b > c", "b > a > c", FAILS),
    ("a > {b, c}", "a > b > c", HOLDS),          # telling more apart still holds
    ("{a, b, c}", "{a, b, c}", HOLDS),
    ("{a, b, c}", "a > {b, c}", HOLDS),
    ("a > b ≈ c", "a > b > c", HOLDS),          # the notation before the verdicts reads too
])
def test_compare_value(reference, value, status):
    assert compare_value(reference, value) == status


def test_registry_and_refusals():
    frames = _levels()
    combined = pd.concat([f.assign(variant=k) for k, f in frames.items()], ignore_index=True)
    combined["variant"] = pd.Categorical(combined["variant"], categories=list(frames))
    out = run_analyses(combined, [{"name": "skill_levels", "reference": "strong",
                                   "conclusions": ["seat_advantage_sign"]}])["skill_levels"]
    assert list(dict.fromkeys(out["level"])) == list(frames)
    with pytest.raises(UserError, match="reference level 'nope'"):
        skill_levels(frames, reference="nope")
    with pytest.raises(UserError, match="variant"):
        run_analyses(combined.drop(columns="variant"), ["skill_levels"])


TINY = """
name = "skill-tiny"
game = "maharaja"
title = "tiny skill axis"
analyses = ["skill_levels"]

[simulate]
games = 12
players = 4
seed = 9

[[runs]]
name = "random"
strategies = ["random"]
variant = "random"

[[runs]]
name = "balanced-t1"
strategies = ["balanced:temperature=1"]
variant = "balanced T=1"

[report]
sections = ["overview", "skill"]
skill_reference = "balanced T=1"
"""


def test_end_to_end_run(tmp_path: Path):
    path = tmp_path / "skill.toml"
    path.write_text(TINY)
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["run", str(path), "--out", str(out), "-w", "1", "-q"])
    assert res.exit_code == 0, res.output
    report = (out / "report.md").read_text()
    assert "## Across skill levels" in report and "reference level **balanced T=1**" in report
    table = pd.read_csv(out / "table_skill_levels.csv")
    assert list(dict.fromkeys(table["level"])) == ["random", "balanced T=1"]
    assert set(table["status"]) <= {HOLDS, FAILS, NOT_SIGNIFICANT, NOT_AVAILABLE}
    assert NOT_SIGNIFICANT == INCONCLUSIVE
    # the ranking key is no score part: no "largest score part" of palaces, the gold's instead
    assert not table["conclusion"].str.startswith("largest_score_part").any()
    assert table["conclusion"].str.startswith("largest_gold_part").any()
    assert "palaces" not in set(table.loc[table["conclusion"].str.startswith("largest"),
                                          "value"])
    assert {"income_ranking", "usual_game_end[4p]"} <= set(table["conclusion"])  # Maharaja's own
    ref = table[table["level"] == "balanced T=1"]
    # the reference agrees with itself, unless it states nothing (12 games: inconclusive nulls,
    # orders that tell nothing apart: no p-value)
    assert ref["status"].isin([HOLDS, NOT_AVAILABLE, INCONCLUSIVE]).all()
    unsaid = ref[ref["status"] == INCONCLUSIVE]
    assert ((unsaid["value"] == INCONCLUSIVE) | unsaid["p_value"].isna()).all()


def test_a_reference_that_is_no_variant_is_refused(tmp_path: Path):
    path = tmp_path / "bad.toml"
    path.write_text(TINY.replace('skill_reference = "balanced T=1"', 'skill_reference = "x"'))
    res = CliRunner().invoke(cli, ["run", str(path), "--out", str(tmp_path / "o")])
    assert res.exit_code == 2, res.output
    assert "skill_reference" in res.stderr and res.stderr.count("\n") == 1


def test_the_section_shows_skill_levels_only_where_the_variants_play_different_strategies(
        tmp_path: Path):
    frames = _levels()
    levels = pd.concat([f.assign(variant=k) for k, f in frames.items()], ignore_index=True)
    report = build_report(levels, tmp_path / "skill", sections=["skill"], game="tajmahal",
                          config={"skill_reference": "weak"}).read_text()
    assert "## Across skill levels" in report and "**weak**" in report
    assert "first_seat_advantage[4p] fails at expert" in report  # the headline
    # variants that play the same strategy are boards or rules: the robustness section's case
    boards = pd.concat([_level("alpha", [0.4, 0, 0, 0], 300, seed=s).assign(variant=f"b{s}")
                        for s in (1, 2)], ignore_index=True)
    report = build_report(boards, tmp_path / "boards", sections=["skill"],
                          game="tajmahal").read_text()
    assert "Across skill levels" not in report


def test_structural_and_familywise_and_an_order_that_tells_nothing_apart():
    """What holds where every seat plays random is structural; a statement that tells nothing
    apart (equal goods) holds nowhere, however often it recurs."""
    frames = {
        "random": _level("random", [0.4, 0, 0, 0], 3000, seed=86),
        "weak": _level("weak", [0.4, 0, 0, 0], 3000, seed=87),
        "strong": _level("strong", [0.4, 0, 0, 0], 3000, seed=88),
    }
    table = skill_levels(frames, conclusions=("seat_advantage_sign", "goods_value_ranking"),
                         extra=conclusions_for("tajmahal"), reference="weak")
    seat = table[table["conclusion"] == SEAT]
    assert (seat["status"] == HOLDS).all() and seat["structural"].all()
    assert seat["holds_familywise"].all() and (seat["p_holm"] < 0.05).all()
    goods = table[table["conclusion"] == "goods_value_ranking"]
    assert (goods["value"] == "{jewels, rice, spices, tea}").all()  # no good value planted
    assert (goods["status"] == INCONCLUSIVE).all() and not goods["structural"].any()


def _first_seat_against_lower(summaries: pd.DataFrame, top: str,
                              lower: list[str]) -> pd.DataFrame:
    """Seat 0's win share at run ``top`` against each run of ``lower`` (the summaries'
    ``run_id``s): pooled two-proportion z tests on independent levels, one row each."""
    from tajsim.analysis.stats.proportions import two_proportion_test

    seats = summaries.query("group == 'seat' and seat == 0").set_index("run_id")
    wins = seats["win_rate"] * seats["n"]        # a shared win counts 1/k
    return two_proportion_test(np.full(len(lower), wins[top]),
                               np.full(len(lower), seats.at[top, "n"]),
                               wins[lower].to_numpy(), seats.loc[lower, "n"].to_numpy())


def test_the_documented_maharani_2p_top_is_the_shipped_report():
    """The first seat's edge at the 2-player chain's top and its tests against lower levels, as
    the README, the experiments table and the analyses page state them, are the shipped
    reports' figures."""
    from tajsim.analysis.stats.multiple_tests import holm

    root = Path(__file__).resolve().parents[1]
    folder = root / "reports" / "maharani" / "skill_2p"
    table = pd.read_csv(folder / "table_skill_levels.csv")
    top = table[(table["conclusion"] == "first_seat_advantage[2p]")
                & (table["level"] == "mcts 4096 it. (chain top)")].iloc[0]
    assert top["status"] == HOLDS and top["n"] == 2000
    edge = top["detail"].split(" points")[0].split("(")[1]        # "+10.5 [+8.4, +12.6]"
    docs = {p: " ".join((root / p).read_text().split())
            for p in ("README.md", "docs/games/maharani/analyses.md",
                      "experiments/maharani/README.md")}
    for path, text in docs.items():
        assert edge in text, (path, edge)

    # seat 0's win share by level; 1,024 iterations are the earlier report's 2-player level
    summaries = pd.concat([
        pd.read_csv(folder / "summary.csv"),
        pd.read_csv(root / "reports" / "maharani" / "skill" / "summary.csv")
        .replace({"run_id": {"mcts-1024-2p": "mcts-1024"}}),
    ])
    tests = _first_seat_against_lower(summaries, "mcts-4096",
                                      ["balanced-t025", "random", "mcts-1024"])
    shown = [f"{100 * t.difference:+.1f} [{100 * t.ci_low:+.1f}, {100 * t.ci_high:+.1f}] "
             f"p = {t.p_value:.1g}" for t in tests.itertuples()]
    assert shown == ["+5.3 [+2.7, +8.0] p = 8e-05", "+7.8 [+5.1, +10.4] p = 1e-08",
                     "+2.1 [-0.9, +5.2] p = 0.2"]
    assert [f"{p:.1g}" for p in holm(tests["p_value"].to_numpy())] == ["0.0002", "3e-08",
                                                                         "0.2"]
    analyses = docs["docs/games/maharani/analyses.md"]
    assert "(+5.3 points, pooled two-proportion z test on the two independent levels, p = 8e-5)"\
        in analyses
    assert "random play's (+7.8, p = 1e-8); Holm over the three comparisons in this list: 2e-4 "\
        "and 3e-8" in analyses
    assert f"+2.1 points [-0.9, +5.2] (Newcombe), p = {tests.p_value.iloc[2]:.2f}" in analyses
    assert "(+5.3 points, two-proportion z test, Holm p = 2e-4)" in docs["README.md"]


def test_the_documented_maharaja_4p_top_is_the_shipped_report():
    """Maharaja's 4-player skill report has its chain's measured top, `turnsearch` 256, at
    2,000 games; the verdicts there and the first seat's edge against the lower levels, as the
    README and the analyses page state them, are the shipped report's figures."""
    from tajsim.analysis.stats.multiple_tests import holm

    root = Path(__file__).resolve().parents[1]
    folder = root / "reports" / "maharaja" / "skill"
    table = pd.read_csv(folder / "table_skill_levels.csv")
    top = table[table["level"] == "turnsearch 256 it. (chain top)"].set_index("conclusion")
    assert (top["n"] == 2000).all()
    assert top["status"].to_dict() == {
        "first_seat_advantage[4p]": INCONCLUSIVE, "largest_gold_part[4p]": HOLDS,
        "income_ranking": FAILS, "usual_game_end[4p]": HOLDS,
        "central_palace_win_share": HOLDS}
    docs = {p: " ".join((root / p).read_text().split())
            for p in ("README.md", "docs/games/maharaja/analyses.md")}
    for conclusion in ("first_seat_advantage[4p]", "central_palace_win_share"):
        shown = top.at[conclusion, "detail"].split(" points")[0].split("(")[1]  # "+1.0 [...]"
        for path, text in docs.items():
            assert shown in text, (path, conclusion, shown)

    # seat 0's win share at the top against the levels below it
    tests = _first_seat_against_lower(pd.read_csv(folder / "summary.csv"), "turnsearch-256",
                                      ["turnsearch-64", "search-80", "hoarder-t1"])
    shown = [f"{100 * t.difference:+.1f} [{100 * t.ci_low:+.1f}, {100 * t.ci_high:+.1f}]"
             for t in tests.itertuples()]
    assert shown == ["-0.3 [-3.0, +2.5]", "-20.0 [-23.1, -16.8]", "-23.1 [-25.6, -20.6]"]
    adjusted = holm(tests["p_value"].to_numpy())
    assert adjusted[0] > 0.5 and (adjusted[1:] < 1e-30).all()
    for text in docs.values():
        assert "-0.3 points [-3.0, +2.5] (p = 0.86)" in text
        assert "-20.0 [-23.1, -16.8]" in text and "-23.1 [-25.6, -20.6]" in text
