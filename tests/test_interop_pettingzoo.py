"""The PettingZoo adapter (``tajsim.interop.pettingzoo``) and the observation arrays
(``tajsim.interop.encoding``): PettingZoo's own ``api_test`` and ``seed_test`` for every game,
edition and player count, hidden information, the action mask against the legal actions, seeds,
rendering, one-line refusals, and that ``import tajsim`` leaves the frameworks alone.
"""

from __future__ import annotations

import dataclasses
import importlib
import subprocess
import sys
import warnings

import numpy as np
import pytest
from chance_words import hidden_changed

pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from tajsim.errors import UserError  # noqa: E402
from tajsim.games.registry import GAMES  # noqa: E402
from tajsim.interop import INSTALL_HINT  # noqa: E402
from tajsim.interop.encoding import PAD, layout, observe  # noqa: E402
from tajsim.interop.pettingzoo import env  # noqa: E402
from tajsim.play.conformance import decision_states  # noqa: E402

#: (game, edition, players) for every game, edition and allowed player count.
TABLES = [(name, edition, n) for name, spec in GAMES.items() for edition in spec.editions
          for n in range(spec.players[edition][0], spec.players[edition][1] + 1)]
IDS = [f"{g}-{e}-{n}p" for g, e, n in TABLES]


def _masked_random_play(e, seed: int, max_steps: int = 100_000) -> list[int]:
    """Play one episode with actions drawn uniformly from the mask; the actions taken."""
    rng = np.random.default_rng(seed)
    taken = []
    for _ in e.agent_iter(max_steps):
        obs, _, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        taken.append(action)
        e.step(action)
    return taken


# -- PettingZoo's own tests --------------------------------------------------------------------
@pytest.mark.parametrize("game,edition,players", TABLES, ids=IDS)
def test_api_test_and_seed_test_pass(game, edition, players):
    with warnings.catch_warnings():
        # api_test warns for every Dict observation ({observation, action_mask}) outside its
        # own list of classic games; that is the layout PettingZoo's classic games use.
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env(game=game, players=players, edition=edition), num_cycles=1000)
    seed_test(lambda: env(game=game, players=players, edition=edition), num_cycles=1000)


# -- seeds: an episode is a pure function of the seed ---------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_episodes_are_the_games_of_the_seed_and_index(game):
    spec = GAMES[game]
    n = spec.default_player_count()  # the game's own table, whatever its range
    e = env(game=game, players=n)
    e.reset(seed=11)
    first = _masked_random_play(e, seed=1)
    e.reset()  # the next game of seed 11
    assert np.array_equal(e.game.state, spec.game_class(n, None, 11, 1).state)
    e.reset(seed=11)
    assert np.array_equal(e.game.state, spec.game_class(n, None, 11, 0).state)
    assert _masked_random_play(e, seed=1) == first  # same seed, same actions: same game
    assert e.game.scores() == spec.game_class.replay(e.game.record()).scores()
    e.reset(seed=12)
    assert not np.array_equal(e.game.state, spec.game_class(n, None, 11, 0).state)


def test_a_seedless_environment_draws_its_master_seed_once():
    e = env(game="maharani", players=2)
    e.reset()
    drawn = e.master_seed
    e.reset()
    assert e.master_seed == drawn and e.game_index == 1


# -- the observation arrays ------------------------------------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_observations_ignore_hidden_information(game):
    """States that differ only in what a seat cannot see (``spec.redraw_hidden``) give that
    seat equal arrays, through the environment's own ``observe``."""
    spec = GAMES[game]
    n = spec.default_player_count()
    e = env(game=game, players=n)
    e.reset(seed=3)
    comp = e.game.comp
    rng = np.random.default_rng(5)
    changed = 0
    arrays = set()
    for state, _, player, _ in decision_states(spec, n, 16, seed=9, comp=comp):
        agent = e.possible_agents[player]
        other = spec.redraw_hidden(state, comp, player, rng)
        changed += hidden_changed(game, state, other)
        e.game.state[:] = state
        e._after_move()
        seen = e.observe(agent)
        e.game.state[:] = other
        e._after_move()
        seen_other = e.observe(agent)
        assert np.array_equal(seen["observation"], seen_other["observation"])
        assert np.array_equal(seen["action_mask"], seen_other["action_mask"])
        arrays.add(seen["observation"].tobytes())
    assert changed >= 4  # the redraw changed hidden facts: the check is not empty
    assert len(arrays) >= 4  # and the arrays do tell states apart


