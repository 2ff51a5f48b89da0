"""Taj Mahal's ``learned`` against ``tuned`` (issue 20, "Must show"): head to head at 2 players
(both seatings equally often) and one learned seat against three tuned seats at 4; the learned
seat's share of the wins (a shared win counts 1/k) with its Wilson 95% interval; the CPU per
game of each (thread CPU time, every seat the strategy). Optional extra strategies are measured
against tuned head to head at 2 players with their CPU per game (search budgets beside
learned: cost beside strength).

    python benchmarks/learned_match.py --seed 2027 --games 2000 --games4 2000 \\
        --extra ismcts:iterations=200@100 --extra ismcts:iterations=800@100
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tajsim.games.registry import get_game
from tajsim.play.arena import Entry
from tajsim.play.learning import cost_per_game, match

#: Game ids of these matches (apart from tajsim train's evaluation and final games).
FIRST_GAME = 70_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--games", type=int, default=2000, help="2-player games")
    parser.add_argument("--games4", type=int, default=2000, help="4-player games")
    parser.add_argument("--extra", action="append", default=[], metavar="STRATEGY@GAMES",
                        help="another strategy against tuned at 2 players")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    spec = get_game("tajmahal")
    rules = spec.rules_code("2018")

    def entry(text: str) -> Entry:
        strategy, params = spec.strategies.parse(text)
        return Entry(text, strategy.strategy_id, np.asarray(params, np.float64))

    learned, tuned = entry("learned"), entry("tuned")
    for players, n in ((2, args.games), (4, args.games4)):
        t0 = time.time()
        r = match(spec, learned, tuned, n, players, rules, args.seed, FIRST_GAME, args.threads)
        print(f"learned vs tuned, {players} players: {r['share']:.4f} [{r['ci_low']:.4f}, "
              f"{r['ci_high']:.4f}] of {r['games']} games (parity {r['parity']:.2f}) "
              f"[{time.time() - t0:.0f} s]", flush=True)
    for players in (2, 4):
        cl = cost_per_game(spec, learned, 400, players, rules, args.seed)
        cb = cost_per_game(spec, tuned, 400, players, rules, args.seed)
        print(f"CPU per game, {players} players, every seat: learned {cl * 1e3:.3f} ms, tuned "
              f"{cb * 1e3:.3f} ms ({cl / cb:.2f} x)", flush=True)
    for item in args.extra:
        text, n = item.rsplit("@", 1)
        t0 = time.process_time()
        r = match(spec, entry(text), tuned, int(n), 2, rules, args.seed, FIRST_GAME, 1)
        cpu = (time.process_time() - t0) / r["games"]
        print(f"{text} vs tuned, 2 players: {r['share']:.4f} [{r['ci_low']:.4f}, "
              f"{r['ci_high']:.4f}] of {r['games']} games; CPU {cpu:.3f} s a game (both "
              "seats)", flush=True)


if __name__ == "__main__":
    main()
