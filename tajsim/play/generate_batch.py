"""Write every wing's CPU batch loop (``tajsim/games/<name>/play/nb.py``) from one template.

The batch loop is the same for every game (``engine/gpu.py`` is its one GPU counterpart), but
numba's on-disk cache cannot hold a kernel built by a factory at run time, so each wing gets the
loop as a module of its own, generated from ``batch_loop.py.tmpl``. What differs between games
is the wing's hand-written ``play/loop_hooks.py``:

* ``SWITCHES``: the kernel switches as ``(name, default)`` pairs, e.g.
  ``(("search", True), ("heuristics", True))``, or ``()`` for a game with no strategy family to
  leave out (the ``*switches`` of ``GameKernels``; ``kernel_switches`` gives their values);
* ``new_work_nb(*switches)``: the policies' scratch, allocated once per batch;
* ``decide_nb(seat_id, state, comp, player, seat_params, prng, legal, n_legal, work,
  *switches)``: the seat's action, ``seat_params[player]`` its parameters (a row taken only
  where needed: a fast path reads one slot without making a view);
* a game without switches may leave both out: the loop then has the template's own, no
  scratch and ``strategies/nb.py``'s ``choose_action_nb`` (``DEFAULT_HOOKS``);
* ``check_switches_nb(lineup_ids, *switches)`` (only with switches): refuse a line-up that needs
  a family the kernel was compiled without;
* ``write_records_nb``: the game's result and setup rows (``@kernel``, shared with the GPU).
* optionally ``TRACK_ROUNDS = True`` with ``round_of_nb(state)`` (the round in progress, from
  0; negative before the first) and ``record_round_nb(state, comp, n_players, rnd, last,
  setups, g)`` (write round ``rnd``'s snapshot, the seats' scores, into ``setups[g]``;
  ``last``: the game is over, the scores are final and the rounds after ``rnd`` are marked
  not played), both ``@kernel``: the loop then calls the template's ``track_round_nb`` after
  every action, which records a round when the counter moves on and the last one when the game
  ends (the score trajectories of ``docs/results-schema.md``; the GPU batch kernel calls the
  same functions);
* optionally ``INLINE_LOOP = False`` (keep ``play_to_end_nb`` a function of its own),
  ``RANDOM_FAST_PATH = True`` (the loop draws an unrestricted random seat's action itself; the
  hooks then export ``STRATEGY_RANDOM``) and, with it, ``RANDOM_WITHOUT_LIST = True`` (that
  draw counts and decodes the legal actions with the engine's ``count_legal_nb`` and
  ``nth_legal_nb`` instead of listing them).

Run ``python -m tajsim.play.generate_batch`` after editing the template or a wing's
``SWITCHES`` (``--check`` only lists stale files; tests/test_batch_loop.py fails on one). The
generator reads the hooks file as text (``ast``), so it imports no game.
"""

from __future__ import annotations

import argparse
import ast
import string
import sys
from pathlib import Path

TEMPLATE = Path(__file__).resolve().with_name("batch_loop.py.tmpl")
GAMES_DIR = Path(__file__).resolve().parents[1] / "games"
HOOKS = Path("play") / "loop_hooks.py"
TARGET = Path("play") / "nb.py"
REGENERATE = "python -m tajsim.play.generate_batch"
# A placeholder that fills a whole line with nothing removes the line.
_DROP = "\0drop\0"


def wings() -> list[str]:
    """The games whose wing declares loop hooks (every game folder with ``play/loop_hooks.py``)."""
    return sorted(p.parent.parent.name for p in GAMES_DIR.glob(f"*/{HOOKS.as_posix()}"))


def _constant(game: str, name: str) -> object:
    """The literal value of ``name = ...`` in the wing's hooks file, or ``_DROP`` if absent."""
    path = GAMES_DIR / game / HOOKS
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == [
                name]:
            return ast.literal_eval(node.value)
    return _DROP


def _flag(game: str, name: str, default: bool) -> bool:
    """The wing's boolean ``name`` (``default`` when the hooks do not set it)."""
    value = _constant(game, name)
    if value is _DROP:
        return default
    if not isinstance(value, bool):
        raise ValueError(f"{GAMES_DIR / game / HOOKS}: {name} = {value!r}; expected True or "
                         "False")
    return value


