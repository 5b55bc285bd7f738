"""Shapes: rounded surfaces, soft shadows, panels, the scrim, dividers,
cards, and the ``Panel`` widget. Every shape is cached by size and look."""

from __future__ import annotations

from typing import Optional

import pygame

from .. import theme
from .core import Widget, _Cache, _rect
from .nine_slice import stretch
from .text import draw_text

# Pixel budgets: the shapes cache at 24M pixels (96 MB) filled within three matches
# and held long sessions at 250-270 MB; 6M keeps a whole table's shapes.
_SHAPES = _Cache(600, 6_000_000)


# ------------------------------------------------------------------ shapes


# Masks are a step in making a rounded surface, which is cached itself; one this big
# (a 400x250 panel) is made for one or two surfaces, so it is not kept: a results
# panel's two masks held 7 MB of the shapes budget at 1920x1080.
MASK_CACHE_PIXELS = 100_000
# Flat shapes of this many pixels or more are stretched from a small one (rounded_surface, soft_shadow)
STRETCH_FROM = 40_000


def _supersampled_mask(size: tuple[int, int], radius: int, ss: int) -> pygame.Surface:
    w, h = size
    big = pygame.Surface((w * ss, h * ss), pygame.SRCALPHA)
    pygame.draw.rect(big, (255, 255, 255, 255), big.get_rect(), border_radius=radius * ss)
    return pygame.transform.smoothscale(big, size) if ss > 1 else big


def _rounded_alpha(size: tuple[int, int], radius: int, ss: int = 2) -> pygame.Surface:
    """A white rounded-rectangle alpha mask, anti-aliased by supersampling.

    Only the corners differ from plain white, so a big mask takes them from a
    small one made the same way (the arcs are drawn from each corner and an
    exact halving averages each 2x2 block alone, so every pixel is the same as
    the whole mask's): supersampling a 1220x795 panel whole took a 15 MB
    surface and, with the rest, 37 MB for a moment."""
    def make():
        w, h = size
        c = radius + 2                    # a corner block, with a margin
        if ss <= 1 or w <= 2 * c or h <= 2 * c:
            return _supersampled_mask(size, radius, ss)
        corners = _supersampled_mask((2 * c, 2 * c), radius, ss)
        out = pygame.Surface(size, pygame.SRCALPHA)
        out.fill((255, 255, 255, 255))
        for sx, dx in ((0, 0), (c, w - c)):
            for sy, dy in ((0, 0), (c, h - c)):
                # multiplying white copies the corner exactly (alpha and colour)
                out.blit(corners, (dx, dy), pygame.Rect(sx, sy, c, c), special_flags=pygame.BLEND_RGBA_MULT)
        return out
    key = ("mask", size, radius, ss)
    if size[0] * size[1] > MASK_CACHE_PIXELS and key not in _SHAPES:
        return make()
    return _SHAPES.get_or(key, make)


def opaque_inside(surface: pygame.Surface, threshold: int = 200) -> pygame.Surface:
    """``surface`` (per-pixel alpha) made fully opaque wherever it is nearly so, its soft
    edges kept: a rounded panel that nothing may show through. Returns ``surface``."""
    shape = pygame.mask.from_surface(surface, threshold)
    surface.blit(shape.to_surface(setcolor=(0, 0, 0, 255), unsetcolor=(0, 0, 0, 0)), (0, 0),
                 special_flags=pygame.BLEND_RGBA_MAX)
    return surface


