"""Scenes: a small state machine with overlays (pyroller's pattern).

The app keeps a stack of scenes. Events go to the top scene first; a scene
that is not ``opaque`` (an overlay such as the Koi-Koi prompt or pause) is
drawn over the scenes beneath it. Scenes lay themselves out in real window
pixels from ``app.size`` and re-layout in ``resize``; card images come from
``app.assets`` already scaled for a size, so nothing is rescaled per frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

if TYPE_CHECKING:  # pragma: no cover
    from .app import App


class Scene:
    opaque = True          # False: the scene below is drawn first (overlays)
    pauses_below = True    # True: scenes below get no update() while this is on top
    animating = False      # True while something moves: the loop runs at full frame rate

    def __init__(self, app: "App"):
        self.app = app

    def enter(self) -> None:
        """Called when the scene becomes the top of the stack (pushed or uncovered)."""

    def exit(self) -> None:
        """Called when the scene is popped or replaced."""

    def resize(self, size: tuple[int, int]) -> None:
        """The window changed size: recompute the layout."""

    def handle(self, event: pygame.event.Event) -> bool:
        """React to one input event; return True if it was consumed."""
        return False

    def update(self, dt: float) -> None:
        """Advance by ``dt`` seconds (animations, CPU polling)."""

    def draw(self, surface: pygame.Surface) -> None:
        """Draw the whole scene (or, for an overlay, what lies over the scene below)."""
