"""A game's components as the generic layers see them: the :class:`Components` protocol (the
packed vector, digest, description, frame metadata and source paths), :class:`NoComponents` for
a game without component files, and :class:`ComponentSet`, how the spec obtains, loads,
validates and varies them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from tajsim.errors import UserError


@runtime_checkable
class Components(Protocol):
    """What every game's components object offers (its board and pieces, loaded or generated).

    The generic layers read nothing else: the kernels take ``packed()``, a run's identity
    ``digest()``, reports ``describe()``, the game's ``frame_columns`` / ``setup_features``
    ``frame_meta()`` (it travels in a run's task, so plain data), and a game's record the paths
    (a record names only files that are not the shipped ones). A game without component files
    uses :class:`NoComponents` (through :meth:`ComponentSet.without_files`).
    """

    @property
    def board_path(self) -> str | None:
        """Where the board came from (a file path, or a text such as ``"<alternative 3>"``);
        None for a game without one."""

    @property
    def components_path(self) -> str | None:
        """Where the other components came from (the game's second file kind); None if none."""

    def packed(self) -> np.ndarray:
        """The kernels' flat form: int64[comp_size]."""

    def digest(self) -> str:
        """A short hash of the content (run identities and transcript headers)."""

    def describe(self) -> str:
        """Where the components came from, for a report."""

    def frame_meta(self) -> dict[str, Any]:
        """Plain data that the game's ``frame_columns`` and ``setup_features`` read."""


@dataclass(frozen=True)
class NoComponents:
    """The components of a game that has no component files (its pieces are fixed by its
    rules and built into its kernels): an all-zero packed vector of ``comp_size`` slots."""

    comp_size: int
    text: str = "no component files"
    board_path: str | None = None
    components_path: str | None = None

    def packed(self) -> np.ndarray:
        return np.zeros(self.comp_size, np.int64)

    def digest(self) -> str:
        return "none"

    def describe(self) -> str:
        return self.text

    def frame_meta(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class ComponentSet:
    """How a game's components are obtained (its board and pieces, from files or generated).

    Attributes
    ----------
    default : callable ``() -> Components``
        The shipped components (loaded once).
    load : callable ``(board, components) -> Components``
        Components from files (None: the shipped file of that kind); one-line ``UserError``
        naming the file, key, value and what was expected.
    validate : callable ``(board, components) -> list[str]``
        Every problem of the files, one line each ([] when valid).
    alternative : callable ``(seed, base) -> Components``, optional
        A plausible alternative (seeded) for robustness runs.
    file_kinds : tuple of str
        The file kinds ``load`` takes, in order (``--board`` / ``--components``); empty for a
        game without component files.
    detect_kind : callable ``(parsed TOML) -> str | None``, optional
        Which kind a parsed file is (``tajsim board validate FILE``).

    The objects returned follow the :class:`Components` protocol.
    """

    default: Callable[[], Components]
    load: Callable[..., Components]
    validate: Callable[..., list[str]]
    alternative: Callable[..., Components] | None = None
    file_kinds: tuple[str, ...] = ("board", "components")
    detect_kind: Callable[[Any], str | None] | None = None

    @classmethod
    def without_files(cls, title: str, comp_size: int, text: str = "") -> ComponentSet:
        """The component set of a game with no component files: ``default`` is one
        :class:`NoComponents`; ``load`` and ``validate`` refuse any file, naming it."""
        shipped = NoComponents(comp_size, text or f"no component files ({title})")

        def load(board: str | None = None, components: str | None = None) -> NoComponents:
            given = board or components
            if given:
                raise UserError(f"{title} has no component files; got {str(given)!r}, "
                                "expected none")
            return shipped

        def validate(board: str | None = None, components: str | None = None) -> list[str]:
            return [f"{f}: {title} has no component files" for f in (board, components) if f]

        return cls(default=lambda: shipped, load=load, validate=validate, file_kinds=())
