"""Maharani's report sections and palace pictures (``SECTIONS``, read through the spec's
``report_module``; ``board_plot`` draws the palace)."""

from tajsim.games.maharani.report.sections import SECTIONS

__all__ = ["SECTIONS"]
