"""tajsim.reporting: reports, experiments and the strength ladder, for any registered game.

* ``render`` - blocks, the report context, formatting and plotting helpers;
* ``sections`` - the generic sections and the registry that adds a game's own;
* ``report`` - :func:`build_report`; ``experiments`` - ``tajsim run`` from file to report;
* ``ladder`` - the strength ladder written into a game's strategies document;
* ``outputs`` - output folders marked as a command's own (never writing over anything else).
"""
