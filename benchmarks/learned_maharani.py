"""Maharani's ``learned`` against ``balanced`` (issue 20, part 4 "Must show"), cost beside
strength: head to head with 2 players (both seatings), one seat against three ``balanced`` with
4, Wilson 95% intervals; CPU seconds (this thread) per game with the strategy in every seat.
Search budgets can be added to the same table (``--search``), on fewer games.

    PYTHONPATH=. python benchmarks/learned_maharani.py --games 4000 --seed 7 \\
        --search mcts:iterations=200 --search-games 200

The shares come from :func:`tajsim.play.learning.match` (the trainer's own match: seats
rotated, a shared win counted 1/k); the games are fresh (first game id 70,000,000, none of the
trainer's).
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from tajsim.games.registry import get_game
from tajsim.play.arena import Entry
from tajsim.play.learning import cost_per_game, match

FIRST_GAME = 70_000_000


def entry(spec, text: str) -> Entry:
    strategy, params = spec.strategies.parse(text)
    return Entry(text, strategy.strategy_id, np.asarray(params, np.float64))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--players", default="2,4")
    ap.add_argument("--strategy", default="learned")
    ap.add_argument("--base", default="balanced")
    ap.add_argument("--search", default="", help="comma-separated search strategies")
    ap.add_argument("--search-games", type=int, default=200)
    ap.add_argument("--cost-games", type=int, default=400)
    args = ap.parse_args()
    spec = get_game("maharani")
    rules = spec.rules_code(spec.default_edition)
    base = entry(spec, args.base)
    rows = []
    strategies = [(args.strategy, args.games)] + [
        (s, args.search_games) for s in args.search.split(",") if s]
    for n in (int(x) for x in args.players.split(",")):
        base_cost = cost_per_game(spec, base, args.cost_games, n, rules, args.seed)
        rows.append({"strategy": args.base, "players": n, "cost_ms": base_cost * 1e3})
        for text, games in strategies:
            a = entry(spec, text)
            result = match(spec, a, base, games, n, rules, args.seed, FIRST_GAME)
            cost_games = args.cost_games if "search" not in spec.strategies.get(
                text.split(":")[0]).tags else max(n, args.search_games // 10)
            cost = cost_per_game(spec, a, cost_games, n, rules, args.seed)
            row = {"strategy": text, "players": n, **result, "cost_ms": cost * 1e3,
                   "cost_ratio": cost / base_cost}
            rows.append(row)
            print(json.dumps(row), flush=True)
    print("| strategy | players | games | share of the wins | 95% interval | parity | "
          "CPU ms / game (every seat) | x balanced |")
    print("|---|---:|---:|---:|---|---:|---:|---:|")
    for row in rows:
        if "share" not in row:
            print(f"| `{row['strategy']}` | {row['players']} | | | | | "
                  f"{row['cost_ms']:.3f} | 1.00 |")
            continue
        print(f"| `{row['strategy']}` | {row['players']} | {row['games']:,} | "
              f"{row['share']:.3f} | [{row['ci_low']:.3f}, {row['ci_high']:.3f}] | "
              f"{row['parity']:.2f} | {row['cost_ms']:.3f} | {row['cost_ratio']:.2f} |")


if __name__ == "__main__":
    main()
