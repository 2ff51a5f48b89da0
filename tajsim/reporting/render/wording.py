"""Words the sections share: what was simulated in one sentence, lists joined in prose, group
labels and the columns that name a setup or a facet."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.frames import game_index


def n_games(frame: pd.DataFrame) -> int:
    return int(np.unique(game_index(frame)).size) if len(frame) else 0


def join_words(items: Sequence[str]) -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def describe_simulation(frame: pd.DataFrame, config: dict[str, Any] | None = None) -> str:
    """One sentence: strategies, player counts, editions, seed(s) and number of games of
    ``frame`` (seed and experiment name from ``config`` when given)."""
    config = config or {}
    strategies = sorted(frame["strategy"].astype(str).unique())
    players = sorted(int(p) for p in frame["n_players"].unique())
    parts = []
    name = config.get("name") or config.get("experiment")
    if name:
        parts.append(f"experiment '{name}'")
    parts.append(f"{join_words([str(p) for p in players])}-player games")
    if "edition" in frame.columns:
        editions = sorted(frame["edition"].astype(str).unique())
        parts.append(f"edition {join_words(editions)}")
    shown = strategies if len(strategies) <= 8 else strategies[:8] + ["..."]
    parts.append(f"strategies {', '.join(shown)}")
    seed = config.get("seed")
    if seed is None and "seed" in frame.columns:
        seeds = sorted(int(s) for s in frame["seed"].unique())
        seed = seeds[0] if len(seeds) == 1 else f"{len(seeds)} seeds"
    if isinstance(seed, str) and seed.endswith(" seeds"):
        parts.append(seed)
    elif seed is not None:
        parts.append(f"seed {seed}")
    if "variant" in frame.columns and frame["variant"].nunique() > 1:
        parts.append(f"{frame['variant'].nunique()} variants")
    return f"Simulated: {'; '.join(parts)}; n = {n_games(frame):,} games."


def group_label(row: pd.Series, cols: Sequence[str]) -> str:
    parts = []
    for c in cols:
        if c == "n_players":
            parts.append(f"{int(row[c])}p")
        elif c == "edition":
            parts.append(f"ed. {row[c]}")
        else:
            parts.append(str(row[c]))
    return " ".join(parts)


def setup_keys(r: pd.DataFrame) -> list[str]:
    return [c for c in ("variant", "run_id", "seed", "edition", "n_players", "setup_id")
            if c in r.columns]


def facet_groups(r: pd.DataFrame) -> list[str]:
    return [c for c in ("edition", "n_players") if c in r.columns and r[c].nunique() > 1] or [
        "n_players"]
