"""Where a game's time goes (setup, legal actions by phase, applying actions, the policy, the
records), from the harness kernels timed by difference."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from tajsim.running.benchmarking.batch import Batch
from tajsim.running.benchmarking.checking import finished_problems
from tajsim.running.benchmarking.harness import profile_kernels
from tajsim.running.benchmarking.timing import time_interleaved

RECORD_REPS = 8


def apply_costs(batch: Batch, rec: Recording, max_snapshots: int = 4000, repeat: int = 5,
                clock: str = "thread") -> dict[str, tuple[float, float]]:
    """Cost of ``apply_action`` by decision phase: ``{phase: (ns per call, calls per game)}``,
    from state snapshots: each is applied 16 times to a cache-hot copy; the cost is (copy +
    apply) minus (copy only), best of ``repeat``. Indicative: the sum over phases need not
    match the replayed total exactly (different cache state)."""
    spec = batch.spec
    h = profile_kernels(spec)
    total = int(rec.n_actions.sum())
    cap = min(total, max_snapshots)
    states = np.zeros((cap, spec.state_size), np.int64)
    kinds = np.zeros(cap, np.int64)
    acts = np.zeros(cap, np.int64)
    n = h.snapshot(batch.comp, batch.players, batch.edition, batch.seed, batch.game_ids,
                   batch.setup_ids, rec.actions, rec.n_actions, states, kinds, acts)
    # games whose every action was captured (for calls per game)
    done = np.searchsorted(np.cumsum(rec.n_actions), n, side="right")
    scratch = np.zeros(spec.state_size, np.int64)
    saved = np.zeros(spec.state_size, np.int64)
    reps = 16
    out = {}
    for kind, name in enumerate(spec.phase_names):
        count = int((kinds[:n] == kind).sum())
        if count == 0:
            out[name] = (0.0, 0.0)
            continue
        funcs: dict[str, Callable[[], Any]] = {
            "copy": partial(h.apply_snapshots, batch.comp, states, kinds, acts, n, kind, False,
                            reps, saved, scratch),
            "apply": partial(h.apply_snapshots, batch.comp, states, kinds, acts, n, kind, True,
                             reps, saved, scratch),
        }
        t = time_interleaved(funcs, count * reps, repeat, 1)
        ns = 1e9 * (t["apply"].best(clock) - t["copy"].best(clock)) / (count * reps)
        per_game = count / max(1, done) if done else float("nan")
        out[name] = (ns, per_game)
    return out


@dataclass
class Recording:
    """The actions of every game of a batch (from :func:`record_batch`)."""

    actions: np.ndarray  # int64[G, spec.max_game_length]
    n_actions: np.ndarray  # int64[G]
    seconds: float  # wall time of the recording run (a full play of the batch)


def record_batch(batch: Batch) -> Recording:
    """Play ``batch`` once on this thread, recording the actions of every game."""
    # The spec's bound on a game's length: a game past it broke the rules, not the buffer.
    actions = np.zeros((batch.games, batch.spec.max_game_length), np.int64)
    n_actions = np.zeros(batch.games, np.int64)
    t0 = time.perf_counter()
    profile_kernels(batch.spec).record_games(*batch.args(), actions, n_actions,
                                             *batch.switches())
    seconds = time.perf_counter() - t0
    if batch.games:
        batch.spec.check_game_length(int(n_actions.max()), "profiling harness")
    return Recording(actions, n_actions, seconds)


def decision_stats(batch: Batch, rec: Recording) -> np.ndarray:
    """int64[max_players + 1, n_phases, 3] decision counts of the recorded games (see the
    harness's ``replay``)."""
    spec = batch.spec
    n_phases = len(spec.phase_names)
    stats = np.zeros((spec.max_players + 1, n_phases, 3), np.int64)
    check = profile_kernels(spec).replay(
        batch.comp, batch.players, batch.edition, batch.seed, batch.game_ids, batch.setup_ids,
        rec.actions, rec.n_actions, (1 << n_phases) - 1, stats)
    if check < -500_000_000:
        raise AssertionError("replaying the recorded actions did not end the games")
    return stats


def profile_batch(batch: Batch, repeat: int = 5, warmup: int = 1,
                  clock: str = "thread") -> dict[str, Any]:
    """Where the time of ``batch`` goes, per game (microseconds), on one core.

    Components, differences of the best of ``repeat`` runs of harness kernels timed
    round-robin (``clock="thread"``: CPU time of this thread, robust to other processes):

    * ``setup``: ``start_game`` (deal, shuffles) and the seat tables;
    * ``apply``: every recorded action replayed with ``apply_action`` (minus setup);
    * ``legal_<phase>``: ``legal_actions`` at the decisions of that phase (replay with
      legal actions listed in that phase only, minus the replay without);
    * ``policy``: the full play (``start_game`` + ``play_out``) minus the replay with
      every legal list: the strategies' decisions plus the play loop;
    * ``records``: ``write_records`` (replayed games whose records are written
      ``RECORD_REPS`` times, minus none, divided by ``RECORD_REPS``).

    The parts are differences of noisy times: on a busy machine a small part can come out
    slightly negative; the total (``play_batch``) is measured directly.

    Also counts decisions per game by phase and the mean number of legal actions.
    """
    spec = batch.spec
    h = profile_kernels(spec)
    phases = spec.phase_names
    n_phases = len(phases)
    rec = record_batch(batch)
    stats = decision_stats(batch, rec)
    args = batch.args()
    base = (batch.comp, batch.players, batch.edition, batch.seed, batch.game_ids,
            batch.setup_ids, rec.actions, rec.n_actions)
    scratch = np.zeros((spec.max_players + 1, n_phases, 3), np.int64)
    out = batch.outputs()
    G = batch.games
    funcs: dict[str, Callable[[], Any]] = {
        "setup": lambda: h.setup_only(*args),
        "replay": lambda: h.replay(*base, 0, scratch),
        "replay_legal": lambda: h.replay(*base, (1 << n_phases) - 1, scratch),
        # the kernels compiled for the line-up's strategy families, as the runner runs them
        "play": lambda: h.play_only(*args, *batch.switches()),
        "batch": lambda: spec.kernels.play_batch(*args, *out, *batch.switches()),
        "records_0": lambda: h.records_only(*args, rec.actions, rec.n_actions, *out, 0),
        f"records_{RECORD_REPS}": lambda: h.records_only(*args, rec.actions, rec.n_actions,
                                                         *out, RECORD_REPS),
    }
    for k, name in enumerate(phases):
        funcs[f"replay_legal_{name}"] = partial(h.replay, *base, 1 << k, scratch)
    timings = time_interleaved(funcs, G, repeat, warmup)
    problems = finished_problems(batch, *out)
    if problems:
        raise AssertionError(f"profiled batch is wrong: {problems[0]}")
    us = {key: 1e6 * t.best(clock) / G for key, t in timings.items()}
    parts = {
        "setup": us["setup"],
        "apply": us["replay"] - us["setup"],
        **{f"legal_{name}": us[f"replay_legal_{name}"] - us["replay"] for name in phases},
        "policy": us["play"] - us["replay_legal"],
        "records": (us[f"records_{RECORD_REPS}"] - us["records_0"]) / RECORD_REPS,
    }
    all_seats = stats[spec.max_players]
    per_game = {
        "actions": float(rec.n_actions.mean()),
        "decisions": float(all_seats[:, 0].sum()) / G,
        "policy_decisions": float(all_seats[:, 1].sum()) / G,
    }
    for k, name in enumerate(phases):
        per_game[f"decisions_{name}"] = float(all_seats[k, 0]) / G
        per_game[f"legal_per_decision_{name}"] = (
            float(all_seats[k, 2]) / all_seats[k, 0] if all_seats[k, 0] else 0.0)
    apply_kinds = apply_costs(batch, rec, repeat=repeat, clock=clock)
    return {"us_per_game": us["batch"], "parts_us": parts, "raw_us": us,
            "per_game": per_game, "stats": stats, "apply_kinds": apply_kinds,
            "spread": {key: t.spread(clock) for key, t in timings.items()}}
