"""Taj Mahal's report sections and board picture (``SECTIONS``, read through the spec's
``report_module``)."""

from tajsim.games.tajmahal.report.sections import SECTIONS

__all__ = ["SECTIONS"]
