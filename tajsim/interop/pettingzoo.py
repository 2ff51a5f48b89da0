"""Every registered game as a PettingZoo AEC environment (``pip install 'tajsim[interop]'``)::

    from tajsim.interop.pettingzoo import env
    e = env(game="maharani", players=3, seed=7)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else \\
            e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

* Agents ``player_0 .. player_{n-1}`` are the seats; ``agent_selection`` is the seat the
  game's state says is to move (not a fixed cycle), and every decision is asked, even one with
  a single legal action.
* Observations: ``{"observation": int64[size], "action_mask": int8[n_actions]}``; the array
  is what that seat sees (:mod:`tajsim.interop.encoding`), the mask is 1 at the legal actions
  of the seat to move and all 0 for the other seats.
* ``state()`` is the global observation for a centralised critic: every seat's observation
  array, seat 0 first (``int64[n_players * size]``, ``state_space``): all that the seats know
  together, never what none of them sees (the deck's order, the bag's next draws).
* ``players`` defaults to the game's own table size (``GameSpec.default_player_count``).
* Rewards come at the end only: each winner (rank 1) gets its win share, 1 / (number of
  winners), the others 0; ``infos[agent]`` then holds ``score`` and ``rank``.
* ``reset(seed=s)`` plays game 0 of master seed ``s``, each later ``reset()`` the next game
  (1, 2, ...) of that seed: episode ``k`` after ``reset(seed=s)`` is the game that
  ``tajsim.simulate`` plays as game ``k`` of seed ``s`` (setup id = game id), so an episode is a
  pure function of the seed (all chance comes from the game's own seeded streams). Without any
  seed the first episode draws a master seed from the operating system. ``reset``'s
  ``options`` are ignored: the rules are fixed when the environment is made.
* ``render_mode="ansi"``: ``render()`` returns the game's own description (``str(game)``).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

import numpy as np

from tajsim.engine.base_game import BaseGame, IllegalActionError
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.interop import require
from tajsim.interop.compiled import observation_kernel
from tajsim.interop.encoding import layout

# PettingZoo's spaces are Gymnasium's: the spaces, rewards and seeds are shared with it.
from tajsim.interop.gymnasium import check_seed, observation_space, spaces, win_shares

pettingzoo = require("pettingzoo", "tajsim.interop.pettingzoo")
# The base class, from a module imported by name: a type checker takes it as Any.
_AECEnv: Any = pettingzoo.AECEnv

__all__ = ["TajsimAECEnv", "env"]

RENDER_MODES = ("ansi",)


def fresh_seed() -> int:
    """A master seed from the operating system's entropy."""
    return secrets.randbits(63)


