"""The games tajsim plays, one wing each (``tajsim/games/<name>/``), registered by name.

Each wing exposes a :class:`tajsim.engine.spec.GameSpec` in its ``spec`` module; the generic
layers (running, analysis, reporting, the command line) reach a game only through it.
"""
