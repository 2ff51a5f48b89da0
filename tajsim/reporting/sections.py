"""Report sections: the generic ones every game gets, and the registry that adds a game's own.

A section is a function ``section(ctx) -> None`` (see :mod:`tajsim.reporting.render`). The report,
experiment files (``[report] sections = [...]``) and the command line's ``--section`` help all
read :func:`sections_for`: the generic sections in report order, with the game's own (its spec's
``report_module``: ``SECTIONS``, name -> (function, one-line description)) after the score
composition.

This module is the registry; the sections live one family a module: ``win_rate_sections``
(overview, win rates, seat advantage), ``score_sections``, ``setup_sections``,
``rating_sections``, ``robustness_section`` and ``skill_sections`` (skill levels, restricted
play).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

import pandas as pd

from tajsim.engine.spec import GameSpec
from tajsim.games.registry import get_game
from tajsim.reporting.arc_sections import section_arc
from tajsim.reporting.rating_sections import section_ratings
from tajsim.reporting.render import ReportContext
from tajsim.reporting.robustness_section import section_robustness
from tajsim.reporting.score_sections import section_composition
from tajsim.reporting.setup_sections import section_setup_balance
from tajsim.reporting.skill_chain_sections import section_skill_profile
from tajsim.reporting.skill_sections import section_restricted, section_skill
from tajsim.reporting.variant_sections import section_variants
from tajsim.reporting.win_rate_sections import (
    section_overview,
    section_seat_advantage,
    section_win_rates,
)

__all__ = ["GENERIC_SECTIONS", "ON_REQUEST_SECTIONS", "Section", "caveats_for", "section_names",
           "sections_for"]

Section = Callable[[ReportContext], None]


#: The sections of every game, in report order: name -> (function, what it shows).
GENERIC_SECTIONS: dict[str, tuple[Section, str]] = {
    "overview": (section_overview, "what was simulated and the run configuration"),
    "win_rates": (section_win_rates, "win rate by seat and by strategy, with intervals"),
    "seat_advantage": (section_seat_advantage, "seats compared within line-ups"),
    "score_composition": (section_composition, "mean and distribution of each score part"),
    "setup_balance": (section_setup_balance, "how much the setup decides, and which features"),
    "ratings": (section_ratings, "openskill and Bradley-Terry ratings, head-to-head"),
    "robustness": (section_robustness, "key conclusions across variants (component sets, "
                                        "rule options)"),
    "skill": (section_skill, "key conclusions across skill levels (runs labelled with a "
                             "variant that play different strategies)"),
    "restricted": (section_restricted, "restricted play: what a forbidden feature costs the "
                                       "restricted seat (strategies with forbid=)"),
    "skill_profile": (section_skill_profile, "win-rate matrix of skill levels head to head in "
                                             "every seating (tajsim profile)"),
    "variants": (section_variants, "rule variants side by side: seat balance, skill gradient, "
                                   "length and ties (runs labelled with a variant)"),
    "arc": (section_arc, "the arc of a game: lead changes, comebacks, the runaway-leader test "
                         "against a null without feedback, kingmaking (score trajectories)"),
}
#: Sections a report runs only when named (an experiment's ``[report] sections``, ``--section``):
#: the arc's kingmaking replays games, and the default reports keep their sections.
ON_REQUEST_SECTIONS = ("arc",)
#: The game's own sections come after this one.
_GAME_SECTIONS_AFTER = "score_composition"


def sections_for(game: str | GameSpec | None = None) -> dict[str, tuple[Section, str]]:
    """Every section of ``game`` in report order: the generic ones and the game's own."""
    spec = get_game(game)
    own = importlib.import_module(spec.report_module).SECTIONS if spec.report_module else {}
    out: dict[str, tuple[Section, str]] = {}
    for name, entry in GENERIC_SECTIONS.items():
        out[name] = entry
        if name == _GAME_SECTIONS_AFTER:
            out.update(own)
    return out


def caveats_for(game: str | GameSpec | None = None) -> Callable[[pd.DataFrame], list[str]]:
    """The game's data caveats (its report module's ``caveats(results) -> list[str]``: one
    sentence per condition that touches the results, e.g. Taj Mahal's card shortages), or a
    function giving none."""
    spec = get_game(game)
    if not spec.report_module:  # a game without report sections of its own states none
        return lambda _r: []
    return getattr(importlib.import_module(spec.report_module), "caveats", lambda _r: [])


def section_names(game: str | GameSpec | None = None) -> list[str]:
    return list(sections_for(game))
