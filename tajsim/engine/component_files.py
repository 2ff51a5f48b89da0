"""Reading and checking component files: the helpers every game's loader shares.

A game's components (board, tiles, cards...) live in TOML files, every fact marked
``"sourced: ..."`` or ``"reconstructed: ..."`` in a ``[provenance]`` table, so an owner of the
game can correct them by passing edited copies. A loader collects every problem of a file as one
line ("<file>: <key>: <bad value>, expected <what>") with :class:`Problems` and raises
:class:`ComponentError` (a ``UserError``: one line, exit status 2 on the command line) on the
first one; the game's ``validate`` call returns them all.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.errors import UserError

PROVENANCE_PREFIXES = ("sourced:", "reconstructed:")


class ComponentError(UserError):
    """A component file is unreadable or breaks a documented constraint.

    The message is one line naming the file, the key, the bad value and what was expected.
    """


def slug(name: str) -> str:
    """Column-safe name: lower case, every non-letter replaced by ``_`` ("Dera Ismail Khan" ->
    "dera_ismail_khan")."""
    return re.sub(r"[^a-z]", "_", name.lower())


class Problems:
    """Collects one-line problems of one file: "<file>: <where>: <what>"."""

    def __init__(self, label: str, out: list[str]) -> None:
        self.label = label
        self.out = out
        self.start = len(out)

    def add(self, where: str, what: str) -> None:
        line = f"{self.label}: {where}: {what}" if where else f"{self.label}: {what}"
        self.out.append(" ".join(line.split()))

    @property
    def clean(self) -> bool:
        return len(self.out) == self.start


def show_value(value: Any) -> str:
    """A value as it would read in TOML, kept short and on one line."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, str):
        text = '"' + value + '"'
    elif isinstance(value, dict):
        text = "{" + ", ".join(f"{k} = {show_value(v)}" for k, v in value.items()) + "}"
    elif isinstance(value, list):
        text = "[" + ", ".join(show_value(v) for v in value) + "]"
    else:
        text = str(value)
    text = " ".join(text.split())
    return text if len(text) <= 80 else text[:77] + "..."


def choices(names: Iterable[str]) -> str:
    return "one of " + ", ".join(names)


def is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and np.isfinite(v)


def read_toml_into(path: Path, label: str, problems: list[str]) -> dict[str, Any] | None:
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        problems.append(f"{label}: file not found")
    except IsADirectoryError:
        problems.append(f"{label}: is a directory, expected a TOML file")
    except OSError as exc:
        problems.append(f"{label}: cannot read: {exc.strerror or exc}")
    except tomllib.TOMLDecodeError as exc:
        problems.append(" ".join(f"{label}: not valid TOML: {exc}".split()))
    except UnicodeDecodeError:
        problems.append(f"{label}: not valid TOML: not UTF-8 text")
    return None


def read_toml(path: str | Path) -> dict[str, Any]:
    """Parse a TOML file; raises ``ComponentError`` (one line) when it cannot be read."""
    problems: list[str] = []
    doc = read_toml_into(Path(path), str(path), problems)
    if doc is None:
        raise ComponentError(problems[0])
    return doc


def check_unknown(
    pb: Problems, where: str, table: dict[str, Any], allowed: Sequence[str]
) -> None:
    for key in table:
        if key not in allowed:
            pb.add(where, f"unknown key {show_value(key)}, expected {choices(allowed)}")


def check_provenance(pb: Problems, doc: dict[str, Any], required: Sequence[str]) -> dict:
    prov = doc.get("provenance")
    if not isinstance(prov, dict):
        pb.add("provenance", f"missing [provenance] table, expected keys {', '.join(required)}")
        return {}
    check_unknown(pb, "provenance", prov, required)
    out = {}
    for key in required:
        value = prov.get(key)
        if value is None:
            pb.add("provenance", f"missing key {key}, expected \"sourced: ...\" or "
                   "\"reconstructed: ...\"")
        elif not isinstance(value, str) or not value.startswith(PROVENANCE_PREFIXES):
            pb.add(f"provenance.{key}", f"got {show_value(value)}, expected a string starting "
                   "with \"sourced:\" or \"reconstructed:\"")
        else:
            out[key] = " ".join(value.split())
    return out


def check_name(pb: Problems, where: str, value: Any) -> bool:
    if not isinstance(value, str) or not value.strip():
        pb.add(where, f"name = {show_value(value)}, expected a non-empty string")
        return False
    if not re.search(r"[A-Za-z]", value):
        pb.add(where, f"name = {show_value(value)}, expected at least one letter")
        return False
    return True


def connected_groups(nodes: set[int], edges: Iterable[Sequence[int]]) -> list[set[int]]:
    """Connected components of an undirected graph, largest first."""
    parent = {x: x for x in nodes}

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in edges:
        parent[find(a)] = find(b)
    groups: dict[int, set[int]] = {}
    for x in nodes:
        groups.setdefault(find(x), set()).add(x)
    return sorted(groups.values(), key=lambda g: (-len(g), min(g)))
