"""Step-by-step play of Taj Mahal: ``Game`` wraps one state vector with readable actions; its
``record()`` (a :class:`~tajsim.engine.base_game.GameRecord`: setup + action history) serialises
to JSON and ``Game.replay(record)`` replays the game exactly.

The Python layer validates and displays; every rule runs in
:mod:`tajsim.games.tajmahal.engine.nb`. Playing whole games between strategies is the play
layer's job (:func:`tajsim.play.mixed.play_game`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from tajsim.engine.base_game import BaseGame, GameRecord, IllegalActionError
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb
from tajsim.games.tajmahal.engine.component_files import default_components, load_components
from tajsim.games.tajmahal.engine.components import Components

__all__ = ["Game", "GameRecord", "IllegalActionError"]


class Game(BaseGame):
    """One game of Taj Mahal, played step by step.

    Parameters
    ----------
    n_players : int
        2-5 (2018 edition) or 3-5 (2000 edition).
    edition : str
        ``"2018"`` (default) or ``"2000"``.
    seed, game_id : int
        Master seed and game index: the same pair gives the same game as the batch runner.
    setup_id : int, optional
        Index of the setup (province order, bonus tiles); defaults to ``game_id``.
    components : Components, optional
        Board and component data; defaults to the shipped files.
    """

    game_name = "tajmahal"
    title = "Taj Mahal"
    editions = E.EDITION_NAMES
    players = {name: (E.MIN_PLAYERS[i], E.MAX_PLAYERS) for i, name in enumerate(E.EDITION_NAMES)}
    state_size = E.STATE_SIZE
    n_actions = E.N_ACTIONS
    max_players = E.MAX_PLAYERS

    def __init__(self, n_players: int = 4, edition: str | int = "2018", seed: int = 0,
                 game_id: int = 0, setup_id: int | None = None,
                 components: Components | None = None) -> None:
        super().__init__(n_players, edition, seed, game_id, setup_id, components)

    # -- hooks ----------------------------------------------------------------------------
    @classmethod
    def default_components(cls) -> Components:
        return default_components()

    @classmethod
    def load_components(cls, board: str | None, components: str | None) -> Components:
        return load_components(board, components)

    def _start(self) -> None:
        nb.start_game_nb(self.comp, self.n_players, self.edition_index, self.seed, self.game_id,
                         self.setup_id, self.state, self.prng)

    def _legal(self, out: np.ndarray) -> int:
        return int(nb.legal_actions_nb(self.state, self.comp, out))

    def _apply(self, action: int) -> None:
        nb.apply_action_nb(self.state, self.comp, action)

    # -- state queries -------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return int(self.state[E.S_PHASE]) == E.PHASE_GAME_OVER

    @property
    def current_player(self) -> int:
        """Seat to decide, or -1 when the game is over."""
        return int(self.state[E.S_CUR])

    @property
    def phase(self) -> str:
        return E.PHASE_NAMES[int(self.state[E.S_PHASE])]

    @property
    def visit(self) -> int:
        """Visit number 1..12 (13 when over)."""
        return int(self.state[E.S_VISIT]) + 1

    @property
    def province(self) -> str:
        return self.components.province_names[int(self.state[E.S_PROVINCE])]

    def score(self, player: int) -> int:
        return int(nb.score_of(self.state, player))

    def scores(self) -> list[int]:
        return [self.score(p) for p in range(self.n_players)]

    def score_parts(self, player: int) -> dict[str, int]:
        base = E.S_SCORE + player * E.N_PARTS
        return {name: int(self.state[base + k]) for k, name in enumerate(E.PART_NAMES)}

    def cards_at(self, loc: int) -> list[int]:
        return [c for c in range(E.N_CARDS) if self.state[E.S_CARD_LOC + c] == loc]

    def hand(self, player: int) -> list[int]:
        return self.cards_at(E.LOC_HAND + player)

    def row(self, player: int) -> list[int]:
        return self.cards_at(E.LOC_ROW + player)

    def display(self) -> list[int]:
        return self.cards_at(E.LOC_DISPLAY)

    def goods(self, player: int) -> dict[str, int]:
        base = E.S_GOODS + player * E.N_GOODS
        return {name: int(self.state[base + g]) for g, name in enumerate(E.GOOD_NAMES)}

    def ranks(self) -> list[int]:
        return [int(self.state[E.S_RANK + p]) for p in range(self.n_players)]

    def winners(self) -> list[int]:
        return [p for p in range(self.n_players) if self.state[E.S_WINNER + p] == 1]

    def province_order(self) -> list[str]:
        names = self.components.province_names
        return [names[nb.province_of_visit(self.state, v)] for v in range(E.N_VISITS)]

    # -- display -------------------------------------------------------------------------
    def replay_checkpoint(self) -> str | None:
        """The state at the start of each visit (no card played and nobody withdrawn yet)."""
        n = self.n_players
        start = self.phase == "bid" and all(self.state[E.S_ROW_N + p] == 0 for p in range(n)) \
            and not any(self.state[E.S_WITHDRAWN + p] for p in range(n))
        return str(self) if start else None

    def describe_action(self, player: int, action: int) -> str:
        return f"  V{self.visit:02d} P{player} [{self.phase}] {self.action_label(action)}"

    def final_summary(self) -> list[str]:
        return [f"Province order: {', '.join(self.province_order())}"]

    def transcript_header(self) -> list[str]:
        return [f"# components: {self.components.digest()}",
                f"# province order: {', '.join(self.province_order())}"]

    def card_label(self, card: int) -> str:
        if self.edition == "2000" and card >= E.FIRST_PRESTIGE:  # the 2000 names of the cards
            return E.PRESTIGE_NAMES_2000[card - E.FIRST_PRESTIGE]
        return self.components.card_label(card)

    def city_label(self, city: int) -> str:
        return self.components.city_names[city]

    def action_label(self, action: int) -> str:
        """Readable text of an action number (see the encoding in ``enums``)."""
        if action == E.ACTION_WITHDRAW:
            return "withdraw"
        if E.ACTION_BID <= action < E.ACTION_CITY:
            card, extra = divmod(action - E.ACTION_BID, E.BID_EXTRA)
            text = f"play {self.card_label(card)}"
            if extra:
                text += f" + {self.card_label(E.FIRST_WHITE + extra - 1)}"
            return text
        if E.ACTION_CITY <= action < E.ACTION_TAKE:
            city = action - E.ACTION_CITY
            what = "crown palace" if self.phase == "crown" else "palace"
            return f"{what} on {self.city_label(city)}"
        if E.ACTION_TAKE <= action < E.N_ACTIONS:
            return f"take {self.card_label(action - E.ACTION_TAKE)}"
        return f"<invalid action {action}>"

    def _cards_text(self, cards: Sequence[int]) -> str:
        return ", ".join(self.card_label(c) for c in cards) or "-"

    def __str__(self) -> str:
        s = self.state
        lines = []
        if self.is_over:
            lines.append(f"Game over after 12 visits ({self.edition} edition)")
        else:
            deck = int(s[E.S_DECK_LEN] - s[E.S_DECK_TOP])
            discard = int(s[E.S_DISCARD_N])
            lines.append(
                f"Visit {self.visit}/12: {self.province} | phase {self.phase} | "
                f"player {self.current_player} to act | deck {deck} | discard {discard}"
            )
            seats = []
            for sym in range(E.N_SYMBOLS):
                mark = {E.SEAT_PRESENT: "in seat", E.SEAT_EMPTY: "taken", E.SEAT_ASIDE: "aside"}
                seats.append(f"{E.SYMBOL_NAMES[sym]}: {mark[int(s[E.S_SEAT + sym])]}")
            lines.append("Court: " + "; ".join(seats))
            lines.append(f"Display: {self._cards_text(self.display())}")
            unrest = self.cards_at(E.LOC_UNREST)
            if unrest:
                lines.append(f"Unrest: {self._cards_text(unrest)}")
        for p in range(self.n_players):
            parts = self.score_parts(p)
            status = "out" if s[E.S_WITHDRAWN + p] else "in"
            goods = " ".join(f"{k}={v}" for k, v in self.goods(p).items() if v)
            lines.append(
                f"  P{p}{'*' if p == self.current_player else ' '} score {self.score(p):3d} "
                f"({' '.join(f'{k}={v}' for k, v in parts.items() if v)}) | hand "
                f"{int(s[E.S_HAND_N + p])} | {status} | row: {self._cards_text(self.row(p))}"
                + (f" | goods {goods}" if goods else "")
            )
        if self.is_over:
            lines.append(f"Ranks: {self.ranks()}  winners: {self.winners()}")
        return "\n".join(lines)
