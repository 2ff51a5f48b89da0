"""A run's output directory: manifest, chunk files, resume and a writer's lock.

Layout of ``OUT``::

    OUT/manifest.json                  the run configuration (what fixes the results)
    OUT/chunks/chunk-000123.parquet    rows of games [123 * C, 124 * C) (with records)
    OUT/aggregates/chunk-000123.npz    their mergeable aggregates (the chunk's "done" mark)
    OUT/summary.csv                    the summary table, written when the run is complete

Every file is written to a temporary name in the same folder and renamed over its final name
(``os.replace``), records before aggregates, so a chunk is either complete or absent: a run
killed at any moment keeps every finished chunk, and the same command run again plays only the
missing ones. Nothing is counted twice because a chunk's games are fixed by its index.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd

from tajsim.errors import UserError
from tajsim.running.aggregates import Aggregates
from tajsim.running.chunk import ChunkResult
from tajsim.running.config import RunConfig, code_fingerprint
from tajsim.running.records import read_parquet_files

MANIFEST = "manifest.json"
FORMAT = 1


def chunk_name(index: int) -> str:
    return f"chunk-{index:06d}"


def _index_of(path: Path) -> int | None:
    stem = path.name.split(".", 1)[0]
    if not stem.startswith("chunk-"):
        return None
    try:
        return int(stem[6:])
    except ValueError:
        return None


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    with open(tmp, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


class RunStore:
    """The output directory of one run (see the module docstring)."""

    def __init__(self, out: str | Path) -> None:
        self.out = Path(out)
        self.chunks = self.out / "chunks"
        self.aggregates = self.out / "aggregates"
        self.manifest_path = self.out / MANIFEST
        self._locked = False

    # -- opening ---------------------------------------------------------------------------
    def manifest(self) -> dict[str, Any] | None:
        if not self.manifest_path.exists():
            return None
        try:
            data = json.loads(self.manifest_path.read_text())
            if not isinstance(data, dict) or "config" not in data:
                raise ValueError("no config")
            return data
        except (OSError, ValueError) as exc:
            raise UserError(
                f"{self.manifest_path} is not a tajsim manifest ({exc}); expected the "
                "manifest.json of a tajsim run"
            ) from None

    def open(self, config: RunConfig) -> set[int]:
        """Create or resume the run; returns the indices of the chunks already finished.

        A directory holding another run (different configuration), or files that are not a
        tajsim run, raises ``UserError`` and is left untouched.
        """
        self.check(config)
        self.out.mkdir(parents=True, exist_ok=True)
        self._lock()
        try:
            self._check_or_create(config)
        except BaseException:
            self.close()
            raise
        self._clean_temporaries()
        return self.finished(config)

    def check(self, config: RunConfig) -> dict[str, Any] | None:
        """Raise ``UserError`` if the directory holds another run or foreign files; write
        nothing. Returns the existing manifest (None for a new run)."""
        if self.out.exists() and not self.out.is_dir():
            raise UserError(f"output {str(self.out)!r} is a file; expected a directory")
        existing = self.manifest()
        if existing is None:
            if self.out.exists() and any(not p.name.startswith(".") for p in self.out.iterdir()):
                raise UserError(
                    f"output directory {str(self.out)!r} is not empty and holds no tajsim "
                    "run (no manifest.json); expected a new or empty directory"
                )
            return None
        old = existing["config"]
        identity = config.identity()
        diff = [k for k in sorted(set(old) | set(identity)) if old.get(k) != identity.get(k)]
        if diff:
            k = diff[0]
            raise UserError(
                f"{str(self.out)!r} holds a different run ({k}: {_show(old.get(k))} there, "
                f"{_show(identity.get(k))} now); expected the same configuration to resume, "
                "--restart to replace it, or another --out"
            )
        return existing

    def _check_or_create(self, config: RunConfig) -> None:
        existing = self.check(config)  # again, under the lock
        identity = config.identity()
        if existing is not None:
            if existing.get("code") != code_fingerprint():
                # Finished chunks came from other engine code: mixing them would make one run
                # a blend of two rule sets.
                raise UserError(
                    f"{self.out} was started by other tajsim engine code "
                    f"({existing.get('code')}, now {code_fingerprint()}); expected the same "
                    "code to resume: use --restart to play it again, or a new --out")
        self.chunks.mkdir(exist_ok=True)
        self.aggregates.mkdir(exist_ok=True)
        if existing is None:
            manifest = {
                "format": FORMAT,
                "game": config.game,
                "config": identity,
                "code": code_fingerprint(),
                "components": config.components.description,
                "strategies": list(config.labels),
                "n_chunks": config.n_chunks,
            }
            atomic_write(self.manifest_path, json.dumps(manifest, indent=1).encode())

    def finished(self, config: RunConfig) -> set[int]:
        """Chunks whose aggregates (and, with records, rows) are on disk."""
        done = {i for p in self.aggregates.glob("chunk-*.npz") if (i := _index_of(p)) is not None}
        done = {i for i in done if i < config.n_chunks}
        if config.records:
            rows = {i for p in self.chunks.glob("chunk-*.parquet")
                    if (i := _index_of(p)) is not None}
            done &= rows
        return done

    def _clean_temporaries(self) -> None:
        for folder in (self.chunks, self.aggregates, self.out):
            for p in folder.glob(".*.tmp-*"):
                try:
                    p.unlink()
                except OSError:
                    pass

    # -- lock ------------------------------------------------------------------------------
    def _lock(self) -> None:
        path = self.out / ".lock"
        me = f"{socket.gethostname()} {os.getpid()}"
        for _ in range(2):
            try:
                fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                try:
                    host, pid = path.read_text().split()
                    alive = host != socket.gethostname() or _pid_alive(int(pid))
                except (OSError, ValueError):
                    host, pid, alive = "?", "?", False
                if alive:
                    raise UserError(
                        f"another tajsim run (host {host}, pid {pid}) is writing to "
                        f"{str(self.out)!r}; wait for it, or delete {path} if it is gone"
                    ) from None
                path.unlink(missing_ok=True)
                continue
            with os.fdopen(fd, "w") as fh:
                fh.write(me)
            self._locked = True
            return

    def close(self) -> None:
        if self._locked:
            (self.out / ".lock").unlink(missing_ok=True)
            self._locked = False

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------
    def write(self, result: ChunkResult) -> None:
        """Store one finished chunk: rows first, then its aggregates (the done mark)."""
        name = chunk_name(result.index)
        if result.records is not None:
            atomic_write(self.chunks / f"{name}.parquet", result.records)
        atomic_write(self.aggregates / f"{name}.npz", result.aggregates.to_bytes())

    def write_summary(self, summary: pd.DataFrame) -> None:
        atomic_write(self.out / "summary.csv", summary.to_csv(index=False).encode())

    # -- reading ---------------------------------------------------------------------------
    def chunk_files(self, kind: str = "records") -> list[Path]:
        folder, ext = (self.chunks, "parquet") if kind == "records" else (self.aggregates, "npz")
        found = [(i, p) for p in folder.glob(f"chunk-*.{ext}") if (i := _index_of(p)) is not None]
        return [p for _, p in sorted(found)]

    def read_records(self, indices: Iterable[int] | None = None) -> pd.DataFrame:
        files = self.chunk_files("records")
        if indices is not None:
            wanted = set(indices)
            files = [p for p in files if _index_of(p) in wanted]
        return read_parquet_files(files)

    def read_aggregates(self, indices: Iterable[int] | None = None) -> Aggregates | None:
        files = self.chunk_files("aggregates")
        if indices is not None:
            wanted = set(indices)
            files = [p for p in files if _index_of(p) in wanted]
        total = None
        for p in files:
            agg = Aggregates.from_bytes(p.read_bytes())
            total = agg if total is None else total.merge(agg)
        return total


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _show(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


def load_results(out: str | Path) -> pd.DataFrame:
    """The results frame of a run directory (all finished chunks, in game order)."""
    store = RunStore(out)
    if store.manifest() is None:
        raise UserError(f"{str(out)!r} holds no tajsim run (no manifest.json)")
    return store.read_records()


def load_aggregates(out: str | Path) -> Aggregates | None:
    """The merged aggregates of a run directory's finished chunks (None if there are none)."""
    store = RunStore(out)
    if store.manifest() is None:
        raise UserError(f"{str(out)!r} holds no tajsim run (no manifest.json)")
    return store.read_aggregates()



