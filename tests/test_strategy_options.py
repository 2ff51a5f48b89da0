"""The generic strategy options (issue 19): temperature and forbid, parsed once for every game
(``tajsim.strategies.spec``) and drawn in integer arithmetic (``tajsim.engine.choice``)."""

from __future__ import annotations

import numpy as np
import pytest

from tajsim.engine import choice
from tajsim.engine.choice import EXP_ONE, EXP_STEPS, EXP_TABLE, softmax_index, softmax_weight
from tajsim.engine.game_options import Restriction
from tajsim.errors import UserError
from tajsim.games.registry import get_game
from tajsim.strategies.spec import (
    FORBID,
    GENERIC_OPTIONS,
    GENERIC_SLOTS,
    TEMPERATURE,
    StrategyRegistry,
    StrategySpec,
    float_param,
    forbid_names,
)

FAMILIES = (Restriction("alpha", 0, "the alpha actions"), Restriction("beta", 3, "beta"))


def registry(generic: bool = True) -> StrategyRegistry:
    reg = StrategyRegistry("Toy", 6, generic_options=generic,
                           restrictions=FAMILIES if generic else ())
    reg.register(StrategySpec("plain", 1, "a toy", (2.0, 3.0), ("a", "b"),
                              param_ranges=(float_param(0, 10),) * 2, deterministic=True))
    reg.register(StrategySpec("dice", 0, "draws chance"))
    return reg


def test_the_slots_agree_with_the_kernels():
    assert GENERIC_OPTIONS == (TEMPERATURE, FORBID)
    assert GENERIC_SLOTS == choice.GENERIC_SLOTS == 2


def test_options_go_to_the_last_two_slots():
    spec, vec = registry().parse("plain:temperature=0.5:forbid=beta+alpha:b=4")
    assert vec.tolist() == [2.0, 4.0, 0.0, 0.0, 0.5, 9.0]  # mask 1 << 0 | 1 << 3
    assert forbid_names(int(vec[-1]), spec.restrictions) == "alpha+beta"
    _, vec = registry().parse("plain:forbid=none")
    assert vec[-1] == 0 and vec[-2] == 0
    # the mask already parsed passes again (param_vector checks what parse returned)
    assert spec.param_vector({"forbid": 9.0})[-1] == 9.0
    assert spec.check_vector(vec) is vec


@pytest.mark.parametrize("text, words", [
    ("plain:temperature=-1", "temperature=-1 in 'plain:temperature=-1' is out of range; "
                             "expected a number from 0 to 1,000"),
    ("plain:temperature=nan", "is not a finite number"),
    ("plain:temperature=2000", "out of range"),
    ("plain:forbid=gamma", "unknown restriction 'gamma'; expected none or names joined by + "
                           "from: alpha, beta"),
    ("plain:forbid=alpha+", "unknown restriction ''"),
    ("plain:forbid=none+alpha", "unknown restriction 'none'"),
    ("plain:temperature=1:temperature=2", "given twice"),
    ("plain:heat=1", "expected one of: a, b, temperature, forbid"),
])
def test_bad_values_are_one_line_errors(text, words):
    with pytest.raises(UserError) as err:
        registry().parse(text)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_bad_mask_in_a_vector_is_refused():
    spec = registry().get("plain")
    vec = spec.param_vector()
    vec[-1] = 2.0  # bit 1: no family
    with pytest.raises(UserError, match="restriction mask 2 is not made of this game's"):
        spec.check_vector(vec)


def test_a_game_without_the_options_says_so():
    with pytest.raises(UserError, match="do not take the generic options"):
        registry(generic=False).parse("plain:temperature=1")
    # a real game's registry without them (No Thanks!: none of its kernels reads them)
    with pytest.raises(UserError, match="do not take the generic options"):
        get_game("nothanks").strategies.parse(
            f"{get_game('nothanks').strategies.names()[0]}:temperature=1")


def test_registry_checks_its_declarations():
    with pytest.raises(ValueError, match="need the generic options"):
        StrategyRegistry("Toy", 4, restrictions=FAMILIES)
    with pytest.raises(ValueError, match="must be distinct"):
        StrategyRegistry("Toy", 4, generic_options=True,
                         restrictions=(FAMILIES[0], Restriction("again", 0, "")))
    reg = StrategyRegistry("Toy", 3, generic_options=True)
    with pytest.raises(ValueError, match="the kernels take 1"):
        reg.register(StrategySpec("big", 0, "", (1.0, 2.0), ("a", "b"),
                                  param_ranges=(float_param(0, 9),) * 2))


