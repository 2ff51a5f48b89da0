"""What an OpenSpiel state of a tajsim game holds (``StateData``): the tajsim game, the seats'
recall (views as text, chained digests) and the JSON payload that serialises it."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from tajsim.engine.base_game import BaseGame, GameRecord, IllegalActionError
from tajsim.errors import UserError
from tajsim.interop import require
from tajsim.interop.openspiel.game_type import openspiel_name

pyspiel = require("pyspiel", "the OpenSpiel adapter (tajsim.interop.openspiel)")

if TYPE_CHECKING:
    from tajsim.interop.openspiel.game import TajsimGame


_PLAIN = (int, float, str, bool, tuple, list, dict, type(None))


# From a module imported by name: a type checker takes it as Any.
_SpielError: Any = pyspiel.SpielError


class IllegalActionSpielError(_SpielError, IllegalActionError):
    """An action a state refuses: OpenSpiel's own error type (``pyspiel.SpielError``, what its
    C++ games raise) and tajsim's (``IllegalActionError``, a one-line ``UserError``)."""


def view_text(view: Any) -> str:
    """One ``field=value`` line per field of a game's view (a frozen dataclass) whose value is
    plain data; objects such as the components (the same for every seat and every state) are
    left out, so the text is short, deterministic and comparable across processes."""
    lines = []
    for f in dataclasses.fields(view):
        value = getattr(view, f.name)
        if isinstance(value, _PLAIN):
            lines.append(f"{f.name}={value!r}")
    return "\n".join(lines)


def chain(digest: bytes, text: str, action: int) -> bytes:
    """The next link of a seat's recall: its previous digest, what it saw, what it did."""
    h = hashlib.blake2b(digest, digest_size=16)
    h.update(text.encode())
    h.update(b"\x00%d" % action)
    return h.digest()


class StateData:
    """Everything a :class:`TajsimState` holds, in one object so that pyspiel's own copy of a
    Python state (``clone``: a deep copy of the state's ``__dict__``; ``SerializeGameAndState``:
    its pickle) runs this class's fast clone and record-based pickle instead of copying the
    spec and the components.

    Recall of seat ``p``: ``digests[p]`` (16 bytes) covers its decisions folded so far;
    ``pending[p]`` holds (int64[state_size] state copy, action) of its decisions not folded
    yet (folded, by computing the view, when an information state is asked for).
    """

    def __init__(self, game: TajsimGame, base: BaseGame | None) -> None:
        self.os_game = game
        self.spec = game.spec
        self.base = base  # None before the deal
        self.chance_deal = base is None  # the deal is the first action of the history
        n = game.n_players
        self.digests = [b""] * n
        self.pending: list[list[tuple[np.ndarray, int]]] = [[] for _ in range(n)]
        self.obs_cache: dict[int, str] = {}
        self.raw = False  # True: a resampled world, not the replay of a record
        self.resamples = 0
        self.legal_buf = np.empty(game.spec.n_actions, np.int64)

    def __deepcopy__(self, memo: Any) -> StateData:
        other = object.__new__(StateData)
        other.__dict__.update(self.__dict__)
        other.base = None if self.base is None else self.base.clone()
        other.digests = list(self.digests)
        other.pending = list(self.pending)  # inner lists are replaced, never mutated
        other.obs_cache = dict(self.obs_cache)
        other.resamples = 0
        other.legal_buf = np.empty(self.spec.n_actions, np.int64)
        return other

    def refuse_illegal(self, action: int) -> None:
        """Raise :class:`IllegalActionSpielError` unless ``action`` is legal here: a deal
        ``0 .. deals - 1`` at the chance node, one of the legal actions of the seat to move
        after it. OpenSpiel does not check a Python game's actions, and the kernels trust
        theirs (an illegal one corrupts the state silently), so every action is checked
        before it reaches them."""
        base = self.base
        if base is None:
            deals = self.os_game.deals
            if not 0 <= action < deals:
                raise IllegalActionSpielError(
                    f"deal {action} is not an outcome of the chance node; expected a game id "
                    f"0 to {deals - 1}")
            return
        if base.is_over:
            raise IllegalActionSpielError(f"the game is over; action {action} cannot be applied")
        n = int(self.spec.kernels.legal_actions(base.state, base.comp, self.legal_buf))
        if not np.any(self.legal_buf[:n] == action):
            shown = sorted(int(a) for a in self.legal_buf[:n])[:5]
            raise IllegalActionSpielError(
                f"action {action} is not legal for player {base.current_player} here; "
                f"expected one of its {n} legal actions, e.g. {shown}")

    def step(self, action: int) -> None:
        """Apply ``action`` with the game's kernel (checked legal by :meth:`refuse_illegal`)
        and note the actor's decision for its recall."""
        base = self.base
        if base is None:  # the deal
            self.base = self.os_game.deal(int(action))
            return
        player = base.current_player
        seen = self.obs_cache.get(player)
        if seen is not None:
            self.digests[player] = chain(self.digests[player], seen, action)
        else:
            self.pending[player] = [*self.pending[player], (base.state.copy(), int(action))]
        self.spec.kernels.apply_action(base.state, base.comp, int(action))
        base.actions.append(int(action))
        self.obs_cache = {}

    def fold(self, player: int) -> None:
        """Fold ``player``'s pending decisions into its recall digest."""
        base = self.base
        if base is None:  # before the deal nobody has decided
            return
        for state, action in self.pending[player]:
            seen = view_text(self.spec.view(state, base.comp, player, base.components))
            self.digests[player] = chain(self.digests[player], seen, action)
        self.pending[player] = []

    def payload(self) -> str:
        """The state as JSON: the game's name and parameters and its ``GameRecord``, plus the
        raw vectors and the recall of a resampled world."""
        params = {k: v for k, v in self.os_game.get_parameters().items()}
        record = None if self.base is None else json.loads(self.base.record().to_json())
        data: dict[str, Any] = {"game": openspiel_name(self.spec), "params": params,
                                "record": record, "chance_deal": self.chance_deal}
        if self.raw:
            base = self.base
            assert base is not None  # a resampled world is past the deal
            for p in range(base.n_players):
                self.fold(p)
            data.update(state=base.state.tolist(), prng=base.prng.tolist(),
                        recall=[d.hex() for d in self.digests])
        return json.dumps(data, separators=(",", ":"))

    def __reduce__(self) -> tuple:
        return (data_from_payload, (self.payload(),))


