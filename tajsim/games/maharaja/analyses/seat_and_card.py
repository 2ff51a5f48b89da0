"""``seat_card_table`` and ``seat_card_model``: the seat and the drafted card apart (issue 39).

A Maharaja seat is a draft position (R7: seat 0 takes its character card first), and after the
draft the cards, not the seats, set the order of play and of the setup houses. A seat's win rate
in a free draft is therefore the rate of the card it drafts, and in a mirror match at any
temperature the first seat drafts the Wandering Monk in every game, so the two cannot be told
apart there. Forced drafts (the strategy option ``draft=<card>``: ``hoarder:draft=monk``) make
each seat take each card; these analyses then read:

* ``seat_card_table``: the win rate of each seat given its card, one row a (seat, card) cell,
  with the margins (card ``all``: the seat over all its games; seat ``<NA>``: the card in every
  seat); Wilson intervals, ``n`` player-games, ``forced``: the share of the cell's
  player-games whose strategy was told to draft that card (``draft=`` or five ``draft_*``
  restrictions) and ``honoured``: the share of the group's forced player-games that drafted
  their card.
* ``seat_card_model``: the linear probability model ``win ~ seat + card`` (ordinary least
  squares, standard errors clustered by setup: statsmodels ``OLS.fit(cov_type="cluster")``, t
  intervals with G - 1 degrees of freedom; the games of one setup share its governor order, as
  the seat rotations of a table do, so they are one cluster; by game where the frame has no
  ``setup_id``). Rows ``term = "seat"``: each seat's win rate
  standardised to the group's card mix (the model's prediction with every row's seat set to it,
  averaged) and its excess over parity, with the verdict of a null
  (:func:`tajsim.analysis.stats.verdicts.equivalence_test`: "equivalent" within ``+-margin``
  by two one-sided tests, "differs", or "inconclusive" with the smallest excess detectable at
  that n, ``mde``); ``term = "card"``: each card's win rate standardised to the seat mix, its
  excess over parity, and its ``tier`` in the tested order of the cards
  (:func:`~tajsim.analysis.stats.verdicts.tested_order`: every pair, Holm; cards of one tier
  are not told apart); ``term = "test"``: the order (``card order``, its verdict the order's
  text, ``p_value`` the first tier's), and the joint Wald tests (F) that the seats are equal
  given the card, that the cards are equal given the seat and, when every (seat, card) cell
  holds ``min_cell`` player-games, that the card's effect is the same in every seat (no seat x
  card interaction).

What they cannot say: a free draft's cards are the strategies' choices, so in a free draft the
cells are selected (a card drafted by a seat that usually takes another), and the seat and the
card are confounded where a seat always drafts one card (the model's rows say ``estimable`` =
False then). The effects are those of these strategies' play, not of optimal play.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import statsmodels.api as sm
from scipy import stats as sps

from tajsim.analysis.frames import game_index, setup_key_columns, win_value
from tajsim.analysis.stats import wilson_interval
from tajsim.analysis.stats.verdicts import (
    ALPHA,
    DEFAULT_MARGIN,
    equivalence_test,
    minimum_detectable_effect,
    tested_order,
)
from tajsim.errors import UserError
from tajsim.games.maharaja.analyses.seat_cards import CARD_SLUGS, HELD_COLUMNS
from tajsim.games.maharaja.strategies.registry import REGISTRY
from tajsim.games.maharaja.strategies.restrictions import forced_card
from tajsim.strategies.spec import FORBID

__all__ = ["CARDS_EQUAL", "CARD_ORDER", "DEFAULT_MARGIN", "NO_INTERACTION", "SEATS_EQUAL",
           "forced_cards", "seat_card_model", "seat_card_table"]

#: The level of each test behind a verdict (each side of the equivalence test, the order's pairs).
TOST_ALPHA = ALPHA
TABLE_COLUMNS = ("seat", "card", "n", "n_games", "wins", "win_rate", "ci_low", "ci_high",
                 "baseline", "excess", "forced", "honoured")
MODEL_COLUMNS = ("term", "level", "n", "n_games", "n_clusters", "estimate", "ci_low", "ci_high",
                 "se", "baseline", "excess", "excess_low", "excess_high", "margin", "mde",
                 "p_value", "p_equivalent", "tier", "statistic", "df_num", "df_den", "estimable",
                 "verdict")
#: The names of the model's test rows (``term = "test"``).
SEATS_EQUAL = "seats equal given the card"
CARDS_EQUAL = "cards equal given the seat"
NO_INTERACTION = "no seat x card interaction"
CARD_ORDER = "card order"


def forced_cards(results: pd.DataFrame) -> np.ndarray:
    """int64 per row: the card code the row's strategy was told to draft (``draft=<card>``, or
    the five other cards' ``draft_*`` restrictions), -1 when none. A label this game's registry
    cannot parse (another game's results) forces none."""
    if "strategy" not in results.columns:
        return np.full(len(results), -1, np.int64)
    labels = results["strategy"].astype(str)
    cards = {}
    for label in labels.unique():
        try:
            spec, vec = REGISTRY.parse(label)
        except UserError:
            cards[label] = -1
            continue
        cards[label] = forced_card(int(vec[spec.generic_slot(FORBID)]))
    return labels.map(cards).to_numpy(np.int64)


def _prepare(results: pd.DataFrame, by: Sequence[str] | str | None, held: str,
             name: str) -> tuple[pd.DataFrame, list[str]]:
    keys = [] if by is None else ([by] if isinstance(by, str) else list(by))
    if held not in HELD_COLUMNS:
        raise UserError(f"{name}: held={held!r} is not one of {', '.join(HELD_COLUMNS)}")
    needed = [*keys, "seat", "winner", "n_players", HELD_COLUMNS[held]]
    missing = [c for c in needed if c not in results.columns]
    if missing:
        raise UserError(f"{name} needs the column {missing[0]!r}; the results frame has none "
                        "(is it a Maharaja run?)")
    if "n_players" not in keys:  # seats and parity differ between player counts
        keys = [*keys, "n_players"]
    codes = results[HELD_COLUMNS[held]].astype(np.int64).to_numpy()
    if ((codes < 0) | (codes >= len(CARD_SLUGS))).any():
        bad = int(codes[(codes < 0) | (codes >= len(CARD_SLUGS))][0])
        raise UserError(f"{name}: card code {bad} in {HELD_COLUMNS[held]!r}; expected 0 to "
                        f"{len(CARD_SLUGS) - 1}")
    frame = pd.DataFrame({k: results[k].to_numpy() for k in keys})
    frame["seat"] = results["seat"].astype(np.int64).to_numpy()
    frame["card"] = codes
    frame["win"] = win_value(results).to_numpy(np.float64)
    frame["inv_n"] = 1.0 / results["n_players"].astype(np.float64).to_numpy()
    frame["game"] = game_index(results)
    # The model's clusters: the setups (games of one setup share the governor order, e.g. the
    # seat rotations of a table), or the games when the frame has no setup ids.
    frame["cluster"] = (results.groupby(setup_key_columns(results), sort=False, observed=True)
                        .ngroup().to_numpy(np.int64) if "setup_id" in results.columns
                        else frame["game"].to_numpy())
    frame["forced"] = forced_cards(results)
    return frame, keys


def _groups(frame: pd.DataFrame, keys: list[str]):
    return [((k,) if not isinstance(k, tuple) else k, g)
            for k, g in frame.groupby(keys, observed=True, sort=True)]


def _rates(g: pd.DataFrame, confidence: float) -> dict:
    n = len(g)
    wins = float(g["win"].sum())
    low, high = wilson_interval(wins, n, confidence)
    base = float(g["inv_n"].mean())
    rate = wins / n
    return {"n": n, "n_games": int(g["game"].nunique()), "wins": wins, "win_rate": rate,
            "ci_low": float(low), "ci_high": float(high), "baseline": base,
            "excess": rate - base}


def seat_card_table(results: pd.DataFrame, by: Sequence[str] | str | None = None,
                    held: str = "first", confidence: float = 0.95) -> pd.DataFrame:
    """The win rate of each seat given its card (module docstring), by ``by`` and the player
    count; ``held``: the card drafted at setup ("first", the default) or held at the end
    ("final").

    Returns ``by...``, ``n_players``, ``seat`` (Int64; <NA> on a card's row over all seats),
    ``card`` (a card's slug, or "all" on a seat's row over all its cards), ``n`` (player-games),
    ``n_games``, ``wins`` (a shared win counts 1/k), ``win_rate``, ``ci_low``, ``ci_high``
    (Wilson), ``baseline`` (1/n_players), ``excess``, ``forced`` (the share of the row's
    player-games whose strategy was told to draft the row's card; on "all" rows, to draft any),
    ``honoured`` (the group's forced player-games that drafted their card, as a share; NaN
    without forced drafts). Cells no seat held are left out.
    """
    frame, keys = _prepare(results, by, held, "seat_card_table")
    rows = []
    for key, g in _groups(frame, keys):
        base = dict(zip(keys, key))
        told = g["forced"] >= 0
        honoured = float((g.loc[told, "forced"] == g.loc[told, "card"]).mean()) \
            if told.any() else np.nan
        for (seat, card), cell in g.groupby(["seat", "card"], sort=True):
            rows.append({**base, "seat": seat, "card": CARD_SLUGS[card],
                         **_rates(cell, confidence),
                         "forced": float((cell["forced"] == card).mean()),
                         "honoured": honoured})
        for seat, cell in g.groupby("seat", sort=True):
            rows.append({**base, "seat": seat, "card": "all", **_rates(cell, confidence),
                         "forced": float((cell["forced"] >= 0).mean()), "honoured": honoured})
        for card, cell in g.groupby("card", sort=True):
            rows.append({**base, "seat": pd.NA, "card": CARD_SLUGS[card],
                         **_rates(cell, confidence),
                         "forced": float((cell["forced"] == card).mean()),
                         "honoured": honoured})
    out = pd.DataFrame(rows, columns=[*keys, *TABLE_COLUMNS])
    out["seat"] = out["seat"].astype("Int64")
    for column in ("n", "n_games"):
        out[column] = out[column].astype(np.int64)
    return out


def _design(g: pd.DataFrame, seats: list[int], cards: list[int],
            interaction: bool) -> tuple[np.ndarray, list[str]]:
    """Intercept, seat dummies (seat ``seats[0]`` the reference), card dummies (``cards[0]``
    the reference) and, with ``interaction``, a dummy per non-reference (seat, card) cell."""
    seat = g["seat"].to_numpy()
    card = g["card"].to_numpy()
    cols = [np.ones(len(g))]
    names = ["const"]
    for s in seats[1:]:
        cols.append((seat == s).astype(np.float64))
        names.append(f"seat{s}")
    for c in cards[1:]:
        cols.append((card == c).astype(np.float64))
        names.append(f"card{c}")
    if interaction:
        for s in seats[1:]:
            for c in cards[1:]:
                cols.append(((seat == s) & (card == c)).astype(np.float64))
                names.append(f"seat{s}:card{c}")
    return np.column_stack(cols), names


def _fit(y: np.ndarray, x: np.ndarray, groups: np.ndarray):
    """OLS with standard errors clustered by ``groups`` (CR1), t inference with G - 1 df."""
    return sm.OLS(y, x).fit(cov_type="cluster", cov_kwds={"groups": groups}, use_t=True)


def _wald(res, cols: list[int], width: int) -> tuple[float, float, float, float]:
    """(F, df_num, df_den, p) of the joint test that the coefficients ``cols`` are 0; NaNs when
    the clustered covariance of the constraints is singular (fewer setups than the test needs)."""
    r = np.zeros((len(cols), width))
    for k, col in enumerate(cols):
        r[k, col] = 1.0
    cov = r @ np.asarray(res.cov_params(), np.float64) @ r.T
    if np.linalg.matrix_rank(cov) < len(cols):
        nan = float("nan")
        return nan, float(len(cols)), nan, nan
    w = res.wald_test(r, use_f=True, scalar=True)
    return float(w.statistic), float(w.df_num), float(w.df_denom), float(w.pvalue)


def _test_row(common: dict, label: str, n: int, f: float, d1: float, d2: float, p: float,
              alpha: float) -> dict:
    if not np.isfinite(p):
        return {**common, "term": "test", "level": label, "n": n, "estimable": False,
                "verdict": "not estimable (too few setups for the clustered covariance)"}
    return {**common, "term": "test", "level": label, "n": n, "statistic": f, "df_num": d1,
            "df_den": d2, "p_value": p, "estimable": True,
            "verdict": "rejected" if p < alpha else "not rejected"}


def _standardised(means: np.ndarray, cols: list[int], levels: int) -> np.ndarray:
    """One row a level of a factor (dummy columns ``cols``, the first level the reference):
    the model's average prediction with every row at that level, the other factor at its
    observed mix (``means``: the design's column means)."""
    rows = np.tile(means, (levels, 1))
    rows[:, cols] = 0.0
    for i, col in enumerate(cols):
        rows[i + 1, col] = 1.0
    return rows


def _group_model(g: pd.DataFrame, key: dict, min_cell: int, margin: float,
                 confidence: float) -> list[dict]:
    seats = sorted(int(s) for s in g["seat"].unique())
    cards = sorted(int(c) for c in g["card"].unique())
    y = g["win"].to_numpy(np.float64)
    groups = g["cluster"].to_numpy()
    n_games = int(g["game"].nunique())
    n_clusters = int(g["cluster"].nunique())
    parity = float(g["inv_n"].mean())
    common = {**key, "n_games": n_games, "n_clusters": n_clusters, "baseline": parity,
              "margin": margin}
    x, names = _design(g, seats, cards, interaction=False)
    if len(seats) < 2 or len(cards) < 2 or np.linalg.matrix_rank(x) < x.shape[1]:
        return [{**common, "term": "test", "level": SEATS_EQUAL, "n": len(g),
                 "estimable": False, "verdict": "not estimable: seat and card confounded"}]
    res = _fit(y, x, groups)
    alpha = 1.0 - confidence
    df = float(n_clusters - 1)
    crit = float(sps.t.ppf(1.0 - alpha / 2.0, df))
    beta = np.asarray(res.params, np.float64)
    cov = np.asarray(res.cov_params(), np.float64)
    means = x.mean(axis=0)
    seat_cols = [names.index(f"seat{s}") for s in seats[1:]]
    card_cols = [names.index(f"card{c}") for c in cards[1:]]
    rows: list[dict] = []

    seat_l = _standardised(means, seat_cols, len(seats))
    seat_est, seat_cov = seat_l @ beta, seat_l @ cov @ seat_l.T
    for i, s in enumerate(seats):
        se = float(np.sqrt(seat_cov[i, i]))
        est = float(seat_est[i])
        n = int((g["seat"] == s).sum())
        eq = equivalence_test(est - parity, se, margin, n=n, alpha=TOST_ALPHA, df=df)
        rows.append({**common, "term": "seat", "level": str(s), "n": n, "estimate": est,
                     "ci_low": est - crit * se, "ci_high": est + crit * se, "se": se,
                     "excess": est - parity, "excess_low": est - parity - crit * se,
                     "excess_high": est - parity + crit * se, "mde": eq.mde,
                     "p_value": eq.p_differs, "p_equivalent": eq.p_equivalent,
                     "estimable": True, "verdict": eq.verdict})

    card_l = _standardised(means, card_cols, len(cards))
    card_est, card_cov = card_l @ beta, card_l @ cov @ card_l.T
    order = tested_order([CARD_SLUGS[c] for c in cards], card_est, cov=card_cov,
                         alpha=TOST_ALPHA, df=df)
    tier_of = {name: t + 1 for t, tier in enumerate(order.tiers) for name in tier}
    for j, c in enumerate(cards):
        se = float(np.sqrt(card_cov[j, j]))
        est = float(card_est[j])
        n = int((g["card"] == c).sum())
        p = float(2.0 * sps.t.sf(abs(est - parity) / se, df)) if se > 0 else float("nan")
        low, high = est - crit * se, est + crit * se
        rows.append({**common, "term": "card", "level": CARD_SLUGS[c], "n": n,
                     "estimate": est, "ci_low": low, "ci_high": high, "se": se,
                     "excess": est - parity, "excess_low": low - parity,
                     "excess_high": high - parity,
                     "mde": float(minimum_detectable_effect(se, df=df)), "p_value": p,
                     "tier": tier_of[CARD_SLUGS[c]], "estimable": True,
                     "verdict": "above parity" if low > parity else "below parity"
                     if high < parity else "not told apart from parity"})
    rows.append({**common, "term": "test", "level": CARD_ORDER, "n": len(g),
                 "p_value": order.best_p_value, "estimable": True, "verdict": order.value})

    for label, cols in ((SEATS_EQUAL, seat_cols), (CARDS_EQUAL, card_cols)):
        rows.append(_test_row(common, label, len(g), *_wald(res, cols, x.shape[1]), alpha))
    # The seat x card interaction, when every cell holds at least min_cell player-games.
    counts = g.groupby(["seat", "card"]).size()
    if len(counts) == len(seats) * len(cards) and int(counts.min()) >= min_cell:
        xi, names_i = _design(g, seats, cards, interaction=True)
        if np.linalg.matrix_rank(xi) == xi.shape[1]:
            resi = _fit(y, xi, groups)
            cols = [k for k, nm in enumerate(names_i) if ":" in nm]
            rows.append(_test_row(common, NO_INTERACTION, len(g),
                                  *_wald(resi, cols, xi.shape[1]), alpha))
            return rows
    rows.append({**common, "term": "test", "level": NO_INTERACTION, "n": len(g),
                 "estimable": False,
                 "verdict": f"not estimable (a seat x card cell under {min_cell} games)"})
    return rows


def seat_card_model(results: pd.DataFrame, by: Sequence[str] | str | None = None,
                    held: str = "first", margin: float = DEFAULT_MARGIN, min_cell: int = 30,
                    confidence: float = 0.95) -> pd.DataFrame:
    """``win ~ seat + card`` per group (``by`` and the player count; module docstring):
    each seat's card-adjusted win rate with its equivalence verdict at ``margin``, each card's
    seat-adjusted rate with the card order's test, and the joint tests.

    Returns ``by...``, ``n_players``, ``term`` ("seat", "card", "test"), ``level`` (the seat's
    number, the card's slug, the test's name), ``n`` (player-games), ``n_games``,
    ``n_clusters`` (the setups the standard errors are clustered by), ``estimate``,
    ``ci_low``, ``ci_high``, ``se`` (the standardised rate: t interval, clustered by setup),
    ``baseline`` (parity), ``excess`` with ``excess_low`` / ``excess_high``, ``margin``,
    ``mde`` (80% power, 5% two-sided), ``p_value`` (seats and cards: excess = 0; tests: the
    test's), ``p_equivalent`` (seats: the TOST p), ``tier`` (cards: 1 = the first tier of the
    tested order), ``statistic``, ``df_num``, ``df_den`` (the Wald tests' F), ``estimable``
    (False: the design confounds seat and card, or a cell is too small for the interaction),
    ``verdict`` (seats: equivalent / differs / inconclusive; cards: above, below or not told
    apart from parity; tests: rejected / not rejected, the order's text).
    """
    if not 0 < margin < 1:
        raise UserError(f"seat_card_model: margin={margin!r}; expected a share between 0 and 1 "
                        "(0.02: two points of win rate)")
    frame, keys = _prepare(results, by, held, "seat_card_model")
    rows: list[dict] = []
    for key, g in _groups(frame, keys):
        rows += _group_model(g, dict(zip(keys, key)), min_cell, margin, confidence)
    out = pd.DataFrame(rows, columns=[*keys, *MODEL_COLUMNS])
    for column in ("n", "n_games"):
        out[column] = out[column].astype(np.int64)
    out["estimable"] = out["estimable"].astype(bool)
    return out
