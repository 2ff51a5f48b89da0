"""Plausible alternative Taj Mahal boards and bonus-tile mixes, for robustness runs."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from tajsim.engine.component_files import is_int
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.component_files import (
    ComponentError,
    check_components,
    default_components,
)
from tajsim.games.tajmahal.engine.components import Components

N_NEAREST = 5  # road endpoints are drawn among the N_NEAREST closest city pairs


def alternative_components(
    seed: int,
    base: Components | None = None,
    *,
    board: bool = True,
    bonus_mix: bool = True,
) -> Components:
    """A plausible alternative board and bonus-tile mix, random within the sourced constraints.

    Kept from ``base`` (default: ``default_components()``): provinces, cities and their
    positions, the roads inside provinces (rings, Agra's roads), which provinces are joined and
    by how many roads, Agra, the number of fortresses per province (as a multiset), the number
    of square bonus tiles and how many of them are commodities, the province tiles and cards.

    Randomised:

    - ``board``: the cities each road between two provinces joins: drawn without replacement
      among the ``N_NEAREST`` (5) closest city pairs of the two provinces, avoiding pairs whose
      road would cross an already drawn road on the map (province pairs in random order; the
      city of Agra only if it had such roads in ``base``); which provinces have how many
      fortresses (the per-province counts shuffled over the provinces other than Agra's) and
      which of their cities (uniformly, never Agra).
    - ``bonus_mix``: the commodity tiles split randomly over the four goods (a uniformly drawn
      composition, each good at least one tile when there are at least four), the others split
      between +2 and draw (each at least one when there are at least two).

    Parameters
    ----------
    seed : int
        Non-negative; the result is a deterministic function of (seed, base, flags). The board
        and the bonus mix use independent streams, so the bonus mix of a seed does not depend on
        ``board``.

    Returns
    -------
    Components
        Valid components (checked like a loaded file); ``board_path`` / ``components_path`` say
        "alternative seed=<seed> of <base path>".
    """
    if not is_int(seed) and not isinstance(seed, np.integer):
        raise ComponentError(f"alternative_components: seed {seed!r}, expected an integer >= 0")
    if seed < 0:
        raise ComponentError(f"alternative_components: seed {seed}, expected an integer >= 0")
    base = default_components() if base is None else base
    ss = np.random.SeedSequence(int(seed))
    rng_roads, rng_forts, rng_bonus = (np.random.default_rng(s) for s in ss.spawn(3))
    provenance = dict(base.provenance)
    roads, fortress, bonus = base.roads, base.city_fortress, base.bonus_tiles
    board_path, components_path = base.board_path, base.components_path
    tag = f"alternative_components(seed={int(seed)})"
    if board:
        roads = _random_roads(base, rng_roads)
        fortress = _random_fortresses(base, rng_forts)
        board_path = f"alternative seed={int(seed)} of {base.board_path}"
        provenance["inter_province_roads"] = (
            f"reconstructed: {tag}: each road between two provinces drawn among the "
            f"{N_NEAREST} closest city pairs; same province pairs and road counts as the base "
            "board"
        )
        provenance["fortress_cities"] = (
            f"reconstructed: {tag}: the base board's fortress counts per province shuffled over "
            "the provinces other than Agra's, cities drawn uniformly"
        )
    if bonus_mix:
        bonus = _random_bonus(base, rng_bonus)
        components_path = f"alternative seed={int(seed)} of {base.components_path}"
        provenance["bonus_tiles"] = (
            f"reconstructed: {tag}: the base mix's commodity tiles split randomly over the four "
            "goods (each at least one), the others between +2 and draw (each at least one)"
        )
    alt = dataclasses.replace(
        base,
        roads=roads,
        city_fortress=fortress,
        bonus_tiles=bonus,
        provenance=provenance,
        board_path=board_path,
        components_path=components_path,
        # The arrays we keep are read-only already; copies keep the new object independent.
        city_province=base.city_province.copy(),
        city_xy=base.city_xy.copy(),
        tile_goods=base.tile_goods.copy(),
        card_colour=base.card_colour.copy(),
        card_symbols=base.card_symbols.copy(),
    )
    problems = check_components(alt)
    if problems:  # pragma: no cover - a bug in the generator, not a user error
        raise RuntimeError(f"alternative_components produced invalid components: {problems[0]}")
    return alt


def _segments_cross(p: np.ndarray, q: np.ndarray, r: np.ndarray, s: np.ndarray) -> bool:
    def orient(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> float:
        return float((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]))

    return (orient(p, q, r) * orient(p, q, s) < 0) and (orient(r, s, p) * orient(r, s, q) < 0)


def _random_roads(base: Components, rng: np.random.Generator) -> np.ndarray:
    prov, xy = base.city_province, base.city_xy
    inter = base.inter_province_roads
    kept = [tuple(r) for r in base.roads[~inter].tolist()]
    agra_linked = bool(np.any(base.roads[inter] == base.agra_city))
    need: dict[tuple[int, int], int] = {}
    for a, b in base.roads[inter].tolist():
        key = (min(prov[a], prov[b]), max(prov[a], prov[b]))
        need[key] = need.get(key, 0) + 1
    pairs = sorted(need)
    order = rng.permutation(len(pairs))
    drawn: list[tuple[int, int]] = []
    for i in order:
        p, q = pairs[i]
        cands = [
            (a, b)
            for a in base.province_cities(p).tolist()
            for b in base.province_cities(q).tolist()
            if agra_linked or base.agra_city not in (a, b)
        ]
        cands.sort(key=lambda ab: (float(np.hypot(*(xy[ab[0]] - xy[ab[1]]))), ab))
        pool = cands[: max(N_NEAREST, need[(p, q)])]
        for _ in range(need[(p, q)]):
            free = [
                ab for ab in pool
                if not any(
                    len({*ab, *cd}) == 4 and _segments_cross(xy[ab[0]], xy[ab[1]], xy[cd[0]],
                                                              xy[cd[1]])
                    for cd in itertools.chain(kept, drawn)
                )
            ]
            choice = free or pool
            ab = choice[int(rng.integers(len(choice)))]
            pool.remove(ab)
            drawn.append(ab)
    return np.array(kept + drawn, dtype=np.int64).reshape(-1, 2)


def _random_fortresses(base: Components, rng: np.random.Generator) -> np.ndarray:
    fort = base.city_fortress.copy()
    fort[base.agra_city] = False
    others = [p for p in range(base.n_provinces) if p != base.agra_province]
    counts = [int(fort[base.province_cities(p)].sum()) for p in others]
    free = {p: [c for c in base.province_cities(p).tolist() if c != base.agra_city]
            for p in range(base.n_provinces)}
    for _ in range(1000):
        shuffled = [counts[i] for i in rng.permutation(len(counts))]
        if all(k <= len(free[p]) for p, k in zip(others, shuffled)):
            break
    else:  # pragma: no cover - only for boards with very uneven provinces
        shuffled = counts
    new = np.zeros(base.n_cities, dtype=bool)
    new[base.agra_city] = True
    plan = list(zip(others, shuffled)) + [
        (base.agra_province, int(fort[base.province_cities(base.agra_province)].sum()))
    ]
    for p, k in plan:
        if k:
            new[rng.choice(free[p], size=k, replace=False)] = True
    return new


def _composition(rng: np.random.Generator, total: int, parts: int, minimum: int) -> list[int]:
    """A uniformly drawn split of ``total`` into ``parts`` counts, each >= ``minimum``."""
    rest = total - parts * minimum
    cuts = np.sort(rng.choice(rest + parts - 1, size=parts - 1, replace=False))
    bounds = np.concatenate([[-1], cuts, [rest + parts - 1]])
    return [int(x) + minimum for x in np.diff(bounds) - 1]


def _random_bonus(base: Components, rng: np.random.Generator) -> np.ndarray:
    tiles = base.bonus_tiles
    n_goods = int(np.sum(tiles < E.N_GOODS))
    n_other = len(tiles) - n_goods
    goods = _composition(rng, n_goods, E.N_GOODS, 1 if n_goods >= E.N_GOODS else 0)
    other = _composition(rng, n_other, 2, 1 if n_other >= 2 else 0)
    counts = goods + other  # rice tea spices jewels plus2 draw
    return np.array([k for k, n in enumerate(counts) for _ in range(n)], dtype=np.int64)
