"""Experiments as files: a TOML file says which game to simulate, how, and which analyses and
report sections to produce.

This module reads and checks the files and plays their simulations: every run of the file into
``reports/NAME/runs/<run>/`` (resumable, like ``tajsim simulate --out``; a run marked ``keep =
true`` into ``reports/NAME/games/<run>/``, whose games git keeps), their results concatenated.
``tajsim.reporting.experiments.run_experiment`` adds the analyses and the report.
The format is described in ``docs/running.md``; ``experiments/default.toml`` is a commented
example.
"""

from __future__ import annotations

import itertools
import json
import math
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from tajsim.errors import UserError, shown
from tajsim.games.registry import DEFAULT_GAME, get_game
from tajsim.running.config import RunConfig, merge_compensation, resolve_components
from tajsim.running.executors import check_workers
from tajsim.running.gpu import check_device_name
from tajsim.running.records import concat_results
from tajsim.running.run_files import MANIFEST
from tajsim.running.simulate import run_simulation
from tajsim.running.store import RunStore, discard_run

__all__ = ["Experiment", "ExperimentData", "RunSpec", "check_experiment", "check_profiles",
           "load_experiment", "read_experiment", "simulate_experiment"]

#: Keys of ``[simulate]``, ``[[runs]]`` and ``[matrix]``.
RUN_KEYS: dict[str, type | tuple[type, ...]] = {
    "game": str, "options": dict,
    "games": int, "players": int, "strategies": (list, str), "edition": (str, int),
    "seed": int, "chunk_size": int, "games_per_setup": int, "rotate": (bool, str),
    "setups": str,
    "board": str, "components": str, "alternative": int, "variant": str,
    # The seat-compensation variant: one amount a seat (tajsim.engine.compensation).
    "compensation": list,
    # Where the games are played ("cpu" or "gpu"); not part of a run's results.
    "device": str,
    # Store the run's games where git keeps them (RunSpec.folder); not part of its results.
    "keep": bool,
}
#: The folder of an experiment's output that holds its runs, and the one for runs marked
#: ``keep = true``: ``.gitignore`` ignores the first and keeps the chunks of the second, so a
#: run of hours can be played over several sittings, each on a fresh clone.
RUNS_FOLDER, KEPT_RUNS_FOLDER = "runs", "games"
TOP_KEYS = ("name", "title", "description", "game", "analyses", "simulate", "runs", "matrix",
            "report")
REPORT_KEYS = ("title", "sections", "skill_reference", "equivalence_margin", "profiles")
#: Where ``tajsim profile`` writes the table and the provenance a ``[report] profiles`` folder
#: must hold (the ``skill_profile`` section reads them; see tajsim.cli.profile).
PROFILE_FILES = ("table_skill_profile.csv", "profile.json")
#: The ``[report]`` key of the margin every null of the report is tested against (win rate:
#: 0.02 is 2 points; the report sections read it as ``verdict_wording.MARGIN_KEY``).
MARGIN_KEY = "equivalence_margin"
#: What asks for restricted play: an analysis and a report section (a game that declares no
#: restrictions refuses an experiment file naming either, before anything is played).
RESTRICTED_ANALYSIS, RESTRICTED_SECTION = "restricted_play", "restricted"
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.=,+-]*$")


@dataclass(frozen=True)
class RunSpec:
    """One simulation of an experiment: its name and ``simulate`` keyword arguments."""

    name: str
    params: dict[str, Any]
    variant: str | None = None
    #: Whether its games are stored where git keeps them (``keep = true``).
    keep: bool = False

    def folder(self, out_dir: str | Path) -> Path:
        """Where the run is stored in the experiment's output folder ``out_dir``:
        ``runs/<name>`` (``games/<name>`` for a kept run)."""
        return Path(out_dir) / (KEPT_RUNS_FOLDER if self.keep else RUNS_FOLDER) / self.name

    def simulate_kwargs(self, scale: float = 1.0) -> dict[str, Any]:
        p = dict(self.params)
        comps = {k: p.pop(k) for k in ("board", "components", "alternative") if k in p}
        if "compensation" in p:  # a rule option: it travels with the others
            p["options"] = merge_compensation(p.get("options"), p.pop("compensation"))
        games = p.pop("games")
        if scale != 1.0:
            games = max(1, round(games * scale))
        kwargs = {"games": games, **p}
        if comps:
            kwargs["components"] = comps
        return kwargs


