"""Analyses by name, for experiment files and the report: the generic ones of every game plus the
game's own (its spec's ``analyses_module``: ``ANALYSES``, ``REQUIRED_COLUMNS``, ``CONCLUSIONS``).

An experiment file names the analyses to run; each entry is a name or a table with ``name``,
an optional ``as`` (the key of the result) and keyword arguments of the function::

    analyses = [
        "win_rates_by_seat",
        "seat_advantage",
        { name = "goods_value", model = "lpm" },
        { name = "setup_feature_tests", as = "features_alpha", strategy = "alpha", seat = -1 },
    ]

(TOML has no null: ``seat = -1`` stands for ``seat = None``.) :func:`run_analyses` returns
``{key: DataFrame}``. Results are computed once per (name, arguments) in an
:class:`AnalysisCache`: the report reuses what the run already computed.

Every entry also takes two keys that any analysis understands:

* ``subset = "<pandas query>"`` runs it on the rows that match (e.g. ``"exhausted_visit == 0"``:
  only the Taj Mahal games in which the cards never ran out);
* ``split = "<column>"`` runs it once per value of a column (or of a query: ``split =
  "exhausted_visit > 0"``) and stacks the results with that column first.
"""

from __future__ import annotations

import functools
import importlib
import inspect
from collections.abc import Callable, Mapping, Sequence
from types import ModuleType, SimpleNamespace
from typing import Any

import pandas as pd

from tajsim.analysis import (
    arc,
    compare,
    composition,
    ratings,
    restricted,
    robustness,
    setup_balance,
    skill,
    skill_profile,
    variants,
    winrates,
)
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.games.registry import get_game

__all__ = ["ANALYSES", "REQUIRED_COLUMNS", "AnalysisCache", "analyses_for",
           "check_entry_arguments", "conclusion_options", "missing_columns",
           "required_columns_for", "run_analyses"]

#: The analyses every game has: name -> function(results, **kwargs) -> DataFrame.
ANALYSES: dict[str, Callable[..., pd.DataFrame]] = {
    "win_rates": winrates.win_rates,
    "win_rates_by_strategy": winrates.win_rates_by_strategy,
    "win_rates_by_seat": winrates.win_rates_by_seat,
    "win_rates_by_player_count": winrates.win_rates_by_player_count,
    "seat_advantage": winrates.seat_advantage_test,
    "score_composition": composition.score_composition,
    "score_part_histogram": composition.score_part_histogram,
    "setup_variance_share": setup_balance.setup_variance_share,
    "setup_imbalance": setup_balance.setup_imbalance,
    "setup_feature_tests": setup_balance.setup_feature_tests,
    "head_to_head": ratings.head_to_head,
    "bradley_terry": ratings.bradley_terry,
    "openskill_ratings": ratings.openskill_ratings,
    "seat_rotation_check": ratings.seat_rotation_check,
    "robustness": robustness.robustness,  # on a frame with a ``variant`` column
    "compare_strategies": compare.compare_strategies,  # a = "...", b = "..." (tajsim compare)
    "skill_levels": skill.skill_levels,  # on a frame with a ``variant`` column (the levels)
    "restricted_play": restricted.restricted_play,  # strategies with forbid=... vs without
    "skill_profile": skill_profile.skill_profile,  # levels head to head (tajsim profile)
    "variant_comparison": variants.variant_comparison,  # variants x levels (issue 40 s2)
    # the arc of a game (issue 40 s4): per-round score trajectories
    "arc_summary": arc.arc_summary,  # lead changes, comebacks, the runaway test
    "comeback_by_deficit": arc.comeback_by_deficit,
    "arc_by_round": arc.arc_by_round,
    "kingmaking": arc.kingmaking,  # counterfactual replays of the last round (4+ players)
    "turn_order": arc.turn_order,  # Maharaja: acting first in a round vs drafting first
}

#: Analyses that read one frame per variant (a ``column``, default ``variant``, labels them)
#: and the game's own conclusions.
_BY_VARIANT = ("robustness", "skill_levels")

