"""Rule variants side by side, as a designer compares them (issue 40, section 2).

The frame holds runs labelled with a ``variant`` (a rule option or component set, or the
defaults), each played at several skill levels: **mirror** games (one strategy in every seat)
and **mixed** games (two strategies). :func:`variant_comparison` gives, per variant, player
count and level, one row per measure:

* ``seat_<k>``: seat k's win rate in the mirror games (ties shared), Wilson 95% interval over
  games;
* ``max_seat_deviation``: the largest ``|rate - 1/n|`` over the seats, with the interval of
  that seat's rate shifted by ``1/n`` (the seat is chosen after looking, so the interval is a
  little optimistic; the per-seat rows are exact);
* ``ties``: share of games with more than one winner (Wilson);
* ``length``: the mean of the game's length column (Maharani ``n_turns``, Maharaja
  ``n_rounds``, Taj Mahal ``n_visits`` or whichever ``length`` names), normal 95% interval;
* ``winner_profile_entropy`` (mirror games; where the frame has score parts ``pts_*``):
  diversity of how games are won: the Shannon entropy (bits) of the winner's dominant score
  part (the part that gave the winner most points; a shared win counts each tied winner
  1/k), with a 95% bootstrap percentile interval (:data:`BOOTSTRAP_DRAWS` multinomial redraws
  of the games, fixed seed). 0 bits: every game is won the same way; ``log2(parts)``: every
  part equally often. ``ci_low``/``ci_high`` bound the entropy, not a rate;
* ``first_seat`` (mixed games, the profile's key number): the first seat's win rate over the
  mixed tables of the pair (each level sits in each seat equally often there), Wilson
  interval;
* ``winning_strategy_entropy`` (mixed games): the entropy (bits) of which level wins (1 bit:
  the two levels win equally often, 0: one always wins), bootstrap interval as above;
* ``stronger_share`` (mixed games, ``level`` = ``"<strong> vs <weak>"``): the stronger
  strategy's win share of the game (its seats' shared wins), Wilson interval over games
  (:func:`tajsim.analysis.compare.share_interval`). Which one is stronger comes from ``levels``
  (weakest first); without it, the one that wins more over all the variants together (so a
  variant can show the stronger level below 1/2).
* ``winning_style_entropy`` (style mixes, ``level`` = ``"styles: a/b/c"``): the entropy
  (bits) of which strategy wins, over the games of a run (``run_id``) that seats three
  strategies or more of one skill level (a table of several presets, or a round-robin of
  them), bootstrap interval as above; ``log2(k)`` bits: the k styles win equally often, 0:
  one style always wins. ``style_share:<strategy>``: that strategy's share of the wins (its
  seats' shared wins per game, Wilson interval over the games). A run's games form one mix,
  whatever the strategies at each table; without ``run_id``, the games seating three
  strategies or more form one mix. The games of a mix are left out of the mixed pairs.
* the arc (every level, mixed pairs and style mixes included; where the records keep the
  score trajectories, :mod:`tajsim.analysis.arc`): ``lead_changes`` (mean lead changes a
  game, t interval, n games); ``comeback`` (a seat behind the sole mid-game leader: its share
  of the win, Wilson, n seat-games); ``leader_wins`` and ``leader_wins_null`` (the sole
  mid-game leader's share of the win, observed and in the null model without feedback); and
  ``runaway`` (observed minus null, its normal interval, n the games with a sole mid-game
  leader, ``p_value`` and ``verdict``: ``runaway``, ``catch-up``, ``no feedback`` (TOST within
  :data:`tajsim.analysis.arc.RUNAWAY_MARGIN`) or ``inconclusive``; ``p_holm``: Holm over every
  ``runaway`` row of the comparison of ``p_differs``, the two-sided p of a difference).
  Records without the trajectory columns give none of these rows.

Every row has ``n`` (games, or the unit its measure names). Columns: :data:`VARIANT_COLUMNS`
(``p_value``, ``p_differs`` and ``p_holm`` are set on the ``runaway`` rows only).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from scipy import stats

from tajsim.analysis import arc
from tajsim.analysis.compare import share_interval
from tajsim.analysis.frames import game_index, round_columns, win_value
from tajsim.analysis.stats.proportions import normal_quantile, wilson_interval
from tajsim.analysis.stats.verdicts import ALPHA, holm_family

__all__ = ["ARC_MEASURES", "ARC_NULL_SAMPLES", "BOOTSTRAP_DRAWS", "LENGTH_COLUMNS",
           "REQUIRED_COLUMNS", "VARIANT_COLUMNS", "closest_to_parity", "entropy_bits",
           "entropy_interval", "has_trajectories", "style_label", "variant_comparison"]

REQUIRED_COLUMNS = ("game_id", "n_players", "seat", "strategy", "winner")
#: The game-length columns tried in order when ``length`` is not given.
LENGTH_COLUMNS = ("n_turns", "n_rounds", "n_visits", "n_actions")
VARIANT_COLUMNS = ("variant", "n_players", "level", "measure", "n", "estimate", "ci_low",
                   "ci_high", "p_value", "verdict", "p_differs", "p_holm")
#: The arc measures each level's row gains: (measure here, the arc_summary measure and label).
ARC_MEASURES = (("lead_changes", "lead_changes", "mean"),
                ("comeback", "comeback", "behind at mid-game"),
                ("leader_wins", "leader_wins", "observed"),
                ("leader_wins_null", "leader_wins", "null"),
                ("runaway", "runaway", "observed - null"))
#: Synthetic copies of every game in the arc's null model (as :func:`arc.arc_summary`).
ARC_NULL_SAMPLES = 20
#: The null model's seed: the same games always give the same rows.
ARC_SEED = 40
#: Redraws of the bootstrap interval of an entropy.
BOOTSTRAP_DRAWS = 2000
#: The bootstrap's seed: the same frame always gives the same interval.
BOOTSTRAP_SEED = 40


def entropy_bits(weights: np.ndarray) -> np.ndarray:
    """Shannon entropy in bits of each row of ``weights`` (float64, shape (..., k); each row's
    non-negative weights, normalised here; an all-zero row has entropy 0)."""
    w = np.asarray(weights, dtype=np.float64)
    total = w.sum(axis=-1, keepdims=True)
    p = np.divide(w, total, out=np.zeros_like(w), where=total > 0)
    logs = np.log2(p, out=np.zeros_like(p), where=p > 0)
    return 0.0 - (p * logs).sum(axis=-1)  # 0 - x: no -0.0 for a single category


def entropy_interval(weights: np.ndarray, games: int) -> tuple[float, float, float]:
    """The entropy (bits) of the category weights ``weights`` (float64, shape (k,): each
    category's share of ``games`` games, shared wins split) and its 95% percentile bootstrap
    interval: ``games`` games redrawn from the observed shares, :data:`BOOTSTRAP_DRAWS` times,
    with a fixed seed."""
    w = np.asarray(weights, dtype=np.float64)
    estimate = float(entropy_bits(w))
    if games < 2 or w.sum() <= 0:
        return estimate, float("nan"), float("nan")
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    draws = rng.multinomial(games, w / w.sum(), size=BOOTSTRAP_DRAWS)
    low, high = np.quantile(entropy_bits(draws.astype(np.float64)), [0.025, 0.975])
    return estimate, float(min(low, estimate)), float(max(high, estimate))


def _dominant_parts(sub: pd.DataFrame) -> tuple[np.ndarray, int] | None:
    """Weights of each score part as the winners' dominant part in ``sub`` (one variant, level
    and table size; ``_game`` and ``_win`` columns), and the games; None without ``pts_*``."""
    parts = [c for c in sub.columns if str(c).startswith("pts_")]
    if not parts:
        return None
    winners = sub[sub["_win"] > 0]
    points = winners[parts].to_numpy(np.float64)
    dominant = np.argmax(points, axis=1)
    weights = np.bincount(dominant, weights=winners["_win"].to_numpy(np.float64),
                          minlength=len(parts))
    return weights, int(sub["_game"].nunique())


def has_trajectories(results: pd.DataFrame) -> bool:
    """Whether ``results`` keeps the per-round score trajectories the arc measures read."""
    return bool(round_columns(results)) and "arc_rounds" in results.columns


def _arc_rows(level: str, sub: pd.DataFrame) -> list[tuple]:
    """The arc measures (:data:`ARC_MEASURES`) of one level's games ``sub`` (one table size):
    (level, measure, n, estimate, low, high, p, verdict, p_differs); none without
    trajectories."""
    if not has_trajectories(sub):
        return []
    summary = arc.arc_summary(sub.drop(columns=["_game", "_win"], errors="ignore"), by=None,
                              null_samples=ARC_NULL_SAMPLES, seed=ARC_SEED)
    found = {(r.measure, r.label): r for r in summary.itertuples()}
    out: list[tuple] = []
    for name, measure, label in ARC_MEASURES:
        r = found.get((measure, label))
        if r is None:
            continue
        tested = name == "runaway"
        out.append((level, name, int(r.n), float(r.estimate), float(r.ci_low),
                    float(r.ci_high), float(r.p_value) if tested else float("nan"),
                    str(r.verdict), float(r.p_differs) if tested else float("nan")))
    return out


def style_label(names: Sequence[str]) -> str:
    """The level label of a style mix of the strategies ``names``: ``"styles: a/b/c"``, their
    parameters said once when every one has the same (``"styles: a/b (temperature=1)"``)."""
    parts = [str(name).partition(":") for name in sorted(names)]
    params = {p[2] for p in parts}
    if len(params) == 1 and "" not in params:
        return "styles: " + "/".join(p[0] for p in parts) + f" ({params.pop()})"
    return "styles: " + "/".join(str(n) for n in sorted(names))


def _style_games(frame: pd.DataFrame, games: pd.Series
                 ) -> dict[str, tuple[list[str], np.ndarray]]:
    """The style mixes of ``frame`` (``games``: its game index per row): label -> (the
    strategies, the game indices of the mix). A run (``run_id``) whose games seat three
    strategies or more is one mix; without ``run_id``, the games that seat three or more
    are."""
    per_game = frame.groupby(games, sort=True)["strategy"].agg(
        lambda s: frozenset(map(str, s)))
    owner = (frame.groupby(games, sort=True)["run_id"].first().astype(str)
             if "run_id" in frame.columns else pd.Series("", index=per_game.index))
    out: dict[str, tuple[list[str], np.ndarray]] = {}
    for _, ids in per_game.groupby(owner, sort=False):
        names = sorted(set().union(*per_game.loc[ids.index]))
        if len(names) < 3:
            if "run_id" in frame.columns:
                continue
            ids = ids[ids.map(len) >= 3]
            names = sorted(set().union(*ids)) if len(ids) else []
            if not names:
                continue
        label = style_label(names)
        before = out.get(label, (names, np.zeros(0, np.int64)))[1]
        out[label] = (names, np.concatenate([before, ids.index.to_numpy(np.int64)]))
    return out


def _rows_for(frame: pd.DataFrame, length: str | None) -> list[tuple]:
    """(level, measure, n, estimate, low, high[, p, verdict, p_differs]) of one variant and
    player count in its mirror games."""
    out: list[tuple] = []
    games = game_index(frame)
    frame = frame.assign(_game=games, _win=win_value(frame).to_numpy())
    per_game = frame.groupby("_game", sort=True)
    strategies = per_game["strategy"].agg(lambda s: tuple(sorted(set(map(str, s)))))
    for combo, ids in strategies.groupby(strategies, sort=False):
        sub = frame[frame["_game"].isin(ids.index)]
        g = int(ids.size)
        if len(combo) != 1:
            continue
        level = combo[0]
        n = int(sub["n_players"].iloc[0])
        worst = (-1.0, 0.0, 0.0, 0.0)
        for k in range(n):
            wins = float(sub.loc[sub["seat"] == k, "_win"].sum())
            low, high = wilson_interval(wins, g)
            rate = wins / g
            out.append((level, f"seat_{k}", g, rate, float(low), float(high)))
            dev = abs(rate - 1 / n)
            if dev > worst[0]:
                worst = (dev, rate - 1 / n, float(low) - 1 / n, float(high) - 1 / n)
        out.append((level, "max_seat_deviation", g, worst[1], worst[2], worst[3]))
        tied = float((sub.groupby("_game")["winner"].sum() > 1).sum())
        low, high = wilson_interval(tied, g)
        out.append((level, "ties", g, tied / g, float(low), float(high)))
        if length is not None:
            x = sub.groupby("_game")[length].first().to_numpy(np.float64)
            mean = float(x.mean())
            half = 1.96 * float(x.std(ddof=1)) / np.sqrt(g) if g > 1 else np.nan
            out.append((level, "length", g, mean, mean - half, mean + half))
        dominant = _dominant_parts(sub)
        if dominant is not None:
            out.append((level, "winner_profile_entropy", g, *entropy_interval(*dominant)))
        out += _arc_rows(level, sub)
    return out


def _style_rows(frame: pd.DataFrame) -> list[tuple]:
    """The style mixes' rows: which strategy wins (entropy, each one's share) and the arc."""
    out: list[tuple] = []
    frame = frame.assign(_game=game_index(frame), _win=win_value(frame).to_numpy())
    for label, (names, ids) in _style_games(frame, frame["_game"]).items():
        sub = frame[frame["_game"].isin(ids)]
        g = int(ids.size)
        shares = {s: sub[sub["strategy"].astype(str) == s].groupby("_game")["_win"].sum()
                  .reindex(ids, fill_value=0.0).to_numpy(np.float64) for s in names}
        won = np.array([shares[s].sum() for s in names])
        out.append((label, "winning_style_entropy", g, *entropy_interval(won, g)))
        for s in names:
            out.append((label, f"style_share:{s}", g, *share_interval(shares[s])))
        out += _arc_rows(label, sub)
    return out


def _mixed_rows(frame: pd.DataFrame, levels: Sequence[str] | None,
                pooled: dict[tuple, tuple[str, str]] | None = None,
                with_arc: bool = True) -> list[tuple]:
    out: list[tuple] = []
    frame = frame.assign(_game=game_index(frame), _win=win_value(frame).to_numpy())
    styles = _style_games(frame, frame["_game"])
    if styles:  # a style mix's games are not a pair of levels
        frame = frame[~frame["_game"].isin(np.concatenate([i for _, i in styles.values()]))]
    strategies = frame.groupby("_game", sort=True)["strategy"].agg(
        lambda s: tuple(sorted(set(map(str, s)))))
    for combo, ids in strategies.groupby(strategies, sort=False):
        if len(combo) != 2:
            continue
        sub = frame[frame["_game"].isin(ids.index)]
        shares = {s: sub[sub["strategy"].astype(str) == s].groupby("_game")["_win"].sum()
                  .reindex(ids.index, fill_value=0.0).to_numpy(np.float64) for s in combo}
        order = list(levels or [])
        if all(s in order for s in combo):
            strong, weak = sorted(combo, key=order.index, reverse=True)
        elif pooled is not None and combo in pooled:
            strong, weak = pooled[combo]
        else:
            strong, weak = sorted(combo, key=lambda s: -shares[s].mean())
        est, low, high = share_interval(shares[strong])
        label = f"{strong} vs {weak}"
        out.append((label, "stronger_share", int(ids.size), est, low, high))
        first = sub[sub["seat"] == 0].set_index("_game")["_win"].reindex(ids.index,
                                                                         fill_value=0.0)
        out.append((label, "first_seat", int(ids.size),
                    *share_interval(first.to_numpy(np.float64))))
        won = np.array([shares[strong].sum(), shares[weak].sum()])
        out.append((label, "winning_strategy_entropy", int(ids.size),
                    *entropy_interval(won, int(ids.size))))
        if with_arc:
            out += _arc_rows(label, sub)
    return out


def closest_to_parity(long: pd.DataFrame, alpha: float = ALPHA,
                      confidence: float = 0.95) -> pd.DataFrame:
    """Per table size and level of :func:`variant_comparison`'s frame, the variant whose largest
    seat deviation from parity is smallest, and whether that order is tested.

    The smallest ``|max_seat_deviation|`` is compared with each other variant's by a one-sided
    z test of the difference of the absolute deviations (each standard error from its interval
    at ``confidence``; the variants' runs are independent). The variant is *closest to parity*
    where every test rejects at ``alpha`` (an intersection-union test: no multiplicity
    correction). The deviation's seat is chosen after looking, so each test is approximate.

    Returns ``n_players``, ``level``, ``variant`` (the smallest deviation), ``estimate`` (its
    deviation), ``p_value`` (the largest one-sided p over the other variants; NaN where there is
    no other), ``closest`` (bool) and ``not_apart`` (the variants, this one first, whose
    deviation is not told apart from it, comma-joined).
    """
    z_crit = normal_quantile(confidence)
    dev = long[long["measure"] == "max_seat_deviation"]
    rows = []
    for (n, level), g in dev.groupby(["n_players", "level"], sort=False):
        size = g["estimate"].abs().to_numpy(np.float64)
        se = (g["ci_high"] - g["ci_low"]).to_numpy(np.float64) / (2 * z_crit)
        order = np.argsort(size, kind="stable")
        best = int(order[0])
        others = order[1:]
        with np.errstate(divide="ignore", invalid="ignore"):  # exact rates: se 0
            p = stats.norm.sf((size[others] - size[best])
                              / np.sqrt(se[others] ** 2 + se[best] ** 2))
        p = np.where(np.isnan(p), 1.0, p)  # equal and exact: not told apart
        names = g["variant"].astype(str).to_numpy()
        p_max = float(p.max()) if len(p) else float("nan")
        rows.append({"n_players": n, "level": level, "variant": names[best],
                     "estimate": float(g["estimate"].iloc[best]), "p_value": p_max,
                     "closest": bool(len(p) and p_max < alpha),
                     "not_apart": ", ".join([names[best], *names[others][p >= alpha]])})
    return pd.DataFrame(rows, columns=["n_players", "level", "variant", "estimate", "p_value",
                                       "closest", "not_apart"])


def variant_comparison(results: pd.DataFrame, column: str = "variant",
                       levels: Sequence[str] | None = None,
                       length: str | None = None) -> pd.DataFrame:
    """Seat balance, ties, length and the winners' diversity in the mirror games, the
    stronger level's share, the first seat's rate and the winning level's entropy in the
    mixed games (the skill profile's key numbers), which style wins in the style mixes, and
    the arc of every level's games, per variant (``column``), player count and level (see the
    module docstring).
    ``levels``: the strategies weakest first (which of a mixed pair is the stronger)."""
    if column not in results.columns:
        results = results.assign(**{column: "defaults"})
    if length is None:
        length = next((c for c in LENGTH_COLUMNS if c in results.columns), None)
    rows = []
    for (variant, n), frame in results.groupby([column, "n_players"], sort=False,
                                               observed=True):
        # without ``levels``, the stronger of a pair is the one that wins more over every
        # variant together, so that a variant may show it below 1/2
        pooled = {}
        for row in _mixed_rows(results[results["n_players"] == n], None, with_arc=False):
            if row[1] != "stronger_share":
                continue
            strong, weak = row[0].split(" vs ")
            pooled[tuple(sorted((strong, weak)))] = (strong, weak)
        for row in (_rows_for(frame, length) + _mixed_rows(frame, levels, pooled)
                    + _style_rows(frame)):
            tested = row if len(row) == 9 else (*row, float("nan"), "", float("nan"))
            rows.append((str(variant), int(n), *tested, float("nan")))
    out = pd.DataFrame(rows, columns=list(VARIANT_COLUMNS))
    runaway = (out["measure"] == "runaway").to_numpy()
    if runaway.any():  # one family: every runaway test of the comparison
        out.loc[runaway, "p_holm"] = holm_family(
            out.loc[runaway, "p_differs"].to_numpy()).p_holm
    return out
