"""The arc of a game (issue 40, section 4): lead changes, comebacks, a runaway-leader test against
a null model without feedback, kingmaking, and (Maharaja) the turn order of a round told apart
from the draft.

Everything reads the per-round score trajectories of the records (``score_r<k>``,
``arc_rounds``: ``docs/results-schema.md``, "Score trajectories") through
:func:`tajsim.analysis.frames.trajectories`. Each analysis returns a long frame, one row per
(group, measure, label): ``estimate``, ``ci_low``, ``ci_high`` (95%), ``n`` (the unit the
measure names: games or seat-games) and, for a tested conclusion, ``p_value`` and ``verdict``
(:mod:`tajsim.analysis.stats.verdicts`). The groups are the values of ``by`` (default: the
``variant`` column, the level of a skill experiment) and the table size.

Definitions (the report states them too):

* **leader** after a round: the seat with the highest score, alone (a tie has no leader);
* **a game's winner** for the arc measures: the seat(s) with the highest final score, a tie
  shared (each of k tied seats 1/k), so that the observed games and the null's synthetic ones
  are scored alike (the recorded ``winner`` adds the games' tie-breaks);
* **lead changes**: the times the sole leader differs from the previous sole leader, over the
  rounds (tied rounds skipped), the last round (the final scores) included;
* **mid-game**: after round ``ceil(R / 2)`` of a game of R rounds (Taj Mahal: visit 6);
* **deficit**: the leader's score minus the seat's, at mid-game.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.frames import Trajectories, trajectories
from tajsim.analysis.stats.means import mean_ci
from tajsim.analysis.stats.proportions import wilson_interval
from tajsim.analysis.stats.regression import within_group_ols
from tajsim.analysis.stats.verdicts import DIFFERS, EQUIVALENT, equivalence_test
from tajsim.errors import UserError

__all__ = ["REQUIRED_COLUMNS", "arc_by_round", "arc_summary", "comeback_by_deficit",
           "increments", "kingmaking", "last_round_catch_up", "lead_changes", "mid_round",
           "null_trajectories", "runaway_null", "score_win_share", "sole_leader", "turn_order"]

#: Columns every arc analysis reads (``score_r*``: the trajectory).
REQUIRED_COLUMNS = ("game_id", "n_players", "seat", "strategy", "score", "winner",
                    "arc_rounds", "score_r*")
#: The runaway test's equivalence margin: 5 points of the leader's win probability.
RUNAWAY_MARGIN = 0.05
#: Lead-change counts shown one by one; more are pooled ("4+").
MAX_CHANGES_SHOWN = 4
_COLS = ["n_players", "measure", "label", "estimate", "ci_low", "ci_high", "n", "p_value",
         "verdict", "p_differs"]


# ---------------------------------------------------------------------------------------------
# Per-game quantities (arrays; tested against hand-made trajectories)
# ---------------------------------------------------------------------------------------------
def sole_leader(scores: np.ndarray) -> np.ndarray:
    """int64[...]: the seat with the highest score, alone, or -1 on a tie (``scores``: [..., n])."""
    top = scores.max(axis=-1, keepdims=True)
    at_top = scores == top
    return np.where(at_top.sum(axis=-1) == 1, at_top.argmax(axis=-1), -1)


def score_win_share(final: np.ndarray) -> np.ndarray:
    """float64[G, n]: each seat's share of the win by final score (k tied top seats 1/k)."""
    at_top = final == final.max(axis=-1, keepdims=True)
    return at_top / at_top.sum(axis=-1, keepdims=True)


def mid_round(rounds: np.ndarray) -> np.ndarray:
    """int64[G]: the 0-based index of the mid-game round, ``ceil(R / 2)`` of R rounds."""
    return (np.asarray(rounds, np.int64) + 1) // 2 - 1


