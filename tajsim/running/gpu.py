"""Chunks played on a CUDA GPU (``--device gpu``): the executor and the checks that come first.

The device never changes a run: the chunk size, the seeds and the records are those of a CPU
run (the batch kernel is the game's own source compiled for the GPU, :mod:`tajsim.engine.gpu`),
so the device is not part of a run's configuration or manifest, and a run begun on one device
can be resumed on the other. A GPU wants far more games per launch than a chunk holds, so one
launch plays many chunks; their rows and aggregates are then built on the CPU, in threads.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from tajsim.engine.gpu import check_device
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.running.chunk import ChunkResult, build_chunk, play_chunks_gpu
from tajsim.running.config import RunConfig, RunTask

if TYPE_CHECKING:  # the pools are imported when a run starts
    from concurrent.futures import Executor

#: Where games may be played.
DEVICES = ("cpu", "gpu")
#: Games per launch of the batch kernel (whole chunks; at least one chunk): enough threads to
#: fill a large GPU several times over, few enough that a launch's records stay small.
GAMES_PER_LAUNCH = 1 << 19


def check_device_name(device: Any) -> str:
    """``device`` as ``"cpu"`` or ``"gpu"``; else a one-line ``UserError``."""
    text = str(device).strip().lower() if device is not None else "cpu"
    if text not in DEVICES:
        raise UserError(f"unknown device {device!r}; expected one of: {', '.join(DEVICES)}")
    return text


def check_gpu_run(config: RunConfig) -> None:
    """Refuse, in one line, what the GPU cannot play: a game without GPU kernels, a search
    strategy (they stay on the CPU), or a strategy the game's GPU kernels do not play (tagged
    ``cpu_only``, or a ``net`` where the wing has no ``choose_net``); then check that
    numba-cuda sees a GPU."""
    spec = get_game(config.game)
    if spec.kernels.gpu is None:
        raise UserError(f"{spec.title} has no GPU kernels; expected --device cpu")
    for label in config.labels:
        strategy, _ = spec.strategies.parse(label)
        if "search" in strategy.tags:
            playable = ", ".join(s.name for s in spec.strategies.all()
                                 if "search" not in s.tags and "cpu_only" not in s.tags)
            raise UserError(f"strategy {label!r} is a search strategy, which plays on the CPU "
                            f"only; expected one of {playable} with --device gpu, or "
                            "--device cpu")
        if "cpu_only" in strategy.tags or ("net" in strategy.tags
                                           and spec.kernels.gpu.choose_net is None):
            raise UserError(f"strategy {label!r} plays on the CPU only ({spec.title}'s GPU "
                            "batch kernel does not play it); expected --device cpu")
    check_device()


def launch_groups(config_task: RunTask, indices: Sequence[int],
                  games_per_launch: int = GAMES_PER_LAUNCH) -> list[list[int]]:
    """Chunk indices grouped into launches of at most ``games_per_launch`` games (whole
    chunks, at least one per launch), in the order given."""
    size = config_task.chunk_size
    per = max(1, games_per_launch // max(1, size))
    todo = list(indices)
    return [todo[i:i + per] for i in range(0, len(todo), per)]


class GpuExecutor:
    """Plays chunks on the GPU, many per launch; ``workers`` CPU threads build their rows."""

    def __init__(self, workers: int = 1, games_per_launch: int = GAMES_PER_LAUNCH) -> None:
        self.workers = max(1, int(workers))
        self.games_per_launch = games_per_launch
        self._pool: Executor | None = None

    def run(self, task: RunTask, indices: Sequence[int]) -> Iterator[ChunkResult]:
        from concurrent.futures import ThreadPoolExecutor

        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="tajsim-gpu")
        for group in launch_groups(task, indices, self.games_per_launch):
            played = play_chunks_gpu(task, group)
            futures = [self._pool.submit(build_chunk, task, index, *arrays)
                       for index, arrays in zip(group, played, strict=True)]
            for fut in futures:
                yield fut.result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
