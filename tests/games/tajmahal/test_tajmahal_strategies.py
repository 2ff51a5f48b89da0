"""Strategies: registry and CLI, legality over every configuration, behaviour and strength."""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

from tajsim.errors import UserError
from tajsim.games.tajmahal.engine import enums as E
from tajsim.games.tajmahal.spec import SPEC
from tajsim.games.tajmahal.strategies.ids import N_PARAMS, STRATEGY_HEURISTIC, STRATEGY_ISMCTS
from tajsim.games.tajmahal.strategies.registry import (
    all_strategies,
    get_strategy,
    load_presets,
    parse_strategy,
    strategy_names,
)
from tajsim.play.arena import (
    entry,
    mean_by_entry,
    play_lineups,
    rotated_lineups,
    win_shares,
)
from tajsim.play.conformance import check_strategy_legality

PRESETS = ("balanced", "commodity", "network", "hoarder", "collector")
# Every strategy with settings cheap enough for legality checks.
LEGALITY = ("random", "greedy") + PRESETS + ("ismcts:iterations=6",
                                             "ismcts:iterations=6:horizon=0:rollout=0")


# ---------------------------------------------------------------------------
# Registry and CLI
# ---------------------------------------------------------------------------
def test_registry_names_ids_and_params():
    names = strategy_names()
    for name in ("random", "greedy", *PRESETS, "ismcts"):
        assert name in names
    for name in PRESETS:
        spec = get_strategy(name)
        assert spec.strategy_id == STRATEGY_HEURISTIC
        assert len(spec.param_names) == len(spec.params) == 16
        assert spec.description
    assert get_strategy("ismcts").strategy_id == STRATEGY_ISMCTS
    vectors = {name: get_strategy(name).param_vector() for name in PRESETS}
    for a in PRESETS:  # every preset is a different weight vector
        for b in PRESETS:
            if a < b:
                assert not np.allclose(vectors[a], vectors[b]), (a, b)


def test_parse_strategy_overrides_and_errors():
    spec, params = parse_strategy("balanced:connect=2.5:caution=0")
    assert params.shape == (N_PARAMS,)
    assert params[spec.param_names.index("connect")] == 2.5
    assert params[spec.param_names.index("caution")] == 0.0
    _, params = parse_strategy("ismcts:iterations=50")
    assert params[0] == 50
    with pytest.raises(UserError, match="unknown Taj Mahal strategy"):
        parse_strategy("nope")
    with pytest.raises(UserError, match="no parameter"):
        parse_strategy("balanced:nope=1")
    with pytest.raises(UserError, match="key=number"):
        parse_strategy("balanced:connect")


def test_presets_file_is_complete():
    presets = load_presets()
    assert set(PRESETS) <= set(presets)
    for preset in presets.values():
        assert preset["weights"].shape == (16,)


def test_cli_lists_strategies():
    from tajsim.cli.main import cli

    result = CliRunner().invoke(cli, ["strategies"])
    assert result.exit_code == 0, result.output
    for spec in all_strategies():
        assert spec.name in result.output
        assert spec.description[:30] in result.output
    assert "connect=" in result.output and "iterations=" in result.output


# ---------------------------------------------------------------------------
# Legality: every strategy, 2-5 players, both editions
# ---------------------------------------------------------------------------
CONFIGS = [(n, "2018") for n in (2, 3, 4, 5)] + [(n, "2000") for n in (3, 4, 5)]


@pytest.mark.parametrize("n_players,edition", CONFIGS)
def test_strategies_play_only_legal_actions(comp, n_players, edition):
    for k, name in enumerate(LEGALITY):
        games = 1 if name.startswith("ismcts") else 2
        check_strategy_legality(SPEC, name, n_games=games, n_players=n_players, edition=edition,
                                seed=31 + k, comp=comp,
                                opponents="balanced" if k % 2 else "random")


def test_all_strategies_at_one_table_in_the_batch_kernel(comp):
    names = ["greedy", "ismcts:iterations=10", "network", "hoarder", "collector"]
    entries = [entry(SPEC, s) for s in names]
    lineups = rotated_lineups(range(5), 5)
    results, setups = play_lineups(SPEC, entries, lineups, 3, comp=comp)
    assert (results["rank"] >= 1).all() and (results["rank"] <= 5).all()
    assert results["winner"].reshape(5, 5).any(axis=1).all()


# ---------------------------------------------------------------------------
# Behaviour and strength (fixed seeds, conservative thresholds)
# ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def vs_random(comp):
    """Each fast strategy in one seat against three random seats, 400 games each."""
    out = {}
    for name in ("greedy",) + PRESETS:
        lineups = rotated_lineups([0, 1, 1, 1], 400)
        results, _ = play_lineups(SPEC, [entry(SPEC, name), entry(SPEC, "random")], lineups,
                                  2024, comp=comp)
        wins, seats, _ = win_shares(results, lineups, 2)
        parts = {col: mean_by_entry(results, lineups, 2, col)[0]
                 for col in ("pts_commodity", "pts_connection", "pts_cards", "n_prestige",
                             "pts_special", "score")}
        out[name] = (wins[0] / seats[0], parts)
    return out


