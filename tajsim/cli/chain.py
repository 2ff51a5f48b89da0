"""``tajsim chain``: a skill chain. The game's search climbs its budget by a factor (4) per level,
each step the two levels head to head in every seating, until a step's gain is not significant
(:func:`tajsim.analysis.skill_chain.play_chain`); the table is written after every step
(:func:`tajsim.reporting.skill_chain_sections.write_chain`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from tajsim.cli.options import (
    Echo,
    check_workers,
    edition_option,
    game_option,
    on_interrupt,
    players_option,
    seed_option,
    verbosity_options,
)
from tajsim.errors import UserError

if TYPE_CHECKING:  # pandas loads only when a chain runs, not for tajsim --help
    import pandas as pd

    from tajsim.analysis.skill_chain import StepDesign
    from tajsim.engine.spec import GameSpec

#: The files a chain writes (a folder holding anything else is refused without --force); games/
#: keeps the games of its steps as they are played (--store's default).
CHAIN_FILES = ("chain.csv", "chain.md", "fig_chain.png", "games")
#: Games per step at most (each step keeps its games in memory).
MAX_GAMES = 200_000


def check_chain_folder(out: Path, force: bool, resume: bool = False) -> None:
    """``out`` is a folder (or nothing yet) for a chain, unless ``force``; a one-line
    ``UserError`` otherwise, before any game is played. Refused: a folder holding other files
    than a chain's, and, without ``resume``, one holding a chain already (its ``chain.csv`` or
    ``chain.md``): a new chain would rewrite the table after its first step, so the earlier
    steps (hours of games, the shipped chains in the default folders) would be lost even where
    the design is the same."""
    if out.exists() and not out.is_dir():
        raise UserError(f"--out {str(out)!r} is a file; expected a folder for the chain's files")
    if not out.is_dir() or force:
        return
    foreign = sorted(p.name for p in out.iterdir()
                     if p.name not in CHAIN_FILES and not p.name.startswith("."))
    if foreign:
        raise UserError(f"--out {str(out)!r} holds other files ({', '.join(foreign[:3])}"
                        f"{' ...' if len(foreign) > 3 else ''}); expected an empty folder or "
                        "an earlier chain's (or --force)")
    found = [name for name in ("chain.csv", "chain.md") if (out / name).exists()]
    if found and not resume:
        raise UserError(f"--out {out} holds a chain already ({' and '.join(found)}); "
                        "expected --resume to extend it, another --out, or --force to play "
                        "it again from the start and replace it")


def games_folder(store: str | None, out: Path) -> Path | None:
    """The chain's games folder: ``--store`` (None: ``games/`` in ``out``; ``none``: none)."""
    if store is None:
        return out / "games"
    return None if store.strip().lower() == "none" else Path(store)


def _edition_name(spec: GameSpec, edition: str | None) -> str:
    """The edition's name (the game's default for None)."""
    return spec.editions[spec.edition_index(edition if edition is not None
                                            else spec.default_edition)]


def check_same_design(earlier: dict[str, Any], folder: Path, asked: str = "--resume",
                      **requested: Any) -> None:
    """That the chain in ``folder`` (its "Made with" options, :func:`read_chain`) was played
    with the ``requested`` design (``game``, ``players``, ``start``, ``games``, ``looks``,
    ``interim_p``, ``factor``, ``seed``, ``edition``); a one-line ``UserError`` naming the first
    option that differs, its earlier and its requested value. ``interim_p`` counts only for
    steps of more than one look (a one-look step has no interim look)."""
    from tajsim.games.registry import get_game
    from tajsim.reporting.skill_chain_sections import CHAIN_DESIGN_FLAGS

    def text(name: str, value: Any) -> str:
        if name == "interim_p" and value is None:
            return "0.001"  # the default, not written by chains made before the option
        return f"{value:g}" if isinstance(value, float) else str(value)

    before = dict(earlier)
    if before.get("game") == requested["game"]:  # the edition's name, the default for none
        try:
            before["edition"] = _edition_name(get_game(requested["game"]),
                                              before.get("edition"))
        except UserError:
            pass  # an unknown edition: shown as written, it differs
    for name, flag in CHAIN_DESIGN_FLAGS.items():
        if name == "interim_p" and requested["looks"] == 1:
            continue
        was, now = text(name, before.get(name)), text(name, requested[name])
        if was != now:
            raise UserError(f"{asked}: the chain in {folder} was played with {flag} {was}, "
                            f"this command asks for {flag} {now}; expected the earlier "
                            "chain's design (every option but --max-steps, --workers, --out "
                            "and --store as its chain.md's Made with line gives it)")


