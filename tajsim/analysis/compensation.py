"""Seat compensation study (issue 40, section 1): the per-seat amount of a game's currency that
brings every seat's win share to parity at one skill level, found by search and verified on
fresh games.

**What is measured.** In a mirror match (one strategy in every seat, seats fixed) seat ``k``'s
*win share* is the mean over games of ``winner_k / (number of winners)``: a shared win counts
as a fraction, so the shares of a table sum to 1 and parity is ``1 / n``.

**The search** (:func:`search_compensation`) is an exact integer search, not CMA-ES: the amounts
lie on a lattice of the currency's units (``GameSpec.compensation``), a table of ``n`` seats has
at most five of them, and a seat's share rises with its own amount. So a secant (Newton) step on
the lattice, ``c <- round(c + (1/n - share) / slope)``, with each seat's slope (share per unit)
estimated from the candidates already played (its own secant shrunk towards the pooled one),
reaches the neighbourhood of the answer in two or three candidates, where CMA-ES would spend a
population of candidates a generation on the same few lattice points. The step is followed by a
coordinate search (one unit up or down for the seat furthest from parity) until no neighbour is
better. Every candidate is played on the same games (the same master seed and game ids: common
random numbers), so two candidates differ by their amounts, not by their luck; the amounts are
shifted so that the smallest is 0 (the best seat gets nothing). The objective is the largest
deviation of a seat's share from parity. Where one whole unit moves a seat by more than the
margin (Maharani's and Maharaja's gold), the coordinate search goes on in quarters of a unit
(``finest = 0.25``): an amount ``w + f/4`` gives the seat ``w + 1`` in a share ``f/4`` of the
games, drawn from each game's chance seed (:mod:`tajsim.engine.compensation`), so a seat's
expected share moves by about a quarter of a unit's effect a step.

Near the answer, neighbouring candidates differ by about the noise of ``games`` games, so the
best of them on the search's games is partly the luckiest (a winner's curse). With
``refine_games`` the best few candidates are played again on more games of another master seed
(common to them) and the best there is chosen; the verification then uses a third seed.

**The verification** (:func:`verify_compensation`) plays the chosen amounts, and none, on fresh
games (another master seed), and gives each seat's share with its Wilson 95% interval and a
TOST equivalence verdict of ``share - 1/n`` against ``±margin`` (one point by default,
:func:`tajsim.analysis.stats.verdicts.equivalence_test`). "Every seat within the margin" is the
intersection of the seats' verdicts, which needs no multiplicity correction (an
intersection-union test: it holds only where each seat's own test does).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.stats.proportions import wilson_interval
from tajsim.analysis.stats.verdicts import ALPHA, EQUIVALENT, equivalence_test
from tajsim.engine.compensation import OPTION_KEY, PARTS_PER_UNIT, amount_text, check_amounts
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.running.simulate import simulate

__all__ = ["Candidate", "SearchResult", "search_compensation", "seat_shares",
           "verify_compensation", "win_shares"]

#: The equivalence margin of the study: one point of win share.
DEFAULT_MARGIN = 0.01


def win_shares(results: pd.DataFrame, n_players: int) -> np.ndarray:
    """Each game's win share by seat: float64[games, n_players], rows summing to 1 (a shared
    win split between the winners)."""
    frame = results.sort_values(["game_id", "seat"])
    wins = frame["winner"].to_numpy(dtype=np.float64).reshape(-1, n_players)
    winners = wins.sum(axis=1, keepdims=True)
    return np.divide(wins, winners, out=np.full_like(wins, 1.0 / n_players),
                     where=winners > 0)


def seat_shares(results: pd.DataFrame, n_players: int) -> np.ndarray:
    """Mean win share of each seat: float64[n_players]."""
    return win_shares(results, n_players).mean(axis=0)


@dataclass(frozen=True)
class Candidate:
    """One set of amounts played in the search: its shares (float64[n]) and their largest
    deviation from parity."""

    amounts: tuple[float, ...]
    shares: tuple[float, ...]
    games: int

    @property
    def deviation(self) -> float:
        n = len(self.shares)
        return max(abs(s - 1.0 / n) for s in self.shares)


@dataclass
class SearchResult:
    """The search's candidates in the order played, and the best (smallest deviation; the
    smaller total amount on a tie)."""

    game: str
    players: int
    strategy: str
    seed: int
    games: int
    candidates: list[Candidate] = field(default_factory=list)
    #: The best candidates played again on more games (another seed), when refined.
    refined: list[Candidate] = field(default_factory=list)
    refine_seed: int | None = None

    @property
    def best(self) -> Candidate:
        """The best candidate on the search's own games."""
        return min(self.candidates, key=lambda c: (round(c.deviation, 12), sum(c.amounts)))

    @property
    def chosen(self) -> Candidate:
        """The answer: the best refined candidate where there are some, else :attr:`best`."""
        pool = self.refined or self.candidates
        return min(pool, key=lambda c: (round(c.deviation, 12), sum(c.amounts)))

    def trace(self) -> pd.DataFrame:
        """One row per candidate: its amounts, each seat's share and the deviation."""
        rows = []
        staged = [("search", c) for c in self.candidates] + [("refine", c) for c in self.refined]
        for i, (stage, c) in enumerate(staged):
            row: dict[str, Any] = {"players": self.players, "step": i + 1, "stage": stage,
                                   "amounts": ",".join(map(amount_text, c.amounts)),
                                   "games": c.games}
            row["max_deviation"] = c.deviation
            for s, share in enumerate(c.shares):
                row[f"share_seat{s}"] = share
            rows.append(row)
        return pd.DataFrame(rows)


