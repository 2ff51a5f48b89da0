"""The ladder's document: its tables and summary as Markdown (:func:`render_markdown`,
:func:`render_openspiel`), written between the markers ``BEGIN`` and ``END`` of the strategies
document with the prose around them kept (:func:`write_docs`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from tajsim.analysis.ratings import (
    PairMatrix,
    Structure,
    bradley_terry_pairs,
    bradley_terry_verdict,
    head_to_head_structure,
)
from tajsim.games.registry import get_game
from tajsim.reporting.ladder.config import LadderData, extra_columns

BEGIN = "<!-- ladder:begin -->"
END = "<!-- ladder:end -->"


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


def _random_seats(n: int) -> str:
    """The other seats of a one-seat table against random, in words ("three `random` seats")."""
    words = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five"}
    return f"{words.get(n - 1, str(n - 1))} `random` seat{'s' if n > 2 else ''}"


def _parity_verdict(ci: Sequence[float]) -> str:
    """Whether a head-to-head share's interval excludes parity (50%), in words."""
    return "excludes" if ci[0] > 0.5 or ci[1] < 0.5 else "does NOT exclude"


def _pair_matrix(data: LadderData) -> PairMatrix | None:
    """The head-to-head table as matrices (None with fewer than three strategies)."""
    rows = data.head_to_head
    names = list(dict.fromkeys([*(r["a"] for r in rows), *(r["b"] for r in rows)]))
    if len(names) < 3:
        return None
    return PairMatrix.from_pairs([r["a"] for r in rows], [r["b"] for r in rows],
                                 [r["share"] for r in rows], [r["ci"][0] for r in rows],
                                 [r["ci"][1] for r in rows], [r["games"] for r in rows],
                                 order=names)


def _cycles_text(structure: Structure) -> list[str]:
    """Each cycle named, its edges with their shares, and whether it survives Holm."""
    k = len(structure.pairs.names)
    pairs = k * (k - 1) // 2
    if not structure.cycles:
        return ["No cycle: the pairs whose interval excludes 50% all point the way of one "
                "order."]
    out = [f"Cycles (each edge an interval that excludes 50%; each cycle marked whether every "
           f"edge also survives Holm's correction over the {pairs} pairs):", ""]
    for cycle, holds in zip(structure.cycles, structure.cycle_holm):
        out.append(f"* {structure.cycle_text(cycle)}"
                   + (" (survives Holm)" if holds else " (an edge does NOT survive Holm)"))
    return out


def structure_lines(data: LadderData) -> list[str]:
    """The head-to-head matrix, its cycles, and Bradley-Terry beside Nash averaging (issue 39:
    a ranking that does not force transitivity, each with its best-strategy verdict)."""
    pairs = _pair_matrix(data)
    if pairs is None:
        return []
    structure = head_to_head_structure(pairs)
    bt = bradley_terry_pairs(pairs)
    order = list(bt["strategy"])
    index = [pairs.names.index(name) for name in order]
    beats = pairs.beats()
    lines = [
        "",
        "### Head-to-head structure",
        "",
        "Row's share of the wins against the column, from the table above (strongest first by "
        "Bradley-Terry; the search strategy plays only its own table, below); **strong** "
        "type: the row beats the column, its interval above 50%. Only those edges count as "
        "\"beats\" below.",
        "",
        "| | " + " | ".join(order) + " |",
        "|---|" + "---:|" * len(order),
    ]
    for i in index:
        cells = []
        for j in index:
            if i == j or not np.isfinite(pairs.share[i, j]):
                cells.append("")
                continue
            value = f"{100 * pairs.share[i, j]:.1f}"
            cells.append(f"**{value}**" if beats[i, j] else value)
        lines.append(f"| {pairs.names[i]} | " + " | ".join(cells) + " |")
    lines += ["", *_cycles_text(structure), ""]
    nash = structure.nash.set_index("strategy")
    lines += [
        "Two rankings: Bradley-Terry (one strength each, fitted to all pairs; it orders a cycle "
        "as if it were transitive) and Nash averaging (Balduzzi et al. 2018: the "
        "maximum-entropy Nash equilibrium of the game whose payoff is the share above 50%; "
        "the equilibrium's strategies are those no strategy beats on average, and each "
        "strategy's share against the equilibrium mixture ranks the rest).",
        "",
        "| strategy | Bradley-Terry strength | 95% CI | Nash weight | share against the "
        "Nash mixture |",
        "|---|---:|---|---:|---:|",
    ]
    for r in bt.itertuples():
        if r.separated:
            strength, ci = ("+inf" if r.separated == "above all" else "-inf"), r.separated
        else:
            strength, ci = f"{r.strength:+.2f}", f"[{r.ci_low:+.2f}, {r.ci_high:+.2f}]"
        row = nash.loc[r.strategy]
        lines.append(f"| {r.strategy} | {strength} | {ci} | {100 * row.nash_weight:.0f}% | "
                     f"{_pct(row.nash_payoff)} |")
    lines += ["", f"Best strategy by Bradley-Terry: {bradley_terry_verdict(bt)}. "
              f"By Nash averaging: {structure.verdict}."]
    return lines


