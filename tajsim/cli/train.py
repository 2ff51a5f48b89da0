"""``tajsim train``: fit a game's ``learned`` strategy to its search (expert iteration)."""

from __future__ import annotations

import math
import shlex
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import click

from tajsim.cli.options import (
    Echo,
    check_writable_file,
    edition_option,
    game_option,
    on_interrupt,
    seed_option,
    threads_option,
    verbosity_options,
)
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.play.learning import TrainResult, learned_policy_of, table_fields, train
from tajsim.running.interrupts import check_interrupt
from tajsim.running.simulate import (
    PROGRESS_GAP_S,
    PROGRESS_LINE_S,
    PROGRESS_QUIET_S,
    progress_mode,
)
from tajsim.strategies.learned_file import LearnedFile, write_learned_file


@click.command("train")
@game_option
@click.option("--agent", type=click.Choice(["learned", "net"]), default="learned",
              show_default=True,
              help="What to train: learned (a linear policy over per-action features) or net "
                   "(a policy-and-value network, in the games that declare one; "
                   "docs/net.md).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE", help="Write the weights (TOML) to FILE: a new file (an "
              "existing one only with --force).")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
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
              help="L2 penalty on the standardised weights (--agent net: on W1 and U; 0.01 "
                   "generalised best in docs/net.md).")
@click.option("--refine-generations", type=click.IntRange(min=0), default=0, show_default=True,
              help="After the rounds, CMA-ES generations tuning the imitated weights for wins "
                   "against the base preset (0: imitation only).")
@click.option("--refine-popsize", type=click.IntRange(min=4), default=12, show_default=True,
              help="Candidates a refinement generation.")
@click.option("--refine-games", type=click.IntRange(min=2), default=400, show_default=True,
              help="Games a refinement candidate plays (the same for every candidate of a "
                   "generation).")
@click.option("--hidden", type=click.IntRange(1, 128), default=32, show_default=True,
              help="--agent net: hidden units of the network.")
@click.option("--epochs", type=click.IntRange(min=1), default=20, show_default=True,
              help="--agent net: passes of Adam over the pooled data a round.")
@click.option("--checkpoint", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="FILE", help="--agent net: save the state after every round to FILE (a "
              "new file; an existing one only with --resume or --force).")
@click.option("--resume", is_flag=True,
              help="--agent net: continue the --checkpoint FILE of the same command.")
@threads_option("Threads playing games (the weights do not depend on it); with --agent net, "
                "worker processes.")
@verbosity_options
def command(game, agent, output, force, install, seed, rounds, games, eval_games, final_games,
            players, edition, expert, l2, refine_generations, refine_popsize, refine_games,
            hidden, epochs, checkpoint, resume, threads, quiet, verbose) -> None:
    """Train GAME's `learned` strategy (or with --agent net its `net` network): imitate its
    search, round by round, and measure it against the game's best preset.

    Each round plays --games games with the expert in one seat, fits the linear policy to the
    expert's decisions (conditional logit, every round's data pooled) and plays learned
    against the base preset; the next round's expert rolls out with the learned policy.
    --refine-generations then tunes the imitated weights for wins against the base preset
    (CMA-ES; reported apart from the imitation rounds).
    The same command writes the same weights. Nothing is written into the installed package
    without --install, and no existing --output file is replaced without --force.
    """
    echo = Echo(quiet, verbose)
    if agent == "net":
        from tajsim.cli.train_net import run_net_training

        run_net_training(game=game, output=output, force=force, install=install, seed=seed,
                         rounds=rounds, games=games, eval_games=eval_games,
                         players=parse_counts(players), edition=edition, expert=expert,
                         hidden=hidden, epochs=epochs, l2=l2, checkpoint=checkpoint,
                         resume=resume,
                         workers=threads, echo=echo)
        return
    if checkpoint is not None or resume:
        raise UserError("--checkpoint and --resume are for --agent net; expected them only "
                        "with --agent net")
    if output is None and not install:
        raise UserError("nowhere to write the weights; expected --output FILE (or --install "
                        "to replace the game's shipped weights)")
    if not math.isfinite(l2):
        raise UserError(f"--l2 {l2} is not allowed; expected a finite number >= 0")
    if output is not None and output.is_file() and not force:
        raise UserError(f"--output {str(output)!r} exists; expected a new file name, or "
                        "--force to replace it")
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
    where = " and ".join(repr(str(p)) for p in targets)
    on_interrupt(f"no weights written ({where} unchanged: train writes them at the end)")
    mode = "off" if quiet else progress_mode(None)
    lines = LineProgress() if mode == "lines" else None

    def progress(total: int, what: str) -> Callable[[], None]:
        if lines is not None:
            return lines.counter(total, what)
        from tqdm.auto import tqdm

        bar = tqdm(total=total, unit="", desc=what, file=sys.stderr,
                   disable=mode != "bar", dynamic_ncols=True)

        def tick() -> None:
            check_interrupt()  # Ctrl-C stops every thread's games, not only the main one's
            bar.update(1)

        return tick

    try:
        result = train(spec, seed=seed, rounds=rounds, games=games, eval_games=eval_games,
                       final_games=final_games, players=counts, edition=ed, expert=expert,
                       l2=l2, threads=threads, refine_generations=refine_generations,
                       refine_popsize=refine_popsize, refine_games=refine_games, log=echo.say,
                       progress=progress)
    finally:
        if lines is not None:
            lines.close()
    argv = ["tajsim", "train", *sys.argv[2:]] if len(sys.argv) > 1 and sys.argv[1] == "train" \
        else ["tajsim", "train", "--game", spec.name, "--seed", str(seed)]
    learned = to_file(result, shlex.join(argv))
    check_interrupt()  # games played after a Ctrl-C (searches cut short) are no weights
    header = [f"The weights of {spec.title}'s `learned` strategy, written by tajsim train.",
              "Reproduce them with the command below (same seed and settings)."]
    for path in targets:
        try:
            write_learned_file(path, learned, header)
        except OSError as exc:
            raise UserError(f"cannot write the weights to {str(path)!r} "
                            f"({exc.strerror or exc}); they are {list(result.theta)}") from None
        echo.say(f"wrote {path}")


