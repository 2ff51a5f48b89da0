"""Maharani's network-guided search against the default search at equal time (issue 41,
section 3): ``benchmarks/net_guided.py --game maharani`` under its former name (the figures
of docs/net.md): ``mcts`` rolling out with the shipped ``net`` against ``mcts`` with its
heuristic rollouts, both at the same CPU budget a decision. Writes a JSON file.

    python benchmarks/net_guided_maharani.py --ms 4 --games 200 \\
        --out benchmarks/results/net_guided_maharani.json
"""

from __future__ import annotations

import sys

from net_guided import main

if __name__ == "__main__":
    main(["--game", "maharani", *sys.argv[1:]], prog="benchmarks/net_guided_maharani.py")
