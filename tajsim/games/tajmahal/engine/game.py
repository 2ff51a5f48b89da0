"""Step-by-step play: ``Game`` wraps one state vector with readable actions, and ``GameRecord``
(setup + action history) serialises to JSON and replays the game exactly.

The Python layer validates and displays; every rule runs in :mod:`tajsim.games.tajmahal.engine.nb`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from tajsim.errors import UserError
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb
from tajsim.games.tajmahal.engine.components import Components, default_components, load_components


class IllegalActionError(UserError):
    """An action that is not legal in the current state."""


def parse_edition(edition: str | int) -> int:
    """Edition code (``EDITION_2018`` / ``EDITION_2000``) from ``"2018"``/``"2000"``."""
    text = str(edition)
    if text not in E.EDITION_NAMES:
        raise UserError(f"unknown edition {text!r}; expected one of: 2018, 2000")
    return E.EDITION_NAMES.index(text)


def check_players(n_players: int, edition: str | int) -> None:
    """One-line error unless ``n_players`` is allowed by the edition (2018: 2-5, 2000: 3-5)."""
    code = parse_edition(edition)
    low = E.MIN_PLAYERS[code]
    if not isinstance(n_players, (int, np.integer)) or not low <= n_players <= E.MAX_PLAYERS:
        raise UserError(
            f"player count {n_players!r} is not allowed in the {E.EDITION_NAMES[code]} edition; "
            f"expected {low} to {E.MAX_PLAYERS}"
        )


@dataclass
class GameRecord:
    """Everything needed to replay a game: its configuration and its action history.

    ``strategies`` is informative (who played); replaying uses only the actions.
    """

    n_players: int
    edition: str = "2018"
    seed: int = 0
    game_id: int = 0
    setup_id: int | None = None
    board: str | None = None
    components: str | None = None
    strategies: list[str] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
            return cls(**data)
        except (json.JSONDecodeError, TypeError) as exc:
            raise UserError(f"not a tajsim game record: {exc}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json())

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        return cls.from_json(Path(path).read_text())

    def replay(self, upto: int | None = None) -> Game:
        """A ``Game`` with the first ``upto`` (default: all) actions applied, each checked."""
        comps = (
            load_components(self.board, self.components)
            if (self.board or self.components)
            else None
        )
        game = Game(self.n_players, self.edition, self.seed, self.game_id, self.setup_id, comps)
        game.strategies = list(self.strategies)
        for action in self.actions[:upto]:
            game.apply(action)
        return game


def _custom_path(path: str, kind: str) -> str | None:
    """``path`` unless it is the packaged default file of this kind (records stay portable)."""
    default = default_components()
    default_path = default.board_path if kind == "board" else default.components_path
    return None if str(path) == str(default_path) else str(path)


class Game:
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

    def __init__(
        self,
        n_players: int = 4,
        edition: str | int = "2018",
        seed: int = 0,
        game_id: int = 0,
        setup_id: int | None = None,
        components: Components | None = None,
    ) -> None:
        check_players(n_players, edition)
        self.edition = E.EDITION_NAMES[parse_edition(edition)]
        self.n_players = int(n_players)
        self.seed = int(seed)
        self.game_id = int(game_id)
        self.setup_id = self.game_id if setup_id is None else int(setup_id)
        self.components = components or default_components()
        self.comp = self.components.packed()
        self.state = np.zeros(E.STATE_SIZE, np.int64)
        self.prng = np.zeros(E.MAX_PLAYERS, np.int64)
        self.strategies: list[str] = []
        from tajsim.games.tajmahal.play.nb import (
            start_game_nb,  # running depends on engine, not back
        )

        start_game_nb(
            self.comp, self.n_players, parse_edition(self.edition), self.seed, self.game_id,
            self.setup_id, self.state, self.prng,
        )
        self.actions: list[int] = []
        self._legal = np.empty(E.N_ACTIONS, np.int64)

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

    def legal_actions(self) -> list[int]:
        n = nb.legal_actions_nb(self.state, self.comp, self._legal)
        return [int(a) for a in self._legal[:n]]

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

    # -- acting --------------------------------------------------------------------------
    def apply(self, action: int) -> None:
        """Apply ``action`` for the current player; ``IllegalActionError`` if not legal."""
        if self.is_over:
            raise IllegalActionError(f"the game is over; action {action} cannot be applied")
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(
                f"action {action} ({self.action_label(action)}) is not legal in phase "
                f"{self.phase}; {len(legal)} legal actions, e.g. {legal[:5]}"
            )
        nb.apply_action_nb(self.state, self.comp, int(action))
        self.actions.append(int(action))

    def clone(self) -> Game:
        other = object.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.prng = self.prng.copy()
        other.actions = list(self.actions)
        other.strategies = list(self.strategies)
        other._legal = np.empty(E.N_ACTIONS, np.int64)
        return other

    def record(self) -> GameRecord:
        return GameRecord(
            n_players=self.n_players, edition=self.edition, seed=self.seed, game_id=self.game_id,
            setup_id=self.setup_id, board=_custom_path(self.components.board_path, "board"),
            components=_custom_path(self.components.components_path, "components"),
            strategies=list(self.strategies), actions=list(self.actions),
        )

    # -- display -------------------------------------------------------------------------
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


def play_game(
    strategies: Sequence[str],
    edition: str = "2018",
    seed: int = 0,
    game_id: int = 0,
    setup_id: int | None = None,
    components: Components | None = None,
    on_action=None,
) -> Game:
    """Play a whole game step by step: one strategy per seat, each a registered name (with
    optional ``:key=value`` parameters) or ``py:path/to/file.py`` (a pure-Python plug-in).

    Gives the same game as the batch runner for the same (seed, game_id, setup_id).
    ``on_action`` (optional) is called as ``on_action(game, player, action)`` before each
    action is applied. A decision with a single legal action does not ask the strategy.
    """
    from tajsim.games.tajmahal.strategies.python_policy import play_mixed_game

    game = play_mixed_game(list(strategies), edition, seed, game_id, setup_id, components,
                           on_action=on_action)
    game.strategies = [str(name) for name in strategies]
    return game