def discard_run(out: str | Path) -> bool:
    """Delete the run stored in ``out`` so that it is played again from scratch (``--restart``).

    Only a directory that holds a tajsim run (a ``manifest.json``) and nothing else (hidden
    files aside) is touched, under the run's lock (a run still writing to it is refused), and
    only the run's own entries are deleted (manifest, chunks, aggregates, summary,
    temporaries); hidden files such as ``.git`` stay. A missing directory is fine. Returns True
    if a run was deleted.
    """
    import shutil

    path = Path(out)
    if not path.exists():
        return False
    if not path.is_dir() or not (path / MANIFEST).is_file():
        raise UserError(f"{str(path)!r} holds no tajsim run (no {MANIFEST}); expected a run "
                        "directory to restart, so nothing was deleted")
    own = {MANIFEST, "chunks", "aggregates", "summary.csv"}
    other = sorted(p.name for p in path.iterdir() if p.name not in own
                   and not p.name.startswith("."))
    if other:
        raise UserError(f"{str(path)!r} holds files that are not part of the run "
                        f"({', '.join(other[:3])}); expected a run directory to restart, so "
                        "nothing was deleted")
    store = RunStore(path)
    store._lock()
    try:
        for folder in (store.chunks, store.aggregates):
            if folder.is_dir() and not folder.is_symlink():
                shutil.rmtree(folder)
        for name in (MANIFEST, "summary.csv"):
            (path / name).unlink(missing_ok=True)
        store._clean_temporaries()
    finally:
        store.close()
    return True
