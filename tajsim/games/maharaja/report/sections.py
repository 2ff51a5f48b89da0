"""Maharaja's report sections, registered in report order (:data:`SECTIONS`, read through the
spec's ``report_module``). Each family of sections is a module of its own:

* ``gold_sections`` - where the gold comes from, tolls by village (heat map) and road;
* ``card_sections``, ``seat_card_sections`` - the character cards, and the seats and their cards;
* ``seat_and_card_sections`` - the seat and the drafted card apart (forced drafts);
* ``palace_sections`` - palace tempo, central against outer palaces;
* ``game_end_sections`` - how games end, penalties;
* ``governor_sections`` - the governor action, the governor order and the seats;
* ``board_sections`` - the final board of a game played again from its seed;
* ``section_helpers`` - what they share (grouping, intervals as text, panels).

Every number shown carries its sample size and a 95% interval (the analyses compute them). What
goes with a player's own choices (a card, a palace site, the governor action) is an association
in simulated play, not a causal effect: strategies choose their actions when they pay; the text
says so where it reports one.
"""

from __future__ import annotations

from tajsim.games.maharaja.report.board_sections import section_final_board
from tajsim.games.maharaja.report.card_sections import section_cards
from tajsim.games.maharaja.report.game_end_sections import section_game_ends, section_penalties
from tajsim.games.maharaja.report.gold_sections import section_income, section_tolls
from tajsim.games.maharaja.report.governor_sections import (
    section_governor,
    section_governor_order,
)
from tajsim.games.maharaja.report.palace_sections import section_central, section_palace_tempo
from tajsim.games.maharaja.report.seat_and_card_sections import section_seat_and_card
from tajsim.games.maharaja.report.seat_card_sections import section_seat_cards

__all__ = ["SECTIONS"]

#: Maharaja's report sections: name -> (function, what it shows), in report order.
SECTIONS = {
    "income": (section_income, "gold by source (scorings, tolls, actions, the Trader, "
                               "penalties) and spending, per strategy"),
    "tolls": (section_tolls, "tolls earned by village (heat map on the board) and by road, "
                             "per game and per house"),
    "cards": (section_cards, "win rate and gold by the character card held"),
    "seat_cards": (section_seat_cards, "the card each seat holds (drafted and at the end) "
                                       "and each seat's win rate within a card"),
    "seat_and_card": (section_seat_and_card, "the win rate of each seat given its drafted "
                                             "card, and win ~ seat + card (forced drafts)"),
    "palace_tempo": (section_palace_tempo, "palaces built by each round, first and last "
                                           "palace"),
    "game_ends": (section_game_ends, "how games end (7th palace or round 10) and when"),
    "penalties": (section_penalties, "actions left unperformed, by cause"),
    "central_vs_outer": (section_central, "central against outer palaces"),
    "governor": (section_governor, "the value of the governor action"),
    "governor_order": (section_governor_order, "each seat's win rate by the governor order "
                                               "(exact over all 5,040 orders when enumerated)"),
    "final_board": (section_final_board, "the board at the end of a game, played again from "
                                         "its seed"),
}
