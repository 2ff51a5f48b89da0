"""Registered strategies of one game: names, compiled ids, descriptions and parameters.

Compiled strategies are selected by integer id inside the kernels (a game's ``choose_action``).
Parametric strategies share one id and differ by their parameter vector, so each named preset
is registered as its own entry and ``--strategies balanced,random`` works everywhere. Every game
builds one :class:`StrategyRegistry`; ``parse("name:key=value:...")`` gives the compiled id and
the ``float64[n_params]`` vector that the kernels receive.

Every named parameter declares what it may be (:class:`ParamRange`: an integer, a number or a
switch, within a closed range), and every value is checked here, once for all games, before a
game is played: a search with 0 iterations or a ``nan`` weight would otherwise play degenerate
games without a word. Slots whose names begin with ``_`` are internal (padding that keeps the
rollout weights at ``params[N_WEIGHTS:]``): not parameters a user may set.

**Generic options.** A game whose registry is built with ``generic_options=True`` gives every
compiled strategy two more options, parsed here once for all games and read by the kernels
from the last two slots of the vector (:mod:`tajsim.engine.choice` says how):

* ``temperature`` (``balanced:temperature=0.5``; :data:`TEMPERATURE_RANGE`): 0 is the
  strategy's own deterministic choice; above it, a softmax of value / temperature;
* ``forbid`` (``balanced:forbid=governor+village_houses``, ``forbid=none``): families of actions
  the game declares (``GameSpec.restrictions``), removed from the legal list before choosing.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from tajsim.engine.game_options import Restriction
from tajsim.errors import UserError

__all__ = ["FORBID", "GENERIC_OPTIONS", "INTERNAL_SLOT", "PYTHON_SEATS_PLAY", "ParamRange",
           "StrategyRegistry", "StrategySpec", "TEMPERATURE", "TEMPERATURE_RANGE",
           "bool_param", "float_param", "forbid_names", "int_param", "is_internal",
           "no_switches"]

#: Where a pure-Python strategy (``py:FILE``) can play: step-by-step games only, never the
#: compiled batch runner. Said by every refusal of a ``py:`` seat.
PYTHON_SEATS_PLAY = ("Python seats play in step-by-step games: tajsim replay -s py:FILE, "
                     "tajsim.play_game or tajsim.play.mixed.play_python_games")

PARAM_KINDS = ("int", "float", "bool", "internal")


def _number(x: float) -> str:
    """``x`` as a user writes it: 100,000 / 0.001 / -1,000."""
    return f"{int(x):,}" if float(x).is_integer() else f"{x:g}"


@dataclass(frozen=True)
class ParamRange:
    """What one strategy parameter may be: its kind and a closed range.

    Attributes
    ----------
    kind : {"int", "float", "bool", "internal"}
        ``int``: a whole number (``1e3`` is fine, ``1.5`` is not); ``float``: a finite number;
        ``bool``: 0 or 1; ``internal``: a slot that is no parameter (always 0).
    low, high : float
        The range, both ends included.
    why : str
        Why the range ends there, said when a value is refused (e.g. a search's memory).
    """

    kind: str
    low: float = 0.0
    high: float = 0.0
    why: str = ""

    def __post_init__(self) -> None:
        if self.kind not in PARAM_KINDS:
            raise ValueError(f"parameter kind {self.kind!r}; expected one of {PARAM_KINDS}")
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low <= self.high):
            raise ValueError(f"parameter range [{self.low}, {self.high}] is not a finite range")

    def expected(self, why: bool = True) -> str:
        """What a value must be, in words: ``an integer from 1 to 100,000`` (and, with ``why``,
        why the range ends there)."""
        if self.kind == "bool":
            text = "0 or 1"
        elif self.kind == "internal":
            text = "no value (an internal slot)"
        else:
            what = "an integer" if self.kind == "int" else "a number"
            text = f"{what} from {_number(self.low)} to {_number(self.high)}"
        return f"{text} ({self.why})" if self.why and why else text

    def problem(self, value: float) -> str | None:
        """Why ``value`` is not allowed (a few words), or None if it is."""
        if not math.isfinite(value):
            return "is not a finite number"
        if self.kind in ("int", "bool") and not float(value).is_integer():
            return "is not a whole number" if self.kind == "int" else "is not a switch"
        if not self.low <= value <= self.high:
            return "is out of range"
        return None


def int_param(low: int, high: int, why: str = "") -> ParamRange:
    """A whole-number parameter within [low, high]."""
    return ParamRange("int", float(low), float(high), why)


def float_param(low: float, high: float, why: str = "") -> ParamRange:
    """A finite number within [low, high]."""
    return ParamRange("float", float(low), float(high), why)


def bool_param(why: str = "") -> ParamRange:
    """A switch: 0 (off) or 1 (on)."""
    return ParamRange("bool", 0.0, 1.0, why)


#: The generic options (see the module doc): their names and slots, counted from the end.
TEMPERATURE = "temperature"
FORBID = "forbid"
GENERIC_OPTIONS = (TEMPERATURE, FORBID)
#: Slots they take: params[n - 2] and params[n - 1] (``tajsim.engine.choice.GENERIC_SLOTS``,
#: not imported: this module stays free of numba so that ``tajsim --help`` starts fast).
GENERIC_SLOTS = len(GENERIC_OPTIONS)
#: What a temperature may be: 0 (the strategy's own choice) up to 1,000 value units of the game
#: (each game's strategies.md says what one unit is; far above its value gaps it plays
#: uniformly at random among the actions it values at all).
TEMPERATURE_RANGE = ParamRange("float", 0.0, 1000.0, "in the game's value units")


def forbid_names(mask: int, restrictions: Iterable[Restriction]) -> str:
    """The ``forbid=`` text of ``mask`` (``governor+village_houses``; ``none`` for 0)."""
    names = [r.name for r in restrictions if (int(mask) >> r.bit) & 1]
    return "+".join(names) or "none"


#: The range of an internal slot (a name beginning with ``_``): it holds 0, no user value.
INTERNAL_SLOT = ParamRange("internal")


def is_internal(name: str) -> bool:
    """Whether parameter slot ``name`` is internal (padding), not a user parameter."""
    return name.startswith("_")


@dataclass(frozen=True)
class StrategySpec:
    """A registered strategy.

    Attributes
    ----------
    name : str
        Name used on the command line and in results.
    strategy_id : int
        Id dispatched on inside compiled code.
    description : str
        One line for ``tajsim strategies``.
    params : tuple[float, ...]
        Default parameter vector (padded with zeros to the game's ``n_params``).
    param_names : tuple[str, ...]
        Names of the leading parameters, for display and for ``name:key=value`` overrides.
        Names beginning with ``_`` are internal slots (see :func:`is_internal`).
    param_ranges : tuple[ParamRange, ...]
        What each named parameter may be, in the order of ``param_names`` (required for every
        named parameter; :data:`INTERNAL_SLOT` for the internal ones). The defaults must lie
        within them.
    tags : tuple[str, ...]
        Labels: ``baseline``, ``heuristic``, ``preset``, ``search``... The strength ladder and
        the docs group by them.
    n_params : int
        Length of the parameter vector the kernels receive.
    cost : float
        What a game costs with this strategy in every seat, relative to ``random`` (1.0): the
        runner sizes its chunks by it. Measured, roughly (``tajsim bench``).
    cost_param : str
        A parameter the cost grows with in proportion (e.g. a search's ``iterations``): the
        cost is then ``cost`` per unit of that parameter.
    budget_param, cost_per_budget : str, float
        A time budget a decision (e.g. a search's ``ms``): when it is above 0 it, not
        ``cost_param``, sets the cost: ``cost_per_budget`` per unit (a game's decisions times
        the budget, over a ``random`` game's time).
    deterministic : bool or callable ``(float64[n_params]) -> bool``
        Whether the strategy draws no chance at temperature 0 (its choice a function of what
        it sees), for its parameter vector: a run of such line-ups on a game whose only chance
        is the setup replays its games (:mod:`tajsim.running.repeats`).
    generic_options, restrictions
        Set by the registry (:class:`StrategyRegistry`): whether the strategy takes the
        generic options, and the game's restriction families.
    """

    name: str
    strategy_id: int
    description: str
    params: tuple[float, ...] = ()
    param_names: tuple[str, ...] = ()
    tags: tuple[str, ...] = field(default_factory=tuple)
    n_params: int = 32
    cost: float = 1.0
    cost_param: str = ""
    budget_param: str = ""
    cost_per_budget: float = 0.0
    param_ranges: tuple[ParamRange, ...] = ()
    deterministic: bool | Callable[[np.ndarray], bool] = False
    generic_options: bool = False
    restrictions: tuple[Restriction, ...] = ()

    def __post_init__(self) -> None:
        # A programming error in a wing's registry, not a user's: plain ValueError.
        if len(self.param_ranges) != len(self.param_names):
            raise ValueError(f"strategy {self.name!r} declares {len(self.param_ranges)} "
                             f"parameter ranges for {len(self.param_names)} parameters")
        for i, (name, declared) in enumerate(zip(self.param_names, self.param_ranges)):
            if is_internal(name) != (declared.kind == "internal"):
                raise ValueError(f"strategy {self.name!r} parameter {name!r}: internal slots "
                                 "(and only they) are named _...")
            default = float(self.params[i]) if i < len(self.params) else 0.0
            if declared.problem(default) is not None and declared.kind != "internal":
                raise ValueError(f"strategy {self.name!r}: default {name}={default:g} is not "
                                 f"{declared.expected()}")

    def range_groups(self) -> list[tuple[tuple[str, ...], ParamRange]]:
        """The user parameters grouped by their declared range, in order (for listings: the
        16 weights of a preset share one range)."""
        groups: dict[ParamRange, list[str]] = {}
        for name, declared in zip(self.param_names, self.param_ranges):
            if not is_internal(name):
                groups.setdefault(declared, []).append(name)
        return [(tuple(names), declared) for declared, names in groups.items()]

    def user_param_names(self) -> tuple[str, ...]:
        """The parameters a user may set (internal slots left out; the generic options are
        :meth:`option_names`)."""
        return tuple(name for name in self.param_names if not is_internal(name))

    def option_names(self) -> tuple[str, ...]:
        """Everything ``name:key=value`` may set: the parameters, then the generic options."""
        return self.user_param_names() + (GENERIC_OPTIONS if self.generic_options else ())

    def generic_slot(self, key: str) -> int:
        """Index of generic option ``key`` in the parameter vector (the last two slots)."""
        return self.n_params - GENERIC_SLOTS + GENERIC_OPTIONS.index(key)

    def forbid_mask(self, text: object, where: str = "") -> float:
        """``forbid=`` text (family names joined by ``+``, or ``none``; or a mask already
        parsed) -> the mask the kernels receive (as float64), or a one-line ``UserError``
        naming the bad family."""
        families = {r.name: r.bit for r in self.restrictions}
        expected = ", ".join(families) or "(this game declares none)"
        known = sum(1 << bit for bit in families.values())
        if isinstance(text, (int, float, np.integer, np.floating)) \
                and not isinstance(text, (bool, np.bool_)) and float(text).is_integer() \
                and 0 <= int(text) and not int(text) & ~known:
            return float(text)  # a mask already parsed (the parameter vector's own value)
        if not isinstance(text, str) or not text.strip():
            raise UserError(f"strategy {self.name!r} option forbid={text!r}{where} is not a "
                            f"family name; expected none or names joined by + from: {expected}")
        mask = 0
        for name in text.strip().split("+"):
            name = name.strip()
            if name == "none" and text.strip() == "none":
                continue
            if name not in families:
                raise UserError(f"strategy {self.name!r} option forbid={text.strip()}{where}: "
                                f"unknown restriction {name!r}; expected none or names joined "
                                f"by + from: {expected}")
            mask |= 1 << families[name]
        return float(mask)

    def is_deterministic(self, vec: np.ndarray | None = None) -> bool:
        """Whether this strategy at parameters ``vec`` (default: its own) draws no chance."""
        vec = self.param_vector() if vec is None else np.asarray(vec, np.float64)
        if self.generic_options and vec[self.generic_slot(TEMPERATURE)] > 0:
            return False
        if callable(self.deterministic):
            return bool(self.deterministic(vec))
        return bool(self.deterministic)

    def check_value(self, key: str, value: float | str, where: str = "",
                    shown: str | None = None) -> float:
        """``value`` of parameter ``key`` as the kernels receive it (float), or a one-line
        ``UserError`` naming the parameter, the value (``shown``: as the user wrote it) and
        what was expected; ``where`` says where it was given."""
        if key in GENERIC_OPTIONS and not self.generic_options:
            raise UserError(f"strategy {self.name!r} option {key}{where}: this game's kernels do "
                            "not take the generic options (temperature, forbid) yet; expected "
                            f"one of: {', '.join(self.option_names()) or '(none)'}")
        if key not in self.option_names():
            raise UserError(
                f"strategy {self.name!r} has no parameter {key!r}{where}; "
                f"expected one of: {', '.join(self.option_names()) or '(none)'}"
            )
        if key == FORBID:
            return self.forbid_mask(value, where)
        declared = TEMPERATURE_RANGE if key == TEMPERATURE else \
            self.param_ranges[self.param_names.index(key)]
        text = shown if shown is not None else repr(value)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer,
                                                                          np.floating)):
            raise UserError(f"strategy {self.name!r} parameter {key}={text}{where} is not a "
                            f"number; expected {declared.expected()}")
        problem = declared.problem(float(value))
        if problem is not None:
            raise UserError(f"strategy {self.name!r} parameter {key}={text}{where} {problem}; "
                            f"expected {declared.expected()}")
        return float(value)

    def param_vector(self, overrides: Mapping[str, float] | None = None) -> np.ndarray:
        """float64[n_params] parameters, defaults updated by ``overrides`` (by name), each
        checked against its declared range (one-line ``UserError``)."""
        vec = np.zeros(self.n_params, np.float64)
        vec[: len(self.params)] = self.params
        for key, value in (overrides or {}).items():
            checked = self.check_value(key, value)
            slot = self.generic_slot(key) if key in GENERIC_OPTIONS and self.generic_options \
                else self.param_names.index(key)
            vec[slot] = checked
        return vec

    def check_vector(self, vec: np.ndarray, what: str = "") -> np.ndarray:
        """``vec`` (float64[n_params], e.g. a tuned or loaded weight vector) if every named
        parameter in it is allowed, else a one-line ``UserError`` naming the first that is
        not (``what`` says where the vector came from)."""
        vec = np.asarray(vec, np.float64)
        if vec.shape != (self.n_params,):
            raise UserError(f"strategy {self.name!r}{what}: {vec.shape} parameters; expected "
                            f"({self.n_params},)")
        for i, key in enumerate(self.param_names):
            if not is_internal(key):
                self.check_value(key, float(vec[i]), what)
        if self.generic_options:
            self.check_value(TEMPERATURE, float(vec[self.generic_slot(TEMPERATURE)]), what)
            mask = float(vec[self.generic_slot(FORBID)])
            known = sum(1 << r.bit for r in self.restrictions)
            if not mask.is_integer() or int(mask) & ~known or mask < 0:
                raise UserError(f"strategy {self.name!r}{what}: restriction mask {mask:g} is "
                                f"not made of this game's families; expected a sum of: "
                                + ", ".join(f"{r.name} = {1 << r.bit}"
                                            for r in self.restrictions))
        return vec

    def relative_cost(self, params: np.ndarray | None = None) -> float:
        """The cost of a game with this strategy in every seat, relative to ``random``."""
        if not self.cost_param and not self.budget_param:
            return float(self.cost)
        vec = self.param_vector() if params is None else params
        if self.budget_param:
            budget = float(vec[self.param_names.index(self.budget_param)])
            if budget > 0:
                return float(self.cost_per_budget) * budget
            if not self.cost_param:
                return float(self.cost)
        return float(self.cost) * max(1.0, float(vec[self.param_names.index(self.cost_param)]))

    def named_params(self) -> dict[str, float]:
        """Default parameters by name (only the named slots)."""
        return {name: float(self.params[i]) for i, name in enumerate(self.param_names)}


def no_switches(strategy_ids: Iterable[int], params: Any = None) -> tuple:
    """``kernel_switches`` of a game whose kernels have no strategy families to leave out."""
    return ()


class StrategyRegistry:
    """The strategies of one game, by name.

    Parameters
    ----------
    game : str
        The game's title, for messages.
    n_params : int
        Length of every parameter vector.
    kernel_switches : callable ``(strategy_ids, params=None) -> tuple``
        Extra trailing arguments of the game's kernels for a line-up of these ids, ``params``
        their parameter rows (numba drops the code of a family switched off with ``None``: a
        smaller, faster-compiling kernel). Without ``params`` the switches keep every family
        that a parameter could call on (a search's rollout policy).
    generic_options : bool
        Whether the game's kernels read the generic options (``temperature``, ``forbid``)
        from the last two slots of ``n_params`` (:mod:`tajsim.engine.choice`); a strategy's
        own parameters must then fit in the slots before them.
    restrictions : tuple of Restriction
        The families ``forbid=`` may name (the game spec's ``restrictions``).
    """

    def __init__(self, game: str, n_params: int,
                 kernel_switches: Callable[..., tuple] = no_switches, *,
                 generic_options: bool = False,
                 restrictions: Iterable[Restriction] = ()) -> None:
        self.game = game
        self.n_params = int(n_params)
        self.kernel_switches = kernel_switches
        self.generic_options = bool(generic_options)
        self.restrictions = tuple(restrictions)
        if self.restrictions and not self.generic_options:
            raise ValueError(f"{game}: restrictions need the generic options")
        bits = [r.bit for r in self.restrictions]
        if len(set(bits)) != len(bits) or any(not 0 <= b < 52 for b in bits):
            raise ValueError(f"{game}: restriction bits {bits} must be distinct, 0 to 51")
        self._specs: dict[str, StrategySpec] = {}

    def register(self, spec: StrategySpec, *, replace: bool = False) -> StrategySpec:
        """Add ``spec`` (names are unique unless ``replace``)."""
        if spec.name in self._specs and not replace:
            raise ValueError(f"strategy {spec.name!r} registered twice")
        spec = dataclasses.replace(spec, n_params=self.n_params,
                                   generic_options=self.generic_options,
                                   restrictions=self.restrictions)
        own = self.n_params - (GENERIC_SLOTS if self.generic_options else 0)
        if len(spec.params) > own or len(spec.param_names) > own:
            raise ValueError(f"strategy {spec.name!r} has {len(spec.params)} parameters; "
                             f"the kernels take {own}")
        self._specs[spec.name] = spec
        return spec

    def names(self) -> list[str]:
        return list(self._specs)

    def all(self) -> list[StrategySpec]:
        return list(self._specs.values())

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def get(self, name: str) -> StrategySpec:
        """The spec registered as ``name``; a one-line ``UserError`` listing the names if not."""
        try:
            return self._specs[name]
        except KeyError:
            if name == "openspiel":
                raise UserError(
                    "OpenSpiel bots (openspiel:BOT) are not compiled strategies, so the batch "
                    "kernels (simulate, run, tune) cannot play them; they play step by step: "
                    "tajsim ladder --openspiel BOT, matches (tajsim.play.arena."
                    "play_mixed_lineups) and tajsim.play.mixed.play_game"
                ) from None
            hint = " (pure-Python strategies are given as py:path/to/file.py)" \
                if name.startswith("py") else ""
            raise UserError(
                f"unknown {self.game} strategy {name!r}; expected one of: "
                f"{', '.join(self.names())}{hint}"
            ) from None

    def parse(self, text: str) -> tuple[StrategySpec, np.ndarray]:
        """``name`` or ``name:key=value:key=value`` -> (spec, float64[n_params] vector).

        Every value is checked against its declared range; a parameter given twice, an
        internal slot or a Python strategy (``py:FILE``, which the compiled kernels cannot
        play) is a one-line ``UserError``."""
        if not isinstance(text, str):
            raise UserError(f"strategy {text!r} is not a text; expected a strategy name such "
                            f"as 'random' or 'name:key=value'")
        if text.strip().startswith("py:"):
            raise UserError(f"{text.strip()!r} is a Python strategy; only compiled {self.game} "
                            f"strategies play here ({', '.join(self.names())}). "
                            f"{PYTHON_SEATS_PLAY}")
        name, *assignments = text.strip().split(":")
        spec = self.get(name)
        overrides: dict[str, float] = {}
        for item in assignments:
            key, sep, value = item.partition("=")
            key = key.strip()
            try:
                if not sep or not key:
                    raise ValueError
                number: float | str = value if key == FORBID else float(value)
            except ValueError:
                raise UserError(
                    f"bad strategy parameter {item!r} in {text!r}; expected key=number"
                ) from None
            if key in overrides:
                raise UserError(f"strategy parameter {key} given twice in {text!r}; expected "
                                "each parameter at most once")
            overrides[key] = spec.check_value(key, number, f" in {text!r}", value.strip())
        return spec, spec.param_vector(overrides)

    def with_tag(self, tag: str) -> list[StrategySpec]:
        return [s for s in self._specs.values() if tag in s.tags]

    def ranges_markdown(self) -> str:
        """A Markdown table of every user parameter's allowed values, strategies that share
        their parameters (the presets) on one row: the strategy docs carry it, and a test checks
        that they still agree with the registry."""
        families: dict[tuple, list[str]] = {}
        for spec in self._specs.values():
            groups = spec.range_groups()
            if groups:
                families.setdefault(tuple(groups), []).append(spec.name)
        lines = ["| strategy | parameter | allowed values |", "|---|---|---|"]
        for family, names in families.items():
            who = ", ".join(f"`{n}`" for n in names)
            for params, declared in family:
                shown = ", ".join(f"`{p}`" for p in params) if len(params) <= 3 else \
                    f"`{params[0]}` .. `{params[-1]}` ({len(params)})"
                lines.append(f"| {who} | {shown} | {declared.expected()} |")
        return "\n".join(lines)
