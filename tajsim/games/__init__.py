"""The games tajsim plays, one wing each (``tajsim/games/<name>/``), registered by name.

Each wing exposes a :class:`tajsim.engine.spec.GameSpec` in its ``spec`` module; the generic
layers (running, analysis, reporting, the command line) reach a game only through it.
"""

#: The registered games, by package name (``tajsim/games/<name>/``): a new game's one line.
#: Each package's ``__init__`` is cheap (no kernels): it declares ``SOURCE_FOLDERS``, read by
#: :mod:`tajsim.games.fingerprint` before any kernel is compiled; :mod:`tajsim.games.registry`
#: loads each package's ``spec`` (its ``SPEC`` is named as the package).
GAME_PACKAGES = ("tajmahal", "maharaja", "maharani", "nothanks")
DEFAULT_GAME = "tajmahal"
