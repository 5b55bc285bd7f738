"""Fixtures of the UI tests; the helpers themselves are plain functions in harness.py.

``app``: a headless App at 1280x720 on this test's temporary KOIKOI_HOME, animations
instant. A module or a test asks for another one with the ``app`` marker, whose
keywords go to ``harness.make_app``::

    pytestmark = pytest.mark.app(anim_speed=2.0, muted=True)

    @pytest.mark.app(size=(1920, 1080), seed=7)
    def test_big(app): ...
"""

from __future__ import annotations

import pygame
import pytest

from harness import close_app, make_app


def pytest_configure(config):
    config.addinivalue_line("markers", "app(**kw): how the `app` fixture is made (harness.make_app keywords)")


@pytest.fixture
def app(request, koikoi_home):
    kw = {}
    for mark in reversed(list(request.node.iter_markers("app"))):     # the closest wins
        kw.update(mark.kwargs)
    kw.setdefault("home", koikoi_home)
    a = make_app(**kw)
    yield a
    close_app(a)


@pytest.fixture
def screen():
    """A bare 1280x720 display, for widgets and assets without an App."""
    pygame.display.init()
    surf = pygame.display.set_mode((1280, 720))
    yield surf
    pygame.display.quit()
