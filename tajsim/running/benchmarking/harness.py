"""The profiling harness: compiled kernels built around a game's own (record, play only, set up
only, replay, records only, snapshots), timed by difference in ``profiling``."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
from numba import njit

from tajsim.engine.arrays import copy_into
from tajsim.engine.spec import GameSpec


@njit(cache=True)
def _seat_tables(n_players, lineup, lineup_ids, lineup_params):
    seat_ids = np.empty(n_players, np.int64)
    seat_params = np.empty((n_players, lineup_params.shape[1]), np.float64)
    for p in range(n_players):
        seat_ids[p] = lineup_ids[lineup[p]]
        copy_into(seat_params[p], lineup_params[lineup[p]])
    return seat_ids, seat_params


_HARNESS: dict[str, SimpleNamespace] = {}


def profile_kernels(spec: GameSpec) -> SimpleNamespace:
    """The profiling harness of ``spec``: compiled kernels built around the game's own
    (``start_game``, ``play_out``, ``legal_actions``, ``apply_action``, ``write_records``,
    ``current_player``, ``phase``). They are closures over those kernels, compiled on first use
    in each process (numba cannot reuse a cached closure), which costs only their loops: the
    game's kernels themselves load from the cache."""
    if spec.name in _HARNESS:
        return _HARNESS[spec.name]
    k = spec.kernels
    start_game, play_out, legal_actions = k.start_game, k.play_out, k.legal_actions
    apply_action, write_records = k.apply_action, k.write_records
    current_player, phase_of = k.current_player, k.phase
    STATE_SIZE, N_ACTIONS, MAX_PLAYERS = spec.state_size, spec.n_actions, spec.max_players

    @njit(nogil=True)
    def record_games_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                        lineup_ids, lineup_params, actions, n_actions, *switches):
        """Play the games as ``play_batch`` does (same ``start_game`` + ``play_out``),
        recording each game's actions in ``actions[g]`` and their number in ``n_actions[g]``."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        legal = np.empty(N_ACTIONS, np.int64)
        for g in range(game_ids.shape[0]):
            seat_ids, seat_params = _seat_tables(n_players, lineups[g], lineup_ids,
                                                 lineup_params)
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            n_actions[g] = play_out(comp, state, seat_ids, seat_params, prng, legal, actions[g],
                                    *switches)

    @njit(nogil=True)
    def play_only_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                     lineup_ids, lineup_params, *switches):
        """``play_batch`` without writing records; returns the number of actions."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        legal = np.empty(N_ACTIONS, np.int64)
        none = np.empty(0, np.int64)
        check = 0
        for g in range(game_ids.shape[0]):
            seat_ids, seat_params = _seat_tables(n_players, lineups[g], lineup_ids,
                                                 lineup_params)
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            check += play_out(comp, state, seat_ids, seat_params, prng, legal, none, *switches)
        return check

    @njit(nogil=True)
    def setup_only_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                      lineup_ids, lineup_params):
        """Only the game setups (and the per-game seat tables) of the batch; a checksum."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        check = 0
        for g in range(game_ids.shape[0]):
            seat_ids, seat_params = _seat_tables(n_players, lineups[g], lineup_ids,
                                                 lineup_params)
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            check += current_player(state) + seat_ids[0]
        return check

    @njit(nogil=True)
    def replay_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, actions,
                  n_actions, legal_mask, stats):
        """Replay recorded games: setup, then each recorded action applied with
        ``apply_action``; ``legal_actions`` is called before an action whose phase bit is in
        ``legal_mask`` (bit k = phase k). No policy runs.

        ``stats`` (int64[MAX_PLAYERS + 1, n_phases, 3], added to): per seat (row
        ``MAX_PLAYERS`` = all seats) and phase, the decisions, the decisions with more than one
        legal action (the policy's) and the legal actions listed (counted only where
        ``legal_actions`` ran). Returns a checksum; -10**9 for a replay that diverged.
        """
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        legal = np.empty(N_ACTIONS, np.int64)
        check = 0
        for g in range(game_ids.shape[0]):
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            for i in range(n_actions[g]):
                phase = phase_of(state)
                if (legal_mask >> phase) & 1:
                    n = legal_actions(state, comp, legal)
                    p = current_player(state)
                    stats[p, phase, 0] += 1
                    stats[MAX_PLAYERS, phase, 0] += 1
                    if n > 1:
                        stats[p, phase, 1] += 1
                        stats[MAX_PLAYERS, phase, 1] += 1
                    stats[p, phase, 2] += n
                    stats[MAX_PLAYERS, phase, 2] += n
                    check += legal[n - 1]
                apply_action(state, comp, actions[g, i])
            if current_player(state) != -1:
                check -= 1_000_000_000  # the replay diverged from the recorded game
        return check

    @njit(nogil=True)
    def records_only_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
                        lineup_ids, lineup_params, actions, n_actions, results, setups, reps):
        """Replay each game once, then write its records ``reps`` times (for the cost of
        ``write_records`` by difference)."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        for g in range(game_ids.shape[0]):
            seat_ids, _ = _seat_tables(n_players, lineups[g], lineup_ids, lineup_params)
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            for i in range(n_actions[g]):
                apply_action(state, comp, actions[g, i])
            for _ in range(reps):
                write_records(state, comp, game_ids[g], setup_ids[g], seat_ids, results,
                              g * n_players, setups, g)

    @njit
    def snapshot_nb(comp, n_players, edition, master_seed, game_ids, setup_ids, actions,
                    n_actions, states, kinds, acts):
        """Replay the recorded games, copying the state before each action into ``states[k]``
        (its action in ``acts[k]``, its phase in ``kinds[k]``) while there is room; returns the
        number of snapshots."""
        state = np.zeros(STATE_SIZE, np.int64)
        prng = np.zeros(MAX_PLAYERS, np.int64)
        k = 0
        for g in range(game_ids.shape[0]):
            start_game(comp, n_players, edition, master_seed, game_ids[g], setup_ids[g], state,
                       prng)
            for i in range(n_actions[g]):
                if k < states.shape[0]:
                    states[k, :] = state
                    acts[k] = actions[g, i]
                    kinds[k] = phase_of(state)
                    k += 1
                apply_action(state, comp, actions[g, i])
        return k

    @njit
    def apply_snapshots_nb(comp, states, kinds, acts, n, kind, apply, reps, saved, scratch):
        """For each snapshot of ``kind``: copy it into ``saved`` (once), then ``reps`` times
        copy ``saved`` into ``scratch`` (cache-hot) and, with ``apply``, apply the action."""
        check = 0
        for k in range(n):
            if kinds[k] == kind:
                saved[:] = states[k]
                for _ in range(reps):
                    scratch[:] = saved
                    if apply:
                        apply_action(scratch, comp, acts[k])
                    check += scratch[0]
        return check

    harness = SimpleNamespace(
        record_games=record_games_nb, play_only=play_only_nb, setup_only=setup_only_nb,
        replay=replay_nb, records_only=records_only_nb, snapshot=snapshot_nb,
        apply_snapshots=apply_snapshots_nb)
    _HARNESS[spec.name] = harness
    return harness
