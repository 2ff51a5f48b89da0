"""The game interface: what a game declares so that the generic layers can run it.

Each game lives in its own wing, ``tajsim/games/<name>/``, and exposes one :class:`GameSpec`
(``tajsim/games/<name>/spec.py``, registered in :mod:`tajsim.games`). The runner, the generic
analyses, the reports and the command line know a game only through its spec: they never import
a game's modules by name, and no game's names (columns, phases, pieces) appear in them.

Conventions every game follows (``docs/architecture.md`` has the full text):

* **Arrays.** A game's state is one ``int64[state_size]`` vector, its components one
  ``int64[comp_size]`` vector (``packed()`` of its
  :class:`~tajsim.engine.components.Components`), actions are integers ``0 .. n_actions - 1``.
  Kernels take these flat arrays and scratch arrays passed in by the caller; a kernel that plays
  one decision allocates nothing (so the same source can be compiled for a GPU).
* **Streams.** ``start_game(comp, n_players, edition, master_seed, game_id, setup_id, state,
  prng)`` derives the setup stream from (master seed, setup id), the chance stream from (master
  seed, game id) and one policy stream per seat from the chance seed
  (:mod:`tajsim.engine.rng`), so a game is a pure function of (game, master seed, game index,
  configuration).
* **Records.** ``result_dtype`` has one row per player and starts with the fields
  ``game_id, seat, strategy_id, score, rank, winner``, then ``pts_<part>`` for every score part
  (they sum to ``score``), then the game's other per-player integer fields. ``setup_dtype``
  has one row per game and starts with ``game_id, setup_id``; its other scalar integer fields
  are per-game metrics, its array fields are read by the game's ``frame_columns``.
* **Strategies.** Selected by integer id inside compiled code: ``choose_action(strategy_id,
  state, comp, player, params, prng, legal, n_legal, *switches)``; ``switches`` are the values
  of ``strategies.kernel_switches(ids)`` (a game without families to switch off returns ``()``).

The spec's parts are declared beside it, one module a job: :mod:`~tajsim.engine.game_kernels`
(the compiled functions), :mod:`~tajsim.engine.components` (the components protocol and how a
game obtains them), :mod:`~tajsim.engine.game_options` (tuning, rule options, restrictions),
:mod:`~tajsim.engine.game_notes` (setup features, score display, notes) and
:mod:`~tajsim.engine.golden_case`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.engine.base_game import BaseGame, GameRecord
from tajsim.engine.compensation import OPTION_KEY as COMPENSATION_KEY
from tajsim.engine.compensation import SeatCompensation, check_amounts, pack
from tajsim.engine.components import ComponentSet
from tajsim.engine.game_kernels import GameKernels
from tajsim.engine.game_notes import GameNotes, ScoreDisplay, SetupFeature
from tajsim.engine.game_options import Restriction, RuleOption, TuningSpace
from tajsim.engine.golden_case import GoldenCase
from tajsim.engine.learned import LearnedPolicy
from tajsim.engine.net_agent import NetAgent
from tajsim.errors import UserError

#: Leading fields of every result dtype, in this order.
RESULT_LEAD = ("game_id", "seat", "strategy_id", "score", "rank", "winner")
#: Leading fields of every setup dtype, in this order.
SETUP_LEAD = ("game_id", "setup_id")


@dataclass(frozen=True)
class GameSpec:
    """Everything the generic layers know about one game.

    Attributes
    ----------
    name, title : str
        Registry name (``--game NAME``) and the game's printed title.
    editions : tuple of str
        Rule editions (the first is the default); ``edition`` is passed to the kernels as its
        index in this tuple.
    players : mapping of edition to (min, max)
        Allowed player counts.
    default_players : int
        The table size every entry point uses when none is given (the CLI's ``--players``, the
        runner, ``tajsim.game``, the adapters): the count the game is usually played at, in one
        edition's range at least (``default_player_count`` gives an edition's, clipped to its
        range). ``from_wing`` reads it from the wing's ``DEFAULT_PLAYERS``.
    max_game_length : int
        The most actions one game can take under the rules (every decision counted, chance
        excluded, whatever the rule options and component files), a bound derived from the
        rules and the engine's own caps, not a measurement (each wing's ``MAX_GAME_LENGTH`` in
        ``engine/enums.py`` gives the derivation). The conformance suite and the profiling
        harness check every game they play against it (``check_game_length``); OpenSpiel
        reports it as ``max_game_length``.
    max_players : int
        Size of the per-seat blocks (``prng`` and the record arrays' seat fields).
    state_size, comp_size, n_actions : int
        Lengths of the state vector, the packed components and the action space.
    n_params : int
        Length of a strategy's parameter vector (``float64[n_params]``).
    kernels : GameKernels
    result_dtype, setup_dtype : numpy.dtype
        The record layouts (see the module docstring).
    score_parts : tuple of str
        Score part names; the results frame has ``pts_<part>`` columns that sum to ``score``.
    phase_names : tuple of str
        Decision phases, by the integer that ``phase_of(state)`` returns.
    components : ComponentSet
        How the game's components are loaded, checked and generated.
    strategies : tajsim.strategies.spec.StrategyRegistry
        The game's registered strategies.
    game_class : type, optional
        Step-by-step play: a :class:`tajsim.engine.base_game.BaseGame` subclass that adds the
        game's display (labels, ``__str__``, events) and nothing the spec holds; the spec binds
        it (``game_class.spec``). Left out (``BaseGame`` itself): a plain subclass of it, bound
        to this spec (actions shown by number).
    frame_columns : callable ``(meta, results, setups) -> dict``
        The game's own results-frame columns (one value per player row) derived from the setup
        records; ``meta`` is ``frame_meta()`` of the run's components.
    setup_features : callable ``(meta, setups) -> list[SetupFeature]``
        The setup features of a batch of games (``setups`` None: the layout only, codes None).
    setup_feature_columns : callable ``(columns) -> list[str]``
        The results-frame columns that hold setup features.
    check_state : callable ``(state, comp, where)``
        The game's invariants; raises ``AssertionError`` naming the broken one.
    redraw_hidden : callable ``(state, comp, player, rng) -> state``
        A copy of ``state`` with everything ``player`` cannot see redrawn (the conformance
        suite's hidden-information test: no decision may change).
    chance_words : tuple of int
        The state words that hold the chance stream (its state and seeds): ``redraw_hidden``
        rewrites them every time, so a redraw that changed only these moved no hidden fact.
    view : callable ``(state, comp, player, components) -> object``
        What seat ``player`` may see, for pure-Python policies.
    source_folders : tuple of Path
        Folders whose sources decide the game's outcomes and records (the code fingerprint and
        numba's cache key).
    analyses_module, report_module : str, optional
        Modules (imported when needed) exposing ``ANALYSES`` / ``REQUIRED_COLUMNS`` and
        ``SECTIONS``: the game's own analyses and report sections ("": the game has none, the
        generic ones serve it).
    better_score : {"higher", "lower"}
        Which score wins: ``"higher"`` (the default: most points) or ``"lower"`` (No Thanks!).
        The kernels rank by it (rank 1 = best); the per-game aggregates (``top_score``,
        ``margin``), the reports and the ladder read it.
    golden_dir : Path, optional
        Where the game's golden transcripts lie in a checkout (``tests/golden/<name>/``).
    golden_cases : tuple of GoldenCase
        The games played into them (``tests/make_golden.py`` writes them, the conformance suite
        replays every one); a game declares at least one.
    check_legal : callable ``(state, comp, legal, where)``, optional
        The kernel's legal list against an independent reference of the rules.
    check_step : callable ``(before, action, after, comp, where)``, optional
        What one action may change (scores never fall, ...).
    options : tuple of RuleOption
        The game's rule options (see :class:`RuleOption`).
    seat_cost_us : float
        Microseconds of one core per seat of a game with ``random`` in every seat (measured,
        roughly): with the strategies' relative costs the runner sizes its chunks by it.
    tuning : TuningSpace, optional
        The weights ``tajsim tune`` may change.
    board_picture : str, optional
        ``"module:function"`` drawing the board: ``function(components, **options) -> Figure``
        (``tajsim board show``).
    score_display : ScoreDisplay, optional
        What a player calls the score when ``score`` is a ranking key (see
        :class:`ScoreDisplay`); None: ``score`` is points and its parts are shown as such.
    enumerated_setups : callable ``() -> int64[S]``, optional
        Every setup of the game as setup ids, for runs that play each setup in turn
        (``setups = "enumerated"``: game g plays setup ``ids[(g // games_per_setup) % S]``);
        None when the setups are too many to list.
    restrictions : tuple of Restriction
        The families of actions a strategy may be forbidden (``forbid=NAME``); empty for a
        game whose kernels do not read the generic strategy options yet. They must be the
        families its strategy registry was built with (``check_layout`` says so).
    chance_only_in_setup : bool
        Whether the setup is the game's only chance, so that a line-up of strategies that draw
        none replays its games beyond the setups x seatings (:mod:`tajsim.running.repeats`).
    observation : mapping of str to shape
        The padded shape of each variable-length field of ``view`` (a tuple of ints, a tuple of
        names for a categorical field, or None to leave the field out): the fixed-shape
        observations of :mod:`tajsim.interop.encoding`.
    notes : GameNotes
        What the reports, the ladder and ``tajsim compare`` say of the game.
    learned : LearnedPolicy, optional
        The game's ``learned`` strategy and how ``tajsim train`` fits it
        (:mod:`tajsim.engine.learned`); None: the game has none.
    net : NetAgent, optional
        The game's ``net`` strategy (a policy-and-value network) and what ``tajsim train
        --agent net`` needs (:mod:`tajsim.engine.net_agent`); None: the game has none.
    compensation : SeatCompensation, optional
        The per-seat amount of the game's currency a variant may give at setup (the rule
        option ``compensation``, :mod:`tajsim.engine.compensation`); None: the game has none.
    """

    name: str
    title: str
    editions: tuple[str, ...]
    players: Mapping[str, tuple[int, int]]
    default_players: int
    max_game_length: int
    max_players: int
    state_size: int
    comp_size: int
    n_actions: int
    n_params: int
    kernels: GameKernels
    result_dtype: np.dtype
    setup_dtype: np.dtype
    score_parts: tuple[str, ...]
    phase_names: tuple[str, ...]
    components: ComponentSet
    strategies: Any
    frame_columns: Callable[..., dict[str, Any]]
    setup_features: Callable[..., list[SetupFeature]]
    setup_feature_columns: Callable[[Sequence[str]], list[str]]
    check_state: Callable[..., None]
    redraw_hidden: Callable[..., np.ndarray]
    view: Callable[..., Any]
    source_folders: tuple[Path, ...]
    analyses_module: str = ""
    report_module: str = ""
    description: str = ""
    check_legal: Callable[..., None] | None = None
    check_step: Callable[..., None] | None = None
    options: tuple[RuleOption, ...] = ()
    chance_words: tuple[int, ...] = ()
    seat_cost_us: float = 10.0
    tuning: TuningSpace | None = None
    board_picture: str = ""
    golden_dir: Path | None = None
    golden_cases: tuple[GoldenCase, ...] = ()
    enumerated_setups: Callable[[], np.ndarray] | None = None
    score_display: ScoreDisplay | None = None
    restrictions: tuple[Restriction, ...] = ()
    better_score: str = "higher"
    game_class: type[BaseGame] = BaseGame
    chance_only_in_setup: bool = False
    observation: Mapping[str, Any] = field(default_factory=dict)
    notes: GameNotes = GameNotes()
    learned: LearnedPolicy | None = None
    net: NetAgent | None = None
    compensation: SeatCompensation | None = None

    def __post_init__(self) -> None:
        # The step-by-step class reads every fact from its spec: bind it here (once: a spec
        # copied by ``dataclasses.replace`` leaves the class with the original).
        cls = self.game_class
        if cls is BaseGame:  # no class of its own: a plain subclass bound to this spec
            cls = type("Game", (BaseGame,), {"__module__": __name__,
                                             "__doc__": f"One game of {self.title}."})
            object.__setattr__(self, "game_class", cls)
        if not issubclass(cls, BaseGame):
            raise ValueError(f"{self.name}: game_class {cls!r} is not a BaseGame subclass")
        if "spec" not in vars(cls):
            cls.spec = self

    @classmethod
    def from_wing(cls, package: str, *, gpu_work_size: int = 0, gpu_work_dtype: Any = np.float64,
                  **declared: Any) -> GameSpec:
        """The spec of the wing ``package`` (a wing's ``__package__``), every fact its modules
        state by convention read from them (:mod:`tajsim.engine.wing` lists where), then
        ``declared`` on top: a wing's ``spec.py`` declares only what its modules cannot say."""
        from tajsim.engine.wing import spec_from_wing

        return spec_from_wing(cls, package, gpu_work_size=gpu_work_size,
                              gpu_work_dtype=gpu_work_dtype, **declared)

    # -- the state, read by the compiled kernels ---------------------------------------------
    def current_player(self, state: np.ndarray) -> int:
        """Seat to decide, -1 when the game is over (``kernels.current_player``)."""
        return int(self.kernels.current_player(state))

    def phase_of(self, state: np.ndarray) -> int:
        """The decision phase (``kernels.phase``): an index into ``phase_names``."""
        return int(self.kernels.phase(state))

    def phase_name(self, phase: int) -> str:
        """The name of phase ``phase``; ``"game_over"`` past the decision phases."""
        return self.phase_names[phase] if 0 <= phase < len(self.phase_names) else "game_over"

    @property
    def reference_preset(self) -> str:
        """The game's reference strategy: its first registered preset (``"random"`` for a game
        with none). The ladder's timings and the Gymnasium opponents default to it."""
        presets = self.strategies.with_tag("preset")
        return presets[0].name if presets else "random"

    @property
    def record_class(self) -> type:
        """The record every game writes (:class:`tajsim.engine.base_game.GameRecord`)."""
        return GameRecord

    # -- derived -------------------------------------------------------------------------------
    @property
    def default_edition(self) -> str:
        return self.editions[0]

    @property
    def higher_score_wins(self) -> bool:
        """Whether the highest score wins (``better_score == "higher"``)."""
        return self.better_score == "higher"

    @property
    def part_columns(self) -> tuple[str, ...]:
        return tuple(f"pts_{p}" for p in self.score_parts)

    @property
    def shown_parts(self) -> tuple[str, ...]:
        """The score parts a report and a summary show: the ``score_display`` parts, else all."""
        return self.score_display.parts if self.score_display else self.score_parts

    @property
    def score_unit(self) -> str:
        """What the shown parts count: ``score_display.unit``, else "points"."""
        return self.score_display.unit if self.score_display else "points"

    @property
    def result_metrics(self) -> tuple[str, ...]:
        """Per-player integer fields of the result records after the score parts."""
        skip = set(RESULT_LEAD) | set(self.part_columns)
        return tuple(n for n in self.result_dtype.names or () if n not in skip)

    @property
    def game_metrics(self) -> tuple[str, ...]:
        """Per-game scalar fields of the setup records (``n_turns`` ...)."""
        return tuple(n for n in self.setup_dtype.names or () if n not in SETUP_LEAD
                     and self.setup_dtype[n].shape == ())

    def edition_index(self, edition: str | int) -> int:
        """Index of ``edition`` (its name, or its index) in ``editions``; ``UserError`` if none."""
        if isinstance(edition, (int, np.integer)) and not isinstance(edition, bool) \
                and 0 <= int(edition) < len(self.editions):
            return int(edition)
        text = str(edition)
        if text in self.editions:
            return self.editions.index(text)
        raise UserError(f"unknown edition {text!r} of {self.title}; expected one of: "
                        f"{', '.join(self.editions)}")

    def player_range(self, edition: str | int | None = None) -> tuple[int, int]:
        """The (min, max) player counts of ``edition`` (default: the default edition)."""
        ed = self.editions[self.edition_index(edition if edition is not None
                                              else self.default_edition)]
        low, high = self.players[ed]
        return int(low), int(high)

    def default_player_count(self, edition: str | int | None = None) -> int:
        """The table size used when none is given: ``default_players``, clipped to the range of
        ``edition`` (an edition whose range excludes it gets its nearest allowed count)."""
        low, high = self.player_range(edition)
        return min(max(self.default_players, low), high)

    def players_or_default(self, n_players: Any, edition: str | int | None = None) -> int:
        """``n_players`` checked (:meth:`check_players`), or the edition's default when None."""
        if n_players is None:
            return self.default_player_count(edition)
        return self.check_players(n_players, edition)

    def check_game_length(self, n_actions: int, where: str = "") -> None:
        """Raise ``AssertionError`` when a game took more than ``max_game_length`` actions."""
        if n_actions > self.max_game_length:
            raise AssertionError(f"{where + ': ' if where else ''}{self.title} took {n_actions} "
                                 f"actions, past its bound max_game_length = "
                                 f"{self.max_game_length}")

    def check_players(self, n_players: Any, edition: str | int | None = None) -> int:
        """``n_players`` as an int if the edition allows it, else a one-line ``UserError``."""
        ed = self.editions[self.edition_index(edition if edition is not None
                                              else self.default_edition)]
        low, high = self.players[ed]
        ok = isinstance(n_players, (int, np.integer)) and not isinstance(n_players, bool)
        where = f"the {ed} edition of {self.title}" if len(self.editions) > 1 else self.title
        if not ok:
            raise UserError(f"player count {n_players!r} is not an integer; expected a whole "
                            f"number from {low} to {high} ({where})")
        if not low <= int(n_players) <= high:
            raise UserError(f"player count {n_players!r} is not allowed in {where}; expected "
                            f"{low} to {high}")
        return int(n_players)

    def rules_code(self, edition: str | int | None = None,
                   options: Mapping[str, Any] | None = None) -> int:
        """The integer the kernels receive: edition index plus the bits of the options on, plus
        the seat compensation's bits (``options["compensation"]``, a list of one amount a seat,
        :mod:`tajsim.engine.compensation`)."""
        code = self.edition_index(edition if edition is not None else self.default_edition)
        chosen = {o.name: o.default for o in self.options}
        if options is not None and not isinstance(options, Mapping):
            raise UserError(f"rule options {options!r} are not a table; expected a dict of "
                            "option name to True or False")
        for key, value in (options or {}).items():
            if key == COMPENSATION_KEY:
                code |= pack(check_amounts(self.title, self.compensation, value,
                                           max_players=self.max_players))
                continue
            if key not in chosen:
                names = ", ".join(chosen) or "(none)"
                raise UserError(f"unknown rule option {key!r} of {self.title}; expected one of: "
                                f"{names}")
            if not isinstance(value, bool):
                raise UserError(f"rule option {key} = {value!r}; expected true or false")
            chosen[key] = value
        for o in self.options:
            if chosen[o.name]:
                code |= 1 << o.bit
        return code

    def check_layout(self) -> None:
        """Raise ``ValueError`` unless the record dtypes follow the conventions."""
        names = self.result_dtype.names or ()
        if tuple(names[:len(RESULT_LEAD)]) != RESULT_LEAD:
            raise ValueError(f"{self.name}: result dtype must start with {RESULT_LEAD}")
        parts = tuple(names[len(RESULT_LEAD):len(RESULT_LEAD) + len(self.score_parts)])
        if parts != self.part_columns:
            raise ValueError(f"{self.name}: result fields after {RESULT_LEAD} must be "
                             f"{self.part_columns}")
        for ed in self.editions:
            low, high = self.players[ed]
            if not 1 <= low <= high <= self.max_players:
                raise ValueError(f"{self.name}: players[{ed!r}] = {(low, high)} must lie in 1 .. "
                                 f"max_players = {self.max_players}")
        if not any(low <= self.default_players <= high for low, high in self.players.values()):
            raise ValueError(f"{self.name}: default_players = {self.default_players} is in no "
                             f"edition's range {dict(self.players)}")
        if len(set(self.chance_words)) != len(self.chance_words) or not all(
                0 <= word < self.state_size for word in self.chance_words):
            raise ValueError(f"{self.name}: chance_words {self.chance_words}; expected distinct "
                             f"state words in 0 .. {self.state_size - 1}")
        if self.max_game_length < 1:
            raise ValueError(f"{self.name}: max_game_length = {self.max_game_length}; expected "
                             "a positive bound")
        if self.better_score not in ("higher", "lower"):
            raise ValueError(f"{self.name}: better_score {self.better_score!r}; expected "
                             "'higher' or 'lower'")
        if tuple((self.setup_dtype.names or ())[:2]) != SETUP_LEAD:
            raise ValueError(f"{self.name}: setup dtype must start with {SETUP_LEAD}")
        shown = self.score_display
        if shown is not None:
            unknown = [m for m in shown.measures if m not in self.result_metrics]
            if unknown or shown.total not in shown.measures:
                raise ValueError(f"{self.name}: score_display measures {shown.measures} must be "
                                 f"result fields and include its total {shown.total!r}")
            if not set(shown.parts) <= set(self.score_parts):
                raise ValueError(f"{self.name}: score_display parts {shown.parts} must be "
                                 f"score parts of {self.score_parts}")
        declared = tuple(getattr(self.strategies, "restrictions", ()))
        if tuple(self.restrictions) != declared:
            raise ValueError(f"{self.name}: the spec's restrictions {self.restrictions} are not "
                             f"the strategy registry's {declared}")
