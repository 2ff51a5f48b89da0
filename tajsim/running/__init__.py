"""tajsim.running: the batch runner (``simulate``), run directories and experiment files.

Everything is imported lazily, so ``import tajsim`` stays cheap: the compiled kernels load on
the first game.
"""

from __future__ import annotations

from typing import Any

__all__ = ["load_aggregates", "load_results", "run_experiment", "run_simulation", "simulate"]

_WHERE = {
    "simulate": "tajsim.running.simulate",
    "run_simulation": "tajsim.running.simulate",
    "load_results": "tajsim.running.store",
    "load_aggregates": "tajsim.running.store",
    "run_experiment": "tajsim.running.experiments",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        import importlib

        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'tajsim.running' has no attribute {name!r}")
