"""Expert iteration for a game's ``learned`` strategy (Anthony, Tian and Barber, NeurIPS 2017).

A round of :func:`train`:

1. **Collect.** Play ``games`` games step by step, the expert (a search) in one seat (rotated
   by the game index) and the base preset in the others. At every expert decision with more
   than one legal action, store the game's features of each legal action
   (``GameSpec.learned.features``: float64[n_legal, n_features]) and the action the expert
   chose.
2. **Fit.** Fit theta by conditional logit (McFadden): the expert's action is drawn with
   probability ``softmax(theta . phi)`` over the legal actions; maximise the likelihood of
   every decision collected so far (the rounds' data pooled), with a small L2 penalty, by
   scipy's L-BFGS on standardised features. The fit is deterministic.
3. **Measure.** Play ``learned`` (theta) against the base preset head to head on a fixed set
   of evaluation games (the same in every round: common random numbers), seats rotated; its
   share of the wins with the Wilson 95% interval; and the agreement with the expert on the
   decisions of held-out games (the last fifth of each round's games) next to the base
   preset's. The fit's correction of the base value is tried in full and in part
   (``SHRINKAGE``); the evaluation games keep the share that plays best.
4. **Improve the expert.** The next round's expert plays its rollouts with the learned policy
   (``LearnedPolicy.expert_with_rollout``).

Rounds stop when one does not beat the best win share so far ("as long as it pays") or after
``rounds``; the best round's theta is kept. Optionally (``refine_generations``) CMA-ES then
tunes it for wins against the base preset (:func:`refine`: policy improvement, not
imitation, reported apart). The chosen theta is measured once more on fresh games. Every game
and the fit are pure functions of the seed and the settings, so the weights are reproduced by
the same command.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy.optimize import minimize
from statsmodels.stats.proportion import proportion_confint

from tajsim.engine.learned import LearnedPolicy
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.play.arena import Entry, packed_components, play_lineups, rotated_lineups, win_shares
from tajsim.play.tuning import cma_es

__all__ = ["Decisions", "RoundReport", "TrainResult", "collect_decisions", "fit_conditional_logit",
           "learned_entry", "learned_policy_of", "match", "train"]

#: Game ids of the evaluation games (the same set every round) and of the final measurement.
EVAL_FIRST_GAME = 50_000_000
FINAL_FIRST_GAME = 90_000_000
#: Game ids of the refinement's generations (generation k plays from REFINE_FIRST_GAME + k * games).
REFINE_FIRST_GAME = 70_000_000
#: How much of the fitted correction a round tries (0 would be the base preset itself): the
#: evaluation games pick the share that plays best.
SHRINKAGE = (0.25, 0.5, 1.0)
#: The refinement's first step size, in standardised units (see :func:`refine`).
REFINE_SIGMA = 0.1


def learned_policy_of(spec: GameSpec) -> LearnedPolicy:
    """The game's :class:`LearnedPolicy`, or a one-line ``UserError``."""
    if spec.learned is None:
        raise UserError(f"{spec.title} has no learned strategy; expected a game whose spec "
                        "declares one (GameSpec.learned)")
    return spec.learned


def learned_params(spec: GameSpec, theta: np.ndarray, base_params: np.ndarray) -> np.ndarray:
    """float64[n_params]: the base strategy's vector with ``theta`` at the weight offset."""
    lp = learned_policy_of(spec)
    params = np.array(base_params, np.float64, copy=True)
    params[lp.weight_offset: lp.weight_offset + lp.n_features] = theta
    return params


def learned_entry(spec: GameSpec, theta: np.ndarray, base_params: np.ndarray,
                  label: str = "learned") -> Entry:
    """A match entry playing the learned policy with weights ``theta``."""
    lp = learned_policy_of(spec)
    sid = spec.strategies.get(lp.strategy).strategy_id
    return Entry(label, sid, learned_params(spec, theta, base_params))


