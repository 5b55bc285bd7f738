"""Card faces of months 7-12: bush clover, pampas, chrysanthemum, maple,
willow and paulownia.

`paint(card_id, img)` draws one face onto a 4x supersampled RGBA canvas that
arrives filled with paper colour; the framework adds frame, corners, badge and
downsampling. All geometry below is written in final-card pixels (216 x 348)
and scaled by `palette.SS` when drawn, so shapes are easy to reason about.
Everything is deterministic: variation comes from a Random seeded by the id.
"""

from __future__ import annotations

import math
import random
from typing import Callable, Iterable, Sequence

from PIL import Image, ImageDraw, ImageFont

try:  # imported as part of the tools.cardart / cardart package
    from . import palette as pal
except ImportError:  # pragma: no cover - imported with tools/cardart on sys.path
    import palette as pal  # type: ignore[no-redef]

Point = tuple[float, float]
Color = tuple[int, int, int, int]

PAINTED = (
    "07-A", "07-R", "07-P1", "07-P2",
    "08-B", "08-A", "08-P1", "08-P2",
    "09-A", "09-RB", "09-P1", "09-P2",
    "10-A", "10-RB", "10-P1", "10-P2",
    "11-B", "11-A", "11-R", "11-P",
    "12-B", "12-P1", "12-P2", "12-P3",
)

S = pal.SS
W, H = pal.CARD_W, pal.CARD_H
INK = pal.INK
OW = 2.0  # standard outline width in final pixels

# Local shades (the palette is shared; these only refine it for this half).
HAGI_STEM = (62, 36, 42, 255)
HAGI_LEAF = (58, 118, 64, 255)
HAGI_LEAF_DARK = (30, 78, 46, 255)
CLOVER_LIGHT = (240, 130, 150, 255)
BOAR_BROWN = (104, 66, 42, 255)
BOAR_DARK = (58, 36, 26, 255)
BOAR_BELLY = (150, 104, 66, 255)
PAMPAS_PLUME = (226, 206, 170, 255)
GOOSE_DARK = (44, 40, 44, 255)
GOOSE_GREY = (118, 112, 112, 255)
CHRYS_LIGHT = (252, 226, 110, 255)
CHRYS_DEEP = (214, 140, 24, 255)
CHRYS_RED = (196, 40, 48, 255)
CHRYS_RED_LIGHT = (232, 96, 86, 255)
CHRYS_WHITE = (250, 248, 238, 255)
CHRYS_WHITE_SHADE = (226, 220, 200, 255)
CUP_RED = (188, 28, 34, 255)
CUP_RED_DARK = (138, 18, 26, 255)
CUP_SHINE = (232, 96, 90, 255)
MAPLE_YELLOW = (236, 180, 40, 255)
MAPLE_DEEP = (160, 28, 28, 255)
DEER_BROWN = (160, 96, 50, 255)
DEER_DARK = (110, 62, 32, 255)
DEER_LIGHT = (232, 200, 150, 255)
WILLOW_DARK = (44, 96, 48, 255)
WILLOW_BACK = (62, 118, 58, 255)
WILLOW_LIGHT = (150, 196, 96, 255)
SKIN = (246, 222, 190, 255)
ROBE_DARK = (38, 38, 58, 255)
ROBE_MID = (70, 72, 100, 255)
STREAM_BLUE = (46, 84, 170, 255)
STREAM_LIGHT = (150, 186, 230, 255)
FROG_GREEN = (96, 160, 60, 255)
SWALLOW_BACK = (30, 32, 64, 255)
LIGHTNING_SKY = (34, 30, 44, 255)
BOLT_YELLOW = (250, 226, 90, 255)
GATE_RED = (206, 48, 36, 255)
GATE_RED_DARK = (150, 28, 26, 255)
KIRI_LEAF_FRONT = (34, 54, 42, 255)
KIRI_LEAF_SIDE = (27, 43, 34, 255)
KIRI_VEIN = (86, 132, 94, 255)
KIRI_FLOWER = (156, 96, 178, 255)
KIRI_FLOWER_DEEP = (110, 60, 140, 255)
BAND_YELLOW = (244, 214, 90, 255)
PHOENIX_GREEN = (40, 150, 90, 255)
PHOENIX_BLUE = (50, 100, 200, 255)
PHOENIX_RED = (220, 50, 40, 255)
PHOENIX_ORANGE = (244, 140, 40, 255)
PHOENIX_PURPLE = (120, 70, 160, 255)
SKY_GLOW = (226, 92, 48, 255)


# --------------------------------------------------------------------------
# geometry helpers (final-pixel units)
# --------------------------------------------------------------------------

def _lerp(a: Point, b: Point, t: float) -> Point:
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def _cubic(p0: Point, p1: Point, p2: Point, p3: Point, n: int = 40) -> list[Point]:
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append((
            u * u * u * p0[0] + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t * t * t * p3[0],
            u * u * u * p0[1] + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t * t * t * p3[1],
        ))
    return out


def _quad(p0: Point, p1: Point, p2: Point, n: int = 30) -> list[Point]:
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append((u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0],
                    u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1]))
    return out


def _catmull(pts: Sequence[Point], closed: bool = True, n: int = 10) -> list[Point]:
    """Smooth curve through every control point (Catmull-Rom)."""
    pts = list(pts)
    m = len(pts)
    out: list[Point] = []
    segs = m if closed else m - 1
    for i in range(segs):
        if closed:
            p0, p1, p2, p3 = pts[(i - 1) % m], pts[i], pts[(i + 1) % m], pts[(i + 2) % m]
        else:
            p0 = pts[max(i - 1, 0)]
            p1, p2 = pts[i], pts[i + 1]
            p3 = pts[min(i + 2, m - 1)]
        for k in range(n):
            t = k / n
            t2, t3 = t * t, t * t * t
            out.append(tuple(
                0.5 * ((2 * p1[j]) + (-p0[j] + p2[j]) * t
                       + (2 * p0[j] - 5 * p1[j] + 4 * p2[j] - p3[j]) * t2
                       + (-p0[j] + 3 * p1[j] - 3 * p2[j] + p3[j]) * t3)
                for j in range(2)))  # type: ignore[arg-type]
    if not closed:
        out.append(pts[-1])
    return out


def _tf(pts: Iterable[Point], cx: float, cy: float, s: float = 1.0, ang: float = 0.0,
        flip: bool = False, sy: float | None = None) -> list[Point]:
    """Scale (optionally mirror), rotate by ang degrees, then move to (cx, cy)."""
    ca, sa = math.cos(math.radians(ang)), math.sin(math.radians(ang))
    sy = s if sy is None else sy
    out = []
    for x, y in pts:
        if flip:
            x = -x
        x *= s
        y *= sy
        out.append((cx + x * ca - y * sa, cy + x * sa + y * ca))
    return out


def _ellipse_pts(cx: float, cy: float, rx: float, ry: float, ang: float = 0.0,
                 n: int = 48) -> list[Point]:
    base = [(rx * math.cos(2 * math.pi * i / n), ry * math.sin(2 * math.pi * i / n))
            for i in range(n)]
    return _tf(base, cx, cy, 1.0, ang)


def _stroke(pts: Sequence[Point], w0: float, w1: float | None = None,
            wfun: Callable[[float], float] | None = None) -> list[Point]:
    """Polygon of a line of varying width along a polyline."""
    if w1 is None:
        w1 = w0
    n = len(pts)
    lens = [0.0]
    for i in range(1, n):
        lens.append(lens[-1] + math.dist(pts[i - 1], pts[i]))
    tot = lens[-1] or 1.0
    left, right = [], []
    for i, (x, y) in enumerate(pts):
        a, b = pts[max(i - 1, 0)], pts[min(i + 1, n - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln, dx / ln
        t = lens[i] / tot
        w = (wfun(t) if wfun else w0 + (w1 - w0) * t) / 2
        left.append((x + nx * w, y + ny * w))
        right.append((x - nx * w, y - ny * w))
    return left + right[::-1]


def _point_at(pts: Sequence[Point], t: float) -> tuple[Point, float]:
    """Point at fraction t of a polyline's length and the tangent angle there."""
    lens = [0.0]
    for i in range(1, len(pts)):
        lens.append(lens[-1] + math.dist(pts[i - 1], pts[i]))
    target = lens[-1] * min(max(t, 0.0), 1.0)
    for i in range(1, len(pts)):
        if lens[i] >= target:
            seg = lens[i] - lens[i - 1] or 1.0
            p = _lerp(pts[i - 1], pts[i], (target - lens[i - 1]) / seg)
            ang = math.degrees(math.atan2(pts[i][1] - pts[i - 1][1], pts[i][0] - pts[i - 1][0]))
            return p, ang
    a, b = pts[-2], pts[-1]
    return pts[-1], math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))


def _polar(p: Point, ang: float, r: float) -> Point:
    return (p[0] + r * math.cos(math.radians(ang)), p[1] + r * math.sin(math.radians(ang)))


def _shade(c: Color, f: float) -> Color:
    """Darken (f < 1) or lighten towards white (f > 1)."""
    if f <= 1:
        return (int(c[0] * f), int(c[1] * f), int(c[2] * f), 255)
    g = f - 1
    return (int(c[0] + (255 - c[0]) * g), int(c[1] + (255 - c[1]) * g),
            int(c[2] + (255 - c[2]) * g), 255)


class Pen:
    """ImageDraw wrapper that takes final-pixel coordinates, optionally
    through a uniform scale k about the origin followed by a shift (ox, oy):
    that lets a figure be drawn once and placed/sized freely."""

    def __init__(self, img: Image.Image, k: float = 1.0, ox: float = 0.0, oy: float = 0.0):
        self.img = img
        self.d = ImageDraw.Draw(img)
        self.k, self.ox, self.oy = k, ox, oy

    def _s(self, pts: Iterable[Point]) -> list[Point]:
        k, ox, oy = self.k, self.ox, self.oy
        return [((ox + x * k) * S, (oy + y * k) * S) for x, y in pts]

    def poly(self, pts: Sequence[Point], fill: Color | None = None, ow: float = OW,
             ink: Color = INK) -> None:
        sp = self._s(pts)
        if fill is not None:
            self.d.polygon(sp, fill=fill)
        if ow > 0:
            self.d.line(sp + [sp[0]], fill=ink, width=max(1, round(ow * S)), joint="curve")

    def line(self, pts: Sequence[Point], fill: Color = INK, w: float = OW,
             caps: bool = True) -> None:
        sp = self._s(pts)
        width = max(1, round(w * S))
        self.d.line(sp, fill=fill, width=width, joint="curve")
        if caps and width > 2:
            r = width / 2
            for x, y in (sp[0], sp[-1]):
                self.d.ellipse([x - r, y - r, x + r, y + r], fill=fill)

    def ellipse(self, cx: float, cy: float, rx: float, ry: float, fill: Color | None,
                ow: float = OW, ink: Color = INK, ang: float = 0.0) -> None:
        if ang:
            self.poly(_ellipse_pts(cx, cy, rx, ry, ang, 64), fill, ow, ink)
            return
        (x0, y0), (x1, y1) = self._s([(cx - rx, cy - ry), (cx + rx, cy + ry)])
        box = [x0, y0, x1, y1]
        self.d.ellipse(box, fill=fill, outline=ink if ow > 0 else None,
                       width=max(1, round(ow * S)) if ow > 0 else 0)

    def rect(self, x0: float, y0: float, x1: float, y1: float, fill: Color) -> None:
        (a, b), (c, d) = self._s([(x0, y0), (x1, y1)])
        self.d.rectangle([a, b, c, d], fill=fill)

    def taper(self, pts: Sequence[Point], w0: float, w1: float, fill: Color,
              ow: float = 0.0, ink: Color = INK) -> None:
        self.poly(_stroke(pts, w0, w1), fill, ow, ink)


