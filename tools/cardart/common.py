"""Drawing helpers for the card painters (Pillow only, deterministic).

Everything works in canvas pixels (the 4x supersampled card). Shapes are
built as point lists (curves are sampled here, not by Pillow) and drawn as a
flat fill with a dark outline: the traditional hanafuda look.
"""

from __future__ import annotations

import math
import random
import zlib
from typing import Callable, Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont

from . import palette as P

Point = tuple[float, float]
Colour = tuple[int, int, int, int]

W, H = P.CANVAS_W, P.CANVAS_H
OUTLINE = 8  # outline width at canvas scale (2 px on the final card)


# --------------------------------------------------------------------------
# colour and randomness


def rng_for(card_id: str, salt: str = "") -> random.Random:
    """A random source fixed by the card id, so every run paints the same."""
    return random.Random(zlib.crc32((card_id + "/" + salt).encode()))


def shade(c: Colour, f: float) -> Colour:
    """Darken (f < 1) or lighten towards white (f > 1) a colour."""
    r, g, b, a = c
    if f <= 1:
        return (int(r * f), int(g * f), int(b * f), a)
    t = f - 1
    return (int(r + (255 - r) * t), int(g + (255 - g) * t), int(b + (255 - b) * t), a)


def mix(c1: Colour, c2: Colour, t: float) -> Colour:
    return tuple(int(round(a + (b - a) * t)) for a, b in zip(c1, c2))  # type: ignore[return-value]


# --------------------------------------------------------------------------
# geometry


def lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def cubic(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 40) -> list[Point]:
    pts = []
    for i in range(n + 1):
        t = i / n
        m = 1 - t
        a, b, c, d = m * m * m, 3 * m * m * t, 3 * m * t * t, t * t * t
        pts.append((a * p0[0] + b * p1[0] + c * p2[0] + d * p3[0],
                    a * p0[1] + b * p1[1] + c * p2[1] + d * p3[1]))
    return pts


def quad(p0: Point, p1: Point, p2: Point, n: int = 30) -> list[Point]:
    pts = []
    for i in range(n + 1):
        t = i / n
        m = 1 - t
        pts.append((m * m * p0[0] + 2 * m * t * p1[0] + t * t * p2[0],
                    m * m * p0[1] + 2 * m * t * p1[1] + t * t * p2[1]))
    return pts


def spline(ctrl: Sequence[Point], n: int = 14, closed: bool = False) -> list[Point]:
    """Catmull-Rom curve through the control points."""
    pts = list(ctrl)
    if closed:
        ext = [pts[-1]] + pts + [pts[0], pts[1]]
        segs = len(pts)
    else:
        ext = [pts[0]] + pts + [pts[-1]]
        segs = len(pts) - 1
    out: list[Point] = []
    for s in range(segs):
        p0, p1, p2, p3 = ext[s], ext[s + 1], ext[s + 2], ext[s + 3]
        for i in range(n):
            t = i / n
            t2, t3 = t * t, t * t * t
            out.append(tuple(  # type: ignore[arg-type]
                0.5 * ((2 * p1[k]) + (-p0[k] + p2[k]) * t
                       + (2 * p0[k] - 5 * p1[k] + 4 * p2[k] - p3[k]) * t2
                       + (-p0[k] + 3 * p1[k] - 3 * p2[k] + p3[k]) * t3)
                for k in (0, 1)))
    if not closed:
        out.append(pts[-1])
    return out


def rot(p: Point, c: Point, ang: float) -> Point:
    """Rotate p around c by ang degrees (counter-clockwise on screen)."""
    a = math.radians(-ang)
    dx, dy = p[0] - c[0], p[1] - c[1]
    return (c[0] + dx * math.cos(a) - dy * math.sin(a), c[1] + dx * math.sin(a) + dy * math.cos(a))


