"""tajsim's games as OpenSpiel games (``tajsim.interop.openspiel``) and OpenSpiel's bots as seats.

Needs the ``interop`` extra (open-spiel); CI installs it with the ``test`` extra.
"""

from __future__ import annotations

import importlib
import subprocess
import sys

import numpy as np
import pytest
from chance_words import hidden_changed

from tajsim.errors import UserError
from tajsim.games.registry import GAMES, get_game
from tajsim.interop import INSTALL_HINT

pyspiel = pytest.importorskip("pyspiel")
O = importlib.import_module("tajsim.interop.openspiel")  # noqa: N816 (registers the games)
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

GAME_PLAYERS = [(name, edition, n) for name, spec in GAMES.items() for edition in spec.editions
                for n in range(spec.players[edition][0], spec.players[edition][1] + 1)]


@pytest.mark.parametrize("name,edition,n", GAME_PLAYERS)
def test_random_sim_test_with_serialisation(name, edition, n):
    """OpenSpiel's own consistency test, serialising and restoring states on the way."""
    game = O.load_game(name, n, edition)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_registered_names_parameters_and_type():
    for name, spec in GAMES.items():
        assert f"tajsim_{name}" in pyspiel.registered_names()
        game = pyspiel.load_game(f"tajsim_{name}", {"players": 3, "seed": 5})
        params = game.get_parameters()
        assert params["players"] == 3 and params["seed"] == 5
        assert {o.name for o in spec.options} <= set(params)
        kind = game.get_type()
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
        assert kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
        assert game.num_distinct_actions() == spec.n_actions and game.utility_sum() == 1.0
    opts = pyspiel.load_game("tajsim_maharaja", {"players": 2, "static_order": True})
    state = opts.new_initial_state()
    state.apply_action(0)
    assert state.tajsim_game.options == {"static_order": True}


def test_bad_parameters_are_one_line_errors():
    with pytest.raises(UserError, match="player count 9"):
        O.load_game("maharani", 9)
    with pytest.raises(UserError, match="unknown rule option 'nope'"):
        O.load_game("maharani", 2, options={"nope": True})


#: The smallest table of each game (No Thanks! starts at 3 players).
FEWEST = {name: min(low for low, _ in spec.players.values()) for name, spec in GAMES.items()}


def _played(name, n, steps, seed=0, deal=3):
    """A state of ``name`` after the deal and ``steps`` random actions (or the end)."""
    game = O.load_game(name, n, seed=seed)
    state = game.new_initial_state()
    state.apply_action(deal)
    rng = np.random.default_rng([seed, steps])
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    return game, state


def _with_vector(state, vector):
    other = state.clone()
    other.tajsim_game.state[:] = vector
    other._d.obs_cache = {}
    return other


@pytest.mark.parametrize("name", sorted(GAMES))
def test_strings_hide_what_a_seat_cannot_see(name):
    """States that differ only in what a seat cannot see (``redraw_hidden``) give that seat
    equal observation and information-state strings; the redraws do change the state."""
    spec = get_game(name)
    rng = np.random.default_rng(1)
    changed = 0
    for steps in (5, 17, 40, 61):
        _, state = _played(name, 3, steps, seed=steps)
        if state.is_terminal():
            continue
        base = state.tajsim_game
        for player in range(3):
            other = _with_vector(state, spec.redraw_hidden(base.state, base.comp, player, rng))
            changed += hidden_changed(name, base.state, other.tajsim_game.state)
            assert other.observation_string(player) == state.observation_string(player)
            assert (other.information_state_string(player)
                    == state.information_state_string(player))
    assert changed >= 4


@pytest.mark.parametrize("name", sorted(GAMES))
def test_visible_differences_change_the_strings(name):
    """A seat's own different action changes its information state (perfect recall) even
    where the views come back together; another deal changes what the seat sees."""
    _, state = _played(name, FEWEST[name], 6)
    while len(state.legal_actions()) < 2:  # a decision with a choice
        state.apply_action(state.legal_actions()[0])
    player = state.current_player()
    a, b = state.legal_actions()[:2]
    left, right = state.clone(), state.clone()
    left.apply_action(a)
    right.apply_action(b)
    assert left.information_state_string(player) != right.information_state_string(player)
    _, first = _played(name, FEWEST[name], 0, deal=1)
    _, second = _played(name, FEWEST[name], 0, deal=2)
    assert first.observation_string(0) != second.observation_string(0)
    # the information state starts with the observation and adds the recall
    assert first.information_state_string(0).endswith(first.observation_string(0))


