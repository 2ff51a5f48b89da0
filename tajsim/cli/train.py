"""``tajsim train``: fit a game's ``learned`` strategy to its search (expert iteration)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from tajsim.cli.options import (
    Echo,
    check_writable_file,
    edition_option,
    game_option,
    seed_option,
    threads_option,
    verbosity_options,
)
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.play.learning import TrainResult, learned_policy_of, table_fields, train
from tajsim.running.simulate import progress_mode
from tajsim.strategies.learned_file import LearnedFile, write_learned_file


@click.command("train")
@game_option
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE", help="Write the weights (TOML) to FILE.")
@click.option("--install", is_flag=True,
              help="Also write them over the game's shipped weights file (its wing's "
                   "strategies/data/learned.toml: the registered `learned` strategy).")
@seed_option(1)
@click.option("--rounds", type=click.IntRange(1, 20), default=3, show_default=True,
              help="Expert-iteration rounds at most (a round that does not beat the best so "
                   "far ends the training).")
@click.option("--games", type=click.IntRange(min=5), default=200, show_default=True,
              help="Games a round with the expert in one seat (its decisions are the data).")
@click.option("--eval-games", type=click.IntRange(min=2), default=2000, show_default=True,
              help="Games of learned against the base preset after each round (the same "
                   "games every round).")
@click.option("--final-games", type=click.IntRange(min=2), default=4000, show_default=True,
              help="Fresh games measuring the chosen weights against the base preset.")
@click.option("--players", "-p", default="2", show_default=True, metavar="N[,N...]",
              help="Player counts: each game plays the next of them in turn, and learned is "
                   "measured at each (one learned seat against the base preset).")
@edition_option
@click.option("--expert", default=None, metavar="STRATEGY",
              help="The search imitated (a registered strategy; default: the game's own).")
@click.option("--l2", type=click.FloatRange(min=0.0), default=1e-3, show_default=True,
              help="L2 penalty on the standardised weights.")
@click.option("--refine-generations", type=click.IntRange(min=0), default=0, show_default=True,
              help="After the rounds, CMA-ES generations tuning the imitated weights for wins "
                   "against the base preset (0: imitation only).")
@click.option("--refine-popsize", type=click.IntRange(min=4), default=12, show_default=True,
              help="Candidates a refinement generation.")
@click.option("--refine-games", type=click.IntRange(min=2), default=400, show_default=True,
              help="Games a refinement candidate plays (the same for every candidate of a "
                   "generation).")
@threads_option("Threads playing games (the weights do not depend on it).")
@verbosity_options
def command(game, output, install, seed, rounds, games, eval_games, final_games, players,
            edition, expert, l2, refine_generations, refine_popsize, refine_games, threads,
            quiet, verbose) -> None:
    """Train GAME's `learned` strategy: imitate its search, round by round, and measure it
    against the game's best preset.

    Each round plays --games games with the expert in one seat, fits the linear policy to the
    expert's decisions (conditional logit, every round's data pooled) and plays learned
    against the base preset; the next round's expert rolls out with the learned policy.
    --refine-generations then tunes the imitated weights for wins against the base preset
    (CMA-ES; reported apart from the imitation rounds).
    The same command writes the same weights. Nothing is written into the installed package
    without --install.
    """
    echo = Echo(quiet, verbose)
    if output is None and not install:
        raise UserError("nowhere to write the weights; expected --output FILE (or --install "
                        "to replace the game's shipped weights)")
    spec = get_game(game)
    lp = learned_policy_of(spec)
    targets = [p for p in (output, lp.data_file() if install else None) if p is not None]
    for path in targets:
        check_writable_file(path, "--output" if path == output else "--install")
    if expert is not None:
        spec.strategies.parse(expert)  # checked before any game
    ed = spec.editions[spec.edition_index(edition if edition is not None
                                          else spec.default_edition)]
    counts = parse_counts(players)
    for n in counts:
        spec.check_players(n, ed)
    echo.detail(f"validated: train {lp.strategy} for {spec.title} {ed}, {players} players: "
                f"{rounds} rounds x {games} games, expert {expert or lp.expert}, base "
                f"{lp.base}, seed {seed}")
    mode = "off" if quiet else progress_mode(None)

    def progress(total: int, what: str):
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit="", desc=what, file=sys.stderr,
                   disable=mode != "bar", dynamic_ncols=True)
        return lambda: bar.update(1)

    result = train(spec, seed=seed, rounds=rounds, games=games, eval_games=eval_games,
                   final_games=final_games, players=counts, edition=ed, expert=expert,
                   l2=l2, threads=threads, refine_generations=refine_generations,
                   refine_popsize=refine_popsize, refine_games=refine_games, log=echo.say,
                   progress=progress)
    argv = ["tajsim", "train", *sys.argv[2:]] if len(sys.argv) > 1 and sys.argv[1] == "train" \
        else ["tajsim", "train", "--game", spec.name, "--seed", str(seed)]
    learned = to_file(result, shlex.join(argv))
    header = [f"The weights of {spec.title}'s `learned` strategy, written by tajsim train.",
              "Reproduce them with the command below (same seed and settings)."]
    for path in targets:
        try:
            write_learned_file(path, learned, header)
        except OSError as exc:
            raise UserError(f"cannot write the weights to {str(path)!r} "
                            f"({exc.strerror or exc}); they are {list(result.theta)}") from None
        echo.say(f"wrote {path}")


def parse_counts(text: str) -> tuple[int, ...]:
    """``"2,4"`` -> (2, 4); anything else than distinct whole numbers is one line."""
    try:
        counts = tuple(int(x) for x in text.split(","))
    except ValueError:
        counts = ()
    if not counts or len(set(counts)) != len(counts):
        raise UserError(f"--players {text!r} is not allowed; expected distinct player counts "
                        "separated by commas (e.g. 2 or 2,4)")
    return counts


def to_file(result: TrainResult, command: str) -> LearnedFile:
    """The weights file of a training run."""
    final = result.final
    meta = {"command": command, **result.settings, "best_round": result.best_round,
            **table_fields(final),
            "cost_learned_ms": round(result.cost["learned"] * 1e3, 4),
            "cost_base_ms": round(result.cost["base"] * 1e3, 4)}
    rows = [{"stage": "imitation", **r.row()} for r in result.rounds]
    rows += [{"stage": "refinement", **r} for r in result.refinement]
    return LearnedFile(result.game, result.base, result.features, result.theta,
                       result.base_params, meta, rows)
