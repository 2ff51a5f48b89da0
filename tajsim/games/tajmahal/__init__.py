"""Reiner Knizia's *Taj Mahal* (2000 and 2018 editions), the first game of tajsim.

* ``engine/`` - the rules: constants and layouts (``enums``), kernels (``nb``), components and
  their files (``components``, ``data/``), step-by-step play (``game``), invariants;
* ``strategies/`` - compiled strategies selected by id, the registry and presets, the view that
  pure-Python policies get;
* ``play/`` - the batch kernels that play whole games and write the records, and the game's own
  results-frame columns;
* ``spec.py`` - the registered :class:`~tajsim.engine.spec.GameSpec`;
* ``analyses/`` and ``report/`` - commodity and connection analyses, their report sections and
  the board picture.
"""

#: Folders whose sources decide games and records (the code fingerprint and numba's cache key).
SOURCE_FOLDERS = ("engine", "strategies", "play")
