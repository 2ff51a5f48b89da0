"""Registered strategies of one game: names, compiled ids, descriptions and parameters.

Compiled strategies are selected by integer id inside the kernels (a game's ``choose_action``).
Parametric strategies share one id and differ by their parameter vector, so each named preset
is registered as its own entry and ``--strategies balanced,random`` works everywhere. Every game
builds one :class:`StrategyRegistry`; ``parse("name:key=value:...")`` gives the compiled id and
the ``float64[n_params]`` vector that the kernels receive.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from tajsim.errors import UserError

__all__ = ["StrategyRegistry", "StrategySpec", "no_switches"]


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

    def param_vector(self, overrides: dict[str, float] | None = None) -> np.ndarray:
        """float64[n_params] parameters, defaults updated by ``overrides`` (by name)."""
        vec = np.zeros(self.n_params, np.float64)
        vec[: len(self.params)] = self.params
        for key, value in (overrides or {}).items():
            if key not in self.param_names:
                raise UserError(
                    f"strategy {self.name!r} has no parameter {key!r}; "
                    f"expected one of: {', '.join(self.param_names) or '(none)'}"
                )
            vec[self.param_names.index(key)] = float(value)
        return vec

    def relative_cost(self, params: np.ndarray | None = None) -> float:
        """The cost of a game with this strategy in every seat, relative to ``random``."""
        if not self.cost_param:
            return float(self.cost)
        vec = self.param_vector() if params is None else params
        return float(self.cost) * max(1.0, float(vec[self.param_names.index(self.cost_param)]))

    def named_params(self) -> dict[str, float]:
        """Default parameters by name (only the named slots)."""
        return {name: float(self.params[i]) for i, name in enumerate(self.param_names)}


def no_switches(strategy_ids: Iterable[int]) -> tuple:
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
    kernel_switches : callable ``(strategy_ids) -> tuple``
        Extra trailing arguments of the game's kernels for a line-up of these ids (numba drops
        the code of a family switched off with ``None``: a smaller, faster-compiling kernel).
    """

    def __init__(self, game: str, n_params: int,
                 kernel_switches: Callable[[Iterable[int]], tuple] = no_switches) -> None:
        self.game = game
        self.n_params = int(n_params)
        self.kernel_switches = kernel_switches
        self._specs: dict[str, StrategySpec] = {}

    def register(self, spec: StrategySpec, *, replace: bool = False) -> StrategySpec:
        """Add ``spec`` (names are unique unless ``replace``)."""
        if spec.name in self._specs and not replace:
            raise ValueError(f"strategy {spec.name!r} registered twice")
        if spec.n_params != self.n_params:
            spec = dataclasses.replace(spec, n_params=self.n_params)
        if len(spec.params) > self.n_params:
            raise ValueError(f"strategy {spec.name!r} has {len(spec.params)} parameters; "
                             f"the kernels take {self.n_params}")
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
        """``name`` or ``name:key=value:key=value`` -> (spec, float64[n_params] vector)."""
        name, *assignments = str(text).strip().split(":")
        spec = self.get(name)
        overrides: dict[str, float] = {}
        for item in assignments:
            key, sep, value = item.partition("=")
            try:
                if not sep:
                    raise ValueError
                overrides[key] = float(value)
            except ValueError:
                raise UserError(
                    f"bad strategy parameter {item!r} in {text!r}; expected key=number"
                ) from None
        return spec, spec.param_vector(overrides)

    def with_tag(self, tag: str) -> list[StrategySpec]:
        return [s for s in self._specs.values() if tag in s.tags]