_GAME = ("game_id", "n_players", "seat")

#: Columns (or ``prefix*`` column families) each generic analysis reads.
REQUIRED_COLUMNS: dict[str, tuple[str, ...]] = {
    "win_rates": (*_GAME, "winner", "strategy"),
    "win_rates_by_strategy": (*_GAME, "winner", "strategy"),
    "win_rates_by_seat": (*_GAME, "winner"),
    "win_rates_by_player_count": (*_GAME, "winner", "strategy"),
    "seat_advantage": (*_GAME, "winner", "strategy"),
    "score_composition": ("score", "pts_*"),
    "score_part_histogram": ("pts_*",),
    "setup_variance_share": (*_GAME, "setup_id", "winner"),
    "setup_imbalance": (*_GAME, "setup_id", "winner"),
    "setup_feature_tests": (*_GAME, "setup_id", "winner"),
    "head_to_head": (*_GAME, "strategy", "rank"),
    "bradley_terry": (*_GAME, "strategy", "rank"),
    "openskill_ratings": (*_GAME, "strategy", "rank"),
    "seat_rotation_check": (*_GAME, "strategy"),
    "robustness": (*_GAME, "variant", "winner", "strategy", "rank", "score", "pts_*"),
    "compare_strategies": compare.REQUIRED_COLUMNS,
    "skill_levels": (*_GAME, "variant", "winner", "strategy", "rank", "score", "pts_*"),
    "restricted_play": (*_GAME, "strategy", "winner"),
    "skill_profile": skill_profile.REQUIRED_COLUMNS,
    "variant_comparison": variants.REQUIRED_COLUMNS,
    "arc_summary": arc.REQUIRED_COLUMNS,
    "comeback_by_deficit": arc.REQUIRED_COLUMNS,
    "arc_by_round": arc.REQUIRED_COLUMNS,
    "kingmaking": (*arc.REQUIRED_COLUMNS, "seed", "setup_id"),
    "turn_order": (*arc.REQUIRED_COLUMNS, "turn_r*", "draft_pos"),
}


@functools.cache
def _game_module(name: str) -> ModuleType | SimpleNamespace:
    """The game's analyses module; a game without one (``analyses_module`` "") has none of
    its own."""
    module = get_game(name).analyses_module
    if not module:
        return SimpleNamespace(ANALYSES={}, REQUIRED_COLUMNS={}, CONCLUSIONS={})
    return importlib.import_module(module)


def analyses_for(game: str | GameSpec | None = None) -> dict[str, Callable[..., pd.DataFrame]]:
    """Every analysis of ``game``: the generic ones and the game's own."""
    return {**ANALYSES, **_game_module(get_game(game).name).ANALYSES}


def required_columns_for(game: str | GameSpec | None = None) -> dict[str, tuple[str, ...]]:
    return {**REQUIRED_COLUMNS, **_game_module(get_game(game).name).REQUIRED_COLUMNS}


def conclusions_for(game: str | GameSpec | None = None) -> dict[str, Callable]:
    """The game's own robustness conclusions (besides the generic ones)."""
    return dict(getattr(_game_module(get_game(game).name), "CONCLUSIONS", {}))


def conclusion_options(game: str | GameSpec | None = None) -> robustness.ConclusionOptions:
    """What the key conclusions of ``game`` need from its spec: its score parts (the score
    display's, so that a ranking key is never a "score part"), what they add up to, and
    whether a higher score wins."""
    spec = get_game(game)
    shown = spec.score_display
    return robustness.ConclusionOptions(
        parts=tuple(spec.shown_parts), part_total=shown.total if shown else "score",
        higher_is_better=spec.higher_score_wins)


def missing_columns(results: pd.DataFrame, name: str,
                    game: str | GameSpec | None = None) -> list[str]:
    """Required columns (or ``prefix*`` families) of analysis ``name`` absent from ``results``."""
    missing = []
    for col in required_columns_for(game).get(name, ()):
        if col.endswith("*"):
            if not any(str(c).startswith(col[:-1]) for c in results.columns):
                missing.append(col)
        elif col not in results.columns:
            missing.append(col)
    return missing


