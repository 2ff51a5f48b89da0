"""The kernel inputs of a benchmark: ``games`` games of a run, built as the runner builds them."""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numba
import numpy as np

from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game
from tajsim.running.config import RunConfig, RunTask, lineup_codes, setup_ids_for
from tajsim.running.records import results_frame


@dataclass
class Batch:
    """The inputs of ``play_batch_nb`` for games ``start .. start + games - 1`` of a run.

    Attributes
    ----------
    config : RunConfig
        The run the games belong to (validated like ``simulate``'s arguments).
    game_ids, setup_ids : int64[G]
    lineups : int64[G, players]
    """

    config: Any
    task: RunTask
    comp: np.ndarray
    edition: int  # the rules code the kernels receive
    game_ids: np.ndarray
    setup_ids: np.ndarray
    lineups: np.ndarray
    lineup_ids: np.ndarray
    lineup_params: np.ndarray

    @property
    def spec(self) -> GameSpec:
        return get_game(self.config.game)

    @property
    def games(self) -> int:
        return int(self.game_ids.shape[0])

    @property
    def players(self) -> int:
        return int(self.config.players)

    @property
    def seed(self) -> int:
        return int(self.config.seed)

    @property
    def label(self) -> str:
        return ",".join(self.config.strategies)

    def outputs(self) -> tuple[np.ndarray, np.ndarray]:
        """Fresh ``(results, setups)`` record arrays for one run of the batch."""
        spec = self.spec
        return (np.zeros(self.games * self.players, spec.result_dtype),
                np.zeros(self.games, spec.setup_dtype))

    def slice(self, start: int, stop: int) -> Batch:
        """The games ``start .. stop - 1`` of this batch (positions, not ids)."""
        return Batch(self.config, self.task, self.comp, self.edition,
                     self.game_ids[start:stop], self.setup_ids[start:stop],
                     self.lineups[start:stop], self.lineup_ids, self.lineup_params)

    def args(self) -> tuple:
        """Leading arguments shared by the batch kernels (up to ``lineup_params``)."""
        return (self.comp, self.players, self.edition, self.seed, self.game_ids, self.setup_ids,
                self.lineups, self.lineup_ids, self.lineup_params)

    def switches(self) -> tuple:
        """The kernels' strategy-family switches, as the runner passes them."""
        return self.spec.strategies.kernel_switches(self.lineup_ids, self.lineup_params)

    def run(self, threads: int = 1, mode: str = "prange",
            out: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Play the batch; return ``(results, setups)``.

        ``threads == 1``: ``play_batch`` on this thread. ``mode="prange"``:
        ``play_batch_parallel`` on ``threads`` numba threads (``threads * 8`` blocks, as the
        runner does). ``mode="threads"``: ``threads`` Python threads each running
        ``play_batch`` (which releases the GIL) on ``4 * threads`` contiguous slices.
        """
        kernels = self.spec.kernels
        results, setups = self.outputs() if out is None else out
        if threads <= 1:
            kernels.play_batch(*self.args(), results, setups, *self.switches())
        elif mode == "prange":
            numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
            kernels.play_batch_parallel(*self.args(), results, setups,
                                        min(self.games, threads * 8), *self.switches())
        elif mode == "threads":
            n = self.players
            parts = min(self.games, 4 * threads)
            bounds = [self.games * k // parts for k in range(parts + 1)]

            def play(k: int) -> None:
                a, b = bounds[k], bounds[k + 1]
                part = self.slice(a, b)
                kernels.play_batch(*part.args(), results[a * n:b * n], setups[a:b],
                                   *self.switches())

            with ThreadPoolExecutor(threads) as pool:
                list(pool.map(play, range(parts)))
        else:
            raise ValueError(f"unknown mode {mode!r}; expected 'prange' or 'threads'")
        return results, setups

    def frame(self, results: np.ndarray, setups: np.ndarray):
        """The results frame (``docs/results-schema.md``) of one run of this batch."""
        return results_frame(self.task, results, setups, self.lineups)


def make_batch(games: int, players: int | None = None, strategies: str | Sequence[str] = "random",
               edition: str | None = None, seed: int = 0, start: int = 0,
               rotate: bool | str = "auto", games_per_setup: int = 1,
               game: str | GameSpec | None = None,
               options: dict[str, bool] | None = None) -> Batch:
    """Kernel inputs for games ``start .. start + games - 1`` of the run ``simulate(start +
    games, players, strategies, edition, seed, rotate=rotate, games_per_setup=..., game=...)``.
    """
    config = RunConfig.make(games=start + games, players=players, strategies=strategies,
                            edition=edition, seed=seed, rotate=rotate,
                            games_per_setup=games_per_setup, chunk_size=start + games,
                            game=game, options=options)
    task = config.task()
    game_ids = np.arange(start, start + games, dtype=np.int64)
    return Batch(
        config=config,
        task=task,
        comp=np.asarray(config.components.packed, np.int64),
        edition=config.rules,
        game_ids=game_ids,
        setup_ids=setup_ids_for(get_game(config.game), config.setups, config.games_per_setup,
                                game_ids),
        lineups=np.ascontiguousarray(lineup_codes(config.seating, config.seat_entries,
                                                  config.players, game_ids)),
        lineup_ids=np.asarray(config.lineup_ids, np.int64),
        lineup_params=np.ascontiguousarray(np.asarray(config.lineup_params, np.float64)),
    )
