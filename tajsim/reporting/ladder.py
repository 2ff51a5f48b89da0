"""The strength ladder of a game's strategies, written into its strategies document
(``docs/strategies.md`` for Taj Mahal, ``docs/games/<game>/strategies.md`` for the others).

``tajsim ladder --game GAME`` plays, with seats rotated and 4 players by default:

1. **Against a random field**: each strategy in one seat, the other seats ``random``.
2. **Against the field of the others**: each strategy in one seat, the other seats filled from
   the other fast strategies in turn (the search strategy joins with fewer games).
3. **Head to head**: every pair, two seats each (A B A B, rotated); the share of the wins taken
   by the first strategy, parity 0.5.
4. **The search strategy** (the game's first strategy tagged ``search``) against the best preset
   of table 2, head to head, with the wall-clock seconds per game.
5. **Python seats**: the cost of a pure-Python policy at the table (the game's example plug-in,
   if it has one).
6. **OpenSpiel's bots** (only with ``openspiel``, e.g. ``("ismcts",)``; needs
   ``tajsim[interop]``): the search strategy against ``openspiel:BOT`` head to head with
   ``openspiel_players`` seats, (a) at equal iterations (both at ``openspiel_iterations``)
   and (b) at equal time per decision (the search at its own settings; OpenSpiel's ISMCTS
   stopped by the clock after the search's measured seconds per decision), with each side's
   seconds per decision.

Win shares count a tied win as shared. Intervals are Wilson 95% intervals over games (each game
gives the entry one share in [0, 1]). Everything is a pure function of the seed: game ``g`` of
a table has game id ``base + g`` with a base per table derived from the seed.

The measured section of ``docs/strategies.md`` lies between ``<!-- ladder:begin -->`` and
``<!-- ladder:end -->``; the prose around it is kept.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from tajsim.analysis.stats import wilson_interval
from tajsim.engine.spec import GameSpec
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
from tajsim.running.machine import machine_info

BEGIN = "<!-- ladder:begin -->"
END = "<!-- ladder:end -->"
REPO = Path(__file__).resolve().parents[2]


def fast_strategies(spec: GameSpec) -> tuple[str, ...]:
    """The game's strategies without a search (the ladder's default field)."""
    return tuple(s.name for s in spec.strategies.all() if "search" not in s.tags)


def default_search(spec: GameSpec) -> str:
    """The game's first search strategy ("" if it has none)."""
    found = spec.strategies.with_tag("search")
    return found[0].name if found else ""


def ladder_document(spec: GameSpec) -> Path:
    """Where the game's ladder is written (in this checkout): ``docs/strategies.md`` for Taj
    Mahal, ``docs/games/<game>/strategies.md`` otherwise."""
    relative = spec.extras.get("ladder_document", f"docs/games/{spec.name}/strategies.md")
    return REPO / relative


@dataclass
class LadderConfig:
    """What the ladder plays; ``quick()`` is a tiny version for tests."""

    strategies: tuple[str, ...] = ()
    search: str = ""
    game: str = "tajmahal"
    n_players: int = 4
    edition: int = 0
    seed: int = 2024
    random_games: int = 4000
    field_games: int = 8000
    h2h_games: int = 4000
    search_field_games: int = 200
    search_h2h_games: int = 400
    python_games: int = 200
    openspiel: tuple[str, ...] = ()
    openspiel_games: int = 40
    openspiel_players: int = 2
    openspiel_iterations: int = 20
    threads: int = 1
    search_threads: int = 2
    command: str = "tajsim ladder"

    @classmethod
    def quick(cls, **kw) -> LadderConfig:
        base: dict[str, Any] = dict(random_games=16, field_games=16, h2h_games=16,
                                    search_field_games=4, search_h2h_games=4, python_games=2)
        base.update(kw)
        return cls(**base)


@dataclass
class LadderData:
    config: dict
    machine: dict
    vs_random: list[dict] = field(default_factory=list)
    vs_field: list[dict] = field(default_factory=list)
    head_to_head: list[dict] = field(default_factory=list)
    search: dict = field(default_factory=dict)
    python: dict = field(default_factory=dict)
    openspiel: list[dict] = field(default_factory=list)
    seconds: float = 0.0


