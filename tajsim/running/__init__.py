"""tajsim.running: the batch runner for any registered game.

* ``config`` - a run's validated configuration and seating; ``chunk`` - one chunk of games;
* ``executors`` - threads, numba's prange, processes or a Dask cluster;
* ``store`` - a run directory (manifest, Parquet chunks, aggregates), resume and checks;
* ``aggregates`` - mergeable sums; ``records`` - the results frame;
* ``simulate`` - ``simulate`` / ``run_simulation``; ``experiments`` - experiment files;
* ``benchmarking`` - timing the kernels; ``machine`` - what machine a figure comes from.
"""
