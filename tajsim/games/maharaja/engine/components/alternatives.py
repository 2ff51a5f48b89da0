"""Alternative Maharaja boards for robustness runs."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np

from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine.components.model import Components
from tajsim.games.maharaja.engine.components.roads import adjacency, bfs
from tajsim.games.maharaja.engine.components.toml_files import (
    board_problems,
    build,
    default_components,
)


def alternative_components(seed: int, base: Components | None = None) -> Components:
    """A valid alternative board drawn from ``seed`` (same numbers, names and provenance kinds).

    The junctions keep their names; their positions are jittered (the start stays the lowest
    middle junction of the map), the roads are a random planar subset of the Delaunay
    triangulation with 3 to 5 roads per junction, and the 30 villages are spread one or two per
    road at random. The result passes every board check. Pure function of ``(seed, base)``.
    """
    from scipy.spatial import Delaunay

    base = base or default_components()
    rng = np.random.default_rng([int(seed), 0x3A4A])
    for _attempt in range(1000):
        xy = base.junction_xy + rng.normal(0.0, 0.6, base.junction_xy.shape)
        tri = Delaunay(xy)
        edges: set[tuple[int, int]] = set()
        for simplex in tri.simplices:
            for a, b in itertools.combinations(sorted(int(s) for s in simplex), 2):
                edges.add((a, b))
        edge_list = sorted(edges)
        rng.shuffle(edge_list)
        degree = np.zeros(E.N_JUNCTIONS, np.int64)
        for a, b in edge_list:
            degree[a] += 1
            degree[b] += 1
        kept = list(edge_list)
        target = int(rng.integers(15, 19))
        for edge in list(edge_list):
            if len(kept) <= target and degree.max() <= E.MAX_DEGREE:
                break
            a, b = edge
            if degree[a] <= E.MIN_DEGREE or degree[b] <= E.MIN_DEGREE:
                continue
            trial = [e for e in kept if e != edge]
            if (bfs(adjacency(np.array(trial, np.int64)), E.START) < 0).any():
                continue
            kept = trial
            degree[a] -= 1
            degree[b] -= 1
        n_roads = len(kept)
        if not (15 <= n_roads <= E.N_VILLAGES and degree.min() >= E.MIN_DEGREE
                and degree.max() <= E.MAX_DEGREE):
            continue
        doubles = set(rng.choice(n_roads, size=E.N_VILLAGES - n_roads, replace=False).tolist())
        names = iter(base.village_names)
        roads_table = []
        jn = base.junction_names
        for r, (a, b) in enumerate(kept):
            k = 2 if r in doubles else 1
            roads_table.append({"between": [jn[a], jn[b]],
                                "villages": [next(names) for _ in range(k)]})
        board = {
            "name": f"alternative board {seed} from {base.name}",
            "provenance": {k.split(".", 1)[1]: v for k, v in base.provenance.items()
                           if k.startswith("board.")},
            "start": {"name": base.start_name, "xy": xy[E.START].tolist()},
            "city": [{"name": jn[c], "xy": xy[c].tolist()} for c in range(E.N_CITIES)],
            "road": roads_table,
        }
        board["provenance"]["roads"] = (f"reconstructed: random planar map (alternative board, "
                                        f"seed {seed})")
        problems, parsed = board_problems(board, f"alternative board {seed}")
        if problems:
            continue
        parts = {"numbers": dict(base.numbers), "gold": dict(base.gold_table),
                 "names": base.card_names, "name": "",
                 "provenance": {k.split(".", 1)[1]: v for k, v in base.provenance.items()
                                if k.startswith("components.")}}
        comps = build(parsed, parts, f"<alternative {seed}>", base.components_path)
        return replace(comps, name=board["name"], _cache={})
    raise RuntimeError(f"no valid alternative board found for seed {seed}")  # pragma: no cover
