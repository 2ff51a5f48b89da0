"""How often the two readings of the end of Maharaja differ (rule R27 against option ten_rounds).

Usage: PYTHONPATH=. python experiments/maharaja/track_length.py [--games 2000] [--seed 27]

Under the default rules the game ends when a governor reaches round box 10; a governor moved
down from the top over an empty box lowers the top (R27), so a game can run past round 10.
Under the rule option ``ten_rounds`` it ends after round 10 whatever the track shows. For
each 4-player line-up the same games (same seeds and game ids) are played under both
readings; the Markdown table gives the games that ran past round 10 under the default reading
(the only games the option changes, with a 95% Wilson interval), the longest game, and the
games whose winner differs between the readings. Line-ups: compiled strategies (mirror matches
and a mixed field with rotated seats) and the governor-heavy Python strategy
``strategies/maharaja_governor_mover.py`` (every round the governor action twice), alone and
with compiled seats (seats rotated game by game).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from tajsim.analysis.stats import wilson_interval
from tajsim.games.registry import get_game
from tajsim.play.mixed import play_python_games

GOVERNOR_MOVER = "py:" + str(Path(__file__).resolve().parents[2] / "strategies"
                             / "maharaja_governor_mover.py")

#: The seats of each 4-player line-up (rotated through the seats game by game).
LINEUPS: dict[str, list[str]] = {
    "random x 4": ["random"] * 4,
    "balanced x 4": ["balanced"] * 4,
    "hoarder, balanced, tollroad, character": ["hoarder", "balanced", "tollroad", "character"],
    "balanced:governor=10 x 4 (compiled, governor-heavy)": ["balanced:governor=10"] * 4,
    "governor_mover + 3 balanced": ["governor_mover"] + ["balanced"] * 3,
    "2 governor_mover + 2 balanced": ["governor_mover"] * 2 + ["balanced"] * 2,
    "3 governor_mover + balanced": ["governor_mover"] * 3 + ["balanced"],
    "3 governor_mover + random": ["governor_mover"] * 3 + ["random"],
    "governor_mover x 4": ["governor_mover"] * 4,
}


def play(seats: list[str], games: int, seed: int,
         options: dict[str, bool] | None) -> tuple[np.ndarray, np.ndarray]:
    """Rounds played (int64[games]) and winning seat (int64[games]) of each game."""
    spec = get_game("maharaja")
    # Python seats are loaded afresh for each reading, so both replay the same decisions
    table = [GOVERNOR_MOVER if s == "governor_mover" else s for s in seats]
    results, setups, _ = play_python_games(spec, table, games, seed=seed, options=options)
    winners = results["seat"][results["rank"] == 1]
    return np.asarray(setups["n_rounds"], np.int64), np.asarray(winners, np.int64)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=27)
    args = parser.parse_args(argv)
    print(f"4-player games, seed {args.seed}, {args.games} games per line-up "
          "and reading\n")
    print("| line-up | n | past round 10 (default) | 95% interval | longest | winner differs |")
    print("| :--- | ---: | ---: | :--- | ---: | ---: |")
    for label, seats in LINEUPS.items():
        rounds, winners = play(seats, args.games, args.seed, None)
        rounds_ten, winners_ten = play(seats, args.games, args.seed, {"ten_rounds": True})
        longer = rounds > 10
        # the option may only cut the games that ran past round 10, at round 10
        assert (rounds_ten == np.minimum(rounds, 10)).all(), label
        assert (winners_ten[~longer] == winners[~longer]).all(), label
        low, high = wilson_interval(int(longer.sum()), args.games)
        differs = int((winners != winners_ten).sum())
        print(f"| {label} | {args.games:,} | {int(longer.sum())} ({longer.mean():.1%}) | "
              f"[{float(low):.1%}, {float(high):.1%}] | {int(rounds.max())} | "
              f"{differs} ({differs / args.games:.1%}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
