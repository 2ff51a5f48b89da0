"""The Maharani report: every game section is written from a real run, with its figures and
tables, the final palace is the recorded first game played again, and sections whose columns
are missing say so in one line instead of failing."""

from __future__ import annotations

import pandas as pd
import pytest

from tajsim.reporting.report import build_report
from tajsim.running.simulate import simulate


@pytest.fixture(scope="module")
def results():
    return simulate(game="maharani", games=60, players=3,
                    strategies=["balanced", "greedy", "random"], seed=4, workers=1,
                    progress=False)


def test_every_section_writes_its_figures_and_tables(results, tmp_path):
    path = build_report(results, tmp_path, title="maharani test", game="maharani",
                        config={"seed": 4})
    text = path.read_text()
    for heading in ("Where the gold comes from", "Second tiles, face-down markers",
                    "Quarters: majorities and completion", "The value of each colour's zones",
                    "The palace"):
        assert f"## {heading}" in text, heading
    for name in ("gold_by_source", "choices", "quarters", "colour_zones", "final_palace",
                 "space_gold"):
        assert (tmp_path / f"fig_{name}.png").stat().st_size > 5000, name
    for name in ("gold_by_source", "choices", "quarter_majorities", "quarter_completion",
                 "colour_zone_value", "space_gold"):
        table = pd.read_csv(tmp_path / f"table_{name}.csv")
        assert len(table) > 0 and "n" in table.columns, name
    assert "played again from its seed (its scores equal the recorded ones)" in text
    assert "seat 0 plays the first turn" in text


def test_final_palace_is_skipped_when_the_replay_differs(results, tmp_path):
    changed = results.copy()
    changed.loc[changed.index[0], "score"] += 1  # no longer the game its seed plays
    text = build_report(changed, tmp_path, game="maharani", sections=["palace"]).read_text()
    assert "could not be played again to the recorded scores" in text
    assert (tmp_path / "fig_space_gold.png").exists()


def test_sections_without_their_columns_say_so(results, tmp_path):
    no_gold = [c for c in results.columns if c.startswith("space_gold_")]
    thin = results.drop(columns=["second_tiles", *no_gold])
    text = build_report(thin, tmp_path, game="maharani",
                        sections=["choices", "palace"]).read_text()
    assert "Skipped: the results lack second_tiles" in text
    assert "Skipped: the results lack space_gold_*" in text
    other_board = results.drop(columns=["space_gold_00"])
    text = build_report(other_board, tmp_path, game="maharani", sections=["palace"]).read_text()
    assert "The results have 55 space columns but the board has 56 spaces: no heat map." in text
