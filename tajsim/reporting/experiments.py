"""``tajsim run``: an experiment file from simulation to report.

:func:`run_experiment` checks the file (settings, analysis and section names of its game) before
anything is played, plays or resumes its simulations (:mod:`tajsim.running.experiments`), runs the
analyses the file names (each saved as ``analyses/<name>.csv``) and writes the report; the
report reuses the analyses the run computed (one :class:`~tajsim.analysis.registry.AnalysisCache`).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from tajsim.analysis.registry import (
    AnalysisCache,
    analyses_for,
    check_entry_arguments,
    run_analyses,
)
from tajsim.errors import UserError
from tajsim.games.registry import DEFAULT_GAME, get_game
from tajsim.reporting.outputs import Owner, check_output_folder, claim_output_folder, read_owner
from tajsim.reporting.render import write_csv
from tajsim.reporting.report import build_report
from tajsim.reporting.sections import section_names
from tajsim.running.experiments import (
    Experiment,
    ExperimentData,
    check_experiment,
    check_scale,
    load_experiment,
    simulate_experiment,
)
from tajsim.running.repeats import repeat_note_for_results
from tajsim.running.run_files import MANIFEST, atomic_write

__all__ = ["check_names", "run_experiment", "write_experiment_report"]


def check_names(exp: Experiment) -> None:
    """The file's analyses and report sections exist for its game (one-line ``UserError``)."""
    known = analyses_for(exp.game)
    for i, entry in enumerate(exp.analyses):
        name = entry.get("name") if isinstance(entry, dict) else entry
        if name not in known:
            raise UserError(f"{exp.path}: analyses: {name!r}, expected one of: "
                            f"{', '.join(known)}")
        try:
            check_entry_arguments(entry, exp.game)
        except UserError as exc:
            raise UserError(f"{exp.path}: analyses[{i}]: {exc}") from None
    if exp.sections is not None:
        valid = section_names(exp.game)
        for s in exp.sections:
            if s not in valid:
                raise UserError(f"{exp.path}: report.sections: {s!r}, expected one of: "
                                f"{', '.join(valid)}")


def run_experiment(
    path: str | Path,
    out: str | Path | None = None,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    progress: bool | None = None,
    scale: float = 1.0,
    echo: Callable[[str], None] | None = None,
    restart: bool = False,
    log: Callable[[str], None] | None = None,
    device: str | None = None,
    force: bool = False,
    only: Sequence[str] | None = None,
) -> Path | None:
    """Run the experiment file ``path`` into ``out`` (default ``reports/<name>``).

    ``out`` must be empty or this experiment's own earlier output (its mark, see
    :mod:`tajsim.reporting.outputs`); anything else is refused in one ``UserError`` before a
    file is written, unless ``force=True``.

    Returns the report path (``out/report.md``). Runs already finished (or partly finished) in
    ``out`` are resumed, not repeated; ``restart=True`` deletes them first and plays them again.
    ``log`` receives the details ``--verbose`` prints. A file that cannot be written after the
    games are played is a one-line ``UserError``: the runs are kept, and the same command
    writes the report again without playing them. ``device`` ("cpu" or "gpu") overrides the
    file's ``device`` setting.

    ``only`` (run names of the file) plays those runs alone and writes no report (returns
    None): a run of hours marked ``keep = true`` played over several sittings, its games
    committed after each (``docs/running.md``). The folder's report may then be of an earlier
    version of the file: it is not touched, and each run's store still refuses games of other
    settings.
    """
    say = echo or (lambda _msg: None)
    detail = log or (lambda _msg: None)
    exp = load_experiment(path)
    check_names(exp)
    scale = check_scale(scale)
    played = exp if only is None else select_runs(exp, only)
    out_dir = Path(out) if out is not None else default_report_dir(exp)
    named = [str(a.get("name") if isinstance(a, dict) else a) for a in exp.analyses]
    owner = Owner("run", exp.name, exp.game, None if scale == 1 else scale)
    # the experiment's own run may replace its quick look (marked with its scale)
    force = force or check_experiment_folder(out_dir, exp, owner, given_out=out is not None,
                                             restart=restart, report=only is None)
    check_output_folder(out_dir, owner, force=force)
    detail(f"validated {exp.path}: {len(exp.runs)} run{'s' if len(exp.runs) != 1 else ''}, "
           f"{exp.total_games:,} games before --scale, analyses "
           f"{', '.join(named) or 'none'}; output {out_dir}")
    data = simulate_experiment(played, out_dir, workers=workers, scheduler=scheduler,
                               progress=progress, scale=scale, echo=say, restart=restart,
                               log=log, device=device,
                               # marked once every run is valid: a bad file writes nothing
                               on_validated=lambda: claim_output_folder(out_dir, owner,
                                                                        force=force))
    if only is not None:
        return None
    note = repeat_note_for_results(get_game(exp.game), data.results)
    if note is not None:
        say(f"note: {note}")
    report = write_experiment_report(data, out_dir, echo=echo, log=log)
    detail(f"report: {report} and {report.with_suffix('.html')}, figures and tables beside it")
    return report


