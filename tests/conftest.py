"""The tests' one generic conftest: how many pytest-xdist workers ``make test`` starts.

Each game's tests live in ``tests/games/<name>/`` with their own fixtures (a ``conftest.py``
there) and helpers (``<name>_helpers.py``, imported by that module name); the tests at this
level test the generic layers (every registered game, or one game's records as sample data).
"""

from __future__ import annotations

import os
from pathlib import Path

#: More workers compile the same kernels again and hold them in memory again, for little gain.
MAX_TEST_WORKERS = 4


def pytest_xdist_auto_num_workers(config) -> int:
    """``make test``'s ``-n auto``: the cores this process may use (affinity, and a cgroup CPU
    quota where one is set: psutil, which pytest-xdist asks, counts the host's cores in a
    container), at most :data:`MAX_TEST_WORKERS`."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cores = cores or 1
    try:
        quota, period = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if quota != "max":
            cores = min(cores, max(1, int(quota) // int(period)))
    except (OSError, ValueError):
        pass
    return max(1, min(cores, MAX_TEST_WORKERS))