def _mirror(img: Image.Image) -> None:
    img.paste(img.transpose(Image.Transpose.FLIP_LEFT_RIGHT), (0, 0))


def _fill(pen: Pen, color: Color) -> None:
    pen.rect(-2, -2, W + 2, H + 2, color)


def _mix(c1: Color, c2: Color, t: float) -> Color:
    return tuple(int(round(a + (b - a) * t)) for a, b in zip(c1, c2))  # type: ignore[return-value]


_SKY_WAVE = ((5.5, 1, 0.6), (3.0, 2.3, 2.1), (1.5, 4.1, 0.3))


def _red_sky(pen: Pen, y: float, phase: float = 0.0, top: bool = True, amp: float = 1.0) -> None:
    """A red sky above (or a red ground below) a softly waving edge, with a
    darker band along the edge: the same printed look as months 1-6."""
    edge = []
    for i in range(81):
        u = i / 80
        yy = y + sum(a * amp * math.sin(2 * math.pi * f * u + ph + phase) for a, f, ph in _SKY_WAVE)
        edge.append((-3 + (W + 6) * u, yy))
    cap = -3 if top else H + 3
    pen.poly([(-3, cap)] + edge + [(W + 3, cap)], pal.SKY_RED, 0)
    off = -6.5 if top else 6.5
    band = edge + [(x, yy + off) for x, yy in edge[::-1]]
    pen.poly(band, _mix(pal.SKY_RED, pal.SKY_RED_DARK, 0.55), 0)


# --------------------------------------------------------------------------
# ribbons
# --------------------------------------------------------------------------

def _ribbon(pen: Pen, top: Point, ang: float, length: float = 190, width: float = 32,
            color: Color = pal.RIBBON_RED, fold: float = 0.13) -> None:
    """A hanging tanzaku: a long narrow slip whose top is folded forward.

    `top` is the centre of its upper end; `ang` tilts it in degrees (positive
    swings the lower end to the left). Same build as the months 1-6 slips so
    the ten ribbons of the deck read as one family."""
    dark = _shade(color, 0.68)
    light = _shade(color, 1.18)
    fh = length * fold

    def T(pts: Iterable[Point]) -> list[Point]:
        # local frame: x across the slip (-w/2..w/2), y down from its top
        return _tf(pts, top[0], top[1], 1.0, ang)

    hw = width / 2
    body = [(-hw, fh * 0.55), (hw, fh * 0.45), (hw + 0.8, length), (-hw - 0.8, length)]
    pen.poly(T(body), color, OW)
    # a soft shade down one side gives the paper slip some body
    pen.poly(T([(hw - 5.5, fh), (hw - 0.9, fh), (hw - 0.3, length - 1), (hw - 5, length - 1)]),
             _shade(color, 0.88), 0)
    inset = width * 0.11
    pen.line(T([(-hw + inset, fh + 3.5), (-hw + inset - 0.2, length - inset)]), light, 1.0)
    pen.line(T([(hw - inset, fh + 3.5), (hw - inset + 0.2, length - inset)]), light, 1.0)
    flap = [(-hw - 1, 0), (hw + 1, fh * 0.1), (hw + 0.5, fh), (-hw - 0.5, fh * 1.12)]
    pen.poly(T(flap), dark, OW)
    pen.line(T([(-hw + 2.5, fh * 1.12 - 2), (hw - 2, fh - 2)]), _shade(color, 0.5), 1.0)


# --------------------------------------------------------------------------
# month 7: bush clover (hagi)
# --------------------------------------------------------------------------

def _hagi_flower(pen: Pen, x: float, y: float, ang: float, s: float) -> None:
    """One pea-like clover floret: a rounded red petal with a pale keel."""
    pen.ellipse(x, y, 4.6 * s, 3.3 * s, pal.CLOVER_RED, 1.3, ang=ang)
    hx, hy = _polar((x, y), ang + 180, 1.4 * s)
    pen.ellipse(hx, hy, 2.0 * s, 1.3 * s, CLOVER_LIGHT, 0, ang=ang)


def _hagi_raceme(pen: Pen, start: Point, ang: float, length: float, s: float,
                 rng: random.Random) -> None:
    """A short drooping spray of florets."""
    pts = _quad(start, _polar(start, ang, length * 0.5),
                _polar(_polar(start, ang, length), 90, length * 0.3), 12)
    pen.line(pts, HAGI_STEM, 1.4 * s)
    n = max(3, int(length / 4.6))
    for i in range(n):
        t = 0.12 + 0.88 * i / (n - 1)
        p, a = _point_at(pts, t)
        side = 1 if i % 2 else -1
        fs = s * (1.05 - 0.4 * t)
        q = _polar(p, a + side * 70, 3.2 * fs)
        _hagi_flower(pen, q[0], q[1], a + side * 40 + rng.uniform(-12, 12), fs)
    tip = pts[-1]
    _hagi_flower(pen, tip[0], tip[1], ang + 60, s * 0.62)


def _hagi_leaves(pen: Pen, p: Point, ang: float, s: float, color: Color) -> None:
    """The trifoliate leaf of bush clover: three round-tipped ovals."""
    for da, ln, wd in ((-52, 6.2, 3.6), (52, 6.2, 3.6), (0, 7.8, 4.3)):
        a = ang + da
        c = _polar(p, a, ln * s * 0.95)
        pen.ellipse(c[0], c[1], ln * s, wd * s, color, 1.3, ang=a)
        pen.line([_polar(c, a, -ln * s * 0.7), _polar(c, a, ln * s * 0.55)],
                 _shade(color, 0.6), 0.8, caps=False)


def _hagi_bush(pen: Pen, rng: random.Random, branches: Sequence[tuple], s: float = 1.0,
               flower_bias: float = 0.6) -> None:
    """branches: (p0, p1, p2, p3, base_width). Stems first, then leaves, then
    flowers, so blossoms sit on top the way they do in the printed decks."""
    leaves: list[tuple] = []
    flowers: list[tuple] = []
    for p0, p1, p2, p3, w0 in branches:
        pts = _cubic(p0, p1, p2, p3, 60)
        pen.taper(pts, w0 + 1.6, 2.2, INK)
        pen.taper(pts, w0, 0.9, HAGI_STEM)
        lens = sum(math.dist(pts[i - 1], pts[i]) for i in range(1, len(pts)))
        nodes = max(3, int(lens / 19))
        for i in range(1, nodes):
            t = i / nodes + rng.uniform(-0.02, 0.02)
            p, a = _point_at(pts, t)
            side = 1 if i % 2 else -1
            ta = a + side * rng.uniform(40, 62)
            # twigs droop: pull their direction towards straight down
            ta = ta + (90 - ta) * 0.25 if -90 < ta < 270 else ta
            tl = rng.uniform(8, 14) * s
            tip = _polar(p, ta, tl)
            pen.line([p, _polar(p, ta, tl * 0.5), tip], HAGI_STEM, 1.8 * s)
            if rng.random() < flower_bias and t > 0.25:
                flowers.append((tip, ta + rng.uniform(-10, 25), rng.uniform(16, 24) * s))
            else:
                col = HAGI_LEAF if rng.random() < 0.6 else HAGI_LEAF_DARK
                leaves.append((tip, ta, s * rng.uniform(0.9, 1.1), col))
        end, a = _point_at(pts, 1.0)
        flowers.append((end, a, 22 * s))
    for tip, ta, ss, col in leaves:
        _hagi_leaves(pen, tip, ta, ss, col)
    for tip, ta, ln in flowers:
        _hagi_raceme(pen, tip, ta, ln, s, rng)


def _paint_07(cid: str, img: Image.Image) -> None:
    pen = Pen(img)
    rng = random.Random("koikoi-" + cid)
    # a red ground the clover springs from, echoing the red skies of the set
    _red_sky(pen, {"07-A": 312, "07-R": 300, "07-P1": 296, "07-P2": 304}.get(cid, 300),
             phase=len(cid), top=False, amp=0.8)
    if cid == "07-P1":
        _hagi_bush(pen, rng, [
            ((40, 352), (6, 230), (52, 50), (198, 56), 6.8),
            ((60, 352), (58, 250), (130, 146), (198, 206), 6.4),
            ((24, 352), (-2, 280), (16, 170), (92, 126), 5.4),
            ((84, 352), (112, 286), (160, 248), (198, 280), 5.0),
        ], s=1.12)
    elif cid == "07-P2":
        _hagi_bush(pen, rng, [
            ((30, 352), (12, 250), (40, 100), (156, 30), 6.6),
            ((52, 352), (46, 236), (110, 116), (198, 110), 6.4),
            ((70, 352), (94, 270), (152, 210), (198, 252), 5.4),
            ((18, 352), (4, 300), (28, 230), (70, 200), 4.8),
        ], s=1.12)
        _mirror(img)
    elif cid == "07-R":
        _hagi_bush(pen, rng, [
            ((26, 352), (-2, 250), (8, 140), (56, 96), 5.8),
            ((196, 352), (216, 260), (204, 180), (164, 150), 5.8),
        ], s=1.12, flower_bias=0.7)
        _ribbon(pen, (104, 30), -8, 200)
        _hagi_bush(pen, rng, [
            ((-6, 22), (60, 2), (150, 12), (206, 84), 6.4),
            ((40, 352), (46, 290), (110, 250), (176, 276), 5.2),
        ], s=1.12, flower_bias=0.7)
    elif cid == "07-A":
        _hagi_bush(pen, rng, [
            ((-6, 34), (60, 4), (160, 18), (206, 136), 6.8),
            ((222, 70), (160, 44), (70, 72), (30, 170), 6.0),
            ((-6, 124), (40, 100), (96, 112), (120, 180), 5.2),
        ], s=1.12, flower_bias=0.75)
        _boar(pen)
    else:
        raise ValueError(cid)


def _boar_leg(pen: Pen, pts: Sequence[Point], color: Color) -> None:
    """A galloping leg: heavy at the body, slim at the pastern, cloven hoof."""
    path = _quad(pts[0], pts[1], pts[2], 16)
    pen.poly(_stroke(path, 0, wfun=lambda t: 6.5 + 15 * (1 - t) ** 2), color, OW)
    end, a = _point_at(path, 1.0)
    hoof = _tf([(-1, -4.2), (7, -3.8), (8.5, 0.4), (7, 4.0), (-1, 4.2)], end[0], end[1], 1, a)
    pen.poly(hoof, INK, 1.0)
    pen.line([_polar(end, a, 2), _polar(end, a, 8)], BOAR_BROWN, 0.8, caps=False)