def lead_changes(t: Trajectories) -> np.ndarray:
    """int64[G]: the times the sole leader changed over each game's rounds (tied rounds
    skipped; the last round, the final scores, included)."""
    leaders = sole_leader(t.scores)  # [G, R]
    out = np.zeros(t.n_games, np.int64)
    for g in range(t.n_games):
        seq = leaders[g, :t.rounds[g]]
        seq = seq[seq >= 0]
        out[g] = int(np.count_nonzero(seq[1:] != seq[:-1])) if seq.size > 1 else 0
    return out


def increments(t: Trajectories) -> np.ndarray:
    """int64[G, R, n]: each seat's points in each round (0 past the game's last round)."""
    s = t.scores.astype(np.int64)
    prev = np.concatenate([np.zeros_like(s[:, :1]), s[:, :-1]], axis=1)
    played = np.arange(s.shape[1])[None, :, None] < t.rounds[:, None, None]
    return np.where(played, s - prev, 0)


def null_trajectories(t: Trajectories, samples: int, rng: np.random.Generator
                      ) -> Iterator[np.ndarray]:
    """The null model without feedback: ``samples`` synthetic copies of every game (int64[G, R,
    n] cumulative scores each), each seat's points in each round drawn independently from the
    same seat's points in that round of the other games (same seat, same strategy, same round;
    a game's last round, with its end scoring, from the other games' last rounds).

    It keeps each seat's (and strategy's) distribution of points round by round: the seat's
    edge, the better player's rate, the rounds that score more. It removes every dependence
    between a seat's rounds within a game: feedback from the standing (a leader's richer or
    poorer options, catch-up rules, being targeted) and a lasting edge within one game (a good
    start position) alike. Each game keeps its length.
    """
    inc = increments(t)
    G, R, n = inc.shape
    last = t.rounds - 1
    # the pools: cells (game, seat) of one strategy at one seat; for each round, the games in
    # which it is a middle round draw from those games' points in it, the games in which it is
    # the last round from every game's last round
    keys = np.array([[f"{t.strategy[g, s]}|{s}" for s in range(n)] for g in range(G)])
    plan: list[tuple[np.ndarray, np.ndarray, int, np.ndarray]] = []
    for key in np.unique(keys):
        gs, ss = np.nonzero(keys == key)
        last_pool = inc[gs, last[gs], ss]
        for r in range(R):
            middle = last[gs] > r
            if middle.any():
                plan.append((gs[middle], ss[middle], r, inc[gs[middle], r, ss[middle]]))
            ends = last[gs] == r
            if ends.any():
                plan.append((gs[ends], ss[ends], r, last_pool))
    for _ in range(samples):
        synth = np.zeros((G, R, n), np.int64)
        for gs, ss, r, pool in plan:
            synth[gs, r, ss] = pool[rng.integers(0, pool.size, size=gs.size)]
        yield synth.cumsum(axis=1)


def runaway_null(t: Trajectories, samples: int, rng: np.random.Generator) -> np.ndarray:
    """The sole mid-game leader's share of the win in each synthetic game of
    :func:`null_trajectories`: float64[samples * G], NaN where the mid-game standing is tied."""
    G = t.n_games
    out = np.full((samples, G), np.nan)
    mid = mid_round(t.rounds)
    last = t.rounds - 1
    rows = np.arange(G)
    for b, cum in enumerate(null_trajectories(t, samples, rng)):
        lead = sole_leader(cum[rows, mid])
        share = score_win_share(cum[rows, last])
        ok = lead >= 0
        out[b, ok] = share[rows[ok], lead[ok]]
    return out.reshape(-1)


# ---------------------------------------------------------------------------------------------
# Frames by group
# ---------------------------------------------------------------------------------------------
def _group_columns(results: pd.DataFrame, by: str | Sequence[str] | None) -> list[str]:
    cols = [by] if isinstance(by, str) else list(by or ())
    return [c for c in cols if c in results.columns]


