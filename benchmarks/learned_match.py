"""A game's ``learned`` against its base preset (issue 20, "Must show"), any game: at each
player count one learned seat against the base preset in the others (head to head at 2
players, both seatings equally often); the learned seat's share of the wins (a shared win
counts 1/k) with its Wilson 95% interval; the CPU per game of each (thread CPU time, every seat
the strategy). Optional extra strategies (search budgets) are measured the same way against
the base at 2 players, with their CPU per game: cost beside strength.

    python benchmarks/learned_match.py --game tajmahal --seed 2027 --games 4000 \\
        --extra ismcts:iterations=800@100
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from tajsim.games.registry import get_game
from tajsim.play.arena import Entry
from tajsim.play.learning import cost_per_game, learned_policy_of, match

#: Game ids of these matches (apart from tajsim train's evaluation, refinement and final games).
FIRST_GAME = 80_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="tajmahal")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--games", type=int, default=4000, help="games a player count")
    parser.add_argument("--players", default="2,4", help="player counts, comma-separated")
    parser.add_argument("--cost-games", type=int, default=400)
    parser.add_argument("--extra", action="append", default=[], metavar="STRATEGY@GAMES",
                        help="another strategy against the base at 2 players")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    spec = get_game(args.game)
    base_name = learned_policy_of(spec).base
    rules = spec.rules_code(spec.default_edition)

    def entry(text: str) -> Entry:
        strategy, params = spec.strategies.parse(text)
        return Entry(text, strategy.strategy_id, np.asarray(params, np.float64))

    learned, base = entry("learned"), entry(base_name)
    counts = [int(x) for x in args.players.split(",")]
    for players in counts:
        t0 = time.time()
        r = match(spec, learned, base, args.games, players, rules, args.seed, FIRST_GAME,
                  args.threads)
        print(f"learned vs {base_name}, {players} players: {r['share']:.4f} "
              f"[{r['ci_low']:.4f}, {r['ci_high']:.4f}] of {r['games']} games (parity "
              f"{r['parity']:.2f}) [{time.time() - t0:.0f} s]", flush=True)
    for players in counts:
        cl = cost_per_game(spec, learned, args.cost_games, players, rules, args.seed)
        cb = cost_per_game(spec, base, args.cost_games, players, rules, args.seed)
        print(f"CPU per game, {players} players, every seat: learned {cl * 1e3:.3f} ms, "
              f"{base_name} {cb * 1e3:.3f} ms ({cl / cb:.2f} x)", flush=True)
    for item in args.extra:
        text, n = item.rsplit("@", 1)
        t0 = time.process_time()
        r = match(spec, entry(text), base, int(n), 2, rules, args.seed, FIRST_GAME, 1)
        cpu = (time.process_time() - t0) / r["games"]
        print(f"{text} vs {base_name}, 2 players: {r['share']:.4f} [{r['ci_low']:.4f}, "
              f"{r['ci_high']:.4f}] of {r['games']} games; CPU {cpu:.3f} s a game (both "
              "seats)", flush=True)


if __name__ == "__main__":
    main()
