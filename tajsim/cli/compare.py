"""``tajsim compare A B``: does strategy A beat strategy B? One command for the most common
question: A and B play in every seat rotation (alone, or with a field of another strategy), and
the difference of their win shares and of their scores is printed with 95% intervals, the
p-value and n (:func:`tajsim.analysis.compare.compare_strategies`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import click

from tajsim.cli.options import (
    Echo,
    check_workers,
    compensation_option,
    edition_option,
    game_option,
    on_interrupt,
    players_option,
    seed_option,
    verbosity_options,
)
from tajsim.cli.simulate import catch_warnings, echo_warnings, option_option, parse_options
from tajsim.errors import UserError

if TYPE_CHECKING:  # pandas loads only when a comparison runs, not for tajsim --help
    import pandas as pd

#: compare keeps every game's rows in memory (the test pairs A and B within each game).
MAX_GAMES = 200_000


def rotation_games(players: int, entries: int) -> int:
    """Games in one whole cycle of the rotated seating of ``entries`` seat entries at a table
    of ``players`` (``tajsim.running.config.lineup_codes``): every entry in every seat equally
    often, every fill of the seats in all its rotations."""
    return entries if players % entries == 0 else players * entries


def _p_text(p: float, test: str = "") -> str:
    if math.isnan(p):
        return "p = n/a (no variation)"
    text = "p < 1e-300" if p == 0 else f"p = {p:.2g}"
    return f"{text} ({test})" if test else text


def _values(measure: str, mean: float, low: float, high: float, signed: bool = False) -> str:
    """``mean [low, high]``: the win share in percent (its difference in points), other
    measures as numbers (a measure equal in every game has no interval, and says so)."""
    sign = "+" if signed else ""
    if measure != "win" and low == high:  # a t interval of values without spread: no interval
        return f"{mean:{sign},.2f} (the same in every game)"
    if measure == "win":
        unit = " points" if signed else "%"
        return (f"{100 * mean:{sign}.1f}{unit} [{100 * low:{sign}.1f}, {100 * high:{sign}.1f}]")
    return f"{mean:{sign},.2f} [{low:{sign},.2f}, {high:{sign},.2f}]"


def games_for_width(width: float, confidence: float = 0.95) -> int:
    """Games after which a win-share difference's Wilson interval is at most ``width`` wide
    whatever the shares (the widest case, A's share 1/2: ``(4 z / width)**2 / 4``)."""
    from tajsim.analysis.stats import normal_quantile

    z = normal_quantile(confidence)
    return math.ceil((4 * z / width) ** 2 / 4)


def verdict_lines(table: pd.DataFrame, a: str, b: str) -> list[str]:
    """The verdict on the win share (:func:`tajsim.analysis.compare.verdict_status`): who wins
    more often, no difference detected, or too few games for a verdict; with n and the rule."""
    from tajsim.analysis.compare import VERDICT_MAX_WIDTH, VERDICT_MIN_GAMES, verdict_status

    win = table[table["measure"] == "win"]
    if win.empty:
        return []
    w = win.iloc[0]
    status = verdict_status(int(w.n), w.ci_low, w.ci_high)
    diff = _values("win", w.difference, w.ci_low, w.ci_high, signed=True)
    width = 100 * (w.ci_high - w.ci_low)
    limit = 100 * VERDICT_MAX_WIDTH
    enough = games_for_width(VERDICT_MAX_WIDTH)
    if status in ("a", "b"):
        better, worse = (a, b) if status == "a" else (b, a)
        lines = [f"verdict: {better} wins more often than {worse} ({diff}, "
                 f"{_p_text(w.p_value, w.test)}, n = {w.n:,} games)"]
        if width > limit:
            lines.append(f"  its size is loosely known: the interval spans {width:.0f} points "
                         f"(about {enough:,} games narrow it to {limit:.0f} or less)")
        return lines
    if status == "none":
        reach = 100 * max(abs(w.ci_low), abs(w.ci_high))
        return [f"verdict: no difference in win share detected with {w.n:,} games ({diff}); "
                f"differences beyond {reach:.1f} points either way are excluded"]
    why = (f"fewer than {VERDICT_MIN_GAMES} games" if w.n < VERDICT_MIN_GAMES else
           f"the interval {diff} includes 0 and spans {width:.0f} points, more than "
           f"{limit:.0f}")
    return [f"verdict: n = {w.n:,} games is too small for a verdict ({why}); about "
            f"{enough:,} games give an interval of at most {limit:.0f} points"]


def format_comparison(table: pd.DataFrame, a: str, b: str) -> list[str]:
    """The lines ``tajsim compare`` prints for a :func:`compare_strategies` table."""
    names = {"win": "win share"}
    rows = [(names.get(r.measure, r.measure),
             _values(r.measure, r.a_mean, r.a_ci_low, r.a_ci_high),
             _values(r.measure, r.b_mean, r.b_ci_low, r.b_ci_high),
             _values(r.measure, r.difference, r.ci_low, r.ci_high, signed=True),
             _p_text(float("nan") if r.measure != "win" and r.ci_low == r.ci_high
                     else r.p_value, r.test)) for r in table.itertuples(index=False)]
    header = ("", f"A: {a}", f"B: {b}", "A - B (95% CI)", "p (test of no difference)")
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(5)]
    lines = ["  ".join(f"{cell:<{w}}" for cell, w in zip(row, widths)).rstrip()
             for row in [header, *rows]]
    first = table.iloc[0]
    lines.append(f"n = {first.n:,} games ({first.n_a:,} player-games of A, {first.n_b:,} of B);"
                 " over games: win shares with Wilson intervals and the score test (ties "
                 "shared), other measures with t intervals and the paired t-test (each game's "
                 "A - B)")
    return lines + verdict_lines(table, a, b)


