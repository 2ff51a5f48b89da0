"""What a game lets its users vary, as declared in its :class:`~tajsim.engine.spec.GameSpec`: the
weights ``tajsim tune`` may change (:class:`TuningSpace`), the rule options
(:class:`RuleOption`) and the families of actions a strategy may be forbidden
(:class:`Restriction`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any


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
    kind : str
        What it removes: ``"card"`` (one card), ``"option"`` (one option of a decision),
        ``"decision"`` (one decision kind) or ``"broad"`` (a large share of the game, e.g. every
        card showing a symbol); one of :data:`RESTRICTION_KINDS`.
    surgical : bool
        Whether it is surgical (issue 39: one decision kind, one card or one option, not a
        large share of the game): what the surgical restricted-play tables compare.
    """

    name: str
    bit: int
    text: str
    kind: str = "broad"
    surgical: bool = False

    def __post_init__(self) -> None:
        if self.kind not in RESTRICTION_KINDS:
            raise ValueError(f"restriction {self.name!r}: kind {self.kind!r}; expected one of "
                             f"{', '.join(RESTRICTION_KINDS)}")
        if self.surgical and self.kind == "broad":
            raise ValueError(f"restriction {self.name!r} is surgical but of kind 'broad'; "
                             "expected card, option or decision")


#: What a restriction family removes (``Restriction.kind``).
RESTRICTION_KINDS = ("card", "option", "decision", "broad")
