"""No Thanks! (Thorsten Gimmler, 2004): the minimal example game, the template of
``docs/architecture.md`` "How to add a game".

Cards 3 to 35 are shuffled and 9 of them are put away unseen. In turn each player either pays a
chip onto the face-up card ("no thanks") or takes the card with the chips on it and turns the
next one; without chips a player must take. A run of consecutive cards scores only its lowest
card; each chip left counts one point off. The lowest score wins.

* ``engine/`` - ``enums`` (constants, the state layout, record dtypes), ``nb`` (the rules
  kernels), ``game`` (step-by-step ``Game``, components: none), ``invariants``;
* ``strategies/`` - ``random`` and ``greedy`` (``nb``), ``registry``, ``view``;
* ``play/`` - the batch kernels and the game's frame columns; ``spec.SPEC``.
"""

SOURCE_FOLDERS = ("engine", "strategies", "play")
