"""Pure-Python strategies: a documented interface, a game loop that mixes them with compiled
strategies at one table, and a loader for strategy files (plug-ins).

Writing a strategy
------------------
A strategy is a class with a ``choose(view, legal) -> int`` method (subclass
:class:`PythonPolicy` for the defaults). ``view`` is a :class:`PlayerView`: everything the seat
may see, and nothing else (no other hand, no deck order, no chance stream). ``legal`` lists the
legal action numbers; return one of them. Actions are decoded with :meth:`PlayerView.decode`
(or :func:`decode_action`)::

    class MyPolicy(PythonPolicy):
        name = "mine"
        description = "plays its first legal bid, withdraws when it leads the elephant"

        def choose(self, view, legal):
            ...

Save it in a file (the repository's ``strategies/`` folder holds examples) and use it as
``py:strategies/my_file.py`` wherever seats are given as text (:func:`resolve_seat`,
:func:`play_mixed_game`, :func:`play_python_games`). The file is loaded by path; the folder is
not a package.

Speed: a Python seat goes through the Python loop below (one ``PlayerView`` built per
decision), so a table with a Python seat runs at a few hundred games per second at best, where
the compiled batch kernels run thousands; ``docs/strategies.md`` gives measured numbers.
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from tajsim.errors import UserError
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine import nb

__all__ = [
    "PlayerView",
    "PythonPolicy",
    "decode_action",
    "load_policy_file",
    "play_mixed_game",
    "play_python_games",
    "resolve_seat",
]


def decode_action(action: int) -> tuple:
    """``("withdraw",)``, ``("bid", card, extra_or_None)``, ``("city", city)`` or
    ``("take", card)``."""
    if action == E.ACTION_WITHDRAW:
        return ("withdraw",)
    if E.ACTION_BID <= action < E.ACTION_CITY:
        card, slot = divmod(action - E.ACTION_BID, E.BID_EXTRA)
        return ("bid", card, E.FIRST_WHITE + slot - 1 if slot else None)
    if E.ACTION_CITY <= action < E.ACTION_TAKE:
        return ("city", action - E.ACTION_CITY)
    if E.ACTION_TAKE <= action < E.N_ACTIONS:
        return ("take", action - E.ACTION_TAKE)
    raise ValueError(f"not an action number: {action}")


@dataclass(frozen=True)
class PlayerView:
    """What seat ``player`` may see, built from the state by :meth:`from_state`.

    Card ids are 0..99 (``card_colour`` / ``card_symbols`` describe them); cities and provinces
    are indices into ``components`` (board structure: ``components.province_cities(p)``,
    ``neighbours``). Symbol, colour and bonus-kind numbers follow the wing's ``engine.enums``.
    """

    player: int
    n_players: int
    edition: str
    visit: int  # 0..11
    province: int  # province being visited
    phase: str  # "bid", "palace", "crown" or "display"
    pending: int  # palaces still to place / display cards still to take
    first_player: int
    hand: tuple[int, ...]  # own hand
    hand_sizes: tuple[int, ...]
    known_cards: tuple[tuple[int, ...], ...]  # public cards in each hand (taken from the display)
    rows: tuple[tuple[int, ...], ...]
    row_symbols: tuple[tuple[int, ...], ...]  # per player, per symbol
    row_colours: tuple[int, ...]  # -1: empty row
    withdrawn: tuple[bool, ...]
    display: tuple[int, ...]
    unrest: tuple[int, ...]
    discard: tuple[int, ...]
    deck_size: int
    court: tuple[int, ...]  # per symbol: SEAT_EMPTY / SEAT_PRESENT / SEAT_ASIDE
    token_supply: tuple[int, ...]
    tokens: tuple[tuple[int, ...], ...]  # advisor tokens held, per player
    goods: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    score_parts: tuple[tuple[int, ...], ...]
    palaces: tuple[tuple[int, ...], ...]  # palaces[city][player]
    bonus_at: tuple[int, ...]  # bonus kind lying on each city, -1 none
    crown_city: int
    province_tile: tuple[int, ...]  # tile index on each province (tile t is visited at t)
    tile_owner: tuple[int, ...]
    prestige_holder: tuple[int, ...]  # per prestige card: seat holding it, -1 supply
    card_colour_table: tuple[int, ...]
    card_symbol_table: tuple[tuple[int, ...], ...]
    components: object | None = None

    # -- building -------------------------------------------------------------------------
    @classmethod
    def from_state(cls, state: np.ndarray, comp: np.ndarray, player: int,
                   components=None) -> PlayerView:
        """The view of ``player``; reads only information that seat may know."""
        n = int(state[E.S_N_PLAYERS])
        loc = state[E.S_CARD_LOC:E.S_CARD_LOC + E.N_CARDS]
        public = state[E.S_CARD_PUBLIC:E.S_CARD_PUBLIC + E.N_CARDS]

        def at(where: int) -> tuple[int, ...]:
            return tuple(int(c) for c in np.flatnonzero(loc == where))

        known = tuple(
            tuple(int(c) for c in np.flatnonzero((loc == E.LOC_HAND + q) & (public == 1)))
            for q in range(n)
        )
        syms = comp[E.C_CARD_SYM:E.C_CARD_SYM + E.N_CARDS * E.N_SYMBOLS].reshape(
            E.N_CARDS, E.N_SYMBOLS)
        cities = int(comp[E.C_N_CITIES])
        pal = state[E.S_PALACES:E.S_PALACES + E.MAX_CITIES * E.MAX_PLAYERS].reshape(
            E.MAX_CITIES, E.MAX_PLAYERS)
        holder = []
        for card in range(E.FIRST_PRESTIGE, E.N_CARDS):
            where = int(loc[card])
            if E.LOC_HAND <= where < E.LOC_HAND + E.MAX_PLAYERS:
                holder.append(where - E.LOC_HAND)
            elif E.LOC_ROW <= where < E.LOC_ROW + E.MAX_PLAYERS:
                holder.append(where - E.LOC_ROW)
            else:
                holder.append(-1)
        return cls(
            player=int(player),
            n_players=n,
            edition=E.EDITION_NAMES[int(state[E.S_EDITION])],
            visit=int(state[E.S_VISIT]),
            province=int(state[E.S_PROVINCE]),
            phase=E.PHASE_NAMES[int(state[E.S_PHASE])],
            pending=int(state[E.S_PENDING]),
            first_player=int(state[E.S_FIRST]),
            hand=at(E.LOC_HAND + player),
            hand_sizes=tuple(int(x) for x in state[E.S_HAND_N:E.S_HAND_N + n]),
            known_cards=known,
            rows=tuple(at(E.LOC_ROW + q) for q in range(n)),
            row_symbols=tuple(
                tuple(int(x) for x in state[E.S_ROW_SYM + q * E.N_SYMBOLS:
                                            E.S_ROW_SYM + (q + 1) * E.N_SYMBOLS])
                for q in range(n)
            ),
            row_colours=tuple(int(x) for x in state[E.S_ROW_COLOUR:E.S_ROW_COLOUR + n]),
            withdrawn=tuple(bool(x) for x in state[E.S_WITHDRAWN:E.S_WITHDRAWN + n]),
            display=at(E.LOC_DISPLAY),
            unrest=at(E.LOC_UNREST),
            discard=at(E.LOC_DISCARD),
            deck_size=int(state[E.S_DECK_LEN] - state[E.S_DECK_TOP]),
            court=tuple(int(x) for x in state[E.S_SEAT:E.S_SEAT + E.N_SYMBOLS]),
            token_supply=tuple(int(x) for x in
                               state[E.S_TOKEN_SUPPLY:E.S_TOKEN_SUPPLY + E.N_ADVISORS]),
            tokens=tuple(
                tuple(int(x) for x in state[E.S_TOKENS + q * E.N_ADVISORS:
                                            E.S_TOKENS + (q + 1) * E.N_ADVISORS])
                for q in range(n)
            ),
            goods=tuple(
                tuple(int(x) for x in state[E.S_GOODS + q * E.N_GOODS:
                                            E.S_GOODS + (q + 1) * E.N_GOODS])
                for q in range(n)
            ),
            scores=tuple(int(nb.score_of(state, q)) for q in range(n)),
            score_parts=tuple(
                tuple(int(x) for x in state[E.S_SCORE + q * E.N_PARTS:
                                            E.S_SCORE + (q + 1) * E.N_PARTS])
                for q in range(n)
            ),
            palaces=tuple(tuple(int(x) for x in pal[c, :n]) for c in range(cities)),
            bonus_at=tuple(int(x) for x in state[E.S_BONUS_AT:E.S_BONUS_AT + cities]),
            crown_city=int(state[E.S_CROWN_CITY]),
            province_tile=tuple(int(x) for x in
                                state[E.S_PROVINCE_TILE:E.S_PROVINCE_TILE + E.N_PROVINCES]),
            tile_owner=tuple(int(x) for x in
                             state[E.S_TILE_OWNER:E.S_TILE_OWNER + E.N_PROVINCES]),
            prestige_holder=tuple(holder),
            card_colour_table=tuple(int(x) for x in
                                    comp[E.C_CARD_COLOUR:E.C_CARD_COLOUR + E.N_CARDS]),
            card_symbol_table=tuple(tuple(int(x) for x in row) for row in syms),
            components=components,
        )

    # -- helpers --------------------------------------------------------------------------
    def card_colour(self, card: int) -> int:
        """0..3 coloured, 4 (``COLOURLESS``) white and prestige cards."""
        return self.card_colour_table[card]

    def card_symbols(self, card: int) -> tuple[int, ...]:
        """Symbol counts of ``card`` (index = ``enums.SYM``)."""
        return self.card_symbol_table[card]

    @staticmethod
    def decode(action: int) -> tuple:
        return decode_action(action)

    def province_cities(self) -> list[int]:
        """Cities of the province being visited (needs ``components``)."""
        if self.components is None:
            raise ValueError("this view was built without components")
        return [int(c) for c in self.components.province_cities(self.province)]

    def majority(self, sym: int, counts: Sequence[int] | None = None) -> bool:
        """Would the player hold the majority in ``sym`` with row counts ``counts`` (default:
        its current row) against the players still in the visit (and the unrest cards)?"""
        mine = (counts or self.row_symbols[self.player])[sym]
        if mine == 0:
            return False
        for q in range(self.n_players):
            if q != self.player and not self.withdrawn[q] and self.row_symbols[q][sym] >= mine:
                return False
        unrest = sum(self.card_symbols(c)[sym] for c in self.unrest)
        return unrest < mine


class PythonPolicy:
    """Base class of pure-Python strategies. Override :meth:`choose`.

    ``reset(n_players, seat)`` is called at the start of every game (optional state);
    ``choose(view, legal)`` must return one of ``legal``.
    """

    name = "python"
    description = "a pure-Python strategy"

    def reset(self, n_players: int, seat: int) -> None:  # noqa: B027 - optional hook
        pass

    def choose(self, view: PlayerView, legal: list[int]) -> int:
        raise NotImplementedError


# ---------------------------------------------------------------------------
# Loading plug-ins
# ---------------------------------------------------------------------------
def load_policy_file(path: str | Path) -> PythonPolicy:
    """Load a strategy file by path and return an instance of its policy class.

    The file must define exactly one class with a ``choose`` method defined in the file
    (usually a :class:`PythonPolicy` subclass), or name one with ``POLICY = ClassName``.
    """
    file = Path(path)
    if not file.is_file():
        raise UserError(f"strategy file {str(file)!r} does not exist")
    mod_name = f"tajsim_user_strategy_{abs(hash(str(file.resolve())))}"
    spec = importlib.util.spec_from_file_location(mod_name, file)
    if spec is None or spec.loader is None:
        raise UserError(f"cannot load strategy file {str(file)!r}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as exc:  # noqa: BLE001 - report any error in user code as one line
        raise UserError(f"strategy file {str(file)!r} failed to load: {exc!r}") from None
    cls = getattr(module, "POLICY", None)
    if cls is None:
        found = [
            obj for obj in vars(module).values()
            if inspect.isclass(obj) and obj.__module__ == mod_name and hasattr(obj, "choose")
        ]
        if len(found) != 1:
            raise UserError(
                f"strategy file {str(file)!r} must define one policy class with a choose() "
                f"method (or POLICY = ClassName); found {len(found)}"
            )
        cls = found[0]
    policy = cls()
    if not getattr(policy, "name", None) or policy.name == "python":
        policy.name = file.stem
    return policy


def resolve_seat(seat) -> tuple[str, object]:
    """``("py", policy)`` for ``py:path`` or a policy object, ``("nb", (spec, params))`` for a
    registered compiled strategy name (with ``:key=value`` overrides)."""
    from tajsim.games.tajmahal.strategies.registry import parse_strategy

    if isinstance(seat, str):
        if seat.startswith("py:"):
            return "py", load_policy_file(seat[3:])
        return "nb", parse_strategy(seat)
    if hasattr(seat, "choose"):
        return "py", seat
    raise UserError(f"not a strategy: {seat!r}")


def _seat_label(kind: str, obj) -> str:
    if kind == "py":
        return f"py:{obj.name}"
    return obj[0].name


# ---------------------------------------------------------------------------
# Game loops
# ---------------------------------------------------------------------------
def play_mixed_game(seats: Sequence, edition: str = "2018", seed: int = 0, game_id: int = 0,
                    setup_id: int | None = None, components=None, _resolved=None,
                    on_action=None):
    """Play one game where each seat is a compiled strategy name, ``py:path`` or a policy
    object; returns the finished :class:`~tajsim.games.tajmahal.engine.game.Game`.

    ``on_action`` (optional) is called as ``on_action(game, player, action)`` before each
    action is applied.

    For the same (seed, game_id, setup_id) an all-compiled table gives exactly the game of the
    batch runner and of :func:`tajsim.games.tajmahal.engine.game.play_game`.
    """
    from tajsim.games.tajmahal.engine.game import Game
    from tajsim.games.tajmahal.strategies.nb import choose_action_nb

    resolved = _resolved if _resolved is not None else [resolve_seat(s) for s in seats]
    game = Game(len(resolved), edition, seed, game_id, setup_id, components)
    game.strategies = [_seat_label(k, o) for k, o in resolved]
    for p, (kind, obj) in enumerate(resolved):
        if kind == "py":
            obj.reset(game.n_players, p)
    legal = np.empty(E.N_ACTIONS, np.int64)
    state, comp, prng = game.state, game.comp, game.prng
    while state[E.S_PHASE] != E.PHASE_GAME_OVER:
        n = nb.legal_actions_nb(state, comp, legal)
        p = int(state[E.S_CUR])
        if n == 1:
            action = int(legal[0])
        else:
            kind, obj = resolved[p]
            if kind == "nb":
                spec, params = obj
                action = int(choose_action_nb(spec.strategy_id, state, comp, p, params, prng,
                                              legal, n))
            else:
                view = PlayerView.from_state(state, comp, p, game.components)
                options = [int(a) for a in legal[:n]]
                action = obj.choose(view, options)
                if action not in options:
                    raise UserError(
                        f"python strategy {obj.name!r} returned {action!r}, not one of the "
                        f"{n} legal actions (phase {view.phase})"
                    )
                action = int(action)
        if on_action is not None:
            on_action(game, p, action)
        nb.apply_action_nb(state, comp, action)
        game.actions.append(action)
    return game


def play_python_games(seats: Sequence, n_games: int, seed: int = 0, edition: str = "2018",
                      first_game: int = 0, rotate: bool = True, components=None):
    """Play ``n_games`` mixed games (seat list rotated by the game index when ``rotate``) and
    return ``(results, setups, lineups)``: ``RESULT_DTYPE`` / ``SETUP_DTYPE`` records as the
    batch runner writes them (``strategy_id`` is the compiled id, -1 for Python seats) and
    int64[n_games, n] lineups (index into ``seats`` of each seat)."""
    from tajsim.games.tajmahal.play.nb import write_records_nb

    resolved = [resolve_seat(s) for s in seats]
    n = len(resolved)
    results = np.zeros(n_games * n, E.RESULT_DTYPE)
    setups = np.zeros(n_games, E.SETUP_DTYPE)
    lineups = np.zeros((n_games, n), np.int64)
    for k in range(n_games):
        g = first_game + k
        order = [(s + (g if rotate else 0)) % n for s in range(n)]
        lineups[k] = order
        game = play_mixed_game([None] * n, edition, seed, g, None, components,
                               _resolved=[resolved[i] for i in order])
        seat_ids = np.array(
            [resolved[i][1][0].strategy_id if resolved[i][0] == "nb" else -1 for i in order],
            np.int64,
        )
        write_records_nb(game.state, game.comp, g, g, seat_ids, results, k * n, setups, k)
    return results, setups, lineups
