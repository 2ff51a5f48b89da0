"""Maharani's ``net`` (issue 41, section 3, "Must show"): ``benchmarks/net_agent.py --game
maharani`` under its former name and options (the figures of docs/net.md): the network alone
against ``mcts`` and ``balanced``, its CPU per game, and the curve of strength against training
time over the given weights files. Writes a JSON file.

    python benchmarks/net_maharani.py --weights /tmp/netrun2/ckpt.round1.npz ... \\
        --games-mcts 200 --games-base 1000 --out benchmarks/results/net_maharani.json
"""

from __future__ import annotations

import sys

from net_agent import main

if __name__ == "__main__":
    main(["--game", "maharani", *sys.argv[1:]], prog="benchmarks/net_maharani.py")