def _same_strategy(spec: Any, a: str, b: str) -> str:
    """The strategy name where texts ``a`` and ``b`` parse to the same strategy and parameters
    (``greedy`` and ``greedy:temperature=0``: a default written out), else ``""``."""
    import numpy as np

    (sa, pa), (sb, pb) = spec.strategies.parse(a), spec.strategies.parse(b)
    same = sa.strategy_id == sb.strategy_id and np.array_equal(np.asarray(pa), np.asarray(pb))
    return repr(sa.name) if same else ""


def options_clause(options: dict[str, Any] | None) -> str:
    """``"; options: ten_rounds on, compensation 0,3"`` for the rule options and seat
    compensation a comparison played under (the header must not hide a variant), or ``""``."""
    if not options:
        return ""
    words = []
    for name, value in options.items():
        if isinstance(value, bool):
            words.append(f"{name} {'on' if value else 'off'}")
        elif isinstance(value, (list, tuple)):
            words.append(f"{name} {','.join(f'{v:g}' for v in value)}")
        else:
            words.append(f"{name} {value}")
    return "; options: " + ", ".join(words)


@click.command("compare")
@click.argument("a")
@click.argument("b")
@game_option
@click.option("--games", "-n", type=int, default=2000, show_default=True,
              help=f"Games to play (1 to {MAX_GAMES:,}), rounded up to whole seat rotations.")
@players_option()
@click.option("--field", default=None, metavar="STRATEGY",
              help="Fill the other seats with this strategy (one A, one B, the rest the "
                   "field); default: A and B alternate at the table.")
@edition_option
@option_option
@compensation_option
@seed_option()
@click.option("--workers", "-w", type=int, default=None, metavar="W",
              help="Local cores to use (default: all).")
@verbosity_options
def command(a: str, b: str, game: str, games: int, players: int, field: str | None,
            edition: str | None, rule_options: tuple[str, ...], compensation: str | None,
            seed: int,
            workers: int | None, quiet: bool, verbose: bool) -> None:
    """Does strategy A beat strategy B? Play them in every seat rotation and print the
    difference of their win shares and scores, with 95% intervals, the p-value and n.

    Every game has its own setup, so games are independent: win shares get Wilson intervals
    over games (inside [0, 100] at any n) and the score test, other measures t intervals and
    the paired t-test. The verdict needs 20 games or more and, when the interval of A - B
    includes 0, an interval at most 20 points wide; otherwise it says n is too small.

    \b
    Examples:
      tajsim compare balanced commodity -n 4000
      tajsim compare balanced thrifty --game maharani -p 3
      tajsim compare hoarder balanced --game maharaja --field random
    """
    from tajsim.analysis.compare import compare_strategies
    from tajsim.games.registry import get_game
    from tajsim.running.simulate import run_simulation

    echo = Echo(quiet, verbose)
    workers = check_workers(workers)
    a, b = a.strip(), b.strip()
    field = field.strip() if field is not None else None
    if a == b:
        raise UserError(f"A and B are both {a!r}; expected two different strategies")
    if field is not None and field in (a, b):
        raise UserError(f"--field {field!r} is A or B; expected a third strategy (or no "
                        "--field)")
    if not 1 <= games <= MAX_GAMES:
        raise UserError(f"--games {games} is not allowed; expected 1 to {MAX_GAMES:,} (compare "
                        "keeps every game in memory; for more, tajsim simulate --out and "
                        "tajsim report)")
    spec = get_game(game)
    same = _same_strategy(spec, a, b)
    if same:
        raise UserError(f"A and B are both {same} ({a!r} and {b!r} play alike); expected two "
                        "different strategies")
    if field is not None and any(_same_strategy(spec, field, x) for x in (a, b)):
        raise UserError(f"--field {field!r} plays as A or B; expected a third strategy (or no "
                        "--field)")
    players = spec.players_or_default(players, edition)
    if field is not None and players < 3:
        raise UserError(f"--field {field!r} with {players} players; expected 3 or more players "
                        "(two seats are A and B)")
    entries = [a, b] if field is None else [a, b] + [field] * (players - 2)
    cycle = rotation_games(players, len(entries))
    played = -(-games // cycle) * cycle
    on_interrupt("nothing is kept (compare stores no games)")
    with catch_warnings() as caught:
        try:
            result = run_simulation(
                played, players, entries, edition, seed, game=spec.name,
                options=parse_options(rule_options, compensation), workers=workers,
                records=True,
                rotate=True, progress=False if quiet else None, log=echo.log)
        except (KeyboardInterrupt, UserError):  # tajsim.cli.main prints the line
            echo_warnings(caught, echo)
            raise
    echo_warnings(caught, echo)
    measures = ("win", *spec.notes.compare_measures)
    table = compare_strategies(result.records, a=a, b=b, measures=measures)
    config = result.config
    seating = ("A and B alternate at the table" if field is None
               else f"one A, one B and {players - 2} {field}")
    rounded = "" if played == games else f" ({games:,} rounded up to whole seat rotations)"
    echo.say(f"{a} (A) against {b} (B): {spec.title} {config.edition}, {players} players, "
             f"{seating}, in every seat rotation; {played:,} games{rounded}, seed {seed}"
             f"{options_clause(parse_options(rule_options, compensation))}")
    for line in format_comparison(table, a, b):
        echo.say(line)
