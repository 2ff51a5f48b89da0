"""Maharaja's report sections and board pictures (``SECTIONS``, read through the spec's
``report_module``): those of ``sections.py``, with ``seat_card_sections.py``'s after the
character cards; ``board_plot`` draws the board and the toll heat map)."""

from tajsim.games.maharaja.report.seat_card_sections import SECTIONS as _SEAT_CARD_SECTIONS
from tajsim.games.maharaja.report.sections import SECTIONS as _SECTIONS

SECTIONS = {}
for _name, _section in _SECTIONS.items():
    SECTIONS[_name] = _section
    if _name == "cards":
        SECTIONS.update(_SEAT_CARD_SECTIONS)

__all__ = ["SECTIONS"]
