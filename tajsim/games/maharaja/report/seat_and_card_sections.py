"""Maharaja's report section "The seat and the card apart" (``seat_and_card``): the win rate
of each seat given the card it drafted (a seat x card table), and ``win ~ seat + card`` (each
seat's card-adjusted rate with its equivalence verdict, each card's seat-adjusted rate in a
tested order, the joint tests). Meant for forced drafts (``draft=<card>``,
``experiments/maharaja/seat_and_card.toml``); in a free draft it says where seat and card are
confounded.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm

from tajsim.analysis.stats.verdicts import tested_order
from tajsim.games.maharaja.analyses.seat_and_card import (
    CARD_ORDER,
    CARDS_EQUAL,
    NO_INTERACTION,
    SEATS_EQUAL,
)
from tajsim.games.maharaja.report.section_helpers import (
    _card_names,
    _ci,
    _components,
    _facet,
    _skip,
)
from tajsim.reporting.render import ReportContext, group_label, panel_grid, pct

#: Cells (a seat with a drafted card) of fewer player-games are shown blank in the figure.
MIN_CELL = 30


def _keys(table: pd.DataFrame, facet: list[str]) -> list[str]:
    """The groups' columns: the facet, and the player count when it varies."""
    return [*facet, *(["n_players"] if table["n_players"].nunique() > 1 else [])]


def _split(table: pd.DataFrame, keys: list[str]) -> list[tuple[str, pd.DataFrame]]:
    if not keys:
        return [("all games", table)]
    return sorted(((group_label(g.iloc[0], keys), g)
                   for _, g in table.groupby(keys, observed=True, sort=True)),
                  key=lambda item: item[0])


def _points(x: float) -> str:
    return f"{100 * x:+.1f}"


def _heat_figure(ctx: ReportContext, groups: list[tuple[str, pd.DataFrame]],
                 cards: dict[str, str]) -> None:
    """One heat map a group: each seat's win rate (%) with each drafted card, white at the
    group's rate of equal players. Groups of other player counts have other such rates, so one
    colour bar is shared only where every panel's is the same; otherwise each panel has its
    own (a shared bar would read one group's scale onto the others)."""
    order = list(cards)
    parities = [100 * float(g["baseline"].mean()) for _, g in groups]
    shared = bool(np.allclose(parities, parities[0]))
    fig, axes = panel_grid(len(groups), panel_height=(0.0 if shared else 0.6) + 1.1 + 0.34 * max(
        int(g["seat"].dropna().nunique()) for _, g in groups), extra_height=0.5 if shared else 0)
    label = "win rate (%); white: the rate of equal players"
    image = None
    for ax, (title, sub), parity in zip(axes, groups, parities):
        cells = sub[sub["seat"].notna() & (sub["card"] != "all") & (sub["n"] >= MIN_CELL)]
        grid = cells.pivot_table(index="seat", columns="card", values="win_rate",
                                 observed=True).reindex(columns=order)
        if title != "all games":
            ax.set_title(title)
        if grid.empty:  # an empty image has no extent (matplotlib warns of singular limits)
            ax.text(0.5, 0.5, f"no cell of {MIN_CELL} player-games or more", ha="center",
                    va="center", transform=ax.transAxes, fontsize=9)
            ax.set_axis_off()
            continue
        image = ax.imshow(100 * grid.to_numpy(np.float64), cmap="RdBu_r", aspect="auto",
                          norm=TwoSlopeNorm(vmin=0, vcenter=parity, vmax=max(60, 2 * parity)))
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                v = grid.iat[i, j]
                if np.isfinite(v):  # white on the dark ends of the panel's own scale
                    shade = float(image.norm(100 * v))
                    ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=8,
                            color="white" if abs(shade - 0.5) > 0.25 else "black")
        ax.set_xticks(range(len(order)), [cards[c].replace("Wandering ", "") for c in order])
        ax.set_yticks(range(grid.shape[0]), [f"seat {int(s)}" for s in grid.index])
        if not shared:
            fig.colorbar(image, ax=ax, orientation="horizontal", location="bottom",
                         shrink=0.8, label=f"win rate (%); white {parity:.0f}: equal players")
    if shared and image is not None:
        fig.colorbar(image, ax=axes, orientation="horizontal", location="bottom",
                     shrink=0.5, label=label)
    ctx.figure(fig, "seat_and_card",
               "Win rate (%) of each seat with each drafted character card (seat 0 drafts "
               f"first; cells of fewer than {MIN_CELL} player-games blank); n and Wilson "
               "intervals in `table_seat_card_table.csv`.", ctx.results)


