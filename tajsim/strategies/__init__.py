"""tajsim.strategies: what every game's players share.

* ``spec`` - :class:`StrategySpec` and :class:`StrategyRegistry`: a game's strategies by name,
  compiled id and parameter vector;
* ``python_policy`` - the pure-Python policy interface and the plug-in loader.

A game's compiled strategies live in its wing (``tajsim/games/<name>/strategies/``). See
``docs/strategies.md`` and ``docs/architecture.md``.
"""
