"""Errors a user can fix. The CLI prints them as one line and exits with status 2."""

from __future__ import annotations

from typing import Any

#: The longest a bad value is shown in a one-line message.
SHOWN_WIDTH = 60


class UserError(ValueError):
    """Bad input: the message names the bad value and what was expected, on one line."""


def cut(text: str, width: int = SHOWN_WIDTH) -> str:
    """``text`` cut to ``width`` characters, with an ellipsis where it is longer."""
    return text if len(text) <= width else text[:width - 3] + "..."


def shown(value: Any, width: int = SHOWN_WIDTH) -> str:
    """``repr(value)`` as a one-line message shows a bad value (:func:`cut`)."""
    return cut(repr(value), width)
