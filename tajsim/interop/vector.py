"""Many games of one registered game stepped in one call: numpy arrays in and out, action masks
and automatic resets, the way Pgx and EnvPool serve reinforcement learning.

Needs no framework (numpy and the games' compiled kernels only)::

    from tajsim.interop.vector import VectorEnv
    env = VectorEnv(game="maharani", num_envs=256, seat=0, opponents="random")
    obs, mask = env.reset(seed=7)               # int64[256, size], int8[256, n_actions]
    rng = np.random.default_rng(0)
    for _ in range(1000):
        actions = env.sample(rng)                # or a policy's choice among mask == 1
        obs, reward, done, mask = env.step(actions)

Two modes:

* ``seat=S`` (the default, 0: one learner against compiled opponents, EnvPool style): every
  other seat plays ``opponents`` (compiled strategy specs; default the game's reference
  preset) inside the step, and decisions with a single legal action are played for the
  learner too, so each row always waits for a real choice of seat ``S``. ``reward`` is
  float32[N]: the learner's win share when its game ends (``reward="win"``), or the normalised
  score margin (``"margin"``, :func:`tajsim.interop.rewards.score_margin_of`) or
  both (``"win+margin"``), 0 otherwise.
* ``seat=None`` (every seat is the agent's, Pgx style): each row stops at every decision of
  whichever seat is to move (``current_player``, int64[N]); ``reward`` is float32[N,
  n_players], every seat's win share when the game ends.

A row whose game ends starts the next game in the same call (auto-reset): ``done[i]`` is then
True, ``reward[i]`` is the finished game's, and ``obs[i]``/``mask[i]`` already belong to the new
game; ``final_scores[i]`` keeps the finished game's scores. Games are game ids of the master
seed: the rows start with ids ``0 .. N-1`` and each reset takes the next unused id, in row
order, so a run is a pure function of the seed and the actions (game ``k`` is the game that
``tajsim.simulate`` plays as game ``k`` of that seed, setup id = game id).

The stepping (the learner's action, the opponents' moves, forced moves, the end of a game, the
next game's start and the masks) is one compiled call over all rows, built on the game's own
kernels (``spec.kernels``). The observations (``observation="raw"``: int64 as in the other
adapters, ``"scaled"``: float32 in [-1, 1], :class:`~tajsim.interop.encoding.ScaledLayout`)
are the seat's view encoded for every row in one more compiled call by the wing's observation
kernel (:mod:`tajsim.interop.compiled`: the same arrays as the Python encoding of
``spec.view``, which ``compiled_observation=False``, or a game without the kernel, uses row by
row; ``benchmarks/bench_vector_env.py`` measures both); ``observation=None`` returns masks only
(for searches, or to measure the stepping alone).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numba import njit

from tajsim.engine.base_game import IllegalActionError
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.interop.compiled import observation_kernel
from tajsim.interop.encoding import layout, scaled_layout
from tajsim.interop.rewards import score_margin_of

__all__ = ["VectorEnv"]

REWARDS = ("win", "margin", "win+margin")
OBSERVATIONS = ("raw", "scaled", None)


@njit
def _advance(start_fn, legal_fn, apply_fn, cur_fn, choose_fn, switches, comp, n_players, rules,
             master_seed, learner, seat_ids, seat_params, states, prngs, game_ids, next_game,
             row, legal, masks, players, done, finals, final_ids):
    """Play row ``row`` on until the agent decides: the opponents' moves and (single-agent)
    forced moves; a finished game is copied to ``finals[row]`` and the next game started."""
    state = states[row]
    while True:
        p = cur_fn(state)
        if p < 0:  # game over: keep it, start the next game id (auto-reset)
            done[row] = True
            finals[row, :] = state
            final_ids[row] = game_ids[row]
            game_ids[row] = next_game[0]
            next_game[0] += 1
            start_fn(comp, n_players, rules, master_seed, game_ids[row], game_ids[row], state,
                     prngs[row])
            continue
        n = legal_fn(state, comp, legal)
        if learner >= 0 and (n == 1 or p != learner):
            if n == 1:
                action = legal[0]
            else:
                action = choose_fn(seat_ids[p], state, comp, p, seat_params[p], prngs[row],
                                   legal, n, *switches)
            apply_fn(state, comp, action)
            continue
        masks[row, :] = 0
        for j in range(n):
            masks[row, legal[j]] = 1
        players[row] = p
        return


@njit
def _step_all(start_fn, legal_fn, apply_fn, cur_fn, choose_fn, switches, comp, n_players, rules,
              master_seed, learner, seat_ids, seat_params, states, prngs, game_ids, next_game,
              actions, legal, masks, players, done, finals, final_ids):
    """Apply ``actions[i]`` (checked legal by the caller) to every row, then advance it."""
    for row in range(states.shape[0]):
        done[row] = False
        if actions[row] >= 0:
            apply_fn(states[row], comp, actions[row])
        _advance(start_fn, legal_fn, apply_fn, cur_fn, choose_fn, switches, comp, n_players,
                 rules, master_seed, learner, seat_ids, seat_params, states, prngs, game_ids,
                 next_game, row, legal, masks, players, done, finals, final_ids)


class VectorEnv:
    """``num_envs`` games of one game stepped together (see the module docstring).

    Attributes after each call: ``current_player`` (int64[N], the seat each row waits for),
    ``game_ids`` (int64[N], each row's game id), ``final_scores`` (int64[N, n_players], the
    scores of the game a row finished in the last step; 0 elsewhere), ``states``
    (int64[N, state_size], the referee's state vectors: hidden facts included, not for a
    learner's eyes)."""

    def __init__(self, game: str | GameSpec | None = None, num_envs: int = 64,
                 players: int | None = None, seat: int | None = 0,
                 opponents: str | Sequence[str] | None = None, edition: str | None = None,
                 options: Mapping[str, bool] | None = None, observation: str | None = "raw",
                 reward: str = "win", compiled_observation: bool = True) -> None:
        self.spec = spec = get_game(game)
        if not isinstance(num_envs, (int, np.integer)) or isinstance(num_envs, bool) \
                or num_envs < 1:
            raise UserError(f"num_envs {num_envs!r}; expected a whole number >= 1")
        self.num_envs = int(num_envs)
        self.edition = spec.editions[spec.edition_index(
            spec.default_edition if edition is None else edition)]
        self.n_players = spec.check_players(
            spec.default_player_count(self.edition) if players is None else players,
            self.edition)
        if seat is not None and (not isinstance(seat, (int, np.integer)) or isinstance(
                seat, bool) or not 0 <= seat < self.n_players):
            raise UserError(f"seat {seat!r} is not a seat of a {self.n_players}-player game; "
                            f"expected 0 to {self.n_players - 1}, or None for every seat")
        self.seat = seat
        if observation not in OBSERVATIONS:
            raise UserError(f"observation {observation!r}; expected 'raw', 'scaled' or None")
        if reward not in REWARDS:
            raise UserError(f"reward {reward!r}; expected one of {', '.join(REWARDS)}")
        self.observation = observation
        self.reward = reward
        options_on = spec.game_class.check_options(options)
        self.rules = spec.rules_code(self.edition, options_on)
        self.comp = spec.components.default().packed()
        self.components = spec.components.default()
        self.set_opponents(opponents)
        self.layout = layout(spec)
        self.scaled = scaled_layout(spec) if observation == "scaled" else None
        # the wing's compiled observation (the same arrays), or the Python views
        self._compiled = observation_kernel(spec) if compiled_observation else None
        n = self.num_envs
        self.states = np.zeros((n, spec.state_size), np.int64)
        self._prngs = np.zeros((n, spec.max_players), np.int64)
        self.game_ids = np.zeros(n, np.int64)
        self._next_game = np.zeros(1, np.int64)
        self._legal = np.empty(spec.n_actions, np.int64)
        self.masks = np.zeros((n, spec.n_actions), np.int8)
        self.current_player = np.zeros(n, np.int64)
        self._done = np.zeros(n, np.bool_)
        self._finals = np.zeros((n, spec.state_size), np.int64)
        self._final_ids = np.zeros(n, np.int64)
        self.final_scores = np.zeros((n, self.n_players), np.int64)
        self._results = np.zeros(self.n_players, spec.result_dtype)
        self._setups = np.zeros(1, spec.setup_dtype)
        self.master_seed: int | None = None

    def set_opponents(self, opponents: str | Sequence[str] | None) -> None:
        """Seat ``opponents`` (one compiled strategy spec for every other seat, or one per
        other seat in seat order; None: the game's reference preset) from the next call on:
        games in progress go on with them (a curriculum changes opponents between rollouts)."""
        spec, seat = self.spec, self.seat
        if opponents is None:
            opponents = spec.reference_preset
        names = [opponents] * (self.n_players - 1) if isinstance(opponents, str) \
            else list(opponents)
        if len(names) != self.n_players - 1:
            raise UserError(f"{len(names)} opponents given for a {self.n_players}-player game; "
                            f"expected {self.n_players - 1} (or one strategy for all)")
        parsed = [spec.strategies.parse(name) for name in names]
        self.opponents = names if seat is not None else []
        # the learner's own slot holds random: never asked
        parsed.insert(0 if seat is None else seat, spec.strategies.parse("random"))
        self._seat_ids = np.array([s.strategy_id for s, _ in parsed], np.int64)
        self._seat_params = np.stack([params for _, params in parsed]).astype(np.float64)
        self._switches = spec.strategies.kernel_switches(list(self._seat_ids),
                                                         list(self._seat_params))

    # -- the compiled call ----------------------------------------------------------------------
    def _kernel_args(self) -> tuple:
        k = self.spec.kernels
        assert self.master_seed is not None  # reset() first: checked by the callers
        return (k.start_game, k.legal_actions, k.apply_action, k.current_player,
                k.choose_action, self._switches, self.comp, self.n_players, self.rules,
                self.master_seed, -1 if self.seat is None else self.seat, self._seat_ids,
                self._seat_params, self.states, self._prngs, self.game_ids, self._next_game)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray | None, np.ndarray]:
        """Start games ``0 .. N-1`` of master seed ``seed`` (None: one drawn from the
        operating system): (observations, int8[N, n_actions] masks)."""
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % 2**63)  # type: ignore[operator]
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) \
                or not 0 <= int(seed) <= 2**63 - 1:
            raise UserError(f"seed {seed!r} is out of range; expected 0 to 2**63 - 1")
        self.master_seed = int(seed)
        k = self.spec.kernels
        for row in range(self.num_envs):
            self.game_ids[row] = row
            k.start_game(self.comp, self.n_players, self.rules, self.master_seed, row, row,
                         self.states[row], self._prngs[row])
        self._next_game[0] = self.num_envs
        actions = np.full(self.num_envs, -1, np.int64)  # no action: advance only
        _step_all(*self._kernel_args(), actions, self._legal, self.masks, self.current_player,
                  self._done, self._finals, self._final_ids)
        self.final_scores[:] = 0
        return self._observe(), self.masks.copy()

    def step(self, actions: Any) -> tuple[np.ndarray | None, np.ndarray, np.ndarray,
                                          np.ndarray]:
        """Apply ``actions`` (int[N], each legal in its row's mask) and advance every row:
        (observations, rewards, done bool[N], masks int8[N, n_actions]); see the module
        docstring for the rewards' shape and the auto-reset."""
        if self.master_seed is None:
            raise UserError("no games yet; call reset() before step()")
        acts = np.asarray(actions)
        if acts.shape != (self.num_envs,) or not np.issubdtype(acts.dtype, np.integer):
            raise UserError(f"actions of shape {acts.shape} and dtype {acts.dtype}; expected "
                            f"integers of shape ({self.num_envs},)")
        acts = acts.astype(np.int64)
        inside = (acts >= 0) & (acts < self.spec.n_actions)
        ok = inside.copy()
        ok[inside] = self.masks[np.flatnonzero(inside), acts[inside]] == 1
        if not ok.all():
            row = int(np.flatnonzero(~ok)[0])
            raise IllegalActionError(
                f"action {int(acts[row])} of row {row} is not legal there; expected one of its "
                f"{int(self.masks[row].sum())} legal actions (mask == 1)")
        _step_all(*self._kernel_args(), acts, self._legal, self.masks, self.current_player,
                  self._done, self._finals, self._final_ids)
        rewards = self._rewards()
        return self._observe(), rewards, self._done.copy(), self.masks.copy()

    # -- outputs --------------------------------------------------------------------------------
    def _rewards(self) -> np.ndarray:
        """The finished games' rewards (their rows; 0 elsewhere), and ``final_scores``."""
        n = self.n_players
        shares = np.zeros((self.num_envs, n), np.float32)
        self.final_scores[:] = 0
        higher = self.spec.higher_score_wins
        margins = np.zeros(self.num_envs, np.float32)
        for row in np.flatnonzero(self._done):
            self.spec.kernels.write_records(self._finals[row], self.comp, self._final_ids[row],
                                            self._final_ids[row], self._seat_ids,
                                            self._results, 0, self._setups, 0)
            ranks = self._results["rank"][:n]
            scores = self._results["score"][:n].astype(np.int64)
            winners = ranks == 1
            shares[row] = winners / winners.sum()
            self.final_scores[row] = scores
            if self.seat is not None:
                margins[row] = score_margin_of(scores, self.seat, higher)
        if self.seat is None:
            return shares
        win = shares[:, self.seat]
        if self.reward == "win":
            return win
        return margins if self.reward == "margin" else win + margins

    def _observe(self) -> np.ndarray | None:
        """The observations of the seat each row waits for (its view, encoded)."""
        if self.observation is None:
            return None
        if self._compiled is not None:  # the wing's kernel: every row in one call
            raw = self._compiled.observe_rows(self.states, self.comp, self.current_player)
        else:
            spec = self.spec
            views = [spec.view(self.states[row], self.comp, int(self.current_player[row]),
                               self.components) for row in range(self.num_envs)]
            raw = self.layout.encode_many(views)  # field by field over all rows
        return raw if self.scaled is None else self.scaled.encode_raw(raw)

    def sample(self, rng: np.random.Generator) -> np.ndarray:
        """int64[N]: an action drawn uniformly from each row's mask (a random agent)."""
        weights = rng.random(self.masks.shape) * self.masks
        return weights.argmax(axis=1).astype(np.int64)

