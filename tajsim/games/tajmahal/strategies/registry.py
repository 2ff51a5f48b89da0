"""Taj Mahal's strategies: name -> compiled id, description and parameters.

Compiled strategies are picked by integer id inside the kernels (``choose_action_nb``).
Parametric strategies share one id and differ by their weight vector; each named preset is
registered as its own entry so that ``--strategies balanced,random`` works everywhere.

Registered names (:data:`REGISTRY`, a :class:`~tajsim.strategies.spec.StrategyRegistry`):

* ``random`` - uniform over the legal actions;
* ``greedy`` - one-step look-ahead in raw points;
* the heuristic presets from ``presets.toml`` (``balanced``, ``commodity``, ``network``,
  ``hoarder``, ``collector`` and, once ``tajsim tune`` has run, ``tuned``);
* ``ismcts`` - information-set Monte Carlo tree search;
* ``learned`` - a linear policy over per-action features fitted to imitate ``ismcts`` (its
  weights in ``data/learned.toml``, written by ``tajsim train --game tajmahal``);
* ``net`` - a small policy-and-value network over the seat's observation (``net.py``), its
  weights in ``data/net_weights.npz`` (written by ``tajsim train --game tajmahal --agent net``;
  the environment variable ``TAJSIM_TAJMAHAL_NET`` names another file), registered when that
  file exists.

``REGISTRY.parse("name:key=value:...")`` overrides parameters by name. Every compiled strategy
also takes the generic options ``temperature`` (one unit = one point of the heuristic's values;
``random`` ignores it) and ``forbid`` (the families of ``restrictions.RESTRICTIONS``): the last
two slots of the vector (:mod:`tajsim.engine.choice`). Pure-Python strategies
(``py:path/to/file.py``) are not compiled; see :mod:`tajsim.strategies.python_policy`.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

import numpy as np

from tajsim.engine.game_options import TuningSpace
from tajsim.engine.net_switch import net_params as shared_net_params
from tajsim.engine.net_switch import with_net_rollout
from tajsim.engine.net_weights import NetWeights, load_wing_net_file
from tajsim.engine.net_weights import net_file as shared_net_file
from tajsim.games.tajmahal.strategies.heuristic import WEIGHT_NAMES
from tajsim.games.tajmahal.strategies.ids import (
    LEARNED_OFFSET,
    N_LEARNED_SLOTS,
    N_PARAMS,
    N_WEIGHTS,
    NET_FP_SLOT,
    ROLLOUT_NET,
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_ISMCTS,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_RANDOM,
    kernel_switches,
)
from tajsim.games.tajmahal.strategies.ismcts import I_ROLLOUT, ISMCTS_PARAM_NAMES, ROLLOUT_LEARNED
from tajsim.games.tajmahal.strategies.learned import FEATURE_NAMES, N_FEATURES
from tajsim.games.tajmahal.strategies.net_weights import FORMAT
from tajsim.games.tajmahal.strategies.restrictions import RESTRICTIONS
from tajsim.strategies.learned_file import LearnedFile, load_learned_file
from tajsim.strategies.presets import load_weight_presets
from tajsim.strategies.spec import (
    INTERNAL_SLOT,
    ParamRange,
    StrategyRegistry,
    StrategySpec,
    bool_param,
    float_param,
    int_param,
)

REGISTRY = StrategyRegistry("Taj Mahal", N_PARAMS, kernel_switches, generic_options=True,
                            restrictions=RESTRICTIONS)
# Module-level names of the registry's methods (the wing's own code and its tests use them).
register = REGISTRY.register
strategy_names = REGISTRY.names
all_strategies = REGISTRY.all
get_strategy = REGISTRY.get
parse_strategy = REGISTRY.parse

PRESETS_FILE = "presets.toml"
#: The learned policy's shipped weights (``tajsim train --game tajmahal --install`` writes it).
LEARNED_FILE = "data/learned.toml"
#: The hand-written preset the learned policy starts from (its ``value`` feature) and is
#: measured against: the best of the ladder in docs/strategies.md.
LEARNED_BASE = "tuned"
#: The search ``tajsim train`` imitates (about 2 ms a decision on an idle core, at 380 iterations
#: a ms). At 200 iterations its decisions were too noisy: the policy fitted to them lost to tuned.
LEARNED_EXPERT = "ismcts:iterations=800"
#: The shipped weights of ``net`` (``tajsim train --game tajmahal --agent net --install``
#: writes them); ``net`` is registered when the file exists.
NET_FILE = Path(__file__).resolve().parent / "data" / "net_weights.npz"
NET_ENV = "TAJSIM_TAJMAHAL_NET"
# Names of the rollout weights of ismcts (params[N_WEIGHTS:]).
ROLLOUT_WEIGHT_NAMES = tuple(f"r_{name}" for name in WEIGHT_NAMES)
#: Names of the learned policy's weights theta (``params[LEARNED_OFFSET:]``).
LEARNED_WEIGHT_NAMES = tuple(f"w_{name}" for name in FEATURE_NAMES)
#: ismcts's copy of theta for learned rollouts (``rollout=3``; ``params[N_WEIGHTS +
#: LEARNED_OFFSET:]``: the rollouts receive ``params[N_WEIGHTS:]``).
ROLLOUT_LEARNED_NAMES = tuple(f"r_{name}" for name in LEARNED_WEIGHT_NAMES)
# Default ismcts settings; the rollout policy is the heuristic with the ``ISMCTS_ROLLOUT_PRESET``
# weights.
ISMCTS_DEFAULTS = {
    "iterations": 500.0,
    "exploration": 0.7,
    "rollout": float(STRATEGY_HEURISTIC),
    "horizon": 0.0,
    "reward_scale": 5.0,
    "card_value": 0.5,
    "win_bonus": 0.0,
    "group": 1.0,
    "ms": 0.0,  # no time budget: `iterations` a decision (records reproducible)
}
# Rollout weights of ismcts: the tuned preset when it exists, else balanced.
ISMCTS_ROLLOUT_PRESETS = ("tuned", "balanced")

#: What every heuristic weight (and ismcts's r_* rollout weight) may be: a finite number. The
#: bound is far beyond any useful weight (the presets and the tuning box stay within -3..6).
WEIGHT_RANGE = float_param(-1000, 1000)
#: What each weight of the learned policy (w_*, and ismcts's r_w_*) may be: a finite number.
LEARNED_WEIGHT_RANGE = float_param(-1e6, 1e6)
#: What each ismcts setting may be (``docs/strategies.md`` lists them).
ISMCTS_RANGES: dict[str, ParamRange] = {
    "iterations": int_param(1, 1 << 22, "each iteration adds a tree node of 56 bytes and "
                                        "plays the game out: the most is a 235 MB tree, about "
                                        "a CPU minute an opening decision"),
    "exploration": float_param(0, 100),
    "rollout": int_param(0, 3, "the rollout policy: 0 random, 1 greedy, 2 the heuristic with "
                               "the r_* weights, 3 the learned policy (r_* weights, "
                               "r_w_* theta)"),
    "horizon": int_param(-1, 1000, "visit ends rolled out before evaluating; -1: to the end "
                                   "of the game"),
    "reward_scale": float_param(0.001, 1000),
    "card_value": float_param(-100, 100),
    "win_bonus": float_param(0, 1000),
    "group": bool_param(),
    "ms": float_param(0, 60_000, "CPU milliseconds a decision (0: no time budget, the "
                                 "iterations decide; a budget makes records machine-dependent)"),
}


# ---------------------------------------------------------------------------
# Presets
# ---------------------------------------------------------------------------
def presets_path() -> Path:
    """Path of the shipped ``presets.toml``."""
    return Path(str(resources.files("tajsim.games.tajmahal.strategies").joinpath(PRESETS_FILE)))


def load_presets(path: str | Path | None = None) -> dict[str, dict]:
    """Preset tables by name: ``{"description": str, "weights": np.ndarray[N_WEIGHTS]}``.

    Missing weights take the ``balanced`` value; unknown keys are a ``UserError``.
    """
    return load_weight_presets(path if path is not None else presets_path(), WEIGHT_NAMES,
                               "heuristic presets", WEIGHT_RANGE)


def heuristic_spec(name: str, weights: np.ndarray, description: str) -> StrategySpec:
    return StrategySpec(
        name=name,
        strategy_id=STRATEGY_HEURISTIC,
        description=f"heuristic preset: {description}",
        params=tuple(float(x) for x in weights),
        param_names=WEIGHT_NAMES,
        param_ranges=(WEIGHT_RANGE,) * len(WEIGHT_NAMES),
        tags=("heuristic", "preset"),
        cost=7.0,  # about 3,000 games/s on one core against about 21,000 with random
        deterministic=True,
    )


def _rollout_preset(presets: dict[str, dict]) -> str:
    return next(name for name in ISMCTS_ROLLOUT_PRESETS if name in presets)


def ismcts_spec(rollout_weights: np.ndarray, rollout_preset: str,
                rollout_theta: np.ndarray) -> StrategySpec:
    params = [ISMCTS_DEFAULTS[k] for k in ISMCTS_PARAM_NAMES]
    params += [0.0] * (N_WEIGHTS - len(params))
    params += [float(x) for x in rollout_weights]
    params += [float(x) for x in rollout_theta]  # used by rollout=3 only
    names = ISMCTS_PARAM_NAMES + tuple(
        f"_unused{i}" for i in range(len(ISMCTS_PARAM_NAMES), N_WEIGHTS)
    )
    return StrategySpec(
        name="ismcts",
        strategy_id=STRATEGY_ISMCTS,
        description=(
            "information-set MCTS with determinisation; heuristic rollouts "
            f"({rollout_preset} weights, r_* parameters)"
        ),
        params=tuple(params),
        param_names=names + ROLLOUT_WEIGHT_NAMES + ROLLOUT_LEARNED_NAMES,
        param_ranges=tuple(ISMCTS_RANGES.get(name, INTERNAL_SLOT) for name in names)
        + (WEIGHT_RANGE,) * len(ROLLOUT_WEIGHT_NAMES)
        + (LEARNED_WEIGHT_RANGE,) * len(ROLLOUT_LEARNED_NAMES),
        tags=("search",),
        # four ismcts seats at 500 iterations: about 1 s a game, 21,000 random games' worth
        cost=42.0,
        cost_param="iterations",
        # under a time budget: about 209 decisions a 4-player game of ms each, against a
        # 40 us random game
        budget_param="ms",
        cost_per_budget=5200.0,
    )


# ---------------------------------------------------------------------------
# The learned policy
# ---------------------------------------------------------------------------
def learned_path() -> Path:
    """Path of the shipped learned weights (``data/learned.toml``)."""
    return Path(str(resources.files("tajsim.games.tajmahal.strategies").joinpath(LEARNED_FILE)))


def load_learned(path: str | Path | None = None) -> LearnedFile:
    """The learned policy's weights file (checked against this game's features and vector)."""
    return load_learned_file(path if path is not None else learned_path(), game="tajmahal",
                             features=FEATURE_NAMES, n_params=N_PARAMS)


def learned_params(learned: LearnedFile) -> np.ndarray:
    """The ``learned`` vector (float64[N_PARAMS]): the base's parameters with theta at
    ``LEARNED_OFFSET``."""
    vec = np.array(learned.base_params, np.float64)
    vec[LEARNED_OFFSET:LEARNED_OFFSET + N_FEATURES] = learned.theta
    return vec


def learned_spec(learned: LearnedFile) -> StrategySpec:
    vec = learned_params(learned)
    expert = learned.meta.get("expert", "nothing: weights written by hand")
    return StrategySpec(
        name="learned",
        strategy_id=STRATEGY_LEARNED,
        description=(f"linear policy over {learned.base}'s value and {N_FEATURES - 1} more "
                     f"per-action features, fitted to imitate {expert} (data/learned.toml)"),
        params=tuple(float(x) for x in vec[:LEARNED_OFFSET + N_FEATURES]),
        param_names=WEIGHT_NAMES + LEARNED_WEIGHT_NAMES,
        param_ranges=(WEIGHT_RANGE,) * len(WEIGHT_NAMES)
        + (LEARNED_WEIGHT_RANGE,) * len(LEARNED_WEIGHT_NAMES),
        tags=("learned",),
        # measured: 1.49 times tuned's CPU per game (0.231 against 0.155 ms, 2 players)
        cost=10.5,
        deterministic=True,
    )


def expert_with_rollout(expert_params: np.ndarray, learned_vec: np.ndarray) -> np.ndarray:
    """``expert_params`` (an ismcts vector, float64[N_PARAMS]) whose rollouts play the learned
    policy ``learned_vec`` (a ``learned`` vector): rollout 3, its base weights as the r_*
    weights, its theta as the r_w_* weights; the generic options stay the expert's."""
    out = np.array(expert_params, np.float64)
    out[I_ROLLOUT] = float(ROLLOUT_LEARNED)
    out[N_WEIGHTS:2 * N_WEIGHTS] = learned_vec[:N_WEIGHTS]
    out[N_WEIGHTS + LEARNED_OFFSET:N_WEIGHTS + LEARNED_OFFSET + N_LEARNED_SLOTS] = \
        learned_vec[LEARNED_OFFSET:LEARNED_OFFSET + N_LEARNED_SLOTS]
    return out


