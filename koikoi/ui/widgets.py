"""Small drawn widgets in the game's lacquer-and-gold style.

    from koikoi.ui import widgets as W
    W.draw_text(screen, "Koi-Koi?", font, theme.CREAM, rect.center, anchor="center")
    ok = W.Button(rect, "Continue", on_close, assets=app.assets, hotkeys=(pygame.K_RETURN,))
    ok.handle(event)   # in Scene.handle: True when the event was consumed
    ok.draw(screen)    # in Scene.draw

Conventions shared by every widget here:

* Geometry is in real window pixels: a widget gets a ``pygame.Rect`` and the
  scene moves it in ``resize`` (assign ``widget.rect``). Type and corner sizes
  follow the rect's height, so a widget laid out at any scale looks right.
* Fonts come from the ``Assets`` passed at construction (``assets=``); when
  none is passed the shared ``get_assets()`` instance is used. So ``draw``
  always takes just the target surface: ``draw(surface)``.
* ``handle(event) -> bool`` takes one pygame event and returns True if it was
  consumed. Mouse motion is never consumed (every widget may want to un-hover).
  A click fires on release inside the widget, after a press inside it.
* Widgets may be ``focused`` (keyboard): Enter/Space activates a focused
  button or toggle, Left/Right moves a focused slider or choice row. A
  ``FocusGroup`` moves the focus with Tab / Up / Down.
* Rendered text and widget bodies are cached (by size and state), so drawing
  every frame costs only blits.
"""

from __future__ import annotations

import operator
import re
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from itertools import accumulate
from typing import Any, Callable, Iterable, Optional, Sequence

import pygame

from . import theme

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


_TEXT = _Cache(1500, 4_000_000)
# rendered texts longer than _LONG_KEY characters (hostile names): a few, so
# their long keys cannot add up
_TEXT_LONG = _Cache(32, 4_000_000)
# Pixel budgets: the shapes cache at 24M pixels (96 MB) filled within three matches
# and held long sessions at 250-270 MB; 6M keeps a whole table's shapes.
_SHAPES = _Cache(600, 6_000_000)


def _assets(assets):
    if assets is not None:
        return assets
    from .assets import get_assets
    return get_assets()


def _rect(r) -> pygame.Rect:
    return r.copy() if isinstance(r, pygame.Rect) else pygame.Rect(r)


def _play(assets, name: str, volume: float = 1.0) -> None:
    try:
        if assets is not None:
            assets.play(name, volume)
    except Exception:  # a sound must never break a click
        pass


# ------------------------------------------------------------------ text


# Bounds that keep text fitting and drawing cheap for text of any length (a
# seat name of 20,000 characters took 42 s to draw one frame, issue #13).
# No glyph of the game's fonts is narrower than 1 px from 5 px type up (only
# the zero-width format characters are), so more than `width` characters can
# never fit in `width` px: each helper first clips its text to twice that, plus
# some slack (_fit_chars), and measures only the clipped text.
#
# Nothing is drawn wider than this (no screen is), and the text drawn is first
# clipped to as many characters: a 1 MB name made a 11,000,000 px wide surface.
MAX_TEXT_PX = 16384
# wrap_text makes at most this many lines (more than a 4K screen holds in the
# smallest type); a text that needs more ends its last line with "…".
MAX_WRAP_LINES = 200
# Cache keys with a text longer than this go to small separate caches, so
# hostile long texts cannot fill the main caches with big keys.
_LONG_KEY = 256


def _fit_chars(width) -> int:
    """More characters than this can never fit in ``width`` px (see above)."""
    return 2 * max(0, int(width)) + 64


def _guess_chars(font: pygame.font.Font, width) -> int:
    """A first guess of how many characters fill ``width`` px (about half an em each)."""
    return int(max(0, width)) // max(1, font.get_height() // 2)


