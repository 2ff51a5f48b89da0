"""The OpenSpiel adapter's cost per step against the native kernels, and where the time goes.

For each game (``--game``, or every registered game with ``--game all``, the default), random
games with ``--players`` seats (default: each game's own table size,
``GameSpec.default_player_count``; a count a game does not allow skips that game, said in the
log) are played four ways with the same actions (drawn
once, before timing):

* **batch kernel**: the game's ``play_batch`` with ``random`` in every seat, the compiled loop
  that ``simulate`` runs (its own random actions, same game count): microseconds per step;
* **kernels from Python**: ``legal_actions`` + ``apply_action`` called from a Python loop on the
  state vector (what ``play_mixed_game`` does per step);
* **BaseGame**: ``legal_actions()`` + ``apply()`` (lists of ints, the legality check);
* **OpenSpiel adapter**: ``state.legal_actions()`` + ``state.apply_action()`` through ``pyspiel``
  (C++ calls back into Python; sorted lists; one state copy per step for the recall).

Then the adapter's other calls, per call, on states sampled along those games: ``clone``,
``observation_string``, ``information_state_string`` (``_first``: the first call at a state made
without asking, which folds the seat's recall, one view per own past decision; otherwise a call
whose recall is folded already, as in a search tree: one view and a digest),
``resample_from_infostate`` and ``serialize``.
Times are per step (per call), the best of ``--repeat`` runs, CPU time of this thread.

``--check``: the adapter's final states equal the ``BaseGame`` replays of the same actions, and
each game's returns are its win shares.
"""

from __future__ import annotations

import time

import common


