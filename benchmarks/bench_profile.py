"""Where a game's time goes: setup, legal actions by phase, applying actions, the policy, the
records; and how many decisions a game takes.

The games of a batch are played once with their actions recorded, then compiled harness kernels
(``tajsim.running.benchmarking``) replay them with and without each part; each part's cost is a
difference of the best of ``--repeat`` short runs (about ``--seconds`` each), timed
round-robin by the CPU time of the playing thread (see ``profile_batch``). One core; fixed
seeds. Parts are differences of noisy times: a tiny part may come out slightly negative on a
busy machine (shown as ≈ 0 in the README).

Three CSVs: ``profile.csv`` (per strategy and player count, microseconds per game of each part,
its share, nanoseconds per call), ``profile_decisions.csv`` (decisions per game by phase, mean
legal actions per decision) and ``profile_apply.csv`` (the cost of ``apply_action_nb`` by kind
of action, from state snapshots: see ``apply_costs``).

``--check``: the replayed games must end exactly as the played ones (same final scores), and
the profiled batch must equal ``simulate()`` for the same games.
"""

from __future__ import annotations

import common

CONFIGS = (("random", 4), ("random", 2), ("random", 5), ("greedy", 4), ("balanced", 4))


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=25, quick_repeat=5)
    p.add_argument("--configs", nargs="+", default=None, metavar="STRATEGY:PLAYERS",
                   help="e.g. random:4 greedy:4 (default: random 4/2/5, greedy 4, balanced 4)")
    p.add_argument("--seconds", type=float, default=None,
                   help="target seconds of one full-play run (default 0.03; quick 0.02): "
                        "many short runs, of which the best are the least disturbed by other "
                        "processes")
    args = common.parse(p, argv)
    seconds = args.seconds or (0.02 if args.quick else 0.03)
    configs = CONFIGS
    if args.configs:
        configs = tuple((c.split(":")[0], int(c.split(":")[1])) for c in args.configs)

    import numpy as np

    from tajsim.running.benchmarking import (
        check_batch,
        estimate_game_seconds,
        make_batch,
        profile_batch,
        profile_kernels,
        record_batch,
    )

    rows, drows, arows, problems = [], [], [], []
    for strategy, players in configs:
        probe = make_batch(50, players, strategy, seed=args.seed, game=args.game)
        per_game = estimate_game_seconds(probe, 10)
        games = common.size_games(per_game, seconds, 20, 20_000)
        if strategy not in ("random",):
            games = max(games, 60)  # enough games for stable decision counts
        batch = make_batch(games, players, strategy, seed=args.seed, game=args.game)
        common.log(f"{strategy} x{players}: profiling {games} games ...")
        prof = profile_batch(batch, args.repeat, args.warmup)
        pg = prof["per_game"]
        total = prof["us_per_game"]
        calls = {
            "setup": 1.0,
            "apply": pg["actions"],
            **{f"legal_{k}": pg[f"decisions_{k}"] for k in batch.spec.phase_names},
            "policy": pg["policy_decisions"],
            "records": 1.0,
        }
        for part, us in prof["parts_us"].items():
            rows.append({
                "strategy": strategy, "players": players, "games": games, "seed": args.seed,
                "part": part, "us_per_game": us, "share": us / total if total else 0.0,
                "calls_per_game": calls[part],
                "ns_per_call": 1e3 * us / calls[part] if calls[part] else float("nan"),
                "us_per_game_total": total, "games_per_s_cpu": 1e6 / total,
                "load_avg": common.load_avg(),
            })
        drow = {"strategy": strategy, "players": players, "games": games, "seed": args.seed,
                **{k: v for k, v in pg.items()}}
        drows.append(drow)
        for kind, (ns, calls) in prof["apply_kinds"].items():
            arows.append({"strategy": strategy, "players": players, "games": games,
                          "seed": args.seed, "kind": kind, "ns_per_call": ns,
                          "calls_per_game": calls, "us_per_game": ns * calls / 1e3})
        common.log(f"  {total:.1f} us/game; " + ", ".join(
            f"{k} {v:.1f}" for k, v in prof["parts_us"].items()))
        if args.check:
            rec = record_batch(batch)
            spec = batch.spec
            stats = np.zeros((spec.max_players + 1, len(spec.phase_names), 3), np.int64)
            harness = profile_kernels(spec)
            replayed = harness.replay(batch.comp, batch.players, batch.edition, batch.seed,
                                      batch.game_ids, batch.setup_ids, rec.actions,
                                      rec.n_actions, 0, stats)
            played = harness.play_only(*batch.args(), *batch.switches())
            if replayed < 0 or played != int(rec.n_actions.sum()):
                problems.append(f"{strategy} x{players}: replayed games end otherwise than "
                                "played ones")
            found = check_batch(batch.slice(0, min(games, 100)), modes=())
            problems += [f"{strategy} x{players}: {x}" for x in found]
    common.write_csv("profile", rows, args)
    common.write_csv("profile_decisions", drows, args)
    common.write_csv("profile_apply", arows, args)
    if args.check:
        common.fail_on(problems, "profiled games == played games == simulate()")


if __name__ == "__main__":
    main()
