"""How the heuristic presets play: behaviour metrics from a mixed field (Markdown table).

Usage: PYTHONPATH=. python experiments/maharani/preset_behaviour.py [--games 2000] [--players 4]

Every game seats the compared strategies (rotated through the seats); the table gives, per
strategy, the mean per game of: tiles laid, second tiles bought, markers turned face down,
refresh turns, artisans placed and moved, quarters completed, the largest zone of one tile, and
the share of its gold from each source (n = seats played; intervals in the analyses module).
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import default_components
from tajsim.games.maharani.play.nb import play_batch_nb
from tajsim.games.maharani.strategies.registry import REGISTRY

NAMES = ["greedy", "balanced", "zones", "artisans", "thrifty"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)
    n, G = args.players, args.games
    comp = default_components().packed()
    parsed = [REGISTRY.parse(x) for x in NAMES]
    ids = np.array([s.strategy_id for s, _ in parsed], np.int64)
    lineups = np.array([[(g + p) % len(NAMES) for p in range(n)] for g in range(G)], np.int64)
    res = np.zeros(G * n, E.RESULT_DTYPE)
    setups = np.zeros(G, E.SETUP_DTYPE)
    gids = np.arange(G, dtype=np.int64)
    play_batch_nb(comp, n, 0, args.seed, gids, gids, lineups, ids,
                  np.stack([p for _, p in parsed]), res, setups, *REGISTRY.kernel_switches(ids))
    who = lineups.reshape(-1)
    cols = ["tiles_placed", "second_tiles", "marker_turns", "refresh_turns", "artisans_placed",
            "artisans_moved", "quarters_completed", "best_zone"]
    print(f"{n} players, {G} games, strategies rotated: {', '.join(NAMES)} (seed {args.seed})")
    print()
    print("| strategy | n | gold | " + " | ".join(cols) + " | zones % | groups % | quarters % "
          "| second % |")
    print("|---|---:|---:|" + "---:|" * (len(cols) + 4))
    for k, name in enumerate(NAMES):
        r = res[who == k]
        score = r["score"].astype(float).mean()
        parts = [r[f"pts_{p}"].astype(float).mean() / score * 100 for p in E.PART_NAMES]
        vals = " | ".join(f"{r[c].astype(float).mean():.1f}" for c in cols)
        print(f"| {name} | {len(r)} | {score:.1f} | {vals} | "
              + " | ".join(f"{x:.0f}" for x in parts) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