@dataclass(frozen=True)
class Experiment:
    """A parsed experiment file."""

    name: str
    path: Path
    title: str
    description: str
    game: str
    runs: tuple[RunSpec, ...]
    analyses: tuple[Any, ...] = ()
    sections: tuple[str, ...] | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def total_games(self) -> int:
        return sum(r.params["games"] for r in self.runs)


def _bad(path: Path, where: str, value: Any, expected: str) -> UserError:
    where = f" {where}:" if where else ""
    return UserError(f"{path}:{where} {shown(value)}, expected {expected}")


def _check_run_table(path: Path, where: str, table: Any, matrix: bool = False) -> dict:
    if not isinstance(table, dict):
        raise _bad(path, where, table, "a table of simulation settings")
    out = {}
    for key, value in table.items():
        if key == "name" and not matrix:
            continue
        if key not in RUN_KEYS:
            raise _bad(path, f"{where}.{key}", value,
                       f"one of the keys {', '.join(sorted(RUN_KEYS))}")
        if matrix and key == "keep":
            raise _bad(path, f"{where}.{key}", value, "keep in [simulate] or a [[runs]] table "
                       "(where a run is stored is not a setting to vary)")
        kinds = RUN_KEYS[key]
        values = value if matrix else [value]
        if matrix and (not isinstance(value, list) or not value):
            raise _bad(path, f"{where}.{key}", value, "a non-empty list of values")
        for v in values:
            if not isinstance(v, kinds) or (isinstance(v, bool) and kinds is int):
                names = kinds.__name__ if isinstance(kinds, type) else " or ".join(
                    k.__name__ for k in kinds)
                raise _bad(path, f"{where}.{key}", v, f"a value of type {names}")
        out[key] = value
    return out


def _run_name(base: str | None, combo: dict[str, Any]) -> str:
    parts = [base] if base else []
    for k, v in combo.items():
        text = ",".join(map(str, v)) if isinstance(v, list) else str(v)
        parts.append(f"{k}={text}")
    name = "-".join(parts) or "main"
    return re.sub(r"[^A-Za-z0-9_.=,+-]", "_", name)


