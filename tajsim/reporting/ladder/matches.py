"""Playing the ladder's tables (:func:`run_ladder`): each strategy against a random field and
against the field of the others, every pair head to head, the search strategy against the best
preset and against the field's strongest strategy if that is not a preset, the cost of Python
seats, and the search against OpenSpiel's bots (:func:`openspiel_tables`). Game ``g`` of a table
has game id ``base + g``, with a base per table (tables never share games).
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict

import numpy as np

from tajsim.analysis.stats import wilson_interval
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.play.arena import (
    entry,
    game_shares,
    mean_by_entry,
    play_lineups,
    play_mixed_lineups,
    rotated_lineups,
)
from tajsim.play.mixed import play_python_games
from tajsim.play.tuning import field_lineups
from tajsim.reporting.ladder.config import (
    REPO,
    LadderConfig,
    LadderData,
    default_search,
    extra_columns,
)
from tajsim.running.machine import machine_info


def _wilson(successes: float, n: int) -> tuple[float, float]:
    lo, hi = wilson_interval(successes, n)
    return float(lo), float(hi)


def _base(seed: int, table: int) -> int:
    """First game id of table ``table`` (tables never share games)."""
    return int(table) << 32


def _one_seat_table(name: str, field_names: Sequence[str], n_games: int, cfg: LadderConfig,
                    table: int, threads: int) -> dict:
    """``name`` in one rotating seat; the other seats cycle through ``field_names``."""
    spec = get_game(cfg.game)
    entries = [entry(spec, name)] + [entry(spec, f) for f in field_names]
    n = cfg.n_players
    n_games = max(n, n_games - n_games % n)
    lineups = field_lineups(n, len(field_names), n_games)
    t0 = time.time()
    results, _ = play_lineups(spec, entries, lineups, cfg.seed, edition=cfg.edition,
                              first_game=_base(cfg.seed, table), threads=threads)
    seconds = time.time() - t0
    share = game_shares(results, lineups, 0)
    wins = float(share.sum())
    lo, hi = _wilson(wins, n_games)
    row = {"strategy": name, "games": n_games, "win": wins / n_games, "ci": (lo, hi),
           "seconds_per_game": seconds / n_games}
    for col in ("score", *spec.part_columns, *extra_columns(spec)):
        row[col] = float(mean_by_entry(results, lineups, len(entries), col)[0])
    return row


def _head_to_head(a: str, b: str, n_games: int, cfg: LadderConfig, table: int,
                  threads: int) -> dict:
    n = cfg.n_players
    pattern = [0, 1] * (n // 2) + ([0] if n % 2 else [])
    n_games = max(n, n_games - n_games % (2 * n))
    lineups = rotated_lineups(pattern, n_games)
    if n % 2:
        lineups[1::2] = 1 - lineups[1::2]
    spec = get_game(cfg.game)
    t0 = time.time()
    results, _ = play_lineups(spec, [entry(spec, a), entry(spec, b)], lineups, cfg.seed,
                              edition=cfg.edition, first_game=_base(cfg.seed, table),
                              threads=threads)
    seconds = time.time() - t0
    share = game_shares(results, lineups, 0)
    wins = float(share.sum())
    lo, hi = _wilson(wins, n_games)
    score = results["score"].reshape(n_games, n).astype(float)
    a_score = float(score[lineups == 0].mean())
    b_score = float(score[lineups == 1].mean())
    return {"a": a, "b": b, "games": n_games, "share": wins / n_games, "ci": (lo, hi),
            "score_a": a_score, "score_b": b_score, "seconds_per_game": seconds / n_games}


def _python_timing(cfg: LadderConfig) -> dict:
    """Seconds per game: compiled batch kernel, the Python loop with compiled seats only, and a
    table with one pure-Python seat (the game's example strategy, if any)."""
    spec = get_game(cfg.game)
    ed = cfg.edition
    preset = spec.reference_preset
    example = REPO / spec.notes.example_policy if spec.notes.example_policy else None
    n = cfg.n_players
    games = max(n, cfg.python_games - cfg.python_games % n)
    out: dict = {"games": games, "preset": preset}
    lineups = rotated_lineups([0] * n, games)
    play_lineups(spec, [entry(spec, preset)], lineups[:n], cfg.seed, edition=ed,
                 first_game=_base(cfg.seed, 90))
    t0 = time.time()
    play_lineups(spec, [entry(spec, preset)], lineups, cfg.seed, edition=ed,
                 first_game=_base(cfg.seed, 90))
    out["kernel_preset"] = (time.time() - t0) / games
    edition = spec.editions[ed & 0xFF]
    t0 = time.time()
    play_python_games(spec, [preset] * n, games, cfg.seed, edition=edition,
                      first_game=_base(cfg.seed, 90))
    out["loop_preset"] = (time.time() - t0) / games
    if example is not None and example.is_file():
        seats = [f"py:{example}"] + ["random"] * (n - 1)
        t0 = time.time()
        res, _, lu = play_python_games(spec, seats, games, cfg.seed, edition=edition,
                                       first_game=_base(cfg.seed, 91))
        out["python_seat"] = (time.time() - t0) / games
        winner = res["winner"].reshape(games, n).astype(float)
        share = (winner / np.maximum(winner.sum(1, keepdims=True), 1) * (lu == 0)).sum(1)
        out["example_vs_random"] = float(share.mean())
        out["example_ci"] = _wilson(float(share.sum()), games)
        seats = [f"py:{example}"] + [preset] * (n - 1)
        t0 = time.time()
        play_python_games(spec, seats, games, cfg.seed, edition=edition,
                          first_game=_base(cfg.seed, 92))
        out["python_seat_vs_preset"] = (time.time() - t0) / games
    return out


def _openspiel_match(cfg: LadderConfig, ours: str, theirs: str, table: int) -> dict:
    """``ours`` against ``theirs`` head to head, ``openspiel_players`` seats alternating (A B,
    rotated; odd counts swap the majority every other game), step by step."""
    spec = get_game(cfg.game)
    n = cfg.openspiel_players
    pattern = [0, 1] * (n // 2) + ([0] if n % 2 else [])
    n_games = max(2 * n, cfg.openspiel_games - cfg.openspiel_games % (2 * n))
    lineups = rotated_lineups(pattern, n_games)
    if n % 2:
        lineups[1::2] = 1 - lineups[1::2]
    results, _, timing = play_mixed_lineups(spec, [ours, theirs], lineups, cfg.seed,
                                            edition=cfg.edition,
                                            first_game=_base(cfg.seed, table))
    share = game_shares(results, lineups, 0)
    wins = float(share.sum())
    per_decision = timing[0] / np.maximum(timing[1], 1)
    return {"a": ours, "b": theirs, "games": n_games, "players": n, "share": wins / n_games,
            "ci": _wilson(wins, n_games), "seconds_per_decision_a": float(per_decision[0]),
            "seconds_per_decision_b": float(per_decision[1]),
            "decisions_a": int(timing[1, 0]), "decisions_b": int(timing[1, 1])}


def _with_param(strategy: str, key: str, value: int) -> str:
    """``strategy`` (``name:k=v:...``) with ``key`` set to ``value``, replacing a value it
    already gives (a parameter may be given only once)."""
    name, *items = strategy.split(":")
    kept = [item for item in items if item.partition("=")[0] != key]
    return ":".join([name, *kept, f"{key}={value}"])


def openspiel_tables(cfg: LadderConfig, log: Callable[[str], None] | None = None) -> list[dict]:
    """Table 6 of the module docstring: for each bot of ``cfg.openspiel``, the search strategy
    against it at equal iterations and at equal time per decision."""
    spec = get_game(cfg.game)
    if not cfg.search:
        raise UserError(f"the OpenSpiel tables need a search strategy of {spec.title}; "
                        "got none (--search '')")
    search = cfg.search
    if "iterations" not in spec.strategies.get(search.split(":")[0]).named_params():
        raise UserError(f"{search!r} has no iterations parameter; the OpenSpiel tables need "
                        "a search strategy with one")
    say = log or (lambda _m: None)
    edition = spec.editions[cfg.edition & 0xFF]
    written = re.search(r"--output (\S+)", cfg.command)  # the document the tables go into
    command = (f"tajsim ladder --game {spec.name} "
               + (f"--output {written.group(1)} " if written else "")
               + f"--seed {cfg.seed} --edition {edition} "
               + (f"--search '{search}' " if search != default_search(spec) else "")
               + " ".join(f"--openspiel {bot}" for bot in cfg.openspiel)
               + f" --openspiel-only --openspiel-games {cfg.openspiel_games} --openspiel-players "
               f"{cfg.openspiel_players} --openspiel-iterations {cfg.openspiel_iterations}")
    # compile the search's kernels before anything is timed
    small = LadderConfig(**{**asdict(cfg), "openspiel_games": 2 * cfg.openspiel_players})
    _openspiel_match(small, _with_param(search, "iterations", 1), "random", 598)
    out = []
    for k, bot in enumerate(cfg.openspiel):
        it = cfg.openspiel_iterations
        ours = _with_param(search, "iterations", it)
        theirs = f"openspiel:{bot}:iterations={it}"
        say(f"{ours} vs {theirs} (equal iterations)")
        equal_iterations = _openspiel_match(cfg, ours, theirs, 600 + 2 * k)
        equal_iterations.update(setting="equal iterations", command=command, bot=bot.strip())
        out.append(equal_iterations)
        if bot.split(":")[0] != "ismcts":
            continue  # only ISMCTS takes a time budget
        # the search's own time per decision at its settings: a short calibration against
        # OpenSpiel at equal iterations would cost OpenSpiel's time, so measure it alone
        calib = _openspiel_match(small, search, "random", 599)
        seconds = calib["seconds_per_decision_a"]
        theirs = f"openspiel:{bot}:seconds={seconds:.6f}"
        say(f"{search} vs {theirs} (equal time)")
        equal_time = _openspiel_match(cfg, search, theirs, 601 + 2 * k)
        equal_time.update(setting="equal time", command=command, bot=bot.strip())
        out.append(equal_time)
    return out


def run_ladder(cfg: LadderConfig, log: Callable[[str], None] | None = None) -> LadderData:
    """Play every table of the ladder (see the module docstring)."""
    spec = get_game(cfg.game)
    unknown = [s for s in cfg.strategies if s not in spec.strategies]
    if unknown:
        raise UserError(f"unknown {spec.title} strategy {unknown[0]!r}; expected one of: "
                        f"{', '.join(spec.strategies.names())}")
    if len(cfg.strategies) < 2:
        raise UserError(f"the ladder needs at least 2 strategies; got {len(cfg.strategies)}")
    if cfg.search:
        spec.strategies.parse(cfg.search)  # a bad search strategy fails before any game
    say = log or (lambda _m: None)
    t_start = time.time()
    names = list(cfg.strategies)
    data = LadderData(config=asdict(cfg), machine=machine_info())
    table = 1
    for name in names:
        say(f"vs random: {name}")
        data.vs_random.append(_one_seat_table(name, ["random"], cfg.random_games, cfg, table,
                                              cfg.threads))
        table += 1
    for name in names:
        others = [o for o in names if o != name]
        say(f"vs field: {name}")
        data.vs_field.append(_one_seat_table(name, others, cfg.field_games, cfg, table,
                                             cfg.threads))
        table += 1
    for a, b in itertools.combinations(names, 2):
        say(f"head to head: {a} vs {b}")
        data.head_to_head.append(_head_to_head(a, b, cfg.h2h_games, cfg, table, cfg.threads))
        table += 1
    if cfg.search:
        presets = [r for r in data.vs_field
                   if "preset" in spec.strategies.get(r["strategy"]).tags]
        best = max(presets, key=lambda r: r["win"])["strategy"] if presets else names[0]
        say(f"{cfg.search} vs field")
        search_field = _one_seat_table(cfg.search, names, cfg.search_field_games, cfg, 500,
                                       cfg.search_threads)
        say(f"{cfg.search} vs {best} head to head")
        h2h = _head_to_head(cfg.search, best, cfg.search_h2h_games, cfg, 501, cfg.search_threads)
        search_spec = spec.strategies.get(cfg.search.split(":")[0])
        data.search = {
            "strategy": cfg.search,
            "settings": search_spec.named_params(),
            "best_preset": best,
            "vs_field": search_field,
            "head_to_head": h2h,
            "threads": cfg.search_threads,
        }
        # The search's margin over the best fast player, which need not be a preset (a
        # `learned` policy fitted to the search itself usually leads the field table).
        strongest = max(data.vs_field, key=lambda r: r["win"])["strategy"]
        if strongest != best:
            say(f"{cfg.search} vs {strongest} head to head")
            data.search["strongest"] = strongest
            data.search["vs_strongest"] = _head_to_head(cfg.search, strongest,
                                                        cfg.search_h2h_games, cfg, 502,
                                                        cfg.search_threads)
    say("python policy timing")
    data.python = _python_timing(cfg)
    if cfg.openspiel:
        data.openspiel = openspiel_tables(cfg, log=say)
    data.seconds = time.time() - t_start
    return data
