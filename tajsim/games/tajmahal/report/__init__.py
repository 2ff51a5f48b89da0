"""Taj Mahal's report sections and board picture (``SECTIONS``, read through the spec's
``report_module``)."""

from tajsim.games.tajmahal.report import sections, shortage
from tajsim.games.tajmahal.report.shortage import caveats

#: name -> (section function, what it shows), in report order.
SECTIONS = {**sections.SECTIONS, **shortage.SECTIONS}

__all__ = ["SECTIONS", "caveats"]