def _play(game: str, players: int, strategy: str, amounts: Sequence[float], games: int,
          seed: int, workers: int | None) -> pd.DataFrame:
    options = {OPTION_KEY: list(amounts)} if any(amounts) else None
    return simulate(games, players, [strategy] * players, seed=seed, game=game, options=options,
                    workers=workers, rotate=False, progress=False)


def _normalised(amounts: Sequence[float], high: float, step: float = 1.0) -> tuple[float, ...]:
    """``amounts`` on the lattice of ``step``, shifted so that the smallest is 0, each at most
    ``high``; whole amounts as ints (``(0, 1)``, not ``(0.0, 1.0)``)."""
    on = [round(a / step) * step for a in amounts]
    low = min(on)
    return tuple(_whole_as_int(min(high, max(0.0, a - low))) for a in on)


def _whole_as_int(amount: float) -> float:
    return int(amount) if float(amount).is_integer() else float(amount)


def search_compensation(
    game: str, players: int, strategy: str, *, games: int = 3000, seed: int = 1,
    max_candidates: int = 10, margin: float = DEFAULT_MARGIN, initial_slope: float = 0.02,
    refine_games: int = 0, refine_top: int = 4, finest: float = 0.25,
    workers: int | None = None, say: Callable[[str], None] | None = None,
) -> SearchResult:
    """Search the per-seat amounts that bring every seat's win share closest to parity.

    Parameters
    ----------
    game, players, strategy : the game, the table size and the strategy of every seat.
    games : int
        Games played for each candidate (the same games for all: ``seed`` and ids ``0 ..
        games - 1``).
    max_candidates : int
        The most candidates played (each ``games`` games).
    margin : float
        The search stops early at a candidate whose every share is within ``margin / 2`` of
        parity (the verification on fresh games then needs room for its own noise).
    initial_slope : float
        Win share gained per unit of currency assumed before two candidates measure it.
    refine_games, refine_top : int
        ``refine_games`` > 0: the ``refine_top`` best candidates (those within three standard
        errors of a share of the best) are played again on that many games of master seed
        ``seed + 1`` and the best there is ``SearchResult.chosen``.
    finest : {1, 0.5, 0.25}
        The finest step of the coordinate search, in units: after whole units, it goes on in
        halves and quarters (fractional amounts are drawn per game, module docstring).

    Returns
    -------
    SearchResult
    """
    spec = get_game(game)
    declared = spec.compensation
    if declared is None:
        raise UserError(f"{spec.title} declares no seat compensation; expected one of the "
                        "games that do (tajsim, maharaja, maharani)")
    players = spec.players_or_default(players)
    spec.strategies.parse(strategy)  # a bad strategy fails before anything is played
    if games < 10 or max_candidates < 1:
        raise UserError(f"games {games} / max_candidates {max_candidates}; expected at least 10 "
                        "games a candidate and one candidate")
    steps = [1.0] + [st for st in (0.5, 0.25) if st >= finest]
    if finest not in (1.0, 0.5, 0.25) or finest * PARTS_PER_UNIT != int(finest * PARTS_PER_UNIT):
        raise UserError(f"finest {finest!r}; expected 1, 0.5 or 0.25 (units of the currency)")
    say = say or (lambda _m: None)
    result = SearchResult(spec.name, players, strategy, seed, games)
    parity = 1.0 / players

    def memoised(n_games: int, at_seed: int, into: list[Candidate],
                 label: Callable[[tuple[float, ...]], str]) -> tuple[
                     Callable[[tuple[float, ...]], Candidate], dict[tuple[float, ...], Candidate]]:
        """A player of candidates on ``n_games`` games of ``at_seed`` (each played once, kept
        in ``into`` in the order played) and the table of those played."""
        played: dict[tuple[float, ...], Candidate] = {}

        def play(amounts: tuple[float, ...]) -> Candidate:
            if amounts not in played:
                shares = seat_shares(_play(spec.name, players, strategy, amounts, n_games,
                                           at_seed, workers), players)
                cand = Candidate(amounts, tuple(float(x) for x in shares), n_games)
                played[amounts] = cand
                into.append(cand)
                say(f"{players} players: {label(amounts)} -> shares "
                    f"{', '.join(f'{100 * x:.1f}' for x in shares)}% (max deviation "
                    f"{100 * cand.deviation:.2f} points)")
            return played[amounts]

        return play, played

    evaluate, seen = memoised(games, seed, result.candidates,
                              lambda a: f"amounts {_listed(a)}")
    current = evaluate(tuple([0] * players))
    slopes = np.full(players, initial_slope)
    # Secant steps on the lattice.
    while len(result.candidates) < max_candidates and current.deviation > margin / 2:
        gap = np.array([parity - s for s in current.shares])
        step = np.array(current.amounts, dtype=np.float64) + gap / slopes
        nxt = _normalised(step, declared.max_amount)
        if nxt in seen:
            break
        cand = evaluate(nxt)
        d_amount = np.array(cand.amounts, float) - np.array(current.amounts, float)
        d_share = np.array(cand.shares) - np.array(current.shares)
        d_amount -= d_amount.mean()  # shares sum to 1: compare with the mean move removed
        if float(d_amount @ d_amount) > 0:
            measured = float(d_share @ d_amount) / float(d_amount @ d_amount)
            pooled = min(max(measured, 0.001), 0.5) if measured > 0 else float(slopes.mean())
            # each seat's own secant, shrunk towards the pooled slope (a seat moved by one
            # unit weighs its own measure and the pooled one equally); seats differ (the seat
            # that drafts Maharaja's Monk gains less from gold than the others)
            own = (d_share * d_amount + pooled) / (d_amount * d_amount + 1.0)
            slopes = np.clip(own, 0.001, 0.5)
        current = result.best
    # Coordinate search around the best: one step for the seat furthest from parity, in whole
    # units until no neighbour is better, then in the finer steps.
    _coordinate_search(lambda: result.best, evaluate, steps, parity, margin, declared.max_amount,
                       lambda: len(result.candidates) < max_candidates, seen.__contains__)
    if refine_games > 0 and len(result.candidates) > 1:
        result.refine_seed = seed + 1
        # only candidates the search's noise cannot tell from the best (three standard errors
        # of a share at parity on the search's games) are worth more games
        noise = 3.0 * math.sqrt(parity * (1.0 - parity) / games)
        ranked = [c for c in sorted(result.candidates, key=lambda c: (round(c.deviation, 12),
                                                                      sum(c.amounts)))
                  if c.deviation <= result.best.deviation + noise][:refine_top]
        replay, replayed = memoised(refine_games, seed + 1, result.refined,
                                    lambda a: f"refine {_listed(a)} on {refine_games:,} games")
        for cand in ranked:
            replay(cand.amounts)
        # The search's games may have stopped it at a lucky candidate (a winner's curse): where
        # the refined best is still off by more than half the margin, the finer steps go on
        # around it on the refining games, at most max_candidates // 2 more.
        fine_steps = [st for st in steps if st < 1.0] or steps
        budget = len(result.refined) + max_candidates // 2
        _coordinate_search(lambda: result.chosen, replay, fine_steps, parity, margin,
                           declared.max_amount, lambda: len(result.refined) < budget,
                           replayed.__contains__)
    return result


