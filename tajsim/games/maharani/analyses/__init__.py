"""Maharani's own analyses: pandas over a results frame (one row per player per game), each
returning a DataFrame with its sample size ``n`` and 95% intervals.

* :func:`gold_by_source`: mean gold from tile zones, artisan groups, quarter scorings and second
  tiles paid, and their share of the score;
* :func:`second_tile_value`: what one more second tile bought goes with, in gold and in win
  probability, compared within games;
* :func:`marker_and_refresh_cost`: the same for an action marker turned face down and for a
  refresh turn;
* :func:`quarter_artisans`: artisans placed in a quarter against the gold its scoring paid,
  and the win rate of the seat with the most artisans there;
* :func:`quarter_completion`: who completes quarters, and whether completing pays;
* :func:`colour_zone_value`: the zone gold of each tile colour and what it is worth in wins;
* :func:`space_gold`: where gold is made, space by space (the palace heat map).

The within-game comparisons are associations between a seat's own choices and its result
(strategies choose them), not causal effects; ``docs/games/maharani/strategies.md`` says how to
read them. ``ANALYSES`` maps names to functions and ``REQUIRED_COLUMNS`` names the columns each
needs (the generic report layer checks them).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.stats import mean_ci, wilson_interval, within_group_ols
from tajsim.analysis.stats.verdicts import cluster_sums, clustered_ratios, tested_order
from tajsim.games.maharani.engine.enums import N_COLOURS, N_QUARTERS, PART_NAMES, QUARTER_GOLD

__all__ = [
    "ANALYSES",
    "REQUIRED_COLUMNS",
    "colour_zone_value",
    "gold_by_source",
    "marker_and_refresh_cost",
    "quarter_artisans",
    "quarter_completion",
    "second_tile_value",
    "space_gold",
]

PART_COLUMNS = tuple(f"pts_{p}" for p in PART_NAMES)
DEFAULT_CONTROLS = ("seat", "strategy")


def _groups(results: pd.DataFrame, by: Sequence[str] | None):
    by = [c for c in (by or ()) if c in results]
    if not by:
        return [((), results)], []
    return [((k,) if not isinstance(k, tuple) else k, g)
            for k, g in results.groupby(by, observed=True, sort=True)], by


def _wilson(successes: float, n: int, confidence: float) -> tuple[float, float]:
    low, high = wilson_interval(successes, n, confidence)
    return float(low), float(high)


def _framed(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with ``win`` (1/k for each of k tied winners, else 0) and ``_game`` (one
    number per game, whatever the run: ``run_id`` and ``seed`` are part of the key)."""
    return results.assign(win=win_value(results).to_numpy(), _game=game_index(results))


def gold_by_source(results: pd.DataFrame, by: Sequence[str] | None = ("strategy",),
                   confidence: float = 0.95) -> pd.DataFrame:
    """Mean gold per seat from each source (``pts_zones``, ``pts_groups``, ``pts_quarters``,
    ``pts_second``) and the score, with t intervals, and each source's share of the score."""
    rows = []
    groups, keys = _groups(results, by)
    for key, g in groups:
        total = float(g["score"].mean()) if len(g) else float("nan")
        for col in (*PART_COLUMNS, "score"):
            m, lo, hi, n, _ = mean_ci(g[col].to_numpy(), confidence)
            rows.append({**dict(zip(keys, key)), "source": col.removeprefix("pts_"), "n": n,
                         "mean": m, "low": lo, "high": hi,
                         "share_of_score": m / total if total else float("nan")})
    return pd.DataFrame(rows)


def second_tile_value(results: pd.DataFrame, controls: Sequence[str] = DEFAULT_CONTROLS,
                      confidence: float = 0.95) -> pd.DataFrame:
    """Gold and win share that go with one more second tile bought (``second_tiles``),
    compared among the players of one game (game fixed effects, seat and strategy dummies,
    cluster-robust intervals). The 2 gold paid are in the score already: ``coef`` on
    ``score`` is the net value. One row per outcome (``score``, ``win``)."""
    frame = _framed(results)
    out = []
    for outcome in ("score", "win"):
        t = within_group_ols(frame, outcome, ["second_tiles"], controls, group="_game",
                             confidence=confidence)
        out.append(t.assign(outcome=outcome))
    return pd.concat(out, ignore_index=True)[["outcome", "term", "coef", "se", "low", "high",
                                              "n", "n_games"]]


