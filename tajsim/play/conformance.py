"""The conformance suite every registered game and every registered strategy must pass (in the
spirit of pgx's ``api_test``), shipped with the library so that anyone who changes a game's
rules, its component data or writes a strategy can run it::

    from tajsim.games.registry import get_game
    from tajsim.play import conformance as C
    spec = get_game("tajmahal")
    C.check_kernel_game(spec, n_players=4, seed=1)     # invariants after every action
    C.check_strategy_legality(spec, "greedy")          # legal actions only, state untouched
    C.check_hidden_information(spec, "greedy")         # decisions ignore what is hidden
    C.check_game_api(spec)                             # the step-by-step Game / GameRecord

Each check raises ``AssertionError`` naming the game, the step and the broken property (plain
``if ...: raise`` so that it still runs under ``python -O``). ``tests/test_conformance.py``
parametrises them over the registry: a new game or strategy is covered without a test edit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tajsim.engine.base_game import GameRecord, IllegalActionError
from tajsim.engine.spec import GameSpec

__all__ = [
    "check_game_api",
    "check_hidden_information",
    "check_kernel_game",
    "check_strategy_legality",
    "decision_states",
    "kernel_game_actions",
]

def _require(cond: Any, what: str, where: str = "") -> None:
    if not cond:
        raise AssertionError(f"{where}: {what}" if where else what)


def _rules(spec: GameSpec, edition: str | int | None,
           options: Mapping[str, bool] | None = None) -> int:
    return spec.rules_code(
        None if edition is None else spec.editions[spec.edition_index(edition)], options)


def _comp(spec: GameSpec, comp: np.ndarray | None) -> np.ndarray:
    return spec.components.default().packed() if comp is None else comp


# ---------------------------------------------------------------------------------------------
# Whole games through the kernels
# ---------------------------------------------------------------------------------------------
def kernel_game_actions(spec: GameSpec, n_players: int, edition: str | int | None = None,
                        seed: int = 0, game_id: int = 0, strategy: str = "random",
                        comp: np.ndarray | None = None,
                        options: Mapping[str, bool] | None = None):
    """Play one game with the game's ``play_out`` kernel (``strategy`` in every seat; the
    game's rule ``options`` by name).

    Returns ``(start_state, start_prng, final_state, actions)``.
    """
    comp = _comp(spec, comp)
    strat, params = spec.strategies.parse(strategy)
    k = spec.kernels
    state = np.zeros(spec.state_size, np.int64)
    prng = np.zeros(spec.max_players, np.int64)
    k.start_game(comp, n_players, _rules(spec, edition, options), seed, game_id, game_id, state,
                 prng)
    start, start_prng = state.copy(), prng.copy()
    # One slot past the bound: a game that fills it broke the spec's max_game_length.
    actions = np.zeros(spec.max_game_length + 1, np.int64)
    legal = np.empty(spec.n_actions, np.int64)
    seat_ids = np.full(n_players, strat.strategy_id, np.int64)
    seat_params = np.tile(params, (n_players, 1))
    n = k.play_out(comp, state, seat_ids, seat_params, prng, legal, actions,
                   *spec.strategies.kernel_switches([strat.strategy_id], [params]))
    spec.check_game_length(n, f"{spec.name} {strategy!r} game {game_id}")
    return start, start_prng, state, [int(a) for a in actions[:n]]


def check_kernel_game(spec: GameSpec, n_players: int, edition: str | int | None = None,
                      seed: int = 0, game_id: int = 0, strategy: str = "random",
                      comp: np.ndarray | None = None, check_legal: bool = True,
                      options: Mapping[str, bool] | None = None):
    """Play one game with ``play_out`` (rule ``options`` by name), then replay its actions one
    by one through ``apply_action`` and check, before and after every action: the game's invariants
    (``spec.check_state``), its legal list (``spec.check_legal``: against an independent
    reference), that the action is legal, what the step may change (``spec.check_step``); and
    finally that the replay ends in exactly ``play_out``'s final state.

    Returns ``(final_state, actions)``.
    """
    comp = _comp(spec, comp)
    start, _, final, actions = kernel_game_actions(spec, n_players, edition, seed, game_id,
                                                   strategy, comp, options)
    k = spec.kernels
    state = start.copy()
    legal = np.empty(spec.n_actions, np.int64)
    tag = (f"{spec.name} game (players={n_players}, edition={edition}, seed={seed}, "
           f"game_id={game_id}, {strategy})")
    spec.check_state(state, comp, f"{tag} at setup")
    for i, action in enumerate(actions):
        w = f"{tag} step {i}"
        _require(spec.current_player(state) >= 0, "the game ended before its actions", w)
        n = k.legal_actions(state, comp, legal)
        _require(n >= 1, "no legal action while the game runs", w)
        if check_legal and spec.check_legal is not None:
            spec.check_legal(state, comp, legal[:n], w)
        _require(action in legal[:n], f"action {action} is not legal", w)
        before = state.copy()
        k.apply_action(state, comp, action)
        spec.check_state(state, comp, w)
        if spec.check_step is not None:
            spec.check_step(before, action, state, comp, w)
    _require(spec.current_player(state) == -1, f"{tag}: not over after its actions")
    _require(np.array_equal(state, final), f"{tag}: step-by-step replay differs from play_out")
    return state, actions


# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------
def check_strategy_legality(spec: GameSpec, strategy: str, n_games: int = 6,
                            n_players: int | None = None, edition: str | int | None = None,
                            seed: int = 0, comp: np.ndarray | None = None,
                            opponents: str = "random") -> None:
    """Play ``n_games`` with ``strategy`` in seat ``g % n_players`` of game ``g`` (the other
    seats: ``opponents``) and check at every decision of the strategy that it returns one of the
    legal actions, leaves the state and the legal list untouched, and advances only its own
    policy stream."""
    comp = _comp(spec, comp)
    ed = spec.default_edition if edition is None else edition
    if n_players is None:
        n_players = spec.default_player_count(ed)
    strat, params = spec.strategies.parse(strategy)
    other, other_params = spec.strategies.parse(opponents)
    switches = spec.strategies.kernel_switches([strat.strategy_id, other.strategy_id],
                                               [params, other_params])
    k = spec.kernels
    state = np.zeros(spec.state_size, np.int64)
    prng = np.zeros(spec.max_players, np.int64)
    legal = np.empty(spec.n_actions, np.int64)
    for g in range(n_games):
        k.start_game(comp, n_players, _rules(spec, ed), seed, g, g, state, prng)
        seat = g % n_players
        for step in range(spec.max_game_length + 1):
            p = spec.current_player(state)
            if p < 0:
                break
            w = f"{spec.name} strategy {strategy!r} game {g} step {step}"
            n = k.legal_actions(state, comp, legal)
            _require(n >= 1, "no legal action", w)
            if n == 1:
                action = int(legal[0])
            else:
                sid, par = (strat.strategy_id, params) if p == seat else (other.strategy_id,
                                                                          other_params)
                before, prng_before = state.copy(), prng.copy()
                legal_before = legal[:n].copy()
                action = int(k.choose_action(sid, state, comp, p, par, prng, legal, n,
                                             *switches))
                _require(np.array_equal(state, before), "the strategy modified the state", w)
                _require(np.array_equal(legal[:n], legal_before),
                         "the strategy modified the legal list", w)
                others = np.arange(spec.max_players) != p
                _require(np.array_equal(prng[others], prng_before[others]),
                         "the strategy advanced another seat's stream", w)
                _require(action in legal_before, f"illegal action {action}", w)
            k.apply_action(state, comp, action)
        else:
            spec.check_game_length(spec.max_game_length + 1,
                                   f"{spec.name} strategy {strategy!r} game {g}")


def decision_states(spec: GameSpec, n_players: int, n_states: int,
                    edition: str | int | None = None, seed: int = 0,
                    comp: np.ndarray | None = None, mix: str | None = None,
                    max_games: int = 60):
    """Decision points ``(state, prng, player, legal)`` of every phase that offers a choice,
    about ``n_states`` in all (the same number per phase), sampled from games of ``mix``
    (default: the game's first strategy tagged ``preset``, else ``random``) mixed with random
    moves so that varied states are reached. Decisions with one legal action are skipped."""
    comp = _comp(spec, comp)
    if mix is None:
        presets = spec.strategies.with_tag("preset")
        mix = presets[0].name if presets else "random"
    strat, params = spec.strategies.parse(mix)
    rand, rparams = spec.strategies.parse("random")
    switches = spec.strategies.kernel_switches([strat.strategy_id, rand.strategy_id],
                                               [params, rparams])
    rng = np.random.default_rng([seed, n_players])
    quota = max(1, -(-n_states // max(1, len(spec.phase_names))))
    k = spec.kernels
    legal = np.empty(spec.n_actions, np.int64)
    by_phase: dict[int, list] = {}
    for game in range(max_games):
        state = np.zeros(spec.state_size, np.int64)
        prng = np.zeros(spec.max_players, np.int64)
        k.start_game(comp, n_players, _rules(spec, edition), seed, game, game, state, prng)
        step = 0
        while (p := spec.current_player(state)) >= 0:
            n = k.legal_actions(state, comp, legal)
            if n > 1:
                got = by_phase.setdefault(spec.phase_of(state), [])
                if len(got) < quota and rng.random() < 0.1:
                    got.append((state.copy(), prng.copy(), p, legal[:n].copy()))
            if n == 1:
                action = legal[0]
            elif rng.random() < 0.7:
                action = k.choose_action(strat.strategy_id, state, comp, p, params, prng, legal,
                                         n, *switches)
            else:
                action = k.choose_action(rand.strategy_id, state, comp, p, rparams, prng, legal,
                                         n, *switches)
            k.apply_action(state, comp, action)
            step += 1
            spec.check_game_length(step, f"{spec.name} game {game}")
        if all(len(v) >= quota for v in by_phase.values()):
            break
    return [item for phase in sorted(by_phase) for item in by_phase[phase]]


def hidden_changed(state: np.ndarray, other: np.ndarray, chance_words: Sequence[int]) -> bool:
    """Whether ``other`` differs from ``state`` in a word other than ``chance_words`` (the
    chance stream's, which a redraw rewrites every time: no hidden fact of the game)."""
    words = list(chance_words)
    return not np.array_equal(np.delete(other, words), np.delete(state, words))


def check_hidden_information(spec: GameSpec, strategy: str, n_players: int | None = None,
                             n_states: int = 12, edition: str | int | None = None,
                             seed: int = 0, comp: np.ndarray | None = None,
                             chance_words: Sequence[int] | None = None) -> int:
    """At sampled decision points, redraw everything the deciding seat cannot see
    (``spec.redraw_hidden``: hidden cards, other players' secret choices, the chance stream...)
    and require the same decision from ``strategy`` with the same policy stream, and an equal
    view for pure-Python policies. Returns the number of decisions whose hidden state the
    redraw actually changed (a harness that changes nothing proves nothing), not counting a
    change of the state words ``chance_words`` alone (default: the spec's, the chance stream's
    state and seeds, which a redraw rewrites every time: no hidden card or choice moved)."""
    comp = _comp(spec, comp)
    chance_words = spec.chance_words if chance_words is None else chance_words
    ed = spec.default_edition if edition is None else edition
    if n_players is None:
        n_players = spec.default_player_count(ed)
    strat, params = spec.strategies.parse(strategy)
    switches = spec.strategies.kernel_switches([strat.strategy_id], [params])
    rng = np.random.default_rng([seed, n_players, 7])
    k = spec.kernels
    changed = 0
    for i, (state, prng, player, legal) in enumerate(
            decision_states(spec, n_players, n_states, ed, seed, comp)):
        w = f"{spec.name} strategy {strategy!r} decision {i} (players={n_players})"
        other = spec.redraw_hidden(state, comp, player, rng)
        changed += hidden_changed(state, other, chance_words)
        buf = np.empty(spec.n_actions, np.int64)
        _require(k.legal_actions(other, comp, buf) == len(legal),
                 "the redraw changed the legal actions", w)
        a1 = k.choose_action(strat.strategy_id, state.copy(), comp, player, params, prng.copy(),
                             legal.copy(), len(legal), *switches)
        a2 = k.choose_action(strat.strategy_id, other.copy(), comp, player, params, prng.copy(),
                             legal.copy(), len(legal), *switches)
        _require(a1 == a2, f"the decision changed ({a1} -> {a2}) when hidden information "
                 "was redrawn", w)
        _require(spec.view(state, comp, player) == spec.view(other, comp, player),
                 "the Python view changed when hidden information was redrawn", w)
    return changed


# ---------------------------------------------------------------------------------------------
# The Python API
# ---------------------------------------------------------------------------------------------
def check_game_api(spec: GameSpec, n_games: int = 1, n_players: Sequence[int] | None = None,
                   editions: Sequence[str] | None = None, seed: int = 0, components: Any = None,
                   check_states: bool = True) -> int:
    """Random games through the game's step-by-step ``Game``: dtypes and shapes, a non-empty
    list of distinct ``int`` legal actions at every step, step counting, the current player,
    readable labels and ``str(game)``, ``IllegalActionError`` for an illegal action and for any
    action after the end, ``clone`` independence, ranks and winners at the end, the score equal
    to the sum of its parts, and the ``GameRecord`` JSON round trip and replay to the identical
    final state. Returns the number of games played."""
    played = 0
    for edition in editions or spec.editions:
        low, high = spec.players[edition]
        for n in n_players or range(low, high + 1):
            if not low <= n <= high:
                continue
            for g in range(n_games):
                _check_one_game(spec, n, edition, seed, g, components, check_states)
                played += 1
    return played


def _check_listless(spec: GameSpec, game: Any, legal: list[int], where: str) -> None:
    """The wing's ``count_legal`` and ``nth_legal`` (if any) agree with the listed actions."""
    count, nth = spec.kernels.count_legal, spec.kernels.nth_legal
    if count is None or nth is None:
        _require(count is None and nth is None, "count_legal and nth_legal come together",
                 where)
        return
    _require(int(count(game.state, game.comp)) == len(legal), "count_legal != number listed",
             where)
    for k, action in enumerate(legal):
        _require(int(nth(game.state, game.comp, k)) == action, f"nth_legal({k}) != listed",
                 where)


def _check_one_game(spec: GameSpec, n: int, edition: str, seed: int, g: int, components: Any,
                    check_states: bool) -> None:
    rng = np.random.default_rng([seed, g, n])
    game = spec.game_class(n, edition, seed=seed, game_id=g, components=components)
    tag = f"{spec.name} Game(n_players={n}, edition={edition}, seed={seed}, game_id={g})"
    _require(game.state.dtype == np.int64 and game.state.shape == (spec.state_size,),
             "state dtype/shape", tag)
    _require(game.comp.dtype == np.int64 and game.comp.shape == (spec.comp_size,),
             "comp dtype/shape", tag)
    _require(game.n_players == n and game.edition == edition, "configuration", tag)
    step = 0
    while not game.is_over:
        w = f"{tag} step {step}"
        legal = game.legal_actions()
        _require(legal, "no legal action while the game runs", w)
        _require(all(type(a) is int for a in legal), "legal actions are not int", w)
        _require(len(set(legal)) == len(legal), "duplicate legal actions", w)
        if check_states:
            if spec.check_legal is not None:
                spec.check_legal(game.state, game.comp, legal, w)
            spec.check_state(game.state, game.comp, w)
        _check_listless(spec, game, legal, w)
        _require(0 <= game.current_player < n, "current player", w)
        _require(game.current_player == spec.current_player(game.state),
                 "Game.current_player differs from the spec's", w)
        _require(isinstance(str(game), str) and str(game), "str(game)", w)
        for a in legal[:3]:
            label = game.action_label(a)
            _require(isinstance(label, str) and label and "invalid" not in label, "label", w)
        if step == 0:
            # An action outside the action space when every action is legal here (No
            # Thanks!: pay a chip or take, both open at the first decision).
            illegal = next((a for a in range(spec.n_actions) if a not in legal), spec.n_actions)
            try:
                game.apply(illegal)
            except IllegalActionError:
                pass
            else:
                raise AssertionError(f"{w}: illegal action {illegal} accepted")
            _require(len(game.actions) == 0, "a rejected action changed the game", w)
            before = game.state.copy()
            twin = game.clone()
            twin.apply(legal[-1])
            _require(np.array_equal(game.state, before) and len(game.actions) == 0,
                     "clone shares state with the original", w)
        game.apply(legal[int(rng.integers(len(legal)))])
        step += 1
        _require(len(game.actions) == step, "step counting", w)
        spec.check_game_length(step, w)
    if check_states:
        spec.check_state(game.state, game.comp, f"{tag} at the end")
    _require(game.current_player == -1 and game.legal_actions() == [], "game over API", tag)
    try:
        game.apply(0)
    except IllegalActionError:
        pass
    else:
        raise AssertionError(f"{tag}: action accepted after the end")
    ranks, winners = game.ranks(), game.winners()
    _require(all(1 <= r <= n for r in ranks) and min(ranks) == 1, f"ranks {ranks}", tag)
    _require(winners == [p for p in range(n) if ranks[p] == 1], "winners != rank-1 seats", tag)
    _require(game.scores() == [sum(game.score_parts(p).values()) for p in range(n)],
             "score != sum of parts", tag)
    record = GameRecord.from_json(game.record().to_json())
    _require(record.actions == game.actions and record.game == spec.name, "record", tag)
    again = spec.game_class.replay(record)
    _require(np.array_equal(again.state, game.state), "record replay differs", tag)
