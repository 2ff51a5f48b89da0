"""Step-by-step play shared by every game: :class:`BaseGame` wraps one state vector and checks
each action against the legal list; :class:`GameRecord` (configuration + action history)
serialises to JSON and replays a game exactly.

Every fact of a game comes from its :class:`~tajsim.engine.spec.GameSpec` (bound to the class
as ``spec``); a game's own ``Game`` subclass supplies only its display through a few hooks
(``action_label``, ``__str__``, ``events``, ...) and its score queries; the rules stay in its
compiled kernels.
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from tajsim.engine.compensation import OPTION_KEY as COMPENSATION_KEY
from tajsim.engine.compensation import check_amounts, options_amounts
from tajsim.errors import UserError, shown

if TYPE_CHECKING:
    from tajsim.engine.spec import GameSpec

__all__ = ["BaseGame", "GameRecord", "IllegalActionError"]


class IllegalActionError(UserError):
    """An action that is not legal in the current state."""


@dataclass
class GameRecord:
    """Everything needed to replay a game: its configuration and its action history.

    ``strategies`` is informative (who played); replaying uses only the actions. ``board`` and
    ``components`` are the paths of custom component files (None: the shipped ones); ``options``
    the game's rule options switched on. ``game`` is the registry name of the game
    (``Game.record()`` writes its spec's); a record without one replays only through a game's
    own class (``Game.replay``), and a record with actions must name it.
    """

    n_players: int
    edition: str | None = None
    seed: int = 0
    game_id: int = 0
    setup_id: int | None = None
    board: str | None = None
    components: str | None = None
    strategies: list[str] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    game: str | None = None
    options: dict[str, bool] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        """A record from parsed JSON; a one-line ``UserError`` for anything else."""
        if not isinstance(data, Mapping):
            raise UserError(f"not a tajsim game record: expected a JSON object, got "
                            f"{type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise UserError(f"not a tajsim game record: unknown key {unknown[0]!r}; expected "
                            f"{', '.join(sorted(known))}")
        if "n_players" not in data:
            raise UserError("not a tajsim game record: no 'n_players'")
        missing = [key for key in ("seed", "game_id") if key not in data]
        if data.get("actions") and missing:
            # Without them the game would be dealt from seed 0 / game 0, and the recorded
            # actions would fail later on an "illegal action" that says nothing of the cause.
            raise UserError(f"not a tajsim game record: no {missing[0]!r}; expected the "
                            f"{missing[0].replace('_', ' ')} the game was played with (its "
                            f"{len(data['actions'])} actions fit only that deal)")
        if data.get("actions") and not isinstance(data.get("game"), str):
            raise UserError(f"not a tajsim game record: 'game' is {data.get('game')!r}; expected "
                            "the name of the game its actions were played in")
        actions = data.get("actions", [])
        if not isinstance(actions, list) or not all(
                isinstance(a, int) and not isinstance(a, bool) for a in actions):
            raise UserError(f"not a tajsim game record: 'actions' is {shown(actions)}; expected "
                            "a list of action numbers")
        for key in ("n_players", "seed", "game_id", "setup_id"):
            value = data.get(key, 0)
            if key == "setup_id" and value is None:
                continue
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise UserError(f"not a tajsim game record: {key!r} is {shown(value)}; expected "
                                "a whole number >= 0" + (" or null" if key == "setup_id" else ""))
        for key, what in (("edition", "an edition's name"), ("board", "a file's path"),
                          ("components", "a file's path"), ("game", "a game's name")):
            value = data.get(key)
            if value is not None and not (isinstance(value, str) or (
                    key == "edition" and isinstance(value, int) and not isinstance(value, bool))):
                raise UserError(f"not a tajsim game record: {key!r} is {shown(value)}; "
                                f"expected {what} or null")
        strategies = data.get("strategies", [])
        if not isinstance(strategies, list) or not all(isinstance(s, str) for s in strategies):
            raise UserError(f"not a tajsim game record: 'strategies' is {shown(strategies)}; "
                            "expected a list of strategy names")
        options = data.get("options", {})
        if not isinstance(options, Mapping) or not all(
                isinstance(v, bool) or (k == COMPENSATION_KEY and isinstance(v, list))
                for k, v in options.items()):
            raise UserError(f"not a tajsim game record: 'options' is {shown(options)}; expected "
                            "a table of option = true/false (and compensation = [amounts])")
        return cls(**data)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise UserError(f"not a tajsim game record: {exc}") from None
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        """Write the record to ``path``; its component files' paths are written relative to
        the record's folder, so the record and its files replay from any working folder."""
        folder = Path(path).resolve().parent

        def relative(value: str | None) -> str | None:
            return None if value is None else os.path.relpath(Path(value).resolve(), folder)

        saved = replace(self, board=relative(self.board), components=relative(self.components))
        Path(path).write_text(saved.to_json())

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        """The record saved at ``path``: a relative component path is read from the record's
        folder (as :meth:`save` writes it); a one-line ``UserError`` for a record that is
        unreadable, malformed or names a component file that is not there."""
        try:
            text = Path(path).read_text()
        except (OSError, UnicodeDecodeError) as exc:
            raise UserError(f"cannot read game record {str(path)!r}: {exc}") from None
        try:
            record = cls.from_json(text)
        except UserError as exc:
            raise UserError(f"{path}: {exc}") from None
        folder = Path(path).parent

        def found(key: str, value: str | None) -> str | None:
            if value is None:
                return None
            file = folder / value  # an absolute value stays itself
            if not file.is_file():
                raise UserError(f"{path}: the record's {key} file {value!r} is not there "
                                f"(looked for {str(file)!r}); expected the component file the "
                                "game was played with, where it lay when the record was saved")
            return str(file)

        return replace(record, board=found("board", record.board),
                       components=found("components", record.components))


#: Facts a game's class used to restate, still read as ``Game.editions`` / ``game.title``: each
#: is its spec's (``game_name`` is ``spec.name``).
SPEC_FACTS = {"game_name": "name", "title": "title", "editions": "editions",
              "players": "players", "state_size": "state_size", "n_actions": "n_actions",
              "max_players": "max_players"}


def _bound_spec(cls: type) -> GameSpec:
    """The spec of a game class not yet bound to one: a wing's class
    (``tajsim.games.<name>.engine.game.Game``, imported on its own) is bound when its wing's
    ``spec`` module makes the spec, so that module is imported here, on first use."""
    module = cls.__module__.split(".")
    if module[:2] == ["tajsim", "games"] and len(module) > 2:
        spec_module = f"tajsim.games.{module[2]}.spec"
        try:
            importlib.import_module(spec_module)
        except ModuleNotFoundError as exc:
            # a class under tajsim.games/ that no wing's spec module binds; any other missing
            # module (an import inside an existing spec) is a real fault and propagates
            if exc.name not in (spec_module, f"tajsim.games.{module[2]}"):
                raise
        for klass in cls.__mro__:
            if "spec" in vars(klass):
                return vars(klass)["spec"]
    raise AttributeError(f"{cls.__name__} is bound to no game spec; expected a GameSpec made "
                         f"with game_class={cls.__name__}")


def _spec_fact(owner: Any, name: str) -> Any:
    """``owner.spec``'s fact ``name`` (an ``AttributeError`` for any other name)."""
    if name == "spec":
        return _bound_spec(owner if isinstance(owner, type) else type(owner))
    if name not in SPEC_FACTS:
        what = f"type object {owner.__name__!r}" if isinstance(owner, type) \
            else f"{type(owner).__name__!r} object"
        raise AttributeError(f"{what} has no attribute {name!r}")
    return getattr(owner.spec, SPEC_FACTS[name])


class _ReadsSpec(type):
    """The game classes' metaclass: ``Game.editions`` and the other :data:`SPEC_FACTS` read
    through to the class's spec (called only when ordinary lookup fails)."""

    def __getattr__(cls, name: str) -> Any:
        return _spec_fact(cls, name)


class BaseGame(metaclass=_ReadsSpec):
    """One game played step by step, read from its :class:`~tajsim.engine.spec.GameSpec`.

    Every fact of the game (its name, title, editions, player counts, rule options, array sizes,
    kernels, whose turn it is and the phase) is the spec's: a game's own subclass adds only its
    display (``action_label``, ``__str__``, ``events``...) and its score queries. A spec binds
    its ``game_class`` when it is made (``GameSpec.__post_init__`` sets :attr:`spec`; a spec
    given no class gets a plain subclass of this one).
    """

    #: The game's spec (bound by ``GameSpec``; a class not yet bound has none).
    spec: ClassVar[GameSpec]

    def __init__(self, n_players: int | None = None, edition: str | int | None = None,
                 seed: int = 0,
                 game_id: int = 0, setup_id: int | None = None, components: Any = None,
                 options: Mapping[str, bool] | None = None) -> None:
        spec = self.spec
        self.options = self.check_options(options)
        self.edition = self.parse_edition(edition)
        self.n_players = spec.players_or_default(n_players, self.edition)
        amounts = options_amounts(self.options)
        if amounts is not None:  # one amount a seat of this table
            check_amounts(spec.title, spec.compensation, amounts, self.n_players)
        for name, value in (("seed", seed), ("game id", game_id), ("setup id", setup_id)):
            if value is not None and (not isinstance(value, (int, np.integer))
                                      or isinstance(value, bool)
                                      or not 0 <= int(value) <= 2**63 - 1):
                raise UserError(f"{name} {value!r} is out of range; expected 0 to 2**63 - 1")
        self.seed = int(seed)
        self.game_id = int(game_id)
        self.setup_id = self.game_id if setup_id is None else int(setup_id)
        self.components = components if components is not None else self.default_components()
        self.comp = self.components.packed()
        self.state = np.zeros(spec.state_size, np.int64)
        self.prng = np.zeros(spec.max_players, np.int64)
        self.strategies: list[str] = []
        self.actions: list[int] = []
        self._legal_buf = np.empty(spec.n_actions, np.int64)
        self._start()

    def __getattr__(self, name: str) -> Any:
        # only when ordinary lookup fails: the spec's facts (``game.title``), nothing else
        return _spec_fact(self, name)

    # -- configuration (the spec's checks) ------------------------------------------------
    @classmethod
    def parse_edition(cls, edition: str | int | None) -> str:
        """The edition's name (None: the default); a one-line ``UserError`` for an unknown one."""
        spec = cls.spec
        return spec.editions[spec.edition_index(spec.default_edition if edition is None
                                                else edition)]

    @classmethod
    def check_players(cls, n_players: Any, edition: str | int | None = None) -> int:
        return cls.spec.check_players(n_players, edition)

    @classmethod
    def check_options(cls, options: Mapping[str, bool] | None) -> dict[str, bool]:
        """The rule options switched on, checked by ``spec.rules_code`` (one-line ``UserError``
        for a bad one)."""
        cls.spec.rules_code(None, options)
        # a switch is kept as True; the seat compensation (a list of amounts) as it is
        return {key: value if not isinstance(value, bool) else True
                for key, value in (options or {}).items() if value}

    @property
    def edition_index(self) -> int:
        return self.spec.edition_index(self.edition)

    @property
    def rules(self) -> int:
        """The rules code the kernels receive: the edition's index plus the options' bits."""
        return self.spec.rules_code(self.edition, self.options)

    # -- hooks ----------------------------------------------------------------------------
    @classmethod
    def default_components(cls) -> Any:
        return cls.spec.components.default()

    @classmethod
    def load_components(cls, board: str | None, components: str | None) -> Any:
        return cls.spec.components.load(board, components)

    def _start(self) -> None:
        """Set up ``self.state`` and ``self.prng`` with the game's ``start_game`` kernel."""
        self.spec.kernels.start_game(self.comp, self.n_players, self.rules, self.seed,
                                     self.game_id, self.setup_id, self.state, self.prng)

    def _legal(self, out: np.ndarray) -> int:
        return int(self.spec.kernels.legal_actions(self.state, self.comp, out))

    def _apply(self, action: int) -> None:
        self.spec.kernels.apply_action(self.state, self.comp, action)

    @property
    def is_over(self) -> bool:
        return self.current_player < 0

    @property
    def current_player(self) -> int:
        """Seat to decide, or -1 when the game is over (``spec.current_player``)."""
        return self.spec.current_player(self.state)

    @property
    def phase(self) -> str:
        """Name of the decision phase (``spec.phase_name``)."""
        return self.spec.phase_name(self.spec.phase_of(self.state))

    def action_label(self, action: int) -> str:
        return f"action {action}"

    # -- what a replay prints (tajsim replay) ---------------------------------------------
    def replay_checkpoint(self) -> str | None:
        """Text to print before the next action (e.g. the state at the start of a round), or
        None."""
        return None

    def describe_action(self, player: int, action: int) -> str:
        """One line for ``player`` taking ``action`` now."""
        return f"  P{player} {self.action_label(action)}"

    def events(self, before: np.ndarray, action: int, after: np.ndarray) -> list[str]:
        """What happened when ``action`` took the state from ``before`` to ``after`` (the
        current state) besides the action itself (draws, scorings, automatic moves...), one
        line each."""
        return []

    def replay_events(self, before: np.ndarray, action: int, after: np.ndarray) -> list[str]:
        """What ``tajsim replay`` prints after an action: :meth:`events`, and whatever else a
        game shows at that moment (Maharani: the palace, when a quarter was scored)."""
        return self.events(before, action, after)

    def final_summary(self) -> list[str]:
        """Lines printed after the final state."""
        return []

    def transcript_state(self) -> str:
        """The state as a golden transcript shows it before each decision (default: the whole
        of ``str(self)``; a game with a large display may show less between checkpoints)."""
        return str(self)

    def transcript_header(self) -> list[str]:
        """Comment lines that open a golden transcript of this game (its setup)."""
        return [f"# components: {self.components.digest()}"]

    def scores(self) -> list[int]:
        raise NotImplementedError

    def score_parts(self, player: int) -> dict[str, int]:
        """The player's score by part (the game's ``score_parts``); they sum to its score."""
        raise NotImplementedError

    def ranks(self) -> list[int]:
        raise NotImplementedError

    def winners(self) -> list[int]:
        ranks = self.ranks()
        return [p for p in range(self.n_players) if ranks[p] == 1]

    # -- play -----------------------------------------------------------------------------
    def legal_actions(self) -> list[int]:
        if self.is_over:
            return []
        n = self._legal(self._legal_buf)
        return [int(a) for a in self._legal_buf[:n]]

    def apply(self, action: int) -> None:
        """Apply ``action`` for the current player; ``IllegalActionError`` if it is not an
        action number (an int or a numpy integer) or not legal."""
        if not isinstance(action, (int, np.integer)) or isinstance(action, (bool, np.bool_)):
            raise IllegalActionError(f"action {action!r} is not an action number; expected an "
                                     "int, one of legal_actions()")
        if self.is_over:
            raise IllegalActionError(f"the game is over; action {action} cannot be applied")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"action {action} ({self.action_label(action)}) is not legal here; "
                f"{len(legal)} legal actions, e.g. {legal[:5]}"
            )
        self._apply(int(action))
        self.actions.append(int(action))

    def clone(self) -> BaseGame:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.prng = self.prng.copy()
        other.actions = list(self.actions)
        other.strategies = list(self.strategies)
        other._legal_buf = np.empty(self.spec.n_actions, np.int64)
        return other

    # -- records --------------------------------------------------------------------------
    def _custom_paths(self) -> tuple[str | None, str | None]:
        """Paths of non-default component files (records stay portable)."""
        default = self.default_components()
        board, parts = self.components.board_path, self.components.components_path
        board = None if board is None or str(board) == str(default.board_path) else str(board)
        parts = None if parts is None or str(parts) == str(default.components_path) \
            else str(parts)
        return board, parts

    def record(self) -> GameRecord:
        board, parts = self._custom_paths()
        return GameRecord(
            n_players=self.n_players, edition=self.edition, seed=self.seed, game_id=self.game_id,
            setup_id=self.setup_id, board=board, components=parts,
            strategies=list(self.strategies), actions=list(self.actions), game=self.spec.name,
            options=dict(self.options),
        )

    @classmethod
    def replay(cls, record: GameRecord, upto: int | None = None) -> BaseGame:
        """The game of ``record`` with its first ``upto`` (default: all) actions applied, each
        checked; a record of another game or with an illegal action is a ``UserError``."""
        if record.game is not None and record.game != cls.spec.name:
            raise UserError(f"the record is a game of {record.game!r}, not {cls.spec.name!r}")
        comps = cls.load_components(record.board, record.components) \
            if (record.board or record.components) else None
        game = cls(record.n_players, record.edition, record.seed, record.game_id,
                   record.setup_id, comps, record.options)
        game.strategies = list(record.strategies)
        for i, action in enumerate(record.actions[:upto]):
            try:
                game.apply(action)
            except IllegalActionError as exc:
                raise IllegalActionError(
                    f"record action {i + 1} of {len(record.actions)}: {exc}") from None
        return game