def _wilson(successes: float, n: int) -> tuple[float, float]:
    lo, hi = wilson_interval(successes, n)
    return float(lo), float(hi)


def _base(seed: int, table: int) -> int:
    """First game id of table ``table`` (tables never share games)."""
    return int(table) << 32


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------
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
    for col in ("score", *spec.part_columns, *_extra_columns(spec)):
        row[col] = float(mean_by_entry(results, lineups, len(entries), col)[0])
    return row


def _extra_columns(spec: GameSpec) -> tuple[str, ...]:
    """Result fields the game's ladder shows beside the score parts."""
    return tuple(spec.extras.get("ladder_columns", ()))


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
    presets = spec.strategies.with_tag("preset")
    preset = presets[0].name if presets else "random"
    example = REPO / spec.extras["example_policy"] if "example_policy" in spec.extras else None
    n = cfg.n_players
    games = max(n, cfg.python_games - cfg.python_games % n)
    out: dict = {"games": games, "preset": preset}
    lineups = rotated_lineups([0] * n, games)
    play_lineups(spec, [entry(spec, preset)], lineups[:n], cfg.seed, edition=ed,
                 first_game=_base(cfg.seed, 90))
    t0 = time.time()
    play_lineups(spec, [entry(spec, preset)], lineups, cfg.seed, edition=ed,
                 first_game=_base(cfg.seed, 90))
    out["kernel_balanced"] = (time.time() - t0) / games
    edition = spec.editions[ed & 0xFF]
    t0 = time.time()
    play_python_games(spec, [preset] * n, games, cfg.seed, edition=edition,
                      first_game=_base(cfg.seed, 90))
    out["loop_balanced"] = (time.time() - t0) / games
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
        out["python_seat_vs_balanced"] = (time.time() - t0) / games
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
        equal_iterations.update(setting="equal iterations", command=command)
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
        equal_time.update(setting="equal time", command=command)
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
    say("python policy timing")
    data.python = _python_timing(cfg)
    if cfg.openspiel:
        data.openspiel = openspiel_tables(cfg, log=say)
    data.seconds = time.time() - t_start
    return data


# ---------------------------------------------------------------------------
# Markdown
# ---------------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(ci) -> str:
    return f"[{100 * ci[0]:.1f}, {100 * ci[1]:.1f}]"


def _find_h2h(data: LadderData, a: str, b: str) -> tuple[float, tuple, int] | None:
    """A's share against B (either order in the table), its interval and the games."""
    for r in data.head_to_head:
        if r["a"] == a and r["b"] == b:
            return r["share"], tuple(r["ci"]), r["games"]
        if r["a"] == b and r["b"] == a:
            lo, hi = r["ci"]
            return 1 - r["share"], (1 - hi, 1 - lo), r["games"]
    return None


def _summary(data: LadderData) -> list[str]:
    """The targets of the ladder, each with its measured number."""
    n = data.config["n_players"]
    out = ["", "### Summary", ""]
    for r in data.vs_random:
        if r["strategy"] == "random":
            continue
        verdict = "above" if r["ci"][0] > 1 / n else "NOT clearly above"
        out.append(f"* `{r['strategy']}` in one seat against three `random` seats wins "
                   f"{_pct(r['win'])} {_ci(r['ci'])} of {r['games']} games ({verdict} the "
                   f"{100 / n:.0f}% parity).")
    if data.search:
        s = data.search
        h = s["head_to_head"]
        verdict = "excludes" if h["ci"][0] > 0.5 or h["ci"][1] < 0.5 else "does NOT exclude"
        out.append(f"* `{s['strategy']}` takes {_pct(h['share'])} {_ci(h['ci'])} of the wins "
                   f"against `{s['best_preset']}` (the best preset against the field) head to "
                   f"head over {h['games']} games; the interval {verdict} parity. It costs "
                   f"{h['seconds_per_game']:.2f} s per game (two {s['strategy']} seats).")
    spec = get_game(data.config.get("game", "tajmahal"))
    for a, b in spec.extras.get("ladder_pairs", ()):
        found = _find_h2h(data, a, b)
        if found:
            share, (lo, hi), games = found
            verdict = "beats" if lo > 0.5 else "does NOT clearly beat"
            out.append(f"* `{a}` takes {_pct(share)} {_ci((lo, hi))} of the wins against "
                       f"`{b}`, the preset it started from, head to head over {games} games "
                       f"({verdict} it).")
    return out


