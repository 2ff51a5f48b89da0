"""Where the tiles' arrows point under each seating of 2 and 3 players (Markdown table).

Usage: PYTHONPATH=. python experiments/maharani/seating.py [--games 2000] [--seed 9]
                                                             [--conclusions-games 4800]

Which sides the position markers take with 2 and 3 players is reconstructed
(docs/games/maharani/components.md, "Seatings"): the shipped file and the two seating
alternatives (``alternative_components(1001)``, ``(1002)``). A tile brings the player who lays
it an artisan only when its arrow points at that player's marker (R8 of rules.md). For each
seating, player count and line-up the table gives, over the games' tiles, the share whose arrow
points at the layer's own side (an artisan), at another seat's side, and at a side where nobody
sits (both: nothing), and the artisans placed or moved per tile laid (below the own-side share
only when a player's reserve is empty); each share is the mean of the per-game shares with its
95% t interval (n = games). Line-ups: ``random`` in every seat, and the four heuristic presets
of the robustness experiment (every pair or triple of them, every seat rotation).

A second table gives the robustness experiment's key conclusions for 2 and 3 players under each
seating (``tajsim.analysis.robustness``; the same runs as its 2- and 3-player runs of the
variants default, seating-1 and seating-2: seed 17, ``--conclusions-games`` games each), with
each value's estimate and 95% interval.
"""

from __future__ import annotations

import argparse
import itertools
import sys

import numpy as np

import tajsim
from tajsim.analysis.robustness import conclusion_values, robustness
from tajsim.analysis.stats import mean_ci
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine.components import alternative_components, default_components
from tajsim.games.registry import get_game
from tajsim.play.mixed import play_mixed_game
from tajsim.running.records import concat_results

SEATINGS = {"shipped": None, "seating 1 (alternative 1001)": 1001,
            "seating 2 (alternative 1002)": 1002}
PRESETS = ["balanced", "artisans", "thrifty", "greedy"]


def tables(field: str, n_players: int, games: int) -> list[list[str]]:
    """The seat list of each game: ``random`` everywhere, or the presets' tables in turn."""
    if field == "random":
        return [["random"] * n_players] * games
    rotations = [list(p) for c in itertools.combinations(PRESETS, n_players)
                 for p in itertools.permutations(c)]
    return [rotations[g % len(rotations)] for g in range(games)]


def arrow_shares(comps, n_players: int, field: str, games: int, seed: int) -> np.ndarray:
    """float64[games, 4]: per game, the shares of tiles with the arrow at the layer's side, at
    another seat's side, at an empty side, and the artisans placed or moved per tile."""
    spec = get_game("maharani")
    sides = comps.seat_sides[n_players]
    counts = np.zeros(3)

    def count(game, player, action):
        if E.ACTION_PLACE <= action < E.ACTION_PLACE + E.N_PLACE_ACTIONS:
            arrow = (action - E.ACTION_PLACE) % E.N_DIRS
            counts[0 if arrow == sides[player] else 1 if arrow in sides else 2] += 1

    out = np.zeros((games, 4))
    for g, seats in enumerate(tables(field, n_players, games)):
        counts[:] = 0
        game = play_mixed_game(spec, seats, seed=seed, game_id=g, components=comps,
                               on_action=count)
        s = game.state
        artisans = sum(int(s[E.S_ARTISANS_NEW + p] + s[E.S_ARTISANS_MOVED + p])
                       for p in range(n_players))
        tiles = counts.sum()
        assert tiles == sum(int(s[E.S_TILES_PLACED + p]) for p in range(n_players))
        out[g] = [*(counts / tiles), artisans / tiles]
    return out


def conclusions_table(games: int) -> None:
    """The robustness conclusions of the 2- and 3-player fields under each seating."""
    frames = {}
    for label, seed in SEATINGS.items():
        parts = [tajsim.simulate(games=games, players=n, strategies=PRESETS, rotate="round-robin",
                                 edition="2012", seed=17, game="maharani", progress=False,
                                 components=None if seed is None else {"alternative": seed})
                 for n in (2, 3)]
        frames[label] = concat_results(parts)
    table = robustness(frames)
    detail = conclusion_values(frames).set_index(["conclusion", "variant"])["detail"]
    print(f"\n{games} games per player count and seating, seed 17\n")
    print("| conclusion | holds under every seating | " + " | ".join(SEATINGS) + " |")
    print("| :--- | :--- | " + " | ".join(":---" for _ in SEATINGS) + " |")
    for row in table.to_dict("records"):
        cells = [f"{row[label]} ({detail[(row['conclusion'], label)]})" for label in SEATINGS]
        print(f"| {row['conclusion']} | {'yes' if row['holds_in_all'] else 'no'} | "
              + " | ".join(cells) + " |")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--conclusions-games", type=int, default=4800)
    args = parser.parse_args(argv)
    print(f"seed {args.seed}, {args.games} games per row; mean of the per-game shares "
          "[95% interval]\n")
    print("| players | line-up | seating | sides | arrow at the layer | at another seat | "
          "at an empty side | artisans per tile |")
    print("| ---: | :--- | :--- | :--- | :--- | :--- | :--- | :--- |")
    for n_players in (2, 3):
        for field in ("random", "presets"):
            for label, seed in SEATINGS.items():
                comps = default_components() if seed is None else alternative_components(seed)
                shares = arrow_shares(comps, n_players, field, args.games, args.seed)
                cells = []
                for k in range(4):
                    mean, low, high, _, _ = mean_ci(shares[:, k])
                    cells.append(f"{mean:.1%} [{low:.1%}, {high:.1%}]")
                sides = ", ".join(E.DIR_NAMES[d] for d in comps.seat_sides[n_players])
                print(f"| {n_players} | {field} | {label} | {sides} | " + " | ".join(cells)
                      + " |", flush=True)
    conclusions_table(args.conclusions_games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
