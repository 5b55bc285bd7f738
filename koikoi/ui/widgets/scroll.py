"""Scrolling: ``Scroller`` (a viewport over taller content, with its bar) and
``layout_columns``."""

from __future__ import annotations

from typing import Optional

import pygame

from .. import theme
from .core import _is_click_down, _is_click_up, _rect
from .draw import rounded_surface

# ------------------------------------------------------------------ scrolling


def layout_columns(columns, inner: pygame.Rect) -> list:
    """Table columns ``(key, header, weight, align)`` laid across ``inner`` by weight:
    ``[(key, header, x, width, align), ...]``."""
    total = sum(c[2] for c in columns)
    x = inner.x
    out = []
    for key, header, weight, align in columns:
        cw = int(inner.w * weight / total)
        out.append((key, header, x, cw, align))
        x += cw
    return out


class Scroller:
    """Vertical scrolling for a list or text taller than its viewport.

    Set ``viewport`` (a Rect) and ``content_height``; read ``offset`` (px to
    shift content up). The wheel scrolls when over the viewport; Up/Down,
    PageUp/PageDown, Home/End scroll when ``keys`` is on; the scrollbar thumb
    can be dragged. ``update(dt)`` eases towards the target.
    """

    def __init__(self, viewport=None, content_height: int = 0, *, keys: bool = True, line: int = 40):
        self.viewport = _rect(viewport or (0, 0, 1, 1))
        self.content_height = content_height
        self.offset = 0.0
        self.target = 0.0
        self.keys = keys
        self.line = line
        self._drag: Optional[tuple[int, float]] = None

    @property
    def max_offset(self) -> float:
        return max(0.0, self.content_height - self.viewport.h)

    @property
    def scrollable(self) -> bool:
        return self.max_offset > 0

    @property
    def animating(self) -> bool:
        return abs(self.offset - self.target) > 0.5

    def scroll_to(self, target: float, *, instant: bool = False) -> None:
        self.target = max(0.0, min(self.max_offset, target))
        if instant:
            self.offset = self.target

    def scroll_by(self, d: float) -> None:
        self.scroll_to(self.target + d)

    def reveal(self, top: float, height: float) -> None:
        """Scroll just enough that content from ``top`` to ``top + height`` is in view."""
        if top < self.target:
            self.scroll_to(top)
        elif top + height > self.target + self.viewport.h:
            self.scroll_to(top + height - self.viewport.h)

    def update(self, dt: float) -> None:
        self.target = max(0.0, min(self.max_offset, self.target))
        if dt <= 0:
            self.offset = self.target
            return
        k = min(1.0, dt * 18)
        self.offset += (self.target - self.offset) * k
        if abs(self.offset - self.target) < 0.5:
            self.offset = self.target

    def _bar(self) -> tuple[pygame.Rect, pygame.Rect]:
        v = self.viewport
        w = max(4, v.w // 120 if v.w > 600 else 6)
        track = pygame.Rect(v.right + w, v.y, w, v.h)
        if not self.scrollable:
            return track, track
        th = max(w * 4, int(v.h * v.h / max(1, self.content_height)))
        ty = v.y + int((v.h - th) * (self.offset / self.max_offset))
        return track, pygame.Rect(track.x, ty, w, th)

    def handle(self, event: pygame.event.Event) -> bool:
        if not self.scrollable:
            return False
        if event.type == pygame.MOUSEWHEEL:
            pos = pygame.mouse.get_pos()
            if self.viewport.inflate(40, 0).collidepoint(pos) or not pygame.mouse.get_focused():
                self.scroll_by(-event.y * self.line * 2)
                return True
            return False
        if _is_click_down(event):
            track, thumb = self._bar()
            if track.inflate(12, 0).collidepoint(event.pos):
                if thumb.inflate(12, 0).collidepoint(event.pos):
                    self._drag = (event.pos[1], self.offset)
                else:
                    self.scroll_by(self.viewport.h * (1 if event.pos[1] > thumb.centery else -1))
                return True
        if event.type == pygame.MOUSEMOTION and self._drag:
            y0, off0 = self._drag
            track, thumb = self._bar()
            room = max(1, track.h - thumb.h)
            self.scroll_to(off0 + (event.pos[1] - y0) * self.max_offset / room, instant=True)
            return False
        if _is_click_up(event) and self._drag:
            self._drag = None
            return True
        if event.type == pygame.KEYDOWN and self.keys:
            k = event.key
            if k == pygame.K_DOWN:
                self.scroll_by(self.line)
            elif k == pygame.K_UP:
                self.scroll_by(-self.line)
            elif k in (pygame.K_PAGEDOWN, pygame.K_SPACE):
                self.scroll_by(self.viewport.h * 0.85)
            elif k == pygame.K_PAGEUP:
                self.scroll_by(-self.viewport.h * 0.85)
            elif k == pygame.K_HOME:
                self.scroll_to(0)
            elif k == pygame.K_END:
                self.scroll_to(self.max_offset)
            else:
                return False
            return True
        return False

    def draw_bar(self, surface: pygame.Surface) -> None:
        if not self.scrollable:
            return
        track, thumb = self._bar()
        surface.blit(rounded_surface(track.size, track.w // 2, (255, 255, 255, 24)), track.topleft)
        surface.blit(rounded_surface(thumb.size, thumb.w // 2, theme.GOLD, bottom=theme.GOLD_DARK),
                     thumb.topleft)
