"""What No Thanks!'s batch loop (the generated ``play/nb.py``, see
``tajsim.play.generate_batch``) takes from the game: no kernel switches and the result records.
With no switches and no scratch it leaves ``new_work_nb`` and ``decide_nb`` to the template
(the decision is ``strategies/nb.py``'s ``choose_action_nb``)."""

from __future__ import annotations

from tajsim.engine.targets import kernel
from tajsim.games.nothanks.engine import enums as E
from tajsim.games.nothanks.engine.nb import card_points_nb

#: No strategy family to leave out of the compiled kernel (``kernel_switches`` gives ``()``).
SWITCHES = ()



@kernel
def write_records_nb(state, comp, game_id, setup_id, seat_ids, results, row, setups, g):
    """Write the finished game's per-seat rows ``results[row:row + n]`` and ``setups[g]``."""
    n = seat_ids.shape[0]
    for p in range(n):
        r = results[row + p]
        points = card_points_nb(state, p)
        chips = state[E.S_CHIPS + p]
        cards = 0
        runs = 0
        for k in range(E.N_CARDS):
            if state[E.S_OWNER + k] == p:
                cards += 1
                if k == 0 or state[E.S_OWNER + k - 1] != p:
                    runs += 1
        r["game_id"] = game_id
        r["seat"] = p
        r["strategy_id"] = seat_ids[p]
        r["score"] = points - chips
        r["rank"] = state[E.S_RANK + p]
        r["winner"] = state[E.S_RANK + p] == 1
        r["pts_cards"] = points
        r["pts_chips"] = -chips
        r["cards"] = cards
        r["runs"] = runs
        r["chips"] = chips
        r["passes"] = state[E.S_PASSES + p]
    s = setups[g]
    s["game_id"] = game_id
    s["setup_id"] = setup_id
    s["n_actions"] = state[E.S_STEP]
    for k in range(E.N_REMOVED):
        s["removed"][k] = state[E.S_DECK + E.N_PLAYED + k]
