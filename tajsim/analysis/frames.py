"""Results-frame helpers shared by the analyses: which columns identify a game and a setup,
a dense game index, checks that each game has one row per seat, and win values with shared
ties (see ``tajsim.analysis.stats`` for the conventions)."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["GAME_KEY_CANDIDATES", "SETUP_KEY_CANDIDATES", "game_index", "game_key_columns",
           "setup_key_columns", "validate_games", "win_value"]

#: Columns that, together, identify one game (those present are used). ``variant`` / ``run_id``
#: are optional columns a caller may add when concatenating several runs.
GAME_KEY_CANDIDATES = ("variant", "run_id", "seed", "edition", "n_players", "game_id")
#: Columns that, together, identify one setup (board): the runner replays it from seed + setup_id.
SETUP_KEY_CANDIDATES = ("variant", "run_id", "seed", "edition", "n_players", "setup_id")


def game_key_columns(results: pd.DataFrame) -> list[str]:
    """Columns of ``results`` that identify a game: the present ones of ``GAME_KEY_CANDIDATES``."""
    cols = [c for c in GAME_KEY_CANDIDATES if c in results.columns]
    if "game_id" not in cols:
        raise ValueError("results lack the game_id column; expected docs/results-schema.md")
    return cols


def setup_key_columns(results: pd.DataFrame) -> list[str]:
    """Columns that identify a setup (board): the present ones of ``SETUP_KEY_CANDIDATES``."""
    cols = [c for c in SETUP_KEY_CANDIDATES if c in results.columns]
    if "setup_id" not in cols:
        raise ValueError("results lack the setup_id column; expected docs/results-schema.md")
    return cols


def game_index(results: pd.DataFrame) -> np.ndarray:
    """Dense int64 game number (0..n_games-1) of each row, in order of first appearance."""
    cols = game_key_columns(results)
    if len(cols) == 1:
        return pd.factorize(results[cols[0]], sort=False)[0].astype(np.int64)
    return results.groupby(cols, sort=False, observed=True).ngroup().to_numpy(np.int64)


def validate_games(results: pd.DataFrame) -> None:
    """Check that each game has one row per seat (``n_players`` rows, seats 0..n-1).

    Raises
    ------
    ValueError
        When games collide (e.g. two runs concatenated without a distinguishing ``variant`` or
        ``run_id`` column) or rows are missing.
    """
    gidx = game_index(results)
    sizes = np.bincount(gidx)
    expected = results.groupby(gidx, sort=True)["n_players"].first().to_numpy()
    bad = np.flatnonzero(sizes != expected)
    if bad.size:
        raise ValueError(
            f"{bad.size} games do not have exactly n_players rows; add a 'variant' or 'run_id' "
            "column when concatenating runs that reuse seeds and game ids"
        )


def win_value(results: pd.DataFrame, *, share_ties: bool = True) -> pd.Series:
    """Win value of each player-game.

    Parameters
    ----------
    results : DataFrame
        Needs ``winner`` and the game-key columns.
    share_ties : bool
        ``True``: each of ``k`` tied winners gets ``1/k`` (a game's values sum to 1, baseline
        ``1/n_players``). ``False``: every tied winner gets 1.

    Returns
    -------
    Series of float64, shape (len(results),), aligned on ``results.index``
    """
    won = results["winner"].astype(np.float64)
    if not share_ties:
        return won.rename("win")
    gidx = game_index(results)
    winners_in_game = np.bincount(gidx, weights=won.to_numpy())
    k = winners_in_game[gidx]
    with np.errstate(invalid="ignore", divide="ignore"):
        shared = np.where(k > 0, won.to_numpy() / k, 0.0)
    return pd.Series(shared, index=results.index, name="win")
