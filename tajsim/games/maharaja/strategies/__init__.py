"""Maharaja strategies: compiled policies, their dispatcher, registry and player view."""
