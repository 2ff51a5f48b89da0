"""The Gymnasium adapter (``tajsim.interop.gymnasium``): Gymnasium's ``check_env`` for every game
and player count, the registered ids, an episode equal to tajsim's own game, the mask, illegal
actions and one-line refusals.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from tajsim.engine.base_game import IllegalActionError  # noqa: E402
from tajsim.errors import UserError  # noqa: E402
from tajsim.games.registry import GAMES  # noqa: E402
from tajsim.interop.gymnasium import ILLEGAL_ACTION_REWARD, SeatEnv, env_id  # noqa: E402
from tajsim.play.mixed import play_game  # noqa: E402

#: (game, players) for every game and player count of its default edition.
TABLES = [(name, n) for name, spec in GAMES.items()
          for n in range(spec.players[spec.default_edition][0],
                         spec.players[spec.default_edition][1] + 1)]


@pytest.mark.parametrize("game,players", TABLES, ids=[f"{g}-{n}p" for g, n in TABLES])
def test_check_env_passes(game, players):
    made = gymnasium.make(env_id(GAMES[game]), players=players, seat=players - 1,
                          render_mode="ansi")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # check_env reports problems as warnings: none allowed
        check_env(made.unwrapped)


def test_every_game_is_registered_under_its_title():
    assert [env_id(spec) for spec in GAMES.values()] == [
        "tajsim/TajMahal-v0", "tajsim/Maharaja-v0", "tajsim/Maharani-v0", "tajsim/NoThanks-v0"]
    made = gymnasium.make("tajsim/Maharani-v0", players=3, opponents=["random", "greedy"])
    assert made.unwrapped.game_spec.name == "maharani"
    assert made.unwrapped.opponents == ["random", "greedy"]


@pytest.mark.parametrize("game", list(GAMES))
def test_an_episode_is_tajsims_own_game(game):
    """A learner that asks a compiled heuristic (``balanced`` where the game has it) for each
    move, against the same opponents, plays exactly the game that ``play_game`` plays for the
    seed; its reward is its win share."""
    spec = GAMES[game]
    name = "balanced" if "balanced" in spec.strategies else spec.strategies.with_tag(
        "heuristic")[0].name
    strategy, params = spec.strategies.parse(name)
    switches = spec.strategies.kernel_switches([strategy.strategy_id])
    env = SeatEnv(game=game, players=3, seat=1, opponents=name)
    obs, info = env.reset(seed=21)
    reward, terminated, steps = 0.0, False, 0
    while not terminated:
        legal = np.flatnonzero(obs["action_mask"]).astype(np.int64)
        assert len(legal) > 1  # forced moves are played for the learner
        assert np.array_equal(env.action_masks(), obs["action_mask"])
        assert sorted(env.game.legal_actions()) == legal.tolist()
        g = env.game
        action = spec.kernels.choose_action(strategy.strategy_id, g.state, g.comp, 1, params,
                                            g.prng, legal, len(legal), *switches)
        obs, reward, terminated, truncated, info = env.step(int(action))
        assert not truncated
        steps += 1
    reference = play_game([name] * 3, seed=21, game_id=0, game=game)
    assert env.game.actions == reference.actions
    assert info["scores"] == reference.scores() and info["rank"] == reference.ranks()[1]
    winners = reference.winners()
    assert reward == (1 / len(winners) if 1 in winners else 0.0)
    assert steps > 5 and not env.action_masks().any()


def test_the_next_reset_plays_the_next_game_of_the_seed():
    env = SeatEnv(game="maharaja", players=2, opponents="random")
    env.reset(seed=5)
    first = env.game.state.copy()
    env.reset()
    assert (env.game.seed, env.game.game_id, env.game.setup_id) == (5, 1, 1)
    env.reset(seed=5)
    assert np.array_equal(env.game.state, first)


def test_an_illegal_action_loses_the_episode_or_raises():
    env = SeatEnv(game="tajmahal", players=2)
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (ILLEGAL_ACTION_REWARD, True, False)
    assert info["illegal_action"] is True and not obs["action_mask"].any()
    with pytest.raises(UserError, match="call reset"):
        env.step(0)
    strict = SeatEnv(game="tajmahal", players=2, illegal_action="raise")
    strict.reset(seed=3)
    with pytest.raises(IllegalActionError, match=f"action {illegal} is not legal"):
        strict.step(illegal)


@pytest.mark.parametrize("kwargs,expected", [
    ({"game": "maharani", "players": 2, "seat": 2}, "seat 2 is not a seat"),
    ({"players": 3, "opponents": ["random"]}, "1 opponents given"),
    ({"opponents": "nobody"}, "nobody"),
    ({"illegal_action": "ignore"}, "illegal_action 'ignore'"),
    ({"render_mode": "rgb_array"}, "render mode 'rgb_array'"),
    ({"seed": 1.5}, "seed 1.5"),
])
def test_bad_arguments_are_one_line_user_errors(kwargs, expected):
    with pytest.raises(UserError, match=expected) as info:
        SeatEnv(**kwargs)
    assert "\n" not in str(info.value)


def test_the_default_opponents_are_the_games_first_preset():
    for name, spec in GAMES.items():
        low = spec.players[spec.default_edition][0]
        env = SeatEnv(game=name, players=low)
        presets = spec.strategies.with_tag("preset")
        expected = presets[0].name if presets else "random"  # No Thanks! has no presets
        assert env.opponents == [expected] * (low - 1)
        assert expected == ("balanced" if name != "nothanks" else "random")
    assert SeatEnv().game_spec.name == "tajmahal"  # no game: tajsim's default game
