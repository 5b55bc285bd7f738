"""What the app draws above every scene: the toasts (short messages at the top of the
window) and the hover that shows the whole of a text cut with "…".

    toast = Toast("Saved", 5.0)          # App.toast appends one to app.toasts
    draw_toasts(surface, app.toasts, app.assets, app.size)
    tip = CutTip(); tip.pointer = pos; tip.update(dt); tip.draw(surface, app.assets, app.size)
"""

from __future__ import annotations

from typing import Optional

import pygame

from . import theme
from . import widgets as W
from .tooltip import place

CUT_TIP_DELAY = 0.45       # seconds the pointer rests on a cut text before its whole shows


class Toast:
    """A short message shown at the top of the window for a few seconds."""

    def __init__(self, text: str, seconds: float = 5.0, kind: str = "info"):
        self.text = text
        self.left = seconds
        self.total = seconds
        self.kind = kind


def draw_toasts(surface: pygame.Surface, toasts: list[Toast], assets, size: tuple[int, int]) -> None:
    """The last three toasts, one under the other, each fading in and out."""
    if not toasts:
        return
    s = theme.scale(size)
    font = assets.font(theme.font_px("small", s))
    y = theme.px(theme.SPACE_L, s)
    maxw = min(size[0] - 2 * theme.px(40, s), theme.px(1100, s))
    for toast in toasts[-3:]:
        lines = W.wrap_text(toast.text, font, maxw - 2 * theme.px(28, s))
        lh = font.get_linesize()
        w = max(font.size(line)[0] for line in lines) + 2 * theme.px(28, s)
        h = lh * len(lines) + 2 * theme.px(14, s)
        rect = pygame.Rect(0, y, w, h)
        rect.centerx = size[0] // 2
        fade = min(1.0, toast.left / 0.4, (toast.total - toast.left) / 0.2 + 0.001)
        border = theme.GOLD if toast.kind == "info" else theme.LACQUER_LIGHT
        layer = pygame.Surface(rect.inflate(80, 80).size, pygame.SRCALPHA)
        W.draw_panel(layer, pygame.Rect(40, 40, w, h), fill=theme.PANEL_STRONG, border=border, s=s)
        for i, line in enumerate(lines):
            W.draw_text(layer, line, font, theme.CREAM, (40 + w // 2, 40 + theme.px(14, s) + i * lh),
                        "midtop")
        layer.set_alpha(int(255 * max(0.0, min(1.0, fade))))
        surface.blit(layer, (rect.x - 40, rect.y - 40))
        y += h + theme.px(12, s)


class CutTip:
    """The one text rule's hover: the pointer resting on a text cut with "…" (or a list
    cut short) shows the whole of it beside the pointer."""

    def __init__(self):
        self.pointer = None                  # the pointer's last position (None: off the window)
        self.shown: Optional[str] = None     # the whole of the cut text under the pointer
        self.rested = 0.0                    # and how long the pointer has rested on it

    def update(self, dt: float) -> None:
        self.rested += dt

    def draw(self, surface: pygame.Surface, assets, size: tuple[int, int]) -> None:
        pos = self.pointer
        hit = None
        if pos is not None:
            for rect, whole in reversed(W.cuts_shown()):
                if rect.collidepoint(pos):
                    hit = whole
                    break
        if hit != self.shown:
            self.shown, self.rested = hit, 0.0
        if hit is None or self.rested < CUT_TIP_DELAY:
            return
        s = theme.scale(size)
        font = assets.font(theme.font_px("small", s))
        pad = theme.px(12, s)
        lines = W.wrap_text(hit, font, max(120, size[0] * 2 // 5))[:12]
        w = max(W.text_width(ln, font) for ln in lines) + 2 * pad
        h = len(lines) * font.get_linesize() + 2 * pad
        r = place(surface.get_size(), pos, (w, h))
        surface.blit(W.rounded_surface((w, h), max(4, pad // 2), (22, 14, 14, 246), bottom=(10, 8, 8, 246),
                                       border=theme.GOLD, border_width=max(1, theme.px(2, s))), r.topleft)
        y = r.y + pad
        for ln in lines:
            W.draw_text(surface, ln, font, theme.CREAM, (r.x + pad, y), shadow=False)
            y += font.get_linesize()


__all__ = ["CUT_TIP_DELAY", "Toast", "draw_toasts", "CutTip"]
