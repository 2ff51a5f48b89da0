"""A Dask scheduler lost in the middle of a run (its process killed): one line saying how many
chunks are kept and how to resume, never Dask's tracebacks; the same command then finishes the
run with the same results."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from tajsim.errors import UserError
from tajsim.running.run_reading import IncompleteRunWarning, load_results
from tajsim.running.simulate import run_simulation, simulate

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
KWARGS = dict(games=1200, players=4, strategies="balanced,greedy", seed=5, chunk_size=40,
              progress=False)

#: A scheduler with one in-process worker, in a process of its own that the test kills.
CLUSTER = """
import sys, time
from distributed import LocalCluster
cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp://",
                       dashboard_address=None, silence_logs=50)
print(cluster.scheduler_address, flush=True)
time.sleep(600)
"""


@pytest.fixture
def scheduler():
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p))
    proc = subprocess.Popen([sys.executable, "-c", CLUSTER], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True)
    try:
        address = proc.stdout.readline().strip()
        assert address.startswith("tcp://"), address
        yield proc, address
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_lost_scheduler_keeps_the_finished_chunks_and_resumes(scheduler, tmp_path):
    proc, address = scheduler
    out = tmp_path / "run"
    stored: list[int] = []

    def kill_after_three(index: int) -> None:
        stored.append(index)
        if len(stored) == 3:
            proc.kill()  # the scheduler and its worker are gone
            proc.wait(timeout=30)

    with pytest.raises(UserError) as info:
        run_simulation(**KWARGS, scheduler=address, out=out, on_chunk=kill_after_three)
    text = str(info.value)
    assert text.startswith(f"lost the Dask scheduler {address}") and "\n" not in text
    kept = len(list((out / "aggregates").glob("chunk-*.npz")))
    assert kept >= 3 and f"the {kept} finished chunks of 30 are kept in {str(out)!r}" in text
    assert "run the same command again to resume" in text
    with pytest.warns(IncompleteRunWarning, match=f"incomplete run: {kept} of 30 chunks"):
        load_results(out)
    res = run_simulation(**KWARGS, workers=1, out=out)  # resumed here, without the cluster
    assert res.chunks_run == 30 - kept
    reference = simulate(**{k: v for k, v in KWARGS.items() if k != "progress"}, workers=1)
    pd.testing.assert_frame_equal(load_results(out), reference)
