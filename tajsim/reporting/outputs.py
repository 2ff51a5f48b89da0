"""Output folders that are never someone else's: ``tajsim run`` and ``tajsim report`` write only
into a folder that is empty or holds their own earlier output, and say so in one line otherwise.

A folder a command writes into gets a small mark, ``.tajsim-output.json``, naming the command
and what it wrote the folder for (``Owner``): ``tajsim run`` an experiment (its name and game),
``tajsim report`` a results path. The same command for the same thing finds its own mark and
writes again (``make report`` regenerates ``reports/default`` in place; the shipped reports
carry their marks); anything else is refused before a file is touched:

* a folder marked by another experiment or results path (``run ... --out reports/other``);
* a folder holding files but no mark (a user's own ``report.md``, a run directory),
  hidden files aside.

``force=True`` (``--force``) writes anyway: the folder is then marked as this command's.

A run at another ``--scale`` than 1 (a quick look) is marked with its scale: it is not the
experiment's own report, and never replaces it (``tajsim run ... --scale 0.01`` in a fresh
checkout rewrote the shipped 4,000-game report with a 40-game one).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from tajsim.errors import UserError
from tajsim.running.run_files import atomic_write

__all__ = ["MARK", "Owner", "check_output_folder", "claim_output_folder", "read_owner",
           "release_output_folder"]

#: The mark's file name (hidden: it is not part of the report a reader opens).
MARK = ".tajsim-output.json"


@dataclass(frozen=True)
class Owner:
    """What an output folder was written for.

    ``command``: "run" or "report"; ``of``: the experiment's name (run) or the resolved results
    path (report); ``game``: the game's registered name; ``scale``: a run's ``--scale`` where
    it is not 1 (None: the experiment as its file says).
    """

    command: str
    of: str
    game: str
    scale: float | None = None

    def describe(self) -> str:
        """``tajsim run of experiment 'default' (tajmahal)``, ``... at --scale 0.01``."""
        what = "experiment" if self.command == "run" else "results"
        at = "" if self.scale is None else f" at --scale {self.scale:g}"
        return f"tajsim {self.command} of {what} {self.of!r} ({self.game}){at}"

    def to_bytes(self) -> bytes:
        """The mark's contents: the same bytes every time (the shipped reports keep theirs; a
        scale is written only where there is one)."""
        fields = asdict(self)
        if self.scale is None:
            del fields["scale"]
        return (json.dumps(fields, indent=1) + "\n").encode()


def read_owner(folder: str | Path) -> Owner | None:
    """The owner a folder's mark names (None without a readable mark)."""
    try:
        data = json.loads((Path(folder) / MARK).read_text(encoding="utf-8"))
        scale = data.get("scale")
        return Owner(str(data["command"]), str(data["of"]), str(data["game"]),
                     None if scale is None else float(scale))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def check_output_folder(folder: str | Path, owner: Owner, *, force: bool = False,
                        option: str = "--out") -> None:
    """Refuse, in one ``UserError``, a folder ``owner`` may not write into; writes nothing.

    Allowed: a folder that does not exist, is empty (hidden files aside), or carries
    ``owner``'s own mark; anything with ``force``. ``option`` names the setting in the
    message.
    """
    path = Path(folder)
    if path.exists() and not path.is_dir():
        raise UserError(f"{option} {str(path)!r} is a file; expected a directory")
    if force or not path.exists():
        return
    found = read_owner(path)
    if found == owner:
        return
    hint = f"expected an empty folder or the output of {owner.describe()}: another " \
        f"{option}, or --force to write into it anyway"
    if found is not None:
        raise UserError(f"{option} {str(path)!r} holds the output of {found.describe()}, "
                        f"not of {owner.describe()}; {hint}")
    try:
        visible = sorted(p.name for p in path.iterdir() if not p.name.startswith("."))
    except OSError as exc:
        raise UserError(f"{option} {str(path)!r} cannot be read ({exc.strerror or exc}); "
                        "expected a folder you can write to") from None
    if visible:
        shown = ", ".join(visible[:3]) + (f" and {len(visible) - 3} more" if len(visible) > 3
                                          else "")
        raise UserError(f"{option} {str(path)!r} holds other files ({shown}); {hint}")


def claim_output_folder(folder: str | Path, owner: Owner, *, force: bool = False,
                        option: str = "--out") -> Path:
    """``check_output_folder``, then create the folder and mark it as ``owner``'s (an
    existing identical mark is left as it is). Returns the folder.

    Raises
    ------
    UserError
        The folder is refused, or cannot be created or written.
    """
    path = Path(folder)
    check_output_folder(path, owner, force=force, option=option)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the output directory {str(path)!r} "
                        f"({exc.strerror or exc}); expected a folder you can write to") from None
    try:
        if read_owner(path) != owner:
            atomic_write(path / MARK, owner.to_bytes())
    except OSError as exc:
        raise UserError(f"{option} {str(path)!r} cannot be written ({exc.strerror or exc}); "
                        "expected a folder you can write to") from None
    return path


def release_output_folder(folder: str | Path, *, keep_folder: bool = False) -> None:
    """Undo ``claim_output_folder`` when nothing was written into the folder after all: its
    mark goes, and the folder too where the claim created it (``keep_folder=False``; only if
    empty); anything else stays."""
    path = Path(folder)
    try:
        (path / MARK).unlink(missing_ok=True)
        if not keep_folder:
            path.rmdir()  # only if empty
    except OSError:
        pass