def render_markdown(data: LadderData) -> str:
    cfg = data.config
    m = data.machine
    n = cfg["n_players"]
    spec = get_game(cfg.get("game", "tajmahal"))
    parts = spec.part_columns
    extra = _extra_columns(spec)
    cores = m.get("cores_usable", m.get("cores"))
    edition = spec.editions[cfg["edition"] & 0xFF]
    lines = [
        BEGIN,
        "",
        f"Measured on {m.get('date', '?')}: {m['cpu']} ({cores} cores), Python "
        f"{m['python']}, numba {m['numba']}; {spec.title}, {cfg['n_players']} players, "
        f"edition {edition}, seats rotated, master seed {cfg['seed']}; "
        f"{data.seconds / 60:.0f} minutes in all. Regenerate with:",
        "",
        "```",
        cfg["command"],
        "```",
        "",
        "Win rates count a tied win as shared; intervals are Wilson 95% intervals over games. "
        f"With {n} players parity in one seat is {100 / n:.0f}%."
        + ("" if spec.higher_score_wins else
           f" In {spec.title} the lowest score wins: a lower mean score is better."),
    ]
    lines += _summary(data)
    lines += [
        "",
        f"### Against {n - 1} random seats (parity {100 / n:.0f}%)",
        "",
        "| strategy | win rate | 95% CI | games | mean score |",
        "|---|---:|---|---:|---:|",
    ]
    for r in data.vs_random:
        lines.append(f"| {r['strategy']} | {_pct(r['win'])} | {_ci(r['ci'])} | {r['games']} | "
                     f"{r['score']:.1f} |")
    lines += [
        "",
        "### Against the field of the others",
        "",
        "One seat; the other seats cycle through the other strategies of this table "
        f"(parity {100 / n:.0f}%). Mean score components show how the presets play differently.",
        "",
        "| strategy | win rate | 95% CI | games | score | "
        + " | ".join(p.removeprefix("pts_") for p in parts)
        + "".join(f" | {c.removeprefix('n_').replace('_', ' ')}" for c in extra) + " |",
        "|---|---:|---|---:|---:|" + "---:|" * (len(parts) + len(extra)),
    ]
    rows = sorted(data.vs_field, key=lambda r: -r["win"])
    if data.search:
        rows = sorted(rows + [data.search["vs_field"]], key=lambda r: -r["win"])
    for r in rows:
        lines.append(
            f"| {r['strategy']} | {_pct(r['win'])} | {_ci(r['ci'])} | {r['games']} | "
            f"{r['score']:.1f} | " + " | ".join(f"{r[p]:.1f}" for p in parts)
            + "".join(f" | {r[c]:.2f}" for c in extra) + " |"
        )
    if data.search:
        lines.append("")
        lines.append(f"({data.search['strategy']} plays the field of all the strategies above "
                     "with fewer games: it costs seconds per game.)")
    lines += [
        "",
        "### Head to head",
        "",
        f"Two seats each ({'A B ' * (n // 2)}rotated); share of the wins taken by A "
        "(parity 50%).",
        "",
        "| A | B | A's share | 95% CI | games | A score | B score |",
        "|---|---|---:|---|---:|---:|---:|",
    ]
    for r in data.head_to_head:
        lines.append(f"| {r['a']} | {r['b']} | {_pct(r['share'])} | {_ci(r['ci'])} | "
                     f"{r['games']} | {r['score_a']:.1f} | {r['score_b']:.1f} |")
    if data.search:
        s = data.search
        h = s["head_to_head"]
        settings = ", ".join(
            f"{k}={v:g}" for k, v in s["settings"].items()
            if not k.startswith(("_unused", "r_"))
        )
        lines += [
            "",
            f"### {s['strategy']} against the best preset ({s['best_preset']})",
            "",
            f"Default settings: {settings} (`tajsim strategies --game {spec.name}`).",
            "",
            "| A | B | A's share | 95% CI | games | A score | B score | seconds per game |",
            "|---|---|---:|---|---:|---:|---:|---:|",
            f"| {h['a']} | {h['b']} | {_pct(h['share'])} | {_ci(h['ci'])} | {h['games']} | "
            f"{h['score_a']:.1f} | {h['score_b']:.1f} | {h['seconds_per_game']:.2f} |",
            "",
            f"Seconds per game are wall-clock for a whole {n}-player game with two "
            f"{s['strategy']} seats, {s['threads']} games at a time on the machine above "
            f"(about {h['seconds_per_game'] * s['threads'] / 2:.2f} CPU-seconds per "
            f"{s['strategy']} seat per game); the heuristic seats cost about a millisecond "
            "per game.",
        ]
    p = data.python
    if p:
        lines += [
            "",
            "### Python seats",
            "",
            f"Seconds per {n}-player game ({p['games']} games each):",
            "",
            "| table | seconds per game |",
            "|---|---:|",
            f"| {n} x {p.get('preset', 'balanced')}, compiled batch kernel | "
            f"{p['kernel_balanced']:.5f} |",
            f"| {n} x {p.get('preset', 'balanced')}, Python game loop (compiled seats) | "
            f"{p['loop_balanced']:.5f} |",
        ]
        if "python_seat" in p:
            lines += [
                f"| example (Python) + {n - 1} x random | {p['python_seat']:.5f} |",
                f"| example (Python) + {n - 1} x {p.get('preset', 'balanced')} | "
                f"{p['python_seat_vs_balanced']:.5f} |",
                "",
                f"A table with one Python seat is about "
                f"{p['python_seat_vs_balanced'] / p['kernel_balanced']:.0f} times slower than "
                "the same table compiled. The example strategy wins "
                f"{_pct(p['example_vs_random'])} {_ci(p['example_ci'])} against {n - 1} random "
                "seats.",
            ]
    if data.openspiel:
        lines += [""] + render_openspiel(data.openspiel, spec.name)
    lines += ["", END]
    return "\n".join(lines)


