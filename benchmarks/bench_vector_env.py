"""Steps per second of the batched environment (``tajsim.interop.vector.VectorEnv``) against the
per-step PettingZoo and Gymnasium adapters, on one core, in one run.

For each game (every registered game unless ``--game`` names one), at the game's own table size
(``GameSpec.default_player_count``, or ``--players``), with a random agent (an action drawn
uniformly from the mask: ``rng.choice`` per step for the adapters, ``VectorEnv.sample`` for a
whole batch):

* **every seat** (one step = one decision of whichever seat is to move, forced ones included):
  ``tajsim.interop.pettingzoo.env`` (``last`` + ``step``) against ``VectorEnv(seat=None)`` with
  ``--num-envs`` rows, with raw observations from the wings' compiled observation kernels
  (``obs``, :mod:`tajsim.interop.compiled`), from the Python views (``pyobs``:
  ``compiled_observation=False``, the same arrays) and without any (``noobs``: the compiled
  stepping and the masks alone);
* **one learner** (one step = one decision of seat 0 with a choice; the ``random`` opponents'
  moves and the forced moves inside): ``SeatEnv`` (its observation from the compiled kernel
  too) against ``VectorEnv(seat=0)``, with compiled, Python and no observations.

Steps per second of CPU time of this thread (the best of ``--repeat`` runs of ``--steps``
batched steps, and of the adapters' episodes adding up to about the same number of steps; the
first ``--warmup`` runs are not timed), and the ratios batched / adapter. Writes
``results/vector_env.csv``. ``--check``: every batched step's mask rows are those of the rows'
states (``legal_actions``) at the first repeat.
"""

from __future__ import annotations

import time

import common


def _best(fn, repeat: int) -> tuple[float, int]:
    """(least CPU seconds over ``repeat`` runs of ``fn``, the steps ``fn`` returned)."""
    best, steps = float("inf"), 0
    for _ in range(max(1, repeat)):
        c0 = time.thread_time()
        steps = fn()
        best = min(best, time.thread_time() - c0)
    return best, steps