def _best(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(max(1, repeat)):
        c0 = time.thread_time()
        fn()
        best = min(best, time.thread_time() - c0)
    return best


def measure(name: str, n: int, games: int, args, problems: list[str]) -> dict:
    """One game's row with ``n`` players (see the module docstring); ``--check`` problems
    appended."""
    import numpy as np

    from tajsim.games.registry import get_game
    from tajsim.interop import openspiel as O
    from tajsim.play.arena import entry, packed_components, play_lineups, rotated_lineups

    spec = get_game(name)
    # the actions of each game, drawn once with a seeded random policy
    scripts = []
    for g in range(games):
        base = spec.game_class(n, None, args.seed, g)
        rng = np.random.default_rng([args.seed, g])
        while not base.is_over:
            legal = base.legal_actions()
            base.apply(legal[int(rng.integers(len(legal)))])
        scripts.append(base.actions)
    steps = sum(len(s) for s in scripts)
    comp = packed_components(spec)
    k = spec.kernels

    lineups = rotated_lineups([0] * n, games)
    play_lineups(spec, [entry(spec, "random")], lineups[:1], args.seed, comp=comp)

    def batch():
        play_lineups(spec, [entry(spec, "random")], lineups, args.seed, comp=comp)

    t_batch = _best(batch, args.repeat)
    batch_steps = steps  # same game count; a random game's length varies a little

    def kernels_loop():
        legal = np.empty(spec.n_actions, np.int64)
        for g, script in enumerate(scripts):
            base = spec.game_class(n, None, args.seed, g)
            state = base.state
            for a in script:
                k.legal_actions(state, comp, legal)
                k.apply_action(state, comp, a)

    def base_loop():
        for g, script in enumerate(scripts):
            base = spec.game_class(n, None, args.seed, g)
            for a in script:
                base.legal_actions()
                base.apply(a)

    os_game = O.load_game(name, n, seed=args.seed)
    finals = []

    def adapter_loop():
        finals.clear()
        for g, script in enumerate(scripts):
            state = os_game.new_initial_state()
            state.apply_action(g)  # the deal: game id g
            for a in script:
                state.legal_actions()
                state.apply_action(a)
            finals.append(state)

    def adapter_legal_only():
        for state in samples:
            for _ in range(20):
                state.legal_actions()

    t_kern = _best(kernels_loop, args.repeat)
    t_base = _best(base_loop, args.repeat)
    t_os = _best(adapter_loop, args.repeat)
    # states along the games for the per-call costs
    samples = []
    for g, script in enumerate(scripts[: max(1, games // 4)]):
        state = os_game.new_initial_state()
        state.apply_action(g)
        for i, a in enumerate(script):
            if i % 10 == 5:
                samples.append(state.clone())
            state.apply_action(a)
    t_legal = _best(adapter_legal_only, args.repeat) / (20 * len(samples))

    def per_call(fn):
        return _best(lambda: [fn(s) for s in samples], args.repeat) / len(samples)

    sampler = np.random.default_rng(0).random
    t_clone = per_call(lambda s: s.clone())
    t_obs = per_call(lambda s: (s._d.obs_cache.clear(), s.observation_string(
        s.current_player())))
    # first call at a state: folds every own past decision (one view each)
    fresh = [s.clone() for s in samples]
    c0 = time.thread_time()
    for s in fresh:
        s.information_state_string(s.current_player())
    t_info_first = (time.thread_time() - c0) / len(fresh)
    # a later call (the recall folded): the current view and a digest, as in a search tree
    for s in samples:
        s.information_state_string(s.current_player())
    t_info = per_call(lambda s: (s._d.obs_cache.clear(), s.information_state_string(
        s.current_player())))
    t_resample = per_call(lambda s: s.resample_from_infostate(s.current_player(), sampler))
    t_serialize = per_call(lambda s: s.serialize())
    row = {
        "game": name, "players": n, "games": games, "steps": steps, "seed": args.seed,
        "batch_kernel_us_per_step": 1e6 * t_batch / batch_steps,
        "kernels_from_python_us_per_step": 1e6 * t_kern / steps,
        "basegame_us_per_step": 1e6 * t_base / steps,
        "adapter_us_per_step": 1e6 * t_os / steps,
        "adapter_legal_actions_us": 1e6 * t_legal,
        "adapter_clone_us": 1e6 * t_clone,
        "adapter_observation_string_us": 1e6 * t_obs,
        "adapter_information_state_string_us": 1e6 * t_info,
        "adapter_information_state_string_first_us": 1e6 * t_info_first,
        "adapter_resample_us": 1e6 * t_resample,
        "adapter_serialize_us": 1e6 * t_serialize,
        "cores_load": common.load_avg(),
    }
    row["adapter_over_batch"] = row["adapter_us_per_step"] / row["batch_kernel_us_per_step"]
    common.log(", ".join(f"{k}={common._fmt(v)}" for k, v in row.items()))
    if args.check:
        for g, state in enumerate(finals):
            ref = spec.game_class.replay(state.tajsim_game.record())
            if not np.array_equal(ref.state, state.tajsim_game.state):
                problems.append(f"{name} game {g}: the adapter's final state differs")
            w = ref.winners()
            if state.returns() != [1 / len(w) if q in w else 0.0 for q in range(n)]:
                problems.append(f"{name} game {g}: returns are not the win shares")
    return row


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=3, quick_repeat=1)
    p.set_defaults(game="all")
    p.add_argument("--players", type=int, default=None,
                   help="seats (default: each game's default_player_count)")
    p.add_argument("--games", type=int, default=None, help="games per way (default 20; quick 3)")
    args = common.parse(p, argv)
    games = args.games or (3 if args.quick else 20)

    from tajsim.games.registry import GAMES

    names = sorted(GAMES) if args.game == "all" else [args.game]
    rows: list[dict] = []
    problems: list[str] = []
    for name in names:
        spec = GAMES[name]
        low, high = spec.players[spec.default_edition]
        n = spec.default_player_count() if args.players is None else args.players
        if not low <= n <= high:
            if args.game != "all":  # the one game asked for: its own one-line refusal
                spec.check_players(n)
            common.log(f"{name}: skipped, {n} players not allowed (expected {low} to {high})")
            continue
        rows.append(measure(name, n, games, args, problems))
    common.write_csv("interop_openspiel", rows, args)
    if args.check:
        common.fail_on(problems, "OpenSpiel adapter == BaseGame replay")


if __name__ == "__main__":
    main()
