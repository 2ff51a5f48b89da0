"""A restriction's footprint: how much of the restricted seat's play a restriction touched
(issue 39 s2: a feature's value is read beside it).

The counting pass replays games move by move with the game's own kernels (``start_game``,
``legal_actions``, ``choose_action``, ``apply_action``), as the batch kernels play them: the same
game ids, seeds and seat streams give the same games (a test checks the scores against
:func:`tajsim.play.arena.play_lineups`), so the counts are those of the games a table measures.
At each decision of a restricted seat with more than one legal action it counts:

* **changed**: the seat's strategy *without* its restriction (the same parameters, mask 0)
  would have chosen an action the restriction forbids. The counterfactual choice draws from a
  copy of the seat's stream, so the game itself is untouched;
* **removed**: how many of the legal actions the restriction removes (0 where it is lifted,
  every action being forbidden), against how many were legal;
* **lifted**: decisions where every legal action was forbidden (the restriction is lifted).

The shares are pooled over the games' decisions: ``changed / decisions`` and ``removed /
legal``. A decision with one legal action is not the seat's choice (the play loop takes it
without asking) and is not counted. Each wing's restrictions module supplies ``count_allowed``
and ``is_forbidden`` with one signature (``(state, comp, legal, n_legal, mask)``,
``(state, comp, action, mask)``).
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType

import numpy as np

from tajsim.engine.choice import GENERIC_SLOTS
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.play.arena import packed_components

__all__ = ["Footprint", "footprint", "restrictions_module"]


@dataclass(frozen=True)
class Footprint:
    """Counts of one restricted seat over a set of games (see the module doc).

    Attributes
    ----------
    games, decisions, changed, lifted : int
        Games replayed, the restricted seat's decisions (more than one legal action), those
        where its unrestricted choice was forbidden, those where the restriction was lifted.
    legal, removed : int
        Legal actions summed over those decisions, and the forbidden ones among them (not
        counted where the restriction was lifted).
    scores : numpy.ndarray
        int64[games, n_players]: the records' final scores (``write_records``: the check that
        the replay is the batch's).
    """

    games: int
    decisions: int
    changed: int
    lifted: int
    legal: int
    removed: int
    scores: np.ndarray

    @property
    def changed_share(self) -> float:
        """Share of the seat's decisions whose unrestricted choice the restriction forbade."""
        return self.changed / self.decisions if self.decisions else float("nan")

    @property
    def removed_share(self) -> float:
        """Share of the seat's legal actions (pooled over its decisions) the restriction
        removed."""
        return self.removed / self.legal if self.legal else float("nan")


def restrictions_module(spec: GameSpec) -> ModuleType:
    """The wing's restrictions module (``tajsim.games.<name>.strategies.restrictions``), which
    supplies ``count_allowed`` and ``is_forbidden``."""
    try:
        module = importlib.import_module(f"tajsim.games.{spec.name}.strategies.restrictions")
    except ModuleNotFoundError:
        module = None
    if module is None or not hasattr(module, "count_allowed"):
        raise UserError(f"{spec.title} has no restriction families to measure a footprint of; "
                        "expected a game that declares restrictions")
    return module


def footprint(
    spec: GameSpec,
    strategies: Sequence[str],
    lineups: np.ndarray,
    restricted_entry: int,
    seed: int,
    *,
    edition: int = 0,
    first_game: int = 0,
    comp: np.ndarray | None = None,
    game_ids: np.ndarray | None = None,
    setup_ids: np.ndarray | None = None,
) -> Footprint:
    """Replay ``len(lineups)`` games and count the footprint of entry ``restricted_entry``.

    Parameters
    ----------
    spec : GameSpec
    strategies : sequence of str
        The entries' strategy texts (``"balanced:forbid=governor"``, ``"balanced"``).
    lineups : int64[n_games, n_players]
        Entry index of each seat, as :func:`tajsim.play.arena.play_lineups` takes them; game
        ``k`` has id ``first_game + k`` and setup id = game id.
    restricted_entry : int
        The entry whose seats are counted (its ``forbid`` mask must not be 0).
    seed : int
        The master seed.
    edition : int
        The rules code (``spec.rules_code``).
    game_ids, setup_ids : int64[n_games], optional
        The games' ids and setup ids (a run's recorded games); by default ``first_game + k``
        for both.
    """
    module = restrictions_module(spec)
    comp = packed_components(spec) if comp is None else comp
    parsed = [spec.strategies.parse(text) for text in strategies]
    ids = [strategy.strategy_id for strategy, _ in parsed]
    params = [np.asarray(vec, np.float64) for _, vec in parsed]
    restricted = params[restricted_entry]
    mask = int(restricted[restricted.shape[0] - 1])
    if mask == 0:
        raise UserError(f"strategy {strategies[restricted_entry]!r} has no restriction; "
                        "expected one with forbid=FAMILY")
    free = restricted.copy()
    free[free.shape[0] - 1] = 0.0  # the same strategy without its restriction
    assert GENERIC_SLOTS == 2  # the mask is the last slot (tajsim.engine.choice)
    switches = spec.strategies.kernel_switches(np.array(ids, np.int64), np.array(params))
    k = spec.kernels
    lineups = np.ascontiguousarray(lineups, np.int64)
    n_games, n_players = lineups.shape
    legal = np.empty(spec.n_actions, np.int64)
    scores = np.zeros((n_games, n_players), np.int64)
    records = np.zeros(n_players, spec.result_dtype)
    setups = np.zeros(1, spec.setup_dtype)
    seat_ids = np.ascontiguousarray(np.array(ids, np.int64)[lineups])
    decisions = changed = lifted = total_legal = removed = 0
    ids_of = np.arange(first_game, first_game + n_games) if game_ids is None else game_ids
    setups_of = ids_of if setup_ids is None else setup_ids
    for g in range(n_games):
        game_id, setup_id = int(ids_of[g]), int(setups_of[g])
        state = np.zeros(spec.state_size, np.int64)
        prng = np.zeros(spec.max_players, np.int64)
        k.start_game(comp, n_players, edition, seed, game_id, setup_id, state, prng)
        step = 0
        while (p := int(k.current_player(state))) >= 0:
            n = int(k.legal_actions(state, comp, legal))
            entry = int(lineups[g, p])
            if n == 1:
                action = legal[0]
            else:
                if entry == restricted_entry:
                    allowed = int(module.count_allowed(state, comp, legal, n, mask))
                    decisions += 1
                    total_legal += n
                    if allowed == 0:
                        lifted += 1
                    else:
                        removed += n - allowed
                        free_choice = k.choose_action(ids[entry], state, comp, p, free,
                                                      prng.copy(), legal, n, *switches)
                        changed += bool(module.is_forbidden(state, comp, free_choice, mask))
                action = k.choose_action(ids[entry], state, comp, p, params[entry], prng,
                                         legal, n, *switches)
            k.apply_action(state, comp, action)
            step += 1
            spec.check_game_length(step, f"{spec.name} game {game_id}")
        k.write_records(state, comp, game_id, setup_id, seat_ids[g], records, 0, setups, 0)
        scores[g] = records["score"][:n_players]
    return Footprint(games=n_games, decisions=decisions, changed=changed, lifted=lifted,
                     legal=total_legal, removed=removed, scores=scores)

