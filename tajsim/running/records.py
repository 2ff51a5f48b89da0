"""From the kernels' record arrays to the results frame of ``docs/results-schema.md``.

``results_frame`` joins ``RESULT_DTYPE`` (one row per player) and ``SETUP_DTYPE`` (one row per
game) into one row per player per game, column for column as the schema says; ``to_parquet``
writes a frame as Parquet bytes the same way everywhere (the chunk files are byte-identical
whichever process or machine made them, for the same library versions).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from tajsim.games.tajmahal.engine import enums as E

EDITION_CATEGORIES = list(E.EDITION_NAMES)
#: Categories of the ``bonus_<city>`` columns: the square bonus tiles (the Taj Mahal +4 tile
#: lies on Agra, which has no column; "taj4" is added only if a component file puts one on a
#: fortress).
BONUS_CATEGORIES = list(E.BONUS_NAMES[: E.BONUS.TAJ4])
PART_COLUMNS = tuple(f"pts_{name}" for name in E.PART_NAMES)
GOODS_COLUMNS = tuple(f"goods_{name}" for name in E.GOOD_NAMES)
PARQUET_COMPRESSION = "zstd"


def bonus_categories(packed: Sequence[int]) -> list[str]:
    """Categories for the ``bonus_<city>`` columns of a run on the packed components."""
    comp = np.asarray(packed, np.int64)
    n = int(comp[E.C_N_BONUS_TILES])
    kinds = comp[E.C_BONUS_TILES:E.C_BONUS_TILES + n]
    if n and kinds.max() >= E.BONUS.TAJ4:
        return list(E.BONUS_NAMES)
    return list(BONUS_CATEGORIES)


def results_frame(task: dict[str, Any], results: np.ndarray, setups: np.ndarray,
                  lineups: np.ndarray) -> pd.DataFrame:
    """The results frame of one batch of games.

    Parameters
    ----------
    task : dict
        ``RunConfig.task()``.
    results : RESULT_DTYPE[G * n_players]
    setups : SETUP_DTYPE[G]
    lineups : int64[G, n_players], label index (``task["labels"]``) of each seat
    """
    n = int(task["players"])
    G = setups.shape[0]
    rows = G * n
    comps = task["components"]
    cols: dict[str, Any] = {
        "game_id": results["game_id"].astype(np.int64),
        "seed": np.full(rows, int(task["seed"]), np.int64),
        "edition": pd.Categorical.from_codes(
            np.full(rows, EDITION_CATEGORIES.index(task["edition"]), np.int8),
            categories=EDITION_CATEGORIES),
        "n_players": np.full(rows, n, np.int8),
        "seat": results["seat"].astype(np.int8),
        "strategy": pd.Categorical.from_codes(
            np.asarray(lineups, np.int64).reshape(-1), categories=list(task["labels"])),
        "score": results["score"],
        "rank": results["rank"],
        "winner": results["winner"],
    }
    for name in (*PART_COLUMNS, *GOODS_COLUMNS, "n_palaces", "n_province_tiles",
                 "n_bonus_tiles", "n_prestige", "hand_end"):
        cols[name] = results[name]
    per_game = np.arange(G).repeat(n)
    cols["setup_id"] = setups["setup_id"][per_game].astype(np.int64)
    # visit number (1..12) of every province
    order = setups["province_order"].astype(np.int64)  # [G, 12] province of visit k
    visit_of = np.zeros((G, E.N_PROVINCES), np.int8)
    np.put_along_axis(visit_of, order,
                      np.broadcast_to(np.arange(1, E.N_VISITS + 1, dtype=np.int8),
                                      (G, E.N_VISITS)), axis=1)
    for prov, slug in enumerate(comps["province_slugs"]):
        cols[f"visit_{slug}"] = visit_of[per_game, prov]
    categories = bonus_categories(comps["packed"])
    bonus_at = setups["bonus_at"].astype(np.int64)
    for city, slug in zip(comps["bonus_cities"], comps["bonus_city_slugs"]):
        codes = bonus_at[per_game, city]
        cols[f"bonus_{slug}"] = pd.Categorical.from_codes(codes, categories=categories)
    seat = np.tile(np.arange(n, dtype=np.int64), G)
    owner = setups["tile_owner"].astype(np.int64)[per_game]  # [rows, 12]
    won = owner == seat[:, None]
    for k in range(E.N_VISITS):
        cols[f"tile_won_v{k + 1}"] = won[:, k]
    chain = setups["conn_by_visit"][per_game, :, seat]  # [rows, 12]
    for k in range(E.N_VISITS):
        cols[f"chain_v{k + 1}"] = chain[:, k].astype(np.int8)
    for name in ("n_turns", "n_reshuffles", "n_protests"):
        cols[name] = setups[name][per_game]
    return pd.DataFrame(cols)


def to_parquet(frame: pd.DataFrame) -> bytes:
    """``frame`` as Parquet bytes (pyarrow, zstd, no index)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    buf = io.BytesIO()
    pq.write_table(table, buf, compression=PARQUET_COMPRESSION)
    return buf.getvalue()


def read_parquet_files(paths: Sequence[Any]) -> pd.DataFrame:
    """Concatenate Parquet files (in the given order) into one frame with a fresh index.

    Files of one run share their columns; files of several runs may not (other boards have
    other ``bonus_<city>`` columns): those are joined with :func:`concat_results`.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    tables = [pq.read_table(p) for p in paths]
    if not tables:
        return pd.DataFrame()
    groups: list[list[Any]] = [[tables[0]]]
    for t in tables[1:]:
        if t.schema.remove_metadata().equals(groups[-1][0].schema.remove_metadata()):
            groups[-1].append(t)
        else:
            groups.append([t])
    frames = [(pa.concat_tables(g) if len(g) > 1 else g[0]).to_pandas() for g in groups]
    return frames[0] if len(frames) == 1 else concat_results(frames)


def concat_results(frames: Sequence[pd.DataFrame], run_ids: Sequence[str] | None = None,
                   variants: Sequence[str | None] | None = None) -> pd.DataFrame:
    """Concatenate results frames of several runs, keeping categorical columns categorical
    (union of the categories) and adding ``run_id`` / ``variant`` columns when given."""
    frames = [f.copy() for f in frames]
    for i, f in enumerate(frames):
        if run_ids is not None:
            f.insert(0, "run_id", run_ids[i])
        if variants is not None:
            f.insert(0, "variant", variants[i] if variants[i] is not None else "default")
    if len(frames) == 1:
        out = frames[0]
        for col in ("run_id", "variant"):
            if col in out.columns:
                out[col] = out[col].astype("category")
        return out
    categorical = {c for f in frames for c in f.columns
                   if isinstance(f[c].dtype, pd.CategoricalDtype) or c in ("run_id", "variant")}
    for col in categorical:
        cats: list[Any] = []
        for f in frames:
            if col in f.columns:
                values = (f[col].cat.categories if isinstance(f[col].dtype, pd.CategoricalDtype)
                          else pd.unique(f[col].dropna()))
                cats.extend(v for v in values if v not in cats)
        for f in frames:
            if col in f.columns:
                f[col] = pd.Categorical(f[col].astype(object), categories=cats)
            else:
                f[col] = pd.Categorical([None] * len(f), categories=cats)
    columns: list[str] = []
    for f in frames:
        columns.extend(c for c in f.columns if c not in columns)
    return pd.concat([f.reindex(columns=columns) for f in frames], ignore_index=True)
