"""The OpenSpiel game and state classes of a tajsim game (``TajsimGame``, ``TajsimState``), their
observer, and their registration with ``pyspiel``."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from tajsim.engine.base_game import BaseGame, GameRecord
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.interop import require
from tajsim.interop.encoding import layout, observe
from tajsim.interop.openspiel.game_type import (
    DEFAULT_DEALS,
    MAX_INT_PARAM,
    edition_param,
    game_type,
    max_game_length,
    openspiel_name,
)
from tajsim.interop.openspiel.state_data import (
    StateData,
    check_replayed,
    parse_payload,
    restore_raw,
    view_text,
)

pyspiel = require("pyspiel", "the OpenSpiel adapter (tajsim.interop.openspiel)")
# The base classes, from modules imported by name: a type checker takes them as Any.
_Game: Any = pyspiel.Game
_State: Any = pyspiel.State


class TajsimGame(_Game):
    """One registered tajsim game as a ``pyspiel.Game`` (see the module docstring)."""

    spec: GameSpec

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        spec = self.spec
        params = dict(params or {})
        edition = str(params.get("edition", spec.default_edition))
        spec.edition_index(edition)  # a bad edition: one-line UserError
        n_players = spec.check_players(
            int(params.get("players", spec.default_player_count(edition))), edition)
        seed = master_seed(params.get("seed", 0), params.get("master_seed", ""))
        deals = int(params.get("deals", DEFAULT_DEALS))
        if not 1 <= deals <= 2**20:
            raise UserError(f"deals {deals} is out of range; expected 1 to {2**20}")
        options = {o.name: bool(params.get(o.name, o.default)) for o in spec.options}
        spec.rules_code(edition, options)  # checks the options
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.n_actions, max_chance_outcomes=deals,
            num_players=n_players,
            min_utility=0.0, max_utility=1.0, utility_sum=1.0,
            max_game_length=max_game_length(spec))
        # OpenSpiel's integer parameters are 32-bit: a larger master seed travels as text, in
        # hexadecimal (a game string's digits-only value is read back as an int, and overflows)
        small = seed <= MAX_INT_PARAM
        full = {"players": n_players, "edition": edition_param(spec, edition),
                "seed": seed if small else 0, "master_seed": "" if small else hex(seed),
                "deals": deals, **options}
        super().__init__(game_type(spec), info, full)
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
        """The observer of one seat's view (``private_info`` SINGLE_PLAYER with the public
        facts, the default), with ``perfect_recall`` its information state. Any other kind is
        refused: a game's view (``spec.view``) is one seat's, its own hidden facts included,
        and no game declares a public-only or an all-seats encoding, so returning the seat's
        view for a "public" observer would leak that seat's private information."""
        if iig_obs_type is not None and not (
                iig_obs_type.public_info
                and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise pyspiel.SpielError(
                f"{openspiel_name(self.spec)} has no observation with public_info="
                f"{iig_obs_type.public_info}, private_info={iig_obs_type.private_info.name}; "
                "expected public_info=True, private_info=SINGLE_PLAYER (one seat's view: tajsim "
                "games declare no public-only or all-seats encoding)")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return _Observer(self.spec, perfect_recall)

    def deserialize_state(self, text: str) -> TajsimState:
        """The state that :meth:`TajsimState.serialize` wrote: its record replayed through
        ``apply_action`` (each action checked), then a resampled world's vectors restored."""
        data = parse_payload(text)
        if data["record"] is None:
            return self.new_initial_state()
        record = GameRecord.from_dict(data["record"])
        if data.get("chance_deal", True):
            state = self.new_initial_state()
            check_replayed(state._d, -1, record.game_id)
            state.apply_action(record.game_id)
        else:
            state = TajsimState(self, self.deal(record.game_id, record.setup_id))
        for i, action in enumerate(record.actions):
            # checked first, so that the error names the record's action (and a -1 gets
            # tajsim's message, not OpenSpiel's kInvalidAction check)
            check_replayed(state._d, i, action)
            state.apply_action(action)  # through pyspiel: the state's history is kept
        restore_raw(state._d, data)
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


class TajsimState(_State):
    """A state of a tajsim game: its ``BaseGame`` plus each seat's recall (``_d``)."""

    def __init__(self, game: TajsimGame, base: BaseGame | None) -> None:
        super().__init__(game)
        self._d = StateData(game, base)

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
        # refused before the kernels see it: OpenSpiel applies whatever a Python game accepts
        self._d.refuse_illegal(int(action))
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


def master_seed(seed: Any, text: Any) -> int:
    """The master seed from the ``seed`` parameter (0 .. 2**31 - 1, OpenSpiel's integers) or
    the ``master_seed`` text (any of 0 .. 2**63 - 1, decimal or ``0x`` hexadecimal; "" means
    ``seed``); a one-line error."""
    if text not in ("", None):
        if int(seed) != 0:
            raise UserError(f"seed {seed} and master_seed {text!r} both given; expected one")
        try:
            value = int(str(text), 16 if str(text).lower().startswith("0x") else 10)
        except ValueError:
            raise UserError(f"master_seed {text!r} is not a whole number; expected 0 to "
                            "2**63 - 1 in decimal or 0x hexadecimal") from None
    else:
        value = int(seed)
    if not 0 <= value <= 2**63 - 1:
        raise UserError(f"seed {value} is out of range; expected 0 to 2**63 - 1")
    return value


GAME_CLASSES: dict[str, type[TajsimGame]] = {}


def register_game(spec: GameSpec) -> None:
    name = openspiel_name(spec)
    if name in GAME_CLASSES:
        return
    cls = type(f"TajsimGame_{spec.name}", (TajsimGame,), {"spec": spec})
    GAME_CLASSES[name] = cls
    if name not in pyspiel.registered_names():
        pyspiel.register_game(game_type(spec), cls)


def state_from_game(os_game: TajsimGame, base: BaseGame) -> TajsimState:
    """The OpenSpiel state of a tajsim ``BaseGame`` in progress (its actions replayed from the
    start, so that every seat's recall is built)."""
    state = os_game.state_for(base)
    for action in base.actions:
        state.apply_action(action)
    return state
