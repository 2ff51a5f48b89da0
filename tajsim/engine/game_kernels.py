"""The compiled functions a game hands to the generic layers (part of its
:class:`~tajsim.engine.spec.GameSpec`): :class:`GameKernels` for the CPU, with their
signatures, and :class:`GpuKernels`, the same Python source made for the GPU.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class GpuKernels:
    """What a game's GPU batch kernel (:mod:`tajsim.engine.gpu`) needs beyond its rules: the
    rules kernels themselves are :class:`GameKernels`' own ``start_game``, ``legal_actions``,
    ``apply_action``, ``write_records`` and ``current_player``, compiled for the GPU from the
    same Python source (they must be made with :func:`tajsim.engine.targets.kernel`).

    Attributes
    ----------
    choose_simple : ``(strategy_id, state, comp, player, params, prng, legal, n_legal, work)
        -> action``
        The dispatcher over the non-search strategies; ``work`` is the heuristic family's
        scratch (work_dtype[work_size]) or None to leave the family out.
    work_size : int
        Length of that scratch.
    work_dtype : numpy scalar type
        Its dtype: float64 (the default) or int64 (Maharaja's integer heuristic).
    choose_net : ``(strategy_id, state, comp, player, params, prng, legal, n_legal, work, net,
        net_scratch) -> action``, optional
        ``choose_simple`` with the ``net`` strategy too, for a line-up with a ``net`` seat:
        ``net`` the weights sets (int64[...], the line-up's ``net`` kernel switch),
        ``net_scratch`` the network's int64 scratch (int64[net_scratch_size]); ``work`` is never
        None here (the network scores the heuristic's candidates). None: the game's GPU does
        not play ``net``.
    net_scratch_size : int
        Length of ``net_scratch`` (1 where the network works in ``work``).
    """

    choose_simple: Callable[..., int]
    work_size: int
    work_dtype: Any = np.float64
    choose_net: Callable[..., int] | None = None
    net_scratch_size: int = 1


@dataclass(frozen=True)
class GameKernels:
    """Compiled entry points of a game (numba dispatchers), with the signatures the generic
    layers call.

    Attributes
    ----------
    start_game : ``(comp, n_players, edition, master_seed, game_id, setup_id, state, prng)``
        Set up game ``game_id`` in ``state`` (int64[state_size]) and seed the seats' policy
        streams in ``prng`` (int64[max_players]).
    legal_actions : ``(state, comp, legal) -> n``
        Write the legal actions into ``legal[:n]`` (int64[n_actions] scratch); ``n >= 1`` until
        the game is over.
    apply_action : ``(state, comp, action)``
        Apply a legal action for the player to move.
    choose_action : ``(strategy_id, state, comp, player, params, prng, legal, n_legal,
        *switches) -> action``
        Ask compiled strategy ``strategy_id`` for one of ``legal[:n_legal]``. It reads only what
        ``player`` may see and advances only ``prng[player]``.
    play_out : ``(comp, state, seat_ids, seat_params, prng, legal, actions_out, *switches)
        -> n_actions``
        Play ``state`` to the end; records the actions while they fit in ``actions_out``.
    write_records : ``(state, comp, game_id, setup_id, seat_ids, results, row, setups, g)``
        Write a finished game's rows ``results[row:row + n]`` and ``setups[g]``.
    play_batch : ``(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
        lineup_ids, lineup_params, results, setups, *switches)``
        Play many games on one thread (``nogil``).
    play_batch_parallel : as ``play_batch`` with ``n_blocks`` before ``*switches``
        The same games spread over numba threads (``prange``).
    current_player, phase : ``(state) -> int``
        Compiled: the seat to move (-1 when the game is over) and the decision phase (an index
        into ``GameSpec.phase_names``); the benchmarks' profiling harness calls them.
    gpu : GpuKernels, optional
        What the game plays on a CUDA GPU with (``--device gpu``); None: CPU only.
    count_legal, nth_legal : ``(state, comp) -> n`` and ``(state, comp, k) -> action``, optional
        The number of legal actions and entry ``k`` of ``legal_actions``' list, found without
        writing the list: a wing whose hooks set ``RANDOM_WITHOUT_LIST`` draws a random seat's
        action with them (``tajsim.play.generate_batch``). The conformance suite checks them
        against ``legal_actions`` at every step.
    round_of, track_round : ``(state) -> round`` and ``(state, comp, n_players, rnd, setups, g)
        -> round``, optional
        The round in progress and the batch loop's round tracker, both dual-target: a wing
        whose hooks set ``TRACK_ROUNDS`` records the seats' scores after every round into its
        setup records (``score_by_round``); the GPU batch kernel calls them as the CPU's loop
        does. None: the game records no rounds.
    """

    start_game: Callable[..., Any]
    legal_actions: Callable[..., int]
    apply_action: Callable[..., Any]
    choose_action: Callable[..., int]
    play_out: Callable[..., int]
    write_records: Callable[..., Any]
    play_batch: Callable[..., Any]
    play_batch_parallel: Callable[..., Any]
    current_player: Callable[..., int]
    phase: Callable[..., int]
    gpu: GpuKernels | None = None
    count_legal: Callable[..., int] | None = None
    nth_legal: Callable[..., int] | None = None
    round_of: Callable[..., int] | None = None
    track_round: Callable[..., int] | None = None
