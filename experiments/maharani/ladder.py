"""A first strength ladder of the Maharani strategies, with Wilson intervals.

Usage (from the repository root)::

    PYTHONPATH=. python experiments/maharani/ladder.py [--games 400] [--mcts-games 200]
        [--players 2,4] [--out docs/games/maharani/ladder.md]

For each player count, every strategy plays ``--games`` games against ``reference`` copies
(``balanced`` by default) in the other seats, its seat rotated through every position; its
*share* is the mean of 1/k over games where it is one of k tied winners (parity: 1/n). MCTS
plays ``--mcts-games`` games (slower). Then the head-to-head that decides the search
requirement: ``mcts`` against the best heuristic preset at every other seat. Intervals are
Wilson 95% intervals on the share (ties count as fractions of a win).

The generic ladder (``tajsim ladder --game maharani``) will replace this once wired; this script
uses only the wing's kernels.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import default_components
from tajsim.games.maharani.play.nb import play_batch_nb, play_batch_parallel_nb
from tajsim.games.maharani.strategies.registry import REGISTRY

Z95 = 1.959963984540054


def wilson(share_sum: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``share_sum`` successes in ``n``)."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = share_sum / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def play(names: list[str], n_players: int, games: int, seed: int, threads: int = 1,
         first_game: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Play ``games`` games with ``names[0]`` rotated through every seat and ``names[1:]`` in
    the other seats (in order); returns (results, lineups)."""
    comp = default_components().packed()
    parsed = [REGISTRY.parse(x) for x in names]
    ids = np.array([s.strategy_id for s, _ in parsed], np.int64)
    params = np.stack([p for _, p in parsed])
    gids = np.arange(first_game, first_game + games, dtype=np.int64)
    lineups = np.empty((games, n_players), np.int64)
    for g in range(games):
        seat = g % n_players
        others = [k for k in range(1, n_players)]
        row = others[:seat] + [0] + others[seat:]
        lineups[g] = [min(k, len(names) - 1) for k in row]
    res = np.zeros(games * n_players, E.RESULT_DTYPE)
    setups = np.zeros(games, E.SETUP_DTYPE)
    switches = REGISTRY.kernel_switches(ids)
    if threads > 1:
        play_batch_parallel_nb(comp, n_players, 0, seed, gids, gids, lineups, ids, params, res,
                               setups, threads, *switches)
    else:
        play_batch_nb(comp, n_players, 0, seed, gids, gids, lineups, ids, params, res, setups,
                      *switches)
    return res, lineups


def share_of(res: np.ndarray, lineups: np.ndarray, who: int = 0) -> tuple[float, int]:
    """(sum of 1/k win shares, games) of line-up entry ``who``."""
    games, n = lineups.shape
    win = res["winner"].reshape(games, n)
    k = win.sum(axis=1)
    mine = (lineups == who) & win
    return float((mine.sum(axis=1) / np.maximum(k, 1)).sum()), games


def row(name: str, res: np.ndarray, lineups: np.ndarray, n: int, seconds: float) -> dict:
    s, games = share_of(res, lineups)
    lo, hi = wilson(s, games)
    score = res["score"].reshape(games, n)[lineups == 0].mean()
    return {"strategy": name, "games": games, "share": s / games, "lo": lo, "hi": hi,
            "parity": 1 / n, "mean_gold": float(score), "seconds": seconds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--mcts-games", type=int, default=200)
    parser.add_argument("--players", default="2,4")
    parser.add_argument("--reference", default="balanced")
    parser.add_argument("--mcts", default="mcts")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--out", default=None, help="write the tables as Markdown here")
    args = parser.parse_args(argv)
    lines = [f"Seed {args.seed}; each strategy against `{args.reference}` in every other seat, "
             "its seat rotated; share = mean of 1/k when one of k tied winners (parity 1/n); "
             "Wilson 95% intervals.", ""]
    heuristics = [s.name for s in REGISTRY.all() if s.strategy_id in (1, 2)]
    for n in (int(x) for x in args.players.split(",")):
        rows = []
        for name in ["random", *heuristics, args.mcts]:
            games = args.mcts_games if name.startswith("mcts") else args.games
            t0 = time.perf_counter()
            res, lineups = play([name, args.reference], n, games, args.seed, args.threads)
            rows.append(row(name, res, lineups, n, time.perf_counter() - t0))
            print(f"{n}p {name:>24}: share {rows[-1]['share']:.3f} "
                  f"[{rows[-1]['lo']:.3f}, {rows[-1]['hi']:.3f}] gold {rows[-1]['mean_gold']:.1f}"
                  f" ({rows[-1]['seconds']:.1f} s)", flush=True)
        best = max((r for r in rows if r["strategy"] in heuristics
                    and r["strategy"] != args.reference), key=lambda r: r["share"],
                   default=None)
        best_name = args.reference if best is None or best["share"] <= 1 / n else \
            best["strategy"]
        t0 = time.perf_counter()
        res, lineups = play([args.mcts, best_name], n, args.mcts_games, args.seed + 1,
                            args.threads, first_game=10**6)
        h2h = row(f"{args.mcts} vs {best_name}", res, lineups, n, time.perf_counter() - t0)
        print(f"{n}p head-to-head {h2h['strategy']}: share {h2h['share']:.3f} "
              f"[{h2h['lo']:.3f}, {h2h['hi']:.3f}] (parity {1 / n:.3f})", flush=True)
        lines += [f"### {n} players", "",
                  "| strategy | games | win share | 95% interval | mean gold | seconds |",
                  "|---|---:|---:|---|---:|---:|"]
        for r in sorted(rows, key=lambda r: -r["share"]):
            lines.append(f"| {r['strategy']} | {r['games']} | {r['share']:.3f} | "
                         f"[{r['lo']:.3f}, {r['hi']:.3f}] | {r['mean_gold']:.1f} | "
                         f"{r['seconds']:.1f} |")
        verdict = "outside" if h2h["lo"] > 1 / n else "NOT outside"
        lines += ["", f"Head-to-head, `{args.mcts}` against the best heuristic (`{best_name}`) "
                  f"in every other seat: share {h2h['share']:.3f} [{h2h['lo']:.3f}, "
                  f"{h2h['hi']:.3f}] over {h2h['games']} games; parity {1 / n:.3f} is "
                  f"{verdict} the interval.", ""]
    text = "\n".join(lines)
    if args.out:
        Path(args.out).write_text(text + "\n")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
