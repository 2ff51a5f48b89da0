"""Errors a user can fix. The CLI prints them as one line and exits with status 2."""

from __future__ import annotations


class UserError(ValueError):
    """Bad input: the message names the bad value and what was expected, on one line."""
