"""Results-frame helpers shared by the analyses: which columns identify a game and a setup,
a dense game index, checks that each game has one row per seat, win values with shared
ties (see ``tajsim.analysis.stats`` for the conventions), and the per-round score
trajectories as arrays (:func:`trajectories`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["GAME_KEY_CANDIDATES", "NOT_PLAYED", "SETUP_KEY_CANDIDATES", "Trajectories",
           "game_index", "game_key_columns", "round_columns", "setup_key_columns",
           "trajectories", "validate_games", "win_value"]

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


#: A round the game did not reach in the trajectory columns (``tajsim.running.records``).
NOT_PLAYED = -1
_ROUND_COLUMN = re.compile(r"^(?P<name>[a-z_]+)_r(?P<k>\d+)$")


def round_columns(results: pd.DataFrame, name: str = "score") -> list[str]:
    """The trajectory columns ``<name>_r1, <name>_r2, ...`` of ``results``, in round order
    (``docs/results-schema.md``, "Score trajectories"); empty when the records keep none."""
    found = []
    for col in results.columns:
        m = _ROUND_COLUMN.match(str(col))
        if m and m["name"] == name:
            found.append((int(m["k"]), str(col)))
    return [col for _, col in sorted(found)]


@dataclass(frozen=True)
class Trajectories:
    """The score trajectories of games of one table size, game by game and seat by seat.

    Attributes
    ----------
    scores : int64[G, R, n]
        Seat s's score after round r + 1 of game g; ``NOT_PLAYED`` (-1) after the game's last
        round. The last round played holds the final score (after the end scoring).
    rounds : int64[G]
        Rounds recorded (``arc_rounds``).
    final : int64[G, n]
        The final score (``score``).
    winner : bool[G, n]
        Whether the seat won (tied winners all True).
    strategy : object[G, n]
        The seat's strategy label.
    turn : int64[G, R, n] or None
        Maharaja: the seat's place (0 first) in round r + 1's turn order (``turn_r<k>``).
    draft : int64[G, n] or None
        Maharaja: the seat's place in the setup draft (``draft_pos``).
    rows : int64[G, n]
        The rows of ``results`` (positions) each entry came from.
    """

    scores: np.ndarray
    rounds: np.ndarray
    final: np.ndarray
    winner: np.ndarray
    strategy: np.ndarray
    turn: np.ndarray | None
    draft: np.ndarray | None
    rows: np.ndarray

    @property
    def n_games(self) -> int:
        return int(self.scores.shape[0])

    @property
    def n_players(self) -> int:
        return int(self.scores.shape[2])

    def carried(self) -> np.ndarray:
        """float64[G, R, n]: ``scores`` with each game's final score carried past its last
        round (so every game has a score at every round index)."""
        out = self.scores.astype(np.float64)
        r = np.arange(out.shape[1])[None, :, None]
        return np.where(r < self.rounds[:, None, None], out, self.final[:, None, :])

    def at_round(self, k: np.ndarray) -> np.ndarray:
        """int64[G, n]: every seat's score after round ``k[g] + 1`` (0-based ``k`` per game)."""
        return np.take_along_axis(self.scores, np.asarray(k, np.int64)[:, None, None],
                                  axis=1)[:, 0, :]


def trajectories(results: pd.DataFrame) -> Trajectories:
    """The score trajectories of ``results`` (one table size) as arrays, games in order of
    first appearance, seats in order.

    Raises
    ------
    ValueError
        When the frame has no trajectory columns (records written before they existed, or a
        game that keeps none), several table sizes, or games without one row per seat.
    """
    cols = round_columns(results)
    if not cols or "arc_rounds" not in results.columns:
        raise ValueError("results lack the score trajectory (score_r1.., arc_rounds); expected "
                         "records written with the per-round trajectories (docs/results-"
                         "schema.md)")
    sizes = pd.unique(results["n_players"])
    if len(sizes) != 1:
        raise ValueError(f"results mix table sizes {sorted(int(s) for s in sizes)}; expected "
                         "one (select rows by n_players first)")
    validate_games(results)
    n = int(sizes[0])
    gidx = game_index(results)
    order = np.lexsort((results["seat"].to_numpy(), gidx))
    rows = order.reshape(-1, n)
    G = rows.shape[0]
    block = results[cols].to_numpy(np.int64)[order].reshape(G, n, len(cols)).transpose(0, 2, 1)
    turn_cols = round_columns(results, "turn")
    turn = None
    if turn_cols:
        turn = results[turn_cols].to_numpy(np.int64)[order].reshape(G, n, -1).transpose(0, 2, 1)
    draft = (results["draft_pos"].to_numpy(np.int64)[order].reshape(G, n)
             if "draft_pos" in results.columns else None)
    return Trajectories(
        scores=np.ascontiguousarray(block),
        rounds=results["arc_rounds"].to_numpy(np.int64)[rows[:, 0]],
        final=results["score"].to_numpy(np.int64)[order].reshape(G, n),
        winner=results["winner"].to_numpy(bool)[order].reshape(G, n),
        strategy=results["strategy"].astype(str).to_numpy(object)[order].reshape(G, n),
        turn=None if turn is None else np.ascontiguousarray(turn),
        draft=draft, rows=rows)