@pytest.mark.parametrize("name", sorted(GAMES))
def test_resample_keeps_the_information_state(name):
    game, state = _played(name, FEWEST[name], 25)
    player = state.current_player()
    key = state.information_state_string(player)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(player, sampler) for _ in range(4)]
    for world in worlds:
        assert world.information_state_string(player) == key
        assert world.legal_actions() == state.legal_actions()
    # the count of resamples varies the worlds even with a sampler that restarts
    assert len({w.tajsim_game.state.tobytes() for w in worlds}) > 1
    # a resampled world serialises (its raw vectors) and comes back equal
    again = game.deserialize_state(worlds[0].serialize())
    assert str(again) == str(worlds[0])
    assert again.information_state_string(player) == key
    assert again.history() == worlds[0].history()


def test_serialisation_is_the_game_record():
    game, state = _played("maharaja", 3, 30)
    again = game.deserialize_state(state.serialize())
    assert again.history() == state.history() and str(again) == str(state)
    assert again.tajsim_game.record() == state.tajsim_game.record()
    with pytest.raises(UserError, match="not a serialised tajsim"):
        game.deserialize_state("{}")


def test_returns_are_win_shares():
    _, state = _played("maharani", 2, 10_000)
    assert state.is_terminal()
    winners = state.tajsim_game.winners()
    assert state.returns() == [1 / len(winners) if p in winners else 0.0 for p in range(2)]


def test_ismcts_bot_plays_a_game_to_the_end():
    """OpenSpiel's own ISMCTSBot, used as OpenSpiel users would, on tajsim_maharani."""
    game = pyspiel.load_game("tajsim_maharani", {"players": 2, "seed": 3})
    rs = np.random.RandomState(0)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), 2.0, 4, random_state=rs)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(int(rs.randint(game.max_chance_outcomes())))
        elif state.current_player() == 0:
            state.apply_action(int(bot.step(state)))
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert sum(state.returns()) == pytest.approx(1.0)


@pytest.mark.parametrize("bot", ["ismcts:iterations=3", "mcts:iterations=3",
                                 "ismcts:seconds=0.002"])
def test_openspiel_seat_plays_a_mixed_game(bot):
    from tajsim.play.mixed import play_game

    def play():
        return play_game([f"openspiel:{bot}", "random"], seed=4, game_id=2, game="maharani")

    game = play()
    assert game.is_over and game.strategies[0] == f"openspiel:{bot}"
    if "seconds" not in bot:  # a clock-bounded search is not reproducible
        assert play().actions == game.actions


def test_openspiel_seat_plays_a_match():
    from tajsim.play.arena import play_mixed_lineups, rotated_lineups

    spec = get_game("maharaja")
    lineups = rotated_lineups([0, 1], 2)
    results, setups, timing = play_mixed_lineups(
        spec, ["openspiel:ismcts:iterations=2", "greedy"], lineups, seed=1)
    assert results["winner"].reshape(2, 2).sum(axis=1).min() >= 1
    assert (setups["game_id"] == [0, 1]).all()
    assert timing[1, 0] > 0 and timing[0, 0] > 0
    assert set(results["strategy_id"][lineups.reshape(-1) == 0]) == {-1}


def test_bad_seat_specs_are_one_line_errors():
    from tajsim.play.mixed import resolve_seat

    spec = get_game("maharani")
    with pytest.raises(UserError, match="unknown OpenSpiel bot 'cfr'"):
        resolve_seat(spec, "openspiel:cfr")
    with pytest.raises(UserError, match="unknown key 'depth'"):
        resolve_seat(spec, "openspiel:ismcts:depth=3")
    with pytest.raises(UserError, match="key=number"):
        resolve_seat(spec, "openspiel:ismcts:iterations=many")


def test_batch_commands_say_where_openspiel_seats_play():
    with pytest.raises(UserError, match="play step by step: tajsim ladder --openspiel"):
        get_game("tajmahal").strategies.parse("openspiel:ismcts:iterations=200")


def test_without_open_spiel_the_adapter_gives_the_install_hint(monkeypatch):
    from tajsim.play import mixed

    monkeypatch.setitem(sys.modules, "pyspiel", None)  # import pyspiel -> ImportError
    monkeypatch.delitem(sys.modules, "tajsim.interop.openspiel")
    monkeypatch.setattr(mixed, "_SEAT_RESOLVERS", {})
    with pytest.raises(UserError, match="needs the pyspiel package") as err:
        importlib.import_module("tajsim.interop.openspiel")
    assert INSTALL_HINT in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(UserError, match="pip install"):
        mixed.resolve_seat(get_game("maharani"), "openspiel:ismcts")