def _cell(row: pd.Series) -> str:
    return (f"{_ci(row['win_rate'], row['ci_low'], row['ci_high'], percent=True)} "
            f"({int(row['n']):,})")


def _pivot(sub: pd.DataFrame, cards: dict[str, str]) -> pd.DataFrame:
    """Rows: the seats and "all seats"; columns: the cards and "all cards"."""
    out = []
    for seat, rows in sub.groupby(sub["seat"].fillna(-1).astype(np.int64), sort=True):
        by_card = {r["card"]: _cell(r) for _, r in rows.iterrows()}
        name = "all seats" if seat < 0 else f"seat {seat}"
        out.append({"": name, **{cards[c].replace("Wandering ", ""): by_card.get(c, "")
                                 for c in cards},
                    "all cards": by_card.get("all", "")})
    frame = pd.DataFrame(out)
    return pd.concat([frame[frame[""] != "all seats"], frame[frame[""] == "all seats"]],
                     ignore_index=True)


def _verdict_words(row: pd.Series) -> str:
    margin = f"±{100 * float(row['margin']):g} points"
    if row["verdict"] == "equivalent":
        return f"equivalent within {margin} (TOST p = {float(row['p_equivalent']):.2g})"
    if row["verdict"] == "differs":
        return f"differs (p = {float(row['p_value']):.2g})"
    return (f"inconclusive (detectable at this n: {100 * float(row['mde']):.1f} points; "
            f"margin {margin})")


def _order_text(tests: pd.DataFrame, cards: dict[str, str]) -> str:
    order = str(tests.at[CARD_ORDER, "verdict"]) if CARD_ORDER in tests.index else ""
    for slug, name in cards.items():
        order = order.replace(slug, name.replace("Wandering ", ""))
    return order


def _all_forced_summary(label: str, model: pd.DataFrame, cards: dict[str, str],
                        head: str) -> str | None:
    """A group whose every seat was told its card: the cards' rates whatever the seat, and the
    seats' verdicts (a structural check)."""
    tests = model[model["term"] == "test"].set_index("level")
    if SEATS_EQUAL in tests.index and not bool(tests.at[SEATS_EQUAL, "estimable"]):
        return None
    seats = model[model["term"] == "seat"]
    card_rows = model[model["term"] == "card"].sort_values("estimate", ascending=False)
    best, worst = card_rows.iloc[0], card_rows.iloc[-1]
    extremes = seats.iloc[[int(np.argmax(seats["excess"])), int(np.argmin(seats["excess"]))]]
    spread = " and ".join(f"seat {r['level']} {_points(r['excess'])} [{_points(r['excess_low'])}, "
                          f"{_points(r['excess_high'])}]" for _, r in extremes.iterrows())
    verdicts = set(seats["verdict"])
    seat_text = (f"every seat's card-adjusted rate equivalent to parity within "
                 f"±{100 * float(seats['margin'].iloc[0]):g} points"
                 if verdicts == {"equivalent"} else
                 "the seats' card-adjusted rates: " + ", ".join(
                     f"seat {r['level']} {r['verdict']}" for _, r in seats.iterrows()))
    return (f"{head}the {cards[str(best['level'])]} wins "
            f"{_ci(best['estimate'], best['ci_low'], best['ci_high'], percent=True)} of its "
            f"{int(best['n']):,} player-games whatever the seat, the "
            f"{cards[str(worst['level'])]} "
            f"{_ci(worst['estimate'], worst['ci_low'], worst['ci_high'], percent=True)} "
            f"(parity {pct(float(best['baseline']))}; tested order, Holm: "
            f"{_order_text(tests, cards)}); {seat_text} (largest and smallest excess: {spread} "
            f"points; seats equal given the card: p = "
            f"{float(tests.at[SEATS_EQUAL, 'p_value']):.2g}; "
            f"{int(model['n_games'].iloc[0]):,} games)")