def _last_fit(ok: Callable[[int], bool], lo: int, hi: int, guess: int) -> int:
    """The largest ``n`` in ``[lo, hi]`` with ``ok(n)``, ``ok(lo)`` being taken as
    true without asking. ``ok`` must be monotone (true up to some ``n``, false
    after), as the width of a growing prefix is. Gallops from ``guess``, so a
    close guess costs a few calls and a bad one about twice log2(hi - lo)."""
    if hi <= lo:
        return lo
    n = min(max(guess, lo + 1), hi)
    step = 1
    if ok(n):
        lo = n
        while lo < hi:
            n = min(hi, lo + step)
            if not ok(n):
                hi = n - 1
                break
            lo, step = n, step * 2
    else:
        hi = n - 1
        while lo < hi:
            n = max(lo + 1, hi + 1 - step)
            if ok(n):
                lo = n
                break
            hi, step = n - 1, step * 2
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if ok(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


# Stand-ins for characters a font may lack: the bundled font is a subset (it has
# the macrons of romaji such as "Gokō"), and pygame's default font is the fallback.
_STAND_INS = {"ō": "o", "Ō": "O", "ū": "u", "Ū": "U", "ā": "a", "Ā": "A", "ī": "i", "ē": "e",
              "▾": "▼", "▴": "▲", "✓": "•", "✔": "•"}
# font -> {character: has a real glyph}; weak, so a closed App's fonts can go.
# Only the stand-ins' characters are ever asked about, so each dict stays small.
_GLYPHS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _has_glyph(font: pygame.font.Font, ch: str) -> bool:
    known = _GLYPHS.setdefault(font, {})
    if ch not in known:
        try:
            missing = pygame.image.tobytes(font.render("\uffff", True, (255, 255, 255)), "RGBA")
            known[ch] = pygame.image.tobytes(font.render(ch, True, (255, 255, 255)), "RGBA") != missing
        except (pygame.error, ValueError):
            known[ch] = True
    return known[ch]


def displayable(text: str, font: pygame.font.Font) -> str:
    """``text`` with characters the font cannot draw replaced by close stand-ins."""
    if text.isascii():
        return text
    # a dozen substring scans and one translate, not a Python loop per character
    table = {ord(ch): sub for ch, sub in _STAND_INS.items() if ch in text and not _has_glyph(font, ch)}
    return text.translate(table) if table else text


def _drawable(text: str, font: pygame.font.Font) -> str:
    """``text`` as it can be rendered: "" for text of no width (pygame refuses
    it: "Text has zero width"), cut to at most ``MAX_TEXT_PX`` px."""
    w = font.size(text)[0]
    if w <= 0:
        return ""
    if w <= MAX_TEXT_PX:
        return text
    n = _last_fit(lambda k: font.size(text[:k])[0] <= MAX_TEXT_PX, 0, len(text) - 1,
                  len(text) * MAX_TEXT_PX // w)
    return text[:n]


def render_text(text: str, font: pygame.font.Font, color, *, shadow: bool = True) -> pygame.Surface:
    """``text`` rendered (anti-aliased, with a soft drop shadow), cached.

    At most ``MAX_TEXT_PX`` px of it are drawn (no screen shows more)."""
    color = tuple(color)
    text = displayable(text[:MAX_TEXT_PX], font)

    def make() -> pygame.Surface:
        line = _drawable(text, font)
        if len(color) == 4 and color[3] < 255:
            fg = font.render(line, True, color[:3])
            fg.set_alpha(color[3])
            fg = fg.convert_alpha() if pygame.display.get_surface() else fg
        else:
            fg = font.render(line, True, color[:3])
        if not shadow:
            return fg
        off = max(1, font.get_height() // 18)
        sh = font.render(line, True, (0, 0, 0))
        out = pygame.Surface((fg.get_width() + off, fg.get_height() + off), pygame.SRCALPHA)
        sh.set_alpha(150 if len(color) < 4 else color[3] * 150 // 255)
        out.blit(sh, (off, off))
        out.blit(fg, (0, 0))
        return out

    cache = _TEXT if len(text) <= _LONG_KEY else _TEXT_LONG
    return cache.get_or((font, text, color, shadow), make)



def draw_text(surface: pygame.Surface, text: str, font: pygame.font.Font, color, pos,
              anchor: str = "topleft", shadow: bool = True) -> pygame.Rect:
    """Draw one line of ``text`` with its ``anchor`` point ("topleft", "center",
    "midtop", "topright", "midleft", "bottomright", ...) at ``pos``.

    Returns the rectangle drawn (the text itself, without the shadow offset).
    """
    img = render_text(text, font, color, shadow=shadow)
    off = max(1, font.get_height() // 18) if shadow else 0
    r = pygame.Rect(0, 0, img.get_width() - off, img.get_height() - off)
    setattr(r, anchor, (int(pos[0]), int(pos[1])))
    surface.blit(img, r.topleft)
    return r


def text_width(text: str, font: pygame.font.Font) -> int:
    """The width of ``text`` in ``font`` (at most ``MAX_TEXT_PX``, as drawn)."""
    return min(MAX_TEXT_PX, font.size(displayable(text[:MAX_TEXT_PX], font))[0])


_SPACES = re.compile(" +")


def _clip_line(line: str, limit: int) -> str:
    # a word too wide for its line is kept whole (as ever), up to some characters
    limit = max(limit, 512)
    return line if len(line) <= limit else line[:limit] + "…"


def _wrap_para(para: str, font: pygame.font.Font, width, limit: int, lines: list, cap: int) -> None:
    """Append the lines of one paragraph to ``lines``, stopping past ``cap`` lines.

    The lines are what the word-by-word rule has always made: words are added
    to a line while it fits; the word that does not fit starts the next line,
    whole; only a word that starts an empty line (the paragraph's first, or one
    after a space that did not fit) is cut by characters when it is too wide.
    The line being made is always a slice ``para[ls:le]``, so each step
    measures one slice, found by galloping over the candidate ends."""
    size = font.size
    m = len(para)
    ls = le = 0           # the line being made: para[ls:le]
    i = 0                 # where the next word starts, when the line is empty
    cut = words = 0       # the last cut and the last line's word count: guesses for the next
    chars = _guess_chars(font, width)     # and the last line's length
    while True:
        if ls == le:
            # an empty line: spaces (empty words) add nothing to it
            if i < m and para[i] == " ":
                i = _SPACES.match(para, i).end()
            j = para.find(" ", i)
            if j < 0:
                j = m
            k = i
            while j - k > 1 and (j - k > limit or size(para[k:j])[0] > width):
                hi = min(j - k - 1, limit)
                cut = _last_fit(lambda c: size(para[k:k + c])[0] <= width, 1, hi,
                                cut or _guess_chars(font, width))
                lines.append(para[k:k + cut])
                if len(lines) > cap:
                    return
                k += cut
            ls, le = k, j
            if le >= m:
                break
        # a line with words: add the next words while the line fits. The
        # candidate ends are the spaces (and the end) in a window after the
        # line, widened only while every end in it fits.
        start = le + 1
        far = min(m, ls + limit)      # no longer line can fit
        span = 2 * chars + 64
        while True:
            stop = min(far, start + span)
            parts = para[start:stop + 1].split(" ")
            ends = list(map(operator.add, accumulate(map(len, parts)), range(start, start + len(parts))))
            if ends and ends[-1] > stop:
                ends.pop()            # that word goes on past the window
            words = _last_fit(lambda t: size(para[ls:ends[t - 1]])[0] <= width, 0, len(ends), words or 1)
            if words < len(ends) or stop >= far:
                break
            span *= 4
        if words:
            le = ends[words - 1]
            if le >= m:
                break
        # the next word does not fit: it starts the next line, whole
        lines.append(_clip_line(para[ls:le], limit))
        chars = le - ls
        if len(lines) > cap:
            return
        ls = le + 1
        le = para.find(" ", ls)
        if le < 0:
            le = m
        if le >= m:
            break
        i = le + 1
    lines.append(_clip_line(para[ls:le], limit))


def wrap_text(text: str, font: pygame.font.Font, width: int) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` (words kept whole when
    possible; blank lines in ``text`` are kept as paragraph breaks).

    At most ``MAX_WRAP_LINES`` lines are made; a text that needs more ends the
    last of them with "…". The work is bounded for text of any length."""
    limit = _fit_chars(width)
    lines: list[str] = []
    n = len(text)
    pos = 0
    while pos <= n and len(lines) <= MAX_WRAP_LINES:
        end = text.find("\n", pos)
        if end < 0:
            end = n
        para = text[pos:end]
        pos = end + 1
        if not para.strip():
            lines.append("")
        else:
            _wrap_para(para, font, width, limit, lines, MAX_WRAP_LINES)
    if len(lines) > MAX_WRAP_LINES:
        del lines[MAX_WRAP_LINES:]
        lines[-1] = _ellipsis_cut(lines[-1], font, width, len(lines[-1]))
    return lines


def fit_font(assets, text: str, width: int, size: int, *, bold: bool = False,
             minimum: int = 10) -> pygame.font.Font:
    """The largest font of at most ``size`` px in which ``text`` fits ``width``."""
    a = _assets(assets)
    text = text[:_fit_chars(width) + 1]     # a longer text fits at no size
    fits = _FITS if len(text) <= _LONG_KEY else _FITS_LONG
    key = (id(a), text, int(width), int(size), bool(bold), minimum)
    found = fits.get(key)
    if found is not None and found[0]() is a:
        return a.font(found[1], bold)
    size = max(minimum, int(size))
    text = displayable(text, a.font(size, bold))
    font = a.font(size, bold)
    while size > minimum and font.size(text)[0] > width:
        size = max(minimum, int(size * 0.92))
        font = a.font(size, bold)
    if len(fits) > (4000 if fits is _FITS else 64):
        fits.clear()
    fits[key] = (weakref.ref(a), size)
    return font


# (id(assets), text, width, size, bold, minimum) -> (weak ref to the Assets, fitted size).
# Weak, so the cache never keeps an old App's fonts and card images alive.
_FITS: dict = {}
_FITS_LONG: dict = {}     # the same for texts longer than _LONG_KEY, kept to a few


def _ellipsis_cut(text: str, font: pygame.font.Font, width, guess: int) -> str:
    """The longest prefix of ``text`` (at most ``_fit_chars(width)`` characters)
    that fits ``width`` with "…" after it, and the "…"; just "…" if none does."""
    n = _last_fit(lambda k: font.size(text[:k] + "…")[0] <= width, 0,
                  min(len(text), _fit_chars(width)), guess)
    return text[:n] + "…"


def ellipsize(text: str, font: pygame.font.Font, width: int) -> str:
    """``text`` cut with an ellipsis so it fits ``width``.

    Only the first ``_fit_chars(width)`` characters are measured, so text of
    any length costs about as much as a short one (some 10 ``font.size`` calls)."""
    if len(text) <= _fit_chars(width):
        full = font.size(text)[0]
        if full <= width:
            return text
        guess = len(text) * int(max(0, width)) // max(1, full)
    else:
        guess = _guess_chars(font, width)
    return _ellipsis_cut(text, font, width, guess)


# ------------------------------------------------------------------ shapes


# Masks are a step in making a rounded surface, which is cached itself; one this big
# (a 400x250 panel) is made for one or two surfaces, so it is not kept: a results
# panel's two masks held 7 MB of the shapes budget at 1920x1080.
MASK_CACHE_PIXELS = 100_000


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
        line = pygame.Surface((w, width), pygame.SRCALPHA)
        for x in range(w):
            t = x / max(1, w - 1)
            a = int(255 * min(1.0, 4 * min(t, 1 - t)))
            line.fill((*color[:3], a), pygame.Rect(x, 0, 1, width))
        return line
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


def _is_click_down(event) -> bool:
    return event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1


def _is_click_up(event) -> bool:
    return event.type == pygame.MOUSEBUTTONUP and getattr(event, "button", 1) == 1


_ACTIVATE_KEYS = (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE)


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
            pad = max(4, r.h // 5)
            font = fit_font(a, o.label, r.w - 2 * pad, size, bold=sel)
            if o.sublabel:
                small = fit_font(a, o.sublabel, r.w - 2 * pad, max(9, int(size * 0.72)))
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


__all__ = [
    "draw_text", "render_text", "text_width", "wrap_text", "fit_font", "ellipsize",
    "rounded_surface", "soft_shadow", "draw_panel", "draw_scrim", "draw_divider", "draw_card",
    "Widget", "Button", "Panel", "Slider", "Toggle", "Choice", "ChoiceRow", "FocusGroup", "Scroller",
]
