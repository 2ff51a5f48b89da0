"""Strategy ids and the size of the parameter vector, shared by every strategy kernel.

Kept apart from :mod:`tajsim.games.tajmahal.strategies.nb` (the dispatcher) so that the search
kernels can import them without importing the dispatcher that calls them back.
"""

from __future__ import annotations

from typing import Any

from tajsim.engine.learned import learned_switch
from tajsim.engine.net_switch import line_up_net_switch
from tajsim.engine.net_switch import net_rollout_rows as shared_rollout_rows

# Every policy receives ``params``: float64[N_PARAMS]. The heuristic family uses the first
# ``N_WEIGHTS`` slots; ``learned`` reads its base heuristic's weights there and its linear
# weights theta in the next ``N_LEARNED_SLOTS`` (from ``LEARNED_OFFSET``); ISMCTS uses its first
# slots for its own settings and passes ``params[N_WEIGHTS:]`` to its rollout policy (its 16
# rollout weights, then the theta of a learned rollout policy). The last two slots are the
# generic options, temperature and the restriction mask (tajsim.engine.choice: read from the
# end, so the rollouts' slice keeps them).
N_WEIGHTS = 16
#: Slots for the learned policy's theta (at most this many features).
N_LEARNED_SLOTS = 16
#: Where theta sits in the ``learned`` strategy's vector (and in a rollout's slice of ismcts's).
LEARNED_OFFSET = N_WEIGHTS
N_OWN_PARAMS = 2 * N_WEIGHTS + N_LEARNED_SLOTS
N_PARAMS = N_OWN_PARAMS + 2
#: Fixed-point units per point of the heuristic's values: the temperature's softmax compares
#: ``floor(value * VALUE_ONE)``, so one unit of temperature is one point of the value scale.
VALUE_ONE = 1024

STRATEGY_RANDOM = 0
STRATEGY_GREEDY = 1
STRATEGY_HEURISTIC = 2
STRATEGY_ISMCTS = 3
STRATEGY_LEARNED = 4
STRATEGY_NET = 5
N_STRATEGY_IDS = 6


#: ISMCTS's parameter slot naming its rollout policy, and the value there that names
#: ``learned`` (here, not in the search module, so that ``kernel_switches`` reads it).
ISMCTS_ROLLOUT_SLOT = 2
ROLLOUT_LEARNED = 3
#: The ``rollout`` value that names ``net`` (the network-guided search; built by
#: ``registry.expert_with_net_rollout``, not parsed: the setting's range stays 0..3).
ROLLOUT_NET = 4
#: Where ``net`` reads its weights set's fingerprint (the slot after the base weights; in a
#: network-guided ismcts's vector ``N_WEIGHTS + NET_FP_SLOT``, its rollouts' slice).
NET_FP_SLOT = N_WEIGHTS


def kernel_switches(strategy_ids, params=None
                    ) -> tuple[bool | None, bool | None, bool | None, Any]:
    """The ``search``, ``heuristics``, ``learned`` and ``net`` arguments of the game kernels
    for these strategy ids (``params``: their parameter rows, float64[len(ids), N_PARAMS], or
    None).

    numba drops the code behind ``if search is not None`` when ``search`` is ``None``, so a run
    without ISMCTS (``None`` for ``search``), without the heuristic family (``None`` for
    ``heuristics``: ``greedy``, the presets, ``learned`` and ``net``) or without the learned
    policy (``None`` for ``learned``) never compiles them: a cold ``random`` run compiles in
    about a third of the time, and a search seat without ``learned`` about 40% faster. ``True``
    keeps the family. ``learned`` is kept for a ``learned`` seat and for an ISMCTS seat that
    rolls out with it; without ``params`` for any ISMCTS seat. ``net`` is None without a
    ``net`` seat or an ISMCTS seat whose ``params`` row rolls out with it (``ROLLOUT_NET``),
    else the int64 array of the weights sets they name (:func:`tajsim.engine.net_switch.
    net_switch`; a ``net`` seat without ``params``: every set loaded).
    """
    ids = [int(i) for i in strategy_ids]
    id_set = set(ids)
    search = True if STRATEGY_ISMCTS in id_set else None
    # ISMCTS rollouts may use any simple strategy, so search keeps the heuristics too; the
    # learned policy and the network score the heuristic's own values, so they need the family.
    heuristics = True if id_set & {STRATEGY_GREEDY, STRATEGY_HEURISTIC, STRATEGY_LEARNED,
                                   STRATEGY_NET} or search else None
    learned = learned_switch(ids, params, STRATEGY_LEARNED, STRATEGY_ISMCTS, ISMCTS_ROLLOUT_SLOT,
                             ROLLOUT_LEARNED)
    net = line_up_net_switch(ids, params, STRATEGY_NET, net_rollout_rows(ids, params),
                             NET_FP_SLOT)
    return search, heuristics, learned, net


def net_rollout_rows(ids: list[int], params: Any) -> list[Any]:
    """The rollouts' parameter slices (``row[N_WEIGHTS:]``: the base weights, then the
    fingerprint at ``NET_FP_SLOT``) of the ISMCTS seats that roll out with ``net``."""
    return shared_rollout_rows(ids, params, (STRATEGY_ISMCTS,), ISMCTS_ROLLOUT_SLOT, ROLLOUT_NET,
                               N_WEIGHTS)
