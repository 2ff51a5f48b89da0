"""The weights file of a game's ``learned`` strategy (TOML), written by ``tajsim train``.

Layout::

    [learned]
    game = "tajmahal"
    base = "tuned"                 # the strategy whose parameters fill the rest of the vector
    features = ["value", ...]      # the feature names, in order
    weights = [1.0, 0.0, ...]      # theta, one per feature
    base_params = [...]            # the base strategy's whole parameter vector (n_params)
    command = "tajsim train ..."    # what wrote it (optional, with the other metadata)
    seed = 1

    [[round]]                      # one table per expert-iteration round (optional)
    round = 1
    ...

:func:`load_learned_file` checks every key and value and says in one line what is wrong
(``UserError``); :func:`write_learned_file` writes the same layout.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.errors import UserError

__all__ = ["LearnedFile", "load_learned_file", "write_learned_file"]


@dataclass(frozen=True)
class LearnedFile:
    """A learned policy's weights and where they came from.

    Attributes
    ----------
    game, base : str
        The game and the registered strategy whose parameters ``base_params`` are.
    features : tuple of str
        The feature names, in the order of ``theta``.
    theta : float64[n_features]
    base_params : float64[n_params]
    meta : dict
        The other keys of ``[learned]`` (``command``, ``seed``, ``expert``, ...).
    rounds : list of dict
        The ``[[round]]`` tables: what each expert-iteration round measured.
    """

    game: str
    base: str
    features: tuple[str, ...]
    theta: np.ndarray
    base_params: np.ndarray
    meta: dict[str, Any] = field(default_factory=dict)
    rounds: list[dict[str, Any]] = field(default_factory=list)


def _numbers(value: Any, key: str, file: Path, length: int | None = None) -> np.ndarray:
    if not isinstance(value, list) or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in value):
        raise UserError(f"{file}: [learned] {key} = {value!r}; expected a list of numbers")
    arr = np.array(value, np.float64)
    if not np.all(np.isfinite(arr)):
        raise UserError(f"{file}: [learned] {key} holds a value that is not finite; expected "
                        "finite numbers")
    if length is not None and len(arr) != length:
        raise UserError(f"{file}: [learned] {key} has {len(arr)} values; expected {length}")
    return arr


def load_learned_file(path: str | Path, game: str | None = None,
                      features: Sequence[str] | None = None,
                      n_params: int | None = None) -> LearnedFile:
    """Read and check a learned policy's weights file.

    ``game``, ``features`` and ``n_params`` (when given) are what the file must hold: a file of
    another game, with other features (renamed, reordered, more or fewer) or a base vector of
    another length is a one-line ``UserError`` naming the file, so weights are never read
    against the wrong features.
    """
    file = Path(path)
    try:
        data = tomllib.loads(file.read_text())
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"cannot read learned weights {file}: {exc}") from None
    table = data.get("learned")
    if not isinstance(table, dict):
        raise UserError(f"{file}: no [learned] table; expected a file written by tajsim train")
    for key in ("game", "base", "features", "weights", "base_params"):
        if key not in table:
            raise UserError(f"{file}: [learned] misses {key!r}; expected game, base, features, "
                            "weights and base_params")
    if game is not None and table["game"] != game:
        raise UserError(f"{file}: weights of {table['game']!r}; expected {game!r}")
    names = table["features"]
    if not isinstance(names, list) or not all(isinstance(x, str) for x in names):
        raise UserError(f"{file}: [learned] features = {names!r}; expected a list of names")
    if features is not None and tuple(names) != tuple(features):
        raise UserError(f"{file}: features {names} do not match the game's "
                        f"{list(features)}; expected weights trained for these features "
                        "(retrain with tajsim train)")
    theta = _numbers(table["weights"], "weights", file, len(names))
    base_params = _numbers(table["base_params"], "base_params", file, n_params)
    if not isinstance(table["base"], str):
        raise UserError(f"{file}: [learned] base = {table['base']!r}; expected a strategy name")
    meta = {k: v for k, v in table.items()
            if k not in ("game", "base", "features", "weights", "base_params")}
    rounds = data.get("round", [])
    if not isinstance(rounds, list) or not all(isinstance(r, dict) for r in rounds):
        raise UserError(f"{file}: [[round]] must be tables")
    return LearnedFile(str(table["game"]), table["base"], tuple(names), theta, base_params,
                       meta, list(rounds))


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if not math.isfinite(v):
            return '"nan"' if math.isnan(v) else ('"inf"' if v > 0 else '"-inf"')
        return repr(v)
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, (list, tuple, np.ndarray)):
        return "[" + ", ".join(_toml_value(x) for x in value) + "]"
    raise TypeError(f"cannot write {value!r} to TOML")


def write_learned_file(path: str | Path, learned: LearnedFile,
                       header: Sequence[str] = ()) -> Path:
    """Write ``learned`` to ``path`` (the layout of :func:`load_learned_file`, which reads it
    back to check it); ``header`` lines become comments at the top."""
    file = Path(path)
    lines = [f"# {line}" if line else "#" for line in header]
    if lines:
        lines.append("")
    lines.append("[learned]")
    lines.append(f"game = {_toml_value(learned.game)}")
    lines.append(f"base = {_toml_value(learned.base)}")
    lines.append(f"features = {_toml_value(list(learned.features))}")
    lines.append(f"weights = {_toml_value([float(x) for x in learned.theta])}")
    lines.append(f"base_params = {_toml_value([float(x) for x in learned.base_params])}")
    for key, value in learned.meta.items():
        lines.append(f"{key} = {_toml_value(value)}")
    for entry in learned.rounds:
        lines.append("")
        lines.append("[[round]]")
        for key, value in _flat(entry).items():
            lines.append(f"{key} = {_toml_value(value)}")
    file.write_text("\n".join(lines) + "\n")
    load_learned_file(file)
    return file


def _flat(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {str(k): v for k, v in entry.items() if v is not None}