def _some_forced_summary(table: pd.DataFrame, cards: dict[str, str], head: str) -> str | None:
    """A group where some seats were told their card: each such seat's rate with each card,
    and the best card's rate over every seat that held it."""
    cells = table[table["seat"].notna() & (table["card"] != "all")]
    forced_seats = [int(seat) for seat, g in cells.groupby("seat")
                    if (g["forced"] * g["n"]).sum() == g["n"].sum()]
    if not forced_seats:
        return None
    parts = []
    for seat in forced_seats:
        mine = cells[cells["seat"] == seat].sort_values("win_rate", ascending=False)
        short = [cards[str(c)].replace("Wandering ", "") for c in mine["card"]]
        rate = mine["win_rate"].to_numpy(np.float64)
        # the cells are disjoint games (one forced card each): independent binomial errors
        order = tested_order(short, rate, se=np.sqrt(rate * (1 - rate) / mine["n"].to_numpy()))
        within = order.within_clause()
        parts.append(f"seat {seat}, made to take each card, wins " + ", ".join(
            f"{name} {_ci(r['win_rate'], r['ci_low'], r['ci_high'], percent=True)}"
            for name, (_, r) in zip(short, mine.iterrows()))
            + f" ({int(mine['n'].min()):,} games a card; tested order, Holm: {order.value}"
            + (f"; {within})" if within else ")"))
    margins = table[table["seat"].isna()].sort_values("win_rate", ascending=False)
    best = margins.iloc[0]
    holders = cells[(cells["card"] == best["card"]) & ~cells["seat"].isin(forced_seats)]
    others = "; ".join(f"seat {int(r['seat'])} {_ci(r['win_rate'], r['ci_low'], r['ci_high'], percent=True)}"  # noqa: E501
                       f" ({int(r['n']):,})" for _, r in holders.iterrows())
    return (f"{head}" + "; ".join(parts) + f"; the {cards[str(best['card'])]}'s holder wins "
            f"{_ci(best['win_rate'], best['ci_low'], best['ci_high'], percent=True)} over "
            f"{int(best['n']):,} player-games"
            + (f" (where a free seat drafted it: {others})" if others else ""))