def test_determinism_follows_the_temperature():
    reg = registry()
    plain, vec = reg.parse("plain")
    assert plain.is_deterministic(vec)
    assert not plain.is_deterministic(reg.parse("plain:temperature=0.25")[1])
    assert plain.is_deterministic(reg.parse("plain:temperature=0:forbid=alpha")[1])
    assert not reg.get("dice").is_deterministic()


def test_exp_table_is_the_rounded_exponential():
    assert EXP_TABLE[0] == EXP_ONE and np.all(np.diff(EXP_TABLE) <= 0)
    z = np.arange(EXP_TABLE.size)
    assert np.all(np.abs(EXP_TABLE - EXP_ONE * np.exp(-z / EXP_STEPS)) <= 0.5)
    assert EXP_TABLE[-1] <= 1  # the table ends where the weight rounds to nothing
    # past the table, and for huge gaps (no overflow), nothing
    assert softmax_weight(16 * 1000, 1000) == 0 and softmax_weight(1 << 52, 3) == 0
    assert softmax_weight(0, 7) == EXP_ONE and softmax_weight(-5, 7) == EXP_ONE


def test_choice_frequencies_follow_the_softmax():
    """A constructed decision: five actions at gaps 0, 0.5, 1, 2 and 20 temperatures below the
    best (t = 1024 units). 40,000 seeded draws: a chi-square test against the declared
    probabilities (the integer weights, which are exp(-gap / T) to within 1/256 of a unit),
    and the last action, 20 temperatures down, is never drawn."""
    t = 1024
    values = np.array([100_000, 100_000 - 512, 100_000 - 1024, 100_000 - 2048,
                       100_000 - 20 * 1024], np.int64)
    weights = np.array([softmax_weight(values.max() - v, t) for v in values], np.float64)
    expected = weights / weights.sum()
    exact = np.exp(-(values.max() - values) / t)
    assert np.allclose(expected, exact / exact.sum(), atol=2e-3)
    prng = np.array([12345, 0, 0, 0], np.int64)
    draws = 40_000
    counts = np.zeros(values.size, np.int64)
    for _ in range(draws):
        counts[softmax_index(values, 0, values.size, t, prng, 0, 0)] += 1
    assert counts[-1] == 0
    seen = expected > 0
    chi2 = float((((counts - draws * expected) ** 2)[seen] / (draws * expected[seen])).sum())
    # 3 degrees of freedom: P(chi2 > 21.1) = 1e-4
    assert chi2 < 21.1, (counts, draws * expected)
    # and a wrong law is rejected: the frequencies are not uniform over the first four
    uniform = np.array([0.25] * 4 + [0.0])
    chi2_uniform = float((((counts - draws * uniform) ** 2)[:4] / (draws * uniform[:4])).sum())
    assert chi2_uniform > 1000


def test_only_the_seats_own_stream_advances():
    prng = np.array([1, 2, 3, 4], np.int64)
    values = np.array([5, 4, 3], np.int64)
    softmax_index(values, 0, 3, 1, prng, 2, 0)
    assert prng.tolist()[:2] == [1, 2] and prng[3] == 4 and prng[2] != 3


def test_offsets_and_a_single_action():
    values = np.array([-1, -1, 7, 7, 7], np.int64)
    prng = np.array([9, 9], np.int64)
    picks = {softmax_index(values, 2, 3, 1 << 20, prng, 1, 0) for _ in range(200)}
    assert picks == {0, 1, 2}  # equal values: each drawn
    assert softmax_index(values, 2, 1, 5, prng, 0, 0) == 0


@pytest.mark.parametrize("game, search", [("tajmahal", "ismcts"), ("maharaja", "search"),
                                          ("maharani", "mcts")])
def test_a_search_under_a_time_budget_costs_by_its_budget_not_its_iterations(game, search):
    registry = get_game(game).strategies
    cost = {text: registry.parse(text)[0].relative_cost(registry.parse(text)[1])
            for text in (f"{search}:ms=1", f"{search}:ms=8", f"{search}:ms=8:iterations=5",
                         f"{search}:iterations=10", f"{search}:iterations=20")}
    assert cost[f"{search}:ms=8"] == pytest.approx(8 * cost[f"{search}:ms=1"])
    assert cost[f"{search}:ms=8:iterations=5"] == cost[f"{search}:ms=8"]
    assert cost[f"{search}:iterations=20"] == pytest.approx(2 * cost[f"{search}:iterations=10"])
