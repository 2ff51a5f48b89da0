"""Train MaskablePPO (sb3-contrib) on one seat of a tajsim game and measure its win share against
the environment's default opponent before and after (an optional example: not part of CI, and
sb3-contrib, which brings torch, is not a tajsim dependency)::

    pip install sb3-contrib
    nice -n 19 python docs/interop_maskable_ppo.py --game maharani --players 2 --minutes 10

The learner plays ``SeatEnv`` with the training options of docs/interop.md:

* ``reward="win+margin"``: the win share at the end plus the dense score-margin shaping (the
  plain win share is almost always 0 against ``balanced``: no signal);
* a curriculum of opponents: ``random`` for the first ``--random-episodes`` episodes, then
  ``greedy``, then the game's default opponent (its reference preset, ``balanced``);
* ``seat="random"`` (a seat drawn each episode) and ``observation="scaled"`` (float32 in
  [-1, 1]);
* ``MaskablePPO`` with the env's ``action_masks()``: only legal actions are ever chosen.

Evaluation: ``--eval-games`` games against the default opponent in every other seat, the
learner's seat alternating, the policy deterministic (arg max over the legal actions); the win
share (ties shared) with its Wilson 95% interval and the mean final score margin, for the
untrained policy (the network as initialised) and for the trained one; the same against
``random``, to see what was learned where the default opponent is still out of reach. Prints
one line each and a JSON summary.
"""

from __future__ import annotations

import argparse
import json
import time


def make_env(game: str, players: int, curriculum, seed: int):
    import gymnasium

    from tajsim.interop.gymnasium import SeatEnv

    class ObservationOnly(gymnasium.ObservationWrapper):
        """The observation array alone (the mask reaches MaskablePPO by ``action_masks``)."""

        def __init__(self, env):
            super().__init__(env)
            self.observation_space = env.observation_space["observation"]

        def observation(self, observation):
            return observation["observation"]

        def action_masks(self):
            return self.env.action_masks()

    env = SeatEnv(game=game, players=players, seat="random", reward="win+margin",
                  observation="scaled", curriculum=curriculum, seed=seed)
    return ObservationOnly(env)


def evaluate(model, game: str, players: int, games: int, seed: int,
             opponents: str | None = None) -> dict:
    """Win share of ``model`` against ``opponents`` (None: ``SeatEnv``'s default opponent),
    seats alternating, with the Wilson 95% interval, and its mean final score margin."""
    from tajsim.analysis.stats.proportions import wilson_interval
    from tajsim.interop.gymnasium import SeatEnv

    wins, margins = 0.0, []
    for g in range(games):
        env = SeatEnv(game=game, players=players, seat=g % players, observation="scaled",
                      opponents=opponents)
        obs, _ = env.reset(seed=seed + g)  # game 0 of seed + g: a fixed, fresh set of deals
        done = False
        info: dict = {}
        while not done:
            action, _ = model.predict(obs["observation"], action_masks=env.action_masks(),
                                      deterministic=True)
            obs, _, done, _, info = env.step(int(action))
        wins += info["win_share"]
        margins.append(info["margin"])
    low, high = wilson_interval(wins, games)
    return {"games": games, "wins": wins, "share": wins / games,
            "ci95": [float(low), float(high)], "opponent": env.opponents[0],
            "mean_margin": float(sum(margins) / games)}


def report(when: str, result: dict) -> str:
    return (f"{when}: {result['share']:.3f} [{result['ci95'][0]:.3f}, {result['ci95'][1]:.3f}] "
            f"of {result['games']} games against {result['opponent']}, mean margin "
            f"{result['mean_margin']:+.3f}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="maharani")
    p.add_argument("--players", type=int, default=2)
    p.add_argument("--minutes", type=float, default=10.0, help="training time (wall clock)")
    p.add_argument("--envs", type=int, default=4, help="environments stepped together")
    p.add_argument("--random-episodes", type=int, default=300,
                   help="episodes per environment against random, then as many against greedy")
    p.add_argument("--eval-games", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv

    from tajsim.interop.gymnasium import Curriculum

    torch.set_num_threads(1)
    curriculum = Curriculum([("random", args.random_episodes),
                             ("greedy", args.random_episodes), (None, None)])
    vec = DummyVecEnv([lambda i=i: make_env(args.game, args.players, curriculum,
                                            args.seed * 1000 + i) for i in range(args.envs)])
    model = MaskablePPO("MlpPolicy", vec, n_steps=512, batch_size=256, learning_rate=3e-4,
                        gamma=0.995, ent_coef=0.01, seed=args.seed, verbose=0,
                        policy_kwargs={"net_arch": [256, 256]})
    eval_seed = 10**9  # deals the training (seeds args.seed * 1000 + i) never plays
    before = evaluate(model, args.game, args.players, args.eval_games, eval_seed)
    before_random = evaluate(model, args.game, args.players, args.eval_games, eval_seed,
                             "random")
    print(report("before", before), flush=True)
    print(report("before", before_random), flush=True)

    class Clock(BaseCallback):
        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.end = time.monotonic() + seconds

        def _on_step(self) -> bool:
            return time.monotonic() < self.end

    t0 = time.monotonic()
    model.learn(total_timesteps=10**9, callback=Clock(60 * args.minutes))
    trained_s = time.monotonic() - t0
    episodes = [e.unwrapped.episodes for e in vec.envs]
    after = evaluate(model, args.game, args.players, args.eval_games, eval_seed)
    after_random = evaluate(model, args.game, args.players, args.eval_games, eval_seed,
                            "random")
    trained = f"after {trained_s / 60:.1f} min ({model.num_timesteps} steps, {sum(episodes)} " \
              "episodes)"
    print(report(trained, after), flush=True)
    print(report(trained, after_random), flush=True)
    print(json.dumps({"game": args.game, "players": args.players, "minutes": args.minutes,
                      "random_episodes": args.random_episodes,
                      "train_seconds": round(trained_s, 1), "timesteps": model.num_timesteps,
                      "episodes": sum(episodes), "before": before, "after": after,
                      "before_vs_random": before_random, "after_vs_random": after_random}))


if __name__ == "__main__":
    main()
