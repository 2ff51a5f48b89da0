"""Verifying a stored run's chunks (``store`` describes what is checked): the run's layout, the
verified state of its chunks and the one-line messages that name bad ones."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tajsim.errors import UserError
from tajsim.running.aggregates import Aggregates
from tajsim.running.config import RunConfig, chunk_bounds, chunk_count
from tajsim.running.run_files import (
    CHECK_FORMAT,
    CHECK_SUFFIX,
    MANIFEST,
    REPAIR,
    chunk_name,
    data_digest,
    index_of,
    reason,
    run_identity,
    show_json,
)


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
            raise UserError(f"{where / MANIFEST} lacks the run's layout ({reason(exc)}); "
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
class ChunkFiles:
    """The chunk files of one run directory (``chunks/`` and ``aggregates/``), verified."""

    chunks: Path
    aggregates: Path

    def check_path(self, index: int) -> Path:
        return self.aggregates / f"{chunk_name(index)}{CHECK_SUFFIX}"

    def verify_chunk(self, layout: RunLayout, index: int) -> tuple[str | None, Aggregates | None]:
        """``(problem, aggregates)`` of chunk ``index``, which has its done mark.

        ``problem`` is None for a good chunk, else what is wrong, in a few words.
        """
        problem, check = self.read_check(layout, index)
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
            return f"its aggregates cannot be read ({reason(exc)})", None
        if data_digest(data) != check.get("aggregates"):
            return "its aggregates file differs from the one written (size or SHA-256)", None
        try:
            agg = Aggregates.from_bytes(data)
        except ValueError as exc:
            return f"its aggregates are unreadable ({reason(exc)})", None
        if agg.games != games:
            return f"its aggregates hold {agg.games} games, expected {games}", None
        if agg.players != layout.players or agg.labels != layout.labels:
            return "its aggregates belong to another line-up", None
        if layout.records:
            problem = self.verify_rows(layout, index, check)
            if problem:
                return problem, None
        return None, agg

    def read_check(self, layout: RunLayout, index: int) -> tuple[str | None, dict | None]:
        """``(problem, check)``: chunk ``index``'s check file, when it exists, reads and records
        this run (``layout.run``); else what is wrong and None."""
        path = self.check_path(index)
        try:
            check = json.loads(path.read_bytes())
        except FileNotFoundError:
            return f"its check file {path.name} is missing", None
        except (OSError, ValueError) as exc:
            return f"its check file {path.name} is unreadable ({reason(exc)})", None
        if not isinstance(check, dict) or not isinstance(check.get("format"), int):
            return f"its check file {path.name} is unreadable (not a check file)", None
        if check["format"] != CHECK_FORMAT:
            return (f"its check file {path.name} has format {check['format']} (expected "
                    f"{CHECK_FORMAT}, which records the run it belongs to)"), None
        if check.get("run") != layout.run:
            return (f"its check file {path.name} records run {show_json(check.get('run'))}, "
                    f"not {layout.run} of {MANIFEST}"), None
        return None, check

    def verify_rows(self, layout: RunLayout, index: int, check: dict) -> str | None:
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
            return f"its rows file cannot be read ({reason(exc)})"
        if digest != expected.get("sha256"):
            return "its rows file differs from the one written (SHA-256)"
        try:
            meta = pq.read_metadata(path)
            rows = meta.num_rows
            column = meta.schema.to_arrow_schema().get_field_index("game_id")
            if column < 0:
                return "its rows file has no game_id column"
            low, high = column_range(path, meta, column)
        except Exception as exc:  # noqa: BLE001 - any pyarrow failure is a bad file
            return f"its rows file is not readable Parquet ({reason(exc)})"
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
                       if (i := index_of(p)) is not None and i < layout.n_chunks)
        for index in marks:
            problem, agg = self.verify_chunk(layout, index)
            if problem is not None or agg is None:
                result.bad[index] = problem or "unreadable"
                recorded = self.recorded_run(index)
                if recorded is not None and recorded != layout.run:
                    result.other_run[index] = recorded
                continue
            result.finished.append(index)
            result.aggregates = agg if result.aggregates is None else result.aggregates.merge(agg)
        return result

    def recorded_run(self, index: int) -> str | None:
        """The run identity chunk ``index``'s check file records (None if it records none)."""
        try:
            check = json.loads(self.check_path(index).read_bytes())
        except (OSError, ValueError):
            return None
        run = check.get("run") if isinstance(check, dict) else None
        return run if isinstance(run, str) else None


def column_range(path: Path, meta: Any, column: int) -> tuple[int, int]:
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
