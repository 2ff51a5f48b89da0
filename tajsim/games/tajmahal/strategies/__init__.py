"""Taj Mahal's strategies: ids, the features a seat may read, the parametric heuristic and
greedy, ISMCTS, the dispatcher (``nb``), the registry and presets, and the pure-Python view."""
