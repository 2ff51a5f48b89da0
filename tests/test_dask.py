"""The distributed engine: a real ``LocalCluster`` gives the local run's results, byte for byte,
and a failed chunk (an exception, or a worker process that dies) is retried and counted once."""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd
import pytest

from tajsim.errors import UserError
from tajsim.running.executors import DaskExecutor
from tajsim.running.simulate import run_simulation

distributed = pytest.importorskip("distributed")

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
KWARGS = dict(games=240, players=4, strategies="greedy,random", seed=17, chunk_size=40,
              progress=False)


@pytest.fixture(scope="module")
def client():
    path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), path) if p)
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None, silence_logs=40)
    client = distributed.Client(cluster, set_as_default=False)
    try:
        yield client
    finally:
        client.close()
        cluster.close()
        os.environ["PYTHONPATH"] = path


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    out = tmp_path_factory.mktemp("local") / "run"
    return run_simulation(**KWARGS, workers=1, out=out), out


def _same_files(a: Path, b: Path) -> None:
    for kind in ("chunks", "aggregates"):
        fa, fb = sorted((a / kind).iterdir()), sorted((b / kind).iterdir())
        assert [p.name for p in fa] == [p.name for p in fb]
        for x, y in zip(fa, fb):
            assert x.read_bytes() == y.read_bytes(), x.name


def test_cluster_equals_local_run(client, local, tmp_path):
    local_result, local_out = local
    res = run_simulation(**KWARGS, scheduler=client, out=tmp_path / "dask")
    pd.testing.assert_frame_equal(res.records, local_result.records)
    _same_files(local_out, tmp_path / "dask")
    # the address form, as the command line uses it
    res2 = run_simulation(**KWARGS, scheduler=client.scheduler.address, records=False)
    assert res2.aggregates.to_bytes() == local_result.aggregates.to_bytes()


@pytest.mark.parametrize("mode", ["raise", "exit"])
def test_failed_chunk_is_retried_and_counted_once(client, local, tmp_path, mode):
    local_result, local_out = local
    fault = {"marker": str(tmp_path / "fault"), "chunk": 2, "mode": mode}
    executor = DaskExecutor(client, fault=fault)
    res = run_simulation(**KWARGS, out=tmp_path / "run", executor=executor)
    assert (tmp_path / "fault").exists()  # the fault did happen
    assert res.aggregates.games == KWARGS["games"]
    pd.testing.assert_frame_equal(res.records, local_result.records)
    _same_files(local_out, tmp_path / "run")


def test_unreachable_scheduler_is_one_line(tmp_path):
    with pytest.raises(UserError, match="cannot reach the Dask scheduler 'tcp://127.0.0.1:9'"):
        run_simulation(10, 2, "random", scheduler="tcp://127.0.0.1:9", out=tmp_path / "x")
    assert not (tmp_path / "x").exists()
