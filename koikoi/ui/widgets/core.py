"""What every widget module shares: bounded caches, the small helpers, the
``Widget`` base class and keyboard focus (``FocusGroup``)."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Optional, Sequence

import pygame

from ..assets import get_assets

# ------------------------------------------------------------------ caches


def _pixels(value) -> int:
    if isinstance(value, pygame.Surface):
        return value.get_width() * value.get_height()
    if isinstance(value, tuple):
        return sum(_pixels(v) for v in value)
    return 0


class _Cache(OrderedDict):
    """An LRU cache bounded by entry count and by total pixels held, so big
    panels rendered at many window sizes cannot pile up in memory."""

    def __init__(self, limit: int, max_pixels: int = 48_000_000):
        super().__init__()
        self.limit = limit
        self.max_pixels = max_pixels
        self.pixels = 0

    def get_or(self, key, make: Callable[[], Any]):
        if key in self:
            self.move_to_end(key)
            return self[key]
        value = make()
        self.put(key, value)
        return value

    def put(self, key, value) -> None:
        if key in self:
            self.pixels -= _pixels(OrderedDict.__getitem__(self, key))
        OrderedDict.__setitem__(self, key, value)
        self.move_to_end(key)
        self.pixels += _pixels(value)
        while len(self) > 1 and (len(self) > self.limit or self.pixels > self.max_pixels):
            _, old = self.popitem(last=False)
            self.pixels -= _pixels(old)

    def clear(self) -> None:
        super().clear()
        self.pixels = 0     # else a cleared cache would count the old pixels and keep one entry


def _assets(assets):
    if assets is not None:
        return assets
    return get_assets()


def _rect(r) -> pygame.Rect:
    return r.copy() if isinstance(r, pygame.Rect) else pygame.Rect(r)


def _play(assets, name: str, volume: float = 1.0) -> None:
    try:
        if assets is not None:
            assets.play(name, volume)
    except Exception:  # a sound must never break a click
        pass


# ------------------------------------------------------------------ base


class Widget:
    """What every widget shares: a rect, enabled/hover/focus state, the Assets."""

    focusable = True

    def __init__(self, rect, *, enabled: bool = True, assets=None):
        self.rect = _rect(rect)
        self.enabled = enabled
        self.hovered = False
        self.focused = False
        self.visible = True
        self.assets = assets

    @property
    def _a(self):
        return _assets(self.assets)

    def _track_hover(self, event: pygame.event.Event) -> None:
        if event.type == pygame.MOUSEMOTION:
            self.hovered = self.visible and self.rect.collidepoint(event.pos)
        elif event.type == pygame.WINDOWLEAVE:
            self.hovered = False

    def handle(self, event: pygame.event.Event) -> bool:  # pragma: no cover - overridden
        return False

    def draw(self, surface: pygame.Surface) -> None:  # pragma: no cover - overridden
        pass


def panels_below(area: pygame.Rect, above: int, gap: int, share: float) -> tuple[pygame.Rect, pygame.Rect]:
    """Two panels side by side filling ``area`` below a band ``above`` pixels tall (a
    screen's tiles), ``gap`` pixels from the band and from each other; the left one takes
    ``share`` of the width."""
    below = area.y + above + gap
    left = pygame.Rect(area.x, below, int(area.w * share), area.bottom - below)
    right = pygame.Rect(left.right + gap, below, area.right - left.right - gap, area.bottom - below)
    return left, right


def tile_rects(area: pygame.Rect, n: int, gap: int, height: int) -> list[pygame.Rect]:
    """``n`` tiles side by side along the top of ``area``, ``gap`` pixels apart, ``height``
    tall (the summary tiles of the profile and statistics screens)."""
    tw = (area.w - gap * (n - 1)) // max(1, n)
    return [pygame.Rect(area.x + i * (tw + gap), area.y, tw, height) for i in range(n)]


def _is_click_down(event) -> bool:
    return event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1


def _is_click_up(event) -> bool:
    return event.type == pygame.MOUSEBUTTONUP and getattr(event, "button", 1) == 1


_ACTIVATE_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


# ------------------------------------------------------------------ focus


class FocusGroup:
    """Keyboard focus over a list of widgets: Tab / Shift-Tab / Down / Up move it
    (skipping disabled or hidden ones). Mouse motion over a widget does not
    steal focus; the first key press shows the focus ring."""

    def __init__(self, widgets: Sequence[Widget] = (), *, vertical_keys: bool = True):
        self.widgets = list(widgets)
        self.index: Optional[int] = None
        self.vertical_keys = vertical_keys

    def set(self, widgets: Sequence[Widget]) -> None:
        current = self.current
        self.widgets = list(widgets)
        self.index = None
        for w in self.widgets:
            w.focused = False
        if current is not None and current in self.widgets:
            self.focus(current)

    @property
    def current(self) -> Optional[Widget]:
        if self.index is None or self.index >= len(self.widgets):
            return None
        return self.widgets[self.index]

    def focus(self, widget: Optional[Widget]) -> None:
        for w in self.widgets:
            w.focused = False
        if widget is None:
            self.index = None
            return
        self.index = self.widgets.index(widget)
        widget.focused = True

    def _ok(self, w: Widget) -> bool:
        return w.visible and w.enabled and w.focusable

    def move(self, d: int) -> None:
        n = len(self.widgets)
        if not n:
            return
        i = (self.index if self.index is not None else (-1 if d > 0 else 0))
        for _ in range(n):
            i = (i + d) % n
            if self._ok(self.widgets[i]):
                self.focus(self.widgets[i])
                return

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type != pygame.KEYDOWN:
            if event.type == pygame.MOUSEBUTTONDOWN:
                self.focus(None)   # a mouse user does not need the ring
            return False
        back = event.key == pygame.K_TAB and event.mod & pygame.KMOD_SHIFT
        if event.key == pygame.K_TAB or (self.vertical_keys and event.key in (pygame.K_DOWN, pygame.K_UP)):
            self.move(-1 if back or event.key == pygame.K_UP else 1)
            return True
        return False
