"""Counterfactual replays of a game's last round: does a seat out of contention decide who wins?
(issue 40 s4, kingmaking; read by :func:`tajsim.analysis.arc.kingmaking`).

A recorded game is played again step by step from its ids (the batch loop's game: the same
setup, chance and policy streams, a single legal action taken without asking the policy) to the
start of its last round (the game's ``GameKernels.round_of``). From there it is played out twice
per seat out of contention: as recorded, and with that seat alone choosing otherwise: by
default its own strategy drawing from another policy stream (``"reseed"``: another play of its
last round in its own style; a deterministic strategy then plays the same), or another strategy
on its own stream; the other seats, and chance, as before. The replay is checked: its final
scores must equal the recorded ones, else the game is reported as not reproduced.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from tajsim.games.registry import get_game
from tajsim.play.games import game as new_game

__all__ = ["last_round_counterfactuals"]


def _other_stream(state: int) -> int:
    """Another policy stream for a seat: its state moved by one step of a 64-bit LCG (Knuth's
    MMIX constants), as a signed int64 (the streams' type)."""
    moved = (state * 6364136223846793005 + 1442695040888963407) % 2**64
    return moved - 2**64 if moved >= 2**63 else moved


def _play_on(g: Any, kernels: Any, ids: np.ndarray, params: np.ndarray, switches: tuple,
             legal: np.ndarray, stop_round: int | None = None) -> bool:
    """Play ``g`` (a ``tajsim.game``) on with seat p's strategy ``ids[p]`` (``params[p]``),
    as the batch loop does, until the game ends or (``stop_round``) that round begins; returns
    whether it stopped at the round."""
    while not g.is_over:
        if stop_round is not None and kernels.round_of(g.state) >= stop_round:
            return True
        n = kernels.legal_actions(g.state, g.comp, legal)
        p = int(kernels.current_player(g.state))
        if n == 1:
            action = legal[0]
        else:
            action = kernels.choose_action(ids[p], g.state, g.comp, p, params[p], g.prng, legal,
                                           n, *switches)
        kernels.apply_action(g.state, g.comp, action)
    return False


def last_round_counterfactuals(
    game: str | None, n_players: int, edition: str | None, seeds: np.ndarray,
    game_ids: np.ndarray, setup_ids: np.ndarray, strategies: np.ndarray, rounds: np.ndarray,
    finals: np.ndarray, best_last: int, replacement: str = "reseed",
) -> dict[str, np.ndarray]:
    """Replay each game to the start of its last round and try every seat out of contention
    with ``replacement``.

    Parameters
    ----------
    game : registry name; n_players : int; edition : str or None
    seeds, game_ids, setup_ids : int64[G] the games' ids (shipped components, no rule options)
    strategies : object[G, n] each seat's strategy label (``"name:key=value"``)
    rounds : int64[G] the rounds each game recorded (``arc_rounds``)
    finals : int64[G, n] the recorded final scores (the replay must give them)
    best_last : int, the most points a seat gained on the leader in a last round: a seat
        further behind the leader at the start of the last round is out of contention
    replacement : str, what the out-of-contention seat plays in its counterfactual:
        ``"reseed"`` (its own strategy on another policy stream) or a strategy label

    Returns
    -------
    dict of arrays of shape (G,): ``reproduced`` (bool), ``out_seats`` (int64: seats out of
    contention), ``decided`` (bool: the winners changed for at least one of them)
    """
    spec = get_game(game)
    kernels = spec.kernels
    if kernels.round_of is None:
        raise ValueError(f"{spec.title} records no rounds; expected a game with TRACK_ROUNDS")
    G = len(game_ids)
    parsed: dict[str, tuple[int, np.ndarray]] = {}
    reseed = replacement == "reseed"
    for label in sorted({*map(str, np.asarray(strategies).reshape(-1))}
                        | (set() if reseed else {replacement})):
        strat, params = spec.strategies.parse(label)
        parsed[label] = (strat.strategy_id, np.asarray(params, np.float64))
    all_ids = [v[0] for v in parsed.values()]
    all_params = np.array([v[1] for v in parsed.values()])
    switches = spec.strategies.kernel_switches(all_ids, all_params)
    legal = np.empty(spec.n_actions, np.int64)
    reproduced = np.zeros(G, bool)
    out_seats = np.zeros(G, np.int64)
    decided = np.zeros(G, bool)
    alt_id, alt_params = (0, None) if reseed else parsed[replacement]
    for i in range(G):
        labels = [str(s) for s in strategies[i]]
        ids = np.array([parsed[s][0] for s in labels], np.int64)
        params = np.array([parsed[s][1] for s in labels])
        g = new_game(spec.name, n_players, edition, int(seeds[i]), int(game_ids[i]),
                     int(setup_ids[i]))
        at_last = _play_on(g, kernels, ids, params, switches, legal,
                           stop_round=int(rounds[i]) - 1)
        start = g.clone() if at_last else None
        _play_on(g, kernels, ids, params, switches, legal)
        reproduced[i] = list(g.scores()) == [int(x) for x in finals[i]]
        if start is None or not reproduced[i]:
            continue
        winners = set(g.winners())
        now = np.array(start.scores())
        out = [k for k in range(n_players) if now.max() - now[k] > best_last]
        out_seats[i] = len(out)
        for k in out:
            alt = start.clone()
            ids_k, params_k = ids.copy(), params.copy()
            if reseed:
                alt.prng[k] = _other_stream(int(alt.prng[k]))
            else:
                ids_k[k], params_k[k] = alt_id, alt_params
            _play_on(alt, kernels, ids_k, params_k, switches, legal)
            if set(alt.winners()) != winners:
                decided[i] = True
                break
    return {"reproduced": reproduced, "out_seats": out_seats, "decided": decided}

