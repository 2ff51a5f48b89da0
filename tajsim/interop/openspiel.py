"""tajsim's games as OpenSpiel games, and OpenSpiel's bots as seats at tajsim's tables.

``import tajsim.interop.openspiel`` registers every game of ``tajsim.games.registry`` with
``pyspiel`` as ``tajsim_<name>`` (``tajsim_tajmahal``, ``tajsim_maharaja``, ``tajsim_maharani``),
so that ``pyspiel.load_game("tajsim_maharani", {"players": 3})`` works, and registers the seat
prefix ``openspiel:`` with :mod:`tajsim.play.mixed` (``openspiel:ismcts:iterations=200``).

The OpenSpiel game
------------------
* Parameters: ``players``, ``edition`` (the game's edition; Taj Mahal's as a number),
  ``seed`` (the master seed), ``deals`` (see chance) and one boolean per rule option
  (``GameSpec.options``).
* ``GameType``: sequential, imperfect information, terminal rewards.
  **Chance is explicit, once** (``EXPLICIT_STOCHASTIC``): a tajsim game draws all its chance
  (the deck, the bag, the setup...) from a stream seeded by (master seed, game id) and kept
  inside the state, so the kernels expose no chance event one by one. The initial state is
  one chance node, *the deal*: outcome ``k`` (uniform over ``deals`` outcomes, parameter,
  default 4096) starts game id ``k`` of the master seed ``seed``; every later chance event is
  fixed by it and hidden from the seats. (Sampled chance, the other way to say this, cannot
  pass OpenSpiel's serialisation test from Python: its ``SerializeGameAndState`` asks the game
  for an RNG state that a Python game cannot provide.) ``resample_from_infostate`` redraws
  the hidden facts and the chance stream with ``spec.redraw_hidden``; the world it draws is a
  state of the full game, not necessarily one of the ``deals`` deals.
  **Utility is the win share** (``CONSTANT_SUM``, sum 1): at the end each of the ``k`` tied
  winners gets ``1/k``, everyone else 0 -- the quantity the ladder and the reports measure.
* States step the game's compiled kernels through its ``BaseGame`` (``spec.game_class``).
* ``observation_string(p)`` lists the fields of the game's own view of seat ``p``
  (``spec.view``: only what that seat sees). ``information_state_string(p)`` adds perfect
  recall: a digest chained over the seat's view at each of its own past decisions and the
  action it took there (views are computed lazily: a rollout that never asks costs a state
  copy per step, not a view). What a seat saw only between two of its decisions and no longer
  sees at the next one is not in it: the same limit as ``redraw_hidden``, which deals again
  whatever the current view does not show.
* Serialisation is the game's ``GameRecord`` JSON (the record replays the state exactly); a
  state made by ``resample_from_infostate`` is not the replay of any record, so it also
  carries its raw vectors and the seats' recall digests.

OpenSpiel's bots as seats
-------------------------
``openspiel:BOT:key=value...`` plays through this adapter wherever seats play step by step:
``tajsim.play.mixed.play_mixed_game`` / ``play_game``, matches
(``tajsim.play.arena.play_mixed_lineups``) and the ladder (``tajsim ladder --openspiel``).
BOT is ``ismcts`` (OpenSpiel's information-set MCTS, ``ISMCTSBot``) or ``mcts`` (OpenSpiel's
``MCTSBot``, run on one world redrawn with ``resample_from_infostate`` per decision: plain MCTS
on the true state would read the other seats' cards). Keys: ``iterations`` (simulations per
decision, default 200), ``seconds`` (ISMCTS only: stop after this many seconds per decision
instead), ``uct_c`` (default 2), ``rollouts`` (random rollouts per leaf, default 1), ``seed``.
A bot's random stream is reseeded from (``seed``, game seed, game id, seat) at a game's first
decision, so a game's result does not depend on which games were played before it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from tajsim.engine.base_game import BaseGame, GameRecord
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import GAMES, get_game
from tajsim.interop import require
from tajsim.interop.encoding import layout, observe
from tajsim.play.mixed import register_seat_resolver

pyspiel = require("pyspiel", "the OpenSpiel adapter (tajsim.interop.openspiel)")
_mcts = require("open_spiel.python.algorithms.mcts", "OpenSpiel's bots")
_ismcts = require("open_spiel.python.algorithms.ismcts", "OpenSpiel's bots")
# The base classes, from modules imported by name: a type checker takes them as Any.
_Game: Any = pyspiel.Game
_State: Any = pyspiel.State
_ISMCTSBot: Any = _ismcts.ISMCTSBot

__all__ = ["OpenSpielSeat", "TajsimGame", "TajsimState", "load_game", "openspiel_name",
           "parse_bot", "state_from_game"]

#: Upper bound on a game's actions that OpenSpiel's ``max_game_length`` reports: random 5-player
#: games take about 300-400 actions; the bound is loose, never hit.
MAX_GAME_LENGTH = 4096

#: How many deals (game ids) the chance node at the start chooses from, by default.
DEFAULT_DEALS = 4096

#: The bots a seat may name and the keys each accepts (with defaults).
BOT_KEYS: Mapping[str, Mapping[str, float]] = {
    "ismcts": {"iterations": 200, "seconds": 0.0, "uct_c": 2.0, "rollouts": 1, "seed": 0},
    "mcts": {"iterations": 200, "uct_c": 2.0, "rollouts": 1, "seed": 0},
}


def openspiel_name(spec: GameSpec) -> str:
    """The name a tajsim game is registered under in ``pyspiel``: ``tajsim_<name>``."""
    return f"tajsim_{spec.name}"


def _default_players(spec: GameSpec) -> int:
    low, high = spec.players[spec.default_edition]
    return 2 if low <= 2 <= high else low


def _edition_param(spec: GameSpec, edition: str) -> int | str:
    """An edition as OpenSpiel's parameter: a number when every edition name is one (Taj
    Mahal's 2018 and 2000: OpenSpiel reads ``edition=2018`` in a game string as an integer)."""
    return int(edition) if all(e.isdigit() for e in spec.editions) else edition