def step_line(r: pd.Series, kept: str = "") -> str:
    """A chain table row as ``tajsim chain`` prints it."""
    verdict = f"{'significant' if r.significant else 'not significant'} at {r.level:g}"
    at = f" at look {r.look} of {r.looks}" if r.looks > 1 else ""
    return (f"step {r.step}{kept}{at}: {r.stronger} wins {100 * r.share:.1f}% "
            f"[{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}] against {r.weaker} "
            f"(n = {r.n:,}, one-sided p = {r.p_value:.2g}; Elo gap {r.elo:+.0f} "
            f"[{r.elo_ci_low:+.0f}, {r.elo_ci_high:+.0f}]; upsets "
            f"{100 * r.upset_rate:.1f}%): {verdict}")


def show_status(echo: Echo, spec: GameSpec, players: int, start: str, *, design: StepDesign,
                games: int, looks: int, interim_p: float, factor: float, seed: int,
                edition: str | None, folder: Path, store: str | None) -> None:
    """``tajsim chain --status``: the chain's kept steps (its ``chain.csv``, same design
    checked) and where its next step stands in the games folder, look by look (games stored;
    a whole look's figures and whether it stops the step), playing nothing and writing
    nothing."""
    from tajsim.analysis.skill_chain import chain_levels, stored_step
    from tajsim.reporting.skill_chain_sections import read_chain

    steps = 0
    if (folder / "chain.csv").exists():
        stored = read_chain(folder)
        check_same_design(stored.options, folder, "--status", game=spec.name, players=players,
                          start=start, games=games, looks=looks, interim_p=interim_p,
                          factor=factor, seed=seed, edition=_edition_name(spec, edition))
        if store is None and stored.options.get("store") is not None:
            store = stored.options["store"]
        for _, r in stored.table.iterrows():
            echo.say(step_line(r, " (kept)"))
        steps = len(stored.table)
        if not stored.table.iloc[-1].significant:
            echo.say(f"the chain has ended: step {steps} is not significant")
            return
    step = steps + 1
    levels = chain_levels(spec, start, factor=factor, max_steps=step)
    if len(levels.budgets) - 1 < step:
        echo.say(f"the chain has ended: the budget after {levels.labels[-1]} leaves "
                 f"{levels.param}'s range")
        return
    weaker, stronger = levels.labels[step - 1], levels.labels[step]
    games_store = games_folder(store, folder)
    if games_store is None or not (games_store / f"step-{step}").is_dir():
        echo.say(f"step {step} ({weaker} against {stronger}): no games stored yet"
                 + ("" if games_store is None else f" in {games_store}"))
        return
    table = stored_step(spec.name, players, weaker, stronger, design, step, seed, games_store,
                        edition=edition)
    echo.say(f"step {step}: {weaker} against {stronger}, up to {design.stages[-1]:,} games in "
             f"{design.looks} looks; stored in {games_store}:")
    for _, r in table.iterrows():
        head = (f"  look {r.look} of {design.looks}: {r.stored:,} of its {r.games:,} games "
                "stored")
        if r.complete and r.n > 0:  # whole, with every earlier look (else NaN): figures
            goes = ("stops the step: significant" if r.stops else
                    "ends the chain: not significant" if r.look == design.looks else
                    "not below it: the step goes on")
            echo.say(f"{head}; {int(r.n):,} games so far: {stronger} wins {100 * r.share:.1f}% "
                     f"[{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}] (one-sided p = "
                     f"{r.p_value:.2g} against the look's {r.level:g}; Elo gap {r.elo:+.0f} "
                     f"[{r.elo_ci_low:+.0f}, {r.elo_ci_high:+.0f}]): {goes}")
        else:
            echo.say(head + (" (no verdict: a look counts when it is whole)"
                             if 0 < r.stored else "")
                     + ("; its folder holds games of another design or other engine code, "
                        "which the chain does not use" if r.foreign else ""))


