"""The conformance suite: every registered game and every registered strategy, from the registry.

Nothing here names a game or a strategy: a new game, or a strategy added to a game's registry,
is covered without editing this file. For each game:

* random games for every edition and player count, the game's invariants (``check_state``), its
  legal list against an independent reference and its per-step checks after every action;
* every registered strategy at its default parameters: legal actions only, the state and the
  other seats' streams untouched, and the same decision when everything it cannot see is
  redrawn (hidden cards, other players' secret choices, the chance stream), at decision points of
  every phase;
* compiled kernels equal to the same code under ``NUMBA_DISABLE_JIT=1`` (a subprocess);
* the same records whatever the workers (one thread, threads, numba's prange);
* the step-by-step ``Game`` API and its records;
* the golden transcripts replayed and diffed.
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from make_golden import REGENERATE, case_transcript, golden_cases, golden_path

from tajsim.games.registry import GAMES
from tajsim.play import conformance as C
from tajsim.running.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
GAME_NAMES = sorted(GAMES)
STRATEGIES = [(g, s.name) for g in GAME_NAMES for s in GAMES[g].strategies.all()]
SEARCH_TAG = "search"


def _player_counts(spec, edition):
    low, high = spec.players[edition]
    return range(low, high + 1)


def _configs(spec):
    return [(ed, n) for ed in spec.editions for n in _player_counts(spec, ed)]


# ---------------------------------------------------------------------------------------------
# The rules: invariants after every action
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAME_NAMES)
def test_random_games_keep_every_invariant(game):
    spec = GAMES[game]
    for i, (edition, n) in enumerate(_configs(spec)):
        for g in range(2):
            C.check_kernel_game(spec, n, edition, seed=31 + i, game_id=g)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_game_api(game):
    spec = GAMES[game]
    assert C.check_game_api(spec, n_games=1) == len(_configs(spec))


# ---------------------------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game,strategy", STRATEGIES)
def test_strategy_plays_legal_moves_only(game, strategy):
    spec = GAMES[game]
    search = SEARCH_TAG in spec.strategies.get(strategy).tags
    for edition in spec.editions:
        C.check_strategy_legality(spec, strategy, n_games=1 if search else 3, edition=edition,
                                  seed=5)


@pytest.mark.parametrize("game,strategy", STRATEGIES)
def test_strategy_ignores_hidden_information(game, strategy):
    spec = GAMES[game]
    changed = total = 0
    for edition in spec.editions:
        for n in sorted({min(_player_counts(spec, edition)), 4} & set(
                _player_counts(spec, edition))):
            changed += C.check_hidden_information(spec, strategy, n, n_states=8, edition=edition,
                                                  seed=11 + n)
            total += len(C.decision_states(spec, n, 8, edition, 11 + n))
    # The harness must really have redrawn hidden facts, not only the chance stream's words (a
    # game with no hidden information at a decision would make the test vacuous there).
    assert changed >= total // 3, f"only {changed} of {total} redraws changed a hidden fact"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_declared_chance_words_are_what_every_redraw_rewrites(game):
    """A spec's ``chance_words`` (its enums' ``CHANCE_WORDS``) are looked past when the
    hidden-information test counts redraws that moved a hidden fact, so each must be a word
    that every redraw rewrites (a stale or wrong declaration would hide a real hidden fact); a
    game whose redraw rewrites no chance word (No Thanks!: no stream after the setup) declares
    none, and then counting them changes nothing."""
    spec = GAMES[game]
    rng = np.random.default_rng(3)
    states = C.decision_states(spec, spec.default_player_count(), 8, seed=3)
    moved = np.zeros(spec.state_size, np.int64)
    for state, _, player, _ in states:
        moved += spec.redraw_hidden(state, C._comp(spec, None), player, rng) != state
    words = list(spec.chance_words)
    assert (moved[words] == len(states)).all(), (game, len(states),
                                                 dict(zip(words, moved[words].tolist())))
    counted = C.check_hidden_information(spec, "random", n_states=8, seed=3, chance_words=())
    looked_past = C.check_hidden_information(spec, "random", n_states=8, seed=3)
    if words:  # counted as hidden facts, the chance words make every redraw count
        assert counted == len(states) >= looked_past, (game, counted, looked_past)
    else:
        assert counted == looked_past, game


@pytest.mark.parametrize("game", GAME_NAMES)
def test_decision_points_cover_every_phase(game):
    """The hidden-information test samples decisions of every phase in which random games ever
    offer a choice."""
    spec = GAMES[game]
    n = spec.default_player_count()
    choice_phases = set()
    comp = spec.components.default().packed()
    legal = np.empty(spec.n_actions, np.int64)
    for g in range(3):
        _, _, _, actions = C.kernel_game_actions(spec, n, seed=3, game_id=g, comp=comp)
        state = np.zeros(spec.state_size, np.int64)
        prng = np.zeros(spec.max_players, np.int64)
        spec.kernels.start_game(comp, n, spec.rules_code(), 3, g, g, state, prng)
        for action in actions:
            if spec.kernels.legal_actions(state, comp, legal) > 1:
                choice_phases.add(spec.phase_of(state))
            spec.kernels.apply_action(state, comp, action)
    sampled = {spec.phase_of(s) for s, *_ in C.decision_states(spec, n, 40, seed=3)}
    assert choice_phases <= sampled, (
        f"phases with choices {sorted(choice_phases)}, sampled {sorted(sampled)}")


# ---------------------------------------------------------------------------------------------
# Compiled == uncompiled, and the same records whatever the workers
# ---------------------------------------------------------------------------------------------
WORKER = r"""
import sys
import numpy as np
from tajsim.games.registry import get_game

