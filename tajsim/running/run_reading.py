"""Reading a stored run: how complete it is (``run_status``), its rows (``load_results``) and
its aggregates (``load_aggregates``), every finished chunk verified first."""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from tajsim.errors import UserError
from tajsim.running.aggregates import Aggregates
from tajsim.running.chunk_check import (
    RunLayout,
    Scan,
    bad_chunks_message,
    manifest_mismatch_message,
)
from tajsim.running.store import RunStore


class IncompleteRunWarning(UserWarning):
    """A run directory read before all its chunks were finished (one line: how many)."""


@dataclass(frozen=True)
class RunStatus:
    """How much of a stored run is finished (``run_status``; ``frame.attrs["run_status"]`` of
    ``load_results`` holds ``as_dict()``)."""

    out: str
    chunks: int
    chunks_finished: int
    games: int
    games_finished: int
    writer: str | None = None  # "host H, pid P" of a live writer's lock

    @property
    def complete(self) -> bool:
        return self.chunks_finished == self.chunks

    def describe(self) -> str:
        """``incomplete run: 7 of 8 chunks (1,750 of 2,000 games)`` (or ``complete run: ...``),
        and who is still writing it."""
        if self.complete:
            text = f"complete run: {self.chunks} of {self.chunks} chunks ({self.games:,} games)"
        else:
            text = (f"incomplete run: {self.chunks_finished} of {self.chunks} chunks "
                    f"({self.games_finished:,} of {self.games:,} games)")
        if self.writer:
            text += f", still being written ({self.writer})"
        return text

    def advice(self) -> str:
        """The one-line warning for an incomplete run: what it holds and how to finish it."""
        if self.writer:
            return (f"{self.out}: {self.describe()}; the statistics cover the finished chunks "
                    "only: read it again when that run ends")
        return (f"{self.out}: {self.describe()}; the statistics cover the finished chunks "
                "only: run the same command again to finish it")

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["complete"] = self.complete
        data["message"] = self.describe()
        return data


def _open_run(out: str | Path) -> tuple[RunStore, RunLayout]:
    store = RunStore(out)
    manifest = store.manifest()
    if manifest is None:
        raise UserError(f"{str(out)!r} holds no tajsim run (no manifest.json); expected a run "
                        "directory (tajsim simulate --out, or reports/NAME/runs/RUN)")
    return store, RunLayout.of_manifest(manifest, store.out)


def _scan_run(out: str | Path) -> tuple[RunStore, RunLayout, Scan, RunStatus]:
    store, layout = _open_run(out)
    scan = store.files.scan(layout)
    if scan.manifest_mismatch is not None:
        raise UserError(manifest_mismatch_message(out, scan, layout.run))
    if scan.bad:
        raise UserError(bad_chunks_message(out, scan.bad))
    games = sum(b - a for a, b in map(layout.chunk_games, scan.finished))
    status = RunStatus(str(out), layout.n_chunks, len(scan.finished), layout.games, games,
                       store.lock_holder())
    return store, layout, scan, status


def run_status(out: str | Path) -> RunStatus:
    """How much of the run in ``out`` is finished, every finished chunk verified.

    Raises
    ------
    UserError
        ``out`` holds no run, or a chunk fails verification (named, with how to repair it).
    """
    return _scan_run(out)[3]


def load_results(out: str | Path) -> pd.DataFrame:
    """The results frame of a run directory: every finished chunk, verified, in game order.

    This is the way to read a run (``pd.read_parquet(out)`` fails: the aggregates sit beside
    the chunks). ``frame.attrs["run_status"]`` says how complete the run is
    (``RunStatus.as_dict()``: ``complete``, ``chunks``, ``chunks_finished``, ``games``,
    ``games_finished``, ``message``); an incomplete run also gives one
    ``IncompleteRunWarning`` ("incomplete run: 7 of 8 chunks ...").

    Raises
    ------
    UserError
        ``out`` holds no run, a run without records, or a chunk that fails verification
        (named, with how to repair it: run the same command again).
    """
    store, layout, scan, status = _scan_run(out)
    if not status.complete:
        warnings.warn(status.advice(), IncompleteRunWarning, stacklevel=2)
    if not layout.records:
        raise UserError(f"{str(out)!r} holds a run without records (--no-records): no per-game "
                        "rows; expected a run with records (load_aggregates reads its sums)")
    frame = store.read_records(scan.finished)
    frame.attrs["run_status"] = status.as_dict()
    return frame


def load_aggregates(out: str | Path) -> Aggregates | None:
    """The merged aggregates of a run directory's finished chunks, verified (None if there are
    none); warns like ``load_results`` when the run is incomplete."""
    _, _, scan, status = _scan_run(out)
    if not status.complete:
        warnings.warn(status.advice(), IncompleteRunWarning, stacklevel=2)
    return scan.aggregates
