"""Analyses: pandas pipelines over results frames (see docs/analysis.md).

``ANALYSES`` names every analysis usable from experiment files; ``run_analyses`` runs a list.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ANALYSES", "run_analyses"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from tajsim.analysis import registry

        return getattr(registry, name)
    raise AttributeError(f"module 'tajsim.analysis' has no attribute {name!r}")
