"""tajsim.play: games between strategies, for any registered game.

* ``mixed`` - one game step by step with compiled and pure-Python seats (``play_game``);
* ``arena`` - many games through a game's batch kernels, for tuning and the ladder;
* ``tuning`` - CMA-ES tuning of a heuristic's weights (pycma) on common random numbers;
* ``conformance`` - the checks every game and every registered strategy must pass.
"""
