"""A game's network-guided search against its default search at equal time (issue 41, section
3): the search rolling out with the shipped ``net`` (the wing's
``registry.expert_with_net_rollout``) against the same search with its heuristic rollouts, both
at the same CPU budget a decision (``ms``), 2 players head to head, both seatings equally often;
the guided search's share of the wins with its Wilson 95% interval. A time budget: the faster
rollout searches more, and the records depend on the machine's speed and load. Writes a JSON
file.

    python benchmarks/net_guided.py --game tajmahal --ms 4 --games 200 \\
        --out benchmarks/results/net_guided_tajmahal.json
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path

import numpy as np

from tajsim.games.registry import get_game
from tajsim.play import conformance
from tajsim.play.arena import Entry
from tajsim.play.learning import match

#: Game ids of these matches (apart from the other benchmarks' and the trainer's).
FIRST_GAME = 83_000_000


def cpu_per_decision(spec, entry: Entry, n: int, seed: int) -> float:
    """This thread's CPU milliseconds a decision of ``entry`` over ``n`` 2-player decision
    states (:func:`tajsim.play.conformance.decision_states`; one decision first, compiling)."""
    points = conformance.decision_states(spec, 2, n, seed=seed)
    comp = spec.components.default().packed()
    switches = spec.strategies.kernel_switches([entry.strategy_id], [entry.params])

    def decide(point) -> None:
        state, prng, player, legal = point
        spec.kernels.choose_action(entry.strategy_id, state.copy(), comp, player, entry.params,
                                   prng.copy(), legal.copy(), len(legal), *switches)

    decide(points[0])
    t0 = time.thread_time()
    for point in points:
        decide(point)
    return (time.thread_time() - t0) / len(points) * 1e3


def main(argv: list[str] | None = None, prog: str = "benchmarks/net_guided.py") -> None:
    parser = argparse.ArgumentParser(prog=prog, description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True, help="a game whose spec declares a net")
    parser.add_argument("--ms", type=float, nargs="+", default=[4.0],
                        help="CPU milliseconds a decision, each side")
    parser.add_argument("--iterations", type=int, nargs="+", default=[],
                        help="instead of --ms: iterations a decision, each side (equal work "
                             "in iterations, not in time: reproducible from the seed)")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--cost-decisions", type=int, default=0,
                        help="with --iterations: also time each side's CPU a decision on this "
                             "many decision states (the guided search's cost ratio)")
    parser.add_argument("--seed", type=int, default=2042)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    spec = get_game(args.game)
    if spec.net is None:
        parser.error(f"{args.game} has no net strategy; expected a game whose spec declares one")
    guide = importlib.import_module(f"tajsim.games.{args.game}.strategies.registry")
    search_name = spec.net.expert.split(":")[0]
    rules = spec.rules_code(spec.default_edition)
    _, net_vec = spec.strategies.parse("net")
    rows = []
    budgets = ([("iterations", n, f"iterations={n}") for n in args.iterations]
               or [("ms", ms, f"ms={ms:g}") for ms in args.ms])
    for key, amount, budget in budgets:
        search_spec, search_vec = spec.strategies.parse(f"{search_name}:{budget}")
        guided = Entry(f"{search_name}:{budget}+net rollouts", search_spec.strategy_id,
                       guide.expert_with_net_rollout(search_vec, net_vec))
        plain = Entry(f"{search_name}:{budget}", search_spec.strategy_id,
                      np.asarray(search_vec))
        t0 = time.time()
        r = match(spec, guided, plain, args.games, 2, rules, args.seed, FIRST_GAME,
                  args.threads)
        rows.append({key: amount, "share": r["share"], "ci_low": r["ci_low"],
                     "ci_high": r["ci_high"], "games": r["games"],
                     "wall_s": round(time.time() - t0, 1)})
        print(f"{guided.label} vs {plain.label}: {r['share']:.4f} [{r['ci_low']:.4f}, "
              f"{r['ci_high']:.4f}] of {r['games']} games [{time.time() - t0:.0f} s]",
              flush=True)
        if key == "iterations" and args.cost_decisions > 0:
            cost = {e.label: cpu_per_decision(spec, e, args.cost_decisions, args.seed)
                    for e in (guided, plain)}
            rows[-1]["cpu_ms_per_decision"] = cost
            print("CPU a decision: " + ", ".join(f"{k} {v:.2f} ms" for k, v in cost.items())
                  + f" ({cost[guided.label] / cost[plain.label]:.2f} x)", flush=True)
    out = {"command": f"python {prog} " + " ".join(sys.argv[1:]),
           "game": args.game, "seed": args.seed, "players": 2, "interval": "Wilson 95%",
           "note": "time budgets: records depend on the machine's speed and load",
           "rows": rows}
    args.out.write_text(json.dumps(out, indent=2) + "\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
