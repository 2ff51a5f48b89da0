"""Synthetic results frames with planted effects: the known answers the analysis tests check.

This module is for **tests and demonstrations only**; it plays no Taj Mahal. It writes frames that
follow ``docs/results-schema.md`` column for column (names, dtypes, invariants: score parts sum to
``score``; ``chain_v<k>`` sum to ``pts_palace + pts_connection``; ranks 1 = best, tied winners
share rank 1; each province tile is claimed by at most one player), with outcomes drawn from a
model whose parameters are known:

* every player-game has a latent utility
  ``u = strength[strategy] + lone_strategy_effect * lone + setup_seat_utility[setup, seat]
  + sum_k good_value[k] * goods_k + sum_v tile_visit_value[v] * tile_won_v``
  (``lone`` = 1 when no opponent at the table plays the player's strategy: a line-up effect),
  where ``setup_seat_utility = seat_effect + N(0, setup_effect_sd) + planted feature effect``;
* the finishing order is the order of ``u + Gumbel(0, 1)``, so the winner is drawn with
  probability ``softmax(u)`` over the table (a conditional logit) and the whole order is
  Plackett-Luce; the final score is ``round(60 + score_scale * (u + Gumbel))`` split into parts;
* Agra's province (when a province is called ``agra``) is always visited last, as in the game;
* chain points at a visit are ``placed + Poisson(province_chain_rate[province]) * placed`` with
  ``placed ~ Bernoulli(0.55)``.

So a planted ``good_value`` is the conditional-logit coefficient the commodity regression should
recover, a planted ``seat_effect`` is a seat advantage, planted strategy strengths fix the rating
order, and ``setup_effect_sd`` sets how much of seat 0's win variance is due to the setup; with
``lineups`` (explicit seatings) and ``lone_strategy_effect`` a line-up can be tied to a seat, the
confound the seat analyses must detect.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from tajsim.games.tajmahal.engine.component_files import default_components
from tajsim.games.tajmahal.engine.enums import GOOD_NAMES, N_VISITS

__all__ = ["SyntheticTruth", "board_names", "make_synthetic_results", "seat_win_probabilities"]

# Placeholder names used when the board data (Taj Mahal's components) is not available.
_FALLBACK_PROVINCES = (
    "kabul", "kashmir", "multan", "punjab", "sindh", "rajputana",
    "gujarat", "agra", "awadh", "bihar", "bengal", "deccan",
)
_FALLBACK_BONUS_CITIES = (
    "peshawar", "srinagar", "lahore", "thatta", "ajmer", "ahmadabad",
    "lucknow", "patna", "dhaka", "burhanpur", "delhi", "jaunpur",
)
_BONUS_MIX = ("rice", "tea", "spices", "jewels", "plus2", "draw")
BASE_SCORE = 60.0


def board_names() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Province slugs and bonus-city slugs of the default board, or placeholders.

    Returns
    -------
    (province_slugs, bonus_city_slugs) : tuple of tuple of str
        12 province slugs; the fortress cities other than Agra that start with a bonus tile.
    """
    try:  # the shipped board; placeholders if it cannot be read
        comps = default_components()
        provinces = tuple(comps.province_slugs)
        cities = tuple(comps.city_slugs[int(c)] for c in comps.bonus_cities)
        if len(provinces) == N_VISITS and cities:
            return provinces, cities
    except Exception:  # noqa: BLE001 - any failure means "use placeholders"
        pass
    return _FALLBACK_PROVINCES, _FALLBACK_BONUS_CITIES


@dataclass(frozen=True)
class SyntheticTruth:
    """The planted parameters of a synthetic frame.

    Attributes
    ----------
    strategies : tuple of str
    strategy_strength : dict of str to float
        Latent utility of each strategy (log-odds scale).
    seat_effect : ndarray of float64, shape (n_players,)
    good_value : dict of str to float
        Utility per good held, by kind (the conditional-logit coefficient).
    tile_visit_value : ndarray of float64, shape (12,)
        Utility of having claimed the province tile of visit v (index v - 1), on top of its goods.
    setup_seat_utility : ndarray of float64, shape (n_setups, n_players)
        Seat effect + random setup effect + planted feature effect, by setup_id and seat.
    province_chain_rate : dict of str to float
        Mean connection points per palace placed in a visit to the province.
    province_slugs, bonus_city_slugs : tuple of str
    lone_strategy_effect : float
        Utility added to a player whose strategy no opponent at the table plays.
    """

    strategies: tuple[str, ...]
    strategy_strength: dict[str, float]
    seat_effect: np.ndarray
    good_value: dict[str, float]
    tile_visit_value: np.ndarray
    setup_seat_utility: np.ndarray
    province_chain_rate: dict[str, float]
    province_slugs: tuple[str, ...]
    bonus_city_slugs: tuple[str, ...]
    notes: dict[str, object] = field(default_factory=dict)
    lone_strategy_effect: float = 0.0


