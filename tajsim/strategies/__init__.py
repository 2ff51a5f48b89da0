"""tajsim.strategies: the players.

* ``ids`` - strategy ids and the parameter-vector size shared by the kernels;
* ``features`` - compiled helpers that read only what a seat may see;
* ``heuristic`` - the parametric heuristic (presets) and ``greedy``;
* ``rollout`` - ``random`` and the non-search dispatcher used inside rollouts;
* ``ismcts`` - information-set Monte Carlo tree search with determinisation;
* ``nb`` - ``choose_action_nb``, the dispatcher the game loops call;
* ``registry`` - names, descriptions and parameters (``presets.toml`` for the presets);
* ``python_policy`` - the pure-Python interface, mixed tables and plug-in loading;
* ``arena``, ``tuning``, ``ladder`` - matches, ``tajsim tune`` and ``tajsim ladder``.

See ``docs/strategies.md``.
"""
