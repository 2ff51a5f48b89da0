"""Taj Mahal's temperature curve and restriction lifts (docs/strategies.md, "Temperature and
restrictions in Taj Mahal"; issue 19).

    PYTHONPATH=. python docs/tajmahal_temperature.py curve   # docs/temperature.png + table
    PYTHONPATH=. python docs/tajmahal_temperature.py lifts   # how often each family is lifted

curve: one seat ``balanced:temperature=T`` against three ``balanced``, every seat rotation,
GAMES games a point (4 players, 2018 edition, seed 19), Wilson 95% intervals.
lifts: GAMES_LIFTS four-player games (seed 7) step by step, one ``balanced:forbid=F`` seat
rotated through the seats against three ``balanced``; every decision of the restricted seat
with more than one legal action counted, and those where every legal action was forbidden.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import tajsim
from tajsim.analysis.stats import wilson_interval

TEMPERATURES = (0, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8)
GAMES = 4000
GAMES_LIFTS = 100
DOCS = Path(__file__).resolve().parent


def curve() -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = []
    for t in TEMPERATURES:
        label = f"balanced:temperature={t:g}"
        df = tajsim.simulate(GAMES, players=4, strategies=[label, "balanced", "balanced",
                                                           "balanced"],
                             rotate=True, seed=19, game="tajmahal", progress=False)
        mine = df[df.strategy == label]
        wins = float(mine.winner.sum())
        lo, hi = wilson_interval(wins, len(mine))
        rows.append((t, len(mine), wins, float(lo), float(hi), mine.score.mean(),
                     mine.pts_connection.mean(), mine.pts_commodity.mean()))
        print(f"| {t:g} | {len(mine):,} | {wins:g} | {wins / len(mine):.1%} | "
              f"[{float(lo):.1%}, {float(hi):.1%}] | {mine.score.mean():.1f} | "
              f"{mine.pts_connection.mean():.1f} | {mine.pts_commodity.mean():.1f} |",
              flush=True)
    x = np.arange(len(rows))
    rate = np.array([r[2] / r[1] for r in rows]) * 100
    lo = np.array([r[3] for r in rows]) * 100
    hi = np.array([r[4] for r in rows]) * 100
    fig, ax = plt.subplots(figsize=(7.2, 4.2), dpi=100)
    ax.errorbar(x, rate, yerr=[rate - lo, hi - rate], fmt="o-", color="#8c6d31", capsize=4)
    ax.axhline(25, color="grey", ls="--", label="equal players (25%)")
    ax.set_xticks(x, [f"{t:g}" for t in TEMPERATURES])
    ax.set_xlabel("temperature of one seat (1 unit = 1 point of the heuristic's values)")
    ax.set_ylabel("win rate of that seat (%)")
    ax.set_title(f"Taj Mahal: balanced:temperature=T against 3 x balanced "
                 f"(n = {GAMES:,} a point)", fontsize=10)
    ax.legend(frameon=False)
    fig.tight_layout()
    fig.savefig(DOCS / "temperature.png")


def lifts() -> None:
    from tajsim.games.registry import get_game
    from tajsim.games.tajmahal.engine.game import Game
    from tajsim.games.tajmahal.strategies.restrictions import RESTRICTIONS, forbidden, lifted

    spec = get_game("tajmahal")
    k = spec.kernels
    plain_spec, plain = spec.strategies.parse("balanced")
    legal = np.empty(spec.n_actions, np.int64)
    for restriction in RESTRICTIONS:
        mine_spec, mine = spec.strategies.parse(f"balanced:forbid={restriction.name}")
        mask = 1 << restriction.bit
        decisions = lifts_n = taken = 0
        for g in range(GAMES_LIFTS):
            game = Game(4, "2018", 7, g)
            seat = g % 4
            state, comp, prng = game.state, game.comp, game.prng
            while (p := spec.current_player(state)) >= 0:
                n = k.legal_actions(state, comp, legal)
                vec = mine if p == seat else plain
                action = int(legal[0]) if n == 1 else int(k.choose_action(
                    plain_spec.strategy_id, state, comp, p, vec, prng, legal, n))
                if p == seat and n > 1:
                    decisions += 1
                    if lifted(state, comp, legal, n, mask):
                        lifts_n += 1
                    if forbidden(state, comp, action, mask):
                        taken += 1
                k.apply_action(state, comp, action)
        print(f"| `{restriction.name}` | {decisions:,} | {lifts_n:,} | {taken:,} |", flush=True)


if __name__ == "__main__":
    {"curve": curve, "lifts": lifts}[sys.argv[1]]()
