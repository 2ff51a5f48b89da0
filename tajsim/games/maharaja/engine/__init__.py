"""Maharaja rules: constants, kernels, components, setups, the Game API and invariants."""