def _parse_entry(entry: str | Mapping[str, Any]) -> tuple[str, str, dict[str, Any]]:
    if isinstance(entry, str):
        return entry, entry, {}
    if isinstance(entry, Mapping) and "name" in entry:
        kwargs = {k: v for k, v in entry.items() if k not in ("name", "as")}
        for k in ("seat",):
            if kwargs.get(k) == -1:
                kwargs[k] = None
        for k in ("by", "seats", "parts", "regressors", "controls", "quantiles", "conclusions",
                  "features", "measures"):
            if isinstance(kwargs.get(k), list):
                kwargs[k] = tuple(kwargs[k])
        name = str(entry["name"])
        return name, str(entry.get("as", name)), kwargs
    raise UserError(f"analysis entry {entry!r} is not a name or a table with a 'name' key")


def check_entry_arguments(entry: str | Mapping[str, Any],
                          game: str | GameSpec | None = None) -> None:
    """The arguments of an analysis entry are its analysis's own (one-line ``UserError``
    naming them otherwise), checked without results: an experiment checks its entries before
    it plays a game. The name is assumed known (``analyses_for``)."""
    name, _key, kwargs = _parse_entry(entry)
    kwargs = {k: v for k, v in kwargs.items() if k not in ("subset", "split")}
    if name in _BY_VARIANT:
        kwargs.pop("column", None)
    try:
        inspect.signature(analyses_for(game)[name]).bind(None, **kwargs)
    except TypeError as exc:
        raise UserError(f"analysis {name!r}: bad arguments {kwargs!r} ({exc}); expected the "
                        "analysis's own (docs/analysis.md)") from None


def _freeze(value: Any) -> Any:
    """A hashable key for an analysis argument (dicts, lists and sets included)."""
    if isinstance(value, Mapping):
        return ("dict", tuple(sorted((str(k), _freeze(v)) for k, v in value.items())))
    if isinstance(value, (set, frozenset)):
        return ("set", tuple(sorted(map(repr, value))))
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    return value


class AnalysisCache:
    """The analyses of one results frame, each computed once per (name, arguments).

    The experiment runner computes the analyses its file names through a cache, and the report
    asks the same cache: an analysis the run already computed is reused, not computed again.
    """

    def __init__(self, results: pd.DataFrame, game: str | GameSpec | None = None) -> None:
        self.results = results
        self.spec = get_game(game)
        self.available = analyses_for(self.spec)
        self._done: dict[tuple, pd.DataFrame] = {}
        self.computed = 0  # analyses actually computed (the rest were reused)

    def __contains__(self, key: tuple) -> bool:
        return key in self._done

    def key(self, name: str, kwargs: Mapping[str, Any]) -> tuple:
        return (name, _freeze(kwargs))

    def get(self, name: str, **kwargs: Any) -> pd.DataFrame:
        """Analysis ``name`` of the frame with these arguments (computed on first use);
        ``subset`` / ``split`` as in the module docstring."""
        if name not in self.available:
            raise UserError(f"unknown {self.spec.title} analysis {name!r}; expected one of "
                            f"{', '.join(self.available)}")
        key = self.key(name, kwargs)
        if key not in self._done:
            subset, split = kwargs.pop("subset", None), kwargs.pop("split", None)
            frame = self.results if subset is None else _query(self.results, subset)
            if split is None:
                self._done[key] = self._compute(name, dict(kwargs), frame)
            else:
                self._done[key] = self._split(name, dict(kwargs), frame, split)
            self.computed += 1
        return self._done[key]

    def _split(self, name: str, kwargs: dict[str, Any], frame: pd.DataFrame,
               split: str) -> pd.DataFrame:
        if split in frame.columns:
            labels = frame[split]
        else:
            labels = pd.Series(_query(frame, split, mask=True), index=frame.index, name=split)
        parts = []
        for value, part in frame.groupby(labels.to_numpy(), sort=True):
            table = self._compute(name, dict(kwargs), part)
            table.insert(0, split, value)
            parts.append(table)
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()

    def _compute(self, name: str, kwargs: dict[str, Any],
                 results: pd.DataFrame | None = None) -> pd.DataFrame:
        results = self.results if results is None else results
        spec = self.spec
        missing = missing_columns(results, name, spec)
        if missing:
            raise UserError(f"analysis {name!r} needs columns {', '.join(missing)} that the "
                            "results lack")
        func = self.available[name]
        if name == "setup_feature_tests" and kwargs.get("features") is None:
            kwargs["features"] = tuple(spec.setup_feature_columns(list(results.columns)))
        if name == "restricted_play" and kwargs.get("measures") is None:
            # what a player calls the score (Maharaja: palaces and gold), not a ranking key
            shown = spec.score_display
            kwargs["measures"] = tuple(shown.measures) if shown else ("score",)
        if name == "kingmaking" and kwargs.get("game") is None:
            kwargs["game"] = spec.name  # its replays play the game the results come from
        if name in _BY_VARIANT:
            column = kwargs.pop("column", "variant")
            if column not in results.columns:
                raise UserError(f"{name} needs a {column!r} column naming the variant of "
                                "each row (a [[runs]] table's variant = ...)")
            kwargs.setdefault("extra", conclusions_for(spec))
            kwargs.setdefault("options", conclusion_options(spec))
            frames = robustness.split_variants(results, column)
            try:
                inspect.signature(func).bind(frames, **kwargs)
            except TypeError as exc:
                raise UserError(f"analysis {name!r}: bad arguments {kwargs!r} ({exc})") from None
            return func(frames, **kwargs)
        try:
            inspect.signature(func).bind(results, **kwargs)
        except TypeError as exc:
            raise UserError(f"analysis {name!r}: bad arguments {kwargs!r} ({exc})") from None
        return func(results, **kwargs)