def _summary(data: LadderData) -> list[str]:
    """The targets of the ladder, each with its measured number."""
    n = data.config["n_players"]
    out = ["", "### Summary", ""]
    for r in data.vs_random:
        if r["strategy"] == "random":
            continue
        verdict = "above" if r["ci"][0] > 1 / n else "NOT clearly above"
        out.append(f"* `{r['strategy']}` in one seat against {_random_seats(n)} wins "
                   f"{_pct(r['win'])} {_ci(r['ci'])} of {r['games']} games ({verdict} the "
                   f"{100 / n:.0f}% parity).")
    if data.search:
        s = data.search
        h = s["head_to_head"]
        out.append(f"* `{s['strategy']}` takes {_pct(h['share'])} {_ci(h['ci'])} of the wins "
                   f"against `{s['best_preset']}` (the best preset against the field) head to "
                   f"head over {h['games']} games; the interval {_parity_verdict(h['ci'])} "
                   "parity. It costs "
                   f"{h['seconds_per_game']:.2f} s per game (two {s['strategy']} seats).")
        if "vs_strongest" in s:
            h = s["vs_strongest"]
            out.append(f"* Against `{s['strongest']}`, the strongest strategy against the "
                       f"field, `{s['strategy']}` takes {_pct(h['share'])} {_ci(h['ci'])} of "
                       f"the wins head to head over {h['games']} games; the interval "
                       f"{_parity_verdict(h['ci'])} parity.")
    pairs = _pair_matrix(data)
    if pairs is not None:
        structure = head_to_head_structure(pairs)
        named = "; ".join(" > ".join(f"`{x}`" for x in (*c, c[0])) for c in structure.cycles)
        out.append(f"* Head to head among the strategies of the table (the search plays only "
                   f"its own table), by Nash averaging: {structure.verdict}. "
                   + (f"Cycles (every edge an interval that excludes 50%): {named}."
                      if named else "No cycle among the pairs whose interval excludes 50%."))
    spec = get_game(data.config.get("game"))
    for a, b in spec.notes.ladder_pairs:
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
    spec = get_game(cfg.get("game"))
    parts = spec.part_columns
    extra = extra_columns(spec)
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
        f"### Against {n - 1} random seat{'s' if n > 2 else ''} (parity {100 / n:.0f}%)",
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
    lines += structure_lines(data)
    if data.search:
        s = data.search
        h = s["head_to_head"]
        settings = ", ".join(
            f"{k}={v:g}" for k, v in s["settings"].items()
            if not k.startswith(("_unused", "r_"))
        )
        lines += [
            "",
            f"### {s['strategy']} against the best preset ({s['best_preset']})"
            + (f" and the strongest strategy ({s['strongest']})" if "vs_strongest" in s
               else ""),
            "",
            f"Default settings: {settings} (`tajsim strategies --game {spec.name}`).",
            "",
            "| A | B | A's share | 95% CI | games | A score | B score | seconds per game |",
            "|---|---|---:|---|---:|---:|---:|---:|",
            *(f"| {r['a']} | {r['b']} | {_pct(r['share'])} | {_ci(r['ci'])} | {r['games']} | "
              f"{r['score_a']:.1f} | {r['score_b']:.1f} | {r['seconds_per_game']:.2f} |"
              for r in (h, s.get("vs_strongest")) if r),
            "",
            f"Seconds per game are wall-clock for a whole {n}-player game with two "
            f"{s['strategy']} seats, {s['threads']} games at a time on the machine above "
            f"(about {h['seconds_per_game'] * s['threads'] / 2:.2f} CPU-seconds per "
            f"{s['strategy']} seat per game); the heuristic seats cost about a millisecond "
            "per game.",
        ]
        later = (s.get("vs_strongest") or {}).get("added")
        if later:  # a table played into a saved ladder afterwards (same games, later tree)
            lines += ["", f"The row against {s['strongest']} was added {later}: the same "
                      "games the command above plays for it, so its shares reproduce, but "
                      "its seconds are not comparable with the rows measured before."]
    p = data.python
    if p:
        preset = p.get("preset", spec.reference_preset)
        lines += [
            "",
            "### Python seats",
            "",
            f"Seconds per {n}-player game ({p['games']} games each):",
            "",
            "| table | seconds per game |",
            "|---|---:|",
            f"| {n} x {preset}, compiled batch kernel | {p['kernel_preset']:.5f} |",
            f"| {n} x {preset}, Python game loop (compiled seats) | {p['loop_preset']:.5f} |",
        ]
        if "python_seat" in p:
            lines += [
                f"| example (Python) + {n - 1} x random | {p['python_seat']:.5f} |",
                f"| example (Python) + {n - 1} x {preset} | "
                f"{p['python_seat_vs_preset']:.5f} |",
                "",
                f"A table with one Python seat is about "
                f"{p['python_seat_vs_preset'] / p['kernel_preset']:.0f} times slower than "
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
    sizes = sorted({int(r["players"]) for r in rows})
    one_size = len(sizes) == 1  # else a players column: tables of several sizes are kept
    where = f"{sizes[0]} players" if one_size else "at the players of each row"
    lines = [
        "### Against OpenSpiel's bots",
        "",
        f"Our search (A) against an OpenSpiel bot (B) playing through `tajsim.interop."
        f"openspiel`, {where}, seats alternating (A B, rotated); share of the wins taken by "
        "A (parity 50%). Equal time: OpenSpiel's ISMCTS stops after the seconds per decision "
        "our search took at its own settings (measured alone first). Played by:",
        "",
        "```",
        *dict.fromkeys(r["command"] for r in rows if "command" in r),
        "```",
        "",
        "| setting | " + ("" if one_size else "players | ") + "A | B | A's share | 95% CI | "
        "games | A s/decision | B s/decision |",
        "|---|" + ("" if one_size else "---:|") + "---|---|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        size = "" if one_size else f"{r['players']} | "
        lines.append(f"| {r['setting']} | {size}`{r['a']}` | `{r['b']}` | {_pct(r['share'])} | "
                     f"{_ci(r['ci'])} | {r['games']} | {r['seconds_per_decision_a']:.4f} | "
                     f"{r['seconds_per_decision_b']:.4f} |")
    return lines


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
