"""What a run simulates: ``RunConfig`` (validated, serialisable) and the seating plan.

A run is fixed by its configuration; a game by (seed, game id, setup id, lineup, configuration).
Everything a worker needs to play a chunk travels in ``RunConfig.task()``, a frozen
:class:`RunTask` of numbers and strings (the packed components included), so workers on other
machines need neither the component files nor the strategy presets, and never receive pickled
compiled functions.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.engine.compensation import OPTION_KEY as COMPENSATION_KEY
from tajsim.engine.compensation import check_amounts, options_amounts, parse_amounts
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.fingerprint import game_fingerprint
from tajsim.games.registry import get_game
from tajsim.strategies.spec import PYTHON_SEATS_PLAY

#: Seating plans. ``fixed``: seat p is taken by ``strategies[p]``. ``rotate``: seat p of game g is
#: taken by ``strategies[(p + g) % m]`` (m strategies, m <= players): over every block of m games
#: each strategy sits in each seat exactly once per seat it occupies. ``round-robin``: more
#: strategies than seats; the tables cycle through every combination of ``players`` strategies
#: (lexicographic), each played in all ``players`` rotations.
SEATINGS = ("fixed", "rotate", "round-robin")

#: Default chunks: at least ``TARGET_CHUNKS`` of them (so that every core of a large machine gets
#: several and none waits long for the last), each between ``MIN_CHUNK_SECONDS`` and
#: ``MAX_CHUNK_SECONDS`` of one core (a chunk's rows and files cost a few milliseconds; the
#: progress bar moves at least that often) and at most ``MAX_CHUNK`` games. The size is a pure
#: function of the run's settings (games and the expected cost of a game), never of the workers,
#: so the chunk files are the same whatever runs them.
TARGET_CHUNKS = 64
MIN_CHUNK_SECONDS = 0.05
#: The smallest default chunk of a run that keeps its rows: a chunk file costs 5-10 ms of one
#: core whatever its size (a call a column in Arrow and Parquet, the game's own columns, three
#: files written), 10-20 % of a 0.05 s chunk; at 0.2 s the heuristics' rows cost 0.06-0.12 of
#: their play instead of 0.16-0.23 (issue 42, benchmarks/README.md).
MIN_CHUNK_SECONDS_RECORDS = 0.2
MAX_CHUNK_SECONDS = 2.0
MAX_CHUNK = 10_000
MAX_SEED = 2**63 - 1
#: The most chunks a run may have: chunk files are numbered with six digits
#: (``chunk-000000`` .. ``chunk-999999``), so that they sort in game order.
MAX_CHUNKS = 1_000_000
#: The most games a run may have: ``MAX_CHUNKS`` chunks of at most ``MAX_CHUNK`` games (ten
#: billion: days of one machine even for ``random``). Checked before anything is allocated:
#: ``10**22`` games used to be accepted and grew a list of chunk indices without end.
MAX_GAMES = MAX_CHUNKS * MAX_CHUNK
#: The most games a chunk given by ``chunk_size`` may have: a chunk's rows are built in memory.
MAX_CHUNK_SIZE = 1_000_000


def chunk_count(games: int, chunk_size: int) -> int:
    """Chunks of a run of ``games`` games in chunks of ``chunk_size`` (the last may be short)."""
    return -(-games // chunk_size)


def chunk_bounds(games: int, chunk_size: int, index: int) -> tuple[int, int]:
    """Game ids ``[start, stop)`` of chunk ``index`` of such a run."""
    start = index * chunk_size
    return start, min(start + chunk_size, games)


def default_chunk_size(games: int, game_seconds: float = 50e-6, records: bool = False) -> int:
    """Games per chunk for a run of ``games`` games that cost about ``game_seconds`` of one core
    each (see ``TARGET_CHUNKS``), keeping its rows (``records``: chunks of at least
    ``MIN_CHUNK_SECONDS_RECORDS``) or not."""
    games = max(1, int(games))
    smallest = MIN_CHUNK_SECONDS_RECORDS if records else MIN_CHUNK_SECONDS
    small = max(1, int(smallest / game_seconds))
    large = max(1, int(MAX_CHUNK_SECONDS / game_seconds))
    size = min(max(math.ceil(games / TARGET_CHUNKS), small), large, MAX_CHUNK)
    return int(min(size, games))


def expected_game_seconds(spec: GameSpec, players: int, strategies: Sequence[Any]) -> float:
    """Expected seconds of one core per game: the game's cost per seat of a ``random`` game
    times the players, times the mean relative cost of the seats' strategies (``strategies``:
    (StrategySpec, params) per seat)."""
    relative = [strategy.relative_cost(params) for strategy, params in strategies]
    return spec.seat_cost_us * 1e-6 * players * (sum(relative) / max(1, len(relative)))


def resolve_seating(rotate: bool | str, n_strategies: int, players: int) -> str:
    """The seating plan from the ``rotate`` argument (True, False, "auto" or "round-robin").

    ``"auto"``: fixed seats when there is one strategy per seat (or a single strategy), a rotated
    field when there are fewer strategies than seats. More strategies than seats needs
    ``rotate="round-robin"``.
    """
    text = str(rotate).lower() if not isinstance(rotate, bool) else rotate
    if text in (True, "true", "rotate", "yes", "1"):
        seating = "rotate"
    elif text in (False, "false", "fixed", "no", "0"):
        seating = "fixed"
    elif text in ("auto", "none"):
        seating = "fixed" if n_strategies in (1, players) else "rotate"
    elif text in ("round-robin", "round_robin", "roundrobin", "tournament"):
        seating = "round-robin"
    else:
        raise UserError(
            f"unknown seating {rotate!r}; expected true (rotate), false (fixed seats), "
            "'auto' or 'round-robin'"
        )
    if seating == "fixed" and n_strategies not in (1, players):
        raise UserError(
            f"{n_strategies} strategies for {players} players with fixed seats; expected "
            f"{players} (one per seat) or 1, or fewer than {players} with seats rotated"
        )
    if seating == "rotate" and n_strategies > players:
        raise UserError(
            f"{n_strategies} strategies for {players} players; expected at most {players} "
            "(one per seat, or fewer for a rotated field), or a round-robin (--round-robin)"
        )
    if seating == "round-robin" and n_strategies <= players:
        raise UserError(
            f"a round-robin needs more strategies than seats; got {n_strategies} for "
            f"{players} players"
        )
    if seating == "round-robin" and math.comb(n_strategies, players) > 100_000:
        raise UserError(
            f"a round-robin of {n_strategies} strategies at {players}-player tables has "
            f"{math.comb(n_strategies, players)} tables; expected at most 100000"
        )
    return seating


@dataclass(frozen=True)
class ComponentSource:
    """Where a run's components come from (recorded in the manifest) and what the kernels and
    the game's frame columns see.

    ``packed`` is ``packed()`` of the components as a tuple; ``meta`` is their ``frame_meta()``
    (plain data: the names of the game's own columns and the like).
    """

    description: str
    packed: tuple[int, ...]
    meta: dict[str, Any]
    digest: str

    @classmethod
    def from_components(cls, comps: Any) -> ComponentSource:
        return cls(
            description=comps.describe(),
            packed=tuple(int(x) for x in np.asarray(comps.packed(), np.int64)),
            meta=dict(comps.frame_meta()),
            digest=comps.digest(),
        )


def resolve_components(spec: GameSpec, components: Any = None,
                       board: str | Path | None = None,
                       component_file: str | Path | None = None) -> tuple[Any, ComponentSource]:
    """Load the components of ``spec`` that a run uses.

    ``components`` may be None (the shipped files, or ``board`` / ``component_file`` if given),
    a components object, a pair ``(board_path, components_path)`` (either may be None), a
    ``dict`` with keys ``board`` / ``components`` / ``alternative`` (an experiment's form), or
    the string ``"alternative:SEED"`` (the game's seeded alternative). Giving both an
    alternative and a file is refused: the alternative is generated from the shipped files.
    """
    alternative = None
    if isinstance(components, str):
        head, sep, tail = components.partition(":")
        if head != "alternative" or not sep:
            raise UserError(
                f"bad components {components!r}; expected 'alternative:SEED', a components "
                "object or a (board, components) pair of paths"
            )
        try:
            alternative = int(tail.strip())
        except ValueError:
            raise UserError(f"bad components {components!r}; expected 'alternative:SEED' with "
                            "a whole-number seed") from None
        alternative = _int_value(alternative, "alternative components seed", low=0,
                                 high=MAX_SEED)
    elif isinstance(components, dict):
        unknown = set(components) - {"board", "components", "alternative"}
        if unknown:
            raise UserError(
                f"unknown components key {sorted(unknown)[0]!r}; expected board, components "
                "or alternative"
            )
        board = components.get("board", board)
        component_file = components.get("components", component_file)
        if components.get("alternative") is not None:
            alternative = _int_value(components["alternative"], "alternative components seed",
                                     low=0, high=MAX_SEED)
    elif isinstance(components, (tuple, list)):
        if len(components) != 2:
            raise UserError(
                f"components {components!r}: expected a (board, components) pair of paths"
            )
        board, component_file = components
    elif components is not None:
        if not hasattr(components, "packed"):
            raise UserError(
                f"components {components!r}: expected a components object, a (board, "
                "components) pair of paths or 'alternative:SEED'"
            )
        return components, ComponentSource.from_components(components)

    for path, what in ((board, "board"), (component_file, "components")):
        if path is not None and not Path(path).is_file():
            raise UserError(f"{what} file {str(path)!r} not found; expected a readable TOML file")
    if alternative is not None and (board is not None or component_file is not None):
        given = "--board" if board is not None else "--components"
        raise UserError(f"alternative components {alternative} and {given} "
                        f"{board if board is not None else component_file} both given; "
                        "expected one (an alternative is generated from the shipped files)")
    make_alternative = spec.components.alternative
    if alternative is not None and make_alternative is None:
        raise UserError(f"{spec.title} has no alternative components; expected no "
                        "--alternative")
    try:
        if board is None and component_file is None:
            base = spec.components.default()
        else:
            base = spec.components.load(board, component_file)
        comps = base if alternative is None or make_alternative is None else \
            make_alternative(alternative, base)
    except UserError:
        raise
    except (OSError, ValueError) as exc:  # anything the loader did not word itself
        raise UserError(f"cannot load components: {exc}") from None
    return comps, ComponentSource.from_components(comps)


def _int_value(value: Any, what: str, low: int | None = None, high: int | None = None,
               why: str = "") -> int:
    """``value`` as an int, within [low, high] (``why``: the reason for the bound, said when it
    is refused). Only an int or a numpy integer is one: a text (``"10"``), a float or a bool is
    refused, as ``Game(n_players="4")`` is, rather than quietly converted."""
    if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)):
        raise UserError(f"{what} {value!r} is not an integer; expected a whole number"
                        + (f" from {low:,}" if low is not None else "")
                        + (f" to {high:,}" if high is not None else ""))
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        rng = f"{low:,} to {high:,}" if high is not None and low is not None else \
            f"at most {high:,}" if high is not None else f"at least {low:,}"
        raise UserError(f"{what} {value} is out of range; expected {rng}"
                        + (f" ({why})" if why else ""))
    return value


def bool_value(value: Any, what: str) -> bool:
    """``value`` if it is a bool (or a numpy bool), else a one-line ``UserError``: a flag given
    as ``"no"`` would otherwise be taken as true."""
    if not isinstance(value, (bool, np.bool_)):
        raise UserError(f"{what} {value!r} is not a bool; expected True or False")
    return bool(value)


def split_strategies(strategies: str | Sequence[str]) -> tuple[str, ...]:
    """Strategy texts from ``"a,b,c"`` or a list or tuple of texts; each stripped, none empty.

    A Python strategy (``py:FILE``) is refused here in one line: runs play compiled strategies
    only."""
    if isinstance(strategies, str):
        items: list[Any] = strategies.split(",")
    elif isinstance(strategies, (list, tuple)):
        items = list(strategies)
    else:
        raise UserError(f"strategies {strategies!r} is not a strategy list; expected "
                        "comma-separated strategy names or a list of them, e.g. "
                        "'balanced,random'")
    if any(not isinstance(s, str) for s in items):
        bad = next(s for s in items if not isinstance(s, str))
        raise UserError(f"strategy {bad!r} in {strategies!r} is not a text; expected strategy "
                        "names such as 'balanced' or 'ismcts:iterations=200'")
    texts = tuple(s.strip() for s in items)
    if not texts or any(not t for t in texts):
        raise UserError(
            f"bad strategy list {strategies!r}; expected comma-separated strategy names"
        )
    for text in texts:
        if text.startswith("py:"):
            raise UserError(f"{text!r} is a Python strategy; simulate and experiment runs play "
                            f"compiled strategies only (tajsim strategies lists them). "
                            f"{PYTHON_SEATS_PLAY}")
    return texts


def merge_compensation(options: dict[str, Any] | None,
                       compensation: Sequence[float] | str | None) -> dict[str, Any] | None:
    """``options`` with the seat compensation ``compensation`` added (``"0,1,2"`` or a list);
    given both ways, they must agree."""
    if compensation is None:
        return options
    if isinstance(compensation, str):
        compensation = parse_amounts(compensation)
    if not isinstance(compensation, (list, tuple)):
        raise UserError(f"compensation {compensation!r}; expected a list of whole numbers, one "
                        "a seat")
    if options is not None and not isinstance(options, dict):
        raise UserError(f"rule options {options!r} are not a table; expected a dict of "
                        "option name to True or False")
    out = dict(options or {})
    if COMPENSATION_KEY in out and list(out[COMPENSATION_KEY]) != list(compensation):
        raise UserError(f"compensation {list(compensation)} contradicts options.compensation "
                        f"{out[COMPENSATION_KEY]!r}; expected it given once")
    out[COMPENSATION_KEY] = list(compensation)
    return out


@dataclass(frozen=True)
class RunConfig:
    """A validated run configuration. Build it with :meth:`RunConfig.make`.

    ``game`` names the registered game; ``rules`` is the code the kernels receive (the
    edition's index plus the bits of the rule ``options`` switched on, ``GameSpec.rules_code``).
    ``labels`` are the distinct strategy texts (the ``strategy`` categories, in order of first
    appearance); ``seat_entries[i]`` is the label index of ``strategies[i]``; ``lineup_ids`` /
    ``lineup_params`` are each label's compiled strategy id and parameter vector.
    """

    game: str
    games: int
    players: int
    strategies: tuple[str, ...]
    edition: str
    options: dict[str, Any]
    rules: int
    seed: int
    chunk_size: int
    games_per_setup: int
    seating: str
    records: bool
    components: ComponentSource
    setups: str = "random"
    labels: tuple[str, ...] = field(default=())
    seat_entries: tuple[int, ...] = field(default=())
    lineup_ids: tuple[int, ...] = field(default=())
    lineup_params: tuple[tuple[float, ...], ...] = field(default=())

    @classmethod
    def make(
        cls,
        games: int,
        players: int | None = None,
        strategies: str | Sequence[str] = ("random",),
        edition: str | int | None = None,
        seed: int = 0,
        chunk_size: int | None = None,
        games_per_setup: int = 1,
        rotate: bool | str = "auto",
        records: bool = True,
        components: Any = None,
        board: str | Path | None = None,
        component_file: str | Path | None = None,
        game: str | GameSpec | None = None,
        options: dict[str, Any] | None = None,
        setups: str = "random",
        compensation: Sequence[float] | str | None = None,
    ) -> RunConfig:
        """Validate every argument; bad ones raise a one-line ``UserError``.

        ``setups``: ``"random"`` (game g plays setup ``g // games_per_setup``, drawn from its
        id) or ``"enumerated"`` (each of the game's listed setups in turn,
        ``GameSpec.enumerated_setups``).

        ``compensation``: the seat-compensation variant's amounts, one a seat (or
        ``options["compensation"]``; :mod:`tajsim.engine.compensation`); all 0 is no
        compensation, the run as without it."""
        spec = get_game(game)
        games = _int_value(games, "game count", low=1, high=MAX_GAMES,
                           why=f"a run holds at most {MAX_CHUNKS:,} chunks of at most "
                               f"{MAX_CHUNK:,} games")
        records = bool_value(records, "records")
        edition_text = spec.editions[spec.edition_index(
            spec.default_edition if edition is None else edition)]
        players = spec.players_or_default(players, edition_text)  # says the edition's range
        options = merge_compensation(options, compensation)
        rules = spec.rules_code(edition_text, options)
        chosen: dict[str, Any] = {o.name: bool(rules >> o.bit & 1) for o in spec.options}
        amounts = options_amounts(options)
        if amounts is not None:  # one amount a seat; kept in the options only when given
            chosen[COMPENSATION_KEY] = check_amounts(spec.title, spec.compensation, amounts,
                                                     players)
        seed = _int_value(seed, "seed", low=0, high=MAX_SEED)
        texts = split_strategies(strategies)
        seating = resolve_seating(rotate, len(texts), players)
        parsed = [spec.strategies.parse(t) for t in texts]
        chunk = default_chunk_size(games, expected_game_seconds(spec, players, parsed),
                                   bool(records)) \
            if chunk_size is None else _int_value(chunk_size, "chunk size", low=1,
                                                  high=MAX_CHUNK_SIZE,
                                                  why="a chunk's rows are built in memory")
        if chunk_count(games, chunk) > MAX_CHUNKS:
            raise UserError(f"{games:,} games in chunks of {chunk:,} make "
                            f"{chunk_count(games, chunk):,} chunks; expected at most "
                            f"{MAX_CHUNKS:,} (chunk files are numbered with six digits): "
                            "fewer games or a larger chunk size")
        gps = _int_value(games_per_setup, "games per setup", low=1, high=MAX_GAMES)
        if setups not in SETUP_MODES:
            raise UserError(f"setups {setups!r}; expected one of: {', '.join(SETUP_MODES)}")
        if setups == "enumerated" and spec.enumerated_setups is None:
            raise UserError(f"setups = 'enumerated': {spec.title} does not list its setups; "
                            "expected setups = 'random'")
        labels: list[str] = []
        for t in texts:
            if t not in labels:
                labels.append(t)
        ids, params = [], []
        for label in labels:
            strategy, vec = spec.strategies.parse(label)
            ids.append(int(strategy.strategy_id))
            params.append(tuple(float(x) for x in vec))
        _, source = resolve_components(spec, components, board, component_file)
        return cls(
            game=spec.name, games=games, players=players, strategies=texts,
            edition=edition_text, options=chosen, rules=rules, seed=seed,
            chunk_size=chunk, games_per_setup=gps, seating=seating, records=bool(records),
            components=source, setups=setups, labels=tuple(labels),
            seat_entries=tuple(labels.index(t) for t in texts),
            lineup_ids=tuple(ids), lineup_params=tuple(params),
        )

    # -- chunks --------------------------------------------------------------------------------
    @property
    def n_chunks(self) -> int:
        return chunk_count(self.games, self.chunk_size)

    def chunk_games(self, index: int) -> tuple[int, int]:
        """Game ids ``[start, stop)`` of chunk ``index``."""
        return chunk_bounds(self.games, self.chunk_size, index)

    # -- identity ------------------------------------------------------------------------------
    def identity(self) -> dict[str, Any]:
        """What determines the results (compared when a run is resumed)."""
        return {
            "game": self.game,
            "games": self.games,
            "players": self.players,
            "strategies": list(self.strategies),
            "edition": self.edition,
            "options": dict(self.options),
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "games_per_setup": self.games_per_setup,
            "seating": self.seating,
            "records": self.records,
            "components": self.components.digest,
            "strategy_ids": list(self.lineup_ids),
            "strategy_params": [list(p) for p in self.lineup_params],
            # only when not the default, so that the runs stored before it existed still match
            **({"setups": self.setups} if self.setups != "random" else {}),
        }

    def fingerprint(self) -> str:
        text = json.dumps(self.identity(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def task(self) -> RunTask:
        """Plain data a worker needs to play any chunk of this run (see ``run_chunk``)."""
        settings = {f.name: getattr(self, f.name) for f in fields(self)}
        return RunTask(**settings, fingerprint=self.fingerprint(),
                       code=code_fingerprint(self.game))


@dataclass(frozen=True)
class RunTask:
    """What a worker needs to play any chunk of a run (``RunConfig.task()``): the run's
    settings as :class:`RunConfig` holds them, its identity and the game's code fingerprint.

    Plain data only (numbers, strings, tuples, the packed components), so it pickles small for
    a process pool or a Dask cluster and a worker needs neither the component files nor the
    strategy presets. ``run_chunk(task, index)`` is a pure function of it.

    Attributes
    ----------
    game ... lineup_params
        As in :class:`RunConfig`.
    fingerprint : str
        ``RunConfig.fingerprint()``: the run's identity (names the run's Dask keys, keys the
        workers' cache of packed components).
    code : str
        The game's code fingerprint on the driver; a worker running other code refuses the
        task (``CodeMismatchError``).
    """

    game: str
    games: int
    players: int
    strategies: tuple[str, ...]
    edition: str
    options: dict[str, bool]
    rules: int
    seed: int
    chunk_size: int
    games_per_setup: int
    seating: str
    records: bool
    components: ComponentSource
    setups: str
    labels: tuple[str, ...]
    seat_entries: tuple[int, ...]
    lineup_ids: tuple[int, ...]
    lineup_params: tuple[tuple[float, ...], ...]
    fingerprint: str
    code: str


# -- setups ------------------------------------------------------------------------------------
#: How a run's games get their setups (``RunConfig.make(setups=...)``).
SETUP_MODES = ("random", "enumerated")


def setup_ids_for(spec: GameSpec, setups: str, games_per_setup: int,
                  game_ids: np.ndarray) -> np.ndarray:
    """Setup id of each game: int64[len(game_ids)], a pure function of the game id.

    ``"random"``: ``game_id // games_per_setup`` (the kernels draw the setup from it);
    ``"enumerated"``: the game's listed setups in turn, ``games_per_setup`` games each, from
    the first again after the last."""
    block = np.asarray(game_ids, np.int64) // int(games_per_setup)
    if setups == "random":
        return block
    if spec.enumerated_setups is None:
        raise UserError(f"setups = 'enumerated': {spec.title} does not list its setups; "
                        "expected setups = 'random'")
    listed = np.asarray(spec.enumerated_setups(), np.int64)
    return listed[block % listed.size]


# -- seating -----------------------------------------------------------------------------------
@lru_cache(maxsize=8)
def _combinations(m: int, n: int) -> np.ndarray:
    return np.array(list(itertools.combinations(range(m), n)), np.int64).reshape(-1, n)


def lineup_codes(seating: str, seat_entries: Sequence[int], players: int,
                 game_ids: np.ndarray) -> np.ndarray:
    """Label index of each seat of each game: int64[len(game_ids), players].

    A pure function of the game id (see ``SEATINGS``), so chunks and workers agree.
    """
    g = np.asarray(game_ids, np.int64)[:, None]
    p = np.arange(players, dtype=np.int64)[None, :]
    entries = np.asarray(seat_entries, np.int64)
    m = len(entries)
    if seating == "fixed":
        if m == 1:
            return np.zeros((g.shape[0], players), np.int64)
        return np.broadcast_to(entries[None, :], (g.shape[0], players)).copy()
    if seating == "rotate":
        if players % m == 0:
            return entries[(p + g) % m]
        # m does not divide the seats: a cyclic fill repeats some strategies, and rotating
        # the fill by one seat per game would tie the repeated copies to seats (seat and
        # line-up confounded). Each fill (offset o) is played in all its seat rotations r
        # instead, so every seat sees every line-up equally often per m * players games.
        fill = (g // players) % m
        shift = g % players
        return entries[(((p + shift) % players) + fill) % m]
    combos = _combinations(m, players)
    table = combos[(g[:, 0] // players) % combos.shape[0]]  # [G, players]
    pos = (p + g) % players
    return entries[np.take_along_axis(table, pos, axis=1)]


# -- code identity -----------------------------------------------------------------------------
def code_fingerprint(game: str) -> str:
    """The code of a run of ``game``: :func:`tajsim.games.fingerprint.game_fingerprint` (the
    generic sources and that game's own, no other game's). Workers refuse tasks made by a driver
    with other code; a stored run refuses to resume under other code."""
    return game_fingerprint(game)