def inline_loop(game: str) -> bool:
    """The wing's ``INLINE_LOOP`` (default True): whether ``play_to_end_nb`` is inlined into the
    batch kernel (numba IR). Inlined, the cold compile has one module fewer."""
    return _flag(game, "INLINE_LOOP", True)


def random_fast_path(game: str) -> bool:
    """The wing's ``RANDOM_FAST_PATH`` (default False): the loop draws a uniform random seat's
    action itself (``legal[below(prng, p, n)]``, the random policy's own draw) unless the seat
    is restricted (its last parameter slot, ``forbid=``, nonzero); the hooks then export
    ``STRATEGY_RANDOM``. In the loop, not in ``decide_nb``: an inlined hook adds reference
    counting on its array arguments, about a quarter of a random Maharaja game's time."""
    return _flag(game, "RANDOM_FAST_PATH", False)


def random_without_list(game: str) -> bool:
    """The wing's ``RANDOM_WITHOUT_LIST`` (default False; needs ``RANDOM_FAST_PATH``): the
    loop's random draw counts the legal actions (``count_legal_nb(state, comp)``) and decodes
    the one drawn (``nth_legal_nb(state, comp, k)``) from the wing's engine, without writing
    the list. The same action as ``legal[below(prng, p, n)]``: both kernels follow
    ``legal_actions_nb``'s order: the conformance suite (``tajsim.play.conformance``) checks them
    against it at every step, and the wing's spec gives them as ``GameKernels.count_legal`` and
    ``nth_legal`` (tests/test_batch_loop.py)."""
    return _flag(game, "RANDOM_WITHOUT_LIST", False)


def track_rounds(game: str) -> bool:
    """The wing's ``TRACK_ROUNDS`` (default False): whether the loop records the seats' scores
    after every round (the hooks then define ``round_of_nb`` and ``record_round_nb``)."""
    on = _flag(game, "TRACK_ROUNDS", False)
    missing = {"round_of_nb", "record_round_nb"} - hook_functions(game)
    if on and missing:
        raise ValueError(f"{GAMES_DIR / game / HOOKS}: TRACK_ROUNDS = True without "
                         f"{', '.join(sorted(missing))}; expected both hooks")
    return on


#: The template's round tracker (``TRACK_ROUNDS``), dual-target so that the GPU batch kernel
#: (``tajsim.engine.gpu``) records the same rounds.
TRACK_ROUND_FUNCTION = '''

@kernel(inline="always")
def track_round_nb(state, comp, n_players, rnd, setups, g):
    """After an action: record round ``rnd`` (the one that was in progress) into ``setups[g]``
    when the round counter has moved on, or the final scores into it when the game is over;
    returns the round now in progress. A round's snapshot is taken when the next one begins,
    so it holds every point scored in the round; the last round's, after the end scoring.

    Parameters
    ----------
    state : int64[STATE_SIZE]; comp : int64[COMP_SIZE]; n_players : int
    rnd : int, the round in progress before the action (``round_of_nb``)
    setups : SETUP_DTYPE[k] (out, row g)
    """
    if state[S_PHASE] == PHASE_GAME_OVER:
        record_round_nb(state, comp, n_players, max(rnd, 0), True, setups, g)
        return rnd
    now = round_of_nb(state)
    if now != rnd and rnd >= 0:
        record_round_nb(state, comp, n_players, rnd, False, setups, g)
    return now
'''


