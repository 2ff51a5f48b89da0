"""Two skill levels head to head in every seating: what the skill chains
(:mod:`tajsim.analysis.skill_chain`) and the skill profiles (:mod:`tajsim.analysis.skill_profile`)
play, and the per-game outcomes they are judged by.

**Seatings.** A match between levels A and B at a table of ``n`` seats plays every arrangement of
``ceil(n/2)`` A and ``floor(n/2)`` B (and, for an odd ``n``, of ``floor(n/2)`` A and
``ceil(n/2)`` B) equally often: 2 players AB and BA; 4 players the six arrangements of AABB (2 vs
2); 3 players AAB, ABA, BAA, ABB, BAB, BBA. Why 2 vs 2 at four players rather than one stronger
seat against a field of three weaker ones: the two levels are then equally represented, so two
equal levels share the wins 1/2 : 1/2 at every table size, the gap is measured on the same scale
as at two players (a win share, an Elo-like gap, an upset rate), each game informs on both levels
rather than on one seat, and each level also meets a table of the other and of itself (a lone
strong seat meets only the weak field). Every seat holds A and B equally often, and each
arrangement is played equally often, so seat and line-up are balanced by design.

The runner's ``rotate`` seating plays the ``n`` rotations of one arrangement; the arrangements
fall into rotation classes (AABB's four rotations; ABAB and BABA), so a match is one run per
class, each with games in proportion to the class's size, rounded up to whole blocks
(:func:`match_block`: 2 games at two players, 12 at four). A mirror (A against itself) is one run
with A in every seat. Each run has its own seed, derived from the match's seed and the run's
line-up (:func:`derive_seed`), so no two runs share deals.

**Outcomes.** Per game (:func:`pair_outcomes`): A's win share (the sum of its seats' win values,
ties shared), whether A has a winner (a shared win included), whether B has one, and the first
seat's win value. Two equal levels give A a share of 1/2 on average.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tajsim.analysis.frames import game_index, win_value
from tajsim.running.config import RunConfig, code_fingerprint
from tajsim.running.records import concat_results
from tajsim.running.simulate import run_simulation

__all__ = ["MatchOutcomes", "arrangements", "derive_seed", "match_block", "match_runs",
           "pair_outcomes", "play_match", "rotation_classes", "stored_run",
           "STORE_CHUNKS"]

#: Seeds are int64 master seeds of the runner.
_SEED_LIMIT = 2**63


def derive_seed(seed: int, *parts: object) -> int:
    """A master seed for one run of a study: a hash of the study's seed and the run's labels
    (BLAKE2b, 63 bits). Runs of one study never share deals, and the same study seed always
    gives the same runs."""
    text = "|".join([str(int(seed)), *map(str, parts)])
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") % _SEED_LIMIT


def arrangements(players: int) -> list[tuple[int, ...]]:
    """Every seating of two levels (0 = A, 1 = B) a match plays at ``players`` seats, each a
    tuple of ``players`` 0/1 codes: ``ceil(n/2)`` of A, and for odd ``n`` also ``ceil(n/2)``
    of B. Lexicographic order."""
    if players < 2:
        raise ValueError(f"a match needs at least 2 seats; got {players}")
    counts = {players // 2, players - players // 2}  # seats of B
    return sorted(tuple(1 if s in chosen else 0 for s in range(players))
                  for k in counts for chosen in itertools.combinations(range(players), k))


def rotation_classes(players: int) -> list[tuple[tuple[int, ...], int]]:
    """The arrangements grouped by rotation: ``(representative, size)`` per class, the
    representative its smallest member; the sizes sum to ``len(arrangements(players))``."""
    seen: set[tuple[int, ...]] = set()
    out = []
    for arr in arrangements(players):
        if arr in seen:
            continue
        orbit = {arr[r:] + arr[:r] for r in range(players)}
        seen |= orbit
        out.append((arr, len(orbit)))
    return out


def match_block(players: int) -> int:
    """Games in one balanced block of a match: every arrangement equally often, each rotation
    class's run a whole number of rotation cycles (``players`` games). 2 at two players, 6 at
    three, 12 at four."""
    classes = rotation_classes(players)
    # A class of size s played in g games (g a multiple of n) gives each member g / s games;
    # equal counts r per arrangement need r * s games, a multiple of n: r a multiple of n / s.
    per_arrangement = math.lcm(*(players // size for _, size in classes))
    return per_arrangement * sum(size for _, size in classes)


@dataclass(frozen=True)
class MatchRun:
    """One run of a match: its line-up (seat texts of the representative arrangement), its
    games, its seed and its ``run_id`` label."""

    strategies: tuple[str, ...]
    games: int
    seed: int
    run_id: str
    rotate: bool


def match_runs(a: str, b: str, players: int, games: int, seed: int) -> list[MatchRun]:
    """The runs of a match of ``a`` against ``b`` (a mirror when equal) of at least ``games``
    games, rounded up to whole blocks (:func:`match_block`; a mirror is not rounded)."""
    if games < 1:
        raise ValueError(f"a match needs at least 1 game; got {games}")
    if a == b:
        return [MatchRun((a,), games, derive_seed(seed, "mirror", a), f"{a} mirror", False)]
    block = match_block(players)
    blocks = -(-games // block)
    classes = rotation_classes(players)
    total = sum(size for _, size in classes)
    runs = []
    for rep, size in classes:
        texts = tuple(b if code else a for code in rep)
        pattern = "".join("B" if code else "A" for code in rep)
        runs.append(MatchRun(texts, blocks * block * size // total,
                             derive_seed(seed, a, b, pattern), f"{a} v {b} {pattern}", True))
    return runs


#: Chunks per run of a stored match (``play_match(store=...)``): the unit an interrupted match
#: keeps, small enough that a killed search match loses minutes, not hours.
STORE_CHUNKS = 64


def stored_run(store: str | Path, game: str, players: int, edition: str | None,
               options: dict[str, bool] | None, index: int,
               run: MatchRun) -> tuple[Path, int]:
    """The folder and chunk size of run ``index`` of a match stored in ``store``:
    ``run-<index>-<key>``, the key a digest of the run's configuration (what the run store
    compares before it resumes: game, players, edition, options, line-up and parameters, game
    count, seed, chunk size, seating) and of the game's code fingerprint, so the key changes
    exactly where the stored games could not be used: runs of another design, or games
    played by other code, never share a folder."""
    chunk_size = max(1, -(-run.games // STORE_CHUNKS))
    config = RunConfig.make(games=run.games, players=players, strategies=list(run.strategies),
                            edition=edition, seed=run.seed, chunk_size=chunk_size,
                            rotate=run.rotate, records=True, game=game, options=options)
    what = f"{config.fingerprint()} {code_fingerprint(game)}"
    key = hashlib.sha256(what.encode()).hexdigest()[:12]
    return Path(store) / f"run-{index}-{key}", chunk_size


def foreign_runs(folder: Path) -> list[Path]:
    """The run folders of ``folder``'s parent with ``folder``'s index and another key."""
    index = folder.name.rsplit("-", 1)[0] + "-"
    parent = folder.parent
    if not parent.is_dir():
        return []
    return sorted(p for p in parent.iterdir()
                  if p.is_dir() and p.name.startswith(index) and p.name != folder.name)


def play_match(game: str, players: int, a: str, b: str, games: int, seed: int, *,
               edition: str | None = None, options: dict[str, bool] | None = None,
               workers: int | None = None, progress: bool | None = False,
               log: Callable[[str], None] | None = None, store: str | Path | None = None,
               on_stored: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Play a match (:func:`match_runs`) on every core (``workers`` None) and return its
    results frame, with a ``run_id`` column naming each run (its line-up), so that game ids
    of different runs do not collide.

    ``store``: a folder that keeps each run's games as a resumable run directory
    (:func:`stored_run`, :mod:`tajsim.running.store`; :data:`STORE_CHUNKS` chunks a run): a
    match killed part way keeps its finished chunks, and the same call plays only the missing
    games (a game is fixed by its seed and index, so the frame is the one an unstored match
    returns). Stored chunks are verified before use. ``on_stored(games)`` receives, per run,
    the games this call read back from the store rather than played."""
    frames, ids = [], []
    for index, run in enumerate(match_runs(a, b, players, games, seed)):
        out = chunk_size = None
        if store is not None:
            out, chunk_size = stored_run(store, game, players, edition, options, index, run)
            other = foreign_runs(out)
            if other and not out.exists():
                warnings.warn(f"{out.parent} holds the games of run {index} played with "
                              f"another design or other engine code ({other[0].name}); they "
                              "are not these games, so this run plays its own", UserWarning,
                              stacklevel=2)
        played: list[int] = []
        result = run_simulation(run.games, players, list(run.strategies), edition, run.seed,
                                game=game, options=options, workers=workers, records=True,
                                rotate=run.rotate, progress=progress, log=log, out=out,
                                chunk_size=chunk_size, on_chunk=played.append)
        if on_stored is not None:
            now = sum(stop - start for start, stop in map(result.config.chunk_games, played))
            on_stored(run.games - now)
        frames.append(result.records)
        ids.append(run.run_id)
    return concat_results(frames, run_ids=ids)


