"""A game's ``net`` (issue 41, section 3, "Must show"): the network alone against the default
search and against the base preset, 2 players head to head (both seatings equally often), its
share of the wins with the Wilson 95% interval; its CPU per game against the base preset's and
the search's (thread CPU time, every seat the strategy); and, for each weights file given (the
rounds' checkpoints of one training run), the training CPU time it had: the curve of strength
against training time. Writes a JSON file.

    python benchmarks/net_agent.py --game tajmahal --weights ck.round1.npz ... \\
        --games-search 100 --games-base 1000 --out benchmarks/results/net_tajmahal.json

The search is the game's ``NetAgent.expert`` (Maharani ``mcts``, Taj Mahal ``ismcts``), the
base preset its ``NetAgent.base``. ``benchmarks/net_maharani.py`` is this script for Maharani
with its former option names (the figures of docs/net.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from tajsim.games.registry import get_game
from tajsim.play.arena import Entry
from tajsim.play.learning import cost_per_game, match

#: Game ids of these matches (apart from tajsim train's own evaluation games).
FIRST_GAME = 81_000_000


def main(argv: list[str] | None = None, prog: str = "benchmarks/net_agent.py") -> None:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game whose spec declares a net")
    parser.add_argument("--weights", nargs="+", required=True, type=Path,
                        help="net weights files, in training order")
    parser.add_argument("--seed", type=int, default=2041)
    parser.add_argument("--games-search", "--games-mcts", type=int, default=200,
                        dest="games_search",
                        help="games against the search a file (the last file: "
                             "--games-search-last)")
    parser.add_argument("--games-search-last", "--games-mcts-last", type=int, default=400,
                        dest="games_search_last")
    parser.add_argument("--games-base", type=int, default=1000)
    parser.add_argument("--cost-games", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    spec = get_game(args.game)
    agent = spec.net
    if agent is None:
        parser.error(f"{args.game} has no net strategy; expected a game whose spec declares one")
    rules = spec.rules_code(spec.default_edition)
    search_name = agent.expert.split(":")[0]

    def entry(text: str) -> Entry:
        strategy, params = spec.strategies.parse(text)
        return Entry(text, strategy.strategy_id, np.asarray(params, np.float64))

    search, base = entry(search_name), entry(agent.base)
    rows = []
    for k, path in enumerate(args.weights):
        weights, fp = agent.weights.load_net_file(path)
        net = Entry("net", agent.strategy_id, agent.params_of(fp))
        history = weights.meta.get("rounds", [])
        row = {"weights": path.name, "round": history[-1]["round"] if history else None,
               "train_cpu_s": weights.meta.get("train_cpu_s"),
               "train_decisions": history[-1]["pooled"] if history else None,
               "heldout_agree": history[-1]["heldout_agree"] if history else None,
               "alpha": weights.meta.get("alpha", 1.0)}
        n_search = args.games_search_last if k == len(args.weights) - 1 else args.games_search
        # the keys "vs_mcts_*" stay Maharani's names for its search (its JSON file's)
        search_key = "mcts" if search_name == "mcts" else "search"
        for label, other, n in (("base", base, args.games_base),
                                (search_key, search, n_search)):
            if n <= 0:
                continue
            t0 = time.time()
            r = match(spec, net, other, n, 2, rules, args.seed, FIRST_GAME, args.threads)
            row |= {f"vs_{label}_share": r["share"], f"vs_{label}_ci_low": r["ci_low"],
                    f"vs_{label}_ci_high": r["ci_high"], f"vs_{label}_games": r["games"]}
            print(f"{path.name}: net vs {other.label} {r['share']:.4f} [{r['ci_low']:.4f}, "
                  f"{r['ci_high']:.4f}] of {r['games']} games [{time.time() - t0:.0f} s]",
                  flush=True)
        rows.append(row)
    weights, fp = agent.weights.load_net_file(args.weights[-1])
    net = Entry("net", agent.strategy_id, agent.params_of(fp))
    cost = {label: cost_per_game(spec, e, n, 2, rules, args.seed) for label, e, n in
            (("net", net, args.cost_games), (agent.base, base, args.cost_games),
             (search_name, search, max(4, args.cost_games // 50)))}
    print("CPU per 2-player game, every seat: " + ", ".join(
        f"{k} {v * 1e3:.3f} ms" for k, v in cost.items())
        + f" (net / {agent.base} {cost['net'] / cost[agent.base]:.2f} x)", flush=True)
    out = {"command": f"python {prog} " + " ".join(f"{a}" for a in sys.argv[1:]),
           "game": args.game, "seed": args.seed, "players": 2, "interval": "Wilson 95%",
           "rows": rows, "cpu_per_game_ms": {k: v * 1e3 for k, v in cost.items()},
           f"net_over_{agent.base}_cost": cost["net"] / cost[agent.base]}
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
