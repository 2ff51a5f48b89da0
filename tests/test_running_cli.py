"""``tajsim simulate`` on the command line: summary, files, bad input, Ctrl-C and resume."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from tajsim.cli.main import cli
from tajsim.running.run_reading import load_results
from tajsim.running.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def invoke(*args: str):
    return CliRunner().invoke(cli, ["simulate", *args], catch_exceptions=False)


def test_simulate_prints_summary_and_writes_parquet(tmp_path):
    out = tmp_path / "run"
    res = invoke("--games", "120", "--players", "3", "--strategies", "greedy,random",
                 "--seed", "5", "--out", str(out), "--chunk-size", "50", "--workers", "2")
    assert res.exit_code == 0, res.output
    assert "by strategy:" in res.stdout and "by seat:" in res.stdout
    assert "greedy" in res.stdout and "seat 2" in res.stdout and "[" in res.stdout
    assert sorted(p.name for p in (out / "chunks").iterdir()) == [
        "chunk-000000.parquet", "chunk-000001.parquet", "chunk-000002.parquet"]
    df = load_results(out)
    expected = simulate(120, 3, "greedy,random", seed=5)
    pd.testing.assert_frame_equal(df, expected)
    assert (out / "summary.csv").exists()


def test_no_records_keeps_only_aggregates(tmp_path):
    out = tmp_path / "agg"
    res = invoke("-n", "100", "-p", "2", "--no-records", "--out", str(out), "--chunk-size", "40",
                 "--quiet")
    assert res.exit_code == 0 and res.stdout == ""
    assert not list((out / "chunks").iterdir())
    assert len(list((out / "aggregates").glob("chunk-*.npz"))) == 3


def test_fixed_seats_and_rotation_flags(tmp_path):
    out = tmp_path / "rotated"
    res = invoke("-n", "20", "-p", "2", "-s", "greedy,random", "--rotate", "-w", "1", "--out",
                 str(out), "-q")
    assert res.exit_code == 0
    from tajsim.running.run_reading import load_results

    seats = load_results(out).groupby(["strategy", "seat"], observed=True).size()
    assert seats.to_dict() == {("greedy", 0): 10, ("greedy", 1): 10, ("random", 0): 10,
                               ("random", 1): 10}  # each strategy in each seat, half the games
    res = invoke("-n", "20", "-p", "4", "-s", "greedy,random", "--fixed-seats")
    assert res.exit_code == 2
    assert "2 strategies for 4 players with fixed seats; expected 4 (one per seat)" in res.output


@pytest.mark.parametrize("args,needle", [
    (["-s", "nonsense"], "unknown Taj Mahal strategy 'nonsense'; expected one of: random"),
    (["-p", "7"], "player count 7"),
    (["-p", "2", "-e", "2000"], "expected 3 to 5"),
    (["-s", "random,random,random", "--fixed-seats"],
     "3 strategies for 4 players with fixed seats"),
    (["-s", "random,random,random,random,random"], "expected at most 4"),
    (["--board", "missing.toml"], "board file 'missing.toml' not found"),
    (["--games", "0"], "game count 0"),
    (["--workers", "0"], "--workers 0 is not allowed; expected 1 to"),
    (["--workers", "1000"], "--workers 1000 is not allowed; expected 1 to"),
])
def test_bad_input_exits_2_with_one_line(args, needle):
    res = invoke("-n", "10", *args)
    assert res.exit_code == 2
    assert res.stderr.count("\n") == 1 and res.stderr.startswith("error: ")
    assert needle in res.stderr
    assert "Traceback" not in res.output


def test_bad_component_file(tmp_path):
    bad = tmp_path / "board.toml"
    bad.write_text("this is = = not toml")
    res = invoke("-n", "10", "--board", str(bad))
    assert res.exit_code == 2 and str(bad) in res.stderr and res.stderr.count("\n") == 1


def test_other_run_in_out_dir_is_refused(tmp_path):
    out = tmp_path / "run"
    assert invoke("-n", "30", "-p", "2", "--out", str(out), "-q").exit_code == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    res = invoke("-n", "30", "-p", "3", "--out", str(out), "-q")
    assert res.exit_code == 2 and "holds a different run (players: 2 there, 3 now)" in res.stderr
    assert before == {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}


#: Runs ``tajsim`` with Ctrl-C pressed the moment chunk 3 is stored: SIGINT raised by a hook
#: on the store at a known chunk count, so the test has no timing race. ``lost`` raises it
#: inside a finalizer, where Python prints the KeyboardInterrupt as "Exception ignored" and
#: drops it (the run used to go on to its last chunk and exit 0). SIGINT gets Python's own
#: handler first, as in a terminal, whatever disposition the test runner passes on.
CTRL_C_AT_CHUNK_3 = """
import signal, sys
signal.signal(signal.SIGINT, signal.default_int_handler)
from tajsim.running.store import RunStore

