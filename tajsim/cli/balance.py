"""``tajsim balance``: search the seat compensation that brings every seat to parity, verify it
on fresh games and write the report (issue 40, section 1; :mod:`tajsim.analysis.compensation`).

Settings come from the command line or from an experiment file with ``kind = "compensation"``
and a ``[compensation]`` table (``experiments/maharani/compensation.toml``); flags given beside
a file override it.
"""

from __future__ import annotations

import time
import tomllib
from pathlib import Path
from typing import Any

import click

from tajsim.cli.options import Echo, check_workers, game_option, verbosity_options
from tajsim.engine.compensation import amount_text
from tajsim.errors import UserError

#: The ``[compensation]`` keys of an experiment file, with their types and defaults.
SETTINGS: dict[str, tuple[type | tuple[type, ...], Any]] = {
    "players": (list, None),  # None: every count the game allows
    "strategy": (str, None),
    "other_strategy": (str, ""),
    "search_games": (int, 3000),
    "max_candidates": (int, 10),
    "refine_games": (int, 0),
    "refine_top": (int, 4),
    "finest": ((int, float), 0.25),
    "verify_games": (int, 16000),
    "other_games": (int, 6000),
    "seed": (int, 1),
    "verify_seed": (int, 20260),
    "margin": (float, 0.01),
    "looks": (int, 1),
}
#: The settings a player count may override (``[compensation.at.N]``): another look at one
#: table size takes more games and fresh verification games without replaying the others'.
PER_COUNT = ("search_games", "max_candidates", "refine_games", "refine_top", "verify_games",
             "other_games", "verify_seed", "looks")
TOP_KEYS = ("name", "title", "description", "game", "kind", "compensation")


def read_settings(path: Path) -> dict[str, Any]:
    """A ``kind = "compensation"`` experiment file's settings; one-line ``UserError`` if bad."""
    try:
        raw = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise UserError(f"{path}: cannot read it ({exc}); expected a TOML experiment file") \
            from None
    if raw.get("kind") != "compensation":
        raise UserError(f"{path}: kind = {raw.get('kind')!r}; expected kind = \"compensation\" "
                        "(other experiments run with tajsim run)")
    for key in raw:
        if key not in TOP_KEYS:
            raise UserError(f"{path}: key {key!r}; expected one of {', '.join(TOP_KEYS)}")
    table = raw.get("compensation", {})
    if not isinstance(table, dict):
        raise UserError(f"{path}: compensation = {table!r}; expected a [compensation] table")
    out: dict[str, Any] = {"game": raw.get("game"), "title": raw.get("title"),
                           "name": raw.get("name")}
    for key, value in table.items():
        if key == "at":
            out["at"] = _read_overrides(path, value)
            continue
        if key not in SETTINGS:
            raise UserError(f"{path}: compensation.{key}; expected one of "
                            f"{', '.join(SETTINGS)} or an [compensation.at.N] table")
        out[key] = _checked(path, f"compensation.{key}", key, value)
    return out


def _checked(path: Path, where: str, key: str, value: Any) -> Any:
    kind = SETTINGS[key][0]
    ok = isinstance(value, kind) and not isinstance(value, bool) or (
        kind is float and isinstance(value, int) and not isinstance(value, bool))
    if not ok:
        raise UserError(f"{path}: {where} = {value!r}; expected "
                        f"{getattr(kind, '__name__', kind)}")
    return value


def _read_overrides(path: Path, table: Any) -> dict[int, dict[str, Any]]:
    """``[compensation.at.N]`` tables: per player count, the settings of :data:`PER_COUNT`."""
    if not isinstance(table, dict):
        raise UserError(f"{path}: compensation.at = {table!r}; expected tables "
                        "[compensation.at.N] of a player count N")
    out: dict[int, dict[str, Any]] = {}
    for count, settings in table.items():
        if not str(count).isdigit() or not isinstance(settings, dict):
            raise UserError(f"{path}: compensation.at.{count}; expected a table "
                            "[compensation.at.N] of a player count N")
        for key, value in settings.items():
            if key not in PER_COUNT:
                raise UserError(f"{path}: compensation.at.{count}.{key}; expected one of "
                                f"{', '.join(PER_COUNT)}")
            _checked(path, f"compensation.at.{count}.{key}", key, value)
        out[int(count)] = dict(settings)
    return out


def at_count(settings: dict[str, Any], players: int) -> dict[str, Any]:
    """The settings of one player count: the study's, with its ``[compensation.at.N]``."""
    return {**settings, **settings.get("at", {}).get(players, {})}