def _groups(results: pd.DataFrame, by: str | Sequence[str] | None
            ) -> Iterator[tuple[dict[str, Any], Trajectories, pd.DataFrame]]:
    cols = [*_group_columns(results, by), "n_players"]
    for key, frame in results.groupby(cols, sort=False, observed=True):
        key = key if isinstance(key, tuple) else (key,)
        yield dict(zip(cols, key)), trajectories(frame), frame


def _row(labels: dict[str, Any], measure: str, label: str, estimate: float, low: float,
         high: float, n: int, p: float = float("nan"), verdict: str = "",
         p_differs: float = float("nan")) -> dict[str, Any]:
    return {**labels, "measure": measure, "label": label, "estimate": float(estimate),
            "ci_low": float(low), "ci_high": float(high), "n": int(n), "p_value": float(p),
            "verdict": verdict, "p_differs": float(p_differs)}


def _share(labels: dict[str, Any], measure: str, label: str, hits: float, n: int
           ) -> dict[str, Any]:
    low, high = wilson_interval(hits, n) if n else (np.nan, np.nan)
    return _row(labels, measure, label, hits / n if n else np.nan, float(low), float(high), n)


def _frame(rows: list[dict[str, Any]], results: pd.DataFrame,
           by: str | Sequence[str] | None) -> pd.DataFrame:
    cols = [*_group_columns(results, by), *_COLS]
    return pd.DataFrame(rows, columns=cols)


def arc_summary(results: pd.DataFrame, by: str | Sequence[str] | None = "variant",
                null_samples: int = 20, seed: int = 0,
                margin: float = RUNAWAY_MARGIN) -> pd.DataFrame:
    """Lead changes, the mid-game leader's and the trailing seats' chances, and the runaway
    test, per group (``by`` and the table size).

    Measures (``measure``, ``label``):

    * ``lead_changes`` / ``mean``: mean lead changes a game (t interval), n games;
      ``lead_changes`` / ``0``, ``1``, ... ``4+``: the share of games with that many (Wilson);
    * ``leader_wins`` / ``observed``: the sole mid-game leader's share of the win (games with
      one; Wilson on the shares' sum) and ``leader_wins`` / ``null``: the same in the null
      model without feedback (:func:`runaway_null`, ``null_samples`` copies of every game);
    * ``runaway`` / ``observed - null``: their difference, its normal interval (the null's
      own sampling error included), the two-sided p-value and the verdict (TOST within
      ``margin``): ``differs`` with a positive difference reads "runaway" (a lead is worth more
      than the seats' own round-by-round rates give it: the leader pulls away), negative
      "catch-up" (the trailing seats gain on it), ``equivalent`` "no feedback" (a lead is worth
      what the seats' own rates give: the better player, or seat, and the luck of the rounds
      so far; the null keeps both); ``p_differs`` is the two-sided p-value (for a family-wise
      statement over several groups, :func:`~tajsim.analysis.stats.verdicts.holm_family`);
    * ``comeback`` / ``behind at mid-game``: a seat behind the mid-game leader's share of the
      win (seat-games, Wilson).
    """
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for labels, t, _ in _groups(results, by):
        changes = lead_changes(t)
        mean, low, high, n, _sd = mean_ci(changes.astype(float))
        rows.append(_row(labels, "lead_changes", "mean", mean, low, high, n))
        for k in range(MAX_CHANGES_SHOWN + 1):
            hit = changes >= k if k == MAX_CHANGES_SHOWN else changes == k
            label = f"{k}+" if k == MAX_CHANGES_SHOWN else str(k)
            rows.append(_share(labels, "lead_changes", label, float(hit.sum()), t.n_games))
        mid = mid_round(t.rounds)
        at_mid = t.at_round(mid)
        lead = sole_leader(at_mid)
        share = score_win_share(t.final)
        has = lead >= 0
        obs = share[np.flatnonzero(has), lead[has]]
        rows.append(_share(labels, "leader_wins", "observed", float(obs.sum()), obs.size))
        null = runaway_null(t, null_samples, rng)
        null = null[np.isfinite(null)]
        rows.append(_share(labels, "leader_wins", "null", float(null.sum()), null.size))
        if obs.size > 1 and null.size > 1:
            se = float(np.sqrt(obs.var(ddof=1) / obs.size + null.var(ddof=1) / null.size))
            eq = equivalence_test(float(obs.mean() - null.mean()), se, margin, n=obs.size)
            word = ("runaway" if eq.verdict == DIFFERS and eq.estimate > 0 else
                    "catch-up" if eq.verdict == DIFFERS else
                    "no feedback" if eq.verdict == EQUIVALENT else "inconclusive")
            rows.append(_row(labels, "runaway", "observed - null", eq.estimate, eq.ci_low,
                             eq.ci_high, obs.size, eq.p_value if eq.verdict in (
                                 DIFFERS, EQUIVALENT) else eq.p_differs, word, eq.p_differs))
        behind = (at_mid < at_mid.max(axis=1, keepdims=True)) & (lead >= 0)[:, None]
        won = share[behind]
        rows.append(_share(labels, "comeback", "behind at mid-game", float(won.sum()),
                           won.size))
    return _frame(rows, results, by)


