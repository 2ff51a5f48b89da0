"""A first strength ladder for Maharaja, with Wilson 95% intervals, written into
``docs/games/maharaja/strategies.md`` between the ``ladder`` markers.

Usage (from the repository root)::

    PYTHONPATH=. python experiments/maharaja/ladder.py [--random-games 2000] [--field-games 2000]
        [--search-games 400] [--seed 2024] [--write]

Three tables, all with 4 players and seats rotated (seat s of game g plays line-up entry
(g + s) mod 4, so every strategy sits in every seat equally often):

1. every strategy in one seat against three ``random`` seats;
2. every non-search strategy in one seat against three ``balanced`` seats (the field); the best
   of these is "the best heuristic";
3. ``search`` in one seat against three seats of the best heuristic.

Parity in one seat is 25%. The generic ``tajsim ladder`` replaces this script once the lead wires
the wing in.
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import re
import sys
import time
from pathlib import Path

import numba
import numpy as np

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components import default_components
from tajsim.games.maharaja.play.nb import play_batch_nb
from tajsim.games.maharaja.strategies.ids import kernel_switches
from tajsim.games.maharaja.strategies.registry import REGISTRY

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "games" / "maharaja" / "strategies.md"
N = 4


def wilson(k: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    r = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - r) / d, (c + r) / d


def one_vs_field(name: str, field: str, games: int, seed: int) -> dict:
    """``name`` in one seat against three ``field`` seats, seats rotated."""
    lineup = [name] + [field] * (N - 1)
    specs = [REGISTRY.parse(s) for s in lineup]
    ids = np.array([s.strategy_id for s, _ in specs], np.int64)
    params = np.stack([v for _, v in specs])
    comp = default_components().packed()
    gids = np.arange(games, dtype=np.int64)
    lineups = ((gids[:, None] + np.arange(N)[None, :]) % N).astype(np.int64)
    res = np.zeros(games * N, E.RESULT_DTYPE)
    setups = np.zeros(games, E.SETUP_DTYPE)
    t = time.perf_counter()
    play_batch_nb(comp, N, 0, seed, gids, gids, lineups, ids, params, res, setups,
                  *kernel_switches(ids))
    seconds = time.perf_counter() - t
    mine = lineups.reshape(-1) == 0
    wins = int(res["winner"][mine].sum())
    lo, hi = wilson(wins, games)
    return {"name": name, "field": field, "games": games, "wins": wins, "rate": wins / games,
            "lo": lo, "hi": hi, "palaces": float(res["palaces"][mine].mean()),
            "gold": float(res["gold"][mine].mean()), "seconds": seconds}


def row(r: dict) -> str:
    verdict = "above" if r["lo"] > 0.25 else ("below" if r["hi"] < 0.25 else "at")
    return (f"| `{r['name']}` | {r['games']} | {100 * r['rate']:.1f}% "
            f"[{100 * r['lo']:.1f}, {100 * r['hi']:.1f}] | {verdict} parity | "
            f"{r['palaces']:.2f} | {r['gold']:.1f} |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--random-games", type=int, default=2000)
    parser.add_argument("--field-games", type=int, default=2000)
    parser.add_argument("--search-games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--write", action="store_true", help="rewrite the docs section")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    names = [n for n in REGISTRY.names() if n != "random"]
    heuristics = [n for n in names if n != "search"]
    head = ("| strategy | games | wins (95% interval) | | palaces | gold |\n"
            "|---|---|---|---|---|---|")
    vs_random = [one_vs_field(n, "random", args.random_games if n != "search"
                              else args.search_games, args.seed) for n in names]
    vs_field = [one_vs_field(n, "balanced", args.field_games, args.seed + 1)
                for n in heuristics if n != "balanced"]
    best = max(vs_field, key=lambda r: r["rate"])["name"]
    search = one_vs_field("search", best, args.search_games, args.seed + 2)
    per_game = search["seconds"] / search["games"]
    lines = [
        f"Measured on {dt.date.today().isoformat()}: {platform.processor() or platform.machine()}"
        f" (shared 2-core VM), Python {platform.python_version()}, numba {numba.__version__}; "
        f"4 players, seats rotated, master seed {args.seed}; "
        f"{(time.perf_counter() - started) / 60:.0f} minutes in all. Regenerate with:",
        "",
        "```",
        f"PYTHONPATH=. python experiments/maharaja/ladder.py --random-games {args.random_games} "
        f"--field-games {args.field_games} --search-games {args.search_games} --seed "
        f"{args.seed} --write",
        "```",
        "",
        "Intervals are Wilson 95% intervals over games; parity in one seat is 25%.",
        "",
        "### One seat against three `random` seats",
        "", head, *[row(r) for r in vs_random],
        "",
        "### One seat against three `balanced` seats",
        "", head, *[row(r) for r in vs_field],
        "",
        f"The best heuristic against the `balanced` field is `{best}`.",
        "",
        f"### `search` in one seat against three `{best}` seats",
        "", head, row(search),
        "",
        f"`search` (default settings) costs {per_game:.2f} s per game with one search seat.",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        doc = DOC.read_text()
        new = re.sub(r"<!-- ladder:begin -->.*<!-- ladder:end -->",
                     f"<!-- ladder:begin -->\n\n{text}\n\n<!-- ladder:end -->", doc, flags=re.S)
        DOC.write_text(new)
        print(f"written into {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
