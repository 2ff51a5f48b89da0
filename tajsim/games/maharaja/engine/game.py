"""Step-by-step Maharaja: ``Game`` wraps one state vector with readable actions, a state display
and a referee's event log; its ``record()`` (configuration, rule options and action history)
replays a game exactly.

The Python layer validates and displays; every rule runs in
:mod:`tajsim.games.maharaja.engine.nb`. :meth:`Game.events` derives, from the states before and
after one action, everything a referee needs to follow the game (what a replay prints): the
secret choices and their reveal, travel and the tolls paid to whom, builds, moves, governor
moves, card changes, penalties, each city scoring and the end.
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.base_game import BaseGame
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb

__all__ = ["OPTIONS", "Game"]

P = E.MAX_PLAYERS

#: Rule options (name -> (bit, default, description)); ``spec.py`` turns them into RuleOptions.
OPTIONS: dict[str, tuple[int, bool, str]] = {
    "no_lone_bonus": (E.OPT_NO_LONE_BONUS, False,
                      "a lone scorer gets no +5 gold (the bonus is in the reference manual only)"),
    "penalty_per_turn": (E.OPT_PENALTY_PER_TURN, False,
                         "2 gold to each other player once per turn with an unperformed action, "
                         "not once per action"),
    "static_order": (E.OPT_STATIC_ORDER, False,
                     "turn order fixed at the reveal; a card taken mid-round does not change it"),
    "free_palace_site": (E.OPT_FREE_PALACE_SITE, False,
                         "a palace may take an outer site while the centre is free"),
    "unlimited_houses": (E.OPT_UNLIMITED_HOUSES, False,
                         "the quarry never runs out (houses not limited to 20 a colour)"),
    "several_palaces": (E.OPT_SEVERAL_PALACES, False,
                        "a player may build more than one palace in a city"),
    "ten_rounds": (E.OPT_TEN_ROUNDS, False,
                   "the game ends after round 10 even when a governor moved down from the top "
                   "left the track short of its last box"),
    "reversed_draft": (E.OPT_REVERSED_DRAFT, False,
                       "a VARIANT (tajsim's own, not the rules): the character draft runs from "
                       "the last seat to seat 0 (V1)"),
    "random_draft": (E.OPT_RANDOM_DRAFT, False,
                     "a VARIANT (tajsim's own, not the rules): the character draft runs in an "
                     "order drawn from the setup stream; overrides reversed_draft (V2)"),
    "half_monk": (E.OPT_HALF_MONK, False,
                  "a VARIANT (tajsim's own, not the rules): the bank pays only half of the "
                  "Wandering Monk's tolls on each road (rounded up), he pays the rest (V3)"),
}


class Game(BaseGame):
    """One game of Maharaja, played step by step.

    Parameters
    ----------
    n_players : int
        2 to 5.
    edition : str
        ``"basic"`` (the only edition; the advanced game's text is public nowhere).
    seed, game_id : int
        Master seed and game index: the same pair gives the same game as the batch runner.
    setup_id : int, optional
        Setup index (the governor order); defaults to ``game_id``. ``ENUM_SETUP_BASE + k``
        names governor order k (``engine.setups``).
    components : Components, optional
        Board and numbers; defaults to the shipped files.
    options : mapping of str to bool, optional
        Rule options (``OPTIONS``); unset ones take their defaults.
    """

    @property
    def round(self) -> int:
        return int(self.state[E.S_ROUND])

    # -- scores -------------------------------------------------------------------------------
    def score(self, player: int) -> int:
        return int(nb.score_of(self.state, player))

    def scores(self) -> list[int]:
        return [self.score(p) for p in range(self.n_players)]

    def score_parts(self, player: int) -> dict[str, int]:
        base = E.S_PARTS + player * E.N_PARTS
        return {name: int(self.state[base + k]) for k, name in enumerate(E.PART_NAMES)}

    def ranks(self) -> list[int]:
        return [int(self.state[E.S_RANK + p]) for p in range(self.n_players)]

    def gold(self, player: int) -> int:
        return int(self.state[E.S_GOLD + player])

    def palaces(self, player: int) -> int:
        return int(self.state[E.S_PALACES + player])

    def card(self, player: int) -> int:
        return int(self.state[E.S_CARD_OF + player])

    # -- labels -------------------------------------------------------------------------------
    def card_label(self, card: int) -> str:
        if card < 0:
            return "-"
        return f"{card + 1} {self.components.card_names[card]}"

    def loc_label(self, loc: int) -> str:
        return self.components.location_name(loc)

    def junction_label(self, j: int) -> str:
        return self.components.junction_names[j]

    def pair_label(self, pair: int) -> str:
        return f"{E.ACT_NAMES[E.PAIR_A[pair]]} + {E.ACT_NAMES[E.PAIR_B[pair]]}"

    def action_label(self, action: int, state: np.ndarray | None = None) -> str:
        """Readable text of an action number (the encoding is in ``enums``); ``state`` (default:
        the current one) tells whose architect a travel starts from."""
        s = self.state if state is None else state
        a = int(action)
        if E.ACTION_PICK <= a < E.ACTION_DONE:
            return f"choose {self.pair_label(a - E.ACTION_PICK)}"
        if a == E.ACTION_DONE:
            return "end the turn"
        if E.ACTION_TRAVEL <= a < E.ACTION_BUILD:
            road = a - E.ACTION_TRAVEL
            cur = int(s[E.S_CUR])
            here = int(s[E.S_ARCH + cur]) if cur >= 0 else -1
            if road < self.components.n_roads and here >= 0:
                there = int(nb.road_other_end(self.comp, road, here))
                via = self.components.road_label(road)
                return f"travel to {self.junction_label(there)} ({via})"
            return f"travel along road {road}"
        if E.ACTION_BUILD <= a < E.ACTION_FREE_BUILD:
            loc = a - E.ACTION_BUILD
            if int(s[E.S_PHASE]) == E.PHASE_SETUP_HOUSE:
                return f"free starting house in {self.loc_label(loc)}"
            return f"build a house in {self.loc_label(loc)}"
        if E.ACTION_FREE_BUILD <= a < E.ACTION_MOVE_FROM:
            return f"Builder's free house in {self.loc_label(a - E.ACTION_FREE_BUILD)}"
        if E.ACTION_MOVE_FROM <= a < E.ACTION_MOVE_TO:
            return f"move a house away from {self.loc_label(a - E.ACTION_MOVE_FROM)}"
        if E.ACTION_MOVE_TO <= a < E.ACTION_PALACE:
            return f"move the house to {self.loc_label(a - E.ACTION_MOVE_TO)}"
        if E.ACTION_PALACE <= a < E.ACTION_GOVERNOR:
            return "palace on the centre" if a == E.ACTION_PALACE else "palace on an outer site"
        if E.ACTION_GOVERNOR <= a < E.ACTION_CARD:
            return f"move {self.components.city_names[a - E.ACTION_GOVERNOR]}'s governor down"
        if E.ACTION_CARD <= a < E.N_ACTIONS:
            return f"take character {self.card_label(a - E.ACTION_CARD)}"
        return f"<invalid action {a}>"

    def box_label(self, pos: int) -> str:
        if pos <= E.TRACK_START_BOXES:
            return f"start box {pos}"
        return f"box {pos - E.TRACK_START_BOXES}"

    # -- display ------------------------------------------------------------------------------
    def track_text(self, state: np.ndarray | None = None) -> str:
        s = self.state if state is None else state
        names = self.components.city_names
        top = int(s[E.S_GOV_TOP])
        cells = []
        for pos in range(1, top + 1):
            g = int(s[E.S_BOX + pos])
            cells.append(f"{self.box_label(pos)}: {names[g] if g >= 0 else '-'}")
        return "; ".join(cells)

    def __str__(self) -> str:
        s = self.state
        comps = self.components
        lines = []
        if self.is_over:
            lines.append(f"Game over after round {int(s[E.S_END_ROUND])} "
                         f"({E.END_CAUSE_NAMES[int(s[E.S_END_CAUSE])]})")
        else:
            where = comps.junction_names[int(s[E.S_MAHARAJA])]
            lines.append(f"Round {self.round} | phase {self.phase} | seat {self.current_player} "
                         f"to decide | Maharaja in {where}")
            lines.append(f"Governors (bottom first): {self.track_text()}")
        for c in range(E.N_CITIES):
            sites = []
            for k in range(E.N_SITES):
                o = int(s[E.S_SITE + c * E.N_SITES + k])
                if o == E.SITE_NEUTRAL:
                    sites.append("n")
                elif o >= 0:
                    sites.append(f"P{o}" + ("*" if k == E.SITE_CENTRE else ""))
            houses = " ".join(f"P{p}x{int(s[E.S_HOUSES + (E.LOC_CITY + c) * P + p])}"
                              for p in range(self.n_players)
                              if s[E.S_HOUSES + (E.LOC_CITY + c) * P + p])
            archs = " ".join(f"A{p}" for p in range(self.n_players) if s[E.S_ARCH + p] == c)
            lines.append(f"  {comps.city_names[c]:9s} palaces [{' '.join(sites)}] houses "
                         f"[{houses}] {archs}".rstrip())
        vil = []
        for v in range(E.N_VILLAGES):
            owners = "".join(str(p) * int(s[E.S_HOUSES + v * P + p])
                             for p in range(self.n_players))
            if owners:
                vil.append(f"{comps.village_names[v]}:{owners}")
        lines.append("  Villages: " + (" ".join(vil) or "-"))
        for p in range(self.n_players):
            at = comps.junction_names[int(s[E.S_ARCH + p])]
            mark = "*" if p == self.current_player else " "
            pick = int(s[E.S_PICK + p])
            shown = "-"
            if pick >= 0:
                shown = self.pair_label(pick) if s[E.S_REVEALED + p] else "(hidden)"
            lines.append(
                f"  P{p}{mark} {self.card_label(self.card(p)):17s} gold {self.gold(p):3d} "
                f"palaces {self.palaces(p)} pool {int(s[E.S_POOL + p]):2d} quarry "
                f"{min(int(s[E.S_QUARRY + p]), 999):3d} at {at}"
                f" | actions: {shown}")
        if int(s[E.S_PHASE]) in (E.PHASE_TURN, E.PHASE_MOVE_TO, E.PHASE_REPLACE):
            lines.append(f"  Turn of P{int(s[E.S_TURN_PLAYER])}: {self.turn_progress()}")
        if self.is_over:
            lines.append(f"Ranks: {self.ranks()}  winners: {self.winners()}")
        return "\n".join(lines)

    def turn_progress(self, state: np.ndarray | None = None) -> str:
        s = self.state if state is None else state
        return (f"palaces {int(s[E.S_T_PAL_BUILT])}/{int(s[E.S_T_PAL_ALLOWED])}, houses "
                f"{int(s[E.S_T_CITY_BUILT] + s[E.S_T_VILLAGE_BUILT])}/"
                f"{int(s[E.S_T_HOUSES_ALLOWED])} (city {int(s[E.S_T_CITY_BUILT])}, at least "
                f"{int(s[E.S_T_MIN_CITY])}), moves {int(s[E.S_T_MOVES_DONE])}/"
                f"{int(s[E.S_T_MOVES_ALLOWED])}, governor {int(s[E.S_T_GOV_DONE])}/"
                f"{int(s[E.S_T_GOV_ALLOWED])}, card {int(s[E.S_T_CHAR_DONE])}/"
                f"{int(s[E.S_T_CHAR_ALLOWED])}, Builder bonus "
                f"{'used' if s[E.S_T_BUILDER_USED] else 'unused'}, roads travelled "
                f"{int(s[E.S_T_TRAVELS])}")

    # -- the referee's log --------------------------------------------------------------------
    def replay_checkpoint(self) -> str | None:
        """The whole state before the first action and at the start of each round's secret
        choice (nobody has chosen yet)."""
        s = self.state
        round_start = (int(s[E.S_PHASE]) == E.PHASE_PICK
                       and all(int(s[E.S_PICK + q]) < 0 for q in range(self.n_players)))
        return str(self) if (round_start or not self.actions) else None

    def transcript_state(self) -> str:
        """The whole board at the checkpoints (:meth:`replay_checkpoint`), otherwise one line:
        round, phase, seat to decide, the Maharaja's city and each seat's gold, palaces, houses
        in the pool, architect and card."""
        checkpoint = self.replay_checkpoint()
        if checkpoint is not None:
            return checkpoint
        s = self.state
        seats = " ".join(
            f"P{p}[g{int(s[E.S_GOLD + p])} pal{int(s[E.S_PALACES + p])} "
            f"pool{int(s[E.S_POOL + p])} @{int(s[E.S_ARCH + p])} c{int(s[E.S_CARD_OF + p])}]"
            for p in range(self.n_players))
        return (f"r{self.round} {self.phase} P{self.current_player} M{int(s[E.S_MAHARAJA])} | "
                f"{seats}")

    def transcript_header(self) -> list[str]:
        names = self.components.city_names
        order = self.state[E.S_GOV_ORDER0:E.S_GOV_ORDER0 + E.N_GOVERNORS]
        return [*super().transcript_header(),
                "# governor order (bottom first): " + ", ".join(names[int(c)] for c in order)]

    def describe_action(self, player: int, action: int) -> str:
        return f"  R{self.round:02d} P{player} [{self.phase}] {self.action_label(action)}"

    def events(self, before: np.ndarray, action: int, after: np.ndarray) -> list[str]:
        """Every event a referee needs, from the states before and after ``action``."""
        return describe_step(self, before, int(action), after)


def _part_gain(before: np.ndarray, after: np.ndarray, p: int, part: int) -> int:
    k = E.S_PARTS + p * E.N_PARTS + part
    return int(after[k] - before[k])


def describe_step(game: Game, b: np.ndarray, a: int, s: np.ndarray) -> list[str]:
    """The events of one action (see :meth:`Game.events`)."""
    p = int(b[E.S_CUR])
    phase = int(b[E.S_PHASE])
    who = f"P{p}"
    if phase == E.PHASE_TURN:
        return _turn_events(game, b, a, s, p)
    out: list[str] = []
    if phase == E.PHASE_DRAFT:
        out.append(f"{who} takes character {game.card_label(a - E.ACTION_CARD)}")
    elif phase == E.PHASE_SETUP_HOUSE:
        out.append(f"{who} places a free house in {game.loc_label(a - E.ACTION_BUILD)}")
        if int(s[E.S_ROUND]) > 0:
            gift = game.components.numbers["start.quarry_gift"]
            out.append(f"Each player takes {gift} houses from the quarry")
            out += _round_events(game, s)
    elif phase == E.PHASE_PICK:
        out.append(f"{who} chooses two actions in secret")
        if int(s[E.S_PHASE]) != E.PHASE_PICK:
            out += _reveal_events(game, b, s)
    elif phase == E.PHASE_REPLACE:
        out.append(f"{who} takes character {game.card_label(a - E.ACTION_CARD)} from the bank")
    elif phase == E.PHASE_MOVE_TO:
        src = int(b[E.S_MOVE_FROM])
        how = " (Builder's bonus)" if s[E.S_T_BUILDER_USED] and not b[E.S_T_BUILDER_USED] \
            else ""
        out.append(f"{who} moves a house from {game.loc_label(src)} to "
                   f"{game.loc_label(a - E.ACTION_MOVE_TO)}{how}")
    return out


def _turn_events(game: Game, b: np.ndarray, a: int, s: np.ndarray, p: int) -> list[str]:
    comps = game.components
    who = f"P{p}"
    out: list[str] = []
    if E.ACTION_TRAVEL <= a < E.ACTION_BUILD:
        road = a - E.ACTION_TRAVEL
        src, dst = int(b[E.S_ARCH + p]), int(s[E.S_ARCH + p])
        vil = [int(v) for v in comps.road_villages[road] if v >= 0]
        if src != int(comps.roads[road, 0]):
            vil = vil[::-1]
        monk = int(b[E.S_CARD_OF + p]) == E.CARD.MONK
        tolls = []
        for v in vil:
            if b[E.S_HOUSES + v * P + p] > 0:
                tolls.append(f"{comps.village_names[v]} free (own house)")
                continue
            owed = [f"{int(b[E.S_HOUSES + v * P + q]) * comps.numbers['costs.toll_per_house']}"
                    f" to P{q}" for q in range(int(b[E.S_N_PLAYERS]))
                    if q != p and b[E.S_HOUSES + v * P + q] > 0]
            tolls.append(f"{comps.village_names[v]} " + ", ".join(owed))
        payer = " (the bank pays for the Wandering Monk)" if monk else ""
        out.append(f"{who} travels {comps.junction_names[src]} -> {comps.junction_names[dst]} "
                   f"through {'; '.join(tolls)}{payer}; gold {int(b[E.S_GOLD + p])} -> "
                   f"{int(s[E.S_GOLD + p])}")
    elif E.ACTION_BUILD <= a < E.ACTION_FREE_BUILD:
        cost = int(b[E.S_GOLD + p] - s[E.S_GOLD + p])
        out.append(f"{who} builds a house in {game.loc_label(a - E.ACTION_BUILD)} ({cost} gold)")
    elif E.ACTION_FREE_BUILD <= a < E.ACTION_MOVE_FROM:
        out.append(f"{who} builds the Builder's free house in "
                   f"{game.loc_label(a - E.ACTION_FREE_BUILD)}")
    elif E.ACTION_MOVE_FROM <= a < E.ACTION_MOVE_TO:
        out.append(f"{who} lifts a house from {game.loc_label(a - E.ACTION_MOVE_FROM)} to "
                   "move it")
    elif E.ACTION_PALACE <= a < E.ACTION_GOVERNOR:
        city = int(b[E.S_ARCH + p])
        site = "the centre" if a == E.ACTION_PALACE else "an outer site"
        cost = int(b[E.S_GOLD + p] - s[E.S_GOLD + p])
        count = int(s[E.S_PALACES + p])
        out.append(f"{who} builds a palace on {site} of {comps.city_names[city]} ({cost} gold); "
                   f"{count} palace{'s' if count != 1 else ''}")
    elif E.ACTION_GOVERNOR <= a < E.ACTION_CARD:
        g = a - E.ACTION_GOVERNOR
        moved = [f"{comps.city_names[h]} up to {game.box_label(int(s[E.S_GOV_POS + h]))}"
                 for h in range(E.N_GOVERNORS)
                 if h != g and s[E.S_GOV_POS + h] != b[E.S_GOV_POS + h]]
        out.append(f"{who} moves {comps.city_names[g]}'s governor from "
                   f"{game.box_label(int(b[E.S_GOV_POS + g]))} down to "
                   f"{game.box_label(int(s[E.S_GOV_POS + g]))}"
                   + (f"; {', '.join(moved)}" if moved else ""))
    elif E.ACTION_CARD <= a < E.N_ACTIONS:
        card = a - E.ACTION_CARD
        old = int(b[E.S_CARD_OF + p])
        victim = int(b[E.S_CARD_OWNER + card])
        src = "the bank" if victim < 0 else f"P{victim}"
        out.append(f"{who} takes character {game.card_label(card)} from {src} and returns "
                   f"{game.card_label(old)} to the bank")
        if victim >= 0:
            out.append(f"P{victim} must choose a character from the bank")
        gain = _part_gain(b, s, p, E.PART_TRADER)
        if gain:
            out.append(f"{who} receives {gain} gold (Trader)")
    elif a == E.ACTION_DONE:
        out.append(f"{who} ends the turn")
        mask = int(nb.performed_mask(b))
        pen = game.components.numbers["actions.penalty"]
        per_turn = bool((int(b[E.S_RULES]) >> E.OPT_PENALTY_PER_TURN) & 1)
        missed = [E.ACT_NAMES[int(b[E.S_T_SLOT0 + i])] for i in range(2) if not (mask >> i) & 1]
        if missed:
            times = 1 if per_turn else len(missed)
            out.append(f"{who} did not carry out {', '.join(missed)}: each other player "
                       f"receives {pen * times} gold from the bank")
        if int(s[E.S_ROUND]) != int(b[E.S_ROUND]) or int(s[E.S_PHASE]) == E.PHASE_GAME_OVER:
            out += _scoring_events(game, b, s)
            if int(s[E.S_PHASE]) == E.PHASE_GAME_OVER:
                out += _end_events(game, s)
            else:
                out += _round_events(game, s)
        else:
            out += _reveal_events(game, b, s)
    return out


def _reveal_events(game: Game, b: np.ndarray, s: np.ndarray) -> list[str]:
    q = int(s[E.S_TURN_PLAYER])
    if q < 0:
        return []
    out = [f"P{q} ({game.card_label(int(s[E.S_CARD_OF + q]))}) reveals "
           f"{game.pair_label(int(s[E.S_PICK + q]))}"]
    for part, what in ((E.PART_GOLD_ACTION, "gold action"), (E.PART_TRADER, "Trader")):
        gain = _part_gain(b, s, q, part)
        if gain:
            out.append(f"P{q} receives {gain} gold ({what})")
    took = int(s[E.S_POOL + q] - b[E.S_POOL + q])
    if took > 0:
        out.append(f"P{q} takes {took} houses from the quarry")
    if s[E.S_T_QUARRY_SHORT]:
        out.append(f"P{q}'s quarry is short of houses")
    return out


def _scoring_events(game: Game, b: np.ndarray, s: np.ndarray) -> list[str]:
    comps = game.components
    n = int(b[E.S_N_PLAYERS])
    city = int(b[E.S_MAHARAJA])
    parts = []
    for p in range(n):
        pts = int(nb.city_points(b, game.comp, city, p))
        if pts <= 0:
            continue
        gold = _part_gain(b, s, p, E.PART_CITY)
        lone = _part_gain(b, s, p, E.PART_LONE)
        extra = f" + {lone} lone-scorer bonus" if lone else ""
        word = "point" if pts == 1 else "points"
        parts.append((pts, int(b[E.S_CARD_OF + p]), f"P{p} {pts} {word} -> {gold} gold{extra}"))
    parts.sort(key=lambda t: (-t[0], t[1]))
    text = "; ".join(t[2] for t in parts) if parts else "nobody is present"
    return [f"Scoring of {comps.city_names[city]} (round {int(b[E.S_ROUND])}): {text}"]


def _round_events(game: Game, s: np.ndarray) -> list[str]:
    comps = game.components
    city = int(s[E.S_MAHARAJA])
    return [f"Round {int(s[E.S_ROUND])}: the Maharaja travels to {comps.city_names[city]}; its "
            f"governor moves to {game.box_label(int(s[E.S_GOV_POS + city]))}"]


def _end_events(game: Game, s: np.ndarray) -> list[str]:
    n = int(s[E.S_N_PLAYERS])
    track = "a governor reached the last box"
    if int(s[E.S_ROUND_BOX]) < int(game.comp[E.C_ROUND_BOXES]):
        # only the rule option ten_rounds ends the game before the last box is reached
        track = f"round {int(s[E.S_END_ROUND])} was played (rule option ten_rounds)"
    cause = {E.END_PALACES: "a seventh palace was built",
             E.END_TRACK: track,
             E.END_BOTH: f"a seventh palace was built and {track}",
             E.END_ROUND_CAP: f"the simulator's limit of {E.MAX_ROUNDS} rounds was reached",
             }[int(s[E.S_END_CAUSE])]
    out = [f"The game ends after round {int(s[E.S_END_ROUND])}: {cause}"]
    order = sorted(range(n), key=lambda p: int(s[E.S_RANK + p]))
    for p in order:
        out.append(f"  {int(s[E.S_RANK + p])}. P{p}: {int(s[E.S_PALACES + p])} palaces, "
                   f"{int(s[E.S_GOLD + p])} gold, character "
                   f"{game.card_label(int(s[E.S_CARD_OF + p]))}")
    return out
