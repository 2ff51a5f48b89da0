"""OpenSpiel's bots (ISMCTS, MCTS on a redrawn world) as seats at tajsim's tables
(``openspiel:BOT:key=value...``)."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tajsim.engine.base_game import BaseGame
from tajsim.engine.spec import GameSpec
from tajsim.errors import UserError
from tajsim.interop import require
from tajsim.interop.openspiel.game import TajsimGame, TajsimState, state_from_game
from tajsim.interop.openspiel.game_type import load_game

_mcts = require("open_spiel.python.algorithms.mcts", "OpenSpiel's bots")
_ismcts = require("open_spiel.python.algorithms.ismcts", "OpenSpiel's bots")
# The base class, from a module imported by name: a type checker takes it as Any.
_ISMCTSBot: Any = _ismcts.ISMCTSBot


#: The bots a seat may name and the keys each accepts (with defaults).
BOT_KEYS: Mapping[str, Mapping[str, float]] = {
    "ismcts": {"iterations": 200, "seconds": 0.0, "uct_c": 2.0, "rollouts": 1, "seed": 0},
    "mcts": {"iterations": 200, "uct_c": 2.0, "rollouts": 1, "seed": 0},
}


#: Each key's allowed values: (whole number?, least value, whether the least is allowed).
_KEY_RANGES: Mapping[str, tuple[bool, float, bool]] = {
    "iterations": (True, 1, True), "seconds": (False, 0.0, False), "uct_c": (False, 0.0, True),
    "rollouts": (True, 1, True), "seed": (True, 0, True),
}


def parse_bot(text: str) -> tuple[str, dict[str, float]]:
    """``BOT:key=value...`` (after ``openspiel:``) -> (bot, settings with defaults).

    Every value is a finite number in its key's range (``seconds`` > 0: leave it out to count
    iterations instead), each key at most once; anything else is a one-line ``UserError``
    naming the value, before any game."""
    bot, *assignments = text.strip().split(":")
    spec = f"'openspiel:{text.strip()}'"
    if bot not in BOT_KEYS:
        raise UserError(f"unknown OpenSpiel bot {bot!r} in {spec}; expected one of: "
                        f"{', '.join(BOT_KEYS)}")
    settings = dict(BOT_KEYS[bot])
    given: set[str] = set()
    for item in assignments:
        key, sep, value = item.partition("=")
        if key not in settings:
            raise UserError(f"unknown key {key!r} of openspiel:{bot} in {spec}; expected one "
                            f"of: {', '.join(settings)}")
        if key in given:
            raise UserError(f"{key} given twice in {spec}; expected each key at most once")
        given.add(key)
        whole, least, least_ok = _KEY_RANGES[key]
        what = (f"a whole number >= {least:g}" if whole else
                f"a number >= {least:g}" if least_ok else
                f"a number > {least:g}" + (" (leave seconds out to count iterations)"
                                           if key == "seconds" else ""))
        try:
            if not sep:
                raise ValueError
            number = float(value)
        except ValueError:
            raise UserError(f"bad parameter {item!r} in {spec}; expected key=number ({key}: "
                            f"{what})") from None
        if not math.isfinite(number) or (whole and number != int(number)) or \
                number < least or (number == least and not least_ok):
            raise UserError(f"{key}={value} in {spec} is not allowed; expected {what}")
        settings[key] = number
    return bot, settings


class _TimedISMCTSBot(_ISMCTSBot):
    """OpenSpiel's ISMCTS with an optional time budget per decision (``seconds`` > 0: run
    simulations until it is spent, at least two). The search itself is OpenSpiel's."""

    def __init__(self, *args: Any, seconds: float = 0.0, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._seconds = seconds
        self.simulations = 0

    def run_search(self, state: Any) -> Any:
        if self._seconds <= 0:
            self.simulations += self._max_simulations
            return super().run_search(state)
        # OpenSpiel's loop, stopped by the clock instead of a count
        self.reset()
        legal = state.legal_actions()
        if len(legal) == 1:
            return [(legal[0], 1.0)]
        self._root_node = self.create_new_node(state)
        deadline = time.perf_counter() + self._seconds
        done = 0
        # the first simulation only evaluates the root: two are the least that choose
        while done < 2 or time.perf_counter() < deadline:
            self.run_simulation(self.sample_root_state(state))
            done += 1
        self.simulations += done
        return self.get_final_policy(state, self._root_node)


class OpenSpielSeat:
    """A seat played by an OpenSpiel bot (``openspiel:BOT:key=value``) through the adapter.

    It takes the referee's game (``choose_in_game``) because OpenSpiel's bots search on states;
    ``ismcts`` reaches the hidden facts only through ``resample_from_infostate``, and ``mcts``
    searches one world drawn the same way, so neither reads what its seat cannot see.
    """

    def __init__(self, spec: GameSpec, text: str) -> None:
        self.spec = spec
        self.game = spec.name
        self.bot_name, self.settings = parse_bot(text)
        self.name = f"openspiel:{text}"
        self.label = self.name
        self._os_games: dict[tuple, TajsimGame] = {}
        # one bot and random stream per (game configuration, seat): a seat object may sit at
        # several seats of a table
        self._bots: dict[tuple, tuple[Any, np.random.RandomState]] = {}
        self._seeded: set[tuple] = set()
        self._synced: tuple[int, TajsimState] | None = None
        self.decisions = 0
        self.seconds = 0.0

    def reset(self, n_players: int, player: int) -> None:
        self._synced = None
        self._seeded = set()

    def _make_bot(self, os_game: TajsimGame, rs: np.random.RandomState) -> Any:
        s = self.settings
        evaluator = _mcts.RandomRolloutEvaluator(int(s["rollouts"]), rs)
        if self.bot_name == "ismcts":
            bot = _TimedISMCTSBot(os_game, evaluator, s["uct_c"], int(s["iterations"]),
                                  random_state=rs, seconds=s["seconds"])
            # OpenSpiel's default resampler restarts its sampler at every call; draw from the
            # bot's own (seeded) stream instead
            bot.set_resampler(lambda st, p: st.resample_from_infostate(p, rs.uniform))
            return bot
        return _mcts.MCTSBot(os_game, s["uct_c"], int(s["iterations"]), evaluator,
                             random_state=rs, solve=False)

    def _bot(self, base: BaseGame, player: int) -> tuple[TajsimGame, Any, Any]:
        """(OpenSpiel game, bot, its random stream) of seat ``player`` of ``base``, the stream
        reseeded at the seat's first decision of the game."""
        key = (base.n_players, base.edition, base.seed, tuple(sorted(base.options)))
        if key not in self._os_games:
            self._os_games[key] = load_game(self.spec, base.n_players, base.edition, base.seed,
                                            base.options)
        os_game = self._os_games[key]
        if (key, player) not in self._bots:
            rs = np.random.RandomState(0)
            self._bots[key, player] = (self._make_bot(os_game, rs), rs)
        bot, rs = self._bots[key, player]
        seeded_for = (base.seed, base.game_id, player)
        if seeded_for not in self._seeded:
            rs.seed(np.random.SeedSequence(
                [int(self.settings["seed"]), base.seed, base.game_id, player]
            ).generate_state(1)[0])
            self._seeded.add(seeded_for)
        return os_game, bot, rs

    def _state(self, base: BaseGame, os_game: TajsimGame) -> TajsimState:
        """The OpenSpiel state of ``base``, kept in step with it between decisions."""
        if self._synced is not None and self._synced[0] == id(base):
            state = self._synced[1]
            synced = state.tajsim_game
            assert synced is not None  # a state made from a game is past the deal
            for action in base.actions[len(synced.actions):]:
                state.apply_action(action)
        else:
            state = state_from_game(os_game, base)
        self._synced = (id(base), state)
        return state

    def choose_in_game(self, base: BaseGame, player: int, options: Sequence[int]) -> int:
        """The bot's action for seat ``player`` of ``base`` (one of ``options``)."""
        t0 = time.perf_counter()
        os_game, bot, rs = self._bot(base, player)
        state = self._state(base, os_game)
        if self.bot_name == "mcts":
            action = int(bot.step(state.resample_from_infostate(player, rs.uniform)))
        else:
            action = int(bot.step(state))
        self.decisions += 1
        self.seconds += time.perf_counter() - t0
        return action

    def choose(self, view: Any, options: Sequence[int]) -> int:
        raise UserError(f"{self.name} plays only where seats see the game step by step "
                        "(play_mixed_game, matches, the ladder)")


def resolve_seat(spec: GameSpec, text: str) -> OpenSpielSeat:
    return OpenSpielSeat(spec, text)