def rounded_surface(size, radius: int, fill, *, bottom=None, border=None, border_width: int = 0,
                    highlight: Optional[int] = None) -> pygame.Surface:
    """A cached rounded rectangle: ``fill`` (or a vertical gradient from ``fill``
    to ``bottom``), an optional ``border`` hairline, and an optional light line
    of alpha ``highlight`` along the inner top edge (the shine of lacquer)."""
    size = (max(1, int(size[0])), max(1, int(size[1])))
    radius = max(0, min(int(radius), size[0] // 2, size[1] // 2))
    key = ("rounded", size, radius, tuple(fill), tuple(bottom) if bottom else None,
           tuple(border) if border else None, border_width, highlight)

    def make() -> pygame.Surface:
        w, h = size
        # a big flat one is stretched from a small one (nine_slice): a 1500x720 panel made
        # whole was the 40-90 ms opening frame of History; the pixels are the same within 2 levels
        k = max(radius + 2, border_width + max(0, radius - border_width) + 2) + 1 if border else radius + 3
        t = 2 * k + 4
        if bottom is None and not highlight and w * h >= STRETCH_FROM and w > t and h > t:
            return stretch(rounded_surface((t, t), radius, fill, border=border, border_width=border_width), size, k)
        body = pygame.Surface(size, pygame.SRCALPHA)
        top = tuple(fill) if len(fill) == 4 else (*fill, 255)
        if bottom is None:
            body.fill(top)
        else:
            bot = tuple(bottom) if len(bottom) == 4 else (*bottom, 255)
            for y in range(h):
                t = y / max(1, h - 1)
                body.fill(tuple(int(top[i] + (bot[i] - top[i]) * t) for i in range(4)),
                          pygame.Rect(0, y, w, 1))
        if highlight:
            bw = max(1, border_width)
            line = pygame.Surface((w, max(1, h // 2)), pygame.SRCALPHA)
            for y in range(line.get_height()):
                a = int(highlight * (1 - y / line.get_height()) ** 2)
                line.fill((255, 255, 255, a), pygame.Rect(0, y, w, 1))
            body.blit(line, (0, bw))
        if border and border_width > 0:
            # the border: the outer shape filled with the border colour, the
            # body inset over it
            out = pygame.Surface(size, pygame.SRCALPHA)
            bc = tuple(border) if len(border) == 4 else (*border, 255)
            out.fill(bc)
            out.blit(_rounded_alpha(size, radius), (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
            inner = (max(1, w - 2 * border_width), max(1, h - 2 * border_width))
            ib = pygame.transform.smoothscale(body, inner) if inner != size else body.copy()
            del body
            inner_mask = _rounded_alpha(inner, max(0, radius - border_width))
            ib.blit(inner_mask, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
            # replace (not blend) the inside so a translucent fill stays translucent
            inv = pygame.Surface(inner, pygame.SRCALPHA)
            inv.fill((255, 255, 255, 255))
            inv.blit(inner_mask, (0, 0), special_flags=pygame.BLEND_RGBA_SUB)
            inv.fill((255, 255, 255, 0), special_flags=pygame.BLEND_RGBA_MAX)
            region = out.subsurface(pygame.Rect(border_width, border_width, *inner))
            region.blit(inv, (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
            region.blit(ib, (0, 0))
            return out
        body.blit(_rounded_alpha(size, radius), (0, 0), special_flags=pygame.BLEND_RGBA_MULT)
        return body

    return _SHAPES.get_or(key, make)


def soft_shadow(size, radius: int, *, spread: int = 12, alpha: int = 120) -> pygame.Surface:
    """A blurred dark rounded shadow ``spread`` px larger than ``size`` each side."""
    size = (max(1, int(size[0])), max(1, int(size[1])))
    spread = max(1, int(spread))

    def make() -> pygame.Surface:
        w, h = size[0] + 2 * spread, size[1] + 2 * spread
        f = max(1, spread // 5)  # blur a reduced copy, then scale it up
        # a big one is stretched from a small one (nine_slice), whose middle is as flat: scaling
        # the blur up to 1540x760 took 15-45 ms of History's opening frame; alpha within 5 levels
        k = 2 * spread + radius + 2
        side = -(-(2 * k + 8) // f) * f              # a whole number of the reduced copy's pixels
        if w * h >= STRETCH_FROM and min(w, h) > side:
            return stretch(soft_shadow((side - 2 * spread,) * 2, radius, spread=spread, alpha=alpha), (w, h), k)
        sw, sh_ = max(3, w // f), max(3, h // f)
        small = pygame.Surface((sw, sh_), pygame.SRCALPHA)
        m = max(1, spread // f)
        inner = pygame.Rect(m, m, max(1, sw - 2 * m), max(1, sh_ - 2 * m))
        pygame.draw.rect(small, (0, 0, 0, alpha), inner, border_radius=max(1, radius // f))
        try:
            small = pygame.transform.gaussian_blur(small, max(1, m // 2), False)
        except (AttributeError, ValueError, pygame.error):
            small = pygame.transform.smoothscale(
                pygame.transform.smoothscale(small, (max(1, sw // 3), max(1, sh_ // 3))), (sw, sh_))
        return pygame.transform.smoothscale(small, (w, h))

    return _SHAPES.get_or(("shadow", size, radius, spread, alpha), make)


def draw_panel(surface: pygame.Surface, rect, *, fill=theme.PANEL, border=theme.GOLD,
               radius: Optional[int] = None, border_width: Optional[int] = None,
               shadow: bool = True, s: Optional[float] = None) -> pygame.Rect:
    """A rounded translucent dark panel with a thin gold border (and a soft shadow).

    ``s`` is the UI scale (default: from the surface size). Returns the rect.
    """
    rect = _rect(rect)
    if rect.w <= 2 or rect.h <= 2:
        return rect
    s = theme.scale(surface.get_size()) if s is None else s
    radius = theme.px(theme.RADIUS, s) if radius is None else radius
    bw = max(1, theme.px(theme.BORDER, s)) if border_width is None else border_width
    if shadow:
        spread = theme.px(18, s)
        sh = soft_shadow(rect.size, radius, spread=spread, alpha=110)
        surface.blit(sh, (rect.x - spread, rect.y - spread + theme.px(6, s)))
    surface.blit(rounded_surface(rect.size, radius, fill, border=border if border else None,
                                 border_width=bw if border else 0), rect.topleft)
    return rect


SCRIM_ROWS = 32     # the scrim is a strip this tall, blitted down the surface


def draw_scrim(surface: pygame.Surface, color=theme.SCRIM) -> None:
    """Dim everything drawn so far (under an overlay).

    The same translucent colour blended strip by strip: the pixels of one
    window-sized blit, from a strip of 1/34 of its memory (a window-sized scrim
    was 8 MB at 1920x1080, one per alpha step of a fading overlay)."""
    w, h = surface.get_size()
    rows = max(1, min(h, SCRIM_ROWS))
    key = ("scrim", (w, rows), tuple(color))

    def make():
        sc = pygame.Surface((w, rows), pygame.SRCALPHA)
        sc.fill(color)
        return sc
    strip = _SHAPES.get_or(key, make)
    for y in range(0, h, rows):
        surface.blit(strip, (0, y))


def draw_divider(surface: pygame.Surface, x1: int, x2: int, y: int, color=theme.GOLD_DARK,
                 width: int = 1) -> None:
    """A gold hairline that fades out at both ends."""
    w = max(1, x2 - x1)
    key = ("divider", w, width, tuple(color))

    def make():
        # one row of pixels made as bytes, repeated down (a fill per column took 1-5 ms of
        # History's opening frame for its 1428 px rule)
        d = max(1, w - 1)

        def alpha(x: int) -> int:
            t = x / d
            return int(255 * min(1.0, 4 * min(t, 1 - t)))
        # opaque between the fading quarters: only they are counted out
        ramp = min(w, d // 4 + 2)
        right = max(ramp, w - ramp)
        alphas = bytes(alpha(x) for x in range(ramp)) + b"\xff" * (right - ramp) + \
            bytes(alpha(x) for x in range(right, w))
        row = bytearray(bytes(color[:3]) + b"\0") * w
        row[3::4] = alphas
        line = pygame.image.frombytes(bytes(row) * width, (w, width), "RGBA")
        return line.convert_alpha() if pygame.display.get_surface() else line
    surface.blit(_SHAPES.get_or(key, make), (x1, y))


def draw_card(surface: pygame.Surface, image: pygame.Surface, pos, *, anchor: str = "topleft",
              shadow: bool = True, angle: float = 0.0, cache: bool = True) -> pygame.Rect:
    """Blit a card image with a soft shadow, optionally rotated (degrees).

    Rotations are cached; pass ``cache=False`` while the angle is animating.
    """
    w, h = image.get_size()
    spread = max(2, h // 14)
    if angle:
        key = ("rot", id(image), w, h, round(angle, 1))
        rotated = _SHAPES.get(key)
        if rotated is None or rotated[0] is not image:
            sh = soft_shadow((w, h), max(2, h // 30), spread=spread, alpha=120) if shadow else None
            rotated = (image, pygame.transform.rotozoom(image, angle, 1.0),
                       pygame.transform.rotozoom(sh, angle, 1.0) if sh is not None else None)
            if cache:
                _SHAPES.put(key, rotated)
        _, image, sh = rotated
    else:
        sh = soft_shadow((w, h), max(2, h // 30), spread=spread, alpha=120) if shadow else None
    r = image.get_rect()
    setattr(r, anchor, (int(pos[0]), int(pos[1])))
    if shadow and sh is not None:
        sr = sh.get_rect(center=r.center)
        surface.blit(sh, (sr.x + spread // 3, sr.y + spread // 2))
    surface.blit(image, r.topleft)
    return r


# ------------------------------------------------------------------ panel


class Panel(Widget):
    """A rounded translucent dark panel with a thin gold border, and an optional
    title centred in its top band. ``draw(surface)``; ``content`` is the rect
    inside its padding (below the title)."""

    focusable = False

    def __init__(self, rect, *, title: Optional[str] = None, fill=theme.PANEL,
                 border=theme.GOLD, assets=None, shadow: bool = True):
        super().__init__(rect, assets=assets)
        self.title = title
        self.fill = fill
        self.border = border
        self.shadow = shadow

    def _s(self, surface=None) -> float:
        return theme.scale(surface.get_size() if surface else pygame.display.get_surface().get_size()
                           if pygame.display.get_surface() else (1920, 1080))

    def title_height(self, s: float) -> int:
        return theme.px(theme.FONT_SIZES["h2"] * 1.9, s) if self.title else 0

    def content(self, s: float) -> pygame.Rect:
        pad = theme.px(theme.SPACE_L, s)
        r = self.rect.inflate(-2 * pad, -2 * pad)
        th = self.title_height(s)
        if th:
            r.y += th - pad // 2
            r.h -= th - pad // 2
        return r

    def draw(self, surface: pygame.Surface) -> None:
        if not self.visible:
            return
        s = theme.scale(surface.get_size())
        draw_panel(surface, self.rect, fill=self.fill, border=self.border, shadow=self.shadow, s=s)
        if self.title:
            font = self._a.font(theme.font_px("h2", s), bold=True)
            cy = self.rect.y + self.title_height(s) // 2 + theme.px(4, s)
            draw_text(surface, self.title, font, theme.GOLD_LIGHT, (self.rect.centerx, cy), "center")
            half = min(self.rect.w // 3, theme.px(260, s))
            draw_divider(surface, self.rect.centerx - half, self.rect.centerx + half,
                         self.rect.y + self.title_height(s) - theme.px(6, s))

    def handle(self, event: pygame.event.Event) -> bool:
        return False
