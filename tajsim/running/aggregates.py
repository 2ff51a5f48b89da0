"""Mergeable aggregates: counts, sums and sums of squares, computed per chunk.

Every array is ``int64`` (shared wins are counted in 60ths, ``WIN_SHARE_SCALE``: 1/k for k tied
winners is a whole number of 60ths for k <= 5), so merging is exact and independent of the order
in which chunks finish: a run of 10^8 games can skip its raw rows (``records=False``) and still
report win rates, mean scores and their confidence intervals in bounded memory.

Arrays (S strategies = distinct strategy texts, P seats, M = ``METRICS``, K = ``SETUP_METRICS``):

==================  ===========================  ============================================
name                shape                        meaning
==================  ===========================  ============================================
``games``           ()                           games
``n``               [S, P]                       player-games of strategy s in seat p
``sum``/``sumsq``   [S, P, M]                    sums / sums of squares of each metric
``chain``           [S, P, 12]                   palace + connection points at visit k
``tile``            [S, P, 12]                   province tiles of visit k claimed
``game_sum``/...sq  [GM]                         per-game metrics (``GAME_METRICS``)
``visit_n``         [12, 12, P]                  player-games: province r visited at visit v
``visit_sum``/sq    [12, 12, P, K]               ... sums of ``SETUP_METRICS``
``bonus_n``         [B, 7, P]                    player-games: bonus city b started with kind k
``bonus_sum``/sq    [B, 7, P, K]                 ... sums of ``SETUP_METRICS``
==================  ===========================  ============================================
"""

from __future__ import annotations

import io
import json
import zipfile
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from tajsim.games.tajmahal.engine import enums as E

WIN_SHARE_SCALE = 60  # lcm(1..5): 1/k of a win is a whole number of 60ths
METRICS = (
    "win", "win_share", "score", *(f"pts_{p}" for p in E.PART_NAMES), "rank", "n_palaces",
    "n_province_tiles", "n_bonus_tiles", "n_prestige", *(f"goods_{g}" for g in E.GOOD_NAMES),
    "hand_end",
)
SETUP_METRICS = ("win", "win_share", "score")
GAME_METRICS = ("n_turns", "n_reshuffles", "n_protests", "n_winners", "top_score", "margin")
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)


