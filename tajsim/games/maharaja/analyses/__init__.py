"""Maharaja's own analyses: pandas over a results frame (the generic columns plus the wing's
``frame_columns``). Each returns a DataFrame with its sample size ``n`` and 95% intervals
(``ci_low``, ``ci_high``: t intervals for means, Wilson intervals for rates).

=====================  ==========================================================================
``income_by_source``   gold by source (city scoring, lone bonus, tolls, gold action, Trader,
                       penalties received) and spending (builds, tolls paid), per strategy
``village_value``      tolls earned in each village per game, houses there at the end, and the
                       tolls per house (the value of a village house)
``road_value``         the same summed over each road's villages
``card_value``         win rate and gold by the character held at the end and drafted at setup
``palace_tempo``       rounds of the first and last palace and palaces built, per strategy; win
                       rate by the round of the first palace
``game_ends``          how games end (7th palace, round 10, both, the round cap) and when
``penalties``          actions left unperformed, by kind, per strategy
``central_vs_outer``   win rate by central palaces; central and outer palaces per strategy
``governor_value``     win rate by how often the governor action was chosen
=====================  ==========================================================================

``ANALYSES`` maps names to functions ``(results, **kwargs) -> DataFrame``; ``REQUIRED_COLUMNS``
names the columns (or ``prefix*`` families) each reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.stats import proportion_table, summarize_mean
from tajsim.errors import UserError
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.engine.enums import ACT_SLUGS, END_CAUSE_NAMES, PART_NAMES
from tajsim.games.maharaja.play.records import slug

__all__ = ["ANALYSES", "REQUIRED_COLUMNS", "card_value", "central_vs_outer", "game_ends",
           "governor_value", "income_by_source", "palace_tempo", "penalties", "road_value",
           "village_value"]

GOLD_SOURCES = ("city", "lone", "tolls_in", "gold_action", "trader", "penalties_in")
GOLD_SPENDING = ("build_spent", "tolls_out")
CARD_SLUGS = ("mogul", "trader", "sadhu", "monk", "builder", "artisan")
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


def _games(results: pd.DataFrame) -> pd.DataFrame:
    """One row per game (the columns that are the same on a game's rows)."""
    keys = [c for c in ("run_id", "seed", "game_id") if c in results.columns]
    return results.drop_duplicates(subset=keys)


def income_by_source(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy"
                     ) -> pd.DataFrame:
    """Mean gold per player and game from each source and each kind of spending.

    Returns ``by...``, ``source``, ``kind`` ("income" or "spending"), ``n``, ``mean``, ``sd``,
    ``ci_low``, ``ci_high``; spending is negative.
    """
    cols = [f"pts_{s}" for s in GOLD_SOURCES + GOLD_SPENDING]
    _check(results, cols, "income_by_source")
    keys = _by(results, by)
    parts = []
    for source in GOLD_SOURCES + GOLD_SPENDING:
        table = summarize_mean(results, keys, f"pts_{source}")
        table.insert(len(keys), "source", source)
        table.insert(len(keys) + 1, "kind", "income" if source in GOLD_SOURCES else "spending")
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


def _village_columns(results: pd.DataFrame) -> list[str]:
    names = [c[len("tolls_"):] for c in results.columns if c.startswith("tolls_")
             and f"houses_{c[len('tolls_'):]}" in results.columns]
    if not names:
        raise UserError("village_value needs the tolls_<village> and houses_<village> columns "
                        "of a Maharaja results frame")
    return names


def village_value(results: pd.DataFrame) -> pd.DataFrame:
    """Per village, per game: tolls earned there (``mean``, t interval), houses standing there
    at the end (``houses``) and tolls per house over the games where it held houses
    (``per_house``, with its own interval): the value of a village house over a game.

    Returns ``village``, ``n``, ``mean``, ``sd``, ``ci_low``, ``ci_high``, ``houses``,
    ``per_house_n``, ``per_house``, ``per_house_low``, ``per_house_high``; sorted by ``mean``.
    """
    games = _games(results)
    rows = []
    for name in _village_columns(results):
        tolls = games[f"tolls_{name}"].astype(np.float64)
        houses = games[f"houses_{name}"].astype(np.float64)
        frame = pd.DataFrame({"tolls": tolls, "houses": houses})
        t = summarize_mean(frame, [], "tolls").iloc[0]
        held = frame[frame["houses"] > 0]
        ratio = pd.DataFrame({"r": held["tolls"] / held["houses"]})
        r = summarize_mean(ratio, [], "r").iloc[0] if len(ratio) else None
        rows.append({
            "village": name, "n": int(t["n"]), "mean": t["mean"], "sd": t["sd"],
            "ci_low": t["ci_low"], "ci_high": t["ci_high"], "houses": float(houses.mean()),
            "per_house_n": int(r["n"]) if r is not None else 0,
            "per_house": r["mean"] if r is not None else np.nan,
            "per_house_low": r["ci_low"] if r is not None else np.nan,
            "per_house_high": r["ci_high"] if r is not None else np.nan,
        })
    return pd.DataFrame(rows).sort_values("mean", ascending=False, ignore_index=True)


def road_value(results: pd.DataFrame, meta: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Tolls earned per game on each road (its villages together), with ``n`` and a t
    interval. ``meta`` is ``Components.frame_meta()`` (default: the shipped board).

    Returns ``road``, ``villages``, ``n``, ``mean``, ``sd``, ``ci_low``, ``ci_high``.
    """
    meta = meta or default_components().frame_meta()
    games = _games(results)
    names = [slug(v) for v in meta["village_names"]]
    junctions = [*meta["city_names"], "start"]
    rows = []
    for r, (a, b) in enumerate(meta["roads"]):
        vil = [names[v] for v in meta["road_villages"][r] if v >= 0]
        _check(games, [f"tolls_{v}" for v in vil], "road_value")
        total = sum(games[f"tolls_{v}"].astype(np.float64) for v in vil)
        t = summarize_mean(pd.DataFrame({"t": total}), [], "t").iloc[0]
        rows.append({"road": f"{junctions[a]}-{junctions[b]}", "villages": ", ".join(vil),
                     "n": int(t["n"]), "mean": t["mean"], "sd": t["sd"],
                     "ci_low": t["ci_low"], "ci_high": t["ci_high"]})
    return pd.DataFrame(rows).sort_values("mean", ascending=False, ignore_index=True)


def card_value(results: pd.DataFrame) -> pd.DataFrame:
    """Win rate (Wilson) and final gold (t) by character, held at the end (``held`` =
    "final") and drafted at setup ("first").

    Returns ``held``, ``card``, ``n``, ``successes``, ``rate``, ``ci_low``, ``ci_high``,
    ``gold``, ``gold_low``, ``gold_high``.
    """
    _check(results, ["card_final", "card_first", "winner", "gold"], "card_value")
    out = []
    for held, column in (("final", "card_final"), ("first", "card_first")):
        frame = results.assign(card=results[column].astype(np.int64))
        rates = proportion_table(frame, ["card"], "winner")
        gold = summarize_mean(frame, ["card"], "gold")[["card", "mean", "ci_low", "ci_high"]]
        gold.columns = ["card", "gold", "gold_low", "gold_high"]
        table = rates.merge(gold, on="card")
        table["card"] = [CARD_SLUGS[c] if 0 <= c < len(CARD_SLUGS) else str(c)
                         for c in table["card"]]
        table.insert(0, "held", held)
        out.append(table)
    return pd.concat(out, ignore_index=True)


def palace_tempo(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy"
                 ) -> pd.DataFrame:
    """Mean round of the first palace and of the last, and palaces built, by group (players
    who built no palace are left out of the rounds); then the win rate by the round of the
    first palace (``measure`` = "win_rate_by_first_palace_round").

    Returns ``measure``, ``by...`` / ``first_palace_round``, ``n``, ``mean`` or ``rate``,
    ``ci_low``, ``ci_high``.
    """
    _check(results, ["first_palace_round", "last_palace_round", "palaces", "winner"],
           "palace_tempo")
    keys = _by(results, by)
    built = results[results["palaces"] > 0]
    parts = []
    for measure, frame, column in (("first_palace_round", built, "first_palace_round"),
                                   ("last_palace_round", built, "last_palace_round"),
                                   ("palaces", results, "palaces")):
        table = summarize_mean(frame, keys, column)
        table.insert(0, "measure", measure)
        parts.append(table)
    rate = proportion_table(built, ["first_palace_round"], "winner")
    rate.insert(0, "measure", "win_rate_by_first_palace_round")
    parts.append(rate)
    return pd.concat(parts, ignore_index=True)


def game_ends(results: pd.DataFrame) -> pd.DataFrame:
    """How games end: the share of each end cause (Wilson, over games) and the mean round of
    the end for each cause (t).

    Returns ``end_cause``, ``n`` (games), ``successes``, ``rate``, ``ci_low``, ``ci_high``,
    ``rounds``, ``rounds_low``, ``rounds_high``.
    """
    _check(results, ["end_cause", "n_rounds"], "game_ends")
    games = _games(results)
    cause = games["end_cause"].astype(str)
    n = len(games)
    rows = []
    for name in END_CAUSE_NAMES[1:]:
        hit = cause == name
        flag = pd.DataFrame({"hit": hit.astype(np.float64)})
        rate = proportion_table(flag, [], "hit").iloc[0]
        rounds = games.loc[hit, "n_rounds"].astype(np.float64)
        r = summarize_mean(pd.DataFrame({"r": rounds}), [], "r").iloc[0] if hit.any() else None
        rows.append({"end_cause": name, "n": n, "successes": int(rate["successes"]),
                     "rate": rate["rate"], "ci_low": rate["ci_low"],
                     "ci_high": rate["ci_high"],
                     "rounds": r["mean"] if r is not None else np.nan,
                     "rounds_low": r["ci_low"] if r is not None else np.nan,
                     "rounds_high": r["ci_high"] if r is not None else np.nan})
    return pd.DataFrame(rows)


def penalties(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy"
              ) -> pd.DataFrame:
    """Actions left unperformed per player and game, by kind (the penalties' causes) and in
    all (``action`` = "all").

    Returns ``by...``, ``action``, ``n``, ``mean``, ``sd``, ``ci_low``, ``ci_high``.
    """
    cols = [f"missed_{a}" for a in ACT_SLUGS]
    _check(results, cols + ["penalties"], "penalties")
    keys = _by(results, by)
    parts = []
    for action, column in (("all", "penalties"), *((a, f"missed_{a}") for a in ACT_SLUGS
                                                   if a != "gold")):
        table = summarize_mean(results, keys, column)
        table.insert(len(keys), "action", action)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


def central_vs_outer(results: pd.DataFrame, by: Sequence[str] | str | None = "strategy"
                     ) -> pd.DataFrame:
    """Win rate by the number of central palaces (``measure`` = "win_rate_by_central"), then
    the central and the outer palaces per group (``measure`` = "central" / "outer").

    Returns ``measure``, ``palaces_central`` / ``by...``, ``n``, ``rate`` or ``mean``,
    ``ci_low``, ``ci_high``.
    """
    _check(results, ["palaces_central", "palaces_outer", "winner"], "central_vs_outer")
    keys = _by(results, by)
    rate = proportion_table(results, ["palaces_central"], "winner")
    rate.insert(0, "measure", "win_rate_by_central")
    parts = [rate]
    for measure in ("central", "outer"):
        table = summarize_mean(results, keys, f"palaces_{measure}")
        table.insert(0, "measure", measure)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


def governor_value(results: pd.DataFrame, by: Sequence[str] | str | None = None
                   ) -> pd.DataFrame:
    """Win rate by how often a player chose the governor action (0, 1, 2, 3+), by group.
    Observational: players choose the action when it pays, so this measures the action as
    played, not a randomised effect.

    Returns ``by...``, ``governor_choices``, ``n``, ``successes``, ``rate``, ``ci_low``,
    ``ci_high``.
    """
    _check(results, ["chose_governor", "winner"], "governor_value")
    keys = _by(results, by)
    times = np.minimum(results["chose_governor"].astype(np.int64), 3)
    labels = np.array(["0", "1", "2", "3+"])[times]
    frame = results.assign(governor_choices=labels)
    return proportion_table(frame, keys + ["governor_choices"], "winner")


#: name -> function(results, **kwargs) -> DataFrame
ANALYSES: dict[str, Callable[..., pd.DataFrame]] = {
    "income_by_source": income_by_source,
    "village_value": village_value,
    "road_value": road_value,
    "card_value": card_value,
    "palace_tempo": palace_tempo,
    "game_ends": game_ends,
    "penalties": penalties,
    "central_vs_outer": central_vs_outer,
    "governor_value": governor_value,
}

#: Columns (or ``prefix*`` families) each analysis reads.
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "income_by_source": ("strategy", *(f"pts_{s}" for s in GOLD_SOURCES + GOLD_SPENDING)),
    "village_value": ("game_id", "tolls_*", "houses_*"),
    "road_value": ("game_id", "tolls_*"),
    "card_value": ("card_final", "card_first", "winner", "gold"),
    "palace_tempo": ("strategy", "first_palace_round", "last_palace_round", "palaces",
                     "winner"),
    "game_ends": ("game_id", "end_cause", "n_rounds"),
    "penalties": ("strategy", "penalties", *(f"missed_{a}" for a in ACT_SLUGS)),
    "central_vs_outer": ("strategy", "palaces_central", "palaces_outer", "winner"),
    "governor_value": ("chose_governor", "winner"),
}