def _coordinate_search(best: Callable[[], Candidate], evaluate: Callable[[tuple[float, ...]],
                                                                        Candidate],
                       steps: Sequence[float], parity: float, margin: float, high: float,
                       budget_left: Callable[[], bool],
                       played: Callable[[tuple[float, ...]], bool]) -> None:
    """Move the seat furthest from parity one step towards it while that improves ``best()``,
    in each of ``steps`` in turn (the next when no neighbour is better), until the deviation is
    within half the margin or the budget is spent."""
    for step in steps:
        while budget_left() and best().deviation > margin / 2:
            current = best()
            order = np.argsort([-abs(s - parity) for s in current.shares])
            improved = False
            for seat in order:
                trial = list(current.amounts)
                trial[seat] += step if current.shares[seat] < parity else -step
                nxt = _normalised(trial, high, step)
                if played(nxt):
                    continue
                if evaluate(nxt).deviation < current.deviation:
                    improved = True
                    break
                if not budget_left():
                    break
            if not improved:
                break


def _listed(amounts: Sequence[float]) -> str:
    return "[" + ", ".join(map(amount_text, amounts)) + "]"


def verify_compensation(
    game: str, players: int, strategy: str, amounts: Sequence[float], *, games: int,
    seed: int, margin: float = DEFAULT_MARGIN, alpha: float = ALPHA, workers: int | None = None,
) -> pd.DataFrame:
    """Each seat's win share with and without ``amounts`` on ``games`` fresh games (master seed
    ``seed``), with Wilson 95% intervals and the TOST verdict of ``share - 1/n`` against
    ``±margin`` at level ``alpha`` (a study's k-th look at the same question: ``0.05 / k``,
    Bonferroni over the looks, so that the verdict holds family-wise at 5%).

    Returns one row per (compensation, seat): ``players, strategy, compensated`` (bool),
    ``amounts``, ``seat``, ``amount``, ``n`` (games), ``share``, ``ci_low``, ``ci_high``,
    ``deviation``, ``tost_low``/``tost_high`` (the ``1 - 2 alpha`` interval TOST decides on),
    ``p_tost``, ``alpha``, ``verdict``; the frame's ``attrs["all_equivalent"]`` maps
    compensated to whether every seat is equivalent (the intersection-union verdict).
    """
    spec = get_game(game)
    amounts = check_amounts(spec.title, spec.compensation, list(amounts), players)
    rows = []
    verdicts: dict[bool, bool] = {}
    parity = 1.0 / players
    for compensated, played in ((False, [0] * players), (True, amounts)):
        shares = win_shares(_play(spec.name, players, strategy, played, games, seed, workers),
                            players)
        ok = True
        for seat in range(players):
            share = float(shares[:, seat].mean())
            se = float(shares[:, seat].std(ddof=1) / math.sqrt(games))
            low, high = wilson_interval(share * games, games)
            eq = equivalence_test(share - parity, se, margin, n=games, alpha=alpha)
            tost_low, tost_high = eq.tost_interval()
            ok &= eq.verdict == EQUIVALENT
            rows.append({"players": players, "strategy": strategy, "compensated": compensated,
                         "amounts": ",".join(map(amount_text, played)), "seat": seat,
                         "amount": played[seat], "n": games, "share": share,
                         "ci_low": float(low), "ci_high": float(high),
                         "deviation": share - parity, "tost_low": tost_low,
                         "tost_high": tost_high, "p_tost": eq.p_equivalent,
                         "alpha": alpha, "verdict": eq.verdict})
        verdicts[compensated] = ok
    frame = pd.DataFrame(rows)
    frame.attrs["all_equivalent"] = verdicts
    return frame
