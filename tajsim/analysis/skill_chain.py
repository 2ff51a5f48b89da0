"""Skill chains: how far does more search keep paying? (issue 41, Lantz et al. 2017's depth of a
game as the length of its skill chain.)

A chain starts at a level of the game's search (the registry's strategy tagged ``search``) and
climbs: each level is the previous one at ``factor`` (4) times the budget. Each **step** plays
the two levels head to head in every seating (:mod:`tajsim.analysis.skill_matches`: both seats
at two players, 2 vs 2 in every arrangement at four) for ``games`` games, and asks whether the
stronger level wins more than half: a one-sided score test of its win share against 1/2 at
``alpha`` = 5%. The chain stops at the first step whose gain is not significant; its **length**
is the number of significant steps, the level where "strong" ends for the game at that table
size and game count.

Counting steps until the first failure is the fixed-sequence procedure: every counted step is
significant at ``alpha`` and the statement "each of the first L steps gains" holds family-wise
at ``alpha`` with no correction (a step is tested only when every step before it rejected).

**A group-sequential step** (:class:`StepDesign`, ``looks`` > 1; ``looks = 1`` is the one-look
step above). A step plays up to ``games`` games in stages, the k-th look after ``games /
2**(looks - k)`` games (1/8, 1/4, 1/2 and all of them at four looks), each rounded up to whole
seating blocks; stages that rounding makes equal are one look. Each stage's new games are a
match of their own whose seed is derived from the chain's seed, the step and the stage, so a
stage's games are a prefix of the full step's games: the full step is the same games whatever
the stopping point. At an interim look the step stops as significant only if its one-sided p
is below the Haybittle-Peto boundary ``interim_p`` (0.001); the last look tests at ``alpha -
interim_p x (interim looks)`` (0.047 at four looks), so the step's type I error is at most
``alpha`` by Bonferroni over its looks (the chance of rejecting at some look is at most the sum
of the looks' levels), and the fixed-sequence argument across steps holds as before. A step
significant early counts the games it played (``n``, ``look``); a step that is not significant
always plays all ``games``, so the gain that ends a chain is measured over all of them. Its
statistics (share, interval, Elo gap) are those of the games played: the usual fixed-n
intervals, slightly optimistic for a step stopped early (a known bias of stopping on a large
effect; the decision, not the interval, is what the design controls).

**Budget.** The search's iteration count (its ``cost_param``, e.g. ``iterations=``), which
makes a chain reproducible from its seed and the same on any machine; a start level that sets
the time budget (``budget_param``, e.g. ``ms=5``) climbs in milliseconds instead (results then
depend on the machine's speed and load). The chain also ends where the next budget leaves the
parameter's declared range.

Per step (:func:`step_statistics`), the unit is the game (each game on its own setup,
independent):

* ``share``: the stronger level's win share (ties shared) with its Wilson interval over games
  (:func:`tajsim.analysis.compare.share_interval`);
* ``elo``: the Elo-like gap ``400 log10(p / (1 - p))`` of that share, its interval the Wilson
  bounds mapped through the same increasing function (infinite at a share of 0 or 1);
* ``upset_rate``: the share of games the weaker level wins (a shared win included), Wilson
  interval (a 0/1 outcome per game);
* ``p_value``: the one-sided score test of share = 1/2 against share > 1/2 (statsmodels'
  ``proportions_ztest(sum, n, value=0.5, alternative="larger", prop_var=0.5)``: the test
  ``compare``'s two-sided interval inverts, one-sided);
* ``equivalence``: for the step that ends the chain, what its games exclude: the TOST verdict of
  ``share - 1/2`` within ``margin`` (:func:`tajsim.analysis.stats.verdicts.equivalence_test`)
  and the minimum detectable gain at that n; a chain that ends on an inconclusive step (too
  few games to exclude a gain of ``margin``) says so. Every step has it: two-sided, so a step
  the one-sided test finds significant at 0.025 <= p (below its level) can read
  ``inconclusive`` (or, with many games, ``equivalent``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps

from tajsim.analysis.compare import share_interval
from tajsim.analysis.skill_matches import (
    MatchOutcomes,
    derive_seed,
    foreign_runs,
    match_block,
    match_runs,
    pair_outcomes,
    play_match,
    stored_run,
)
from tajsim.analysis.stats import wilson_interval
from tajsim.analysis.stats.verdicts import equivalence_test
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.strategies.spec import StrategySpec

__all__ = ["ALPHA", "CHAIN_COLUMNS", "DEFAULT_FACTOR", "DEFAULT_INTERIM_P", "DEFAULT_LOOKS",
           "DEFAULT_MARGIN", "ChainLevels", "StepDesign", "StepStatistics", "chain_levels",
           "check_kept_steps", "concat_outcomes", "elo_gap", "one_sided_p", "play_chain",
           "run_chain", "search_strategy", "stage_match", "stage_outcomes", "stage_run_folders",
           "stage_store", "step_design", "step_statistics", "stored_step"]

#: The one-sided level of each step's test.
ALPHA = 0.05
#: Each level's budget is the previous one's times this.
DEFAULT_FACTOR = 4
#: The equivalence margin of the step that ends a chain (2 points of win share).
DEFAULT_MARGIN = 0.02
#: Looks of a group-sequential step (at 1/8, 1/4, 1/2 and all of its games).
DEFAULT_LOOKS = 4
#: The Haybittle-Peto boundary: an interim look stops a step only below this one-sided p.
DEFAULT_INTERIM_P = 0.001

#: The chain table's columns, in order.
CHAIN_COLUMNS = ("step", "weaker", "stronger", "budget_weaker", "budget_stronger", "n",
                 "share", "ci_low", "ci_high", "p_value", "significant", "elo", "elo_ci_low",
                 "elo_ci_high", "upset_rate", "upset_ci_low", "upset_ci_high", "tie_rate",
                 "first_seat_rate", "first_seat_ci_low", "first_seat_ci_high", "equivalence",
                 "mde", "ends_chain", "look", "looks", "level")


def elo_gap(p: float | np.ndarray) -> float | np.ndarray:
    """The Elo-like gap of a win share ``p`` in [0, 1]: ``400 log10(p / (1 - p))`` (+inf at 1,
    -inf at 0, NaN for NaN)."""
    x = np.asarray(p, dtype=np.float64)
    with np.errstate(divide="ignore"):
        out = 400.0 * (np.log10(x) - np.log10(1.0 - x))
    return float(out) if out.ndim == 0 else out


def one_sided_p(shares: np.ndarray) -> float:
    """One-sided score test of a mean per-game share of 1/2 against more than 1/2: ``z =
    (mean - 1/2) / sqrt(1/4 / n)``, ``p = P(Z > z)``. NaN for no games."""
    x = np.asarray(shares, dtype=np.float64)
    if x.size == 0:
        return float("nan")
    z = (float(x.mean()) - 0.5) / math.sqrt(0.25 / x.size)
    return float(sps.norm.sf(z))


@dataclass(frozen=True)
class StepStatistics:
    """One step's figures (see the module docstring); floats are shares in [0, 1] except the
    Elo gaps (points) and ``p_value``."""

    n: int
    share: float
    ci_low: float
    ci_high: float
    p_value: float
    significant: bool
    elo: float
    elo_ci_low: float
    elo_ci_high: float
    upset_rate: float
    upset_ci_low: float
    upset_ci_high: float
    tie_rate: float
    first_seat_rate: float
    first_seat_ci_low: float
    first_seat_ci_high: float
    equivalence: str
    mde: float


def step_statistics(stronger_share: np.ndarray, weaker_won: np.ndarray,
                    first_seat: np.ndarray | None = None, *, tied: np.ndarray | None = None,
                    alpha: float = ALPHA, margin: float = DEFAULT_MARGIN,
                    confidence: float = 0.95) -> StepStatistics:
    """The figures of one step from its per-game outcomes.

    Parameters
    ----------
    stronger_share : ndarray of float64, shape (games,)
        The stronger level's win share of each game, in [0, 1] (ties shared).
    weaker_won : ndarray of bool, shape (games,)
        Whether the weaker level has a winner in the game (a shared win counts).
    first_seat : ndarray of float64, shape (games,), optional
        The first seat's win value of each game.
    tied : ndarray of bool, shape (games,), optional
        Games both levels won (a shared first place); default: neither share is 0 or 1.
    """
    share = np.asarray(stronger_share, dtype=np.float64)
    upset = np.asarray(weaker_won, dtype=bool)
    n = int(share.size)
    mean, low, high = share_interval(share, confidence)
    p_value = one_sided_p(share)
    u_low, u_high = (float(v) for v in wilson_interval(float(upset.sum()), float(n), confidence))
    ties = (np.asarray(tied, dtype=bool) if tied is not None
            else (share > 0.0) & (share < 1.0) & upset)
    if first_seat is not None and n:
        fs = np.asarray(first_seat, dtype=np.float64)
        f_mean, f_low, f_high = share_interval(fs, confidence)
    else:
        f_mean = f_low = f_high = float("nan")
    # The gain's verdict within the margin: the share's standard error from the per-game
    # shares (at most 1/2 / sqrt(n), the binomial bound the score test uses).
    se = float(np.std(share, ddof=1) / math.sqrt(n)) if n > 1 else float("nan")
    verdict = equivalence_test(mean - 0.5, se, margin, n=n, alpha=alpha)
    return StepStatistics(
        n=n, share=mean, ci_low=low, ci_high=high, p_value=p_value,
        significant=bool(np.isfinite(p_value) and p_value < alpha),
        elo=float(elo_gap(mean)), elo_ci_low=float(elo_gap(low)),
        elo_ci_high=float(elo_gap(high)),
        upset_rate=float(upset.mean()) if n else float("nan"), upset_ci_low=u_low,
        upset_ci_high=u_high, tie_rate=float(ties.mean()) if n else float("nan"),
        first_seat_rate=f_mean, first_seat_ci_low=f_low, first_seat_ci_high=f_high,
        equivalence=verdict.verdict, mde=float(verdict.mde))


# -- the levels ------------------------------------------------------------------------------
def search_strategy(spec: GameSpec, name: str | None = None) -> StrategySpec:
    """The game's search: its registry's strategy tagged ``search`` named ``name`` (default
    the first; Maharaja has two, ``search`` and ``turnsearch``). A one-line ``UserError`` for
    a game without one, or a ``name`` that is not one of them."""
    found = spec.strategies.with_tag("search")
    if not found:
        raise UserError(f"{spec.title} has no search strategy (none tagged 'search' in "
                        f"tajsim strategies --game {spec.name}); a skill chain climbs a "
                        "search's budget")
    if name is None:
        return found[0]
    for strategy in found:
        if strategy.name == name:
            return strategy
    names = " or ".join(f"{st.name} ({st.name}:KEY=VALUE)" for st in found)
    raise UserError(f"--start {name!r} is not {spec.title}'s search; expected {names} (the "
                    "strategies tagged 'search')")


@dataclass(frozen=True)
class ChainLevels:
    """The levels a chain may climb: the search, its budget parameter, the start's other
    overrides (kept at every level) and the budgets, start first."""

    strategy: str
    param: str
    overrides: tuple[str, ...]
    budgets: tuple[float, ...]
    ended_by_range: bool

    def text(self, budget: float) -> str:
        """The strategy text of the level at ``budget``: ``mcts:iterations=100``."""
        value = f"{budget:g}" if budget != int(budget) else str(int(budget))
        return ":".join([self.strategy, *self.overrides, f"{self.param}={value}"])

    @property
    def labels(self) -> list[str]:
        return [self.text(b) for b in self.budgets]


def chain_levels(game: str | GameSpec, start: str | None = None, *,
                 factor: float = DEFAULT_FACTOR, max_steps: int = 6) -> ChainLevels:
    """The levels of a chain: ``start`` (a strategy text of the game's search, e.g.
    ``mcts:iterations=25``, or a number: the search at that iteration budget; default the
    search at its default parameters) and each next level at ``factor`` times the budget, up
    to ``max_steps`` steps or the end of the budget parameter's range.

    The budget is the search's iteration parameter (its ``cost_param``) unless the start sets
    its time budget (``budget_param`` > 0, e.g. ``ms=5``). Bad input is a one-line
    ``UserError``."""
    spec = get_game(game)
    search = search_strategy(spec)
    if start is not None and str(start).strip():
        head = str(start).strip().split(":")[0].strip()
        try:
            float(head)
        except ValueError:  # a strategy text: the search it names (Maharaja: turnsearch)
            search = search_strategy(spec, head)
    if not (isinstance(factor, (int, float)) and not isinstance(factor, bool)
            and math.isfinite(factor) and factor > 1):
        raise UserError(f"factor {factor!r} is not allowed; expected a number above 1 (each "
                        "level's budget is the previous one's times the factor)")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise UserError(f"max steps {max_steps!r} is not allowed; expected a whole number of "
                        "1 or more")
    text = search.name if start is None else str(start).strip()
    try:
        number = float(text)
    except ValueError:
        number = None
    if number is not None:
        if not search.cost_param:
            raise UserError(f"--start {text}: {search.name} has no iteration budget; expected "
                            f"a strategy text such as {search.name}:"
                            f"{search.budget_param or 'KEY'}=VALUE")
        text = f"{search.name}:{search.cost_param}={text}"
    name, *assignments = text.split(":")
    if name.strip() != search.name:
        raise UserError(f"--start {text!r} is not {spec.title}'s search; expected "
                        f"{search.name} or {search.name}:KEY=VALUE (the strategy tagged "
                        "'search')")
    _, vec = spec.strategies.parse(text)  # checks every value (one-line UserError)
    names = list(search.param_names)
    timed = bool(search.budget_param) and float(vec[names.index(search.budget_param)]) > 0
    param = search.budget_param if timed else search.cost_param
    if not param:
        raise UserError(f"{search.name} declares no budget parameter (cost_param or "
                        "budget_param); a chain needs one to climb")
    overrides = tuple(a.strip() for a in assignments
                      if a.partition("=")[0].strip() != param)
    budget = float(vec[names.index(param)])
    if budget <= 0:
        raise UserError(f"--start {text!r}: {param} = {budget:g}; expected a budget above 0")
    declared = search.param_ranges[names.index(param)]
    budgets = [budget]
    ended = False
    for _ in range(max_steps):
        nxt = budgets[-1] * factor
        nxt = float(round(nxt)) if declared.kind == "int" else nxt
        if declared.problem(nxt) is not None:  # the next budget leaves the declared range
            ended = True
            break
        budgets.append(nxt)
    return ChainLevels(search.name, param, overrides, tuple(budgets), ended)


# -- the step's design ---------------------------------------------------------------------
@dataclass(frozen=True)
class StepDesign:
    """A group-sequential step (the module docstring): ``stages`` the games played by each
    look (increasing, the last all of the step's games), ``alpha`` the step's level,
    ``interim_p`` the Haybittle-Peto boundary of the interim looks."""

    stages: tuple[int, ...]
    alpha: float = ALPHA
    interim_p: float = DEFAULT_INTERIM_P

    @property
    def looks(self) -> int:
        return len(self.stages)

    @property
    def final_level(self) -> float:
        """The last look's level: ``alpha - interim_p x (interim looks)`` (Bonferroni)."""
        return self.alpha - self.interim_p * (self.looks - 1)

    def level(self, look: int) -> float:
        """The one-sided level of look ``look`` (0-based)."""
        return self.final_level if look == self.looks - 1 else self.interim_p

    def increments(self) -> list[int]:
        """The new games of each stage."""
        return [b - a for a, b in zip((0, *self.stages[:-1]), self.stages)]


def step_design(games: int, block: int = 1, looks: int = DEFAULT_LOOKS, *, alpha: float = ALPHA,
                interim_p: float = DEFAULT_INTERIM_P) -> StepDesign:
    """The stages of a step of up to ``games`` games: look k of ``looks`` after ``games /
    2**(looks - k)`` games, rounded up to whole blocks of ``block`` games (the match's seating
    block); stages that rounding makes equal are one look. Bad values are a one-line
    ``UserError``."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise UserError(f"games {games!r} per step is not allowed; expected a whole number of "
                        "1 or more")
    if isinstance(looks, bool) or not isinstance(looks, int) or not 1 <= looks <= 10:
        raise UserError(f"looks {looks!r} is not allowed; expected a whole number from 1 (one "
                        "look at all of a step's games) to 10")
    if not (isinstance(alpha, float | int) and 0 < alpha < 1):
        raise UserError(f"alpha {alpha!r} is not allowed; expected a level between 0 and 1")
    if not (isinstance(interim_p, float | int) and not isinstance(interim_p, bool)
            and math.isfinite(interim_p) and 0 < interim_p < alpha):
        raise UserError(f"interim p {interim_p!r} is not allowed; expected a boundary above 0 "
                        f"and below the step's level {alpha:g}")
    full = -(-games // block) * block
    stages = sorted({min(full, -(-math.ceil(games / 2 ** (looks - k)) // block) * block)
                     for k in range(1, looks + 1)})
    design = StepDesign(tuple(int(x) for x in stages), float(alpha), float(interim_p))
    if design.final_level <= 0:
        raise UserError(f"interim p {interim_p:g} at {design.looks - 1} interim looks leaves "
                        f"no level for the last look ({alpha:g} - {design.looks - 1} x "
                        f"{interim_p:g} <= 0); expected a smaller boundary or fewer looks")
    return design


def concat_outcomes(parts: Sequence[MatchOutcomes]) -> MatchOutcomes:
    """The outcomes of several stages of one step as one (games in stage order)."""
    first = parts[0]
    if len(parts) == 1:
        return first
    cat = lambda name: np.concatenate([getattr(o, name) for o in parts])  # noqa: E731
    return MatchOutcomes(first.a, first.b, cat("share_a"), cat("a_won"), cat("b_won"),
                         cat("first_seat"), cat("first_is_a"),
                         np.sum([o.seats_a for o in parts], axis=0),
                         np.sum([o.seats_b for o in parts], axis=0))


# -- the chain -------------------------------------------------------------------------------
#: ``play_step(step, weaker, stronger)`` -> the step's outcomes with A the weaker level; with a
#: :class:`StepDesign`, ``play_step(step, weaker, stronger, stage)`` -> the outcomes of the
#: stage's new games (``stage`` 0-based; their count the design's increment).
PlayStep = Callable[..., MatchOutcomes]


def run_chain(levels: Sequence[str], play_step: PlayStep, *, alpha: float = ALPHA,
              margin: float = DEFAULT_MARGIN, budgets: Sequence[float] | None = None,
              on_step: Callable[[pd.DataFrame], None] | None = None,
              design: StepDesign | None = None,
              kept: pd.DataFrame | None = None) -> pd.DataFrame:
    """Climb ``levels`` (weakest first) step by step until a step's gain is not significant.

    ``play_step(k, weaker, stronger)`` plays step ``k`` (1-based) and returns its
    :class:`~tajsim.analysis.skill_matches.MatchOutcomes` with A the weaker level. With a
    ``design`` (a group-sequential step, its ``alpha`` the step's level), ``play_step(k,
    weaker, stronger, stage)`` plays the stage's new games, and a step stops at the first look
    whose one-sided p is below the look's level. After each step ``on_step(table)`` receives
    the table so far (the CLI writes it: an interrupted chain keeps its finished steps).

    Returns
    -------
    DataFrame
        One row per step played (:data:`CHAIN_COLUMNS`): ``step`` (int64), ``weaker``,
        ``stronger`` (str), ``budget_weaker``, ``budget_stronger`` (float64), ``n`` (int64:
        games played), the :class:`StepStatistics` fields, ``ends_chain`` (bool: the first step
        that is not significant), ``look`` (int64: the look the step stopped at, 1-based),
        ``looks`` (int64: the design's looks; 1 without a design) and ``level`` (float64: the
        one-sided level that look tested at). ``attrs``: ``chain_length`` (significant steps
        before the first that is not), ``ended`` (``"not significant"``, or ``"levels
        exhausted"`` when every step gained: the length is then a lower bound); ``on_step``
        sees ``"running"`` while the chain goes on.

    ``kept``: the first steps of the same chain played earlier (a resumed chain,
    :func:`check_kept_steps`): they are not played again, the chain goes on at the next step
    (nothing more when the last kept step is not significant), and the table holds them first.
    Each step's games depend on the step alone (``play_step`` seeds them from it), so the table
    is the one the chain played in one go makes.
    """
    if len(levels) < 2:
        raise ValueError("a chain needs at least two levels")
    budget_list = list(budgets) if budgets is not None else [float("nan")] * len(levels)
    rows: list[dict[str, Any]] = []
    if kept is not None:
        rows = [dict(r) for r in kept[list(CHAIN_COLUMNS)].to_dict("records")]
    table = _chain_table(rows) if rows else pd.DataFrame(columns=list(CHAIN_COLUMNS))
    if design is not None:
        alpha = design.alpha
    first = len(rows) + 1 if all(bool(r["significant"]) for r in rows) else len(levels)
    for k in range(first, len(levels)):
        weaker, stronger = levels[k - 1], levels[k]
        if design is None:
            out, look, looks, level = play_step(k, weaker, stronger), 0, 1, alpha
        else:
            parts: list[MatchOutcomes] = []
            for look in range(design.looks):
                parts.append(play_step(k, weaker, stronger, look))
                out = concat_outcomes(parts)
                if one_sided_p(1.0 - out.share_a) < design.level(look):
                    break
            looks, level = design.looks, design.level(look)
        share_strong = 1.0 - out.share_a
        stats = step_statistics(share_strong, out.a_won, out.first_seat,
                                tied=out.a_won & out.b_won, alpha=alpha, margin=margin)
        # significant at the level of the look it stopped at (alpha for a one-look step)
        stats = replace(stats, significant=bool(np.isfinite(stats.p_value)
                                                and stats.p_value < level))
        row = {"step": k, "weaker": weaker, "stronger": stronger,
               "budget_weaker": budget_list[k - 1], "budget_stronger": budget_list[k],
               **asdict(stats), "ends_chain": not stats.significant, "look": look + 1,
               "looks": looks, "level": level}
        rows.append(row)
        table = _chain_table(rows)
        if stats.significant and k < len(levels) - 1:
            table.attrs["ended"] = "running"  # what on_step sees while levels remain
        if on_step is not None:
            on_step(table)
        if not stats.significant:
            break
    table.attrs["ended"] = "not significant" if not table["significant"].all() \
        else "levels exhausted"
    return table


def _chain_table(rows: list[dict[str, Any]]) -> pd.DataFrame:
    table = pd.DataFrame(rows, columns=list(CHAIN_COLUMNS))
    table = table.astype({"step": np.int64, "n": np.int64, "significant": bool,
                          "ends_chain": bool, "look": np.int64, "looks": np.int64,
                          "level": np.float64})
    significant = table["significant"].to_numpy(bool)
    failed = np.flatnonzero(~significant)
    table.attrs["chain_length"] = int(failed[0]) if failed.size else int(significant.size)
    table.attrs["ended"] = "not significant" if failed.size else "levels exhausted"
    return table


def check_kept_steps(table: pd.DataFrame, levels: ChainLevels, design: StepDesign,
                     where: str) -> None:
    """That ``table`` (a chain read back, :data:`CHAIN_COLUMNS`) holds the first steps of the
    chain of ``levels`` and ``design``: steps 1 .. k, each between the design's levels at their
    budgets, its games those of the look it stopped at, every step but the last significant.
    ``levels`` must reach at least k steps. A one-line ``UserError`` naming ``where`` (the
    file) otherwise."""
    def bad(step: int | None, what: str) -> UserError:
        at = f" step {step}:" if step is not None else ""
        return UserError(f"{where}:{at} {what}; expected the steps 1 .. k of the chain from "
                         f"{levels.labels[0]} as tajsim chain wrote them")

    if table.empty:
        raise bad(None, "holds no steps")
    steps = [int(x) for x in table["step"]]
    if steps != list(range(1, len(steps) + 1)):
        raise bad(None, f"steps {', '.join(map(str, steps[:6]))} are not 1 .. {len(steps)}")
    labels, budgets = levels.labels, levels.budgets
    for i, r in enumerate(table.itertuples(index=False)):
        k = i + 1
        if k >= len(labels):
            raise bad(k, f"{r.stronger} is beyond the design's last level {labels[-1]}")
        if (r.weaker, r.stronger) != (labels[k - 1], labels[k]):
            raise bad(k, f"levels {r.weaker} -> {r.stronger} are not the design's "
                         f"{labels[k - 1]} -> {labels[k]}")
        if (float(r.budget_weaker), float(r.budget_stronger)) != (budgets[k - 1], budgets[k]):
            raise bad(k, f"budgets {r.budget_weaker:g} -> {r.budget_stronger:g} are not "
                         f"{budgets[k - 1]:g} -> {budgets[k]:g}")
        if int(r.looks) != design.looks or not 1 <= int(r.look) <= design.looks:
            raise bad(k, f"look {r.look} of {r.looks} is not a look of the design's "
                         f"{design.looks}")
        if int(r.n) != design.stages[int(r.look) - 1]:
            raise bad(k, f"n = {r.n} games at look {r.look} is not the design's "
                         f"{design.stages[int(r.look) - 1]}")
        level = design.level(int(r.look) - 1)
        if not math.isclose(float(r.level), level, rel_tol=1e-5):
            raise bad(k, f"level {r.level:g} is not look {r.look}'s {level:g}")
        if bool(r.ends_chain) is bool(r.significant):
            raise bad(k, "ends_chain is not the opposite of significant")
        if not r.significant and k < len(steps):
            raise bad(k, "is not significant, yet steps follow it")


def stage_outcomes(game: str, players: int, weaker: str, stronger: str, design: StepDesign,
                   step: int, stage: int, seed: int, *, edition: str | None = None,
                   workers: int | None = None, progress: bool | None = False,
                   log: Callable[[str], None] | None = None, store: str | Path | None = None,
                   on_stored: Callable[[int], None] | None = None) -> MatchOutcomes:
    """The new games of look ``stage`` (0-based) of chain step ``step``: a match of the
    design's increment, its seed derived from ``seed``, the step and the stage (so the games of
    a stage are the same whatever the step's stopping point), A the weaker level. ``store``:
    the chain's games folder; the stage keeps its games in ``step-<step>/look-<stage + 1>``
    there (:func:`~tajsim.analysis.skill_matches.play_match`)."""
    games, match_seed = stage_match(design, step, stage, seed)
    results = play_match(game, players, weaker, stronger, games, match_seed,
                         edition=edition, workers=workers, progress=progress, log=log,
                         store=stage_store(store, step, stage), on_stored=on_stored)
    return pair_outcomes(results, weaker, stronger)


def stage_match(design: StepDesign, step: int, stage: int | None, seed: int,
                games: int | None = None) -> tuple[int, int]:
    """The game count and seed of the match of look ``stage`` (0-based) of chain step
    ``step``, or of the whole step of a one-look chain (``stage`` None: ``games`` as asked,
    the match rounds them to whole blocks)."""
    if stage is None:
        return (design.stages[-1] if games is None else games,
                derive_seed(seed, "chain step", step))
    return design.increments()[stage], derive_seed(seed, "chain step", step, "stage", stage)


def stage_store(store: str | Path | None, step: int, stage: int | None) -> Path | None:
    """The folder of a step's stage (0-based; None: the step of a one-look chain) in a chain's
    games folder ``store`` (None: nothing stored)."""
    if store is None:
        return None
    folder = Path(store) / f"step-{step}"
    return folder if stage is None else folder / f"look-{stage + 1}"


def stage_run_folders(store: str | Path, game: str, players: int, weaker: str, stronger: str,
                      design: StepDesign, step: int, stage: int | None, seed: int, *,
                      games: int | None = None, edition: str | None = None) -> list[Path]:
    """The run folders in which a chain's games folder ``store`` keeps the games of a step's
    stage (:func:`stage_match`, :func:`stage_store`,
    :func:`~tajsim.analysis.skill_matches.stored_run`): the folders a resumed chain reads
    back, so stored games elsewhere were played by another design or other code."""
    count, match_seed = stage_match(design, step, stage, seed, games)
    folder = stage_store(store, step, stage)
    assert folder is not None
    return [stored_run(folder, game, players, edition, None, index, run)[0]
            for index, run in enumerate(match_runs(weaker, stronger, players, count,
                                                   match_seed))]


def stored_step(game: str, players: int, weaker: str, stronger: str, design: StepDesign,
                step: int, seed: int, store: str | Path, *, edition: str | None = None,
                margin: float = DEFAULT_MARGIN) -> pd.DataFrame:
    """Where step ``step`` of a chain played over several sittings stands, read from the
    chain's games folder ``store`` (:func:`stage_store`), playing nothing (``tajsim chain
    --status``).

    Returns one row per look that the step plays (int64 ``look``, 1-based; ``games``, the
    look's new games; ``stored``, of them those whose chunks are finished and verified; bool
    ``complete``; bool ``foreign``: the look's folder holds games of another design or of other
    engine code in place of a missing run, games a resumed chain would not use), up to the
    first complete look that stops the step. A look whose games and
    every earlier look's are all stored also has the step's figures at that look, from all its
    games so far (``n``, ``share``, ``ci_low``, ``ci_high``, ``p_value``, ``elo`` and the rest of
    :class:`StepStatistics`), the look's one-sided ``level`` and ``stops`` (p below it: the step
    ends there, significant; at the last look, a p above it ends the chain). The figures of a
    look not yet whole are NaN: a partial look is no verdict.

    Raises
    ------
    UserError
        A stored chunk fails verification (named, with how to repair it).
    """
    from tajsim.running.records import concat_results
    from tajsim.running.run_files import MANIFEST
    from tajsim.running.run_reading import load_results, run_status

    increments = design.increments()
    rows: list[dict[str, Any]] = []
    parts: list[MatchOutcomes] = []
    for stage in range(design.looks):
        count, match_seed = stage_match(design, step, stage, seed)
        folder = stage_store(store, step, stage)
        assert folder is not None
        runs = match_runs(weaker, stronger, players, count, match_seed)
        folders = [stored_run(folder, game, players, edition, None, index, run)[0]
                   for index, run in enumerate(runs)]
        stored, complete, foreign = 0, True, False
        for run_folder in folders:
            if (run_folder / MANIFEST).is_file():
                status = run_status(run_folder)
                stored += status.games_finished
                complete = complete and status.complete
            else:
                complete = False
                foreign = foreign or bool(foreign_runs(run_folder))
        row: dict[str, Any] = {"look": stage + 1, "games": increments[stage],
                               "stored": stored, "complete": complete, "foreign": foreign,
                               "level": design.level(stage), "stops": False}
        if complete and len(parts) == stage:
            results = concat_results([load_results(f) for f in folders],
                                     run_ids=[run.run_id for run in runs])
            parts.append(pair_outcomes(results, weaker, stronger))
            out = concat_outcomes(parts)
            stats = step_statistics(1.0 - out.share_a, out.a_won, out.first_seat,
                                    tied=out.a_won & out.b_won, margin=margin)
            row.update(asdict(stats))
            row["stops"] = bool(np.isfinite(stats.p_value) and stats.p_value < row["level"])
        rows.append(row)
        if row["stops"]:
            break
    table = pd.DataFrame(rows)
    for name in StepStatistics.__dataclass_fields__:
        if name not in table:
            table[name] = np.nan
    # a look's decision is ``stops`` at its own level, not StepStatistics' test at alpha
    return table.drop(columns="significant")


def play_chain(game: str, players: int | None = None, start: str | None = None, *,
               games: int = 2000, max_steps: int = 6, factor: float = DEFAULT_FACTOR,
               seed: int = 0, edition: str | None = None, alpha: float = ALPHA,
               margin: float = DEFAULT_MARGIN, looks: int = DEFAULT_LOOKS,
               interim_p: float = DEFAULT_INTERIM_P, workers: int | None = None,
               progress: bool | None = False, log: Callable[[str], None] | None = None,
               on_step: Callable[[pd.DataFrame], None] | None = None,
               kept: pd.DataFrame | None = None,
               store: str | Path | None = None,
               announce: Callable[[str], None] | None = None) -> tuple[pd.DataFrame, ChainLevels]:
    """Play a skill chain of ``game`` at ``players`` seats (:func:`chain_levels`,
    :func:`run_chain`): each step a match of up to ``games`` games (rounded up to whole seating
    blocks) on every core, in ``looks`` group-sequential stages (:func:`step_design`; ``looks =
    1``: one match of all the games, its seed derived from ``seed`` and the step, as before
    the sequential design; otherwise each stage's new games a match whose seed is derived from
    ``seed``, the step and the stage). Returns the chain table (its ``attrs`` also hold
    ``game``, ``players``, ``seed``, ``games``, ``factor``, ``param``, ``ended_by_range``,
    ``looks``, ``stages``, ``interim_p`` and ``final_level``) and the levels.

    ``kept``: the first steps of this chain, played earlier (read back from its
    ``chain.csv``; checked by :func:`check_kept_steps`): a resumed chain plays on from the next
    step with the seeds the chain played in one go uses, so its table is that chain's.

    ``store``: a folder that keeps every stage's games as it is played (:func:`stage_store`),
    so a chain killed in the middle of a step loses at most a chunk of each run: played again,
    it reads the stored games back instead of playing them (verified; the table is the same).
    The table's ``attrs["stored_games"]`` counts the games read back rather than played.

    ``announce(line)`` receives a line as each step (or look) begins, and one after a look
    whose games were read back from ``store`` saying how many: what a long step is doing
    (default: ``log``)."""
    spec = get_game(game)
    players = spec.players_or_default(players, edition)
    design = step_design(games, match_block(players), looks, alpha=alpha, interim_p=interim_p)
    levels = chain_levels(spec, start, factor=factor, max_steps=max_steps)
    if len(levels.budgets) < 2:
        raise UserError(f"{levels.text(levels.budgets[0])} at {factor:g} times its budget "
                        f"leaves {levels.param}'s range; expected a lower start")
    if kept is not None:
        check_kept_steps(kept, chain_levels(spec, start, factor=factor,
                                            max_steps=max(max_steps, len(kept))),
                         design, "the kept steps")
    increments = design.increments()
    stored = [0]
    say = announce or log

    def count(games: int) -> None:
        stored[0] += games

    def said_read_back(where: str, before: int) -> None:
        if say is not None and stored[0] > before:
            say(f"{where}: {stored[0] - before:,} of its games read back from {store}")

    def play_step(k: int, weaker: str, stronger: str) -> MatchOutcomes:
        if say is not None:
            say(f"step {k}: {weaker} against {stronger}, {design.stages[-1]:,} games")
        before = stored[0]
        step_games, step_seed = stage_match(design, k, None, seed, games)
        results = play_match(spec.name, players, weaker, stronger, step_games, step_seed,
                             edition=edition, workers=workers, progress=progress, log=log,
                             store=stage_store(store, k, None), on_stored=count)
        said_read_back(f"step {k}", before)
        return pair_outcomes(results, weaker, stronger)

    def play_stage(k: int, weaker: str, stronger: str, stage: int) -> MatchOutcomes:
        look = f"step {k}, look {stage + 1} of {design.looks}"
        if say is not None:
            games_here = (f"{increments[0]:,} games" if stage == 0 else
                          f"{increments[stage]:,} more games ({design.stages[stage]:,} in all)")
            say(f"{look}: {weaker} against {stronger}, {games_here}")
        before = stored[0]
        outcomes = stage_outcomes(spec.name, players, weaker, stronger, design, k, stage, seed,
                                  edition=edition, workers=workers, progress=progress, log=log,
                                  store=store, on_stored=count)
        said_read_back(look, before)
        return outcomes

    def tagged(table: pd.DataFrame) -> pd.DataFrame:
        table.attrs.update(game=spec.name, title=spec.title, players=players, seed=seed,
                           games=games, factor=factor, param=levels.param,
                           ended_by_range=levels.ended_by_range, alpha=alpha, margin=margin,
                           looks=design.looks, stages=list(design.stages),
                           interim_p=interim_p if looks > 1 else None,
                           final_level=design.final_level, stored_games=stored[0])
        return table

    def step_done(table: pd.DataFrame) -> None:
        if on_step is not None:
            on_step(tagged(table))

    if looks == 1:
        table = run_chain(levels.labels, play_step, alpha=alpha, margin=margin,
                          budgets=levels.budgets, on_step=step_done, kept=kept)
    else:
        table = run_chain(levels.labels, play_stage, margin=margin, budgets=levels.budgets,
                          on_step=step_done, design=design, kept=kept)
    return tagged(table), levels