def load_experiment(path: str | Path) -> Experiment:
    """Read and check an experiment file; every problem is a one-line ``UserError``."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"experiment file {str(path)!r} not found; expected a TOML file such as "
                        "experiments/default.toml")
    try:
        doc = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UserError(f"{path}: not valid TOML ({exc})") from None
    if doc.get("kind") == "compensation":  # a seat-compensation study: its own command
        raise UserError(f"{path}: kind = \"compensation\" is a seat-compensation study; "
                        f"expected tajsim balance {path} -o FOLDER")
    for key, value in doc.items():
        if key not in TOP_KEYS:
            raise _bad(path, key, value, f"one of the keys {', '.join(TOP_KEYS)}")
    name = doc.get("name", path.stem)
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise _bad(path, "name", name, "a name of letters, digits, '-', '_' or '.'")
    title = doc.get("title", name)
    description = doc.get("description", "")
    for key, value in (("title", title), ("description", description)):
        if not isinstance(value, str):
            raise _bad(path, key, value, "a string")
    base = _check_run_table(path, "simulate", doc.get("simulate", {}))
    runs_doc = doc.get("runs", [{}])
    if not isinstance(runs_doc, list) or not runs_doc:
        raise _bad(path, "runs", runs_doc, "an array of tables ([[runs]])")
    matrix = _check_run_table(path, "matrix", doc.get("matrix", {}), matrix=True)
    runs: list[RunSpec] = []
    for i, run_doc in enumerate(runs_doc):
        where = f"runs[{i}]"
        settings = _check_run_table(path, where, run_doc)
        base_name = run_doc.get("name") if isinstance(run_doc, dict) else None
        if base_name is not None and (not isinstance(base_name, str)
                                      or not _NAME_RE.match(base_name)):
            raise _bad(path, f"{where}.name", base_name,
                       "a name of letters, digits, '-', '_', '.' or '='")
        keys = list(matrix)
        for values in itertools.product(*(matrix[k] for k in keys)):
            combo = dict(zip(keys, values))
            params = {**base, **settings, **combo}
            if "games" not in params:
                # Name the table the user wrote: [simulate] when there is no [[runs]] array.
                if "runs" in doc:
                    raise _bad(path, where, params,
                               "a 'games' setting (in [simulate] or in this run)")
                raise UserError(f"{path}: no 'games' setting; expected games = N in "
                                "[simulate]")
            if params["games"] < 1:
                raise _bad(path, f"{where}.games", params["games"], "at least 1 game")
            variant = params.pop("variant", None)
            keep = params.pop("keep", False)
            run_name = _run_name(base_name, combo)
            if base_name is None and not combo and len(runs_doc) > 1:
                run_name = f"run{i}"
            runs.append(RunSpec(run_name, params, variant, keep))
    names = [r.name for r in runs]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise _bad(path, "runs", dupes[0], "a distinct name for each run (name = ...)")
    analyses = doc.get("analyses", [])
    if not isinstance(analyses, list):
        raise _bad(path, "analyses", analyses, "a list of analysis names or tables")
    for a in analyses:
        a_name = a.get("name") if isinstance(a, dict) else a
        if not isinstance(a_name, str):
            raise _bad(path, "analyses", a, "an analysis name or a table with a 'name' key")
    report = doc.get("report", {})
    if not isinstance(report, dict):
        raise _bad(path, "report", report, "a table")
    for key, value in report.items():
        if key not in REPORT_KEYS:
            raise _bad(path, f"report.{key}", value, f"one of the keys {', '.join(REPORT_KEYS)}")
    sections = report.get("sections")
    if sections is not None:
        if not isinstance(sections, list) or not all(isinstance(s, str) for s in sections):
            raise _bad(path, "report.sections", sections, "a list of section names")
        sections = tuple(sections)
    title = report.get("title", title)
    if not isinstance(title, str):
        raise _bad(path, "report.title", title, "a string")
    description = " ".join(description.split())
    _check_analysis_strategies(path, analyses, runs)
    games = {r.params.get("game", doc.get("game", DEFAULT_GAME)) for r in runs}
    if "game" in doc and not isinstance(doc["game"], str):
        raise _bad(path, "game", doc["game"], "a game name")
    if len(games) > 1:
        raise _bad(path, "game", sorted(games), "one game for every run of an experiment (its "
                   "report is one game's)")
    spec = get_game(games.pop())
    game = spec.name
    for r in runs:
        r.params["game"] = game
    asked = [a.get("name") if isinstance(a, dict) else a for a in analyses]
    if not spec.restrictions and (RESTRICTED_ANALYSIS in asked
                                  or RESTRICTED_SECTION in (sections or ())):
        raise _bad(path, "analyses", RESTRICTED_ANALYSIS, f"a game that declares restrictions "
                   f"({spec.title} declares none yet: no strategy takes forbid=)")
    margin = report.get(MARGIN_KEY)
    if margin is not None and (isinstance(margin, bool) or not isinstance(margin, (int, float))
                               or not 0 < margin < 1):
        raise _bad(path, f"report.{MARGIN_KEY}", margin, "a win-rate margin between 0 and 1 "
                   "(0.02: 2 points)")
    profiles = report.get("profiles")
    if profiles is not None and (not isinstance(profiles, list)
                                 or not all(isinstance(p, str) for p in profiles)):
        raise _bad(path, "report.profiles", profiles, "a list of folders written by tajsim "
                   "profile")
    reference = report.get("skill_reference")
    variants = [r.variant for r in runs if r.variant is not None]
    if reference is not None and reference not in variants:
        raise _bad(path, "report.skill_reference", reference,
                   f"the variant of a run ({', '.join(variants) or 'no run names one'})")
    return Experiment(name=name, path=path, title=title, description=description, game=game,
                      runs=tuple(runs), analyses=tuple(analyses), sections=sections, raw=doc)


def _played_strategies(runs: list[RunSpec]) -> list[str]:
    """The strategy texts the runs play, as the results' ``strategy`` column holds them."""
    played: list[str] = []
    for run in runs:
        given = run.params.get("strategies", ["random"])
        texts = given.split(",") if isinstance(given, str) else given
        for text in texts:
            if isinstance(text, str) and text.strip() not in played:
                played.append(text.strip())
    return played