def comeback_by_deficit(results: pd.DataFrame, by: str | Sequence[str] | None = "variant",
                        bins: int = 4) -> pd.DataFrame:
    """A trailing seat's share of the win by its mid-game deficit to the leader, in ``bins``
    bins of equal counts of the deficits of the group (labelled with their ranges in points;
    ``measure`` ``comeback_by_deficit``), seat-games with Wilson intervals, and the share of the
    win of the seat in each mid-game place (``measure`` ``win_by_mid_place``: 1 = leader)."""
    rows: list[dict[str, Any]] = []
    for labels, t, _ in _groups(results, by):
        at_mid = t.at_round(mid_round(t.rounds))
        deficit = at_mid.max(axis=1, keepdims=True) - at_mid
        share = score_win_share(t.final)
        behind = deficit > 0
        d, w = deficit[behind], share[behind]
        if d.size:
            inner = np.quantile(d, np.linspace(0, 1, bins + 1)[1:-1], method="higher")
            edges = np.unique(np.concatenate([[d.min()], inner, [d.max() + 1]]))
            which = np.clip(np.searchsorted(edges, d, side="right") - 1, 0, len(edges) - 2)
            for b in range(len(edges) - 1):
                sel = which == b
                label = f"{int(edges[b])}-{int(edges[b + 1]) - 1}"
                rows.append(_share(labels, "comeback_by_deficit", label, float(w[sel].sum()),
                                   int(sel.sum())))
        order = (-at_mid).argsort(axis=1, kind="stable").argsort(axis=1)  # 0 = most points
        for place in range(t.n_players):
            sel = order == place
            rows.append(_share(labels, "win_by_mid_place", str(place + 1),
                               float(share[sel].sum()), int(sel.sum())))
    return _frame(rows, results, by)


