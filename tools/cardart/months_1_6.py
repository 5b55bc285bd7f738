"""Painters for months 1-6: pine, plum, cherry, wisteria, iris, peony.

paint(card_id, img) paints a whole face on the 4x canvas (palette.CANVAS_W x
palette.CANVAS_H, pre-filled with palette.PAPER). Each month has one plant
drawing routine shared by its four cards; the chaff pair differs by mirror
and bough arrangement, as in a printed deck.
"""

from __future__ import annotations

import math
import random

from PIL import Image, ImageDraw

from . import palette as P
from .common import (H, OUTLINE, W, branch, cubic, disc, ellipse_pts, leaf, leaf_shape, line,
                     mix, poly, quad, ribbon, rng_for, shade, sky, spline, stroke, transform,
                     tube, wave)

Colour = tuple[int, int, int, int]

DARK_BRANCH = (58, 36, 28, 255)
PLUM_DARK = (150, 20, 40, 255)
GOLDEN = (236, 190, 60, 255)
UGUISU = (150, 160, 50, 255)
UGUISU_DARK = (96, 104, 30, 255)
IRIS_DARK = (58, 36, 120, 255)
IRIS_LIGHT = (140, 110, 210, 255)
WIST_DARK = (84, 44, 118, 255)
WIST_LIGHT = (176, 134, 206, 255)
PEONY_DARK = (150, 20, 50, 255)
WATER = (120, 170, 200, 255)
WATER_DARK = (70, 120, 160, 255)
CRANE_GREY = (214, 214, 208, 255)
SKY_WAVE_SOFT = ((22, 1, 0.6), (12, 2.3, 2.1), (6, 4.1, 0.3))


def _mirror(pts, mirror):
    return [(W - x, y) for x, y in pts] if mirror else list(pts)


def _mx(x: float, mirror: bool) -> float:
    return W - x if mirror else x


def red_sky(d: ImageDraw.ImageDraw, y: float, phase: float = 0.0, top: bool = True,
            amp: float = 1.0) -> None:
    amps = [(a * amp, f, ph + phase) for a, f, ph in SKY_WAVE_SOFT]
    edge = wave(-10, W + 10, y, amps)
    sky(d, edge, top=top, fill=P.SKY_RED)
    # a darker band just along the edge gives the red a printed, layered look
    edge2 = [(x, yy + (-26 if top else 26)) for x, yy in edge]
    band = edge + edge2[::-1]
    d.polygon(band, fill=mix(P.SKY_RED, P.SKY_RED_DARK, 0.55))


# ==========================================================================
# 1  Pine


def pine_tuft(d: ImageDraw.ImageDraw, cx: float, cy: float, w: float, h: float,
              rng: random.Random, tilt: float = 0.0) -> None:
    """A flat-bottomed dome of needles, the hanafuda pine cluster."""
    pts = []
    n = max(40, int(w / 7))
    for i in range(n + 1):
        a = math.pi + math.pi * i / n
        # needle tips make a finely toothed rim
        r = 1.0 if i % 2 == 0 else 0.9 + 0.03 * rng.random()
        if i in (0, n):
            r = 1.0
        pts.append((cx + w / 2 * math.cos(a) * r, cy + h * math.sin(a) * r))
    pts += [(cx + w * 0.3, cy + h * 0.1), (cx, cy + h * 0.14), (cx - w * 0.3, cy + h * 0.1)]
    pts = [_rotp(p, (cx, cy), tilt) for p in pts]
    poly(d, pts, P.PINE_GREEN, P.INK, OUTLINE)
    # an inner lighter dome, so the cluster reads as layered needles
    inner = ellipse_pts(cx, cy - h * 0.02, w * 0.36, h * 0.7, 0, 30, 180, 360)
    d.polygon([_rotp(p, (cx, cy), tilt) for p in inner], fill=shade(P.PINE_GREEN, 1.12))
    # many fine needles radiate from the base
    base = _rotp((cx, cy + h * 0.08), (cx, cy), tilt)
    k = max(16, int(w / 12))
    dark = P.LEAF_DARK
    for i in range(k):
        a = math.pi + math.pi * (i + 0.5) / k + rng.uniform(-0.03, 0.03)
        rr = 0.9 if i % 2 else 0.8
        tip = _rotp((cx + w / 2 * rr * math.cos(a), cy + h * rr * math.sin(a)), (cx, cy), tilt)
        mid = (base[0] + (tip[0] - base[0]) * 0.22, base[1] + (tip[1] - base[1]) * 0.22)
        line(d, [mid, tip], dark, 4)
    core = ellipse_pts(base[0], base[1] - h * 0.06, w * 0.14, h * 0.22, tilt, 24, 180, 360)
    poly(d, core, P.LEAF_DARK, None, 0)


def _rotp(p, c, ang):
    if not ang:
        return p
    a = math.radians(-ang)
    dx, dy = p[0] - c[0], p[1] - c[1]
    return (c[0] + dx * math.cos(a) - dy * math.sin(a), c[1] + dx * math.sin(a) + dy * math.cos(a))


def pine_tree(d: ImageDraw.ImageDraw, rng: random.Random, mirror: bool, variant: int,
              front_only: bool = False) -> None:
    """Trunk, boughs and needle clusters. variant picks the bough layout."""
    m = lambda pts: _mirror(pts, mirror)  # noqa: E731
    if variant == 0:
        trunk = [(250, 1400), (220, 1200), (300, 1000), (260, 820), (330, 640)]
        boughs = [
            ([(300, 1000), (420, 960), (560, 990), (700, 940)], 46, 18),
            ([(262, 840), (180, 790), (110, 760)], 40, 18),
            ([(300, 720), (420, 660), (560, 640)], 40, 16),
            ([(225, 1200), (340, 1180), (480, 1210)], 40, 18),
        ]
        tufts = [  # cx, cy, w, h, tilt
            (330, 640, 360, 170, 0), (560, 640, 300, 140, -4), (120, 760, 240, 120, 6),
            (700, 940, 300, 150, -6), (470, 980, 280, 130, 0), (480, 1210, 320, 150, 0),
            (170, 1150, 220, 110, 4),
        ]
    else:
        trunk = [(620, 1400), (660, 1220), (560, 1060), (600, 880), (520, 700)]
        boughs = [
            ([(560, 1060), (430, 1010), (290, 1030), (170, 990)], 46, 18),
            ([(600, 880), (700, 830), (770, 800)], 40, 18),
            ([(540, 760), (400, 700), (260, 700)], 40, 16),
            ([(650, 1240), (520, 1250), (380, 1290)], 40, 18),
        ]
        tufts = [
            (520, 700, 380, 170, 0), (270, 700, 300, 140, 4), (760, 800, 220, 120, -6),
            (170, 990, 300, 150, 6), (380, 1030, 270, 125, 0), (380, 1290, 320, 150, 0),
            (740, 1150, 220, 110, -4),
        ]
    if not front_only:
        path = branch(d, m(trunk), 120, 60, P.BRANCH_BROWN, knots=10, rng=rng)
        for ctrl, w0, w1 in boughs:
            branch(d, m(ctrl), w0, w1, P.BRANCH_BROWN, knots=3, rng=rng)
        # bark scales along the trunk
        for i in range(4, len(path) - 4, 6):
            x, y = path[i]
            line(d, [(x - 18, y - 6), (x + 2, y + 6), (x + 20, y - 4)], shade(P.BRANCH_BROWN, 0.6), 5)
    for cx, cy, w, h, tilt in tufts:
        pine_tuft(d, _mx(cx, mirror), cy, w, h, rng, -tilt if mirror else tilt)


