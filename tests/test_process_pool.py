"""Process mode keeps its pool warm between runs (issue 42): the second run in the process finds
its workers started and their kernels loaded, and gives the same aggregates as threads."""

from __future__ import annotations

from tajsim.running import executors
from tajsim.running.simulate import run_simulation

KWARGS = dict(games=60, players=4, strategies="random", seed=5, chunk_size=20, workers=2,
              records=False, progress=False)


def test_the_pool_is_reused_and_the_results_do_not_change():
    threads = run_simulation(**KWARGS, mode="threads").aggregates.to_bytes()
    try:
        first = run_simulation(**KWARGS, mode="processes")
        assert len(executors._WARM_POOLS) == 1
        [pool] = executors._WARM_POOLS.values()
        second = run_simulation(**KWARGS, mode="processes")
        assert list(executors._WARM_POOLS.values()) == [pool]  # the same processes
        assert first.aggregates.to_bytes() == second.aggregates.to_bytes() == threads
    finally:
        executors._shutdown_warm_pools()
    assert not executors._WARM_POOLS
