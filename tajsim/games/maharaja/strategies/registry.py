"""Maharaja's strategies, registered by name (``REGISTRY``).

* ``random`` - uniform over the legal actions;
* ``greedy`` - the heuristic kernel with fixed raw-gold weights (one-step look-ahead);
* the heuristic presets from ``presets.toml`` (``balanced``, ``rusher``, ``tollroad``,
  ``hoarder``, ``character``);
* ``search`` - decoupled bandit search over the secret pairs, heuristic rollouts;
* ``turnsearch`` - the search of every decision: the secret pair as ``search``, the draft, the
  setup houses and each step of the turn by rollouts of the best candidate actions, with the
  others' hidden picks redrawn (``turnsearch.py``);
* ``learned`` - a linear policy over the heuristic's per-action value and features of the
  action (``learned.FEATURE_NAMES``), fitted to imitate the search (``tajsim train``); its
  weights come from ``data/learned.toml``;
* ``net`` - a small policy-and-value network over the seat's observation weighing
  ``hoarder``'s best candidates at every decision (``net.py``), its weights in
  ``data/net_weights.npz`` (written by ``tajsim train --game maharaja --agent net``; the
  environment variable ``TAJSIM_MAHARAJA_NET`` names another file); registered when that file
  exists.

``REGISTRY.parse("name:key=value:...")`` gives the compiled id and the parameter vector. Every
strategy also takes the generic options ``temperature`` (one unit = one gold of the heuristic's
values) and ``forbid`` (the families of ``restrictions.RESTRICTIONS``): the last two slots of
the vector (:mod:`tajsim.engine.choice`); and Maharaja's own ``draft=<card>`` (``mogul``,
``trader``, ``sadhu``, ``monk``, ``builder``, ``artisan``; ``none``), which makes the seat take
that card in the setup draft when it is still there: the draft families of the five other
cards added to the ``forbid`` mask (``restrictions.draft_mask``), so it is played wherever a
restriction is (CPU, GPU, the search's own choice).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tajsim.engine.net_switch import net_params as shared_net_params
from tajsim.engine.net_switch import with_net_rollout
from tajsim.engine.net_weights import load_wing_net_file
from tajsim.engine.net_weights import net_file as shared_net_file
from tajsim.errors import UserError
from tajsim.games.maharaja.strategies.heuristic_work import WEIGHT_NAMES
from tajsim.games.maharaja.strategies.ids import (
    LEARNED_FEATURE_NAMES,
    MAX_CANDIDATES,
    MAX_FEATURES,
    MAX_ITERATIONS,
    N_LEARNED_FEATURES,
    N_PARAMS,
    N_WEIGHTS,
    NET_FP_SLOT,
    STRATEGY_GREEDY,
    STRATEGY_HEURISTIC,
    STRATEGY_LEARNED,
    STRATEGY_NET,
    STRATEGY_RANDOM,
    STRATEGY_SEARCH,
    STRATEGY_TURNSEARCH,
    kernel_switches,
)
from tajsim.games.maharaja.strategies.net_weights import FORMAT
from tajsim.games.maharaja.strategies.restrictions import (
    CARD_SLUGS,
    F_DRAFT,
    RESTRICTIONS,
    draft_mask,
)
from tajsim.games.maharaja.strategies.search import I_MS, I_ROLLOUT, SEARCH_PARAM_NAMES
from tajsim.games.maharaja.strategies.turnsearch import TURN_SEARCH_PARAM_NAMES
from tajsim.strategies.learned_file import load_learned_file
from tajsim.strategies.presets import load_weight_presets
from tajsim.strategies.spec import (
    FORBID,
    INTERNAL_SLOT,
    ParamRange,
    StrategyRegistry,
    StrategySpec,
    float_param,
    int_param,
)

__all__ = ["DRAFT", "LEARNED_BASE", "LEARNED_FILE", "LEARNED_WEIGHT_NAMES", "NET_ENV",
           "NET_FILE", "PRESETS_FILE", "REGISTRY", "SEARCH_DEFAULTS", "TURN_SEARCH_DEFAULTS",
           "MaharajaRegistry", "build_registry", "draft_card", "expert_with_net_rollout",
           "load_learned_weights", "load_presets", "net_file", "net_params"]

PRESETS_FILE = Path(__file__).resolve().parent / "presets.toml"
#: The shipped weights of ``learned`` (written by ``tajsim train --game maharaja --install``).
LEARNED_FILE = Path(__file__).resolve().parent / "data" / "learned.toml"
#: The base heuristic of ``learned`` (its value feature; the game's best hand-written preset);
#: ``net``'s too (its candidates and their values).
LEARNED_BASE = "hoarder"
#: The shipped weights of ``net`` (``tajsim train --game maharaja --agent net --install``
#: writes them) and the environment variable that names another file.
NET_FILE = Path(__file__).resolve().parent / "data" / "net_weights.npz"
NET_ENV = "TAJSIM_MAHARAJA_NET"
FEATURE_NAMES = LEARNED_FEATURE_NAMES
assert N_LEARNED_FEATURES <= MAX_FEATURES
LEARNED_WEIGHT_NAMES = tuple(f"w_{name}" for name in FEATURE_NAMES)
#: What a learned feature weight may be (theta; fitted values stay far inside).
THETA_RANGE = float_param(-1e6, 1e6)
# Search settings; its rollouts play the SEARCH_ROLLOUT_PRESET weights.
SEARCH_DEFAULTS = {
    "iterations": 80.0,
    "candidates": 6.0,
    "horizon": 0.0,
    "exploration": 6.0,
    "palace_value": 25.0,
    "rollout": float(STRATEGY_HEURISTIC),
    "win_bonus": 30.0,
    "ms": 0.0,  # no time budget: `iterations` a pick (records reproducible)
}
SEARCH_ROLLOUT_PRESET = "hoarder"
# turnsearch's settings (strategies/turnsearch.py): every rollout goes to the game's end (horizon
# and step_horizon 100), so a step's houses and governor moves are paid by the scorings they
# bring, and the pick and the steps are judged alike (the pick's horizon 100 took 57% of 100
# games against search at ms=2 where horizon 0 took 50%: not significant, but not worse).
TURN_SEARCH_DEFAULTS = {
    **SEARCH_DEFAULTS,
    "iterations": 32.0,
    "horizon": 100.0,
    "step_candidates": 6.0,
    "guess": 3.0,
    "step_horizon": 100.0,
}
ROLLOUT_WEIGHT_NAMES = tuple(f"r_{name}" for name in WEIGHT_NAMES)

#: What every heuristic weight (and search's r_* rollout weight) may be: a finite number (the
#: kernels turn it into a fixed-point integer, w x 1024; the presets stay within 0..60).
WEIGHT_RANGE = float_param(-1000, 1000)
#: What each search setting may be: the kernel works in whole numbers (gold, counts) and its
#: tables end at MAX_ITERATIONS and MAX_CANDIDATES (``docs/games/maharaja/strategies.md``).
SEARCH_RANGES: dict[str, ParamRange] = {
    "iterations": int_param(1, MAX_ITERATIONS, "the search's integer log table ends there"),
    "candidates": int_param(1, MAX_CANDIDATES, "the search keeps at most that many pairs a "
                                               "seat"),
    "horizon": int_param(0, 100, "further rounds played out after the current one"),
    "exploration": int_param(0, 1000, "gold"),
    "palace_value": int_param(0, 100_000, "gold a palace"),
    "rollout": int_param(0, 4, "the rollout policy: 0 random, 1 greedy, 2 the heuristic with "
                               "the r_* weights, 4 learned with the r_* weights and r_w_* "
                               "feature weights (3 plays as 2)"),
    "win_bonus": int_param(0, 100_000, "gold"),
    "ms": float_param(0, 60_000, "CPU milliseconds a pick (0: no time budget, the iterations "
                                 "decide; a budget makes records machine-dependent)"),
}
#: turnsearch's cost (StrategySpec.cost, a game's CPU over a random game's 43 us, per
#: iteration) and its cost per ms of budget. Measured on the 2-core VM (load 10): 4 seats of
#: turnsearch:iterations=8 take 0.62 s a 4-player game (1,800 an iteration), 2 seats of the
#: default 32 iterations 0.22 s a 2-player game (the decisions where nothing is hidden stop
#: after one rollout a candidate, so the cost grows slower than the iterations); 4 seats of
#: ms=1 take 0.32 s a 4-player game (7,500 a ms).
TURN_SEARCH_COST = 1000.0
TURN_COST_PER_MS = 7500.0
#: turnsearch's settings: the search's, with ``iterations`` and ``ms`` a decision, and two more.
TURN_SEARCH_RANGES: dict[str, ParamRange] = {
    **SEARCH_RANGES,
    "iterations": int_param(1, MAX_ITERATIONS, "rollouts a decision; the search's integer log "
                                               "table ends there"),
    "ms": float_param(0, 60_000, "CPU milliseconds a decision (0: no time budget, the "
                                 "iterations decide; a budget makes records "
                                 "machine-dependent)"),
    "step_candidates": int_param(1, MAX_CANDIDATES, "the best actions by the rollout "
                                                    "heuristic searched at a decision other "
                                                    "than the pick"),
    "guess": int_param(1, MAX_CANDIDATES, "another seat's hidden pick is redrawn among its "
                                          "best this many pairs"),
    "step_horizon": int_param(0, 100, "further rounds a rollout of a decision other than the "
                                      "pick plays after the current one (100: to the end)"),
}


def load_presets(path: str | Path | None = None) -> dict[str, dict]:
    """Preset tables by name: ``{"description": str, "weights": float64[N_WEIGHTS]}``; missing
    weights take the ``balanced`` value; an unknown key is a one-line ``UserError``."""
    return load_weight_presets(path if path is not None else PRESETS_FILE, WEIGHT_NAMES,
                               "Maharaja presets", WEIGHT_RANGE)


def load_learned_weights(path: str | Path | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(base weights float64[N_WEIGHTS], theta float64[N_LEARNED_FEATURES]) from a learned
    weights file (``LEARNED_FILE`` by default; :mod:`tajsim.strategies.learned_file`'s layout):
    a file of another game, other features or a base vector of another length is a one-line
    ``UserError``."""
    learned = load_learned_file(path if path is not None else LEARNED_FILE, game="maharaja",
                                features=FEATURE_NAMES, n_params=N_PARAMS)
    return learned.base_params[:N_WEIGHTS].copy(), learned.theta


