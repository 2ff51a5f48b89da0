"""No Thanks!'s game spec: what the wing's modules cannot say (the rest is read from them by
convention, :meth:`GameSpec.from_wing`)."""

from __future__ import annotations

from tajsim.engine.components import ComponentSet
from tajsim.engine.game_notes import GameNotes
from tajsim.engine.spec import GameSpec
from tajsim.games.nothanks.engine import enums as E

SPEC = GameSpec.from_wing(
    __package__,
    title="No Thanks!",
    description=("Gimmler's No Thanks! (2004): pay a chip to refuse the face-up card or take it "
                 "with its chips; a run of consecutive cards scores its lowest card, each chip "
                 "one point off. The lowest score wins."),
    components=ComponentSet.without_files("No Thanks!", E.COMP_SIZE,
                                          "no component files (cards 3 to 35)"),
    seat_cost_us=1.1,  # random: about 4.2 µs of CPU a 4-player game (tajsim bench --profile)
    notes=GameNotes(seat_note="seat 0 decides on the first card",
                    setup_features_text="whether card 35 is among the 9 cards put away"),
    observation={"phase": E.PHASE_NAMES, "chips": (E.MAX_PLAYERS,), "holder": (E.N_CARDS,)},
)
