"""Strength per second (issue 20 item 3): a game's search strategy with a time budget per
decision (``ms=``) against the game's best heuristic preset, 2 players, head to head.

For each budget: ``SEARCH:ms=X`` against the opponent, both seatings equally often
(``rotate=True``), one worker; the search's share of the wins (a shared win counts 1/k) with
its 95% Wilson interval, and the CPU seconds per game (both seats). Budgets are thread CPU
time, so a loaded machine slows the run, not the search: the figures hold on a shared machine.

    python benchmarks/strength_curve.py --game tajmahal --budgets 1,4,16,64 --games 100
    python benchmarks/strength_curve.py --game maharaja --budgets 1,4,16,64 --games 200,200,100,60
    python benchmarks/strength_curve.py --game maharaja --search turnsearch --opponent search \
        --budgets 1,4,16 --games 300,300,200

``--search`` names another search of the game with an ``ms`` budget (Maharaja's
``turnsearch``); the share is that of the seats whose strategy starts with its name.
"""

from __future__ import annotations

import argparse
import time

#: Per game: the search strategy and its default opponent, the best heuristic preset of the
#: game's strength ladder (``docs/strategies.md``, ``docs/games/*/strategies.md``).
SEARCHES = {
    "tajmahal": ("ismcts", "tuned"),
    "maharaja": ("search", "hoarder"),
    "maharani": ("mcts", "balanced"),
}


def strength_curve(game: str, budgets: list[float], games: list[int], opponent: str,
                   seed: int, search: str | None = None) -> None:
    """Print the curve as a Markdown table, one row per budget as it finishes (``search``:
    the searching strategy's name, the game's default search when None)."""
    import tajsim
    from tajsim.analysis.stats import wilson_interval

    search = search or SEARCHES[game][0]
    print(f"| ms a decision | games | {search} share | 95% interval | CPU s / game |")
    print("|---:|---:|---:|---|---:|")
    for ms, n in zip(budgets, games, strict=True):
        t0 = time.process_time()
        frame = tajsim.simulate(game=game, games=n, players=2,
                                strategies=[f"{search}:ms={ms:g}", opponent], seed=seed,
                                rotate=True, workers=1, progress=False)
        cpu = time.process_time() - t0
        winners = frame.groupby("game_id")["winner"].transform("sum")
        mine = frame["strategy"].str.startswith(search)
        share = float((frame["winner"][mine] / winners[mine]).sum())
        low, high = wilson_interval(share, n)
        print(f"| {ms:g} | {n} | {share / n:.3f} | [{float(low):.3f}, {float(high):.3f}] | "
              f"{cpu / n:.2f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True, choices=sorted(SEARCHES))
    ap.add_argument("--budgets", default="1,4,16,64", help="ms a decision, e.g. 1,4,16,64")
    ap.add_argument("--games", default="100",
                    help="games per budget (one number, or one per budget)")
    ap.add_argument("--opponent", help="default: the game's best heuristic preset")
    ap.add_argument("--search", help="the search given the budgets (default: the game's "
                                     "search, e.g. ismcts; Maharaja also has turnsearch)")
    ap.add_argument("--seed", type=int, default=2020)
    args = ap.parse_args()
    budgets = [float(x) for x in args.budgets.split(",")]
    games = [int(x) for x in args.games.split(",")]
    if len(games) == 1:
        games = games * len(budgets)
    if len(games) != len(budgets):
        raise SystemExit(f"--games {args.games}: expected one number or {len(budgets)}")
    if args.search and args.opponent and args.opponent.startswith(args.search):
        raise SystemExit(f"--opponent {args.opponent}: expected a strategy whose name does not "
                         f"start with --search {args.search} (the share is read by name)")
    strength_curve(args.game, budgets, games, args.opponent or SEARCHES[args.game][1],
                   args.seed, args.search)


if __name__ == "__main__":
    main()
