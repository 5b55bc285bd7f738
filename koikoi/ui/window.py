"""The window's sizes: what a requested size is clamped to, and the back buffer a
window below the minimum layout size is drawn on (koikoi.ui.app.App uses both).

    clamp_window_size((5000, 5000), [(1920, 1080)])   # ((3840, 2160), True)
    buffer_size((3, 447), (960, 540))                 # None if the window is big enough
"""

from __future__ import annotations

from typing import Optional

import pygame

from ..storage import MAX_WINDOW

MAX_BUFFER_RATIO = 4.0     # a back buffer (tiny windows) is at most 4:1 either way...
MAX_BUFFER_SIDE = 8192     # ...and at most this many pixels on a side

# the window events that show the window again, and those that hide it
WINDOW_SHOWN = tuple(getattr(pygame, n) for n in (
    "WINDOWRESTORED", "WINDOWMAXIMIZED", "WINDOWSHOWN", "WINDOWEXPOSED", "WINDOWFOCUSGAINED")
    if hasattr(pygame, n))
WINDOW_HIDDEN = tuple(getattr(pygame, n) for n in ("WINDOWMINIMIZED", "WINDOWHIDDEN")
                      if hasattr(pygame, n))


def clamp_window_size(size, desktops=None) -> tuple[tuple[int, int], bool]:
    """((w, h), clamped?): ``size`` within MAX_WINDOW and twice the largest
    desktop on each side (``desktops``: (w, h) pairs; asked of SDL if None)."""
    try:
        w, h = int(size[0]), int(size[1])
    except (TypeError, ValueError, IndexError, OverflowError):
        return (1280, 720), True
    limit_w, limit_h = MAX_WINDOW
    if desktops is None:
        try:
            desktops = pygame.display.get_desktop_sizes()
        except (pygame.error, AttributeError):
            desktops = []
    desktops = [(dw, dh) for dw, dh in desktops if dw > 0 and dh > 0]
    if desktops:
        limit_w = min(limit_w, 2 * max(dw for dw, _ in desktops))
        limit_h = min(limit_h, 2 * max(dh for _, dh in desktops))
    out = (max(1, min(w, limit_w)), max(1, min(h, limit_h)))
    return out, out != (w, h)


def buffer_size(window: tuple[int, int], minimum: tuple[int, int]) -> Optional[tuple[int, int]]:
    """The back buffer's size for a window smaller than ``minimum`` on either side, or None
    when the scenes can draw on the window itself.

    The buffer is at least the minimum and keeps the window's shape so the scaled picture is
    not distorted, up to 4:1 either way: a 3x447 window would otherwise ask for a 960x143040
    buffer (550 MB), and pygame-ce's smoothscale corrupts the heap when it shrinks a source
    that tall (a "double free" abort, found by tools/fuzz.py)."""
    ww, wh = window
    mw, mh = minimum
    if ww >= mw and wh >= mh:
        return None
    bw, bh = max(ww, mw), max(wh, mh)
    if ww > 0 and wh > 0:
        ratio = min(MAX_BUFFER_RATIO, max(1 / MAX_BUFFER_RATIO, ww / wh))
        if bw / bh < ratio:
            bw = int(bh * ratio)
        else:
            bh = int(bw / ratio)
    return min(bw, MAX_BUFFER_SIDE), min(bh, MAX_BUFFER_SIDE)


def map_pos(pos, window: tuple[int, int], buffer: tuple[int, int]) -> tuple[int, int]:
    """A position in the window as a position on the back buffer scaled into it."""
    ww, wh = window
    bw, bh = buffer
    return int(pos[0] * bw / max(1, ww)), int(pos[1] * bh / max(1, wh))


__all__ = ["MAX_BUFFER_RATIO", "MAX_BUFFER_SIDE", "WINDOW_SHOWN", "WINDOW_HIDDEN", "clamp_window_size",
           "buffer_size", "map_pos"]