def test_tajsim_does_not_import_pyspiel():
    code = ("import sys, tajsim, tajsim.play.mixed, tajsim.play.arena, tajsim.reporting.ladder; "
            "assert 'pyspiel' not in sys.modules, 'pyspiel imported'")
    subprocess.run([sys.executable, "-c", code], check=True)


def test_ladder_places_our_search_against_openspiel(tmp_path):
    """``tajsim ladder --openspiel-only`` plays both tables and puts them into a saved ladder
    and its document."""
    import json
    import shutil

    from click.testing import CliRunner

    from tajsim.cli.main import cli
    from tajsim.reporting.ladder import REPO, LadderConfig, load_json, openspiel_tables

    doc = tmp_path / "ladder.md"
    shutil.copy(REPO / "docs/games/maharani/ladder-2p.md", doc)
    saved = json.loads((REPO / "docs/games/maharani/ladder-2p.json").read_text())
    saved["openspiel"] = []
    doc.with_suffix(".json").write_text(json.dumps(saved))
    res = CliRunner().invoke(cli, [
        "ladder", "--game", "maharani", "--search", "mcts:iterations=4", "--openspiel", "ismcts",
        "--openspiel-only", "--openspiel-games", "4", "--openspiel-iterations", "2",
        "--output", str(doc), "-q"])
    assert res.exit_code == 0, res.output
    rows = load_json(doc.with_suffix(".json")).openspiel
    assert [r["setting"] for r in rows] == ["equal iterations", "equal time"]
    assert rows[0]["a"] == "mcts:iterations=2"  # the search at the equal iteration count
    assert rows[0]["b"] == "openspiel:ismcts:iterations=2"
    assert rows[1]["b"].startswith("openspiel:ismcts:seconds=")
    for r in rows:
        assert r["games"] == 4 and r["ci"][0] <= r["share"] <= r["ci"][1]
        assert r["decisions_a"] > 0 and r["decisions_b"] > 0
    text = doc.read_text()
    assert "### Against OpenSpiel's bots" in text and "| equal time | `mcts:iterations=4` |" in text
    assert text.index("Against OpenSpiel") < text.index("<!-- ladder:end -->")
    with pytest.raises(UserError, match="need a search strategy"):
        openspiel_tables(LadderConfig.quick(game="maharani", search="", openspiel=("ismcts",)))
    res = CliRunner().invoke(cli, ["ladder", "--game", "maharani", "--openspiel-only",
                                   "--output", str(doc)])
    assert res.exit_code == 2 and "--openspiel-only without --openspiel" in res.output


def test_one_seat_object_at_two_seats_keeps_a_stream_per_seat():
    """A 3-player table A B A with one openspiel seat object: each of its seats has its own
    bot and stream, and the game is reproducible."""
    from tajsim.play.mixed import play_mixed_game, resolve_seat

    spec = get_game("maharani")

    def play():
        seat = resolve_seat(spec, "openspiel:mcts:iterations=3")
        other = resolve_seat(spec, "random")
        game = play_mixed_game(spec, [None] * 3, seed=2, game_id=1,
                               _resolved=[seat, other, seat])
        return game, seat[1]

    game, seat = play()
    assert sorted(player for _, player in seat._bots) == [0, 2]
    assert play()[0].actions == game.actions


# -- legality, seeds and observers (issue 43) ------------------------------------------------
def _refused(state, action):
    """``state.apply_action(action)`` is refused in one line, in OpenSpiel's and tajsim's
    error types, and leaves the state as it was."""
    from tajsim.engine.base_game import IllegalActionError

    before = (state.history(), None if state.tajsim_game is None
              else state.tajsim_game.state.copy())
    with pytest.raises(pyspiel.SpielError) as info:
        state.apply_action(action)
    assert isinstance(info.value, IllegalActionError)  # a UserError: the CLI's one line
    assert "\n" not in str(info.value) and str(action) in str(info.value)
    assert state.history() == before[0]
    if before[1] is not None:
        assert np.array_equal(state.tajsim_game.state, before[1])
    return str(info.value)


@pytest.mark.parametrize("name", list(GAMES))
def test_illegal_negative_and_out_of_range_actions_are_refused(name):
    spec = GAMES[name]
    game = O.load_game(name, FEWEST[name])
    state = game.new_initial_state()
    assert "expected a game id 0 to 4095" in _refused(state, 5000)  # a deal of 5,000 of 4,096
    _refused(state, -2)
    _, state = _played(name, FEWEST[name], 5)
    legal = set(state.legal_actions())
    illegal = next((a for a in range(spec.n_actions) if a not in legal), None)
    if illegal is not None:  # No Thanks!'s two actions are often both legal
        assert f"player {state.current_player()}" in _refused(state, illegal)
    _refused(state, -2)
    _refused(state, spec.n_actions + 5)
    state.apply_action(min(legal))  # a legal one still goes through
    _, over = _played(name, FEWEST[name], 100_000)
    assert over.is_terminal() and "game is over" in _refused(over, 0)