@dataclass
class Decisions:
    """Expert decisions: the features of every legal action and the expert's choice.

    ``feats``: float64[n_rows, n_features], the decisions' rows one after another;
    ``offsets``: int64[n_decisions + 1], decision i owns rows ``offsets[i]:offsets[i + 1]``;
    ``chosen``: int64[n_decisions], the expert's row within its decision;
    ``game``: int64[n_decisions], the game id of each decision.
    """

    feats: np.ndarray
    offsets: np.ndarray
    chosen: np.ndarray
    game: np.ndarray

    @property
    def n(self) -> int:
        return len(self.chosen)

    @staticmethod
    def concat(parts: list[Decisions]) -> Decisions:
        parts = [p for p in parts if p.n]
        if not parts:
            return Decisions(np.zeros((0, 0)), np.zeros(1, np.int64), np.zeros(0, np.int64),
                             np.zeros(0, np.int64))
        feats = np.concatenate([p.feats for p in parts])
        sizes = np.concatenate([np.diff(p.offsets) for p in parts])
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        return Decisions(feats, offsets, np.concatenate([p.chosen for p in parts]),
                         np.concatenate([p.game for p in parts]))

    def subset(self, keep: np.ndarray) -> Decisions:
        """The decisions where ``keep`` (bool[n]) is true."""
        idx = np.flatnonzero(keep)
        rows = [np.arange(self.offsets[i], self.offsets[i + 1]) for i in idx]
        sizes = np.diff(self.offsets)[idx]
        feats = self.feats[np.concatenate(rows)] if rows else self.feats[:0]
        return Decisions(feats, np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64),
                         self.chosen[idx], self.game[idx])


def _collect_games(spec: GameSpec, game_ids: np.ndarray, players: tuple[int, ...], edition: str,
                   seed: int, expert: Entry, base: Entry, feature_params: np.ndarray,
                   switches: tuple, tick: Callable[[], None]) -> Decisions:
    lp = learned_policy_of(spec)
    k = spec.kernels
    d = lp.n_features
    legal = np.empty(spec.n_actions, np.int64)
    out = np.zeros((spec.n_actions, d))
    feats: list[np.ndarray] = []
    chosen: list[int] = []
    games: list[int] = []
    for g in game_ids:
        g = int(g)
        n_players = players[g % len(players)]
        game = spec.game_class(n_players, edition, seed, g, g)
        state, comp, prng = game.state, game.comp, game.prng
        expert_seat = g // len(players) % n_players
        while (p := spec.current_player(state)) >= 0:
            n = k.legal_actions(state, comp, legal)
            if n == 1:
                action = int(legal[0])
            elif p == expert_seat:
                action = int(k.choose_action(expert.strategy_id, state, comp, p, expert.params,
                                             prng, legal, n, *switches))
                lp.features(state, comp, p, feature_params, legal, n, out)
                where = np.flatnonzero(legal[:n] == action)
                feats.append(out[:n].copy())
                chosen.append(int(where[0]))
                games.append(g)
            else:
                action = int(k.choose_action(base.strategy_id, state, comp, p, base.params,
                                             prng, legal, n, *switches))
            k.apply_action(state, comp, action)
        tick()
    if not feats:
        return Decisions(np.zeros((0, d)), np.zeros(1, np.int64), np.zeros(0, np.int64),
                         np.zeros(0, np.int64))
    sizes = np.array([len(f) for f in feats])
    return Decisions(np.concatenate(feats), np.concatenate([[0], np.cumsum(sizes)]),
                     np.array(chosen, np.int64), np.array(games, np.int64))


def collect_decisions(spec: GameSpec, expert: Entry, base: Entry, feature_params: np.ndarray,
                      game_ids: np.ndarray, players: tuple[int, ...], edition: str, seed: int,
                      threads: int = 1, tick: Callable[[], None] = lambda: None) -> Decisions:
    """Play ``game_ids`` (game g with ``n = players[g % len(players)]`` players, the expert in
    seat ``g // len(players) % n``, ``base`` elsewhere) and return
    the expert's decisions with their features; the same for any ``threads`` (games are
    split in order and joined in order)."""
    sids = np.array([expert.strategy_id, base.strategy_id,
                     spec.strategies.get(learned_policy_of(spec).strategy).strategy_id])
    switches = spec.strategies.kernel_switches(sids)
    threads = max(1, min(int(threads), len(game_ids)))
    chunks = np.array_split(np.asarray(game_ids, np.int64), threads)
    if threads == 1:
        return _collect_games(spec, chunks[0], players, edition, seed, expert, base,
                              feature_params, switches, tick)
    with ThreadPoolExecutor(threads) as pool:
        parts = list(pool.map(lambda c: _collect_games(spec, c, players, edition, seed,
                                                       expert, base, feature_params, switches,
                                                       tick), chunks))
    return Decisions.concat(parts)