def _search_deterministic(vec) -> bool:
    """Whether a search at parameters ``vec`` (temperature 0) draws no chance: its rollouts
    use the seat's stream only with the random rollout policy, and a time budget (``ms``)
    makes its picks depend on the machine's speed."""
    return int(vec[I_ROLLOUT]) != 0 and vec[I_MS] <= 0


#: Maharaja's own strategy option: the card a seat takes in the setup draft.
DRAFT = "draft"
#: What ``draft=`` accepts besides the card slugs (the Wandering Monk's full name too).
_DRAFT_ALIASES = {"wandering_monk": CARD_SLUGS.index("monk")}


def draft_card(value: str, name: str = "", where: str = "") -> int:
    """The card code ``draft=value`` names (a card slug, any case; ``none``: -1, the strategy's
    own draft), or a one-line ``UserError`` listing the cards."""
    text = value.strip().lower().replace(" ", "_").replace("-", "_")
    if text == "none":
        return -1
    if text in CARD_SLUGS:
        return CARD_SLUGS.index(text)
    if text in _DRAFT_ALIASES:
        return _DRAFT_ALIASES[text]
    raise UserError(f"strategy {name!r} option draft={value.strip()!r}{where}: unknown card; "
                    f"expected one of: {', '.join(CARD_SLUGS)} (or none)")


