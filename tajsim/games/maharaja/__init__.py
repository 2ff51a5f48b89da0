"""Maharaja (Kramer & Kiesling, 2004) on the tajsim pipeline.

Each round the Maharaja visits the city of the lowest governor; every player secretly chooses
two of nine actions, then in character order reveals them and carries them out (travelling with
its architect along roads whose villages take tolls, building houses and palaces, moving a
governor, taking a character card); the Maharaja's city is scored for gold. The first to seven
palaces, or the most palaces after a governor reaches round box 10, wins.

Where things are:

* ``engine/`` - ``enums`` (every constant, array layouts), ``nb`` (the rules kernels),
  ``components`` + ``data/*.toml`` (board and numbers with provenance, validation, alternative
  boards), ``setups`` (governor orders and the Lehmer code), ``game`` (step-by-step ``Game``
  with the referee's event log), ``invariants`` (state checks, a reference legal list, hidden
  redraws);
* ``strategies/`` - random, greedy, the heuristic presets, the search over the secret pairs;
  ``registry.REGISTRY``; ``view.PlayerView``;
* ``play/`` - the batch kernels (``GameKernels``) and ``records`` (frame columns, setup
  features);
* ``spec.SPEC`` - the :class:`tajsim.engine.spec.GameSpec`; ``board_plot`` - the picture;
  ``analyses/`` - the game's own analyses.

Rules decisions: ``docs/games/maharaja/rules.md``; components: ``components.md``; strategies:
``strategies.md``.
"""

SOURCE_FOLDERS = ("engine", "strategies", "play")
