"""Maharaja's report section "Seats and their cards" (``seat_cards``): which character card
each seat holds (at the end and drafted), and each seat's win rate within a card and
standardised to the cards' mix, so that the seat-advantage report tells the draft apart from
the seat. ``sections.py`` registers it after the character cards.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from tajsim.games.maharaja.report.section_helpers import (
    _card_names,
    _ci,
    _components,
    _dodge_panel,
    _facet,
    _legend_below,
    _series,
    _skip,
)
from tajsim.reporting.render import BASELINE_COLOUR, ReportContext, panel_grid, pct

#: A seat that drafts one card in at least this share of its games has a fixed draft.
FIXED_DRAFT = 0.9
#: Cells (a seat holding a card) of fewer games are left out of the figure and the adjusted rate.
MIN_CELL = 30


def _share_figure(ctx: ReportContext, groups, cards: dict[str, str]) -> None:
    """Heat maps, one per group: the share of each seat's games with each card at the end."""
    order = list(cards)
    fig, axes = panel_grid(len(groups), panel_height=1.0 + 0.32 * max(
        sub["seat"].nunique() for _, sub in groups), extra_height=0.5)
    image = None
    for ax, (label, sub) in zip(axes, groups):
        grid = sub.pivot_table(index="seat", columns="card", values="estimate",
                               observed=True).reindex(columns=order)
        image = ax.imshow(100 * grid.to_numpy(), cmap="Blues", aspect="auto", vmin=0, vmax=60)
        for i in range(grid.shape[0]):
            for j in range(grid.shape[1]):
                v = grid.iat[i, j]
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=8,
                        color="white" if v > 0.4 else "black")
        ax.set_xticks(range(len(order)), [cards[c].replace("Wandering ", "") for c in order])
        ax.set_yticks(range(grid.shape[0]), [f"seat {s}" for s in grid.index])
        if label != "all games":
            ax.set_title(label)
    fig.colorbar(image, ax=axes, orientation="horizontal", location="bottom", shrink=0.5,
                 label="share of the seat's games (%)")
    ctx.figure(fig, "seat_cards",
               "The character card each seat holds at the end of the game: the share (%) of "
               "the seat's games (seat 0 drafts first); n and Wilson intervals in "
               "`table_seat_cards.csv`.", ctx.results)


def _rate_figure(ctx: ReportContext, groups, cards: dict[str, str]) -> None:
    """Per group: each seat's win rate within each card held at the end, over all its games,
    and standardised to the card mix."""
    rows = [*cards.values(), "all games", "card-adjusted"]
    seats = [sub["seat"].nunique() for _, sub in groups]
    fig, axes = panel_grid(len(groups), panel_height=0.8 + 0.3 * len(rows), extra_height=0.4)
    for ax, (label, sub) in zip(axes, groups):
        sub = sub.assign(key=[cards.get(c, "all games" if c == "all" else "card-adjusted")
                              for c in sub["card"]])
        series = [(f"seat {s}", g) for s, g in sub.groupby("seat", sort=True)]
        _dodge_panel(ax, rows, series, "estimate", "win rate")
        ax.axvline(float(sub["baseline"].iloc[0]), color=BASELINE_COLOUR, ls="--", lw=1.1)
        ax.set_xlim(0, min(1.0, float(sub["ci_high"].max()) + 0.05))
        if label != "all games":
            ax.set_title(label)
    # The legend from the panel with the most seats (player counts differ between panels).
    _legend_below(fig, axes[int(np.argmax(seats))], max(seats))
    ctx.figure(fig, "seat_win_rate_by_card",
               "Win rate of each seat among the games in which it holds each card at the end, "
               "over all its games, and standardised to the group's card mix (card-adjusted); "
               "95% Wilson intervals (normal for the adjusted rate); cells of fewer than 30 "
               "games left out; red dashes: the rate of equal players.", ctx.results)


def _drafted_swaps(table: pd.DataFrame, facet: list[str], cards: dict[str, str]) -> list[str]:
    """"group card: seat a x% [..] (n), seat b ..." for each drafted card that two or more
    seats drafted in at least :data:`MIN_CELL` games: the seat effect within a drafted card."""
    rates = table[(table["held"] == "first") & (table["measure"] == "win_rate")
                  & (table["card"] != "all") & (table["n"] >= MIN_CELL)]
    out = []
    for label, sub in _series(rates, facet):
        for card, g in sub.groupby("card", sort=False):
            if len(g) < 2:
                continue
            seats = ", ".join(
                f"seat {int(r.seat)} {_ci(r.estimate, r.ci_low, r.ci_high, percent=True)} "
                f"({int(r.n):,})" for r in g.sort_values("seat").itertuples())
            out.append(f"{label + ' ' if facet else ''}{cards.get(card, card)}: {seats}")
    return out


