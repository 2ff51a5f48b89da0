"""Issue 13: every bad input is one line and exit status 2 (never a traceback from inside numba,
pyarrow or Dask), is refused before any game is played, and loses nothing; the commands share
their conventions (-s, -q, -v, a closed pipe)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest
from cli_checks import invoke, one_line_error

from tajsim.cli.main import COMMAND_MODULES, cli
from tajsim.games.registry import get_game
from tajsim.reporting.ladder import REPO, ladder_document
from tajsim.running.aggregates import format_summary
from tajsim.running.simulate import run_simulation

ROOT = Path(__file__).resolve().parent.parent
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))


def tajsim(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """The command in its own process (what a user's shell sees, destructors included)."""
    return subprocess.run([sys.executable, "-m", "tajsim", *args], env=ENV, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> dict:
    path = tmp_path_factory.mktemp("record") / "game.json"
    res = invoke("replay", "--players", "3", "--seed", "5", "--save", str(path), "-q")
    assert res.exit_code == 0, res.output
    return json.loads(path.read_text())


def write_record(folder: Path, data) -> Path:
    path = folder / "record.json"
    path.write_text(json.dumps(data))
    return path


# -- tracebacks where one line belongs ------------------------------------------------------------
@pytest.mark.parametrize("args,needle", [
    (["--seed", "99999999999999999999"], "'--seed': 99999999999999999999 is not in the range"),
    (["--seed", "-1"], "'--seed': -1 is not in the range"),
    (["--game-id", "-3"], "'--game-id': -3 is not in the range"),
    (["--setup-id", "-3"], "'--setup-id': -3 is not in the range"),
    (["--save", "/proc/tajsim-x.json"], "--save '/proc/tajsim-x.json' cannot be written"),
    (["--save", "no-such-folder/x.json"], "the folder 'no-such-folder' does not exist"),
])
def test_replay_bad_option_is_one_line_before_the_game(args, needle):
    res = invoke("replay", *args)
    one_line_error(res, needle)
    assert res.stdout == ""  # refused before anything was printed


@pytest.mark.parametrize("change,needle", [
    (lambda r: {**r, "actions": "abc"}, "'actions' is 'abc'; expected a list of action numbers"),
    (lambda r: [1, 2], "expected a JSON object, got list"),
    (lambda r: {**r, "actions": r["actions"][:40]}, "has 40 actions and ends before the game "
                                                    "is over"),
    (lambda r: {k: v for k, v in r.items() if k != "actions"}, "has no actions and ends before"),
    (lambda r: {**r, "actions": [*r["actions"][:5], 99999, *r["actions"][6:]]},
     "record action 6 of"),
    (lambda r: {**r, "actions": [*r["actions"], r["actions"][-1]]}, "the game is over"),
    (lambda r: {**r, "seed": 2**70}, "seed 1180591620717411303424 is out of range"),
])
def test_replay_bad_record_is_one_line_and_prints_no_game(tmp_path, record, change, needle):
    res = invoke("replay", "--record", str(write_record(tmp_path, change(record))))
    one_line_error(res, needle)
    assert res.stdout == ""  # an unfinished or illegal game is never printed as if played


@pytest.mark.parametrize("option", [["-p", "5"], ["--players", "4"], ["--seed", "3"],
                                    ["--game-id", "2"], ["-s", "greedy"], ["-e", "2000"]])
def test_replay_options_that_a_record_fixes_are_refused(tmp_path, record, option):
    res = invoke("replay", "--record", str(write_record(tmp_path, record)), *option)
    one_line_error(res, "and --record both given; expected one")


def test_replay_of_a_good_record_still_prints_it(tmp_path, record):
    res = invoke("replay", "--record", str(write_record(tmp_path, record)))
    assert res.exit_code == 0 and "Ranks:" in res.stdout


@pytest.mark.parametrize("address", ["not an address", "http://127.0.0.1:59999",
                                     "tcp://127.0.0.1:9"])
def test_bad_scheduler_is_one_line_without_a_hang(tmp_path, address):
    start = time.monotonic()
    proc = tajsim("simulate", "-n", "10", "--scheduler", address, "--out", str(tmp_path / "r"))
    assert time.monotonic() - start < 30  # no 10 s Client.__del__ hang on top of the start
    assert proc.returncode == 2
    assert proc.stderr.startswith("error: cannot reach the Dask scheduler") and \
        proc.stderr.count("\n") == 1, proc.stderr
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("args,needle", [
    (["tune", "--games", "-20"], "'--games': -20 is not in the range x>=1"),
    (["tune", "--games", "0"], "'--games': 0 is not in the range x>=1"),
    (["tune", "--seed", "-1"], "'--seed': -1 is not in the range"),
    (["tune", "--heldout", "0"], "'--heldout': 0 is not in the range x>=1"),
    (["tune", "--heldout", "3"], "--heldout 3 is not allowed; expected a multiple of the 4"),
    (["tune", "--heldout", "10"], "--heldout 10 is not allowed"),
    (["tune", "--popsize", "1"], "--popsize 1 is not allowed with CMA-ES; expected at least 4"),
    (["tune", "--popsize", "2"], "--popsize 2 is not allowed with CMA-ES"),
    (["tune", "--method", "de", "--popsize", "5"], "expected a multiple of the 16 tuned"),
    (["tune", "--field", ","], "--field ',' names no strategy"),
    (["tune", "--field", "balnced"], "unknown Taj Mahal strategy 'balnced'"),
    (["tune", "--write", "p.toml", "--name", "my preset"],
     "--name 'my preset' is not a preset name"),
    (["tune", "--write", "p.toml", "--name", "random"],
     "--name 'random' is a Taj Mahal strategy of another family"),
    (["tune", "--write", "nodir/p.toml"], "--write 'nodir/p.toml': the folder 'nodir' does not "
                                          "exist"),
    (["tune", "--name", "x"], "--name without --write"),
    (["bench", "-w", "0"], "--workers 0 is not allowed; expected 1 to"),
    (["bench", "-w", "1000"], "--workers 1000 is not allowed"),
    (["bench", "--seconds", "0"], "--seconds 0 is not allowed; expected a time above 0"),
    (["bench", "--seconds", "inf"], "--seconds inf is not allowed; expected a time above 0 "
                                    "and below a day"),
    (["bench", "--seconds", "-1"], "--seconds -1 is not allowed"),
    (["bench", "-n", "100", "--seconds", "2"], "--games and --seconds both given"),
    (["bench", "-n", "0"], "--games 0 is not allowed"),
    (["simulate", "-w", "1000"], "--workers 1000 is not allowed; expected 1 to"),
    (["ladder", "-o", "l.md", "-s", "balnced,greedy"], "unknown Taj Mahal strategy 'balnced'"),
    (["ladder", "-o", "l.md", "-s", "balanced"], "the ladder needs at least 2 strategies; got 1"),
    (["ladder", "-o", "l.md", "--search", "foo"], "unknown Taj Mahal strategy 'foo'"),
    (["ladder", "--random-games", "0"], "'--random-games': 0 is not in the range x>=1"),
    (["ladder", "--random-games", "-5"], "'--random-games': -5 is not in the range x>=1"),
    (["ladder", "-s", "balanced,greedy"], "--output is missing; expected the Markdown file to "
                                          "write the ladder into (the Taj Mahal document of a "
                                          "checkout: docs/strategies.md)"),
    (["ladder", "--output", "nodir/l.md"], "the folder 'nodir' does not exist"),
    (["ladder", "--output", "/proc/tajsim-l.md"], "cannot be written"),
    (["report", str(ROOT / "experiments"), "--out", "/proc/tajsim-report"],
     "cannot create the output directory '/proc/tajsim-report'"),
    (["run", str(ROOT / "experiments" / "default.toml"), "--out", "/proc/tajsim-run"],
     "cannot create the output directory '/proc/tajsim-run'"),
])
def test_bad_value_is_refused_before_any_game(args, needle, monkeypatch):
    """Each of these is refused before a game is played: playing would fail the test."""
    def no_play(*_a, **_k):
        raise AssertionError("a game was played before the bad value was refused")

    monkeypatch.setattr("tajsim.cli.tune.tune", no_play)
    monkeypatch.setattr("tajsim.running.benchmarking.estimate_game_seconds", no_play)
    monkeypatch.setattr("tajsim.reporting.ladder.matches._one_seat_table", no_play)
    monkeypatch.setattr("tajsim.running.simulate.make_executor", no_play)
    one_line_error(invoke(*args), needle)


def test_ladder_keeps_its_numbers_when_the_document_cannot_be_written(tmp_path, monkeypatch):
    out = tmp_path / "ladder.md"

    def fail(*_a, **_k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tajsim.cli.ladder.write_docs", fail)
    res = invoke("ladder", "-s", "balanced,greedy", "--search", "", "--random-games", "4",
                 "--field-games", "4", "--h2h-games", "4", "--python-games", "2",
                 "--output", str(out), "-q")
    one_line_error(res, f"cannot write {out} (No space left on device)",
                   f"the measured numbers are kept in {out.with_suffix('.json')}",
                   "--render-only")
    saved = json.loads(out.with_suffix(".json").read_text())
    assert saved["vs_random"] and saved["head_to_head"]
    monkeypatch.undo()
    res = invoke("ladder", "--render-only", str(out.with_suffix(".json")), "--output", str(out))
    assert res.exit_code == 0 and "balanced" in out.read_text()


def test_ladder_default_document_is_in_the_checkout_whatever_the_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = ladder_document(get_game("tajmahal"))
    assert path.is_absolute() and path == REPO / "docs" / "strategies.md"


# -- messages and conventions --------------------------------------------------------------------
def test_other_game_count_names_games_not_the_chunk_size(tmp_path):
    from tajsim.errors import UserError
    from tajsim.running.config import RunConfig
    from tajsim.running.store import RunStore

    out = tmp_path / "run"
    run_simulation(300, 2, "random", out=out, progress=False, workers=1)
    with pytest.raises(UserError) as info:
        RunStore(out).check(RunConfig.make(20_000, 2))  # its default chunk size differs too
    text = str(info.value)
    assert "(games: 300 there, 20000 now)" in text
    assert "another --out" in text and "--restart would delete its 300 finished games" in text
    assert "--restart to replace" not in text


def test_scaled_experiment_into_a_full_run_suggests_another_out(tmp_path):
    exp = tmp_path / "exp.toml"
    exp.write_text("[simulate]\ngames = 40\nplayers = 2\nseed = 3\n")
    out = tmp_path / "out"
    assert invoke("run", str(exp), "--out", str(out), "-q").exit_code == 0
    before = sorted(p.name for p in (out / "runs" / "main" / "chunks").iterdir())
    res = invoke("run", str(exp), "--out", str(out), "--scale", "0.5")
    # the quick look is refused before its runs are compared (the folder holds the full report)
    one_line_error(res, "holds the full report of experiment 'exp'",
                   "a run at --scale 0.5 would replace it", "expected --out DIR for a quick look")
    assert sorted(p.name for p in (out / "runs" / "main" / "chunks").iterdir()) == before


def test_run_with_zero_workers_leaves_no_folder(tmp_path):
    exp = tmp_path / "exp.toml"
    exp.write_text("[simulate]\ngames = 10\n")
    one_line_error(invoke("run", str(exp), "--out", str(tmp_path / "out"), "-w", "0"),
                   "--workers 0 is not allowed")
    assert not (tmp_path / "out").exists()
    from tajsim.errors import UserError
    from tajsim.running.experiments import load_experiment, simulate_experiment

    with pytest.raises(UserError, match="worker count 0"):  # the library checks it first too
        simulate_experiment(load_experiment(exp), tmp_path / "lib", workers=0)
    assert not (tmp_path / "lib").exists()


def test_numpy_warnings_do_not_leak_into_run_and_report(tmp_path):
    run = tmp_path / "tiny"
    assert invoke("simulate", "-n", "2", "-p", "2", "-s", "greedy,random", "--out", str(run),
                  "-q").exit_code == 0
    res = invoke("report", str(run), "--out", str(tmp_path / "rep"))
    assert res.exit_code == 0, res.output
    assert "RuntimeWarning" not in res.output and "warning" not in res.stderr
    # -v shows them, one line each with where they came from, never numpy's source echo
    verbose = invoke("report", str(run), "--out", str(tmp_path / "rep"), "-v")
    assert verbose.exit_code == 0
    numeric = [line for line in verbose.stderr.splitlines() if "RuntimeWarning" in line]
    assert numeric  # a 2-game report raises some (commodity values' sqrt of too few games)
    assert all(line.startswith("  RuntimeWarning: ") and line.endswith(")") for line in numeric)
    assert "se[keep]" not in verbose.output and "np.sqrt" not in verbose.output
    exp = tmp_path / "exp.toml"
    exp.write_text("[simulate]\ngames = 2\nplayers = 2\nstrategies = ['greedy', 'random']\n")
    res = invoke("run", str(exp), "--out", str(tmp_path / "exp"))
    assert res.exit_code == 0 and "RuntimeWarning" not in res.output


def _commands() -> dict[str, click.Command]:
    out = {}
    for name in COMMAND_MODULES:
        command = cli.get_command(click.Context(cli), name)
        if isinstance(command, click.Group):
            for sub, subcommand in command.commands.items():
                out[f"{name} {sub}"] = subcommand
        else:
            out[name] = command
    return out


def test_short_flags_mean_the_same_everywhere():
    for name, command in _commands().items():
        for param in command.params:
            if "-s" in getattr(param, "opts", []):
                assert param.name == "strategies", name
            if "--seed" in getattr(param, "opts", []):
                assert param.opts == ["--seed"] and not param.secondary_opts, name
            for flag, meaning in (("-q", "quiet"), ("-v", "verbose"), ("-p", "players"),
                                  ("-n", "games"), ("-w", "workers"), ("-g", "game")):
                if flag in getattr(param, "opts", []):
                    assert param.name == meaning, (name, flag)


def test_every_command_that_plays_or_reads_games_has_quiet_and_verbose():
    commands = _commands()
    for name in ("simulate", "run", "replay", "report", "bench", "tune", "ladder",
                 "board show", "board validate"):
        opts = {o for p in commands[name].params for o in getattr(p, "opts", [])}
        assert {"-q", "--quiet", "-v", "--verbose"} <= opts, name


def test_verbose_says_more(tmp_path):
    out = tmp_path / "run"
    res = invoke("simulate", "-n", "120", "-p", "2", "--chunk-size", "50", "-w", "1",
                 "--out", str(out), "-v")
    assert res.exit_code == 0, res.output
    err = res.stderr
    assert "validated: tajmahal 2018, 2 players, strategies random" in err
    assert "120 games in 3 chunks of 50" in err and "workers: 1 (serial)" in err
    assert f"{out}: 0 of 3 chunks finished and verified" in err
    for k, (a, b) in enumerate(((0, 49), (50, 99), (100, 119))):
        assert f"chunk-{k:06d}: games {a}-{b} stored after" in err
    assert f"{out}: rows in chunks/, sums in aggregates/, summary.csv" in err
    quiet = invoke("simulate", "-n", "120", "-p", "2", "--chunk-size", "50", "-w", "1",
                   "--out", str(out), "-q")
    assert quiet.exit_code == 0 and quiet.output == ""
    again = invoke("simulate", "-n", "120", "-p", "2", "--chunk-size", "50", "-w", "1",
                   "--out", str(out), "-v")
    assert f"{out}: 3 of 3 chunks finished and verified" in again.stderr
    report = invoke("report", str(out), "--out", str(tmp_path / "rep"), "-v")
    assert "read 120 games (240 rows)" in report.stderr
    assert "complete run: 3 of 3 chunks (120 games), every chunk verified" in report.stderr


def test_summary_header_keeps_whole_part_names():
    res = run_simulation(20, 2, "random", progress=False, workers=1)
    header = format_summary(res.summary(), 20).splitlines()[3]
    for part in ("palace", "connection", "commodity", "bonus", "special", "cards"):
        assert f" {part}" in header
    assert "connec " not in header and "commod " not in header


def test_a_closed_pipe_is_a_normal_end():
    proc = subprocess.Popen([sys.executable, "-m", "tajsim", "replay"], env=ENV, cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline()  # `tajsim replay | head -1`
    proc.stdout.close()
    err = proc.stderr.read()
    # nothing on stderr but, from a cold cache, the notice that the kernels compile
    assert proc.wait(timeout=120) == 0
    assert [line for line in err.splitlines() if not line.startswith("compiling ")] == [], err


def test_the_documented_way_to_read_a_run_directory():
    for doc in ("README.md", "docs/results-schema.md", "docs/running.md"):
        text = (ROOT / doc).read_text()
        assert "tajsim.load_results(" in text, doc


@pytest.mark.parametrize("args,needle", [
    (["replay", "-p", "2", "-s", "greedy", "--seed", "3"],
     "Taj Mahal, 2 players, strategies greedy,greedy, seed 3, game 0, setup 0"),
    (["tune", "--generations", "1", "--popsize", "4", "--games", "8", "--heldout", "8",
      "--field", "greedy"], "validated: tune balanced (16 weights) against greedy"),
    (["board", "validate", str(ROOT / "tajsim" / "games" / "tajmahal" / "engine" / "data" /
                                "board.toml")], "read as a Taj Mahal board file"),
])
def test_verbose_says_more_on_the_other_commands(args, needle):
    plain, verbose = invoke(*args), invoke(*args, "-v")
    assert plain.exit_code == verbose.exit_code == 0, verbose.output
    assert needle in verbose.stderr and needle not in plain.output
