"""Benchmark library shared by ``tajsim bench`` and the ``benchmarks/`` scripts, for any game.

Everything here times the *same* compiled kernels the runner uses (the game's ``play_batch`` and
``play_batch_parallel``) on inputs built the way the runner builds them
(:class:`~tajsim.running.config.RunConfig`, ``lineup_codes``), with compilation and
warm-up excluded and fixed seeds, so a figure can be reproduced and checked:

* :func:`make_batch` / :class:`Batch`: the kernel inputs of ``games`` games of a run;
* :func:`time_batch`: wall time of repeated runs (one core, numba threads or Python threads);
* :func:`check_batch`: the benchmarked path against the normal path (``simulate()``), serial
  against parallel, so a fast but wrong engine cannot pass;
* :func:`profile_batch`: where a game's time goes (setup, legal actions by phase, applying
  actions, the policy, the records), from compiled harness kernels timed by difference (made
  for each game from its kernels by :func:`profile_kernels`);
* the machine description lives in :mod:`tajsim.running.machine`.

One module a job, all re-exported here: ``batch``, ``timing``, ``checking``, ``harness``
(the compiled profiling kernels) and ``profiling``.
"""

from __future__ import annotations

from tajsim.running.benchmarking.batch import (
    Batch,
    make_batch,
)
from tajsim.running.benchmarking.checking import (
    check_batch,
    finished_problems,
    records_digest,
)
from tajsim.running.benchmarking.harness import (
    profile_kernels,
)
from tajsim.running.benchmarking.profiling import (
    RECORD_REPS,
    Recording,
    apply_costs,
    decision_stats,
    profile_batch,
    record_batch,
)
from tajsim.running.benchmarking.timing import (
    Timing,
    compile_batch,
    estimate_game_seconds,
    time_batch,
    time_call,
    time_interleaved,
    time_modes,
)

__all__ = [
    "Batch",
    "RECORD_REPS",
    "Recording",
    "Timing",
    "apply_costs",
    "check_batch",
    "compile_batch",
    "decision_stats",
    "estimate_game_seconds",
    "finished_problems",
    "make_batch",
    "profile_batch",
    "profile_kernels",
    "record_batch",
    "records_digest",
    "time_batch",
    "time_call",
    "time_interleaved",
    "time_modes",
]