def _loss_and_grad(theta: np.ndarray, x: np.ndarray, offsets: np.ndarray, chosen_rows: np.ndarray,
                   l2: float) -> tuple[float, np.ndarray]:
    s = x @ theta
    starts = offsets[:-1]
    m = np.maximum.reduceat(s, starts)
    sizes = np.diff(offsets)
    e = np.exp(s - np.repeat(m, sizes))
    z = np.add.reduceat(e, starts)
    logz = m + np.log(z)
    n = len(starts)
    loss = float((logz - s[chosen_rows]).sum()) / n + 0.5 * l2 * float(theta @ theta)
    p = e / np.repeat(z, sizes)
    grad = (x.T @ p - x[chosen_rows].sum(axis=0)) / n + l2 * theta
    return loss, grad


def fit_conditional_logit(data: Decisions, l2: float = 1e-3,
                          start: np.ndarray | None = None) -> tuple[np.ndarray, dict[str, Any]]:
    """theta (float64[n_features], in the features' own units) maximising the conditional logit
    likelihood of the expert's choices, with penalty ``l2 / 2 * |theta_std|^2`` on the
    standardised weights; and a summary (``loss``, ``iterations``, ``converged``).

    A feature constant within every decision carries no information: its weight is 0.
    """
    if data.n == 0:
        raise UserError("no expert decision was collected; expected games with choices "
                        "(more --games)")
    x = data.feats
    scale = x.std(axis=0)
    informative = scale > 1e-12
    scale = np.where(informative, scale, 1.0)
    xs = x / scale
    xs[:, ~informative] = 0.0
    chosen_rows = data.offsets[:-1] + data.chosen
    t0 = np.zeros(x.shape[1]) if start is None else np.asarray(start, np.float64) * scale
    res = minimize(_loss_and_grad, t0, args=(xs, data.offsets, chosen_rows, l2), jac=True,
                   method="L-BFGS-B", options={"maxiter": 500})
    theta = np.where(informative, res.x / scale, 0.0)
    return theta, {"loss": float(res.fun), "iterations": int(res.nit),
                   "converged": bool(res.success)}


def agreement(data: Decisions, theta: np.ndarray) -> float:
    """Share of the decisions whose best-scored action (first of equal scores) is the
    expert's."""
    if data.n == 0:
        return math.nan
    s = data.feats @ theta
    hits = 0
    for i in range(data.n):
        a, b = data.offsets[i], data.offsets[i + 1]
        hits += int(np.argmax(s[a:b]) == data.chosen[i])
    return hits / data.n


def wilson(wins: float, n: int) -> tuple[float, float]:
    """Wilson 95% interval of a share of ``n`` games (ties counted as shared wins)."""
    if n <= 0:
        return math.nan, math.nan
    lo, hi = proportion_confint(wins, n, alpha=0.05, method="wilson")
    return max(0.0, float(lo)), min(1.0, float(hi))


def match(spec: GameSpec, a: Entry, b: Entry, n_games: int, n_players: int, edition: int,
          seed: int, first_game: int, threads: int = 1) -> dict[str, Any]:
    """``a`` in one seat against ``b`` in the others (head to head at 2 players), seats
    rotated; ``a``'s share of the wins with its Wilson 95% interval, the parity share and the
    games. ``n_games`` is rounded down to whole rotations."""
    n_games = max(n_players, n_games - n_games % n_players)
    lineups = rotated_lineups([0] + [1] * (n_players - 1), n_games)
    comp = packed_components(spec)
    results, _ = play_lineups(spec, [a, b], lineups, seed, edition=edition,
                              first_game=first_game, comp=comp, threads=threads)
    wins, _, _ = win_shares(results, lineups, 2)
    lo, hi = wilson(float(wins[0]), n_games)
    return {"share": float(wins[0]) / n_games, "ci_low": lo, "ci_high": hi, "games": n_games,
            "parity": 1.0 / n_players}


def match_tables(spec: GameSpec, a: Entry, b: Entry, n_games: int, players: tuple[int, ...],
                 edition: int, seed: int, first_game: int, threads: int = 1) -> dict[str, Any]:
    """:func:`match` at each player count of ``players`` (``n_games`` each, the same game ids);
    ``score`` is the mean over the counts of ``a``'s share over parity (1: parity), what the
    training compares; ``tables`` the matches by player count."""
    tables = {n: match(spec, a, b, n_games, n, edition, seed, first_game, threads)
              for n in players}
    score = float(np.mean([t["share"] / t["parity"] for t in tables.values()]))
    return {"score": score, "tables": tables}