def choose_action(fast: bool, without_list: bool, switches: tuple) -> str:
    """The loop's lines that pick ``action`` for the player to move (``p``)."""
    rest = "".join(f", {name}" for name, _ in switches)
    decide = ("action = decide_nb(seat_ids[p], state, comp, p, seat_params, prng, legal, n,\n"
              "{pad}work" + rest + ")\n")
    unrestricted_random = ("seat_ids[p] == STRATEGY_RANDOM and "
                           "seat_params[p, seat_params.shape[1] - 1] == 0")
    if without_list:
        return ("        p = state[S_CUR]\n"
                f"        if {unrestricted_random}:\n"
                "            # the random policy's own draw without the dispatch "
                "(RANDOM_FAST_PATH) and\n"
                "            # without the list (RANDOM_WITHOUT_LIST); a restricted random "
                "seat (forbid=,\n"
                "            # the last slot) goes to decide_nb\n"
                "            n = count_legal_nb(state, comp)\n"
                "            action = nth_legal_nb(state, comp, 0 if n == 1 else "
                "below(prng, p, n))\n"
                "        else:\n"
                "            n = legal_actions_nb(state, comp, legal)\n"
                "            if n == 1:\n"
                "                action = legal[0]\n"
                "            else:\n"
                "                " + decide.format(pad=" " * 35))
    random_branch = (
        f"        elif {unrestricted_random}:\n"
        "            # the random policy's own draw without the dispatch (RANDOM_FAST_PATH);\n"
        "            # a restricted random seat (forbid=, the last slot) goes to decide_nb\n"
        "            action = legal[below(prng, p, n)]\n") if fast else ""
    return ("        n = legal_actions_nb(state, comp, legal)\n"
            "        p = state[S_CUR]\n"
            "        if n == 1:\n"
            "            action = legal[0]\n"
            + random_branch +
            "        else:\n"
            "            " + decide.format(pad=" " * 31))


#: The hooks of a game without switches that leaves them out of its ``loop_hooks.py``: no
#: scratch, and the decision is the wing's ``choose_action_nb``.
DEFAULT_HOOKS = {
    "new_work_nb": '''
@njit(cache=True, inline="always")
def new_work_nb():
    \"\"\"No policy needs scratch (the template's hook: the wing declares none).\"\"\"
    return np.empty(0, np.int64)
''',
    "decide_nb": '''
@njit(cache=True, inline="always")
def decide_nb(seat_id, state, comp, player, seat_params, prng, legal, n_legal, work):
    \"\"\"The seat's action: the wing's ``choose_action_nb`` (the template's hook).\"\"\"
    return choose_action_nb(seat_id, state, comp, player, seat_params[player], prng, legal,
                            n_legal)
''',
}


def hook_functions(game: str) -> set[str]:
    """The names of the functions the wing's hooks file defines (read as text)."""
    tree = ast.parse((GAMES_DIR / game / HOOKS).read_text(encoding="utf-8"))
    return {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}


def default_hooks(game: str, switches: tuple) -> list[str]:
    """The hooks the template supplies for ``game``: those of :data:`DEFAULT_HOOKS` its file
    leaves out (a game with switches must write its own)."""
    missing = [name for name in DEFAULT_HOOKS if name not in hook_functions(game)]
    if missing and switches:
        raise ValueError(f"{GAMES_DIR / game / HOOKS}: no {', '.join(missing)}; expected "
                         "them in a game with kernel switches")
    return missing


def switches_of(game: str) -> tuple[tuple[str, object], ...]:
    """The wing's ``SWITCHES``: ``(name, default)`` pairs, read without importing the wing."""
    path = GAMES_DIR / game / HOOKS
    value = _constant(game, "SWITCHES")
    if value is _DROP:
        raise ValueError(f"{path}: no SWITCHES = (...); expected the kernel switches as "
                         "(name, default) pairs, () for none")
    if not (isinstance(value, tuple) and all(
            isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str)
            and pair[0].isidentifier() for pair in value)):
        raise ValueError(f"{path}: SWITCHES = {value!r}; expected a tuple of (name, default) "
                         "pairs, () for none")
    return value


