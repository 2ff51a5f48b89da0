"""The strength ladder: measured win rates of the strategies, written into ``docs/strategies.md``.

``tajsim ladder`` (or ``python -m tajsim.reporting.ladder``) plays, with seats rotated and 4
players by default:

1. **Against a random field**: each strategy in one seat, three ``random`` seats.
2. **Against the field of the others**: each strategy in one seat, the other seats filled from
   the other fast strategies in turn (``ismcts`` joins with fewer games).
3. **Head to head**: every pair, two seats each (A B A B, rotated); the share of the wins taken
   by the first strategy, parity 0.5.
4. **ismcts** against the best heuristic preset of table 2, head to head, with the wall-clock
   seconds per game.
5. **Python seats**: the cost of a pure-Python policy at the table.

Win shares count a tied win as shared. Intervals are Wilson 95% intervals over games (each game
gives the entry one share in [0, 1]). Everything is a pure function of the seed: game ``g`` of
a table has game id ``base + g`` with a base per table derived from the seed.

The measured section of ``docs/strategies.md`` lies between ``<!-- ladder:begin -->`` and
``<!-- ladder:end -->``; the prose around it is kept.
"""

from __future__ import annotations

import datetime as _dt
import itertools
import json
import os
import platform
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from tajsim.play.arena import (
    entry,
    game_shares,
    mean_by_entry,
    play_lineups,
    rotated_lineups,
)
from tajsim.play.tuning import field_lineups

BEGIN = "<!-- ladder:begin -->"
END = "<!-- ladder:end -->"
FAST = ("random", "greedy", "balanced", "commodity", "network", "hoarder", "collector", "tuned")
PARTS = ("pts_palace", "pts_connection", "pts_commodity", "pts_bonus", "pts_special",
         "pts_cards")


@dataclass
class LadderConfig:
    """What the ladder plays; ``quick()`` is a tiny version for tests."""

    strategies: tuple[str, ...] = FAST
    search: str = "ismcts"
    n_players: int = 4
    edition: int = 0
    seed: int = 2024
    random_games: int = 4000
    field_games: int = 8000
    h2h_games: int = 4000
    search_field_games: int = 200
    search_h2h_games: int = 400
    python_games: int = 200
    threads: int = 1
    search_threads: int = 2
    command: str = "tajsim ladder"

    @classmethod
    def quick(cls, **kw) -> LadderConfig:
        base = dict(random_games=16, field_games=16, h2h_games=16, search_field_games=4,
                    search_h2h_games=4, python_games=2)
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
    seconds: float = 0.0


def _wilson(successes: float, n: int) -> tuple[float, float]:
    from tajsim.analysis.stats import wilson_interval

    lo, hi = wilson_interval(successes, n)
    return float(lo), float(hi)


def _base(seed: int, table: int) -> int:
    """First game id of table ``table`` (tables never share games)."""
    return int(table) << 32


def machine_info() -> dict:
    cpu = platform.processor() or ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numba

    return {
        "cpu": cpu or "unknown",
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "platform": platform.platform(),
        "date": _dt.date.today().isoformat(),
    }


