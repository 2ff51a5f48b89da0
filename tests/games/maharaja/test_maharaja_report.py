"""The Maharaja report: every game section is written from a real run, with its figures and
tables; the final board is the recorded first game played again; sections whose columns are
missing say so in one line; runs with several variants are compared variant by variant."""

from __future__ import annotations

import pandas as pd
import pytest

from tajsim.games.maharaja.report import SECTIONS
from tajsim.reporting.render import MIN_FONT_PT, PAGE_WIDTH_PX
from tajsim.reporting.report import build_report
from tajsim.running.records import concat_results
from tajsim.running.simulate import simulate

FIELD = ["hoarder", "balanced", "greedy", "random"]


@pytest.fixture(scope="module")
def results():
    return simulate(game="maharaja", games=48, players=4, strategies=FIELD, rotate=True,
                    seed=4, workers=1, progress=False)


def test_every_section_writes_its_figures_and_tables(results, tmp_path):
    path = build_report(results, tmp_path, title="maharaja test", game="maharaja",
                        config={"seed": 4}, sections=["win_rates", *SECTIONS])
    text = path.read_text()
    for heading in ("Where the gold comes from", "Tolls: what village houses and roads earn",
                    "Character cards", "Seats and their cards", "Palace tempo", "How games end",
                    "Penalties and their causes", "Central and outer palaces",
                    "The governor action", "The board at the end of a game"):
        assert f"## {heading}" in text, heading
    for name in ("income_by_source", "toll_heatmap", "road_value", "card_value",
                 "seat_cards", "palace_tempo", "game_ends",
                 "central_vs_outer", "governor_value", "final_board"):
        assert (tmp_path / f"fig_{name}.png").stat().st_size > 5000, name
    for name in ("income_by_source", "village_value", "road_value", "card_value",
                 "seat_cards", "palace_tempo", "game_ends", "game_length", "central_vs_outer",
                 "governor_value"):
        table = pd.read_csv(tmp_path / f"table_{name}.csv")
        assert len(table) > 0 and "n" in table.columns, name
    assert "played again from its seed (its scores equal the recorded ones)" in text
    assert "seat 0 chooses a character card first" in text  # the spec's seat note
    assert "not a causal effect" in text
    assert "not per house-round" in text  # the village value says what it measures
    html = (tmp_path / "report.html").read_text()
    sizes = [int(w) for w in pd.Series(html.split('width="')[1:]).str.split('"').str[0]]
    assert sizes and max(sizes) <= PAGE_WIDTH_PX  # no figure is shrunk on the page
    minimum = [float(x) for x in pd.Series(html.split('data-min-text-px="')[1:])
               .str.split('"').str[0]]
    assert min(minimum) >= MIN_FONT_PT * 110 / 72 - 0.05


def test_seat_cards_section_compares_the_seats_within_a_card(tmp_path):
    # a mirror at temperature 1: the cards held at the end vary, the draft hardly
    mirror = simulate(game="maharaja", games=400, players=4, rotate=False, seed=5, workers=1,
                      strategies=["balanced:temperature=1"] * 4, progress=False)
    text = build_report(mirror, tmp_path, game="maharaja", sections=["seat_cards"]).read_text()
    assert "## Seats and their cards" in text and "card-adjusted" in text
    assert "The draft is nearly fixed" in text  # seat 0 drafts the Wandering Monk
    for name in ("seat_cards", "seat_win_rate_by_card"):
        assert (tmp_path / f"fig_{name}.png").stat().st_size > 5000, name
    table = pd.read_csv(tmp_path / "table_seat_cards.csv")
    shares = table[(table["held"] == "final") & (table["measure"] == "share")]
    assert (shares.groupby("seat")["count"].sum() == 400).all()


def test_final_board_is_skipped_when_the_replay_differs(results, tmp_path):
    changed = results.copy()
    changed.loc[changed.index[0], "score"] += 1  # no longer the game its seed plays
    text = build_report(changed, tmp_path, game="maharaja",
                        sections=["final_board"]).read_text()
    assert "could not be played again to the recorded scores" in text
    assert not (tmp_path / "fig_final_board.png").exists()


def test_sections_without_their_columns_say_so(results, tmp_path):
    tolls = [c for c in results.columns if c.startswith("tolls_")]
    thin = results.drop(columns=["chose_governor", "card_final", *tolls])
    text = build_report(thin, tmp_path, game="maharaja",
                        sections=["tolls", "cards", "governor"]).read_text()
    assert "Skipped: the results lack tolls_*" in text
    assert "Skipped: the results lack card_final" in text
    assert "Skipped: the results lack chose_governor" in text


def test_variants_are_compared_and_the_heat_map_keeps_one_board(results, tmp_path):
    other = simulate(game="maharaja", games=48, players=4, strategies=FIELD, rotate=True,
                     seed=4, workers=1, progress=False, options={"no_lone_bonus": True})
    both = concat_results([results, other], run_ids=["rules", "no_lone"],
                          variants=["rules", "no_lone"])
    text = build_report(both, tmp_path, game="maharaja",
                        sections=["income", "tolls", "game_ends"]).read_text()
    assert "Only the games of variant rules" in text
    income = pd.read_csv(tmp_path / "table_income_by_source.csv")
    assert set(income["variant"]) == {"rules", "no_lone"}
    lone = income[income["source"] == "lone"].set_index("variant")["mean"]
    assert lone["no_lone"] == 0  # the option switched the bonus off
    ends = pd.read_csv(tmp_path / "table_game_ends.csv")
    assert set(ends["variant"]) == {"rules", "no_lone"} and (ends["n"] == 48).all()