def transform(pts: Iterable[Point], dx: float = 0, dy: float = 0, s: float = 1,
              ang: float = 0, mirror: bool = False) -> list[Point]:
    """Scale, optionally mirror (x -> -x), rotate, then translate local points."""
    out = []
    for x, y in pts:
        x, y = x * s, y * s
        if mirror:
            x = -x
        if ang:
            x, y = rot((x, y), (0, 0), ang)
        out.append((x + dx, y + dy))
    return out


def ellipse_pts(cx: float, cy: float, rx: float, ry: float, ang: float = 0,
                n: int = 48, a0: float = 0, a1: float = 360) -> list[Point]:
    pts = []
    for i in range(n + 1 if a1 - a0 < 360 else n):
        t = math.radians(a0 + (a1 - a0) * i / n)
        pts.append(rot((cx + rx * math.cos(t), cy + ry * math.sin(t)), (cx, cy), ang))
    return pts


def tube(path: Sequence[Point], width: Callable[[float], float] | float,
         round_tip: bool = True) -> list[Point]:
    """The outline polygon of a stroke of varying width along a path."""
    wf = width if callable(width) else (lambda t, w=width: w)
    n = len(path)
    left, right = [], []
    for i, p in enumerate(path):
        a = path[max(i - 1, 0)]
        b = path[min(i + 1, n - 1)]
        tx, ty = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(tx, ty) or 1
        nx, ny = -ty / ln, tx / ln
        w = wf(i / (n - 1)) / 2
        left.append((p[0] + nx * w, p[1] + ny * w))
        right.append((p[0] - nx * w, p[1] - ny * w))
    cap: list[Point] = []
    if round_tip:
        p = path[-1]
        a = path[-2]
        base = math.atan2(left[-1][1] - p[1], left[-1][0] - p[0])
        r = wf(1.0) / 2
        # the tip cap turns from the left side through the path direction
        fwd = math.atan2(p[1] - a[1], p[0] - a[0])
        sign = 1 if math.sin(fwd - base) > 0 else -1
        for k in range(1, 8):
            t = base + sign * math.pi * k / 8
            cap.append((p[0] + r * math.cos(t), p[1] + r * math.sin(t)))
    return left + cap + right[::-1]


def wave(x0: float, x1: float, y: float, amps: Sequence[tuple[float, float, float]],
         n: int = 80) -> list[Point]:
    """A horizontal line at y displaced by sum(a*sin(2pi*f*u + ph))."""
    pts = []
    for i in range(n + 1):
        u = i / n
        yy = y + sum(a * math.sin(2 * math.pi * f * u + ph) for a, f, ph in amps)
        pts.append((x0 + (x1 - x0) * u, yy))
    return pts


# --------------------------------------------------------------------------
# drawing


def poly(d: ImageDraw.ImageDraw, pts: Sequence[Point], fill: Colour | None,
         outline: Colour | None = P.INK, width: int = OUTLINE) -> None:
    """A filled polygon with a round-jointed outline."""
    pts = [(float(x), float(y)) for x, y in pts]
    if fill is not None:
        d.polygon(pts, fill=fill)
    if outline is not None and width > 0:
        d.line(pts + [pts[0], pts[1]], fill=outline, width=width, joint="curve")


def line(d: ImageDraw.ImageDraw, pts: Sequence[Point], fill: Colour, width: float) -> None:
    """A polyline with round joints and round caps."""
    pts = [(float(x), float(y)) for x, y in pts]
    w = max(1, int(round(width)))
    d.line(pts, fill=fill, width=w, joint="curve")
    r = w / 2
    if w >= 3:
        for x, y in (pts[0], pts[-1]):
            d.ellipse((x - r + 0.5, y - r + 0.5, x + r - 0.5, y + r - 0.5), fill=fill)


def stroke(d: ImageDraw.ImageDraw, pts: Sequence[Point], width: float, fill: Colour,
           outline: Colour = P.INK, ow: int = OUTLINE) -> None:
    """A thick outlined line (an outlined stick of constant width)."""
    line(d, pts, outline, width + 2 * ow)
    line(d, pts, fill, width)