# ---------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------
def _one_seat_table(name: str, field_names: Sequence[str], n_games: int, cfg: LadderConfig,
                    table: int, threads: int) -> dict:
    """``name`` in one rotating seat; the other seats cycle through ``field_names``."""
    entries = [entry(name)] + [entry(f) for f in field_names]
    n = cfg.n_players
    n_games = max(n, n_games - n_games % n)
    lineups = field_lineups(n, len(field_names), n_games)
    t0 = time.time()
    results, _ = play_lineups(entries, lineups, cfg.seed, edition=cfg.edition,
                              first_game=_base(cfg.seed, table), threads=threads)
    seconds = time.time() - t0
    share = game_shares(results, lineups, 0)
    wins = float(share.sum())
    lo, hi = _wilson(wins, n_games)
    row = {"strategy": name, "games": n_games, "win": wins / n_games, "ci": (lo, hi),
           "seconds_per_game": seconds / n_games}
    for col in ("score",) + PARTS + ("n_prestige", "n_province_tiles", "hand_end"):
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
    t0 = time.time()
    results, _ = play_lineups([entry(a), entry(b)], lineups, cfg.seed, edition=cfg.edition,
                              first_game=_base(cfg.seed, table), threads=threads)
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
    table with one pure-Python seat (the example strategy)."""
    from tajsim.games.tajmahal.strategies.python_policy import play_python_games

    example = Path(__file__).resolve().parents[2] / "strategies" / "example_cautious.py"
    n = cfg.n_players
    games = max(n, cfg.python_games - cfg.python_games % n)
    out: dict = {"games": games}
    lineups = rotated_lineups([0] * n, games)
    play_lineups([entry("balanced")], lineups[:n], cfg.seed, first_game=_base(cfg.seed, 90))
    t0 = time.time()
    play_lineups([entry("balanced")], lineups, cfg.seed, first_game=_base(cfg.seed, 90))
    out["kernel_balanced"] = (time.time() - t0) / games
    t0 = time.time()
    play_python_games(["balanced"] * n, games, cfg.seed, first_game=_base(cfg.seed, 90))
    out["loop_balanced"] = (time.time() - t0) / games
    if example.is_file():
        seats = [f"py:{example}"] + ["random"] * (n - 1)
        t0 = time.time()
        res, _, lu = play_python_games(seats, games, cfg.seed, first_game=_base(cfg.seed, 91))
        out["python_seat"] = (time.time() - t0) / games
        winner = res["winner"].reshape(games, n).astype(float)
        share = (winner / np.maximum(winner.sum(1, keepdims=True), 1) * (lu == 0)).sum(1)
        out["example_vs_random"] = float(share.mean())
        out["example_ci"] = _wilson(float(share.sum()), games)
        seats = [f"py:{example}"] + ["balanced"] * (n - 1)
        t0 = time.time()
        play_python_games(seats, games, cfg.seed, first_game=_base(cfg.seed, 92))
        out["python_seat_vs_balanced"] = (time.time() - t0) / games
    return out


def run_ladder(cfg: LadderConfig, log: Callable[[str], None] | None = None) -> LadderData:
    """Play every table of the ladder (see the module docstring)."""
    from tajsim.games.tajmahal.strategies.registry import get_strategy, strategy_names

    say = log or (lambda _m: None)
    t_start = time.time()
    names = [s for s in cfg.strategies if s in strategy_names()]
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
                   if "preset" in get_strategy(r["strategy"]).tags]
        best = max(presets, key=lambda r: r["win"])["strategy"] if presets else "balanced"
        say(f"{cfg.search} vs field")
        search_field = _one_seat_table(cfg.search, names, cfg.search_field_games, cfg, 500,
                                       cfg.search_threads)
        say(f"{cfg.search} vs {best} head to head")
        h2h = _head_to_head(cfg.search, best, cfg.search_h2h_games, cfg, 501, cfg.search_threads)
        spec = get_strategy(cfg.search.split(":")[0])
        data.search = {
            "strategy": cfg.search,
            "settings": spec.named_params(),
            "best_preset": best,
            "vs_field": search_field,
            "head_to_head": h2h,
            "threads": cfg.search_threads,
        }
    say("python policy timing")
    data.python = _python_timing(cfg)
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
    tuned = _find_h2h(data, "tuned", "balanced")
    if tuned:
        share, (lo, hi), games = tuned
        verdict = "beats" if lo > 0.5 else "does NOT clearly beat"
        out.append(f"* `tuned` takes {_pct(share)} {_ci((lo, hi))} of the wins against "
                   f"`balanced`, the preset it started from, head to head over {games} games "
                   f"({verdict} it).")
    return out


def render_markdown(data: LadderData) -> str:
    cfg = data.config
    m = data.machine
    n = cfg["n_players"]
    lines = [
        BEGIN,
        "",
        f"Measured on {m['date']}: {m['cpu']} ({m['cores']} cores, shared), Python "
        f"{m['python']}, numba {m['numba']}; {cfg['n_players']} players, edition "
        f"{'2018' if cfg['edition'] == 0 else '2000'}, seats rotated, master seed "
        f"{cfg['seed']}; {data.seconds / 60:.0f} minutes in all. Regenerate with:",
        "",
        "```",
        cfg["command"],
        "```",
        "",
        "Win rates count a tied win as shared; intervals are Wilson 95% intervals over games. "
        f"With {n} players parity in one seat is {100 / n:.0f}%.",
    ]
    lines += _summary(data)
    lines += [
        "",
        f"### Against three random seats (parity {100 / n:.0f}%)",
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
        "| strategy | win rate | 95% CI | games | score | palace | connection | commodity | "
        "bonus | special | cards | prestige cards | province tiles |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    rows = sorted(data.vs_field, key=lambda r: -r["win"])
    if data.search:
        rows = sorted(rows + [data.search["vs_field"]], key=lambda r: -r["win"])
    for r in rows:
        lines.append(
            f"| {r['strategy']} | {_pct(r['win'])} | {_ci(r['ci'])} | {r['games']} | "
            f"{r['score']:.1f} | " + " | ".join(f"{r[p]:.1f}" for p in PARTS)
            + f" | {r['n_prestige']:.2f} | {r['n_province_tiles']:.2f} |"
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
            f"Default settings: {settings}; rollouts use the heuristic with the preset weights "
            "shown by `tajsim strategies`.",
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
            f"| 4 x balanced, compiled batch kernel | {p['kernel_balanced']:.5f} |",
            f"| 4 x balanced, Python game loop (compiled seats) | {p['loop_balanced']:.5f} |",
        ]
        if "python_seat" in p:
            lines += [
                f"| example_cautious (Python) + 3 x random | {p['python_seat']:.5f} |",
                f"| example_cautious (Python) + 3 x balanced | "
                f"{p['python_seat_vs_balanced']:.5f} |",
                "",
                f"A table with one Python seat is about "
                f"{p['python_seat_vs_balanced'] / p['kernel_balanced']:.0f} times slower than "
                "the same table compiled. The example strategy wins "
                f"{_pct(p['example_vs_random'])} {_ci(p['example_ci'])} against three random "
                "seats.",
            ]
    lines += ["", END]
    return "\n".join(lines)


def save_json(data: LadderData, path: str | Path) -> Path:
    """Write the measured numbers as JSON (``render_markdown`` can be rerun from it)."""
    file = Path(path)
    file.write_text(json.dumps(asdict(data), indent=1, default=float) + "\n")
    return file


def load_json(path: str | Path) -> LadderData:
    """Ladder numbers saved by :func:`save_json`; ``UserError`` if the file is not one."""
    from tajsim.errors import UserError

    try:
        return LadderData(**json.loads(Path(path).read_text()))
    except (OSError, ValueError, TypeError) as exc:
        raise UserError(f"{path} is not a saved ladder (JSON): {exc}") from None


def write_docs(data: LadderData, path: str | Path = "docs/strategies.md") -> Path:
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


def main(argv: Sequence[str] | None = None) -> None:
    from tajsim.cli.ladder import command

    command.main(args=list(argv) if argv is not None else None,
                 prog_name="python -m tajsim.reporting.ladder")


if __name__ == "__main__":
    main()