def resolve(experiment: Path | None, game: str, players: str | None,
            given: dict[str, Any]) -> tuple[Any, list[int], dict[str, Any], str | None, str]:
    """The study's settings (a file's, then the flags given) checked before anything is
    played: ``(spec, player counts, settings, title, name)``; one-line ``UserError`` if bad."""
    from tajsim.games.registry import get_game

    settings: dict[str, Any] = {k: default for k, (_, default) in SETTINGS.items()}
    settings["at"] = {}
    title = None
    name = "command line"
    if experiment is not None:
        from_file = read_settings(experiment)
        title = from_file.pop("title")
        name = from_file.pop("name") or experiment.stem
        file_game = from_file.pop("game")
        if file_game is not None:
            game = file_game
        settings.update(from_file)
    flags = {k: v for k, v in given.items() if v is not None}
    settings.update(flags)
    # a flag overrides the file, its [compensation.at.N] tables included
    settings["at"] = {n: {k: v for k, v in table.items() if k not in flags}
                      for n, table in settings["at"].items()}
    spec = get_game(game)
    if spec.compensation is None:
        raise UserError(f"--game {game}: {spec.title} declares no seat compensation; expected "
                        "tajmahal, maharaja or maharani")
    if players is not None:
        try:
            settings["players"] = [int(p) for p in str(players).split(",")]
        except ValueError:
            raise UserError(f"--players {players!r}; expected comma-separated player counts") \
                from None
    low, high = spec.player_range()
    counts = settings["players"] or list(range(low, high + 1))
    counts = [spec.check_players(n) for n in counts]
    if not settings["strategy"]:
        raise UserError("no strategy; expected --strategies STRATEGY (or compensation.strategy "
                        "in the experiment file)")
    if settings["finest"] not in (1, 0.5, 0.25):
        raise UserError(f"finest = {settings['finest']}; expected 1, 0.5 or 0.25 (the finest "
                        "step of the search, in units of the currency)")
    for n in settings["at"]:
        if n not in counts:
            raise UserError(f"compensation.at.{n}: {n} players is not studied; expected one "
                            f"of the player counts {', '.join(map(str, counts))}")
    for n in counts:
        each = at_count(settings, n)
        where = f" (at {n} players)" if n in settings["at"] else ""
        for key in ("search_games", "verify_games", "other_games", "max_candidates",
                    "refine_top", "looks"):
            if each[key] < 1:
                raise UserError(f"{key} = {each[key]}{where}; expected a positive number")
        if each["refine_games"] < 0:
            raise UserError(f"refine_games = {each['refine_games']}{where}; expected 0 (none) "
                            "or more")
        if each["verify_seed"] in (each["seed"], each["seed"] + 1):
            raise UserError(f"the verification's seed {each['verify_seed']}{where} is the "
                            f"search's ({each['seed']}, or {each['seed'] + 1} when it "
                            "refines); expected fresh games (another seed)")
    for text in filter(None, (settings["strategy"], settings["other_strategy"])):
        spec.strategies.parse(text)
    return spec, counts, settings, title, name


def check_file(path: Path) -> None:
    """Validate a ``kind = "compensation"`` experiment file without playing a game."""
    resolve(Path(path), "tajmahal", None, {})


@click.command("balance")
@click.argument("experiment", required=False, type=click.Path(dir_okay=False, path_type=Path))
@game_option
@click.option("--players", "-p", default=None, metavar="N[,N...]",
              help="Player counts (default: every count the game allows).")
@click.option("--strategies", "-s", "strategies", default=None, metavar="STRATEGY",
              help="The strategy in every seat, the skill level searched for.")
@click.option("--other", "other_strategy", default=None, metavar="STRATEGY",
              help="A second skill level the compensation is also played at.")
@click.option("--games", "search_games", type=int, default=None,
              help="Games a candidate (default 3,000; the same games for every candidate).")
@click.option("--candidates", "max_candidates", type=int, default=None,
              help="The most candidates a player count (default 10).")
@click.option("--refine-games", type=int, default=None,
              help="Play the best candidates again on this many games of another seed and "
                   "choose among them (default 0: no refinement).")
@click.option("--refine-top", type=int, default=None,
              help="The most candidates refined (default 4).")
@click.option("--finest", type=float, default=None,
              help="The finest step of the search in units: 1, 0.5 or 0.25 (default 0.25: a "
                   "fractional amount is drawn per game).")
@click.option("--verify-games", type=int, default=None,
              help="Fresh games of the verification, with and without (default 16,000).")
@click.option("--other-games", type=int, default=None,
              help="Games at the other level, with and without (default 6,000).")
@click.option("--seed", type=int, default=None, help="Master seed of the search (default 1).")
@click.option("--verify-seed", type=int, default=None,
              help="Master seed of the verification (default 20260; not the search's).")
