"""Reports that never mislead (issue 23): figures whose segments mean what the caption says, a
ranking key never shown as points, no ranking of what the data cannot tell apart, a table of
contents and a summary of findings, a report from a run without records, and progress lines."""

from __future__ import annotations

import re
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tajsim.cli.main import cli
from tajsim.games.registry import get_game
from tajsim.reporting.render import report_style
from tajsim.reporting.report import build_report
from tajsim.reporting.score_sections import score_parts_figure
from tajsim.running.aggregates import format_summary
from tajsim.running.simulate import run_simulation


def _bar_spans(fig: plt.Figure) -> dict[str, list[tuple[float, float]]]:
    """Each legend label's bars as (start, end) along x."""
    ax = fig.axes[0]
    spans: dict[str, list[tuple[float, float]]] = {}
    for container in ax.containers:
        spans[container.get_label()] = [
            (min(p.get_x(), p.get_x() + p.get_width()), max(p.get_x(), p.get_x() + p.get_width()))
            for p in container.patches]
    return spans


def test_negative_score_parts_are_drawn_below_zero() -> None:
    # Maharani-like parts: the second-tile cost is negative.
    wide = pd.DataFrame({"strategy": ["a", "b"], "zones": [25.0, 20.0],
                         "groups": [18.0, 15.0], "quarters": [31.8, 28.0],
                         "second": [-12.6, -8.0]})
    wide["score"] = wide[["zones", "groups", "quarters", "second"]].sum(axis=1)
    with report_style():
        fig = score_parts_figure(wide, ["a", "b"], ["zones", "groups", "quarters", "second"],
                                 "score", "points")
    spans = _bar_spans(fig)
    plt.close(fig)
    # The cost lies left of 0 with its own length; quarters keeps its whole length.
    assert spans["second"][0] == pytest.approx((-12.6, 0.0))
    assert spans["quarters"][0] == pytest.approx((43.0, 74.8))
    # No segment starts where a cost ended: every gain lies right of 0.
    for part in ("zones", "groups", "quarters"):
        assert all(start >= 0 for start, _ in spans[part])
    # The mean (the caption's "black tick") is the sum of the parts, not the bar's end.
    ticks = [line for line in fig.axes[0].lines if line.get_marker() == "|"]
    assert ticks and ticks[0].get_xdata()[0] == pytest.approx(62.2)


def _maharaja_frame(games: int = 60) -> pd.DataFrame:
    """Synthetic Maharaja results: 4 seats, gold parts summing to gold, score the ranking key."""
    spec = get_game("maharaja")
    rng = np.random.default_rng(1)
    rows = games * 4
    frame = pd.DataFrame({
        "game_id": np.repeat(np.arange(games), 4), "n_players": 4,
        "seat": np.tile(np.arange(4), games),
        "strategy": pd.Categorical(np.tile(["balanced", "greedy", "hoarder", "rusher"], games)),
    })
    gold_parts = spec.score_display.parts
    for part in gold_parts:
        frame[f"pts_{part}"] = rng.integers(-20, 60, rows) if part == "build_spent" else \
            rng.integers(0, 20, rows)
    frame["pts_build_spent"] = -rng.integers(60, 90, rows)
    frame["palaces"] = rng.integers(3, 8, rows)
    frame["gold"] = frame[[f"pts_{p}" for p in gold_parts]].sum(axis=1)
    frame["pts_palaces"] = 10_000 * frame["palaces"]
    frame["score"] = frame["pts_palaces"] + frame["gold"]
    frame["rank"] = frame.groupby("game_id")["score"].rank(ascending=False, method="min")
    frame["winner"] = frame["rank"] == 1
    return frame


