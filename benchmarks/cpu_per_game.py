"""CPU seconds a game of each strategy against a fixed opponent (issue 41: the equal-time
comparisons of Maharaja's ``turnsearch`` and ``search`` pick their budgets from it).

For each strategy: one warm-up game (the compile), then ``--games`` 2-player games against
``--against`` (both seatings, one worker), timed with ``time.process_time()`` (this process's
CPU, so a loaded machine slows the run, not the figure). The opponent's own cost is included
(``hoarder``: under a millisecond a game).

    python benchmarks/cpu_per_game.py --game maharaja --games 40 \\
        turnsearch:ms=2 search:ms=8 turnsearch:ms=8 search:ms=26
"""

from __future__ import annotations

import argparse
import time


def cpu_per_game(game: str, strategy: str, against: str, games: int, players: int,
                 seed: int) -> float:
    """CPU seconds a game of ``strategy`` against ``against`` (warm: compiled first)."""
    import tajsim

    kw = dict(game=game, players=players, strategies=[strategy, against], rotate=True,
              workers=1, progress=False)
    tajsim.simulate(games=players, seed=seed + 1, **kw)
    t0 = time.process_time()
    tajsim.simulate(games=games, seed=seed, **kw)
    return (time.process_time() - t0) / games


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("strategies", nargs="+")
    ap.add_argument("--game", required=True)
    ap.add_argument("--against", default="hoarder")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=3)
    args = ap.parse_args()
    print(f"| strategy (against {args.against}) | games | CPU s / game |")
    print("|---|---:|---:|")
    for strategy in args.strategies:
        cpu = cpu_per_game(args.game, strategy, args.against, args.games, args.players,
                           args.seed)
        print(f"| {strategy} | {args.games} | {cpu:.3f} |", flush=True)


if __name__ == "__main__":
    main()
