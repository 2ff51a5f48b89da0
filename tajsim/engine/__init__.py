"""tajsim.engine: what every game's rules stand on.

* ``spec`` - :class:`GameSpec`, the interface a game declares to the generic layers;
* ``base_game`` - step-by-step play and game records shared by every game;
* ``rng`` - counter-based splitmix64 streams for the kernels;
* ``component_files`` - reading and checking component files with one-line errors.
"""
