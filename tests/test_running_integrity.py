"""Run integrity (issue 14): a corrupt chunk is detected and played again, never used; an
incomplete run says so, printed and in its report; conflicting options are refused; an
unwritable folder, a failed write or a lost executor is one line that keeps every finished
chunk."""

from __future__ import annotations

import errno
import json
import os
import socket
import warnings
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from cli_checks import invoke, one_line_error

from tajsim.errors import UserError
from tajsim.running import simulate as simulate_module
from tajsim.running.executors import ExecutorLostError, SerialExecutor
from tajsim.running.records import to_parquet
from tajsim.running.run_reading import (
    IncompleteRunWarning,
    load_aggregates,
    load_results,
    run_status,
)
from tajsim.running.simulate import run_simulation, simulate

#: A run of 8 chunks; rerunning ARGS resumes it.
GAMES, CHUNK, PLAYERS = 400, 50, 3
ARGS = ("--games", str(GAMES), "--players", str(PLAYERS), "--strategies", "greedy,random",
        "--seed", "7", "--chunk-size", str(CHUNK), "--workers", "1")
KWARGS = dict(games=GAMES, players=PLAYERS, strategies="greedy,random", seed=7,
              chunk_size=CHUNK, progress=False)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


@pytest.fixture(scope="module")
def reference():
    return simulate(**{k: v for k, v in KWARGS.items() if k != "progress"}, workers=1)


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    """A finished run's files (copied into each test's own folder by ``fresh``)."""
    out = tmp_path_factory.mktemp("finished") / "run"
    res = invoke("simulate", *ARGS, "--out", str(out), "-q")
    assert res.exit_code == 0, res.output
    return snapshot(out)


@pytest.fixture
def fresh(finished, tmp_path):
    out = tmp_path / "run"
    for name, data in finished.items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    return out


def truncate(path: Path, size: int) -> None:
    path.write_bytes(path.read_bytes()[:size])


def chunk5(out: Path) -> Path:
    return out / "chunks" / "chunk-000005.parquet"


