"""Step-by-step Maharani: ``Game`` wraps one state vector with readable actions, a referee's
event log and the palace drawn as text; its ``record()`` (configuration, rule options and the
action history) replays a game exactly.

The Python layer validates and displays; every rule runs in :mod:`..engine.nb`. Events are
derived from the change between two state vectors (``Game.events(before, action, after)``), so a
replay shows what the kernels did, not what the display code believes.
"""

from __future__ import annotations

import numpy as np

from tajsim.engine.base_game import BaseGame
from tajsim.games.maharani.engine import enums as E
from tajsim.games.maharani.engine import nb
from tajsim.games.maharani.engine.components import pattern_text

__all__ = ["Game"]

COLOUR_LETTERS_FALLBACK = "ABCDEF"


class Game(BaseGame):
    """One game of Maharani, played step by step.

    Parameters
    ----------
    n_players : int
        2 to 4.
    edition : str
        ``"2012"`` (the only one).
    seed, game_id : int
        Master seed and game index: the same pair gives the same game as the batch runner.
    setup_id : int, optional
        Index of the setup (the opening tiles); defaults to ``game_id``.
    components : Components, optional
        Palace and tiles; defaults to the shipped files.
    options : mapping of str to bool, optional
        Rule options (``free_refresh``, ``target_marker``; see ``docs/games/maharani/rules.md``).
    """

    # -- BaseGame hooks -------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [int(nb.score_of(self.state, p)) for p in range(self.n_players)]

    def score_parts(self, player: int) -> dict[str, int]:
        base = E.S_SCORE + player * E.N_PARTS
        return {name: int(self.state[base + k]) for k, name in enumerate(E.PART_NAMES)}

    def ranks(self) -> list[int]:
        return [int(self.state[E.S_RANK + p]) for p in range(self.n_players)]

    def replay_checkpoint(self) -> str | None:
        """At the start of each turn: the turn, the seat and the turntable; before the first
        turn also the empty palace (the replay draws it again at every quarter scoring)."""
        s = self.state
        if int(s[E.S_PHASE]) != E.PHASE_FIRST or int(s[E.S_TILES_THIS_TURN]) != 0:
            return None
        head = (f"Turn {int(s[E.S_TURN]) + 1}: {self.seat_name(self.current_player)} | "
                + self.turntable_text())
        return (self.palace_text() + "\n" + head) if not self.actions else head

    def describe_action(self, player: int, action: int) -> str:
        return f"  P{player} [{self.phase}] {self.action_label(action)}"

    def replay_events(self, before: np.ndarray, action: int, after: np.ndarray) -> list[str]:
        """The events, and the palace drawn as text when a quarter was scored."""
        lines = self.events(before, action, after)
        if self.quarters_scored(before, after):
            lines += self.palace_text(after).splitlines()
        return lines

    # -- names ----------------------------------------------------------------------------
    def seat_name(self, p: int) -> str:
        side = int(self.comp[E.C_SEAT_SIDE + self.n_players * E.MAX_PLAYERS + p])
        return f"P{p} ({E.DIR_NAMES[side]})"

    def artisan_name(self, a: int) -> str:
        """"artisan" (3-4 players) or "red artisan" (2 players: the seat's two colours)."""
        if self.n_players == 2:
            return f"{E.ARTISAN_COLOUR_NAMES[a]} artisan"
        return "artisan"

    def space_name(self, s: int) -> str:
        c = self.components
        return f"{c.space_ids[s]} ({c.quarter_names[int(c.space_quarter[s])]})"

    def arrow_target(self, side: int) -> str:
        seat = int(self.comp[E.C_SIDE_SEAT + self.n_players * E.N_DIRS + side])
        return f"P{seat}" if seat >= 0 else "nobody"

    def action_label(self, action: int) -> str:
        """Readable text of an action number (the encoding is in ``enums``)."""
        return self.label_in(self.state, action)

    def label_in(self, state: np.ndarray, action: int) -> str:
        """The label of ``action`` in ``state`` (place actions name the tile there)."""
        c = self.components
        if 0 <= action < E.N_PLACE_ACTIONS:
            slot, s, arrow = (int(x) for x in nb.decode_place(action))
            t = int(state[E.S_SLOT + slot])
            tile = c.tile_label(t) if t >= 0 else "(empty place)"
            return (f"lay place {slot + 1} {tile} on {self.space_name(s)}, arrow "
                    f"{E.DIR_NAMES[arrow]} (at {self.arrow_target(arrow)})")
        if action == E.ACTION_REFRESH:
            return "refresh: turn every action marker face up"
        if action == E.ACTION_STOP:
            return "stop (no second tile)"
        if E.ACTION_ARTISAN <= action < E.N_ACTIONS:
            return E.ARTISAN_OPTION_NAMES[action - E.ACTION_ARTISAN]
        return f"<invalid action {action}>"

    # -- the event log --------------------------------------------------------------------
    def events(self, before: np.ndarray, action: int, after: np.ndarray) -> list[str]:
        """Every event a referee needs to follow ``action`` applied to ``before`` (giving
        ``after``): the tile laid and where its arrow points, the marker turned, the zone and
        its gold, the artisan placed or moved and its group's gold, the quarter completed; at the
        end of a turn the second tile paid, each quarter scored (artisans and gold per seat),
        central tiles leaving play, the refill, the turntable turning toward the next player or
        the end of the game with ranks."""
        c = self.components
        n = self.n_players
        p = int(before[E.S_CUR])
        who = f"P{p}"
        out: list[str] = []
        # The state after the tile and its artisan but before the end of the turn, made by the
        # kernels' own steps: a quarter scored at the end of the turn removes the artisans.
        mid = np.array(before, np.int64, copy=True)
        if 0 <= action < E.N_PLACE_ACTIONS:
            nb.lay_tile(mid, self.comp, p, action)
        elif E.ACTION_ARTISAN <= action < E.N_ACTIONS:
            nb.apply_artisan(mid, self.comp, p, action - E.ACTION_ARTISAN,
                             int(mid[E.S_LAST_SPACE]))

        def part(state: np.ndarray, seat: int, k: int) -> int:
            return int(state[E.S_SCORE + seat * E.N_PARTS + k])

        if 0 <= action < E.N_PLACE_ACTIONS:
            slot, s, arrow = (int(x) for x in nb.decode_place(action))
            t = int(before[E.S_SLOT + slot])
            q_src = int(self.comp[E.C_SLOT_QUARTER + int(before[E.S_FACING]) * 4 + slot])
            out.append(f"{who} takes {c.tile_label(t)} from turntable place {slot + 1} (over "
                       f"{c.quarter_label(q_src)}) and lays it on {self.space_name(s)} with the "
                       f"arrow pointing {E.DIR_NAMES[arrow]}, at {self.arrow_target(arrow)}")
            for m in range(E.N_QUARTERS):
                i = E.S_MARKER + p * E.N_QUARTERS + m
                if before[i] == 1 and mid[i] == 0:
                    out.append(f"{who} turns the action marker of {c.quarter_label(m)} face "
                               "down")
            zone = part(mid, p, E.PART_ZONES) - part(before, p, E.PART_ZONES)
            colour = c.colour_names[int(c.tile_colour[t])]
            if zone == 1:
                out.append(f"the {colour} tile touches no other {colour} tile: +1 gold")
            else:
                out.append(f"a zone of {zone} {colour} tiles: +{zone} gold")
            done = int(mid[E.S_PENDING]) & ~int(before[E.S_PENDING])
            for qq in range(E.N_QUARTERS):
                if done >> qq & 1:
                    out.append(f"{c.quarter_label(qq)} is full ({who} laid its last tile): "
                               "scored at the end of the turn")
            if int(mid[E.S_PHASE]) == E.PHASE_ARTISAN:
                opts = int(mid[E.S_ARTISAN_OPTS])
                names = [E.ARTISAN_OPTION_NAMES[k] for k in range(4) if opts >> k & 1]
                out.append(f"the arrow points at {who}: it chooses an artisan ("
                           + "; ".join(names) + ")")
            elif arrow == int(self.comp[E.C_SEAT_SIDE + n * E.MAX_PLAYERS + p]):
                if not self._artisan_events(before, mid, p, out):
                    out.append(f"the arrow points at {who} but its reserve is empty: no "
                               "artisan")
        elif action == E.ACTION_REFRESH:
            down = [c.quarter_names[m] for m in range(E.N_QUARTERS)
                    if before[E.S_MARKER + p * E.N_QUARTERS + m] == 0]
            out.append(f"{who} refreshes: every action marker face up again ("
                       + (", ".join(down) or "none") + " were face down)")
        elif action == E.ACTION_STOP:
            out.append(f"{who} lays no second tile")
        elif E.ACTION_ARTISAN <= action < E.N_ACTIONS:
            out.append(f"{who} chooses: {E.ARTISAN_OPTION_NAMES[action - E.ACTION_ARTISAN]}")
            self._artisan_events(before, mid, p, out)
        turn_ended = (int(after[E.S_TURN]) != int(before[E.S_TURN])
                      or int(after[E.S_PHASE]) == E.PHASE_GAME_OVER)
        if turn_ended:
            out += self._end_of_turn_events(mid, after, p)
        return out

    def _artisan_events(self, before: np.ndarray, after: np.ndarray, p: int,
                        out: list[str]) -> bool:
        """Append the artisan placed or moved and its group gold; False if none moved."""
        c = self.components
        moved = False
        for s in range(c.n_spaces):
            a0, a1 = int(before[E.S_SPACE_ARTISAN + s]), int(after[E.S_SPACE_ARTISAN + s])
            if a1 >= 0 and a0 != a1 and nb.colour_owner(self.n_players, a1) == p:
                src = [x for x in range(c.n_spaces) if int(before[E.S_SPACE_ARTISAN + x]) == a1
                       and int(after[E.S_SPACE_ARTISAN + x]) == -1]
                name = self.artisan_name(a1)
                if src:
                    out.append(f"the arrow points at P{p}: P{p} moves its {name} from "
                               f"{self.space_name(src[0])} onto {self.space_name(s)}")
                else:
                    left = int(after[E.S_RESERVE + a1])
                    out.append(f"the arrow points at P{p}: P{p} puts a new {name} on "
                               f"{self.space_name(s)} ({left} left in reserve)")
                moved = True
        if moved:
            base = E.S_SCORE + p * E.N_PARTS + E.PART_GROUPS
            g = int(after[base]) - int(before[base])
            out.append("the artisan has no neighbour of its colour: +1 gold" if g == 1
                       else f"a group of {g} artisans: +{g} gold")
        return moved

    def _end_of_turn_events(self, before: np.ndarray, after: np.ndarray, p: int) -> list[str]:
        c = self.components
        n = self.n_players
        out: list[str] = []
        paid = (int(after[E.S_SCORE + p * E.N_PARTS + E.PART_SECOND])
                - int(before[E.S_SCORE + p * E.N_PARTS + E.PART_SECOND]))
        if paid:
            out.append(f"end of P{p}'s turn: P{p} pays {-paid} gold for the second tile")
        newly = int(after[E.S_SCORED]) & ~int(before[E.S_SCORED])
        for q in range(E.N_QUARTERS):
            if newly >> q & 1:
                parts = []
                for o in range(n):
                    k = int(after[E.S_Q_ARTISANS + q * E.MAX_PLAYERS + o])
                    g = int(after[E.S_Q_GOLD + q * E.MAX_PLAYERS + o])
                    parts.append(f"P{o} {k} artisan{'s' if k != 1 else ''} +{g}")
                how = "" if int(after[E.S_Q_COMPLETED_BY + q]) >= 0 else \
                    " (never completed: scored at the end of the game)"
                out.append(f"{c.quarter_label(q)} is scored{how}: " + ", ".join(parts)
                           + "; its artisans go back to their reserves")
        removed_now = [t for t in range(c.n_tiles) if int(before[E.S_TILE_LOC + t]) != E.LOC_REMOVED
                       and int(after[E.S_TILE_LOC + t]) == E.LOC_REMOVED]
        if int(after[E.S_CENTRAL_OUT]) and not int(before[E.S_CENTRAL_OUT]):
            out.append("the 8 central spaces are full: central tiles leave play from now on")
        for t in removed_now:
            where = "the turntable" if int(before[E.S_TILE_LOC + t]) >= E.LOC_SLOT else "the bag"
            out.append(f"central tile {c.tile_ids[t]} ({c.colour_names[int(c.tile_colour[t])]})"
                       f" leaves play (drawn from {where})")
        for k in range(E.N_SLOTS):
            t = int(after[E.S_SLOT + k])
            if t >= 0 and int(before[E.S_SLOT + k]) != t:
                out.append(f"refill: {c.tile_label(t)} drawn onto turntable place {k + 1}")
        if int(after[E.S_BAG_N]) != int(before[E.S_BAG_N]):
            out.append(f"the bag holds {int(after[E.S_BAG_N])} tiles")
        if int(after[E.S_PHASE]) == E.PHASE_GAME_OVER:
            reason = E.END_NAMES[int(after[E.S_END_REASON])]
            gold = [int(nb.score_of(after, o)) for o in range(n)]
            ranks = [int(after[E.S_RANK + o]) for o in range(n)]
            winners = [f"P{o}" for o in range(n) if after[E.S_WINNER + o] == 1]
            out.append(f"game over ({reason}): gold {gold}, ranks {ranks}, winner"
                       f"{'s' if len(winners) > 1 else ''} {', '.join(winners)}")
        else:
            nxt = int(after[E.S_CUR])
            out.append(f"P{nxt}'s turn: the turntable turns its arrow toward "
                       f"{E.DIR_NAMES[int(after[E.S_FACING])]}")
        return out

    def quarters_scored(self, before: np.ndarray, after: np.ndarray) -> list[int]:
        """Quarters scored between two states (the replay draws the palace then)."""
        newly = int(after[E.S_SCORED]) & ~int(before[E.S_SCORED])
        return [q for q in range(E.N_QUARTERS) if newly >> q & 1]

    # -- the palace as text -----------------------------------------------------------------
    def colour_letter(self, colour: int) -> str:
        names = self.components.colour_names
        letters = [name[0].upper() for name in names]
        if len(set(letters)) == len(letters):
            return letters[colour]
        return COLOUR_LETTERS_FALLBACK[colour]

    def palace_text(self, state: np.ndarray | None = None) -> str:
        """The palace as text, north up: a laid tile is its colour letter and arrow, then the
        seat of the artisan on it (2 players: a/b for the seat's first/second colour); an empty
        space shows '.' and its column marks. The quarter borders are drawn; the seats sit at
        the sides named on the frame."""
        st = self.state if state is None else state
        c = self.components
        n = self.n_players
        width = 5
        cells = [[" " * width for _ in range(E.GRID)] for _ in range(E.GRID)]
        for s in range(c.n_spaces):
            r, col = int(c.space_row[s]), int(c.space_col[s])
            t = int(st[E.S_SPACE_TILE + s])
            if t < 0:
                text = "." + pattern_text(int(c.space_marks[s])).replace("+", "")
            else:
                text = (self.colour_letter(int(c.tile_colour[t]))
                        + E.ARROW_CHARS[int(st[E.S_SPACE_ARROW + s])])
                a = int(st[E.S_SPACE_ARTISAN + s])
                if a >= 0:
                    owner = int(nb.colour_owner(n, a))
                    text += f"{owner}" + ("ab"[a - 2 * owner] if n == 2 else "")
            cells[r][col] = f"{text:<{width}}"
        seat_at = {}
        for side in range(4):
            seat = int(self.comp[E.C_SIDE_SEAT + n * E.N_DIRS + side])
            seat_at[side] = f"P{seat}" if seat >= 0 else "nobody"
        half = E.GRID // 2
        rows = [f"    north: {seat_at[E.DIR.N]}, east: {seat_at[E.DIR.E]}, south: "
                f"{seat_at[E.DIR.S]}, west: {seat_at[E.DIR.W]}"]
        rows.append("    " + "".join(f"{k:<{width}}" + ("| " if k == half - 1 else "")
                                     for k in range(E.GRID)).rstrip())
        for r in range(E.GRID):
            if r == half:
                rows.append("    " + "-" * (width * E.GRID + 2))
            line = "".join(cells[r][k] + ("| " if k == half - 1 else "") for k in range(E.GRID))
            rows.append(f"{r:>3} {line}".rstrip())
        rows.append("    quarters: " + ", ".join(f"{q + 1} {c.quarter_names[q]}"
                                                 for q in range(E.N_QUARTERS)))
        return "\n".join(rows)

    def turntable_text(self, state: np.ndarray | None = None) -> str:
        st = self.state if state is None else state
        c = self.components
        facing = int(st[E.S_FACING])
        parts = []
        for k in range(E.N_SLOTS):
            q = int(self.comp[E.C_SLOT_QUARTER + facing * 4 + k])
            t = int(st[E.S_SLOT + k])
            tile = c.tile_label(t) if t >= 0 else "empty"
            parts.append(f"{k + 1} over {c.quarter_names[q]}: {tile}")
        return (f"turntable (arrow {E.DIR_NAMES[facing]}): " + " | ".join(parts)
                + f" | bag {int(st[E.S_BAG_N])}")

    def __str__(self) -> str:
        s = self.state
        c = self.components
        n = self.n_players
        lines = []
        if self.is_over:
            lines.append(f"Game over ({E.END_NAMES[int(s[E.S_END_REASON])]}) after "
                         f"{int(s[E.S_TURN]) + 1} turns")
        else:
            lines.append(f"Turn {int(s[E.S_TURN]) + 1} | {self.seat_name(self.current_player)} "
                         f"to act | phase {self.phase} | tiles laid this turn "
                         f"{int(s[E.S_TILES_THIS_TURN])}")
            lines.append(self.turntable_text())
        lines.append(self.palace_text())
        for p in range(n):
            parts = self.score_parts(p)
            markers = "".join(c.quarter_names[q][0] if s[E.S_MARKER + p * 4 + q] else "-"
                              for q in range(E.N_QUARTERS))
            a = int(nb.colour_a(n, p))
            reserve = str(int(s[E.S_RESERVE + a]))
            if n == 2:
                reserve += f"+{int(s[E.S_RESERVE + a + 1])}"
            lines.append(
                f"  P{p}{'*' if p == self.current_player else ' '} gold "
                f"{int(nb.score_of(s, p)):3d} ("
                + " ".join(f"{k}={v}" for k, v in parts.items() if v)
                + f") | markers {markers} | reserve {reserve}")
        if self.is_over:
            lines.append(f"Ranks: {self.ranks()}  winners: {self.winners()}")
        return "\n".join(lines)
