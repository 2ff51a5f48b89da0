"""A game's spec derived from its wing by convention (:meth:`GameSpec.from_wing`).

A wing lays its parts out the same way (``docs/architecture.md``, "How to add a game"); every
fact that the layout already states is read from it, so that a wing's ``spec.py`` declares only
what its modules cannot say (the title, the description, the score direction, what the reports
say of it ...). Each conventional name below may be overridden by passing the spec field itself.

=====================================  ===================================================
spec field                              read from (``W`` = ``tajsim.games.<name>``)
=====================================  ===================================================
name, source_folders                    the package's name; ``W.SOURCE_FOLDERS``
better_score                            ``LOWER_SCORE_WINS`` (enums; default False), the
                                        constant the finish kernels rank by
editions, players, max_players          ``W.engine.enums``: ``EDITION_NAMES``, ``MIN_PLAYERS``
                                        (one int, or one per edition), ``MAX_PLAYERS``
default_players, max_game_length        ``DEFAULT_PLAYERS``, ``MAX_GAME_LENGTH`` (enums) or
                                        declared
state_size, comp_size, n_actions        ``STATE_SIZE``, ``COMP_SIZE``, ``N_ACTIONS``
result_dtype, setup_dtype               ``RESULT_DTYPE``, ``SETUP_DTYPE``
score_parts, phase_names                ``PART_NAMES``, ``PHASE_NAMES``
chance_words                            ``CHANCE_WORDS`` (enums; default none)
kernels (the rules)                     ``W.engine.nb``: ``start_game_nb``, ``legal_actions_nb``,
                                        ``apply_action_nb``, ``current_player_nb``,
                                        ``phase_nb``; ``count_legal_nb`` and ``nth_legal_nb``
                                        when the loop hooks draw without a list
kernels (the policies)                  ``W.strategies.nb.choose_action_nb``; the GPU's
                                        ``choose_simple_nb`` from ``W.strategies.rollout``,
                                        else ``W.strategies.nb``, with ``gpu_work_size``;
                                        ``choose_net_nb`` and ``NET_SCRATCH_SIZE`` from
                                        ``W.strategies.rollout`` (if present: the GPU
                                        plays ``net``)
kernels (the loop)                      ``W.play.nb``: ``play_out_nb``, ``write_records_nb``,
                                        ``play_batch_nb``, ``play_batch_parallel_nb``
strategies, n_params, restrictions,     ``W.strategies.registry``: ``REGISTRY`` (its
tuning                                  ``n_params`` and ``restrictions``), ``TUNING``
frame_columns, setup_features,          ``W.play.records``
setup_feature_columns
check_state, redraw_hidden,             ``W.engine.invariants`` (``check_legal`` or
check_legal, check_step                 ``check_legal_list`` and ``check_step`` if present)
view                                    ``W.strategies.view.view``
game_class                              ``W.engine.game.Game`` (if present)
golden_cases, golden_dir                ``W.golden.GOLDEN_CASES``; ``tests/golden/<name>/``
analyses_module, report_module          ``W.analyses`` / ``W.report``, where they exist
=====================================  ===================================================
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from tajsim.engine.game_kernels import GameKernels, GpuKernels

if TYPE_CHECKING:
    from tajsim.engine.spec import GameSpec

__all__ = ["spec_from_wing"]

#: The checkout's root (the golden transcripts lie under ``tests/golden/<name>/``).
REPO = Path(__file__).resolve().parents[2]


def _module(name: str) -> ModuleType | None:
    """The module ``name``, or None when the wing has none (a missing parent package too)."""
    try:
        found = importlib.util.find_spec(name)
    except ModuleNotFoundError:
        return None
    return importlib.import_module(name) if found is not None else None


def _first(where: str, *candidates: tuple[ModuleType | None, str]) -> Any:
    """The first of ``(module, attribute)`` that exists; ``ValueError`` naming them otherwise."""
    for module, attribute in candidates:
        if module is not None and hasattr(module, attribute):
            return getattr(module, attribute)
    names = " or ".join(f"{m.__name__ if m else '?'}.{a}" for m, a in candidates)
    raise ValueError(f"{where}: the wing has no {names}; declare it in the spec")


def _optional(module: ModuleType | None, attribute: str) -> Any:
    return getattr(module, attribute, None) if module is not None else None


def spec_from_wing(spec_class: type[GameSpec], package: str, *, gpu_work_size: int = 0,
                   gpu_work_dtype: Any = np.float64, **declared: Any) -> GameSpec:
    """The :class:`GameSpec` of the wing ``package`` (``"tajsim.games.<name>"``, a wing's
    ``__package__``): every field the wing's modules state by convention (the table in this
    module's docstring), then ``declared`` on top (a field given here wins, so a wing that
    names a part differently passes it). ``gpu_work_size`` is the GPU dispatcher's scratch
    length (0: no policy needs any). The spec's layout is checked (``check_layout``)."""
    name = package.rsplit(".", 1)[-1]
    wing = importlib.import_module(package)
    folder = Path(wing.__file__ or "").resolve().parent
    E = importlib.import_module(f"{package}.engine.enums")
    rules = importlib.import_module(f"{package}.engine.nb")
    policies = importlib.import_module(f"{package}.strategies.nb")
    loop = importlib.import_module(f"{package}.play.nb")
    hooks = _module(f"{package}.play.loop_hooks")
    records = importlib.import_module(f"{package}.play.records")
    registry = importlib.import_module(f"{package}.strategies.registry")
    invariants = importlib.import_module(f"{package}.engine.invariants")
    view = _module(f"{package}.strategies.view")
    game = _module(f"{package}.engine.game")
    golden = _module(f"{package}.golden")
    rollout = _module(f"{package}.strategies.rollout")

    editions = tuple(E.EDITION_NAMES)
    low = E.MIN_PLAYERS
    lows = tuple(low) if isinstance(low, tuple) else (low,) * len(editions)
    without_list = bool(_optional(hooks, "RANDOM_WITHOUT_LIST"))
    REGISTRY = registry.REGISTRY
    fields: dict[str, Any] = dict(
        name=name,
        editions=editions,
        players={ed: (int(lows[i]), int(E.MAX_PLAYERS)) for i, ed in enumerate(editions)},
        max_players=int(E.MAX_PLAYERS),
        state_size=int(E.STATE_SIZE),
        comp_size=int(E.COMP_SIZE),
        n_actions=int(E.N_ACTIONS),
        n_params=int(REGISTRY.n_params),
        result_dtype=E.RESULT_DTYPE,
        setup_dtype=E.SETUP_DTYPE,
        score_parts=tuple(E.PART_NAMES),
        phase_names=tuple(E.PHASE_NAMES),
        chance_words=tuple(int(word) for word in getattr(E, "CHANCE_WORDS", ())),
        strategies=REGISTRY,
        restrictions=tuple(getattr(REGISTRY, "restrictions", ())),
        frame_columns=records.frame_columns,
        setup_features=records.setup_features,
        setup_feature_columns=records.setup_feature_columns,
        check_state=invariants.check_state,
        redraw_hidden=invariants.redraw_hidden,
        source_folders=tuple(folder / sub for sub in wing.SOURCE_FOLDERS),
        golden_dir=REPO / "tests" / "golden" / name,
    )
    # The finish kernels rank by the same constant (tajsim.engine.ranking), so a spec cannot
    # declare the other direction.
    lower_wins = bool(getattr(E, "LOWER_SCORE_WINS", False))
    fields["better_score"] = "lower" if lower_wins else "higher"
    if declared.get("better_score", fields["better_score"]) != fields["better_score"]:
        raise ValueError(f"{name}: better_score {declared['better_score']!r} contradicts the "
                         f"finish kernels' LOWER_SCORE_WINS = {lower_wins} (engine/enums.py)")
    if int(E.MAX_PLAYERS) > 8:
        raise ValueError(f"{name}: MAX_PLAYERS {E.MAX_PLAYERS}; the generic finish ranks at "
                         "most 8 seats (tajsim.engine.ranking)")
    for field_name, constant in (("default_players", "DEFAULT_PLAYERS"),
                                 ("max_game_length", "MAX_GAME_LENGTH")):
        if hasattr(E, constant):
            fields[field_name] = int(getattr(E, constant))
    for field_name, value in (("check_legal", _optional(invariants, "check_legal")
                               or _optional(invariants, "check_legal_list")),
                              ("check_step", _optional(invariants, "check_step")),
                              ("view", _optional(view, "view")),
                              ("game_class", _optional(game, "Game")),
                              ("golden_cases", _optional(golden, "GOLDEN_CASES")),
                              ("tuning", _optional(registry, "TUNING"))):
        if value is not None:
            fields[field_name] = value
    for field_name, module in (("analyses_module", f"{package}.analyses"),
                               ("report_module", f"{package}.report")):
        if importlib.util.find_spec(module) is not None:
            fields[field_name] = module
    if "kernels" not in declared:
        fields["kernels"] = GameKernels(
            start_game=rules.start_game_nb,
            legal_actions=rules.legal_actions_nb,
            apply_action=rules.apply_action_nb,
            choose_action=policies.choose_action_nb,
            play_out=loop.play_out_nb,
            write_records=loop.write_records_nb,
            play_batch=loop.play_batch_nb,
            play_batch_parallel=loop.play_batch_parallel_nb,
            current_player=rules.current_player_nb,
            phase=rules.phase_nb,
            gpu=GpuKernels(choose_simple=_first(name, (rollout, "choose_simple_nb"),
                                                (policies, "choose_simple_nb")),
                           work_size=gpu_work_size, work_dtype=gpu_work_dtype,
                           choose_net=_optional(rollout, "choose_net_nb"),
                           net_scratch_size=int(_optional(rollout, "NET_SCRATCH_SIZE") or 1)),
            count_legal=rules.count_legal_nb if without_list else None,
            nth_legal=rules.nth_legal_nb if without_list else None,
            round_of=getattr(hooks, "round_of_nb", None),
            track_round=getattr(loop, "track_round_nb", None),
        )
    fields.update(declared)
    missing = [f for f in ("title", "components", "default_players", "max_game_length",
                           "view") if f not in fields]
    if missing:
        raise ValueError(f"{name}: the wing states no {', '.join(missing)}; declare "
                         f"{'it' if len(missing) == 1 else 'them'} in GameSpec.from_wing")
    spec = spec_class(**fields)
    spec.check_layout()
    return spec
