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

    def __init__(self, n_players: int | None = None, edition: str | int | None = None,
                 seed: int = 0, game_id: int = 0, setup_id: int | None = None,
                 components: Components | None = None, options: dict | None = None) -> None:
        # Typed for Taj Mahal's components; every fact, the default table size included, is
        # the spec's (``BaseGame``).
        super().__init__(n_players, edition, seed, game_id, setup_id, components, options)

    # -- state queries -------------------------------------------------------------------
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

    def events(self, before: np.ndarray, action: int, after: np.ndarray) -> list[str]:
        """Everything ``action`` set off besides itself, read from the state change, in the
        order the rules resolve it: majorities won; palaces' bonus tiles, province tiles, goods
        and points; the row discarded; display cards taken without a choice; deck draws (a
        replay shows hidden cards: it is the referee's view), reshuffles and cards not received
        (R3); 2-player unrest and protests; the end of the visit (advisor pairs turned into
        prestige cards, leftovers discarded, an unclaimed province tile leaving play); the next
        display and a short deal; the final scoring."""
        s, b = after, before
        n = self.n_players
        who = [f"P{p}" for p in range(n)]
        moves = self._card_moves(b, s, action)
        court: list[str] = []
        won = [E.SYMBOL_NAMES[sym] for sym in range(E.N_SYMBOLS)
               if b[E.S_SEAT + sym] == E.SEAT_PRESENT and s[E.S_SEAT + sym] == E.SEAT_EMPTY]
        if won:
            court.append(f"{who[int(b[E.S_CUR])]} wins the majority in {', '.join(won)}")
        tiles: list[str] = []
        for c in range(self.components.n_cities):
            taker = int(s[E.S_BONUS_TAKER + c])
            if taker >= 0 and b[E.S_BONUS_TAKER + c] < 0:
                kind = E.BONUS_NAMES[int(b[E.S_BONUS_AT + c])]
                tiles.append(f"{who[taker]} takes the {kind} bonus tile of "
                             f"{self.city_label(c)}")
        leaves: list[str] = []
        for t in range(E.N_PROVINCES):
            if s[E.S_TILE_OWNER + t] != b[E.S_TILE_OWNER + t]:
                owner = int(s[E.S_TILE_OWNER + t])
                goods = [E.GOOD_NAMES[g] for g in range(E.N_GOODS)
                         for _ in range(int(self.comp[E.C_TILE_GOODS + t * E.N_GOODS + g]))]
                if owner >= 0:
                    tiles.append(f"{who[owner]} takes province tile {t + 1} "
                                 f"({', '.join(goods)})")
                else:
                    leaves.append(f"nobody claimed province tile {t + 1}: it leaves play")
        points = []
        for p in range(n):
            base = E.S_SCORE + p * E.N_PARTS
            gains = [f"+{int(s[base + k] - b[base + k])} {name}"
                     for k, name in enumerate(E.PART_NAMES) if s[base + k] != b[base + k]]
            if gains:
                points.append(f"{who[p]} scores {', '.join(gains)} (total {self.score(p)})")
        missed = []
        for p in range(n):
            miss_d = int(s[E.S_DISPLAY_MISSED + p] - b[E.S_DISPLAY_MISSED + p])
            miss_k = int(s[E.S_DECK_MISSED + p] - b[E.S_DECK_MISSED + p])
            if miss_d:
                missed.append(f"{who[p]} is owed {miss_d} more display card(s) but the display "
                              "is empty (R3)")
            if miss_k:
                missed.append(f"{who[p]} gets no card from the deck: the deck and the discard "
                              "pile are empty (R3)")
        unrest = moves["unrest"]
        if s[E.S_N_PROTESTS] > b[E.S_N_PROTESTS]:
            aside = [E.SYMBOL_NAMES[sym] for sym in range(E.N_SYMBOLS)
                     if b[E.S_SEAT + sym] == E.SEAT_PRESENT and s[E.S_SEAT + sym] == E.SEAT_ASIDE]
            unrest.insert(1 if unrest else 0, "protest (a second card of that colour): "
                          + (f"{', '.join(aside)} set aside for this visit" if aside
                             else "nothing set aside") + "; unrest is discarded")
        draws = moves["draws"]
        if s[E.S_N_RESHUFFLES] > b[E.S_N_RESHUFFLES]:
            draws.insert(0, "the deck ran out: the discard pile is shuffled into a new deck")
        end = moves["end"] + leaves
        if s[E.S_VISIT] > b[E.S_VISIT]:
            end.append(f"visit {int(b[E.S_VISIT]) + 1} ends")
        deal = moves["deal"]
        if s[E.S_SHORT_DEALS] > b[E.S_SHORT_DEALS]:
            deal.append(f"the deck and the discard pile are empty: the display gets "
                        f"{int(s[E.S_DISPLAY_N])} of {E.DISPLAY_SIZE[n]} cards (R3)")
        over = []
        if s[E.S_PHASE] == E.PHASE_GAME_OVER and b[E.S_PHASE] != E.PHASE_GAME_OVER:
            over.append(f"the game is over: final scores {self.scores()}, winners "
                        f"{', '.join(who[p] for p in self.winners())}")
        return [*court, *tiles, *points, *moves["row"], *moves["take"], *draws, *missed,
                *unrest, *end, *deal, *moves["other"], *over]

    def _card_moves(self, b: np.ndarray, s: np.ndarray, action: int) -> dict[str, list[str]]:
        """The card moves of one step that the action itself does not say, by kind."""
        loc_b = b[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
        loc_s = s[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
        taken = action - E.ACTION_TAKE if E.ACTION_TAKE <= action < E.N_ACTIONS else -1
        groups: dict[tuple[int, int], list[int]] = {}
        for card in np.flatnonzero(loc_b != loc_s):
            key = (int(loc_b[card]), int(loc_s[card]))
            if int(card) == taken or (E.LOC_HAND <= key[0] < E.LOC_ROW and key[1] >= E.LOC_ROW):
                continue  # the action itself: a card taken, or cards played to the row
            groups.setdefault(key, []).append(int(card))
        out: dict[str, list[str]] = {k: [] for k in ("row", "take", "draws", "unrest", "end",
                                                     "deal", "other")}
        for (src, dst), cards in sorted(groups.items()):
            text = self._cards_text(sorted(cards))
            holder = dst - E.LOC_HAND if E.LOC_HAND <= dst < E.LOC_ROW else -1
            if src in (E.LOC_DECK, E.LOC_DISCARD) and holder >= 0:
                out["draws"].append(f"P{holder} draws {text}")
            elif src == E.LOC_DISPLAY and holder >= 0:
                out["take"].append(f"P{holder} takes {text} from the display (no choice left)")
            elif dst == E.LOC_DISPLAY:
                out["deal"].append(f"display dealt for the next visit: {text}")
            elif dst == E.LOC_UNREST:
                out["unrest"].append(f"unrest: {text} drawn")
            elif src in (E.LOC_DECK, E.LOC_DISCARD) and dst == E.LOC_DISCARD:
                out["unrest"].append(f"unrest: {text} drawn")
            elif src >= E.LOC_ROW and holder >= 0:
                out["row"].append(f"P{holder} takes back {text} from the row")
            elif src >= E.LOC_ROW and dst == E.LOC_DISCARD:
                out["row"].append(f"P{src - E.LOC_ROW}'s row is discarded: {text}")
            elif holder >= 0 and all(c >= E.FIRST_PRESTIGE for c in cards):
                origin = "the supply" if src == E.LOC_SUPPLY else f"P{src - E.LOC_HAND}"
                out["end"].append(f"P{holder} turns an advisor pair into {text} (from {origin})")
            elif src == E.LOC_UNREST and dst == E.LOC_DISCARD:
                out["unrest" if s[E.S_N_PROTESTS] > b[E.S_N_PROTESTS] else "end"].append(
                    f"unrest cards discarded: {text}")
            elif src == E.LOC_DISPLAY and dst == E.LOC_DISCARD:
                out["end"].append(f"display leftovers discarded: {text}")
            elif src == E.LOC_DISCARD and dst == E.LOC_DECK:
                continue  # the reshuffle, said once
            else:
                out["other"].append(f"{text}: location {src} -> {dst}")
        return out

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
