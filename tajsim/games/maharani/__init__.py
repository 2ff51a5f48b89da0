"""Maharani (Wolfgang Panning, Queen Games 2012; 2-4 players), the third game of tajsim.

Players lay mosaic tiles from a turntable into the four quarters of the palace, earn gold for
zones of same-coloured tiles and for groups of their artisans, and score each quarter's artisans
when its last space fills. The rules follow the publisher's French text
(``docs/games/maharani/rules.md`` quotes it beside every decision); the palace and tile data are
reconstructed (``docs/games/maharani/components.md``).

Where things are:

* ``engine/``: ``enums`` (every integer constant, state and component layouts, record dtypes),
  ``nb`` (the rules kernels), ``components`` (+ ``data/*.toml``), ``game`` (step-by-step
  ``Game`` with its event log and the palace drawn as text), ``invariants`` (``check_state``,
  ``expected_legal``, ``redraw_hidden``);
* ``strategies/``: ``random``, ``greedy``, the parametric heuristic and its presets, determinised
  MCTS over the hidden bag; ``registry.REGISTRY``; ``view.PlayerView``;
* ``play/``: the batch kernels (``nb``) and the results-frame helpers (``records``);
* ``analyses``: the game's own analyses (``ANALYSES``, ``REQUIRED_COLUMNS``);
* ``board_plot``: pictures of the palace; ``spec.SPEC``: the :class:`GameSpec` of the game.
"""

SOURCE_FOLDERS = ("engine", "strategies", "play")