class TajsimAECEnv(_AECEnv):
    """One registered game as an AEC environment (see the module docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "name": "tajsim", "is_parallelizable": False}

    def __init__(self, game: str | None = None, players: int | None = None,
                 edition: str | None = None,
                 seed: int | None = None, options: Mapping[str, bool] | None = None,
                 render_mode: str | None = None) -> None:
        super().__init__()
        self.spec = get_game(game)
        self.edition = self.spec.editions[self.spec.edition_index(
            self.spec.default_edition if edition is None else edition)]
        self.n_players = self.spec.check_players(
            self.spec.default_player_count(self.edition) if players is None else players,
            self.edition)
        self.rule_options = self.spec.game_class.check_options(options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise UserError(f"render mode {render_mode!r} is not offered; expected one of: "
                            f"{', '.join(RENDER_MODES)} (or none)")
        self.render_mode = render_mode
        self.master_seed = check_seed(seed)
        self.game_index = -1
        self.metadata = {**self.metadata, "name": f"tajsim_{self.spec.name}"}
        self.possible_agents = [f"player_{p}" for p in range(self.n_players)]
        self.agent_name_mapping = {a: p for p, a in enumerate(self.possible_agents)}
        self.layout = layout(self.spec)
        self._compiled = observation_kernel(self.spec)  # None: the Python view, encoded
        self.components = self.spec.components.default()
        space = observation_space(self.spec)
        self.observation_spaces = {a: space if p == 0 else observation_space(self.spec)
                                   for p, a in enumerate(self.possible_agents)}
        self.action_spaces = {a: spaces.Discrete(self.spec.n_actions)
                              for a in self.possible_agents}
        wide = np.iinfo(np.int64)
        self.state_space = spaces.Box(wide.min, wide.max, (self.n_players * self.layout.size,),
                                      np.int64)
        self._legal = np.empty(self.spec.n_actions, np.int64)
        self._n_legal = 0
        self.game: BaseGame | None = None

    @property
    def _game(self) -> BaseGame:
        """The episode's game; a one-line error before the first ``reset()``."""
        if self.game is None:
            raise UserError("no episode yet; call reset() first")
        return self.game

    # -- the spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    # -- episodes -----------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        seed = check_seed(seed)
        if seed is not None:
            self.master_seed, self.game_index = seed, 0
        else:
            if self.master_seed is None:
                self.master_seed = fresh_seed()
            self.game_index += 1
        self.game = self.spec.game_class(self.n_players, self.edition, self.master_seed,
                                         self.game_index, None, self.components,
                                         self.rule_options)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self) -> None:
        """Refresh the legal list and the seat to move, or end the episode."""
        game = self._game
        if game.is_over:
            self._n_legal = 0
            ranks, scores = game.ranks(), game.scores()
            for p, share in enumerate(win_shares(game)):
                agent = self.possible_agents[p]
                self.rewards[agent] = share
                self.terminations[agent] = True
                self.infos[agent] = {"score": int(scores[p]), "rank": int(ranks[p])}
            return
        self._n_legal = int(self.spec.kernels.legal_actions(game.state, game.comp,
                                                            self._legal))
        self.agent_selection = self.possible_agents[self.spec.current_player(game.state)]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        player = self.agent_name_mapping[agent]
        game = self._game
        mask = np.zeros(self.spec.n_actions, np.int8)
        if not game.is_over and self.spec.current_player(game.state) == player:
            mask[self._legal[:self._n_legal]] = 1
        return {"observation": self._encode(player), "action_mask": mask}

    def _encode(self, player: int, out: np.ndarray | None = None) -> np.ndarray:
        """Seat ``player``'s observation array: the wing's compiled kernel where it has one
        (the same array), else its Python view encoded."""
        game = self._game
        if self._compiled is not None:
            return self._compiled.observe(game.state, game.comp, player, out)
        view = self.spec.view(game.state, game.comp, player, game.components)
        return self.layout.encode(view, out)

    def state(self) -> np.ndarray:
        """The global observation (centralised critics): every seat's observation array, seat
        0 first, int64[n_players * size]; what the seats know together, not the hidden
        chance."""
        out = np.empty(self.n_players * self.layout.size, np.int64)
        for p in range(self.n_players):
            self._encode(p, out[p * self.layout.size:(p + 1) * self.layout.size])
        return out

    def step(self, action: Any) -> None:
        if self.game is None:
            raise UserError("no episode yet; call reset() before step()")
        if not self.agents:
            raise UserError("the episode is over (every agent is done); call reset() before "
                            "step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self._legal[:self._n_legal]
        if action is None or not np.any(legal == action):
            raise IllegalActionError(
                f"action {action!r} is not legal for {agent} here; {self._n_legal} legal "
                f"actions, e.g. {[int(a) for a in legal[:5]]}")
        self._cumulative_rewards[agent] = 0.0
        game = self._game
        self.spec.kernels.apply_action(game.state, game.comp, int(action))
        game.actions.append(int(action))
        self._after_move()
        self._accumulate_rewards()

    # -- display ------------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return str(self.game) if self.game is not None else ""

    def close(self) -> None:
        pass


def env(game: str | None = None, players: int | None = None, edition: str | None = None,
        seed: int | None = None, options: Mapping[str, bool] | None = None,
        render_mode: str | None = None) -> TajsimAECEnv:
    """An AEC environment of ``game`` (a registered name; None: the default game) for
    ``players`` seats (default: the game's ``default_player_count``; see the module docstring):
    ``edition`` (default: the game's first), ``options`` (its rule options by name),
    ``seed`` (the master seed of the first episode unless ``reset`` gives one)."""
    return TajsimAECEnv(game, players, edition, seed, options, render_mode)