# -- corrupt chunks ------------------------------------------------------------------------------
def test_every_chunk_has_a_check_file_written_before_its_done_mark(fresh):
    for k in range(GAMES // CHUNK):
        check = json.loads((fresh / "aggregates" / f"chunk-{k:06d}.check.json").read_text())
        rows = (fresh / "chunks" / f"chunk-{k:06d}.parquet").read_bytes()
        assert check["games"] == CHUNK and check["records"]["bytes"] == len(rows)


def test_truncated_chunk_is_detected_and_replayed_by_the_same_command(fresh, finished,
                                                                      reference):
    truncate(chunk5(fresh), 1000)
    res = invoke("simulate", *ARGS, "--out", str(fresh))
    assert res.exit_code == 0, res.output
    warning = [line for line in res.stderr.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "chunk-000005 failed verification" in warning[0]
    assert "played again" in warning[0] and "1,000 bytes" in warning[0]
    assert "(8 chunks, 1 played now)" in res.stderr
    assert snapshot(fresh) == finished  # byte for byte what the first run wrote
    pd.testing.assert_frame_equal(load_results(fresh), reference)


def test_reading_a_corrupt_chunk_names_it_and_how_to_repair_it(fresh, finished, tmp_path):
    truncate(chunk5(fresh), 1000)
    before = snapshot(fresh)
    for read in (load_results, load_aggregates, run_status):
        with pytest.raises(UserError) as info:
            read(fresh)
        text = str(info.value)
        assert "chunk-000005 failed verification" in text and "\n" not in text
        assert "run the command that wrote it again with the same settings" in text
    res = invoke("report", str(fresh), "--out", str(tmp_path / "report"))
    one_line_error(res, "chunk-000005 failed verification", "replays the bad")
    assert snapshot(fresh) == before  # reading never changes a run
    # the Python API resumes and repairs it like the command line
    with pytest.warns(UserWarning, match="chunk-000005 failed verification"):
        frame = simulate(**{k: v for k, v in KWARGS.items() if k != "progress"}, out=fresh)
    assert len(frame) == GAMES * PLAYERS and snapshot(fresh) == finished


def forge_check(out: Path, index: int) -> None:
    """Rewrite chunk ``index``'s check file to match its (damaged) files, as a hand who knows
    the format would: the structural checks must still catch the damage."""
    import hashlib

    path = out / "aggregates" / f"chunk-{index:06d}.check.json"
    check = json.loads(path.read_text())
    for key, file in (("records", out / "chunks" / f"chunk-{index:06d}.parquet"),
                      ("aggregates", out / "aggregates" / f"chunk-{index:06d}.npz")):
        data = file.read_bytes()
        check[key] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    path.write_text(json.dumps(check))


@pytest.mark.parametrize("damage,reason", [
    ("truncate-aggregates", "its aggregates file differs from the one written"),
    ("garbage-aggregates-forged", "its aggregates are unreadable"),
    ("readable-but-changed", "its rows file differs from the one written (SHA-256)"),
    ("other-chunk-forged", "its rows hold games 200..249, expected 250..299"),
    ("truncate-rows-forged", "its rows file is not readable Parquet"),
    ("rows-missing", "its rows file chunk-000005.parquet is missing"),
    ("check-missing", "its check file chunk-000005.check.json is missing"),
    ("check-format-1", "its check file chunk-000005.check.json has format 1"),
    ("check-other-run", "its check file chunk-000005.check.json records run "),
])
def test_each_kind_of_damage_is_detected(fresh, finished, damage, reason):
    npz = fresh / "aggregates" / "chunk-000005.npz"
    check = fresh / "aggregates" / "chunk-000005.check.json"
    if damage == "truncate-aggregates":
        truncate(npz, 100)
    elif damage == "garbage-aggregates-forged":
        npz.write_bytes(b"PK\x03\x04 not a zip")
        forge_check(fresh, 5)
    elif damage in ("readable-but-changed", "check-missing"):
        # valid Parquet, right rows and ids, other scores
        table = pq.read_table(chunk5(fresh))
        scores = pa.array([s + 1 for s in table.column("score").to_pylist()],
                          table.schema.field("score").type)
        table = table.set_column(table.schema.get_field_index("score"), "score", scores)
        chunk5(fresh).write_bytes(to_parquet(table))  # as the runner writes it: same size
        if damage == "check-missing":  # deleting it no longer switches the checksums off
            check.unlink()
    elif damage == "other-chunk-forged":
        chunk5(fresh).write_bytes((fresh / "chunks" / "chunk-000004.parquet").read_bytes())
        forge_check(fresh, 5)
    elif damage == "truncate-rows-forged":
        truncate(chunk5(fresh), 500)
        forge_check(fresh, 5)
    elif damage == "rows-missing":
        chunk5(fresh).unlink()
    elif damage == "check-format-1":  # written before check files named their run
        data = json.loads(check.read_text())
        del data["run"]
        check.write_text(json.dumps({**data, "format": 1}))
    elif damage == "check-other-run":  # a chunk copied from another run
        data = json.loads(check.read_text())
        check.write_text(json.dumps({**data, "run": "0123456789abcdef"}))
    with pytest.raises(UserError, match="chunk-000005 failed verification") as info:
        load_results(fresh)
    assert reason in str(info.value)
    with pytest.warns(UserWarning, match=r"chunk-000005 failed verification: .*; it is played "
                                         "again"):
        res = run_simulation(**KWARGS, out=fresh, workers=1)
    assert res.chunks_run == 1 and snapshot(fresh) == finished


def test_a_chunk_without_its_done_mark_is_not_finished(fresh, finished, reference):
    """Rows on disk without their aggregates (a crash between the two) are not read."""
    (fresh / "aggregates" / "chunk-000003.npz").unlink()
    with pytest.warns(IncompleteRunWarning) as caught:
        frame = load_results(fresh)
    assert len(caught) == 1
    assert str(caught[0].message).count("\n") == 0
    assert "incomplete run: 7 of 8 chunks (350 of 400 games)" in str(caught[0].message)
    assert 150 not in set(frame["game_id"])  # chunk 3's games are not used
    assert len(frame) == 350 * PLAYERS
    status = frame.attrs["run_status"]
    assert status["complete"] is False and status["chunks"] == 8
    assert (status["chunks_finished"], status["games_finished"]) == (7, 350)
    assert run_status(fresh).describe() == "incomplete run: 7 of 8 chunks (350 of 400 games)"
    assert run_simulation(**KWARGS, out=fresh, workers=1).chunks_run == 1
    assert snapshot(fresh) == finished


# -- incomplete runs -----------------------------------------------------------------------------
def test_report_of_an_incomplete_run_says_so_printed_and_in_the_report(fresh, tmp_path):
    for k in (6, 7):
        (fresh / "aggregates" / f"chunk-{k:06d}.npz").unlink()
    out = tmp_path / "report"
    res = invoke("report", str(fresh), "--out", str(out))
    assert res.exit_code == 0, res.output
    warning = [line for line in res.stderr.splitlines()
               if line.strip() and not line.startswith("report: section")]  # progress lines
    assert len(warning) == 1
    assert warning[0].startswith("warning: ") and \
        "incomplete run: 6 of 8 chunks (300 of 400 games)" in warning[0]
    text = (out / "report.md").read_text()
    assert "**Incomplete run: 6 of 8 chunks (300 of 400 games).**" in text
    assert "covers the 300 finished games only" in text
    assert "Incomplete run: 6 of 8 chunks" in (out / "report.html").read_text()


def test_complete_run_reads_without_a_warning(fresh, tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        frame = load_results(fresh)
    assert frame.attrs["run_status"]["complete"]
    res = invoke("report", str(fresh), "--out", str(tmp_path / "report"))
    assert res.exit_code == 0 and "warning" not in res.stderr
    assert "ncomplete run" not in (tmp_path / "report" / "report.md").read_text()


def test_a_run_still_being_written_is_reported_as_such(fresh):
    (fresh / "aggregates" / "chunk-000007.npz").unlink()
    (fresh / ".lock").write_text(f"{socket.gethostname()} {os.getpid()}")
    with pytest.warns(IncompleteRunWarning, match=r"7 of 8 chunks .*still being written "
                                                  rf"\(host .*, pid {os.getpid()}\)"):
        load_results(fresh)


# -- conflicting options -------------------------------------------------------------------------
BOARD = Path(__file__).resolve().parent.parent / "tajsim" / "games" / "tajmahal" / "engine" / \
    "data" / "board.toml"


@pytest.mark.parametrize("args,needle", [
    (["simulate", "--alternative", "3", "--board", str(BOARD)],
     "alternative components 3 and --board"),
    (["simulate", "--alternative", "3", "--components", str(BOARD)],
     "alternative components 3 and --components"),
    (["simulate", "--round-robin", "--rotate", "-s", "random,greedy,balanced,network,hoarder"],
     "--round-robin and --rotate both given"),
    (["simulate", "--scheduler", "tcp://127.0.0.1:9", "-w", "1"],
     "--scheduler and --workers both given"),
    (["simulate", "--scheduler", "tcp://127.0.0.1:9", "--parallel", "threads"],
     "--scheduler and --parallel both given"),
    (["simulate", "-q", "-v"], "--quiet and --verbose both given"),
    (["run", str(BOARD.parents[4] / "experiments" / "default.toml"), "--scheduler",
      "tcp://127.0.0.1:9", "-w", "1"],
     "--scheduler and --workers both given"),
    (["board", "show", "--alternative", "3", "--board", str(BOARD)],
     "--alternative 3 and a component file both given"),
])
def test_conflicting_options_are_refused(tmp_path, args, needle):
    out = tmp_path / "out"
    extra = ["--out", str(out)] if args[0] in ("simulate", "run") else ["-o", str(out / "b.png")]
    one_line_error(invoke(*args, *extra), needle)
    assert not out.exists()


# -- unwritable folders, failed writes, lost executors --------------------------------------------
@pytest.fixture
def read_only(monkeypatch):
    """Make folders read-only: ``chmod``, and, where that does not bind (running as root), the
    same refusal from the system calls that would write there."""
    folders: list[Path] = []

    def make(folder: Path) -> None:
        for p in [folder, *folder.rglob("*")]:
            p.chmod(p.stat().st_mode & ~0o222)
        folders.append(folder.resolve())

    def refused(path) -> bool:
        p = Path(os.fsdecode(path)).resolve()
        return any(p == f or f in p.parents for f in folders)

    if os.geteuid() == 0:
        real_open, real_mkdir = os.open, os.mkdir
        real_unlink, real_replace = os.unlink, os.replace

        def deny(path):
            raise PermissionError(errno.EACCES, "Permission denied", os.fsdecode(path))

        def fake_open(path, flags, *args, **kwargs):
            if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and refused(path):
                deny(path)
            return real_open(path, flags, *args, **kwargs)

        def fake_mkdir(path, *args, **kwargs):
            if refused(path) and not Path(path).exists():
                deny(path)
            return real_mkdir(path, *args, **kwargs)

        def fake_unlink(path, *args, **kwargs):
            if refused(path):
                deny(path)
            return real_unlink(path, *args, **kwargs)

        def fake_replace(src, dst, *args, **kwargs):
            if refused(dst):
                deny(dst)
            return real_replace(src, dst, *args, **kwargs)

        monkeypatch.setattr(os, "open", fake_open)
        monkeypatch.setattr(os, "mkdir", fake_mkdir)
        monkeypatch.setattr(os, "unlink", fake_unlink)
        monkeypatch.setattr(os, "replace", fake_replace)
    yield make
    for folder in folders:
        for p in [folder, *folder.rglob("*")]:
            p.chmod(p.stat().st_mode | 0o200)


def test_finished_run_in_a_read_only_folder_prints_its_summary(fresh, finished, read_only):
    read_only(fresh)
    res = invoke("simulate", *ARGS, "--out", str(fresh))
    assert res.exit_code == 0, res.output
    assert "by strategy:" in res.stdout and "(8 chunks, 0 played now)" in res.stderr
    assert snapshot(fresh) == finished


def test_unfinished_run_in_a_read_only_folder_is_one_line(fresh, read_only):
    (fresh / "aggregates" / "chunk-000002.npz").unlink()
    before = snapshot(fresh)
    read_only(fresh)
    one_line_error(invoke("simulate", *ARGS, "--out", str(fresh)),
                   f"cannot write to {str(fresh)!r} (Permission denied)",
                   "only a finished run can be read from a read-only folder")
    assert snapshot(fresh) == before


@pytest.mark.parametrize("where", ["/proc/tajsim-test", "/sys/tajsim-test", "read-only"])
def test_output_that_cannot_be_created_is_one_line(tmp_path, read_only, where):
    if where == "read-only":
        parent = tmp_path / "locked"
        parent.mkdir()
        read_only(parent)
        where = str(parent / "run")
    elif not Path(where).parent.is_dir():
        pytest.skip(f"no {Path(where).parent} on this system")
    one_line_error(invoke("simulate", "-n", "10", "--out", where),
                   f"cannot create the output directory {where!r}",
                   "expected a folder you can write to")
    assert not Path(where).exists()


def test_a_failed_write_keeps_the_finished_chunks(tmp_path, monkeypatch, reference):
    out = tmp_path / "run"
    from tajsim.running.store import RunStore

    real_write = RunStore.write

    def write(self, result):
        if result.index == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_write(self, result)

    monkeypatch.setattr(RunStore, "write", write)
    err = one_line_error(invoke("simulate", *ARGS, "--out", str(out)),
                         "cannot write chunk-000003", "(No space left on device)",
                         "the 3 finished chunks are kept", "run the same command again")
    assert "Traceback" not in err
    monkeypatch.setattr(RunStore, "write", real_write)
    with pytest.warns(IncompleteRunWarning, match="3 of 8 chunks"):
        assert len(load_results(out)) == 3 * CHUNK * PLAYERS
    assert invoke("simulate", *ARGS, "--out", str(out), "-q").exit_code == 0
    pd.testing.assert_frame_equal(load_results(out), reference)


class _LostAfter(SerialExecutor):
    """Plays ``n`` chunks, then loses its scheduler (as a Dask cluster going away does)."""

    def __init__(self, n: int) -> None:
        super().__init__(1)
        self.n = n

    def run(self, task, indices):
        for k, result in enumerate(super().run(task, indices)):
            if k == self.n:
                raise ExecutorLostError("lost the Dask scheduler tcp://10.0.0.1:8786 "
                                        "(scheduler-connection-lost)")
            yield result


def test_a_lost_scheduler_is_one_line_that_keeps_the_chunks(tmp_path, monkeypatch, reference):
    out = tmp_path / "run"
    monkeypatch.setattr(simulate_module, "make_executor", lambda *a, **k: _LostAfter(2))
    err = one_line_error(invoke("simulate", *ARGS, "--out", str(out)),
                         "lost the Dask scheduler tcp://10.0.0.1:8786",
                         f"the 2 finished chunks of 8 are kept in {str(out)!r}",
                         "run the same command again to resume")
    assert "FutureCancelledError" not in err
    err = one_line_error(invoke("simulate", *ARGS), "the finished chunks are lost (no --out")
    monkeypatch.undo()
    with pytest.warns(IncompleteRunWarning, match="2 of 8 chunks"):
        load_results(out)
    assert invoke("simulate", *ARGS, "--out", str(out), "-q").exit_code == 0
    pd.testing.assert_frame_equal(load_results(out), reference)


# -- a hand-edited manifest, two runs at once (issue 23) -----------------------------------------
def edit_manifest(out: Path, **changes) -> None:
    manifest = json.loads((out / "manifest.json").read_text())
    for key, value in changes.items():
        if key == "game":
            manifest["game"] = value
        manifest["config"][key] = value
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1))


def test_a_manifest_with_another_seed_is_refused_not_trusted(fresh, tmp_path):
    """The seed changed 3 -> 4 by hand: reading, reporting and `simulate --seed 4` used to
    present the seed-7 games as seed 8's ("0 played now")."""
    edit_manifest(fresh, seed=8)
    before = snapshot(fresh)
    with pytest.raises(UserError) as info:
        load_results(fresh)
    text = str(info.value)
    assert f"{fresh / 'manifest.json'} does not belong to the games stored beside it" in text
    assert "its 8 finished chunks (chunk-000000, ...) were written for run " in text
    assert "put it back" in text and "--restart" in text
    one_line_error(invoke("report", str(fresh), "--out", str(tmp_path / "report")),
                   "manifest.json does not belong to the games stored beside it")
    assert not (tmp_path / "report").exists()  # no folder left behind
    args = [a if a != "7" else "8" for a in ARGS]
    one_line_error(invoke("simulate", *args, "--out", str(fresh)),
                   "manifest.json does not belong to the games stored beside it")
    assert snapshot(fresh) == before  # nothing replayed, nothing deleted
    assert invoke("simulate", *args, "--out", str(fresh), "--restart", "-q").exit_code == 0
    assert run_status(fresh).complete


def test_a_manifest_with_another_game_is_refused(fresh, tmp_path):
    """The game changed by hand: a "Maharani" report was written over Taj Mahal data."""
    edit_manifest(fresh, game="maharani")
    out = tmp_path / "report"
    one_line_error(invoke("report", str(fresh), "--out", str(out)),
                   "manifest.json does not belong to the games stored beside it")
    assert not (out / "report.md").exists()


def test_a_second_run_started_at_the_same_moment_says_another_run_is_writing(tmp_path):
    """The moment after the first run took the lock and before its manifest: the second used to
    say "not empty and holds no tajsim run"."""
    out = tmp_path / "run"
    (out / "chunks").mkdir(parents=True)
    (out / ".lock").write_text(f"{socket.gethostname()} {os.getpid()}")
    one_line_error(invoke("simulate", *ARGS, "--out", str(out)),
                   f"another tajsim run (host {socket.gethostname()}, pid {os.getpid()}) is "
                   f"writing to {str(out)!r}")
    (out / ".lock").unlink()
    one_line_error(invoke("simulate", *ARGS, "--out", str(out)), "holds no tajsim run")


def test_the_lock_is_never_seen_empty(tmp_path, monkeypatch):
    """The lock appears with its writer in it (a dead writer's empty lock would be taken)."""
    from tajsim.running.store import RunStore

    seen = []
    real_link = os.link

    def link(src, dst):
        seen.append(Path(src).read_text())  # what the lock will hold the moment it exists
        return real_link(src, dst)

    monkeypatch.setattr(os, "link", link)
    store = RunStore(tmp_path)
    store._lock()
    assert seen == [f"{socket.gethostname()} {os.getpid()}"]
    assert (tmp_path / ".lock").read_text() == seen[0]
    assert [p.name for p in tmp_path.iterdir()] == [".lock"]  # no temporary left
    store.close()
    assert not (tmp_path / ".lock").exists()


def test_two_identical_runs_started_together(tmp_path):
    """Whichever wins, the other either says that a run is writing or finds the run finished;
    never that the folder "holds no tajsim run"."""
    import subprocess
    import sys

    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        p for p in (str(root), os.environ.get("PYTHONPATH", "")) if p))
    out = tmp_path / "run"
    command = [sys.executable, "-m", "tajsim", "simulate", *ARGS, "--out", str(out), "-q"]
    procs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True) for _ in range(2)]
    results = [(p.wait(timeout=300), p.stderr.read()) for p in procs]
    for code, err in results:
        assert code == 0 or (code == 2 and "another tajsim run" in err and
                             "is writing to" in err), err
        assert "holds no tajsim run" not in err
    assert run_status(out).complete
