"""Card shortages (R3) as an analysis, and the subset/split keys every analysis entry takes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from tajsim.analysis.registry import run_analyses
from tajsim.errors import UserError
from tajsim.games.tajmahal.analyses.shortage import card_shortage
from tajsim.reporting.report import build_report
from tajsim.running.simulate import simulate


@pytest.fixture(scope="module")
def five() -> pd.DataFrame:
    return simulate(240, 5, "balanced", seed=21, workers=1, progress=False)


def test_card_shortage_counts_games_and_missed_cards(five):
    table = card_shortage(five)
    assert len(table) == 1
    row = table.iloc[0]
    games = five.groupby("game_id").first()
    assert row["n"] == len(games) == 240
    assert row["exhausted"] == int((games["exhausted_visit"] > 0).sum()) > 0
    assert row["ci_low"] <= row["rate"] <= row["ci_high"]
    missed = (five["display_cards_missed"] + five["deck_cards_missed"]).mean()
    assert row["missed_per_player"] == pytest.approx(missed)
    assert row["n_player_games"] == len(five)


def test_subset_and_split_work_on_any_analysis(five):
    out = run_analyses(five, [
        {"name": "win_rates_by_seat", "as": "clean", "subset": "exhausted_visit == 0"},
        {"name": "win_rates_by_seat", "as": "by_shortage", "split": "exhausted_visit > 0"},
    ], "tajmahal")
    clean_games = int((five.groupby("game_id")["exhausted_visit"].first() == 0).sum())
    assert (out["clean"]["n"] == clean_games).all()
    split = out["by_shortage"]
    assert list(split.columns[:1]) == ["exhausted_visit > 0"]
    assert set(split["exhausted_visit > 0"]) == {False, True}
    assert split.groupby("exhausted_visit > 0")["n"].first().sum() == 240
    np.testing.assert_allclose(
        split[~split["exhausted_visit > 0"]]["win_rate"].to_numpy(),
        out["clean"]["win_rate"].to_numpy())


@pytest.mark.parametrize("bad, why", [
    ("no_such_column > 0", "cannot be evaluated on the results (name 'no_such_column' is not "
                           "defined); expected a pandas query"),
    ("exhausted_visit", "is not true or false for each row; expected a comparison"),
    ("((", "cannot be evaluated on the results"),
    ("", "is not a query; expected"),
])
def test_a_bad_subset_is_one_line(five, bad, why):
    with pytest.raises(UserError) as info:
        run_analyses(five, [{"name": "win_rates_by_seat", "subset": bad}], "tajmahal")
    assert "\n" not in str(info.value)
    assert str(info.value).startswith(f"subset/split {bad!r} {why}")


def test_the_report_says_so_wherever_shortages_touch_the_data(five, tmp_path):
    hit = int((five.drop_duplicates("game_id")["exhausted_visit"] > 0).sum())
    assert hit > 0
    text = build_report(five, tmp_path / "five").read_text()
    overview, rest = text.split("## Win rates", 1)
    assert f"**Data caveat.** In {hit:,} of " in overview
    # under every later section that shows numbers, except the shortage section itself
    sections = rest.split("\n## ")
    noted = [s.splitlines()[0] for s in sections if "**Note.** In " in s]
    assert "Seat advantage" in noted and "Score composition" in noted
    assert "Card shortages" not in noted
    clean = five[five["exhausted_visit"] == 0]
    text = build_report(clean, tmp_path / "clean").read_text()
    assert "Data caveat" not in text and "**Note.**" not in text


def test_card_shortage_by_lineup_and_unknown_columns(five):
    mixed = five.assign(strategy=np.where(five["seat"] % 2 == 0, "balanced", "greedy"))
    table = card_shortage(mixed, by=["n_players", "lineup"])
    assert "lineup" in table.columns and table["n"].sum() == five["game_id"].nunique()
    with pytest.raises(UserError, match=r"card_shortage: by \['colour'\] are not columns"):
        card_shortage(five, by=["colour"])