def _boar(pen: Pen) -> None:
    """A wild boar charging to the left, legs stretched in a gallop."""
    # far legs (darker, behind the body)
    _boar_leg(pen, [(88, 276), (70, 298), (52, 314)], BOAR_DARK)
    _boar_leg(pen, [(156, 274), (176, 292), (200, 302)], BOAR_DARK)
    body = _catmull([
        (24, 260), (34, 250), (50, 240), (64, 226), (84, 210), (112, 202),
        (142, 204), (168, 214), (186, 232), (190, 254), (180, 276),
        (156, 290), (120, 294), (86, 292), (60, 284), (44, 276), (28, 270),
    ], True, 10)
    pen.poly(body, BOAR_BROWN, 2.4)
    # dark bristled ridge along the back
    ridge = _catmull([(56, 236), (72, 220), (94, 206), (120, 201), (146, 205),
                      (168, 215), (184, 232)], False, 8)
    spikes = []
    for i, (x, y) in enumerate(ridge):
        if i % 4 == 2:
            spikes.append((x + 1, y - 6))
        else:
            spikes.append((x, y - 0.5))
    inner = [(x, y + 15 - 6 * abs(i / len(ridge) - 0.5)) for i, (x, y) in enumerate(ridge)]
    pen.poly(spikes + inner[::-1], BOAR_DARK, 0)
    pen.line(spikes, INK, 1.6)
    # pale belly
    belly = _catmull([(64, 282), (92, 290), (124, 292), (156, 288), (170, 281),
                      (150, 276), (110, 280), (80, 278)], True, 8)
    pen.poly(belly, BOAR_BELLY, 0)
    # near legs
    _boar_leg(pen, [(80, 270), (62, 294), (40, 310)], BOAR_BROWN)
    _boar_leg(pen, [(166, 262), (184, 284), (206, 296)], BOAR_BROWN)
    # fur strokes
    for pts in ([(120, 240), (132, 250), (140, 266)], [(100, 236), (108, 250), (112, 264)],
                [(146, 232), (158, 246), (162, 262)], [(76, 246), (84, 258), (86, 270)]):
        pen.line(pts, BOAR_DARK, 1.4)
    # snout, ear, eye, tusk
    pen.ellipse(24, 264, 4, 7, (210, 150, 130, 255), 1.6)
    pen.ellipse(23, 262, 1.2, 2.2, INK, 0)
    pen.ellipse(23, 267, 1.2, 2.2, INK, 0)
    pen.poly([(66, 228), (70, 206), (84, 222)], BOAR_DARK, 1.8)
    pen.poly([(69, 224), (71, 212), (78, 221)], (170, 110, 90, 255), 0)
    pen.ellipse(52, 246, 3.2, 2.8, pal.WHITE, 1.2)
    pen.ellipse(51, 246, 1.6, 1.8, INK, 0)
    pen.poly([(38, 272), (34, 262), (31, 256), (40, 266), (44, 272)], pal.WHITE, 1.3)
    pen.line([(30, 276), (44, 278)], INK, 1.4)
    # tail: a short whip with a dark tuft
    tail = _quad((186, 238), (200, 232), (198, 218), 10)
    pen.taper(tail, 3.2, 1.6, BOAR_DARK, 1.2)
    pen.poly(_catmull([(196, 220), (203, 210), (200, 222), (194, 222)], True, 5), INK, 0.8)


# --------------------------------------------------------------------------
# month 8: pampas (susuki)
# --------------------------------------------------------------------------

def _ridge_fn(ctrl: Sequence[Point]) -> tuple[list[Point], Callable[[float], float]]:
    pts = _catmull(ctrl, False, 16)

    def y_at(x: float) -> float:
        for i in range(1, len(pts)):
            if pts[i][0] >= x:
                a, b = pts[i - 1], pts[i]
                t = (x - a[0]) / ((b[0] - a[0]) or 1)
                return a[1] + (b[1] - a[1]) * t
        return pts[-1][1]
    return pts, y_at


def _pampas_hill(pen: Pen, rng: random.Random, ctrl: Sequence[Point], plumes: int = 2) -> None:
    ridge, y_at = _ridge_fn(ctrl)
    pen.poly(ridge + [(W + 10, H + 10), (-10, H + 10)], pal.HILL_BLACK, 2.4)
    clumps = []
    # rows of clumps; the first row sits on the ridge and reaches into the sky
    top = min(y for _, y in ridge)
    rows = int((H - top) / 58) + 2
    for r in range(rows):
        n = 3 if r % 2 == 0 else 4
        for i in range(n):
            x = (i + (0.5 if r % 2 == 0 else 0.0)) * W / n + rng.uniform(-10, 10)
            if r % 2:
                x += W / n * 0.5 - W / n * 0.5 * (i == 0)
            y = y_at(x) + (16 if r == 0 else 26) + r * 58 + rng.uniform(-6, 6)
            if y > H + 50:
                continue
            clumps.append((x, y, (72 if r == 0 else 58) * rng.uniform(0.9, 1.12), r))
    plume_at = set(rng.sample(range(min(3, len(clumps))), min(plumes, 3)))
    for k, (x, y, size, r) in enumerate(clumps):
        _susuki_clump(pen, rng, (x, y), size, plume=(k in plume_at))


def _susuki_clump(pen: Pen, rng: random.Random, root: Point, size: float,
                  plume: bool) -> None:
    """A fountain of long pampas blades, all pushed a little by the wind."""
    lean = 14
    blades = 7
    order = list(range(blades))
    for i in order:
        f = i / (blades - 1) - 0.5
        a = -90 + f * 130 + lean + rng.uniform(-5, 5)
        ln = size * rng.uniform(0.8, 1.05) * (1 - 0.3 * abs(f))
        side = math.cos(math.radians(a))
        tip = _polar(root, a, ln)
        tip = (tip[0] + side * ln * 0.45, tip[1] + ln * 0.3 * abs(side) + 6)
        pts = _quad(root, _polar(root, a, ln * 0.7), tip, 24)
        pen.poly(_stroke(pts, 3.4, 0.2), pal.PAMPAS_WHITE, 0.9)
    if plume:
        # a tall flowering stalk arching over, its silky head hanging down
        stalk_tip = (root[0] + 24, root[1] - size * 1.2)
        stalk = _quad(root, (root[0] - 2, root[1] - size * 1.15), stalk_tip, 24)
        pen.poly(_stroke(stalk, 2.8, 1.4), pal.PAMPAS_WHITE, 0.8)
        for k in range(8):
            p0, a0 = _point_at(stalk, 0.7 + k * 0.04)
            da = 70 + (k - 3.5) * 9
            ln = 24 + 8 * math.sin(math.pi * (k + 0.5) / 8)
            end = _polar(p0, da, ln)
            pts = _quad(p0, _polar(p0, a0 + 10, ln * 0.35), end, 14)
            pen.poly(_stroke(pts, 2.8, 0.4), PAMPAS_PLUME, 0.7)


def _goose(pen: Pen, cx: float, cy: float, s: float, wing_up: bool = True,
           ang: float = -8.0) -> None:
    """A goose flying to the left (unit: about 20 px)."""
    def T(pts: Iterable[Point]) -> list[Point]:
        return _tf(pts, cx, cy, s, ang)

    far_wing = [(-0.3, 0.0), (0.1, 0.9), (0.7, 1.5), (0.9, 1.2), (1.1, 1.3), (0.9, 0.6), (0.5, 0.1)] \
        if wing_up else [(-0.3, -0.1), (0.1, -1.0), (0.9, -1.5), (0.9, -0.9), (0.6, -0.2)]
    pen.poly(T(_catmull(far_wing, True, 6)), GOOSE_GREY, 1.6)
    # tail
    pen.poly(T([(0.9, -0.15), (1.55, -0.28), (1.62, 0.05), (1.5, 0.3), (0.9, 0.2)]), GOOSE_DARK, 1.6)
    body = _catmull([(-0.95, -0.2), (-0.3, -0.38), (0.5, -0.32), (1.05, -0.08), (1.0, 0.18),
                     (0.3, 0.4), (-0.5, 0.34), (-0.95, 0.12)], True, 8)
    pen.poly(T(body), GOOSE_DARK, 1.8)
    pen.poly(T(_catmull([(-0.7, 0.22), (0.0, 0.3), (0.7, 0.14), (0.0, 0.38), (-0.6, 0.32)], True, 6)),
             pal.PAMPAS_WHITE, 0)
    # neck and head
    neck = _quad((-0.8, 0.0), (-1.4, -0.15), (-1.9, -0.25), 12)
    pen.poly(T(_stroke(neck, 0.42, 0.26)), GOOSE_DARK, 1.6)
    pen.ellipse(*T([(-2.0, -0.27)])[0], 0.27 * s, 0.22 * s, GOOSE_DARK, 1.4, ang=ang)
    pen.poly(T([(-2.2, -0.34), (-2.62, -0.22), (-2.2, -0.16)]), pal.GOLD, 1.2)
    pen.poly(T([(-1.88, -0.1), (-1.7, -0.02), (-1.88, -0.32)]), pal.PAMPAS_WHITE, 0)
    ex, ey = T([(-2.06, -0.32)])[0]
    pen.ellipse(ex, ey, 0.05 * s + 0.6, 0.05 * s + 0.6, pal.WHITE, 0)
    near_wing = [(-0.4, -0.2), (-0.1, -1.1), (0.3, -1.9), (0.8, -2.3), (0.95, -1.75),
                 (1.25, -1.7), (1.1, -1.15), (1.35, -1.0), (0.9, -0.45), (0.5, -0.15)] \
        if wing_up else [(-0.4, 0.1), (0.0, 0.9), (0.5, 1.6), (0.95, 2.0), (1.0, 1.5),
                         (1.3, 1.35), (1.05, 0.9), (1.25, 0.7), (0.7, 0.2)]
    pen.poly(T(_catmull(near_wing, True, 6)), GOOSE_DARK, 1.8)
    # feather lines on the near wing
    sign = -1 if wing_up else 1
    for k in range(3):
        f = 0.3 + k * 0.25
        pen.line(T([(0.15 + f * 0.3, sign * (0.35 + f * 0.6)), (0.5 + f * 0.55, sign * (0.55 + f * 1.1))]),
                 GOOSE_GREY, 1.0)


def _paint_08(cid: str, img: Image.Image) -> None:
    pen = Pen(img)
    rng = random.Random("koikoi-" + cid)
    _fill(pen, pal.SKY_RED)
    if cid == "08-B":
        pen.ellipse(108, 132, 74, 74, pal.MOON_PALE, 2.6)
        pen.ellipse(108, 132, 67, 67, None, 1.0, ink=_shade(pal.MOON_PALE, 0.9))
        _pampas_hill(pen, rng, [(-10, 214), (40, 196), (108, 184), (170, 194), (226, 218)])
    elif cid == "08-A":
        _goose(pen, 156, 60, 18, True, -10)
        _goose(pen, 100, 110, 18, False, -6)
        _goose(pen, 150, 160, 16, True, -12)
        _pampas_hill(pen, rng, [(-10, 206), (60, 194), (130, 204), (180, 220), (226, 230)], plumes=0)
    elif cid == "08-P1":
        _pampas_hill(pen, rng, [(-10, 140), (50, 104), (110, 88), (170, 100), (226, 128)])
    elif cid == "08-P2":
        _pampas_hill(pen, rng, [(-10, 84), (40, 78), (90, 100), (150, 136), (226, 150)])
        _mirror(img)
    else:
        raise ValueError(cid)


# --------------------------------------------------------------------------
# month 9: chrysanthemum (kiku)
# --------------------------------------------------------------------------

_BLOOM_COLORS = {
    "yellow": (pal.CHRYS_YELLOW, CHRYS_LIGHT, CHRYS_DEEP),
    "red": (CHRYS_RED, CHRYS_RED_LIGHT, (120, 20, 30, 255)),
    "white": (CHRYS_WHITE, CHRYS_WHITE_SHADE, pal.CHRYS_YELLOW),
}


def _kiku_bloom(pen: Pen, cx: float, cy: float, r: float, kind: str = "yellow",
                squash: float = 0.86, rot: float = 0.0) -> None:
    outer, inner, core = _BLOOM_COLORS[kind]

    def petal_ring(count: int, r0: float, r1: float, width: float, color: Color,
                   offset: float, ow: float) -> None:
        for i in range(count):
            a = rot + offset + 360 * i / count
            mid = (r0 + r1) / 2
            half = (r1 - r0) / 2
            base = [(mid + half * math.cos(t * 2 * math.pi / 24),
                     width * 0.5 * math.sin(t * 2 * math.pi / 24)) for t in range(24)]
            # a squarer, rounded tip: widen the outer half slightly
            base = [(x, y * (1.15 if x > mid else 0.85)) for x, y in base]
            pts = _tf(base, 0, 0, 1, a)
            pts = [(cx + x, cy + y * squash) for x, y in pts]
            pen.poly(pts, color, ow)

    petal_ring(22, r * 0.22, r, r * 0.28, outer, 0, 1.3)
    petal_ring(16, r * 0.16, r * 0.72, r * 0.27, inner, 360 / 44, 1.1)
    petal_ring(11, r * 0.1, r * 0.45, r * 0.24, outer, 7, 1.0)
    pen.ellipse(cx, cy, r * 0.16, r * 0.16 * squash, core, 1.2)


