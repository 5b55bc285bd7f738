#!/usr/bin/env python3
"""Draw the table art, overlays, logo and app icon (Pillow + numpy, deterministic).

    python tools/make_table.py

Writes
    assets/table/felt.png      512x512 seamless deep-green felt (tiled at run time)
    assets/table/vignette.png  1920x1080 RGBA dark edge vignette (scaled at run time)
    assets/table/glow.png      264x396 RGBA golden hint halo: a 216x348 card plus a
                               24 px margin each side; centre it on the card
    assets/table/select.png    228x360 RGBA selection outline: a 216x348 card plus
                               6 px each side; centre it on the card
    assets/table/logo.png      the title logo (こいこい + KOI-KOI), transparent, ~900 px wide
    assets/icons/icon.png      256x256 app icon
    assets/icons/icon-64.png   64x64 app icon

Every random texture comes from a seeded generator, so reruns are byte-identical.
numpy is a build-time dependency only (pip install numpy); the game does not need it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageFont

ROOT = Path(__file__).resolve().parent.parent
TABLE_DIR = ROOT / "assets" / "table"
ICON_DIR = ROOT / "assets" / "icons"
SERIF_BOLD = "/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc"  # index 0 = JP

CARD_W, CARD_H, CARD_R = 216, 348, 10   # a card face at its drawn size, corner radius
GLOW_MARGIN = 24
SELECT_MARGIN = 6

FELT_BASE = np.array([22, 84, 58], dtype=np.float64)  # deep green baize
GOLD = (240, 196, 90)
CREAM = (250, 238, 210)
INK = (28, 22, 20)


def save(img: Image.Image, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    img.save(path, optimize=True)
    print(f"{path.relative_to(ROOT)}: {img.size[0]}x{img.size[1]} {img.mode}, "
          f"{path.stat().st_size / 1024:.0f} KB")


# --------------------------------------------------------------------------
# Felt
# --------------------------------------------------------------------------


def _periodic_noise(rng: np.random.Generator, size: int, cells: int) -> np.ndarray:
    """Smooth value noise that tiles: a random cells x cells lattice, bicubic-upsampled
    with wrap-around (done in the Fourier domain so it is exactly periodic)."""
    lattice = rng.standard_normal((cells, cells))
    spec = np.fft.fft2(lattice)
    # zero-pad the spectrum to the output size: a periodic band-limited interpolation
    out = np.zeros((size, size), dtype=complex)
    h = cells // 2
    out[:h, :h] = spec[:h, :h]
    out[:h, -h:] = spec[:h, -h:]
    out[-h:, :h] = spec[-h:, :h]
    out[-h:, -h:] = spec[-h:, -h:]
    field = np.real(np.fft.ifft2(out))
    return field / (np.abs(field).max() or 1.0)


def _periodic_blur(a: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur with wrap-around (via FFT), keeps a texture tileable."""
    n, m = a.shape
    fy = np.fft.fftfreq(n)[:, None]
    fx = np.fft.fftfreq(m)[None, :]
    g = np.exp(-2 * (np.pi * sigma) ** 2 * (fx ** 2 + fy ** 2))
    return np.real(np.fft.ifft2(np.fft.fft2(a) * g))


def make_felt(size: int = 512) -> Image.Image:
    rng = np.random.default_rng(20240601)
    # broad, soft mottling (very subtle) + mid-scale cloudiness
    broad = _periodic_noise(rng, size, 8)
    mid = _periodic_noise(rng, size, 32)
    # fibres: short strokes of brighter and darker wool, blurred a touch
    fib = np.zeros((size, size))
    for _ in range(9000):
        y, x = rng.integers(0, size, 2)
        ang = rng.uniform(0, np.pi)
        length = rng.uniform(3, 9)
        val = rng.normal(0, 1)
        steps = int(length * 2)
        for k in range(steps):
            t = k / 2.0
            yy = int(round(y + t * np.sin(ang))) % size
            xx = int(round(x + t * np.cos(ang))) % size
            fib[yy, xx] += val
    fib = _periodic_blur(fib, 0.7)
    fib /= np.abs(fib).max()
    grain = _periodic_blur(rng.standard_normal((size, size)), 0.6)
    grain /= np.abs(grain).max()

    lum = 0.045 * broad + 0.05 * mid + 0.11 * fib + 0.09 * grain   # relative brightness
    rgb = FELT_BASE[None, None, :] * (1.0 + lum[..., None])
    # a slight hue drift in the mottling (bluer in the darker patches)
    rgb[..., 2] += 3.0 * mid
    rgb[..., 0] -= 2.0 * mid
    rgb = np.clip(np.round(rgb), 0, 255).astype(np.uint8)
    return Image.fromarray(rgb, "RGB")


