"""The report end to end on small synthetic runs, from Python and from the command line."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results
from tajsim.reporting import render
from tajsim.reporting.render import (
    MIN_TEXT_PX,
    PAGE_WIDTH_PX,
    format_cell,
    round_significant,
    signed,
    write_csv,
)
from tajsim.reporting.report import build_report, markdown_table

EXPECTED_FIGURES = {
    "fig_win_rate_by_seat.png", "fig_win_rate_by_strategy.png", "fig_score_parts.png",
    "fig_commodity_value.png", "fig_connection_heatmap.png", "fig_connection_by_visit.png",
    "fig_setup_imbalance.png", "fig_rating_ladder.png", "fig_head_to_head.png",
}
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


#: The small run of these tests; the byte-stability test rebuilds it in another process.
SMALL_RUN = dict(n_games=300, strategies=("alpha", "beta", "gamma", "delta", "eps"), n_setups=30,
                 seat_effect=[0.3, 0, 0, 0], strategy_strength={"alpha": 0.5},
                 good_value={"jewels": 0.3}, setup_effect_sd=0.3, tie_probability=0.02, seed=71)
REPORT_ARGS = dict(title="Synthetic run", config={"name": "ci", "seed": 71})


@pytest.fixture(scope="module")
def small_run() -> pd.DataFrame:
    return make_synthetic_results(**SMALL_RUN)


@pytest.fixture(scope="module")
def full_report(small_run, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    path = build_report(small_run, out, **REPORT_ARGS)
    return out, path


def _captions(markdown: str) -> list[str]:
    return re.findall(r"^\*(Figure \d+\..*)\*$", markdown, flags=re.M)


def test_full_report_files_exist(full_report):
    out, path = full_report
    assert path == out / "report.md"
    assert (out / "report.html").is_file()
    figures = {p.name for p in out.glob("fig_*.png")}
    assert figures == EXPECTED_FIGURES
    for fig in figures:
        assert (out / fig).read_bytes()[:8] == PNG_MAGIC
    md = path.read_text()
    for name in re.findall(r"`(table_[a-z_]+\.csv)`", md):
        assert (out / name).is_file(), name
    for heading in ("## Win rates", "## Seat advantage", "## Score composition",
                    "## Commodity value", "## Connection scoring", "## Setup balance",
                    "## Strategy comparison"):
        assert heading in md
    assert "Skipped" not in md


def test_every_figure_has_a_caption_with_the_game_count(full_report):
    out, path = full_report
    md = path.read_text()
    captions = _captions(md)
    assert len(captions) == len(EXPECTED_FIGURES)
    for caption in captions:
        assert "n = 300 games" in caption
        assert "Simulated:" in caption and "seed 71" in caption and "4-player" in caption
        assert "edition 2018" in caption and "alpha" in caption
    for name in EXPECTED_FIGURES:
        assert f"]({name})" in md


def test_html_is_self_contained(full_report):
    out, _ = full_report
    html = (out / "report.html").read_text()
    sources = re.findall(r'<img[^>]*src="([^"]+)"', html)
    assert len(sources) == len(EXPECTED_FIGURES)
    assert all(s.startswith("data:image/png;base64,") for s in sources)
    assert "<link" not in html and "<script" not in html
    assert not re.search(r'(src|href)="(https?:|//|fig_)', html)
    assert "<style>" in html
    assert html.count("<figcaption>") == len(EXPECTED_FIGURES)
    assert "n = 300 games" in html


def test_sections_the_data_cannot_support_are_skipped_with_a_reason(tmp_path):
    frame = make_synthetic_results(120, strategies=("solo",), seed=72)  # one setup per game
    build_report(frame, tmp_path, sections=["overview", "setup_balance", "ratings"])
    md = (tmp_path / "report.md").read_text()
    assert "Skipped: every game has its own setup (120 setups for 120 games)" in md
    assert "Skipped: only one strategy played." in md
    assert not list(tmp_path.glob("fig_*.png"))


def test_several_player_counts_and_variants(tmp_path):
    three = make_synthetic_results(150, n_players=3, seed=73).assign(variant="a")
    four = make_synthetic_results(150, n_players=4, seed=74).assign(variant="b")
    frame = pd.concat([three, four], ignore_index=True)
    build_report(frame, tmp_path, sections=["win_rates", "seat_advantage", "robustness"])
    md = (tmp_path / "report.md").read_text()
    assert "## Robustness across variants" in md
    assert "3 and 4-player games" in md
    captions = _captions(md)
    assert captions and all("n = 300 games" in c for c in captions)


def _three_seat_runs(field_lineups) -> pd.DataFrame:
    kw = dict(n_players=3, strategies=("strong", "weak"), strategy_strength={"strong": 1.0},
              lone_strategy_effect=1.0, seat_effect=[0.3, 0, 0])
    mirror = make_synthetic_results(300, lineups=[("strong",) * 3], seed=75, **kw)
    field = make_synthetic_results(300, lineups=field_lineups, seed=76, **kw)
    return pd.concat([mirror.assign(run_id="mirror"), field.assign(run_id="field")],
                     ignore_index=True)


def test_report_flags_seats_tied_to_line_ups_and_compares_seats_within_line_ups(tmp_path):
    tied = _three_seat_runs([("strong", "weak", "strong"), ("weak", "strong", "weak")])
    build_report(tied, tmp_path / "tied", sections=["win_rates", "seat_advantage"])
    md = (tmp_path / "tied" / "report.md").read_text()
    assert md.count("Caution (3p): the seats saw different line-ups") == 2
    assert "uses only those 300 games" in md
    assert (tmp_path / "tied" / "fig_seat_win_rate_by_lineup.png").is_file()
    assert (tmp_path / "tied" / "table_seat_advantage_by_lineup.csv").is_file()
    rotations = [("strong", "strong", "weak"), ("strong", "weak", "strong"),
                 ("weak", "strong", "strong"), ("strong", "weak", "weak"),
                 ("weak", "strong", "weak"), ("weak", "weak", "strong")]
    build_report(_three_seat_runs(rotations), tmp_path / "rotated",
                 sections=["win_rates", "seat_advantage"])
    md = (tmp_path / "rotated" / "report.md").read_text()
    assert "Caution" not in md and "the first seat wins" in md
    assert "By line-up (the strategies at the table: 3 line-ups)" in md


def test_build_report_rejects_bad_input(tmp_path, small_run):
    with pytest.raises(ValueError, match="lack columns"):
        build_report(small_run.drop(columns=["winner"]), tmp_path)
    with pytest.raises(ValueError, match="unknown report sections"):
        build_report(small_run, tmp_path, sections=["nope"])


def test_markdown_table_formatting():
    frame = pd.DataFrame({"name": ["a|b", "c"], "n": [1200, 3], "p_value": [0.00001, 0.5],
                          "x": [0.12345, float("nan")], "flag": [True, False]})
    text = markdown_table(frame)
    lines = text.splitlines()
    assert lines[0] == "| name | n | p_value | x | flag |"
    assert lines[1] == "| :--- | ---: | ---: | ---: | :--- |"
    assert "a\\|b" in lines[2] and "1,200" in lines[2] and "1.0e-05" in lines[2]
    assert "0.123" in lines[2] and "yes" in lines[2]
    assert markdown_table(frame, max_rows=1).endswith("*1 more rows in the CSV file.*")


# ---------------------------------------------------------------------------------------------
# Byte-stable files
# ---------------------------------------------------------------------------------------------
_REBUILD = """
import sys
import matplotlib
import matplotlib.pyplot as plt
# A user's own style must not reach the shipped figures.
plt.style.use("dark_background")
matplotlib.rcParams["font.size"] = 19
from tajsim.games.tajmahal.analyses.synthetic import make_synthetic_results
from tajsim.reporting.report import build_report
args, report_args = {args!r}, {report_args!r}
build_report(make_synthetic_results(**args), sys.argv[1], **report_args)
"""


def test_a_report_written_again_in_another_process_is_byte_identical(full_report, tmp_path):
    out, _ = full_report
    again = tmp_path / "again"
    code = _REBUILD.format(args=SMALL_RUN, report_args=REPORT_ARGS)
    done = subprocess.run([sys.executable, "-c", code, str(again)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    first = {p.relative_to(out): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}
    second = {p.relative_to(again): p.read_bytes() for p in sorted(again.rglob("*"))
              if p.is_file()}
    assert sorted(first) == sorted(second)
    assert len(first) >= 20  # report.md/.html, every figure and table
    changed = [str(name) for name in first if first[name] != second[name]]
    assert changed == []
    # Nothing in a PNG names the library version or the date.
    for name, data in first.items():
        if name.suffix == ".png":
            assert b"Matplotlib" not in data and b"Software" not in data, name


def test_write_csv_rounds_floats_to_six_significant_digits(tmp_path):
    frame = pd.DataFrame({
        "name": ["a", "b", "c", "d"],
        "n": np.array([4000, 12, 0, 7], dtype=np.int64),
        "rate": [0.002559262197314957, 0.30000000000000004, -1e-19 * 0.0, float("nan")],
        "p_value": [7.703173316263742e-02, 1.234567e-177, 1.0, 0.5],
        "wins": [991.5, 1234567.0, 0.0, 2.0],
        "excess": [-0.0, -0.0020000000000000018, 6.844236363138495, -12345.678],
        "flag": [True, False, True, False],
    })
    write_csv(frame, tmp_path / "t.csv")
    assert (tmp_path / "t.csv").read_bytes() == (
        b"name,n,rate,p_value,wins,excess,flag\n"
        b"a,4000,0.00255926,0.0770317,991.5,0.0,True\n"
        b"b,12,0.3,1.23457e-177,1234567.0,-0.002,False\n"
        b"c,0,0.0,1.0,0.0,6.84424,True\n"
        b"d,7,,0.5,2.0,-12345.7,False\n")
    # Differences in the last bits of a computation do not reach the file.
    assert round_significant([6.844236363138495])[0] == round_significant([6.844236363138674])[0]
    assert list(round_significant([-0.0, -1e-300])) == [0.0, -1e-300]


def test_table_cells_never_show_a_signed_zero():
    assert format_cell(-0.0001, "excess") == "0.000"
    assert format_cell(-0.0, "ci_low") == "0.000"
    assert format_cell(-0.0004, "x") == "0.000" and format_cell(-0.0006, "x") == "-0.001"
    assert format_cell(991.5, "wins") == "991.5" and format_cell(1969.0, "wins") == "1,969"
    assert format_cell(12.3333333, "wins") == "12.333"
    assert signed(-0.04) == "0.0" and signed(0.04) == "0.0" and signed(-0.06) == "-0.1"
    assert signed(1.26) == "+1.3"


# ---------------------------------------------------------------------------------------------
# Figures for the page
# ---------------------------------------------------------------------------------------------
def _shown_sizes(html_text: str) -> list[tuple[int, float]]:
    return [(int(w), float(t)) for w, t in re.findall(
        r'<img [^>]*width="(\d+)"[^>]*data-min-text-px="([0-9.]+)"', html_text)]


def test_every_figure_fits_the_column_with_readable_text(full_report):
    out, _ = full_report
    sizes = _shown_sizes((out / "report.html").read_text())
    assert len(sizes) == len(EXPECTED_FIGURES)
    for width, text_px in sizes:
        # Not wider than the column, so shown at its own size: its text as drawn.
        assert width <= PAGE_WIDTH_PX and text_px >= MIN_TEXT_PX


@pytest.fixture(scope="module")
def four_player_counts() -> pd.DataFrame:
    return pd.concat([make_synthetic_results(120, n_players=p, seed=60 + p,
                                             strategies=("alpha", "beta", "gamma", "delta"),
                                             strategy_strength={"alpha": 0.8, "delta": -0.8})
                      for p in (2, 3, 4, 5)], ignore_index=True)


def _top_down(ax) -> list[str]:
    """The y tick labels of ``ax`` from the top row down."""
    ticks = sorted(zip(ax.get_yticks(), (t.get_text() for t in ax.get_yticklabels())),
                   reverse=True)
    return [label for _, label in ticks]


def test_panels_per_player_count_share_axes_and_order(four_player_counts, tmp_path,
                                                      monkeypatch):
    drawn = {}
    save = render.ReportContext.figure

    def keep(self, fig, name, what, frame):
        drawn[name] = [(ax.get_xlim(), ax.get_ylim(), _top_down(ax),
                        ax.get_subplotspec().get_geometry()[:2], ax.lines) for ax in fig.axes]
        save(self, fig, name, what, frame)

    monkeypatch.setattr(render.ReportContext, "figure", keep)
    build_report(four_player_counts, tmp_path, sections=["win_rates"])
    panels = drawn["win_rate_by_strategy"]
    assert len(panels) == 4
    # Two columns, two rows: more rows rather than more columns.
    assert {geometry for *_, geometry, _ in panels} == {(2, 2)}
    xlims = {xlim for xlim, *_ in panels}
    orders = {tuple(labels) for _, _, labels, *_ in panels}
    assert len(xlims) == 1 and len(orders) == 1
    (low, high), = xlims
    assert low < 0 < high  # the axis includes 0, with room for a marker at 0
    assert orders.pop()[0] == "alpha"  # the strongest on top
    for xlim, ylim, _, _, lines in panels:
        for line in lines:  # every marker inside the frame
            x, y = np.asarray(line.get_xdata(), float), np.asarray(line.get_ydata(), float)
            if line.get_marker() not in (None, "None", ""):
                assert np.all((x > xlim[0]) & (x < xlim[1]) & (y > ylim[0]) & (y < ylim[1]))
    seat_panels = drawn["win_rate_by_seat"]
    assert len({ylim for _, ylim, *_ in seat_panels}) == 1 and seat_panels[0][1][0] == 0
    html_text = (tmp_path / "report.html").read_text()
    for width, text_px in _shown_sizes(html_text):
        assert width <= PAGE_WIDTH_PX and text_px >= MIN_TEXT_PX
    plt.close("all")


def test_wide_tables_scroll_inside_the_column(full_report):
    out, _ = full_report
    html_text = (out / "report.html").read_text()
    assert html_text.count("<table>") == html_text.count('<div class="table-scroll')
    # The seat-advantage test table (24 columns) is marked wide: its first column stays.
    assert '<div class="table-scroll wide">' in html_text
    assert "A wide table: scroll it sideways." in html_text


# ---------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------
def _cli():
    from tajsim.cli.main import cli

    return cli


def test_cli_report_on_a_run_directory(tmp_path, small_run):
    run = tmp_path / "run"
    (run / "chunks").mkdir(parents=True)
    small_run.iloc[:600].to_parquet(run / "chunks" / "chunk-000000.parquet")
    small_run.iloc[600:].to_parquet(run / "chunks" / "chunk-000001.parquet")
    manifest = {"format": 1, "config": {"games": 300, "players": 4, "seed": 71,
                                        "edition": "2018"}, "strategies": ["alpha", "beta"]}
    (run / "manifest.json").write_text(json.dumps(manifest))
    out = tmp_path / "reports" / "ci"
    result = CliRunner().invoke(_cli(), ["report", str(run), "--out", str(out), "--title", "CI",
                                         "--section", "overview", "--section", "win_rates"])
    assert result.exit_code == 0, result.output
    md = (out / "report.md").read_text()
    assert md.startswith("# CI")
    captions = _captions(md)
    assert captions and all("n = 300 games" in c and "seed 71" in c for c in captions)
    assert (out / "report.html").is_file()


def test_cli_report_on_csv(tmp_path, small_run):
    csv = tmp_path / "results.csv"
    small_run.to_csv(csv, index=False)
    out = tmp_path / "out"
    result = CliRunner().invoke(_cli(), ["report", str(csv), "--out", str(out),
                                         "--section", "seat_advantage"])
    assert result.exit_code == 0, result.output
    assert "first seat wins" in (out / "report.md").read_text()


@pytest.mark.parametrize("kind", ["missing", "bad_columns", "not_parquet", "empty_dir"])
def test_cli_report_user_errors_are_one_line(tmp_path, kind):
    if kind == "missing":
        target = tmp_path / "nope.parquet"
    elif kind == "bad_columns":
        target = tmp_path / "bad.csv"
        target.write_text("a,b\n1,2\n")
    elif kind == "not_parquet":
        target = tmp_path / "bad.parquet"
        target.write_text("not parquet")
    else:
        target = tmp_path / "empty"
        target.mkdir()
    result = CliRunner().invoke(_cli(), ["report", str(target), "--out", str(tmp_path / "o")])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "expected" in lines[0]