@click.command("chain")
@game_option
@players_option()
@click.option("--start", default=None, metavar="LEVEL",
              help="The first level: the game's search as a strategy text "
                   "(mcts:iterations=25) or a number (its iteration budget). Default: the "
                   "search at its default parameters.")
@click.option("--games", "-n", type=int, default=2000, show_default=True,
              help="Games per step at most, rounded up to whole seatings (2 at two players, "
                   "12 at four).")
@click.option("--looks", type=int, default=4, show_default=True,
              help="Looks per step (group-sequential): after 1/8, 1/4, 1/2 and all of the "
                   "games at 4; a step stops early as significant below --interim-p. 1: one "
                   "look at all the games.")
@click.option("--interim-p", type=float, default=0.001, show_default=True,
              help="Haybittle-Peto boundary of the interim looks; the last look tests at "
                   "0.05 - this x (interim looks).")
@click.option("--max-steps", type=int, default=6, show_default=True,
              help="Steps at most (the chain also ends where the budget leaves its range).")
@click.option("--factor", type=float, default=4.0, show_default=True,
              help="Each level's budget is the previous one's times this.")
@edition_option
@seed_option()
@click.option("--workers", "-w", type=int, default=None, metavar="W",
              help="Local cores to use (default: all).")
@click.option("--out", "-o", default=None, metavar="DIR",
              help="Folder for chain.md, chain.csv and fig_chain.png (default: "
                   "reports/<game>/chain_<N>p; reports/chain_<N>p for Taj Mahal).")
@click.option("--force", is_flag=True,
              help="Write into a folder that holds other files, or play a new chain over the "
                   "one in it (replaced after the first step).")
@click.option("--store", default=None, metavar="DIR",
              help="Folder that keeps every step's games as they are played, in resumable "
                   "runs (default: games/ in --out; 'none': keep nothing). A chain stopped in "
                   "the middle of a step plays only the missing games when the same command "
                   "runs again (with --resume once a step has finished).")
@click.option("--resume", is_flag=True,
              help="Extend the chain already in --out (its chain.csv and chain.md): the same "
                   "design (every option but --max-steps, --workers, --out, --store), its steps "
                   "kept, not played again; play goes on at the next step with the seeds the "
                   "chain played in one go uses, up to a larger --max-steps.")
@click.option("--status", is_flag=True,
              help="Play nothing: print the chain's kept steps and where its next step stands "
                   "in the games folder, look by look (the same design options as --resume).")
