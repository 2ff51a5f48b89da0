"""The ladder's measured numbers as JSON (:func:`save_json`, :func:`load_json`), from which
``tajsim ladder --render-only`` writes the document again without playing, and the OpenSpiel
tables a new run keeps from the saved ladder it replaces (:func:`keep_openspiel`).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict, fields
from numbers import Real
from pathlib import Path

from tajsim.errors import UserError, shown
from tajsim.games.registry import DEFAULT_GAME, get_game
from tajsim.reporting.ladder.config import LadderData


def save_json(data: LadderData, path: str | Path) -> Path:
    """Write the measured numbers as JSON (``render_markdown`` can be rerun from it)."""
    file = Path(path)
    file.write_text(json.dumps(asdict(data), indent=1, default=float) + "\n")
    return file


def load_json(path: str | Path) -> LadderData:
    """Ladder numbers saved by :func:`save_json`; ``UserError`` if the file is not one."""
    expected = "expected the JSON `tajsim ladder` writes (ladder.json)"
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError) as exc:
        raise UserError(f"{path} is not a saved ladder (JSON): {exc}; {expected}") from None
    if not isinstance(data, dict):
        raise UserError(f"{path} is not a saved ladder: a JSON {type(data).__name__}, not an "
                        f"object; {expected}")
    known = {f.name for f in fields(LadderData)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise UserError(f"{path} is not a saved ladder: unknown key {shown(unknown[0])}; "
                        f"{expected}")
    try:
        return LadderData(**data)
    except TypeError as exc:
        raise UserError(f"{path} is not a saved ladder ({exc}); {expected}") from None


#: What each OpenSpiel row must hold (``matches.openspiel_tables``) to be rendered.
_ROW_KEYS: dict[str, type | tuple[type, ...]] = {
    "setting": str, "a": str, "b": str, "share": Real, "ci": (list, tuple), "games": int,
    "players": int, "seconds_per_decision_a": Real, "seconds_per_decision_b": Real}


def _not_kept(old: LadderData, data: LadderData) -> str | None:
    """Why the OpenSpiel rows of the saved ladder ``old`` cannot go into ``data`` (a new run
    of the same document): rows not as the ladder saves them, or another game or edition,
    whether the saved ladder's or the one their own command plays; None if they can."""
    rows = old.openspiel
    if not isinstance(rows, list) or not isinstance(old.config, dict):
        return "the saved ladder is malformed (its config or openspiel is not a JSON object/list)"
    for k, row in enumerate(rows, 1):
        if not isinstance(row, dict):
            return f"row {k} is not a JSON object"
        for key, kind in _ROW_KEYS.items():
            value = row.get(key)
            if not isinstance(value, kind) or isinstance(value, bool):
                return f"row {k} has no valid {key!r} (got {shown(value)})"
        if len(row["ci"]) != 2 or not all(isinstance(x, Real) for x in row["ci"]):
            return f"row {k} has no valid 'ci' (got {shown(row['ci'])})"
    game = data.config.get("game") or DEFAULT_GAME
    saved_game = old.config.get("game") or DEFAULT_GAME
    if saved_game != game:
        return f"they belong to a {saved_game} ladder; this one is {game}"
    edition = data.config.get("edition", 0)
    if old.config.get("edition", 0) != edition:
        return (f"they belong to a ladder of edition (rules code) {old.config.get('edition', 0)}"
                f"; this one is {edition}")
    label = str(get_game(game).editions[int(edition) & 0xFF])
    for k, row in enumerate(rows, 1):
        command = str(row.get("command", ""))
        for option, expected in (("--game", game), ("--edition", label)):
            found = re.search(rf"{option} (\S+)", command)
            if found and found.group(1) != expected:
                return (f"row {k} was played with {option} {found.group(1)}; this ladder has "
                        f"{option} {expected}")
    return None


def check_openspiel_target(path: str | Path, game: str, edition: int) -> None:
    """Before an ``--openspiel-only`` run plays: a one-line ``UserError`` if the saved ladder
    ``path`` it will put its tables into is of another game or edition (rules code
    ``edition``), naming both; nothing if there is no such file (the tables are only
    printed)."""
    file = Path(path)
    if not file.is_file():
        return
    old = load_json(file)
    config = old.config if isinstance(old.config, dict) else {}
    saved_game = config.get("game") or DEFAULT_GAME
    if saved_game != game:
        raise UserError(f"--openspiel-only: {file} is a {saved_game} ladder; expected a {game} "
                        f"ladder (or another --output)")
    if config.get("edition", 0) != edition:
        raise UserError(f"--openspiel-only: {file} is a ladder of edition (rules code) "
                        f"{config.get('edition', 0)}; expected {edition} (or another --output)")


def openspiel_key(row: dict) -> tuple[str, int]:
    """What a table of the OpenSpiel rows is about: its bot (the ``--openspiel BOT`` text; for
    rows saved before the ladder wrote ``bot``, read from ``b``, ``openspiel:BOT:iterations=N``
    or ``openspiel:BOT:seconds=S``), its settings in a canonical form (sorted, numbers as
    numbers: ``mcts:uct_c=2`` and ``mcts:uct_c=2.0`` are one bot), and its table size. A run's
    tables replace the saved ones with the same key, no others."""
    bot = row.get("bot")
    text = bot if isinstance(bot, str) else str(row.get("b", "")).removeprefix("openspiel:")
    name, *items = text.strip().split(":")
    settings = []
    for item in items:
        key, _, value = item.strip().partition("=")
        if not isinstance(bot, str) and key in ("iterations", "seconds"):
            continue  # what the ladder set for the table, not the bot's own settings
        try:
            value = f"{float(value):g}"
        except ValueError:
            pass
        settings.append(f"{key.strip()}={value}")
    return ":".join([name.strip(), *sorted(settings)]), int(row.get("players", 0))


def keep_openspiel(data: LadderData, path: str | Path) -> tuple[bool, str] | None:
    """Carry into ``data`` (a run about to be written over ``path``) the OpenSpiel tables that
    the saved ladder ``path`` holds and ``data`` did not play again: those of other bots or
    table sizes (:func:`openspiel_key`), if they belong to the same game and edition, so that
    writing ``data`` over ``path`` loses nothing; a bot ``data`` played replaces its saved
    tables. Returns whether tables were kept and the line to print: that they were kept, or
    dropped and why (rows that are not as the ladder saves them, another game or edition, or a
    file that is not a saved ladder); None if there was nothing to keep (no file, no tables, or
    every saved table played again)."""
    file = Path(path)
    if not file.is_file():
        return None
    try:
        old = load_json(file)
    except UserError as exc:
        return False, f"dropped whatever OpenSpiel tables {file} held: {exc}"
    if not old.openspiel:
        return None
    why = _not_kept(old, data)
    if why is not None:
        return False, f"dropped the OpenSpiel tables of an earlier run from {file}: {why}"
    played = {openspiel_key(row) for row in data.openspiel or []}
    carried = [row for row in old.openspiel if openspiel_key(row) not in played]
    if not carried:
        return None
    data.openspiel = carried + list(data.openspiel or [])
    if not played:
        return True, f"kept the OpenSpiel tables of an earlier run from {file}"
    bots = sorted({f"{bot} at {n} players" for bot, n in map(openspiel_key, carried)})
    return True, (f"kept the OpenSpiel tables of {', '.join(bots)} from {file} (this run "
                  "played other bots)")