def section_seat_cards(ctx: ReportContext) -> None:
    ctx.heading(2, "Seats and their cards")
    if _skip(ctx, "seat_cards"):
        return
    facet = list(_facet(ctx))
    table = ctx.analysis("seat_cards", by=facet or None, min_n=MIN_CELL)
    cards = _card_names(_components(ctx))
    final = table[table["held"] == "final"]
    shares = final[final["measure"] == "share"]
    _share_figure(ctx, _series(shares, facet), cards)
    rates = final[(final["measure"] != "share") & (final["n"] >= MIN_CELL)]
    if rates["card"].isin(list(cards)).any():
        _rate_figure(ctx, _series(rates, facet), cards)
    else:
        ctx.para(f"No seat held a card at the end in {MIN_CELL} games or more: the win rates "
                 "within a card are left to the table.")

    drafted = table[(table["held"] == "first") & (table["measure"] == "share")]
    top = drafted.sort_values("estimate", ascending=False).groupby(
        [*facet, "seat"], observed=True, sort=True).head(1)
    fixed = top[top["estimate"] >= FIXED_DRAFT]
    if len(fixed):
        low = fixed.sort_values("estimate").iloc[0]
        ctx.para(
            f"The draft is nearly fixed: in {len(fixed)} of {len(top)} (group, seat) pairs the "
            f"seat drafts the same card in at least {pct(FIXED_DRAFT)} of its games (the "
            f"lowest: {pct(float(low['estimate']))} of {int(low['n']):,}), so the drafted "
            "card and the draft position cannot be told apart from these games; the card "
            "held at the end varies (the character action), and the figures compare seats "
            "within it.")
    swaps = _drafted_swaps(table, facet, cards)
    if swaps:
        ctx.para(
            "Where two seats drafted the same card (a card that one seat usually takes, drafted "
            "by another in a few games), win rate by seat within the drafted card (Wilson, n "
            "games): " + "; ".join(swaps) + ". These games are the ones whose draft draws went "
            "another way, so they are few and selected, not a randomised draft.")
    summary = []
    for label, sub in _series(final[final["measure"] != "share"], facet):
        seats = sub[sub["card"] == "all"].set_index("seat")
        adjusted = sub[sub["measure"] == "card_adjusted"].set_index("seat")
        best, worst = seats["estimate"].idxmax(), seats["estimate"].idxmin()
        if best not in adjusted.index or worst not in adjusted.index:
            continue
        summary.append(
            f"{label}: seat {best} {_ci(seats.at[best, 'estimate'], seats.at[best, 'ci_low'], seats.at[best, 'ci_high'], percent=True)}"  # noqa: E501
            f" (card-adjusted {_ci(adjusted.at[best, 'estimate'], adjusted.at[best, 'ci_low'], adjusted.at[best, 'ci_high'], percent=True)}),"  # noqa: E501
            f" seat {worst} {pct(float(seats.at[worst, 'estimate']))} "
            f"({pct(float(adjusted.at[worst, 'estimate']))}) of {int(seats.at[best, 'n']):,} "
            "games")
    if summary:
        ctx.headline(
            "Win rate of the best and the worst seat over all games and standardised to the "
            "mix of the cards held at the end (the seats' spread would nearly vanish if it came "
            "from the cards they hold): " + "; ".join(summary) + ". The card held at the end "
            "is one a player kept or took, so this is an association in simulated play.")
    rows = []
    for _, seat_row in final[final["card"] == "all"].iterrows():
        key = {c: seat_row[c] for c in facet}
        mask = np.ones(len(table), bool)
        for c, v in key.items():
            mask &= (table[c] == v).to_numpy()
        mine = table[mask & (table["seat"] == seat_row["seat"]).to_numpy()]
        adj = mine[(mine["held"] == "final") & (mine["measure"] == "card_adjusted")]
        held = mine[(mine["held"] == "final") & (mine["measure"] == "share")]
        first = mine[(mine["held"] == "first") & (mine["measure"] == "share")]
        common = held.sort_values("estimate", ascending=False).iloc[0]
        drafted_top = first.sort_values("estimate", ascending=False).iloc[0]
        rows.append({**key, "seat": int(seat_row["seat"]), "n": int(seat_row["n"]),
                     "win rate": _ci(seat_row["estimate"], seat_row["ci_low"],
                                     seat_row["ci_high"], percent=True),
                     "card-adjusted": (_ci(adj["estimate"].iloc[0], adj["ci_low"].iloc[0],
                                           adj["ci_high"].iloc[0], percent=True)
                                       if len(adj) else ""),
                     "drafted most": f"{cards.get(drafted_top['card'], drafted_top['card'])} "
                                     f"{pct(float(drafted_top['estimate']))}",
                     "held at the end most": f"{cards.get(common['card'], common['card'])} "
                                             f"{pct(float(common['estimate']))}"})
    ctx.table(pd.DataFrame(rows), "Each seat's win rate (Wilson) over its n games and "
              "standardised to the group's mix of cards held at the end (normal interval), the "
              "card it drafted most often and the card it held at the end most often (share of "
              "its games). The full table has every (seat, card) share and win rate, for the "
              "cards held at the end (`held` = final) and drafted (first).", "seat_cards",
              full=table)
