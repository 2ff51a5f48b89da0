"""Taj Mahal's test fixtures: the shipped component data and its packed array (session
fixtures; a test that needs other data takes a copy). The helpers are in
``tajmahal_helpers.py``."""

from __future__ import annotations

import pytest

from tajsim.games.tajmahal.engine.component_files import default_components


@pytest.fixture(scope="session")
def components():
    return default_components()


@pytest.fixture(scope="session")
def comp(components):
    return components.packed()  # tests that need other data take a copy
