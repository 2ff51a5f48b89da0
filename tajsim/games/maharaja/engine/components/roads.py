"""The road graph of a Maharaja board: junction adjacency, hop distances and shortest routes."""

from __future__ import annotations

from collections import deque

import numpy as np

from tajsim.games.maharaja.engine import enums as E


def adjacency(roads: np.ndarray) -> list[list[tuple[int, int]]]:
    """Per junction: (neighbour, road) pairs."""
    adj: list[list[tuple[int, int]]] = [[] for _ in range(E.N_JUNCTIONS)]
    for r, (a, b) in enumerate(roads):
        adj[int(a)].append((int(b), r))
        adj[int(b)].append((int(a), r))
    return adj


def bfs(adj: list[list[tuple[int, int]]], src: int) -> np.ndarray:
    dist = np.full(len(adj), -1, np.int64)
    dist[src] = 0
    queue = deque([src])
    while queue:
        j = queue.popleft()
        for k, _ in adj[j]:
            if dist[k] < 0:
                dist[k] = dist[j] + 1
                queue.append(k)
    return dist


def shortest_paths(roads: np.ndarray, a: int, b: int) -> list[list[int]]:
    """Every shortest route (as road lists) from junction a to junction b."""
    adj = adjacency(roads)
    dist = bfs(adj, b)
    out: list[list[int]] = []

    def walk(j: int, path: list[int]) -> None:
        if j == b:
            out.append(list(path))
            return
        for k, r in adj[j]:
            if dist[k] == dist[j] - 1:
                path.append(r)
                walk(k, path)
                path.pop()

    if dist[a] >= 0:
        walk(a, [])
    return out