def section_seat_and_card(ctx: ReportContext) -> None:
    ctx.heading(2, "The seat and the card apart")
    if _skip(ctx, "seat_card_table", "seat_card_model"):
        return
    facet = list(_facet(ctx))
    table = ctx.analysis("seat_card_table", by=facet or None)
    model = ctx.analysis("seat_card_model", by=facet or None)
    cards = _card_names(_components(ctx))
    keys = _keys(table, facet)
    groups = _split(table, keys)
    forced = table[table["card"] == "all"]
    honoured = table["honoured"].dropna()
    ctx.para(
        "A Maharaja seat is a draft position (R7: seat 0 takes its character card first, the "
        "others in seat order); after the draft the cards, not the seats, set the order of play "
        "and of the setup houses. In a free draft the first seat's rate is the rate of the card "
        "it drafts, and equal strategies draft the same card from the same seat in nearly every "
        "game, so the two cannot be told apart. Here a strategy may be told which card to draft "
        "(`hoarder:draft=monk`), and this section reads the win rate of each seat given its "
        "drafted card, and `win ~ seat + card` (a linear probability model, standard errors "
        "clustered by setup: the games of one governor order, such as a table's seat "
        "rotations): each seat's win rate standardised to the card mix, each card's "
        "standardised to the seat mix. Once the cards are dealt the seat plays no part: the "
        "rules and these strategies are symmetric in the seats (a game played again with its "
        "seats permuted together with their random streams is the same game, "
        "tests/games/maharaja/test_seat_card.py), so where every seat's card is forced the "
        "seats' card-adjusted rates can differ only by chance: their verdicts check the "
        "estimate (a structural null, not a finding about the game), and the cards' rates are "
        "the finding. Where only some seats are forced, the others' cards are their own "
        "choices, and a seat's rate given its card also reflects the cards around it. "
        + (f"Forced drafts: {pct(float(forced['forced'].mean()))} of the player-games on "
           f"average over the groups' seats; {pct(float(honoured.min()))} of them took their "
           "card (a forced card an earlier seat took leaves the strategy its own choice). The "
           "headline's first-seat rates are exact comparisons (randomised by the forcing); "
           "a card's rate depends on the cards at the table (every card is one of four of six "
           "where every seat is forced; the Monk is always in play in a free draft)."
           if len(honoured) else "No seat was told which card to draft: the cells are the "
           "strategies' own choices, selected, and where a seat always drafts one card the "
           "seat and the card are confounded."))
    _heat_figure(ctx, groups, cards)
    if not len(honoured):  # no forced draft: the cells are choices; no model claims
        for label, sub in groups:
            ctx.table(_pivot(sub, cards),
                      f"{label + ': w' if keys else 'W'}in rate of each seat with each drafted "
                      "card (the strategies' own draft), 95% Wilson interval, (n player-games).",
                      None)
        ctx.csv(table, "table_seat_card_table")
        return
    summaries = []
    models = dict(_split(model, keys))
    for label, sub in groups:
        head = f"{label}: " if keys else ""
        cells = sub[sub["seat"].notna() & (sub["card"] != "all")]
        all_forced = bool(((cells["forced"] * cells["n"]).sum()) == cells["n"].sum())
        text = (_all_forced_summary(label, models[label], cards, head) if all_forced
                and label in models else _some_forced_summary(sub, cards, head))
        if text is not None:
            summaries.append(text)
    if summaries:
        ctx.headline("The card decides, not the seat: " + "; ".join(summaries) + ". Where a "
                     "seat drafted freely its card is the strategy's choice (an association).")
    else:
        ctx.para("The model is not estimable in any group: each seat drafted one card (or "
                 "one card was drafted by one seat), so the seat and the card are confounded. "
                 "Force the draft (`draft=<card>`, `experiments/maharaja/seat_and_card.toml`).")
    for label, sub in groups:
        ctx.table(_pivot(sub, cards),
                  f"{label + ': w' if keys else 'W'}in rate of each seat with each drafted "
                  "card, 95% Wilson interval, (n player-games); `all` rows and columns pool "
                  "the other factor.", None)
    ctx.csv(table, "table_seat_card_table")
    shown = model[model["term"] != "test"].copy()
    rows = []
    for _, r in shown.iterrows():
        name = f"seat {r['level']}" if r["term"] == "seat" else cards.get(str(r["level"]),
                                                                         r["level"])
        rows.append({**{k: r[k] for k in keys}, "": name, "n": int(r["n"]),
                     "adjusted win rate": _ci(r["estimate"], r["ci_low"], r["ci_high"],
                                              percent=True),
                     "excess over parity (points)":
                         f"{_points(r['excess'])} [{_points(r['excess_low'])}, "
                         f"{_points(r['excess_high'])}]",
                     "verdict": _verdict_words(r) if r["term"] == "seat" else
                     f"{r['verdict']}; tier {int(r['tier'])}"})
    if rows:
        ctx.table(pd.DataFrame(rows),
                  "win ~ seat + card: each seat's win rate standardised to the card mix (the "
                  "equivalence verdict of its excess over parity: two one-sided tests against "
                  "the margin; or the excess detectable at this n), and each card's standardised "
                  "to the seat mix (tier 1: the first tier of the cards' tested order, every pair "
                  "Holm-adjusted); t intervals clustered by setup; n player-games.",
                  "seat_card_model_effects", full=model)
    tests = model[model["term"] == "test"]
    rows = []
    for _, r in tests.iterrows():
        stat = "" if pd.isna(r["statistic"]) else \
            f"F({int(r['df_num'])}, {int(r['df_den'])}) = {float(r['statistic']):.2f}"
        rows.append({**{k: r[k] for k in keys}, "test": r["level"], "statistic": stat,
                     "p": "" if pd.isna(r["p_value"]) else f"{float(r['p_value']):.2g}",
                     "verdict": r["verdict"], "games": int(r["n_games"])})
    ctx.table(pd.DataFrame(rows),
              f"The joint tests per group: the seats equal given the card ({SEATS_EQUAL}), the "
              f"cards equal given the seat ({CARDS_EQUAL}), the card's effect the same in every "
              f"seat ({NO_INTERACTION}; every cell at least 30 games), and the cards' tested "
              "order (p: the first tier against the rest, Holm); Wald F tests clustered by "
              "setup (F's second degrees of freedom: setups - 1).",
              "seat_card_model", full=model)
