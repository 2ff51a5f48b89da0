"""Maharaja's report sections and board pictures (``SECTIONS``, read through the spec's
``report_module``): the registry in ``sections.py``, one module a family of sections beside it;
``board_plot`` draws the board and the toll heat map."""

from tajsim.games.maharaja.report.sections import SECTIONS

__all__ = ["SECTIONS"]
