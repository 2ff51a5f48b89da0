"""Surgical restricted play (issue 39 s2) for Taj Mahal, Maharaja and Maharani.

    nice -n 10 python experiments/restricted_surgical.py --game tajmahal
    nice -n 10 python experiments/restricted_surgical.py --game maharaja
    nice -n 10 python experiments/restricted_surgical.py --game maharani

(reports in reports/restricted_surgical/, reports/maharaja/restricted_surgical/,
reports/maharani/restricted_surgical/: report.md, table.csv, footprint.csv, tuned.json).

Each surgical family of the game (``Restriction.surgical``: one card, one option or one decision
kind; ``tajsim strategies --game G`` lists them) is measured at two skill levels, a stochastic
heuristic and a search at 20 iterations, as Jaffe et al. (AIIDE 2012) measure a feature: one
restricted seat against the same strategy unrestricted in the other three seats, the restricted
seat rotated through the four seats (``tajsim.analysis.restricted.restricted_play``: win-rate
loss with Newcombe's interval and the paired per-game interval, score loss with a paired t
interval, ``removes_game`` flagged and not ranked). Beside each value:

* **footprint** (``tajsim.play.footprint``): the share of the restricted seat's decisions whose
  unrestricted choice the restriction forbade, and the share of its legal actions it removed,
  counted by replaying the first games of the same run move by move (the same games: the replay's
  scores are checked against the batch's), with Wilson intervals over decisions;
* **re-tuned** (heuristic level): the restricted seat's weights re-tuned under its restriction
  by ``tajsim.play.tuning.tune(..., forbid=FAMILY)`` (CMA-ES; budget ``TUNE`` below: small, said
  in the report), then measured on fresh games like the others ("forbid, re-tuned" rows: the
  restricted seat's best response within the heuristic's weights);
* **ignore beside forbid** (heuristic level): for each family whose feature has a weight, the
  seat that may use the feature but weighs it 0 (``level:forbid=none:W=0``).

A search applies its restriction to its own seat's decisions in its tree and rollouts too
(the three search kernels, issue 39 s2).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np
import pandas as pd

from tajsim.analysis.restricted import WIN_RATE, restricted_play
from tajsim.analysis.stats import normal_quantile, wilson_interval
from tajsim.analysis.stats.verdicts import holm_family, tested_order
from tajsim.games.registry import get_game
from tajsim.play.arena import entry, play_lineups, rotated_lineups
from tajsim.play.footprint import footprint
from tajsim.play.tuning import tune

ROOT = Path(__file__).resolve().parent.parent
SEED = 2012

#: Per game: the edition, the two levels (heuristic, search), games per restricted strategy at
#: each, games replayed for the footprint at each, and the ignore pairs (family -> weights set
#: to 0 at the heuristic level).
GAMES = {
    "tajmahal": dict(
        report="reports/restricted_surgical", edition="2018",
        heuristic="tuned:temperature=0.1", search="ismcts:iterations=20",
        games=(2000, 200), footprint_games=(200, 40),
        ignore={"crown_claim": ("crown",), "connections": ("connect",), "crown": ("crown",),
                "goods": ("commodity", "elephant")},
        # the examples, broad: forbid=crown also forbids the 17 Grand-Mogul cards,
        # forbid=goods every card showing an elephant (it removes the game)
        broad=("crown", "goods"),
        note=("`crown_claim` cannot refuse the crown at a withdrawal (R6 awards every majority "
              "the seat holds), so it makes the seat play on while it holds the Grand-Mogul "
              "majority: its cost includes the cards spent playing on (its footprint counts "
              "those decisions). `forbid=crown` instead forbids the 17 Grand-Mogul cards "
              "(about 30% of the seat's legal actions)."),
    ),
    "maharaja": dict(
        report="reports/maharaja/restricted_surgical", edition="basic",
        heuristic="hoarder:temperature=1", search="search:iterations=20:temperature=0.25",
        games=(2000, 200), footprint_games=(200, 40),
        ignore={"monk": ("monk",), "builder": ("builder",), "trader": ("trader",),
                "artisan": ("artisan",), "governor": ("governor",),
                "central_palaces": ("centre",)},
    ),
    "maharani": dict(
        report="reports/maharani/restricted_surgical", edition="2012",
        heuristic="balanced:temperature=0.25", search="mcts:iterations=20",
        games=(2000, 200), footprint_games=(200, 40),
        ignore={"complete_quarter": ("complete",), "refresh": ("refresh",)},
    ),
}
#: The re-tuning budget of one family: CMA-ES generations x candidates x games a candidate,
#: and the held-out games (against the start, under the same restriction).
TUNE = dict(generations=8, popsize=8, games=120, heldout_games=800)
N_PLAYERS = 4
#: The control row: the level's weights re-tuned with the same budget, unrestricted.
CONTROL = "re-tuned, unrestricted"


def play_frame(spec, texts: list[str], level: str, n_games: int, first_game: int,
               edition: int, measures: tuple[str, ...]) -> pd.DataFrame:
    """One restricted strategy per text against ``level`` in the other seats, rotated: the
    results frame ``restricted_play`` reads (game ids from ``first_game`` on, per text)."""
    frames = []
    lineups = rotated_lineups([0] + [1] * (N_PLAYERS - 1), n_games)
    for i, text in enumerate(texts):
        entries = [entry(spec, text), entry(spec, level)]
        start = first_game + i * n_games
        res, _ = play_lineups(spec, entries, lineups, SEED, edition=edition, first_game=start)
        frame = pd.DataFrame({name: res[name] for name in ("game_id", "seat", "winner", "score",
                                                             "rank", *measures)
                              if name in res.dtype.names})
        frame["n_players"] = N_PLAYERS
        frame["strategy"] = np.array([texts[i], level])[lineups.reshape(-1)]
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


def footprint_rows(spec, texts: list[str], level: str, n_games: int, run_games: int,
                   first_game: int, edition: int, check: pd.DataFrame) -> list[dict]:
    """Footprint of each restricted text (``play_frame``'s runs of ``run_games`` games from
    ``first_game``) over its run's first ``n_games`` games, checked to be those games (the
    replay's scores equal the batch's)."""
    rows = []
    lineups = rotated_lineups([0] + [1] * (N_PLAYERS - 1), n_games)
    for i, text in enumerate(texts):
        start = first_game + i * run_games
        fp = footprint(spec, [text, level], lineups, 0, SEED, edition=edition, first_game=start)
        batch = check[(check["game_id"] >= start) & (check["game_id"] < start + n_games)] \
            .sort_values(["game_id", "seat"])["score"].to_numpy().reshape(n_games, N_PLAYERS)
        assert (batch == fp.scores).all(), f"the footprint replay of {text} is not the run"
        lo_c, hi_c = wilson_interval(fp.changed, fp.decisions, 0.95)
        lo_r, hi_r = wilson_interval(fp.removed, fp.legal, 0.95)
        rows.append(dict(restricted_strategy=text, games=fp.games, decisions=fp.decisions,
                         changed=fp.changed, changed_share=fp.changed_share,
                         changed_low=float(lo_c), changed_high=float(hi_c),
                         legal=fp.legal, removed=fp.removed, removed_share=fp.removed_share,
                         removed_low=float(lo_r), removed_high=float(hi_r), lifted=fp.lifted))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=sorted(GAMES), required=True)
    parser.add_argument("--scale", type=float, default=1.0,
                        help="multiply every game count and the tuning budget (a quick look: "
                             "0.05; writes to --out)")
    parser.add_argument("--out", default=None, help="report folder (default: the game's)")
    parser.add_argument("--report-only", action="store_true",
                        help="write report.md again from the folder's table.csv, tuned.json "
                             "and run.json (nothing played)")
    args = parser.parse_args()
    if args.scale != 1.0:
        TUNE.update(generations=max(1, int(TUNE["generations"] * args.scale)),
                    games=max(N_PLAYERS, int(TUNE["games"] * args.scale) // N_PLAYERS
                              * N_PLAYERS),
                    heldout_games=max(N_PLAYERS, int(TUNE["heldout_games"] * args.scale)
                                      // N_PLAYERS * N_PLAYERS))
    cfg = GAMES[args.game]
    spec = get_game(args.game)
    edition = spec.rules_code(cfg["edition"])
    measures = tuple(spec.score_display.measures) if spec.score_display else ("score",)
    families = [r for r in spec.restrictions if r.surgical]
    out = Path(args.out) if args.out else ROOT / cfg["report"]
    out.mkdir(parents=True, exist_ok=True)
    if args.report_only:  # the report again from the stored tables, nothing played
        sizes = json.loads((out / "run.json").read_text())
        TUNE.update(sizes["tune"])
        table = pd.read_csv(out / "table.csv", keep_default_na=False,
                            na_values=[""]).fillna({"family": "", "variant": ""})
        tuned = json.loads((out / "tuned.json").read_text())
        write_report(spec, cfg, families, table, tuned, out, sizes["n_h"], sizes["n_s"],
                     sizes["f_h"], sizes["f_s"], sizes["wall"], sizes["cpu"])
        print(f"rewrote {out / 'report.md'}")
        return
    t0, c0 = time.time(), time.process_time()
    n_h, n_s = (max(N_PLAYERS, int(n * args.scale) // N_PLAYERS * N_PLAYERS)
                for n in cfg["games"])
    f_h, f_s = (max(N_PLAYERS, min(int(n * args.scale) // N_PLAYERS * N_PLAYERS, m))
                for n, m in zip(cfg["footprint_games"], (n_h, n_s)))
    heuristic, search = cfg["heuristic"], cfg["search"]

    # 1. the re-tuned restricted seat of every family (heuristic level)
    tuned = {}
    for r in families:
        result = tune(heuristic, [heuristic], game=spec, n_players=N_PLAYERS, edition=edition,
                      seed=SEED, forbid=r.name, **TUNE)
        weights = ":".join(f"{k}={v:.4g}" for k, v in result.weights_dict().items())
        tuned[r.name] = dict(text=f"{heuristic}:forbid={r.name}:{weights}",
                             heldout=result.heldout, seconds=result.seconds)
        print(f"tuned {r.name}: held out {result.heldout['head_to_head_share']:.3f} vs start "
              f"({result.seconds:.0f} s)", flush=True)

    # the control: the same tuning without a restriction (tuning alone may beat the level's
    # preset; a re-tuned restricted seat is compared with it, not with the preset)
    result = tune(heuristic, [heuristic], game=spec, n_players=N_PLAYERS, edition=edition,
                  seed=SEED, **TUNE)
    weights = ":".join(f"{k}={v:.4g}" for k, v in result.weights_dict().items())
    tuned[CONTROL] = dict(text=f"{heuristic}:forbid=none:{weights}", heldout=result.heldout,
                          seconds=result.seconds)
    print(f"tuned the control: held out {result.heldout['head_to_head_share']:.3f} vs start "
          f"({result.seconds:.0f} s)", flush=True)

    # 2. the games: forbid, re-tuned and ignore at the heuristic level; forbid at the search
    forbid_h = [f"{heuristic}:forbid={r.name}" for r in families]
    retuned_h = [tuned[r.name]["text"] for r in families]
    broad_h = [f"{heuristic}:forbid={name}" for name in cfg.get("broad", ())]
    ignore_h = list(dict.fromkeys(f"{heuristic}:forbid=none:" + ":".join(f"{w}=0" for w in ws)
                                  for ws in cfg["ignore"].values()))
    forbid_s = [f"{search}:forbid={r.name}" for r in families]
    texts_h = forbid_h + retuned_h + broad_h + ignore_h + [tuned[CONTROL]["text"]]
    frame_h = play_frame(spec, texts_h, heuristic, n_h, 0, edition, measures)
    print(f"heuristic level: {len(frame_h) // N_PLAYERS:,} games", flush=True)
    frame_s = play_frame(spec, forbid_s, search, n_s, 1 << 30, edition, measures)
    print(f"search level: {len(frame_s) // N_PLAYERS:,} games", flush=True)
    table = restricted_play(pd.concat([frame_h, frame_s], ignore_index=True), measures)
    control = table["restricted_strategy"] == tuned[CONTROL]["text"]
    table.loc[control, "restriction"] = CONTROL
    table.loc[control, "family"] = ""
    table.loc[control, "variant"] = CONTROL

    # 3. footprints: the first games of each forbid and re-tuned run
    fp = footprint_rows(spec, forbid_h + retuned_h + broad_h, heuristic, f_h, n_h, 0, edition,
                        frame_h)
    fp += footprint_rows(spec, forbid_s, search, f_s, n_s, 1 << 30, edition, frame_s)
    fp_frame = pd.DataFrame(fp)
    table = table.merge(fp_frame, on="restricted_strategy", how="left")
    table["kind"] = table["family"].map({r.name: r.kind for r in spec.restrictions})
    table.to_csv(out / "table.csv", index=False)
    fp_frame.to_csv(out / "footprint.csv", index=False)
    (out / "tuned.json").write_text(json.dumps(tuned, indent=1, default=float) + "\n")
    wall, cpu = time.time() - t0, time.process_time() - c0
    sizes = dict(n_h=n_h, n_s=n_s, f_h=f_h, f_s=f_s, wall=wall, cpu=cpu, tune=TUNE)
    (out / "run.json").write_text(json.dumps(sizes, indent=1) + "\n")
    write_report(spec, cfg, families, table, tuned, out, n_h, n_s, f_h, f_s, wall, cpu)
    print(f"wrote {out} in {wall:.0f} s wall, {cpu:.0f} s CPU", flush=True)


def _cell(row: pd.Series, scale: float = 100.0, digits: int = 1) -> str:
    return (f"{scale * row['loss']:+.{digits}f} [{scale * row['ci_low']:+.{digits}f}, "
            f"{scale * row['ci_high']:+.{digits}f}]")


def _minus(row: pd.Series, control: pd.Series, scale: float = 100.0, digits: int = 1) -> str:
    """``row``'s loss minus ``control``'s, with a normal interval from their paired standard
    errors (two runs: independent games)."""
    z = normal_quantile(0.95)
    se = np.hypot((row["paired_ci_high"] - row["paired_ci_low"]) / (2 * z),
                  (control["paired_ci_high"] - control["paired_ci_low"]) / (2 * z))
    diff = row["loss"] - control["loss"]
    return (f"{scale * diff:+.{digits}f} [{scale * (diff - z * se):+.{digits}f}, "
            f"{scale * (diff + z * se):+.{digits}f}]")


def _share(row: pd.Series, what: str) -> str:
    if pd.isna(row.get(f"{what}_share")):
        return "-"
    return (f"{100 * row[f'{what}_share']:.1f}% [{100 * row[f'{what}_low']:.1f}, "
            f"{100 * row[f'{what}_high']:.1f}]")


def write_figure(spec, cfg, families, table, out: Path) -> str:
    """fig_surgical.png: each surgical family's win-rate loss (95% interval) against its
    footprint (the share of decisions changed), one panel per level; returns its file name."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = {r.name for r in families}
    win = table[(table["measure"] == WIN_RATE) & (table["variant"] == "forbid")
                & table["family"].isin(names)]
    levels = [cfg["heuristic"], cfg["search"]]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.6), sharey=False)
    for ax, level in zip(axes, levels):
        at = win[win["level"] == level]
        x = 100 * at["changed_share"].to_numpy(np.float64)
        y = 100 * at["loss"].to_numpy(np.float64)
        low = y - 100 * at["ci_low"].to_numpy(np.float64)
        high = 100 * at["ci_high"].to_numpy(np.float64) - y
        xlow = x - 100 * at["changed_low"].to_numpy(np.float64)
        xhigh = 100 * at["changed_high"].to_numpy(np.float64) - x
        ax.errorbar(x, y, yerr=[low, high], xerr=[xlow, xhigh], fmt="o", color="#1f77b4",
                    ecolor="#555", capsize=3, ms=5)
        for xi, yi, name in zip(x, y, at["family"]):
            ax.annotate(name, (xi, yi), textcoords="offset points", xytext=(5, 4), fontsize=8)
        ax.axhline(0, color="#999", lw=0.8)
        ax.set_xlabel("decisions changed by the restriction (%)")
        ax.set_ylabel("win-rate loss (points)")
        ax.set_title(f"{level} (n = {int(at['n'].max()):,} games a point)", fontsize=10)
        ax.grid(alpha=0.3)
    fig.suptitle(f"{spec.title}: surgical restrictions, value against footprint "
                 "(95% intervals)", fontsize=11)
    fig.tight_layout()
    fig.savefig(out / "fig_surgical.png", dpi=110)
    plt.close(fig)
    return "fig_surgical.png"