def render_openspiel(rows: Sequence[dict], game: str) -> list[str]:
    """The OpenSpiel table (Markdown lines) of :func:`openspiel_tables`' rows."""
    n = rows[0]["players"]
    lines = [
        "### Against OpenSpiel's bots",
        "",
        f"Our search (A) against an OpenSpiel bot (B) playing through `tajsim.interop."
        f"openspiel`, {n} players, seats alternating (A B, rotated); share of the wins taken by "
        "A (parity 50%). Equal time: OpenSpiel's ISMCTS stops after the seconds per decision "
        "our search took at its own settings (measured alone first). Played by:",
        "",
        "```",
        *dict.fromkeys(r["command"] for r in rows if "command" in r),
        "```",
        "",
        "| setting | A | B | A's share | 95% CI | games | A s/decision | B s/decision |",
        "|---|---|---|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['setting']} | `{r['a']}` | `{r['b']}` | {_pct(r['share'])} | "
                     f"{_ci(r['ci'])} | {r['games']} | {r['seconds_per_decision_a']:.4f} | "
                     f"{r['seconds_per_decision_b']:.4f} |")
    return lines


def save_json(data: LadderData, path: str | Path) -> Path:
    """Write the measured numbers as JSON (``render_markdown`` can be rerun from it)."""
    file = Path(path)
    file.write_text(json.dumps(asdict(data), indent=1, default=float) + "\n")
    return file


def load_json(path: str | Path) -> LadderData:
    """Ladder numbers saved by :func:`save_json`; ``UserError`` if the file is not one."""
    try:
        return LadderData(**json.loads(Path(path).read_text()))
    except (OSError, ValueError, TypeError) as exc:
        raise UserError(f"{path} is not a saved ladder (JSON): {exc}") from None


def write_docs(data: LadderData, path: str | Path) -> Path:
    """Replace the measured section of ``path`` (between the markers), keeping the prose."""
    file = Path(path)
    block = render_markdown(data)
    if file.is_file():
        text = file.read_text()
        if BEGIN in text and END in text:
            head, rest = text.split(BEGIN, 1)
            _, tail = rest.split(END, 1)
            file.write_text(head + block + tail)
            return file
        file.write_text(text.rstrip() + "\n\n## Strength ladder\n\n" + block + "\n")
        return file
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text("# Strategies\n\n## Strength ladder\n\n" + block + "\n")
    return file