def paint_pine(card_id: str, img: Image.Image) -> None:
    d = ImageDraw.Draw(img)
    rng = rng_for(card_id)
    if card_id == "01-B":
        paint_crane(img, d, rng)
        return
    if card_id == "01-P1":
        red_sky(d, 560)
        pine_tree(d, rng, False, 0)
    elif card_id == "01-P2":
        red_sky(d, 600, phase=1.7)
        pine_tree(d, rng, False, 1)
    else:  # 01-RP
        red_sky(d, 470, phase=0.9)
        pine_tree(d, rng, True, 0)
        ribbon(img, (300, 250), 14, length=760, text=P.POETRY_TEXT[card_id])
        # a tuft in front of the ribbon's top, so it hangs from the bough
        pine_tuft(d, 290, 270, 330, 150, rng, 0)
        branch(d, [(60, 300), (180, 280), (300, 285)], 36, 16, knots=0)
        pine_tuft(d, 140, 300, 220, 110, rng, 4)


def paint_crane(img: Image.Image, d: ImageDraw.ImageDraw, rng: random.Random) -> None:
    # red ground haze at the very top, the great sun
    red_sky(d, 150, phase=2.0, amp=0.8)
    sun_c, sun_r = (470, 470), 290
    disc(d, sun_c, sun_r + 10, P.SUN_RED, P.INK, OUTLINE)
    # soft ground: green hill at the bottom
    hill = wave(-10, W + 10, 1190, ((26, 0.7, 1.0), (10, 2.0, 0.4)))
    sky(d, hill, top=False, fill=P.LEAF_DARK)
    line(d, hill, P.INK, OUTLINE)
    # pine boughs at the sides
    branch(d, [(-20, 1010), (120, 1000), (220, 1050)], 44, 20, knots=3, rng=rng)
    branch(d, [(W + 20, 1080), (730, 1060), (640, 1110)], 44, 20, knots=3, rng=rng)
    pine_tuft(d, 140, 1000, 300, 140, rng, 0)
    pine_tuft(d, 730, 1070, 300, 140, rng, 0)
    pine_tuft(d, 90, 1240, 300, 150, rng, 0)
    pine_tuft(d, 790, 1290, 260, 130, rng, 0)
    crane(d, rng)


