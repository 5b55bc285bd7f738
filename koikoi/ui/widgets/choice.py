"""``ChoiceRow``: a row (or grid) of pills, one of them selected."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence

import pygame

from .. import theme
from .core import Widget, _is_click_down, _is_click_up, _play
from .draw import rounded_surface, soft_shadow
from .text import draw_text, fit_size

# ------------------------------------------------------------------ choice row


@dataclass
class Choice:
    value: Any
    label: str
    sublabel: Optional[str] = None
    enabled: bool = True


class ChoiceRow(Widget):
    """A row (or grid, with ``columns``) of selectable pills: one is selected.

    ``options``: ``Choice`` values or ``(value, label)`` / ``(value, label,
    sublabel)`` tuples. Clicking an enabled pill selects it and calls
    ``on_change(value)``; Left/Right move the selection while focused.
    """

    def __init__(self, rect, options: Sequence, selected: Any,
                 on_change: Optional[Callable[[Any], Any]] = None, *, columns: Optional[int] = None,
                 gap: Optional[int] = None, assets=None, enabled: bool = True,
                 font_size: Optional[int] = None):
        super().__init__(rect, enabled=enabled, assets=assets)
        self.font_size = font_size
        self.options = [o if isinstance(o, Choice) else Choice(*o) for o in options]
        if not self.options:
            raise ValueError("a ChoiceRow needs at least one option")
        self.selected = selected if any(o.value == selected for o in self.options) else self.options[0].value
        self.on_change = on_change
        self.columns = columns
        self.gap = gap
        self._hover_i: Optional[int] = None
        self._press_i: Optional[int] = None

    @property
    def selected_index(self) -> int:
        for i, o in enumerate(self.options):
            if o.value == self.selected:
                return i
        return 0

    def rects(self) -> list[pygame.Rect]:
        n = len(self.options)
        cols = max(1, min(n, self.columns or n))
        rows = (n + cols - 1) // cols
        gap = self.gap if self.gap is not None else max(4, self.rect.h // (rows * 6))
        cw = (self.rect.w - gap * (cols - 1)) / cols
        ch = (self.rect.h - gap * (rows - 1)) / rows
        out = []
        for i in range(n):
            c, rr = i % cols, i // cols
            out.append(pygame.Rect(int(self.rect.x + c * (cw + gap)), int(self.rect.y + rr * (ch + gap)),
                                   int(cw), int(ch)))
        return out

    def select(self, value: Any, *, notify: bool = True) -> None:
        for o in self.options:
            if o.value == value and o.enabled:
                if value != self.selected:
                    self.selected = value
                    if notify and self.on_change is not None:
                        self.on_change(value)
                return

    def _index_at(self, pos) -> Optional[int]:
        for i, r in enumerate(self.rects()):
            if r.collidepoint(pos):
                return i
        return None

    def handle(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        self._track_hover(event)
        if event.type == pygame.MOUSEMOTION:
            self._hover_i = self._index_at(event.pos) if self.hovered else None
            return False
        if _is_click_down(event) and self.rect.collidepoint(event.pos):
            self._press_i = self._index_at(event.pos)
            return True
        if _is_click_up(event) and self._press_i is not None:
            i, self._press_i = self._press_i, None
            if self.enabled and self._index_at(event.pos) == i and self.options[i].enabled:
                if self.options[i].value != self.selected:
                    _play(self._a, "click", 0.6)
                self.select(self.options[i].value)
            return True
        if event.type == pygame.KEYDOWN and self.focused and self.enabled:
            d = {pygame.K_LEFT: -1, pygame.K_RIGHT: 1}.get(event.key)
            if d:
                i = self.selected_index
                for _ in range(len(self.options)):
                    i = (i + d) % len(self.options)
                    if self.options[i].enabled:
                        break
                _play(self._a, "click", 0.5)
                self.select(self.options[i].value)
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        a = self._a
        rects = self.rects()
        h0 = rects[0].h
        size = self.font_size or max(10, int(h0 * 0.34))
        # one size for every label (and one for every sublabel): the least any needs to fit,
        # so a long one ("Battle Hanafuda") is not set smaller than its neighbours
        pad = max(4, h0 // 5)
        label_px = min(fit_size(a, o.label, r.w - 2 * pad, size, bold=True) for o, r in zip(self.options, rects))
        sub_px = min((fit_size(a, o.sublabel, r.w - 2 * pad, max(9, int(size * 0.72)))
                      for o, r in zip(self.options, rects) if o.sublabel), default=9)
        for i, (o, r) in enumerate(zip(self.options, rects)):
            sel = o.value == self.selected
            hov = self._hover_i == i and self.hovered and o.enabled
            radius = max(3, r.h // 3)
            if sel:
                top, bot, border, text = theme.LACQUER_LIGHT, theme.LACQUER_DARK, theme.GOLD_LIGHT, theme.CREAM
            elif not o.enabled:
                top, bot, border, text = (34, 34, 34, 160), (24, 24, 24, 160), (70, 64, 54), theme.MUTED
            elif hov:
                top, bot, border, text = (60, 56, 52, 230), (36, 34, 32, 230), theme.GOLD, theme.CREAM
            else:
                top, bot, border, text = (40, 38, 36, 210), (22, 22, 22, 210), theme.GOLD_DARK, theme.CREAM_DIM
            bw = max(1, r.h // 30) + (1 if sel else 0)
            if sel:
                spread = max(2, r.h // 8)
                surface.blit(soft_shadow(r.size, radius, spread=spread, alpha=140),
                             (r.x - spread, r.y - spread + 2))
            surface.blit(rounded_surface(r.size, radius, top, bottom=bot, border=border, border_width=bw,
                                         highlight=40 if sel else None), r.topleft)
            font = a.font(label_px, sel)
            if o.sublabel:
                small = a.font(sub_px)
                total = font.get_height() + small.get_height()
                y0 = r.centery - total / 2
                draw_text(surface, o.label, font, text, (r.centerx, y0), "midtop")
                sub = theme.GOLD_LIGHT if sel else (theme.MUTED if not o.enabled else theme.CREAM_DIM)
                draw_text(surface, o.sublabel, small, sub, (r.centerx, y0 + font.get_height()),
                          "midtop", shadow=False)
            else:
                draw_text(surface, o.label, font, text, r.center, "center")
        if self.focused:
            r = self.rect.inflate(8, 8)
            surface.blit(rounded_surface(r.size, max(3, h0 // 3 + 4), (0, 0, 0, 0),
                                         border=theme.with_alpha(theme.GOLD_LIGHT, 160), border_width=1),
                         r.topleft)