@dataclass
class Aggregates:
    """Sums over a set of games; ``merge`` adds another set. See the module docstring."""

    labels: tuple[str, ...]
    players: int
    province_slugs: tuple[str, ...]
    bonus_city_slugs: tuple[str, ...]
    arrays: dict[str, np.ndarray] = field(default_factory=dict)

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def empty(cls, labels, players, province_slugs, bonus_city_slugs) -> Aggregates:
        S, P, B = len(labels), int(players), len(bonus_city_slugs)
        M, K, V = len(METRICS), len(SETUP_METRICS), E.N_VISITS
        shapes = {
            "games": (), "n": (S, P), "sum": (S, P, M), "sumsq": (S, P, M),
            "chain": (S, P, V), "tile": (S, P, V),
            "game_sum": (len(GAME_METRICS),), "game_sumsq": (len(GAME_METRICS),),
            "visit_n": (E.N_PROVINCES, V, P), "visit_sum": (E.N_PROVINCES, V, P, K),
            "visit_sumsq": (E.N_PROVINCES, V, P, K),
            "bonus_n": (B, E.N_BONUS_KINDS, P), "bonus_sum": (B, E.N_BONUS_KINDS, P, K),
            "bonus_sumsq": (B, E.N_BONUS_KINDS, P, K),
        }
        return cls(tuple(labels), P, tuple(province_slugs), tuple(bonus_city_slugs),
                   {k: np.zeros(s, np.int64) for k, s in shapes.items()})

    @classmethod
    def from_task(cls, task: dict[str, Any]) -> Aggregates:
        comps = task["components"]
        return cls.empty(task["labels"], task["players"], comps["province_slugs"],
                         comps["bonus_city_slugs"])

    @classmethod
    def from_records(cls, task: dict[str, Any], results: np.ndarray, setups: np.ndarray,
                     lineups: np.ndarray) -> Aggregates:
        """Aggregates of one batch (the kernels' record arrays, see ``records.results_frame``)."""
        agg = cls.from_task(task)
        a = agg.arrays
        P = agg.players
        S = len(agg.labels)
        G = setups.shape[0]
        if G == 0:
            return agg
        strat = np.asarray(lineups, np.int64).reshape(-1)
        seat = results["seat"].astype(np.int64)
        score = results["score"].astype(np.int64).reshape(G, P)
        winner = results["winner"].astype(np.int64).reshape(G, P)
        n_win = winner.sum(axis=1)
        share = (winner * (WIN_SHARE_SCALE // np.maximum(n_win, 1))[:, None]).reshape(-1)
        values = np.empty((G * P, len(METRICS)), np.int64)
        values[:, 0] = winner.reshape(-1)
        values[:, 1] = share
        values[:, 2] = score.reshape(-1)
        for j, name in enumerate(METRICS[3:], start=3):
            values[:, j] = results[name]
        cell = strat * P + seat
        a["games"] += G
        a["n"] += np.bincount(cell, minlength=S * P).reshape(S, P)
        a["sum"] += _group_sum(cell, values, S * P).reshape(S, P, -1)
        a["sumsq"] += _group_sum(cell, values * values, S * P).reshape(S, P, -1)
        per_game = np.arange(G).repeat(P)
        chain = setups["conn_by_visit"][per_game, :, seat].astype(np.int64)
        a["chain"] += _group_sum(cell, chain, S * P).reshape(S, P, -1)
        tile = (setups["tile_owner"].astype(np.int64)[per_game] == seat[:, None]).astype(np.int64)
        a["tile"] += _group_sum(cell, tile, S * P).reshape(S, P, -1)
        # per game
        sorted_scores = np.sort(score, axis=1)
        margin = sorted_scores[:, -1] - sorted_scores[:, -2] if P > 1 else np.zeros(G, np.int64)
        gvals = np.stack([
            setups["n_turns"].astype(np.int64), setups["n_reshuffles"].astype(np.int64),
            setups["n_protests"].astype(np.int64), n_win, sorted_scores[:, -1], margin,
        ], axis=1)
        a["game_sum"] += gvals.sum(axis=0)
        a["game_sumsq"] += (gvals * gvals).sum(axis=0)
        # setup features, by seat
        svals = values[:, :3]
        order = setups["province_order"].astype(np.int64)  # [G, V] province of visit v
        visit_of = np.empty_like(order)
        np.put_along_axis(visit_of, order, np.broadcast_to(np.arange(E.N_VISITS), order.shape),
                          axis=1)
        R, V = E.N_PROVINCES, E.N_VISITS
        for prov in range(R):
            vcell = visit_of[per_game, prov] * P + seat
            a["visit_n"][prov] += np.bincount(vcell, minlength=V * P).reshape(V, P)
            a["visit_sum"][prov] += _group_sum(vcell, svals, V * P).reshape(V, P, -1)
            a["visit_sumsq"][prov] += _group_sum(vcell, svals * svals, V * P).reshape(V, P, -1)
        bonus_at = setups["bonus_at"].astype(np.int64)
        KB = E.N_BONUS_KINDS
        for b, city in enumerate(task["components"]["bonus_cities"]):
            kind = bonus_at[per_game, city]
            ok = kind >= 0
            bcell = kind[ok] * P + seat[ok]
            a["bonus_n"][b] += np.bincount(bcell, minlength=KB * P).reshape(KB, P)
            a["bonus_sum"][b] += _group_sum(bcell, svals[ok], KB * P).reshape(KB, P, -1)
            a["bonus_sumsq"][b] += _group_sum(bcell, svals[ok] ** 2, KB * P).reshape(KB, P, -1)
        return agg

    # -- merging ---------------------------------------------------------------------------
    def _key(self) -> tuple:
        return (self.labels, self.players, self.province_slugs, self.bonus_city_slugs)

    def merge(self, other: Aggregates) -> Aggregates:
        """Add ``other`` into ``self`` (same run layout) and return ``self``."""
        if self._key() != other._key():
            raise ValueError("cannot merge aggregates of runs with different layouts")
        for k, v in other.arrays.items():
            self.arrays[k] += v
        return self

    @property
    def games(self) -> int:
        return int(self.arrays["games"])

    # -- serialisation ---------------------------------------------------------------------
    def to_bytes(self) -> bytes:
        """An ``.npz`` archive (fixed timestamps: the same sums give the same bytes)."""
        buf = io.BytesIO()
        meta = {"labels": list(self.labels), "players": self.players,
                "province_slugs": list(self.province_slugs),
                "bonus_city_slugs": list(self.bonus_city_slugs),
                "win_share_scale": WIN_SHARE_SCALE, "metrics": list(METRICS),
                "setup_metrics": list(SETUP_METRICS), "game_metrics": list(GAME_METRICS)}
        with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            info = zipfile.ZipInfo("meta.json", date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, json.dumps(meta, sort_keys=True))
            for name in sorted(self.arrays):
                arr = io.BytesIO()
                np.save(arr, self.arrays[name], allow_pickle=False)
                info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, arr.getvalue())
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> Aggregates:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            meta = json.loads(zf.read("meta.json"))
            arrays = {
                name[:-4]: np.load(io.BytesIO(zf.read(name)), allow_pickle=False)
                for name in zf.namelist() if name.endswith(".npy")
            }
        if meta.get("metrics") != list(METRICS):
            raise ValueError("aggregates written by another tajsim version (metrics differ)")
        return cls(tuple(meta["labels"]), int(meta["players"]), tuple(meta["province_slugs"]),
                   tuple(meta["bonus_city_slugs"]), arrays)

    # -- tables ----------------------------------------------------------------------------
    def summary(self, confidence: float = 0.95) -> pd.DataFrame:
        """Win rate and mean score (with its parts) by strategy, by seat and overall.

        One row per group: ``group`` ("strategy", "seat", "all"), ``strategy`` (or "*"),
        ``seat`` (or -1), ``n`` (player-games), ``win_rate`` (ties shared: each of k tied
        winners counts 1/k, so win rates of a table add up to 1) with a Wilson interval
        ``win_ci_low`` / ``win_ci_high``, ``score`` (mean) with a normal interval
        ``score_ci_low`` / ``score_ci_high``, ``score_sd``, and the mean of every score part
        (``pts_palace`` ... ``pts_cards``).
        """
        a = self.arrays
        rows = []
        for s, label in enumerate(self.labels):
            rows.append(("strategy", label, -1, a["n"][s].sum(), a["sum"][s].sum(axis=0),
                         a["sumsq"][s].sum(axis=0)))
        for p in range(self.players):
            rows.append(("seat", "*", p, a["n"][:, p].sum(), a["sum"][:, p].sum(axis=0),
                         a["sumsq"][:, p].sum(axis=0)))
        rows.append(("all", "*", -1, a["n"].sum(), a["sum"].sum(axis=(0, 1)),
                     a["sumsq"].sum(axis=(0, 1))))
        return _summary_frame(rows, confidence)

    def by_strategy_seat(self, confidence: float = 0.95) -> pd.DataFrame:
        """The summary's columns for every (strategy, seat) cell."""
        a = self.arrays
        rows = [("strategy_seat", label, p, a["n"][s, p], a["sum"][s, p], a["sumsq"][s, p])
                for s, label in enumerate(self.labels) for p in range(self.players)]
        return _summary_frame(rows, confidence)

    def game_stats(self) -> pd.DataFrame:
        """Mean and standard deviation of the per-game metrics (``GAME_METRICS``)."""
        g = max(self.games, 1)
        mean = self.arrays["game_sum"] / g
        var = np.maximum(self.arrays["game_sumsq"] / g - mean**2, 0.0)
        return pd.DataFrame({"metric": list(GAME_METRICS), "mean": mean, "sd": np.sqrt(var),
                             "games": self.games})

    def setup_features(self) -> pd.DataFrame:
        """Win rate and mean score by seat for every setup feature value.

        Features: ``visit_<province>`` = visit number 1..12, ``bonus_<city>`` = starting bonus
        tile kind; only the values that occurred. Columns: ``feature``, ``value``, ``seat``,
        ``n``, ``win_rate`` (shared), ``win_ci_low``/``win_ci_high``, ``score``, ``score_sd``.
        """
        a = self.arrays
        frames = []
        P = self.players
        for prov, slug in enumerate(self.province_slugs):
            for v in range(E.N_VISITS):
                for p in range(P):
                    if not a["visit_n"][prov, v, p]:
                        continue
                    frames.append((f"visit_{slug}", str(v + 1), p, a["visit_n"][prov, v, p],
                                   a["visit_sum"][prov, v, p], a["visit_sumsq"][prov, v, p]))
        for b, slug in enumerate(self.bonus_city_slugs):
            for k in range(E.N_BONUS_KINDS):
                for p in range(P):
                    if a["bonus_n"][b, k, p]:
                        frames.append((f"bonus_{slug}", E.BONUS_NAMES[k], p, a["bonus_n"][b, k, p],
                                       a["bonus_sum"][b, k, p], a["bonus_sumsq"][b, k, p]))
        if not frames:
            return pd.DataFrame()
        feature, value, seat, n, sums, sumsqs = zip(*frames)
        n = np.asarray(n, np.float64)
        sums = np.asarray(sums, np.float64)
        sumsqs = np.asarray(sumsqs, np.float64)
        safe = np.maximum(n, 1)
        wins = sums[:, 1] / WIN_SHARE_SCALE
        low, high = wilson_interval(wins, n)
        mean = sums[:, 2] / safe
        sd = np.sqrt(np.maximum(sumsqs[:, 2] / safe - mean**2, 0) * safe / np.maximum(n - 1, 1))
        return pd.DataFrame({
            "feature": feature, "value": value, "seat": np.asarray(seat, np.int64),
            "n": n.astype(np.int64), "win_rate": wins / safe, "win_ci_low": low,
            "win_ci_high": high, "score": mean, "score_sd": sd,
        })


def _group_sum(cell: np.ndarray, values: np.ndarray, n_cells: int) -> np.ndarray:
    """Sum of ``values`` rows (int64[N, k]) by ``cell``: int64[n_cells, k].

    A compiled loop (exact in int64, and it releases the GIL so worker threads keep playing);
    ``np.add.at`` took about as long as playing the games of a ``random`` chunk.
    """
    from tajsim.running.kernels import group_sum_nb

    out = np.zeros((n_cells, values.shape[1]), np.int64)
    group_sum_nb(np.ascontiguousarray(cell, np.int64), np.ascontiguousarray(values, np.int64),
                 out)
    return out


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval for ``successes`` out of ``n`` (fractional successes allowed)."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    n = np.asarray(n, np.float64)
    safe = np.maximum(n, 1)
    p = np.asarray(successes, np.float64) / safe
    denom = 1 + z * z / safe
    centre = (p + z * z / (2 * safe)) / denom
    half = z * np.sqrt(p * (1 - p) / safe + z * z / (4 * safe * safe)) / denom
    low = np.where(n > 0, centre - half, np.nan)
    high = np.where(n > 0, centre + half, np.nan)
    return np.clip(low, 0, 1), np.clip(high, 0, 1)


def _summary_frame(rows, confidence: float) -> pd.DataFrame:
    from statistics import NormalDist

    z = NormalDist().inv_cdf(0.5 + confidence / 2)
    group, strategy, seat, n, sums, sumsqs = zip(*rows)
    n = np.asarray(n, np.float64)
    sums = np.asarray(sums, np.float64)
    sumsqs = np.asarray(sumsqs, np.float64)
    safe = np.maximum(n, 1)
    idx = {m: j for j, m in enumerate(METRICS)}
    wins = sums[:, idx["win_share"]] / WIN_SHARE_SCALE
    low, high = wilson_interval(wins, n, confidence)
    mean = sums / safe[:, None]
    var = np.maximum(sumsqs / safe[:, None] - mean**2, 0) * (safe / np.maximum(n - 1, 1))[:, None]
    sd = np.sqrt(var)
    half = z * sd[:, idx["score"]] / np.sqrt(safe)
    frame = pd.DataFrame({
        "group": group, "strategy": strategy, "seat": np.asarray(seat, np.int64),
        "n": n.astype(np.int64),
        "win_rate": wins / safe, "win_ci_low": low, "win_ci_high": high,
        "wins": sums[:, idx["win"]].astype(np.int64),
        "score": mean[:, idx["score"]], "score_ci_low": mean[:, idx["score"]] - half,
        "score_ci_high": mean[:, idx["score"]] + half, "score_sd": sd[:, idx["score"]],
    })
    for part in E.PART_NAMES:
        frame[f"pts_{part}"] = mean[:, idx[f"pts_{part}"]]
    empty = n == 0
    frame.loc[empty, ["win_rate", "score", "score_ci_low", "score_ci_high", "score_sd"]] = np.nan
    return frame


def format_summary(summary: pd.DataFrame, games: int | None = None) -> str:
    """The summary as a plain-text table (what ``tajsim simulate`` prints)."""
    header = (f"{'':<22} {'n':>9}  {'win rate (95% CI)':<24} {'score (95% CI)':<22} "
              + " ".join(f"{p[:6]:>6}" for p in E.PART_NAMES))

    def line(name: str, row: Any) -> str:
        if len(name) > 22:
            name = name[:21] + "~"
        if not row.n:
            return f"{name:<22} {0:>9}  -"
        win = f"{row.win_rate:6.1%} [{row.win_ci_low:5.1%}, {row.win_ci_high:5.1%}]"
        score = f"{row.score:6.2f} [{row.score_ci_low:.2f}, {row.score_ci_high:.2f}]"
        parts = " ".join(f"{getattr(row, 'pts_' + p):6.2f}" for p in E.PART_NAMES)
        return f"{name:<22} {row.n:>9,}  {win:<24} {score:<22} {parts}"

    lines = [f"{games:,} games; win rates share ties; n = player-games"] if games is not None \
        else []
    strat = summary[summary["group"] == "strategy"]
    if not strat.empty:
        lines += ["", "by strategy:", header]
        lines += [line(str(r.strategy), r) for r in strat.itertuples(index=False)]
    seats = summary[summary["group"] == "seat"]
    if not seats.empty:
        lines += ["", "by seat:", header]
        lines += [line(f"seat {r.seat}", r) for r in seats.itertuples(index=False)]
    for r in summary[summary["group"] == "all"].itertuples(index=False):
        lines.append(line("all players", r))
    return "\n".join(lines)
