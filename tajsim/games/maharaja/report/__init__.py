"""Maharaja's report sections and board pictures (``SECTIONS``, read through the spec's
``report_module``; ``board_plot`` draws the board and the toll heat map)."""

from tajsim.games.maharaja.report.sections import SECTIONS

__all__ = ["SECTIONS"]
