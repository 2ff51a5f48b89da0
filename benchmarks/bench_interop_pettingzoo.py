"""The cost of one step through the PettingZoo and Gymnasium adapters against the native kernels.

For each game, on one core (CPU time of the playing thread; ``*_wall``: elapsed):

* **native**: a batch of ``random`` games played by the game's ``play_batch`` kernel
  (``tajsim.running.benchmarking``: the runner's own path), divided by the actions the games
  took (recorded and counted by the benchmark harness): microseconds per action;
* **pettingzoo**: episodes of ``tajsim.interop.pettingzoo.env`` (``env.last()``, an action drawn
  uniformly from the mask, ``env.step``): microseconds per step (one step = one action, forced
  ones included, as in the native count);
* **gymnasium**: episodes of ``SeatEnv`` (seat 0 drawing uniformly from the mask, ``random``
  opponents): microseconds per ``env.step``, the opponents' moves and the learner's forced moves
  included, and per action of the game;
* **where a PettingZoo step goes**: the same decisions (states recorded from the episodes)
  timed part by part: the legal-action kernel, ``apply_action``, the game's Python view
  (``spec.view``), flattening it (``ObservationLayout.encode``), and the rest (the mask, the
  AEC bookkeeping of ``last``/``step``, the loop) as the difference.

``--check`` also replays every PettingZoo episode's record (``GameRecord``) and requires the
same final scores, and requires every native game finished (``time_batch`` verifies it).
Every registered game unless ``--game`` names one. Writes ``results/interop_pettingzoo.csv``.
"""

from __future__ import annotations

import common


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=3, quick_repeat=1)
    p.set_defaults(game=None)
    p.add_argument("--players", type=int, default=3, help="seats per game (default 3)")
    p.add_argument("--episodes", type=int, default=None,
                   help="adapter episodes per game (default 20; quick 3)")
    p.add_argument("--native-games", type=int, default=None,
                   help="native games per timed batch (default 400; quick 50)")
    args = common.parse(p, argv)
    episodes = args.episodes or (3 if args.quick else 20)
    native_games = args.native_games or (50 if args.quick else 400)
    from tajsim.games.registry import game_names

    games = [args.game] if args.game else game_names()

    rows, problems = [], []
    for game in games:
        row, found = measure(game, args.players, episodes, native_games, args)
        rows.append(row)
        problems += [f"{game}: {x}" for x in found]
        common.log(
            f"{game} ({args.players} players): native {row['native_us_per_action']:.2f} us/action;"
            f" pettingzoo {row['pettingzoo_us_per_step']:.0f} us/step "
            f"(x{row['pettingzoo_ratio']:.0f}); gymnasium {row['gymnasium_us_per_step']:.0f} "
            f"us/step, {row['gymnasium_us_per_action']:.0f} us/action "
            f"(x{row['gymnasium_ratio']:.0f}); a PettingZoo step: legal "
            f"{row['step_legal_us']:.1f}, apply {row['step_apply_us']:.1f}, view "
            f"{row['step_view_us']:.0f}, encode {row['step_encode_us']:.0f}, rest "
            f"{row['step_rest_us']:.0f} us")
    common.write_csv("interop_pettingzoo", rows, args)
    if args.check:
        common.fail_on(problems, "adapter episodes replay to the same scores")


def _best(fn, repeat: int) -> tuple[float, float, object]:
    """Best thread-CPU time of ``repeat`` calls of ``fn`` (with its wall time and result)."""
    import time

    best = None
    for _ in range(max(1, repeat)):
        w0, c0 = time.perf_counter(), time.thread_time()
        out = fn()
        wall, cpu = time.perf_counter() - w0, time.thread_time() - c0
        if best is None or cpu < best[1]:
            best = (wall, cpu, out)
    return best