def _check_analysis_strategies(path: Path, analyses: list, runs: list[RunSpec]) -> None:
    """An analysis narrowed to one strategy (``strategy = "alpha"``) names one the runs play:
    any other selects no rows, and the analysis would write an empty table without a word."""
    played = _played_strategies(runs)
    for i, entry in enumerate(analyses):
        if isinstance(entry, dict) and "strategy" in entry and entry["strategy"] not in played:
            raise _bad(path, f"analyses[{i}].strategy", entry["strategy"],
                       f"a strategy the runs play: {', '.join(played)}")


def check_scale(scale: float) -> float:
    """``scale`` (what ``--scale`` multiplies every run's games by) if it is a finite number
    > 0, else a one-line ``UserError`` (``inf`` used to end in an OverflowError traceback)."""
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) \
            or not (math.isfinite(scale) and scale > 0):
        raise UserError(f"scale {scale!r} is not allowed; expected a finite number > 0 (0.1 "
                        "for a tenth of every run's games)")
    return float(scale)


def check_experiment(exp: Experiment, out_dir: str | Path | None = None,
                     scale: float = 1.0) -> None:
    """Validate every run's settings (strategies, players, edition, component files...) and,
    with ``out_dir``, that its run directories hold these runs or nothing, before anything is
    simulated: a bad file fails at once and writes nothing."""
    check_profiles(exp)
    for run in exp.runs:
        kwargs = run.simulate_kwargs(scale)
        try:
            check_device_name(kwargs.pop("device", "cpu"))
            config = RunConfig.make(**kwargs)
            if out_dir is not None:
                RunStore(run.folder(out_dir)).check(config)
        except UserError as exc:
            raise UserError(f"{exp.path}: run {run.name!r}: {exc}") from None


@dataclass
class ExperimentData:
    """What an experiment's simulations produced: the concatenated results (``run_id`` and
    ``variant`` columns when the file has several runs / variants), the summary of each run, a
    short configuration for the report and the components of the first run."""

    experiment: Experiment
    results: pd.DataFrame
    summaries: pd.DataFrame
    config: dict[str, Any]
    components: Any


def simulate_experiment(
    exp: Experiment,
    out_dir: Path,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    progress: bool | None = None,
    scale: float = 1.0,
    echo: Callable[[str], None] | None = None,
    restart: bool = False,
    log: Callable[[str], None] | None = None,
    device: str | None = None,
    on_validated: Callable[[], Any] | None = None,
) -> ExperimentData:
    """Play (or resume) every run of ``exp`` into ``out_dir/runs/<run>/`` (a kept run:
    ``out_dir/games/<run>/``, see :meth:`RunSpec.folder`).

    ``on_validated()`` is called once every run's settings are checked, before anything is
    written (``tajsim run`` marks its output folder there).

    Runs already finished (or partly finished) in ``out_dir`` are resumed, not repeated;
    ``restart=True`` deletes them first and plays them again (needed after an update of the
    engine, whose chunks cannot be mixed with the old ones). ``log`` receives the details
    ``--verbose`` prints (see ``run_simulation``). ``device`` ("cpu" or "gpu") overrides the
    experiment's ``device`` setting.
    """
    say = echo or (lambda _msg: None)
    scale = check_scale(scale)
    check_workers(workers)
    # Restarting replaces the stored runs, so only the settings are checked, not that the
    # directories hold these same runs.
    check_experiment(exp, None if restart else out_dir, scale)
    if on_validated is not None:
        on_validated()
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create the output directory {str(out_dir)!r} "
                        f"({exc.strerror or exc}); expected a folder you can write to") from None
    if restart:
        for run in exp.runs:
            if discard_run(run.folder(out_dir)):
                say(f"run {run.name}: stored games deleted (--restart)")
    frames, summaries, comps_used, games = [], [], [], 0
    for run in exp.runs:
        kwargs = run.simulate_kwargs(scale)
        if device is not None:
            kwargs["device"] = device
        games += kwargs["games"]
        say(f"run {run.name}: {kwargs['games']:,} games")
        result = run_simulation(
            **kwargs, workers=workers, scheduler=scheduler, progress=progress,
            out=run.folder(out_dir), records=True, log=log,
        )
        frames.append(result.records)
        summary = result.summary()
        summary.insert(0, "run_id", run.name)
        summaries.append(summary)
        comps_used.append(kwargs.get("components"))
    return _experiment_data(exp, frames, pd.concat(summaries, ignore_index=True), comps_used,
                            games)


