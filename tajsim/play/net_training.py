"""Expert iteration for a game's ``net`` strategy (Anthony, Tian and Barber, NeurIPS 2017), the
network fitted in NumPy.

A round of :func:`train_net`:

1. **Collect.** Play ``games`` games (2 players by default). Round 1: the expert (the game's
   search, ``NetAgent.expert``) in every seat. Later rounds (DAgger, Ross et al. 2011): the
   current network plays one seat (rotated by the game index) and the expert the others, and
   the expert labels every decision, the network's too: the network learns what the search
   would do where the network's own play leads. At each decision with more than one legal
   action store the network's inputs, its candidates' features, which candidate the expert
   chose (none: the expert left the candidates, counted) and, once the game ends, whether the
   mover won (the value head's target).
2. **Fit.** Minimise the cross-entropy of the expert's choice under the softmax of the
   candidates' scores plus ``value_weight`` x the squared error of the value head, with an L2
   penalty, by Adam on minibatches over every round's data; the inputs are scaled by the first
   round's largest magnitudes (folded into ``W1`` when the weights are written).
3. **Measure.** The expert's agreement on the new round's decisions *before* fitting them (a
   held-out measure) and, with ``eval_games``, the network against the base preset head to
   head (Wilson 95% interval).
4. **Blend** (after the last round, with ``eval_games``). The policy head is blended with the
   game's anchor (``learned``'s linear weights: the network's theta with ``U = 0``) at each
   share of ``SHRINKAGE`` and played against the base preset on other evaluation games; the
   weights keep the share that wins most (``learned`` shrinks its own fit the same way). With
   ``resume`` on a finished checkpoint only this step runs again.

Everything is a pure function of the seed and the settings: the games of round r are game ids
``r * ROUND_STRIDE + g`` of the master seed, the minibatch order of round r comes from
``default_rng([seed, r])``, and the worker processes split the games in order and join them in
order, so any ``workers`` gives the same weights. After each round a checkpoint (the weights,
Adam's moments, the data, the history) lets ``resume`` continue exactly where a run stopped.

Why NumPy and not PyTorch: the network is one hidden layer of 32 units over 522 sparse inputs
and the fit takes seconds against minutes of search games, so a few hundred lines of NumPy with
Adam cost nothing in speed, add no dependency to the install or to CI (a CPU PyTorch wheel is
about 200 MB), and give the same weights on every machine for a seed (float64, fixed order).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.engine.net_agent import NetAgent
from tajsim.engine.net_weights import NetWeights
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.play.arena import Entry
from tajsim.play.learning import match

__all__ = ["NetData", "NetTrainConfig", "agreement", "collect_net_decisions", "fit_net",
           "load_checkpoint", "net_agent_of", "train_net"]

#: Game ids of round r start at r * ROUND_STRIDE; the evaluation games at EVAL_FIRST_GAME.
ROUND_STRIDE = 1_000_000
EVAL_FIRST_GAME = 60_000_000
#: The shares of the network's part of the scores the final weights try (module doc, step 4).
SHRINKAGE = (0.0, 0.25, 0.5, 1.0)


def net_agent_of(spec: GameSpec) -> NetAgent:
    """The game's :class:`NetAgent`, or a one-line ``UserError``."""
    if spec.net is None:
        raise UserError(f"{spec.title} has no net strategy; expected a game whose spec "
                        "declares one (GameSpec.net): maharani")
    return spec.net