# --------------------------------------------------------------------------
# Vignette
# --------------------------------------------------------------------------


def make_vignette(w: int = 1920, h: int = 1080) -> Image.Image:
    y = (np.arange(h) + 0.5) / h * 2 - 1
    x = (np.arange(w) + 0.5) / w * 2 - 1
    xx, yy = np.meshgrid(x, y)
    # superellipse distance: keeps a wide clear centre, darkens edges and corners
    d = (np.abs(xx) ** 2.6 + np.abs(yy) ** 2.6) ** (1 / 2.6)
    t = np.clip((d - 0.45) / (1.25 - 0.45), 0, 1)
    t = t * t * (3 - 2 * t)                       # smoothstep
    alpha = 205.0 * t ** 1.3
    # (no dither: one alpha step over the dark felt is below one RGB level)
    a = np.clip(np.round(alpha), 0, 255).astype(np.uint8)
    rgba = np.zeros((h, w, 4), np.uint8)
    rgba[..., 0], rgba[..., 1], rgba[..., 2] = 4, 10, 8
    rgba[..., 3] = a
    return Image.fromarray(rgba, "RGBA")


# --------------------------------------------------------------------------
# Card overlays
# --------------------------------------------------------------------------


def _rounded_rect_sdf(w: int, h: int, cx: float, cy: float, hw: float, hh: float,
                      r: float, ss: int = 1) -> np.ndarray:
    """Signed distance (px, negative inside) to a rounded rectangle."""
    ys = (np.arange(h * ss) + 0.5) / ss
    xs = (np.arange(w * ss) + 0.5) / ss
    px, py = np.meshgrid(xs - cx, ys - cy)
    qx = np.abs(px) - (hw - r)
    qy = np.abs(py) - (hh - r)
    outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0))
    inside = np.minimum(np.maximum(qx, qy), 0)
    return outside + inside - r


def make_glow() -> Image.Image:
    w, h = CARD_W + 2 * GLOW_MARGIN, CARD_H + 2 * GLOW_MARGIN
    d = _rounded_rect_sdf(w, h, w / 2, h / 2, CARD_W / 2, CARD_H / 2, CARD_R)
    # outside: soft falloff to zero at the image edge; inside: fades out fast,
    # leaving the middle clear so the card face is not tinted
    out = np.exp(-((np.maximum(d, 0) / 13.0) ** 1.1))
    out *= np.clip((GLOW_MARGIN - d) / 8.0, 0, 1) ** 1.5    # reach 0 at the border
    inner = np.exp(-((np.maximum(-d, 0) / 5.0) ** 2))
    a = np.where(d > 0, out, inner)
    alpha = np.clip(255 * a, 0, 255)
    # colour: pale gold at the edge, deeper amber further out
    k = np.clip(np.abs(d) / GLOW_MARGIN, 0, 1)[..., None]
    inner_c = np.array([255, 232, 140], float)
    outer_c = np.array([252, 170, 30], float)
    rgb = inner_c * (1 - k) + outer_c * k
    rgba = np.dstack([rgb, alpha])
    return Image.fromarray(np.round(rgba).astype(np.uint8), "RGBA")