class MaharajaRegistry(StrategyRegistry):
    """The generic registry, plus Maharaja's ``draft=<card>`` option (the module docstring):
    ``parse`` takes it out of the text, parses the rest, and adds the five other cards' draft
    families to the vector's restriction mask."""

    def parse(self, text: str) -> tuple[StrategySpec, np.ndarray]:
        if not isinstance(text, str) or text.strip().startswith("py:"):
            return super().parse(text)
        name, *items = text.strip().split(":")
        kept, card, given = [], -1, False
        for item in items:
            key, sep, value = item.partition("=")
            if key.strip() != DRAFT:
                kept.append(item)
                continue
            if given:
                raise UserError(f"strategy parameter {DRAFT} given twice in {text.strip()!r}; "
                                "expected each parameter at most once")
            given = True
            card = draft_card(value, name.strip(), f" in {text.strip()!r}")
        spec, vec = super().parse(":".join([name, *kept]))
        if card >= 0:
            slot = spec.generic_slot(FORBID)
            mask = int(vec[slot])
            if mask >> (F_DRAFT + card) & 1:
                raise UserError(f"strategy {name.strip()!r} in {text.strip()!r}: draft="
                                f"{CARD_SLUGS[card]} and forbid=draft_{CARD_SLUGS[card]} "
                                "contradict each other; expected one of them")
            vec[slot] = float(mask | draft_mask(card))
        return spec, vec


