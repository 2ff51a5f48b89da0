"""Heuristic presets from a TOML file: named weight vectors, each game with its own weights."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tajsim.errors import UserError
from tajsim.strategies.spec import ParamRange

#: Keys of a preset table that are not weights.
NON_WEIGHT_KEYS = ("description", "source")


def load_weight_presets(file: str | Path, weight_names: Sequence[str],
                        what: str = "heuristic presets",
                        weight_range: ParamRange | None = None) -> dict[str, dict]:
    """Preset tables of ``file`` by name: ``{"description": str, "weights":
    float64[len(weight_names)]}``.

    ``[presets.balanced]`` must give every weight; the other presets take its value for the
    weights they leave out. A file that cannot be read, a missing ``balanced``, an unknown
    weight, a value that is not a number or one outside ``weight_range`` (the game's declared
    range of a weight: ``nan`` and ``inf`` never pass) is a one-line ``UserError`` naming the
    file.
    """
    file = Path(file)
    try:
        data = tomllib.loads(file.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"cannot read {what} {file}: {exc}") from None
    tables = data.get("presets", {})
    if "balanced" not in tables:
        raise UserError(f"{file}: [presets.balanced] is required (defaults for the others)")
    names = tuple(weight_names)
    base = _weights_of("balanced", tables["balanced"], None, file, names, weight_range)
    return {name: {"description": str(table.get("description", name)),
                   "weights": _weights_of(name, table, base, file, names, weight_range)}
            for name, table in tables.items()}


def _weights_of(name: str, table: dict, base: np.ndarray | None, file: Path,
                names: tuple[str, ...], weight_range: ParamRange | None) -> np.ndarray:
    weights = np.zeros(len(names)) if base is None else base.copy()
    for key, value in table.items():
        if key in NON_WEIGHT_KEYS:
            continue
        if key not in names:
            raise UserError(f"{file}: preset {name!r} has unknown weight {key!r}; expected one "
                            f"of: {', '.join(names)}")
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise UserError(f"{file}: preset {name!r} weight {key} = {value!r}; expected a "
                            "number")
        problem = None if weight_range is None else weight_range.problem(float(value))
        if weight_range is not None and problem is not None:
            raise UserError(f"{file}: preset {name!r} weight {key} = {value!r} {problem}; "
                            f"expected {weight_range.expected()}")
        weights[names.index(key)] = float(value)
    if base is None:
        missing = [k for k in names if k not in table]
        if missing:
            raise UserError(f"{file}: [presets.balanced] misses weights {', '.join(missing)}")
    return weights
