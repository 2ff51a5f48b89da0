"""Maharaja's own analyses: pandas over a results frame (the generic columns plus the wing's
``frame_columns``). Each returns a DataFrame with its sample size ``n`` and 95% intervals
(``ci_low``, ``ci_high``).

=====================  ==========================================================================
``income_by_source``   gold per player-game by source (city scoring, lone bonus, tolls, gold
                       action, Trader, penalties received), by spending (builds, tolls paid) and
                       the final gold
``village_value``      per village: tolls earned there per game, how often it holds houses at the
                       end, and tolls per house standing there at the end
``road_value``         the same per road (its villages together)
``card_value``         win rate and final gold by the character held at the end and drafted at
                       setup
``palace_tempo``       rounds of the first and last palace and palaces built, per strategy; win
                       rate by the round of the first palace
``game_ends``          how games end (7th palace, round 10, both, the round cap): share and round
``game_length``        the share of games ending after each round, by end cause
``penalties``          actions left unperformed per player-game, by kind (the penalties' causes)
``central_vs_outer``   win rate by central palaces, central and outer palaces per strategy, and a
                       central palace against an outer one within games
``governor_value``     win rate by how often the governor action was chosen, and one more choice
                       of it within games
``order_balance``      win rate of each seat by the city the governor order scores first, and
                       whether the run played every order equally often (exact over the orders)
``seat_cards``         the share of each seat's games with each card, and its win rate within
                       each card and standardised to the cards' mix (module ``seat_cards``)
=====================  ==========================================================================

Conventions. Games are told apart by the generic game key
(:func:`tajsim.analysis.frames.game_index`: ``run_id``, ``seed``, ... and ``game_id``), so the
games of several runs in one frame are never merged; a shared win counts ``1/k`` for each of
``k`` winners (:func:`~tajsim.analysis.frames.win_value`), so the rate of equal players is
``1/n_players`` (the ``baseline`` column). Means over player-games have t intervals clustered by
game (the players of one game are not independent; with one row per group and game, as for each
strategy of a rotated line-up, this is the plain t interval); means over games have plain t
intervals; rates have Wilson intervals. The comparisons of a seat's own choices (cards, palace
sites, the governor action) are associations in simulated play, not causal effects: strategies
choose their actions when they pay.

``ANALYSES`` maps names to functions ``(results, **kwargs) -> DataFrame``; ``REQUIRED_COLUMNS``
names the columns (or ``prefix*`` families) each reads; ``CONCLUSIONS`` adds Maharaja's key
conclusions to the robustness analysis.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.frames import game_index, win_value
from tajsim.analysis.robustness import Finding, fmt_estimate, tiered_order
from tajsim.analysis.stats import mean_ci, proportion_table, wilson_interval, within_group_ols
from tajsim.analysis.winrates import win_rates
from tajsim.errors import UserError
from tajsim.games.maharaja.analyses.seat_cards import CARD_SLUGS, seat_cards
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.engine.enums import ACT_SLUGS, END_CAUSE_NAMES, N_ORDERS, PART_NAMES
from tajsim.games.maharaja.play.records import slug

__all__ = ["ANALYSES", "CONCLUSIONS", "REQUIRED_COLUMNS", "card_value", "central_vs_outer",
           "clustered_mean", "game_ends", "game_length", "governor_value", "income_by_source",
           "order_balance", "palace_tempo", "penalties", "road_value", "seat_cards",
           "village_value"]

GOLD_SOURCES = ("city", "lone", "tolls_in", "gold_action", "trader", "penalties_in")
GOLD_SPENDING = ("build_spent", "tolls_out")
#: Within-game comparisons control for these (dummies; absent ones are skipped).
CONTROLS = ("seat", "strategy")
#: Governor choices are counted up to this (the last level is "this many or more").
GOVERNOR_TOP = 3
assert set(GOLD_SOURCES + GOLD_SPENDING) < set(PART_NAMES)


def _check(results: pd.DataFrame, columns: Sequence[str], name: str) -> None:
    missing = [c for c in columns if c not in results.columns]
    if missing:
        raise UserError(f"{name} needs the column {missing[0]!r}; the results frame has none "
                        "(is it a Maharaja run?)")


def _by(results: pd.DataFrame, by: Sequence[str] | str | None) -> list[str]:
    if by is None:
        return []
    cols = [by] if isinstance(by, str) else list(by)
    _check(results, cols, "the grouping")
    return cols


def _framed(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with ``win`` (1/k for each of k tied winners, else 0) and ``_game`` (one
    number per game, whatever the run: ``run_id`` and ``seed`` are part of the key)."""
    return results.assign(win=win_value(results).to_numpy(), _game=game_index(results))