def disc(d: ImageDraw.ImageDraw, c: Point, r: float, fill: Colour | None,
         outline: Colour | None = P.INK, width: int = OUTLINE) -> None:
    x, y = c
    d.ellipse((x - r, y - r, x + r, y + r), fill=fill,
              outline=outline, width=width if outline is not None else 0)


def branch(d: ImageDraw.ImageDraw, ctrl: Sequence[Point], w0: float, w1: float,
           fill: Colour = P.BRANCH_BROWN, outline: Colour = P.INK,
           ow: int = OUTLINE, knots: int = 0, rng: random.Random | None = None) -> list[Point]:
    """A tapering branch through control points; returns its centre line."""
    path = spline(ctrl, n=16)
    poly(d, tube(path, lambda t: w0 + (w1 - w0) * t), fill, outline, ow)
    if knots and rng is not None:
        # short bark marks along the branch
        for _ in range(knots):
            i = rng.randrange(2, max(3, len(path) - 3))
            t = i / (len(path) - 1)
            w = (w0 + (w1 - w0) * t) / 2
            a, b = path[i - 1], path[i + 1]
            tx, ty = b[0] - a[0], b[1] - a[1]
            ln = math.hypot(tx, ty) or 1
            nx, ny = -ty / ln, tx / ln
            off = rng.uniform(-0.4, 0.4) * w
            p = path[i]
            q = (p[0] + nx * off, p[1] + ny * off)
            line(d, [(q[0] - tx / ln * w * 0.5, q[1] - ty / ln * w * 0.5),
                     (q[0] + tx / ln * w * 0.5, q[1] + ty / ln * w * 0.5)],
                 shade(fill, 0.55), max(3, w * 0.18))
    return path


def leaf_shape(base: Point, tip: Point, width: float, bend: float = 0.0,
               n: int = 20) -> list[Point]:
    """A pointed leaf from base to tip; bend curves the midrib sideways."""
    bx, by = base
    tx, ty = tip
    ln = math.hypot(tx - bx, ty - by) or 1
    ux, uy = (tx - bx) / ln, (ty - by) / ln
    nx, ny = -uy, ux
    left, right = [], []
    for i in range(n + 1):
        t = i / n
        half = width / 2 * math.sin(math.pi * t) ** 0.8 * (1 - 0.25 * t)
        off = bend * ln * math.sin(math.pi * t) * 0.5
        cx, cy = bx + ux * ln * t + nx * off, by + uy * ln * t + ny * off
        left.append((cx + nx * half, cy + ny * half))
        right.append((cx - nx * half, cy - ny * half))
    return left + right[::-1][1:-1]


def leaf(d: ImageDraw.ImageDraw, base: Point, tip: Point, width: float,
         fill: Colour = P.LEAF_GREEN, bend: float = 0.0, vein: Colour | None = None,
         ow: int = OUTLINE) -> None:
    poly(d, leaf_shape(base, tip, width, bend), fill, P.INK, ow)
    if vein is not None:
        bx, by = base
        tx, ty = tip
        ln = math.hypot(tx - bx, ty - by) or 1
        nx, ny = -(ty - by) / ln, (tx - bx) / ln
        mid = []
        for i in range(13):
            t = 0.08 + 0.8 * i / 12
            off = bend * ln * math.sin(math.pi * t) * 0.5
            mid.append((bx + (tx - bx) * t + nx * off, by + (ty - by) * t + ny * off))
        line(d, mid, vein, max(3, width * 0.06))


def sky(d: ImageDraw.ImageDraw, edge: Sequence[Point], top: bool = True,
        fill: Colour = P.SKY_RED) -> None:
    """Fill above (top=True) or below a wavy edge line running left to right."""
    edge = list(edge)
    if top:
        pts = [(-10, -10)] + edge + [(W + 10, -10)]
    else:
        pts = [(-10, H + 10)] + edge + [(W + 10, H + 10)]
    d.polygon([(float(x), float(y)) for x, y in pts], fill=fill)