def write_report(spec, cfg, families, table, tuned, out, n_h, n_s, f_h, f_s, wall, cpu):
    measures = [m for m in dict.fromkeys(table["measure"]) if m != WIN_RATE]
    score = measures[0]
    win = table[table["measure"] == WIN_RATE].reset_index(drop=True)
    sc = table[table["measure"] == score].set_index("restricted_strategy")
    tested = (win["variant"] != CONTROL).to_numpy()  # the control is no feature's loss
    family = holm_family(win.loc[tested, "p_value"].to_numpy(np.float64))
    win["holm"] = False
    win.loc[tested, "holm"] = family.holds & win.loc[tested, "significant"].to_numpy(bool)
    lines = [f"# {spec.title}: surgical restricted play (issue 39 s2)", "",
             "Generated by `nice -n 10 python experiments/restricted_surgical.py --game "
             f"{spec.name}` (seed {SEED}, {N_PLAYERS} players, edition {cfg['edition']}; "
             f"{wall / 60:.1f} min wall, {cpu / 60:.1f} min CPU on the shared 2-core machine).",
             "",
             "One restricted seat against three seats of the same strategy unrestricted, the "
             "restricted seat rotated through the seats. **Loss** = the unrestricted seats' mean "
             "minus the restricted seat's (positive: the feature pays): win rate in percentage "
             "points (a shared win counts 1/k) with Newcombe's 95% interval, "
             f"{score} with the paired per-game t interval. **Changed**: share of the restricted "
             "seat's decisions (more than one legal action) whose unrestricted choice the "
             "restriction forbade; **removed**: share of its legal actions the restriction "
             "removed; both with Wilson 95% intervals over decisions, counted by replaying the "
             f"first {f_h} (heuristic) / {f_s} (search) games of each run move by move (the "
             "replay's scores are checked equal to the run's); **lifted**: decisions where "
             "every legal action was forbidden (the restriction is lifted).", "",
             f"Levels: **{cfg['heuristic']}** ({n_h:,} games a row) and **{cfg['search']}** "
             f"({n_s:,} games a row; its restriction reaches its own decisions in its tree and "
             "rollouts).", "",
             "**Re-tuned**: the restricted seat's weights re-tuned under the restriction with "
             f"`tajsim.play.tuning.tune(..., forbid=FAMILY)` (CMA-ES, {TUNE['generations']} "
             f"generations x {TUNE['popsize']} candidates x {TUNE['games']} games against "
             f"three {cfg['heuristic']} seats; a small budget), then measured on fresh games "
             "at the heuristic level; its held-out share is against its start weights, both "
             "restricted (parity 50%). Tuning alone can beat the level's preset, so the "
             "**control** is the same tuning (budget, seed, opponents) without a restriction, "
             "measured the same way; **minus the control** is the re-tuned loss minus the "
             "control's loss (the re-tuned value of the feature at equal tuning; interval from "
             "the two runs' paired standard errors, independent games). The re-tuned rows "
             "rest on one small tuning run each (and the control on one): their intervals "
             "hold the games' noise, not the tuning's (measured on fresh games, a re-tuned seat "
             "is no stronger than a best response: its loss bounds the best response's from "
             "above), so read them with that caution. **Ignore**: the seat "
             "may use the feature but weighs it 0 (`forbid=none:W=0`).", ""]
    lines += [cfg["note"], ""] if cfg.get("note") else []
    removed = sorted(set(win[win["removes_game"]]["family"]))
    if removed:
        lines += [f"**Removes the game** (the seat almost never wins, not ranked): "
                  f"{', '.join(removed)}.", ""]
    lines += [f"Family-wise (Holm over the {family.size} win-rate losses of this report at 5%, "
              "every family, level and variant; the control left out): "
              f"{int(win['holm'].sum())} of {family.size} told from zero.", ""]
    figure = write_figure(spec, cfg, families, table, out)
    lines += [f"![win-rate loss against footprint]({figure})", ""]
    # the main table: one row per family and level
    ctrl_win = win[win["variant"] == CONTROL].iloc[0]
    ctrl_score = sc.loc[ctrl_win["restricted_strategy"]]
    head = ("| family | kind | level | win-rate loss (points) | "
            f"{score} loss | changed | removed | lifted | re-tuned win-rate loss | minus the "
            f"control | re-tuned {score} loss | minus the control | re-tuned: held out vs "
            "start | n |")
    lines += ["## Each surgical family at each level", "", head,
              "|" + "|".join(["---"] * (head.count("|") - 1)) + "|"]
    for r in families:
        for level in (cfg["heuristic"], cfg["search"]):
            row = win[(win["family"] == r.name) & (win["level"] == level)
                      & (win["variant"] == "forbid")]
            if row.empty:
                continue
            row = row.iloc[0]
            s = sc.loc[row["restricted_strategy"]]
            cells = [r.name, r.kind, level, _cell(row) + (" *" if row["holm"] else ""),
                     _cell(s, 1.0, 2), _share(row, "changed"), _share(row, "removed"),
                     f"{int(row['lifted']) if not pd.isna(row['lifted']) else '-'}"
                     f" of {int(row['decisions']) if not pd.isna(row['decisions']) else '-'}"]
            rt = win[(win["family"] == r.name) & (win["level"] == level)
                     & (win["variant"] == "forbid, re-tuned")]
            if len(rt):
                rt = rt.iloc[0]
                h = tuned[r.name]["heldout"]
                lo, hi = h["head_to_head_ci"]
                cells += [_cell(rt) + (" *" if rt["holm"] else ""),
                          _minus(rt, ctrl_win), _cell(sc.loc[rt["restricted_strategy"]], 1.0, 2),
                          _minus(sc.loc[rt["restricted_strategy"]], ctrl_score, 1.0, 2),
                          f"{100 * h['head_to_head_share']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
                          f" (parity {100 * h['parity']:.0f}%, {h['games']} games)"]
            else:
                cells += ["-", "-", "-", "-", "-"]
            cells.append(f"{int(row['n']):,}")
            if row["removes_game"]:
                cells[0] += " (removes the game)"
            lines.append("| " + " | ".join(cells) + " |")
    h = tuned[CONTROL]["heldout"]
    lo, hi = h["head_to_head_ci"]
    lines += ["", "\\* told from zero family-wise (Holm, 5%).", "",
              f"The control ({CONTROL}, `{ctrl_win['restricted_strategy']}`): win-rate loss "
              f"{_cell(ctrl_win)} points, {score} loss {_cell(ctrl_score, 1.0, 2)} "
              f"({int(ctrl_win['n']):,} games; held out against its start "
              f"{100 * h['head_to_head_share']:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of the "
              f"wins, parity 50%, {h['games']} games).", ""]
    # ignore beside forbid
    lines += ["## Ignore beside forbid (heuristic level)", "",
              "| family (kind) | ignore: weight 0 | win-rate loss | "
              f"{score} loss | forbid | win-rate loss | {score} loss | changed | removed |",
              "|---|---|---|---|---|---|---|---|---|"]
    for fam, weights in cfg["ignore"].items():
        ig = win[(win["variant"] == "ignore") & (win["family"] == "+".join(f"{w}=0"
                                                                           for w in weights))]
        fb = win[(win["variant"] == "forbid") & (win["family"] == fam)
                 & (win["level"] == cfg["heuristic"])]
        if ig.empty or fb.empty:
            continue
        ig, fb = ig.iloc[0], fb.iloc[0]
        kind = next(r.kind for r in spec.restrictions if r.name == fam)
        lines.append(f"| {fam} ({kind}) | {'+'.join(f'{w}=0' for w in weights)} | {_cell(ig)} | "
                     f"{_cell(sc.loc[ig['restricted_strategy']], 1.0, 2)} | forbid={fam}"
                     f"{' (removes the game)' if fb['removes_game'] else ''} | "
                     f"{_cell(fb)} | {_cell(sc.loc[fb['restricted_strategy']], 1.0, 2)} | "
                     f"{_share(fb, 'changed')} | {_share(fb, 'removed')} |")
    lines += ["", "## Tested order of the features (forbid, not the game-removing ones)", ""]
    z = normal_quantile(0.95)
    for level in (cfg["heuristic"], cfg["search"]):
        at = win[(win["level"] == level) & (win["variant"] == "forbid")
                 & ~win["removes_game"]]
        if len(at) < 2:
            continue
        for what, rows in (("win-rate loss", at),
                           (f"{score} loss", table[(table["measure"] == score)
                                                   & table["restricted_strategy"]
                                                   .isin(at["restricted_strategy"])])):
            order = tested_order(list(rows["family"]), rows["loss"].to_numpy(np.float64),
                                 se=((rows["paired_ci_high"] - rows["paired_ci_low"])
                                     / (2 * z)).to_numpy(np.float64))
            lines.append(f"- {level}, by {what}: {order.value} (tiers: every cross-tier pair "
                         f"separated, Holm over the pairs at 5%; {order.braces_note()}).")
    lines += ["", "Files: `table.csv` (every row of `restricted_play` with its footprint), "
              "`footprint.csv`, `tuned.json` (the re-tuned weights as strategy texts, with "
              "their held-out evaluation).", ""]
    (out / "report.md").write_text("\n".join(lines))


if __name__ == "__main__":
    main()