def _game_type(spec: GameSpec) -> Any:
    low = min(lo for lo, _ in spec.players.values())
    high = max(hi for _, hi in spec.players.values())
    params: dict[str, Any] = {"players": _default_players(spec),
                              "edition": _edition_param(spec, spec.default_edition),
                              "seed": 0, "deals": DEFAULT_DEALS}
    params.update({o.name: bool(o.default) for o in spec.options})
    return pyspiel.GameType(
        short_name=openspiel_name(spec),
        long_name=f"{spec.title} (tajsim)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


# ---------------------------------------------------------------------------------------------
# What a seat sees, as text
# ---------------------------------------------------------------------------------------------
_PLAIN = (int, float, str, bool, tuple, list, dict, type(None))


def view_text(view: Any) -> str:
    """One ``field=value`` line per field of a game's view (a frozen dataclass) whose value is
    plain data; objects such as the components (the same for every seat and every state) are
    left out, so the text is short, deterministic and comparable across processes."""
    lines = []
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        if isinstance(value, _PLAIN):
            lines.append(f"{f.name}={value!r}")
    return "\n".join(lines)


def _chain(digest: bytes, text: str, action: int) -> bytes:
    """The next link of a seat's recall: its previous digest, what it saw, what it did."""
    h = hashlib.blake2b(digest, digest_size=16)
    h.update(text.encode())
    h.update(b"\x00%d" % action)
    return h.digest()


# ---------------------------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------------------------
class TajsimGame(_Game):
    """One registered tajsim game as a ``pyspiel.Game`` (see the module docstring)."""

    spec: GameSpec

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        spec = self.spec
        params = dict(params or {})
        edition = str(params.get("edition", spec.default_edition))
        spec.edition_index(edition)  # a bad edition: one-line UserError
        n_players = spec.check_players(int(params.get("players", _default_players(spec))),
                                       edition)
        seed = int(params.get("seed", 0))
        if not 0 <= seed <= 2**63 - 1:
            raise UserError(f"seed {seed} is out of range; expected 0 to 2**63 - 1")
        deals = int(params.get("deals", DEFAULT_DEALS))
        if not 1 <= deals <= 2**20:
            raise UserError(f"deals {deals} is out of range; expected 1 to {2**20}")
        options = {o.name: bool(params.get(o.name, o.default)) for o in spec.options}
        spec.rules_code(edition, options)  # checks the options
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.n_actions, max_chance_outcomes=deals,
            num_players=n_players,
            min_utility=0.0, max_utility=1.0, utility_sum=1.0,
            max_game_length=MAX_GAME_LENGTH)
        full = {"players": n_players, "edition": _edition_param(spec, edition), "seed": seed,
                "deals": deals,
                **options}
        super().__init__(_game_type(spec), info, full)
        self.n_players = n_players
        self.edition = edition
        self.seed = seed
        self.deals = deals
        self.options = {k: v for k, v in options.items() if v}
        self.components = spec.components.default()

    def new_initial_state(self) -> TajsimState:
        """The chance node before the deal."""
        return TajsimState(self, None)

    def deal(self, game_id: int, setup_id: int | None = None) -> BaseGame:
        """The tajsim game of deal (game id) ``game_id`` under this game's parameters."""
        return self.spec.game_class(self.n_players, self.edition, self.seed, game_id, setup_id,
                                    self.components, self.options)

    def state_for(self, base: BaseGame) -> TajsimState:
        """A state of this game at the start of ``base``'s game (its seed, game and setup id;
        any game id, not only the ``deals`` of the chance node: the state starts after the
        deal, which is not in its history)."""
        return TajsimState(self, self.deal(base.game_id, base.setup_id))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.spec, perfect_recall)

    def deserialize_state(self, text: str) -> TajsimState:
        """The state that :meth:`TajsimState.serialize` wrote: its record replayed through
        ``apply_action`` (each action checked), then a resampled world's vectors restored."""
        data = _parse_payload(text)
        if data["record"] is None:
            return self.new_initial_state()
        record = GameRecord.from_dict(data["record"])
        if data.get("chance_deal", True):
            state = self.new_initial_state()
            state.apply_action(record.game_id)
        else:
            state = TajsimState(self, self.deal(record.game_id, record.setup_id))
        for action in record.actions:
            state.apply_action(action)
        _restore_raw(state._d, data)
        return state