@pytest.mark.parametrize("game", list(GAMES))
def test_the_action_mask_is_the_legal_actions(game):
    e = env(game=game, players=GAMES[game].players[GAMES[game].default_edition][0])
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    steps = 0
    while not e.game.is_over:
        legal = e.game.legal_actions()
        for agent in e.agents:
            mask = e.observe(agent)["action_mask"]
            assert mask.dtype == np.int8
            expected = legal if agent == e.agent_selection else []
            assert np.flatnonzero(mask).tolist() == sorted(expected)
        e.step(int(rng.choice(legal)))
        steps += 1
    assert steps > 10


@pytest.mark.parametrize("game", list(GAMES))
def test_the_layout_covers_the_view_and_pads_the_empty_slots(game):
    spec = GAMES[game]
    lay = layout(spec)
    assert lay.fields[0].offset == 0
    assert sum(f.size for f in lay.fields) == lay.size
    for a, b in zip(lay.fields, lay.fields[1:]):
        assert b.offset == a.offset + a.size
    comp = spec.components.default().packed()
    state, _, player, _ = decision_states(spec, 2, 1, seed=1, comp=comp)[0]
    array = observe(spec, state, comp, player)
    view = spec.view(state, comp, player)
    players = next(f for f in lay.fields if f.name == "n_players")
    assert array[players.offset] == 2 == view.n_players
    per_seat = next(f for f in lay.fields if f.shape and f.shape[0] == spec.max_players
                    and len(getattr(view, f.name)) == 2)  # one entry per seat
    block = array[per_seat.offset:per_seat.offset + per_seat.size].reshape(per_seat.shape)
    assert (block[2:] == PAD).all()  # the seats beyond the table are padding


@pytest.mark.parametrize("game", list(GAMES))
def test_encoding_many_views_at_once_equals_one_by_one(game):
    spec = GAMES[game]
    comp = spec.components.default().packed()
    views = [spec.view(state, comp, player)
             for n in (spec.players[spec.default_edition][0], spec.max_players)
             for state, _, player, _ in decision_states(spec, n, 12, seed=4, comp=comp)]
    lay = layout(spec)
    assert np.array_equal(lay.encode_many(views), np.stack([lay.encode(v) for v in views]))


def test_a_field_longer_than_its_declaration_is_refused():
    spec = GAMES["maharani"]
    comp = spec.components.default().packed()
    state, _, player, _ = decision_states(spec, 2, 1, seed=1, comp=comp)[0]
    view = spec.view(state, comp, player)
    too_long = dataclasses.replace(view, turntable=view.turntable * 3)
    with pytest.raises(ValueError, match="turntable"):
        layout(spec).encode(too_long)