def make_select() -> Image.Image:
    m = SELECT_MARGIN
    w, h = CARD_W + 2 * m, CARD_H + 2 * m
    ss = 4
    d = _rounded_rect_sdf(w, h, w / 2, h / 2, CARD_W / 2, CARD_H / 2, CARD_R, ss)
    # a 4 px bright band straddling the card edge (1 px inside, 3 px outside),
    # a 1 px dark keyline outside it and a thin dark line inside for contrast
    def band(lo, hi):
        return ((d >= lo) & (d < hi)).astype(float)
    bright = band(-1.5, 3.5)
    dark_out = band(3.5, 4.8)
    dark_in = band(-2.6, -1.5)
    alpha = np.clip(bright + 0.75 * dark_out + 0.45 * dark_in, 0, 1)
    rgb = np.zeros(d.shape + (3,))
    gold = np.array([250, 190, 50], float)
    hi = np.array([255, 242, 180], float)
    # a lighter centre line in the bright band for a metallic edge
    c = np.clip(1 - np.abs(d - 1.0) / 1.6, 0, 1)[..., None]
    rgb = np.where(bright[..., None] > 0, gold * (1 - c) + hi * c, np.array([40, 24, 8], float))
    premul = rgb * alpha[..., None]
    # downsample (box filter on premultiplied colour)
    def down(a):
        return a.reshape(h, ss, w, ss, *a.shape[2:]).mean(axis=(1, 3))
    a_s = down(alpha)
    rgb_s = down(premul) / np.maximum(a_s[..., None], 1e-6)
    rgba = np.dstack([rgb_s, a_s * 255])
    return Image.fromarray(np.clip(np.round(rgba), 0, 255).astype(np.uint8), "RGBA")


# --------------------------------------------------------------------------
# Logo
# --------------------------------------------------------------------------


def _vertical_gradient(size, stops) -> Image.Image:
    w, h = size
    ys = np.linspace(0, 1, h)
    pos = [s[0] for s in stops]
    cols = np.array([s[1] for s in stops], float)
    rgb = np.stack([np.interp(ys, pos, cols[:, i]) for i in range(3)], axis=-1)
    rgb = np.repeat(rgb[:, None, :], w, axis=1)
    return Image.fromarray(np.round(rgb).astype(np.uint8), "RGB")


