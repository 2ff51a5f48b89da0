"""Stochastic and restricted play in Taj Mahal (issue 19, items 1 and 4): temperature and
forbid for every compiled strategy."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import tajsim
from tajsim.cli.main import cli
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.engine.nb import apply_action_nb, legal_actions_nb
from tajsim.games.tajmahal.play.nb import start_game_nb
from tajsim.games.tajmahal.spec import SPEC
from tajsim.games.tajmahal.strategies.ids import STRATEGY_HEURISTIC
from tajsim.games.tajmahal.strategies.nb import choose_action_nb
from tajsim.games.tajmahal.strategies.restrictions import RESTRICTIONS, forbidden, lifted

RESULT_COLUMNS = [c for c in E.RESULT_DTYPE.names if c != "strategy_id"]


def play(strategies, games: int = 40, seed: int = 3, players: int = 4, **kwargs):
    return tajsim.simulate(games, players=players, strategies=strategies, seed=seed,
                           game="tajmahal", workers=1, progress=False, **kwargs)


def test_temperature_zero_and_forbid_none_are_todays_play():
    """The options at their defaults give the records of the plain strategies (the golden
    transcripts and fixed-seed frames saved before the options existed check the same)."""
    plain = play("balanced,greedy,commodity,ismcts:iterations=4", games=8)
    same = play("balanced:temperature=0,greedy:forbid=none,commodity:temperature=0:forbid=none,"
                "ismcts:iterations=4:temperature=0", games=8)
    pd.testing.assert_frame_equal(plain[RESULT_COLUMNS], same[RESULT_COLUMNS])


def bid_states(comp, count: int = 6):
    """States where the seat to move bids with at least three legal actions (balanced play)."""
    _, params = SPEC.strategies.parse("balanced")
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    found = []
    start_game_nb(comp, 4, E.EDITION_2018, 9, 0, 0, state, prng)
    while state[E.S_PHASE] != E.PHASE_GAME_OVER and len(found) < count:
        n = legal_actions_nb(state, comp, legal)
        if state[E.S_PHASE] == E.PHASE_BID and n >= 3 and state[E.S_VISIT] >= 2:
            found.append((state.copy(), prng.copy()))
        action = legal[0] if n == 1 else choose_action_nb(
            STRATEGY_HEURISTIC, state, comp, int(state[E.S_CUR]), params, prng, legal, n)
        apply_action_nb(state, comp, action)
    return found


@pytest.mark.parametrize("name", ["balanced", "greedy"])
def test_a_temperature_draws_from_the_seat_stream_only(comp, name):
    """At 0 a decision draws nothing and is always the same; above 0 it draws once from the
    seat's own stream (no other seat's) and different streams give different actions."""
    spec, cold = SPEC.strategies.parse(name)
    _, warm = SPEC.strategies.parse(f"{name}:temperature=1")
    legal = np.empty(E.N_ACTIONS, np.int64)
    distinct_warm = 0
    for state, prng in bid_states(comp):
        p = int(state[E.S_CUR])
        n = legal_actions_nb(state, comp, legal)
        before = legal[:n].copy()
        cold_actions, warm_actions = set(), set()
        for k in range(40):
            streams = prng.copy()
            streams[p] ^= k * 7919 + 1
            mine = streams.copy()
            cold_actions.add(int(choose_action_nb(spec.strategy_id, state.copy(), comp, p, cold,
                                                  mine, legal, n)))
            assert np.array_equal(mine, streams)  # nothing drawn at temperature 0
            mine = streams.copy()
            warm_actions.add(int(choose_action_nb(spec.strategy_id, state.copy(), comp, p, warm,
                                                  mine, legal, n)))
            changed = np.flatnonzero(mine != streams)
            assert changed.tolist() == [p]  # the seat's own stream, and only it
        assert np.array_equal(legal[:n], before)  # the caller's list is left as it was
        assert len(cold_actions) == 1 and warm_actions <= set(before.tolist())
        distinct_warm += len(warm_actions) > 1
    assert distinct_warm >= 3  # above 0 the decisions vary


def test_a_temperature_varies_the_games_reproducibly():
    cold = play("balanced", games=60)
    warm = play("balanced:temperature=0.5", games=60)
    again = play("balanced:temperature=0.5", games=60)
    pd.testing.assert_frame_equal(warm, again)  # the seed decides every draw
    assert not cold[RESULT_COLUMNS].equals(warm[RESULT_COLUMNS])
    scores = lambda f: set(map(tuple, f.pivot(index="game_id", columns="seat",  # noqa: E731
                                               values="score").to_numpy()))
    assert len(scores(warm)) >= 55  # distinct outcomes, game after game
    # a greater temperature plays further from the heuristic's choice
    hot = play("balanced:temperature=8", games=60)
    assert hot["score"].mean() < warm["score"].mean() < cold["score"].mean()


def test_ismcts_takes_the_temperature_for_its_rollouts():
    cold = play("ismcts:iterations=8,balanced", games=4)
    warm = play("ismcts:iterations=8:temperature=1,balanced", games=4)
    assert not cold[RESULT_COLUMNS].equals(warm[RESULT_COLUMNS])


@pytest.mark.parametrize("temperature", [0, 1])
@pytest.mark.parametrize("restriction", RESTRICTIONS, ids=lambda r: r.name)
def test_each_restriction_removes_its_family(comp, restriction, temperature):
    """Step by step, a restricted seat (at temperature 0: the heuristic's own choice among what
    is left; at 1 every decision drawn, so the whole legal list is exercised) never takes an
    action of its family unless every legal action belongs to it (then the restriction is
    lifted), and always takes a legal action."""
    spec, params = SPEC.strategies.parse(
        f"balanced:temperature={temperature}:forbid={restriction.name}")
    _, plain = SPEC.strategies.parse("balanced")
    mask = 1 << restriction.bit
    taken = lifts = in_family = 0
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    for game in range(4):
        start_game_nb(comp, 4, game % 2, 11, game, game, state, prng)
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            n = legal_actions_nb(state, comp, legal)
            p = int(state[E.S_CUR])
            restricted = p % 2 == game % 2
            vec = params if restricted else plain
            action = legal[0] if n == 1 else choose_action_nb(
                spec.strategy_id, state, comp, p, vec, prng, legal, n)
            assert action in legal[:n]
            if restricted and n > 1:
                in_family += sum(forbidden(state, comp, a, mask) for a in legal[:n])
                if forbidden(state, comp, action, mask):
                    assert lifted(state, comp, legal, n, mask), (restriction.name, action)
                    lifts += 1
                taken += 1
            apply_action_nb(state, comp, action)
    assert taken > 100 and in_family > 0  # the family was on offer, and refused
    if restriction.name not in ("connections", "blind_withdraw"):
        assert lifts == 0  # withdrawing, or another card, always remains


@pytest.mark.parametrize("strategy", ["balanced", "random", "greedy:temperature=0.5",
                                      "ismcts:iterations=6"])
def test_restrictions_show_in_the_records(strategy):
    games = 6 if strategy.startswith("ismcts") else 30
    frame = play(f"{strategy}:forbid=goods+special_cards,balanced", games=games)
    mine = frame[frame["strategy"] != "balanced"]
    assert (mine[["n_province_tiles", "pts_special"]] == 0).all().all()
    others = frame[frame["strategy"] == "balanced"]
    assert others["n_province_tiles"].sum() > 0


def test_connections_forbidden_cut_the_connection_points():
    frame = play("balanced:forbid=connections,balanced", games=60)
    mine = frame[frame["strategy"] != "balanced"]["pts_connection"].mean()
    plain = frame[frame["strategy"] == "balanced"]["pts_connection"].mean()
    assert mine < 0.5 * plain


@pytest.mark.parametrize("text, words", [
    ("balanced:temperature=-0.5", "out of range; expected a number from 0 to 1,000"),
    ("balanced:temperature=nan", "temperature=nan in 'balanced:temperature=nan' is not a finite "
                                 "number"),
    ("balanced:forbid=palaces", "unknown restriction 'palaces'"),
    ("ismcts:forbid=goods+gold", "unknown restriction 'gold'"),
])
def test_bad_options_are_one_line_in_the_cli(text, words):
    result = CliRunner().invoke(cli, ["simulate", "--game", "tajmahal", "-n", "4", "-s", text])
    assert result.exit_code == 2
    assert words in result.output and result.output.strip().count("\n") == 0


def test_strategies_lists_the_restrictions():
    result = CliRunner().invoke(cli, ["strategies", "--game", "tajmahal", "--no-params"])
    assert result.exit_code == 0
    for restriction in RESTRICTIONS:
        assert f"{restriction.name} " in result.output
    assert "temperature: a number from 0 to 1,000" in result.output
