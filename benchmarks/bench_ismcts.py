"""ISMCTS at its default setting: decisions per second and seconds per game.

Games of ``ismcts`` (registry defaults: 200 iterations, heuristic rollouts with the
``balanced`` weights) against ``random`` opponents, and optionally ``ismcts`` in every seat,
played with ``play_batch_nb`` on one core. The games are recorded (their actions) in the same
run and replayed to count the decisions: an ISMCTS decision is a decision of an ISMCTS seat with
more than one legal action (the others are taken without asking the policy). Times are the
CPU time of the playing thread (``*_wall``: elapsed). Few games: each takes seconds.

``--check`` also plays the first game through ``simulate()`` and compares the records.
"""

from __future__ import annotations

import common

LINEUPS = ("ismcts,random,random,random", "ismcts,ismcts,ismcts,ismcts")


def main(argv: list[str] | None = None) -> None:
    p = common.parser(__doc__.splitlines()[0], repeat=1, quick_repeat=1)
    p.add_argument("--games", type=int, default=None, help="games per lineup (default 2; quick 1)")
    p.add_argument("--lineups", nargs="+", default=None,
                   help="comma-separated seats (default: ismcts vs 3 random; and ismcts in "
                        "every seat unless --quick)")
    args = common.parse(p, argv)
    games = args.games or (1 if args.quick else 2)
    lineups = args.lineups or (LINEUPS[:1] if args.quick else LINEUPS)

    import time

    import numpy as np

    from tajsim.games.registry import get_game
    from tajsim.running.benchmarking import (
        check_batch,
        decision_stats,
        finished_problems,
        make_batch,
        record_batch,
    )

    game = get_game(args.game)
    spec = game.strategies.get("ismcts")
    STRATEGY_ISMCTS = spec.strategy_id
    MAX_PLAYERS = game.max_players
    rows, problems = [], []
    for lineup in lineups:
        seats = lineup.split(",")
        batch = make_batch(games, len(seats), lineup, seed=args.seed)
        common.log(f"{lineup}: compiling ...")
        t0 = time.perf_counter()
        record_batch(make_batch(1, len(seats), "random", seed=args.seed))  # compile harness
        _compile_policy(batch)
        common.log(f"  compiled / loaded in {time.perf_counter() - t0:.1f} s; "
                    f"{games} game(s) ...")
        best = None
        for _ in range(max(1, args.repeat)):
            w0, c0 = time.perf_counter(), time.thread_time()
            rec = record_batch(batch)
            wall, cpu = time.perf_counter() - w0, time.thread_time() - c0
            if best is None or cpu < best[1]:
                best = (wall, cpu, rec)
        wall, cpu, rec = best
        stats = decision_stats(batch, rec)
        ismcts_seats = np.zeros(MAX_PLAYERS, bool)
        ids = batch.lineup_ids[batch.lineups]  # [G, n] strategy id per seat
        decisions = 0
        for g in range(batch.games):
            for s in range(batch.players):
                if ids[g, s] == STRATEGY_ISMCTS:
                    ismcts_seats[s] = True
        # stats are summed over games; seats are fixed here (no rotation)
        decisions = int(stats[:MAX_PLAYERS][ismcts_seats, :, 1].sum())
        all_decisions = int(stats[MAX_PLAYERS, :, 0].sum())
        row = {
            "lineup": lineup, "players": batch.players, "games": batch.games,
            "seed": args.seed,
            "iterations": spec.named_params()["iterations"],
            "ismcts_seats": int(ismcts_seats.sum()),
            "ismcts_decisions_per_game": decisions / batch.games,
            "decisions_per_game": all_decisions / batch.games,
            "s_per_game": cpu / batch.games,
            "s_per_game_wall": wall / batch.games,
            "ismcts_decisions_per_s": decisions / cpu if cpu > 0 else float("nan"),
            "ms_per_ismcts_decision": 1e3 * cpu / decisions if decisions else float("nan"),
            "load_avg": common.load_avg(),
        }
        rows.append(row)
        common.log(f"  {row['s_per_game']:.2f} s/game, {row['ismcts_decisions_per_s']:.1f} "
                   f"ISMCTS decisions/s ({row['ms_per_ismcts_decision']:.0f} ms each, "
                   f"{row['ismcts_decisions_per_game']:.0f} per game)")
        if args.check:
            one = batch.slice(0, 1)
            found = check_batch(one, modes=())
            results, setups = one.run(1)
            found += finished_problems(one, results, setups)
            problems += [f"{lineup}: {x}" for x in found]
    common.write_csv("ismcts", rows, args)
    if args.check:
        common.fail_on(problems, "ismcts runs == simulate()")


def _compile_policy(batch) -> None:
    """Compile (or load) the batch kernels with a cheap ISMCTS setting, so the timed games do
    not include compilation."""
    import numpy as np

    from tajsim.running.benchmarking import Batch

    params = batch.lineup_params.copy()
    params[:, 0] = np.where(params[:, 0] > 0, 1.0, params[:, 0])  # 1 iteration
    cheap = Batch(batch.config, batch.task, batch.comp, batch.edition, batch.game_ids[:1],
                  batch.setup_ids[:1], batch.lineups[:1], batch.lineup_ids, params)
    cheap.run(1)


if __name__ == "__main__":
    main()
