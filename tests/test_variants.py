"""The designer's variants as rule options (issue 40, section 2): Maharani's ``round_end``,
Maharaja's ``reversed_draft``, ``random_draft`` and ``half_monk``. Each changes what it should
and nothing else, is checked by the conformance suite, plays the same records in any number of
workers and on the GPU (numba-cuda's simulator), and a bad name is a one-line error."""

from __future__ import annotations

import pytest
from cli_checks import invoke, one_line_error
from test_gpu import simulate_cases

import tajsim
from tajsim.games.maharaja.engine import enums as JE
from tajsim.games.maharani.engine import enums as NE
from tajsim.games.registry import get_game
from tajsim.play.conformance import check_kernel_game, kernel_game_actions

MAHARANI = get_game("maharani")
MAHARAJA = get_game("maharaja")


# ---------------------------------------------------------------------------------------------
# Maharani: round_end (V1)
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("n", [2, 3, 4])
def test_round_end_gives_every_seat_as_many_turns(n):
    """With round_end every game that ends by the variant ends after the last seat's turn with
    the bag empty; the moves before that are the default game's (the option changes nothing
    earlier), and the default game is never shorter."""
    by_variant = 0
    for g in range(12):
        _, _, off, a_off = kernel_game_actions(MAHARANI, n, seed=5, game_id=g)
        _, _, on, a_on = kernel_game_actions(MAHARANI, n, seed=5, game_id=g,
                                             options={"round_end": True})
        assert list(a_on) == list(a_off[:len(a_on)])
        reason = on[NE.S_END_REASON]
        if reason == NE.END_ROUND:
            by_variant += 1
            assert on[NE.S_BAG_N] == 0 and (on[NE.S_TURN] + 1) % n == 0
            assert len(a_on) < len(a_off)
        else:  # a full (or stuck) board ends it at once, as by default
            assert reason in (NE.END_COMPLETE, NE.END_STUCK)
            assert list(a_on) == list(a_off)
        assert off[NE.S_END_REASON] != NE.END_ROUND
    assert by_variant > 0


@pytest.mark.parametrize("n", [2, 4])
def test_round_end_conformance(n):
    for g in range(3):
        check_kernel_game(MAHARANI, n, seed=9, game_id=g, options={"round_end": True})


# ---------------------------------------------------------------------------------------------
# Maharaja: reversed_draft (V1), random_draft (V2), half_monk (V3)
# ---------------------------------------------------------------------------------------------
def draft_order(n, seed, game_id, options):
    game = tajsim.Game(n, game="maharaja", seed=seed, game_id=game_id, options=options)
    seats = []
    while int(game.state[JE.S_PHASE]) == JE.PHASE_DRAFT:
        seats.append(game.current_player)
        game.apply(game.legal_actions()[0])
    return seats, int(game.state[JE.S_ORDER_INDEX])


@pytest.mark.parametrize("n", [2, 3, 5])
def test_draft_orders(n):
    default, order = draft_order(n, 3, 1, {})
    assert default == list(range(n))
    rev, rev_order = draft_order(n, 3, 1, {"reversed_draft": True})
    assert rev == list(range(n))[::-1] and rev_order == order  # the setup is the same
    seen = set()
    for g in range(12):
        perm, perm_order = draft_order(n, 3, g, {"random_draft": True})
        assert sorted(perm) == list(range(n))
        assert perm == draft_order(n, 3, g, {"random_draft": True})[0]  # from the seeds
        assert perm_order == draft_order(n, 3, g, {})[1]  # the governor order is unchanged
        seen.add(tuple(perm))
    assert len(seen) > 1


@pytest.mark.parametrize("options", [{"reversed_draft": True}, {"random_draft": True},
                                     {"half_monk": True}])
def test_maharaja_variants_conformance(options):
    for g in range(2):
        check_kernel_game(MAHARAJA, 4, seed=13, game_id=g, options=options)
        check_kernel_game(MAHARAJA, 3, seed=13, game_id=g, strategy="balanced",
                          options=options)