def net_file() -> Path:
    """The weights file ``net`` plays: ``$TAJSIM_MAHARAJA_NET`` when set, else ``NET_FILE``."""
    return shared_net_file(NET_ENV, NET_FILE)


def net_params(base_weights: np.ndarray, fingerprint: int) -> np.ndarray:
    """``net``'s vector (float64[N_PARAMS]): the base preset's weights (its candidates' values)
    first, the weights set's fingerprint at ``NET_FP_SLOT``, the generic options 0."""
    return shared_net_params(N_PARAMS, base_weights, fingerprint, NET_FP_SLOT)


#: ``net``'s cost (StrategySpec.cost, a game's CPU over a random game's): 3.2 x hoarder's
#: (10.5) by CPU time, 1,567 against 4,962 2-player games/s (``tajsim bench --game maharaja
#: -p 2 -s net,net -w 1 --seconds 2``; docs/games/maharaja/strategies.md, "net").
NET_COST = 33.0


def net_spec(base_weights: np.ndarray, hidden: int, trained_cpu_s: float | None,
             fingerprint: int) -> StrategySpec:
    """``net`` playing the weights set of ``fingerprint`` (``hidden`` units; its vector:
    ``net_params``)."""
    params = net_params(base_weights, fingerprint)
    names = tuple(f"_base_{name}" for name in WEIGHT_NAMES)
    names += tuple(f"_unused{i}" for i in range(len(names), NET_FP_SLOT)) + ("_fingerprint",)
    names += tuple(f"_unused{i}" for i in range(NET_FP_SLOT + 1, N_PARAMS - 2))
    return StrategySpec(
        name="net", strategy_id=STRATEGY_NET,
        description=(f"policy-and-value network ({hidden} hidden units over the seat's "
                     f"observation) weighing {LEARNED_BASE}'s best candidates at every "
                     "decision; trained by expert iteration from turnsearch (tajsim train "
                     "--agent net"
                     + (f", {trained_cpu_s / 60:.0f} CPU min" if trained_cpu_s else "") + ")"),
        params=tuple(float(x) for x in params[:N_PARAMS - 2]), param_names=names,
        param_ranges=(INTERNAL_SLOT,) * len(names), tags=("learned", "net"),
        n_params=N_PARAMS, deterministic=True,
        cost=NET_COST)



def expert_with_net_rollout(search_params: np.ndarray, net_vector: np.ndarray) -> np.ndarray:
    """A search's vector ``search_params`` (``search`` or ``turnsearch``) rolling out with
    ``net`` (its vector ``net_vector``): ``rollout`` = ``STRATEGY_NET``, the rollouts' slice
    ``[N_WEIGHTS:]`` ``net``'s own first slots (hoarder's weights, the fingerprint): the
    network-guided search. The parameter check keeps users' ``rollout`` at 0..4, so this vector
    is built here, not parsed; the search's own settings and generic options stay."""
    return with_net_rollout(search_params, net_vector, N_PARAMS, I_ROLLOUT, STRATEGY_NET, N_WEIGHTS)


