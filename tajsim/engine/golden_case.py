"""A game's golden transcripts as it declares them (:class:`GoldenCase`), written by
``tests/make_golden.py`` and replayed by the conformance suite.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


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