def make_logo() -> Image.Image:
    ss = 2
    kana = "こいこい"
    latin = "KOI-KOI"
    big = ImageFont.truetype(SERIF_BOLD, 224 * ss, index=0)
    small = ImageFont.truetype(SERIF_BOLD, 54 * ss, index=0)
    stroke = 9 * ss
    # measure the kana line
    l, t, r, b = big.getbbox(kana, stroke_width=stroke)
    kana_w, kana_h = r - l, b - t
    # the Latin line with wide letter spacing
    spacing = 26 * ss
    letters = [(ch, small.getbbox(ch, stroke_width=4 * ss)) for ch in latin]
    adv = [small.getlength(ch) for ch in latin]
    latin_w = int(sum(adv) + spacing * (len(latin) - 1))
    pad = 28 * ss
    gap = 8 * ss
    lat_h = small.getbbox("KOI", stroke_width=4 * ss)
    lat_h = lat_h[3] - lat_h[1]
    W = max(kana_w, latin_w + 2 * 120 * ss) + 2 * pad
    H = pad + kana_h + gap + lat_h + pad + 10 * ss

    # masks
    kana_mask = Image.new("L", (W, H), 0)
    kana_outline = Image.new("L", (W, H), 0)
    kx = (W - kana_w) // 2 - l
    ky = pad - t
    ImageDraw.Draw(kana_mask).text((kx, ky), kana, font=big, fill=255)
    ImageDraw.Draw(kana_outline).text((kx, ky), kana, font=big, fill=255,
                                      stroke_width=stroke, stroke_fill=255)
    lat_mask = Image.new("L", (W, H), 0)
    lat_outline = Image.new("L", (W, H), 0)
    lx = (W - latin_w) / 2
    ly = pad + kana_h + gap - small.getbbox("KOI")[1]
    dm, do = ImageDraw.Draw(lat_mask), ImageDraw.Draw(lat_outline)
    x = lx
    for (ch, _), a in zip(letters, adv):
        dm.text((x, ly), ch, font=small, fill=255)
        do.text((x, ly), ch, font=small, fill=255, stroke_width=4 * ss, stroke_fill=255)
        x += a + spacing
    # thin gold rules either side of KOI-KOI, with a small diamond at the inner end
    rule_y = int(ly + small.getbbox("KOI")[1] + lat_h / 2 - 2 * ss)
    for side in (-1, 1):
        inner = W / 2 + side * (latin_w / 2 + 26 * ss)
        outer = W / 2 + side * (latin_w / 2 + 120 * ss)
        for m_, wdt in ((lat_outline, 4 * ss), (lat_mask, 2 * ss)):
            dr = ImageDraw.Draw(m_)
            dr.line([(inner, rule_y), (outer, rule_y)], fill=255, width=wdt)
            s = 7 * ss + (wdt - 2 * ss)
            cx = inner + side * 2 * ss
            dr.polygon([(cx, rule_y - s), (cx + s, rule_y), (cx, rule_y + s), (cx - s, rule_y)],
                       fill=255)

    fill_mask = ImageChops.lighter(kana_mask, lat_mask)
    outline_mask = ImageChops.lighter(kana_outline, lat_outline)

    logo = Image.new("RGBA", (W, H), (0, 0, 0, 0))
    # drop shadow: blurred outline, offset down
    shadow = outline_mask.filter(ImageFilter.GaussianBlur(9 * ss))
    shadow = ImageChops.offset(shadow, 0, 7 * ss)
    shadow = shadow.point(lambda v: int(v * 0.75))
    logo.paste(Image.new("RGBA", (W, H), (6, 10, 8, 255)), (0, 0), shadow)
    # dark lacquer-red/brown outline
    logo.paste(Image.new("RGBA", (W, H), (52, 18, 14, 255)), (0, 0), outline_mask)
    # thin inner gold rim between outline and fill: slightly grown fill
    rim = fill_mask.filter(ImageFilter.MaxFilter(3 if ss == 1 else 5))
    logo.paste(Image.new("RGBA", (W, H), (176, 116, 40, 255)), (0, 0), rim)
    # cream-to-gold gradient fill, with a soft top highlight
    top = pad
    grad_stops = [(0.0, (255, 250, 232)), (top / H, (255, 250, 232)),
                  ((top + kana_h * 0.45) / H, (248, 226, 170)),
                  ((top + kana_h * 0.95) / H, (222, 170, 70)),
                  (1.0, (236, 196, 110))]
    grad = _vertical_gradient((W, H), grad_stops).convert("RGBA")
    logo.paste(grad, (0, 0), fill_mask)
    logo = logo.resize((W // ss, H // ss), Image.LANCZOS)
    return logo.crop(logo.getbbox())


# --------------------------------------------------------------------------
# Icon
# --------------------------------------------------------------------------


def _bezier(pts, n: int = 48):
    """Points along a cubic Bezier curve through 4 control points."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = pts
    out = []
    for i in range(n + 1):
        t = i / n
        a, b, c, d = (1 - t) ** 3, 3 * t * (1 - t) ** 2, 3 * t * t * (1 - t), t ** 3
        out.append((a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3))
    return out


def _thick_line(draw, pts, w0: float, w1: float, fill, outline, outline_w: int) -> None:
    """A tapering stroke (width w0 -> w1) drawn as overlapping discs."""
    n = len(pts) - 1
    for pass_ in ((outline, outline_w), (fill, 0)) if outline else ((fill, 0),):
        col, grow = pass_
        for i, (x, y) in enumerate(pts):
            r = (w0 + (w1 - w0) * i / n) / 2 + grow
            draw.ellipse([x - r, y - r, x + r, y + r], fill=col)


def _ellipse_pts(cx: float, cy: float, rx: float, ry: float, angle_deg: float, n: int = 64):
    a = np.radians(angle_deg)
    pts = []
    for i in range(n):
        t = 2 * np.pi * i / n
        x, y = rx * np.cos(t), ry * np.sin(t)
        pts.append((cx + x * np.cos(a) - y * np.sin(a), cy + x * np.sin(a) + y * np.cos(a)))
    return pts


def _card_face(w: int, h: int) -> Image.Image:
    """A stylised 'crane and sun' hanafuda card face at size w x h (RGBA)."""
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    r = int(w * 0.07)
    d.rounded_rectangle([0, 0, w - 1, h - 1], r, fill=INK)
    b = int(w * 0.045)
    d.rounded_rectangle([b, b, w - 1 - b, h - 1 - b], int(r * 0.7), fill=(196, 36, 40))
    face = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    fd = ImageDraw.Draw(face)
    # sky: red with a darker band at the top
    fd.rectangle([0, 0, w, h], fill=(200, 38, 42))
    fd.rectangle([0, 0, w, int(h * 0.16)], fill=(150, 24, 30))
    # big pale sun
    sr = w * 0.30
    scx, scy = w * 0.60, h * 0.34
    fd.ellipse([scx - sr, scy - sr, scx + sr, scy + sr], fill=(250, 232, 190))
    fd.ellipse([scx - sr * 0.82, scy - sr * 0.82, scx + sr * 0.82, scy + sr * 0.82],
               fill=(226, 44, 40))
    lw = max(1, w // 90)
    # black ground / hill
    fd.polygon([(0, h * 0.82), (w * 0.30, h * 0.76), (w * 0.62, h * 0.80), (w, h * 0.74),
                (w, h), (0, h)], fill=(24, 22, 24))
    # pine: a leaning trunk with flat, cloud-pruned clumps of needles
    trunk = _bezier([(w * 0.10, h * 0.84), (w * 0.14, h * 0.70), (w * 0.05, h * 0.62),
                     (w * 0.16, h * 0.50)])
    _thick_line(fd, trunk, w * 0.035, w * 0.018, (96, 58, 34), INK, lw)
    for cx, cy, rw, rh in ((0.17, 0.50, 0.17, 0.035), (0.08, 0.61, 0.13, 0.03),
                           (0.24, 0.64, 0.14, 0.03)):
        box = [w * (cx - rw), h * (cy - rh), w * (cx + rw), h * (cy + rh)]
        fd.ellipse(box, fill=(30, 92, 52), outline=INK, width=lw)
        fd.ellipse([box[0] + w * 0.03, box[1] + h * 0.006, box[2] - w * 0.03, box[1] + h * 0.03],
                   fill=(64, 142, 76))
    # crane: white body, black tail plumes, black S-curved neck, red crown
    white = (250, 246, 240)
    plumes = [(w * 0.44, h * 0.66), (w * 0.30, h * 0.70), (w * 0.33, h * 0.715),
              (w * 0.29, h * 0.735), (w * 0.40, h * 0.73), (w * 0.50, h * 0.72)]
    fd.polygon(plumes, fill=INK)
    body = _ellipse_pts(w * 0.57, h * 0.665, w * 0.17, h * 0.055, -12)
    fd.polygon(body, fill=white, outline=INK, width=lw)
    # wing line
    fd.line(_bezier([(w * 0.46, h * 0.68), (w * 0.56, h * 0.645), (w * 0.64, h * 0.65),
                     (w * 0.70, h * 0.63)]), fill=INK, width=lw)
    # legs
    fd.line([(w * 0.56, h * 0.715), (w * 0.55, h * 0.80)], fill=INK, width=lw * 2)
    fd.line([(w * 0.62, h * 0.705), (w * 0.64, h * 0.79)], fill=INK, width=lw * 2)
    neck = _bezier([(w * 0.70, h * 0.64), (w * 0.80, h * 0.56), (w * 0.60, h * 0.48),
                    (w * 0.66, h * 0.37)])
    _thick_line(fd, neck, w * 0.042, w * 0.026, INK, None, 0)
    hx, hy = w * 0.665, h * 0.365
    hr = w * 0.038
    fd.ellipse([hx - hr, hy - hr * 0.9, hx + hr, hy + hr * 0.9], fill=white, outline=INK,
               width=lw)
    fd.ellipse([hx - hr * 0.55, hy - hr * 1.0, hx + hr * 0.45, hy - hr * 0.1],
               fill=(226, 30, 34))
    fd.polygon([(hx - hr * 0.7, hy - hr * 0.1), (w * 0.53, h * 0.335), (hx - hr * 0.6, hy + hr * 0.45)],
               fill=(70, 62, 50))
    inner_mask = Image.new("L", (w, h), 0)
    bi = b + int(w * 0.035)
    ImageDraw.Draw(inner_mask).rounded_rectangle([bi, bi, w - 1 - bi, h - 1 - bi],
                                                 int(r * 0.5), fill=255)
    # cream paper border between the frame and the picture
    d.rounded_rectangle([b, b, w - 1 - b, h - 1 - b], int(r * 0.7), fill=(246, 238, 220))
    img.paste(face, (0, 0), inner_mask)
    return img


def make_icon(size: int = 256) -> Image.Image:
    ss = 4
    S = size * ss
    icon = Image.new("RGBA", (S, S), (0, 0, 0, 0))
    # rounded-square tile: felt green with a subtle radial light
    rad = int(S * 0.2)
    yy, xx = np.mgrid[0:S, 0:S] / S
    light = np.clip(1.15 - 0.9 * np.hypot(xx - 0.45, yy - 0.35), 0.55, 1.15)
    base = np.array([26, 96, 66], float)
    tile_rgb = np.clip(base[None, None, :] * light[..., None], 0, 255).astype(np.uint8)
    tile = Image.fromarray(tile_rgb, "RGB").convert("RGBA")
    mask = Image.new("L", (S, S), 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, S - 1, S - 1], rad, fill=255)
    icon.paste(tile, (0, 0), mask)
    # a thin gold rim inside the tile edge
    rim = Image.new("L", (S, S), 0)
    ImageDraw.Draw(rim).rounded_rectangle([int(S * 0.03)] * 2 + [S - 1 - int(S * 0.03)] * 2,
                                          int(rad * 0.85), outline=255, width=max(2, S // 110))
    icon.paste(Image.new("RGBA", (S, S), (214, 170, 72, 255)), (0, 0), rim)

    cw, ch = int(S * 0.50), int(S * 0.50 * 348 / 216)
    # a card back behind, tilted the other way
    back = Image.new("RGBA", (cw, ch), (0, 0, 0, 0))
    bd = ImageDraw.Draw(back)
    bd.rounded_rectangle([0, 0, cw - 1, ch - 1], int(cw * 0.07), fill=(22, 18, 18))
    bd.rounded_rectangle([int(cw * 0.08)] * 2 + [cw - 1 - int(cw * 0.08), ch - 1 - int(cw * 0.08)],
                         int(cw * 0.04), fill=(120, 26, 30))
    face = _card_face(cw, ch)

    def place(card, angle, cx, cy):
        rot = card.rotate(angle, resample=Image.BICUBIC, expand=True)
        sh = rot.split()[3].filter(ImageFilter.GaussianBlur(S * 0.02)).point(lambda v: int(v * 0.55))
        x, y = int(cx - rot.width / 2), int(cy - rot.height / 2)
        shadow_layer = Image.new("RGBA", (S, S), (0, 0, 0, 0))
        shadow_layer.paste(Image.new("RGBA", rot.size, (0, 14, 8, 255)), (x + int(S * 0.015), y + int(S * 0.025)), sh)
        return shadow_layer, rot, (x, y)

    for card, ang, cx, cy in ((back, -14, S * 0.60, S * 0.52), (face, 9, S * 0.44, S * 0.50)):
        shadow_layer, rot, pos = place(card, ang, cx, cy)
        clipped = Image.new("RGBA", (S, S), (0, 0, 0, 0))
        clipped.alpha_composite(shadow_layer)
        clipped.alpha_composite(rot, pos)
        # keep everything inside the rounded tile
        a = ImageChops.multiply(clipped.split()[3], mask)
        clipped.putalpha(a)
        icon.alpha_composite(clipped)
    return icon.resize((size, size), Image.LANCZOS)


def main() -> int:
    save(make_felt(), TABLE_DIR / "felt.png")
    save(make_vignette(), TABLE_DIR / "vignette.png")
    save(make_glow(), TABLE_DIR / "glow.png")
    save(make_select(), TABLE_DIR / "select.png")
    save(make_logo(), TABLE_DIR / "logo.png")
    icon = make_icon(256)
    save(icon, ICON_DIR / "icon.png")
    save(make_icon(64), ICON_DIR / "icon-64.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