def _rollout_theta(learned: LearnedFile) -> np.ndarray:
    """ismcts's default r_w_* weights: the shipped theta (its rollout=3 is then ``learned``)."""
    return np.array(learned.theta, np.float64)


def net_file() -> Path:
    """The weights file ``net`` plays: ``$TAJSIM_TAJMAHAL_NET`` when set, else ``NET_FILE``."""
    return shared_net_file(NET_ENV, NET_FILE)


def net_params(base_weights: np.ndarray, fingerprint: int) -> np.ndarray:
    """``net``'s vector (float64[N_PARAMS]): the base preset's weights (its candidates' values)
    first, the weights set's fingerprint at ``NET_FP_SLOT``, the generic options 0."""
    return shared_net_params(N_PARAMS, base_weights, fingerprint, NET_FP_SLOT)


def net_spec(base_weights: np.ndarray, weights: NetWeights, fingerprint: int) -> StrategySpec:
    """``net`` playing these weights (their set's ``fingerprint``, its vector: ``net_params``)."""
    params = net_params(base_weights, fingerprint)
    names = tuple(f"_base_{name}" for name in WEIGHT_NAMES)
    names += tuple(f"_unused{i}" for i in range(len(names), NET_FP_SLOT)) + ("_fingerprint",)
    names += tuple(f"_unused{i}" for i in range(NET_FP_SLOT + 1, N_PARAMS - 2))
    trained = weights.meta.get("train_cpu_s")
    return StrategySpec(
        name="net", strategy_id=STRATEGY_NET,
        description=(f"policy-and-value network ({weights.hidden} hidden units over the seat's "
                     f"observation) weighing {LEARNED_BASE}'s best candidates; trained by expert "
                     "iteration from ismcts (tajsim train --agent net"
                     + (f", {float(trained) / 60:.0f} CPU min" if trained else "") + ")"),
        params=tuple(float(x) for x in params[:N_PARAMS - 2]), param_names=names,
        param_ranges=(INTERNAL_SLOT,) * len(names), tags=("learned", "net"),
        # measured: 7.3 x tuned's (7.0) CPU a game, 1,518 against 11,122 2-player games/s
        # (tajsim bench --game tajmahal -p 2 -s net,net -w 1 --seconds 2; docs/net.md, "Cost")
        cost=51.0,
        deterministic=True,
    )