def render(game: str) -> str:
    """The text of ``game``'s generated batch loop."""
    switches = switches_of(game)
    fast = random_fast_path(game)
    without_list = random_without_list(game)
    if without_list and not fast:
        raise ValueError(f"{GAMES_DIR / game / HOOKS}: RANDOM_WITHOUT_LIST = True needs "
                         "RANDOM_FAST_PATH = True")
    names = ", ".join(name for name, _ in switches)
    defaults = default_hooks(game, switches)
    supplied = "".join(DEFAULT_HOOKS[name] + "\n" for name in defaults)
    if "decide_nb" in defaults:
        supplied = (f"from tajsim.games.{game}.strategies.nb import choose_action_nb\n\n"
                    + supplied)
    track = track_rounds(game)
    fields = {
        "game": game,
        "track_doc": ("\nThe loop records the seats' scores after every round (the wing's "
                      "``TRACK_ROUNDS``:\n``track_round_nb`` below) into the setup records."
                      if track else _DROP),
        "track_import": "    record_round_nb,\n    round_of_nb,\n" if track else "",
        "track_all": '"track_round_nb", ' if track else "",
        "track_function": TRACK_ROUND_FUNCTION if track else "",
        "setups_doc": ("the round snapshots go to ``setups[g]`` (``track_round_nb``)" if track
                       else "unused (the wing records no rounds)"),
        "track_start": "    rnd = round_of_nb(state)\n" if track else "",
        "track_step": ("        rnd = track_round_nb(state, comp, seat_ids.shape[0], rnd, "
                       "setups, g)\n") if track else "",
        "rng_import": "from tajsim.engine.rng import below\n" if fast else "",
        "targets_import": "from tajsim.engine.targets import kernel\n" if track else "",
        "random_import": "    STRATEGY_RANDOM,\n" if fast else "",
        "choose_action": choose_action(fast, without_list, switches),
        "count_import": "    count_legal_nb,\n" if without_list else "",
        "nth_import": "    nth_legal_nb,\n" if without_list else "",
        "play_to_end_inline": ', inline="always"' if inline_loop(game) else "",
        "play_to_end_comment": (
            "# Inlined into the batch kernel (numba IR): one module fewer in which LLVM optimises"
            "\n# the rules and every strategy again (issue 13: cold compile)." if inline_loop(game)
            else "# A function of its own, not inlined: the wing's INLINE_LOOP = False (faster)."),
        "switches": "".join(f", {name}" for name, _ in switches),
        "switch_names": names,
        "switch_defaults": "".join(f", {name}={default!r}" for name, default in switches),
        "switch_doc": (f"{names} : the kernel switches (``kernel_switches(ids, params)``)"
                       if switches else _DROP),
        "check_switches_import": "    check_switches_nb,\n" if switches else "",
        "decide_import": "" if "decide_nb" in defaults else "    decide_nb,\n",
        "work_import": "" if "new_work_nb" in defaults else "    new_work_nb,\n",
        "default_hooks": supplied.rstrip("\n") + "\n\n" if supplied else "",
        "check_switches_call": (f"    check_switches_nb(lineup_ids, {names})\n"
                                if switches else ""),
    }
    text = string.Template(TEMPLATE.read_text(encoding="utf-8")).substitute(fields)
    lines = [line for line in text.split("\n") if line.strip() != _DROP]
    too_long = [i + 1 for i, line in enumerate(lines) if len(line) > 100]
    if too_long:
        raise ValueError(f"{game}: generated lines {too_long} exceed 100 characters; expected "
                         "shorter switch names or a template line broken earlier")
    return "\n".join(lines)


def stale(games: list[str] | None = None) -> list[Path]:
    """The generated files that differ from what the template and hooks give now."""
    out = []
    for game in games or wings():
        path = GAMES_DIR / game / TARGET
        if not path.exists() or path.read_text(encoding="utf-8") != render(game):
            out.append(path)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tajsim.play.generate_batch",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("games", nargs="*", help="wings to write (default: every wing with "
                        f"{HOOKS.as_posix()})")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; list the stale files and exit 1 if any")
    args = parser.parse_args(argv)
    known = wings()
    for game in args.games:
        if game not in known:
            parser.error(f"no wing {game!r} with {HOOKS.as_posix()}; expected one of "
                         f"{', '.join(known)}")
    games = args.games or known
    if args.check:
        paths = stale(games)
        for path in paths:
            print(f"stale: {path} (regenerate with {REGENERATE})")
        return 1 if paths else 0
    for game in games:
        path = GAMES_DIR / game / TARGET
        text = render(game)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
