"""Maharaja's ``turnsearch`` (strategies/turnsearch.py): it searches every decision, plays legal
actions only, ignores what the seat cannot see (the conformance redraw), is a function of the
seed with an iteration budget, spends its budget (iterations or ms) and no more, keeps its
restriction, and stops on the stop flag."""

from __future__ import annotations

import numpy as np
import pytest
from maharaja_helpers import COMP, collect_states

from tajsim.engine.stop import clear_stop, request_stop
from tajsim.games.maharaja.engine import enums as E
from tajsim.games.maharaja.engine import nb
from tajsim.games.maharaja.engine.invariants import redraw_hidden
from tajsim.games.maharaja.spec import SPEC
from tajsim.games.maharaja.strategies.ids import (
    MAX_CANDIDATES,
    MAX_ITERATIONS,
    STRATEGY_TURNSEARCH,
    W_SEARCH_N,
    WORK_SIZE,
    kernel_switches,
)
from tajsim.games.maharaja.strategies.nb import choose_action_nb
from tajsim.games.maharaja.strategies.registry import REGISTRY
from tajsim.games.maharaja.strategies.restrictions import RESTRICTIONS, forbidden
from tajsim.games.maharaja.strategies.turnsearch import I_MS, search_step
from tajsim.play import conformance as C
from tajsim.running.simulate import simulate

SMALL = "turnsearch:iterations=6:candidates=3:step_candidates=3:horizon=1"


@pytest.fixture(scope="module")
def states():
    """States of every phase from games of 2 to 5 players (as the strategy tests')."""
    return collect_states(["random", "balanced", "hoarder"], n_games=4, seed=23, keep_share=0.2,
                          rng_seed=13)


def hidden_turn_state(states):
    """A state outside the pick at which another seat's pick is still hidden."""
    for state in states:
        p = int(state[E.S_CUR])
        if state[E.S_PHASE] != E.PHASE_PICK and nb.hidden_pick_count(state, p) > 0:
            return state
    raise AssertionError("no turn state with a hidden pick among the samples")


def bandit_pulls(work, player):
    base = W_SEARCH_N + player * MAX_CANDIDATES
    return int(work[base:base + MAX_CANDIDATES].sum())


def step_search(state, text, prng_seed=1):
    """(action, rollouts played) of ``search_step`` on ``state`` with strategy ``text``."""
    legal = np.empty(E.N_ACTIONS, np.int64)
    n = nb.legal_actions_nb(state, COMP, legal)
    p = int(state[E.S_CUR])
    work = np.zeros(WORK_SIZE, np.int64)
    prng = np.arange(prng_seed, prng_seed + E.MAX_PLAYERS, dtype=np.int64)
    action = search_step(state, COMP, p, REGISTRY.parse(text)[1], prng, legal, n, work)
    assert action in legal[:n].tolist()
    return action, bandit_pulls(work, p)


def test_registered_as_a_cpu_search_with_the_old_defaults_untouched():
    spec, vec = REGISTRY.parse("turnsearch")
    assert spec.strategy_id == STRATEGY_TURNSEARCH and "search" in spec.tags
    assert vec[I_MS] == 0.0  # reproducible by default
    # the old search's vector is what its records were made with
    old = REGISTRY.parse("search")[1]
    assert old[:8].tolist() == [80.0, 6.0, 0.0, 6.0, 25.0, 2.0, 30.0, 0.0]
    assert not old[8:16].any()
    assert kernel_switches([STRATEGY_TURNSEARCH]) == (True, True, True)
    assert kernel_switches([STRATEGY_TURNSEARCH, 0], [vec, vec]) == (True, True, None)
    with pytest.raises(Exception, match="step_candidates"):
        REGISTRY.parse("turnsearch:step_candidates=13")


def test_legal_pure_and_blind_on_sampled_states(states):
    """Legal, the state and the other streams untouched, the same decision after
    ``redraw_hidden`` redraws the others' unrevealed picks (every phase)."""
    spec, params = REGISTRY.parse(SMALL)
    buf = np.empty(E.N_ACTIONS, np.int64)
    rng = np.random.default_rng(3)
    hidden_seen = 0
    phases = set()
    for i, state in enumerate(states):
        k = nb.legal_actions_nb(state, COMP, buf)
        legal = buf[:k].copy()
        p = int(state[E.S_CUR])
        prng = np.array([500 + 7 * i + q for q in range(E.MAX_PLAYERS)], np.int64)
        before, prng_before = state.copy(), prng.copy()
        a = choose_action_nb(spec.strategy_id, state, COMP, p, params, prng, legal, k)
        assert a in legal.tolist()
        assert state.tobytes() == before.tobytes()
        others = [q for q in range(E.MAX_PLAYERS) if q != p]
        assert (prng[others] == prng_before[others]).all()
        phases.add(int(state[E.S_PHASE]))
        if nb.hidden_pick_count(state, p) > 0:
            hidden_seen += 1
            for _ in range(2):
                other = redraw_hidden(state, COMP, p, rng)
                a2 = choose_action_nb(spec.strategy_id, other, COMP, p, params,
                                      prng_before.copy(), legal, k)
                assert a2 == a, "the decision changed after a hidden redraw"
    assert hidden_seen > 0
    assert {E.PHASE_DRAFT, E.PHASE_SETUP_HOUSE, E.PHASE_PICK, E.PHASE_TURN} <= phases


def test_conformance_suite():
    C.check_strategy_legality(SPEC, SMALL, n_games=1, seed=5)
    changed = C.check_hidden_information(SPEC, SMALL, 2, n_states=8, seed=13)
    changed += C.check_hidden_information(SPEC, SMALL, 4, n_states=8, seed=15)
    assert changed >= 8


