"""The card tooltip of Easy practice: timing (pure) and drawing.

``HoverTimer`` decides *when*: the pointer must rest on the same face-up card
for ``DELAY`` seconds; leaving it, starting a drag, pausing or leaving Easy
hides it at once. ``draw_tooltip`` decides *how*: a small lacquer card of
three lines beside the cursor, kept inside the window.

    timer = HoverTimer()
    timer.update(dt, key="02-A", card_id="02-A", pos=(x, y), enabled=easy)
    if timer.visible: draw_tooltip(surface, assets, timer.card_id, timer.pos, style)
"""

from __future__ import annotations

from typing import Optional

import pygame

from . import theme
from . import widgets as W
from ..engine import KIND_JAPANESE
from ..engine import card as card_of
from .hints import card_lines
from ..i18n import language

DELAY = 0.5


class HoverTimer:
    def __init__(self, delay: float = DELAY):
        self.delay = delay
        self.key: Optional[str] = None        # what is hovered (a sprite key or a rect key)
        self.card_id: Optional[str] = None    # the face-up card it shows
        self.pos = (0, 0)
        self.t = 0.0
        self.held: Optional[tuple] = None    # a pointer position no tooltip shows at

    def hide(self) -> None:
        """Forget the hovered card: the tooltip goes, and the delay starts over."""
        self.key = self.card_id = None
        self.t = 0.0

    def hold(self, pos) -> None:
        """A card was just played from here: no tooltip until the pointer moves (it would
        cover the field the player is watching)."""
        self.hide()
        self.held = (int(pos[0]), int(pos[1]))

    def update(self, dt: float, key: Optional[str], card_id: Optional[str], pos, enabled: bool = True) -> None:
        """The pointer is over ``key`` showing ``card_id`` (None: nothing face-up) this frame."""
        if self.held is not None and (int(pos[0]), int(pos[1])) == self.held:
            enabled = False
        else:
            self.held = None
        if not enabled or key is None or card_id is None:
            self.hide()
            return
        self.pos = (int(pos[0]), int(pos[1]))
        if key != self.key or card_id != self.card_id:
            self.key, self.card_id, self.t = key, card_id, 0.0
            return
        self.t += max(0.0, dt)

    @property
    def visible(self) -> bool:
        return self.card_id is not None and self.t >= self.delay

    @property
    def alpha(self) -> int:
        """Fades in over a tenth of a second once due."""
        if not self.visible:
            return 0
        return int(255 * min(1.0, (self.t - self.delay) / 0.1 + 0.35))


_cache: dict = {}


def tooltip_image(assets, card_id: str, style: str, height: int) -> pygame.Surface:
    """The tooltip for ``card_id``, sized for a window ``height`` px tall (cached)."""
    key = (id(assets), card_id, style, height, language())    # a language switch draws it anew
    img = _cache.get(key)
    if img is not None:
        return img
    if len(_cache) > 128:
        _cache.clear()
    s = max(0.5, height / 1080)
    title_f = assets.font(max(12, int(26 * s)), True)
    body_f = assets.font(max(11, int(24 * s)))
    name_f = assets.font(max(11, int(24 * s)), True)
    month, kind, name = card_lines(card_id, style)
    c = card_of(card_id)
    pad = max(6, int(14 * s))
    badge = max(22, int(58 * s))
    lines = [(month, title_f, theme.GOLD_LIGHT), (kind, body_f, theme.CREAM), (name, name_f, theme.CREAM)]
    tw = max(W.text_width(t, f) for t, f, _ in lines)
    th = sum(f.get_linesize() for _, f, _ in lines)
    w = pad * 3 + badge + tw
    h = pad * 2 + max(th, badge)
    img = pygame.Surface((w, h), pygame.SRCALPHA)
    img.blit(W.rounded_surface((w, h), max(4, int(10 * s)), (22, 14, 14, 244), bottom=(10, 8, 8, 244),
                               border=theme.GOLD, border_width=max(1, int(2 * s))), (0, 0))
    # a lacquer seal with the kind's kanji and the month number beneath
    seal = pygame.Rect(pad, (h - badge) // 2, badge, badge)
    img.blit(W.rounded_surface(seal.size, badge // 2, theme.LACQUER, bottom=theme.LACQUER_DARK,
                               border=theme.GOLD_LIGHT, border_width=max(1, int(2 * s))), seal.topleft)
    glyph = KIND_JAPANESE[c.kind][1]
    gf = assets.font(max(10, int(badge * (0.5 if len(glyph) == 1 else 0.34))), True)
    W.draw_text(img, glyph, gf, theme.CREAM, seal.center, "center", shadow=False)
    x = pad * 2 + badge
    y = (h - th) // 2
    for text, font, color in lines:
        W.draw_text(img, text, font, color, (x, y))
        y += font.get_linesize()
    _cache[key] = img
    return img


def place(size, pos, box) -> pygame.Rect:
    """Where a ``box``-sized tooltip goes beside the cursor at ``pos``, inside a window of ``size``."""
    w, h = box
    W_, H_ = size
    gap = max(12, H_ // 60)
    r = pygame.Rect(0, 0, w, h)
    r.topleft = (pos[0] + gap, pos[1] + gap)
    if r.right > W_ - 4:
        r.right = pos[0] - gap
    if r.bottom > H_ - 4:
        r.bottom = pos[1] - gap
    r.clamp_ip(pygame.Rect(0, 0, W_, H_))
    return r


def draw_tooltip(surface: pygame.Surface, assets, timer: HoverTimer, style: str = "both") -> Optional[pygame.Rect]:
    """Draw the tooltip of ``timer`` if it is due; returns where it went."""
    if not timer.visible:
        return None
    size = surface.get_size()
    img = tooltip_image(assets, timer.card_id, style, size[1])
    r = place(size, timer.pos, img.get_size())
    img.set_alpha(timer.alpha)
    surface.blit(img, r)
    return r