def check_profiles(exp: Experiment) -> None:
    """``[report] profiles`` (a list of strings, checked on load): folders written by ``tajsim
    profile`` for the experiment's game, relative to the working directory as component files
    are; checked with the runs, before anything is simulated (one-line ``UserError``)."""
    path, game = exp.path, exp.game
    for folder in exp.raw.get("report", {}).get("profiles") or ():
        missing = [f for f in PROFILE_FILES if not (Path(folder) / f).is_file()]
        if missing:
            raise _bad(path, "report.profiles", folder, f"a folder written by tajsim profile "
                       f"(it lacks {', '.join(missing)}: run tajsim profile --game {game} "
                       f"--out {folder})")
        try:
            made_for = json.loads((Path(folder) / PROFILE_FILES[1]).read_text()).get("game")
        except (OSError, ValueError, AttributeError):
            made_for = None
        if made_for != game:
            raise _bad(path, "report.profiles", folder, f"a profile of {game} (its "
                       f"{PROFILE_FILES[1]} says {made_for!r})")


def read_experiment(exp: Experiment, out_dir: Path) -> ExperimentData:
    """The stored runs of ``exp`` in their folders of ``out_dir`` read back as
    ``simulate_experiment`` returns them (``run_id`` / ``variant`` columns, the report's
    configuration), playing nothing: ``tajsim report`` rewriting an experiment's report in
    place. ``summaries`` is empty (the run summaries stay in ``summary.csv``).

    Raises
    ------
    UserError
        A run of the file is missing from ``out_dir`` (run the experiment to play it), or a
        stored chunk fails verification.
    """
    from tajsim.running.run_reading import load_results

    frames, comps_used, games = [], [], 0
    for run in exp.runs:
        folder = run.folder(out_dir)
        if not (folder / MANIFEST).is_file():
            raise UserError(f"{str(out_dir)!r} holds no run {run.name!r} of its experiment; "
                            f"expected every run stored: `tajsim run {exp.path}` plays it")
        frames.append(load_results(folder))
        kwargs = run.simulate_kwargs(1.0)
        games += int(frames[-1]["game_id"].nunique()) if "game_id" in frames[-1] else 0
        comps_used.append(kwargs.get("components"))
    return _experiment_data(exp, frames, pd.DataFrame(), comps_used, games)


def _experiment_data(exp: Experiment, frames: list[pd.DataFrame], summaries: pd.DataFrame,
                     comps_used: list[Any], games: int) -> ExperimentData:
    """The runs' frames concatenated (``run_id`` / ``variant`` columns where the file has
    several runs / variants) and the report's configuration."""
    many = len(exp.runs) > 1
    any_variant = any(r.variant is not None for r in exp.runs)
    results = concat_results(
        frames,
        run_ids=[r.name for r in exp.runs] if many else None,
        variants=[r.variant for r in exp.runs] if any_variant else None,
    )
    config: dict[str, Any] = {
        "name": exp.name, "title": exp.title, "description": exp.description, "game": exp.game,
        "experiment": str(exp.path), "runs": [r.name for r in exp.runs], "games": games,
    }
    profiles = exp.raw.get("report", {}).get("profiles")
    if profiles:  # stored skill profiles the report shows (the skill_profile section)
        config["profiles"] = list(profiles)
    reference = exp.raw.get("report", {}).get("skill_reference")
    if reference is not None:  # the skill section's reference level
        config["skill_reference"] = reference
    margin = exp.raw.get("report", {}).get(MARGIN_KEY)
    if margin is not None:  # every null's equivalence margin
        config[MARGIN_KEY] = float(margin)
    seeds = {r.params.get("seed", 0) for r in exp.runs}
    if len(seeds) == 1:
        config["seed"] = seeds.pop()
    components, _ = resolve_components(get_game(exp.game), comps_used[0])
    return ExperimentData(exp, results.reset_index(drop=True), summaries, config, components)