def test_maharaja_score_composition_shows_palaces_and_gold_not_the_key(tmp_path: Path) -> None:
    frame = _maharaja_frame()
    build_report(frame, tmp_path, game="maharaja", sections=["score_composition"])
    text = (tmp_path / "report.md").read_text()
    section = text[text.index("## Score composition"):]
    header = next(line for line in section.splitlines() if line.startswith("| strategy"))
    assert "| palaces | gold |" in header and "| score |" not in header
    assert "mean gold per player-game" in section.lower() or "Mean gold" in section
    assert "not points" in section
    # The table's palaces are the strategies' means; no number of the ranking key's size
    # (10,000 x palaces: tens of thousands here) is shown anywhere but in the key's definition.
    palaces = frame.groupby("strategy", observed=True)["palaces"].mean()
    for strategy, mean in palaces.items():
        assert f"| {strategy} | 60 | {mean:.3f} |" in section
    assert frame["score"].mean() > 10_000
    assert not re.search(r"\d{2,3},\d{3}", section.replace("10,000 ×", ""))


def test_maharaja_simulate_summary_has_no_ranking_key_as_points() -> None:
    result = run_simulation(8, 2, "random", game="maharaja", progress=False, workers=1)
    text = format_summary(result.summary(), 8, get_game("maharaja").score_display)
    header = text.splitlines()[3]
    assert "palaces (95% CI)" in header and "gold (95% CI)" in header
    assert "score (95% CI)" not in header and " palaces " not in header.split("CI)")[-1]
    assert "not points" in text.splitlines()[0]
    # What `tajsim simulate` prints is the same text.
    assert result.summary_text() == text
    # The other games keep the score as points.
    assert "score (95% CI)" in format_summary(
        run_simulation(4, 2, "random", progress=False, workers=1).summary(), 4)


def _two_seat_games(games: int, seat0_share: float, seed: int = 0) -> pd.DataFrame:
    """One strategy, two seats; seat 0 wins about ``seat0_share`` of the games."""
    rng = np.random.default_rng(seed)
    first = rng.random(games) < seat0_share
    frame = pd.DataFrame({
        "game_id": np.repeat(np.arange(games), 2), "n_players": 2,
        "seat": np.tile([0, 1], games), "strategy": pd.Categorical(["same"] * (2 * games)),
    })
    frame["winner"] = np.where(frame["seat"] == 0, np.repeat(first, 2), ~np.repeat(first, 2))
    frame["score"] = frame["winner"].astype(int) * 10
    frame["rank"] = np.where(frame["winner"], 1, 2)
    return frame


def test_a_best_seat_is_named_only_when_the_test_tells_seats_apart(tmp_path: Path) -> None:
    clear = _two_seat_games(2000, 0.6)
    build_report(clear, tmp_path / "clear", sections=["seat_advantage"])
    text = (tmp_path / "clear" / "report.md").read_text()
    assert "Best seat 0, worst seat 1." in text
    noise = _two_seat_games(2000, 0.5, seed=3)
    build_report(noise, tmp_path / "noise", sections=["seat_advantage"])
    text = (tmp_path / "noise" / "report.md").read_text()
    assert "Best seat" not in text and "cannot be told apart" in text
    table = pd.read_csv(tmp_path / "noise" / "table_seat_advantage.csv")
    assert float(table["p_value"].iloc[0]) >= 0.05  # the planted data are noise indeed


def _setups(per_setup: int, n_setups: int, biased: int, seed: int = 0) -> pd.DataFrame:
    """Two-seat games, ``per_setup`` a setup; in the first ``biased`` setups seat 0 always
    wins, elsewhere a fair coin decides."""
    games = per_setup * n_setups
    frame = _two_seat_games(games, 0.5, seed)
    setup = np.repeat(np.arange(n_setups), per_setup)
    rigged = setup < biased
    first = frame["winner"].to_numpy()[0::2] | rigged
    frame["winner"] = np.where(frame["seat"] == 0, np.repeat(first, 2), ~np.repeat(first, 2))
    frame["rank"] = np.where(frame["winner"], 1, 2)
    frame["setup_id"] = np.repeat(setup, 2)
    frame["seed"] = 0
    return frame