def arc_by_round(results: pd.DataFrame, by: str | Sequence[str] | None = "variant",
                 null_samples: int = 5, seed: int = 0) -> pd.DataFrame:
    """Round by round (``label``: the round, 1..): the sole leader's share of the win
    (``leader_wins_by_round``, Wilson over the games with a sole leader then), the same in the
    null model without feedback (``null_leader_wins_by_round``: ``null_samples`` copies of
    every game, :func:`null_trajectories`) and the mean lead over the second seat
    (``lead_by_round``, t interval), over the games that reached the round (a game's last round
    is its final scores)."""
    rng = np.random.default_rng(seed)
    rows: list[dict[str, Any]] = []
    for labels, t, _ in _groups(results, by):
        null_hits = np.zeros(int(t.rounds.max()))
        null_n = np.zeros(int(t.rounds.max()), np.int64)
        last = t.rounds - 1
        for cum in null_trajectories(t, null_samples, rng):
            null_share = score_win_share(cum[np.arange(t.n_games), last])
            for r in range(null_hits.size):
                live = np.flatnonzero(t.rounds > r)
                lead = sole_leader(cum[live, r])
                ok = lead >= 0
                null_hits[r] += null_share[live[ok], lead[ok]].sum()
                null_n[r] += int(ok.sum())
        share = score_win_share(t.final)
        for r in range(int(t.rounds.max())):
            reached = t.rounds > r
            s = t.scores[reached, r]
            if s.shape[0] == 0:
                continue
            lead = sole_leader(s)
            ok = lead >= 0
            won = share[np.flatnonzero(reached)[ok], lead[ok]]
            rows.append(_share(labels, "leader_wins_by_round", str(r + 1), float(won.sum()),
                               won.size))
            rows.append(_share(labels, "null_leader_wins_by_round", str(r + 1),
                               float(null_hits[r]), int(null_n[r])))
            top2 = np.sort(s, axis=1)[:, -2:]
            mean, low, high, n, _ = mean_ci((top2[:, 1] - top2[:, 0]).astype(float))
            rows.append(_row(labels, "lead_by_round", str(r + 1), mean, low, high, n))
    return _frame(rows, results, by)


def turn_order(results: pd.DataFrame, by: str | Sequence[str] | None = "variant"
               ) -> pd.DataFrame:
    """Maharaja: acting first in a round told apart from drafting first.

    * ``win_by_draft_pos`` / place: the win rate (recorded ``winner``, ties shared) of the
      seat that drafted at that place (seat-games, Wilson);
    * ``win_by_first_turns`` / 0, 1-2, 3+ ...: the win rate by the rounds in which the seat
      acted first (Wilson);
    * ``first_turn_effect`` / per round acting first: the change in the win probability for
      each round more in which the seat acts first, the draft place held fixed (a linear
      probability model with one intercept per game, draft-place dummies, standard errors
      clustered by game; t interval), its p-value and verdict (TOST within 2 points a round).
    """
    if "turn_r1" not in results.columns or "draft_pos" not in results.columns:
        raise UserError("turn_order needs the turn_r<k> and draft_pos columns; expected "
                        "Maharaja records with the score trajectories")
    rows: list[dict[str, Any]] = []
    for labels, t, frame in _groups(results, by):
        win = frame["winner"].to_numpy(float)
        k = np.bincount(np.repeat(np.arange(t.n_games), t.n_players),
                        weights=win[t.rows.reshape(-1)])
        win_share = win[t.rows] / np.maximum(k, 1)[:, None]  # [G, n]
        assert t.turn is not None and t.draft is not None
        firsts = (t.turn == 0).sum(axis=1)  # [G, n]
        rounds = np.maximum(t.rounds, 1)[:, None]
        for place in range(t.n_players):
            sel = t.draft == place
            rows.append(_share(labels, "win_by_draft_pos", str(place + 1),
                               float(win_share[sel].sum()), int(sel.sum())))
        for lo, hi, label in ((0, 0, "0"), (1, 2, "1-2"), (3, 4, "3-4"), (5, 10**6, "5+")):
            sel = (firsts >= lo) & (firsts <= hi)
            if sel.any():
                rows.append(_share(labels, "win_by_first_turns", label,
                                   float(win_share[sel].sum()), int(sel.sum())))
        data = pd.DataFrame({"win": win_share.reshape(-1),
                             "first_turns": firsts.reshape(-1).astype(float),
                             "first_share": (firsts / rounds).reshape(-1),
                             "draft_pos": t.draft.reshape(-1),
                             "game": np.repeat(np.arange(t.n_games), t.n_players)})
        fit = within_group_ols(data, "win", ["first_turns"], controls=["draft_pos"],
                               group="game").iloc[0]
        if np.isfinite(fit["coef"]):
            eq = equivalence_test(fit["coef"], fit["se"], 0.02, n=int(fit["n_games"]),
                                  df=float(fit["n_games"]) - 1)
            rows.append(_row(labels, "first_turn_effect", "per round acting first",
                             fit["coef"], fit["low"], fit["high"], int(fit["n_games"]),
                             eq.p_value if eq.verdict in (DIFFERS, EQUIVALENT)
                             else eq.p_differs, eq.verdict))
    return _frame(rows, results, by)


