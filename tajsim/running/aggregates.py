"""Mergeable aggregates: counts, sums and sums of squares, computed per chunk.

Every array is ``int64`` (shared wins are counted in 60ths, ``WIN_SHARE_SCALE``: 1/k for k tied
winners is a whole number of 60ths for k <= 5), so merging is exact and independent of the order
in which chunks finish: a run of 10^8 games can skip its raw rows (``records=False``) and still
report win rates, mean scores and their confidence intervals in bounded memory.

What is summed comes from the game's spec: the metrics are ``win``, ``win_share``, ``score``,
the score parts and the other result fields (``metrics``); the per-game metrics are the scalar
fields of the setup records plus ``n_winners``, ``top_score`` (the winning score: the highest, or
the lowest where ``GameSpec.better_score`` is "lower") and ``margin`` (its lead over the next)
(``game_metrics``); the setup features are the game's (``GameSpec.setup_features``).

Arrays (S strategies = distinct strategy texts, P seats, M metrics, GM per-game metrics,
K = ``SETUP_METRICS``, F setup features with V_f values each):

==================  ===========================  ============================================
name                shape                        meaning
==================  ===========================  ============================================
``games``           ()                           games
``n``               [S, P]                       player-games of strategy s in seat p
``sum``/``sumsq``   [S, P, M]                    sums / sums of squares of each metric
``game_sum``/...sq  [GM]                         per-game metrics
``feature_n``       [R, P]                       player-games: a setup feature had a value
``feature_sum``/sq  [R, P, K]                    ... sums of ``SETUP_METRICS``
==================  ===========================  ============================================

Row ``offset[f] + v`` of the feature arrays is value ``v`` of setup feature ``f`` (R = the sum
of the features' value counts). A chunk is added in one compiled pass that releases the GIL
(:func:`tajsim.running.kernels.accumulate_nb`).
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint

from tajsim.engine.game_notes import ScoreDisplay
from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game
from tajsim.running.kernels import accumulate_nb

if TYPE_CHECKING:
    from tajsim.running.config import RunTask

WIN_SHARE_SCALE = 60  # lcm(1..5): 1/k of a win is a whole number of 60ths
SETUP_METRICS = ("win", "win_share", "score")
GAME_EXTRA_METRICS = ("n_winners", "top_score", "margin")
_ZIP_DATE = (1980, 1, 1, 0, 0, 0)
#: deflate's level for the aggregates files, chosen by measurement (issue 42): level 1 writes a
#: 2,000-game chunk's in 1.0 ms instead of 2.2 (Taj Mahal, 15 kB instead of 13) and Maharaja's
#: (5,040 governor orders' sums, mostly zeros) in 6.0 ms instead of 13.6 (99 kB instead of 76);
#: every chunk pays it, with records or without. Any level reads back the same.
ZIP_LEVEL = 1


def metrics_of(spec: GameSpec) -> tuple[str, ...]:
    """The per-player metrics summed for ``spec``: win, shared win, score, its parts, rank and
    the other result fields."""
    others = tuple(m for m in spec.result_metrics)
    return ("win", "win_share", "score", *spec.part_columns, "rank", *others)


def game_metrics_of(spec: GameSpec) -> tuple[str, ...]:
    return (*spec.game_metrics, *GAME_EXTRA_METRICS)


@dataclass
class Aggregates:
    """Sums over a set of games; ``merge`` adds another set. See the module docstring.

    ``features`` are (name, value labels) of the setup features, in the game's order.
    """

    game: str
    labels: tuple[str, ...]
    players: int
    metrics: tuple[str, ...]
    game_metrics: tuple[str, ...]
    parts: tuple[str, ...]
    features: tuple[tuple[str, tuple[str, ...]], ...]
    arrays: dict[str, np.ndarray] = field(default_factory=dict)

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def empty(cls, spec: GameSpec, labels, players, meta: dict[str, Any]) -> Aggregates:
        S, P = len(labels), int(players)
        metrics, gmetrics = metrics_of(spec), game_metrics_of(spec)
        M = len(metrics)
        features = tuple((f.name, tuple(f.labels)) for f in spec.setup_features(meta, None))
        shapes = _shapes(S, P, M, len(gmetrics), features)
        return cls(spec.name, tuple(labels), P, metrics, gmetrics, spec.score_parts, features,
                   {k: np.zeros(shape, np.int64) for k, shape in shapes.items()})

    @classmethod
    def from_task(cls, task: RunTask) -> Aggregates:
        spec = get_game(task.game)
        return cls.empty(spec, task.labels, task.players, task.components.meta)

    @classmethod
    def from_records(cls, task: RunTask, results: np.ndarray, setups: np.ndarray,
                     lineups: np.ndarray) -> Aggregates:
        """Aggregates of one batch (the kernels' record arrays, see ``records.results_frame``)."""
        spec = get_game(task.game)
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
        # metric-major, each metric's row one contiguous copy out of the strided records
        # (row-major was a strided write too: 7 ms of a 10,000-game Maharani chunk, issue 42)
        values = np.empty((len(agg.metrics), G * P), np.int64)
        values[0] = winner.reshape(-1)
        values[1] = share
        values[2] = score.reshape(-1)
        for j, name in enumerate(agg.metrics[3:], start=3):
            values[j] = results[name]
        # best first: the highest score, or the lowest where the lower score wins
        ranked = np.sort(score, axis=1)[:, ::-1] if spec.higher_score_wins \
            else np.sort(score, axis=1)
        margin = np.abs(ranked[:, 0] - ranked[:, 1]) if P > 1 else np.zeros(G, np.int64)
        gvals = np.stack([*(setups[m].astype(np.int64) for m in spec.game_metrics), n_win,
                          ranked[:, 0], margin], axis=1)
        feats = spec.setup_features(task.components.meta, setups)
        rows = np.empty((len(feats), G), np.int64)  # feature-major: contiguous writes
        offset = 0
        for f, feat in enumerate(feats):
            code = np.asarray(feat.codes, np.int64)
            rows[f] = np.where(code >= 0, code + offset, -1)
            offset += len(feat.labels)
        a["games"] += G
        accumulate_nb(strat * P + seat, seat, values, P, rows, gvals,
                      a["n"].reshape(-1), a["sum"].reshape(S * P, -1),
                      a["sumsq"].reshape(S * P, -1), a["game_sum"], a["game_sumsq"],
                      a["feature_n"], a["feature_sum"], a["feature_sumsq"])
        return agg

    # -- merging ---------------------------------------------------------------------------
    def _key(self) -> tuple:
        return (self.game, self.labels, self.players, self.metrics, self.features)

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
        meta = {"game": self.game, "labels": list(self.labels), "players": self.players,
                "metrics": list(self.metrics), "game_metrics": list(self.game_metrics),
                "parts": list(self.parts),
                "features": [[name, list(values)] for name, values in self.features],
                "win_share_scale": WIN_SHARE_SCALE, "setup_metrics": list(SETUP_METRICS)}
        with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            info = zipfile.ZipInfo("meta.json", date_time=_ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, json.dumps(meta, sort_keys=True), compresslevel=ZIP_LEVEL)
            for name in sorted(self.arrays):
                arr = io.BytesIO()
                np.save(arr, self.arrays[name], allow_pickle=False)
                info = zipfile.ZipInfo(f"{name}.npy", date_time=_ZIP_DATE)
                info.compress_type = zipfile.ZIP_DEFLATED
                zf.writestr(info, arr.getvalue(), compresslevel=ZIP_LEVEL)
        return buf.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> Aggregates:
        """Aggregates from ``to_bytes`` output; ``ValueError`` for anything else."""
        try:
            with zipfile.ZipFile(io.BytesIO(data)) as zf:
                meta = json.loads(zf.read("meta.json"))
                arrays = {
                    name[:-4]: np.load(io.BytesIO(zf.read(name)), allow_pickle=False)
                    for name in zf.namelist() if name.endswith(".npy")
                }
        except (zipfile.BadZipFile, KeyError, OSError, ValueError, EOFError) as exc:
            raise ValueError(f"not a tajsim aggregates file ({type(exc).__name__}: {exc})") \
                from None
        need = ("game", "labels", "players", "metrics", "game_metrics", "parts", "features")
        if not isinstance(meta, dict) or any(k not in meta for k in need) \
                or meta.get("win_share_scale") != WIN_SHARE_SCALE:
            raise ValueError("aggregates written by another tajsim version (their layout "
                             "differs)")
        agg = cls(str(meta["game"]), tuple(meta["labels"]), int(meta["players"]),
                  tuple(meta["metrics"]), tuple(meta["game_metrics"]), tuple(meta["parts"]),
                  tuple((str(n), tuple(v)) for n, v in meta["features"]), arrays)
        shapes = _shapes(len(agg.labels), agg.players, len(agg.metrics),
                         len(agg.game_metrics), agg.features)
        for key, shape in shapes.items():
            if key not in arrays or arrays[key].shape != shape or arrays[key].dtype != np.int64:
                raise ValueError(f"aggregates file: array {key!r} is missing or misshapen")
        return agg

    # -- tables ----------------------------------------------------------------------------
    def summary(self, confidence: float = 0.95) -> pd.DataFrame:
        """Win rate and mean score (with its parts) by strategy, by seat and overall.

        One row per group: ``group`` ("strategy", "seat", "all"), ``strategy`` (or "*"),
        ``seat`` (or -1), ``n`` (player-games), ``win_rate`` (ties shared: each of k tied
        winners counts 1/k, so win rates of a table add up to 1) with a Wilson interval
        ``win_ci_low`` / ``win_ci_high``, ``score`` (mean) with a normal interval
        ``score_ci_low`` / ``score_ci_high``, ``score_sd``, and the mean of every score part
        (``pts_palace`` ... ``pts_cards``). A game whose score is a ranking key (its spec's
        ``score_display``) adds the mean of each measure a player reads, with its interval
        (Maharaja: ``palaces``, ``palaces_ci_low``, ``palaces_ci_high``, ``gold``, ...).
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
        shown = get_game(self.game).score_display
        return _summary_frame(rows, confidence, self.metrics, self.parts,
                              shown.measures if shown else ())

    def by_strategy_seat(self, confidence: float = 0.95) -> pd.DataFrame:
        """The summary's columns for every (strategy, seat) cell."""
        a = self.arrays
        rows = [("strategy_seat", label, p, a["n"][s, p], a["sum"][s, p], a["sumsq"][s, p])
                for s, label in enumerate(self.labels) for p in range(self.players)]
        return _summary_frame(rows, confidence, self.metrics, self.parts)

    def game_stats(self) -> pd.DataFrame:
        """Mean and standard deviation of the per-game metrics (``game_metrics``)."""
        g = max(self.games, 1)
        mean = self.arrays["game_sum"] / g
        var = np.maximum(self.arrays["game_sumsq"] / g - mean**2, 0.0)
        return pd.DataFrame({"metric": list(self.game_metrics), "mean": mean,
                             "sd": np.sqrt(var), "games": self.games})

    def setup_features(self) -> pd.DataFrame:
        """Win rate and mean score by seat for every setup feature value (the game's
        ``setup_features``; only the values that occurred).

        Columns: ``feature``, ``value``, ``seat``, ``n``, ``win_rate`` (shared),
        ``win_ci_low``/``win_ci_high``, ``score``, ``score_sd``.
        """
        a = self.arrays
        frames = []
        row = 0
        for name, values in self.features:
            for label in values:
                for p in range(self.players):
                    if a["feature_n"][row, p]:
                        frames.append((name, label, p, a["feature_n"][row, p],
                                       a["feature_sum"][row, p], a["feature_sumsq"][row, p]))
                row += 1
        if not frames:
            return pd.DataFrame()
        feature, value, seat, n_rows, sum_rows, sumsq_rows = zip(*frames)
        n = np.asarray(n_rows, np.float64)
        sums = np.asarray(sum_rows, np.float64)
        sumsqs = np.asarray(sumsq_rows, np.float64)
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


def _shapes(S: int, P: int, M: int, GM: int,
            features: tuple[tuple[str, tuple[str, ...]], ...]) -> dict[str, tuple[int, ...]]:
    """The shape of every aggregate array (see the module docstring)."""
    R = sum(len(values) for _, values in features)
    K = len(SETUP_METRICS)
    return {"games": (), "n": (S, P), "sum": (S, P, M), "sumsq": (S, P, M),
            "game_sum": (GM,), "game_sumsq": (GM,), "feature_n": (R, P),
            "feature_sum": (R, P, K), "feature_sumsq": (R, P, K)}


def wilson_interval(successes, n, confidence: float = 0.95):
    """Wilson score interval for ``successes`` out of ``n`` (fractional successes allowed):
    statsmodels' ``proportion_confint(method="wilson")``; ``n == 0`` gives NaN. (The analysis
    layer's ``tajsim.analysis.stats.wilson_interval`` is the same; the runner cannot import it.)"""
    n = np.asarray(n, np.float64)
    has_trials = n > 0
    safe_x = np.where(has_trials, np.asarray(successes, np.float64), 0.0)
    safe_n = np.where(has_trials, n, 1.0)
    low, high = proportion_confint(safe_x, safe_n, alpha=1 - confidence, method="wilson")
    p = safe_x / safe_n
    # The interval contains p also where rounding puts a bound a hair past it (p = 0 or 1: a
    # strategy that never wins got a lower bound of 4e-19 above its rate of 0).
    low, high = np.fmin(low, p), np.fmax(high, p)
    return np.where(has_trials, low, np.nan), np.where(has_trials, high, np.nan)


def _summary_frame(rows, confidence: float, metrics: tuple[str, ...],
                   parts: tuple[str, ...], measures: tuple[str, ...] = ()) -> pd.DataFrame:
    group, strategy, seat, n_rows, sum_rows, sumsq_rows = zip(*rows)
    n = np.asarray(n_rows, np.float64)
    sums = np.asarray(sum_rows, np.float64)
    sumsqs = np.asarray(sumsq_rows, np.float64)
    safe = np.maximum(n, 1)
    idx = {m: j for j, m in enumerate(metrics)}
    wins = sums[:, idx["win_share"]] / WIN_SHARE_SCALE
    low, high = wilson_interval(wins, n, confidence)
    mean = sums / safe[:, None]
    var = np.maximum(sumsqs / safe[:, None] - mean**2, 0) * (safe / np.maximum(n - 1, 1))[:, None]
    sd = np.sqrt(var)
    # Normal interval of the mean score, mean +/- z * sd / sqrt(n) with z = scipy's quantile
    # (scipy's norm.interval itself would turn a zero sd into NaN).
    score = mean[:, idx["score"]]
    z = sps.norm.ppf(0.5 + confidence / 2)
    half = z * sd[:, idx["score"]] / np.sqrt(safe)
    frame = pd.DataFrame({
        "group": group, "strategy": strategy, "seat": np.asarray(seat, np.int64),
        "n": n.astype(np.int64),
        "win_rate": wins / safe, "win_ci_low": low, "win_ci_high": high,
        "wins": sums[:, idx["win"]].astype(np.int64),
        "score": score, "score_ci_low": score - half, "score_ci_high": score + half,
        "score_sd": sd[:, idx["score"]],
    })
    for part in parts:
        frame[f"pts_{part}"] = mean[:, idx[f"pts_{part}"]]
    for name in measures:  # what a player reads when the score is a ranking key
        j = idx[name]
        spread = z * sd[:, j] / np.sqrt(safe)
        frame[name] = mean[:, j]
        frame[f"{name}_ci_low"] = mean[:, j] - spread
        frame[f"{name}_ci_high"] = mean[:, j] + spread
    empty = n == 0
    frame.loc[empty, ["win_rate", "score", "score_ci_low", "score_ci_high", "score_sd"]] = np.nan
    return frame


#: The label column of the summary table: at least this wide, wider for longer strategy texts up
#: to ``LABEL_MAX``; beyond that a label is elided in the middle (``short_labels``).
LABEL_MIN = 22
LABEL_MAX = 44


def short_labels(names: Sequence[str], width: int = LABEL_MAX) -> dict[str, str]:
    """Each name's label in a column of ``width`` characters, every label distinct.

    A name that fits is its own label. A longer one keeps its head (the strategy's name) and
    its tail (the parameters that set it apart), with ``~`` in place of the middle:
    ``balanced:forbid=goods+crown`` and ``balanced:forbid=goods+connections`` never print
    alike. Where two elided labels would still be alike, those names keep their whole text
    (the column widens) rather than print one label for two strategies.
    """
    width = max(5, int(width))
    head = (width - 1) // 2
    tail = width - 1 - head
    labels = {n: n if len(n) <= width else f"{n[:head]}~{n[len(n) - tail:]}" for n in names}
    count: dict[str, int] = {}
    for label in labels.values():
        count[label] = count.get(label, 0) + 1
    return {n: (label if count[label] == 1 else n) for n, label in labels.items()}


def format_summary(summary: pd.DataFrame, games: int | None = None,
                   display: ScoreDisplay | None = None, better_score: str = "higher") -> str:
    """The summary as a plain-text table (what ``tajsim simulate`` prints): win rate and mean
    score with 95% intervals, then the mean of every score part (full part names). A game whose
    lower score wins (``better_score``) says so in the first line.

    With ``display`` (the spec's ``score_display``: the score is a ranking key) the table shows
    its measures (Maharaja: palaces and gold) with their intervals instead of the score, and
    the parts of its total (the gold by source), never the ranking key as points.
    """
    parts = [f"pts_{p}" for p in display.parts] if display else [
        c for c in summary.columns if c.startswith("pts_")]
    names = [c[4:] for c in parts]
    widths = [max(6, len(n)) for n in names]
    shown = display.measures if display else ("score",)
    strat = summary[summary["group"] == "strategy"]
    labels = short_labels([str(name) for name in strat["strategy"]])
    col = max([LABEL_MIN, *(len(label) for label in labels.values())])
    header = (f"{'':<{col}} {'n':>9}  {'win rate (95% CI)':<24} "
              + " ".join(f"{f'{m} (95% CI)':<22}" for m in shown) + " "
              + " ".join(f"{n:>{w}}" for n, w in zip(names, widths)))

    def line(name: str, row: Any) -> str:
        name = labels.get(name, name)
        if not row.n:
            return f"{name:<{col}} {0:>9}  -"
        win = f"{row.win_rate:6.1%} [{row.win_ci_low:5.1%}, {row.win_ci_high:5.1%}]"
        means = " ".join(_mean_with_interval(row, m) for m in shown)
        values = " ".join(f"{getattr(row, c):{w}.2f}" for c, w in zip(parts, widths))
        return f"{name:<{col}} {row.n:>9,}  {win:<24} {means} {values}"

    what = (f"{display.note.replace('`', '')} Shown: {' and '.join(display.measures)} (95% "
            f"CI) and the {display.unit} by source (means)." if display
            else "score parts are means")
    lowest = "; the lowest score wins" if better_score == "lower" else ""
    lines = [f"{games:,} games; win rates share ties; n = player-games; {what}{lowest}"] \
        if games is not None else []
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


def _mean_with_interval(row: Any, name: str) -> str:
    """``mean [low, high]`` of column ``name`` of a summary row, padded to 22 characters."""
    low, high = getattr(row, f"{name}_ci_low"), getattr(row, f"{name}_ci_high")
    return f"{f'{getattr(row, name):6.2f} [{low:.2f}, {high:.2f}]':<22}"