@verbosity_options
def command(game: str, players: int | None, start: str | None, games: int, looks: int,
            interim_p: float, max_steps: int, factor: float, edition: str | None, seed: int,
            workers: int | None, out: str | None, force: bool, store: str | None, resume: bool,
            status: bool, quiet: bool, verbose: bool) -> None:
    """Skill chain: the game's search at 4 times the budget per level, each step played head
    to head in every seating, until a step's gain is not significant (one-sided score test at
    5%; each step in --looks group-sequential looks, stopping early as significant below
    --interim-p, the last look at 5% less the interim looks' levels). Prints and writes each
    step's win share of the stronger level (Wilson 95%), its Elo-like gap and the upset rate,
    with n; the chain's length is the number of significant steps.

    \b
    Examples:
      tajsim chain --game maharani -p 2 --start 25 --games 2000 -o mine
      tajsim chain --game maharaja -p 4 --start turnsearch:iterations=2 --max-steps 3 -o m4
      tajsim chain --game tajmahal -p 4 --start ismcts:iterations=50 --looks 1 -o t4
      tajsim chain --game maharani -p 2 --start 25 --games 2000 --max-steps 8 -o mine --resume
    """
    import shlex
    import time

    from tajsim.analysis.skill_chain import (
        chain_levels,
        check_kept_steps,
        play_chain,
        step_design,
    )
    from tajsim.analysis.skill_matches import match_block
    from tajsim.cli.profile import cpu_seconds
    from tajsim.cli.simulate import catch_warnings, echo_warnings
    from tajsim.games.registry import get_game
    from tajsim.reporting.experiments import report_dir
    from tajsim.reporting.skill_chain_sections import read_chain, write_chain

    echo = Echo(quiet, verbose)
    workers = check_workers(workers)
    if not 1 <= games <= MAX_GAMES:
        raise UserError(f"--games {games} is not allowed; expected 1 to {MAX_GAMES:,} games per "
                        "step")
    spec = get_game(game)
    players = spec.players_or_default(players, edition)
    if looks < 1 or looks > 10:
        raise UserError(f"--looks {looks} is not allowed; expected 1 (one look at all of a "
                        "step's games) to 10")
    if not 0 < interim_p < 0.05:
        raise UserError(f"--interim-p {interim_p:g} is not allowed; expected a boundary above "
                        "0 and below the step's level 0.05")
    design = step_design(games, match_block(players), looks, interim_p=interim_p)
    levels = chain_levels(spec, start, factor=factor, max_steps=max_steps)  # checks the start
    folder = Path(out) if out is not None else report_dir(spec.name, f"chain_{players}p")
    if status:
        show_status(echo, spec, players, levels.labels[0], design=design, games=games,
                    looks=looks, interim_p=interim_p, factor=factor, seed=seed,
                    edition=edition, folder=folder, store=store)
        return
    check_chain_folder(folder, force, resume)

    def say_step(r: pd.Series, kept: str = "") -> None:
        echo.say(step_line(r, kept))

    kept = None
    earlier: dict[str, float | int | None] = {}
    if resume:
        first_games = games_folder(store, folder)
        if (not (folder / "chain.csv").exists() and first_games is not None
                and (first_games / "step-1").is_dir()):
            raise UserError(f"--resume: {folder} holds no finished step yet (no chain.csv), "
                            f"only games of its first step in {first_games}; expected the same "
                            "command without --resume, which reads them back and plays on")
        stored = read_chain(folder)
        check_same_design(stored.options, folder, game=spec.name, players=players,
                          start=levels.labels[0], games=games, looks=looks,
                          interim_p=interim_p, factor=factor, seed=seed,
                          edition=_edition_name(spec, edition))
        kept = stored.table
        steps = len(kept)
        if store is None and stored.options.get("store") is not None:
            store = stored.options["store"]  # the earlier chain's games folder
        # the levels as far as the kept steps reach, and one step beyond
        reach = chain_levels(spec, levels.labels[0], factor=factor,
                             max_steps=max(max_steps, steps + 1))
        check_kept_steps(kept, reach, design, f"--resume: {folder / 'chain.csv'}")
        for _, r in kept.iterrows():
            say_step(r, " (kept)")
        last = kept.iloc[-1]
        where = f"{folder}/chain.md, chain.csv and fig_chain.png are left as they are"
        if not last.significant:
            echo.say(f"the chain has ended: step {steps} is not significant; nothing to play "
                     f"({where})")
            return
        if len(reach.budgets) - 1 == steps:
            echo.say(f"the chain has ended: the budget after {last.stronger} leaves "
                     f"{reach.param}'s range; nothing to play ({where})")
            return
        if max_steps <= steps:
            echo.say(f"the chain has {steps} step{'s' if steps != 1 else ''} already, "
                     f"--max-steps {max_steps} plays no more (a larger --max-steps extends "
                     f"it); nothing to play ({where})")
            return
        earlier = {"earlier_steps": steps, "earlier_wall_s": stored.wall_s,
                   "earlier_cpu_s": stored.cpu_s, "earlier_stored_games": stored.stored_games}
        echo.say(f"resuming the chain in {folder}: {steps} step{'s' if steps != 1 else ''} "
                 f"kept (not played again), playing on from step {steps + 1}")
    games_store = games_folder(store, folder)
    if games_store is not None and games_store.exists() and not games_store.is_dir():
        raise UserError(f"the chain's games folder {str(games_store)!r} (--store, default "
                        "games/ in --out) is a file; expected a folder (or --store none)")
    # the command that makes the whole chain in one go (a resumed chain's too); shlex.quote
    # leaves the plain texts of the shipped chains as they are
    made_with = (f"tajsim chain --game {spec.name} -p {players} --start "
                 f"{shlex.quote(levels.labels[0])} --games {games} --looks {looks} --interim-p "
                 f"{interim_p:g} --max-steps {max_steps} --factor {factor:g}"
                 + (f" --edition {shlex.quote(edition)}" if edition is not None else "")
                 + f" --seed {seed} --out {shlex.quote(str(folder))}"
                 + (f" -w {workers}" if workers is not None else "")
                 + (f" --store {shlex.quote(store)}" if store is not None else ""))

    looks_text = (f" in {design.looks} looks ({', '.join(f'{x:,}' for x in design.stages)})"
                  if looks > 1 else "")
    echo.say(f"skill chain of {spec.title}, {players} players: {' -> '.join(levels.labels)}; "
             f"up to {design.stages[-1]:,} games a step{looks_text}, seed {seed}")
    def kept_games(again: str) -> str:
        return ("" if games_store is None else
                f"; the games played are kept in {games_store} and {again} plays only the "
                "missing ones")

    on_interrupt(("no step finished; no table was written" if kept is None else
                  f"no new step finished; the earlier chain in {folder} is as it was")
                 + kept_games("the same command"))
    started, cpu_started = time.perf_counter(), cpu_seconds()
    caught: list = []  # the warnings of the play so far (a damaged stored chunk...)

    def say_warnings() -> None:
        echo_warnings(caught, echo)
        caught.clear()

    def step_done(table: pd.DataFrame) -> None:
        say_warnings()
        # the cost so far, beside the command (worker CPU counts once the workers finish)
        table.attrs.update(wall_s=time.perf_counter() - started,
                           cpu_s=cpu_seconds() - cpu_started, workers=workers,
                           store=None if games_store is None else str(games_store), **earlier)
        write_chain(table, folder, made_with)
        say_step(table.iloc[-1])
        # the folder now holds a chain: a fresh run goes on with --resume
        on_interrupt(f"the {len(table)} finished step{'s' if len(table) != 1 else ''} are "
                     f"kept in {folder}/chain.md and chain.csv"
                     + kept_games("the same command" if resume else
                                  "the same command with --resume"))

    with catch_warnings() as recorded:
        caught = recorded  # one line each, after each step, and when the play stops
        try:
            table, _ = play_chain(spec.name, players, levels.labels[0], games=games,
                                  looks=looks, interim_p=interim_p, max_steps=max_steps,
                                  factor=factor, seed=seed, edition=edition, workers=workers,
                                  progress=False if quiet else None, log=echo.log,
                                  on_step=step_done, kept=kept, store=games_store,
                                  announce=echo.say)
        finally:
            say_warnings()
    length = table.attrs["chain_length"]
    bound = "" if table.attrs["ended"] == "not significant" else "at least "
    echo.say(f"chain length: {bound}{length} significant step{'s' if length != 1 else ''}; "
             f"written to {folder}/chain.md, chain.csv and fig_chain.png")
