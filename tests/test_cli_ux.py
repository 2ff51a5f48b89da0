"""Issue 23, as a user meets it: one command for "does A beat B?" (``tajsim compare``), the Python
API for every game, commands that agree with each other (report's default --out and
--list-sections, replay's seed and seats, strategies' column labels, board show), help and docs
that say what the code does (the chunk count, make report), and never going silent (compile
notices, progress outside a terminal)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from cli_checks import invoke, one_line_error
from numba import njit
from scipy import stats as sps

import tajsim
from tajsim.analysis.compare import compare_strategies
from tajsim.analysis.stats import paired_difference
from tajsim.cli.compare import rotation_games
from tajsim.cli.options import Echo
from tajsim.errors import UserError
from tajsim.games.registry import GAMES, get_game
from tajsim.running import compiling, simulate
from tajsim.running.compiling import (
    announce_compiles,
    announce_unless_told,
    compile_message,
    stderr_line,
)
from tajsim.running.config import RunConfig
from tajsim.running.simulate import LineProgress, progress_mode, run_simulation

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))


def stdout_lines(res) -> list[str]:
    return res.stdout.strip().splitlines()


# -- tajsim compare ---------------------------------------------------------------------------
def test_compare_prints_both_differences_with_intervals_p_and_n():
    res = invoke("compare", "balanced", "random", "--game", "maharani", "-n", "40", "-p", "2",
                 "-w", "1", "--seed", "3")
    assert res.exit_code == 0, res.output
    out = res.stdout
    assert out.startswith("balanced (A) against random (B): Maharani")
    assert "2 players" in out and "40 games" in out and "seed 3" in out
    win = next(line for line in stdout_lines(res) if line.startswith("win share"))
    score = next(line for line in stdout_lines(res) if line.startswith("score"))
    # A's value, B's value, the difference with its interval, the p-value
    assert re.search(r"points \[[+-]\d+\.\d, [+-]\d+\.\d\]\s+p [=<] ", win), win
    assert re.search(r"\[[+-][\d,.]+, [+-][\d,.]+\]\s+p [=<] ", score), score
    assert "n = 40 games (40 player-games of A, 40 of B)" in out
    assert "verdict: balanced wins more often than random" in out


def test_compare_rounds_up_to_whole_rotations_and_plays_a_field():
    res = invoke("compare", "balanced", "greedy", "--game", "maharani", "-n", "10", "-p", "3",
                 "--field", "random", "-w", "1")
    assert res.exit_code == 0, res.output
    assert rotation_games(3, 3) == 3
    assert "one A, one B and 1 random" in res.stdout
    assert "12 games (10 rounded up to whole seat rotations)" in res.stdout
    assert "n = 12 games (12 player-games of A, 12 of B)" in res.stdout
    # without a field, 3 seats and 2 strategies: [A,B,A] and [B,A,B] in every rotation
    assert rotation_games(3, 2) == 6 and rotation_games(4, 2) == 2


def test_compare_maharaja_compares_palaces_and_gold_not_its_ranking_key():
    res = invoke("compare", "hoarder", "random", "--game", "maharaja", "-n", "4", "-p", "2",
                 "-w", "1")
    assert res.exit_code == 0, res.output
    rows = [line.split()[0] for line in stdout_lines(res)[2:5]]
    assert rows == ["win", "palaces", "gold"], res.stdout
    assert not any(line.startswith("score") for line in stdout_lines(res))


@pytest.mark.parametrize("args,needle", [
    (("balanced", "balanced"), "A and B are both 'balanced'"),
    (("greedy", "greedy:temperature=0"), "A and B are both 'greedy' ('greedy' and "
                                         "'greedy:temperature=0' play alike)"),
    (("balanced", "random", "-p", "3", "--field", "random:temperature=0"),
     "--field 'random:temperature=0' plays as A or B"),
    (("balanced", "random", "-p", "2", "--field", "greedy"), "expected 3 or more players"),
    (("balanced", "random", "-p", "3", "--field", "random"), "--field 'random' is A or B"),
    (("balanced", "random", "-n", "0"), "--games 0 is not allowed; expected 1 to 200,000"),
    (("balanced", "nosuch"), "unknown Taj Mahal strategy 'nosuch'"),
    (("balanced", "random", "-p", "9"), "player count 9"),
])
def test_compare_refuses_bad_input_in_one_line(args, needle):
    one_line_error(invoke("compare", *args), needle)


def _frame(rows: list[tuple[int, int, str, bool, int]]) -> pd.DataFrame:
    frame = pd.DataFrame(rows, columns=["game_id", "seat", "strategy", "winner", "score"])
    frame["n_players"] = frame.groupby("game_id")["seat"].transform("size")
    return frame


def test_compare_strategies_pairs_a_and_b_within_games():
    # Three 2-player games: A wins, A wins, B wins; a fourth game without B is left out.
    frame = _frame([(0, 0, "A", True, 10), (0, 1, "B", False, 6),
                    (1, 0, "B", False, 7), (1, 1, "A", True, 9),
                    (2, 0, "A", False, 5), (2, 1, "B", True, 8),
                    (3, 0, "A", True, 4), (3, 1, "C", False, 3)])
    table = compare_strategies(frame, a="A", b="B").set_index("measure")
    win, score = table.loc["win"], table.loc["score"]
    assert win.n == 3 and win.n_a == 3 and win.n_b == 3
    assert win.a_mean == pytest.approx(2 / 3) and win.difference == pytest.approx(1 / 3)
    expected = sps.ttest_rel([10, 9, 5], [6, 7, 8])
    assert score.difference == pytest.approx(1.0)
    assert score.p_value == pytest.approx(expected.pvalue)
    assert (score.ci_low, score.ci_high) == pytest.approx(expected.confidence_interval())
    by_default = compare_strategies(frame)  # the first two strategies: A, then B
    assert by_default.equals(compare_strategies(frame, a="A", b="B"))
    with pytest.raises(ValueError, match="itself"):
        compare_strategies(frame, a="A", b="A")
    with pytest.raises(ValueError, match="'D' is not in the results"):
        compare_strategies(frame, a="A", b="D")


def test_paired_difference_without_variation():
    assert paired_difference([1, 2, 3], [0, 1, 2])[:4] == (1.0, 1.0, 1.0, 0.0)
    diff, low, high, p, n = paired_difference([1.0], [0.0])
    assert diff == 1.0 and n == 1 and np.isnan(low) and np.isnan(p)


# -- the Python API for every game ------------------------------------------------------------
def test_the_python_api_plays_every_game():
    taj = tajsim.Game(n_players=3, edition="2018", seed=7)  # as the README has always shown
    assert type(taj) is get_game("tajmahal").game_class and taj.n_players == 3
    assert tajsim.Game.editions == ("2018", "2000")  # the class's attributes, as before
    for name, spec in GAMES.items():
        fewest = min(low for low, _high in spec.players.values())
        by_function = tajsim.game(name, fewest, seed=7)
        by_class = tajsim.Game(fewest, game=name, seed=7)
        assert type(by_function) is type(by_class) is spec.game_class
        assert isinstance(by_function, tajsim.Game)
        assert by_function.legal_actions() == by_class.legal_actions()
        by_function.apply(by_function.legal_actions()[0])
    with pytest.raises(UserError, match="unknown game 'chess'"):
        tajsim.game("chess")


def test_readme_shows_the_api_for_every_game():
    readme = (ROOT / "README.md").read_text()
    assert 'tajsim.game("maharani"' in readme and 'game="maharaja"' in readme


# -- commands that agree --------------------------------------------------------------------
@pytest.fixture()
def tiny_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for game, name in (("tajmahal", "taj1"), ("maharani", "mhr1")):
        res = invoke("simulate", "-g", game, "-n", "6", "-p", "2", "--out", name, "-w", "1",
                     "-q")
        assert res.exit_code == 0, res.output
    return tmp_path


def test_report_writes_to_a_default_out_as_run_does(tiny_runs):
    res = invoke("report", "taj1")
    assert res.exit_code == 0, res.output
    assert (tiny_runs / "reports" / "taj1" / "report.md").is_file()
    assert (tiny_runs / "reports" / "taj1" / "report.html").is_file()
    res = invoke("report", "mhr1/")
    assert res.exit_code == 0, res.output
    assert (tiny_runs / "reports" / "maharani" / "mhr1" / "report.md").is_file()


def test_report_lists_the_sections_it_advertises(tiny_runs):
    help_text = invoke("report", "--help").stdout
    assert "--list-sections" in help_text
    listed = invoke("report", "mhr1", "--list-sections")  # the run's game
    assert listed.exit_code == 0, listed.output
    names = [line.split()[0] for line in stdout_lines(listed)[1:]]
    from tajsim.reporting.sections import section_names

    assert names == section_names("maharani")
    assert "tolls" in invoke("report", "--list-sections", "--game", "maharaja").stdout
    one_line_error(invoke("report"), "RESULTS is missing")


def test_replay_prints_the_seed_and_each_seats_strategy(tmp_path):
    res = invoke("replay", "--game", "maharani", "-p", "3", "-s", "balanced:zone=2,random,greedy",
                 "--seed", "5", "--save", str(tmp_path / "g.json"))
    assert res.exit_code == 0, res.output
    lines = stdout_lines(res)
    who = ("Maharani, 3 players, seed 5, game 0, setup 0: P0 balanced:zone=2, P1 random, "
           "P2 greedy")
    assert lines[0] == who and who in lines[-2:]
    again = invoke("replay", "--record", str(tmp_path / "g.json"))
    assert stdout_lines(again)[0] == who
    taj = invoke("replay", "-p", "2", "--seed", "4")
    assert stdout_lines(taj)[0] == ("Taj Mahal 2018, 2 players, seed 4, game 0, setup 0: "
                                    "P0 random, P1 random")


def test_strategies_labels_its_columns():
    for game in GAMES:
        lines = stdout_lines(invoke("strategies", "--game", game))
        assert re.match(r"^id  name\s+description; below it, its parameters = defaults", lines[0])
        assert re.match(r"^ 0  random ", lines[1])


def test_board_show_prints_one_summary_line_for_every_game(tmp_path):
    for game, spec in GAMES.items():
        out = tmp_path / f"{game}.png"
        res = invoke("board", "show", "--game", game, "--out", str(out), "--dpi", "30")
        if not spec.board_picture:  # a game without a board says so in one line
            assert res.exit_code == 2 and "has no board picture" in res.output
            assert not out.exists()
            continue
        assert res.exit_code == 0, res.output
        lines = stdout_lines(res)
        assert len(lines) == 1 and lines[0] == f"{out}: {spec.components.default().summary()}"
        assert out.stat().st_size > 0


# -- help and docs that match the code ------------------------------------------------------
def test_the_chunk_count_is_described_as_the_code_does_it():
    config = RunConfig.make(games=100_000, players=4, strategies="greedy,random")
    assert config.n_chunks == 64  # the README's example run
    readme = (ROOT / "README.md").read_text()
    assert "complete run: 64 of 64 chunks (100,000 games)" in readme
    assert RunConfig.make(games=20_000, players=4, strategies="random",
                          records=False).n_chunks == 19
    # a run that keeps its rows: chunks of at least 0.2 s (issue 42)
    assert RunConfig.make(games=20_000, players=4, strategies="random").n_chunks == 5
    help_text = " ".join(invoke("simulate", "--help").stdout.split())
    assert "1/64 of the run, so 64 chunks" in help_text and "19 chunks" in help_text
    assert "5 chunks" in help_text
    running = " ".join((ROOT / "docs" / "running.md").read_text().split())
    assert "1/64 of the run, so 64 chunks" in running and "19 chunks" in running
    for text in (readme, help_text, running):
        assert "1/32" not in text and "at least 64 chunks" not in text


def test_make_report_names_both_files():
    makefile = (ROOT / "Makefile").read_text()
    assert "report.md" in makefile and "report.html" in makefile


# -- never silent -----------------------------------------------------------------------------
def _fresh_kernel(module: str):
    """A new numba dispatcher defined in ``module`` (never compiled, never cached)."""
    namespace = {"__name__": module}
    exec("def probe(x):\n    return x + 1\n", namespace)  # noqa: S102 - a fixed source
    return njit(namespace["probe"])


def test_a_real_compilation_is_announced_once_and_quiet_says_nothing(capsys, monkeypatch):
    try:
        Echo(quiet=False)  # what every command does first
        kernel = _fresh_kernel("tajsim.games.maharani.probe")
        kernel(1)
        kernel(2)  # compiled: nothing to say
        err = capsys.readouterr().err
        assert err.splitlines() == [compile_message("Maharani")]
        assert "first run after an install or update" in err
        monkeypatch.setattr(compiling, "BURST_GAP_S", 0.0)
        Echo(quiet=True)
        _fresh_kernel("tajsim.games.maharaja.probe")(1)
        assert capsys.readouterr().err == ""
        Echo(quiet=False)
        _fresh_kernel("tajsim.engine.probe")(1)  # a generic kernel of its own
        assert capsys.readouterr().err.splitlines() == [compile_message(None)]
    finally:
        announce_compiles(None)


def test_the_library_announces_while_it_runs_unless_a_command_decided(capsys, monkeypatch):
    monkeypatch.setattr(compiling, "_decided_by_command", False)  # a notebook, a script
    stop = announce_unless_told(stderr_line)
    _fresh_kernel("tajsim.games.tajmahal.probe")(1)
    stop()
    assert capsys.readouterr().err.splitlines() == [compile_message("Taj Mahal")]
    _fresh_kernel("tajsim.games.tajmahal.probe")(1)  # after the run: nothing
    assert capsys.readouterr().err == ""
    announce_compiles(None)  # a command with -q decided: the library says nothing either
    stop = announce_unless_told(stderr_line)
    _fresh_kernel("tajsim.games.maharaja.probe")(1)
    stop()
    assert capsys.readouterr().err == ""


def test_a_cached_kernel_says_nothing():
    # The first run may compile (and says so); the second loads everything from the cache.
    cmd = [sys.executable, "-m", "tajsim", "replay", "--game", "maharani", "-p", "2"]
    subprocess.run(cmd, env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=600)
    again = subprocess.run(cmd, env=ENV, cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0 and again.stderr == "", again.stderr


def test_progress_mode_by_where_stderr_goes(monkeypatch, tmp_path):
    assert progress_mode(True) == "bar" and progress_mode(False) == "off"
    with open(tmp_path / "log", "w") as log:
        monkeypatch.setattr(sys, "stderr", log)  # a log file
        assert progress_mode(None) == "lines"
        # A Jupyter kernel: stderr is no terminal either, but tqdm.auto draws a notebook bar.
        shell = type("ZMQInteractiveShell", (), {})()
        fake = type(sys)("IPython")
        fake.get_ipython = lambda: shell  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "IPython", fake)
        assert progress_mode(None) == "bar"


def test_line_progress_says_nothing_early_then_every_tenth_and_the_end():
    now = [0.0]
    lines: list[str] = []
    bar = LineProgress(chunks=20, games=2000, write=lines.append, clock=lambda: now[0])

    def chunk(at: float) -> int:
        now[0] = at
        bar.update(100)
        return len(lines)

    assert [chunk(1.0), chunk(2.0), chunk(3.0)] == [0, 0, 0]  # a short run prints nothing
    assert chunk(12.0) == 1  # 4 of 20 chunks, past 10 s
    assert lines[0] == ("simulating: played 4 of 20 chunks (400 of 2,000 games), 12 s, about "
                        "48 s left")  # at the pace so far
    assert chunk(12.0) == 1  # 5 of 20: the same tenth
    assert chunk(14.0) == 1  # 6 of 20: a new tenth, but 2 s after the last line
    assert chunk(18.0) == 2  # 7 of 20: a tenth not yet said, 6 s after the last line
    assert lines[-1] == ("simulating: played 7 of 20 chunks (700 of 2,000 games), 18 s, about "
                         "33 s left")
    assert chunk(50.0) == 3  # 8 of 20: a new tenth
    assert chunk(81.0) == 4  # 9 of 20: the same tenth, but 31 s after the last line
    assert lines[-1] == ("simulating: played 9 of 20 chunks (900 of 2,000 games), 81 s, about "
                         "2 min left")
    bar.close()
    assert len(lines) == 4  # close() repeats nothing the last line said...
    assert chunk(81.0) == 4 and chunk(82.0) == 4  # 10 and 11: a burst, no line
    bar.close()  # ...but ends with the last state
    assert len(lines) == 5
    assert lines[-1] == ("simulating: played 11 of 20 chunks (1,100 of 2,000 games), 82 s, about "
                         "67 s left")


def test_line_progress_counts_the_time_left_from_the_games_played_here():
    from tajsim.running.simulate import duration_text

    now = [0.0]
    lines: list[str] = []
    # a resumed run: 1,000 of 4,000 games read back, then 500 played in 600 s
    bar = LineProgress(chunks=40, games=4000, chunks_done=10, games_done=1000,
                       write=lines.append, clock=lambda: now[0])
    for i in range(5):
        now[0] = 120.0 * (i + 1)
        bar.update(100)
    bar.close()
    assert lines[-1].endswith("(1,500 of 4,000 games), 600 s, about 50 min left")
    assert [duration_text(s) for s in (0.4, 89, 91, 5369, 5400, 11_100)] == [
        "0 s", "89 s", "2 min", "89 min", "1 h 30 min", "3 h 05 min"]
    done = LineProgress(chunks=1, games=10, write=lines.append, clock=lambda: now[0])
    now[0] += 20.0
    done.update(10)
    done.close()
    assert lines[-1].endswith("(10 of 10 games), 20 s")  # nothing left to say


def test_simulate_in_a_log_prints_progress_lines(capsys, monkeypatch):
    monkeypatch.setattr(simulate, "PROGRESS_QUIET_S", 0.0)
    monkeypatch.setattr(simulate, "PROGRESS_GAP_S", 0.0)
    run_simulation(40, 2, "random", chunk_size=10, workers=1, records=False)
    err = capsys.readouterr().err  # pytest's capture is not a terminal: a log
    assert "simulating: played 4 of 4 chunks (40 of 40 games)" in err
    run_simulation(40, 2, "random", chunk_size=10, workers=1, records=False, progress=False)
    assert "simulating" not in capsys.readouterr().err
