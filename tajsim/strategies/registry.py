"""Registry of strategies: name -> compiled id, description and parameters.

Compiled strategies are picked by integer id inside the kernels (``choose_action_nb``).
Parametric strategies share one id and differ by their weight vector; each named preset is
registered as its own entry so that ``--strategies balanced,random`` works everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from tajsim.errors import UserError
from tajsim.strategies.nb import N_PARAMS, STRATEGY_RANDOM


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
        Default parameter vector (padded with zeros to ``N_PARAMS``).
    param_names : tuple[str, ...]
        Names of the leading parameters, for display and for ``name:key=value`` overrides.
    """

    name: str
    strategy_id: int
    description: str
    params: tuple[float, ...] = ()
    param_names: tuple[str, ...] = ()
    tags: tuple[str, ...] = field(default_factory=tuple)

    def param_vector(self, overrides: dict[str, float] | None = None) -> np.ndarray:
        """float64[N_PARAMS] parameters, defaults updated by ``overrides`` (by name)."""
        vec = np.zeros(N_PARAMS, np.float64)
        vec[: len(self.params)] = self.params
        for key, value in (overrides or {}).items():
            if key not in self.param_names:
                raise UserError(
                    f"strategy {self.name!r} has no parameter {key!r}; "
                    f"expected one of: {', '.join(self.param_names) or '(none)'}"
                )
            vec[self.param_names.index(key)] = float(value)
        return vec


_REGISTRY: dict[str, StrategySpec] = {}


def register(spec: StrategySpec) -> StrategySpec:
    """Add ``spec`` to the registry (names are unique)."""
    if spec.name in _REGISTRY:
        raise ValueError(f"strategy {spec.name!r} registered twice")
    _REGISTRY[spec.name] = spec
    return spec


def strategy_names() -> list[str]:
    return list(_REGISTRY)


def all_strategies() -> list[StrategySpec]:
    return list(_REGISTRY.values())


def get_strategy(name: str) -> StrategySpec:
    """The spec registered as ``name``; a one-line ``UserError`` listing the valid names if not."""
    try:
        return _REGISTRY[name]
    except KeyError:
        raise UserError(
            f"unknown strategy {name!r}; expected one of: {', '.join(strategy_names())}"
        ) from None


def parse_strategy(text: str) -> tuple[StrategySpec, np.ndarray]:
    """Parse ``name`` or ``name:key=value:key=value`` into a spec and its parameter vector."""
    name, *assignments = text.strip().split(":")
    spec = get_strategy(name)
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


register(
    StrategySpec(
        name="random",
        strategy_id=STRATEGY_RANDOM,
        description="uniform over the legal actions (every card id is its own action)",
        tags=("baseline",),
    )
)