def _kiku_leaf(pen: Pen, base: Point, ang: float, ln: float, color: Color) -> None:
    """A deeply lobed chrysanthemum leaf, base at `base`, pointing `ang`."""
    pts: list[Point] = []
    steps = 36
    wd = ln * 0.36
    for i in range(steps + 1):
        t = i / steps
        lobe = 1 - 0.38 * abs(math.sin(t * math.pi * 2.5)) ** 1.5
        pts.append((t * ln, -wd * math.sin(math.pi * t) ** 0.75 * lobe))
    for i in range(steps, -1, -1):
        t = i / steps
        lobe = 1 - 0.38 * abs(math.sin(t * math.pi * 2.5 + 0.5)) ** 1.5
        pts.append((t * ln, wd * math.sin(math.pi * t) ** 0.75 * lobe))
    pen.poly(_tf(pts, base[0], base[1], 1, ang), color, 1.5)
    pen.line(_tf([(0, 0), (ln * 0.85, 0)], base[0], base[1], 1, ang), _shade(color, 0.6), 1.0)
    for f in (0.3, 0.55):
        for sgn in (-1, 1):
            pen.line(_tf([(ln * f, 0), (ln * (f + 0.14), sgn * wd * 0.6)], base[0], base[1], 1, ang),
                     _shade(color, 0.6), 0.8)


def _kiku_plant(pen: Pen, stems: Sequence[tuple], leaves: Sequence[tuple],
                blooms: Sequence[tuple]) -> None:
    for pts in stems:
        pen.taper(_catmull(pts, False, 10), 3.6, 2.2, pal.LEAF_DARK, 1.2)
    for base, ang, ln, dark in leaves:
        _kiku_leaf(pen, base, ang, ln, pal.LEAF_DARK if dark else pal.LEAF_GREEN)
    for cx, cy, r, kind, *rest in blooms:
        _kiku_bloom(pen, cx, cy, r, kind, rot=(rest[0] if rest else 0))


def _sake_cup(pen: Pen, cx: float, cy: float) -> None:
    """A red lacquer sakazuki tilted towards the viewer, 寿 on its inside."""
    rx, ry = 68, 46
    # the outside of the bowl below the rim, narrowing to a foot ring
    bowl = (_quad((cx - rx, cy + 4), (cx - rx * 0.7, cy + 62), (cx - 22, cy + 66), 16)
            + _quad((cx + 22, cy + 66), (cx + rx * 0.7, cy + 62), (cx + rx, cy + 4), 16))
    pen.poly([(cx - 26, cy + 62), (cx + 26, cy + 62), (cx + 30, cy + 78), (cx - 30, cy + 78)],
             CUP_RED_DARK, 2.2)
    pen.ellipse(cx, cy + 78, 30, 6, CUP_RED_DARK, 2.0)
    pen.poly(bowl, CUP_RED, 2.4)
    pen.poly(_quad((cx - rx + 8, cy + 14), (cx - rx * 0.62, cy + 54), (cx - 26, cy + 60), 12)
             + _quad((cx - 30, cy + 54), (cx - rx * 0.6, cy + 46), (cx - rx + 14, cy + 14), 12),
             CUP_SHINE, 0)
    pen.poly(_quad((cx + rx - 6, cy + 14), (cx + rx * 0.6, cy + 56), (cx + 22, cy + 62), 12)
             + _quad((cx + 30, cy + 60), (cx + rx * 0.7, cy + 52), (cx + rx - 3, cy + 10), 12),
             CUP_RED_DARK, 0)
    # rim and inside
    pen.ellipse(cx, cy, rx, ry, CUP_RED, 2.6)
    pen.ellipse(cx, cy, rx - 6, ry - 5, None, 1.8, ink=pal.GOLD)
    pen.ellipse(cx, cy + 1, rx - 12, ry - 10, CUP_RED_DARK, 0)
    pen.ellipse(cx + 1.5, cy + 3, rx - 14, ry - 12, CUP_RED, 0)
    arc = [_polar((cx, cy), a, 1) for a in range(196, 256, 4)]
    pen.line([(cx + (x - cx) * (rx - 3), cy + (y - cy) * (ry - 2.5)) for x, y in arc], CUP_SHINE, 2.2)
    try:
        font = ImageFont.truetype(pal.CJK_FONT, int(60 * S), index=0)
    except OSError:  # pragma: no cover - font missing: draw without the mark
        return
    d = pen.d
    box = d.textbbox((0, 0), "寿", font=font)
    tx = cx * S - (box[0] + box[2]) / 2
    ty = (cy + 2) * S - (box[1] + box[3]) / 2
    d.text((tx, ty), "寿", font=font, fill=pal.GOLD, stroke_width=int(1.2 * S),
           stroke_fill=CUP_RED_DARK)


def _paint_09(cid: str, img: Image.Image) -> None:
    pen = Pen(img)
    if cid == "09-P1":
        _red_sky(pen, 84, phase=0.4)
        _kiku_plant(pen,
                    stems=[[(56, 352), (66, 260), (70, 180), (70, 136)],
                           [(116, 352), (128, 290), (146, 236), (150, 210)],
                           [(92, 352), (104, 250), (124, 140), (134, 78)]],
                    leaves=[((66, 254), 200, 54, True), ((70, 212), 330, 50, False),
                            ((126, 278), 330, 52, True), ((120, 306), 205, 48, False),
                            ((110, 178), 310, 42, False), ((62, 306), 220, 50, False),
                            ((116, 336), 340, 46, True), ((104, 214), 200, 44, True),
                            ((146, 248), 330, 40, False)],
                    blooms=[(140, 70, 38, "yellow"), (156, 204, 40, "red", 5),
                            (70, 128, 54, "yellow", 9), (50, 224, 26, "white", 2)])
    elif cid == "09-P2":
        _red_sky(pen, 104, phase=2.2)
        _kiku_plant(pen,
                    stems=[[(120, 352), (110, 260), (90, 160), (84, 96)],
                           [(150, 352), (150, 290), (160, 250), (164, 226)],
                           [(70, 352), (64, 300), (52, 260), (48, 230)]],
                    leaves=[((108, 250), 330, 52, True), ((100, 196), 205, 48, False),
                            ((152, 290), 320, 46, False), ((66, 296), 210, 50, True),
                            ((94, 150), 320, 40, False), ((130, 330), 340, 48, True),
                            ((56, 332), 200, 46, False), ((104, 286), 200, 42, False)],
                    blooms=[(84, 96, 56, "yellow", 4), (162, 210, 34, "yellow", 11),
                            (48, 222, 38, "red"), (164, 122, 30, "white", 3)])
        _mirror(img)
    elif cid == "09-A":
        _red_sky(pen, 74, phase=1.2)
        _kiku_plant(pen,
                    stems=[[(70, 352), (44, 250), (40, 160), (56, 96)],
                           [(150, 352), (176, 250), (176, 160), (160, 110)]],
                    leaves=[((42, 204), 205, 46, True), ((40, 152), 330, 40, False),
                            ((176, 204), 335, 46, True), ((176, 150), 210, 40, False)],
                    blooms=[(58, 84, 46, "yellow", 6), (158, 104, 40, "yellow", 2),
                            (112, 52, 26, "white", 4)])
        _sake_cup(pen, 110, 226)
        _kiku_plant(pen, stems=[],
                    leaves=[((24, 320), 320, 46, True), ((194, 324), 210, 46, False)],
                    blooms=[(30, 300, 30, "red", 3), (188, 300, 30, "yellow", 8)])
    elif cid == "09-RB":
        _red_sky(pen, 66, phase=0.9)
        _kiku_plant(pen,
                    stems=[[(160, 352), (150, 300), (160, 250), (168, 214)],
                           [(40, 352), (44, 300), (40, 270), (34, 250)]],
                    leaves=[((154, 290), 205, 48, True), ((158, 258), 330, 44, False),
                            ((44, 300), 320, 46, True), ((38, 330), 215, 42, False),
                            ((164, 330), 330, 44, False)],
                    blooms=[(168, 204, 44, "yellow", 4), (38, 242, 36, "red", 7)])
        _ribbon(pen, (96, 26), 6, 200, color=pal.RIBBON_BLUE)
        _kiku_plant(pen,
                    stems=[[(-6, 126), (30, 116), (50, 96), (58, 82)]],
                    leaves=[((18, 118), 290, 40, False), ((150, 74), 20, 40, True)],
                    blooms=[(58, 74, 40, "yellow", 2), (172, 80, 32, "white", 9),
                            (118, 318, 30, "yellow", 6)])
    else:
        raise ValueError(cid)


# --------------------------------------------------------------------------
# month 10: maple (momiji)
# --------------------------------------------------------------------------

_MAPLE_LOBES = ((-134, 0.46), (-90, 0.72), (-45, 0.93), (0, 1.0), (45, 0.93), (90, 0.72), (134, 0.46))
MAPLE_BRANCH = (58, 34, 28, 255)
MAPLE_GROUND = (238, 206, 150, 255)


def _maple_leaf(pen: Pen, stem: Point, ang: float, size: float, fill: Color) -> None:
    """A seven-lobed Japanese maple leaf hanging from `stem` (the twig end);
    ang is the direction of the middle lobe, size its length."""
    c = _polar(stem, ang, size * 0.42)
    pen.taper([stem, _lerp(stem, c, 0.5), c], 2.2, 1.4, MAPLE_BRANCH, 0)
    lobes = _MAPLE_LOBES
    rs = size * 0.25
    pts: list[Point] = [_polar(c, ang + 180, size * 0.08)]
    for k, (da, lf) in enumerate(lobes):
        a = ang + da
        L = size * lf
        prev = lobes[k - 1][0] if k else -180
        pts.append(_polar(c, ang + (da + prev) / 2, rs * (0.5 if k == 0 else 1.0)))
        r0 = size * 0.2
        wl = size * 0.17 * (0.7 + 0.3 * lf)
        n = 11
        left, right = [], []
        for i in range(n):
            g = i / n
            x = r0 + (L - r0) * g
            hw = wl * (1 - g) ** 1.1 * (0.6 + 1.5 * g)
            if i >= 3 and i % 2 == 0:  # serrated edge: small forward teeth
                hw *= 1.2
                x += (L - r0) * 0.035
            base = _polar(c, a, x)
            left.append(_polar(base, a - 90, hw))
            right.append(_polar(base, a + 90, hw))
        pts += left + [_polar(c, a, L)] + right[::-1]
    pts.append(_polar(c, ang + (lobes[-1][0] + 180) / 2, rs * 0.5))
    pen.poly(pts, fill, 1.6)
    vein = _shade(fill, 0.62)
    for da, lf in lobes:
        pen.line([c, _polar(c, ang + da, size * lf * 0.82)], vein, 1.0, caps=False)
    pen.ellipse(c[0], c[1], 1.4, 1.4, vein, 0)


def _maple_colour(rng: random.Random, y: float, sky_y: float | None) -> Color:
    """Red leaves on paper; orange and deep red where the leaf sits on the red sky."""
    if sky_y is not None and y < sky_y + 6:
        return rng.choice((pal.MAPLE_ORANGE, pal.MAPLE_ORANGE, MAPLE_DEEP, MAPLE_YELLOW, pal.MAPLE_ORANGE))
    return rng.choice((pal.MAPLE_RED, pal.MAPLE_RED, pal.MAPLE_RED, pal.MAPLE_ORANGE,
                       MAPLE_DEEP, MAPLE_DEEP, pal.MAPLE_ORANGE))


