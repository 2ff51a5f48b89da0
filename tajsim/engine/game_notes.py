"""What the analyses and reports read of a game beyond its records: the categorical features of
its setup (:class:`SetupFeature`), how a player reads a score that is a ranking key
(:class:`ScoreDisplay`), and its typed notes (:class:`GameNotes`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


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
