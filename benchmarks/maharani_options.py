"""Measurements behind docs/games/maharani/strategies.md, "Temperature and restrictions".

``curve``: one seat ``balanced:temperature=T`` against three ``balanced`` seats, every seat
rotation, ``--games`` games a point (4 players, seed 19): win rate (Wilson 95%) and mean gold
of the warm seat; writes a Markdown table and ``docs/games/maharani/temperature.png``.

``lifts``: step by step, one ``balanced:forbid=F`` seat (rotated through the seats) against
``balanced`` seats: how many of the restricted seat's decisions had every legal action in the
family (the restriction lifted), split into decisions with one legal action (forced by the
rules, never asked of the strategy) and choices.

    PYTHONPATH=. python benchmarks/maharani_options.py curve --games 4000
    PYTHONPATH=. python benchmarks/maharani_options.py lifts --games 100
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

TEMPERATURES = (0, 0.25, 0.5, 1, 2, 4, 8)
ROOT = Path(__file__).resolve().parents[1]


def curve(games: int, players: int, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    import tajsim
    from tajsim.analysis.stats import wilson_interval

    rows = []
    for t in TEMPERATURES:
        label = f"balanced:temperature={t:g}"
        start = time.time()
        df = tajsim.simulate(games, players=players,
                             strategies=[label] + ["balanced"] * (players - 1),
                             rotate=True, seed=19, game="maharani", workers=1, progress=False)
        mine = df[df.strategy == label]
        wins = int(mine.winner.sum())
        low, high = wilson_interval(wins, len(mine))
        rows.append((t, len(mine), wins, wins / len(mine), float(low), float(high),
                     mine.score.mean(), mine.second_tiles.mean(), time.time() - start))
    print("| temperature | n | wins | win rate | 95% interval | gold | second tiles |")
    print("|---:|---:|---:|---:|---|---:|---:|")
    for t, n, wins, rate, low, high, gold, second, _ in rows:
        print(f"| {t:g} | {n:,} | {wins:,} | {rate:.1%} | [{low:.1%}, {high:.1%}] | "
              f"{gold:.1f} | {second:.2f} |")
    print("wall s per point:", [round(r[-1], 1) for r in rows])
    fig, ax = plt.subplots(figsize=(6.4, 3.8))
    xs = np.arange(len(rows))
    rates = np.array([r[3] for r in rows])
    err = np.array([[r[3] - r[4] for r in rows], [r[5] - r[3] for r in rows]])
    ax.errorbar(xs, 100 * rates, yerr=100 * err, fmt="o-", capsize=4, color="tab:blue",
                label="balanced:temperature=T (Wilson 95%)")
    ax.axhline(100 / players, color="grey", ls="--", lw=1, label=f"parity {100 / players:.0f}%")
    ax.set_xticks(xs, [f"{r[0]:g}" for r in rows])
    ax.set_xlabel("temperature T (one unit = one gold of the heuristic's values)")
    ax.set_ylabel("win rate of the warm seat (%)")
    ax.set_title(f"Maharani, {players} players: one warm seat against {players - 1} x balanced\n"
                 f"(n = {rows[0][1]:,} player-games a point, every seat rotation)", fontsize=10)
    ax.set_ylim(0, max(100 / players + 10, 100 * rates.max() + 8))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper right")
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote", out)


def lifts(games: int, players: int) -> None:
    from tajsim.games.maharani.engine import enums as E
    from tajsim.games.maharani.engine import nb
    from tajsim.games.maharani.engine.components import default_components
    from tajsim.games.maharani.play.nb import start_game_nb
    from tajsim.games.maharani.spec import SPEC
    from tajsim.games.maharani.strategies.nb import choose_action_nb
    from tajsim.games.maharani.strategies.restrictions import RESTRICTIONS, lifted

    comp = default_components().packed()
    plain_spec, plain = SPEC.strategies.parse("balanced")
    print("| family | decisions | lifted | of them forced (one legal action) | lifted choices |")
    print("|---|---:|---:|---:|---:|")
    for restriction in RESTRICTIONS:
        spec, params = SPEC.strategies.parse(f"balanced:forbid={restriction.name}")
        mask = 1 << restriction.bit
        decisions = forced = chosen = 0
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        legal = np.empty(E.N_ACTIONS, np.int64)
        for game in range(games):
            seat = game % players
            start_game_nb(comp, players, 0, 7, game, game, state, prng)
            while state[E.S_PHASE] != E.PHASE_GAME_OVER:
                n = nb.legal_actions_nb(state, comp, legal)
                p = int(state[E.S_CUR])
                if p == seat:
                    decisions += 1
                    if lifted(state, comp, legal, n, mask):
                        if n == 1:
                            forced += 1
                        else:
                            chosen += 1
                vec, sid = (params, spec.strategy_id) if p == seat else \
                    (plain, plain_spec.strategy_id)
                action = legal[0] if n == 1 else choose_action_nb(sid, state, comp, p, vec,
                                                                  prng, legal, n)
                nb.apply_action_nb(state, comp, action)
        print(f"| `{restriction.name}` | {decisions:,} | {forced + chosen:,} | {forced:,} | "
              f"{chosen:,} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["curve", "lifts"])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--out", type=Path,
                        default=ROOT / "docs" / "games" / "maharani" / "temperature.png")
    args = parser.parse_args()
    if args.what == "curve":
        curve(args.games, args.players, args.out)
    else:
        lifts(args.games, args.players)