def describe_tables(result: dict[str, Any]) -> str:
    """``0.544 [0.522, 0.565] of 2000 2-player games; ...``."""
    return "; ".join(f"{t['share']:.3f} [{t['ci_low']:.3f}, {t['ci_high']:.3f}] of "
                     f"{t['games']} {n}-player games (parity {t['parity']:.3f})"
                     for n, t in result["tables"].items())


def table_fields(result: dict[str, Any]) -> dict[str, Any]:
    """Flat fields of :func:`match_tables`' result for a TOML table: ``score`` and, per player
    count n, ``share_np``, ``ci_low_np``, ``ci_high_np``, ``games_np``."""
    out: dict[str, Any] = {"score": round(result["score"], 4)}
    for n, t in result["tables"].items():
        out |= {f"share_{n}p": round(t["share"], 4), f"ci_low_{n}p": round(t["ci_low"], 4),
                f"ci_high_{n}p": round(t["ci_high"], 4), f"games_{n}p": t["games"]}
    return out


def cost_per_game(spec: GameSpec, entry: Entry, n_games: int, n_players: int, edition: int,
                  seed: int) -> float:
    """CPU seconds (this thread) of one game with ``entry`` in every seat."""
    lineups = np.zeros((n_games, n_players), np.int64)
    comp = packed_components(spec)
    play_lineups(spec, [entry], lineups[:1], seed, edition=edition, comp=comp)  # compiled
    t0 = time.thread_time()
    play_lineups(spec, [entry], lineups, seed, edition=edition, comp=comp,
                 first_game=FINAL_FIRST_GAME)
    return (time.thread_time() - t0) / n_games


def shrink(theta: np.ndarray, alpha: float) -> np.ndarray:
    """``theta`` with its corrections (every weight but the base value's, the first) scaled by
    ``alpha``: 0 is the base preset, 1 the whole fit."""
    out = np.asarray(theta, np.float64) * alpha
    out[0] = theta[0]
    return out


def refine(spec: GameSpec, theta: np.ndarray, base: Entry, scale: np.ndarray,
           generations: int, popsize: int, games: int, players: tuple[int, ...], edition: int,
           seed: int, eval_games: int, threads: int = 1,
           log: Callable[[str], None] = lambda s: None,
           tick_refine: Callable[[], None] | None = None
           ) -> tuple[np.ndarray, list[dict[str, Any]]]:
    """Policy improvement after imitation: CMA-ES (pycma) over theta, in standardised units
    (``theta * scale``), maximising the share of the wins against ``base``; every candidate of
    a generation plays the same ``games`` games at each player count of ``players`` (common
    random numbers), each generation new ones; the objective is the mean share over parity.
    The start, the final mean and the best candidate seen are then played on the evaluation
    games and the best of the three is returned, with one row per generation.

    This is not imitation: it tunes the imitated policy against the base preset, so the
    weights it returns are judged on fresh games (``train``'s final match) only.
    """
    scale = np.where(scale > 1e-12, scale, 1.0)
    x0 = np.asarray(theta, np.float64) * scale
    width = max(1.0, float(np.abs(x0).max()))
    lower, upper = x0 - 10 * width, x0 + 10 * width
    rng = np.random.default_rng(np.random.SeedSequence([int(seed), 20]))
    seen: list[tuple[float, np.ndarray]] = []

    def objective(xs: np.ndarray, gen: int) -> np.ndarray:
        values = np.empty(len(xs))
        for i, x in enumerate(xs):
            cand = x / scale
            m = match_tables(spec, learned_entry(spec, cand, base.params), base, games,
                             players, edition, seed, REFINE_FIRST_GAME + gen * games, threads)
            values[i] = m["score"]
            seen.append((m["score"], cand))
            if tick_refine is not None:
                tick_refine()
        return values

    rows: list[dict[str, Any]] = []

    def on_generation(entry: dict) -> None:
        rows.append({"generation": entry["generation"] + 1, "best": round(entry["best"], 4),
                     "median": round(entry["median"], 4), "sigma": round(entry["sigma"], 4)})
        log(f"refinement generation {entry['generation'] + 1}: best {entry['best']:.3f}, "
            f"median {entry['median']:.3f} of {popsize} candidates x {games} games")

    # A step of a tenth of a feature's standard deviation per unit of score: the fitted
    # weights are of order one in these units, so candidates stay near the imitated policy.
    mean, _ = cma_es(objective, x0, REFINE_SIGMA, generations, popsize, rng, lower, upper,
                     log=on_generation)
    best_seen = max(seen, key=lambda t: t[0])[1]
    finalists = [("start", np.asarray(theta, np.float64)), ("mean", mean / scale),
                 ("best candidate", best_seen)]
    scored = []
    for name, cand in finalists:
        m = match_tables(spec, learned_entry(spec, cand, base.params), base, eval_games,
                         players, edition, seed, EVAL_FIRST_GAME, threads)
        scored.append((m["score"], name, cand, m))
        log(f"refinement {name}: {describe_tables(m)} (evaluation games)")
    _, name, cand, m = max(scored, key=lambda t: t[0])
    rows.append({"chosen": name, **table_fields(m), "weights": [float(x) for x in cand]})
    return cand, rows