def _maple_scene(pen: Pen, rng: random.Random, branches: Sequence[tuple],
                 sky_y: float | None = None, loose: Sequence[tuple] = ()) -> None:
    """branches: (control points, base width, twigs, leaf size, first side).
    Boughs first, then twigs, then the leaves in clusters of one to three at
    every twig end, so the foliage lies over the wood as on printed cards."""
    twigs: list[tuple] = []
    clusters: list[tuple] = []
    for ctrl, w0, count, size, side in branches:
        pts = _catmull(ctrl, False, 14)
        pen.taper(pts, w0, max(2.6, w0 * 0.3), MAPLE_BRANCH, 2.0)
        # bark marks
        marks = max(1, int(w0 // 3))
        for k in range(marks):
            t = 0.12 + 0.6 * k / marks
            p, a = _point_at(pts, t + rng.uniform(0, 0.05))
            w = w0 * (1 - 0.7 * t) * 0.25
            pen.line([_polar(p, a, -w), _polar(_polar(p, a, w), a + 90, w * 0.4)],
                     _shade(MAPLE_BRANCH, 1.35), 1.0, caps=False)
        for i in range(count):
            t = 0.2 + 0.72 * (i + 0.5) / count + rng.uniform(-0.03, 0.03)
            p, a = _point_at(pts, t)
            sd = side if i % 2 == 0 else -side
            ta = a + sd * rng.uniform(38, 60)
            ln = size * rng.uniform(0.35, 0.55)
            tip = _polar(p, ta, ln)
            twigs.append(([p, _polar(p, ta + sd * 8, ln * 0.5), tip], w0 * (1 - 0.6 * t)))
            clusters.append((tip, ta, size, rng.choice((1, 2, 2, 3, 3))))
        end, a = _point_at(pts, 1.0)
        clusters.append((end, a, size, 3))
    for pts, w in twigs:
        pen.taper(pts, max(3.0, w * 0.45), 2.0, MAPLE_BRANCH, 1.2)
    for tip, ta, size, n in clusters:
        for j in range(n):
            la = ta + (j - (n - 1) / 2) * 52 + rng.uniform(-8, 8)
            s = size * (1.0 if j == (n - 1) // 2 else 0.82) * rng.uniform(0.9, 1.08)
            cy = _polar(tip, la, s * 0.42)[1]
            _maple_leaf(pen, tip, la, s, _maple_colour(rng, cy, sky_y))
    for x, y, s, a in loose:
        stem = _polar((x, y), a + 180, s * 0.42)
        _maple_leaf(pen, stem, a, s, _maple_colour(rng, y, sky_y))


def _paint_10(cid: str, img: Image.Image) -> None:
    pen = Pen(img)
    rng = random.Random("koikoi-" + cid)
    if cid == "10-P1":
        _red_sky(pen, 98, phase=0.8)
        _maple_scene(pen, rng, [
            ([(228, 30), (186, 56), (136, 100), (92, 150), (40, 226)], 13, 6, 36, 1),
            ([(-8, 196), (26, 214), (58, 250), (76, 300)], 9, 3, 34, -1),
            ([(228, 196), (196, 214), (168, 250), (150, 290)], 9, 3, 34, 1),
        ], sky_y=98, loose=[(28, 70, 28, -70), (100, 326, 30, -100), (190, 330, 26, -130)])
    elif cid == "10-P2":
        _red_sky(pen, 110, phase=2.2)
        _maple_scene(pen, rng, [
            ([(-8, 40), (40, 62), (92, 106), (130, 170), (150, 236)], 13, 6, 36, -1),
            ([(228, 140), (196, 156), (172, 188), (164, 212)], 8, 2, 32, 1),
            ([(-8, 246), (30, 256), (58, 290), (66, 330)], 9, 3, 34, -1),
            ([(-8, 150), (22, 160), (44, 182)], 7, 1, 30, 1),
        ], sky_y=110, loose=[(190, 60, 28, -110), (150, 318, 30, -60), (198, 282, 26, -130)])
    elif cid == "10-A":
        _red_sky(pen, 66, phase=1.5)
        ground = _catmull([(-10, 318), (60, 310), (140, 316), (226, 306)], False, 10)
        pen.poly(ground + [(W + 10, H + 10), (-10, H + 10)], MAPLE_GROUND, 0)
        _maple_scene(pen, rng, [
            ([(228, 14), (170, 34), (110, 56), (54, 96), (20, 140)], 12, 6, 32, 1),
            ([(228, 100), (204, 116), (186, 150)], 7, 2, 30, 1),
            ([(-8, 24), (30, 28), (70, 46)], 7, 2, 30, -1),
        ], sky_y=66, loose=[(24, 226, 26, -50), (196, 226, 24, -120)])
        _deer(pen)
        _maple_leaf(pen, (184, 326), -120, 26, pal.MAPLE_ORANGE)
        _maple_leaf(pen, (30, 334), -60, 24, pal.MAPLE_RED)
        _maple_leaf(pen, (120, 336), -80, 20, MAPLE_DEEP)
    elif cid == "10-RB":
        _red_sky(pen, 84, phase=0.2)
        _maple_scene(pen, rng, [
            ([(-8, 232), (30, 246), (62, 286), (80, 340)], 9, 3, 34, 1),
            ([(228, 240), (196, 256), (176, 296)], 7, 2, 30, -1),
            ([(228, 118), (204, 132), (184, 168)], 7, 2, 30, -1),
        ], sky_y=84, loose=[(30, 196, 28, -60), (180, 226, 24, -100)])
        _ribbon(pen, (112, 30), -6, 200, color=pal.RIBBON_BLUE)
        _maple_scene(pen, rng, [
            ([(228, 16), (170, 32), (120, 44), (62, 74), (30, 116)], 12, 5, 32, 1),
        ], sky_y=84)
    else:
        raise ValueError(cid)


def _deer(pen: Pen) -> None:
    """A stag standing to the left, head turned back over its shoulder."""
    # far legs
    for pts in ([(84, 282), (86, 304), (82, 326)], [(150, 280), (156, 302), (150, 326)]):
        pen.taper(pts, 8, 4.5, DEER_DARK, 1.6)
        pen.ellipse(pts[-1][0] - 1, pts[-1][1], 3.6, 2.6, INK, 0)
    body = _catmull([
        (56, 266), (60, 240), (66, 214), (74, 200), (88, 200), (96, 214), (100, 236),
        (130, 242), (160, 238), (178, 248), (180, 268), (168, 284), (130, 288),
        (96, 288), (70, 284),
    ], True, 10)
    pen.poly(body, DEER_BROWN, 2.4)
    # pale belly and throat
    pen.poly(_catmull([(70, 282), (100, 286), (140, 286), (160, 280), (130, 278), (96, 280)], True, 6),
             DEER_LIGHT, 0)
    pen.poly(_catmull([(62, 250), (66, 224), (72, 210), (74, 232), (70, 256)], True, 6), DEER_LIGHT, 0)
    for x, y in ((112, 254), (126, 260), (140, 252), (152, 262), (120, 270), (104, 268), (160, 250),
                 (136, 272), (94, 256)):
        pen.ellipse(x, y, 3.2, 2.4, DEER_LIGHT, 0)
    # white tail
    pen.poly([(176, 246), (188, 240), (184, 256)], pal.WHITE, 1.4)
    # near legs
    for pts in ([(70, 280), (66, 304), (70, 328)], [(164, 276), (170, 300), (164, 328)]):
        pen.taper(pts, 10, 5, DEER_BROWN, 1.8)
        pen.ellipse(pts[-1][0] - 1, pts[-1][1], 4, 2.8, INK, 0)
    # antlers, drawn before the head so they root behind it
    for pts, tines in (
        ([(80, 184), (74, 160), (62, 140), (54, 120)], [((70, 154), (84, 140)), ((60, 136), (66, 118))]),
        ([(88, 184), (92, 160), (104, 140), (112, 124)], [((96, 154), (84, 138)), ((106, 138), (122, 128))]),
    ):
        pen.taper(_catmull(pts, False, 8), 4.0, 2.0, DEER_LIGHT, 1.4)
        for a, b in tines:
            pen.taper([a, b], 3.0, 1.6, DEER_LIGHT, 1.4)
    # head looking back over the body (muzzle to the right)
    head = _catmull([(70, 194), (80, 182), (96, 182), (112, 190), (120, 198), (116, 206),
                     (100, 206), (84, 204)], True, 10)
    pen.poly(head, DEER_BROWN, 2.2)
    pen.ellipse(118, 199, 3.2, 2.8, INK, 0)
    pen.ellipse(96, 190, 2.6, 2.2, INK, 0)
    pen.ellipse(95.4, 189.4, 0.8, 0.8, pal.WHITE, 0)
    for pts in ([(78, 186), (62, 176), (58, 184), (74, 192)], [(84, 184), (80, 168), (90, 172), (90, 184)]):
        pen.poly(_catmull(pts, True, 6), DEER_BROWN, 1.6)
    pen.line([(100, 204), (112, 205)], DEER_DARK, 1.0)


# --------------------------------------------------------------------------
# month 11: willow (yanagi)
# --------------------------------------------------------------------------

def _pointed_leaf(base: Point, ang: float, ln: float, wd: float) -> list[Point]:
    pts = []
    n = 10
    for i in range(n + 1):
        t = i / n
        pts.append((t * ln, -wd / 2 * math.sin(math.pi * t) ** 0.9 * (1 - 0.3 * t)))
    for i in range(n - 1, 0, -1):
        t = i / n
        pts.append((t * ln, wd / 2 * math.sin(math.pi * t) ** 0.9 * (1 - 0.3 * t)))
    return _tf(pts, base[0], base[1], 1, ang)


def _willow_strand(pen: Pen, rng: random.Random, top: Point, length: float, sway: float,
                   color: Color = pal.WILLOW_GREEN) -> None:
    """One hanging willow whip, drawn the hanafuda way: a long green tress
    whose edges break into narrow leaf tips pointing down."""
    end = (top[0] + sway, top[1] + length)
    pts = _cubic(top, (top[0] + sway * 0.05, top[1] + length * 0.35),
                 (top[0] + sway * 0.75, top[1] + length * 0.65), end, 90)
    lens = [0.0]
    for i in range(1, len(pts)):
        lens.append(lens[-1] + math.dist(pts[i - 1], pts[i]))
    tot = lens[-1]
    step = 7.0
    left, right = [], []
    for i, (x, y) in enumerate(pts):
        a0, b0 = pts[max(i - 1, 0)], pts[min(i + 1, len(pts) - 1)]
        dx, dy = b0[0] - a0[0], b0[1] - a0[1]
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln, dx / ln
        t = lens[i] / tot
        base = 2.0 + 2.2 * math.sin(math.pi * min(t * 1.6, 1.0) / 2) * (1 - t) ** 0.4
        # saw-tooth: each leaf widens then snaps back, the two sides offset
        ph_l = (lens[i] / step) % 1.0
        ph_r = (lens[i] / step + 0.5) % 1.0
        wl = base + 2.6 * ph_l * (1 - t * 0.5) * (t > 0.04)
        wr = base + 2.6 * ph_r * (1 - t * 0.5) * (t > 0.04)
        left.append((x + nx * wl, y + ny * wl))
        right.append((x - nx * wr, y - ny * wr))
    poly = left + [(end[0] + (end[0] - pts[-3][0]) * 1.5, end[1] + (end[1] - pts[-3][1]) * 1.5)] + right[::-1]
    pen.poly(poly, color, 1.3)
    pen.line(pts[3:-4], _shade(color, 0.62), 0.9, caps=False)


def _willow(pen: Pen, rng: random.Random, trunk: Sequence[Point] | None, strands: Sequence[tuple],
            color: Color = pal.WILLOW_GREEN, trunk_w: float = 10) -> None:
    if trunk:
        pen.taper(_catmull(trunk, False, 12), trunk_w, trunk_w * 0.35, HAGI_STEM, 1.8)
    for top, length, sway in strands:
        _willow_strand(pen, rng, top, length, sway, color)


def _rain(pen: Pen, rng: random.Random, count: int = 70) -> None:
    for _ in range(count):
        x = rng.uniform(-20, W + 10)
        y = rng.uniform(-10, H)
        ln = rng.uniform(14, 30)
        pen.line([(x, y), (x + ln * 0.35, y + ln)], (90, 90, 110, 255), 1.0)


def _stream(pen: Pen, y0: float) -> None:
    ridge = _catmull([(-10, y0 + 10), (60, y0), (130, y0 + 8), (226, y0 - 4)], False, 10)
    pen.poly(ridge + [(W + 10, H + 10), (-10, H + 10)], STREAM_BLUE, 2.4)
    for row, yy in enumerate((y0 + 18, y0 + 34, y0 + 50)):
        for i in range(5):
            x = i * 48 + (24 if row % 2 else 0) - 10
            arc = [_polar((x, yy + 8), a, 12) for a in range(200, 340, 10)]
            pen.line(arc, STREAM_LIGHT, 2.0)
            curl = [_polar((x + 9, yy + 4), a, 4) for a in range(180, 400, 20)]
            pen.line(curl, STREAM_LIGHT, 1.6)


def _frog(pen: Pen, cx: float, cy: float) -> None:
    """A frog leaping up and to the right."""
    pen.taper([(cx - 8, cy + 6), (cx - 22, cy + 10), (cx - 34, cy + 22)], 7, 3, FROG_GREEN, 1.6)
    pen.taper([(cx - 4, cy + 10), (cx - 16, cy + 22), (cx - 22, cy + 34)], 7, 3, FROG_GREEN, 1.6)
    body = _catmull([(cx - 12, cy + 8), (cx - 6, cy - 4), (cx + 8, cy - 12), (cx + 18, cy - 14),
                     (cx + 20, cy - 6), (cx + 12, cy + 6), (cx, cy + 12)], True, 8)
    pen.poly(body, FROG_GREEN, 2.0)
    pen.poly(_catmull([(cx - 6, cy + 8), (cx + 6, cy + 2), (cx + 14, cy - 4), (cx + 6, cy + 8)], True, 6),
             (210, 220, 150, 255), 0)
    pen.taper([(cx + 10, cy - 2), (cx + 20, cy + 4), (cx + 28, cy + 2)], 4, 2.4, FROG_GREEN, 1.4)
    pen.ellipse(cx + 13, cy - 14, 4, 4, FROG_GREEN, 1.4)
    pen.ellipse(cx + 13.5, cy - 14.5, 2, 2, INK, 0)
    for k in range(4):
        pen.ellipse(cx - 2 + k * 5, cy - 2 - k * 2.5, 1.4, 1.2, (50, 100, 40, 255), 0)


def _umbrella(pen: Pen, hub: Point, r: float, ang: float) -> None:
    """An open paper umbrella seen from below-side; ang tilts its axis."""
    # canopy: a wide lens shape with a scalloped rim
    rim = []
    for i in range(0, 181, 6):
        a = math.radians(i)
        rim.append((math.cos(a) * r, -math.sin(a) * r * 0.55))
    lower = []
    for i in range(12, -1, -1):
        x = r * (i / 6 - 1)
        lower.append((x, 4 + 3 * math.sin(i * math.pi)))
    canopy = _tf(rim + lower[1:-1], hub[0], hub[1], 1, ang)
    pen.poly(canopy, pal.YELLOW, 2.4)
    apex = _tf([(0, -r * 0.55)], hub[0], hub[1], 1, ang)[0]
    for i in range(1, 12):
        x = r * (i / 6 - 1)
        pen.line([apex, _tf([(x, 3)], hub[0], hub[1], 1, ang)[0]], (196, 150, 30, 255), 1.2)
    band = _tf([(x * r / 10, 2 - 0.0 * x) for x in range(-10, 11)], hub[0], hub[1], 1, ang)
    pen.line(band, pal.RIBBON_RED, 2.6)
    pen.ellipse(apex[0], apex[1], 3, 3, INK, 0)


def _rain_man(pen: Pen) -> None:
    """Ono no Michikaze in court dress, walking right; his near hand comes out
    of the wide sleeve to grip the umbrella shaft in front of his chest."""
    # trousers (sashinuki), gathered at the ankles, and black lacquered shoes
    pen.poly(_catmull([(118, 258), (150, 260), (158, 280), (162, 298), (148, 300), (134, 294),
                       (120, 300), (104, 298), (108, 280)], True, 8), pal.RIBBON_RED, 2.0)
    for pts in ([(132, 266), (130, 292)], [(118, 270), (112, 292)], [(146, 268), (152, 292)]):
        pen.line(pts, _shade(pal.RIBBON_RED, 0.7), 1.3)
    pen.poly([(100, 298), (120, 296), (122, 306), (96, 306)], INK, 1.4)
    pen.poly([(140, 298), (164, 296), (168, 306), (138, 306)], INK, 1.4)
    # robe (ho): a tall flowing shape with the train sweeping back to the left
    robe = _catmull([(122, 160), (138, 158), (152, 176), (160, 214), (166, 256),
                     (150, 270), (120, 266), (96, 276), (86, 272), (96, 246), (106, 212), (110, 178)],
                    True, 10)
    pen.poly(robe, ROBE_DARK, 2.4)
    # the ran: a lighter band across the skirt of the robe, and fold lines
    pen.poly(_catmull([(98, 244), (130, 248), (163, 242), (165, 252), (130, 258), (95, 256)], True, 6),
             ROBE_MID, 1.2)
    for pts in ([(146, 196), (152, 226), (156, 242)], [(112, 226), (104, 244)]):
        pen.line(pts, ROBE_MID, 1.3)
    # woven roundels on the robe
    for x, y in ((150, 206), (140, 232), (118, 264), (152, 262), (108, 230)):
        pen.ellipse(x, y, 4.2, 4.2, None, 1.2, ink=ROBE_MID)
        pen.ellipse(x, y, 1.4, 1.4, ROBE_MID, 0)
    # red lining showing at the hem
    pen.poly([(96, 276), (86, 272), (92, 266), (108, 268)], pal.RIBBON_RED, 1.4)
    # hirao: the ornamental sash hanging at the front from the belt
    pen.poly([(150, 214), (157, 214), (159, 252), (151, 252)], (214, 226, 236, 255), 1.2)
    for y in (224, 236):
        pen.line([(151, y), (158, y)], pal.RIBBON_RED, 1.4, caps=False)
    pen.line([(124, 212), (162, 210)], INK, 2.6)  # the belt (sekitai)
    # near sleeve: raised forward to the shaft, its wide bag hanging below
    sleeve = _catmull([(120, 166), (136, 168), (148, 182), (146, 194), (132, 222), (108, 236),
                       (94, 228), (106, 204)], True, 8)
    pen.poly(sleeve, ROBE_DARK, 2.2)
    pen.line([(116, 186), (126, 204), (118, 222)], ROBE_MID, 1.2)
    pen.poly(_catmull([(94, 228), (108, 236), (112, 230), (100, 222)], True, 6), pal.RIBBON_RED, 1.2)
    # layered cuff: white under-robe and red lining at the sleeve opening
    pen.ellipse(143, 183, 7.5, 5, pal.WHITE, 1.3, ang=-40)
    pen.ellipse(141.5, 185, 6, 3.6, pal.RIBBON_RED, 1.1, ang=-40)
    # umbrella shaft, then the fist closed round it
    shaft = [(162, 98), (135, 196)]
    pen.line(shaft, INK, 4.2)
    pen.line(shaft, (150, 96, 50, 255), 2.0)
    hand = (141.5, 175)
    pen.poly([(138, 180), (145, 178), (146, 174), (139, 175)], SKIN, 1.0)  # wrist
    pen.ellipse(hand[0], hand[1], 6.2, 5.0, SKIN, 1.4, ang=-20)
    for k in (-1, 0, 1):  # finger creases across the grip
        c = (hand[0] + 1.2 + k * 0.6, hand[1] + k * 3.0)
        pen.line([_polar(c, 180, 2.6), _polar(c, 0, 3.4)], (170, 120, 90, 255), 0.9, caps=False)
    pen.poly([(137, 170), (143, 166), (146, 169), (140, 173)], SKIN, 1.0)  # thumb over the shaft
    # rounded collar (agekubi) with the white under-collar, head, court cap
    pen.poly(_catmull([(116, 162), (128, 158), (140, 160), (138, 170), (126, 172), (118, 170)], True, 6),
             ROBE_DARK, 1.8)
    pen.line([(119, 165), (128, 162.5), (138, 164.5)], pal.WHITE, 1.6)
    head = _catmull([(116, 144), (128, 134), (140, 140), (142, 152), (134, 162), (122, 162)], True, 8)
    pen.poly(head, SKIN, 1.8)
    pen.line([(133, 148), (137, 147)], INK, 1.3)
    pen.line([(128, 156), (131, 157)], INK, 1.0)
    pen.line([(124, 150), (126, 152)], (200, 160, 130, 255), 1.0)
    pen.poly([(114, 140), (118, 118), (128, 106), (136, 118), (142, 142), (128, 137)], INK, 1.6)
    pen.line([(118, 138), (140, 140)], (70, 70, 80, 255), 1.0, caps=False)


def _swallow(pen: Pen, cx: float, cy: float, s: float, ang: float) -> None:
    """A swallow diving; drawn facing -x and rotated by ang."""
    def T(pts: Iterable[Point]) -> list[Point]:
        return _tf(pts, cx, cy, s, ang)

    # tail streamers
    for tail in ([(0.8, -0.1), (2.6, -0.55), (2.2, -0.3), (0.8, 0.1)],
                 [(0.8, 0.0), (2.7, 0.5), (2.2, 0.34), (0.8, 0.2)]):
        pen.poly(T(_catmull(tail, True, 6)), SWALLOW_BACK, 1.4)
    # far wing (swept back, below)
    pen.poly(T(_catmull([(-0.3, 0.15), (0.4, 0.6), (1.4, 1.3), (2.2, 1.7), (1.2, 0.7), (0.4, 0.25)],
                        True, 8)), SWALLOW_BACK, 1.6)
    body = _catmull([(-1.3, 0.0), (-0.9, -0.32), (0.0, -0.3), (0.9, -0.12), (1.0, 0.1),
                     (0.0, 0.34), (-0.9, 0.3)], True, 8)
    pen.poly(T(body), SWALLOW_BACK, 1.8)
    pen.poly(T(_catmull([(-0.6, 0.2), (0.2, 0.28), (0.9, 0.1), (0.1, 0.36), (-0.6, 0.32)], True, 6)),
             pal.WHITE, 0)
    pen.poly(T(_catmull([(-1.25, 0.06), (-0.95, 0.3), (-0.7, 0.26), (-0.8, 0.05)], True, 6)),
             pal.RIBBON_RED, 0)
    pen.poly(T([(-1.3, -0.06), (-1.6, 0.02), (-1.3, 0.08)]), INK, 1.0)
    ex, ey = T([(-1.0, -0.1)])[0]
    pen.ellipse(ex, ey, 1.4, 1.4, pal.WHITE, 0)
    pen.ellipse(ex, ey, 0.7, 0.7, INK, 0)
    # near wing (swept back, above)
    pen.poly(T(_catmull([(-0.4, -0.2), (0.3, -0.7), (1.3, -1.4), (2.4, -1.9), (1.4, -0.9),
                         (0.5, -0.25)], True, 8)), SWALLOW_BACK, 1.8)
    pen.line(T([(0.2, -0.45), (1.4, -1.15)]), (80, 90, 140, 255), 1.0)


def _raimon(pen: Pen) -> None:
    """The red thunder-drum gate of the lightning card."""
    top, bot = 214, 360
    # two posts and a wide lintel band carrying the thunder-key pattern
    for x0 in (24, 170):
        pen.poly([(x0, 246), (x0 + 22, 246), (x0 + 22, bot), (x0, bot)], GATE_RED, 2.2)
        for y in range(262, 350, 22):
            pen.line([(x0 + 4, y), (x0 + 18, y)], GATE_RED_DARK, 2.0)
    pen.poly([(6, top), (210, top), (202, 246), (14, 246)], GATE_RED, 2.4)
    # raimon: square spirals along the lintel
    for i in range(8):
        x = 20 + i * 23
        y = top + 8
        sp = [(x, y + 16), (x, y), (x + 16, y), (x + 16, y + 12), (x + 4, y + 12), (x + 4, y + 4),
              (x + 12, y + 4), (x + 12, y + 8)]
        pen.line(sp, INK, 2.0, caps=False)
    # the great drum hanging in the gate, marked with a three-comma tomoe
    cx, cy, r = 108, 300, 36
    pen.ellipse(cx, cy, r, r, GATE_RED_DARK, 2.4)
    pen.ellipse(cx, cy, r - 6, r - 6, pal.GOLD, 1.8)
    for k in range(10):
        p = _polar((cx, cy), k * 36, r - 3)
        pen.ellipse(p[0], p[1], 1.6, 1.6, INK, 0)
    for k in range(3):
        a0 = k * 120
        head = _polar((cx, cy), a0, r * 0.38)
        pts = [_polar((cx, cy), a0 + t * 1.1, r * (0.38 + t / 300)) for t in range(0, 100, 8)]
        pen.poly(_stroke(pts, 12, 1), INK, 0)
        pen.ellipse(head[0], head[1], 7, 7, INK, 0)
    pen.line([(cx, cy - r - 8), (cx, cy - r)], INK, 2.4)


def _miter_band(pts: Sequence[Point], wfun: Callable[[float], float]) -> list[Point]:
    """Outline of a band of width wfun(t) along a polyline with sharp (mitred)
    corners: the crisp zigzag a printed lightning bolt needs."""
    n = len(pts)
    left, right = [], []
    for i, p in enumerate(pts):
        a, b = pts[max(i - 1, 0)], pts[min(i + 1, n - 1)]
        if 0 < i < n - 1:
            d1 = (p[0] - a[0], p[1] - a[1])
            d2 = (b[0] - p[0], b[1] - p[1])
            l1, l2 = math.hypot(*d1) or 1.0, math.hypot(*d2) or 1.0
            n1 = (-d1[1] / l1, d1[0] / l1)
            n2 = (-d2[1] / l2, d2[0] / l2)
            bx, by = n1[0] + n2[0], n1[1] + n2[1]
            bl = math.hypot(bx, by) or 1.0
            bx, by = bx / bl, by / bl
            m = 1 / max(0.4, bx * n1[0] + by * n1[1])
        else:
            dx, dy = b[0] - a[0], b[1] - a[1]
            ln = math.hypot(dx, dy) or 1.0
            bx, by, m = -dy / ln, dx / ln, 1.0
        w = wfun(i / (n - 1)) / 2 * m
        left.append((p[0] + bx * w, p[1] + by * w))
        right.append((p[0] - bx * w, p[1] - by * w))
    return left + right[::-1]


def _bolt(pen: Pen, pts: Sequence[Point], w: float) -> None:
    """A bold zigzag bolt: yellow with a dark outline, a red rim around it
    and a pale core, narrowing to a point."""
    band = _miter_band(pts, lambda t: w * (1 - 0.78 * t ** 1.3) if t < 1 else 0.0)
    pen.poly(band, None, 5.0, ink=GATE_RED)
    pen.poly(band, BOLT_YELLOW, 2.0)
    core = _miter_band(pts[:-1] + [_lerp(pts[-2], pts[-1], 0.6)],
                       lambda t: w * 0.28 * (1 - 0.7 * t))
    pen.poly(core, (255, 248, 200, 255), 0)


def _paint_11(cid: str, img: Image.Image) -> None:
    pen = Pen(img)
    rng = random.Random("koikoi-" + cid)
    if cid == "11-B":
        _fill(pen, (224, 222, 214, 255))
        _rain(pen, rng, 80)
        _willow(pen, rng, [(-10, 6), (24, 14), (70, 8)],
                [((6 + i * 12, 12 + (i % 3) * 2), 150 + (i * 37) % 70, 6 + (i % 4) * 5) for i in range(6)],
                color=WILLOW_BACK)
        fig = Pen(img, k=1.18, ox=-32, oy=-56)
        _umbrella(fig, (162, 98), 44, 17)
        _rain_man(fig)
        _stream(pen, 296)
        _frog(pen, 40, 268)
    elif cid == "11-A":
        _willow(pen, rng, [(-10, 40), (40, 20), (120, 10), (226, 2)],
                [((10 + i * 27, 26 - i * 2.4), 150 + (i * 53) % 130, -10 + (i % 3) * 10) for i in range(8)],
                color=WILLOW_BACK, trunk_w=12)
        _swallow(pen, 100, 200, 30, 40)
        _willow(pen, rng, None, [((30, 24), 300, 16), ((196, 6), 230, -14)])
    elif cid == "11-R":
        _willow(pen, rng, [(226, 30), (170, 16), (90, 12), (-10, 6)],
                [((8 + i * 29, 10 + i * 2.2), 140 + (i * 41) % 160, -8 + (i % 3) * 8) for i in range(7)],
                color=WILLOW_BACK, trunk_w=12)
        _ribbon(pen, (112, 34), 4, 200)
        _willow(pen, rng, None, [((28, 14), 300, 14), ((184, 24), 296, -10)])
    elif cid == "11-P":
        _fill(pen, LIGHTNING_SKY)
        _willow(pen, rng, [(-10, 10), (80, 8), (226, 12)],
                [((6 + i * 24, 10), 80 + (i * 29) % 70, -8 + (i % 3) * 8) for i in range(9)],
                color=WILLOW_LIGHT)
        _bolt(pen, [(196, -6), (140, 92), (170, 100), (124, 160), (150, 166), (100, 208)], 17)
        _bolt(pen, [(94, -6), (50, 112), (72, 118), (46, 168), (60, 172), (34, 206)], 12)
        _raimon(pen)
    else:
        raise ValueError(cid)


# --------------------------------------------------------------------------
# month 12: paulownia (kiri)
# --------------------------------------------------------------------------

def _kiri_leaf(pen: Pen, base: Point, ang: float, s: float, fill: Color, wf: float = 0.86) -> None:
    """A broad paulownia leaf: heart-shaped base, two soft shoulders and a
    pointed tip. base is the stalk end, ang the direction of the tip, wf the
    width relative to the length."""
    half = [(0.0, 0.0)]
    half += _quad((0.0, 0.0), (-0.3, 0.22), (-0.66, 0.1), 10)[1:]
    half += _quad((-0.66, 0.1), (-1.06, -0.1), (-0.92, -0.56), 10)[1:]
    half += _quad((-0.92, -0.56), (-0.74, -0.68), (-0.62, -0.86), 8)[1:]
    half += _quad((-0.62, -0.86), (-0.42, -1.18), (0.0, -1.4), 10)[1:]
    local = half + [(-x, y) for x, y in reversed(half[1:-1])]
    local = [(x * wf, y) for x, y in local]
    pts = _tf(local, base[0], base[1], s, ang + 90)
    pen.poly(pts, fill, 2.2)
    vein = KIRI_VEIN
    k = wf / 0.86
    pen.line(_tf(_quad((0, 0.05), (0.02, -0.6), (0, -1.25), 12), base[0], base[1], s, ang + 90), vein, 1.8)
    for y0, x1, y1 in ((-0.1, 0.8, -0.4), (-0.38, 0.66, -0.82), (-0.66, 0.4, -1.08), (-0.02, 0.5, 0.04)):
        for sg in (-1, 1):
            pen.line(_tf(_quad((0, y0), (sg * x1 * k * 0.5, y0 - 0.06), (sg * x1 * k, y1), 10),
                         base[0], base[1], s, ang + 90), vein, 1.3)


def _kiri_spike(pen: Pen, base: Point, height: float, s: float, tilt: float = 0.0) -> None:
    """An upright flower spike: bell flowers in tiers, purple above, white below."""
    top = _polar(base, -90 + tilt, height)
    pen.taper([base, _lerp(base, top, 0.5), top], 3.2 * s, 1.6 * s, pal.PAULOWNIA_LEAF, 1.0)
    tiers = [(0.16, 3), (0.34, 3), (0.52, 3), (0.68, 2), (0.82, 2), (0.95, 1)]
    buds = []
    for f, count in tiers:
        p = _lerp(base, top, f)
        spread = 9.5 * s * (1.15 - f * 0.7)
        for i in range(count):
            off = (i - (count - 1) / 2) * spread
            buds.append((p[0] + off, p[1] + abs(off) * 0.3, 1.1 - f * 0.45))
    for x, y, k in buds:
        rx, ry = 5.0 * s * k, 6.6 * s * k
        pen.ellipse(x, y, rx, ry, pal.PLUM_WHITE, 1.2)
        cap = _ellipse_pts(x, y - ry * 0.28, rx * 0.98, ry * 0.72, 0, 32)
        cap = [(px, min(py, y + ry * 0.1)) for px, py in cap]
        pen.poly(cap, KIRI_FLOWER, 0)
        pen.ellipse(x, y - ry * 0.45, rx * 0.5, ry * 0.3, KIRI_FLOWER_DEEP, 0)
        pen.ellipse(x, y, rx, ry, None, 1.2)


def _kiri_group(pen: Pen, base: Point, s: float, spikes: bool = True, spread: float = 1.0,
                flip: bool = False, leaf_s: float = 1.0) -> None:
    """The paulownia crest: three heart-shaped leaves fanned out from one
    stalk (the middle one in front, hanging down; the side ones set apart
    on short stalks so each blade and its veins read) and three flower spikes
    rising from the heart of the cluster."""
    sg = -1 if flip else 1
    if spikes:
        for dx, dy, h, tilt in ((-40, 30, 70, -12), (44, 28, 66, 14), (0, 38, 86, 0)):
            foot = (base[0] + dx * s * sg, base[1] - dy * s)
            pen.taper(_quad(base, (base[0] + dx * s * sg * 0.1, base[1] - dy * s * 0.8), foot, 12),
                      4.6 * s, 3.0 * s, pal.PAULOWNIA_LEAF, 1.2)
            _kiri_spike(pen, foot, h * s, s, tilt * sg)
    ls = s * leaf_s
    side = 76 * spread
    for d in (-1, 1):
        a = 90 + d * side * sg
        foot = _polar(base, a - d * 14 * sg, 30 * ls)
        pen.taper([base, _lerp(base, foot, 0.5), foot], 5 * ls, 3.6 * ls, pal.PAULOWNIA_LEAF, 1.2)
        _kiri_leaf(pen, foot, a, 50 * ls, KIRI_LEAF_SIDE, wf=0.78)
    _kiri_leaf(pen, (base[0], base[1] + 4 * ls), 90 + 3 * sg, 54 * ls, KIRI_LEAF_FRONT, wf=0.8)


def _feather(root: Point, ang: float, ln: float, wd: float, bend: float = 0.0) -> list[Point]:
    """A pointed flight feather: widens from the quill, then sweeps to a tip;
    bend curves it sideways (positive: towards +90 degrees of its direction)."""
    left, right = [], []
    n = 16
    for i in range(n + 1):
        t = i / n
        w = wd / 2 * (0.35 + 0.65 * math.sin(math.pi * min(t / 0.62, 1.0) / 2)) * (1 - t) ** 0.55 \
            if t < 1 else 0.0
        y = bend * ln * t * t
        left.append((t * ln, y - w))
        right.append((t * ln, y + w))
    return _tf(left + right[::-1][1:], root[0], root[1], 1, ang)


def _curl_path(pts: Sequence[Point], turn: float, n: int = 18, step: float = 2.8) -> list[Point]:
    """Continue a path into a tightening curl (turn > 0 curls clockwise)."""
    out = list(pts)
    x, y = pts[-1]
    a = math.atan2(pts[-1][1] - pts[-2][1], pts[-1][0] - pts[-2][0])
    for i in range(n):
        a += turn * (0.1 + 0.02 * i)
        st = step * (1 - 0.025 * i)
        x, y = x + math.cos(a) * st, y + math.sin(a) * st
        out.append((x, y))
    return out


def _plume(pen: Pen, path: Sequence[Point], wmax: float, fill: Color, stripe: Color,
           side: int = 1) -> None:
    """A long tail plume: swelling, serrated along one edge, ending in a curl."""
    n = len(path)
    lens = [0.0]
    for i in range(1, n):
        lens.append(lens[-1] + math.dist(path[i - 1], path[i]))
    tot = lens[-1] or 1.0
    left, right = [], []
    for i, (x, y) in enumerate(path):
        a, b = path[max(i - 1, 0)], path[min(i + 1, n - 1)]
        dx, dy = b[0] - a[0], b[1] - a[1]
        ln = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / ln, dx / ln
        t = lens[i] / tot
        w = wmax * (0.3 + 0.7 * math.sin(math.pi * min(t / 0.7, 1.0) / 2)) * (1 - 0.75 * t ** 1.5) / 2
        saw = wmax * 0.45 * ((lens[i] / 6.5) % 1.0) * (0.12 < t < 0.8)
        wl, wr = (w + saw, w) if side > 0 else (w, w + saw)
        left.append((x + nx * wl, y + ny * wl))
        right.append((x - nx * wr, y - ny * wr))
    pen.poly(left + right[::-1], fill, 1.5)
    pen.line(list(path[2:-3]), stripe, max(1.0, wmax * 0.16), caps=False)


def _wing(pen: Pen, edge: Sequence[Point], a_root: float, a_tip: float, l_root: float,
          l_tip: float, flights: int, inner: tuple[Color, Color], outer: tuple[Color, Color],
          coverts: tuple[Color, Color], bend: float) -> None:
    """A wing built on its leading edge (shoulder -> wrist -> tip): flight
    feathers trail from the edge, shorter coverts over them, scallops on top."""
    path = _catmull(edge, False, 12)
    for k in range(flights):  # tip first, so inner feathers overlap outer ones
        f = 1.0 - k / flights * 0.88
        root, _ = _point_at(path, f)
        a = a_root + (a_tip - a_root) * f
        ln = l_root + (l_tip - l_root) * f
        cols = outer if f > 0.55 else inner
        col = cols[k % 2]
        pen.poly(_feather(root, a, ln, ln * 0.3, bend), col, 1.5)
        pen.line([_polar(root, a, ln * 0.12), _polar(root, a + bend * 40, ln * 0.7)],
                 _shade(col, 0.68), 1.0, caps=False)
    n = max(4, flights - 2)
    for k in range(n):
        f = 0.96 - k / n * 0.86
        root, _ = _point_at(path, f)
        a = a_root + (a_tip - a_root) * f
        ln = (l_root + (l_tip - l_root) * f) * 0.46
        pen.poly(_feather(root, a, ln, ln * 0.55, bend * 0.5), coverts[k % 2], 1.4)
    # the leading edge: a green band of small purple-edged scale feathers
    pen.poly(_stroke(path, 0, wfun=lambda t: 12 - 6 * t), PHOENIX_GREEN, 1.6)
    m = int(sum(math.dist(path[i - 1], path[i]) for i in range(1, len(path))) / 7)
    for k in range(m):
        f = 0.97 - k / m * 0.94
        p, ea = _point_at(path, f)
        r = 5.5 - 2.5 * f
        q = _polar(p, ea + 90, r * 0.4)
        pen.poly([_polar(q, ea + 90 + da, r) for da in range(-90, 91, 15)],
                 PHOENIX_PURPLE if k % 2 else PHOENIX_BLUE, 1.1)


def _phoenix(pen: Pen) -> None:
    """The ho-o rising towards the top-left corner: head and neck stretched
    up, the near wing raised and swept back, the far wing lowered, and long
    serrated tail plumes streaming down to the right and curling."""
    # tail plumes, drawn first so the body sits on them
    plumes = [
        ([(142, 160), (176, 148), (206, 156), (210, 190)], 9, PHOENIX_PURPLE, PHOENIX_RED, 1),
        ([(142, 166), (178, 172), (212, 196), (204, 236)], 12, PHOENIX_GREEN, PHOENIX_BLUE, 1),
        ([(138, 172), (162, 204), (210, 212), (196, 262)], 12, PHOENIX_BLUE, PHOENIX_PURPLE, 1),
        ([(134, 174), (142, 216), (184, 226), (170, 272)], 11, PHOENIX_RED, pal.YELLOW, 1),
        ([(130, 176), (130, 206), (112, 222), (92, 230)], 9, PHOENIX_ORANGE, PHOENIX_RED, -1),
    ]
    for (p0, p1, p2, p3), wd, col, stripe, turn in plumes:
        path = _curl_path(_cubic(p0, p1, p2, p3, 36), turn * 1.0, 16, 2.6)
        _plume(pen, path, wd, col, stripe, side=turn)
    # far wing: lowered and swept forward-down behind the body
    _wing(pen, [(92, 126), (62, 142), (26, 164)], 70, 125, 36, 62, 8,
          (PHOENIX_PURPLE, PHOENIX_BLUE), (PHOENIX_BLUE, PHOENIX_PURPLE),
          (PHOENIX_ORANGE, pal.YELLOW), 0.08)
    # body: breast pushed up-left, back sloping down to the rump
    body = _catmull([(62, 116), (80, 100), (106, 106), (128, 128), (146, 158), (152, 176),
                     (134, 178), (102, 158), (74, 140)], True, 10)
    pen.poly(body, PHOENIX_RED, 2.2)
    # scale feathers on the breast: rows of small yellow and orange scallops
    ax0, ax1 = (74, 114), (138, 166)
    ang = math.degrees(math.atan2(ax1[1] - ax0[1], ax1[0] - ax0[0]))
    for r in range(8, -1, -1):
        c0 = _lerp(ax0, ax1, r / 11)
        half = 1 if r < 7 else 0
        for j in range(-half, half + 1):
            c = _polar(c0, ang + 90, j * 8.5 + (r % 2) * 4.2 - 2)
            pen.poly([_polar(c, ang + da, 5.2) for da in range(-10, 191, 20)],
                     pal.YELLOW if (r + j) % 2 else PHOENIX_ORANGE, 1.0)
    pen.poly(body, None, 2.2)
    # near wing: raised high and swept back towards the top-right corner
    _wing(pen, [(110, 128), (130, 80), (164, 42)], 26, -30, 48, 74, 14,
          (PHOENIX_RED, PHOENIX_ORANGE), (PHOENIX_BLUE, PHOENIX_GREEN),
          (pal.YELLOW, PHOENIX_ORANGE), 0.1)
    # neck stretched up to the head, with yellow scale marks
    neck = _cubic((84, 116), (66, 104), (66, 86), (52, 66), 20)
    pen.poly(_stroke(neck, 18, 12), PHOENIX_GREEN, 2.0)
    for k in range(3):
        p, a = _point_at(neck, 0.22 + k * 0.22)
        pen.line([_polar(p, a + 90, 5), _polar(p, a, -3), _polar(p, a - 90, 5)], pal.YELLOW, 1.3,
                 caps=False)
    # crest plumes streaming back from the crown
    for k, (end, col) in enumerate((((86, 36), PHOENIX_RED), ((92, 52), PHOENIX_BLUE),
                                    ((78, 24), pal.YELLOW))):
        pts = _quad((54, 54), (66, 40 + k * 4), end, 12)
        pen.line(pts, INK, 3.2)
        pen.line(pts, col, 1.6)
        pen.ellipse(end[0], end[1], 3.4, 3.4, col, 1.2)
    # head, facing up-left, with hooked yellow beak and red wattle
    pen.poly(_catmull([(40, 62), (32, 72), (38, 80), (48, 70)], True, 6), PHOENIX_RED, 1.4)
    pen.ellipse(49, 60, 12, 9.5, PHOENIX_GREEN, 2.0, ang=-30)
    pen.poly([(42, 52), (24, 40), (30, 50), (40, 62)], pal.YELLOW, 1.6)
    pen.ellipse(48, 56, 3.2, 2.8, pal.WHITE, 1.0)
    pen.ellipse(47.4, 55.6, 1.5, 1.5, INK, 0)


def _paint_12(cid: str, img: Image.Image) -> None:
    pen = Pen(img)
    if cid == "12-B":
        _fill(pen, pal.SKY_RED)
        pen.ellipse(110, 124, 92, 92, SKY_GLOW, 0)
        pen.ellipse(110, 124, 66, 66, (238, 132, 60, 255), 0)
        _kiri_group(pen, (92, 272), 0.96, spikes=False, spread=0.96)
        _phoenix(pen)
    elif cid == "12-P1":
        _red_sky(pen, 80, phase=1.4)
        _kiri_group(pen, (108, 210), 1.36, leaf_s=0.9)
    elif cid == "12-P2":
        _red_sky(pen, 100, phase=0.3)
        _kiri_group(pen, (104, 218), 1.32, spread=0.94, flip=True, leaf_s=0.92)
        _mirror(img)
    elif cid == "12-P3":
        _red_sky(pen, 64, phase=2.5)
        band_top = 290
        _kiri_group(pen, (108, 190), 1.2, spread=1.0, leaf_s=0.92)
        pen.rect(-2, band_top, W + 2, H + 2, BAND_YELLOW)
        pen.line([(-2, band_top), (W + 2, band_top)], INK, 2.4)
        _kiri_band_marks(pen, band_top)
    else:
        raise ValueError(cid)


def _kiri_band_marks(pen: Pen, y0: float) -> None:
    """The maker's band: a small red seal and a row of inked marks."""
    pen.rect(92, y0 + 10, 124, y0 + 42, pal.SKY_RED)
    pen.d.rectangle([92 * S, (y0 + 10) * S, 124 * S, (y0 + 42) * S], outline=INK, width=int(1.6 * S))
    try:
        font = ImageFont.truetype(pal.CJK_FONT, int(24 * S), index=0)
        box = pen.d.textbbox((0, 0), "桐", font=font)
        pen.d.text((108 * S - (box[0] + box[2]) / 2, (y0 + 26) * S - (box[1] + box[3]) / 2), "桐",
                   font=font, fill=pal.PAPER)
    except OSError:  # pragma: no cover
        pass
    for x in (40, 60, 156, 176):
        pen.line([(x - 6, y0 + 20), (x + 6, y0 + 18)], INK, 2.0)
        pen.line([(x - 4, y0 + 30), (x + 5, y0 + 32)], INK, 2.0)


# --------------------------------------------------------------------------

_PAINTERS = {"07": _paint_07, "08": _paint_08, "09": _paint_09,
             "10": _paint_10, "11": _paint_11, "12": _paint_12}


def paint(card_id: str, img: Image.Image) -> None:
    """Paint the face of `card_id` (months 7-12) onto the supersampled canvas."""
    if card_id not in PAINTED:
        raise ValueError(f"months_7_12 does not paint {card_id!r}")
    if img.size != (pal.CANVAS_W, pal.CANVAS_H):
        raise ValueError(f"canvas must be {pal.CANVAS_W}x{pal.CANVAS_H}, got {img.size}")
    _PAINTERS[card_id[:2]](card_id, img)