def measure(game: str, players: int, episodes: int, native_games: int, args) -> tuple[dict, list]:
    import numpy as np

    from tajsim.games.registry import get_game
    from tajsim.interop.encoding import layout
    from tajsim.interop.gymnasium import SeatEnv
    from tajsim.interop.pettingzoo import env as make_env
    from tajsim.running.benchmarking import make_batch, record_batch, time_batch

    spec = get_game(game)
    problems: list[str] = []

    # -- native: the runner's batch kernel, random seats ----------------------------------------
    batch = make_batch(native_games, players, "random", seed=args.seed, game=game)
    timing = time_batch(batch, 1, repeat=args.repeat, warmup=args.warmup)
    actions = int(record_batch(batch).n_actions.sum())
    native_us = 1e6 * timing.best("thread") / actions
    native_us_wall = 1e6 * timing.best("wall") / actions

    # -- PettingZoo: env.last() + a masked random action + env.step ---------------------------
    pz = make_env(game=game, players=players)
    states: list[np.ndarray] = []

    def play_pz(record: bool = False) -> int:
        rng = np.random.default_rng(args.seed)
        steps = 0
        pz.reset(seed=args.seed)
        for e in range(episodes):
            if e:
                pz.reset()
            for _ in pz.agent_iter():
                obs, _, terminated, truncated, _ = pz.last()
                if terminated or truncated:
                    pz.step(None)
                    continue
                if record:
                    states.append(pz.game.state.copy())
                pz.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
                steps += 1
            if args.check:
                again = spec.game_class.replay(pz.game.record())
                if again.scores() != pz.game.scores():
                    problems.append(f"episode {e} replays to other scores")
        return steps

    play_pz()  # warm-up (and every kernel the adapter calls compiled or loaded)
    pz_wall, pz_cpu, pz_steps = _best(play_pz, args.repeat)
    pz_us, pz_us_wall = 1e6 * pz_cpu / pz_steps, 1e6 * pz_wall / pz_steps

    # -- Gymnasium: one seat against random opponents --------------------------------------------
    gym = SeatEnv(game=game, players=players, seat=0, opponents="random")

    def play_gym() -> tuple[int, int]:
        rng = np.random.default_rng(args.seed)
        steps = game_actions = 0
        for e in range(episodes):
            obs, _ = gym.reset(seed=args.seed) if e == 0 else gym.reset()
            done = False
            while not done:
                action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
                obs, _, terminated, truncated, _ = gym.step(action)
                done = terminated or truncated
                steps += 1
            game_actions += len(gym.game.actions)
        return steps, game_actions

    play_gym()
    gym_wall, gym_cpu, (gym_steps, gym_actions) = _best(play_gym, args.repeat)

    # -- where a PettingZoo step goes: its parts on the recorded decisions ----------------------
    play_pz(record=True)
    comp, k, lay = pz.game.comp, spec.kernels, layout(spec)
    legal = np.empty(spec.n_actions, np.int64)
    players_to_move = [spec.current_player(s) for s in states]
    views = [spec.view(s, comp, q) for s, q in zip(states, players_to_move)]
    chosen = []
    for s in states:
        n = k.legal_actions(s, comp, legal)
        chosen.append(int(legal[0]) if n else 0)
    copies = [s.copy() for s in states]

    def legal_part() -> None:
        for s in states:
            k.legal_actions(s, comp, legal)

    def apply_part() -> None:
        for s, c, a in zip(states, copies, chosen):
            c[:] = s
            k.apply_action(c, comp, a)

    def copy_part() -> None:
        for s, c in zip(states, copies):
            c[:] = s

    def view_part() -> None:
        for s, q in zip(states, players_to_move):
            spec.view(s, comp, q)

    def encode_part() -> None:
        for v in views:
            lay.encode(v)

    n = len(states)
    part = {name: 1e6 * _best(fn, args.repeat)[1] / n for name, fn in (
        ("legal", legal_part), ("apply", apply_part), ("copy", copy_part),
        ("view", view_part), ("encode", encode_part))}
    part["apply"] = max(0.0, part["apply"] - part["copy"])
    # observe() runs once per decision in last() (the agent to move); the legal list once in
    # step (the next decision's mask) and apply_action once
    rest = pz_us - part["legal"] - part["apply"] - part["view"] - part["encode"]

    return {
        "game": game, "players": players, "seed": args.seed,
        "native_games": native_games, "native_actions": actions,
        "native_us_per_action": native_us, "native_us_per_action_wall": native_us_wall,
        "episodes": episodes, "pettingzoo_steps": pz_steps,
        "pettingzoo_us_per_step": pz_us, "pettingzoo_us_per_step_wall": pz_us_wall,
        "pettingzoo_ratio": pz_us / native_us,
        "gymnasium_steps": gym_steps, "gymnasium_actions": gym_actions,
        "gymnasium_us_per_step": 1e6 * gym_cpu / gym_steps,
        "gymnasium_us_per_step_wall": 1e6 * gym_wall / gym_steps,
        "gymnasium_us_per_action": 1e6 * gym_cpu / gym_actions,
        "gymnasium_ratio": (1e6 * gym_cpu / gym_actions) / native_us,
        "observation_size": lay.size,
        "step_legal_us": part["legal"], "step_apply_us": part["apply"],
        "step_view_us": part["view"], "step_encode_us": part["encode"],
        "step_rest_us": rest,
        "load_avg": common.load_avg(),
    }, problems


if __name__ == "__main__":
    main()