def build_registry(net_path: str | Path | None = None) -> StrategyRegistry:
    """A registry with every strategy (``net``'s weights from ``net_path``, default
    :func:`net_file`: ``net`` is registered when that file exists; a file the environment
    variable names must exist). A bad weights file is a one-line ``UserError``."""
    reg = MaharajaRegistry("Maharaja", N_PARAMS, kernel_switches, generic_options=True,
                           restrictions=RESTRICTIONS)
    reg.register(StrategySpec("random", STRATEGY_RANDOM,
                              "uniform over the legal actions (each step of a turn is one "
                              "action)", tags=("baseline",)))
    reg.register(StrategySpec("greedy", STRATEGY_GREEDY,
                              "one-step look-ahead in raw gold: the heuristic kernel with fixed "
                              "weights", tags=("baseline",), deterministic=True,
                              cost=10.0))  # about 2,400 4-player games/s against 23,000
    presets = load_presets()
    for name, preset in presets.items():
        reg.register(StrategySpec(name, STRATEGY_HEURISTIC,
                                  f"heuristic preset: {preset['description']}",
                                  tuple(float(x) for x in preset["weights"]), WEIGHT_NAMES,
                                  ("heuristic", "preset"), cost=10.5, deterministic=True,
                                  param_ranges=(WEIGHT_RANGE,) * len(WEIGHT_NAMES)))
    base_weights, theta = load_learned_weights()
    params = [SEARCH_DEFAULTS[k] for k in SEARCH_PARAM_NAMES]
    params += [0.0] * (N_WEIGHTS - len(params))
    params += [float(x) for x in presets[SEARCH_ROLLOUT_PRESET]["weights"]]
    # the rollout theta (read when rollout = 4): the shipped learned weights
    params += [float(x) for x in theta]
    names = SEARCH_PARAM_NAMES + tuple(f"_unused{i}"
                                       for i in range(len(SEARCH_PARAM_NAMES), N_WEIGHTS))
    rollout_theta_names = tuple(f"r_{name}" for name in LEARNED_WEIGHT_NAMES)
    reg.register(StrategySpec(
        "search", STRATEGY_SEARCH,
        "decoupled bandit search over the secret pairs (every seat's best candidates), "
        f"heuristic rollouts ({SEARCH_ROLLOUT_PRESET} weights, r_* parameters; rollout=4: "
        "the learned policy, r_w_* its feature weights)",
        tuple(params), names + ROLLOUT_WEIGHT_NAMES + rollout_theta_names, ("search",),
        # every seat searching, 80 iterations: about 12 games/s against 23,000 random
        cost=24.0, cost_param="iterations",
        # under a time budget: about 223 decisions a 4-player game of ms each, against a
        # 43 us random game
        budget_param="ms", cost_per_budget=5200.0,
        # its rollouts draw chance only with the random rollout policy (rollout = 0)
        deterministic=_search_deterministic,
        param_ranges=tuple(SEARCH_RANGES.get(name, INTERNAL_SLOT) for name in names)
        + (WEIGHT_RANGE,) * len(ROLLOUT_WEIGHT_NAMES)
        + (THETA_RANGE,) * len(rollout_theta_names)))
    turn_params = [TURN_SEARCH_DEFAULTS[k] for k in TURN_SEARCH_PARAM_NAMES]
    turn_params += params[len(turn_params):]  # the same rollout weights and theta
    turn_names = TURN_SEARCH_PARAM_NAMES + tuple(
        f"_unused{i}" for i in range(len(TURN_SEARCH_PARAM_NAMES), N_WEIGHTS))
    reg.register(StrategySpec(
        "turnsearch", STRATEGY_TURNSEARCH,
        "the search of every decision: the secret pairs as search, the draft, the setup houses "
        "and each step of the turn by rollouts to the game's end of the best candidate actions, "
        f"the others' hidden picks redrawn ({SEARCH_ROLLOUT_PRESET} rollouts; CPU only)",
        tuple(turn_params), turn_names + ROLLOUT_WEIGHT_NAMES + rollout_theta_names,
        ("search",),
        cost=TURN_SEARCH_COST, cost_param="iterations",
        budget_param="ms", cost_per_budget=TURN_COST_PER_MS,
        deterministic=_search_deterministic,
        param_ranges=tuple(TURN_SEARCH_RANGES.get(name, INTERNAL_SLOT) for name in turn_names)
        + (WEIGHT_RANGE,) * len(ROLLOUT_WEIGHT_NAMES)
        + (THETA_RANGE,) * len(rollout_theta_names)))
    reg.register(StrategySpec(
        "learned", STRATEGY_LEARNED,
        # the file's base weights (those it was trained with; hoarder's when shipped)
        "linear policy over the heuristic's per-action value (hoarder's weights) and features "
        "of the action, fitted to imitate the search (tajsim train; weights in "
        "data/learned.toml)",
        tuple(float(x) for x in base_weights) + tuple(float(x) for x in theta),
        WEIGHT_NAMES + LEARNED_WEIGHT_NAMES, ("learned",),
        # measured: 1.01-1.09 x hoarder's CPU a 2-player game (tajsim train), 0.76-1.03 x a
        # 4-player game (benchmarks/learned_match_maharaja.py)
        cost=11.0, deterministic=True,
        param_ranges=(WEIGHT_RANGE,) * len(WEIGHT_NAMES)
        + (THETA_RANGE,) * len(LEARNED_WEIGHT_NAMES)))
    loaded = load_wing_net_file(FORMAT, net_path, NET_ENV, NET_FILE)
    if loaded is not None:
        weights, fingerprint = loaded
        trained = weights.meta.get("train_cpu_s")
        reg.register(net_spec(presets[LEARNED_BASE]["weights"], weights.hidden,
                              float(trained) if trained else None, fingerprint))
    return reg


REGISTRY = build_registry()
