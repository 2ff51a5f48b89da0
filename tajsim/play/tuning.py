"""Tuning a parametric strategy's weights against a field of strategies (``tajsim tune``), for
any game that declares a :class:`~tajsim.engine.game_options.TuningSpace`.

* **Objective.** A candidate weight vector sits in one seat of a 4-player (configurable) table;
  the other seats are filled from the *field* (a list of registered strategies, cycled). The
  candidate's seat rotates through every seat. The objective is its win share (a tied win is
  shared) plus a small tie-break on the score margin to the best opponent
  (``margin_weight`` x points). Within a generation every candidate plays the *same* games
  (common random numbers: same game seeds and field, only the candidate differs), so
  differences between candidates are not drowned by deal luck; each generation draws new games.
* **Optimiser.** CMA-ES from pycma (``cma.CMAEvolutionStrategy``, Hansen's reference
  implementation: ask/tell, box bounds by its ``BoundTransform``, its default population
  settings and step-size adaptation) over the weights, in units of ``STEP``; its normal draws
  come from a numpy Generator seeded from the user's seed, so a run is reproducible. Or scipy's
  differential evolution (``method="de"``) with the same objective on fixed games.
* **Held-out evaluation.** The best candidate (the final CMA-ES mean, or DE's best) plays the
  preset it started from head to head (2 seats each, seats rotated) on game ids never used
  during the search; the result, with a Wilson 95% interval, is reported and written next to
  the weights.
* **Shipping.** ``write_preset`` stores the weights as ``[presets.tuned]`` in ``presets.toml``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path

import cma
import numpy as np
from statsmodels.stats.proportion import proportion_confint

from tajsim.engine.choice import GENERIC_SLOTS
from tajsim.engine.game_options import TuningSpace
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.play.arena import (
    Entry,
    entry,
    game_shares,
    play_lineups,
    rotated_lineups,
    weights_entry,
)
from tajsim.strategies.spec import StrategySpec

# Game ids: search games count up from 0, held-out games from this offset.
HELDOUT_OFFSET = 1 << 40

# Seeds are derived from the user's seed per purpose, so search and held-out never share games.
SEARCH_SALT = 0x7E57
HELDOUT_SALT = 0x4E1D


@dataclass
class TuneResult:
    """Outcome of :func:`tune`."""

    game: str
    start: str
    field: list[str]
    names: tuple[str, ...]
    weights: np.ndarray
    start_weights: np.ndarray
    history: list[dict] = dataclass_field(default_factory=list)
    heldout: dict = dataclass_field(default_factory=dict)
    seconds: float = 0.0
    settings: dict = dataclass_field(default_factory=dict)

    def weights_dict(self) -> dict[str, float]:
        return {k: round(float(v), 4) for k, v in zip(self.names, self.weights)}


# ---------------------------------------------------------------------------
# Objective
# ---------------------------------------------------------------------------
def field_lineups(n_players: int, n_field: int, n_games: int) -> np.ndarray:
    """int64[n_games, n_players]: entry 0 (the candidate) rotates through the seats; the other
    seats take field entries 1..n_field in turn."""
    lineups = np.zeros((n_games, n_players), np.int64)
    for g in range(n_games):
        seat = g % n_players
        k = 0
        for s in range(n_players):
            if s == seat:
                lineups[g, s] = 0
            else:
                lineups[g, s] = 1 + (g // n_players + k) % n_field
                k += 1
    return lineups


def evaluate_weights(
    spec: GameSpec,
    weights: np.ndarray,
    field_entries: Sequence[Entry],
    n_games: int,
    seed: int,
    *,
    n_players: int | None = None,
    edition: int = 0,
    first_game: int = 0,
    margin_weight: float = 0.002,
    threads: int = 1,
    strategy_id: int | None = None,
    generic: np.ndarray | None = None,
) -> tuple[float, float]:
    """(objective, win share per game) of ``weights`` in one seat against ``field_entries``
    (``n_players`` None: the game's default table). ``strategy_id``: the tuned family (None:
    the game's tuning space's); ``generic``: float64[2], the candidate's temperature and
    restriction mask (the parameter vector's last slots; None: 0 and 0)."""
    sid = _space(spec).strategy_id if strategy_id is None else strategy_id
    n_players = spec.default_player_count() if n_players is None else n_players
    cand = _candidate(spec, "candidate", sid, weights, generic)
    entries = [cand, *field_entries]
    lineups = field_lineups(n_players, len(field_entries), n_games)
    results, _ = play_lineups(spec, entries, lineups, seed, edition=edition,
                              first_game=first_game, threads=threads)
    share = game_shares(results, lineups, 0)
    score = results["score"].reshape(n_games, n_players).astype(np.float64)
    mine = (score * (lineups == 0)).sum(axis=1)
    others = np.where(lineups == 0, -np.inf, score).max(axis=1)
    win = float(share.mean())
    return win + margin_weight * float((mine - others).mean()), win


# ---------------------------------------------------------------------------
# CMA-ES (pycma)
# ---------------------------------------------------------------------------
def cma_options(popsize: int, rng: np.random.Generator, lower: np.ndarray,
                upper: np.ndarray) -> dict:
    """pycma options for :func:`cma_es`: the box, the population, normal draws from ``rng``
    (pycma then leaves numpy's global generator alone: ``seed`` NaN), no console output or
    files, and none of pycma's stopping rules (the generations are the budget; a noisy
    objective can look flat, which would otherwise stop it early)."""
    return {
        "bounds": [np.asarray(lower, np.float64).tolist(), np.asarray(upper, np.float64).tolist()],
        "popsize": max(4, int(popsize)),
        "randn": lambda *shape: rng.standard_normal(shape),
        "seed": np.nan,
        "verbose": -9,
        "verb_disp": 0,
        "verb_log": 0,
        "maxiter": np.inf,
        "tolfun": 0,
        "tolfunhist": 0,
        "tolflatfitness": np.inf,
        "tolx": 0,
        "tolstagnation": np.inf,
    }


def cma_es(
    objective: Callable[[np.ndarray, int], np.ndarray],
    x0: np.ndarray,
    sigma0: float,
    generations: int,
    popsize: int,
    rng: np.random.Generator,
    lower: np.ndarray,
    upper: np.ndarray,
    log: Callable[[dict], None] | None = None,
) -> tuple[np.ndarray, list[dict]]:
    """Maximise ``objective(X, generation) -> values`` (X: popsize x dim, inside the box) with
    pycma's ``CMAEvolutionStrategy`` for ``generations`` ask/tell rounds; returns the final mean
    (pycma's ``result.xfavorite``, inside the box) and the history.

    Every candidate of a generation is evaluated in one call with the generation's number, so
    the objective can give them the same games (common random numbers)."""
    x0 = np.clip(np.asarray(x0, np.float64), lower, upper)
    es = cma.CMAEvolutionStrategy(x0, float(sigma0), cma_options(popsize, rng, lower, upper))
    history = []
    for gen in range(generations):
        candidates = es.ask()
        values = np.asarray(objective(np.array(candidates), gen), np.float64)
        es.tell(candidates, (-values).tolist())  # pycma minimises
        entry_ = {
            "generation": gen,
            "best": float(values.max()),
            "median": float(np.median(values)),
            "sigma": float(es.sigma),
            "mean": np.array(es.result.xfavorite, np.float64),
        }
        history.append(entry_)
        if log is not None:
            log(entry_)
    return np.array(es.result.xfavorite, np.float64), history


# ---------------------------------------------------------------------------
# The tuning run
# ---------------------------------------------------------------------------
def _derive(seed: int, salt: int) -> int:
    return int(np.random.SeedSequence([int(seed), salt]).generate_state(1, np.uint64)[0] >> 1)


def _candidate(spec: GameSpec, label: str, strategy_id: int, weights: np.ndarray,
               generic: np.ndarray | None) -> Entry:
    """The entry of tuned ``weights``, with the generic slots ``generic`` (temperature,
    restriction mask) when given: a restricted seat is tuned and evaluated restricted."""
    out = weights_entry(spec, label, strategy_id, weights)
    if generic is not None:
        out.params[spec.n_params - GENERIC_SLOTS:] = np.asarray(generic, np.float64)
    return out


def tuning_space(spec: GameSpec, strategy: StrategySpec | None = None) -> TuningSpace:
    """The space ``tune`` searches: the game's declared one, or, for a game that declares none,
    one derived from the start ``strategy``'s own weights (every user parameter of a strategy
    with ``generic_options``): each weight ``w`` steps by ``max(0.25 |w|, 0.1)`` within 4
    steps of its start (clipped to its declared range). The derived space tunes and evaluates
    but ships nothing (``write_preset`` needs a declared presets file)."""
    if spec.tuning is not None or strategy is None:
        return _space(spec)
    names = strategy.user_param_names()
    if not names or not getattr(strategy, "generic_options", False):
        raise UserError(f"{spec.title} declares no tuning space and {strategy.name!r} has no "
                        "weights to tune; expected a heuristic preset such as balanced")
    start = strategy.param_vector()[:len(names)]
    step = np.maximum(0.25 * np.abs(start), 0.1)
    lows = np.array([strategy.param_ranges[strategy.param_names.index(n)].low for n in names])
    highs = np.array([strategy.param_ranges[strategy.param_names.index(n)].high for n in names])
    lower = np.maximum(start - 4 * step, lows)
    upper = np.minimum(start + 4 * step, highs)

    def no_presets() -> Path:
        raise UserError(f"{spec.title} declares no presets file to write tuned weights to; "
                        "expected a game with a tuning space (tajsim tune --game tajmahal)")

    return TuningSpace(strategy_id=strategy.strategy_id, names=tuple(names),
                       lower=tuple(lower), upper=tuple(upper), step=tuple(step),
                       presets_path=no_presets, check_presets=lambda _path: None,
                       reload=lambda: None, start=strategy.name)


def _space(spec: GameSpec) -> TuningSpace:
    if spec.tuning is None:
        raise UserError(f"{spec.title} declares no tuning space; expected a game whose spec has "
                        "one (tajsim tune --game GAME)")
    return spec.tuning


def tuned_family(spec: GameSpec) -> list[StrategySpec]:
    """The registered presets of the game's tuned family (``spec.tuning.strategy_id``)."""
    space = _space(spec)
    return [s for s in spec.strategies.all() if s.strategy_id == space.strategy_id]


def default_start(spec: GameSpec) -> str:
    """The preset tuning starts from: the game's declared ``TuningSpace.start``, else its
    family's first preset."""
    start = _space(spec).start
    if start:
        return start
    family = tuned_family(spec)
    if not family:
        raise UserError(f"{spec.title}'s tuned family has no registered preset; expected "
                        "a start preset (--start NAME)")
    return family[0].name


def default_field(spec: GameSpec, start: str) -> tuple[str, ...]:
    """The opponents tuning plays against: the game's declared ``TuningSpace.field``, else its
    family's other presets."""
    return tuple(_space(spec).field) or tuple(
        s.name for s in tuned_family(spec) if s.name != start)


def tune(
    start: str | None = None,
    field_names: Sequence[str] | None = None,
    *,
    game: str | GameSpec | None = None,
    n_players: int | None = None,
    edition: int = 0,
    generations: int = 20,
    popsize: int = 12,
    games: int = 240,
    heldout_games: int = 4000,
    seed: int = 1,
    sigma0: float = 1.0,
    method: str = "cmaes",
    margin_weight: float = 0.002,
    threads: int = 1,
    log: Callable[[str], None] | None = None,
    forbid: str | None = None,
) -> TuneResult:
    """Tune the heuristic's weights starting from ``start`` against ``field_names`` (None: the
    game's own, :func:`default_start` / :func:`default_field`).

    ``start`` is a preset or a strategy text (``"balanced:temperature=1"``): its weights are the
    start, its temperature and restriction are kept by every candidate. ``forbid`` (restriction
    families joined by ``+``; or ``forbid=`` in ``start``) tunes a restricted seat: every
    candidate, and the held-out evaluation's tuned and start seats, play under the restriction
    (the best response of a restricted seat, issue 39 s2). A game without a declared tuning
    space tunes in the space :func:`tuning_space` derives from the start.

    Search games per candidate: ``games`` (a multiple of ``n_players`` is best); total search
    games about ``generations * popsize * games``. See the module docstring.
    """
    t0 = time.time()
    game_spec = get_game(game)
    n_players = game_spec.default_player_count() if n_players is None else n_players
    if start is None:
        start = default_start(game_spec)
    spec, start_params = game_spec.strategies.parse(start)
    space = tuning_space(game_spec, spec)
    start_name = spec.name
    field_names = default_field(game_spec, start_name) if field_names is None else field_names
    n_weights = len(space.names)
    LOWER, UPPER = np.asarray(space.lower, np.float64), np.asarray(space.upper, np.float64)
    if spec.strategy_id != space.strategy_id:
        raise UserError(f"tune needs a preset of the tuned family to start from; {start!r} is "
                        "not one")
    if not field_names:
        raise UserError("tune needs a non-empty field of opponents")
    generic = None
    if getattr(spec, "generic_options", False):
        generic = np.array(start_params[game_spec.n_params - GENERIC_SLOTS:], np.float64)
        if forbid is not None:
            generic[-1] = spec.forbid_mask(forbid, " (tune --forbid)")
        if not generic.any():
            generic = None  # as before the generic options: records of plain tuning unchanged
    elif forbid is not None:
        raise UserError(f"strategy {spec.name!r} takes no restriction; expected a strategy "
                        "with the generic options (forbid=)")
    start_weights = np.array(start_params[:n_weights], np.float64)
    field_entries = [entry(game_spec, name) for name in field_names]
    search_seed = _derive(seed, SEARCH_SALT)
    say = log or (lambda _msg: None)
    scale = np.asarray(space.step, np.float64)
    x0 = np.zeros(n_weights)
    lower = (LOWER - start_weights) / scale
    upper = (UPPER - start_weights) / scale
    lower = np.minimum(lower, 0.0)
    upper = np.maximum(upper, 0.0)

    def to_weights(x: np.ndarray) -> np.ndarray:
        return start_weights + scale * x

    def objective(X: np.ndarray, gen: int) -> np.ndarray:
        first = gen * games
        out = np.empty(len(X))
        for i, x in enumerate(X):
            out[i], _ = evaluate_weights(
                game_spec, to_weights(x), field_entries, games, search_seed, n_players=n_players,
                edition=edition, first_game=first, margin_weight=margin_weight,
                threads=threads, strategy_id=space.strategy_id, generic=generic,
            )
        return out

    if method == "cmaes":
        rng = np.random.default_rng(_derive(seed, 0xC4A))

        def report(h: dict) -> None:
            say(f"generation {h['generation'] + 1}/{generations}: best {h['best']:.3f} "
                f"median {h['median']:.3f} sigma {h['sigma']:.3f}")

        x_best, history = cma_es(objective, x0, sigma0, generations, popsize, rng, lower, upper,
                                 report)
    elif method == "de":
        from scipy.optimize import differential_evolution

        history = []

        def neg(x: np.ndarray) -> float:
            val, _ = evaluate_weights(game_spec, to_weights(x), field_entries, games, search_seed,
                                      n_players=n_players, edition=edition,
                                      margin_weight=margin_weight, threads=threads,
                                      strategy_id=space.strategy_id, generic=generic)
            return -val

        def callback(xk, convergence=0.0):  # noqa: ARG001 - scipy's signature
            history.append({"generation": len(history), "mean": np.array(xk)})
            say(f"generation {len(history)}/{generations}")

        res = differential_evolution(
            neg, list(zip(lower, upper)), maxiter=generations,
            popsize=max(1, popsize // n_weights), seed=_derive(seed, 0xDE), polish=False,
            init="latinhypercube", callback=callback, x0=x0, tol=0.0,
        )
        x_best = res.x
    else:
        raise UserError(f"unknown tuning method {method!r}; expected one of: cmaes, de")
    weights = np.clip(to_weights(x_best), LOWER, UPPER)
    result = TuneResult(game=game_spec.name, start=start_name, field=list(field_names),
                        names=space.names, weights=weights, start_weights=start_weights,
                        history=history)
    result.settings = dict(n_players=n_players, edition=edition, generations=generations,
                           popsize=popsize, games=games, heldout_games=heldout_games, seed=seed,
                           method=method, margin_weight=margin_weight)
    if generic is not None:
        result.settings.update(start_text=str(start), temperature=float(generic[0]),
                               forbid_mask=int(generic[1]))
    say("held-out evaluation ...")
    result.heldout = heldout_evaluation(game_spec, weights, start_weights, start_name,
                                        field_entries, heldout_games,
                                        _derive(seed, HELDOUT_SALT), n_players=n_players,
                                        edition=edition, threads=threads,
                                        strategy_id=space.strategy_id, generic=generic)
    result.seconds = time.time() - t0
    return result


def heldout_evaluation(spec: GameSpec, weights, start_weights, start_name, field_entries,
                       n_games, seed, *, n_players=None, edition=0, threads=1,
                       strategy_id=None, generic=None) -> dict:
    """Fresh games: tuned vs its start head to head (half the seats each, rotated) and both
    against the field (one seat each, same games). ``strategy_id`` and ``generic`` as in
    :func:`evaluate_weights` (a restricted tuning evaluates both seats restricted)."""
    sid = _space(spec).strategy_id if strategy_id is None else strategy_id
    n_players = spec.default_player_count() if n_players is None else n_players
    n_games = max(n_players, n_games - n_games % n_players)
    tuned = _candidate(spec, "tuned", sid, weights, generic)
    base = _candidate(spec, start_name, sid, start_weights, generic)
    pattern = [0, 1] * (n_players // 2) + ([0] if n_players % 2 else [])
    lineups = rotated_lineups(pattern, n_games)
    if n_players % 2:  # odd tables: alternate which side has the extra seat
        lineups[1::2] = 1 - lineups[1::2]
    results, _ = play_lineups(spec, [tuned, base], lineups, seed, edition=edition,
                              first_game=HELDOUT_OFFSET, threads=threads)
    share = game_shares(results, lineups, 0)
    seats0 = (lineups == 0).sum(axis=1)
    fair = seats0 / n_players  # parity share of each game
    wins = float(share.sum())
    lo, hi = proportion_confint(wins, n_games, alpha=0.05, method="wilson")
    out = {
        "games": int(n_games),
        "head_to_head_share": wins / n_games,
        "head_to_head_ci": (float(lo), float(hi)),
        "parity": float(fair.mean()),
    }
    f_tuned, w_tuned = evaluate_weights(spec, weights, field_entries, n_games, seed,
                                        n_players=n_players, edition=edition,
                                        first_game=HELDOUT_OFFSET + n_games, threads=threads,
                                        strategy_id=sid, generic=generic)
    f_base, w_base = evaluate_weights(spec, start_weights, field_entries, n_games, seed,
                                      n_players=n_players, edition=edition,
                                      first_game=HELDOUT_OFFSET + n_games, threads=threads,
                                      strategy_id=sid, generic=generic)
    out["field_win_tuned"] = w_tuned
    out["field_win_start"] = w_base
    out["field_games"] = int(n_games)
    return out


# ---------------------------------------------------------------------------
# Writing the preset
# ---------------------------------------------------------------------------
def write_preset(result: TuneResult, name: str = "tuned", path: str | Path | None = None) -> Path:
    """Store ``result.weights`` as ``[presets.<name>]`` in the presets file ``path`` (default:
    the game's own); other presets and the file's header comment are kept. A missing file is
    created as a copy of the game's presets file (a presets file needs its base preset)."""
    space = _space(get_game(result.game))
    file = Path(path) if path is not None else space.presets_path()
    source = file if file.exists() else space.presets_path()
    text = source.read_text()
    space.check_presets(source)  # the file must be valid before we touch it
    block = _preset_block(result, name)
    header = f"[presets.{name}]"
    lines = text.splitlines()
    out: list[str] = []
    skipping = False
    for line in lines:
        stripped = line.strip()
        if stripped == header:
            skipping = True
            continue
        if skipping and stripped.startswith("["):
            skipping = False
        if not skipping:
            out.append(line)
    while out and not out[-1].strip():
        out.pop()
    new_text = "\n".join(out) + "\n\n" + block
    file.write_text(new_text)
    space.check_presets(file)  # and valid afterwards
    return file


def _preset_block(result: TuneResult, name: str) -> str:
    h = result.heldout
    desc = (f"tuned by CMA-ES from {result.start} against "
            f"{'+'.join(result.field)}")
    lines = [f"[presets.{name}]", f'description = "{desc}"']
    if h:
        lo, hi = h["head_to_head_ci"]
        lines.append(
            f'source = "tajsim tune: seed {result.settings.get("seed")}, '
            f'{result.settings.get("generations")} generations x '
            f'{result.settings.get("popsize")} candidates x {result.settings.get("games")} '
            f'games; held out: {h["head_to_head_share"]:.3f} [{lo:.3f}, {hi:.3f}] of wins vs '
            f'{result.start} head to head over {h["games"]} games (parity {h["parity"]:.2f})"'
        )
    for k, v in result.weights_dict().items():
        lines.append(f"{k} = {v}")
    return "\n".join(lines) + "\n"