def expert_with_net_rollout(ismcts_params: np.ndarray, net_vector: np.ndarray) -> np.ndarray:
    """ismcts's vector ``ismcts_params`` rolling out with ``net`` (its vector ``net_vector``):
    ``rollout`` = ``ROLLOUT_NET``, the rollouts' slice ``[N_WEIGHTS:]`` ``net``'s own first
    slots (the base weights, the fingerprint): the network-guided search. The parameter check
    allows rollout 0..3, so this vector is built here, not parsed."""
    return with_net_rollout(ismcts_params, net_vector, N_PARAMS, I_ROLLOUT, ROLLOUT_NET, N_WEIGHTS)


def load_net_spec(path: str | Path | None = None) -> StrategySpec | None:
    """``net`` playing the weights file ``path`` (default :func:`net_file`), or None when it is
    the shipped file and that does not exist. A bad file is a one-line ``UserError``, prefixed
    with ``TAJSIM_TAJMAHAL_NET:`` when the variable named it."""
    loaded = load_wing_net_file(FORMAT, path, NET_ENV, NET_FILE)
    if loaded is None:
        return None
    weights, fingerprint = loaded
    return net_spec(load_presets()[LEARNED_BASE]["weights"], weights, fingerprint)


def registry_with_net(path: str | Path) -> StrategyRegistry:
    """A registry with every strategy of :data:`REGISTRY` and ``net`` playing the weights file
    ``path`` (tests and measurements of other weights; ``TAJSIM_TAJMAHAL_NET`` does the same
    for every command)."""
    reg = StrategyRegistry("Taj Mahal", N_PARAMS, kernel_switches, generic_options=True,
                           restrictions=RESTRICTIONS)
    for spec in REGISTRY.all():
        if spec.name != "net":
            reg.register(spec)
    spec = load_net_spec(path)
    assert spec is not None  # a path given is always loaded
    reg.register(spec)
    return reg