@dataclass
class NetData:
    """Decisions for the fit. ``x`` int16[n, n_inputs]; ``phi`` int32[n, max_candidates,
    n_features] (thousandths; rows past ``n_cand`` zero); ``n_cand`` int8[n]; ``target``
    int8[n], the expert's candidate (-1: not a candidate); ``won`` float32[n], the mover's
    result (1 a win, 0 a loss); ``round`` int16[n]."""

    x: np.ndarray
    phi: np.ndarray
    n_cand: np.ndarray
    target: np.ndarray
    won: np.ndarray
    round: np.ndarray

    @property
    def n(self) -> int:
        return int(self.target.shape[0])

    @staticmethod
    def concat(parts: list[NetData]) -> NetData:
        return NetData(*(np.concatenate([getattr(p, f) for p in parts])
                         for f in ("x", "phi", "n_cand", "target", "won", "round")))

    def arrays(self, prefix: str = "data_") -> dict[str, np.ndarray]:
        return {prefix + f: getattr(self, f) for f in
                ("x", "phi", "n_cand", "target", "won", "round")}


@dataclass(frozen=True)
class NetTrainConfig:
    """The settings of a run (all of them decide the weights, ``workers`` excepted)."""

    seed: int = 1
    rounds: int = 3
    games: int = 40
    players: tuple[int, ...] = (2,)
    edition: str = ""
    expert: str = ""
    hidden: int = 32
    epochs: int = 20
    batch: int = 256
    lr: float = 3e-3
    l2: float = 1e-4
    value_weight: float = 0.5
    eval_games: int = 0
    workers: int = 1

    def key(self) -> dict[str, Any]:
        """What a checkpoint must match to be resumed (everything but workers and rounds)."""
        d = {k: v for k, v in self.__dict__.items() if k not in ("workers", "rounds")}
        d["players"] = list(self.players)
        return d