class LineProgress:
    """Progress of ``tajsim train`` in a log file or a pipe, where a bar's carriage returns
    would pile up: a line such as ``training: 120 of 600 expert games, 95 s`` now and then,
    as ``tajsim simulate`` prints (never in the first ``PROGRESS_QUIET_S``, then at every
    further tenth of the count, no two lines within ``PROGRESS_GAP_S``, and at least every
    ``PROGRESS_LINE_S``, also between counted steps: a round's evaluation or a slow search
    game), and the last state at the end. Ticks may come from several threads."""

    def __init__(self, write: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic, beat_s: float = 1.0) -> None:
        self._write = write or (lambda line: print(line, file=sys.stderr, flush=True))
        self._clock = clock
        self._lock = threading.Lock()
        self._start = self._last = clock()
        self._what, self._done, self._total, self._tenth = "", 0, 0, 0
        self._printed: tuple[str, int] | None = None
        self._stop = threading.Event()
        self._beat = threading.Thread(target=self._heartbeat, args=(beat_s,), daemon=True,
                                      name="tajsim-train-progress")
        self._beat.start()

    def counter(self, total: int, what: str) -> Callable[[], None]:
        """A new count (``total`` steps of ``what``); returns its tick."""
        with self._lock:
            self._what, self._done, self._total, self._tenth = what, 0, total, 0

        def tick() -> None:
            check_interrupt()  # Ctrl-C stops every thread's games, not only the main one's
            with self._lock:
                self._done += 1
                tenth = self._done * 10 // max(1, self._total)
                now = self._clock()
                if tenth > self._tenth and now - self._last >= PROGRESS_GAP_S:
                    self._tenth = tenth
                    self._print(now)

        return tick

    def _line(self, now: float) -> str:
        return (f"training: {self._done:,} of {self._total:,} {self._what}, "
                f"{now - self._start:.0f} s")

    def _print(self, now: float) -> None:  # with the lock held
        if now - self._start < PROGRESS_QUIET_S or not self._what:
            return
        self._write(self._line(now))
        self._last, self._printed = now, (self._what, self._done)

    def _heartbeat(self, beat_s: float) -> None:
        while not self._stop.wait(beat_s):
            with self._lock:
                now = self._clock()
                if now - self._last >= PROGRESS_LINE_S:
                    self._print(now)

    def close(self) -> None:
        """Stop the lines; the last state, where earlier lines were printed and none said
        it yet."""
        self._stop.set()
        self._beat.join()
        with self._lock:
            if self._printed is not None and self._printed != (self._what, self._done):
                self._write(self._line(self._clock()))
                self._printed = (self._what, self._done)


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
