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
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import socket
import warnings
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from tajsim.errors import UserError
from tajsim.running.aggregates import Aggregates
from tajsim.running.chunk import ChunkResult
from tajsim.running.config import RunConfig, chunk_bounds, chunk_count, code_fingerprint
from tajsim.running.records import read_parquet_files

MANIFEST = "manifest.json"
FORMAT = 1
CHECK_SUFFIX = ".check.json"
#: 2: the check file records the run's identity (``run_identity``); format 1 did not.
CHECK_FORMAT = 2
#: How a bad or unfinished chunk is repaired, in the words of every message that names one.
REPAIR = ("run the command that wrote it again with the same settings (the same `tajsim "
          "simulate ... --out` or `tajsim run`): it verifies every chunk and replays the bad or "
          "missing ones")


class IncompleteRunWarning(UserWarning):
    """A run directory read before all its chunks were finished (one line: how many)."""


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


def _reason(exc: BaseException) -> str:
    """The first line of an exception's message (its type when it has none)."""
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc).splitlines()[0] if str(exc) else ""
    return text or type(exc).__name__


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old file or the whole new one."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o644)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except OSError:
            pass
        raise


def _digest(data: bytes) -> dict[str, Any]:
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def run_identity(manifest: dict[str, Any]) -> str:
    """The identity of a stored run: the SHA-256 (16 hex digits) of its whole manifest as
    canonical JSON (game, configuration, seed, components, the game's code fingerprint,
    line-up).

    Every chunk's check file records it when the chunk is written, so a manifest edited
    afterwards (another seed, another game) no longer matches its chunks."""
    text = json.dumps(manifest, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class RunLayout:
    """What verifying a run's chunks needs: from a ``RunConfig`` or from a manifest."""

    games: int
    chunk_size: int
    players: int
    records: bool
    labels: tuple[str, ...]
    #: ``run_identity`` of the manifest: what every chunk's check file must record.
    run: str = ""

    @classmethod
    def of_config(cls, config: RunConfig, run: str) -> RunLayout:
        return cls(config.games, config.chunk_size, config.players, config.records,
                   tuple(config.labels), run)

    @classmethod
    def of_manifest(cls, manifest: dict[str, Any], where: Path) -> RunLayout:
        cfg = manifest.get("config", {})
        try:
            layout = cls(int(cfg["games"]), int(cfg["chunk_size"]), int(cfg["players"]),
                         bool(cfg["records"]), tuple(str(s) for s in manifest["strategies"]),
                         run_identity(manifest))
        except (KeyError, TypeError, ValueError) as exc:
            raise UserError(f"{where / MANIFEST} lacks the run's layout ({_reason(exc)}); "
                            "expected the manifest.json of a tajsim run") from None
        if layout.games < 1 or layout.chunk_size < 1 or layout.players < 1:
            raise UserError(f"{where / MANIFEST} has a bad run layout (games {layout.games}, "
                            f"chunk size {layout.chunk_size}); expected positive numbers")
        return layout

    @property
    def n_chunks(self) -> int:
        return chunk_count(self.games, self.chunk_size)

    def chunk_games(self, index: int) -> tuple[int, int]:
        return chunk_bounds(self.games, self.chunk_size, index)


@dataclass
class Scan:
    """The verified state of a run directory's chunks.

    ``finished``: indices of the chunks that verified; ``bad``: index -> what is wrong, for
    chunks with a done mark that failed verification; ``other_run``: index -> the run identity
    recorded by a bad chunk's check file when it is not the manifest's; ``aggregates``: the
    merged aggregates of the finished chunks (None if there are none).
    """

    finished: list[int] = field(default_factory=list)
    bad: dict[int, str] = field(default_factory=dict)
    other_run: dict[int, str] = field(default_factory=dict)
    aggregates: Aggregates | None = None

    @property
    def manifest_mismatch(self) -> str | None:
        """The one run identity that every stored chunk records, when it is not the
        manifest's: the manifest, not the chunks, was changed (or replaced) after they were
        written. None otherwise."""
        recorded = set(self.other_run.values())
        if self.finished or not self.bad or len(self.other_run) != len(self.bad) or \
                len(recorded) != 1:
            return None
        return recorded.pop()


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


class RunStore:
    """The output directory of one run (see the module docstring)."""

    def __init__(self, out: str | Path) -> None:
        self.out = Path(out)
        self.chunks = self.out / "chunks"
        self.aggregates = self.out / "aggregates"
        self.manifest_path = self.out / MANIFEST
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
                f"{self.manifest_path} is not a tajsim manifest ({_reason(exc)}); expected the "
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
                            f"({_reason(exc)}); expected a folder you can write to") from None
        try:
            self._lock()
        except OSError as exc:
            if existing is not None and existing.get("code") == code_fingerprint(config.game):
                scan = self.scan(RunLayout.of_config(config, run_identity(existing)))
                self._refuse_other_manifest(scan)
                if len(scan.finished) == config.n_chunks:
                    self.read_only = True
                    self.scan_result = scan
                    return set(scan.finished)
            raise UserError(f"cannot write to {str(self.out)!r} ({_reason(exc)}); expected a "
                            "folder you can write to (only a finished run can be read from a "
                            "read-only folder)") from None
        try:
            manifest = self._check_or_create(config)
            self._clean_temporaries()
            scan = self.scan(RunLayout.of_config(config, run_identity(manifest)))
            self._refuse_other_manifest(scan)
            for index in scan.bad:
                self._unmark(index)
        except OSError as exc:
            self.close()
            raise UserError(f"cannot write to {str(self.out)!r} ({_reason(exc)}); expected a "
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
                f"{str(self.out)!r} holds a different run ({k}: {_show(old.get(k))} there, "
                f"{_show(identity.get(k))} now); expected the same settings to resume it, or "
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
                if (i := _index_of(p)) is not None and i < layout.n_chunks}
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
        return set(self.scan(RunLayout.of_config(config, run_identity(manifest))).finished)

    # -- verification ----------------------------------------------------------------------
    def _check_path(self, index: int) -> Path:
        return self.aggregates / f"{chunk_name(index)}{CHECK_SUFFIX}"

    def verify_chunk(self, layout: RunLayout, index: int) -> tuple[str | None, Aggregates | None]:
        """``(problem, aggregates)`` of chunk ``index``, which has its done mark.

        ``problem`` is None for a good chunk, else what is wrong, in a few words.
        """
        problem, check = self._read_check(layout, index)
        if check is None:
            return problem, None
        name = chunk_name(index)
        start, stop = layout.chunk_games(index)
        games = stop - start
        if check.get("games") != games:
            return f"its check file says {check.get('games')} games, expected {games}", None
        try:
            data = (self.aggregates / f"{name}.npz").read_bytes()
        except OSError as exc:
            return f"its aggregates cannot be read ({_reason(exc)})", None
        if _digest(data) != check.get("aggregates"):
            return "its aggregates file differs from the one written (size or SHA-256)", None
        try:
            agg = Aggregates.from_bytes(data)
        except ValueError as exc:
            return f"its aggregates are unreadable ({_reason(exc)})", None
        if agg.games != games:
            return f"its aggregates hold {agg.games} games, expected {games}", None
        if agg.players != layout.players or agg.labels != layout.labels:
            return "its aggregates belong to another line-up", None
        if layout.records:
            problem = self._verify_rows(layout, index, check)
            if problem:
                return problem, None
        return None, agg

    def _read_check(self, layout: RunLayout, index: int) -> tuple[str | None, dict | None]:
        """``(problem, check)``: chunk ``index``'s check file, when it exists, reads and records
        this run (``layout.run``); else what is wrong and None."""
        path = self._check_path(index)
        try:
            check = json.loads(path.read_bytes())
        except FileNotFoundError:
            return f"its check file {path.name} is missing", None
        except (OSError, ValueError) as exc:
            return f"its check file {path.name} is unreadable ({_reason(exc)})", None
        if not isinstance(check, dict) or not isinstance(check.get("format"), int):
            return f"its check file {path.name} is unreadable (not a check file)", None
        if check["format"] != CHECK_FORMAT:
            return (f"its check file {path.name} has format {check['format']} (expected "
                    f"{CHECK_FORMAT}, which records the run it belongs to)"), None
        if check.get("run") != layout.run:
            return (f"its check file {path.name} records run {_show(check.get('run'))}, "
                    f"not {layout.run} of {MANIFEST}"), None
        return None, check

    def _verify_rows(self, layout: RunLayout, index: int, check: dict) -> str | None:
        import pyarrow.parquet as pq

        path = self.chunks / f"{chunk_name(index)}.parquet"
        start, stop = layout.chunk_games(index)
        if not path.is_file():
            return f"its rows file {path.name} is missing"
        expected = check.get("records") or {}
        try:
            size = path.stat().st_size
            if size != expected.get("bytes"):
                return (f"its rows file has {size:,} bytes, {expected.get('bytes'):,} were "
                        "written") if isinstance(expected.get("bytes"), int) else \
                    "its check file records no rows"
            with open(path, "rb") as fh:
                digest = hashlib.file_digest(fh, "sha256").hexdigest()
        except OSError as exc:
            return f"its rows file cannot be read ({_reason(exc)})"
        if digest != expected.get("sha256"):
            return "its rows file differs from the one written (SHA-256)"
        try:
            meta = pq.read_metadata(path)
            rows = meta.num_rows
            column = meta.schema.to_arrow_schema().get_field_index("game_id")
            if column < 0:
                return "its rows file has no game_id column"
            low, high = _column_range(path, meta, column)
        except Exception as exc:  # noqa: BLE001 - any pyarrow failure is a bad file
            return f"its rows file is not readable Parquet ({_reason(exc)})"
        expected_rows = (stop - start) * layout.players
        if rows != expected_rows:
            return (f"its rows file holds {rows:,} rows, expected {expected_rows:,} "
                    f"({stop - start:,} games x {layout.players} players)")
        if (low, high) != (start, stop - 1):
            return f"its rows hold games {low}..{high}, expected {start}..{stop - 1}"
        return None

    def scan(self, layout: RunLayout) -> Scan:
        """Verify every chunk that has its done mark (``verify_chunk``); merge the good ones'
        aggregates."""
        result = Scan()
        marks = sorted(i for p in self.aggregates.glob("chunk-*.npz")
                       if (i := _index_of(p)) is not None and i < layout.n_chunks)
        for index in marks:
            problem, agg = self.verify_chunk(layout, index)
            if problem is not None or agg is None:
                result.bad[index] = problem or "unreadable"
                recorded = self._recorded_run(index)
                if recorded is not None and recorded != layout.run:
                    result.other_run[index] = recorded
                continue
            result.finished.append(index)
            result.aggregates = agg if result.aggregates is None else result.aggregates.merge(agg)
        return result

    def _recorded_run(self, index: int) -> str | None:
        """The run identity chunk ``index``'s check file records (None if it records none)."""
        try:
            check = json.loads(self._check_path(index).read_bytes())
        except (OSError, ValueError):
            return None
        run = check.get("run") if isinstance(check, dict) else None
        return run if isinstance(run, str) else None

    def _unmark(self, index: int) -> None:
        """Remove a bad chunk's done mark (and its check file), so it is played again."""
        for path in (self.aggregates / f"{chunk_name(index)}.npz", self._check_path(index)):
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
            alive = host != socket.gethostname() or _pid_alive(int(pid))
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
            if _create_with(path, f"{socket.gethostname()} {os.getpid()}"):
                self._locked = True
                return
            try:
                host, pid = path.read_text().split()
                alive = host != socket.gethostname() or _pid_alive(int(pid))
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
        aggregates = result.aggregates.to_bytes()
        check = {"format": CHECK_FORMAT, "run": self.identity, "games": result.games,
                 "records": None if result.records is None else _digest(result.records),
                 "aggregates": _digest(aggregates)}
        if result.records is not None:
            atomic_write(self.chunks / f"{name}.parquet", result.records)
        atomic_write(self._check_path(result.index), json.dumps(check).encode())
        atomic_write(self.aggregates / f"{name}.npz", aggregates)

    def write_summary(self, summary: pd.DataFrame) -> None:
        if not self.read_only:
            atomic_write(self.out / "summary.csv", summary.to_csv(index=False).encode())

    # -- reading ---------------------------------------------------------------------------
    def chunk_files(self, kind: str = "records") -> list[Path]:
        folder, ext = (self.chunks, "parquet") if kind == "records" else (self.aggregates, "npz")
        found = [(i, p) for p in folder.glob(f"chunk-*.{ext}") if (i := _index_of(p)) is not None]
        return [p for _, p in sorted(found)]

    def read_records(self, indices: Iterable[int] | None = None) -> pd.DataFrame:
        """The rows of chunks ``indices`` (default: every chunk file), unverified: use
        ``load_results`` to read a run."""
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


