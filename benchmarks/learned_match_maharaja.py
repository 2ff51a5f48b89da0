"""Maharaja's ``learned`` against its base preset (issue 20 item 4, "Must show"): head to head
with 2 players (both seatings equally often) and, at 4 players, one ``learned`` seat against
three ``hoarder`` seats (seats rotated); the learned seat's share of the wins (a shared win
counts 1/k) with its 95% Wilson interval, and the CPU seconds per game of a table of four
``learned`` and of four ``hoarder`` seats (one worker, warm kernels).

    python benchmarks/learned_match_maharaja.py --games 2000 --seed 7
    python benchmarks/learned_match_maharaja.py --learned "learned:w_palaces=2" --games 400
"""

from __future__ import annotations

import argparse
import time


def share(frame, prefix: str) -> tuple[float, int]:
    """Wins of the seats whose strategy text starts with ``prefix`` (a shared win 1/k), and
    the number of games."""
    winners = frame.groupby("game_id")["winner"].transform("sum")
    mine = frame["strategy"].str.startswith(prefix)
    return float((frame["winner"][mine] / winners[mine]).sum()), int(frame["game_id"].nunique())


def cost(strategy: str, games: int, seed: int) -> float:
    """CPU seconds per 4-player game with ``strategy`` in every seat (after a warm-up game)."""
    import tajsim

    tajsim.simulate(game="maharaja", games=2, players=4, strategies=[strategy], seed=seed,
                    workers=1, progress=False)
    t0 = time.process_time()
    tajsim.simulate(game="maharaja", games=games, players=4, strategies=[strategy], seed=seed,
                    workers=1, progress=False)
    return (time.process_time() - t0) / games


def main() -> None:
    import tajsim
    from tajsim.analysis.stats import wilson_interval

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learned", default="learned")
    ap.add_argument("--base", default="hoarder")
    ap.add_argument("--games", type=int, default=2000, help="games per table")
    ap.add_argument("--cost-games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    print("| table | games | learned share | parity | 95% interval |")
    print("|---|---:|---:|---:|---|")
    for players, seats in ((2, [args.learned, args.base]),
                           (4, [args.learned, args.base, args.base, args.base])):
        frame = tajsim.simulate(game="maharaja", games=args.games, players=players,
                                strategies=seats, seed=args.seed, rotate=True, workers=1,
                                progress=False)
        won, n = share(frame, args.learned.split(":")[0])
        low, high = wilson_interval(won, n)
        label = "head to head, 2 players" if players == 2 else f"1 learned + 3 {args.base}"
        print(f"| {label} | {n} | {won / n:.3f} | {1 / players:.3f} | "
              f"[{float(low):.3f}, {float(high):.3f}] |", flush=True)
    learned_s = cost(args.learned, args.cost_games, args.seed)
    base_s = cost(args.base, args.cost_games, args.seed)
    print(f"\nCPU per 4-player game, every seat the same: {args.learned} "
          f"{learned_s * 1e3:.3f} ms, {args.base} {base_s * 1e3:.3f} ms "
          f"(ratio {learned_s / base_s:.2f})")


if __name__ == "__main__":
    main()
