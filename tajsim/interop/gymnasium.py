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

* The learner plays seat ``seat`` (default 0; ``"random"``: a seat drawn each episode);
  ``players`` defaults to the game's own table size (``GameSpec.default_player_count``).
* ``opponents`` is one opponent for every other seat or a list, one per other seat in seat
  order (default: the game's first registered preset, ``balanced`` where it exists). An
  opponent is a compiled strategy spec (``"balanced"``, ``"ismcts:iterations=200"``...) or a
  Python policy, a callable ``policy(observation) -> action`` given that seat's observation
  dict in the environment's encoding (a self-play opponent: a frozen copy of the learner).
  ``curriculum`` (a :class:`Curriculum`, or any callable ``episode -> opponents``) chooses the
  opponents of each episode instead (random first, then heuristics...);
  :meth:`SeatEnv.set_opponents` changes them from the next episode (a self-play league).
  The opponents' moves are played inside ``step`` (and ``reset``) until the learner must
  decide; decisions with a single legal action are played for the learner too (they teach
  nothing), so every step offers a choice.
* Observations: ``{"observation": ..., "action_mask": int8[n_actions]}``; the observation is
  ``int64[size]`` as in the PettingZoo environment (``observation="raw"``, the default) or
  float32 in [-1, 1] (``observation="scaled"``: text fields one-hot, the rest scaled and
  clipped, :class:`~tajsim.interop.encoding.ScaledLayout`). ``action_masks()`` returns the
  mask too (the method that sb3-contrib's ``MaskablePPO`` calls).
* Reward (``reward``): ``"win"`` (default): 0 until the game ends, then the learner's win
  share (1 / number of winners if it won, else 0). ``"margin"``: shaped, dense: the change of
  the learner's score margin at each step, so an episode's rewards sum to the final margin:
  (its score - the best other score) / the largest score magnitude, clipped to [-1, 1] and
  halved, in [-0.5, 0.5], the sign following ``GameSpec.better_score`` (lower wins in No
  Thanks!). ``"win+margin"``: both. A callable ``potential(game, seat) -> float`` gives the
  same shaping for any potential. The final ``info`` holds ``score``, ``rank``, every seat's
  ``scores``, ``win_share`` and ``margin``.
* An illegal action (one the mask excludes) ends the episode as lost: the episode's rewards
  sum to -1 (``ILLEGAL_ACTION_REWARD``, below every outcome), ``terminated=True``,
  ``info["illegal_action"] = True``; with ``illegal_action="raise"`` it raises
  :class:`~tajsim.engine.base_game.IllegalActionError` instead.
* Seeds: ``reset(seed=s)`` plays game 0 of master seed ``s`` and each later ``reset()`` the
  next game (1, 2, ...), the game ``tajsim.simulate`` plays under that seed and index (the
  opponents' own chance included), so an episode is a pure function of the seed and the
  learner's actions (a random seat too: drawn from the master seed and the game's index).
  Without a seed the first master seed comes from ``np_random``.
* ``render_mode="ansi"``: ``render()`` returns the game's own description (``str(game)``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from tajsim.engine.base_game import BaseGame, IllegalActionError
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import GAMES, get_game
from tajsim.interop import require
from tajsim.interop.compiled import observation_kernel
from tajsim.interop.encoding import layout, scaled_layout
from tajsim.interop.rewards import score_margin_of

gymnasium = require("gymnasium", "tajsim.interop.gymnasium")
spaces = gymnasium.spaces
# The base class, from a module imported by name: a type checker takes it as Any.
_Env: Any = gymnasium.Env

__all__ = ["ILLEGAL_ACTION_REWARD", "Curriculum", "SeatEnv", "check_seed", "env_id",
           "observation_space", "score_margin", "win_shares"]

RENDER_MODES = ("ansi",)
REWARDS = ("win", "margin", "win+margin")
OBSERVATIONS = ("raw", "scaled")
#: What an episode's rewards sum to after an action outside the mask (the episode ends): below
#: every game's outcome under every built-in reward.
ILLEGAL_ACTION_REWARD = -1.0

#: A Python opponent: the seat's observation dict -> its action.
Policy: TypeAlias = Callable[[dict[str, np.ndarray]], Any]
#: One opponent (a compiled strategy spec or a policy), or one per other seat.
Opponents: TypeAlias = str | Policy | Sequence[str | Policy]


def observation_space(spec: GameSpec, observation: str = "raw") -> Any:
    """``Dict(observation=Box, action_mask=Box(int8[n_actions], 0..1))``: the observation
    ``int64[size]`` (raw) or ``float32[size]`` in [-1, 1] (scaled)."""
    if observation == "scaled":
        box = spaces.Box(-1.0, 1.0, (scaled_layout(spec).size,), np.float32)
    else:
        wide = np.iinfo(np.int64)
        box = spaces.Box(wide.min, wide.max, (layout(spec).size,), np.int64)
    return spaces.Dict({"observation": box,
                        "action_mask": spaces.Box(0, 1, (spec.n_actions,), np.int8)})


def win_shares(game: BaseGame) -> list[float]:
    """Each seat's share of the win of a finished game: 1 / (number of winners) for a winner,
    0 for the others."""
    winners = game.winners()
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(game.n_players)]


def score_margin(game: BaseGame, seat: int) -> float:
    """The learner's normalised score margin now, in [-0.5, 0.5]
    (:func:`~tajsim.interop.rewards.score_margin_of`: the sign follows ``better_score``)."""
    return score_margin_of(game.scores(), seat, game.spec.higher_score_wins)


#: Mixed into the master seed and game index that draw a random seat (``seat="random"``).
RANDOM_SEAT_SALT = 0x5EA7


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


@dataclass(frozen=True)
class Curriculum:
    """Opponents by episode: ``stages`` is a list of ``(opponents, episodes)``, each stage
    playing its opponents (None: the default) for that many episodes, the last one for ever
    (its count is ignored; None is fine), e.g. ``Curriculum([("random", 2000), ("greedy", 2000),
    ("balanced", None)])``. Episodes count from the environment's first ``reset``."""

    stages: Sequence[tuple[Opponents | None, int | None]]

    def __post_init__(self) -> None:
        if not self.stages:
            raise UserError("a curriculum with no stages; expected a list of "
                            "(opponents, episodes)")
        for i, stage in enumerate(self.stages):
            if not isinstance(stage, tuple) or len(stage) != 2:
                raise UserError(f"curriculum stage {i} is {stage!r}; expected (opponents, "
                                "episodes)")
            count = stage[1]
            if i < len(self.stages) - 1 and (not isinstance(count, (int, np.integer))
                                             or isinstance(count, bool) or count < 1):
                raise UserError(f"curriculum stage {i} lasts {count!r} episodes; expected a "
                                "whole number >= 1")

    def __call__(self, episode: int) -> Opponents | None:
        for opponents, count in self.stages[:-1]:
            assert count is not None  # checked above
            if episode < count:
                return opponents
            episode -= int(count)
        return self.stages[-1][0]


class SeatEnv(_Env):
    """One seat of a game against compiled strategies or Python policies (see the module
    docstring)."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, game: str | None = None, players: int | None = None,
                 seat: int | str = 0, opponents: Opponents | None = None,
                 edition: str | None = None, options: Mapping[str, bool] | None = None,
                 seed: int | None = None, render_mode: str | None = None,
                 illegal_action: str = "lose", reward: str | Callable[..., float] = "win",
                 observation: str = "raw",
                 curriculum: Callable[[int], Opponents | None] | None = None) -> None:
        super().__init__()
        self.game_spec = get_game(game)
        spec = self.game_spec
        self.edition = spec.editions[spec.edition_index(
            spec.default_edition if edition is None else edition)]
        self.n_players = spec.check_players(
            spec.default_player_count(self.edition) if players is None else players,
            self.edition)
        if seat == "random":
            self.random_seat = True
            seat = 0
        elif not isinstance(seat, (int, np.integer)) or isinstance(seat, bool) \
                or not 0 <= seat < self.n_players:
            raise UserError(f"seat {seat!r} is not a seat of a {self.n_players}-player game; "
                            f"expected 0 to {self.n_players - 1} or 'random'")
        else:
            self.random_seat = False
        self.seat = int(seat)
        if not (reward in REWARDS or callable(reward)):
            raise UserError(f"reward {reward!r}; expected one of {', '.join(REWARDS)} or a "
                            "callable potential(game, seat) -> float")
        self.reward_mode = reward
        if observation not in OBSERVATIONS:
            raise UserError(f"observation {observation!r}; expected one of "
                            f"{', '.join(OBSERVATIONS)}")
        self.observation_mode = observation
        if curriculum is not None and not callable(curriculum):
            raise UserError(f"curriculum {curriculum!r}; expected a Curriculum or a callable "
                            "episode -> opponents")
        self.curriculum = curriculum
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
        self.episodes = 0  # resets so far: the curriculum's clock
        self.layout = layout(spec)
        self.scaled = scaled_layout(spec) if observation == "scaled" else None
        self._compiled = observation_kernel(spec)  # None: the Python view, encoded
        self.components = spec.components.default()
        self.observation_space = observation_space(spec, observation)
        self.action_space = spaces.Discrete(spec.n_actions)
        self._legal = np.empty(spec.n_actions, np.int64)
        self._n_legal = 0
        self._over = True
        self._potential = 0.0
        self._parsed: dict[str, tuple[int, np.ndarray]] = {}
        self.game: BaseGame | None = None
        self._next: Opponents | None = None
        self._use_opponents(opponents)
        if curriculum is not None:
            self._use_opponents(curriculum(0))  # checked now: a bad stage fails here

    # -- opponents ----------------------------------------------------------------------------
    def _use_opponents(self, opponents: Opponents | None) -> None:
        """Seat ``opponents`` (see the module docstring; None: the default) around the
        learner's seat."""
        spec = self.game_spec
        if opponents is None:
            opponents = spec.reference_preset
        given = [opponents] * (self.n_players - 1) \
            if isinstance(opponents, str) or callable(opponents) else list(opponents)
        if len(given) != self.n_players - 1:
            raise UserError(f"{len(given)} opponents given for a {self.n_players}-player game; "
                            f"expected {self.n_players - 1} (or one opponent for all)")
        seats: list[tuple[int, np.ndarray] | Policy] = []
        for opponent in given:
            if callable(opponent):
                seats.append(opponent)
            elif isinstance(opponent, str):
                if opponent not in self._parsed:
                    strategy, params = spec.strategies.parse(opponent)
                    self._parsed[opponent] = (strategy.strategy_id, params)
                seats.append(self._parsed[opponent])
            else:
                raise UserError(f"opponent {opponent!r}; expected a strategy spec (e.g. "
                                "'balanced') or a callable policy(observation) -> action")
        compiled = [s for s in seats if isinstance(s, tuple)]
        self._switches = spec.strategies.kernel_switches([i for i, _ in compiled],
                                                         [p for _, p in compiled])
        self._opponent_seats = seats
        self.opponents = [o if isinstance(o, str) else getattr(o, "__name__", repr(o))
                          for o in given]

    def set_opponents(self, opponents: Opponents | None) -> None:
        """Play ``opponents`` from the next episode on (checked now), e.g. a new frozen copy of
        the learner for self-play; a curriculum, if any, still chooses at each reset."""
        self._use_opponents(opponents)

    # -- episodes -----------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None
              ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        seed = check_seed(seed)
        if seed is not None:
            self.master_seed, self.game_index = seed, 0
        else:
            if self.master_seed is None:
                self.master_seed = int(self.np_random.integers(2**63 - 1))
            self.game_index += 1
        if self.curriculum is not None:
            self._use_opponents(self.curriculum(self.episodes))
        self.episodes += 1
        if self.random_seat:  # from the episode's seed and index, as its game: reproducible
            draw = np.random.default_rng([self.master_seed, self.game_index, RANDOM_SEAT_SALT])
            self.seat = int(draw.integers(self.n_players))
        self.seats: list[tuple[int, np.ndarray] | Policy | None] = list(self._opponent_seats)
        self.seats.insert(self.seat, None)
        self.game = self.game_spec.game_class(self.n_players, self.edition, self.master_seed,
                                              self.game_index, None, self.components,
                                              self.rule_options)
        self.game.strategies = ["learner" if s is None else self.opponents[
            p - (p > self.seat)] for p, s in enumerate(self.seats)]
        self._over = False
        # the potential of the game before any move (0 for the margin: all scores equal), so
        # that an episode's rewards sum to the potential at its end
        self._potential = self._potential_now()
        self._play_to_learner()
        return self._observation(), {**self._info(), "seat": self.seat,
                                     "opponents": list(self.opponents)}

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
                if isinstance(opponent, tuple):
                    strategy_id, params = opponent
                    action = int(k.choose_action(strategy_id, state, comp, p, params,
                                                 game.prng, legal, n, *self._switches))
                else:
                    action = self._policy_action(opponent, p, n)
            k.apply_action(state, comp, action)
            game.actions.append(action)
        self._n_legal = 0
        self._over = True

    def _policy_action(self, policy: Policy, player: int, n: int) -> int:
        """A Python opponent's action: ``policy`` given seat ``player``'s observation."""
        mask = np.zeros(self.game_spec.n_actions, np.int8)
        mask[self._legal[:n]] = 1
        obs = {"observation": self._encode(player), "action_mask": mask}
        action = policy(obs)
        value = np.asarray(action).reshape(-1)
        if value.size != 1 or not np.issubdtype(value.dtype, np.integer) \
                or not np.any(self._legal[:n] == value[0]):
            raise IllegalActionError(f"the policy of seat {player} chose {action!r}, not one of "
                                     f"its {n} legal actions")
        return int(value[0])

    def _potential_now(self) -> float:
        """The shaping potential of the current state (0 for the win-share reward)."""
        mode, game = self.reward_mode, self._game
        if callable(mode):
            return float(mode(game, self.seat))
        if mode == "win":
            return 0.0
        value = score_margin(game, self.seat)
        if mode == "win+margin" and game.is_over:
            value += win_shares(game)[self.seat]
        return value

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.game is None or self._over:
            raise UserError("the episode is over; call reset() before step()")
        legal = self._legal[:self._n_legal]
        if not np.any(legal == action):
            if self.illegal_action == "raise":
                raise IllegalActionError(
                    f"action {action!r} is not legal here; {self._n_legal} legal actions, "
                    f"e.g. {[int(a) for a in legal[:5]]}")
            self._over, self._n_legal = True, 0
            # the episode's rewards then sum to ILLEGAL_ACTION_REWARD
            return (self._observation(), ILLEGAL_ACTION_REWARD - self._potential, True, False,
                    {**self._info(), "illegal_action": True})
        game = self.game
        self.game_spec.kernels.apply_action(game.state, game.comp, int(action))
        game.actions.append(int(action))
        self._play_to_learner()
        before, self._potential = self._potential, self._potential_now()
        reward = self._potential - before
        if self.reward_mode == "win" and game.is_over:
            reward = win_shares(game)[self.seat]
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

    def _encode(self, player: int) -> np.ndarray:
        """Seat ``player``'s observation array in this environment's encoding."""
        game = self._game
        if self._compiled is not None:  # the wing's kernel: the same array, no Python view
            raw = self._compiled.observe(game.state, game.comp, player)
        else:
            raw = self.layout.encode(self.game_spec.view(game.state, game.comp, player,
                                                         game.components))
        return raw if self.scaled is None else self.scaled.encode_raw(raw)

    def _observation(self) -> dict[str, np.ndarray]:
        return {"observation": self._encode(self.seat), "action_mask": self.action_masks()}

    def _info(self) -> dict[str, Any]:
        game = self._game
        if not game.is_over:
            return {}
        scores, ranks = game.scores(), game.ranks()
        return {"score": int(scores[self.seat]), "rank": int(ranks[self.seat]),
                "scores": [int(s) for s in scores], "win_share": win_shares(game)[self.seat],
                "margin": score_margin(game, self.seat)}

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
