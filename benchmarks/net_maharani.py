"""Maharani's ``net`` (issue 41, section 3, "Must show"): the network alone against the default
search and against the base preset, 2 players head to head (both seatings equally often), its
share of the wins with the Wilson 95% interval; its CPU per game against ``balanced``'s and
``mcts``'s (thread CPU time, every seat the strategy); and, for each weights file given (the
rounds' checkpoints of one training run), the training CPU time it had: the curve of strength
against training time. Writes a JSON file.

    python benchmarks/net_maharani.py --weights /tmp/netrun2/ckpt.round1.npz ... \\
        --games-mcts 200 --games-base 1000 --out benchmarks/results/net_maharani.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from tajsim.games.maharani.strategies.net_weights import load_net_file
from tajsim.games.registry import get_game
from tajsim.play.arena import Entry
from tajsim.play.learning import cost_per_game, match

#: Game ids of these matches (apart from tajsim train's own evaluation games).
FIRST_GAME = 81_000_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--weights", nargs="+", required=True, type=Path,
                        help="net weights files, in training order")
    parser.add_argument("--seed", type=int, default=2041)
    parser.add_argument("--games-mcts", type=int, default=200,
                        help="games against mcts a file (the last file: --games-mcts-last)")
    parser.add_argument("--games-mcts-last", type=int, default=400)
    parser.add_argument("--games-base", type=int, default=1000)
    parser.add_argument("--cost-games", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    spec = get_game("maharani")
    agent = spec.net
    rules = spec.rules_code(spec.default_edition)

    def entry(text: str) -> Entry:
        strategy, params = spec.strategies.parse(text)
        return Entry(text, strategy.strategy_id, np.asarray(params, np.float64))

    mcts, base = entry("mcts"), entry(agent.base)
    rows = []
    for k, path in enumerate(args.weights):
        weights, fp = load_net_file(path)
        net = Entry("net", agent.strategy_id, agent.params_of(fp))
        history = weights.meta.get("rounds", [])
        row = {"weights": path.name, "round": history[-1]["round"] if history else None,
               "train_cpu_s": weights.meta.get("train_cpu_s"),
               "train_decisions": history[-1]["pooled"] if history else None,
               "heldout_agree": history[-1]["heldout_agree"] if history else None,
               "alpha": weights.meta.get("alpha", 1.0)}
        n_mcts = args.games_mcts_last if k == len(args.weights) - 1 else args.games_mcts
        for label, other, n in (("base", base, args.games_base), ("mcts", mcts, n_mcts)):
            t0 = time.time()
            r = match(spec, net, other, n, 2, rules, args.seed, FIRST_GAME, args.threads)
            row |= {f"vs_{label}_share": r["share"], f"vs_{label}_ci_low": r["ci_low"],
                    f"vs_{label}_ci_high": r["ci_high"], f"vs_{label}_games": r["games"]}
            print(f"{path.name}: net vs {other.label} {r['share']:.4f} [{r['ci_low']:.4f}, "
                  f"{r['ci_high']:.4f}] of {r['games']} games [{time.time() - t0:.0f} s]",
                  flush=True)
        rows.append(row)
    weights, fp = load_net_file(args.weights[-1])
    net = Entry("net", agent.strategy_id, agent.params_of(fp))
    cost = {label: cost_per_game(spec, e, n, 2, rules, args.seed) for label, e, n in
            (("net", net, args.cost_games), ("balanced", base, args.cost_games),
             ("mcts", mcts, max(4, args.cost_games // 50)))}
    print("CPU per 2-player game, every seat: " + ", ".join(
        f"{k} {v * 1e3:.3f} ms" for k, v in cost.items())
        + f" (net / balanced {cost['net'] / cost['balanced']:.2f} x)", flush=True)
    out = {"command": "python benchmarks/net_maharani.py " + " ".join(
        f"{a}" for a in __import__("sys").argv[1:]),
        "seed": args.seed, "players": 2, "interval": "Wilson 95%",
        "rows": rows, "cpu_per_game_ms": {k: v * 1e3 for k, v in cost.items()},
        "net_over_balanced_cost": cost["net"] / cost["balanced"]}
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