def _query(frame: pd.DataFrame, text: Any, mask: bool = False) -> Any:
    """Rows of ``frame`` matching the pandas query ``text`` (or the boolean mask); a bad query
    is a one-line ``UserError``."""
    if not isinstance(text, str) or not text.strip():
        raise UserError(f"subset/split {text!r} is not a query; expected e.g. "
                        "\"exhausted_visit == 0\" or a column name")
    try:
        hit = frame.eval(text)
    except Exception as exc:  # noqa: BLE001 - any pandas parse or name error is bad input
        raise UserError(f"subset/split {text!r} cannot be evaluated on the results ({exc}); "
                        "expected a pandas query over their columns") from None
    if not pd.api.types.is_bool_dtype(getattr(hit, "dtype", None)):
        raise UserError(f"subset/split {text!r} is not true or false for each row; expected "
                        "a comparison such as \"exhausted_visit == 0\"")
    return hit.to_numpy() if mask else frame[hit.to_numpy()]


def run_analyses(
    results: pd.DataFrame, names: Sequence[str | Mapping[str, Any]],
    game: str | GameSpec | None = None, cache: AnalysisCache | None = None,
) -> dict[str, pd.DataFrame]:
    """Run the named analyses on one results frame.

    Parameters
    ----------
    results : DataFrame
        Results frame (docs/results-schema.md).
    names : sequence of str or mapping
        Entries as in the module docstring: ``"name"`` or ``{"name": ..., "as": ..., **kwargs}``.
    game : str, optional
        The game the results come from (default Taj Mahal); its own analyses are available.
    cache : AnalysisCache, optional
        Reuse (and fill) this cache of the same frame.

    Returns
    -------
    dict of str to DataFrame
        Keyed by ``as`` (default: the name), in the order given.

    Raises
    ------
    tajsim.errors.UserError
        Unknown name, bad entry, or missing columns.
    """
    cache = cache if cache is not None else AnalysisCache(results, game)
    out: dict[str, pd.DataFrame] = {}
    for entry in names:
        name, key, kwargs = _parse_entry(entry)
        out[key] = cache.get(name, **kwargs)
    return out
