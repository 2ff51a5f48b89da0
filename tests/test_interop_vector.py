"""The batched environment (``tajsim.interop.vector.VectorEnv``): rows are the games of the
seed, the masks are the legal actions, an all-``balanced`` row replays ``play_game``, rewards
and auto-resets, observations equal the other adapters', one-line refusals."""

from __future__ import annotations

import numpy as np
import pytest

from tajsim.engine.base_game import IllegalActionError
from tajsim.errors import UserError
from tajsim.games.registry import GAMES
from tajsim.interop.encoding import layout, scaled_layout
from tajsim.interop.rewards import score_margin_of
from tajsim.interop.vector import VectorEnv
from tajsim.play.mixed import play_game


def _heuristic(spec):
    return "balanced" if "balanced" in spec.strategies else spec.strategies.with_tag(
        "heuristic")[0].name


def _check_rows(env):
    """Every row waits for a real decision of the right seat; the mask is its legal list."""
    spec, legal = env.spec, np.empty(env.spec.n_actions, np.int64)
    for row in range(env.num_envs):
        state = env.states[row]
        assert spec.current_player(state) == env.current_player[row]
        n = spec.kernels.legal_actions(state, env.comp, legal)
        assert np.flatnonzero(env.masks[row]).tolist() == sorted(legal[:n].tolist())
        if env.seat is not None:
            assert env.current_player[row] == env.seat and n > 1


@pytest.mark.parametrize("game", list(GAMES))
def test_every_seat_mode_plays_the_games_of_the_seed_with_auto_reset(game):
    spec = GAMES[game]
    env = VectorEnv(game=game, num_envs=3, players=3, seat=None)
    obs, mask = env.reset(seed=5)
    for row in range(3):
        fresh = spec.game_class(3, None, 5, row)
        assert env.game_ids[row] == row
        assert np.array_equal(env.states[row], fresh.state)  # the first seat decides at once
    assert obs.shape == (3, layout(spec).size) and mask.shape == (3, spec.n_actions)
    rng = np.random.default_rng(1)
    actions = {row: [] for row in range(3)}
    finished = []
    while len(finished) < 4:
        _check_rows(env)
        chosen = env.sample(rng)
        for row in range(3):
            actions[row].append(int(chosen[row]))
        before = env.game_ids.copy()
        obs, reward, done, mask = env.step(chosen)
        assert reward.shape == (3, 3)
        for row in np.flatnonzero(done):
            replay = spec.game_class(3, None, 5, int(before[row]))
            for a in actions[row]:
                replay.apply(a)
            assert replay.is_over and env.final_scores[row].tolist() == replay.scores()
            winners = replay.winners()
            assert reward[row].tolist() == pytest.approx(
                [1 / len(winners) if p in winners else 0.0 for p in range(3)])
            finished.append(int(before[row]))
            actions[row] = []
        assert not reward[~done].any()
    # each reset takes the next unused game id, in row order
    assert sorted(set(env.game_ids.tolist()) | set(finished)) == list(
        range(3 + len(finished)))


@pytest.mark.parametrize("game", list(GAMES))
def test_a_balanced_learner_row_replays_play_game(game):
    """Seat 1 learns against compiled opponents; a learner that asks the compiled heuristic
    with its own policy stream plays exactly ``play_game``'s all-heuristic game."""
    spec = GAMES[game]
    name = _heuristic(spec)
    strategy, params = spec.strategies.parse(name)
    switches = spec.strategies.kernel_switches([strategy.strategy_id])
    env = VectorEnv(game=game, num_envs=2, players=3, seat=1, opponents=name)
    env.reset(seed=21)
    legal = np.empty(spec.n_actions, np.int64)
    first: dict[int, tuple] = {}
    while len(first) < 2:
        _check_rows(env)
        actions = np.empty(2, np.int64)
        for row in range(2):
            n = spec.kernels.legal_actions(env.states[row], env.comp, legal)
            actions[row] = spec.kernels.choose_action(
                strategy.strategy_id, env.states[row], env.comp, 1, params, env._prngs[row],
                legal, n, *switches)
        _, reward, done, _ = env.step(actions)
        for row in np.flatnonzero(done):
            first.setdefault(int(row), (env.final_scores[row].tolist(), float(reward[row])))
    for row, (scores, reward) in first.items():
        reference = play_game([name] * 3, seed=21, game_id=row, game=game)
        assert scores == reference.scores()
        winners = reference.winners()
        assert reward == pytest.approx(1 / len(winners) if 1 in winners else 0.0)


@pytest.mark.parametrize("game", list(GAMES))
def test_observations_are_the_seats_views_raw_or_scaled(game):
    spec = GAMES[game]
    raw_env = VectorEnv(game=game, num_envs=4, seat=None)
    scaled_env = VectorEnv(game=game, num_envs=4, seat=None, observation="scaled")
    rng = np.random.default_rng(3)
    raw, _ = raw_env.reset(seed=8)
    scaled, _ = scaled_env.reset(seed=8)
    for _ in range(5):
        for row in range(4):
            view = spec.view(raw_env.states[row], raw_env.comp,
                             int(raw_env.current_player[row]), raw_env.components)
            assert np.array_equal(raw[row], layout(spec).encode(view))
        assert np.array_equal(scaled, scaled_layout(spec).encode_raw(raw))
        assert scaled.dtype == np.float32 and np.abs(scaled).max() <= 1
        actions = raw_env.sample(rng)
        raw, *_ = raw_env.step(actions)
        scaled, *_ = scaled_env.step(actions)
    masks_only = VectorEnv(game=game, num_envs=2, observation=None)
    obs, mask = masks_only.reset(seed=1)
    assert obs is None and mask.any(axis=1).all()