def test_unbalanced_setups_are_listed_only_when_the_data_tell_them_apart(tmp_path: Path) -> None:
    noise = _setups(per_setup=4, n_setups=200, biased=0)
    build_report(noise, tmp_path / "noise", sections=["setup_balance"])
    text = (tmp_path / "noise" / "report.md").read_text()
    assert "No setup's seats can be told apart at 4 games a setup" in text
    assert "Least balanced" not in text and "tell apart, least balanced" not in text
    clear = _setups(per_setup=60, n_setups=40, biased=3)
    build_report(clear, tmp_path / "clear", sections=["setup_balance"])
    text = (tmp_path / "clear" / "report.md").read_text()
    assert "Setups whose seats the data tell apart" in text
    listed = text[text.index("Setups whose seats the data tell apart"):].split("\n\n")[1]
    rows = [line for line in listed.splitlines() if line.startswith("| 0 |")]
    assert sorted(int(r.split("|")[2]) for r in rows) == [0, 1, 2]  # the rigged setups only


def test_long_reports_open_with_a_summary_and_contents(tmp_path: Path) -> None:
    frame = _two_seat_games(400, 0.6)
    build_report(frame, tmp_path)
    text = (tmp_path / "report.md").read_text()
    assert text.index("## Summary of findings") < text.index("## Contents") < \
        text.index("## Overview")
    assert "- [Seat advantage](#seat-advantage)" in text
    summary = text[text.index("## Summary of findings"):text.index("## Contents")]
    assert "**Seat advantage.**" in summary and "games" in summary and "CI" in summary
    html = (tmp_path / "report.html").read_text()
    assert '<h2 id="seat-advantage">' in html and 'href="#seat-advantage"' in html


def test_a_run_without_records_gets_the_sections_its_sums_support(tmp_path: Path) -> None:
    run = tmp_path / "run"
    run_simulation(40, 2, ["random", "greedy"], game="maharani", out=run, records=False,
                   progress=False, workers=1, load_records=False)
    result = CliRunner().invoke(cli, ["report", str(run), "--out", str(tmp_path / "rep")])
    assert result.exit_code == 0, result.output
    text = (tmp_path / "rep" / "report.md").read_text()
    for heading in ("## Overview", "## Win rates", "## Score composition"):
        assert heading in text
    assert "`setup_balance`" in text and "`ratings`" in text  # named as needing records
    assert "## Setup balance" not in text
    for name in ("fig_win_rate_by_seat.png", "fig_win_rate_by_strategy.png",
                 "fig_score_parts.png", "report.html"):
        assert (tmp_path / "rep" / name).is_file()
    assert "report: section 1 of 3: overview" in result.stderr
    refused = CliRunner().invoke(cli, ["report", str(run), "--out", str(tmp_path / "r2"),
                                       "--section", "ratings"])
    assert refused.exit_code == 2 and "needs per-game records" in refused.output


def test_report_prints_one_line_per_section_unless_quiet(tmp_path: Path) -> None:
    frame = _two_seat_games(100, 0.5)
    data = tmp_path / "results.csv"
    frame.to_csv(data, index=False)
    loud = CliRunner().invoke(cli, ["report", str(data), "--out", str(tmp_path / "a"),
                                    "--section", "overview", "--section", "win_rates"])
    assert loud.exit_code == 0, loud.output
    assert loud.stderr.splitlines()[:2] == ["report: section 1 of 2: overview",
                                           "report: section 2 of 2: win_rates"]
    quiet = CliRunner().invoke(cli, ["report", str(data), "--out", str(tmp_path / "b"), "-q",
                                     "--section", "overview"])
    assert quiet.exit_code == 0 and "report: section" not in quiet.stderr


def test_the_summary_keeps_a_finding_up_to_its_interval_and_its_association_caveat() -> None:
    from tajsim.reporting.render import short_finding

    text = ("Players who build more win more. Compared within games, one more goes with +0.08 "
            "[+0.04, +0.13] in win share. This is an association in simulated play, not a "
            "causal effect. More details follow.")
    short = short_finding(text)
    assert short.startswith("Players who build more win more. Compared within games")
    assert "[+0.04, +0.13]" in short and "More details" not in short
    assert short.endswith("(An association in simulated play, not a causal effect.)")
    assert short_finding("A is 3.0 [2.0, 4.0]. B.") == "A is 3.0 [2.0, 4.0]."
