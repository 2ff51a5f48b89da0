"""One seat of a registered game as a single-agent Gymnasium environment: the other seats are
registered compiled tajsim strategies (``pip install 'tajsim[interop]'``)::

    import gymnasium
    import tajsim.interop.gymnasium  # registers tajsim/TajMahal-v0, tajsim/Maharaja-v0, ...
    env = gymnasium.make("tajsim/Maharani-v0", players=3, opponents="balanced")
    obs, info = env.reset(seed=7)
    done = False
    while not done:
        action = env.action_space.sample(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(action)
        done = terminated or truncated

* The learner plays seat ``seat`` (default 0); ``opponents`` is one strategy for every other
  seat (``"balanced"``, ``"ismcts:iterations=200"``...) or a list, one per other seat in seat
  order (default: the game's first registered preset, ``balanced`` in every game so far).
  The opponents' moves are played inside ``step`` (and ``reset``) until the learner must
  decide; decisions with a single legal action are played for the learner too (they teach
  nothing), so every step offers a choice.
* Observations: ``{"observation": int64[size], "action_mask": int8[n_actions]}`` as in the
  PettingZoo environment (:mod:`tajsim.interop.encoding`); ``action_masks()`` returns the mask
  too (the method that sb3-contrib's ``MaskablePPO`` calls).
* Reward: 0 until the game ends, then the learner's win share (1 / number of winners if it
  won, else 0); the final ``info`` holds ``score``, ``rank`` and every seat's ``scores``.
* An illegal action (one the mask excludes) ends the episode as lost: reward -1,
  ``terminated=True``, ``info["illegal_action"] = True``; with ``illegal_action="raise"`` it
  raises :class:`~tajsim.engine.base_game.IllegalActionError` instead.
* Seeds: ``reset(seed=s)`` plays game 0 of master seed ``s`` and each later ``reset()`` the
  next game (1, 2, ...), the game ``tajsim.simulate`` plays under that seed and index (the
  opponents' own chance included), so an episode is a pure function of the seed and the
  learner's actions. Without a seed the first master seed comes from ``np_random``.
* ``render_mode="ansi"``: ``render()`` returns the game's own description (``str(game)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tajsim.engine.base_game import BaseGame, IllegalActionError
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import GAMES, get_game
from tajsim.interop import require
from tajsim.interop.encoding import layout

gymnasium = require("gymnasium", "tajsim.interop.gymnasium")
spaces = gymnasium.spaces
# The base class, from a module imported by name: a type checker takes it as Any.
_Env: Any = gymnasium.Env

__all__ = ["ILLEGAL_ACTION_REWARD", "SeatEnv", "check_seed", "env_id", "observation_space",
           "win_shares"]

RENDER_MODES = ("ansi",)
#: The reward of an action outside the mask (the episode ends): below every game's outcome.
ILLEGAL_ACTION_REWARD = -1.0


def observation_space(spec: GameSpec) -> Any:
    """``Dict(observation=Box(int64[size]), action_mask=Box(int8[n_actions], 0..1))``."""
    wide = np.iinfo(np.int64)
    return spaces.Dict({
        "observation": spaces.Box(wide.min, wide.max, (layout(spec).size,), np.int64),
        "action_mask": spaces.Box(0, 1, (spec.n_actions,), np.int8),
    })


def win_shares(game: BaseGame) -> list[float]:
    """Each seat's share of the win of a finished game: 1 / (number of winners) for a winner,
    0 for the others."""
    winners = game.winners()
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(game.n_players)]


def check_seed(seed: Any) -> int | None:
    """``seed`` as an int (None stays None); a one-line ``UserError`` otherwise."""
    if seed is None:
        return None
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool) \
            and 0 <= int(seed) <= 2**63 - 1:
        return int(seed)
    raise UserError(f"seed {seed!r} is out of range; expected 0 to 2**63 - 1")


def env_id(spec: GameSpec) -> str:
    """The Gymnasium id of a game: ``tajsim/<title's letters and digits>-v0`` (Gymnasium
    refuses other characters: "No Thanks!" is ``tajsim/NoThanks-v0``)."""
    return f"tajsim/{''.join(c for c in spec.title if c.isascii() and c.isalnum())}-v0"


class SeatEnv(_Env):
    """One seat of a game against compiled strategies (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, game: str | None = None, players: int = 2, seat: int = 0,
                 opponents: str | Sequence[str] | None = None, edition: str | None = None,
                 options: Mapping[str, bool] | None = None, seed: int | None = None,
                 render_mode: str | None = None, illegal_action: str = "lose") -> None:
        super().__init__()
        self.game_spec = get_game(game)
        spec = self.game_spec
        self.edition = spec.editions[spec.edition_index(
            spec.default_edition if edition is None else edition)]
        self.n_players = spec.check_players(players, self.edition)
        if not isinstance(seat, (int, np.integer)) or isinstance(seat, bool) \
                or not 0 <= seat < self.n_players:
            raise UserError(f"seat {seat!r} is not a seat of a {self.n_players}-player game; "
                            f"expected 0 to {self.n_players - 1}")
        self.seat = int(seat)
        if opponents is None:
            opponents = spec.reference_preset
        names = [opponents] * (self.n_players - 1) if isinstance(opponents, str) \
            else list(opponents)
        if len(names) != self.n_players - 1:
            raise UserError(f"{len(names)} opponents given for a {self.n_players}-player game; "
                            f"expected {self.n_players - 1} (or one strategy for all)")
        parsed = [spec.strategies.parse(name) for name in names]
        #: (strategy id, params) of each seat; None for the learner's.
        self.seats: list[tuple[int, np.ndarray] | None] = [
            (s.strategy_id, params) for s, params in parsed]
        self.seats.insert(self.seat, None)
        self.opponents = names
        self._switches = spec.strategies.kernel_switches([s.strategy_id for s, _ in parsed],
                                                         [params for _, params in parsed])
        self.rule_options = spec.game_class.check_options(options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UserError(f"render mode {render_mode!r} is not offered; expected one of: "
                            f"{', '.join(RENDER_MODES)} (or none)")
        if illegal_action not in ("lose", "raise"):
            raise UserError(f"illegal_action {illegal_action!r}; expected 'lose' or 'raise'")
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.master_seed = check_seed(seed)
        self.game_index = -1
        self.layout = layout(spec)
        self.components = spec.components.default()
        self.observation_space = observation_space(spec)
        self.action_space = spaces.Discrete(spec.n_actions)
        self._legal = np.empty(spec.n_actions, np.int64)
        self._n_legal = 0
        self._over = True
        self.game: BaseGame | None = None

    # -- episodes -----------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        seed = check_seed(seed)
        if seed is not None:
            self.master_seed, self.game_index = seed, 0
        else:
            if self.master_seed is None:
                self.master_seed = int(self.np_random.integers(2**63 - 1))
            self.game_index += 1
        self.game = self.game_spec.game_class(self.n_players, self.edition, self.master_seed,
                                              self.game_index, None, self.components,
                                              self.rule_options)
        self.game.strategies = ["learner" if s is None else self.opponents[
            p - (p > self.seat)] for p, s in enumerate(self.seats)]
        self._over = False
        self._play_to_learner()
        return self._observation(), self._info()

    def _play_to_learner(self) -> None:
        """Play the opponents' moves and the learner's forced moves until the learner has a
        choice or the game is over."""
        spec, game = self.game_spec, self._game
        k, state, comp, legal = spec.kernels, game.state, game.comp, self._legal
        while (p := spec.current_player(state)) >= 0:
            n = int(k.legal_actions(state, comp, legal))
            if n == 1:
                action = int(legal[0])
            elif p == self.seat:
                self._n_legal = n
                return
            else:
                opponent = self.seats[p]
                assert opponent is not None  # only the learner's seat holds None
                strategy_id, params = opponent
                action = int(k.choose_action(strategy_id, state, comp, p, params, game.prng,
                                             legal, n, *self._switches))
            k.apply_action(state, comp, action)
            game.actions.append(action)
        self._n_legal = 0
        self._over = True

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        if self.game is None or self._over:
            raise UserError("the episode is over; call reset() before step()")
        legal = self._legal[:self._n_legal]
        if not np.any(legal == action):
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"action {action!r} is not legal here; {self._n_legal} legal actions, "
                    f"e.g. {[int(a) for a in legal[:5]]}")
            self._over, self._n_legal = True, 0
            return (self._observation(), ILLEGAL_ACTION_REWARD, True, False,
                    {**self._info(), "illegal_action": True})
        game = self.game
        self.game_spec.kernels.apply_action(game.state, game.comp, int(action))
        game.actions.append(int(action))
        self._play_to_learner()
        reward = win_shares(game)[self.seat] if game.is_over else 0.0
        return self._observation(), reward, game.is_over, False, self._info()

    @property
    def _game(self) -> BaseGame:
        """The episode's game; a one-line error before the first ``reset()``."""
        if self.game is None:
            raise UserError("no episode yet; call reset() first")
        return self.game

    # -- what the learner gets ----------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """int8[n_actions]: 1 at the learner's legal actions (all 0 once the episode is over)."""
        mask = np.zeros(self.game_spec.n_actions, np.int8)
        mask[self._legal[:self._n_legal]] = 1
        return mask

    def _observation(self) -> dict[str, np.ndarray]:
        game = self._game
        view = self.game_spec.view(game.state, game.comp, self.seat, game.components)
        return {"observation": self.layout.encode(view), "action_mask": self.action_masks()}

    def _info(self) -> dict[str, Any]:
        game = self._game
        if not game.is_over:
            return {}
        scores, ranks = game.scores(), game.ranks()
        return {"score": int(scores[self.seat]), "rank": int(ranks[self.seat]),
                "scores": [int(s) for s in scores]}

    # -- display ------------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return str(self.game) if self.game is not None else ""

    def close(self) -> None:
        pass


def _register() -> None:
    """Register every game as ``tajsim/<Title>-v0`` (keyword arguments go to :class:`SeatEnv`)."""
    for name, spec in GAMES.items():
        if env_id(spec) not in gymnasium.registry:
            gymnasium.register(id=env_id(spec), entry_point=SeatEnv, kwargs={"game": name})


_register()