# -- the global state, defaults and the episode's bounds ------------------------------------
@pytest.mark.parametrize("game", list(GAMES))
def test_state_is_every_seats_observation_for_a_centralised_critic(game):
    from pettingzoo.test.state_test import test_state_space

    e = env(game=game)  # the game's default table
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo's check warns on a doubtful space
        test_state_space(e)
    e.reset(seed=6)
    rng = np.random.default_rng(2)
    for _ in e.agent_iter():
        obs, _, terminated, truncated, _ = e.last()
        state = e.state()
        assert e.state_space.contains(state)
        seats = np.split(state, len(e.possible_agents))
        for p, seat in enumerate(e.possible_agents):
            if seat in e.agents:
                assert np.array_equal(seats[p], e.observe(seat)["observation"])
        e.step(None if terminated or truncated
               else int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_players_default_to_the_games_table_size():
    for name, spec in GAMES.items():
        assert env(game=name).n_players == spec.default_player_count()
    e = env(game="nothanks")  # a 3-7 player game: no 2-player default
    e.reset(seed=1)
    assert len(e.agents) == GAMES["nothanks"].default_player_count() >= 3
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        api_test(env(game="nothanks"), num_cycles=200)


def test_step_before_reset_and_after_the_end_are_one_line_errors():
    e = env(game="maharani", players=2)
    with pytest.raises(UserError, match=r"no episode yet; call reset\(\) before step\(\)"):
        e.step(0)
    e.reset(seed=3)
    _masked_random_play(e, seed=0)  # steps every agent out (step(None) when done)
    assert not e.agents
    with pytest.raises(UserError, match=r"the episode is over .*call reset\(\)") as info:
        e.step(0)
    assert "\n" not in str(info.value)
    with pytest.raises(UserError, match="episode is over"):
        e.step(None)


# -- rendering and refusals ----------------------------------------------------------------
def test_ansi_render_is_the_games_own_description():
    e = env(game="tajmahal", players=3, render_mode="ansi")
    e.reset(seed=2)
    assert e.render() == str(e.game)
    assert env(game="tajmahal", players=3).render() is None


@pytest.mark.parametrize("kwargs,expected", [
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"game": "maharani", "players": 5}, "player count 5"),
    ({"game": "tajmahal", "edition": "1999"}, "unknown edition '1999'"),
    ({"game": "maharaja", "options": {"no_such": True}}, "unknown rule option 'no_such'"),
    ({"render_mode": "human"}, "render mode 'human'"),
    ({"seed": -1}, "seed -1"),
])
def test_bad_arguments_are_one_line_user_errors(kwargs, expected):
    with pytest.raises(UserError, match=expected) as info:
        env(**kwargs)
    assert "\n" not in str(info.value)


def test_an_illegal_action_is_refused():
    e = env(game="maharani", players=2)
    e.reset(seed=1)
    illegal = int(np.flatnonzero(e.observe(e.agent_selection)["action_mask"] == 0)[0])
    with pytest.raises(UserError, match=f"action {illegal} is not legal"):
        e.step(illegal)


@pytest.mark.parametrize("framework,adapter", [
    ("pettingzoo", "tajsim.interop.pettingzoo"),
    ("gymnasium", "tajsim.interop.gymnasium"),
])
def test_a_missing_framework_is_a_one_line_install_hint(monkeypatch, framework, adapter):
    monkeypatch.setitem(sys.modules, framework, None)  # import now raises ImportError
    for name in ("tajsim.interop.pettingzoo", "tajsim.interop.gymnasium"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    with pytest.raises(UserError) as info:
        importlib.import_module(adapter)
    message = str(info.value)
    assert "\n" not in message
    assert f"needs the {framework} package" in message and INSTALL_HINT in message


def test_tajsim_itself_does_not_import_the_frameworks():
    code = ("import sys, tajsim\n"
            "tajsim.simulate(4, players=2, strategies=['random'], game='maharani', "
            "progress=False)\n"
            "print(sorted(m for m in ('pettingzoo', 'gymnasium') if m in sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_the_benchmark_runs_and_checks_itself(tmp_path):
    """``benchmarks/bench_interop_pettingzoo.py --check`` at tiny sizes: it measures every
    column it documents and replays its episodes."""
    import csv
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_interop_pettingzoo.py"
    cmd = [sys.executable, str(script), "--game", "maharani", "--players", "2", "--episodes",
           "1", "--native-games", "8", "--repeat", "1", "--warmup", "0", "--check",
           "--results", str(tmp_path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "check passed" in done.stderr
    with (tmp_path / "interop_pettingzoo.csv").open() as f:
        (row,) = list(csv.DictReader(f))
    assert row["game"] == "maharani" and int(row["pettingzoo_steps"]) > 10
    for column in ("native_us_per_action", "pettingzoo_us_per_step", "gymnasium_us_per_step",
                   "step_view_us", "step_encode_us"):
        assert float(row[column]) > 0
    assert float(row["pettingzoo_ratio"]) > 1  # an adapter step cannot beat the kernel