def test_deserialising_an_illegal_record_is_refused_naming_the_action():
    import json

    game, state = _played("maharaja", 3, 6)
    data = json.loads(state.serialize())
    actions = data["record"]["actions"]
    legal_then = set(_played("maharaja", 3, 3)[1].legal_actions())
    actions[3] = next(a for a in range(GAMES["maharaja"].n_actions) if a not in legal_then)
    with pytest.raises(pyspiel.SpielError, match="serialised state: action 4 of the record"):
        game.deserialize_state(json.dumps(data))
    data = json.loads(state.serialize())
    data["record"]["game_id"] = 9999  # not one of the 4,096 deals
    with pytest.raises(pyspiel.SpielError, match="the deal of the record: deal 9999"):
        game.deserialize_state(json.dumps(data))
    data = json.loads(state.serialize())
    data["record"]["actions"][0] = -1  # OpenSpiel's kInvalidAction: refused by tajsim first
    with pytest.raises(pyspiel.SpielError, match="action 1 of the record: action -1"):
        game.deserialize_state(json.dumps(data))


@pytest.mark.parametrize("seed", [2**31 - 1, 2**31, 2**40 + 3, 2**63 - 1])
def test_seeds_up_to_2_63_minus_1(seed):
    game = O.load_game("maharani", 2, seed=seed)
    assert game.seed == seed
    state = game.new_initial_state()
    state.apply_action(7)
    reference = get_game("maharani").game_class(2, None, seed, 7)
    assert np.array_equal(state.tajsim_game.state, reference.state)
    # the game string and the serialised state carry the seed back
    assert pyspiel.load_game(str(game)).seed == seed
    again = game.deserialize_state(state.serialize())
    assert again.tajsim_game.seed == seed
    assert pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(
        game, state))[1].tajsim_game.seed == seed
    params = {"players": 2, **({"seed": seed} if seed < 2**31 else {"master_seed": str(seed)})}
    assert pyspiel.load_game("tajsim_maharani", params).seed == seed


def test_an_openspiel_seat_plays_a_game_of_a_large_seed():
    from tajsim.play.mixed import play_game

    game = play_game(["openspiel:mcts:iterations=2", "random"], seed=2**62 + 5, game_id=1,
                     game="maharani")
    assert game.is_over and game.seed == 2**62 + 5


@pytest.mark.parametrize("kwargs,expected", [
    ({"master_seed": "0x10", "seed": 3}, "both given"),
    ({"master_seed": "twelve"}, "master_seed 'twelve' is not a whole number"),
    ({"master_seed": str(2**63)}, f"seed {2**63} is out of range"),
])
def test_bad_master_seeds_are_one_line_errors(kwargs, expected):
    with pytest.raises(UserError, match=expected) as info:
        pyspiel.load_game("tajsim_maharani", kwargs)
    assert "\n" not in str(info.value)
    with pytest.raises(UserError, match="seed -1 is out of range"):
        O.load_game("maharani", 2, seed=-1)


def test_a_public_information_observer_is_refused_not_given_the_private_view():
    from open_spiel.python.observation import make_observation

    game = O.load_game("maharani", 2)
    kind = pyspiel.PrivateInfoType
    for private in (kind.NONE, kind.ALL_PLAYERS):
        obs_type = pyspiel.IIGObservationType(perfect_recall=False, public_info=True,
                                              private_info=private)
        with pytest.raises(pyspiel.SpielError, match="no observation with public_info=True"):
            make_observation(game, obs_type)
    seat = make_observation(game)  # the default: one seat's view
    _, state = _played("maharani", 2, 4)
    seat.set_from(state, 0)
    assert seat.string_from(state, 0) == state.observation_string(0)


def test_the_benchmark_measures_every_game_at_its_default_table(tmp_path):
    """``benchmarks/bench_interop_openspiel.py`` at its defaults (tiny sizes) measures every
    game, No Thanks! (3+ players) and Taj Mahal included."""
    import csv
    from pathlib import Path

    script = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_interop_openspiel.py"
    done = subprocess.run([sys.executable, str(script), "--games", "1", "--repeat", "1",
                           "--warmup", "0", "--check", "--results", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    with (tmp_path / "interop_openspiel.csv").open() as f:
        rows = {r["game"]: r for r in csv.DictReader(f)}
    assert set(rows) == set(GAMES)
    for name, row in rows.items():
        assert int(row["players"]) == GAMES[name].default_player_count()
        assert float(row["adapter_us_per_step"]) > 0