def last_round_catch_up(t: Trajectories) -> int:
    """The most points any seat gained on the leader at the start of a game's last round, in
    that round (its last-round points minus the leader's; the leader is the first seat with
    the most points), over the games of two rounds or more; 0 without such games."""
    inc = increments(t)
    two = np.flatnonzero(t.rounds >= 2)
    if two.size == 0:
        return 0
    before = t.scores[two, t.rounds[two] - 2]  # [G2, n] at the start of the last round
    leader = before.argmax(axis=1)
    last = inc[two, t.rounds[two] - 1]  # [G2, n] the last round's points
    gain = last - last[np.arange(two.size), leader][:, None]
    return int(gain.max())


def kingmaking(results: pd.DataFrame, by: str | Sequence[str] | None = "variant",
               game: str | None = None, min_players: int = 4,
               replacement: str = "reseed", max_games: int = 2000) -> pd.DataFrame:
    """How often a seat out of contention decides who wins, at ``min_players`` or more.

    Operational definition (``tajsim.play.counterfactual.last_round_counterfactuals``): at
    the start of a game's last round, a seat is **out of contention** when its deficit to the
    leader is larger than the most any seat of the group gained on the leader of a last round
    in that round (:func:`last_round_catch_up`: no last round seen in these games lets it
    catch up). Its **counterfactual**: the game replayed
    from that moment with that seat alone choosing otherwise (``replacement``: ``"reseed"``,
    the default, its own strategy drawing from another policy stream: another play of the
    round in its own style; or a strategy label); every other seat, and chance, as before. It
    **decides who wins** when the winners (the recorded ``winner`` rule, tie-breaks included)
    differ from the game's. Measures, over the first
    ``max_games`` games of each group: ``kingmaking`` / ``games`` (the share of games in which
    some out-of-contention seat decides, Wilson), ``out_of_contention`` / ``games`` (games with
    such a seat) and ``kingmaking`` / ``given a seat out`` (among those).

    Limits: another play of the seat's own style, not its best or worst play, so the share
    says whether its choices matter, not whether a player would use them (a deterministic
    strategy replays the same: no kingmaking is found for it); the replay needs the shipped
    components and the rule options the runs were played with (``options``: none in these
    experiments); a game whose replay does not reproduce its recorded scores is left out and
    counted (``measure`` ``not_reproduced``).
    """
    from tajsim.play.counterfactual import last_round_counterfactuals

    rows: list[dict[str, Any]] = []
    for labels, t, frame in _groups(results, by):
        if t.n_players < min_players:
            continue
        sel = np.arange(min(t.n_games, max_games))
        best_last = last_round_catch_up(t)
        first = frame.iloc[t.rows[sel, 0]]
        edition = str(first["edition"].iloc[0]) if "edition" in first else None
        out = last_round_counterfactuals(
            game, t.n_players, edition, first["seed"].to_numpy(np.int64),
            first["game_id"].to_numpy(np.int64), first["setup_id"].to_numpy(np.int64),
            t.strategy[sel], t.rounds[sel], t.final[sel], best_last, replacement)
        ok = out["reproduced"]
        n_ok = int(ok.sum())
        rows.append(_share(labels, "kingmaking", "games", float(out["decided"][ok].sum()),
                           n_ok))
        rows.append(_share(labels, "out_of_contention", "games",
                           float(out["out_seats"][ok].astype(bool).sum()), n_ok))
        has = ok & (out["out_seats"] > 0)
        rows.append(_share(labels, "kingmaking", "given a seat out",
                           float(out["decided"][has].sum()), int(has.sum())))
        rows.append(_share(labels, "not_reproduced", "games", float((~ok).sum()), sel.size))
    return _frame(rows, results, by)