# --------------------------------------------------------------------------
# ribbons


_font_cache: dict[tuple[str, int], ImageFont.FreeTypeFont] = {}


def font(path: str, size: int) -> ImageFont.FreeTypeFont:
    key = (path, size)
    if key not in _font_cache:
        _font_cache[key] = ImageFont.truetype(path, size, index=0)
    return _font_cache[key]


def ribbon(img: Image.Image, top: Point, angle: float, length: float = 760,
           width: float = 128, colour: Colour = P.RIBBON_RED, text: str | None = None,
           fold: float = 0.13) -> None:
    """A hanging tanzaku: a long narrow slip with a folded-over top.

    top is the centre of its upper end, angle the tilt in degrees (positive
    swings the lower end to the right). Drawn upright on a layer and rotated.
    """
    pad = 40
    lw, lh = int(width + 2 * pad), int(length + 2 * pad)
    layer = Image.new("RGBA", (lw, lh), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    x0, x1 = pad, pad + width
    y0, y1 = pad, pad + length
    fh = length * fold
    dark = shade(colour, 0.68)
    light = shade(colour, 1.3)
    # main slip; its top edge is hidden under the fold
    body = [(x0, y0 + fh * 0.55), (x1, y0 + fh * 0.45), (x1 + 3, y1), (x0 - 3, y1)]
    poly(d, body, colour, P.INK, OUTLINE)
    # thin light edge lines, like the printed border of a real tanzaku
    inset = width * 0.11
    line(d, [(x0 + inset, y0 + fh + 14), (x0 + inset - 1, y1 - inset)], light, 5)
    line(d, [(x1 - inset, y0 + fh + 14), (x1 - inset + 1, y1 - inset)], light, 5)
    line(d, [(x0 + inset - 1, y1 - inset), (x1 - inset + 1, y1 - inset)], light, 5)
    # the fold: the top folded forward, a slanted darker flap
    flap = [(x0 - 4, y0), (x1 + 4, y0 + fh * 0.1), (x1 + 2, y0 + fh),
            (x0 - 2, y0 + fh * 1.12)]
    poly(d, flap, dark, P.INK, OUTLINE)
    line(d, [(x0 + 10, y0 + fh * 1.12 - 8), (x1 - 8, y0 + fh - 8)], shade(colour, 0.5), 4)
    if text:
        n = len(text)
        avail = length - fh - width * 0.55
        size = int(min(width * 0.74, avail / (n * 1.02)))
        f = font(P.CJK_FONT, size)
        step = avail / n
        cx = (x0 + x1) / 2
        ystart = y0 + fh + width * 0.3
        for i, ch in enumerate(text):
            cy = ystart + step * (i + 0.5)
            d.text((cx, cy), ch, font=f, fill=P.RIBBON_TEXT, anchor="mm")
    # rotate about the layer centre (expand keeps that centre in the middle),
    # then place it so the pivot (top centre of the slip) lands on `top`
    rl = layer.rotate(angle, resample=Image.BICUBIC, expand=True)
    a = math.radians(angle)
    vx, vy = 0.0, pad - lh / 2  # pivot relative to the layer centre
    rx = vx * math.cos(a) + vy * math.sin(a)
    ry = -vx * math.sin(a) + vy * math.cos(a)
    px, py = rl.width / 2 + rx, rl.height / 2 + ry
    composite(img, rl, int(round(top[0] - px)), int(round(top[1] - py)))


def composite(img: Image.Image, layer: Image.Image, x: int, y: int) -> None:
    """alpha_composite that accepts layers hanging off any edge."""
    sx, sy = max(0, -x), max(0, -y)
    ex, ey = min(layer.width, img.width - x), min(layer.height, img.height - y)
    if ex <= sx or ey <= sy:
        return
    img.alpha_composite(layer, (x + sx, y + sy), (sx, sy, ex, ey))
