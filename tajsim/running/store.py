"""A run's output directory: manifest, chunk files, verification, resume and a writer's lock.

Layout of ``OUT``::

    OUT/manifest.json                     the run configuration (what fixes the results)
    OUT/chunks/chunk-000123.parquet       rows of games [123 * C, 124 * C) (with records)
    OUT/aggregates/chunk-000123.check.json  sizes and SHA-256 of the chunk's two files, and
                                          the identity of the run it belongs to
    OUT/aggregates/chunk-000123.npz       their mergeable aggregates (the chunk's "done" mark)
    OUT/summary.csv                       the summary table, written when the run is complete

Every file is written to a temporary name in the same folder and renamed over its final name
(``os.replace``): rows, then the check file, then the aggregates, so a chunk without its
aggregates (its done mark) is unfinished, and a run killed at any moment keeps every finished
chunk. The same command run again plays only the missing ones; nothing is counted twice
because a chunk's games are fixed by its index.

A finished chunk is *verified* before it is used, on resume and on read (``verify_chunk``):
its aggregates load, hold the chunk's game count and the run's line-up; its Parquet footer
reads, with one row per player per game and the chunk's game ids (the ``game_id`` column's
statistics); its check file exists, records the run the chunk was written for (``run_identity``
of the manifest: game, configuration, seed, the game's code fingerprint) and the size and
SHA-256 of both files, which also catches a file corrupted but still readable. A missing
check file, or one of an older format that names no run, is damage like a corrupt row file. A
bad chunk is reported in one line and played again on resume; reading a run with a bad chunk
names it and says how to repair it. A manifest that no longer matches any of its chunks
(edited after they were written: another seed, another game) is refused in one line, on resume
and on read, so a run never presents games it did not play.

The lock (``OUT/.lock``, "host pid") is created with its contents in one step (a hard link of a
written temporary file), so a second run started at the same moment never reads it half
written: it says that another run is writing.

Beside this module (the ``RunStore``: opening, resuming, locking, writing): ``run_files`` (file
names, atomic writes, digests, the run identity, lock primitives), ``chunk_check`` (verifying
chunks) and ``run_reading`` (``load_results``, ``load_aggregates``, ``run_status``).
"""

from __future__ import annotations

import errno
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
from tajsim.running.chunk_check import ChunkFiles, RunLayout, Scan, manifest_mismatch_message
from tajsim.running.config import RunConfig, code_fingerprint
from tajsim.running.records import read_parquet_files
from tajsim.running.run_files import (
    CHECK_FORMAT,
    FORMAT,
    MANIFEST,
    atomic_write,
    chunk_name,
    create_with,
    data_digest,
    index_of,
    pid_alive,
    reason,
    run_identity,
    show_json,
)