# ---------------------------------------------------------------------------------------------
# Collection
# ---------------------------------------------------------------------------------------------
def _play_games(spec: GameSpec, cfg: NetTrainConfig, rnd: int, game_ids: list[int],
                net_params: np.ndarray | None) -> NetData:
    """Round ``rnd``'s games ``game_ids`` (module doc, step 1)."""
    agent = net_agent_of(spec)
    k = spec.kernels
    expert_spec, expert_params = spec.strategies.parse(cfg.expert or agent.expert)
    base_params = agent.params_of(0)
    net_sid = agent.strategy_id
    ids = [expert_spec.strategy_id] + ([net_sid] if net_params is not None else [])
    rows = [expert_params] + ([net_params] if net_params is not None else [])
    switches = spec.strategies.kernel_switches(ids, rows)
    legal = np.empty(spec.n_actions, np.int64)
    x = np.empty(agent.n_inputs, np.int64)
    phi = np.zeros((agent.max_candidates, agent.n_features), np.int64)
    cand = np.empty(agent.max_candidates, np.int64)
    xs: list[np.ndarray] = []
    phis: list[np.ndarray] = []
    ncs: list[int] = []
    targets: list[int] = []
    won: list[float] = []
    movers: list[int] = []
    ed = spec.editions.index(cfg.edition) if cfg.edition else 0
    for g in game_ids:
        n_players = cfg.players[g % len(cfg.players)]
        game = spec.game_class(n_players, spec.editions[ed], cfg.seed, g, g)
        state, comp, prng = game.state, game.comp, game.prng
        net_seat = (g // len(cfg.players)) % n_players if net_params is not None else -1
        first = len(movers)
        while (p := spec.current_player(state)) >= 0:
            n = k.legal_actions(state, comp, legal)
            if n == 1:
                k.apply_action(state, comp, legal[0])
                continue
            phi[:] = 0
            n_cand = agent.features(state, comp, p, base_params, legal, n, x, phi, cand)
            label = int(k.choose_action(expert_spec.strategy_id, state, comp, p, expert_params,
                                        prng, legal, n, *switches))
            where = np.flatnonzero(legal[cand[:n_cand]] == label)
            xs.append(x.astype(np.int16))
            phis.append(phi.astype(np.int32))
            ncs.append(n_cand)
            targets.append(int(where[0]) if len(where) else -1)
            movers.append(p)
            action = label
            if p == net_seat:
                action = int(k.choose_action(net_sid, state, comp, p, net_params, prng, legal,
                                             n, *switches))
            k.apply_action(state, comp, action)
        winners = agent.outcome(state, n_players)
        won.extend(float(winners[m]) for m in movers[first:])
    n_dec = len(targets)
    return NetData(
        x=np.array(xs, np.int16).reshape(n_dec, agent.n_inputs),
        phi=np.array(phis, np.int32).reshape(n_dec, agent.max_candidates, agent.n_features),
        n_cand=np.array(ncs, np.int8), target=np.array(targets, np.int8),
        won=np.array(won, np.float32), round=np.full(n_dec, rnd, np.int16))


_WORKER: dict[str, Any] = {}


def _worker_games(game_ids: list[int]) -> NetData:
    w = _WORKER
    return _play_games(w["spec"], w["cfg"], w["rnd"], game_ids, w["net_params"])


def collect_net_decisions(spec: GameSpec, cfg: NetTrainConfig, rnd: int,
                          net_params: np.ndarray | None,
                          tick: Callable[[int], None] = lambda _n: None) -> NetData:
    """Round ``rnd``'s decisions (``cfg.games`` games), the same for any ``cfg.workers``: the
    games are split in order into chunks, played in forked processes, joined in order."""
    game_ids = [rnd * ROUND_STRIDE + g for g in range(cfg.games)]
    chunk = max(1, min(8, math.ceil(cfg.games / max(1, cfg.workers))))
    chunks = [game_ids[i:i + chunk] for i in range(0, len(game_ids), chunk)]
    if cfg.workers <= 1 or len(chunks) == 1:
        parts = []
        for c in chunks:
            parts.append(_play_games(spec, cfg, rnd, c, net_params))
            tick(len(c))
        return NetData.concat(parts)
    _WORKER.update(spec=spec, cfg=cfg, rnd=rnd, net_params=net_params)
    ctx = multiprocessing.get_context("fork")  # the children inherit the loaded weights sets
    with ctx.Pool(cfg.workers) as pool:
        parts = []
        for part, c in zip(pool.imap(_worker_games, chunks), chunks, strict=True):
            parts.append(part)
            tick(len(c))
    return NetData.concat(parts)


# ---------------------------------------------------------------------------------------------
# The network in floating point
# ---------------------------------------------------------------------------------------------
PARAM_NAMES = ("W1", "b1", "theta0", "U", "wv", "bv")


def _forward(p: dict[str, np.ndarray], x: np.ndarray, phi: np.ndarray, mask: np.ndarray,
             prior: float) -> tuple[np.ndarray, ...]:
    """Scores (B, K) with -inf off the candidates, the value (B,), the hidden layer and its
    pre-activation. ``x`` float (B, D) scaled inputs; ``phi`` float (B, K, F) in gold."""
    pre = x @ p["W1"] + p["b1"]
    h = np.maximum(pre, 0.0)
    theta = p["theta0"] + h @ p["U"].T
    scores = prior * phi[:, :, 0] + np.einsum("bkf,bf->bk", phi, theta)
    scores = np.where(mask, scores, -np.inf)
    value = h @ p["wv"] + p["bv"][0]
    return scores, value, h, pre


def _loss_and_grads(p: dict[str, np.ndarray], x: np.ndarray, phi: np.ndarray, mask: np.ndarray,
                    target: np.ndarray, won: np.ndarray, prior: float, value_weight: float,
                    l2: float) -> tuple[float, dict[str, np.ndarray]]:
    scores, value, h, pre = _forward(p, x, phi, mask, prior)
    b = x.shape[0]
    has = target >= 0
    top = np.max(scores, axis=1, keepdims=True)
    e = np.where(mask, np.exp(scores - top), 0.0)
    prob = e / e.sum(axis=1, keepdims=True)
    n_pol = max(1, int(has.sum()))
    rows = np.flatnonzero(has)
    ce = -np.log(np.maximum(prob[rows, target[rows]], 1e-300)).sum() / n_pol
    dscores = prob.copy()
    dscores[rows, target[rows]] -= 1.0
    dscores[~has] = 0.0
    dscores /= n_pol
    err = value - won
    loss = ce + value_weight * float(np.mean(err ** 2))
    loss += l2 * (float(np.sum(p["W1"] ** 2)) + float(np.sum(p["U"] ** 2)))
    dvalue = 2.0 * value_weight * err / b
    dtheta = np.einsum("bk,bkf->bf", dscores, phi)
    g = {"theta0": dtheta.sum(axis=0), "U": dtheta.T @ h, "wv": h.T @ dvalue,
         "bv": np.array([dvalue.sum()])}
    dh = dtheta @ p["U"] + np.outer(dvalue, p["wv"])
    dpre = dh * (pre > 0)
    g["W1"] = x.T @ dpre + 2.0 * l2 * p["W1"]
    g["b1"] = dpre.sum(axis=0)
    g["U"] += 2.0 * l2 * p["U"]
    return loss, g


def _batch_arrays(data: NetData, idx: np.ndarray, scale: np.ndarray
                  ) -> tuple[np.ndarray, ...]:
    x = data.x[idx].astype(np.float64) / scale
    phi = data.phi[idx].astype(np.float64) / 1000.0
    k = data.phi.shape[1]
    mask = np.arange(k)[None, :] < data.n_cand[idx][:, None]
    return x, phi, mask, data.target[idx].astype(np.int64), data.won[idx].astype(np.float64)


@dataclass
class FitState:
    """The float network in training units (inputs divided by ``scale``) and Adam's state."""

    params: dict[str, np.ndarray]
    m: dict[str, np.ndarray]
    v: dict[str, np.ndarray]
    step: int
    scale: np.ndarray

    @staticmethod
    def fresh(agent: NetAgent, hidden: int, scale: np.ndarray, seed: int) -> FitState:
        rng = np.random.default_rng([seed, 0, 7])
        params = {
            "W1": rng.normal(0.0, math.sqrt(2.0 / 40.0), (agent.n_inputs, hidden)),
            "b1": np.full(hidden, 0.1),
            "theta0": np.zeros(agent.n_features),
            "U": rng.normal(0.0, 0.01, (agent.n_features, hidden)),
            "wv": np.zeros(hidden),
            "bv": np.array([0.5])}
        zeros = {n: np.zeros_like(a) for n, a in params.items()}
        return FitState(params, zeros, {n: np.zeros_like(a) for n, a in params.items()}, 0,
                        scale)


def fit_net(state: FitState, data: NetData, cfg: NetTrainConfig, rnd: int, prior: float
            ) -> list[float]:
    """``cfg.epochs`` epochs of Adam over ``data`` (in place); the mean loss of each epoch.
    The minibatch order comes from ``default_rng([cfg.seed, rnd])``."""
    rng = np.random.default_rng([cfg.seed, rnd])
    beta1, beta2, eps = 0.9, 0.999, 1e-8
    losses = []
    for _epoch in range(cfg.epochs):
        order = rng.permutation(data.n)
        total, batches = 0.0, 0
        for start in range(0, data.n, cfg.batch):
            idx = np.sort(order[start:start + cfg.batch])
            x, phi, mask, target, won = _batch_arrays(data, idx, state.scale)
            loss, grads = _loss_and_grads(state.params, x, phi, mask, target, won, prior,
                                          cfg.value_weight, cfg.l2)
            state.step += 1
            for name in PARAM_NAMES:
                gr = grads[name]
                state.m[name] = beta1 * state.m[name] + (1 - beta1) * gr
                state.v[name] = beta2 * state.v[name] + (1 - beta2) * gr * gr
                mhat = state.m[name] / (1 - beta1 ** state.step)
                vhat = state.v[name] / (1 - beta2 ** state.step)
                state.params[name] = state.params[name] - cfg.lr * mhat / (np.sqrt(vhat) + eps)
            total += loss
            batches += 1
        losses.append(total / max(1, batches))
    return losses


def export_weights(agent: NetAgent, state: FitState, meta: dict[str, Any]) -> Any:
    """The game's ``NetWeights`` of the fitted network (``W1`` for the raw inputs)."""
    p = state.params
    limit = 60.0  # below the files' weight limit (net_weights.MAX_ABS_WEIGHT)
    return NetWeights(
        W1=np.clip(p["W1"] / state.scale[:, None], -limit, limit), b1=np.clip(p["b1"], -limit,
                                                                                limit),
        theta0=np.clip(p["theta0"], -limit, limit), U=np.clip(p["U"], -limit, limit),
        wv=np.clip(p["wv"], -limit, limit), bv=np.clip(p["bv"], -limit, limit), meta=meta)


def agreement(state: FitState, data: NetData, prior: float) -> dict[str, float]:
    """On ``data``: the share of decisions whose expert choice the float network ranks first
    (of those where the expert chose a candidate), the base heuristic's share (candidate 0),
    the share where the expert left the candidates, and the value head's mean squared
    error."""
    has = data.target >= 0
    if data.n == 0:
        return {"agree": math.nan, "agree_base": math.nan, "outside": math.nan,
                "value_mse": math.nan}
    x, phi, mask, target, won = _batch_arrays(data, np.arange(data.n), state.scale)
    scores, value, _, _ = _forward(state.params, x, phi, mask, prior)
    first = np.argmax(scores, axis=1)
    return {"agree": float(np.mean(first[has] == target[has])) if has.any() else math.nan,
            "agree_base": float(np.mean(target[has] == 0)) if has.any() else math.nan,
            "outside": float(np.mean(~has)), "value_mse": float(np.mean((value - won) ** 2))}


# ---------------------------------------------------------------------------------------------
# Checkpoints and the loop
# ---------------------------------------------------------------------------------------------
def _cpu_seconds() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def save_checkpoint(path: Path, cfg: NetTrainConfig, rnd: int, state: FitState, data: NetData,
                    history: list[dict[str, Any]]) -> None:
    """Everything the next round needs (written to a temporary file, then renamed)."""
    arrays: dict[str, Any] = {}
    for name in PARAM_NAMES:
        arrays["p_" + name] = state.params[name]
        arrays["m_" + name] = state.m[name]
        arrays["v_" + name] = state.v[name]
    arrays.update(data.arrays())
    arrays["scale"] = state.scale
    info = {"config": cfg.key(), "round": rnd, "step": state.step, "history": history}
    tmp = path.with_name(path.name + ".tmp")
    arrays["info"] = np.array(json.dumps(info))
    with open(tmp, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    os.replace(tmp, path)


def load_checkpoint(path: Path, cfg: NetTrainConfig
                    ) -> tuple[int, FitState, NetData, list[dict[str, Any]]]:
    """(rounds done, fit state, data, history) of a checkpoint written with the same
    settings; anything else is a one-line ``UserError``."""
    try:
        with np.load(path, allow_pickle=False) as z:
            info = json.loads(str(z["info"]))
            arrays = {name: z[name] for name in z.files}
    except (OSError, ValueError, KeyError) as exc:
        raise UserError(f"cannot read checkpoint {str(path)!r} ({exc}); expected one written "
                        "by tajsim train --agent net --checkpoint") from None
    if info["config"] != json.loads(json.dumps(cfg.key())):
        diff = sorted(k for k in cfg.key() if info["config"].get(k) != cfg.key()[k])
        raise UserError(f"checkpoint {str(path)!r} was written with other settings "
                        f"({', '.join(diff)}); expected the same command (only --rounds and "
                        "--workers may differ)")
    state = FitState({n: arrays["p_" + n] for n in PARAM_NAMES},
                     {n: arrays["m_" + n] for n in PARAM_NAMES},
                     {n: arrays["v_" + n] for n in PARAM_NAMES}, int(info["step"]),
                     arrays["scale"])
    data = NetData(*(arrays["data_" + f] for f in
                     ("x", "phi", "n_cand", "target", "won", "round")))
    return int(info["round"]), state, data, list(info["history"])


@dataclass
class NetTrainResult:
    weights: Any
    history: list[dict[str, Any]] = field(default_factory=list)


def train_net(spec: GameSpec, cfg: NetTrainConfig, *, checkpoint: Path | None = None,
              resume: bool = False, log: Callable[[str], None] = print,
              stop_after: int | None = None) -> NetTrainResult:
    """Run the rounds (module doc); returns the last round's weights and every round's
    measures. With ``checkpoint`` each round is saved there; with ``resume`` a checkpoint of
    the same settings is continued. ``stop_after`` ends after that many rounds in total (the
    tests' interrupted run)."""
    agent = net_agent_of(spec)
    done: int = 0
    state: FitState | None = None
    data: NetData | None = None
    history: list[dict[str, Any]] = []
    if resume and checkpoint is not None and checkpoint.is_file():
        done, state, data, history = load_checkpoint(checkpoint, cfg)
        log(f"resumed {checkpoint} after round {done}")
    cpu0, wall0 = _cpu_seconds(), time.monotonic()
    spent_cpu = history[-1]["cpu_s"] if history else 0.0
    spent_wall = history[-1]["wall_s"] if history else 0.0
    net_params = None
    if state is not None:
        net_params = _remember(agent, state, {})
    last = cfg.rounds if stop_after is None else min(cfg.rounds, stop_after)
    for rnd in range(done + 1, last + 1):
        played = [0]

        def tick(n: int, rnd: int = rnd, played: list[int] = played) -> None:
            played[0] += n
            log(f"training: round {rnd}: {played[0]} of {cfg.games} games, "
                f"{time.monotonic() - wall0 + spent_wall:.0f} s")

        fresh = collect_net_decisions(spec, cfg, rnd, net_params, tick)
        if state is None:
            scale = np.maximum(1.0, np.abs(fresh.x.astype(np.float64)).max(axis=0))
            state = FitState.fresh(agent, cfg.hidden, scale, cfg.seed)
        before = agreement(state, fresh, agent.value_prior)
        data = fresh if data is None else NetData.concat([data, fresh])
        losses = fit_net(state, data, cfg, rnd, agent.value_prior)
        after = agreement(state, data, agent.value_prior)
        net_params = _remember(agent, state, {})
        row: dict[str, Any] = {
            "round": rnd, "decisions": fresh.n, "pooled": data.n,
            "heldout_agree": before["agree"], "heldout_agree_base": before["agree_base"],
            "heldout_value_mse": before["value_mse"], "outside": before["outside"],
            "train_agree": after["agree"], "train_value_mse": after["value_mse"],
            "loss_first": float(losses[0]), "loss_last": float(losses[-1])}
        if cfg.eval_games > 0:
            ed = spec.editions.index(cfg.edition) if cfg.edition else 0
            base_spec, base_params = spec.strategies.parse(agent.base)
            m = match(spec, Entry(agent.strategy, agent.strategy_id, net_params),
                      Entry(agent.base, base_spec.strategy_id, base_params), cfg.eval_games, 2,
                      ed, cfg.seed, EVAL_FIRST_GAME, threads=max(1, cfg.workers))
            row |= {"vs_base_share": m["share"], "vs_base_ci_low": m["ci_low"],
                    "vs_base_ci_high": m["ci_high"], "vs_base_games": m["games"]}
        row["cpu_s"] = spent_cpu + _cpu_seconds() - cpu0
        row["wall_s"] = spent_wall + time.monotonic() - wall0
        history.append(row)
        log(f"round {rnd}: {fresh.n} decisions ({data.n} pooled), held-out agreement "
            f"{before['agree']:.3f} (base {before['agree_base']:.3f}), value MSE "
            f"{before['value_mse']:.3f}; loss {losses[0]:.3f} -> {losses[-1]:.3f}"
            + (f"; against {agent.base} {row['vs_base_share']:.3f} "
               f"[{row['vs_base_ci_low']:.3f}, {row['vs_base_ci_high']:.3f}] of "
               f"{row['vs_base_games']} games" if "vs_base_share" in row else "")
            + f"; {row['cpu_s']:.0f} CPU s")
        if checkpoint is not None:
            save_checkpoint(checkpoint, cfg, rnd, state, data, history)
            # each round's weights beside it: the strength-against-training-time curve
            agent.weights.save_net_file(
                checkpoint.with_name(f"{checkpoint.stem}.round{rnd}.npz"),
                export_weights(agent, state, {"config": cfg.key(), "rounds": history,
                                              "train_cpu_s": row["cpu_s"]}))
    if state is None:
        raise UserError("no round was played; expected --rounds above the checkpoint's")
    meta: dict[str, Any] = {"config": cfg.key(), "rounds": history,
                            "train_cpu_s": history[-1]["cpu_s"] if history else 0.0}
    weights = export_weights(agent, state, meta)
    if cfg.eval_games > 0 and stop_after is None:
        weights = _shrunk(spec, cfg, weights, log)
    return NetTrainResult(weights, history)


def _shrunk(spec: GameSpec, cfg: NetTrainConfig, weights: Any, log: Callable[[str], None]
            ) -> Any:
    """The weights blended with the game's anchor policy (``NetAgent.anchor``: ``learned``'s
    linear weights, else zero, ``balanced``'s order): ``theta0 = (1 - a) anchor + a theta0``,
    ``U = a U``, at the share ``a`` of ``SHRINKAGE`` that takes the most wins against the base
    preset on other evaluation games (ties: the larger share); the shares' results go into
    ``meta["shrinkage"]``. The imitation's departures from a good linear order are often worse
    than the order itself, so a part of them may play better than all; ``a = 0`` is the anchor
    itself."""
    agent = net_agent_of(spec)
    ed = spec.editions.index(cfg.edition) if cfg.edition else 0
    base_spec, base_params = spec.strategies.parse(agent.base)
    anchor = agent.anchor()
    tried = []

    def blend(alpha: float, meta: dict[str, Any]) -> Any:
        return NetWeights(
            W1=weights.W1, b1=weights.b1, theta0=(1.0 - alpha) * anchor + alpha * weights.theta0,
            U=alpha * weights.U, wv=weights.wv, bv=weights.bv, meta=meta)

    for alpha in SHRINKAGE:
        w = blend(alpha, dict(weights.meta))
        params = agent.params_of(agent.weights.remember_set(agent.weights.quantise(w)))
        m = match(spec, Entry(agent.strategy, agent.strategy_id, params),
                  Entry(agent.base, base_spec.strategy_id, base_params), cfg.eval_games, 2, ed,
                  cfg.seed, EVAL_FIRST_GAME + 1_000_000, threads=max(1, cfg.workers))
        tried.append({"alpha": alpha, "share": m["share"], "ci_low": m["ci_low"],
                      "ci_high": m["ci_high"], "games": m["games"]})
        log(f"blend {alpha:g}: against {agent.base} {m['share']:.3f} "
            f"[{m['ci_low']:.3f}, {m['ci_high']:.3f}] of {m['games']} games")
    best = max(tried, key=lambda t: (t["share"], t["alpha"]))
    return blend(best["alpha"], dict(weights.meta, shrinkage=tried, alpha=best["alpha"],
                                     anchor=[float(x) for x in anchor]))


def _remember(agent: NetAgent, state: FitState, meta: dict[str, Any]) -> np.ndarray:
    """The network strategy's vector for the current weights (their set made known to the
    kernels)."""
    w = export_weights(agent, state, meta)
    fp = agent.weights.remember_set(agent.weights.quantise(w))
    return agent.params_of(fp)