@dataclass(frozen=True)
class MatchOutcomes:
    """Per-game outcomes of the games that seat only ``a`` and ``b`` (both, or only ``a`` for
    a mirror), each an array of shape (games,).

    ``share_a`` (float64): A's win share (its seats' win values summed, ties shared);
    ``a_won`` / ``b_won`` (bool): A / B has a winner (a shared win included);
    ``first_seat`` (float64): the first seat's win value; ``first_is_a`` (bool): A sits first;
    ``seats_a`` (int64, shape (players,)): games with A in each seat."""

    a: str
    b: str
    share_a: np.ndarray
    a_won: np.ndarray
    b_won: np.ndarray
    first_seat: np.ndarray
    first_is_a: np.ndarray
    seats_a: np.ndarray
    seats_b: np.ndarray

    @property
    def n(self) -> int:
        return int(self.share_a.size)


def pair_outcomes(results: pd.DataFrame, a: str, b: str) -> MatchOutcomes:
    """The outcomes (:class:`MatchOutcomes`) of the games of ``results`` whose seats hold only
    ``a`` and ``b`` and both of them (``a == b``: only ``a``). Needs ``game_id n_players seat
    strategy winner`` (and ``run_id`` where runs reuse game ids)."""
    labels = results["strategy"].astype(str).to_numpy()
    games = game_index(results)
    n_games = int(games.max()) + 1 if games.size else 0
    is_a, is_b = labels == a, labels == b
    other = ~(is_a | is_b)
    has_other = np.bincount(games, weights=other, minlength=n_games) > 0
    has_a = np.bincount(games, weights=is_a, minlength=n_games) > 0
    has_b = np.bincount(games, weights=is_b, minlength=n_games) > 0
    keep = ~has_other & has_a & (has_b if a != b else True)
    values = win_value(results).to_numpy(np.float64)
    winner = results["winner"].to_numpy(bool)
    share_a = np.bincount(games, weights=values * is_a, minlength=n_games)
    a_won = np.bincount(games, weights=winner & is_a, minlength=n_games) > 0
    b_won = np.bincount(games, weights=winner & is_b, minlength=n_games) > 0
    seat = results["seat"].to_numpy(np.int64)
    first = seat == 0
    first_seat = np.zeros(n_games)
    first_seat[games[first]] = values[first]
    first_is_a = np.zeros(n_games, bool)
    first_is_a[games[first]] = is_a[first]
    players = int(results["n_players"].max()) if len(results) else 0
    rows = keep[games]
    seats_a = np.bincount(seat[rows & is_a], minlength=players).astype(np.int64)
    seats_b = np.bincount(seat[rows & is_b & (a != b)], minlength=players).astype(np.int64)
    if a == b:  # a mirror: the per-game share of "A against itself" is 1/2 by definition
        share_a = np.full(n_games, 0.5)
        b_won = a_won
    return MatchOutcomes(a, b, share_a[keep], a_won[keep], b_won[keep], first_seat[keep],
                         first_is_a[keep], seats_a, seats_b)


def split_pairs(results: pd.DataFrame, levels: Sequence[str] | None = None
                ) -> dict[tuple[str, str], Any]:
    """``{(a, b): game count}`` of the pairs (a before b in ``levels``, or in order of first
    appearance) and mirrors ``(a, a)`` the results hold games of (games seating only them)."""
    labels = results["strategy"].astype(str)
    games = game_index(results)
    order = list(levels) if levels is not None else list(pd.unique(labels))
    rank = {s: i for i, s in enumerate(order)}
    per_game = pd.Series(labels.to_numpy()).groupby(games, sort=True).agg(
        lambda s: tuple(sorted(set(s), key=lambda x: rank.get(x, len(rank)))))
    out: dict[tuple[str, str], Any] = {}
    for combo, count in per_game.value_counts(sort=False).items():
        if len(combo) == 1 and combo[0] in rank:
            out[(combo[0], combo[0])] = int(count)
        elif len(combo) == 2 and all(c in rank for c in combo):
            out[(combo[0], combo[1])] = int(count)
    return dict(sorted(out.items(), key=lambda kv: (rank[kv[0][0]], rank[kv[0][1]])))