class RunStore:
    """The output directory of one run (see the module docstring)."""

    def __init__(self, out: str | Path) -> None:
        self.out = Path(out)
        self.chunks = self.out / "chunks"
        self.aggregates = self.out / "aggregates"
        self.manifest_path = self.out / MANIFEST
        self.files = ChunkFiles(self.chunks, self.aggregates)
        self._locked = False
        #: ``run_identity`` of the manifest, recorded in every chunk's check file (set by
        #: ``open``).
        self.identity = ""
        #: True when a finished run was opened in a folder this process cannot write.
        self.read_only = False
        #: What ``open`` found: the verified chunks, the bad ones (played again) and the merged
        #: aggregates of the verified ones.
        self.scan_result = Scan()

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
                f"{self.manifest_path} is not a tajsim manifest ({reason(exc)}); expected the "
                "manifest.json of a tajsim run"
            ) from None

    def open(self, config: RunConfig) -> set[int]:
        """Create or resume the run; returns the indices of the chunks already finished.

        Every stored chunk is verified (``verify_chunk``); a bad one has its done mark removed,
        so it is played again, and is listed in ``scan_result.bad``. A directory holding
        another run (different configuration), or files that are not a tajsim run, raises
        ``UserError`` and is left untouched. A finished run in a folder that cannot be written
        opens read-only (``read_only``): there is nothing to write.
        """
        existing = self.check(config)
        try:
            self.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise UserError(f"cannot create the output directory {str(self.out)!r} "
                            f"({reason(exc)}); expected a folder you can write to") from None
        try:
            self._lock()
        except OSError as exc:
            if existing is not None and existing.get("code") == code_fingerprint(config.game):
                scan = self.files.scan(RunLayout.of_config(config, run_identity(existing)))
                self._refuse_other_manifest(scan)
                if len(scan.finished) == config.n_chunks:
                    self.read_only = True
                    self.scan_result = scan
                    return set(scan.finished)
            raise UserError(f"cannot write to {str(self.out)!r} ({reason(exc)}); expected a "
                            "folder you can write to (only a finished run can be read from a "
                            "read-only folder)") from None
        try:
            manifest = self._check_or_create(config)
            self._clean_temporaries()
            scan = self.files.scan(RunLayout.of_config(config, run_identity(manifest)))
            self._refuse_other_manifest(scan)
            for index in scan.bad:
                self._unmark(index)
        except OSError as exc:
            self.close()
            raise UserError(f"cannot write to {str(self.out)!r} ({reason(exc)}); expected a "
                            "folder you can write to") from None
        except BaseException:
            self.close()
            raise
        self.scan_result = scan
        return set(scan.finished)

    def check(self, config: RunConfig) -> dict[str, Any] | None:
        """Raise ``UserError`` if the directory holds another run or foreign files; write
        nothing. Returns the existing manifest (None for a new run)."""
        if self.out.exists() and not self.out.is_dir():
            raise UserError(f"output {str(self.out)!r} is a file; expected a directory")
        existing = self.manifest()
        if existing is None:
            if self.out.exists() and any(not p.name.startswith(".") for p in self.out.iterdir()):
                # A run started a moment earlier may not have written its manifest yet.
                self._refuse_live_writer()
                raise UserError(
                    f"output directory {str(self.out)!r} is not empty and holds no tajsim "
                    "run (no manifest.json); expected a new or empty directory"
                )
            return None
        old = existing["config"]
        identity = config.identity()
        # The settings in the order a user thinks of them (games before the chunk size that
        # follows from it), then anything only the stored run has.
        keys = [*identity, *(k for k in old if k not in identity)]
        diff = [k for k in keys if old.get(k) != identity.get(k)]
        if diff:
            k = diff[0]
            stored = self._stored_games(existing)
            raise UserError(
                f"{str(self.out)!r} holds a different run ({k}: {show_json(old.get(k))} there, "
                f"{show_json(identity.get(k))} now); expected the same settings to resume it, or "
                f"another --out for these settings (--restart would delete its {stored})"
            )
        return existing

    def _stored_games(self, manifest: dict[str, Any]) -> str:
        """"2,000 finished games" for the messages that mention deleting a stored run."""
        try:
            layout = RunLayout.of_manifest(manifest, self.out)
        except UserError:
            return "stored games"
        done = {i for p in self.aggregates.glob("chunk-*.npz")
                if (i := index_of(p)) is not None and i < layout.n_chunks}
        games = sum(b - a for a, b in map(layout.chunk_games, done))
        return f"{games:,} finished game{'s' if games != 1 else ''}"

    def _refuse_other_manifest(self, scan: Scan) -> None:
        """``UserError`` when no stored chunk belongs to the run the manifest describes."""
        if scan.manifest_mismatch is not None:
            raise UserError(manifest_mismatch_message(self.out, scan, run_identity(
                self.manifest() or {})))

    def _check_or_create(self, config: RunConfig) -> dict[str, Any]:
        """Check the directory again under the lock and write the manifest of a new run;
        returns the manifest."""
        existing = self.check(config)  # again, under the lock
        identity = config.identity()
        if existing is not None:
            code = code_fingerprint(config.game)
            if existing.get("code") != code:
                # Finished chunks came from other engine code: mixing them would make one run
                # a blend of two rule sets. Only this game's code counts (and the generic
                # code it runs on): an edit to another game's kernels leaves the run resumable.
                raise UserError(
                    f"{self.out} was started by other tajsim engine code for {config.game} "
                    f"({existing.get('code')}, now {code}); expected the same code to resume: "
                    "use --restart to play it again, or a new --out")
        if existing is None:
            # The manifest first: a folder holding run files always says whose they are.
            manifest = {
                "format": FORMAT,
                "game": config.game,
                "config": identity,
                "code": code_fingerprint(config.game),
                "components": config.components.description,
                "strategies": list(config.labels),
                "n_chunks": config.n_chunks,
            }
            atomic_write(self.manifest_path, json.dumps(manifest, indent=1).encode())
            existing = self.manifest()
            if existing is None:
                raise UserError(f"{self.manifest_path} vanished as the run started; expected "
                                "no other process to remove it")
        self.chunks.mkdir(exist_ok=True)
        self.aggregates.mkdir(exist_ok=True)
        self.identity = run_identity(existing)
        return existing

    def finished(self, config: RunConfig) -> set[int]:
        """Chunks whose files are on disk and verify (see ``verify_chunk``)."""
        manifest = self.manifest()
        if manifest is None:
            return set()
        return set(self.files.scan(RunLayout.of_config(config, run_identity(manifest))).finished)

    # -- verification ----------------------------------------------------------------------
    def _unmark(self, index: int) -> None:
        """Remove a bad chunk's done mark (and its check file), so it is played again."""
        for path in (self.aggregates / f"{chunk_name(index)}.npz", self.files.check_path(index)):
            path.unlink(missing_ok=True)

    def _clean_temporaries(self) -> None:
        for folder in (self.chunks, self.aggregates, self.out):
            for p in folder.glob(".*.tmp-*"):
                try:
                    p.unlink()
                except OSError:
                    pass

    # -- lock ------------------------------------------------------------------------------
    def lock_holder(self) -> str | None:
        """``"host H, pid P"`` of a live process holding this run's lock, else None."""
        path = self.out / ".lock"
        try:
            host, pid = path.read_text().split()
            alive = host != socket.gethostname() or pid_alive(int(pid))
        except (OSError, ValueError):
            return None
        return f"host {host}, pid {pid}" if alive else None

    def _refuse_live_writer(self) -> None:
        """``UserError`` when another live process holds this folder's lock."""
        holder = self.lock_holder()
        if holder is not None:
            raise UserError(f"another tajsim run ({holder}) is writing to {str(self.out)!r}; "
                            f"wait for it, or delete {self.out / '.lock'} if it is gone")

    def _lock(self) -> None:
        path = self.out / ".lock"
        for _ in range(2):
            if create_with(path, f"{socket.gethostname()} {os.getpid()}"):
                self._locked = True
                return
            try:
                host, pid = path.read_text().split()
                alive = host != socket.gethostname() or pid_alive(int(pid))
            except FileNotFoundError:  # released meanwhile: try again
                continue
            except (OSError, ValueError):
                host, pid, alive = "?", "?", False
            if alive:
                raise UserError(
                    f"another tajsim run (host {host}, pid {pid}) is writing to "
                    f"{str(self.out)!r}; wait for it, or delete {path} if it is gone"
                ) from None
            path.unlink(missing_ok=True)  # a dead run's lock (or an unreadable one)
        raise OSError(errno.EEXIST, "the lock file keeps coming back", str(path))

    def close(self) -> None:
        if self._locked:
            try:
                (self.out / ".lock").unlink(missing_ok=True)
            except OSError:
                pass
            self._locked = False

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- writing ---------------------------------------------------------------------------
    def write(self, result: ChunkResult) -> None:
        """Store one finished chunk: rows, then their check file, then the aggregates (the
        done mark)."""
        name = chunk_name(result.index)
        aggregates = result.aggregates_bytes
        digests = result.digests
        if aggregates is None or digests is None:  # a ChunkResult made without them
            aggregates = result.aggregates.to_bytes()
            digests = {"records": None if result.records is None
                       else data_digest(result.records),
                       "aggregates": data_digest(aggregates)}
        check = {"format": CHECK_FORMAT, "run": self.identity, "games": result.games,
                 "records": digests["records"], "aggregates": digests["aggregates"]}
        if result.records is not None:
            atomic_write(self.chunks / f"{name}.parquet", result.records)
        atomic_write(self.files.check_path(result.index), json.dumps(check).encode())
        atomic_write(self.aggregates / f"{name}.npz", aggregates)

    def write_summary(self, summary: pd.DataFrame) -> None:
        if not self.read_only:
            atomic_write(self.out / "summary.csv", summary.to_csv(index=False).encode())

    # -- reading ---------------------------------------------------------------------------
    def chunk_files(self, kind: str = "records") -> list[Path]:
        folder, ext = (self.chunks, "parquet") if kind == "records" else (self.aggregates, "npz")
        found = [(i, p) for p in folder.glob(f"chunk-*.{ext}") if (i := index_of(p)) is not None]
        return [p for _, p in sorted(found)]

    def read_records(self, indices: Iterable[int] | None = None) -> pd.DataFrame:
        """The rows of chunks ``indices`` (default: every chunk file), unverified: use
        ``load_results`` to read a run."""
        files = self.chunk_files("records")
        if indices is not None:
            wanted = set(indices)
            files = [p for p in files if index_of(p) in wanted]
        return read_parquet_files(files)

    def read_aggregates(self, indices: Iterable[int] | None = None) -> Aggregates | None:
        files = self.chunk_files("aggregates")
        if indices is not None:
            wanted = set(indices)
            files = [p for p in files if index_of(p) in wanted]
        total = None
        for p in files:
            agg = Aggregates.from_bytes(p.read_bytes())
            total = agg if total is None else total.merge(agg)
        return total


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
    try:
        store._lock()
        for folder in (store.chunks, store.aggregates):
            if folder.is_dir() and not folder.is_symlink():
                shutil.rmtree(folder)
        for name in (MANIFEST, "summary.csv"):
            (path / name).unlink(missing_ok=True)
        store._clean_temporaries()
    except OSError as exc:
        raise UserError(f"cannot delete the run in {str(path)!r} ({reason(exc)}); expected a "
                        "folder you can write to") from None
    finally:
        store.close()
    return True
