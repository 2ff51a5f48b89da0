"""Taj Mahal's rules: constants and layouts (``enums``), kernels (``nb``), components
(``components``, ``component_files``, ``alternatives``, ``data/``), step-by-step play
(``game``), invariants."""