def _column_range(path: Path, meta: Any, column: int) -> tuple[int, int]:
    """Smallest and largest value of an integer column: from the footer's statistics, or
    from the column itself when a row group has none."""
    lows, highs = [], []
    for g in range(meta.num_row_groups):
        stats = meta.row_group(g).column(column).statistics
        if stats is None or not stats.has_min_max:
            import pyarrow.compute as pc
            import pyarrow.parquet as pq

            values = pq.read_table(path, columns=["game_id"]).column(0)
            bounds = pc.min_max(values)
            return int(bounds["min"].as_py()), int(bounds["max"].as_py())
        lows.append(int(stats.min))
        highs.append(int(stats.max))
    if not lows:
        return -1, -1
    return min(lows), max(highs)


def _create_with(path: Path, text: str) -> bool:
    """Create ``path`` holding ``text`` in one step, unless it exists (then False).

    The text is written to a temporary file that is hard-linked to ``path``: another process
    sees no file or the whole one, never an empty lock it would take for a dead run's. Where
    the file system has no hard links, ``O_EXCL`` creation is the fallback."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    fd = os.open(tmp, os.O_CREAT | os.O_TRUNC | os.O_WRONLY, 0o644)
    with os.fdopen(fd, "w") as fh:
        fh.write(text)
    try:
        os.link(tmp, path)
        return True
    except FileExistsError:
        return False
    except OSError:  # no hard links here
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            return False
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        return True
    finally:
        tmp.unlink(missing_ok=True)


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


def _open_run(out: str | Path) -> tuple[RunStore, RunLayout]:
    store = RunStore(out)
    manifest = store.manifest()
    if manifest is None:
        raise UserError(f"{str(out)!r} holds no tajsim run (no manifest.json); expected a run "
                        "directory (tajsim simulate --out, or reports/NAME/runs/RUN)")
    return store, RunLayout.of_manifest(manifest, store.out)


def describe_bad_chunks(bad: dict[int, str]) -> str:
    """``chunk-000005 (and 2 more chunks) failed verification: <what is wrong with the
    first>``."""
    first = min(bad)
    more = f" (and {len(bad) - 1} more chunk{'s' if len(bad) > 2 else ''})" if len(bad) > 1 \
        else ""
    return f"{chunk_name(first)}{more} failed verification: {bad[first]}"


def bad_chunks_message(out: str | Path, bad: dict[int, str]) -> str:
    """One line naming the bad chunks of a run, what is wrong and how to repair it."""
    return f"{out}: {describe_bad_chunks(bad)}; expected verified chunks: {REPAIR}"


def manifest_mismatch_message(out: str | Path, scan: Scan, manifest_run: str) -> str:
    """One line for a manifest that matches none of its chunks (``Scan.manifest_mismatch``):
    which file, what is wrong, how to repair it."""
    chunks = len(scan.bad)
    first = chunk_name(min(scan.other_run))
    which = f"finished chunk {first} was" if chunks == 1 else \
        f"{chunks} finished chunks ({first}, ...) were"
    return (f"{Path(out) / MANIFEST} does not belong to the games stored beside it: its "
            f"{which} written for run {scan.manifest_mismatch}, the manifest describes run "
            f"{manifest_run} "
            "(edited or replaced after they were written); expected the manifest the run "
            "wrote: put it back, or play the run again with --restart")


def _scan_run(out: str | Path) -> tuple[RunStore, RunLayout, Scan, RunStatus]:
    store, layout = _open_run(out)
    scan = store.scan(layout)
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
        raise UserError(f"cannot delete the run in {str(path)!r} ({_reason(exc)}); expected a "
                        "folder you can write to") from None
    finally:
        store.close()
    return True