def play(game, strategy, configs, seed):
    spec = get_game(game)
    comp = spec.components.default().packed()
    strat, params = spec.strategies.parse(strategy)
    switches = spec.strategies.kernel_switches([strat.strategy_id])
    out = {}
    for i, (edition, n, game_id) in enumerate(configs):
        rules = spec.rules_code(edition)
        state = np.zeros(spec.state_size, np.int64)
        prng = np.zeros(spec.max_players, np.int64)
        spec.kernels.start_game(comp, n, rules, seed, game_id, game_id, state, prng)
        actions = np.full(spec.max_game_length + 1, -1, np.int64)
        legal = np.empty(spec.n_actions, np.int64)
        k = spec.kernels.play_out(comp, state, np.full(n, strat.strategy_id, np.int64),
                                  np.tile(params, (n, 1)), prng, legal, actions, *switches)
        ids = np.array([game_id], np.int64)
        res = np.zeros(n, spec.result_dtype)
        setups = np.zeros(1, spec.setup_dtype)
        spec.kernels.play_batch(comp, n, rules, seed, ids, ids, np.zeros((1, n), np.int64),
                                np.array([strat.strategy_id], np.int64), params[None, :].copy(),
                                res, setups, *switches)
        out[f"state{i}"] = state
        out[f"actions{i}"] = actions[:k]
        out[f"results{i}"] = np.frombuffer(res.tobytes(), np.uint8)
        out[f"setups{i}"] = np.frombuffer(setups.tobytes(), np.uint8)
    return out

if __name__ == "__main__":
    from numba.core import config
    assert config.DISABLE_JIT, "NUMBA_DISABLE_JIT=1 is not in effect"
    game, strategy, configs, seed, path = (sys.argv[1], sys.argv[2], eval(sys.argv[3]),
                                           int(sys.argv[4]), sys.argv[5])
    np.savez(path, **play(game, strategy, configs, seed))
"""


def _parity_cases():
    cases = []
    for game in GAME_NAMES:
        spec = GAMES[game]
        configs = [(ed, n, i) for i, (ed, n) in enumerate(_configs(spec))][::2][:3]
        cases.append((game, "random", configs))
        presets = [s.name for s in spec.strategies.with_tag("preset")]
        if presets:
            cases.append((game, presets[0], configs[:1]))
        if spec.net is not None and spec.net.strategy in spec.strategies:
            cases.append((game, spec.net.strategy, configs[:1]))
    return cases


@pytest.mark.parametrize("game,strategy,configs", _parity_cases())
def test_compiled_equals_uncompiled(game, strategy, configs, tmp_path):
    out = tmp_path / "nojit.npz"
    env = dict(os.environ, NUMBA_DISABLE_JIT="1",
               PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", WORKER, game, strategy, repr(configs), "77",
                           str(out)], env=env, capture_output=True, text=True, timeout=900,
                          cwd=ROOT)
    assert proc.returncode == 0, f"NUMBA_DISABLE_JIT=1 worker failed:\n{proc.stderr[-3000:]}"
    namespace: dict = {"__name__": "worker"}
    exec(compile(WORKER, "worker", "exec"), namespace)
    compiled = namespace["play"](game, strategy, configs, 77)
    with np.load(out, allow_pickle=False) as uncompiled:
        for key, value in compiled.items():
            assert value.tobytes() == uncompiled[key].tobytes(), f"{game} {strategy}: {key}"


@pytest.mark.parametrize("game", GAME_NAMES)
def test_same_records_whatever_the_workers(game):
    spec = GAMES[game]
    n = spec.default_player_count()
    names = [s.name for s in spec.strategies.all() if SEARCH_TAG not in s.tags][:2]
    kwargs = dict(games=90, players=n, strategies=names, seed=9, chunk_size=30, game=game,
                  progress=False)
    one = simulate(workers=1, **kwargs)
    for mode in ("threads", "prange"):
        os.environ["TAJSIM_PARALLEL"] = mode
        try:
            other = simulate(workers=2, **kwargs)
        finally:
            del os.environ["TAJSIM_PARALLEL"]
        pd.testing.assert_frame_equal(one, other, check_exact=True)
    assert len(one) == 90 * n


# ---------------------------------------------------------------------------------------------
# Golden transcripts
# ---------------------------------------------------------------------------------------------
GOLDEN = golden_cases()
GOLDEN_CASES = [(g, name) for g in GAME_NAMES for name in sorted(GOLDEN.get(g, {}))]


def test_every_game_has_golden_transcripts():
    missing = [g for g in GAME_NAMES if not GOLDEN.get(g)]
    assert not missing, f"games that declare no golden_cases in their spec: {missing}"


def test_every_golden_file_is_a_declared_case():
    """A transcript no case writes any more would be replayed by nobody: each file of a game's
    ``golden_dir`` is one of its ``golden_cases``."""
    for g in GAME_NAMES:
        folder = GAMES[g].golden_dir
        files = {f.stem for f in folder.glob("*.txt")} if folder else set()
        assert files == set(GOLDEN[g]), g


@pytest.mark.parametrize("game,name", GOLDEN_CASES)
def test_golden_playthrough(game, name):
    path = golden_path(game, name)
    assert path.exists(), f"{path} is missing; create it with: {REGENERATE}"
    want = path.read_text()
    got = case_transcript(game, GOLDEN[game][name])
    if got == want:
        return
    diff = list(difflib.unified_diff(want.splitlines(), got.splitlines(),
                                     f"golden/{game}/{name}.txt", "this run", n=2, lineterm=""))
    shown = "\n".join(diff[:120]) + ("\n..." if len(diff) > 120 else "")
    pytest.fail(f"playthrough {game}/{name} differs from its golden file.\nIf the change is "
                f"intended, regenerate with: {REGENERATE}\n{shown}", pytrace=False)
