"""The files of a stored run: their names, atomic writes, digests, the run's identity and the
lock primitives (see ``store`` for the layout of a run directory)."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from tajsim.errors import cut

MANIFEST = "manifest.json"
FORMAT = 1
CHECK_SUFFIX = ".check.json"
#: 2: the check file records the run's identity (``run_identity``); format 1 did not.
CHECK_FORMAT = 2
#: How a bad or unfinished chunk is repaired, in the words of every message that names one.
REPAIR = ("run the command that wrote it again with the same settings (the same `tajsim "
          "simulate ... --out` or `tajsim run`): it verifies every chunk and replays the bad or "
          "missing ones")


def chunk_name(index: int) -> str:
    return f"chunk-{index:06d}"


def index_of(path: Path) -> int | None:
    stem = path.name.split(".", 1)[0]
    if not stem.startswith("chunk-"):
        return None
    try:
        return int(stem[6:])
    except ValueError:
        return None


def reason(exc: BaseException) -> str:
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


def data_digest(data: bytes) -> dict[str, Any]:
    return {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}


def run_identity(manifest: dict[str, Any]) -> str:
    """The identity of a stored run: the SHA-256 (16 hex digits) of its whole manifest as
    canonical JSON (game, configuration, seed, components, the game's code fingerprint,
    line-up).

    Every chunk's check file records it when the chunk is written, so a manifest edited
    afterwards (another seed, another game) no longer matches its chunks."""
    text = json.dumps(manifest, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def create_with(path: Path, text: str) -> bool:
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


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def show_json(value: Any) -> str:
    return cut(json.dumps(value))