def measure(game: str, players: int, args, problems: list[str]) -> dict:
    import numpy as np

    from tajsim.games.registry import get_game
    from tajsim.interop.gymnasium import SeatEnv
    from tajsim.interop.pettingzoo import env as pz_env
    from tajsim.interop.vector import VectorEnv

    spec = get_game(game)
    target = args.steps * args.num_envs  # about as many adapter steps as batched row-steps

    def pettingzoo(target: int = target) -> int:
        e = pz_env(game=game, players=players)
        rng = np.random.default_rng(args.seed)
        steps, episode = 0, 0
        while steps < target:
            e.reset(seed=args.seed) if episode == 0 else e.reset()
            episode += 1
            for _ in e.agent_iter():
                obs, _, terminated, truncated, _ = e.last()
                if terminated or truncated:
                    e.step(None)
                    continue
                e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        return steps

    def gymnasium(target: int = target) -> int:
        e = SeatEnv(game=game, players=players, seat=0, opponents="random")
        rng = np.random.default_rng(args.seed)
        steps, episode = 0, 0
        while steps < target:
            obs, _ = e.reset(seed=args.seed) if episode == 0 else e.reset()
            episode += 1
            done = False
            while not done:
                obs, _, done, _, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
        return steps

    def batched(seat, observation, check: bool = False, compiled: bool = True):
        env = VectorEnv(game=game, num_envs=args.num_envs, players=players, seat=seat,
                        opponents="random", observation=observation,
                        compiled_observation=compiled)
        legal = np.empty(spec.n_actions, np.int64)

        def run() -> int:
            rng = np.random.default_rng(args.seed)
            env.reset(seed=args.seed)
            for i in range(args.steps):
                env.step(env.sample(rng))
                if check and i == 0:
                    for row in range(env.num_envs):
                        n = spec.kernels.legal_actions(env.states[row], env.comp, legal)
                        if sorted(legal[:n].tolist()) != np.flatnonzero(env.masks[row]).tolist():
                            problems.append(f"{game}: row {row}'s mask is not its legal list")
            return args.steps * args.num_envs
        for _ in range(max(1, args.warmup)):
            run()  # compile and warm up (not timed)
        return run

    row: dict = {"game": game, "players": players, "num_envs": args.num_envs,
                 "batched_steps": args.steps, "seed": args.seed}
    warm = args.target_warm  # the adapters' first episodes (loading kernels) are not timed
    for fn in (pettingzoo, gymnasium):
        for _ in range(args.warmup):
            fn(warm)
    for name, fn in (("pettingzoo", pettingzoo), ("gymnasium", gymnasium),
                     ("vector_every_seat_obs", batched(None, "raw", check=args.check)),
                     ("vector_every_seat_pyobs", batched(None, "raw", compiled=False)),
                     ("vector_every_seat_noobs", batched(None, None)),
                     ("vector_learner_obs", batched(0, "raw", check=args.check)),
                     ("vector_learner_pyobs", batched(0, "raw", compiled=False)),
                     ("vector_learner_noobs", batched(0, None))):
        seconds, steps = _best(fn, args.repeat)
        row[f"{name}_steps"] = steps
        row[f"{name}_steps_per_s"] = steps / seconds
    pz, gym = row["pettingzoo_steps_per_s"], row["gymnasium_steps_per_s"]
    for name in ("every_seat_obs", "every_seat_pyobs", "every_seat_noobs"):
        row[f"ratio_{name}"] = row[f"vector_{name}_steps_per_s"] / pz
    for name in ("learner_obs", "learner_pyobs", "learner_noobs"):
        row[f"ratio_{name}"] = row[f"vector_{name}_steps_per_s"] / gym
    row["load_avg"] = common.load_avg()
    common.log(
        f"{game} ({players} players, {args.num_envs} rows): every seat: pettingzoo {pz:,.0f} "
        f"steps/s, batched {row['vector_every_seat_obs_steps_per_s']:,.0f} with compiled "
        f"observations (x{row['ratio_every_seat_obs']:.1f}), "
        f"{row['vector_every_seat_pyobs_steps_per_s']:,.0f} with Python ones "
        f"(x{row['ratio_every_seat_pyobs']:.1f}), "
        f"{row['vector_every_seat_noobs_steps_per_s']:,.0f} without "
        f"(x{row['ratio_every_seat_noobs']:.0f}); one learner: gymnasium {gym:,.0f}, "
        f"batched {row['vector_learner_obs_steps_per_s']:,.0f} (x{row['ratio_learner_obs']:.1f}), "
        f"{row['vector_learner_pyobs_steps_per_s']:,.0f} with Python observations "
        f"(x{row['ratio_learner_pyobs']:.1f}), {row['vector_learner_noobs_steps_per_s']:,.0f} "
        f"without (x{row['ratio_learner_noobs']:.0f})")
    return row


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=3, quick_repeat=1)
    p.set_defaults(game=None)
    p.add_argument("--players", type=int, default=None,
                   help="seats (default: each game's default_player_count)")
    p.add_argument("--num-envs", type=int, default=None,
                   help="rows of the batched environment (default 256; quick 16)")
    p.add_argument("--steps", type=int, default=None,
                   help="batched steps per timed run (default 40; quick 5)")
    args = common.parse(p, argv)
    args.num_envs = args.num_envs or (16 if args.quick else 256)
    args.steps = args.steps or (5 if args.quick else 40)
    args.target_warm = 50
    from tajsim.games.registry import GAMES

    names = [args.game] if args.game else list(GAMES)
    rows: list[dict] = []
    problems: list[str] = []
    for name in names:
        spec = GAMES[name]
        n = spec.default_player_count() if args.players is None else args.players
        rows.append(measure(name, spec.check_players(n), args, problems))
    common.write_csv("vector_env", rows, args)
    if args.check:
        common.fail_on(problems, "batched masks == the rows' legal actions")


if __name__ == "__main__":
    main()
