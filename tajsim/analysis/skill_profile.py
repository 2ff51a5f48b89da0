"""Skill profiles (issue 40 section 3): the win-rate matrix of a game's skill levels playing each
other in every seating, with the first seat's rate; the profile by which the TAG framework's
balancing competition scores a variant (elite search, search at a lower budget, one-step
lookahead, random).

**Levels** (:func:`profile_levels`), derived from the game's registry: ``random``, the one-step
greedy (``greedy``), the game's reference heuristic preset (``GameSpec.reference_preset``, the
first strategy tagged ``preset``) and its search (tagged ``search``) at two budgets: its default
and a quarter of it (the chain's factor 4). A game without a preset or a search has fewer
levels (No Thanks!: random and greedy).

**Matches** (:func:`play_profile`): every pair of levels head to head in every seating
(:mod:`tajsim.analysis.skill_matches`: both seats at two players, 2 vs 2 in every arrangement at
four) and every level against itself (a mirror, which gives the first seat's rate at that
level).

**The matrix** (:func:`skill_profile`): for each ordered pair (row level A, column level B), A's
win share in the games that seat only A and B (ties shared), with its Wilson interval over
games, the two-sided score test of 1/2, ``n`` (games) and the first seat's rate in those games;
cell (B, A) is ``1 -`` cell (A, B) over the same games. The diagonal holds the mirrors: a share
of 1/2 by definition, and the first seat's rate at that level. One more row (``kind ==
"all"``) gives the first seat's rate over every profile game. ``seats_balanced`` says whether
each level sat in each seat equally often in the cell's games (true for every match
:func:`play_profile` plays).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.compare import share_interval
from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.skill_chain import search_strategy
from tajsim.analysis.skill_matches import derive_seed, pair_outcomes, play_match, split_pairs
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.running.records import concat_results

__all__ = ["PROFILE_COLUMNS", "REQUIRED_COLUMNS", "play_profile", "profile_levels",
           "profile_matrix", "skill_profile"]

REQUIRED_COLUMNS = ("game_id", "n_players", "seat", "strategy", "winner")

#: The long table's columns, in order.
PROFILE_COLUMNS = ("level", "opponent", "kind", "n", "share", "ci_low", "ci_high", "p_value",
                   "first_seat_rate", "first_seat_ci_low", "first_seat_ci_high",
                   "seats_balanced")


def profile_levels(game: str | GameSpec, search_budgets: Sequence[float] | None = None
                   ) -> list[str]:
    """The skill levels of ``game``'s profile, weakest first (see the module docstring):
    ``random``, ``greedy``, the reference preset, the search at ``search_budgets`` (its
    iteration parameter; default: a quarter of its default and its default), each where the
    registry has it."""
    spec = get_game(game)
    names = spec.strategies.names()
    levels = [name for name in ("random", "greedy") if name in names]
    presets = spec.strategies.with_tag("preset")
    if presets:
        levels.append(spec.reference_preset)
    if spec.strategies.with_tag("search"):
        search = search_strategy(spec)
        param = search.cost_param or search.budget_param
        default = float(search.params[search.param_names.index(param)])
        budgets = (list(search_budgets) if search_budgets is not None
                   else [max(1.0, round(default / 4)), default])
        for budget in budgets:
            value = str(int(budget)) if float(budget).is_integer() else f"{budget:g}"
            text = f"{search.name}:{param}={value}"
            spec.strategies.parse(text)  # a budget out of range: one-line UserError
            levels.append(text)
    return list(dict.fromkeys(levels))


def play_profile(game: str, players: int | None = None, levels: Sequence[str] | None = None,
                 *, games: int = 1000, seed: int = 0, edition: str | None = None,
                 mirrors: bool = True, workers: int | None = None,
                 progress: bool | None = False, log: Callable[[str], None] | None = None,
                 on_match: Callable[[str, str], None] | None = None) -> pd.DataFrame:
    """Play every pair of ``levels`` (default :func:`profile_levels`) head to head, ``games``
    games each (rounded up to whole seating blocks), and each level's mirror (``mirrors``),
    on every core; each match's seed is derived from ``seed`` and its two levels. Returns the
    concatenated results with ``run_id`` naming each run; ``attrs["levels"]`` the levels."""
    spec = get_game(game)
    players = spec.players_or_default(players, edition)
    chosen = list(levels) if levels is not None else profile_levels(spec)
    if len(set(chosen)) != len(chosen) or len(chosen) < 2:
        raise UserError(f"levels {', '.join(chosen)}: expected two or more different "
                        "strategies")
    for text in chosen:
        spec.strategies.parse(text)
    frames = []
    for i, a in enumerate(chosen):
        for b in chosen[i if mirrors else i + 1:]:
            if on_match is not None:
                on_match(a, b)
            frames.append(play_match(spec.name, players, a, b, games,
                                     derive_seed(seed, "profile", a, b), edition=edition,
                                     workers=workers, progress=progress, log=log))
    # each match's frame already has run_id; concatenating keeps them apart
    out = concat_results(frames)
    out.attrs["levels"] = chosen
    return out


def _seats_balanced(counts: np.ndarray) -> bool:
    return bool(counts.size and counts.min() == counts.max())


def skill_profile(results: pd.DataFrame, levels: Sequence[str] | None = None,
                  confidence: float = 0.95) -> pd.DataFrame:
    """The profile's long table from the results of its matches (see the module docstring).

    Parameters
    ----------
    results : DataFrame
        Results frame(s) of head-to-head matches; games seating exactly two strategies are
        pair games, games seating one strategy mirrors; other games are left out.
    levels : sequence of str, optional
        The levels in order (default ``results.attrs["levels"]``, else the strategies in order
        of first appearance).

    Returns
    -------
    DataFrame
        :data:`PROFILE_COLUMNS`, one row per ordered pair met (both orders) and per mirror,
        then the ``all`` row: ``level``, ``opponent`` (str), ``kind`` (``"pair"``,
        ``"mirror"``, ``"all"``), ``n`` (int64: games), ``share`` (the row level's win share,
        float64; 1/2 on the diagonal; NaN for ``all``), ``ci_low``, ``ci_high`` (Wilson, over
        games), ``p_value`` (two-sided score test of 1/2), ``first_seat_rate`` with its Wilson
        interval, ``seats_balanced`` (bool). Empty (with these columns) when no two levels meet.
    """
    if levels is None:
        levels = results.attrs.get("levels")
    pairs = split_pairs(results, levels)
    rows: list[dict[str, Any]] = []
    for (a, b) in pairs:
        out = pair_outcomes(results, a, b)
        f_mean, f_low, f_high = share_interval(out.first_seat, confidence)
        if a == b:
            rows.append({"level": a, "opponent": a, "kind": "mirror", "n": out.n,
                         "share": 0.5, "ci_low": 0.5, "ci_high": 0.5, "p_value": float("nan"),
                         "first_seat_rate": f_mean, "first_seat_ci_low": f_low,
                         "first_seat_ci_high": f_high, "seats_balanced": True})
            continue
        mean, low, high = share_interval(out.share_a, confidence)
        z = (mean - 0.5) / np.sqrt(0.25 / out.n)
        p_value = float(2.0 * sps.norm.sf(abs(z)))
        balanced = _seats_balanced(out.seats_a) and _seats_balanced(out.seats_b)
        common = {"kind": "pair", "n": out.n, "p_value": p_value, "first_seat_rate": f_mean,
                  "first_seat_ci_low": f_low, "first_seat_ci_high": f_high,
                  "seats_balanced": balanced}
        rows.append({"level": a, "opponent": b, "share": mean, "ci_low": low,
                     "ci_high": high, **common})
        # the same games seen from B: the interval of 1 - p is the mirror of p's (Wilson)
        rows.append({"level": b, "opponent": a, "share": 1.0 - mean, "ci_low": 1.0 - high,
                     "ci_high": 1.0 - low, **common})
    if not rows:
        return pd.DataFrame({c: pd.Series(dtype=object) for c in PROFILE_COLUMNS})
    table = pd.DataFrame(rows, columns=[c for c in PROFILE_COLUMNS])
    order = list(dict.fromkeys([a for a, _ in pairs] + [b for _, b in pairs]))
    if levels is not None:
        order = [lv for lv in levels if lv in order]
    rank = {lv: i for i, lv in enumerate(order)}
    table = table.sort_values(["level", "opponent"], key=lambda s: s.map(rank),
                              kind="stable").reset_index(drop=True)
    # the first seat over every profile game (each counted once)
    met = set(order)
    labels = results["strategy"].astype(str)
    games = game_index(results)
    outside = pd.Series(~labels.isin(met).to_numpy()).groupby(games).any()
    distinct = pd.Series(labels.to_numpy()).groupby(games).nunique()
    used = (~outside) & (distinct <= 2)
    first = (results["seat"].to_numpy() == 0) & used.to_numpy()[games]
    f_mean, f_low, f_high = share_interval(win_value(results).to_numpy()[first], confidence)
    table.loc[len(table)] = {"level": "all", "opponent": "all", "kind": "all",
                             "n": int(first.sum()), "share": float("nan"),
                             "ci_low": float("nan"), "ci_high": float("nan"),
                             "p_value": float("nan"), "first_seat_rate": f_mean,
                             "first_seat_ci_low": f_low, "first_seat_ci_high": f_high,
                             "seats_balanced": bool(table["seats_balanced"].all())}
    table.attrs["levels"] = order
    return table.astype({"n": np.int64, "seats_balanced": bool})


def profile_matrix(table: pd.DataFrame, value: str = "share") -> pd.DataFrame:
    """The long table (:func:`skill_profile`) as a square matrix, rows the level, columns the
    opponent, in level order; cells never met are NaN."""
    order = table.attrs.get("levels") or list(dict.fromkeys(
        table.loc[table["kind"] != "all", "level"]))
    cells = table[table["kind"] != "all"]
    wide = cells.pivot(index="level", columns="opponent", values=value)
    return wide.reindex(index=order, columns=order).rename_axis(index=None, columns=None)
