"""The game interface: what a game declares so that the generic layers can run it.

Each game lives in its own wing, ``tajsim/games/<name>/``, and exposes one :class:`GameSpec`
(``tajsim/games/<name>/spec.py``, registered in :mod:`tajsim.games`). The runner, the generic
analyses, the reports and the command line know a game only through its spec: they never import
a game's modules by name, and no game's names (columns, phases, pieces) appear in them.

Conventions every game follows (``docs/architecture.md`` has the full text):

* **Arrays.** A game's state is one ``int64[state_size]`` vector, its components one
  ``int64[comp_size]`` vector (``packed()`` of its :class:`Components`), actions are integers
  ``0 .. n_actions - 1``. Kernels take these flat arrays and scratch arrays passed in by the
  caller; a kernel that plays one decision allocates nothing (so the same source can be
  compiled for a GPU).
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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from tajsim.engine.base_game import BaseGame, GameRecord
from tajsim.errors import UserError

#: Leading fields of every result dtype, in this order.
RESULT_LEAD = ("game_id", "seat", "strategy_id", "score", "rank", "winner")
#: Leading fields of every setup dtype, in this order.
SETUP_LEAD = ("game_id", "setup_id")


@dataclass(frozen=True)
class GpuKernels:
    """What a game's GPU batch kernel (:mod:`tajsim.engine.gpu`) needs beyond its rules: the
    rules kernels themselves are :class:`GameKernels`' own ``start_game``, ``legal_actions``,
    ``apply_action``, ``write_records`` and ``current_player``, compiled for the GPU from the
    same Python source (they must be made with :func:`tajsim.engine.targets.kernel`).

    Attributes
    ----------
    choose_simple : ``(strategy_id, state, comp, player, params, prng, legal, n_legal, work)
        -> action``
        The dispatcher over the non-search strategies; ``work`` is the heuristic family's
        scratch (work_dtype[work_size]) or None to leave the family out.
    work_size : int
        Length of that scratch.
    work_dtype : numpy scalar type
        Its dtype: float64 (the default) or int64 (Maharaja's integer heuristic).
    """

    choose_simple: Callable[..., int]
    work_size: int
    work_dtype: Any = np.float64


@dataclass(frozen=True)
class GameKernels:
    """Compiled entry points of a game (numba dispatchers), with the signatures the generic
    layers call.

    Attributes
    ----------
    start_game : ``(comp, n_players, edition, master_seed, game_id, setup_id, state, prng)``
        Set up game ``game_id`` in ``state`` (int64[state_size]) and seed the seats' policy
        streams in ``prng`` (int64[max_players]).
    legal_actions : ``(state, comp, legal) -> n``
        Write the legal actions into ``legal[:n]`` (int64[n_actions] scratch); ``n >= 1`` until
        the game is over.
    apply_action : ``(state, comp, action)``
        Apply a legal action for the player to move.
    choose_action : ``(strategy_id, state, comp, player, params, prng, legal, n_legal,
        *switches) -> action``
        Ask compiled strategy ``strategy_id`` for one of ``legal[:n_legal]``. It reads only what
        ``player`` may see and advances only ``prng[player]``.
    play_out : ``(comp, state, seat_ids, seat_params, prng, legal, actions_out, *switches)
        -> n_actions``
        Play ``state`` to the end; records the actions while they fit in ``actions_out``.
    write_records : ``(state, comp, game_id, setup_id, seat_ids, results, row, setups, g)``
        Write a finished game's rows ``results[row:row + n]`` and ``setups[g]``.
    play_batch : ``(comp, n_players, edition, master_seed, game_ids, setup_ids, lineups,
        lineup_ids, lineup_params, results, setups, *switches)``
        Play many games on one thread (``nogil``).
    play_batch_parallel : as ``play_batch`` with ``n_blocks`` before ``*switches``
        The same games spread over numba threads (``prange``).
    current_player, phase : ``(state) -> int``
        Compiled: the seat to move (-1 when the game is over) and the decision phase (an index
        into ``GameSpec.phase_names``); the benchmarks' profiling harness calls them.
    gpu : GpuKernels, optional
        What the game plays on a CUDA GPU with (``--device gpu``); None: CPU only.
    """

    start_game: Callable[..., Any]
    legal_actions: Callable[..., int]
    apply_action: Callable[..., Any]
    choose_action: Callable[..., int]
    play_out: Callable[..., int]
    write_records: Callable[..., Any]
    play_batch: Callable[..., Any]
    play_batch_parallel: Callable[..., Any]
    current_player: Callable[..., int]
    phase: Callable[..., int]
    gpu: GpuKernels | None = None


@runtime_checkable
class Components(Protocol):
    """What every game's components object offers (its board and pieces, loaded or generated).

    The generic layers read nothing else: the kernels take ``packed()``, a run's identity
    ``digest()``, reports ``describe()``, the game's ``frame_columns`` / ``setup_features``
    ``frame_meta()`` (it travels in a run's task, so plain data), and a game's record the paths
    (a record names only files that are not the shipped ones). A game without component files
    uses :class:`NoComponents` (through :meth:`ComponentSet.without_files`).
    """

    @property
    def board_path(self) -> str | None:
        """Where the board came from (a file path, or a text such as ``"<alternative 3>"``);
        None for a game without one."""

    @property
    def components_path(self) -> str | None:
        """Where the other components came from (the game's second file kind); None if none."""

    def packed(self) -> np.ndarray:
        """The kernels' flat form: int64[comp_size]."""

    def digest(self) -> str:
        """A short hash of the content (run identities and transcript headers)."""

    def describe(self) -> str:
        """Where the components came from, for a report."""

    def frame_meta(self) -> dict[str, Any]:
        """Plain data that the game's ``frame_columns`` and ``setup_features`` read."""


@dataclass(frozen=True)
class NoComponents:
    """The components of a game that has no component files (its pieces are fixed by its
    rules and built into its kernels): an all-zero packed vector of ``comp_size`` slots."""

    comp_size: int
    text: str = "no component files"
    board_path: str | None = None
    components_path: str | None = None

    def packed(self) -> np.ndarray:
        return np.zeros(self.comp_size, np.int64)

    def digest(self) -> str:
        return "none"

    def describe(self) -> str:
        return self.text

    def frame_meta(self) -> dict[str, Any]:
        return {}


@dataclass(frozen=True)
class ComponentSet:
    """How a game's components are obtained (its board and pieces, from files or generated).

    Attributes
    ----------
    default : callable ``() -> Components``
        The shipped components (loaded once).
    load : callable ``(board, components) -> Components``
        Components from files (None: the shipped file of that kind); one-line ``UserError``
        naming the file, key, value and what was expected.
    validate : callable ``(board, components) -> list[str]``
        Every problem of the files, one line each ([] when valid).
    alternative : callable ``(seed, base) -> Components``, optional
        A plausible alternative (seeded) for robustness runs.
    file_kinds : tuple of str
        The file kinds ``load`` takes, in order (``--board`` / ``--components``); empty for a
        game without component files.
    detect_kind : callable ``(parsed TOML) -> str | None``, optional
        Which kind a parsed file is (``tajsim board validate FILE``).

    The objects returned follow the :class:`Components` protocol.
    """

    default: Callable[[], Components]
    load: Callable[..., Components]
    validate: Callable[..., list[str]]
    alternative: Callable[..., Components] | None = None
    file_kinds: tuple[str, ...] = ("board", "components")
    detect_kind: Callable[[Any], str | None] | None = None

    @classmethod
    def without_files(cls, title: str, comp_size: int, text: str = "") -> ComponentSet:
        """The component set of a game with no component files: ``default`` is one
        :class:`NoComponents`; ``load`` and ``validate`` refuse any file, naming it."""
        shipped = NoComponents(comp_size, text or f"no component files ({title})")

        def load(board: str | None = None, components: str | None = None) -> NoComponents:
            given = board or components
            if given:
                raise UserError(f"{title} has no component files; got {str(given)!r}, "
                                "expected none")
            return shipped

        def validate(board: str | None = None, components: str | None = None) -> list[str]:
            return [f"{f}: {title} has no component files" for f in (board, components) if f]

        return cls(default=lambda: shipped, load=load, validate=validate, file_kinds=())


@dataclass(frozen=True)
class TuningSpace:
    """What ``tajsim tune`` may change: the weights of one parametric strategy family.

    Attributes
    ----------
    strategy_id : int
        The family's compiled id (its presets share it).
    names : tuple of str
        The tuned parameters: the first ``len(names)`` slots of the parameter vector.
    lower, upper, step : tuple of float
        Box bounds of each weight and the search's unit step.
    presets_path : callable ``() -> Path``
        The presets file ``write_preset`` adds ``[presets.NAME]`` to.
    check_presets : callable ``(path)``
        Loads a presets file, raising a one-line ``UserError`` if it is invalid.
    reload : callable ``()``
        Re-registers the presets after the file changed.
    start : str
        The preset ``tajsim tune`` starts from by default ("": the family's first preset).
    field : tuple of str
        The opponents it tunes against by default (empty: the family's other presets).
    """

    strategy_id: int
    names: tuple[str, ...]
    lower: tuple[float, ...]
    upper: tuple[float, ...]
    step: tuple[float, ...]
    presets_path: Callable[[], Path]
    check_presets: Callable[[Path], Any]
    reload: Callable[[], None]
    start: str = ""
    field: tuple[str, ...] = ()


@dataclass(frozen=True)
class RuleOption:
    """A rule a game's text leaves open that changes play materially: users may switch it.

    Options are booleans. The kernels receive one integer, the *rules code*: the edition's index
    in ``GameSpec.editions`` plus ``1 << bit`` for every option switched on (``bit`` >= 8), so
    a game without options passes the edition index exactly as before.
    """

    name: str
    bit: int
    default: bool
    description: str


@dataclass(frozen=True)
class Restriction:
    """A family of actions a strategy may be forbidden to take (restricted play: Jaffe et al.,
    "Evaluating Competitive Game Balance with Restricted Play", AIIDE 2012).

    ``balanced:forbid=NAME`` (several joined by ``+``) removes the family's actions from the
    legal list before the strategy chooses; the kernels receive the families as a bit mask in
    the parameter vector's last slot (:mod:`tajsim.engine.choice`). A family is something a
    player chooses; when removing it would leave a seat no legal action, the restriction is
    lifted for that decision (the game's docs say when that can happen).

    Attributes
    ----------
    name : str
        The name a user writes (``forbid=governor``).
    bit : int
        Its bit in the mask (0 .. 51: the mask travels in a float64 slot).
    text : str
        What it forbids, in one line (``tajsim strategies --game G`` shows it).
    """

    name: str
    bit: int
    text: str


@dataclass(frozen=True)
class SetupFeature:
    """One categorical feature of a game's setup: what the setup-balance analyses and the
    aggregates group win rates by (per value and seat).

    ``codes`` is int64[G] (the value index of each game, -1 for none; ``None`` when only the
    layout is asked for); ``labels[k]`` names value k.
    """

    name: str
    codes: np.ndarray | None
    labels: tuple[str, ...]


@dataclass(frozen=True)
class ScoreDisplay:
    """How a player reads the score of a game whose ``score`` is a ranking key, not points.

    Maharaja ranks by palaces, then gold: its ``score`` is ``10,000 x palaces + gold``, which
    orders players exactly but is no quantity a player would call a score. The summary of
    ``tajsim simulate`` and the report's score composition show ``measures`` (the result fields
    a player reads, e.g. palaces and gold, each with its interval) and the composition of
    ``total`` by the score parts ``parts`` (e.g. the gold by source), in ``unit``, instead of the
    ranking key as "points". A game without one shows ``score`` and every part as points.

    Attributes
    ----------
    measures : tuple of str
        Result fields shown instead of ``score``, in ranking order (``("palaces", "gold")``).
    total : str
        The result field that ``parts`` add up to (one of ``measures``).
    parts : tuple of str
        Score part names (without ``pts_``) whose sum is ``total``.
    unit : str
        The unit of ``total`` and its parts (``"gold"``).
    note : str
        One sentence saying what ``score`` is and how players are ranked.
    """

    measures: tuple[str, ...]
    total: str
    parts: tuple[str, ...]
    unit: str
    note: str


@dataclass(frozen=True)
class GoldenCase:
    """One golden transcript of a game: a whole game played from a fixed seed, written to
    ``<golden_dir>/<name>.txt`` by ``tests/make_golden.py`` and replayed by the conformance
    suite, which pins the rules, the strategies' decisions and the display.

    Attributes
    ----------
    name : str
        The file's name, without ``.txt``.
    players : int
    edition : str
    seed, game_id : int
        Master seed and game index.
    strategies : tuple of str
        One per seat, in seat order (``"random"`` or a registered strategy with parameters).
    options : mapping of str to bool
        Rule options switched on.
    """

    name: str
    players: int
    edition: str
    seed: int
    game_id: int
    strategies: tuple[str, ...]
    options: Mapping[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class GameNotes:
    """What the reports, the ladder and ``tajsim compare`` say of a game beyond its records:
    each fact typed, with a default that serves a game which says nothing of it. (It replaces a
    string-keyed ``extras`` dict: an unknown fact is a ``TypeError`` when the spec is made.)

    Attributes
    ----------
    seat_note : str
        Who plays first, shown beside the win rate by seat ("seat 0 plays first").
    setup_features_text : str
        What the setup features are, in a few words, for the setup-balance section.
    setup_balance_note : str
        Why the generic setup-balance section is skipped for a line-up that draws no chance
        (read only with ``GameSpec.chance_only_in_setup``); "": it is never skipped.
    ladder_document : str
        The strength ladder's document, relative to the repository root ("": the game's
        ``docs/games/<name>/strategies.md``).
    ladder_columns : tuple of str
        Result fields the ladder shows beside the score parts.
    ladder_pairs : tuple of (str, str)
        Head-to-head pairs of presets whose comparison the ladder's summary states.
    example_policy : str
        A Python policy file (relative to the repository root) the ladder adds as a rung
        ("": none).
    compare_measures : tuple of str
        What ``tajsim compare`` compares besides the win share (result fields).
    """

    seat_note: str = "seat 0 plays first"
    setup_features_text: str = "the features of the setup"
    setup_balance_note: str = ""
    ladder_document: str = ""
    ladder_columns: tuple[str, ...] = ()
    ladder_pairs: tuple[tuple[str, str], ...] = ()
    example_policy: str = ""
    compare_measures: tuple[str, ...] = ("score",)


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
    """

    name: str
    title: str
    editions: tuple[str, ...]
    players: Mapping[str, tuple[int, int]]
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

    def check_players(self, n_players: Any, edition: str | int | None = None) -> int:
        """``n_players`` as an int if the edition allows it, else a one-line ``UserError``."""
        ed = self.editions[self.edition_index(edition if edition is not None
                                              else self.default_edition)]
        low, high = self.players[ed]
        ok = isinstance(n_players, (int, np.integer)) and not isinstance(n_players, bool)
        if not ok or not low <= int(n_players) <= high:
            where = f"the {ed} edition of {self.title}" if len(self.editions) > 1 else self.title
            raise UserError(f"player count {n_players!r} is not allowed in {where}; expected "
                            f"{low} to {high}")
        return int(n_players)

    def rules_code(self, edition: str | int | None = None,
                   options: Mapping[str, bool] | None = None) -> int:
        """The integer the kernels receive: edition index plus the bits of the options on."""
        code = self.edition_index(edition if edition is not None else self.default_edition)
        chosen = {o.name: o.default for o in self.options}
        if options is not None and not isinstance(options, Mapping):
            raise UserError(f"rule options {options!r} are not a table; expected a dict of "
                            "option name to True or False")
        for key, value in (options or {}).items():
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
