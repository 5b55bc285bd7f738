"""Controls: ``Button``, ``Slider`` and ``Toggle``."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Optional, Sequence

import pygame

from .. import theme
from .core import _ACTIVATE_KEYS, Widget, _is_click_down, _is_click_up, _play
from .draw import rounded_surface, soft_shadow
from .text import draw_text, fit_font

# ------------------------------------------------------------------ button


_BUTTON_STYLES = {
    # style: (top, bottom, border, text) for normal; hover/pressed derive from these
    "primary": (theme.LACQUER_LIGHT, theme.LACQUER_DARK, theme.GOLD, theme.CREAM),
    "secondary": (theme.BLACK_LACQUER_LIGHT, theme.BLACK_LACQUER, theme.GOLD_DARK, theme.CREAM),
    "danger": ((96, 30, 32), (46, 12, 16), theme.LACQUER_LIGHT, (255, 214, 204)),
    "ghost": ((255, 255, 255, 10), (255, 255, 255, 4), theme.GOLD_DARK, theme.CREAM_DIM),
}


class Button(Widget):
    """A rounded lacquer button with hover, pressed, focused and disabled looks.

    ``on_click()`` runs on a left-button release inside the button after a press
    inside it, or on Enter/Space while it is focused, or on any of ``hotkeys``.
    ``style``: "primary" (red lacquer), "secondary" (black lacquer), "danger",
    "ghost" (a gold outline only). ``sublabel`` is a smaller second line.

    Drawing: ``draw(surface)``; fonts come from the ``assets`` given here (the
    shared ``get_assets()`` when omitted).
    """

    def __init__(self, rect, label: str, on_click: Optional[Callable[[], Any]], *,
                 style: str = "primary", sublabel: Optional[str] = None, enabled: bool = True,
                 assets=None, hotkeys: Iterable[int] = (), font_size: Optional[int] = None,
                 sound: Optional[str] = "click"):
        super().__init__(rect, enabled=enabled, assets=assets)
        if style not in _BUTTON_STYLES:
            raise ValueError(f"unknown button style {style!r}")
        self.label = label
        self.on_click = on_click
        self.style = style
        self.sublabel = sublabel
        self.hotkeys = tuple(hotkeys)
        self.font_size = font_size
        self.sound = sound
        self.pressed = False

    def click(self) -> None:
        """Activate the button as if clicked (if enabled)."""
        if not self.enabled or not self.visible:
            return
        if self.sound:
            _play(self._a, self.sound, 0.7)
        if self.on_click is not None:
            self.on_click()

    def handle(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            self.pressed = self.hovered = False
            return False
        self._track_hover(event)
        if _is_click_down(event) and self.rect.collidepoint(event.pos):
            if self.enabled:
                self.pressed = True
            return True
        if _is_click_up(event):
            if self.pressed:
                self.pressed = False
                if self.rect.collidepoint(event.pos):
                    self.click()
                return True
            return False
        if event.type == pygame.KEYDOWN and self.enabled:
            if event.key in self.hotkeys or (self.focused and event.key in _ACTIVATE_KEYS):
                self.click()
                return True
        return False

    def _state(self) -> str:
        if not self.enabled:
            return "disabled"
        if self.pressed and self.hovered:
            return "pressed"
        if self.hovered or self.focused:
            return "hover"
        return "normal"

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible or self.rect.w < 4 or self.rect.h < 4:
            return
        top, bottom, border, text = _BUTTON_STYLES[self.style]
        state = self._state()
        if state == "hover":
            top, bottom = theme.lighten(top, 0.12), theme.lighten(bottom, 0.10)
            border = theme.GOLD_LIGHT
        elif state == "pressed":
            top, bottom = theme.darken(bottom, 0.1), theme.darken(top, 0.15)
            border = theme.GOLD
        elif state == "disabled":
            top, bottom, border, text = (62, 58, 56), (40, 37, 36), (90, 80, 64), theme.MUTED
        r = self.rect
        radius = max(3, min(r.h // 4, theme.px(theme.RADIUS_BUTTON, r.h / theme.BUTTON_H)))
        bw = max(1, round(r.h / 36))
        dy = max(1, r.h // 36) if state == "pressed" else 0
        if state != "pressed":
            spread = max(2, r.h // 7)
            surface.blit(soft_shadow(r.size, radius, spread=spread, alpha=130),
                         (r.x - spread, r.y - spread + max(1, r.h // 14)))
        if self.focused and self.enabled:
            ring = r.inflate(2 * (bw + 2), 2 * (bw + 2))
            surface.blit(rounded_surface(ring.size, radius + bw + 2, (0, 0, 0, 0),
                                         border=theme.with_alpha(theme.GOLD_LIGHT, 200),
                                         border_width=max(1, bw)), ring.topleft)
        body = rounded_surface(r.size, radius, top, bottom=bottom, border=border, border_width=bw,
                               highlight=None if state in ("pressed", "disabled") or self.style == "ghost" else 46)
        surface.blit(body, (r.x, r.y + dy))
        a = self._a
        size = self.font_size or max(10, int(r.h * (0.36 if self.sublabel else 0.42)))
        pad = max(4, r.h // 4)
        font = fit_font(a, self.label, r.w - 2 * pad, size, bold=True)
        cx = r.centerx
        if self.sublabel:
            small = fit_font(a, self.sublabel, r.w - 2 * pad, max(9, int(size * 0.62)))
            total = font.get_height() + small.get_height() * 0.9
            y0 = r.centery - total / 2 + dy
            draw_text(surface, self.label, font, text, (cx, y0), "midtop")
            if state == "disabled":
                sub_color = theme.MUTED
            elif self.style == "primary":
                sub_color = theme.mix(theme.CREAM, theme.GOLD_LIGHT, 0.6)
            else:
                sub_color = theme.CREAM_DIM
            draw_text(surface, self.sublabel, small, sub_color,
                      (cx, y0 + font.get_height() * 0.92), "midtop", shadow=False)
        else:
            draw_text(surface, self.label, font, text, (cx, r.centery + dy), "center")


# ------------------------------------------------------------------ slider


class Slider(Widget):
    """A horizontal slider from ``minimum`` to ``maximum`` in ``step``s.

    Drag the knob or click the track; Left/Right (focused or hovered) and the
    mouse wheel (hovered) step it. ``on_change(value)`` runs on every change.
    ``marks``: values to tick under the track (e.g. 0 = instant);
    ``on_release(value)`` runs when a drag ends (e.g. to preview a volume). The
    rect is the hit area; the track runs along its vertical middle.
    """

    def __init__(self, rect, value: float, on_change: Optional[Callable[[float], Any]] = None, *,
                 minimum: float = 0.0, maximum: float = 1.0, step: float = 0.05,
                 marks: Sequence[float] = (), enabled: bool = True, assets=None,
                 on_release: Optional[Callable[[float], Any]] = None):
        super().__init__(rect, enabled=enabled, assets=assets)
        self.on_release = on_release
        self.minimum, self.maximum, self.step = float(minimum), float(maximum), float(step)
        self.value = self._clamp(value)
        self.on_change = on_change
        self.marks = tuple(marks)
        self.dragging = False

    def _clamp(self, v: float) -> float:
        v = max(self.minimum, min(self.maximum, float(v)))
        if self.step > 0:
            v = self.minimum + round((v - self.minimum) / self.step) * self.step
            v = max(self.minimum, min(self.maximum, v))
        return round(v, 6)

    def _track(self) -> tuple[int, int]:
        k = self.rect.h // 2
        return self.rect.x + k, self.rect.right - k

    def _x_of(self, v: float) -> int:
        x1, x2 = self._track()
        span = self.maximum - self.minimum or 1.0
        return int(round(x1 + (x2 - x1) * (v - self.minimum) / span))

    def _value_at(self, x: int) -> float:
        x1, x2 = self._track()
        t = (x - x1) / max(1, x2 - x1)
        return self._clamp(self.minimum + t * (self.maximum - self.minimum))

    def set(self, v: float, *, notify: bool = True) -> None:
        v = self._clamp(v)
        if v != self.value:
            self.value = v
            if notify and self.on_change is not None:
                self.on_change(v)

    def handle(self, event: pygame.event.Event) -> bool:
        if not self.visible or not self.enabled:
            self.dragging = False
            return False
        self._track_hover(event)
        if _is_click_down(event) and self.rect.collidepoint(event.pos):
            self.dragging = True
            self.set(self._value_at(event.pos[0]))
            return True
        if event.type == pygame.MOUSEMOTION and self.dragging:
            self.set(self._value_at(event.pos[0]))
            return False
        if _is_click_up(event) and self.dragging:
            self.dragging = False
            if self.on_release is not None:
                self.on_release(self.value)
            else:
                _play(self._a, "click", 0.4)
            return True
        if event.type == pygame.MOUSEWHEEL and self.hovered:
            self.set(self.value + (self.step or 0.05) * (1 if event.y > 0 else -1))
            return True
        if event.type == pygame.KEYDOWN and (self.focused or self.hovered):
            if event.key in (pygame.K_LEFT, pygame.K_a):
                self.set(self.value - (self.step or 0.05))
                return True
            if event.key in (pygame.K_RIGHT, pygame.K_d):
                self.set(self.value + (self.step or 0.05))
                return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        r = self.rect
        x1, x2 = self._track()
        th = max(4, r.h // 5)
        track = pygame.Rect(x1, r.centery - th // 2, max(1, x2 - x1), th)
        surface.blit(rounded_surface(track.size, th // 2, (8, 10, 10, 220),
                                     border=theme.GOLD_DARK, border_width=1), track.topleft)
        kx = self._x_of(self.value)
        if kx - x1 > 2:
            fill = pygame.Rect(x1, track.y, kx - x1, th)
            color = theme.GOLD if self.enabled else theme.MUTED
            surface.blit(rounded_surface(fill.size, th // 2, theme.lighten(color, 0.15),
                                         bottom=theme.darken(color, 0.2)), fill.topleft)
        for m in self.marks:
            mx = self._x_of(m)
            pygame.draw.line(surface, theme.GOLD_DARK, (mx, track.bottom + th // 2),
                             (mx, track.bottom + th), max(1, th // 3))
        kr = max(6, int(r.h * 0.32)) + (2 if (self.hovered or self.dragging or self.focused) else 0)
        spread = max(2, kr // 2)
        surface.blit(soft_shadow((2 * kr, 2 * kr), kr, spread=spread, alpha=140),
                     (kx - kr - spread, r.centery - kr - spread + 2))
        knob = rounded_surface((2 * kr, 2 * kr), kr, theme.CREAM, bottom=theme.CREAM_DIM,
                               border=theme.GOLD_LIGHT if (self.hovered or self.focused or self.dragging)
                               else theme.GOLD, border_width=max(2, kr // 4))
        surface.blit(knob, (kx - kr, r.centery - kr))


# ------------------------------------------------------------------ toggle


class Toggle(Widget):
    """An on/off pill switch. Click, or Enter/Space while focused, flips it;
    ``on_change(value)`` then runs. The knob slides (call ``update(dt)``)."""

    def __init__(self, rect, value: bool, on_change: Optional[Callable[[bool], Any]] = None, *,
                 enabled: bool = True, assets=None):
        super().__init__(rect, enabled=enabled, assets=assets)
        self.value = bool(value)
        self.on_change = on_change
        self._t = 1.0 if self.value else 0.0
        self._pressed = False

    def set(self, value: bool, *, notify: bool = True) -> None:
        value = bool(value)
        if value != self.value:
            self.value = value
            if notify and self.on_change is not None:
                self.on_change(value)

    def flip(self) -> None:
        if self.enabled:
            _play(self._a, "click", 0.6)
            self.set(not self.value)

    @property
    def animating(self) -> bool:
        return abs(self._t - (1.0 if self.value else 0.0)) > 1e-3

    def update(self, dt: float) -> None:
        goal = 1.0 if self.value else 0.0
        step = dt / theme.FAST if dt > 0 else 1.0
        if self._t < goal:
            self._t = min(goal, self._t + step)
        else:
            self._t = max(goal, self._t - step)

    def handle(self, event: pygame.event.Event) -> bool:
        if not self.visible:
            return False
        self._track_hover(event)
        if _is_click_down(event) and self.rect.collidepoint(event.pos):
            self._pressed = self.enabled
            return True
        if _is_click_up(event) and self._pressed:
            self._pressed = False
            if self.rect.collidepoint(event.pos):
                self.flip()
            return True
        if event.type == pygame.KEYDOWN and self.focused and event.key in _ACTIVATE_KEYS:
            self.flip()
            return True
        return False

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        r = self.rect
        h = r.h
        w = min(r.w, int(h * 1.9))
        pill = pygame.Rect(r.x, r.y, w, h)
        off_c, on_c = (30, 32, 32), theme.LACQUER
        t = self._t
        color = theme.mix(off_c, on_c, t) if self.enabled else (56, 54, 52)
        border = theme.GOLD_LIGHT if (self.hovered or self.focused) else theme.GOLD_DARK
        surface.blit(rounded_surface(pill.size, h // 2, theme.lighten(color, 0.08),
                                     bottom=theme.darken(color, 0.15), border=border,
                                     border_width=max(1, h // 18)), pill.topleft)
        kr = int(h * 0.36)
        kx = int(pill.x + h / 2 + (w - h) * t)
        surface.blit(soft_shadow((2 * kr, 2 * kr), kr, spread=max(2, kr // 2), alpha=150),
                     (kx - kr - max(2, kr // 2), pill.centery - kr - max(2, kr // 2) + 2))
        surface.blit(rounded_surface((2 * kr, 2 * kr), kr, theme.CREAM, bottom=theme.CREAM_DIM,
                                     border=theme.GOLD, border_width=max(1, kr // 6)),
                     (kx - kr, pill.centery - kr))