def _register_builtin() -> None:
    register(
        StrategySpec(
            name="random",
            strategy_id=STRATEGY_RANDOM,
            description="uniform over the legal actions (every card id is its own action)",
            tags=("baseline",),
        )
    )
    register(
        StrategySpec(
            name="greedy",
            strategy_id=STRATEGY_GREEDY,
            description="one-step look-ahead in raw points: withdraw now or the best bid",
            tags=("baseline",),
            cost=7.0,
            deterministic=True,
        )
    )
    presets = load_presets()
    for name, preset in presets.items():
        register(heuristic_spec(name, preset["weights"], preset["description"]))
    rollout = _rollout_preset(presets)
    learned = load_learned()
    register(ismcts_spec(presets[rollout]["weights"], rollout, _rollout_theta(learned)))
    register(learned_spec(learned))
    net = load_net_spec()
    if net is not None:
        register(net)


def reload_learned(path: str | Path | None = None) -> None:
    """Re-read the learned weights (after ``tajsim train --install`` wrote them, or from your
    own file) and re-register ``learned`` and ismcts's r_w_* defaults."""
    learned = load_learned(path)
    presets = load_presets()
    rollout = _rollout_preset(presets)
    register(learned_spec(learned), replace=True)
    register(ismcts_spec(presets[rollout]["weights"], rollout, _rollout_theta(learned)),
             replace=True)


def reload_presets() -> None:
    """Re-read ``presets.toml`` (after ``tajsim tune`` wrote it) and re-register the presets."""
    presets = load_presets()
    for name, preset in presets.items():
        register(heuristic_spec(name, preset["weights"], preset["description"]), replace=True)
    rollout = _rollout_preset(presets)
    register(ismcts_spec(presets[rollout]["weights"], rollout, _rollout_theta(load_learned())),
             replace=True)


_register_builtin()


#: What ``tajsim tune`` may change: the heuristic's weights (same order as ``WEIGHT_NAMES``),
#: within these bounds, in units of ``step``.
TUNING = TuningSpace(
    strategy_id=STRATEGY_HEURISTIC,
    names=WEIGHT_NAMES,
    lower=(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.05, -3, 0, 0),
    upper=(4, 4, 4, 4, 4, 4, 4, 6, 3, 3, 3, 4, 3.0, 3, 3, 1),
    step=(0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.7, 0.25, 0.3, 0.3, 0.5, 0.25, 0.5, 0.3, 0.15),
    presets_path=presets_path,
    check_presets=load_presets,
    reload=reload_presets,
    start="balanced",
    field=("balanced", "commodity", "network", "collector", "hoarder"),
)