def _with_game(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` with ``_game`` (as in :func:`_framed`), for analyses that need no wins."""
    return results.assign(_game=game_index(results))


def _one_per_game(results: pd.DataFrame) -> pd.DataFrame:
    """The first row of each game (for the columns that are the same on a game's rows)."""
    first = ~pd.Series(game_index(results)).duplicated().to_numpy()
    return results.loc[first]


def _groups(frame: pd.DataFrame, keys: Sequence[str]):
    """``[(key tuple, sub-frame)]`` in sorted key order; one group when ``keys`` is empty."""
    if not keys:
        return [((), frame)]
    return [((k,) if not isinstance(k, tuple) else k, g)
            for k, g in frame.groupby(list(keys), observed=True, sort=True)]


def clustered_mean(values: np.ndarray, clusters: np.ndarray, confidence: float = 0.95
                   ) -> dict[str, float]:
    """Mean of ``values`` with a t interval clustered by ``clusters`` (one cluster per game).

    The standard error is the cluster-robust one of a mean, ``sqrt(G / (G - 1) * sum_g e_g^2) /
    N`` with ``e_g`` the sum of the deviations from the mean in cluster ``g``, and the interval
    has ``G - 1`` degrees of freedom. With one value per cluster it is the plain t interval.

    Returns
    -------
    dict
        ``n`` (values), ``n_games`` (clusters), ``mean``, ``sd``, ``ci_low``, ``ci_high``.
    """
    y = np.asarray(values, dtype=np.float64)
    codes = pd.factorize(np.asarray(clusters))[0]
    n, G = int(y.size), int(codes.max()) + 1 if y.size else 0
    out = {"n": n, "n_games": G, "mean": np.nan, "sd": np.nan, "ci_low": np.nan,
           "ci_high": np.nan}
    if n == 0:
        return out
    mean = float(y.mean())
    out["mean"] = mean
    out["sd"] = float(y.std(ddof=1)) if n > 1 else np.nan
    if G < 2:
        return out
    residual = np.bincount(codes, weights=y - mean, minlength=G)
    se = float(np.sqrt(G / (G - 1) * np.sum(residual ** 2)) / n)
    if se == 0:
        out["ci_low"] = out["ci_high"] = mean
        return out
    low, high = sps.t.interval(confidence, G - 1, loc=mean, scale=se)
    out["ci_low"], out["ci_high"] = float(low), float(high)
    return out


def _mean_table(frame: pd.DataFrame, keys: Sequence[str], column: str,
                confidence: float = 0.95) -> pd.DataFrame:
    """Per group: :func:`clustered_mean` of ``column`` over ``frame`` (which has ``_game``)."""
    rows = []
    for key, g in _groups(frame, keys):
        stats = clustered_mean(g[column].to_numpy(np.float64), g["_game"].to_numpy(), confidence)
        rows.append({**dict(zip(keys, key)), **stats})
    return pd.DataFrame(rows, columns=[*keys, "n", "n_games", "mean", "sd", "ci_low",
                                       "ci_high"])


def _ratio_of_means(y: np.ndarray, x: np.ndarray, confidence: float = 0.95
                    ) -> tuple[float, float, float]:
    """``sum(y) / sum(x)`` over paired observations with a delta-method t interval (``n - 1``
    df; the linearised values ``(y - r x) / mean(x)``). NaN when ``sum(x)`` is 0."""
    y, x = np.asarray(y, np.float64), np.asarray(x, np.float64)
    n = y.size
    if n < 2 or x.sum() <= 0:
        return np.nan, np.nan, np.nan
    ratio = float(y.sum() / x.sum())
    linear = (y - ratio * x) / x.mean()
    se = float(linear.std(ddof=1) / np.sqrt(n))
    if se == 0:
        return ratio, ratio, ratio
    low, high = sps.t.interval(confidence, n - 1, loc=ratio, scale=se)
    return ratio, float(low), float(high)


def _end_causes(values: pd.Series) -> np.ndarray:
    """End-cause names of a column that holds them as names (``frame_columns``) or as codes
    (the runner's per-game metric of the same name)."""
    if pd.api.types.is_numeric_dtype(values.dtype):
        codes = values.to_numpy(np.int64)
        return np.array(END_CAUSE_NAMES, dtype=object)[codes]
    return values.astype(str).to_numpy()


def _wilson(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    low, high = wilson_interval(successes, n, confidence)
    return float(low), float(high)


# ---------------------------------------------------------------------------------------------
# Gold
# ---------------------------------------------------------------------------------------------
def income_by_source(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy",
                     confidence: float = 0.95) -> pd.DataFrame:
    """Mean gold per player-game from each source, each kind of spending and in the end.

    Returns ``by...``, ``source``, ``kind`` ("income", "spending" (negative) or "final": the
    gold a player ends with, starting gold included), ``n`` (player-games), ``n_games``,
    ``mean``, ``sd``, ``ci_low``, ``ci_high`` (t, clustered by game), ``share`` (of the group's
    income from all sources; NaN for spending and the final gold).
    """
    cols = [f"pts_{s}" for s in GOLD_SOURCES + GOLD_SPENDING]
    _check(results, [*cols, "gold"], "income_by_source")
    keys = _by(results, by)
    frame = _with_game(results)
    frame["_income"] = frame[[f"pts_{s}" for s in GOLD_SOURCES]].sum(axis=1)
    total = _mean_table(frame, keys, "_income", confidence)
    parts = []
    for source, kind in ([(s, "income") for s in GOLD_SOURCES]
                         + [(s, "spending") for s in GOLD_SPENDING] + [("gold", "final")]):
        table = _mean_table(frame, keys, "gold" if kind == "final" else f"pts_{source}",
                            confidence)
        table.insert(len(keys), "source", source)
        table.insert(len(keys) + 1, "kind", kind)
        table["share"] = (table["mean"].to_numpy() / total["mean"].to_numpy()
                          if kind == "income" else np.nan)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


# ---------------------------------------------------------------------------------------------
# Villages and roads
# ---------------------------------------------------------------------------------------------
def _village_columns(results: pd.DataFrame) -> list[str]:
    names = [c[len("tolls_"):] for c in results.columns if c.startswith("tolls_")
             and f"houses_{c[len('tolls_'):]}" in results.columns]
    if not names:
        raise UserError("village_value needs the tolls_<village> and houses_<village> columns "
                        "of a Maharaja results frame")
    return names


def _road_of_village(meta: Mapping[str, Any] | None) -> dict[str, str]:
    if not meta:
        return {}
    names = [slug(v) for v in meta["village_names"]]
    # The start is named as the board names it (the map's label), "start" when not given.
    junctions = [*meta["city_names"], meta.get("start_name", "start")]
    out = {}
    for r, (a, b) in enumerate(meta["roads"]):
        for v in meta["road_villages"][r]:
            if v >= 0:
                out[names[v]] = f"{junctions[a]}-{junctions[b]}"
    return out


def village_value(results: pd.DataFrame, meta: Mapping[str, Any] | None = None,
                  confidence: float = 0.95) -> pd.DataFrame:
    """What each village earns its house owners, over games (one observation per game).

    ``mean``: tolls earned there per game (t interval). ``held``: the share of games in which
    it holds at least one house at the end (Wilson). ``houses``: houses standing there at the
    end, per game. ``per_house``: tolls per house standing at the end, ``sum(tolls) /
    sum(houses)`` over all games with a delta-method interval. The records carry the tolls of a
    whole game and the houses at its end, not how long each house stood, so ``per_house`` is
    not the toll of a house-round: a house built in round 8 counts as much as one built at
    setup, and tolls earned by houses moved away before the end are divided among those left.
    ``meta`` (``Components.frame_meta()``) names each village's road.

    Returns ``village``, ``road``, ``n`` (games), ``mean``, ``sd``, ``ci_low``, ``ci_high``,
    ``held``, ``held_low``, ``held_high``, ``houses``, ``houses_low``, ``houses_high``,
    ``per_house``, ``per_house_low``, ``per_house_high``; sorted by ``mean``, richest first.
    """
    names = _village_columns(results)
    roads = _road_of_village(meta)
    games = _one_per_game(results)
    rows = []
    for name in names:
        tolls = games[f"tolls_{name}"].to_numpy(np.float64)
        houses = games[f"houses_{name}"].to_numpy(np.float64)
        mean, low, high, n, sd = mean_ci(tolls, confidence)
        h_mean, h_low, h_high, _, _ = mean_ci(houses, confidence)
        held = float((houses > 0).sum())
        held_low, held_high = _wilson(held, n, confidence)
        ratio, r_low, r_high = _ratio_of_means(tolls, houses, confidence)
        rows.append({
            "village": name, "road": roads.get(name, ""), "n": n, "mean": mean, "sd": sd,
            "ci_low": low, "ci_high": high, "held": held / n if n else np.nan,
            "held_low": held_low, "held_high": held_high, "houses": h_mean,
            "houses_low": h_low, "houses_high": h_high, "per_house": ratio,
            "per_house_low": r_low, "per_house_high": r_high,
        })
    return pd.DataFrame(rows).sort_values("mean", ascending=False, kind="stable",
                                          ignore_index=True)


def road_value(results: pd.DataFrame, meta: Mapping[str, Any] | None = None,
               confidence: float = 0.95) -> pd.DataFrame:
    """Tolls earned per game on each road (its villages together), with a t interval over
    games, the houses standing on it at the end and the tolls per such house (as in
    :func:`village_value`, with the same caveat). ``meta`` is ``Components.frame_meta()``
    (default: the shipped board; the results must come from that board).

    Returns ``road``, ``villages``, ``n`` (games), ``mean``, ``sd``, ``ci_low``, ``ci_high``,
    ``houses``, ``per_house``, ``per_house_low``, ``per_house_high``; richest first.
    """
    meta = meta or default_components().frame_meta()
    games = _one_per_game(results)
    names = [slug(v) for v in meta["village_names"]]
    # The start is named as the board names it (the map's label), "start" when not given.
    junctions = [*meta["city_names"], meta.get("start_name", "start")]
    rows = []
    for r, (a, b) in enumerate(meta["roads"]):
        vil = [names[v] for v in meta["road_villages"][r] if v >= 0]
        _check(games, [f"tolls_{v}" for v in vil] + [f"houses_{v}" for v in vil], "road_value")
        tolls = sum(games[f"tolls_{v}"].to_numpy(np.float64) for v in vil)
        houses = sum(games[f"houses_{v}"].to_numpy(np.float64) for v in vil)
        mean, low, high, n, sd = mean_ci(tolls, confidence)
        ratio, r_low, r_high = _ratio_of_means(tolls, houses, confidence)
        rows.append({"road": f"{junctions[a]}-{junctions[b]}", "villages": ", ".join(vil),
                     "n": n, "mean": mean, "sd": sd, "ci_low": low, "ci_high": high,
                     "houses": float(houses.mean()) if n else np.nan, "per_house": ratio,
                     "per_house_low": r_low, "per_house_high": r_high})
    return pd.DataFrame(rows).sort_values("mean", ascending=False, kind="stable",
                                          ignore_index=True)


# ---------------------------------------------------------------------------------------------
# Character cards
# ---------------------------------------------------------------------------------------------
def card_value(results: pd.DataFrame, by: Sequence[str] | str | None = None,
               confidence: float = 0.95) -> pd.DataFrame:
    """Win rate (Wilson, shared wins 1/k) and final gold (t, clustered by game) by character,
    held at the end (``held`` = "final") and drafted at setup ("first"). Associations: the card
    held at the end is the one a player kept or took.

    Returns ``held``, ``by...``, ``card``, ``n`` (player-games), ``n_games``, ``wins``,
    ``win_rate``, ``ci_low``, ``ci_high``, ``baseline`` (1/n_players), ``excess``, ``gold``,
    ``gold_low``, ``gold_high``.
    """
    _check(results, ["card_final", "card_first", "winner", "gold"], "card_value")
    keys = _by(results, by)
    frame = _framed(results)
    out = []
    for held, column in (("final", "card_final"), ("first", "card_first")):
        codes = frame[column].astype(np.int64).to_numpy()
        names = np.array([CARD_SLUGS[c] if 0 <= c < len(CARD_SLUGS) else str(c) for c in codes])
        cards = frame.assign(card=pd.Categorical(names, categories=[
            *CARD_SLUGS, *sorted(set(names) - set(CARD_SLUGS))]))
        rates = win_rates(cards, by=[*keys, "card"], confidence=confidence)
        gold = _mean_table(cards, [*keys, "card"], "gold", confidence)
        gold = gold[[*keys, "card", "mean", "ci_low", "ci_high"]].rename(
            columns={"mean": "gold", "ci_low": "gold_low", "ci_high": "gold_high"})
        table = rates.merge(gold, on=[*keys, "card"], how="left")
        table["card"] = table["card"].astype(str)
        table.insert(0, "held", held)
        out.append(table)
    return pd.concat(out, ignore_index=True)


# ---------------------------------------------------------------------------------------------
# Palaces
# ---------------------------------------------------------------------------------------------
def _palace_rounds(results: pd.DataFrame) -> list[str]:
    """The ``palace_round_<k>`` columns, in order of k (none in runs made before they were)."""
    found = [c for c in results.columns if str(c).startswith("palace_round_")]
    return sorted(found, key=lambda c: int(str(c).rsplit("_", 1)[1]))


def palace_tempo(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy",
                 confidence: float = 0.95) -> pd.DataFrame:
    """How fast players build their palaces, by group (t intervals clustered by game):

    * ``measure`` = "palaces_by_round": palaces a player has built by the end of round
      ``round`` (a game that ended earlier counts its final palaces), from the
      ``palace_round_<k>`` columns (left out when the results lack them);
    * "first_palace_round", "last_palace_round": the round of the player's first and last
      palace (players who built none are left out);
    * "palaces": palaces at the end;
    * "win_rate_by_first_palace_round": win rate (Wilson) by the round of the first palace
      (``round`` 0 = no palace built), all groups together.

    Returns ``measure``, ``by...``, ``round``, ``n``, ``n_games``, ``mean`` (palaces, a round
    or a win rate), ``ci_low``, ``ci_high``, ``baseline`` (win rates: 1/n_players).
    """
    _check(results, ["first_palace_round", "last_palace_round", "palaces", "winner"],
           "palace_tempo")
    keys = _by(results, by)
    frame = _framed(results)
    parts = []
    tempo = _palace_rounds(frame)
    if tempo:
        built_in = frame[tempo].to_numpy(np.int64)
        last = int(max(built_in.max(), frame["n_rounds"].max() if "n_rounds" in frame else 0))
        for r in range(1, last + 1):
            frame["_by_round"] = ((built_in > 0) & (built_in <= r)).sum(axis=1)
            table = _mean_table(frame, keys, "_by_round", confidence)
            table.insert(0, "measure", "palaces_by_round")
            table.insert(1 + len(keys), "round", r)
            parts.append(table)
    built = frame[frame["palaces"] > 0]
    for measure, sub, column in (("first_palace_round", built, "first_palace_round"),
                                 ("last_palace_round", built, "last_palace_round"),
                                 ("palaces", frame, "palaces")):
        table = _mean_table(sub, keys, column, confidence)
        table.insert(0, "measure", measure)
        parts.append(table)
    rates = win_rates(frame.assign(round=frame["first_palace_round"].astype(np.int64)),
                      by=["round"], confidence=confidence)
    rates = rates.rename(columns={"win_rate": "mean"})
    rates.insert(0, "measure", "win_rate_by_first_palace_round")
    parts.append(rates[["measure", "round", "n", "n_games", "mean", "ci_low", "ci_high",
                        "baseline"]])
    out = pd.concat(parts, ignore_index=True)
    out["round"] = out["round"].astype("Int64")
    columns = ["measure", *keys, "round", "n", "n_games", "mean", "sd", "ci_low", "ci_high",
               "baseline"]
    return out.reindex(columns=columns)


def central_vs_outer(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy",
                     confidence: float = 0.95) -> pd.DataFrame:
    """Central against outer palaces.

    * ``measure`` = "win_rate_by_central": win rate by the number of central palaces a player
      built (Wilson; ``level`` = that number);
    * "central" / "outer": palaces of each kind per player-game, by group (t, clustered);
    * "within_game": one central palace in place of an outer one (the palaces held equal),
      compared among the players of one game: the coefficient of ``palaces_central`` in
      ``outcome ~ palaces_central + palaces + seat + strategy + one effect per game`` for the
      outcomes ``win`` (win share) and ``gold``, with intervals clustered by game. An
      association: players build a central palace where they can.

    Returns ``measure``, ``by...``, ``level``, ``outcome``, ``n``, ``n_games``, ``estimate``,
    ``ci_low``, ``ci_high``, ``baseline`` (win rates: 1/n_players).
    """
    _check(results, ["palaces_central", "palaces_outer", "palaces", "winner", "gold"],
           "central_vs_outer")
    keys = _by(results, by)
    frame = _framed(results)
    rates = win_rates(frame.assign(level=frame["palaces_central"].astype(np.int64)),
                      by=["level"], confidence=confidence)
    rates = rates.rename(columns={"win_rate": "estimate"})
    rates.insert(0, "measure", "win_rate_by_central")
    rates["outcome"] = "win"
    parts = [rates[["measure", "level", "outcome", "n", "n_games", "estimate", "ci_low",
                    "ci_high", "baseline"]]]
    for measure in ("central", "outer"):
        table = _mean_table(frame, keys, f"palaces_{measure}", confidence)
        table = table.rename(columns={"mean": "estimate"}).drop(columns="sd")
        table.insert(0, "measure", measure)
        table["outcome"] = "palaces"
        parts.append(table)
    for outcome in ("win", "gold"):
        fit = within_group_ols(frame, outcome, ["palaces_central", "palaces"], CONTROLS,
                               group="_game", confidence=confidence)
        row = fit[fit["term"] == "palaces_central"].iloc[0]
        parts.append(pd.DataFrame([{"measure": "within_game", "outcome": outcome,
                                    "n": int(row["n"]), "n_games": int(row["n_games"]),
                                    "estimate": row["coef"], "ci_low": row["low"],
                                    "ci_high": row["high"]}]))
    out = pd.concat(parts, ignore_index=True)
    out["level"] = out["level"].astype("Int64")
    return out[["measure", *keys, "level", "outcome", "n", "n_games", "estimate", "ci_low",
                "ci_high", "baseline"]]


# ---------------------------------------------------------------------------------------------
# How games end
# ---------------------------------------------------------------------------------------------
def game_ends(results: pd.DataFrame, by: Sequence[str] | str | None = None,
              confidence: float = 0.95) -> pd.DataFrame:
    """How games end: the share of each end cause (Wilson, over games) and the mean round of
    the end for each cause (t). Causes: ``seventh_palace`` (a player built a 7th palace),
    ``round_10`` (a governor reached the last box), ``both`` in the same round, ``round_cap``
    (the simulator's bound, which no game should reach).

    Returns ``by...``, ``end_cause``, ``n`` (games), ``successes``, ``rate``, ``ci_low``,
    ``ci_high``, ``rounds``, ``rounds_low``, ``rounds_high``.
    """
    _check(results, ["end_cause", "n_rounds"], "game_ends")
    keys = _by(results, by)
    games = _one_per_game(results)
    rows = []
    for key, g in _groups(games, keys):
        cause = _end_causes(g["end_cause"])
        rounds = g["n_rounds"].to_numpy(np.float64)
        n = len(g)
        for name in END_CAUSE_NAMES[1:]:
            hit = cause == name
            low, high = _wilson(float(hit.sum()), n, confidence)
            r_mean, r_low, r_high, _, _ = mean_ci(rounds[hit], confidence)
            rows.append({**dict(zip(keys, key)), "end_cause": name, "n": n,
                         "successes": int(hit.sum()), "rate": hit.mean() if n else np.nan,
                         "ci_low": low, "ci_high": high, "rounds": r_mean,
                         "rounds_low": r_low, "rounds_high": r_high})
    return pd.DataFrame(rows)


def game_length(results: pd.DataFrame, by: Sequence[str] | str | None = None,
                confidence: float = 0.95) -> pd.DataFrame:
    """When games end: the share of games (Wilson) that end after each round, by end cause
    (``end_cause`` = "any" for all causes together).

    Returns ``by...``, ``n_rounds``, ``end_cause``, ``n`` (games), ``successes``, ``rate``,
    ``ci_low``, ``ci_high``.
    """
    _check(results, ["end_cause", "n_rounds"], "game_length")
    keys = _by(results, by)
    games = _one_per_game(results)
    rows = []
    for key, g in _groups(games, keys):
        cause = _end_causes(g["end_cause"])
        rounds = g["n_rounds"].to_numpy(np.int64)
        n = len(g)
        for r in range(int(rounds.min()), int(rounds.max()) + 1):
            for name in ("any", *END_CAUSE_NAMES[1:]):
                hit = (rounds == r) & ((cause == name) | (name == "any"))
                if name != "any" and not hit.any():
                    continue
                low, high = _wilson(float(hit.sum()), n, confidence)
                rows.append({**dict(zip(keys, key)), "n_rounds": r, "end_cause": name, "n": n,
                             "successes": int(hit.sum()), "rate": float(hit.mean()),
                             "ci_low": low, "ci_high": high})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------------------------
# Penalties
# ---------------------------------------------------------------------------------------------
def penalties(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy",
              confidence: float = 0.95) -> pd.DataFrame:
    """Actions left unperformed per player-game (each pays every other player 2 gold, R17), by
    kind (the penalties' causes) and in all (``action`` = "all"; t intervals clustered by
    game), with the share of player-games with at least one (``any``, Wilson).

    Returns ``by...``, ``action``, ``n`` (player-games), ``n_games``, ``mean``, ``sd``,
    ``ci_low``, ``ci_high``, ``any``, ``any_low``, ``any_high``.
    """
    cols = [f"missed_{a}" for a in ACT_SLUGS]
    _check(results, cols + ["penalties"], "penalties")
    keys = _by(results, by)
    frame = _with_game(results)
    parts = []
    for action, column in (("all", "penalties"), *((a, f"missed_{a}") for a in ACT_SLUGS
                                                   if a != "gold")):
        table = _mean_table(frame, keys, column, confidence)
        frame["_any"] = (frame[column] > 0).astype(np.float64)
        share = proportion_table(frame, keys, "_any", confidence=confidence)
        table["any"] = share["rate"].to_numpy()
        table["any_low"] = share["ci_low"].to_numpy()
        table["any_high"] = share["ci_high"].to_numpy()
        table.insert(len(keys), "action", action)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


# ---------------------------------------------------------------------------------------------
# The governor action
# ---------------------------------------------------------------------------------------------
def governor_value(results: pd.DataFrame, by: Sequence[str] | str | None = None,
                   confidence: float = 0.95) -> pd.DataFrame:
    """The governor action (move a governor two boxes down: which city is scored when).

    * ``measure`` = "win_rate": win rate by how often a player chose the action (``level`` 0,
      1, 2, "3+"), by group (Wilson);
    * "within_game": one more choice of the action, compared among the players of one game:
      the coefficient of ``chose_governor`` in ``outcome ~ chose_governor + seat + strategy +
      one effect per game`` for ``win`` (win share) and ``gold``, intervals clustered by game.

    Both are associations: players choose the action when it pays (or when nothing else
    does), so neither is the effect of forcing it on a player.

    Returns ``measure``, ``by...``, ``level``, ``outcome``, ``n``, ``n_games``, ``estimate``,
    ``ci_low``, ``ci_high``, ``baseline``.
    """
    _check(results, ["chose_governor", "winner", "gold"], "governor_value")
    keys = _by(results, by)
    frame = _framed(results)
    times = np.minimum(frame["chose_governor"].astype(np.int64).to_numpy(), GOVERNOR_TOP)
    levels = [str(k) for k in range(GOVERNOR_TOP)] + [f"{GOVERNOR_TOP}+"]
    frame["level"] = pd.Categorical(np.array(levels)[times], categories=levels)
    rates = win_rates(frame, by=[*keys, "level"], confidence=confidence)
    rates = rates.rename(columns={"win_rate": "estimate"})
    rates.insert(0, "measure", "win_rate")
    rates["outcome"] = "win"
    rates["level"] = rates["level"].astype(str)
    parts = [rates]
    for outcome in ("win", "gold"):
        fit = within_group_ols(frame, outcome, ["chose_governor"], CONTROLS, group="_game",
                               confidence=confidence).iloc[0]
        parts.append(pd.DataFrame([{"measure": "within_game", "outcome": outcome,
                                    "n": int(fit["n"]), "n_games": int(fit["n_games"]),
                                    "estimate": fit["coef"], "ci_low": fit["low"],
                                    "ci_high": fit["high"]}]))
    out = pd.concat(parts, ignore_index=True)
    return out[["measure", *keys, "level", "outcome", "n", "n_games", "estimate", "ci_low",
                "ci_high", "baseline"]]


# ---------------------------------------------------------------------------------------------
# The governor order and the seats
# ---------------------------------------------------------------------------------------------
def order_balance(results: pd.DataFrame, by: Sequence[str] | str | None = None,
                  confidence: float = 0.95) -> pd.DataFrame:
    """Win rate of each seat by the city the governor order scores first (``first_city``) and
    over all orders (``first_city`` = "all"), by group, with Wilson intervals over games.

    ``exhaustive`` says whether the group played every one of the 5,040 orders equally often
    (``setups = "enumerated"``): the compiled strategies draw no chance, so a game is a function
    of the order and the seating, and the rates of such a run are then exact for a uniformly
    drawn order (the intervals are those of a sample of as many random orders). In a mirror
    match (one strategy in every seat) a seat's rate is its position's advantage.

    Returns ``by...``, ``first_city``, ``seat``, ``n`` (games), ``n_orders`` (distinct orders),
    ``wins``, ``win_rate``, ``ci_low``, ``ci_high``, ``baseline``, ``excess``, ``exhaustive``.
    """
    _check(results, ["first_city", "order_index", "seat", "winner"], "order_balance")
    keys = _by(results, by)
    frame = _framed(results).assign(first_city=results["first_city"].astype(str))
    parts = []
    for cities in (False, True):
        group = [*keys, "first_city", "seat"] if cities else [*keys, "seat"]
        table = win_rates(frame, by=group, confidence=confidence)
        orders = frame.groupby(group, observed=True, sort=True)["order_index"].nunique()
        table["n_orders"] = orders.to_numpy(np.int64)
        if not cities:
            table.insert(len(keys), "first_city", "all")
        parts.append(table)
    out = pd.concat(parts, ignore_index=True)
    # every order equally often within the group (games counted once: seat 0's rows)
    exhaustive = {}
    for key, g in _groups(frame[frame["seat"] == 0], keys):
        counts = g["order_index"].value_counts()
        exhaustive[key] = bool(len(counts) == N_ORDERS and counts.nunique() == 1)
    out["exhaustive"] = [exhaustive.get(tuple(row[k] for k in keys), False)
                         for _, row in out.iterrows()]
    return out[[*keys, "first_city", "seat", "n", "n_orders", "wins", "win_rate", "ci_low",
                "ci_high", "baseline", "excess", "exhaustive"]]


# ---------------------------------------------------------------------------------------------
# Robustness conclusions
# ---------------------------------------------------------------------------------------------
def income_ranking(results: pd.DataFrame) -> list[Finding]:
    """Order of the income sources by their mean gold per player-game (all strategies
    together; ``≈`` for neighbours not significantly different)."""
    table = income_by_source(results, by=None)
    table = table[table["kind"] == "income"].sort_values("mean", ascending=False)
    se = ((table["ci_high"] - table["ci_low"]) / (2 * 1.96)).to_numpy()
    value = tiered_order(list(table["source"]), table["mean"].to_numpy(), se)
    detail = "; ".join(f"{r.source} {fmt_estimate(r.mean, r.ci_low, r.ci_high, 2)}"
                       for r in table.itertuples())
    return [Finding("income_ranking", value, detail)]


def usual_game_end(results: pd.DataFrame) -> list[Finding]:
    """The most common way a game ends, per player count."""
    out = []
    for players, g in results.groupby("n_players", sort=True):
        table = game_ends(g).sort_values("rate", ascending=False)
        top = table.iloc[0]
        out.append(Finding(f"usual_game_end[{int(players)}p]", str(top["end_cause"]),
                           "share " + fmt_estimate(top["rate"], top["ci_low"], top["ci_high"])))
    return out


def central_palace_sign(results: pd.DataFrame) -> list[Finding]:
    """Sign of the within-game win share of a central palace in place of an outer one."""
    table = central_vs_outer(results, by=None)
    row = table[(table["measure"] == "within_game") & (table["outcome"] == "win")].iloc[0]
    sign = "+" if row["ci_low"] > 0 else "-" if row["ci_high"] < 0 else "0"
    return [Finding("central_palace_win_share", sign,
                    fmt_estimate(row["estimate"], row["ci_low"], row["ci_high"]))]


#: Maharaja's robustness conclusions (besides the generic ones).
CONCLUSIONS: dict[str, Callable[[pd.DataFrame], list[Finding]]] = {
    "income_ranking": income_ranking,
    "usual_game_end": usual_game_end,
    "central_palace_win_share": central_palace_sign,
}

#: name -> function(results, **kwargs) -> DataFrame
ANALYSES: dict[str, Callable[..., pd.DataFrame]] = {
    "income_by_source": income_by_source,
    "village_value": village_value,
    "road_value": road_value,
    "card_value": card_value,
    "palace_tempo": palace_tempo,
    "game_ends": game_ends,
    "game_length": game_length,
    "penalties": penalties,
    "central_vs_outer": central_vs_outer,
    "governor_value": governor_value,
    "order_balance": order_balance,
    "seat_cards": seat_cards,
}

_GAME = ("game_id", "n_players", "seat")

#: Columns (or ``prefix*`` families) each analysis reads.
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "income_by_source": (*_GAME, "strategy", "gold",
                         *(f"pts_{s}" for s in GOLD_SOURCES + GOLD_SPENDING)),
    "village_value": ("game_id", "tolls_*", "houses_*"),
    "road_value": ("game_id", "tolls_*", "houses_*"),
    "card_value": (*_GAME, "card_final", "card_first", "winner", "gold"),
    "palace_tempo": (*_GAME, "strategy", "first_palace_round", "last_palace_round", "palaces",
                     "winner"),
    "game_ends": ("game_id", "end_cause", "n_rounds"),
    "game_length": ("game_id", "end_cause", "n_rounds"),
    "penalties": (*_GAME, "strategy", "penalties",
                  *(f"missed_{a}" for a in ACT_SLUGS)),
    "central_vs_outer": (*_GAME, "strategy", "palaces_central", "palaces_outer", "palaces",
                         "winner", "gold"),
    "governor_value": (*_GAME, "chose_governor", "winner", "gold"),
    "order_balance": (*_GAME, "first_city", "order_index", "winner"),
    "seat_cards": (*_GAME, "card_final", "card_first", "winner"),
}