@click.option("--out", "-o", type=click.Path(file_okay=False, path_type=Path), required=True,
              help="Report folder.")
@click.option("--force", is_flag=True,
              help="Write into --out even if it holds another command's output.")
@click.option("--workers", "-w", type=int, default=None, metavar="W",
              help="Local cores to use (default: all).")
@verbosity_options
def command(experiment, game, players, strategies, other_strategy, search_games, max_candidates,
            refine_games, refine_top, finest, verify_games, other_games, seed, verify_seed, out,
            force, workers, quiet, verbose) -> None:
    """Search the per-seat compensation (a VARIANT, not the rules) that brings every seat's
    win share within ±1 point of parity, verify it on fresh games and write the report.

    \b
    Examples:
      tajsim balance experiments/maharani/compensation.toml -o reports/maharani/compensation
      tajsim balance --game maharani -p 4 -s balanced:temperature=0.25 -o /tmp/comp
    """
    from tajsim.analysis.compensation import search_compensation, verify_compensation
    from tajsim.analysis.stats.verdicts import ALPHA
    from tajsim.reporting.compensation_sections import (
        compensation_blocks,
        write_compensation_report,
    )
    from tajsim.reporting.outputs import Owner, claim_output_folder

    echo = Echo(quiet, verbose)
    workers = check_workers(workers)
    given = {"strategy": strategies, "other_strategy": other_strategy,
             "search_games": search_games, "max_candidates": max_candidates,
             "refine_games": refine_games, "refine_top": refine_top, "finest": finest,
             "verify_games": verify_games, "other_games": other_games, "seed": seed,
             "verify_seed": verify_seed}
    spec, counts, settings, title, name = resolve(experiment, game, players, given)
    source = str(experiment) if experiment is not None else "the command line"
    claim_output_folder(out, Owner("balance", name, spec.name), force=force)
    started, cpu0 = time.time(), time.process_time()
    import pandas as pd

    found, other, traces, per_count = [], [], [], []
    for n in counts:
        each = at_count(settings, n)
        alpha = ALPHA / each["looks"]
        per_count.append({"players": n, **{k: each[k] for k in PER_COUNT},
                          "level (alpha)": alpha})
        echo.say(f"{spec.title}, {n} players: searching at {each['strategy']} ...")
        result = search_compensation(
            spec.name, n, each["strategy"], games=each["search_games"],
            seed=each["seed"], max_candidates=each["max_candidates"],
            margin=each["margin"], refine_games=each["refine_games"],
            refine_top=each["refine_top"], finest=each["finest"], workers=workers,
            say=echo.say)
        best = result.chosen
        traces.append(result.trace())
        chosen = ",".join(map(amount_text, best.amounts))
        echo.say(f"  chosen {chosen} (deviation {100 * best.deviation:.2f} points "
                 f"on {best.games:,} games); verifying on {each['verify_games']:,} fresh "
                 f"games (TOST at {100 * alpha:.3g}%)")
        found.append(verify_compensation(
            spec.name, n, each["strategy"], best.amounts, games=each["verify_games"],
            seed=each["verify_seed"], margin=each["margin"], alpha=alpha, workers=workers))
        if each["other_strategy"]:
            other.append(verify_compensation(
                spec.name, n, each["other_strategy"], best.amounts,
                games=each["other_games"], seed=each["verify_seed"],
                margin=each["margin"], workers=workers))
    wall, cpu = time.time() - started, time.process_time() - cpu0
    meta = {"currency": spec.compensation.currency, "why": spec.compensation.why,
            "strategy": settings["strategy"], "other_strategy": settings["other_strategy"],
            "margin": settings["margin"], "search_games": settings["search_games"],
            "search_seed": settings["seed"], "verify_seed": settings["verify_seed"],
            "refine_games": settings["refine_games"], "refine_top": settings["refine_top"],
            "finest": settings["finest"], "per_count": pd.DataFrame(per_count),
            "command": f"tajsim balance {source}" if experiment is not None else
            f"tajsim balance --game {spec.name} -p {','.join(map(str, counts))} -s "
            f"{settings['strategy']}"}
    blocks = compensation_blocks(pd.concat(found, ignore_index=True),
                                 pd.concat(other, ignore_index=True) if other else None,
                                 pd.concat(traces, ignore_index=True), meta, out)
    from tajsim.reporting.render.blocks import Para

    blocks.append(Para(f"Played in {wall:,.0f} s wall, {cpu:,.0f} s of this process's CPU "
                       f"(the kernels' threads included)."))
    write_compensation_report(title or f"{spec.title}: seat compensation", blocks, out)
    echo.say(f"report: {out / 'report.html'}")
