"""``tajsim bench``: a quick measurement of full games per second on this machine."""

from __future__ import annotations

import sys

import click

from tajsim.cli.options import (
    Echo,
    check_workers,
    edition_option,
    game_option,
    given,
    players_option,
    seed_option,
    strategies_option,
    verbosity_options,
)


@click.command("bench")
@game_option
@players_option()
@strategies_option(help_text="Comma-separated strategies (as for simulate).")
@edition_option
@click.option("--games", "-n", type=int, default=None,
              help="Games per timed run (default: about --seconds of one-core play).")
@click.option("--seconds", type=float, default=1.0, show_default=True,
              help="Target length of one single-core timed run when --games is not given.")
@click.option("--workers", "-w", type=int, default=None,
              help="Cores for the all-core runs (default: all).")
@click.option("--repeat", type=click.IntRange(min=1), default=3, show_default=True,
              help="Timed runs per mode; the best is shown.")
@click.option("--warmup", type=click.IntRange(min=0), default=1, show_default=True,
              help="Untimed runs before the timed ones (compilation is always excluded).")
@seed_option()
@click.option("--check", is_flag=True,
              help="Also verify that the timed path gives the same records as simulate() and "
                   "that every core count gives the same records (exit status 1 if not).")
@click.option("--profile", is_flag=True,
              help="Also show where a game's time goes (setup, legal actions, applying "
                   "actions, policy, records).")
@verbosity_options
def command(game, players, strategies, edition, games, seconds, workers, repeat, warmup, seed,
            check, profile, quiet, verbose) -> None:
    """Measure full games per second on one core and on all cores.

    Times the runner's compiled kernels on fixed seeds (game ids 0..N-1), compilation and
    warm-up excluded, one-core and all-core runs interleaved; every timed run is verified to
    have played and recorded every game. "CPU" is the rate by CPU time (what the work costs
    with the core to itself), shown beside the wall-clock rate when the machine is shared.

    \b
    Examples:
      tajsim bench
      tajsim bench -p 5 -s greedy --check
      tajsim bench -s balanced,random --games 2000 --profile
    """
    from tajsim.errors import UserError
    from tajsim.running.benchmarking import (
        check_batch,
        estimate_game_seconds,
        make_batch,
        profile_batch,
        time_modes,
    )
    from tajsim.running.executors import available_cores
    from tajsim.running.interrupts import check_interrupt
    from tajsim.running.machine import describe_machine

    echo = Echo(quiet, verbose)
    if games is not None and games < 1:
        raise UserError(f"--games {games} is not allowed; expected 1 or more")
    if games is not None and given("seconds"):
        raise UserError("--games and --seconds both given; expected one (--seconds sizes the "
                        "runs when --games is not given)")
    if not 0 < seconds < 86_400:
        raise UserError(f"--seconds {seconds:g} is not allowed; expected a time above 0 and "
                        "below a day (86,400 s)")
    threads = check_workers(workers) or available_cores()
    echo.say(describe_machine())
    probe = make_batch(min(games or 20, 20), players, strategies, edition, seed, game=game)
    players = probe.players  # the game's default table when -p is left out
    echo.detail(f"validated: {probe.spec.title}, {players} players, "
                f"{','.join(probe.config.strategies)}, seed {seed}; {threads} core"
                f"{'s' if threads != 1 else ''}, best of {repeat} after {warmup} warm-up")
    if not quiet:
        click.echo("compiling / loading the kernels ...", err=True)
    per_game = estimate_game_seconds(probe, probe.games)
    check_interrupt()  # a Ctrl-C while the kernels compiled (Python may lose it there)
    if games is None:
        games = max(10, min(1_000_000, int(seconds / max(per_game, 1e-9))))
        games = max(games, 16 * threads if threads > 1 else games)
        echo.detail(f"{1e6 * per_game:.1f} µs per game measured: {games:,} games make about "
                    f"{seconds:g} s on one core")
    batch = make_batch(games, players, strategies, edition, seed, game=game)
    modes = ("serial", "prange", "threads") if threads > 1 else ("serial",)
    echo.say(f"{batch.spec.title}, {players} players, {','.join(batch.config.strategies)} "
             f"({batch.config.seating} seats): {games:,} games per run, best of {repeat}")
    timings = time_modes(batch, threads, modes, repeat, warmup)
    check_interrupt()
    for mode, t in timings.items():
        echo.detail(f"{mode}: runs of " + ", ".join(f"{w:.3f}" for w in t.wall)
                    + f" s wall (spread {t.spread():.0%})")
    one = timings["serial"]
    for mode, t in timings.items():
        n = 1 if mode == "serial" else threads
        rate = t.rate("wall")
        cpu = t.work / (t.best("thread" if n == 1 else "cpu") / n)
        label = "1 core" if n == 1 else f"{n} cores ({mode})"
        line = (f"  {label:<20} {rate:>12,.0f} games/s  {1e6 * n / rate:9.1f} µs/game/core  "
                f"CPU {cpu:>12,.0f} games/s")
        if n > 1:
            line += f"  scaling {rate / (n * one.rate('wall')):.2f}"
        echo.say(line)
    if profile:
        prof = profile_batch(batch.slice(0, min(games, max(20, games // 4))), repeat, warmup)
        total = prof["us_per_game"]
        echo.say(f"where a game's {total:.1f} µs go (one core, CPU time):")
        for part, us in prof["parts_us"].items():
            echo.say(f"  {part:<16} {us:9.1f} µs  {us / total:6.1%}")
        pg = prof["per_game"]
        echo.say(f"  {pg['actions']:.0f} actions per game, {pg['policy_decisions']:.0f} "
                   "asked the policy")
        if batch.spec.kernels.count_legal is not None and "random" in batch.config.strategies:
            echo.say("  random seats draw their action without a list of the legal actions, so\n"
                     "  legal_* is what a list costs where one is built, and policy (play minus\n"
                     "  the replay with lists) falls by what they skip: below 0 if all are random")
    if check:
        small = make_batch(min(games, 200), players, strategies, edition, seed, game=game)
        problems = check_batch(small, threads)
        if problems:
            for p in problems:
                click.echo(f"check FAILED: {p}", err=True)
            sys.exit(1)
        echo.say(f"check passed: {small.games} games, direct kernel call == simulate(), "
                   f"1 core == {threads} cores")