def test_the_margin_reward_follows_better_score():
    """No Thanks!: the lowest score wins, so a learner's margin is positive when it scored
    below every other seat."""
    env = VectorEnv(game="nothanks", num_envs=8, players=3, seat=0, opponents="random",
                    reward="margin")
    both = VectorEnv(game="nothanks", num_envs=8, players=3, seat=0, opponents="random",
                     reward="win+margin")
    env.reset(seed=2)
    both.reset(seed=2)
    rng = np.random.default_rng(0)
    signs = set()
    for _ in range(200):
        actions = env.sample(rng)
        _, reward, done, _ = env.step(actions)
        _, reward_both, _, _ = both.step(actions)
        for row in np.flatnonzero(done):
            scores = env.final_scores[row]
            margin = score_margin_of(scores, 0, higher=False)
            assert reward[row] == pytest.approx(margin)
            assert (margin > 0) == (scores[0] < scores[1:].min())
            won = scores[0] == scores.min()
            share = 1 / (scores == scores.min()).sum() if won else 0.0
            assert reward_both[row] == pytest.approx(margin + share)
            signs.add(np.sign(margin))
    assert signs >= {-1.0, 1.0}


def test_illegal_actions_and_bad_calls_are_one_line_errors():
    env = VectorEnv(game="maharani", num_envs=3, players=2)
    with pytest.raises(UserError, match=r"call reset\(\) before step\(\)"):
        env.step(np.zeros(3, np.int64))
    _, mask = env.reset(seed=1)
    actions = env.sample(np.random.default_rng(0))
    actions[2] = int(np.flatnonzero(mask[2] == 0)[0])
    for bad in (actions, np.array([0, 0, -4]), np.array([0, 0, 10**6])):
        bad = bad.copy()
        bad[:2] = env.sample(np.random.default_rng(0))[:2]
        with pytest.raises(IllegalActionError, match="of row 2 is not legal") as info:
            env.step(bad)
        assert "\n" not in str(info.value)
    with pytest.raises(UserError, match=r"expected integers of shape \(3,\)"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(UserError, match="expected integers"):
        env.step(np.zeros(3))


@pytest.mark.parametrize("kwargs,expected", [
    ({"num_envs": 0}, "num_envs 0"),
    ({"seat": 4, "players": 2}, "seat 4 is not a seat"),
    ({"observation": "onehot"}, "observation 'onehot'"),
    ({"reward": "points"}, "reward 'points'"),
    ({"players": 3, "opponents": ["random"]}, "1 opponents given"),
    ({"opponents": "nobody"}, "nobody"),
    ({"players": 9}, "player count 9"),
])
def test_bad_arguments_are_one_line_user_errors(kwargs, expected):
    with pytest.raises(UserError, match=expected) as info:
        VectorEnv(game="maharani", **kwargs)
    assert "\n" not in str(info.value)


def test_players_default_to_the_games_table_size():
    for name, spec in GAMES.items():
        assert VectorEnv(game=name, num_envs=1).n_players == spec.default_player_count()


def test_the_benchmark_runs_and_checks_itself(tmp_path):
    """``benchmarks/bench_vector_env.py --check`` at tiny sizes writes every ratio it
    documents."""
    import csv
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_vector_env.py"
    done = subprocess.run([sys.executable, str(script), "--game", "nothanks", "--num-envs", "4",
                           "--steps", "3", "--repeat", "1", "--warmup", "0", "--check",
                           "--results", str(tmp_path)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "check passed" in done.stderr
    with (tmp_path / "vector_env.csv").open() as f:
        (row,) = list(csv.DictReader(f))
    assert row["game"] == "nothanks" and int(row["players"]) == 4
    for name in ("every_seat_obs", "every_seat_pyobs", "every_seat_noobs", "learner_obs",
                 "learner_pyobs", "learner_noobs"):
        assert float(row[f"ratio_{name}"]) > 0


@pytest.mark.parametrize("game", list(GAMES))
def test_set_opponents_seats_new_opponents_from_the_next_call(game):
    """A curriculum's switch: opponents set before reset play exactly as if given at
    construction; set mid-run, the rows go on against them; bad counts are one-line errors."""
    spec = GAMES[game]
    players = spec.players[spec.default_edition][0]
    heuristic = _heuristic(spec)
    direct = VectorEnv(game=game, num_envs=4, players=players, opponents=heuristic)
    switched = VectorEnv(game=game, num_envs=4, players=players, opponents="random")
    control = VectorEnv(game=game, num_envs=4, players=players, opponents=heuristic)
    switched.set_opponents(heuristic)
    assert switched.opponents == direct.opponents == [heuristic] * (players - 1)
    rng = np.random.default_rng(2)
    outs = [env.reset(seed=9) for env in (direct, switched, control)]
    for _ in range(30):
        actions = direct.sample(rng)
        outs = [env.step(actions) for env in (direct, switched, control)]
        for a, b in zip(outs[0], outs[1]):
            assert np.array_equal(a, b)
    assert np.array_equal(direct.states, switched.states)
    # mid-run: the same learner (each row's lowest legal action) against random from now on
    # leaves the heuristic's games, which a run that never switched keeps playing
    switched.set_opponents("random")
    for _ in range(30):
        for env in (direct, switched, control):
            env.step(env.masks.argmax(axis=1))
    assert np.array_equal(direct.states, control.states)
    assert not np.array_equal(direct.states, switched.states)
    with pytest.raises(UserError, match="opponents given"):
        switched.set_opponents(["random"] * players)
