"""Taj Mahal's card-shortage report section (R3): how often the deck and the discard pile run
dry, from which visit, and how many cards players were owed but did not get."""

from __future__ import annotations

import pandas as pd

from tajsim.analysis.frames import game_key_columns
from tajsim.reporting.render import ReportContext

__all__ = ["SECTIONS", "caveats"]

_COLUMNS = ("exhausted_visit", "n_short_deals", "display_cards_missed", "deck_cards_missed")


def _section_card_shortage(ctx: ReportContext) -> None:
    r = ctx.results
    ctx.heading(2, "Card shortages")
    if any(c not in r.columns for c in _COLUMNS):
        ctx.para("Skipped: the results do not record card shortages (made by an older tajsim).")
        return
    by = [c for c in ("run_id", "edition", "n_players") if c in r.columns]
    table = ctx.analysis("card_shortage", by=tuple(by))
    affected = int(table["exhausted"].sum())
    total = int(table["n"].sum())
    ctx.para(
        f"In {affected:,} of {total:,} games a draw found the deck and the discard pile both "
        "empty (docs/rules.md R3): from then on the display is dealt short and players get "
        "fewer cards than the rules give them. The rules leave no other way to play on, so the "
        "engine deals what there is and records it; analyses can leave these games out "
        "(`subset = \"exhausted_visit == 0\"`) or compare them (`split = \"exhausted_visit > "
        "0\"`)."
    )
    ctx.table(table, "Games in which the cards ran out (Wilson 95% intervals over games), "
              "games with a short deal, the mean first visit of a shortage, and the cards a "
              "player was owed but not given (mean per player-game, t interval).",
              "card_shortage")


def caveats(results: pd.DataFrame) -> list[str]:
    """The report's data caveat for card shortages (R3): how many of the games ran out of
    cards, when any did (the report prints it in every section that shows numbers)."""
    if "exhausted_visit" not in results.columns:
        return []
    per_game = results.drop_duplicates(subset=game_key_columns(results))
    hit = int((per_game["exhausted_visit"] > 0).sum())
    if hit == 0:
        return []
    total = len(per_game)
    return [f"In {hit:,} of {total:,} games ({hit / total:.1%}) the deck and the discard pile "
            "ran out and later draws were dealt short (docs/rules.md R3); those games are in "
            "these numbers. To see them apart, give an analysis `subset = \"exhausted_visit == "
            "0\"` or `split = \"exhausted_visit > 0\"` (section `card_shortage`)."]


#: Taj Mahal's card-shortage section.
SECTIONS = {
    "card_shortage": (_section_card_shortage,
                      "how often the deck and the discard pile run dry (R3), and who pays"),
}
