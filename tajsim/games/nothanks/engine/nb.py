"""The rules of No Thanks! as dual-target kernels over the flat state (``enums`` says what each
slot holds): compiled by numba for the CPU and, unchanged, for a GPU (:mod:`tajsim.engine.gpu`).

They allocate nothing and raise nothing; the Python layer checks actions before calling them.
"""

from __future__ import annotations

from tajsim.engine.arrays import borrowed
from tajsim.engine.ranking import rank_seats, ranking_key
from tajsim.engine.rng import game_seeds, seed_policy_streams, shuffle_slice
from tajsim.engine.targets import kernel
from tajsim.games.nothanks.engine import enums as E


@kernel
def start_chips(n_players):
    """Chips per player: 11 with 3 to 5 players, 9 with 6, 7 with 7."""
    if n_players <= 5:
        return 11
    return 9 if n_players == 6 else 7


@kernel
def start_game_nb(comp, n_players, edition, master_seed, game_id, setup_id, state, prng):
    """Set up game ``game_id`` in ``state`` (int64[STATE_SIZE]) and seed ``prng``.

    The setup stream of (master seed, setup id) chooses the 9 cards put away, the chance stream
    of (master seed, game id) the order of the 24 others, so games of one setup share the cards
    in play. Seat 0 decides first (the runner rotates the seats)."""
    setup_seed, play_seed = game_seeds(master_seed, game_id, setup_id)
    for i in range(E.STATE_SIZE):
        state[i] = 0
    state[E.S_N_PLAYERS] = n_players
    state[E.S_RULES] = edition
    for k in range(E.N_CARDS):
        state[E.S_DECK + k] = E.LOW_CARD + k
        state[E.S_OWNER + k] = -1
    state[E.S_RNG] = setup_seed
    shuffle_slice(state, E.S_DECK, E.S_DECK + E.N_CARDS, state, E.S_RNG)
    state[E.S_RNG] = play_seed
    shuffle_slice(state, E.S_DECK, E.S_DECK + E.N_PLAYED, state, E.S_RNG)
    state[E.S_RNG] = 0  # no chance after the setup: nothing hidden is left in the stream
    chips = start_chips(n_players)
    for p in range(n_players):
        state[E.S_CHIPS + p] = chips
    state[E.S_PHASE] = E.PHASE_DECIDE
    state[E.S_CUR] = 0
    seed_policy_streams(play_seed, prng)


@kernel
def legal_actions_nb(state, comp, legal):
    """Write the legal actions into ``legal`` (int64[N_ACTIONS]); returns how many (0 at the
    end). "No thanks" needs a chip; taking is always legal."""
    state = borrowed(state)
    comp = borrowed(comp)
    legal = borrowed(legal)
    if state[E.S_PHASE] == E.PHASE_GAME_OVER:
        return 0
    n = 0
    if state[E.S_CHIPS + state[E.S_CUR]] > 0:
        legal[n] = E.ACT_PASS
        n += 1
    legal[n] = E.ACT_TAKE
    return n + 1


@kernel
def card_points_nb(state, player):
    """Points of ``player``'s cards: the lowest card of each run of consecutive cards."""
    total = 0
    for k in range(E.N_CARDS):
        if state[E.S_OWNER + k] == player and (k == 0 or state[E.S_OWNER + k - 1] != player):
            total += E.LOW_CARD + k
    return total


@kernel
def score_nb(state, player):
    """Card points minus chips (lower is better)."""
    return card_points_nb(state, player) - state[E.S_CHIPS + player]


@kernel
def finish_nb(state):
    """Rank the seats (1 = lowest score; ties share the better rank) and end the game."""
    n = state[E.S_N_PLAYERS]
    for p in range(n):
        state[E.S_RANK + p] = ranking_key(score_nb(state, p), 0, E.LOWER_SCORE_WINS)
    rank_seats(state, n, E.S_RANK, -1)
    state[E.S_PHASE] = E.PHASE_GAME_OVER
    state[E.S_CUR] = -1


@kernel
def apply_action_nb(state, comp, action):
    """Apply a legal ``action`` of the seat to move. Taking the card turns the next one, and
    the taker decides first on it; "no thanks" passes the decision to the left."""
    state = borrowed(state)
    comp = borrowed(comp)
    p = state[E.S_CUR]
    state[E.S_STEP] += 1
    if action == E.ACT_PASS:
        state[E.S_CHIPS + p] -= 1
        state[E.S_POT] += 1
        state[E.S_PASSES + p] += 1
        state[E.S_CUR] = (p + 1) % state[E.S_N_PLAYERS]
        return
    card = state[E.S_DECK + state[E.S_TURNED]]
    state[E.S_OWNER + card - E.LOW_CARD] = p
    state[E.S_CHIPS + p] += state[E.S_POT]
    state[E.S_POT] = 0
    state[E.S_TURNED] += 1
    if state[E.S_TURNED] == E.N_PLAYED:
        finish_nb(state)


@kernel
def current_player_nb(state):
    """Seat to decide, -1 when the game is over."""
    return -1 if state[E.S_PHASE] == E.PHASE_GAME_OVER else state[E.S_CUR]


@kernel
def phase_nb(state):
    """The decision phase (``PHASE_*``)."""
    return state[E.S_PHASE]
