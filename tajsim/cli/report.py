"""``tajsim report RESULTS --out DIR``: the Markdown + HTML report of simulated games.

RESULTS is a Parquet file, a directory of Parquet files, a run directory of ``tajsim simulate``
(read with ``load_results``: every chunk verified, only finished chunks; its ``manifest.json``
supplies the run configuration for the captions), a folder holding run directories (an
experiment's ``reports/NAME``), or a CSV file. Problems a user can fix (a missing or unreadable
file, a corrupt chunk, missing columns) are reported as one line; an incomplete run is said in
one line and in the report's overview. A run made with ``--no-records`` gets the sections its
verified sums support (win rates, score composition), and its overview names the others. One line
per section goes to stderr as it is computed (not with ``-q``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import numpy as np
import pandas as pd

from tajsim.cli.options import Echo, on_interrupt, verbosity_options
from tajsim.errors import UserError
from tajsim.running.run_files import MANIFEST

__all__ = ["command", "find_config", "read_results"]


def _normalise(frame: pd.DataFrame) -> pd.DataFrame:
    """Dtypes the analyses expect, whatever the file format kept."""
    frame = frame.reset_index(drop=True)
    if "edition" in frame.columns:
        frame["edition"] = frame["edition"].astype(str).astype("category")
    if "strategy" in frame.columns:
        frame["strategy"] = frame["strategy"].astype(str).astype("category")
    for col in frame.columns:
        if col == "winner" or col.startswith("tile_won_v"):
            if frame[col].dtype == object or str(frame[col].dtype) in ("str", "string"):
                text = frame[col].astype(str).str.strip().str.lower()
                frame[col] = text.map(_BOOLEAN_TEXT).fillna(False).astype(bool)
            else:
                frame[col] = frame[col].astype(bool)
    return frame


def _read_runs(folder: Path, runs: list[Path]) -> pd.DataFrame:
    """The verified results of the run directories ``runs`` under ``folder`` (one frame; the
    completeness of all of them in ``attrs["run_status"]``); loose Parquet files beside them
    are read too."""
    from tajsim.running.records import concat_results, read_parquet_files
    from tajsim.running.run_reading import load_results

    frames, statuses = [], []
    for run in runs:
        frame = load_results(run)
        statuses.append(frame.attrs.get("run_status", {}))
        frames.append(frame)
    inside = [r.resolve() for r in runs]
    loose = sorted(f for f in folder.rglob("*.parquet") if not f.name.startswith(".")
                   and not any(r in f.resolve().parents for r in inside))
    if loose:
        frames.append(read_parquet_files(loose))
    frame = frames[0] if len(frames) == 1 else concat_results(frames)
    if len(statuses) == 1:
        frame.attrs["run_status"] = statuses[0]
    elif statuses:
        total = {key: sum(int(s.get(key, 0)) for s in statuses)
                 for key in ("chunks", "chunks_finished", "games", "games_finished")}
        complete = all(s.get("complete", True) for s in statuses)
        word = "complete" if complete else "incomplete"
        message = (f"{word} runs: {total['chunks_finished']} of {total['chunks']} chunks "
                   f"({total['games_finished']:,} of {total['games']:,} games) in {len(runs)} "
                   "runs")
        frame.attrs["run_status"] = {"out": str(folder), **total, "complete": complete,
                                     "message": message}
    return frame


def _written_by_tajsim(folder: Path) -> bool:
    """Whether ``folder`` is a run directory ``tajsim simulate`` wrote (its chunks are then
    verified), not a folder of Parquet files with a hand-made ``manifest.json`` for the
    captions."""
    if (folder / "aggregates").is_dir():
        return True
    try:
        return "code" in json.loads((folder / MANIFEST).read_text())
    except (OSError, ValueError, TypeError):
        return True  # unreadable: load_results says so in one line


def read_results(path: str | Path) -> pd.DataFrame:
    """Read a results frame from a run directory, a folder of run directories, a Parquet file,
    a directory of Parquet files, or a CSV file.

    A run directory's chunks are verified and only its finished chunks read
    (``tajsim.running.run_reading.load_results``); ``frame.attrs["run_status"]`` then says how
    complete it is, and an incomplete run gives one ``IncompleteRunWarning``.

    Raises
    ------
    UserError
        The path does not exist, holds no Parquet file, cannot be read, holds a corrupt chunk,
        or lacks the columns a report needs.
    """
    from tajsim.reporting.report import REQUIRED_COLUMNS

    p = Path(path)
    if not p.exists():
        raise UserError(f"RESULTS {str(p)!r} does not exist; expected a Parquet file, a "
                        "directory of Parquet files or a CSV file")
    try:
        if p.is_dir():
            runs = sorted({m.parent for m in p.rglob(MANIFEST)
                           if not any(part.startswith(".") for part in m.parts)
                           and _written_by_tajsim(m.parent)})
            if runs:
                frame = _read_runs(p, runs)
            else:
                files = sorted(f for f in p.rglob("*.parquet") if not f.name.startswith("."))
                if not files:
                    raise UserError(f"RESULTS directory {str(p)!r} holds no .parquet file; "
                                    "expected the output directory of a run with records")
                from tajsim.running.records import read_parquet_files

                frame = read_parquet_files(files)
        elif p.suffix.lower() == ".csv":
            frame = pd.read_csv(p)
        else:
            frame = pd.read_parquet(p)
    except UserError:
        raise
    except Exception as exc:  # noqa: BLE001 - any reader failure is a bad input file
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise UserError(f"RESULTS {str(p)!r} cannot be read ({reason}); expected a Parquet "
                        "file, a directory of Parquet files or a CSV file") from None
    missing = [c for c in REQUIRED_COLUMNS if c not in frame.columns]
    if missing:
        raise UserError(f"RESULTS {str(p)!r} lacks columns {', '.join(missing)}; expected the "
                        "results schema (docs/results-schema.md)")
    if frame.empty:
        raise UserError(f"RESULTS {str(p)!r} holds no rows; expected at least one game")
    for column, values in _check_values(frame, str(p)).items():
        frame[column] = values  # a CSV's or a hand-made file's text or floats, as numbers
    frame = _normalise(frame)
    from tajsim.analysis.frames import validate_games

    try:
        validate_games(frame)
    except ValueError as exc:
        raise UserError(f"RESULTS {str(p)!r}: {exc}") from None
    return frame


#: The report's integer columns and what each must hold.
_INTEGER_COLUMNS = {"game_id": "whole numbers from 0", "n_players": "whole numbers from 1",
                    "seat": "whole numbers from 0 to n_players - 1",
                    "rank": "whole numbers from 1 to n_players"}
#: A boolean column's texts (a CSV's, a hand-made file's) and what they mean.
_BOOLEAN_TEXT = {"true": True, "1": True, "1.0": True, "false": False, "0": False, "0.0": False}


def _check_values(frame: pd.DataFrame, where: str) -> dict[str, pd.Series]:
    """The report's columns hold what the results schema says (a one-line ``UserError``
    naming the column, a bad value and how many rows hold one): a file edited by hand or by
    another tool is refused before anything is written, not half-reported or averaged over
    its NaNs. Returns the columns that were not numbers already (text, objects) as numbers;
    integer columns of a run are checked in place, without a copy."""
    def refuse(column: str, bad: pd.Series, expected: str) -> None:
        value = bad.iloc[0]
        value = value.item() if isinstance(value, np.generic) else value
        raise UserError(f"RESULTS {where!r}: column {column} holds {value!r} "
                        f"({len(bad):,} row{'s' if len(bad) != 1 else ''}); expected "
                        f"{expected} (docs/results-schema.md)")

    numbers: dict[str, pd.Series] = {}
    converted: dict[str, pd.Series] = {}
    for column in ("game_id", "n_players", "seat", "rank", "score"):
        raw = frame[column]
        if raw.dtype.kind in "iu":
            numbers[column] = raw  # a run's own column: no NaN, whole numbers
            continue
        values = pd.to_numeric(raw, errors="coerce")
        values = values.astype(np.float64) if values.dtype.kind not in "iu" else values
        bad = ~np.isfinite(values)
        if bad.any():
            refuse(column, raw[bad], "finite numbers")
        if column in _INTEGER_COLUMNS:
            fraction = values != np.floor(values)
            if fraction.any():
                refuse(column, raw[fraction], _INTEGER_COLUMNS[column])
            values = values.astype(np.int64)
        numbers[column] = values
        if raw.dtype.kind not in "iuf" or column in _INTEGER_COLUMNS:
            converted[column] = values
    n = numbers["n_players"]
    for column, low, high in (("game_id", 0, None), ("n_players", 1, None),
                              ("seat", 0, n - 1), ("rank", 1, n)):
        outside = numbers[column] < low
        if high is not None:
            outside |= numbers[column] > high
        if outside.any():
            refuse(column, frame[column][outside], _INTEGER_COLUMNS[column])
    winner = frame["winner"]
    if winner.dtype != bool:
        text = winner.astype(str).str.strip().str.lower()
        bad = ~text.isin(list(_BOOLEAN_TEXT))
        if bad.any():
            refuse("winner", winner[bad], "true or false (or 1 and 0)")
    return converted


def _read_config_file(path: Path) -> dict[str, Any]:
    try:
        if path.suffix.lower() == ".toml":
            import tomllib

            data = tomllib.loads(path.read_text(encoding="utf-8"))
        else:
            data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise UserError(f"config {str(path)!r} cannot be read ({exc}); expected a JSON or "
                        "TOML file") from None
    if not isinstance(data, dict):
        raise UserError(f"config {str(path)!r} is not a table; expected a JSON object or TOML")
    if "config" in data and isinstance(data["config"], dict):  # a run's manifest.json
        config = dict(data["config"])
        for key in ("strategies", "components", "game"):
            if key in data:
                config[key] = data[key]
        for key in ("strategy_ids", "strategy_params", "chunk_size", "records"):
            config.pop(key, None)
        return config
    return data


def find_config(results_path: str | Path) -> dict[str, Any]:
    """The run configuration beside the results: ``manifest.json`` (a run directory) or
    ``config.json`` / ``config.toml`` in the results directory (or the file's directory), else
    an empty dict."""
    p = Path(results_path)
    folder = p if p.is_dir() else p.parent
    for name in (MANIFEST, "config.json", "config.toml"):
        candidate = folder / name
        if candidate.is_file():
            return _read_config_file(candidate)
    return {}


def recorded_games(results: str | Path) -> dict[str, Path]:
    """The games the tajsim run manifests under RESULTS record: game -> the first manifest
    naming it (empty for a file, or a folder without run manifests)."""
    p = Path(results)
    if not p.is_dir():
        return {}
    found: dict[str, Path] = {}
    for manifest in sorted(p.rglob(MANIFEST)):
        if any(part.startswith(".") for part in manifest.relative_to(p).parts):
            continue
        try:
            game = json.loads(manifest.read_text()).get("game")
        except (OSError, ValueError, AttributeError):
            continue  # read_results says what is wrong with it
        if isinstance(game, str):
            found.setdefault(game, manifest)
    return found


def _report_game(results: Path, game: str | None, config: dict[str, Any],
                 config_path: Path | None) -> Any:
    """The spec of the game to report: the one the run manifests under RESULTS record; --game
    (or a --config's game) only where it agrees with them (a Maharaja report of Taj Mahal
    games would silently drop every Taj Mahal section)."""
    from tajsim.games.registry import get_game

    recorded = {get_game(name).name: where for name, where in recorded_games(results).items()}
    if len(recorded) > 1:
        raise UserError(f"RESULTS {str(results)!r} holds runs of several games "
                        f"({', '.join(sorted(recorded))}); expected the runs of one game")
    asked, source = (game, f"--game {game}") if game is not None else \
        (config.get("game"), f"--config {config_path}" if config_path else None)
    if recorded:
        [(name, where)] = recorded.items()
        spec = get_game(name)
        if asked is not None and get_game(asked).name != spec.name:
            raise UserError(f"{source} does not match RESULTS {str(results)!r}: {where} "
                            f"records {spec.title} games (game {spec.name}); expected --game "
                            f"{spec.name}, or no --game")
        return spec
    return get_game(asked)


def _section_help() -> str:
    from tajsim.reporting.sections import GENERIC_SECTIONS

    return ("Only this section (repeatable): " + ", ".join(GENERIC_SECTIONS)
            + ", or one of the game's own (tajsim report --list-sections --game GAME).")


def _list_sections(spec: Any) -> None:
    """Print the report's sections of ``spec``'s game, in report order, with what each
    shows."""
    from tajsim.reporting.sections import sections_for

    entries = sections_for(spec)
    width = max(len(name) for name in entries)
    click.echo(f"The sections of a {spec.title} report, in order (--section NAME writes only "
               "those named; a section the results cannot support is left out):")
    for name, (_function, what) in entries.items():
        click.echo(f"  {name:<{width}}  {what}")


@click.command("report")
@click.argument("results", type=click.Path(path_type=Path), required=False)
@click.option("--out", "-o", "out_dir", default=None, type=click.Path(path_type=Path),
              help="Directory for report.md, report.html, fig_*.png and table_*.csv: empty, "
                   "or this same report's earlier output (see --force). Default: "
                   "reports/<name of RESULTS>, or reports/<game>/<name> for a game other than "
                   "Taj Mahal, as tajsim run.")
@click.option("--force", is_flag=True,
              help="Write into --out even if it holds other files or another report (files "
                   "of the same names are replaced).")
@click.option("--list-sections", is_flag=True,
              help="List the sections of the game's report (the game of RESULTS, or --game) "
                   "and stop.")
@click.option("--game", "-g", default=None, metavar="GAME",
              help="The game of the results (default: the one the run directories record, "
                   "else Taj Mahal); refused if the runs record another.")
@click.option("--title", default=None, help="Report title (default: from the results name).")
@click.option("--config", "config_path", type=click.Path(path_type=Path), default=None,
              help="Run configuration (JSON or TOML) for the captions; default: manifest.json "
                   "or config.json/.toml beside the results.")
@click.option("--section", "sections", multiple=True, help=_section_help())
@verbosity_options
def command(results: Path | None, out_dir: Path | None, force: bool, list_sections: bool,
            game: str | None, title: str | None, config_path: Path | None,
            sections: tuple[str, ...], quiet: bool, verbose: bool) -> None:
    """Write the Markdown + HTML report of RESULTS (a run directory, a Parquet file, a directory
    of Parquet files, or CSV) into --out (default: reports/<name of RESULTS>).

    --out is marked as this report's (.tajsim-output.json): a folder holding anything else is
    refused, never overwritten, unless --force. Every file is written whole or not at all (a
    full disk keeps the old one)."""
    from tajsim.cli.simulate import catch_warnings, echo_warnings
    from tajsim.reporting.outputs import (
        Owner,
        check_output_folder,
        claim_output_folder,
        read_owner,
        release_output_folder,
    )
    from tajsim.reporting.report import build_report
    from tajsim.reporting.sections import section_names
    from tajsim.running.experiments import KEPT_RUNS_FOLDER, RUNS_FOLDER

    echo = Echo(quiet, verbose)
    if config_path is not None:
        if not config_path.is_file():
            what = "is a folder" if config_path.is_dir() else "does not exist"
            raise UserError(f"--config {str(config_path)!r} {what}; expected a JSON or TOML "
                            "file")
        config = _read_config_file(config_path)
    elif results is not None:
        config = find_config(results)
    else:
        config = {}
    if results is None:
        if not list_sections:
            raise UserError("RESULTS is missing; expected a run directory, a Parquet or CSV "
                            "file (or --list-sections)")
        from tajsim.games.registry import get_game

        spec = get_game(game if game is not None else config.get("game"))
    else:
        if not results.exists():
            read_results(results)  # its one-line error: no game's sections of a missing path
        spec = _report_game(results, game, config, config_path)
    if list_sections:
        _list_sections(spec)
        return
    assert results is not None
    if out_dir is None:
        from tajsim.reporting.experiments import report_dir

        out_dir = report_dir(spec.name, results.resolve().name if results.is_dir()
                             else results.stem)
    valid = section_names(spec)
    unknown = [s for s in sections if s not in valid]
    if unknown:
        raise UserError(f"--section {unknown[0]!r} is unknown for {spec.title}; expected one "
                        f"of {', '.join(valid)}")
    owner = Owner("report", str(results.resolve()), spec.name)
    found = read_owner(out_dir)
    if found is not None and found.command == "run" and \
            out_dir.resolve() == results.resolve():
        owner = found  # an experiment's report written again from its own runs, in place
        # ... the experiment's report, as its file asks: its sections and its title
        asked = experiment_report(results)
        if not sections and asked.get("sections"):
            sections = tuple(s for s in asked["sections"] if s in valid)
            echo.detail(f"sections of the experiment ({results / 'experiment.toml'}): "
                        f"{', '.join(sections)}")
        if title is None and asked.get("title"):
            title = asked["title"]
    check_output_folder(out_dir, owner, force=force)
    if not results.exists():
        read_results(results)  # its one-line error, before anything is created
    created = not out_dir.exists()
    claim_output_folder(out_dir, owner, force=force)  # before the read: an unwritable --out
    on_interrupt(f"the report in {out_dir} is not finished (every file written there is "
                 "whole); run the same command again")
    if owner is found and (results / "experiment.toml").is_file() and \
            any((results / f).is_dir() for f in (RUNS_FOLDER, KEPT_RUNS_FOLDER)):
        _rewrite_experiment_report(results, sections, title, echo)
        return
    if _without_records(results):
        _report_from_aggregates(results, out_dir, spec, title, config, sections, quiet, verbose,
                                echo)
        return
    with catch_warnings() as caught:
        try:
            frame = read_results(results)
        except UserError:
            echo_warnings(caught, echo)
            if created or found is None:  # results that cannot be read leave no folder
                release_output_folder(out_dir, keep_folder=not created)  # and no mark behind
            raise
    echo_warnings(caught, echo)
    status = frame.attrs.get("run_status")
    echo.detail(f"read {frame['game_id'].nunique() if 'game_id' in frame else len(frame):,} "
                f"games ({len(frame):,} rows) from {results}"
                + (f": {status['message']}, every chunk verified" if status else ""))
    echo.detail(f"game: {spec.title}; sections: {', '.join(sections) if sections else 'all'}"
                + (f"; configuration from {config_path or 'beside the results'}" if config
                   else ""))
    if title is None:
        name = config.get("name") or (results.name if results.is_dir() else results.stem)
        title = f"tajsim report: {name}"
    with catch_warnings() as caught:
        try:
            path = build_report(frame, out_dir, title=title, config=config,
                                sections=list(sections) or None, game=spec,
                                progress=Echo(quiet, verbose, err=True).say)
        except OSError as exc:
            raise UserError(f"cannot write the report into {str(out_dir)!r} "
                            f"({exc.strerror or exc}); every file there is whole (the new one "
                            "or the one before): make room or fix the folder, then run the "
                            "same command again") from None
    echo_warnings(caught, echo)
    echo.detail(f"figures fig_*.png and tables table_*.csv in {out_dir}")
    if not quiet:
        click.echo(f"wrote {path} and {path.with_suffix('.html')}")


def _rewrite_experiment_report(folder: Path, sections: tuple[str, ...], title: str | None,
                               echo: Echo) -> None:
    """An experiment's report written again in place from its stored runs, as ``tajsim run``
    wrote it (its runs labelled, its analyses, its ``[report]``), playing nothing."""
    from tajsim.cli.simulate import catch_warnings, echo_warnings
    from tajsim.reporting.experiments import write_experiment_report
    from tajsim.running.experiments import load_experiment, read_experiment

    exp = load_experiment(folder / "experiment.toml")
    with catch_warnings() as caught:
        data = read_experiment(exp, folder)
    echo_warnings(caught, echo)
    data.config["experiment"] = _experiment_file_of(folder / "experiment.toml")
    echo.detail(f"read {len(data.results):,} rows from the {len(exp.runs)} stored "
                f"run{'s' if len(exp.runs) != 1 else ''} of {exp.name}")
    path = write_experiment_report(data, folder, echo=Echo(echo.quiet, echo.verbose,
                                                           err=True).say,
                                   log=echo.detail, sections=list(sections) or None,
                                   title=title)
    if not echo.quiet:
        click.echo(f"wrote {path} and {path.with_suffix('.html')}")


def _experiment_file_of(copy: Path) -> str:
    """The experiment file a report's stored copy was taken from: a file of the same bytes
    under ``./experiments`` (the report then names it as ``tajsim run`` did), else the copy."""
    content = copy.read_bytes()
    shipped = Path("experiments")
    if shipped.is_dir():
        for candidate in sorted(shipped.rglob("*.toml")):
            if candidate.stat().st_size == len(content) and candidate.read_bytes() == content:
                return str(candidate)
    return str(copy)


def experiment_report(folder: Path) -> dict[str, Any]:
    """What the experiment file stored in ``folder`` (``tajsim run``'s copy, experiment.toml)
    asks of its report: ``sections`` (its ``[report] sections``) and ``title`` (``[report]
    title``, else its title), where it says; empty if there is no readable file."""
    import tomllib

    try:
        doc = tomllib.loads((folder / "experiment.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    found = doc.get("report")
    report: dict[str, Any] = found if isinstance(found, dict) else {}
    asked: dict[str, Any] = {}
    sections = report.get("sections")
    if isinstance(sections, list) and all(isinstance(x, str) for x in sections):
        asked["sections"] = sections
    title = report.get("title", doc.get("title"))
    if isinstance(title, str):
        asked["title"] = title
    return asked


def _without_records(results: Path) -> bool:
    """Whether ``results`` is a run directory that ``tajsim simulate --no-records`` wrote (its
    manifest says ``records: false``): it has sums, no per-game rows."""
    try:
        manifest = json.loads((results / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False  # not a run directory, or an unreadable one: read_results says which
    return isinstance(manifest, dict) and isinstance(manifest.get("config"), dict) \
        and manifest["config"].get("records") is False


def _report_from_aggregates(results: Path, out_dir: Path, spec: Any, title: str | None,
                            config: dict[str, Any], sections: tuple[str, ...], quiet: bool,
                            verbose: bool, echo: Echo) -> None:
    """The report of a run without records: the sections its verified sums support."""
    from tajsim.cli.simulate import catch_warnings, echo_warnings
    from tajsim.reporting.aggregate_report import build_aggregate_report
    from tajsim.running.run_reading import load_aggregates

    with catch_warnings() as caught:
        try:
            agg = load_aggregates(results)
        except UserError:
            echo_warnings(caught, echo)
            raise
    echo_warnings(caught, echo)
    if agg is None:
        raise UserError(f"RESULTS {str(results)!r} holds no finished chunk; expected a run "
                        "with at least one")
    echo.detail(f"read the sums of {agg.games:,} games from {results} (a run without records)")
    with catch_warnings() as caught:
        path = build_aggregate_report(
            agg, out_dir, title=title or f"tajsim report: {config.get('name') or results.name}",
            config=config, sections=list(sections) or None, game=spec,
            progress=Echo(quiet, verbose, err=True).say)
    echo_warnings(caught, echo)
    if not quiet:
        click.echo(f"wrote {path} and {path.with_suffix('.html')} (a run without records: "
                   "win rates and score composition only)")