def marker_and_refresh_cost(results: pd.DataFrame, controls: Sequence[str] = DEFAULT_CONTROLS,
                            confidence: float = 0.95) -> pd.DataFrame:
    """Gold and win share that go with one more action marker turned face down
    (``marker_turns``) and one more refresh turn (``refresh_turns``), both in one within-game
    regression (game fixed effects, seat and strategy dummies, cluster-robust intervals)."""
    frame = _framed(results)
    out = []
    for outcome in ("score", "win"):
        t = within_group_ols(frame, outcome, ["marker_turns", "refresh_turns"], controls,
                             group="_game", confidence=confidence)
        out.append(t.assign(outcome=outcome))
    return pd.concat(out, ignore_index=True)[["outcome", "term", "coef", "se", "low", "high",
                                              "n", "n_games"]]


def quarter_artisans(results: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """For each quarter and each number of a seat's artisans at its scoring: rows ``n``, mean
    gold from that scoring (t interval), the table's value (3-4 players: the gold; 2 players
    sums two colours), and the win share of seats with the strictly most artisans there
    ("top"), tied for the most ("tied top") or fewer ("below"), with Wilson intervals."""
    frame = _framed(results)
    rows = []
    for q in range(1, N_QUARTERS + 1):
        art, gold = f"artisans_q{q}", f"gold_q{q}"
        for k, g in frame.groupby(art, sort=True):
            m, lo, hi, n, _ = mean_ci(g[gold].to_numpy(), confidence)
            table = QUARTER_GOLD[min(int(k), 6)]
            rows.append({"quarter": q, "kind": "artisans", "level": str(int(k)), "n": n,
                         "mean_gold": m, "low": lo, "high": hi, "table_gold": table,
                         "win_share": float(g["win"].mean()), "win_low": np.nan,
                         "win_high": np.nan})
        best = frame.groupby("_game")[art].transform("max")
        n_best = frame.assign(_b=frame[art] == best).groupby("_game")["_b"].transform("sum")
        status = np.where(frame[art] < best, "below",
                          np.where(n_best > 1, "tied top", "top"))
        for level in ("top", "tied top", "below"):
            g = frame[status == level]
            lo, hi = _wilson(float(g["win"].sum()), len(g), confidence)
            m, glo, ghi, n, _ = mean_ci(g[gold].to_numpy(), confidence)
            rows.append({"quarter": q, "kind": "most artisans", "level": level, "n": n,
                         "mean_gold": m, "low": glo, "high": ghi, "table_gold": np.nan,
                         "win_share": float(g["win"].mean()) if len(g) else np.nan,
                         "win_low": lo, "win_high": hi})
    return pd.DataFrame(rows)


def quarter_completion(results: pd.DataFrame, by: Sequence[str] | None = ("strategy",),
                       confidence: float = 0.95) -> pd.DataFrame:
    """Who completes quarters and whether it pays.

    ``kind = "rate"``: per group (strategy by default) and quarter, the share of its seats that
    filled the quarter's last space (Wilson interval). ``kind = "payoff"``: per quarter, the
    completing seat's score minus the mean score of the others in its game (t interval over
    games), and the completing seat's win share (Wilson), with its parity (mean 1/n)."""
    frame = _framed(results)
    rows = []
    groups, keys = _groups(frame, by)
    for key, g in groups:
        for q in range(1, N_QUARTERS + 1):
            col = g[f"completed_q{q}"].astype(float)
            lo, hi = _wilson(float(col.sum()), len(col), confidence)
            rows.append({**dict(zip(keys, key)), "kind": "rate", "quarter": q, "n": len(col),
                         "estimate": float(col.mean()), "low": lo, "high": hi})
    n_players = frame.groupby("_game")["seat"].transform("count")
    for q in range(1, N_QUARTERS + 1):
        done = frame[f"completed_q{q}"].astype(bool)
        games = frame.loc[done, "_game"]
        sub = frame[frame["_game"].isin(games)]
        mine = sub[sub[f"completed_q{q}"].astype(bool)].set_index("_game")["score"]
        others = sub[~sub[f"completed_q{q}"].astype(bool)].groupby("_game")["score"].mean()
        diff = (mine - others.reindex(mine.index)).to_numpy()
        m, lo, hi, n, _ = mean_ci(diff, confidence)
        rows.append({"kind": "payoff: score minus others", "quarter": q, "n": n, "estimate": m,
                     "low": lo, "high": hi})
        w = frame.loc[done, "win"]
        wlo, whi = _wilson(float(w.sum()), len(w), confidence)
        rows.append({"kind": "payoff: win share", "quarter": q, "n": len(w),
                     "estimate": float(w.mean()) if len(w) else np.nan, "low": wlo,
                     "high": whi, "parity": float((1.0 / n_players[done]).mean())
                     if len(w) else np.nan})
    return pd.DataFrame(rows)


def colour_zone_value(results: pd.DataFrame, meta: Mapping[str, Any] | None = None,
                      controls: Sequence[str] = DEFAULT_CONTROLS,
                      confidence: float = 0.95) -> pd.DataFrame:
    """Per tile colour: mean zone gold a seat made with it (t interval) and the win share that
    goes with one more gold of that colour's zones (one within-game regression on all six
    colours, game fixed effects, seat and strategy dummies, cluster-robust intervals).
    ``meta`` (``Components.frame_meta()``) names the colours.

    ``tier`` (int64, 1 = most zone gold): the colours' tested order of mean zone gold, every
    pair's difference clustered by game (a seat's colours and a game's seats are not
    independent), Holm over the pairs; colours of one tier are not told apart.
    ``attrs["order"]``: that :class:`~tajsim.analysis.stats.verdicts.Order`."""
    names = list((meta or {}).get("colour_names", [f"colour {k}" for k in
                                                    range(1, N_COLOURS + 1)]))
    cols = [f"zones_c{k}" for k in range(1, N_COLOURS + 1)]
    frame = _framed(results)
    reg = within_group_ols(frame, "win", cols, controls, group="_game",
                             confidence=confidence).set_index("term")
    rows = []
    for k, col in enumerate(cols):
        m, lo, hi, n, _ = mean_ci(frame[col].to_numpy(), confidence)
        r = reg.loc[col]
        rows.append({"colour": names[k], "column": col, "n": n, "mean_zone_gold": m,
                     "low": lo, "high": hi, "win_per_gold": r["coef"], "win_low": r["low"],
                     "win_high": r["high"], "n_games": r["n_games"]})
    out = pd.DataFrame(rows)
    game_of_value = np.repeat(pd.factorize(frame["_game"])[0], N_COLOURS)  # a seat's six
    colour = np.tile(np.arange(N_COLOURS), len(frame))
    sums, counts = cluster_sums(game_of_value, colour,
                                frame[cols].to_numpy(np.float64).ravel(), N_COLOURS)
    estimate, cov = clustered_ratios(sums, counts)
    order = tested_order(names, estimate, cov=cov)
    tier_of = {name: i + 1 for i, tier in enumerate(order.tiers) for name in tier}
    out["tier"] = np.array([tier_of[name] for name in names], dtype=np.int64)
    out.attrs["order"] = order
    return out


def space_gold(results: pd.DataFrame, meta: Mapping[str, Any] | None = None,
               confidence: float = 0.95) -> pd.DataFrame:
    """Where the gold is made: per space of the palace, the mean zone + group gold earned by
    laying the tile there, over games (one value per game: the ``space_gold_*`` columns repeat
    on each seat's row), with a t interval. ``meta`` (``Components.frame_meta()``) names the
    spaces and their quarters; rows follow the board file's space order."""
    cols = sorted(c for c in results.columns if str(c).startswith("space_gold_"))
    one_per_game = results.loc[~pd.Series(game_index(results)).duplicated().to_numpy(), cols]
    meta = meta or {}
    ids = list(meta.get("space_ids", [c.removeprefix("space_gold_") for c in cols]))
    quarters = list(meta.get("quarter_names", []))
    space_quarter = list(meta.get("space_quarter", []))
    rows = []
    for k, col in enumerate(cols):
        m, lo, hi, n, _ = mean_ci(one_per_game[col].to_numpy(dtype=float), confidence)
        quarter = (quarters[space_quarter[k]] if k < len(space_quarter) and quarters else "")
        rows.append({"space": ids[k] if k < len(ids) else col, "quarter": quarter, "n": n,
                     "mean_gold": m, "low": lo, "high": hi})
    return pd.DataFrame(rows)


ANALYSES: dict[str, Callable[..., pd.DataFrame]] = {
    "gold_by_source": gold_by_source,
    "second_tile_value": second_tile_value,
    "marker_and_refresh_cost": marker_and_refresh_cost,
    "quarter_artisans": quarter_artisans,
    "quarter_completion": quarter_completion,
    "colour_zone_value": colour_zone_value,
    "space_gold": space_gold,
}

REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "gold_by_source": ("score", *PART_COLUMNS),
    "second_tile_value": ("game_id", "score", "winner", "second_tiles"),
    "marker_and_refresh_cost": ("game_id", "score", "winner", "marker_turns", "refresh_turns"),
    "quarter_artisans": ("game_id", "winner", *(f"artisans_q{q}" for q in range(1, 5)),
                         *(f"gold_q{q}" for q in range(1, 5))),
    "quarter_completion": ("game_id", "seat", "score", "winner",
                           *(f"completed_q{q}" for q in range(1, 5))),
    "colour_zone_value": ("game_id", "winner", *(f"zones_c{k}" for k in range(1, 7))),
    "space_gold": ("game_id", "space_gold_*"),
}
