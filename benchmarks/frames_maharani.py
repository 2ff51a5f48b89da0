"""Fixed-seed Maharani frames saved from one tree, or two saved sets compared frame to frame.

Run once with the tree before a change on the path and once with the tree after it (each its
own ``NUMBA_CACHE_DIR``), then compare: the two trees must give identical frames (every
column, every row) for the same seeds. The cases cover random, the heuristic presets, greedy,
a mixed field and mcts at a few iterations, at 2, 3 and 4 players.

    PYTHONPATH=/tmp/base python benchmarks/frames_maharani.py save /tmp/frames-before
    PYTHONPATH=. python benchmarks/frames_maharani.py save /tmp/frames-after
    python benchmarks/frames_maharani.py compare /tmp/frames-before /tmp/frames-after
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

#: (name, players, strategies, games, seed)
CASES = [
    ("random2", 2, "random", 300, 11),
    ("random4", 4, "random", 300, 12),
    ("balanced3", 3, "balanced", 200, 13),
    ("greedy2", 2, "greedy", 200, 14),
    ("greedy4", 4, "greedy", 200, 15),
    ("field3", 3, "zones,artisans,thrifty", 240, 16),
    ("rotated3", 3, "balanced,random", 240, 21),
    ("field4", 4, "balanced,greedy,random", 200, 17),
    ("mcts2", 2, "mcts:iterations=20,balanced", 6, 18),
    ("mcts3", 3, "mcts:iterations=15:width=4,greedy,random", 6, 19),
    ("mcts4", 4, "mcts:iterations=10:rollout=1,balanced", 4, 20),
]


def save(folder: Path) -> None:
    import tajsim

    folder.mkdir(parents=True, exist_ok=True)
    for name, players, strategies, games, seed in CASES:
        frame = tajsim.simulate(games, players, strategies, seed=seed, game="maharani",
                                workers=1, progress=False)
        frame.to_parquet(folder / f"{name}.parquet")
        print(name, len(frame), flush=True)


def compare(a: Path, b: Path) -> int:
    bad = 0
    for name, *_ in CASES:
        fa = pd.read_parquet(a / f"{name}.parquet")
        fb = pd.read_parquet(b / f"{name}.parquet")
        try:
            pd.testing.assert_frame_equal(fa, fb, check_exact=True)
            print(f"{name}: identical ({len(fa)} rows, {fa.shape[1]} columns)")
        except AssertionError as err:
            bad += 1
            print(f"{name}: DIFFERENT: {str(err).splitlines()[0]}")
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1] == "save":
        save(Path(sys.argv[2]))
    else:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