def experiment_status(path: str | Path, out: str | Path | None = None,
                      scale: float = 1.0) -> list[str]:
    """``tajsim run FILE --status``: a line per run of the experiment file ``path`` saying how
    much of it is stored in ``out`` (default ``reports/<name>``), and where (``runs/`` or, for
    a kept run, ``games/``), its finished chunks verified; a run stored with other settings is
    the one-line ``UserError`` a resume would give (``scale``: of a quick look's runs). Plays
    and writes nothing."""
    from tajsim.running.run_reading import run_status

    exp = load_experiment(path)
    scale = check_scale(scale)
    out_dir = Path(out) if out is not None else default_report_dir(exp)
    check_experiment(exp, out_dir, scale)
    lines = []
    for run in exp.runs:
        folder = run.folder(out_dir)
        where = f"{folder}{' (kept: git keeps its games)' if run.keep else ''}"
        if not (folder / MANIFEST).is_file():
            games = run.simulate_kwargs(scale)["games"]
            lines.append(f"run {run.name}: not played ({games:,} game{'s' * (games != 1)}) "
                         f"in {where}")
            continue
        status = run_status(folder)
        lines.append(f"run {run.name}: {status.describe()} in {where}")
    return lines


def write_experiment_report(data: ExperimentData, out_dir: Path, *,
                            echo: Callable[[str], None] | None = None,
                            log: Callable[[str], None] | None = None,
                            sections: list[str] | None = None,
                            title: str | None = None) -> Path:
    """Write what an experiment's runs give into ``out_dir``: ``summary.csv`` (when the runs
    were played in this process), the copy of the experiment file, the analyses' tables and
    the report. ``tajsim run`` calls it after playing; ``tajsim report`` after reading the
    stored runs back (:func:`~tajsim.running.experiments.read_experiment`), so a report
    rewritten in place is the one the run wrote. ``sections`` and ``title`` replace the
    file's ``[report]`` ones.

    Raises
    ------
    UserError
        A file cannot be written (the runs are kept).
    """
    exp = data.experiment
    detail = log or (lambda _msg: None)
    try:
        if not data.summaries.empty:
            write_csv(data.summaries, out_dir / "summary.csv")
        if exp.path.resolve() != (out_dir / "experiment.toml").resolve():
            atomic_write(out_dir / "experiment.toml", exp.path.read_bytes())
        cache = AnalysisCache(data.results, exp.game)
        if exp.analyses:
            outputs = run_analyses(data.results, list(exp.analyses), exp.game, cache)
            folder = out_dir / "analyses"
            folder.mkdir(exist_ok=True)
            for name, value in outputs.items():
                _save_output(folder, str(name), value)
            detail(f"analyses: {len(outputs)} tables in {folder}")
        if sections is None and exp.sections is not None:
            sections = list(exp.sections)
        report = build_report(data.results, out_dir, title=title or exp.title,
                              config=data.config,
                              sections=sections, game=exp.game, cache=cache,
                              board_components=data.components, progress=echo)
    except OSError as exc:
        raise UserError(f"cannot write into {str(out_dir)!r} ({exc.strerror or exc}); every "
                        "run is kept in runs/: fix the folder and run the same command again "
                        "(it plays nothing, only writes the report)") from None
    return report