@dataclass
class RoundReport:
    """What one expert-iteration round measured."""

    round: int
    expert: str
    games: int
    decisions: int
    seconds: float
    agreement_learned: float
    agreement_base: float
    result: dict[str, Any]
    theta: list[float]
    shrinkage: float = 1.0

    def row(self) -> dict[str, Any]:
        return {"round": self.round, "expert": self.expert, "games": self.games,
                "decisions": self.decisions, "seconds": round(self.seconds, 1),
                "agreement_learned": round(self.agreement_learned, 4),
                "agreement_base": round(self.agreement_base, 4),
                **table_fields(self.result), "shrinkage": self.shrinkage,
                "weights": [float(x) for x in self.theta]}


@dataclass
class TrainResult:
    """The chosen weights, every round's report and the final measurement."""

    game: str
    base: str
    features: tuple[str, ...]
    theta: np.ndarray
    base_params: np.ndarray
    best_round: int
    rounds: list[RoundReport]
    final: dict[str, Any]
    cost: dict[str, float]
    settings: dict[str, Any] = field(default_factory=dict)
    refinement: list[dict[str, Any]] = field(default_factory=list)


def train(spec: GameSpec, *, seed: int = 1, rounds: int = 3, games: int = 200,
          eval_games: int = 2000, final_games: int = 4000, players: tuple[int, ...] = (2,),
          edition: str | None = None, expert: str | None = None, l2: float = 1e-3,
          threads: int = 1, cost_games: int = 200, refine_generations: int = 0,
          refine_popsize: int = 12, refine_games: int = 400,
          log: Callable[[str], None] = lambda s: None,
          progress: Callable[[int, str], Callable[[], None]] | None = None) -> TrainResult:
    """Expert iteration for ``spec``'s learned policy (see the module docstring).

    ``progress(total, what)`` (optional) returns a callable ticked once per collected game
    (and, in a second bar, once per refinement candidate). ``refine_generations`` > 0 adds
    the refinement of :func:`refine` after the rounds.
    """
    lp = learned_policy_of(spec)
    if not (isinstance(l2, (int, float)) and math.isfinite(l2) and l2 >= 0):
        raise UserError(f"l2 {l2!r} is not allowed; expected a finite number >= 0 (the penalty "
                        "on the standardised weights)")
    ed = spec.editions[spec.edition_index(edition if edition is not None
                                          else spec.default_edition)]
    players = tuple(int(n) for n in players)
    for n in players:
        spec.check_players(n, ed)
    rules = spec.rules_code(ed)
    base_strategy, base_params = spec.strategies.parse(lp.base)
    base = Entry(lp.base, base_strategy.strategy_id, np.asarray(base_params, np.float64))
    expert_text = expert if expert is not None else lp.expert
    expert_strategy, expert_params0 = spec.strategies.parse(expert_text)
    expert_params0 = np.asarray(expert_params0, np.float64)
    d = lp.n_features
    identity = np.zeros(d)
    identity[0] = 1.0
    feature_params = learned_params(spec, identity, base.params)
    tick = progress(rounds * games, "expert games") if progress is not None else (lambda: None)
    eval_n = eval_games
    pooled: list[Decisions] = []
    reports: list[RoundReport] = []
    best: tuple[float, int, np.ndarray] | None = None
    theta = identity.copy()
    for r in range(1, rounds + 1):
        if r == 1 or lp.expert_with_rollout is None:
            params = expert_params0
            label = expert_text
        else:
            params = np.asarray(lp.expert_with_rollout(
                expert_params0, learned_params(spec, theta, base.params)), np.float64)
            label = f"{expert_text} with learned rollouts (round {r - 1} weights)"
        expert_entry = Entry(label, expert_strategy.strategy_id, params)
        first = (r - 1) * games
        ids = np.arange(first, first + games, dtype=np.int64)
        t0 = time.perf_counter()
        data = collect_decisions(spec, expert_entry, base, feature_params, ids, players, ed,
                                 seed, threads, tick)
        seconds = time.perf_counter() - t0
        pooled.append(data)
        every = Decisions.concat(pooled)
        # Held out: the last fifth of every round's games.
        cut = np.zeros(every.n, bool)
        for k in range(1, r + 1):
            lo = (k - 1) * games + games - max(1, games // 5)
            cut |= (every.game >= lo) & (every.game < k * games)
        train_data, held = every.subset(~cut), every.subset(cut)
        theta_fit, _ = fit_conditional_logit(train_data if train_data.n else every, l2)
        theta_all, fit = fit_conditional_logit(every, l2, start=theta_fit)
        # The fit's correction of the base value, in full or in part: the evaluation games
        # pick the share that plays best (all of it rarely does when the features cannot
        # say everything the expert sees).
        tried = []
        for alpha in SHRINKAGE:
            cand = shrink(theta_all, alpha)
            tried.append((match_tables(spec, learned_entry(spec, cand, base.params), base,
                                       eval_n, players, rules, seed, EVAL_FIRST_GAME, threads),
                          alpha, cand))
        result, alpha, theta_round = max(tried, key=lambda t: t[0]["score"])
        rep = RoundReport(r, label, games, data.n, seconds, agreement(held, theta_fit),
                          agreement(held, identity), result, list(theta_round), alpha)
        reports.append(rep)
        log(f"round {r}: {data.n:,} expert decisions in {games} games ({seconds:.0f} s); "
            f"held-out agreement with the expert {rep.agreement_learned:.3f} (base "
            f"{rep.agreement_base:.3f}); learned vs {lp.base}: {describe_tables(result)} with "
            f"{alpha:g} of the fitted correction (share over parity "
            + ", ".join(f"{a:g}: {t['score']:.3f}" for t, a, _ in tried)
            + f"; fit: {fit['iterations']} iterations)")
        if best is not None and result["score"] <= best[0]:
            log(f"round {r} did not beat round {best[1]} (share over parity {best[0]:.3f}): "
                "stopping")
            break
        best = (result["score"], r, theta_round)
        theta = theta_round
    assert best is not None
    theta = best[2]
    refinement: list[dict[str, Any]] = []
    if refine_generations > 0:
        scale = Decisions.concat(pooled).feats.std(axis=0)
        theta, refinement = refine(spec, theta, base, scale, refine_generations, refine_popsize,
                                   refine_games, players, rules, seed, eval_n, threads, log,
                                   tick_refine=progress(refine_generations * refine_popsize,
                                                        "refinement candidates")
                                   if progress is not None else None)
    chosen = learned_entry(spec, theta, base.params)
    final = match_tables(spec, chosen, base, final_games, players, rules, seed,
                         FINAL_FIRST_GAME, threads)
    cost = {"learned": cost_per_game(spec, chosen, cost_games, players[0], rules, seed),
            "base": cost_per_game(spec, base, cost_games, players[0], rules, seed)}
    refined = bool(refinement) and refinement[-1].get("chosen") != "start"
    what = f"round {best[1]} weights" + (", refined" if refined else "")
    log(f"final ({what}, fresh games): learned vs {lp.base} {describe_tables(final)}; CPU "
        f"per {players[0]}-player game: learned {cost['learned'] * 1e3:.3f} ms, {lp.base} "
        f"{cost['base'] * 1e3:.3f} ms ({cost['learned'] / cost['base']:.2f} x)")
    settings = {"seed": seed, "rounds": rounds, "games": games, "eval_games": eval_n,
                "final_games": final_games, "players": list(players), "edition": ed,
                "expert": expert_text, "l2": l2, "threads": threads,
                "refine_generations": refine_generations, "refine_popsize": refine_popsize,
                "refine_games": refine_games}
    return TrainResult(spec.name, lp.base, lp.feature_names, theta, base.params, best[1],
                       reports, final, cost, settings, refinement)
