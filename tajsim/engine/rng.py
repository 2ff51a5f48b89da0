"""Counter-based random streams for the kernels (splitmix64).

A stream's whole state is one 64-bit word stored in an ``int64`` array slot and read through a
``uint64`` view, so it is copied with the game state and behaves identically compiled and under
``NUMBA_DISABLE_JIT=1``. Seeds are derived by hashing, never by position in a shared sequence:
a game's streams depend only on (master seed, game index or setup index), whatever the threads,
chunks or machines.
"""

from __future__ import annotations

import warnings

import numpy as np

from tajsim.engine.targets import kernel

# Uncompiled numpy scalars warn on the intended 64-bit wrap-around; compiled code does not.
warnings.filterwarnings("ignore", message="overflow encountered in scalar", category=RuntimeWarning)

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
SALT_SETUP = 0x5E7B
SALT_PLAY = 0x9A11
SALT_POLICY = 0x901C


@kernel
def mix64(x):
    """splitmix64 finaliser of a ``uint64``; a bijection with good avalanche."""
    z = x
    z = (z ^ (z >> np.uint64(30))) * _MUL1
    z = (z ^ (z >> np.uint64(27))) * _MUL2
    return z ^ (z >> np.uint64(31))


@kernel
def derive_seed(master, index, salt):
    """Seed (``int64``) of a stream from a master seed, an index and a salt naming its use."""
    z = mix64(np.uint64(master) * _GOLDEN + np.uint64(salt))
    z = mix64(z ^ (np.uint64(index) * _MUL1 + _GOLDEN))
    return np.int64(z)


@kernel
def game_seeds(master_seed, game_id, setup_id):
    """``(setup_seed, play_seed)`` of a game: the setup stream depends only on (master seed,
    setup id), the chance stream only on (master seed, game id). Every game's ``start_game``
    derives its streams here, so a game is a pure function of its indices whatever runs it."""
    return (derive_seed(master_seed, setup_id, SALT_SETUP),
            derive_seed(master_seed, game_id, SALT_PLAY))


@kernel
def seed_policy_streams(play_seed, prng):
    """Seat ``p``'s policy stream ``prng[p]``, derived from the game's chance seed, for every
    slot of ``prng`` (int64[MAX_PLAYERS])."""
    for p in range(prng.shape[0]):
        prng[p] = derive_seed(play_seed, p, SALT_POLICY)


def _next_u64_python(words, slot):
    """``next_u64`` uncompiled: numpy scalars refuse int64 -> uint64 casts of negatives."""
    u = words.view(np.uint64)
    s = u[slot] + _GOLDEN
    u[slot] = s
    return mix64(s)


@kernel(python=_next_u64_python)
def next_u64(words, slot):
    """Advance the stream in ``words[slot]`` (int64 array) and return the next ``uint64``."""
    s = np.uint64(words[slot]) + _GOLDEN  # same-width casts keep the bits; no array view
    words[slot] = np.int64(s)
    return mix64(s)


@kernel
def below(words, slot, n):
    """Uniform integer in ``[0, n)`` from the stream in ``words[slot]`` (n < 2**31)."""
    z = next_u64(words, slot) >> np.uint64(33)  # 31 random bits
    return np.int64((z * np.uint64(n)) >> np.uint64(31))


@kernel
def uniform(words, slot):
    """Uniform float in ``[0, 1)`` with 53 random bits."""
    z = next_u64(words, slot) >> np.uint64(11)
    return np.float64(z) * (1.0 / 9007199254740992.0)


@kernel
def shuffle_slice(arr, start, stop, words, slot):
    """Fisher-Yates shuffle of ``arr[start:stop]`` in place with the stream ``words[slot]``."""
    for i in range(stop - 1, start, -1):
        j = start + below(words, slot, i - start + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
