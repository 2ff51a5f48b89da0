"""Taj Mahal's batch kernels (``nb``: whole games, records) and its own results-frame columns and
setup features (``records``)."""