def seat_win_probabilities(truth: SyntheticTruth) -> np.ndarray:
    """Exact win probability of each seat in each setup when only seat and setup effects act.

    Valid when strategies are equally strong and goods and tiles carry no value (then the winner
    is ``softmax(setup_seat_utility[s])``).

    Returns
    -------
    ndarray of float64, shape (n_setups, n_players)
    """
    u = truth.setup_seat_utility
    e = np.exp(u - u.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def make_synthetic_results(
    n_games: int = 2000,
    *,
    n_players: int = 4,
    edition: str = "2018",
    strategies: Sequence[str] = ("alpha", "beta", "gamma", "delta"),
    strategy_strength: Mapping[str, float] | None = None,
    seating: str = "random",
    lineups: Sequence[Sequence[str]] | None = None,
    lone_strategy_effect: float = 0.0,
    seat_effect: Sequence[float] | None = None,
    good_value: Mapping[str, float] | None = None,
    tile_visit_value: Sequence[float] | None = None,
    n_setups: int | None = None,
    setup_effect_sd: float = 0.0,
    setup_feature_effect: tuple[str, str | None, float] | None = None,
    province_chain_rate: Mapping[str, float] | None = None,
    tie_probability: float = 0.0,
    score_scale: float = 4.0,
    seed: int = 0,
    province_slugs: Sequence[str] | None = None,
    bonus_city_slugs: Sequence[str] | None = None,
    return_truth: bool = False,
) -> pd.DataFrame | tuple[pd.DataFrame, SyntheticTruth]:
    """Draw a synthetic results frame (one row per player per game) with planted effects.

    Parameters
    ----------
    n_games : int
        Games to draw.
    n_players : int
        Players per game (2..5).
    edition : {"2018", "2000"}
        Written to the ``edition`` column only.
    strategies : sequence of str
        Strategy names. With at least ``n_players`` strategies each game seats ``n_players``
        distinct ones in a random order (seats rotated); with fewer they are drawn with
        replacement.
    strategy_strength : mapping of str to float, optional
        Latent utility per strategy (missing ones 0).
    seating : {"random", "rotate"}
        ``random``: as described under ``strategies``. ``rotate`` (like the runner's rotated
        seats): seat ``p`` of game ``g`` is taken by strategy ``(p + g) % len(strategies)``, and
        the games of a setup come in blocks of ``len(strategies)`` consecutive games, so every
        setup sees every rotation equally often.
    lineups : sequence of sequences of str, optional
        Explicit seatings, cycled over the games: game ``g`` seats ``lineups[g % len(lineups)]``
        (one strategy name per seat; names must be in ``strategies``); the games of a setup
        come in blocks of ``len(lineups)``. Overrides ``seating``.
    lone_strategy_effect : float
        Utility added to a player when no opponent at its table plays the same strategy (a
        line-up effect: the strength of a strategy depends on its opponents).
    seat_effect : sequence of float, shape (n_players,), optional
        Utility per seat (a seat advantage when unequal).
    good_value : mapping of str to float, optional
        Utility per good held, keyed by ``rice``/``tea``/``spices``/``jewels``.
    tile_visit_value : sequence of float, shape (12,), optional
        Extra utility of the province tile of visit v (index v - 1).
    n_setups : int, optional
        Distinct setups; game ``g`` uses setup ``g % n_setups``. Default: one per game.
    setup_effect_sd : float
        Standard deviation of an independent normal utility per (setup, seat).
    setup_feature_effect : (column, level, effect), optional
        ``("bonus_<city>", kind, e)``: seat 0 gets ``+e`` utility in setups whose bonus tile at that
        city is ``kind``. ``("visit_<province>", None, e)``: seat 0 gets ``e * (visit - 6.5)``.
    province_chain_rate : mapping of str to float, optional
        Mean connection points per palace placed at a visit to that province (default 0.8).
    tie_probability : float
        Chance that a game ends in a two-way tie for the win (both rank 1).
    score_scale : float
        Points per unit of latent utility.
    seed : int
        Seed of the generator; also written to the ``seed`` column.
    province_slugs, bonus_city_slugs : sequence of str, optional
        Default: :func:`board_names`.
    return_truth : bool
        Also return the :class:`SyntheticTruth`.

    Returns
    -------
    DataFrame, or (DataFrame, SyntheticTruth)
        ``n_games * n_players`` rows in the results schema.
    """
    rng = np.random.default_rng(seed)
    G, P = int(n_games), int(n_players)
    if not 2 <= P <= 5:
        raise ValueError(f"n_players {P} must be between 2 and 5")
    default_provinces, default_cities = board_names()
    provinces = tuple(province_slugs or default_provinces)
    cities = tuple(bonus_city_slugs or default_cities)
    if len(provinces) != N_VISITS:
        raise ValueError(f"need {N_VISITS} province slugs, got {len(provinces)}")
    strategies = tuple(strategies)
    K = len(strategies)
    strength = np.array([float((strategy_strength or {}).get(s, 0.0)) for s in strategies])
    seat_eff = np.zeros(P) if seat_effect is None else np.asarray(seat_effect, dtype=np.float64)
    if seat_eff.shape != (P,):
        raise ValueError(f"seat_effect needs {P} values, got {seat_eff.shape}")
    good_val = np.array([float((good_value or {}).get(g, 0.0)) for g in GOOD_NAMES])
    tile_val = np.zeros(N_VISITS) if tile_visit_value is None else np.asarray(
        tile_visit_value, dtype=np.float64)
    chain_rate = np.array([float((province_chain_rate or {}).get(p, 0.8)) for p in provinces])
    S = G if n_setups is None else int(n_setups)

    # ---- setups: province order and bonus tiles ------------------------------------------
    keys = rng.random((S, N_VISITS))
    if "agra" in provinces:  # the province tile 12 lies on Agra's province: visited last
        keys[:, provinces.index("agra")] = 2.0
    order = np.argsort(keys, axis=1)  # order[s, k] = province at visit k+1
    visit_of = np.empty_like(order)
    np.put_along_axis(visit_of, order, np.arange(1, N_VISITS + 1)[None, :], axis=1)
    mix = np.resize(np.arange(len(_BONUS_MIX)), len(cities))
    bonus_kind = np.stack([rng.permutation(mix) for _ in range(S)]) if cities else np.zeros((S, 0))
    setup_util = seat_eff[None, :] + rng.normal(0.0, setup_effect_sd, (S, P))
    if setup_feature_effect is not None:
        column, level, effect = setup_feature_effect
        if column.startswith("bonus_"):
            c = cities.index(column.removeprefix("bonus_"))
            hit = bonus_kind[:, c] == _BONUS_MIX.index(str(level))
            setup_util[:, 0] += effect * hit
        elif column.startswith("visit_"):
            p = provinces.index(column.removeprefix("visit_"))
            setup_util[:, 0] += effect * (visit_of[:, p] - 6.5)
        else:
            raise ValueError(f"setup_feature_effect column {column!r} is not bonus_* or visit_*")
    setup_of_game = np.arange(G) % S

    # ---- lineups (seats rotated) ---------------------------------------------------------
    if lineups is not None:
        unknown = sorted({name for seats in lineups for name in seats} - set(strategies))
        if unknown:
            raise ValueError(f"lineups name {', '.join(unknown)}, not in strategies")
        table = [[strategies.index(name) for name in seats] for seats in lineups]
        if not table or any(len(seats) != P for seats in table):
            raise ValueError(f"lineups need {P} strategy names each")
        lineup = np.asarray(table, np.int64)[np.arange(G) % len(table)]
        setup_of_game = (np.arange(G) // len(table)) % S
    elif seating == "rotate":
        lineup = (np.arange(P)[None, :] + np.arange(G)[:, None]) % K
        setup_of_game = (np.arange(G) // K) % S
    elif seating != "random":
        raise ValueError(f"seating {seating!r} is not 'random' or 'rotate'")
    elif K >= P:
        lineup = np.argsort(rng.random((G, K)), axis=1)[:, :P]
    else:
        lineup = rng.integers(0, K, size=(G, P))

    # ---- province tiles and goods --------------------------------------------------------
    tile_kind = rng.integers(0, 4, size=(S, N_VISITS))
    tile_count = rng.integers(1, 3, size=(S, N_VISITS))
    claimed = rng.random((G, N_VISITS)) < 0.85
    claimer = rng.integers(0, P, size=(G, N_VISITS))
    tile_won = (claimer[:, None, :] == np.arange(P)[None, :, None]) & claimed[:, None, :]
    goods = rng.poisson(0.4, size=(G, P, 4))
    kinds = tile_kind[setup_of_game]  # (G, 12)
    counts = tile_count[setup_of_game]
    for g_kind in range(4):
        goods[:, :, g_kind] += (tile_won * ((kinds == g_kind) * counts)[:, None, :]).sum(axis=2)

    # ---- utility and finishing order -----------------------------------------------------
    lone = (lineup[:, :, None] == lineup[:, None, :]).sum(axis=2) == 1
    u = (
        strength[lineup]
        + lone_strategy_effect * lone
        + setup_util[setup_of_game]
        + goods @ good_val
        + tile_won.astype(np.float64) @ tile_val
    )
    y = u + rng.gumbel(0.0, 1.0, size=(G, P))

    # ---- score parts ---------------------------------------------------------------------
    placed = rng.random((G, P, N_VISITS)) < 0.55
    prov_at_visit = order[setup_of_game]  # (G, 12)
    conn = rng.poisson(chain_rate[prov_at_visit][:, None, :], size=(G, P, N_VISITS)) * placed
    chain = placed.astype(np.int64) + conn
    pts_palace = placed.sum(axis=2)
    pts_connection = conn.sum(axis=2)
    pts_commodity = (goods * (goods + 1) // 2).sum(axis=2)
    plus2 = rng.poisson(0.5, size=(G, P))
    taj = np.zeros((G, P), dtype=np.int64)
    taj_game = rng.random(G) < 0.5
    taj[np.arange(G), rng.integers(0, P, G)] = taj_game
    pts_bonus = 2 * plus2 + 4 * taj
    pts_special = 2 * rng.poisson(0.3, size=(G, P))
    others = pts_palace + pts_connection + pts_commodity + pts_bonus + pts_special
    target = np.rint(BASE_SCORE + score_scale * y).astype(np.int64)
    pts_cards = np.maximum(target - others, 0)
    score = others + pts_cards

    # rank by score, the edition's tie-break stands in as the latent y
    position = np.lexsort((-y, -score), axis=-1)  # (G, P) seats from best to worst
    rank = np.empty((G, P), dtype=np.int64)
    np.put_along_axis(rank, position, np.arange(1, P + 1)[None, :], axis=1)
    if tie_probability > 0:
        tie = rng.random(G) < tie_probability
        first = position[:, 0]
        second = position[:, 1]
        gi = np.flatnonzero(tie)
        gap = score[gi, first[gi]] - score[gi, second[gi]]
        pts_cards[gi, second[gi]] += gap
        score[gi, second[gi]] += gap
        rank[gi, second[gi]] = 1
    winner = rank == 1

    bonus_goods = goods.sum(axis=2) - (tile_won * counts[:, None, :]).sum(axis=2)
    frame = _assemble(
        G=G, P=P, seed=seed, edition=edition, strategies=strategies, lineup=lineup,
        score=score, rank=rank, winner=winner,
        parts=(pts_palace, pts_connection, pts_commodity, pts_bonus, pts_special, pts_cards),
        goods=goods, tile_won=tile_won, chain=chain, placed=placed,
        n_bonus_tiles=plus2 + taj + np.maximum(bonus_goods, 0), setup_of_game=setup_of_game,
        visit_of=visit_of, provinces=provinces, cities=cities, bonus_kind=bonus_kind, rng=rng,
    )
    if not return_truth:
        return frame
    truth = SyntheticTruth(
        strategies=strategies,
        strategy_strength={s: float(v) for s, v in zip(strategies, strength)},
        seat_effect=seat_eff,
        good_value={g: float(v) for g, v in zip(GOOD_NAMES, good_val)},
        tile_visit_value=tile_val,
        setup_seat_utility=setup_util,
        province_chain_rate={p: float(r) for p, r in zip(provinces, chain_rate)},
        province_slugs=provinces,
        bonus_city_slugs=cities,
        lone_strategy_effect=float(lone_strategy_effect),
    )
    return frame, truth


def _assemble(
    *,
    G: int,
    P: int,
    seed: int,
    edition: str,
    strategies: tuple[str, ...],
    lineup: np.ndarray,
    score: np.ndarray,
    rank: np.ndarray,
    winner: np.ndarray,
    parts: tuple[np.ndarray, ...],
    goods: np.ndarray,
    tile_won: np.ndarray,
    chain: np.ndarray,
    placed: np.ndarray,
    n_bonus_tiles: np.ndarray,
    setup_of_game: np.ndarray,
    visit_of: np.ndarray,
    provinces: tuple[str, ...],
    cities: tuple[str, ...],
    bonus_kind: np.ndarray,
    rng: np.random.Generator,
) -> pd.DataFrame:
    flat = G * P
    game_id = np.repeat(np.arange(G, dtype=np.int64), P)
    cols: dict[str, object] = {
        "game_id": game_id,
        "seed": np.full(flat, seed, dtype=np.int64),
        "edition": pd.Categorical([edition] * flat, categories=["2018", "2000"]),
        "n_players": np.full(flat, P, dtype=np.int8),
        "seat": np.tile(np.arange(P, dtype=np.int8), G),
        "strategy": pd.Categorical.from_codes(lineup.reshape(-1), categories=list(strategies)),
        "score": score.reshape(-1).astype(np.int16),
        "rank": rank.reshape(-1).astype(np.int8),
        "winner": winner.reshape(-1),
    }
    for name, part in zip(("palace", "connection", "commodity", "bonus", "special", "cards"),
                          parts):
        cols[f"pts_{name}"] = part.reshape(-1).astype(np.int16)
    for k, good in enumerate(GOOD_NAMES):
        cols[f"goods_{good}"] = goods[:, :, k].reshape(-1).astype(np.int8)
    game_turns = rng.integers(80, 140, G)
    cols.update(
        n_palaces=placed.sum(axis=2).reshape(-1).astype(np.int16),
        n_province_tiles=tile_won.sum(axis=2).reshape(-1).astype(np.int8),
        n_bonus_tiles=n_bonus_tiles.reshape(-1).astype(np.int8),
        n_prestige=rng.poisson(1.0, flat).astype(np.int8),
        hand_end=rng.integers(0, 10, flat).astype(np.int16),
        setup_id=np.repeat(setup_of_game.astype(np.int64), P),
    )
    vis = visit_of[setup_of_game]
    for p, slug in enumerate(provinces):
        cols[f"visit_{slug}"] = np.repeat(vis[:, p], P).astype(np.int8)
    kinds = bonus_kind[setup_of_game]
    for c, slug in enumerate(cities):
        cols[f"bonus_{slug}"] = pd.Categorical.from_codes(
            np.repeat(kinds[:, c], P).astype(np.int64), categories=list(_BONUS_MIX))
    for k in range(N_VISITS):
        cols[f"tile_won_v{k + 1}"] = tile_won[:, :, k].reshape(-1)
    for k in range(N_VISITS):
        cols[f"chain_v{k + 1}"] = chain[:, :, k].reshape(-1).astype(np.int8)
    cols.update(
        n_turns=np.repeat(game_turns, P).astype(np.int16),
        n_reshuffles=np.repeat(rng.integers(0, 3, G), P).astype(np.int8),
        n_protests=np.repeat(rng.integers(0, 2, G) * (P == 2), P).astype(np.int8),
    )
    # Card shortages (R3): about a third of 5-player games run dry in the last visits.
    exhausted = (rng.random(G) < (0.3 if P == 5 else 0.0)) * rng.integers(10, 13, G)
    short = (exhausted > 0) & (rng.random(G) < 0.8)
    missed = (np.repeat(exhausted > 0, P) * rng.integers(0, 3, flat)).astype(np.int8)
    cols.update(
        display_cards_missed=missed,
        deck_cards_missed=(missed > 1).astype(np.int8),
        n_short_deals=np.repeat(short, P).astype(np.int8),
        display_cards_short=np.repeat(short * 2, P).astype(np.int8),
        exhausted_visit=np.repeat(exhausted, P).astype(np.int8),
    )
    return pd.DataFrame(cols)
