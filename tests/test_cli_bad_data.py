"""Bad input found by probing the commands (a review of 2026-11-30): each is one line naming
the bad value and what was expected, exit status 2, refused before anything is played or
written; and a report of too few games says its seat test cannot be computed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_checks import invoke, one_line_error

from tajsim.running.run_reading import load_results


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    run = tmp_path_factory.mktemp("run") / "run"
    assert invoke("simulate", "-n", "4", "-p", "4", "--out", str(run), "-q", "-w",
                  "1").exit_code == 0
    return run, load_results(run)


@pytest.mark.parametrize("column,value,needle", [
    ("score", "abc", "column score holds 'abc' (1 row); expected finite numbers"),
    ("score", np.nan, "column score holds nan (1 row); expected finite numbers"),
    ("seat", 7, "column seat holds 7 (1 row); expected whole numbers from 0 to n_players - 1"),
    ("rank", 0, "column rank holds 0 (1 row); expected whole numbers from 1 to n_players"),
    ("game_id", 1.5, "column game_id holds 1.5 (1 row); expected whole numbers from 0"),
    ("winner", "maybe", "column winner holds 'maybe' (1 row); expected true or false"),
])
def test_report_refuses_bad_values_before_writing(results, tmp_path, column, value, needle):
    _, frame = results
    bad = frame.copy()
    bad[column] = bad[column].astype(object)
    bad.loc[1, column] = value
    path = tmp_path / "bad.csv"
    bad.to_csv(path, index=False)
    out = tmp_path / "out"
    one_line_error(invoke("report", str(path), "-o", str(out), "-q"), needle,
                   "(docs/results-schema.md)")
    assert not out.exists()


def test_report_reads_numbers_and_winners_written_as_text(results, tmp_path):
    """A hand-made file's numbers as text and winners as 1.0 / 0.0 or padded "True" read as
    the run's own: the same report tables."""
    run, frame = results
    text = frame.copy()
    for column in ("game_id", "n_players", "seat", "rank"):
        text[column] = text[column].astype(str)
    text["winner"] = np.where(frame["winner"], " True", "0.0")
    path = tmp_path / "text.parquet"
    text.to_parquet(path)
    for source, out in ((run, "a"), (path, "b")):
        assert invoke("report", str(source), "-o", str(tmp_path / out), "-q",
                      "--section", "win_rates").exit_code == 0
    a, b = (pd.read_csv(tmp_path / out / "table_win_rates_by_seat.csv") for out in "ab")
    pd.testing.assert_frame_equal(a, b)


def test_a_refused_file_leaves_no_mark_in_an_empty_folder(results, tmp_path):
    _, frame = results
    path = tmp_path / "bad.csv"
    frame.assign(score=np.nan).to_csv(path, index=False)
    out = tmp_path / "empty"
    out.mkdir()
    one_line_error(invoke("report", str(path), "-o", str(out), "-q"), "column score holds nan")
    assert out.is_dir() and not any(out.iterdir())


def test_report_refuses_games_of_the_wrong_size(results, tmp_path):
    _, frame = results
    path = tmp_path / "short.csv"
    frame[frame["game_id"] != 2].assign(n_players=9).to_csv(path, index=False)
    one_line_error(invoke("report", str(path), "-o", str(tmp_path / "out"), "-q"),
                   "games do not have exactly n_players rows")


def test_a_tiny_report_says_its_seat_test_cannot_be_computed(results, tmp_path):
    run, _ = results
    assert invoke("report", str(run), "-o", str(tmp_path / "rep"), "-q").exit_code == 0
    text = (tmp_path / "rep" / "report.md").read_text()
    assert "equal seats within line-ups: not computable at n = 4 games" in text
    assert "p =  (" not in text


def test_an_analysis_argument_is_checked_before_any_game(tmp_path):
    exp = tmp_path / "x.toml"
    exp.write_text('analyses = [{name = "win_rates_by_strategy", bogus = 3}]\n'
                   "[simulate]\ngames = 4\nplayers = 2\n")
    out = tmp_path / "out"
    one_line_error(invoke("run", str(exp), "-o", str(out), "-q"),
                   "analyses[0]: analysis 'win_rates_by_strategy': bad arguments {'bogus': 3}")
    assert not out.exists()


def test_replay_refuses_an_empty_strategy_and_a_record_of_the_wrong_table(tmp_path):
    one_line_error(invoke("replay", "-q", "-s", "random,,"), "bad strategy list 'random,,'")
    record = tmp_path / "r.json"
    assert invoke("replay", "-q", "-p", "2", "-s", "random", "--save", str(record)).exit_code \
        == 0
    data = json.loads(record.read_text())
    data["strategies"] = ["random"]
    record.write_text(json.dumps(data))
    one_line_error(invoke("replay", "-q", "--record", str(record)),
                   "'strategies' ['random'] for 2 players; expected 2 strategy texts")


def test_other_refusals_name_what_is_wrong(tmp_path):
    res = invoke("strategies", "--plugins", str(tmp_path / "nope"))
    one_line_error(res, "is not a folder; expected a folder of pure-Python strategy files")
    assert res.stdout == ""  # refused before the table is printed
    one_line_error(invoke("report", str(tmp_path), "-o", str(tmp_path / "o"), "--config",
                          str(tmp_path)), "is a folder; expected a JSON or TOML file")
    ladder = tmp_path / "l.json"
    ladder.write_text('{"a": 1}')
    one_line_error(invoke("ladder", "--render-only", str(ladder), "-o", str(tmp_path / "l.md")),
                   "unknown key 'a'; expected the JSON `tajsim ladder` writes")
    ladder.write_text("[1, 2]")
    one_line_error(invoke("ladder", "--render-only", str(ladder), "-o", str(tmp_path / "l.md")),
                   "a JSON list, not an object")
