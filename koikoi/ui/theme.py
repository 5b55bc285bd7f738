"""The look of the game in one place: colours, type sizes, spacing, motion.

Everything is designed at 1080 px of window height; ``scale(size)`` turns a
window size into the factor to multiply design pixels by, and ``px(n, s)``
rounds a design length at that factor (never below 1 px). Scenes lay out in
real window pixels: they call ``scale(app.size)`` in ``resize`` and keep the
numbers, so nothing is rescaled per frame.

    from koikoi.ui import theme
    s = theme.scale(app.size)                  # 0.667 at 1280x720, 1.0 at 1920x1080
    title = app.assets.font(theme.font_px("h1", s), bold=True)
    pad = theme.px(theme.SPACE_L, s)
"""

from __future__ import annotations

from typing import Sequence, Union

Color = tuple  # (r, g, b) or (r, g, b, a)

# ------------------------------------------------------------------ colours
# The table: deep felt greens (the felt texture itself is assets/table/felt.png).
FELT_DEEP = (10, 44, 32)
FELT_DARK = (16, 62, 44)
FELT = (22, 84, 58)
FELT_LIGHT = (40, 112, 80)

# Lacquer: the vermilion of a hanafuda box, and its black.
LACQUER = (176, 32, 36)
LACQUER_LIGHT = (214, 58, 56)
LACQUER_DARK = (112, 16, 22)
LACQUER_DEEP = (70, 10, 16)
BLACK_LACQUER = (26, 20, 22)
BLACK_LACQUER_LIGHT = (52, 42, 44)

# Gold leaf accents.
GOLD = (214, 172, 84)
GOLD_LIGHT = (248, 214, 132)
GOLD_DARK = (140, 104, 42)

# Text.
CREAM = (246, 238, 220)
CREAM_DIM = (206, 196, 174)
MUTED = (150, 146, 132)
INK = (28, 22, 20)
SHADOW = (0, 0, 0)

# Signals.
GOOD = (120, 200, 130)
BAD = (236, 96, 84)
INFO = (128, 184, 236)

# Panels over the felt (with alpha).
PANEL = (12, 22, 18, 218)
PANEL_SOFT = (12, 22, 18, 170)
PANEL_STRONG = (10, 16, 14, 238)
PANEL_ROW = (255, 255, 255, 14)        # alternating table rows
PANEL_ROW_HOVER = (248, 214, 132, 34)
SCRIM = (0, 0, 0, 150)                 # dims the scene below an overlay

# Seat accents (seat 0 = the player at the bottom, seat 1 = the top).
SEAT_COLORS = ((236, 196, 110), (150, 196, 236))

# ------------------------------------------------------------------ type
# Design pixel sizes at 1080 px window height.
FONT_SIZES = {
    "display": 96,   # match winner
    "h1": 60,        # scene titles
    "h2": 42,        # panel titles
    "h3": 34,
    "body": 28,
    "small": 23,
    "tiny": 19,
    "button": 30,
}

# ------------------------------------------------------------------ spacing
SPACE_XS = 6
SPACE_S = 12
SPACE_M = 20
SPACE_L = 32
SPACE_XL = 48
SPACE_XXL = 72
RADIUS = 14              # panel corners
RADIUS_BUTTON = 12
BORDER = 2               # the gold hairline
BUTTON_H = 72            # a standard button
BUTTON_W = 380
ROW_H = 52               # a table row

# ------------------------------------------------------------------ motion
FAST = 0.12              # hover, press (seconds at anim_speed 1)
MEDIUM = 0.28            # overlays sliding in
SLOW = 0.6               # card flips, banners

MIN_LAYOUT_SIZE = (960, 540)   # layout maths never goes below this


Size = Union[Sequence[int], int]


def scale(size: Size) -> float:
    """The UI scale factor for a window: 1.0 at 1080 px tall.

    ``size`` is a (width, height) pair or a height. A narrow window is limited
    by its width too (as if it were 4:3), so side-by-side layouts still fit.
    Never below 0.3, so tiny windows stay drawable.
    """
    if isinstance(size, (int, float)):
        w, h = size * 16 / 9, float(size)
    else:
        w, h = float(size[0]), float(size[1])
    factor = min(h / 1080.0, w / 1440.0)
    return max(0.3, factor)


def px(n: float, s: float) -> int:
    """A design length ``n`` (1080p pixels) at scale ``s``, at least 1 px."""
    return max(1, int(round(n * s)))


def font_px(role: str, s: float) -> int:
    """The pixel size for a type role ("h1", "body", ...) at scale ``s``."""
    return max(9, int(round(FONT_SIZES[role] * s)))


def with_alpha(color: Color, alpha: int) -> tuple:
    return (color[0], color[1], color[2], max(0, min(255, int(alpha))))


def mix(a: Color, b: Color, t: float) -> tuple:
    """Linear blend of two colours (t=0: a, t=1: b), keeping alpha if both have it."""
    t = max(0.0, min(1.0, t))
    n = min(len(a), len(b))
    return tuple(int(round(a[i] + (b[i] - a[i]) * t)) for i in range(n))


def lighten(color: Color, t: float) -> tuple:
    return mix(color, (255, 255, 255, *color[3:4]), t)


def darken(color: Color, t: float) -> tuple:
    return mix(color, (0, 0, 0, *color[3:4]), t)