def test_half_monk_makes_the_monk_pay():
    """The bank pays less for the Monk, and the records still balance (tolls received = paid +
    the bank's part, checked by the invariants above); the draft is untouched."""
    kw = dict(games=120, players=4, strategies="balanced", game="maharaja", seed=4, progress=False)
    off = tajsim.simulate(**kw)
    on = tajsim.simulate(**kw, options={"half_monk": True})
    assert on.groupby("game_id").monk_tolls.first().sum() < \
        off.groupby("game_id").monk_tolls.first().sum()
    assert (on.card_first.to_numpy() == off.card_first.to_numpy()).all()


# ---------------------------------------------------------------------------------------------
# Every variant: records, workers, GPU, bad names
# ---------------------------------------------------------------------------------------------
VARIANTS = [("maharani", {"round_end": True}), ("maharaja", {"reversed_draft": True}),
            ("maharaja", {"random_draft": True}), ("maharaja", {"half_monk": True})]


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_records_identical_across_workers(game, options):
    kw = dict(games=64, players=3, strategies="balanced,random", game=game, seed=8,
              options=options, progress=False, chunk_size=16)
    one = tajsim.simulate(**kw, workers=1)
    two = tajsim.simulate(**kw, workers=2)
    cols = [c for c in one.columns if c != "elapsed"]
    assert one[cols].equals(two[cols])
    base = tajsim.simulate(**{**kw, "options": {}}, workers=1)
    assert not one[cols].equals(base[cols])  # the option is played


def test_gpu_simulator_with_the_variants():
    cases = [{"game": "maharani", "players": 3, "edition": "2012", "games": 1, "seed": 31,
              "options": {"round_end": True}, "strategies": ["balanced", "random", "greedy"]},
             {"game": "maharaja", "players": 3, "edition": "basic", "games": 1, "seed": 33,
              "options": {"random_draft": True, "half_monk": True},
              "strategies": ["balanced", "random", "hoarder"]},
             {"game": "maharaja", "players": 2, "edition": "basic", "games": 1, "seed": 35,
              "options": {"reversed_draft": True}, "strategies": ["balanced", "random"]}]
    for report in simulate_cases(cases):
        assert report["differences"] == []


def test_bad_variant_name_is_one_line():
    one_line_error(invoke("simulate", "-g", "maharaja", "-n", "10", "--option",
                          "reverse_draft=on"), "unknown rule option 'reverse_draft'")
    one_line_error(invoke("simulate", "-g", "maharani", "-n", "10", "--option",
                          "round_ends=on"), "unknown rule option 'round_ends'")


def test_options_are_labelled_variants_and_off_by_default():
    for spec, names in ((MAHARANI, ["round_end"]),
                        (MAHARAJA, ["reversed_draft", "random_draft", "half_monk"])):
        assert set(names) <= {o.name for o in spec.options}
        for o in spec.options:
            if o.name in names:
                assert o.default is False and "VARIANT" in o.description
        assert spec.rules_code() == spec.rules_code(None, {n: False for n in names})


# ---------------------------------------------------------------------------------------------
# The variant comparison (tajsim.analysis.variants) and its report section
# ---------------------------------------------------------------------------------------------
def test_variant_comparison_measures():
    import pandas as pd

    from tajsim.analysis.variants import variant_comparison
    frames = []
    for variant, opts in (("defaults", {}), ("round_end", {"round_end": True})):
        for strategies in ("random", "greedy,random"):
            df = tajsim.simulate(games=40, players=2, strategies=strategies, game="maharani",
                                 seed=2, options=opts, progress=False)
            frames.append(df.assign(variant=variant, run_id=f"{variant}-{strategies}"))
    long = variant_comparison(pd.concat(frames, ignore_index=True))
    mirror = long[(long["level"] == "random") & (long["variant"] == "defaults")]
    measures = set(mirror["measure"])
    assert {"seat_0", "seat_1", "max_seat_deviation", "ties", "length"} <= measures
    seats = mirror[mirror["measure"].str.startswith("seat_")]
    assert abs(seats["estimate"].sum() - 1) < 1e-9 and (seats["n"] == 40).all()
    mixed = long[long["measure"] == "stronger_share"]
    assert set(mixed["level"]) == {"greedy vs random"} and (mixed["estimate"] > 0.5).all()
    assert ((long["ci_low"] <= long["estimate"] + 1e-12)
            & (long["estimate"] <= long["ci_high"] + 1e-12)).all()