def parse_payload(text: str) -> dict[str, Any]:
    try:
        data = json.loads(text)
        if not all(key in data for key in ("game", "params", "record")):
            raise KeyError("game, params and record")
    except (ValueError, KeyError, TypeError) as exc:
        raise UserError(f"not a serialised tajsim OpenSpiel state: {exc}") from None
    return data


def restore_raw(d: StateData, data: Mapping[str, Any]) -> None:
    """Put back a resampled world's vectors and recall (nothing for a record's state)."""
    if "state" not in data:
        return
    base = d.base
    if base is None:
        raise UserError("not a serialised tajsim OpenSpiel state: vectors of a game before its "
                        "deal")
    base.state[:] = np.asarray(data["state"], np.int64)
    base.prng[:] = np.asarray(data["prng"], np.int64)
    d.digests = [bytes.fromhex(h) for h in data["recall"]]
    d.pending = [[] for _ in range(base.n_players)]
    d.obs_cache = {}
    d.raw = True


def check_replayed(d: StateData, index: int, action: int) -> None:
    """Refuse action ``index`` (0-based; -1: the deal) of a serialised record unless it is
    legal in ``d``, naming its place in the record."""
    try:
        d.refuse_illegal(action)
    except IllegalActionSpielError as exc:
        where = "the deal" if index < 0 else f"action {index + 1}"
        raise IllegalActionSpielError(f"serialised state: {where} of the record: {exc}"
                                      ) from None


def data_from_payload(text: str) -> StateData:
    """The :class:`StateData` of :meth:`StateData.payload` (pyspiel's pickle of a state):
    its record replayed action by action (each checked), then a resampled world restored."""
    data = parse_payload(text)
    os_game = pyspiel.load_game(data["game"], data["params"])
    if data["record"] is None:
        return StateData(os_game, None)
    record = GameRecord.from_dict(data["record"])
    base = os_game.deal(record.game_id, record.setup_id)
    out = StateData(os_game, base)
    out.chance_deal = bool(data.get("chance_deal", True))
    for i, action in enumerate(record.actions):
        check_replayed(out, i, action)
        out.step(action)
    restore_raw(out, data)
    return out