def test_it_searches_the_turn_not_only_the_pick():
    """Against ``search`` (same rollouts, same pick search) the draft, setup houses and turn
    steps differ somewhere: they are searched, not the rollout policy's."""
    kw = dict(game="maharaja", games=4, players=2, seed=9, workers=1, progress=False)
    mine = simulate(strategies=["turnsearch:iterations=4", "hoarder"], **kw)
    old = simulate(strategies=["search:iterations=4", "hoarder"], **kw)
    assert not mine[["palaces", "gold"]].equals(old[["palaces", "gold"]])


def test_a_game_is_a_function_of_its_seed():
    kw = dict(game="maharaja", games=4, players=2, strategies=[SMALL, "hoarder"], seed=31,
              rotate=True, progress=False)
    a = simulate(workers=1, **kw)
    b = simulate(workers=2, **kw)
    cols = ["game_id", "seat", "strategy", "score", "winner"]
    assert a.sort_values(["game_id", "seat"])[cols].reset_index(drop=True).equals(
        b.sort_values(["game_id", "seat"])[cols].reset_index(drop=True))
    spec, vec = REGISTRY.parse(SMALL)
    assert spec.deterministic(vec)  # it draws no chance: a run may replay its games
    assert not spec.deterministic(REGISTRY.parse(f"{SMALL}:ms=1")[1])


def test_iteration_and_time_budgets(states):
    """Iterations are counted (the bandit's pulls add up to them where something is hidden;
    where nothing is, each candidate is rolled out once at most); ``ms`` replaces them."""
    state = hidden_turn_state(states)
    assert step_search(state, "turnsearch:iterations=9")[1] == 9
    assert step_search(state, "turnsearch:iterations=1")[1] == 1
    short = step_search(state, "turnsearch:iterations=1:ms=2")[1]
    long = step_search(state, "turnsearch:iterations=1:ms=40")[1]
    assert 1 < short < long
    assert step_search(state, f"turnsearch:iterations={MAX_ITERATIONS}:ms=1")[1] \
        < MAX_ITERATIONS
    # nothing hidden (a draft): one rollout a candidate, whatever the budget
    draft = next(s for s in states if s[E.S_PHASE] == E.PHASE_DRAFT
                 and nb.hidden_pick_count(s, int(s[E.S_CUR])) == 0)
    legal = np.empty(E.N_ACTIONS, np.int64)
    n = nb.legal_actions_nb(draft, COMP, legal)
    assert step_search(draft, "turnsearch:iterations=500:step_candidates=4")[1] == min(4, n)
    assert step_search(draft, "turnsearch:iterations=2:step_candidates=4")[1] == min(2, n)


def test_time_budget_is_kept():
    """A decision of ``ms=20`` takes about 20 ms of thread CPU time, not much more (the last
    rollout overruns it by one rollout at most)."""
    import time

    states = collect_states(["hoarder"], n_games=1, seed=41, keep_share=1.0, rng_seed=1)
    state = next(s for s in states if s[E.S_PHASE] == E.PHASE_TURN
                 and nb.hidden_pick_count(s, int(s[E.S_CUR])) > 0)
    step_search(state, "turnsearch:iterations=1")  # compiled before the clock starts
    t0 = time.thread_time()
    step_search(state, "turnsearch:iterations=4096:ms=20")
    spent = time.thread_time() - t0
    assert 0.018 < spent < 0.2


def test_stop_flag_ends_the_search(states):
    state = hidden_turn_state(states)
    request_stop()
    try:
        assert step_search(state, f"turnsearch:iterations={MAX_ITERATIONS}")[1] == 1
    finally:
        clear_stop()
    assert step_search(state, "turnsearch:iterations=20")[1] == 20


@pytest.mark.parametrize("family", ["governor", "character"])
def test_restriction_is_kept(family):
    """A restricted turnsearch never takes a forbidden action (pick, draft or step) unless
    every legal action is forbidden (the restriction is lifted there)."""
    bit = next(r.bit for r in RESTRICTIONS if r.name == family)
    mask = 1 << bit
    spec, params = REGISTRY.parse(f"{SMALL}:forbid={family}")
    hoarder_spec, hoarder = REGISTRY.parse("hoarder")
    buf = np.empty(E.N_ACTIONS, np.int64)
    decisions = 0
    for g in range(2):
        state = np.zeros(E.STATE_SIZE, np.int64)
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        SPEC.kernels.start_game(COMP, 2, 0, 17, g, g, state, prng)
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            k = nb.legal_actions_nb(state, COMP, buf)
            p = int(state[E.S_CUR])
            if p == 0 and k > 1:
                a = choose_action_nb(spec.strategy_id, state, COMP, p, params, prng, buf, k)
                allowed = [x for x in buf[:k] if not forbidden(state, x, mask)]
                if allowed:
                    assert a in allowed, f"forbidden {family} action {a}"
                decisions += 1
            else:
                a = buf[0] if k == 1 else choose_action_nb(
                    hoarder_spec.strategy_id, state, COMP, p, hoarder, prng, buf, k)
            nb.apply_action_nb(state, COMP, a)
    assert decisions > 20


def test_the_gpu_refuses_it_in_one_line():
    """CPU only (tag ``search``): ``--device gpu`` refuses it before any GPU is looked for."""
    from tajsim.errors import UserError
    from tajsim.running.config import RunConfig
    from tajsim.running.gpu import check_gpu_run

    config = RunConfig.make(game="maharaja", games=2, strategies="turnsearch,hoarder", seed=1)
    with pytest.raises(UserError, match="'turnsearch' is a search strategy"):
        check_gpu_run(config)
