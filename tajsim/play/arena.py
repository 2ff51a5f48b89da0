"""Small match runner for any game: tuning, the strength ladder and tests.

It calls the game's batch kernel (``GameSpec.kernels.play_batch``) directly (one game = a pure
function of the master seed and the game id), rotates seats so that every entry sits in every
seat equally often, and counts wins with ties shared. Big experiments belong to
``tajsim.simulate``; this module only needs lineups of a few compiled strategies.
:func:`play_mixed_lineups` plays the same matches step by step, for seats that are not compiled
(``py:FILE`` plug-ins, ``openspiel:BOT`` seats of ``tajsim.interop.openspiel``).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from tajsim.engine.spec import GameSpec
from tajsim.play.mixed import play_mixed_game, resolve_seat


@dataclass(frozen=True)
class Entry:
    """One lineup entry: a label, a compiled strategy id and its parameter vector."""

    label: str
    strategy_id: int
    params: np.ndarray


def entry(spec: GameSpec, text: str, label: str | None = None) -> Entry:
    """Entry for a registered strategy of ``spec`` such as ``"balanced"`` or
    ``"ismcts:iterations=50"``."""
    strategy, params = spec.strategies.parse(text)
    return Entry(label or text, strategy.strategy_id, params)


def weights_entry(spec: GameSpec, label: str, strategy_id: int, weights: np.ndarray) -> Entry:
    params = np.zeros(spec.n_params)
    params[: len(weights)] = weights
    return Entry(label, strategy_id, params)


_COMP: dict[str, np.ndarray] = {}


def packed_components(spec: GameSpec) -> np.ndarray:
    """The game's shipped components, packed for the kernels (cached)."""
    if spec.name not in _COMP:
        _COMP[spec.name] = spec.components.default().packed()
    return _COMP[spec.name]


def rotated_lineups(pattern: Sequence[int], n_games: int) -> np.ndarray:
    """int64[n_games, n]: game g seats entry ``pattern[(s + g) % n]`` at seat s.

    Use ``n_games`` a multiple of ``len(pattern)`` for exact balance.
    """
    pat = np.asarray(pattern, np.int64)
    n = len(pat)
    g = np.arange(n_games)[:, None]
    s = np.arange(n)[None, :]
    return pat[(s + g) % n]


def play_lineups(
    spec: GameSpec,
    entries: Sequence[Entry],
    lineups: np.ndarray,
    seed: int,
    *,
    edition: int = 0,
    first_game: int = 0,
    comp: np.ndarray | None = None,
    threads: int = 1,
) -> tuple[np.ndarray, np.ndarray]:
    """Play ``len(lineups)`` games; game k has id ``first_game + k`` and setup id = game id.

    ``edition`` is the rules code the kernels receive (``spec.rules_code``). Returns the per-seat
    result records (``strategy_id`` is the compiled id; use ``lineups`` to know which entry sat
    where) and the setup records.
    """
    play_batch = spec.kernels.play_batch
    comp = packed_components(spec) if comp is None else comp
    lineups = np.ascontiguousarray(lineups, np.int64)
    n_games, n = lineups.shape
    ids = np.array([e.strategy_id for e in entries], np.int64)
    params = np.zeros((len(entries), spec.n_params))
    for i, e in enumerate(entries):
        params[i, : len(e.params)] = e.params
    game_ids = np.arange(first_game, first_game + n_games, dtype=np.int64)
    results = np.zeros(n_games * n, spec.result_dtype)
    setups = np.zeros(n_games, spec.setup_dtype)
    switches = spec.strategies.kernel_switches(ids, params)
    threads = max(1, min(int(threads), n_games))
    if threads == 1:
        play_batch(comp, n, edition, seed, game_ids, game_ids, lineups, ids, params, results,
                   setups, *switches)
        return results, setups
    bounds = np.linspace(0, n_games, threads + 1).astype(int)

    def work(k: int) -> None:
        a, b = bounds[k], bounds[k + 1]
        play_batch(comp, n, edition, seed, game_ids[a:b], game_ids[a:b], lineups[a:b], ids,
                   params, results[a * n : b * n], setups[a:b], *switches)

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(work, range(threads)))
    return results, setups


def play_mixed_lineups(
    spec: GameSpec,
    seats: Sequence[str],
    lineups: np.ndarray,
    seed: int,
    *,
    edition: int = 0,
    first_game: int = 0,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`play_lineups` for seats that play step by step (``py:FILE``, ``openspiel:BOT``,
    or compiled names): game k plays ``play_mixed_game`` with id ``first_game + k``.

    Returns the result and setup records as :func:`play_lineups` does (``strategy_id`` -1 for
    a seat that is not a compiled strategy) and float64[2, len(seats)]: seconds spent deciding
    and decisions asked, per entry of ``seats``.
    """
    resolved = [resolve_seat(spec, s) for s in seats]
    lineups = np.ascontiguousarray(lineups, np.int64)
    n_games, n = lineups.shape
    name = spec.editions[edition & 0xFF]
    options = {o.name: bool(edition >> o.bit & 1) for o in spec.options}
    results = np.zeros(n_games * n, spec.result_dtype)
    setups = np.zeros(n_games, spec.setup_dtype)
    timing = np.zeros((2, len(seats)))
    ids = np.array([o[0].strategy_id if kind == "nb" else -1 for kind, o in resolved], np.int64)
    for k in range(n_games):
        g = first_game + k
        per_seat = np.zeros((2, n))
        game = play_mixed_game(spec, [None] * n, name, seed, g, g,
                               _resolved=[resolved[e] for e in lineups[k]], options=options,
                               timing=per_seat)
        np.add.at(timing.T, lineups[k], per_seat.T)
        spec.kernels.write_records(game.state, game.comp, g, g, ids[lineups[k]], results, k * n,
                                   setups, k)
    return results, setups, timing


def win_shares(results: np.ndarray, lineups: np.ndarray, n_entries: int) -> tuple[np.ndarray, ...]:
    """Per entry: (wins with ties shared, seats played, games with at least one seat).

    A game's single win is split equally between its tied winners.
    """
    n_games, n = lineups.shape
    winner = results["winner"].reshape(n_games, n).astype(np.float64)
    share = winner / np.maximum(winner.sum(axis=1, keepdims=True), 1.0)
    wins = np.zeros(n_entries)
    seats = np.zeros(n_entries)
    games = np.zeros(n_entries)
    for e in range(n_entries):
        mask = lineups == e
        wins[e] = share[mask].sum()
        seats[e] = mask.sum()
        games[e] = mask.any(axis=1).sum()
    return wins, seats, games


def game_shares(results: np.ndarray, lineups: np.ndarray, entry_index: int) -> np.ndarray:
    """float64[n_games]: the share of each game's win taken by the seats of ``entry_index``."""
    n_games, n = lineups.shape
    winner = results["winner"].reshape(n_games, n).astype(np.float64)
    share = winner / np.maximum(winner.sum(axis=1, keepdims=True), 1.0)
    return (share * (lineups == entry_index)).sum(axis=1)


def mean_by_entry(results: np.ndarray, lineups: np.ndarray, n_entries: int,
                  column: str) -> np.ndarray:
    """Mean of a result column over the seats of each entry."""
    flat = lineups.reshape(-1)
    values = results[column].astype(np.float64)
    return np.array([values[flat == e].mean() if (flat == e).any() else np.nan
                     for e in range(n_entries)])