def crane(d: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """A standing red-crowned crane, facing left, neck raised towards the sun."""
    leg = (52, 48, 46, 255)
    # legs
    for pts in ([(470, 960), (455, 1100), (440, 1262)], [(530, 960), (560, 1100), (575, 1262)]):
        stroke(d, pts, 18, leg, P.INK, 4)
    for fx, fy in ((440, 1262), (575, 1262)):
        for dx in (-60, -20, 40):
            stroke(d, [(fx, fy), (fx + dx, fy + 16)], 9, leg, P.INK, 3)
    # black tail plumes at the back
    for i in range(5):
        a = 20 + i * 12
        base = (640, 870 + i * 8)
        tip = (base[0] + math.cos(math.radians(a)) * 210, base[1] + math.sin(math.radians(a)) * 150)
        leaf(d, base, tip, 90, P.INK, bend=0.12, ow=5)
        line(d, [lerp2(base, tip, 0.2), lerp2(base, tip, 0.85)], (80, 80, 84, 255), 4)
    # body
    body = ellipse_pts(505, 860, 205, 125, -14, 64)
    poly(d, body, P.WHITE, P.INK, OUTLINE)
    # folded wing with scalloped feather rows
    wing = spline([(360, 820), (470, 760), (640, 790), (720, 880), (640, 940),
                   (520, 960), (420, 910)], 12, closed=True)
    poly(d, wing, P.PAPER, P.INK, 6)
    for row, (y0, x0, x1) in enumerate(((850, 440, 690), (900, 470, 680))):
        x = x0
        while x < x1:
            pts = quad((x, y0 + (x - x0) * 0.12), (x + 28, y0 + 40 + (x - x0) * 0.12),
                       (x + 56, y0 + (x - x0) * 0.12 + 6), 10)
            line(d, pts, (150, 150, 150, 255), 4)
            x += 56
    # neck: an S curve up to the head; black throat, white nape behind it
    neck = spline([(380, 830), (320, 720), (330, 600), (300, 470), (320, 380)], 14)
    poly(d, tube(neck, lambda t: 82 - 38 * t), P.INK, P.INK, 4)
    nape = [(p[0] + 10 + 14 * (1 - i / len(neck)), p[1]) for i, p in enumerate(neck)][6:-10]
    poly(d, tube(nape[len(nape) // 3:], lambda t: 20 - 8 * t, round_tip=True), P.WHITE, None, 0)
    # head
    head = ellipse_pts(318, 365, 54, 40, -20, 40)
    poly(d, head, P.WHITE, P.INK, 6)
    d.polygon(ellipse_pts(296, 388, 36, 22, -20, 24, 0, 210), fill=P.INK)
    # the red crown
    poly(d, ellipse_pts(325, 335, 30, 18, -20, 30), P.SUN_RED, P.INK, 4)
    # beak pointing up-left
    beak = [(282, 348), (160, 262), (170, 262), (296, 382)]
    poly(d, beak, (196, 186, 120, 255), P.INK, 5)
    disc(d, (322, 360), 8, P.INK, None)


def lerp2(a, b, t):
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


# ==========================================================================
# 2  Plum


def plum_flower(d: ImageDraw.ImageDraw, c, r: float, colour: Colour, ang: float = 0) -> None:
    cx, cy = c
    for k in range(5):
        a = math.radians(ang - 90 + 72 * k)
        px, py = cx + math.cos(a) * r * 0.56, cy + math.sin(a) * r * 0.56
        disc(d, (px, py), r * 0.5, colour, P.INK, 5)
    inner = PLUM_DARK if colour != P.PLUM_WHITE else (220, 80, 90, 255)
    disc(d, c, r * 0.32, inner, None)
    for k in range(5):
        a = math.radians(ang - 54 + 72 * k)
        e = (cx + math.cos(a) * r * 0.42, cy + math.sin(a) * r * 0.42)
        line(d, [c, e], GOLDEN, 3)
        disc(d, e, 5, GOLDEN, None)
    disc(d, c, r * 0.1, GOLDEN, None)


def plum_bud(d, c, r, colour):
    disc(d, c, r, colour, P.INK, 4)
    line(d, [(c[0] - r * 0.2, c[1] + r * 0.7), (c[0] + r * 0.3, c[1] + r * 0.9)], LEAFLET, 4)


LEAFLET = (70, 110, 50, 255)


def plum_tree(d: ImageDraw.ImageDraw, rng: random.Random, mirror: bool, variant: int) -> None:
    m = lambda pts: _mirror(pts, mirror)  # noqa: E731
    if variant == 0:
        main = [(140, 1400), (170, 1180), (120, 980), (260, 800), (240, 600), (380, 420)]
        twigs = [
            [(170, 1180), (330, 1120), (460, 1140), (600, 1060)],
            [(160, 1000), (70, 880)],
            [(250, 820), (420, 760), (560, 800), (700, 700)],
            [(250, 650), (140, 560)],
            [(380, 420), (520, 360), (640, 380)],
            [(560, 800), (600, 900)],
            [(460, 1140), (520, 1240)],
        ]
        flowers = [(600, 1060, 'r'), (470, 1130, 'w'), (330, 1110, 'r'), (700, 700, 'r'),
                   (560, 790, 'w'), (420, 760, 'r'), (250, 810, 'r'), (140, 560, 'r'),
                   (380, 420, 'r'), (530, 360, 'w'), (640, 380, 'r'), (70, 880, 'r'),
                   (170, 1000, 'w'), (230, 620, 'w'), (600, 900, 'r'), (520, 1240, 'r')]
        buds = [(680, 1010), (750, 680), (110, 540), (680, 360), (40, 860), (610, 930), (540, 1280)]
    else:
        main = [(700, 1400), (650, 1200), (720, 1020), (560, 880), (600, 680), (470, 520)]
        twigs = [
            [(650, 1200), (500, 1160), (380, 1190), (230, 1120)],
            [(700, 1040), (800, 950)],
            [(580, 900), (420, 840), (300, 870), (160, 780)],
            [(590, 720), (720, 630)],
            [(470, 520), (330, 470), (220, 500)],
            [(300, 870), (260, 970)],
        ]
        flowers = [(230, 1120, 'r'), (380, 1180, 'w'), (510, 1160, 'r'), (800, 950, 'r'),
                   (160, 780, 'r'), (300, 860, 'w'), (430, 840, 'r'), (560, 880, 'r'),
                   (720, 630, 'w'), (470, 520, 'r'), (330, 470, 'r'), (220, 500, 'w'),
                   (600, 690, 'r'), (260, 970, 'r'), (690, 1040, 'w')]
        buds = [(180, 1080), (830, 910), (120, 750), (760, 600), (170, 480), (250, 1010)]
    branch(d, m(main), 96, 34, DARK_BRANCH, knots=8, rng=rng)
    for t in twigs:
        # plum twigs are straight and stiff: a polyline, not a curve
        pts = m(t)
        poly(d, tube(_densify(pts), lambda u: 30 - 16 * u), DARK_BRANCH, P.INK, 6)
    for x, y in buds:
        fx, fy, _ = min(flowers, key=lambda f: math.hypot(f[0] - x, f[1] - y))
        line(d, [(_mx(fx, mirror), fy), (_mx(x, mirror), y)], P.INK, 16)
        line(d, [(_mx(fx, mirror), fy), (_mx(x, mirror), y)], DARK_BRANCH, 8)
        plum_bud(d, (_mx(x, mirror), y), 16, P.PLUM_RED)
    for x, y, col in flowers:
        plum_flower(d, (_mx(x, mirror), y), rng.uniform(56, 66),
                    P.PLUM_RED if col == 'r' else P.PLUM_WHITE, rng.uniform(0, 72))


def _densify(pts, step=8):
    out = []
    for a, b in zip(pts, pts[1:]):
        n = max(1, int(math.hypot(b[0] - a[0], b[1] - a[1]) / step))
        for i in range(n):
            out.append(lerp2(a, b, i / n))
    out.append(pts[-1])
    return out


def paint_plum(card_id: str, img: Image.Image) -> None:
    d = ImageDraw.Draw(img)
    rng = rng_for(card_id)
    if card_id == "02-P1":
        red_sky(d, 520, phase=0.4)
        plum_tree(d, rng, False, 0)
    elif card_id == "02-P2":
        red_sky(d, 560, phase=2.4)
        plum_tree(d, rng, False, 1)
    elif card_id == "02-RP":
        red_sky(d, 420, phase=1.3)
        plum_tree(d, rng, True, 0)
        ribbon(img, (330, 230), -10, length=760, text=P.POETRY_TEXT[card_id])
        poly(d, tube(_densify([(40, 300), (200, 240), (420, 230)]), lambda u: 34 - 14 * u),
             DARK_BRANCH, P.INK, 6)
        for x, y, col in ((420, 225, 'r'), (250, 215, 'w'), (110, 280, 'r')):
            plum_flower(d, (x, y), 60, P.PLUM_RED if col == 'r' else P.PLUM_WHITE, x % 72)
    else:  # 02-A warbler
        red_sky(d, 380, phase=0.2)
        plum_tree(d, rng, False, 1)
        warbler(d, (420, 730))


def warbler(d: ImageDraw.ImageDraw, c) -> None:
    """A small yellow-green bush warbler perched, facing left."""
    cx, cy = c
    # tail
    tail = [(cx + 120, cy - 10), (cx + 300, cy + 60), (cx + 290, cy + 100), (cx + 110, cy + 40)]
    poly(d, tail, UGUISU_DARK, P.INK, 6)
    # body
    body = ellipse_pts(cx + 20, cy, 150, 92, -12, 48)
    poly(d, body, UGUISU, P.INK, OUTLINE)
    # belly
    belly = ellipse_pts(cx - 10, cy + 40, 110, 46, -10, 36, 0, 180)
    d.polygon(belly, fill=shade(UGUISU, 1.35))
    # wing
    wing = spline([(cx - 30, cy - 40), (cx + 80, cy - 60), (cx + 200, cy - 10),
                   (cx + 140, cy + 40), (cx + 10, cy + 30)], 12, closed=True)
    poly(d, wing, UGUISU_DARK, P.INK, 6)
    for k in range(3):
        y = cy - 20 + k * 22
        line(d, quad((cx + 20 + k * 10, y), (cx + 100, y + 26), (cx + 170 - k * 10, y + 4), 10),
             shade(UGUISU_DARK, 0.7), 4)
    # head
    head = (cx - 120, cy - 60)
    disc(d, head, 72, UGUISU, P.INK, OUTLINE)
    # eye stripe, eye, beak
    line(d, quad((head[0] - 50, head[1] - 12), (head[0], head[1] - 34), (head[0] + 52, head[1] - 14), 10),
         (238, 236, 200, 255), 8)
    disc(d, (head[0] - 18, head[1] - 2), 12, P.INK, None)
    disc(d, (head[0] - 22, head[1] - 6), 4, P.WHITE, None)
    poly(d, [(head[0] - 64, head[1] - 10), (head[0] - 118, head[1] + 6), (head[0] - 62, head[1] + 16)],
         (90, 70, 40, 255), P.INK, 4)
    # feet gripping the branch
    for fx in (cx - 20, cx + 40):
        line(d, [(fx, cy + 80), (fx - 6, cy + 120)], (90, 70, 50, 255), 8)


# ==========================================================================
# 3  Cherry


def cherry_flower(d: ImageDraw.ImageDraw, c, r: float, colour: Colour, ang: float) -> None:
    cx, cy = c
    for k in range(5):
        a = ang - 90 + 72 * k
        petal = []
        # a rounded petal with a notch at its tip
        for i in range(15):
            t = math.radians(-38 + 76 * i / 14)
            rr = r * (0.98 - 0.18 * math.exp(-((i - 7) ** 2) / 2.2))
            petal.append((rr * math.sin(t) * 0.9, -rr * math.cos(t)))
        petal = [(0, -r * 0.1)] + petal
        pts = [(_rotp((cx + x, cy + y), (cx, cy), -a - 90)) for x, y in petal]
        poly(d, pts, colour, P.INK, 4)
    disc(d, c, r * 0.26, (230, 90, 120, 255), None)
    for k in range(5):
        a = math.radians(ang - 54 + 72 * k)
        e = (cx + math.cos(a) * r * 0.4, cy + math.sin(a) * r * 0.4)
        line(d, [c, e], (200, 60, 90, 255), 3)
        disc(d, e, 4, GOLDEN, None)


def blossom_cloud(d, rng, ctrl_lobes, fill=(250, 222, 230, 255)):
    """A cloud of massed blossom: a scalloped outline built from lobes."""
    for (x, y, r) in ctrl_lobes:
        disc(d, (x, y), r + OUTLINE / 2, P.INK, None)
    for (x, y, r) in ctrl_lobes:
        disc(d, (x, y), r - OUTLINE / 2, fill, None)


def cherry_cloud(d, rng, cx, cy, w, h, n_flowers=None):
    """A rounded mass of blossom with flowers scattered over it."""
    lobes = []
    ring = max(6, int((w + h) / 110))
    for k in range(ring):
        a = 2 * math.pi * k / ring + rng.uniform(-0.1, 0.1)
        lobes.append((cx + math.cos(a) * w * 0.36, cy + math.sin(a) * h * 0.3,
                      h * rng.uniform(0.3, 0.38)))
    lobes.append((cx, cy, h * 0.42))
    blossom_cloud(d, rng, lobes)
    n = n_flowers or max(4, int(w * h / 24000))
    placed = []
    tries = 0
    while len(placed) < n and tries < 400:
        tries += 1
        u, v = rng.uniform(-1, 1), rng.uniform(-1, 1)
        if u * u + v * v > 1:
            continue
        x, y = cx + u * w * 0.42, cy + v * h * 0.4
        if all(math.hypot(x - px, y - py) > 112 for px, py in placed):
            placed.append((x, y))
    for x, y in sorted(placed, key=lambda p: p[1]):
        cherry_flower(d, (x, y), rng.uniform(56, 64),
                      P.CHERRY_PINK if rng.random() < 0.6 else P.CHERRY_WHITE, rng.uniform(0, 72))


def cherry_scene(d, rng, mirror, variant):
    m = lambda pts: _mirror(pts, mirror)  # noqa: E731
    if variant == 0:
        main = [(120, 1400), (180, 1150), (140, 920), (260, 700), (420, 560)]
        twigs = [[(170, 1100), (330, 1020), (520, 1020)], [(250, 720), (120, 640)],
                 [(380, 590), (600, 520), (760, 560)]]
        clouds = [(440, 560, 760, 330), (540, 1010, 460, 200)]
    else:
        main = [(740, 1400), (680, 1180), (720, 980), (580, 780), (420, 640)]
        twigs = [[(690, 1140), (520, 1100), (320, 1120)], [(600, 800), (760, 740)],
                 [(460, 660), (260, 600), (110, 650)]]
        clouds = [(420, 600, 760, 330), (320, 1110, 460, 200)]
    branch(d, m(main), 100, 40, DARK_BRANCH, knots=8, rng=rng)
    for t in twigs:
        branch(d, m(t), 36, 16, DARK_BRANCH)
    for cx, cy, w, h in clouds:
        cherry_cloud(d, rng, _mx(cx, mirror), cy, w, h)


def paint_cherry(card_id: str, img: Image.Image) -> None:
    d = ImageDraw.Draw(img)
    rng = rng_for(card_id)
    if card_id == "03-P1":
        red_sky(d, 860, phase=0.7, top=False)
        red_sky(d, 330, phase=2.2)
        cherry_scene(d, rng, False, 0)
    elif card_id == "03-P2":
        red_sky(d, 900, phase=1.9, top=False)
        red_sky(d, 360, phase=0.3)
        cherry_scene(d, rng, False, 1)
    elif card_id == "03-RP":
        red_sky(d, 300, phase=1.1)
        cherry_scene(d, rng, True, 0)
        ribbon(img, (560, 560), -8, length=740, text=P.POETRY_TEXT[card_id])
        cherry_cloud(d, rng, 570, 570, 330, 170, 4)
    else:
        paint_curtain(img, d, rng)


def paint_curtain(img, d, rng):
    # the maku: a red-and-white striped curtain across the lower half
    top = 560
    bottom = 1330
    x0, x1 = 30, W - 30
    # curtain body with sagging top scallops and vertical stripes
    n_panels = 6
    pw = (x1 - x0) / n_panels
    for i in range(n_panels):
        a, b = x0 + i * pw, x0 + (i + 1) * pw
        col = P.RIBBON_RED if i % 2 == 0 else P.PAPER
        topline = quad((a, top), ((a + b) / 2, top + 40), (b, top), 12)
        bottomline = quad((b, bottom), ((a + b) / 2, bottom + 16), (a, bottom), 12)
        poly(d, topline + bottomline, col, P.INK, 7)
        # fold lines
        for f in (0.33, 0.66):
            fx = a + pw * f
            line(d, [(fx, top + 40), (fx + 4, bottom - 10)],
                 shade(col, 0.85) if col != P.PAPER else (216, 204, 186, 255), 5)
    # the hem band along the bottom
    hem = [(x0, bottom - 70), (x1, bottom - 70), (x1, bottom), (x0, bottom)]
    poly(d, hem, P.INK, P.INK, 4)
    # the crest on a white disc in the middle
    crest_c = (W / 2, 930)
    disc(d, crest_c, 170, P.PAPER, P.INK, OUTLINE)
    disc(d, crest_c, 148, None, P.INK, 5)
    _crest_bellflower(d, crest_c, 118)
    # the cords tying the curtain at the top
    for i in range(n_panels + 1):
        x = x0 + i * pw
        stroke(d, [(x, top - 10), (x + 6, top + 70)], 10, GOLDEN, P.INK, 4)
        disc(d, (x + 6, top + 76), 12, GOLDEN, P.INK, 4)
    line(d, [(x0 - 20, top - 6), (x1 + 20, top - 6)], P.INK, 16)
    line(d, [(x0 - 20, top - 6), (x1 + 20, top - 6)], GOLDEN, 8)
    # blossom clouds above
    red_sky(d, 190, phase=0.5, amp=0.7)
    branch(d, [(-20, 300), (200, 230), (420, 280)], 60, 24, DARK_BRANCH, knots=3, rng=rng)
    branch(d, [(W + 20, 330), (660, 280), (480, 330)], 60, 24, DARK_BRANCH, knots=3, rng=rng)
    lobes = [(90, 360, 110), (230, 300, 120), (380, 350, 110), (520, 300, 120),
             (670, 340, 120), (800, 380, 100), (160, 470, 90), (450, 460, 90),
             (700, 470, 90), (300, 470, 80), (580, 460, 80)]
    blossom_cloud(d, rng, lobes)
    for x, y in ((90, 340), (230, 270), (380, 320), (520, 270), (670, 310), (800, 360),
                 (160, 450), (450, 450), (700, 450), (310, 440), (590, 430), (150, 260),
                 (750, 250), (300, 380), (600, 380)):
        cherry_flower(d, (x, y), rng.uniform(50, 56),
                      P.CHERRY_PINK if rng.random() < 0.6 else P.CHERRY_WHITE, rng.uniform(0, 72))


def _crest_bellflower(d, c, r):
    """A five-petalled mon (cherry crest) in black on white."""
    cx, cy = c
    for k in range(5):
        a = -90 + 72 * k
        petal = leaf_shape((cx, cy), (cx + math.cos(math.radians(a)) * r,
                                      cy + math.sin(math.radians(a)) * r), r * 0.78)
        poly(d, petal, P.INK, P.INK, 2)
        tip = (cx + math.cos(math.radians(a)) * r * 0.98, cy + math.sin(math.radians(a)) * r * 0.98)
        disc(d, tip, r * 0.1, P.PAPER, None)
    disc(d, c, r * 0.2, P.PAPER, None)
    disc(d, c, r * 0.09, P.INK, None)


# ==========================================================================
# 4  Wisteria


def wisteria_raceme(d: ImageDraw.ImageDraw, top, length: float, sway: float,
                    rng: random.Random, width: float = 120) -> None:
    """A hanging cluster: rows of florets, full at the top, tapering to buds."""
    x0, y0 = top
    path = cubic((x0, y0), (x0 + sway * 0.2, y0 + length * 0.4),
                 (x0 + sway, y0 + length * 0.7), (x0 + sway * 0.8, y0 + length), 60)
    line(d, path, DARK_BRANCH, 8)
    rows = int(length / 34)
    florets = []
    for i in range(rows):
        t = i / rows
        p = path[int(t * (len(path) - 1))]
        w = width * (1 - t) ** 0.9 + 20
        r = 12 + 16 * (1 - t) ** 0.8
        k = 2 if w > 60 else 1
        for j in range(k):
            side = (-1 if j == 0 else 1) if k == 2 else (-1 if i % 2 else 1)
            fx = p[0] + side * (w * 0.5 - r) * (1 if k == 2 else 0.5)
            florets.append((fx, p[1], r, side, t))
    # the tip first so the upper florets overlap the lower ones
    for fx, fy, r, side, t in reversed(florets):
        stalk = (fx - side * r * 0.9, fy - r * 0.5)
        # keel and wings: the darker lower part of a pea flower
        keel = ellipse_pts(fx + side * r * 0.1, fy + r * 0.25, r * 0.8, r * 0.62, side * 15, 20)
        poly(d, keel, WIST_DARK if t < 0.75 else P.WISTERIA_PURPLE, P.INK, 4)
        # the banner: a broad light petal folded back on top
        if t < 0.8:
            banner = ellipse_pts(fx - side * r * 0.05, fy - r * 0.2, r * 1.05, r * 0.6, side * 20, 20)
            poly(d, banner, P.WISTERIA_PURPLE if (int(fx + fy) // 7) % 3 else WIST_LIGHT, P.INK, 4)
            line(d, ellipse_pts(fx - side * r * 0.05, fy - r * 0.2, r * 0.55, r * 0.28, side * 20, 12, 200, 340),
                 WIST_LIGHT, 4)
        line(d, [stalk, (fx, fy - r * 0.1)], DARK_BRANCH, 3)
    disc(d, path[-1], 9, WIST_LIGHT, P.INK, 4)


def wisteria_vines(d, rng, mirror, y=150):
    m = lambda pts: _mirror(pts, mirror)  # noqa: E731
    for ctrl, w in (([(-30, y - 50), (200, y + 10), (450, y - 40), (700, y + 20), (900, y - 20)], 34),
                    ([(-30, y + 50), (180, y), (380, y + 60), (560, y), (900, y + 50)], 24)):
        path = spline(m(ctrl), 20)
        poly(d, tube(path, w), DARK_BRANCH, P.INK, 6)
    # pinnate leaves sprouting from the vines, above and below
    for i, x in enumerate((90, 290, 500, 700, 850)):
        xx = _mx(x, mirror)
        for k in range(5):
            side = 1 if k % 2 else -1
            base = (xx + (k - 2) * 26, y + 10)
            up = -1 if k < 3 else 1
            tip = (base[0] + side * 80, base[1] + up * (70 - k * 6))
            leaf(d, base, tip, 44, P.LEAF_GREEN if k % 2 else shade(P.LEAF_GREEN, 0.85),
                 0.12 * side, P.LEAF_DARK, ow=5)


def paint_wisteria(card_id: str, img: Image.Image) -> None:
    d = ImageDraw.Draw(img)
    rng = rng_for(card_id)
    if card_id == "04-A":
        d.rectangle((0, 0, W, H), fill=P.SKY_RED)
        crescent(d, (560, 760), 230)
        cuckoo(d, (380, 1010))
        for x, ln, sw in ((100, 640, 20), (250, 420, -14), (790, 520, -16)):
            wisteria_raceme(d, (x, 170), ln, sw, rng, 110)
        wisteria_vines(d, rng, False, 130)
        return
    if card_id == "04-P1":
        red_sky(d, 1080, phase=0.3, top=False)
        layout = ((100, 760, 24), (290, 620, -18), (460, 860, 18), (620, 680, -12), (780, 820, 14))
        mirror = False
    elif card_id == "04-P2":
        red_sky(d, 1120, phase=2.1, top=False)
        layout = ((110, 680, -10), (280, 860, 20), (450, 600, -10), (620, 820, 16), (790, 620, -20))
        mirror = True
    else:  # 04-R
        red_sky(d, 1120, phase=1.2, top=False)
        layout = ((110, 760, 18), (780, 700, -14), (290, 560, -10))
        mirror = False
    for x, ln, sw in layout:
        wisteria_raceme(d, (x, 170), ln, sw, rng)
    if card_id == "04-R":
        ribbon(img, (500, 210), 7, length=800)
        wisteria_raceme(d, (640, 170), 420, -14, rng, 100)
    wisteria_vines(d, rng, mirror, 130)


def _arc_run(c, r, keep, n=360):
    """The contiguous run of points on circle (c, r) for which keep(p) holds."""
    pts = [(c[0] + r * math.cos(2 * math.pi * i / n), c[1] + r * math.sin(2 * math.pi * i / n))
           for i in range(n)]
    flags = [keep(p) for p in pts]
    start = next(i for i in range(n) if flags[i] and not flags[i - 1])
    run = []
    i = start
    while flags[i % n] and len(run) < n:
        run.append(pts[i % n])
        i += 1
    return run


def crescent_pts(c, r, cut_c, cut_r):
    outside = lambda p: math.hypot(p[0] - cut_c[0], p[1] - cut_c[1]) > cut_r  # noqa: E731
    inside = lambda p: math.hypot(p[0] - c[0], p[1] - c[1]) < r  # noqa: E731
    outer = _arc_run(c, r, outside)
    inner = _arc_run(cut_c, cut_r, inside)
    end = outer[-1]
    if math.hypot(inner[0][0] - end[0], inner[0][1] - end[1]) > math.hypot(
            inner[-1][0] - end[0], inner[-1][1] - end[1]):
        inner = inner[::-1]
    return outer + inner


def crescent(d, c, r):
    cx, cy = c
    pts = crescent_pts(c, r, (cx - r * 0.5, cy - r * 0.22), r * 0.88)
    poly(d, pts, P.MOON_PALE, P.INK, OUTLINE)


def _feathered_wing(root_a, root_b, tip, bulge, n_feathers):
    """A wing outline: a smooth leading edge, a serrated trailing edge."""
    lead = quad(root_a, bulge, tip, 24)
    trail = []
    for i in range(n_feathers + 1):
        t = i / n_feathers
        p = lerp2(tip, root_b, t)
        trail.append(p)
        if i < n_feathers:
            q = lerp2(tip, root_b, t + 0.5 / n_feathers)
            # feather tips poke out backwards
            dx, dy = root_b[0] - tip[0], root_b[1] - tip[1]
            ln = math.hypot(dx, dy) or 1
            trail.append((q[0] - dy / ln * 16, q[1] + dx / ln * 16))
    return lead + trail[1:]


def cuckoo(d, c):
    """A hototogisu in flight: slate back, barred white belly, long tail, heading left."""
    cx, cy = c
    slate = (62, 64, 78, 255)
    slate_l = (92, 96, 112, 255)
    # far wing, lower and behind
    far = _feathered_wing((cx - 10, cy + 10), (cx + 90, cy + 20), (cx + 210, cy + 210),
                          (cx + 60, cy + 150), 5)
    poly(d, far, shade(slate, 0.8), P.INK, 6)
    # long graduated tail with white tips
    tail = [(cx + 150, cy - 10), (cx + 380, cy + 20), (cx + 390, cy + 60), (cx + 370, cy + 90),
            (cx + 150, cy + 40)]
    poly(d, tail, slate, P.INK, 6)
    for k in range(3):
        disc(d, (cx + 230 + k * 50, cy + 30 + k * 8), 9, P.WHITE, None)
    # body
    body = ellipse_pts(cx + 30, cy + 10, 180, 62, -4, 48)
    poly(d, body, slate, P.INK, OUTLINE)
    belly = ellipse_pts(cx + 10, cy + 28, 150, 40, -4, 30, 0, 180)
    d.polygon(belly, fill=(236, 232, 218, 255))
    for k in range(7):
        x = cx - 100 + k * 34
        line(d, quad((x, cy + 36), (x + 10, cy + 46), (x + 4, cy + 58), 6), slate, 5)
    # near wing: a long pointed wing raised high
    near = _feathered_wing((cx - 40, cy - 10), (cx + 110, cy - 10), (cx + 240, cy - 330),
                           (cx - 10, cy - 250), 6)
    poly(d, near, slate_l, P.INK, OUTLINE)
    for k in range(4):
        a = lerp2((cx - 10, cy - 20), (cx + 100, cy - 20), k / 4)
        b = lerp2((cx + 60, cy - 190), (cx + 200, cy - 290), k / 4)
        line(d, [a, b], slate, 5)
    # head with a yellow eye ring and a short curved beak
    head = (cx - 160, cy - 2)
    disc(d, head, 58, slate, P.INK, OUTLINE)
    disc(d, (head[0] - 16, head[1] - 10), 13, P.YELLOW, P.INK, 4)
    disc(d, (head[0] - 16, head[1] - 10), 5, P.INK, None)
    poly(d, [(head[0] - 48, head[1] - 6), (head[0] - 112, head[1] + 8), (head[0] - 50, head[1] + 20)],
         P.YELLOW, P.INK, 5)


# ==========================================================================
# 5  Iris


def iris_flower(d: ImageDraw.ImageDraw, c, s: float, mirror: bool = False) -> None:
    """A purple iris head: drooping falls left and right, standards above."""
    cx, cy = c
    sg = -1 if mirror else 1
    # stem stub
    # standards (upright petals)
    for dx, tipx in ((-0.15, -0.3), (0.15, 0.32)):
        base = (cx + dx * s * sg, cy)
        tip = (cx + tipx * s * sg, cy - 0.85 * s)
        leaf(d, base, tip, 0.32 * s, IRIS_DARK, 0.05, None, 5)
    mid = leaf_shape((cx, cy + 0.05 * s), (cx + 0.02 * s * sg, cy - 0.95 * s), 0.36 * s)
    poly(d, mid, P.IRIS_PURPLE, P.INK, 5)
    # falls: broad drooping petals
    for side in (-1, 1):
        base = (cx, cy - 0.05 * s)
        tip = (cx + side * 0.62 * s, cy + 0.55 * s)
        poly(d, leaf_shape(base, tip, 0.52 * s, -0.18 * side), P.IRIS_PURPLE, P.INK, 6)
        # the white-and-yellow signal
        sig_a = lerp2(base, tip, 0.25)
        sig_b = lerp2(base, tip, 0.68)
        line(d, [sig_a, sig_b], P.WHITE, max(8, s * 0.08))
        line(d, [sig_a, lerp2(base, tip, 0.5)], P.YELLOW, max(5, s * 0.045))
        for k in range(3):
            q = lerp2(base, tip, 0.35 + k * 0.14)
            line(d, [(q[0] - side * 0.08 * s, q[1] - 0.04 * s), (q[0] + side * 0.02 * s, q[1] + 0.05 * s)],
                 IRIS_DARK, 3)
    # front fall hanging down
    base = (cx, cy)
    tip = (cx + 0.08 * s * sg, cy + 0.75 * s)
    poly(d, leaf_shape(base, tip, 0.42 * s, 0.1), IRIS_LIGHT, P.INK, 6)
    line(d, [lerp2(base, tip, 0.22), lerp2(base, tip, 0.62)], P.WHITE, max(8, s * 0.07))
    line(d, [lerp2(base, tip, 0.22), lerp2(base, tip, 0.45)], P.YELLOW, max(5, s * 0.04))
    # the style crest where the petals meet
    poly(d, ellipse_pts(cx, cy - 0.02 * s, 0.09 * s, 0.07 * s, 0, 16), IRIS_DARK, P.INK, 4)


def iris_clump(d, rng, specs, leaves):
    """specs: flowers (x, y, size, mirror, stem_bottom); leaves: (x, h, lean)."""
    for x, h, lean in leaves:
        base = (x, H + 20)
        tip = (x + lean, H - h)
        ctrl = [base, (x + lean * 0.2, H - h * 0.5), tip]
        path = spline(ctrl, 16)
        poly(d, tube(path, lambda t: 60 * (1 - t) ** 0.6 + 2, round_tip=False), P.LEAF_GREEN, P.INK, 6)
        line(d, path[2:-6], P.LEAF_DARK, 4)
    for x, y, s, mir, stem_bottom in specs:
        stroke(d, [(x, stem_bottom), (x + (6 if mir else -6), (y + stem_bottom) / 2), (x, y + 0.1 * s)],
               18, P.LEAF_GREEN, P.INK, 5)
        iris_flower(d, (x, y), s, mir)


def paint_iris(card_id: str, img: Image.Image) -> None:
    d = ImageDraw.Draw(img)
    rng = rng_for(card_id)
    if card_id == "05-A":
        paint_bridge(img, d, rng)
        return
    # pale water at the bottom, leaves and blooms rising from it
    water = wave(-10, W + 10, 1140, ((14, 1.2, 0.4), (6, 3.1, 1.3)))
    sky(d, water, top=False, fill=mix(P.PAPER, WATER, 0.5))
    for k in range(3):
        y = 1200 + k * 50
        line(d, wave(60 + k * 40, W - 60 - k * 50, y, ((6, 2.0, k),), 30), mix(P.PAPER, WATER_DARK, 0.5), 5)
    if card_id == "05-P1":
        red_sky(d, 250, phase=1.0, amp=0.8)
        leaves = [(80, 900, 60), (150, 1040, -20), (240, 760, 80), (330, 1000, 30),
                  (470, 880, -50), (560, 1060, 20), (660, 820, -70), (760, 980, -30)]
        specs = [(220, 430, 300, False, 1300), (560, 560, 280, True, 1300), (400, 820, 230, False, 1300)]
    elif card_id == "05-P2":
        red_sky(d, 280, phase=2.6, amp=0.8)
        leaves = [(100, 1000, 40), (190, 820, -40), (300, 1060, 30), (420, 760, 60),
                  (520, 1000, -30), (620, 880, 50), (720, 1040, -10), (800, 760, -60)]
        specs = [(620, 430, 300, True, 1300), (280, 580, 280, False, 1300), (470, 860, 220, True, 1300)]
    else:  # 05-R
        red_sky(d, 230, phase=0.1, amp=0.8)
        leaves = [(90, 900, 60), (200, 1040, -20), (300, 760, 40),
                  (580, 1000, -30), (680, 880, 40), (780, 1000, -50)]
        specs = [(170, 520, 260, False, 1300), (700, 560, 270, True, 1300)]
    iris_clump(d, rng, specs, leaves)
    if card_id == "05-R":
        ribbon(img, (420, 170), -4, length=820)


def paint_bridge(img, d, rng):
    red_sky(d, 230, phase=1.4, amp=0.8)
    water = wave(-10, W + 10, 520, ((14, 1.2, 0.4), (6, 3.1, 1.3)))
    sky(d, water, top=False, fill=mix(P.PAPER, WATER, 0.55))
    # irises behind the bridge
    iris_clump(d, rng, [(170, 430, 230, False, 1000), (470, 380, 220, True, 1000),
                        (720, 470, 220, True, 1000)],
               [(80, 1050, 40), (170, 900, -30), (270, 1080, 30), (420, 960, 30), (520, 1060, -20),
                (620, 1000, -40), (720, 1100, 30), (800, 920, -40)])
    # the zigzag eight-plank bridge, laid out in plan and seen obliquely from above
    plan = [(-80, 170), (260, 460), (520, 130), (930, 400)]
    proj = lambda u, v, h=0.0: (u, 610 + v * 0.62 - h)  # noqa: E731
    brown = P.BROWN
    side = shade(brown, 0.62)
    half, th = 78, 36
    segs = []
    for (au, av), (bu, bv) in zip(plan, plan[1:]):
        ln = math.hypot(bu - au, bv - av)
        nu, nv = -(bv - av) / ln, (bu - au) / ln
        if nv < 0:
            nu, nv = -nu, -nv   # n points towards the viewer
        eu, ev = (bu - au) / ln * half * 0.9, (bv - av) / ln * half * 0.9  # overlap the joints
        segs.append(((au - eu, av - ev), (bu + eu, bv + ev), (nu, nv)))
    # posts first: they stand in the water under the joints
    for u, v in plan[1:-1]:
        for off in (-1, 1):
            x, y = proj(u + off * 50, v + 60)
            poly(d, [(x - 16, y), (x + 16, y), (x + 16, y + 110), (x - 16, y + 110)], side, P.INK, 5)
    # far spans first
    for (a_, b_, (nu, nv)) in sorted(segs, key=lambda sg: sg[0][1] + sg[1][1]):
        (au, av), (bu, bv) = a_, b_
        near_a, near_b = (au + nu * half, av + nv * half), (bu + nu * half, bv + nv * half)
        far_a, far_b = (au - nu * half, av - nv * half), (bu - nu * half, bv - nv * half)
        front = [proj(*near_a), proj(*near_b), proj(*near_b, -th), proj(*near_a, -th)]
        poly(d, front, side, P.INK, 6)
        deck = [proj(*far_a), proj(*far_b), proj(*near_b), proj(*near_a)]
        poly(d, deck, brown, P.INK, OUTLINE)
        # the long planks run along the span
        for f in (-1 / 3, 1 / 3):
            pa = proj(au + nu * half * f * 2 * 0.75 + (bu - au) * 0.03, av + nv * half * f * 1.5 + (bv - av) * 0.03)
            pb = proj(bu + nu * half * f * 2 * 0.75 - (bu - au) * 0.03, bv + nv * half * f * 1.5 - (bv - av) * 0.03)
            line(d, [pa, pb], shade(brown, 0.7), 5)
        # a light grain stroke on each plank
        for f, t0 in ((-0.66, 0.2), (0.0, 0.55), (0.66, 0.35)):
            cu = au + (bu - au) * t0 + nu * half * f
            cv = av + (bv - av) * t0 + nv * half * f
            q0 = proj(cu, cv)
            q1 = proj(cu + (bu - au) * 0.15, cv + (bv - av) * 0.15)
            line(d, [q0, q1], shade(brown, 1.22), 4)
    # irises in front
    iris_clump(d, rng, [(170, 1080, 250, False, 1360), (640, 1110, 240, True, 1360)],
               [(60, 420, 40), (150, 340, -30), (260, 460, 30), (400, 300, 20), (540, 330, -30),
                (680, 450, 30), (790, 360, -30)])


# ==========================================================================
# 6  Peony


def peony(d: ImageDraw.ImageDraw, c, r: float, colour: Colour = P.PEONY_RED,
          rng: random.Random | None = None) -> None:
    """A big peony: rings of ruffled petals, darker in the heart."""
    cx, cy = c
    rng = rng or random.Random(0)
    light = P.PEONY_PINK if colour == P.PEONY_RED else shade(colour, 1.3)
    dark = PEONY_DARK if colour == P.PEONY_RED else shade(colour, 0.7)
    rings = ((1.0, 8, 0.0, colour), (0.78, 7, 0.3, light), (0.55, 6, 0.1, colour),
             (0.34, 5, 0.5, dark))
    for scale, n, off, col in rings:
        rr = r * scale
        for k in range(n):
            a = 2 * math.pi * (k + off) / n + rng.uniform(-0.08, 0.08)
            pc = (cx + math.cos(a) * rr * 0.45, cy + math.sin(a) * rr * 0.38)
            # a ruffled petal: an ellipse with a scalloped outer edge
            pts = []
            m = 28
            for i in range(m):
                t = 2 * math.pi * i / m
                ruff = 1 + 0.07 * math.sin(5 * t)
                pts.append((pc[0] + math.cos(t) * rr * 0.55 * ruff,
                            pc[1] + math.sin(t) * rr * 0.42 * ruff))
            poly(d, pts, col, P.INK, 5)
            # a petal crease
            line(d, [(pc[0], pc[1]), (pc[0] + math.cos(a) * rr * 0.3, pc[1] + math.sin(a) * rr * 0.22)],
                 shade(col, 0.8), 4)
    # golden stamens in the heart
    for k in range(9):
        a = 2 * math.pi * k / 9
        disc(d, (cx + math.cos(a) * r * 0.1, cy + math.sin(a) * r * 0.08 - r * 0.02), r * 0.05,
             GOLDEN, P.INK, 3)


def peony_leaf(d, base, ang, size, mirror=False):
    """A three-lobed peony leaf with pointed tips."""
    for da, s in ((-32, 0.8), (32, 0.8), (0, 1.0)):
        a = math.radians(ang + da)
        tip = (base[0] + math.cos(a) * size * s, base[1] + math.sin(a) * size * s)
        leaf(d, base, tip, size * 0.38 * s, P.LEAF_GREEN if da else P.LEAF_DARK,
             0.12 if da >= 0 else -0.12, shade(P.LEAF_GREEN, 0.6) if da else P.LEAF_GREEN, 6)


def peony_bush(d, rng, mirror, variant):
    m = _mx
    if variant == 0:
        leaves = [(220, 1080, -130, 220), (520, 1100, -60, 230), (140, 800, -160, 190),
                  (700, 900, -30, 200), (380, 1260, -90, 220), (660, 1250, -40, 200),
                  (100, 1220, -150, 200), (430, 700, -100, 170)]
        leaves += [(560, 660, -40, 200), (90, 900, -170, 200)]
        flowers = [(310, 720, 250, P.PEONY_RED), (590, 990, 260, P.PEONY_RED),
                   (220, 1180, 190, P.PEONY_PINK)]
        buds = [(700, 600), (120, 530)]
    else:
        leaves = [(640, 1080, -50, 220), (340, 1100, -120, 230), (720, 800, -20, 190),
                  (160, 900, -150, 200), (480, 1260, -90, 220), (200, 1250, -140, 200),
                  (760, 1220, -30, 200), (430, 700, -80, 170)]
        leaves += [(300, 660, -140, 200), (780, 900, -10, 200)]
        flowers = [(560, 720, 250, P.PEONY_RED), (280, 990, 260, P.PEONY_RED),
                   (650, 1180, 190, P.PEONY_PINK)]
        buds = [(160, 590), (770, 540)]
    for x, y, a, s in leaves:
        xx = m(x, mirror)
        peony_leaf(d, (xx, y), 180 - a if mirror else a, s)
    for x, y in buds:
        xx = m(x, mirror)
        stroke(d, [(xx, y + 140), (xx + 8, y + 60), (xx, y)], 14, P.LEAF_GREEN, P.INK, 5)
        poly(d, ellipse_pts(xx, y, 44, 54, 0, 30), P.PEONY_RED, P.INK, 6)
        leaf(d, (xx, y + 40), (xx - 40, y - 30), 40, P.LEAF_GREEN, 0.1, None, 5)
        leaf(d, (xx, y + 40), (xx + 40, y - 30), 40, P.LEAF_GREEN, -0.1, None, 5)
    for x, y, r, col in flowers:
        peony(d, (m(x, mirror), y), r, col, rng)


def butterfly(d, c, s, ang, wing: Colour, spot: Colour):
    """A butterfly seen from above, wings open."""
    cx, cy = c
    T = lambda pts: transform(pts, cx, cy, s, ang)  # noqa: E731
    for side in (-1, 1):
        fore = spline([(0, -10), (side * 60, -110), (side * 150, -130), (side * 170, -70),
                       (side * 110, -10), (side * 20, 0)], 10, closed=True)
        hind = spline([(0, 5), (side * 110, 10), (side * 150, 70), (side * 100, 140),
                       (side * 40, 110), (side * 8, 40)], 10, closed=True)
        poly(d, T(hind), shade(wing, 0.8), P.INK, 6)
        poly(d, T(fore), wing, P.INK, 6)
        # wing edge band and spots
        band = spline([(side * 60, -110), (side * 150, -130), (side * 170, -70)], 8)
        line(d, T(band), P.INK, 16 * s)
        for (x, y, r) in ((side * 110, -75, 18), (side * 70, -55, 12), (side * 95, 70, 16)):
            cx2, cy2 = T([(x, y)])[0]
            disc(d, (cx2, cy2), r * s, spot, P.INK, 4)
    body = T(ellipse_pts(0, 10, 14, 80, 0, 24))
    poly(d, body, P.INK, P.INK, 2)
    for side in (-1, 1):
        ant = T(quad((0, -60), (side * 30, -130), (side * 60, -160), 10))
        line(d, ant, P.INK, 5 * s)
        e = ant[-1]
        disc(d, e, 8 * s, P.INK, None)


def paint_peony(card_id: str, img: Image.Image) -> None:
    d = ImageDraw.Draw(img)
    rng = rng_for(card_id)
    if card_id == "06-P1":
        red_sky(d, 470, phase=0.9, amp=0.8)
        peony_bush(d, rng, False, 0)
    elif card_id == "06-P2":
        red_sky(d, 490, phase=2.3, amp=0.8)
        peony_bush(d, rng, False, 1)
    elif card_id == "06-RB":
        red_sky(d, 320, phase=1.5, amp=0.8)
        peony_bush(d, rng, True, 0)
        # a spray of leaves behind the top of the slip, so it hangs in the bush
        stroke(d, [(250, 760), (290, 600), (330, 470)], 16, P.LEAF_GREEN, P.INK, 5)
        peony_leaf(d, (330, 470), -75, 190)
        peony_leaf(d, (300, 560), -150, 150)
        ribbon(img, (330, 360), 9, length=700, colour=P.RIBBON_BLUE)
    else:  # 06-A butterflies
        red_sky(d, 200, phase=0.4, amp=0.6)
        peony_bush(d, rng, False, 1)
        butterfly(d, (270, 380), 1.05, -18, P.BLUE, P.YELLOW)
        butterfly(d, (620, 470), 0.85, 22, P.YELLOW, P.BLUE)


# ==========================================================================


_PAINTERS = {1: paint_pine, 2: paint_plum, 3: paint_cherry, 4: paint_wisteria,
             5: paint_iris, 6: paint_peony}


def paint(card_id: str, img: Image.Image) -> None:
    """Paint the face of card_id (months 1-6) onto the 4x canvas img."""
    month = int(card_id[:2])
    if month not in _PAINTERS:
        raise NotImplementedError(card_id)
    _PAINTERS[month](card_id, img)