def select_runs(exp: Experiment, names: Sequence[str]) -> Experiment:
    """``exp`` with only the runs ``names`` (``tajsim run --only``), in the file's order; a name
    that is not one of its runs is a one-line ``UserError`` that lists them."""
    known = [r.name for r in exp.runs]
    for name in names:
        if name not in known:
            raise UserError(f"--only {name!r} is not a run of {exp.path}; expected one of "
                            f"{', '.join(known)}")
    return dataclasses.replace(exp, runs=tuple(r for r in exp.runs if r.name in names))


def check_experiment_folder(out_dir: Path, exp: Experiment, owner: Owner, *,
                            given_out: bool = True, restart: bool = False,
                            report: bool = True) -> bool:
    """Refuse, in one ``UserError``, to write ``exp`` at ``owner.scale`` into a folder holding
    this experiment's report made otherwise: a quick look (``--scale`` other than 1) over the
    experiment's own report, over a quick look at another scale (unless ``restart``: played
    again at the new scale), and any run over the report of another version of the experiment
    file (its stored ``experiment.toml`` says other settings; unless ``report`` is False: a
    run that plays some of the file's runs and writes no report replaces none).
    Returns True where the folder holds this experiment's quick look and the run may replace
    it (the experiment's own run, or ``restart``); False otherwise (the folder is then checked
    as any other, see :func:`check_output_folder`)."""
    found = read_owner(out_dir)
    if found is None or (found.command, found.of, found.game) != \
            (owner.command, owner.of, owner.game):
        return False
    where = f"--out {str(out_dir)!r}" if given_out else f"{str(out_dir)!r} (the default --out)"
    if owner.scale is not None and found.scale is None:
        raise UserError(f"{where} holds the full report of experiment {exp.name!r}; a run at "
                        f"--scale {owner.scale:g} would replace it: expected --out DIR for a "
                        "quick look (or --force to replace it)")
    if owner.scale is not None and found.scale != owner.scale and not restart:
        raise UserError(f"{where} holds the report of experiment {exp.name!r} at --scale "
                        f"{found.scale:g}; a run at --scale {owner.scale:g} would replace it: "
                        f"expected --restart to play it again at --scale {owner.scale:g}, or "
                        "another --out")
    stored = out_dir / "experiment.toml"
    if report and stored.is_file() and _settings(stored) != _settings(exp.path):
        raise UserError(f"{where} holds the report of another version of {exp.path} (its "
                        "experiment.toml there has other settings); expected --out DIR for "
                        "this one (or --force to replace that report)")
    return found.scale is not None and found.scale != owner.scale


def _settings(path: Path) -> Any:
    """An experiment file's settings (its TOML, comments and layout aside); None if it cannot
    be read."""
    import tomllib

    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def default_report_dir(exp: Experiment) -> Path:
    """``reports/<name>`` for Taj Mahal (the default game), ``reports/<game>/<name>`` for the
    others."""
    return report_dir(exp.game, exp.name)


def report_dir(game: str, name: str) -> Path:
    """Where a report named ``name`` of ``game`` goes by default (``tajsim run`` and ``tajsim
    report``): ``reports/<name>``, or ``reports/<game>/<name>`` for a game other than Taj
    Mahal."""
    if game == DEFAULT_GAME:
        return Path("reports") / name
    return Path("reports") / game / name


def _save_output(folder: Path, name: str, value: Any) -> None:
    safe = re.sub(r"[^A-Za-z0-9_.-]", "_", name)
    if isinstance(value, pd.DataFrame):
        write_csv(value, folder / f"{safe}.csv")
    elif isinstance(value, pd.Series):
        write_csv(value.to_frame(), folder / f"{safe}.csv", index=True)
    elif isinstance(value, dict):
        for key, item in value.items():
            _save_output(folder, f"{safe}_{key}", item)
