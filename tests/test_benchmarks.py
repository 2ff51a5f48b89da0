"""Smoke tests of the benchmark library, ``tajsim bench`` and ``benchmarks/*.py --check``.

Tiny sizes: these check that the benchmarked path is verified (a kernel that skips games or
returns other records than ``simulate()`` fails), not how fast anything is.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from tajsim.games.fingerprint import game_fingerprint
from tajsim.running.benchmarking import (
    Batch,
    check_batch,
    make_batch,
    profile_batch,
    time_batch,
    time_modes,
)

REPO = Path(__file__).resolve().parent.parent
BENCH = REPO / "benchmarks"


@pytest.fixture(scope="module")
def batch() -> Batch:
    return make_batch(12, 4, "random", seed=3)


def test_check_passes_on_the_real_kernels(batch):
    assert check_batch(batch, threads=2) == []


def test_check_catches_records_that_differ_from_simulate(batch, monkeypatch):
    real_run = Batch.run

    def wrong(self, threads=1, mode="prange", out=None):
        results, setups = real_run(self, threads, mode, out)
        results["score"][0] += 1  # a "fast" engine that gets one score wrong
        return results, setups

    monkeypatch.setattr(Batch, "run", wrong)
    problems = check_batch(batch, threads=1)
    assert problems and "simulate()" in problems[0]


def test_timing_rejects_a_kernel_that_skips_games(batch, monkeypatch):
    def lazy(self, threads=1, mode="prange", out=None):
        return out if out is not None else self.outputs()  # plays nothing: very fast

    monkeypatch.setattr(Batch, "run", lazy)
    with pytest.raises(AssertionError, match="wrong"):
        time_batch(batch, 1, repeat=1, warmup=0)


def test_prange_is_timed_after_the_other_modes(batch, monkeypatch):
    """An OpenMP pool that has run keeps spinning on the other cores; no one-core or thread
    run may come after it."""
    real_run = Batch.run
    order = []

    def recording(self, threads=1, mode="prange", out=None):
        order.append("serial" if threads <= 1 else mode)
        return real_run(self, threads, mode, out)

    monkeypatch.setattr(Batch, "run", recording)
    time_modes(batch, 2, ("serial", "prange", "threads"), repeat=2, warmup=1)
    first_prange = order.index("prange")
    assert set(order[first_prange:]) == {"prange"}
    assert order.count("serial") >= 3 and order.count("threads") >= 3


def test_timings_and_profile_are_consistent(batch):
    timings = time_modes(batch, 2, ("serial", "threads"), repeat=1, warmup=0)
    assert set(timings) == {"serial", "threads"}
    assert all(t.work == batch.games and t.best("wall") > 0 for t in timings.values())
    prof = profile_batch(batch, repeat=1, warmup=0)
    pg = prof["per_game"]
    assert pg["actions"] == pg["decisions"] > 12 * 4
    assert pg["policy_decisions"] <= pg["decisions"]
    assert set(prof["parts_us"]) >= {"setup", "apply", "legal_bid", "policy", "records"}
    # replay bookkeeping: every decision is in exactly one phase
    assert np.isclose(sum(pg[f"decisions_{k}"] for k in ("bid", "palace", "crown", "display")),
                      pg["decisions"])


def test_bench_cli_check():
    from tajsim.cli.bench import command

    result = CliRunner().invoke(command, ["--games", "16", "--repeat", "1", "--warmup", "0",
                                          "--workers", "2", "--check", "-p", "3",
                                          "--profile"])
    assert result.exit_code == 0, result.output
    assert "games/s" in result.output and "check passed" in result.output
    # the random seats' draw skips the list the profile's legal_* rows time: said so
    assert "legal_bid" in result.output and "without a list" in result.output


def test_throughput_script_check_quick(tmp_path):
    env = dict(os.environ)
    cmd = [sys.executable, str(BENCH / "bench_throughput.py"), "--quick", "--check",
           "--players", "4", "--strategies", "random", "--games", "40", "--check-games", "10",
           "--repeat", "1", "--warmup", "0", "--results", str(tmp_path)]
    out = subprocess.run(cmd, env=env, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "check passed" in out.stderr
    with (tmp_path / "throughput.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {r["mode"] for r in rows} >= {"one core"}
    assert all(float(r["games_per_s"]) > 0 and r["checked"] == "True" for r in rows)
    assert {r["code"] for r in rows} == {game_fingerprint("tajmahal")}  # the code measured
    sys.path.insert(0, str(BENCH))
    try:
        import render

        text = render.render(tmp_path)
    finally:
        sys.path.remove(str(BENCH))
    assert render.BEGIN in text and "`random`" in text


def test_ab_trees_renamed_copy_imports_only_itself(tmp_path):
    """``ab_trees.py --in-process`` loads each tree as a renamed package: the copy's modules
    must never import the installed ``tajsim`` (the two trees would then share code)."""
    sys.path.insert(0, str(BENCH))
    try:
        import ab_trees
    finally:
        sys.path.remove(str(BENCH))
    ab_trees.renamed_copy(REPO, "tajsim_ab_t", tmp_path)
    code = ("import sys\n"
            "import tajsim_ab_t.games.tajmahal.strategies.heuristic\n"
            "import tajsim_ab_t.running.benchmarking\n"
            "assert not [m for m in sys.modules if m == 'tajsim' or m.startswith('tajsim.')]\n")
    env = dict(os.environ, PYTHONPATH=str(tmp_path), NUMBA_DISABLE_JIT="1")
    subprocess.run([sys.executable, "-c", code], env=env, cwd=tmp_path, check=True)


def test_compile_profile_lists_the_batch_kernel_and_repeated_signatures():
    """``compile_profile.py`` on the cheapest game: its empty cache compiles the batch kernel,
    which must head the list, and the repeated-signature section is printed."""
    cmd = [sys.executable, str(BENCH / "compile_profile.py"), "--game", "nothanks",
           "-p", "3", "-s", "random", "--top", "5"]
    out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert "s CPU (4 games, empty numba cache)" in lines[0]
    table = lines[lines.index(next(x for x in lines if "kernel (inclusive" in x)) + 1:]
    assert table[0].split()[-1].endswith("play.nb.play_batch_nb")
    assert any(x.startswith("tajsim kernels compiled for more than one signature")
               for x in lines)


def test_bench_gpu_line_ups_and_coverage_in_the_simulator(tmp_path):
    """``bench_gpu.py`` builds its heuristic line-up from each game's own strategies (it used
    Taj Mahal's names for every game), and ``--coverage --check`` compares every strategy the
    GPU plays with the CPU's records: in numba-cuda's simulator on the cheapest game, with
    speeds that mean nothing."""
    sys.path.insert(0, str(BENCH))
    try:
        import bench_gpu
    finally:
        sys.path.remove(str(BENCH))
    from tajsim.games.registry import GAMES

    for name, spec in GAMES.items():
        lineup = bench_gpu.heuristic_lineup(spec)
        assert lineup and all(spec.strategies.get(s) for s in lineup), name
        groups = bench_gpu.gpu_strategy_groups(spec, 4)
        played = {s for g in groups for s in g}
        assert played == {s.name for s in spec.strategies.all()
                          if "search" not in s.tags and "cpu_only" not in s.tags}
    assert tuple(bench_gpu.heuristic_lineup(GAMES["tajmahal"])) == bench_gpu.HEURISTIC_LINEUP
    cmd = [sys.executable, str(BENCH / "bench_gpu.py"), "--simulator", "--game", "nothanks",
           "--players", "3", "--quick", "--check", "--coverage", "--cpu-threads", "1",
           "--results", str(tmp_path)]
    out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    assert "check passed: GPU records == CPU records" in out.stderr
    with (tmp_path / "gpu_simulator.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {r["device"] for r in rows} == {"simulator", "cpu x1", "simulator coverage"}
    assert all(r["records_identical"] == "True" for r in rows if r["device"] == "simulator")
    assert all(r["coverage_identical"] == "True" for r in rows
               if r["device"] == "simulator coverage")