class _Observer:
    """pyspiel's observer protocol. Strings: the seat's view, or with perfect recall its
    information state. Tensor (without perfect recall only; a seat's recall has no fixed shape):
    the seat's view as the fixed-shape array of :mod:`tajsim.interop.encoding`, as float32[size],
    the same numbers PettingZoo's observation holds; all -1 before the deal."""

    def __init__(self, spec: GameSpec, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        size = 0 if perfect_recall else layout(spec).size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {"observation": self.tensor}

    def set_from(self, state: TajsimState, player: int) -> None:
        if self.perfect_recall:
            return
        base = state._d.base
        if base is None:
            self.tensor.fill(-1.0)
        else:
            self.tensor[:] = observe(state._d.spec, base.state, base.comp, player)

    def string_from(self, state: TajsimState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_text(player)
        return state.observation_text(player)


# ---------------------------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------------------------
class _StateData:
    """Everything a :class:`TajsimState` holds, in one object so that pyspiel's own copy of a
    Python state (``clone``: a deep copy of the state's ``__dict__``; ``SerializeGameAndState``:
    its pickle) runs this class's fast clone and record-based pickle instead of copying the
    spec and the components.

    Recall of seat ``p``: ``digests[p]`` (16 bytes) covers its decisions folded so far;
    ``pending[p]`` holds (int64[state_size] state copy, action) of its decisions not folded
    yet (folded, by computing the view, when an information state is asked for).
    """

    def __init__(self, game: TajsimGame, base: BaseGame | None) -> None:
        self.os_game = game
        self.spec = game.spec
        self.base = base  # None before the deal
        self.chance_deal = base is None  # the deal is the first action of the history
        n = game.n_players
        self.digests = [b""] * n
        self.pending: list[list[tuple[np.ndarray, int]]] = [[] for _ in range(n)]
        self.obs_cache: dict[int, str] = {}
        self.raw = False  # True: a resampled world, not the replay of a record
        self.resamples = 0
        self.legal_buf = np.empty(game.spec.n_actions, np.int64)

    def __deepcopy__(self, memo: Any) -> _StateData:
        other = object.__new__(_StateData)
        other.__dict__.update(self.__dict__)
        other.base = None if self.base is None else self.base.clone()
        other.digests = list(self.digests)
        other.pending = list(self.pending)  # inner lists are replaced, never mutated
        other.obs_cache = dict(self.obs_cache)
        other.resamples = 0
        other.legal_buf = np.empty(self.spec.n_actions, np.int64)
        return other

    def step(self, action: int) -> None:
        """Apply ``action`` with the game's kernel (OpenSpiel has checked it is legal) and
        note the actor's decision for its recall."""
        base = self.base
        if base is None:  # the deal
            self.base = self.os_game.deal(int(action))
            return
        player = base.current_player
        seen = self.obs_cache.get(player)
        if seen is not None:
            self.digests[player] = _chain(self.digests[player], seen, action)
        else:
            self.pending[player] = [*self.pending[player], (base.state.copy(), int(action))]
        self.spec.kernels.apply_action(base.state, base.comp, int(action))
        base.actions.append(int(action))
        self.obs_cache = {}

    def fold(self, player: int) -> None:
        """Fold ``player``'s pending decisions into its recall digest."""
        base = self.base
        if base is None:  # before the deal nobody has decided
            return
        for state, action in self.pending[player]:
            seen = view_text(self.spec.view(state, base.comp, player, base.components))
            self.digests[player] = _chain(self.digests[player], seen, action)
        self.pending[player] = []

    def payload(self) -> str:
        """The state as JSON: the game's name and parameters and its ``GameRecord``, plus the
        raw vectors and the recall of a resampled world."""
        params = {k: v for k, v in self.os_game.get_parameters().items()}
        record = None if self.base is None else json.loads(self.base.record().to_json())
        data: dict[str, Any] = {"game": openspiel_name(self.spec), "params": params,
                                "record": record, "chance_deal": self.chance_deal}
        if self.raw:
            base = self.base
            assert base is not None  # a resampled world is past the deal
            for p in range(base.n_players):
                self.fold(p)
            data.update(state=base.state.tolist(), prng=base.prng.tolist(),
                        recall=[d.hex() for d in self.digests])
        return json.dumps(data, separators=(",", ":"))

    def __reduce__(self) -> tuple:
        return (_data_from_payload, (self.payload(),))


def _parse_payload(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
        if not all(key in data for key in ("game", "params", "record")):
            raise KeyError("game, params and record")
    except (ValueError, KeyError, TypeError) as exc:
        raise UserError(f"not a serialised tajsim OpenSpiel state: {exc}") from None
    return data


def _restore_raw(d: _StateData, data: Mapping[str, Any]) -> None:
    """Put back a resampled world's vectors and recall (nothing for a record's state)."""
    if "state" not in data:
        return
    base = d.base
    if base is None:
        raise UserError("not a serialised tajsim OpenSpiel state: vectors of a game before its "
                        "deal")
    base.state[:] = np.asarray(data["state"], np.int64)
    base.prng[:] = np.asarray(data["prng"], np.int64)
    d.digests = [bytes.fromhex(h) for h in data["recall"]]
    d.pending = [[] for _ in range(base.n_players)]
    d.obs_cache = {}
    d.raw = True


def _data_from_payload(text: str) -> _StateData:
    """The :class:`_StateData` of :meth:`_StateData.payload` (pyspiel's pickle of a state):
    its record replayed action by action (each checked), then a resampled world restored."""
    data = _parse_payload(text)
    os_game = pyspiel.load_game(data["game"], data["params"])
    if data["record"] is None:
        return _StateData(os_game, None)
    record = GameRecord.from_dict(data["record"])
    base = os_game.deal(record.game_id, record.setup_id)
    out = _StateData(os_game, base)
    out.chance_deal = bool(data.get("chance_deal", True))
    for i, action in enumerate(record.actions):
        if action not in base.legal_actions():
            raise UserError(f"serialised state: action {i + 1} ({action}) is not legal")
        out.step(action)
    _restore_raw(out, data)
    return out


class TajsimState(_State):
    """A state of a tajsim game: its ``BaseGame`` plus each seat's recall (``_d``)."""

    def __init__(self, game: TajsimGame, base: BaseGame | None) -> None:
        super().__init__(game)
        self._d = _StateData(game, base)

    # -- pyspiel's State API --------------------------------------------------------------
    def current_player(self) -> int:
        base = self._d.base
        if base is None:
            return int(pyspiel.PlayerId.CHANCE)
        if base.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return base.current_player

    def is_terminal(self) -> bool:
        return self._d.base is not None and self._d.base.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The deal: game ids ``0 .. deals - 1``, uniform."""
        deals = self._d.os_game.deals
        return [(k, 1.0 / deals) for k in range(deals)] if self._d.base is None else []

    def _legal_actions(self, player: int) -> list[int]:
        d = self._d
        if d.base is None or d.base.is_over or player != d.base.current_player:
            return []
        n = d.spec.kernels.legal_actions(d.base.state, d.base.comp, d.legal_buf)
        return sorted(int(a) for a in d.legal_buf[:n])

    def _apply_action(self, action: int) -> None:
        self._d.step(action)

    def _action_to_string(self, player: int, action: int) -> str:
        """The game's own label and the action number (labels alone can repeat: two Taj
        Mahal cards of the same colour and symbols are different actions)."""
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        base = self._d.base if self._d.base is not None else self._d.os_game.deal(0)
        return f"{base.action_label(int(action))} (#{int(action)})"

    def returns(self) -> list[float]:
        base = self._d.base
        n = self._d.os_game.n_players
        if base is None or not base.is_over:
            return [0.0] * n
        winners = base.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]

    def __str__(self) -> str:
        if self._d.base is None:
            return f"before the deal (seed {self._d.os_game.seed})"
        return str(self._d.base)

    def observation_text(self, player: int) -> str:
        """What seat ``player`` sees now (see :func:`view_text`)."""
        d = self._d
        if d.base is None:
            return f"player={player}\nbefore the deal"
        text = d.obs_cache.get(player)
        if text is None:
            base = d.base
            text = view_text(d.spec.view(base.state, base.comp, player, base.components))
            d.obs_cache[player] = text
        return text

    def information_state_text(self, player: int) -> str:
        """What seat ``player`` sees now and the digest of its recall (its view at each of its
        own past decisions and its action there)."""
        self._d.fold(player)
        return (f"player {player} recall {self._d.digests[player].hex()}\n"
                f"{self.observation_text(player)}")

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> TajsimState:
        """A world consistent with what seat ``player_id`` knows: ``spec.redraw_hidden`` deals
        again everything it cannot see (and the chance stream). The random draws come from
        ``probability_sampler`` (two uniform numbers) and this state's count of resamples, so
        a sampler that restarts from the same seed at every call (OpenSpiel's
        ``UniformProbabilitySampler``) still gives different worlds."""
        d = self._d
        if d.base is None:
            raise UserError("resample_from_infostate before the deal: nothing is known yet")
        text = self.information_state_text(player_id)
        draws = [int(probability_sampler() * 2**52) for _ in range(2)]
        rng = np.random.default_rng([*draws, d.resamples])
        d.resamples += 1
        other = self.clone()
        od = other._d
        od.base.state[:] = d.spec.redraw_hidden(d.base.state, d.base.comp, player_id, rng)
        od.raw = True
        od.obs_cache = {}
        # the others' recall in a sampled world: unknown to player_id, the same in every world
        # drawn from this information state
        unknown = hashlib.blake2b(text.encode(), digest_size=16).digest()
        n = d.os_game.n_players
        od.digests = [d.digests[p] if p == player_id else unknown for p in range(n)]
        od.pending = [[] for _ in range(n)]
        return other

    def serialize(self) -> str:
        """The state as JSON (see :meth:`TajsimGame.deserialize_state`)."""
        return self._d.payload()

    # -- tajsim side ----------------------------------------------------------------------
    @property
    def tajsim_game(self) -> BaseGame | None:
        """The ``BaseGame`` this state steps (None before the deal; the referee's view: do not
        show it to a seat)."""
        return self._d.base


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------
_GAME_CLASSES: dict[str, type[TajsimGame]] = {}


def _register(spec: GameSpec) -> None:
    name = openspiel_name(spec)
    if name in _GAME_CLASSES:
        return
    cls = type(f"TajsimGame_{spec.name}", (TajsimGame,), {"spec": spec})
    _GAME_CLASSES[name] = cls
    if name not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(spec), cls)


for _spec in GAMES.values():
    _register(_spec)


def load_game(game: str | GameSpec, players: int | None = None, edition: str | None = None,
              seed: int = 0, options: Mapping[str, bool] | None = None) -> TajsimGame:
    """``pyspiel.load_game`` of a tajsim game by its tajsim name (or spec)."""
    spec = get_game(game)
    params: dict[str, Any] = {"seed": int(seed)}
    if players is not None:
        params["players"] = int(players)
    if edition is not None:
        params["edition"] = _edition_param(spec, spec.editions[spec.edition_index(edition)])
    params.update({k: bool(v) for k, v in (options or {}).items()})
    unknown = sorted(set(options or {}) - {o.name for o in spec.options})
    if unknown:
        raise UserError(f"unknown rule option {unknown[0]!r} of {spec.title}; expected one of: "
                        f"{', '.join(o.name for o in spec.options) or '(none)'}")
    return pyspiel.load_game(openspiel_name(spec), params)


def state_from_game(os_game: TajsimGame, base: BaseGame) -> TajsimState:
    """The OpenSpiel state of a tajsim ``BaseGame`` in progress (its actions replayed from the
    start, so that every seat's recall is built)."""
    state = os_game.state_for(base)
    for action in base.actions:
        state.apply_action(action)
    return state


# ---------------------------------------------------------------------------------------------
# OpenSpiel's bots as seats
# ---------------------------------------------------------------------------------------------
def parse_bot(text: str) -> tuple[str, dict[str, float]]:
    """``BOT:key=value...`` (after ``openspiel:``) -> (bot, settings with defaults)."""
    bot, *assignments = text.strip().split(":")
    if bot not in BOT_KEYS:
        raise UserError(f"unknown OpenSpiel bot {bot!r} in 'openspiel:{text}'; expected one of: "
                        f"{', '.join(BOT_KEYS)}")
    settings = dict(BOT_KEYS[bot])
    for item in assignments:
        key, sep, value = item.partition("=")
        if key not in settings:
            raise UserError(f"unknown key {key!r} of openspiel:{bot}; expected one of: "
                            f"{', '.join(settings)}")
        try:
            if not sep:
                raise ValueError
            settings[key] = float(value)
        except ValueError:
            raise UserError(f"bad parameter {item!r} in 'openspiel:{text}'; expected "
                            "key=number") from None
    if settings["iterations"] < 1 or settings.get("seconds", 0.0) < 0:
        raise UserError(f"'openspiel:{text}': iterations must be >= 1 and seconds >= 0")
    return bot, settings


class _TimedISMCTSBot(_ISMCTSBot):
    """OpenSpiel's ISMCTS with an optional time budget per decision (``seconds`` > 0: run
    simulations until it is spent, at least two). The search itself is OpenSpiel's."""

    def __init__(self, *args: Any, seconds: float = 0.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seconds = seconds
        self.simulations = 0

    def run_search(self, state: Any) -> Any:
        if self._seconds <= 0:
            self.simulations += self._max_simulations
            return super().run_search(state)
        # OpenSpiel's loop, stopped by the clock instead of a count
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self._seconds
        done = 0
        # the first simulation only evaluates the root: two are the least that choose
        while done < 2 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations += done
        return self.get_final_policy(state, self._root_node)


class OpenSpielSeat:
    """A seat played by an OpenSpiel bot (``openspiel:BOT:key=value``) through the adapter.

    It takes the referee's game (``choose_in_game``) because OpenSpiel's bots search on states;
    ``ismcts`` reaches the hidden facts only through ``resample_from_infostate``, and ``mcts``
    searches one world drawn the same way, so neither reads what its seat cannot see.
    """

    def __init__(self, spec: GameSpec, text: str) -> None:
        self.spec = spec
        self.game = spec.name
        self.bot_name, self.settings = parse_bot(text)
        self.name = f"openspiel:{text}"
        self.label = self.name
        self._os_games: dict[tuple, TajsimGame] = {}
        # one bot and random stream per (game configuration, seat): a seat object may sit at
        # several seats of a table
        self._bots: dict[tuple, tuple[Any, np.random.RandomState]] = {}
        self._seeded: set[tuple] = set()
        self._synced: tuple[int, TajsimState] | None = None
        self.decisions = 0
        self.seconds = 0.0

    def reset(self, n_players: int, player: int) -> None:
        self._synced = None
        self._seeded = set()

    def _make_bot(self, os_game: TajsimGame, rs: np.random.RandomState) -> Any:
        s = self.settings
        evaluator = _mcts.RandomRolloutEvaluator(int(s["rollouts"]), rs)
        if self.bot_name == "ismcts":
            bot = _TimedISMCTSBot(os_game, evaluator, s["uct_c"], int(s["iterations"]),
                                  random_state=rs, seconds=s["seconds"])
            # OpenSpiel's default resampler restarts its sampler at every call; draw from the
            # bot's own (seeded) stream instead
            bot.set_resampler(lambda st, p: st.resample_from_infostate(p, rs.uniform))
            return bot
        return _mcts.MCTSBot(os_game, s["uct_c"], int(s["iterations"]), evaluator,
                             random_state=rs, solve=False)

    def _bot(self, base: BaseGame, player: int) -> tuple[TajsimGame, Any, Any]:
        """(OpenSpiel game, bot, its random stream) of seat ``player`` of ``base``, the stream
        reseeded at the seat's first decision of the game."""
        key = (base.n_players, base.edition, base.seed, tuple(sorted(base.options)))
        if key not in self._os_games:
            self._os_games[key] = load_game(self.spec, base.n_players, base.edition, base.seed,
                                            base.options)
        os_game = self._os_games[key]
        if (key, player) not in self._bots:
            rs = np.random.RandomState(0)
            self._bots[key, player] = (self._make_bot(os_game, rs), rs)
        bot, rs = self._bots[key, player]
        seeded_for = (base.seed, base.game_id, player)
        if seeded_for not in self._seeded:
            rs.seed(np.random.SeedSequence(
                [int(self.settings["seed"]), base.seed, base.game_id, player]
            ).generate_state(1)[0])
            self._seeded.add(seeded_for)
        return os_game, bot, rs

    def _state(self, base: BaseGame, os_game: TajsimGame) -> TajsimState:
        """The OpenSpiel state of ``base``, kept in step with it between decisions."""
        if self._synced is not None and self._synced[0] == id(base):
            state = self._synced[1]
            synced = state.tajsim_game
            assert synced is not None  # a state made from a game is past the deal
            for action in base.actions[len(synced.actions):]:
                state.apply_action(action)
        else:
            state = state_from_game(os_game, base)
        self._synced = (id(base), state)
        return state

    def choose_in_game(self, base: BaseGame, player: int, options: Sequence[int]) -> int:
        """The bot's action for seat ``player`` of ``base`` (one of ``options``)."""
        t0 = time.perf_counter()
        os_game, bot, rs = self._bot(base, player)
        state = self._state(base, os_game)
        if self.bot_name == "mcts":
            action = int(bot.step(state.resample_from_infostate(player, rs.uniform)))
        else:
            action = int(bot.step(state))
        self.decisions += 1
        self.seconds += time.perf_counter() - t0
        return action

    def choose(self, view: Any, options: Sequence[int]) -> int:
        raise UserError(f"{self.name} plays only where seats see the game step by step "
                        "(play_mixed_game, matches, the ladder)")


def _resolve(spec: GameSpec, text: str) -> OpenSpielSeat:
    return OpenSpielSeat(spec, text)


register_seat_resolver("openspiel", _resolve)