def test_greedy_and_presets_beat_random(vs_random):
    for name, (win, _) in vs_random.items():
        # parity is 25%; measured 66-97% (docs/strategies.md)
        assert win > 0.45, f"{name} wins only {win:.1%} against three random seats"


def test_greedy_beats_random_head_to_head_and_against_the_field(comp):
    """Issue 19: greedy took every bid for lost (caution 1) and withdrew at once nearly every
    visit, winning less against the field than random. 400 seeded games each; measured on 8000:
    99.6% of the wins head to head (was 79.3%), 27.6% against the field (was 1.7%, random 1.1%).
    """
    from tajsim.analysis.stats import wilson_interval

    entries = [entry(SPEC, "greedy"), entry(SPEC, "random")]
    lineups = rotated_lineups([0, 1, 0, 1], 400)
    results, _ = play_lineups(SPEC, entries, lineups, 2024, comp=comp)
    wins, _, games = win_shares(results, lineups, 2)
    assert wins[0] / games[0] > 0.9, f"greedy takes only {wins[0] / games[0]:.1%} head to head"
    # One seat of each of greedy and random at every table; the other seats from the presets.
    field = [entry(SPEC, name) for name in ("greedy", "random") + PRESETS]
    rng = np.random.default_rng(19)
    lineups = rng.integers(2, len(field), size=(400, 4))
    lineups[np.arange(400), np.arange(400) % 4] = 0
    lineups[np.arange(400), (np.arange(400) + 1 + np.arange(400) // 4 % 3) % 4] = 1
    results, _ = play_lineups(SPEC, field, lineups, 2025, comp=comp)
    wins, seats, _ = win_shares(results, lineups, len(field))
    greedy_low, _ = wilson_interval(wins[0], seats[0])
    _, random_high = wilson_interval(wins[1], seats[1])
    assert greedy_low > random_high, (wins[:2], seats[:2])


@pytest.mark.parametrize("name", ["greedy", "balanced", "network"])
def test_crown_palace_spreads_rather_than_stacks(comp, name):
    """R9 lets the crown palace join the player's own palace on one city, where it links
    nothing new and opens no new road: a city holding no palace of the player's is worth as much
    or more, and wins a tie. At visit 0 the advisor palace takes the city with most roads toward
    provinces still to come (the heuristic once counted them again for the crown); at the last
    visit every city ties (no road to grow, no other palace to link)."""
    from tajmahal_helpers import (
        WITHDRAW,
        Cards,
        act,
        cities_of,
        city,
        legal,
        neighbours,
        province_of,
    )
    from test_tajmahal_rules import solo

    from tajsim.games.tajmahal.strategies.nb import choose_action_nb

    spec, params = parse_strategy(name)
    for visit in (0, E.N_VISITS - 1):
        cards = Cards(comp)
        b = solo(comp, cards, cards("red", "mogul", "vizier"), visit=visit)
        b.clear_bonus(b.province)
        state = b.build()
        here = cities_of(comp, b.province)
        roads = [sum(province_of(comp, x) != b.province
                     and state[E.S_PROVINCE_TILE + province_of(comp, x)] > visit
                     for x in neighbours(comp, c)) for c in here]
        first = here[int(np.argmax(roads))]
        act(state, comp, WITHDRAW, city(first))
        assert state[E.S_PHASE] == E.PHASE_CROWN
        options = np.array(legal(state, comp), np.int64)
        assert city(first) in options
        prng = np.zeros(E.MAX_PLAYERS, np.int64)
        chosen = choose_action_nb(spec.strategy_id, state, comp, 0, params, prng, options,
                                  len(options))
        assert chosen != city(first), (name, visit, roads)


@pytest.fixture(scope="module")
def vs_balanced(comp):
    """Each preset in one seat against three balanced seats: score components."""
    out = {}
    for name in PRESETS:
        lineups = rotated_lineups([0, 1, 1, 1], 400)
        results, _ = play_lineups(SPEC, [entry(SPEC, name), entry(SPEC, "balanced")], lineups,
                                  77, comp=comp)
        out[name] = {col: mean_by_entry(results, lineups, 2, col)[0]
                     for col in ("pts_commodity", "pts_connection", "pts_cards", "n_prestige",
                                 "score")}
    return out


def test_presets_play_visibly_differently(vs_balanced):
    """Each archetype leads the score component it is named for (means over 400 games)."""
    s = vs_balanced
    others = lambda name: [p for p in PRESETS if p != name]  # noqa: E731
    assert all(s["commodity"]["pts_commodity"] > s[o]["pts_commodity"] + 3
               for o in others("commodity"))
    assert all(s["network"]["pts_connection"] > s[o]["pts_connection"] + 1
               for o in others("network"))
    assert all(s["hoarder"]["pts_cards"] > s[o]["pts_cards"] + 1.5 for o in others("hoarder"))
    assert all(s["collector"]["n_prestige"] > s[o]["n_prestige"] + 0.2
               for o in others("collector"))


def test_ismcts_spends_its_iterations(comp):
    """More iterations change decisions (the search is not a pass-through)."""
    from tajsim.games.tajmahal.play.nb import start_game_nb
    from tajsim.games.tajmahal.strategies.ismcts import ismcts_search

    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(comp, 4, 0, 5, 0, 0, state, prng)
    legal = np.empty(E.N_ACTIONS, np.int64)
    from tajsim.games.tajmahal.engine import nb

    n = nb.legal_actions_nb(state, comp, legal)

    def visits_of(iterations: int) -> np.ndarray:
        _, params = parse_strategy(f"ismcts:iterations={iterations}")
        visits = np.zeros(n)
        ismcts_search(state.copy(), comp, int(state[E.S_CUR]), params, prng.copy(), legal, n,
                      visits)
        return visits

    few, many = visits_of(1), visits_of(300)
    # Equivalent cards share one child: visits are counted per group, so their sum is the
    # iterations or more; the search prefers some moves (an even spread would not)
    assert many.sum() >= 300 and many.max() <= 300
    assert many.max() > 1.5 * many.mean()
    assert int(np.argmax(many)) != int(np.argmax(few))  # the most visited move moved


# ---------------------------------------------------------------------------
# Differential test of the view kernels
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("n_players,edition", [(2, E.EDITION_2018), (4, E.EDITION_2018),
                                               (5, E.EDITION_2000)])
def test_mask_view_equals_card_walk(comp, n_players, edition):
    """``build_view`` (popcounts over location masks) equals ``build_view_slow`` (a walk over
    the cards) for every seat at every decision of whole games, reshuffles and (2 players)
    protests included."""
    from tajsim.games.tajmahal.engine.nb import apply_action_nb, legal_actions_nb
    from tajsim.games.tajmahal.play.nb import start_game_nb
    from tajsim.games.tajmahal.strategies.features import VIEW_SIZE, build_view, build_view_slow
    from tajsim.games.tajmahal.strategies.nb import choose_action_nb

    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    legal = np.empty(E.N_ACTIONS, np.int64)
    fast, slow = np.empty(VIEW_SIZE), np.empty(VIEW_SIZE)
    params = np.zeros(N_PARAMS)
    checked = reshuffles = protests = 0
    for game_id in range(4):
        start_game_nb(comp, n_players, edition, 11, game_id, game_id, state, prng)
        while state[E.S_PHASE] != E.PHASE_GAME_OVER:
            for p in range(n_players):
                build_view(state, comp, p, fast)
                build_view_slow(state, comp, p, slow)
                assert np.array_equal(fast, slow), (game_id, int(state[E.S_STEP]), p)
                checked += 1
            n = legal_actions_nb(state, comp, legal)
            mover = int(state[E.S_CUR])
            strategy = 1 if game_id % 2 else 0  # greedy keeps cards, random spends them
            action = legal[0] if n == 1 else choose_action_nb(strategy, state, comp, mover,
                                                              params, prng, legal, n)
            apply_action_nb(state, comp, action)
        reshuffles += int(state[E.S_N_RESHUFFLES])
        protests += int(state[E.S_N_PROTESTS])
    assert checked > 500
    assert reshuffles > 0 or n_players == 2  # two players rarely empty the deck
    assert protests > 0 or n_players > 2  # unrest and protests are the 2-player rules


def test_ismcts_time_budget_replaces_the_iteration_count(comp):
    """``ms=`` searches for that much thread CPU time whatever ``iterations`` says; without it
    the parameter vector is the one the records were made with (slot 8 was unused, 0).
    Iterations are counted, not timed: ungrouped, the root children's visits add up to them."""
    from tajsim.games.tajmahal.engine import nb
    from tajsim.games.tajmahal.play.nb import start_game_nb
    from tajsim.games.tajmahal.strategies.ismcts import I_MS, ismcts_search

    assert parse_strategy("ismcts")[1][I_MS] == 0.0
    state = np.zeros(E.STATE_SIZE, np.int64)
    prng = np.zeros(E.MAX_PLAYERS, np.int64)
    start_game_nb(comp, 2, 0, 5, 0, 0, state, prng)
    legal = np.empty(E.N_ACTIONS, np.int64)
    n = nb.legal_actions_nb(state, comp, legal)
    assert n > 1

    def iterations_of(text):
        visits = np.zeros(n)
        action = ismcts_search(state, comp, int(state[E.S_CUR]), parse_strategy(text)[1],
                               prng.copy(), legal, n, visits)
        assert action in legal[:n]
        return int(visits.sum())

    assert iterations_of("ismcts:group=0:iterations=40") == 40
    short = iterations_of("ismcts:group=0:iterations=1:ms=2")
    long = iterations_of("ismcts:group=0:iterations=1:ms=50")
    # an iteration costs a few us: 2 ms is far more than one, 50 ms far more than 2 ms
    assert 1 < short < long / 4
    # a budget stops a search whose iteration count alone would take seconds
    assert iterations_of("ismcts:group=0:iterations=100000:ms=1") < 100000
