"""Gestures from the mouse, and the keys the table reads.

``Pointer`` turns raw mouse events into gestures: a press and a release less
than ``CLICK_SLOP`` pixels apart is a click, anything longer is a drag. What a
gesture means on the table (an intent, then an engine action) is decided in
``ui/table/controls.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import pygame


CLICK_SLOP = 6  # pixels: a press that moves less than this is still a click


@dataclass
class Gesture:
    kind: str                       # "click", "drag_start", "drag", "drop", "cancel"
    pos: tuple[int, int]
    start: tuple[int, int]
    button: int = 1


class Pointer:
    """Press / move / release -> click, drag_start, drag, drop; right button -> cancel."""

    def __init__(self, slop: int = CLICK_SLOP):
        self.slop = slop
        self.pressed: Optional[tuple[int, int]] = None
        self.dragging = False
        self.pos = (0, 0)

    def reset(self) -> None:
        self.pressed = None
        self.dragging = False

    def feed(self, event: pygame.event.Event) -> list[Gesture]:
        out: list[Gesture] = []
        et = event.type
        if et == pygame.MOUSEBUTTONDOWN:
            pos = tuple(event.pos)
            self.pos = pos
            if event.button == 1:
                self.pressed = pos
                self.dragging = False
            elif event.button == 3:
                self.reset()
                out.append(Gesture("cancel", pos, pos, 3))
        elif et == pygame.MOUSEMOTION:
            pos = tuple(event.pos)
            self.pos = pos
            if self.pressed is not None:
                dx, dy = pos[0] - self.pressed[0], pos[1] - self.pressed[1]
                if not self.dragging and dx * dx + dy * dy >= self.slop * self.slop:
                    self.dragging = True
                    out.append(Gesture("drag_start", pos, self.pressed))
                if self.dragging:
                    out.append(Gesture("drag", pos, self.pressed))
        elif et == pygame.MOUSEBUTTONUP and event.button == 1:
            pos = tuple(event.pos)
            self.pos = pos
            if self.pressed is not None:
                start = self.pressed
                dx, dy = pos[0] - start[0], pos[1] - start[1]
                if self.dragging or dx * dx + dy * dy >= self.slop * self.slop:
                    out.append(Gesture("drop", pos, start))
                else:
                    out.append(Gesture("click", pos, start))
            self.reset()
        return out


# ------------------------------------------------------------------ keys
HAND_KEYS = {getattr(pygame, f"K_{i}"): i - 1 for i in range(1, 10)}
HAND_KEYS.update({getattr(pygame, f"K_KP{i}"): i - 1 for i in range(1, 10)})
CONFIRM_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)