how = sys.argv.pop(1)

class Finalizer:
    def __del__(self):
        signal.raise_signal(signal.SIGINT)

write = RunStore.write

def write_then_ctrl_c(self, result):
    write(self, result)
    if len(list(self.aggregates.glob("chunk-*.npz"))) == 3:
        if how == "lost":
            Finalizer()  # collected at once: the KeyboardInterrupt is lost in its __del__
        else:
            signal.raise_signal(signal.SIGINT)

RunStore.write = write_then_ctrl_c
from tajsim.cli.main import cli
sys.argv[0] = "tajsim"
cli()
"""


@pytest.mark.parametrize("how", ["raised", "lost"])
def test_ctrl_c_keeps_finished_chunks_and_rerun_finishes(tmp_path, how):
    out = tmp_path / "run"
    args = ["simulate", "-n", "6000", "-p", "4", "-s", "greedy,random", "--seed", "3",
            "--chunk-size", "100", "--out", str(out), "-w", "1"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))
    proc = subprocess.run([sys.executable, "-c", CTRL_C_AT_CHUNK_3, how, *args], env=env,
                          capture_output=True, text=True, timeout=300)
    err = proc.stderr
    assert proc.returncode == 130, err
    assert err.splitlines()[-1] == (f"interrupted: the finished chunks are kept in {out}; run "
                                    "the same command again to finish")
    if how == "raised":
        assert "Traceback" not in err
    assert len(list((out / "aggregates").glob("chunk-*.npz"))) == 3  # stopped at once
    assert not (out / ".lock").exists()
    res = CliRunner().invoke(cli, args[:-2] + ["-w", "2", "-q"], catch_exceptions=False)
    assert res.exit_code == 0
    df = load_results(out)
    assert len(df) == 6000 * 4 and not df.duplicated(["game_id", "seat"]).any()
    pd.testing.assert_frame_equal(df.head(800), simulate(200, 4, "greedy,random", seed=3))


def test_run_from_other_engine_code_is_refused_then_restarted(tmp_path):
    """A run made by other engine code cannot be resumed (its chunks would mix two rule
    sets); the refusal names --restart, which plays it again from scratch."""
    import json

    out = tmp_path / "run"
    args = ("--games", "60", "--players", "3", "--seed", "2", "--out", str(out), "-q")
    assert invoke(*args).exit_code == 0
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["code"] = "0123456789abcdef"  # as if written by another tajsim version
    (out / "manifest.json").write_text(json.dumps(manifest))
    res = CliRunner().invoke(cli, ["simulate", *args])
    assert res.exit_code == 2 and "other tajsim engine code" in res.output
    assert "--restart" in res.output
    res = invoke(*args, "--restart")
    assert res.exit_code == 0, res.output
    assert json.loads((out / "manifest.json").read_text())["code"] != "0123456789abcdef"
    pd.testing.assert_frame_equal(load_results(out), simulate(60, 3, "random", seed=2))


def test_restart_deletes_only_tajsim_runs(tmp_path):
    keep = tmp_path / "notes"
    keep.mkdir()
    (keep / "thesis.txt").write_text("not a run")
    res = CliRunner().invoke(cli, ["simulate", "--games", "10", "--out", str(keep),
                                   "--restart"])
    assert res.exit_code == 2 and "nothing was deleted" in res.output
    assert (keep / "thesis.txt").exists()
    # a typo is refused before anything is deleted
    run = tmp_path / "run"
    assert invoke("--games", "20", "--out", str(run), "-q").exit_code == 0
    res = CliRunner().invoke(cli, ["simulate", "--games", "20", "--out", str(run), "-s",
                                   "balnced", "--restart"])
    assert res.exit_code == 2 and "balnced" in res.output
    assert (run / "manifest.json").exists()
    # a run still being written (live lock) is not deleted
    (run / ".lock").write_text(f"{socket.gethostname()} {os.getpid()}")
    res = CliRunner().invoke(cli, ["simulate", "--games", "20", "--out", str(run), "--restart"])
    assert res.exit_code == 2 and "another tajsim run" in res.output
    assert (run / "manifest.json").exists()
    (run / ".lock").unlink()
    # nor a run directory holding someone's files; hidden files survive a restart
    (run / "notes.txt").write_text("mine")
    res = CliRunner().invoke(cli, ["simulate", "--games", "20", "--out", str(run), "--restart"])
    assert res.exit_code == 2 and "notes.txt" in res.output and (run / "manifest.json").exists()
    (run / "notes.txt").unlink()
    (run / ".keep").write_text("mine")
    assert invoke("--games", "30", "--out", str(run), "-q", "--restart").exit_code == 0
    assert (run / ".keep").read_text() == "mine"
    assert len(load_results(run)) == 30 * 4
    res = CliRunner().invoke(cli, ["simulate", "--games", "10", "--restart"])
    assert res.exit_code == 2 and "restart needs an output directory" in res.output
