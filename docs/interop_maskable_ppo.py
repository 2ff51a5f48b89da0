"""Train MaskablePPO (sb3-contrib) on one seat of a tajsim game and measure its win share against
the environment's default opponent before and after (an optional example: not part of CI, and
sb3-contrib, which brings torch, is not a tajsim dependency)::

    pip install sb3-contrib
    nice -n 19 python docs/interop_maskable_ppo.py --game maharani --cpu-minutes 25 \\
        --json run.json

What it trains on:

* the batched environment (:class:`tajsim.interop.vector.VectorEnv`) wrapped as an sb3
  ``VecEnv`` (:class:`BatchedVecEnv` below): ``--rows`` games per seat, one ``VectorEnv`` per
  seat, so one policy learns every position (the random seat of ``SeatEnv``); every step of
  all rows is one compiled call plus one observation batch;
* ``reward="win+margin"``: the learner's win share plus its normalised final score margin
  (:func:`tajsim.interop.rewards.score_margin_of`), paid when its game ends: the return of
  ``SeatEnv``'s shaped reward (the plain win share is almost always 0 against ``balanced``:
  no signal);
* a curriculum of opponents by share of the CPU budget (``--curriculum``): for the games with
  a ``balanced`` preset random -> greedy -> ``balanced`` at temperature 10, 3, then 1 (its
  softmax choice, hotter to colder) -> the default opponent (the reference preset,
  ``balanced`` at temperature 0) for the rest (:data:`CURRICULUM`); opponents change between
  rollouts (``VectorEnv.set_opponents``);
* ``observation="scaled"`` (float32 in [-1, 1]) and ``MaskablePPO`` with the masks of every
  row: only legal actions are ever chosen.

The budget is the process's CPU time (``getrusage``: user + system, every thread; torch runs on
one): training stops when ``--cpu-minutes`` are spent, or ``--wall-minutes`` of wall clock
(a busy machine), checked after every rollout.

Evaluation: ``--eval-games`` games against the default opponent in every other seat (half with
the learner in each seat of a 2-player game), the policy deterministic (arg max over the legal
actions), games of a master seed the training never plays: the win share (ties shared) with its
Wilson 95% interval and the mean final score margin, for the untrained policy (the network as
initialised) and for the trained one; the same against ``random`` (``greedy`` where ``random``
is the default opponent: No Thanks!). During training, each CPU minute's finished games (the
stochastic policy against that stage's opponent) give the learning curve, logged and kept in
the JSON summary.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from typing import Any

import numpy as np

#: The default curriculum: (opponent spec, share of the CPU budget); "default" is the env's
#: default opponent (the game's reference preset); the last stage lasts to the end.
CURRICULUM = {
    "balanced": [("random", 0.05), ("greedy", 0.10), ("balanced:temperature=10", 0.10),
                 ("balanced:temperature=3", 0.15), ("balanced:temperature=1", 0.15),
                 ("default", 1.0)],
    "random": [("default", 1.0)],
}


def make_vec_env(game: str, players: int, rows: int, opponent: str | None, seed: int,
                 reward: str = "win+margin"):
    """A :class:`BatchedVecEnv` (the class is defined here, sb3 being imported lazily)."""
    from gymnasium import spaces
    from stable_baselines3.common.vec_env.base_vec_env import VecEnv

    from tajsim.interop.vector import VectorEnv

    class BatchedVecEnv(VecEnv):
        """sb3's ``VecEnv`` over one :class:`VectorEnv` per seat (``rows`` games each): the
        learner sits at every seat, auto-reset, win+margin at the end of each game."""

        def __init__(self) -> None:
            self.parts = [VectorEnv(game=game, num_envs=rows, players=players, seat=s,
                                    opponents=opponent, observation="scaled", reward=reward)
                          for s in range(players)]
            first = self.parts[0]
            size = first.scaled.size
            super().__init__(rows * players, spaces.Box(-1.0, 1.0, (size,), np.float32),
                             spaces.Discrete(first.spec.n_actions))
            self.seed_base = seed
            self.masks = np.zeros((self.num_envs, first.spec.n_actions), np.int8)
            self.finished: list[tuple[float, float]] = []  # (win share, margin) per game

        def set_opponents(self, spec: str | None) -> None:
            for part in self.parts:
                part.set_opponents(spec)

        def reset(self) -> np.ndarray:
            obs, masks = [], []
            for s, part in enumerate(self.parts):
                o, m = part.reset(seed=self.seed_base * 100 + s)
                obs.append(o)
                masks.append(m)
            self.masks = np.concatenate(masks)
            return np.concatenate(obs)

        def step_async(self, actions: np.ndarray) -> None:
            self._actions = np.asarray(actions, np.int64)

        def step_wait(self):
            obs, rewards, dones, masks = [], [], [], []
            for s, part in enumerate(self.parts):
                o, r, d, m = part.step(self._actions[s * rows:(s + 1) * rows])
                obs.append(o)
                rewards.append(r)
                dones.append(d)
                masks.append(m)
                if d.any():
                    higher = part.spec.higher_score_wins
                    from tajsim.interop.rewards import score_margin_of
                    for row in np.flatnonzero(d):
                        scores = part.final_scores[row]
                        margin = score_margin_of(scores, s, higher)
                        # the win share: the reward less the margin (float32's last bits off)
                        win = round(float(r[row]) - margin, 4)
                        self.finished.append((win, margin))
            self.masks = np.concatenate(masks)
            done = np.concatenate(dones)
            return (np.concatenate(obs), np.concatenate(rewards).astype(np.float32), done,
                    [{} for _ in range(self.num_envs)])

        def action_masks(self) -> np.ndarray:
            return self.masks.astype(bool)

        # sb3's VecEnv plumbing: MaskablePPO asks env_method("action_masks") for every row
        def env_method(self, method_name: str, *args: Any, indices=None, **kwargs: Any):
            if method_name != "action_masks":
                raise AttributeError(method_name)
            return list(self.action_masks())

        def get_attr(self, attr_name: str, indices=None):
            if attr_name == "action_masks":
                return [self.action_masks] * self.num_envs
            if attr_name == "render_mode":
                return [None] * self.num_envs
            raise AttributeError(attr_name)

        def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
            raise AttributeError(attr_name)

        def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
            return [False] * self.num_envs

        def close(self) -> None:
            pass

    return BatchedVecEnv()


def evaluate(model, game: str, players: int, games: int, seed: int,
             opponent: str | None = None) -> dict:
    """Win share of ``model`` (deterministic) in ``games`` games against ``opponent`` (None:
    the default opponent), ``games / players`` with the learner in each seat: the first game
    of each row, rows of master seed ``seed + seat``; with the Wilson 95% interval."""
    from tajsim.analysis.stats.proportions import wilson_interval
    from tajsim.interop.rewards import score_margin_of
    from tajsim.interop.vector import VectorEnv

    wins, margins, name = 0.0, [], ""
    per_seat = games // players
    for s in range(players):
        env = VectorEnv(game=game, num_envs=per_seat, players=players, seat=s,
                        opponents=opponent, observation="scaled", reward="win")
        name = env.opponents[0]
        obs, masks = env.reset(seed=seed + s)
        pending = np.ones(per_seat, bool)
        while pending.any():
            actions, _ = model.predict(obs, action_masks=masks.astype(bool), deterministic=True)
            obs, reward, done, masks = env.step(np.asarray(actions, np.int64))
            for row in np.flatnonzero(done & pending):
                wins += float(reward[row])
                margins.append(score_margin_of(env.final_scores[row], s,
                                               env.spec.higher_score_wins))
            pending &= ~done
    n = per_seat * players
    low, high = wilson_interval(wins, n)
    return {"games": n, "wins": wins, "share": wins / n, "ci95": [float(low), float(high)],
            "opponent": name, "mean_margin": float(np.mean(margins))}


def report(when: str, result: dict) -> str:
    return (f"{when}: {result['share']:.3f} [{result['ci95'][0]:.3f}, {result['ci95'][1]:.3f}] "
            f"of {result['games']} games against {result['opponent']}, mean margin "
            f"{result['mean_margin']:+.3f}")


def cpu_seconds() -> float:
    """CPU time of this process (user + system, every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="maharani")
    p.add_argument("--players", type=int, default=None,
                   help="table size (default: the smallest the game allows: 2, No Thanks! 3)")
    p.add_argument("--cpu-minutes", type=float, default=25.0,
                   help="training budget in CPU minutes of this process")
    p.add_argument("--wall-minutes", type=float, default=None,
                   help="also stop training after this many minutes of wall time (on a "
                        "shared machine); the curriculum then follows the larger share used")
    p.add_argument("--rows", type=int, default=32, help="games per seat stepped together")
    p.add_argument("--n-steps", type=int, default=128, help="rollout length per row")
    p.add_argument("--batch-size", type=int, default=512)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--net", default="256,256", help="hidden layer widths")
    p.add_argument("--curriculum", default=None,
                   help="stages 'spec@share,...' ('default' = the env's default opponent); "
                        "default: by the game's reference preset")
    p.add_argument("--eval-games", type=int, default=1000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", default=None, help="write the summary here too")
    p.add_argument("--save", default=None, help="save the trained model here (.zip)")
    args = p.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    from tajsim.analysis.stats.proportions import wilson_interval
    from tajsim.games.registry import get_game

    torch.set_num_threads(1)
    spec = get_game(args.game)
    if args.players is None:
        args.players = spec.players[spec.default_edition][0]
    default = spec.reference_preset
    # the second yardstick: random, or greedy where random is the default opponent itself
    other = "greedy" if default == "random" else "random"
    if args.curriculum:
        stages = [(s.rsplit("@", 1)[0], float(s.rsplit("@", 1)[1]))
                  for s in args.curriculum.split(",")]
    else:
        stages = CURRICULUM["balanced" if default == "balanced" else "random"]
    stages = [(default if name == "default" else name, share) for name, share in stages]
    budget = 60 * args.cpu_minutes
    wall_budget = 60 * args.wall_minutes if args.wall_minutes else float("inf")
    ends, at = [], 0.0
    for _, share in stages[:-1]:
        at += share * budget
        ends.append(at)
    ends.append(float("inf"))

    vec = make_vec_env(args.game, args.players, args.rows, stages[0][0], args.seed)
    model = MaskablePPO("MlpPolicy", vec, n_steps=args.n_steps, batch_size=args.batch_size,
                        n_epochs=args.epochs, learning_rate=3e-4, gamma=0.995,
                        ent_coef=args.ent_coef, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": [int(w) for w in args.net.split(",")]})
    eval_seed = 10**9  # master seeds the training (args.seed * 100 + seat) never plays
    cpu0, wall0 = cpu_seconds(), time.monotonic()
    before = evaluate(model, args.game, args.players, args.eval_games, eval_seed)
    before_random = evaluate(model, args.game, args.players, args.eval_games, eval_seed,
                             other)
    eval_cpu = cpu_seconds() - cpu0
    print(report("before", before), flush=True)
    print(report("before", before_random), flush=True)

    curve: list[dict] = []

    class Budget(BaseCallback):
        """Stops at the CPU budget, moves the curriculum on and logs each rollout's games."""

        def __init__(self) -> None:
            super().__init__()
            self.start = cpu_seconds()
            self.wall_start = time.monotonic()
            self.stage = 0
            self.stop = False
            self.logged = 0.0

        def _on_step(self) -> bool:
            return not self.stop

        def _on_rollout_end(self) -> None:
            cpu = cpu_seconds() - self.start
            # the budget's share used: CPU, or wall time where a wall limit binds first
            # (CPU-minutes then stand for their share of the wall limit)
            spent = max(cpu, budget * (time.monotonic() - self.wall_start) / wall_budget)
            if spent >= budget:
                self.stop = True  # the next rollout's first step ends the training
            moves_on = spent >= ends[self.stage]
            # one curve point a CPU minute (and at each stage's end)
            if spent - self.logged < 60 and not moves_on and not self.stop:
                return
            self.logged = spent
            games = vec.finished
            wins = sum(w for w, _ in games)
            low, high = wilson_interval(wins, len(games)) if games else (0.0, 1.0)
            curve.append({"cpu_s": round(cpu, 1),
                          "wall_s": round(time.monotonic() - self.wall_start, 1),
                          "steps": self.num_timesteps,
                          "opponent": stages[self.stage][0], "games": len(games),
                          "share": wins / len(games) if games else None,
                          "ci95": [float(low), float(high)],
                          "mean_margin": float(np.mean([m for _, m in games])) if games
                          else None})
            print(f"  cpu {cpu / 60:5.1f} min, {self.num_timesteps} steps, against "
                  f"{stages[self.stage][0]}: {wins:.0f}/{len(games)} won", flush=True)
            vec.finished = []
            while spent >= ends[self.stage]:
                self.stage += 1
                vec.set_opponents(stages[self.stage][0])

    cpu_train0, wall_train0 = cpu_seconds(), time.monotonic()
    model.learn(total_timesteps=10**10, callback=Budget())
    train_cpu = cpu_seconds() - cpu_train0
    train_wall = time.monotonic() - wall_train0
    cpu1 = cpu_seconds()
    after = evaluate(model, args.game, args.players, args.eval_games, eval_seed)
    after_random = evaluate(model, args.game, args.players, args.eval_games, eval_seed,
                            other)
    eval_cpu += cpu_seconds() - cpu1
    trained = f"after {train_cpu / 60:.1f} CPU min ({train_wall / 60:.1f} min wall, " \
              f"{model.num_timesteps} steps)"
    print(report(trained, after), flush=True)
    print(report(trained, after_random), flush=True)
    above = after["ci95"][0] > before["ci95"][1]
    print(f"trained interval above the untrained one against {before['opponent']}: {above}")
    summary = {"game": args.game, "players": args.players, "cpu_minutes": args.cpu_minutes,
               "rows_per_seat": args.rows, "n_steps": args.n_steps,
               "batch_size": args.batch_size, "epochs": args.epochs,
               "ent_coef": args.ent_coef, "net": args.net, "seed": args.seed,
               "wall_minutes": args.wall_minutes,
               "curriculum": stages, "train_cpu_s": round(train_cpu, 1),
               "train_wall_s": round(train_wall, 1), "eval_cpu_s": round(eval_cpu, 1),
               "total_wall_s": round(time.monotonic() - wall0, 1),
               "timesteps": int(model.num_timesteps), "before": before, "after": after,
               "before_vs_other": before_random, "after_vs_other": after_random,
               "target_met": bool(above), "curve": curve}
    print(json.dumps({k: v for k, v in summary.items() if k != "curve"}))
    if args.save:
        model.save(args.save)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
