"""Maharaja's report sections (``SECTIONS``)."""

from __future__ import annotations

#: name -> (section function, what it shows), in report order.
SECTIONS: dict = {}
