"""'Pass the device': an opaque curtain between the turns of a friend match.

Nothing of the table shows through, so the hand of the player who just moved
stays hidden from the one who takes the device. Click, Enter or Space when
ready.
"""

from __future__ import annotations

from typing import Callable, Optional

import pygame

from ...i18n import _
from .. import theme
from .. import widgets as W
from ..scene import Scene


class CurtainScene(Scene):
    opaque = True
    pauses_below = True

    def __init__(self, app, title: str, subtitle: Optional[str] = None,
                 on_ready: Callable[[], None] = None):
        super().__init__(app)
        self.title = title
        self.subtitle = _("Click when ready") if subtitle is None else subtitle
        self.on_ready = on_ready
        self.done = False
        self._pressed = False
        self.t = 0.0
        self.animating = True

    def _ready(self) -> None:
        if self.done:
            return
        self.done = True
        try:
            self.app.assets.play("click")
        except Exception:
            pass
        if self.on_ready is not None:
            self.on_ready()

    def handle(self, event: pygame.event.Event) -> bool:
        if event.type == pygame.MOUSEBUTTONDOWN and event.button == 1:
            self._pressed = True
            return True
        if event.type == pygame.MOUSEBUTTONUP and event.button == 1:
            if self._pressed:
                self._ready()
            return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self._ready()
            return True
        return event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.KEYDOWN)

    def update(self, dt: float) -> None:
        self.t += dt
        self.animating = self.t < 1.0

    def _fan(self, back_h: int) -> list:
        """Three card backs, the outer two tilted (rotated once per size)."""
        if getattr(self, "_fan_key", None) != back_h:
            back = self.app.assets.back(back_h)
            self._fan_imgs = [pygame.transform.rotozoom(back, 10.5, 1.0),
                              pygame.transform.rotozoom(back, -10.5, 1.0), back]
            self._fan_key = back_h
        return self._fan_imgs

    def draw(self, surface: pygame.Surface) -> None:
        w, h = surface.get_size()
        surface.blit(self.app.assets.table((w, h)), (0, 0))
        W.draw_scrim(surface, (0, 0, 0, 170))
        s = theme.scale((w, h))
        back_h = max(20, int(h * 0.22))
        bw = self.app.assets.back(back_h).get_width()
        cx, cy = w // 2, int(h * 0.38)
        for img, dx in zip(self._fan(back_h), (-0.35, 0.35, 0.0)):
            surface.blit(img, img.get_rect(center=(cx + int(dx * bw), cy + (0 if dx == 0 else int(back_h * 0.04)))))
        title = self.app.assets.font(theme.font_px("h1", s), True)
        body = self.app.assets.font(theme.font_px("body", s))
        y = cy + back_h // 2 + theme.px(40, s)
        W.draw_text(surface, self.title, title, theme.GOLD_LIGHT, (cx, y), "midtop")
        W.draw_text(surface, self.subtitle, body, theme.CREAM, (cx, y + title.get_height() + theme.px(12, s)),
                    "midtop")
