"""Generate the 48 hanafuda card faces and the card back.

    python tools/make_cards.py [--out DIR]

Writes DIR/<id>.png (with a small month-number badge), DIR/nonum/<id>.png
(without it) and DIR/back.png; DIR defaults to assets/cards. Each face is
painted at 4x by a painter module (tools/cardart/months_1_6.py or
months_7_12.py), framed, given rounded corners and downsampled with LANCZOS.
The output is byte-identical from run to run.
"""

from __future__ import annotations

import argparse
import importlib
import io
import math
import sys
from pathlib import Path
from typing import Callable

from PIL import Image, ImageDraw, ImageFont

TOOLS = Path(__file__).resolve().parent
ROOT = TOOLS.parent
for _p in (str(TOOLS), str(ROOT)):
    if _p not in sys.path:
        sys.path.insert(0, _p)

from cardart import palette as P  # noqa: E402

CARD_IDS: tuple[str, ...] = (
    "01-B", "01-RP", "01-P1", "01-P2", "02-A", "02-RP", "02-P1", "02-P2",
    "03-B", "03-RP", "03-P1", "03-P2", "04-A", "04-R", "04-P1", "04-P2",
    "05-A", "05-R", "05-P1", "05-P2", "06-A", "06-RB", "06-P1", "06-P2",
    "07-A", "07-R", "07-P1", "07-P2", "08-B", "08-A", "08-P1", "08-P2",
    "09-A", "09-RB", "09-P1", "09-P2", "10-A", "10-RB", "10-P1", "10-P2",
    "11-B", "11-A", "11-R", "11-P", "12-B", "12-P1", "12-P2", "12-P3",
)

MONTH_PLANTS = ("Pine", "Plum", "Cherry", "Wisteria", "Iris", "Peony", "Bush clover",
                "Pampas", "Chrysanthemum", "Maple", "Willow", "Paulownia")

SS = P.SS
FRAME_W = 5 * SS             # the dark border, canvas pixels
CORNER_R = 11 * SS           # corner radius, canvas pixels
BADGE_C = (21, 21)           # badge centre on the final card (px)
BADGE_R = 12.5               # badge radius on the final card (px)
BOLD_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
BACK_COLOUR = (86, 26, 22, 255)  # deep red-brown (benigara)

DEFAULT_OUT = ROOT / "assets" / "cards"

_warned: set[str] = set()
placeholders: set[str] = set()  # ids drawn as plain labelled cards this run


def month_of(card_id: str) -> int:
    return int(card_id[:2])


def _painter(card_id: str) -> Callable[[str, Image.Image], None] | None:
    """The painter module's paint function for this card, or None if missing."""
    name = "cardart.months_1_6" if month_of(card_id) <= 6 else "cardart.months_7_12"
    try:
        mod = importlib.import_module(name)
    except ImportError as exc:
        _warn(name, f"cannot import {name} ({exc}); using placeholder faces")
        return None
    paint = getattr(mod, "paint", None)
    if paint is None:
        _warn(name, f"{name} has no paint(); using placeholder faces")
    return paint


def _warn(key: str, msg: str) -> None:
    if key not in _warned:
        _warned.add(key)
        print(f"WARNING: {msg}", file=sys.stderr)


def _placeholder(card_id: str, img: Image.Image) -> None:
    """A plain labelled face for a card whose painter is not written yet."""
    d = ImageDraw.Draw(img)
    m = month_of(card_id)
    f_big = ImageFont.truetype(BOLD_FONT, 90 * SS // 2)
    f_small = ImageFont.truetype(BOLD_FONT, 22 * SS)
    cx, cy = P.CANVAS_W / 2, P.CANVAS_H / 2
    d.text((cx, cy - 40 * SS), str(m), font=f_big, fill=P.INK, anchor="mm")
    d.text((cx, cy + 30 * SS), card_id, font=f_small, fill=P.INK, anchor="mm")
    d.text((cx, cy + 60 * SS), MONTH_PLANTS[m - 1], font=f_small, fill=P.INK, anchor="mm")


def paint_face(card_id: str) -> Image.Image:
    """The painted 4x canvas of a face, before frame and corners."""
    if card_id not in CARD_IDS:
        raise KeyError(card_id)
    img = Image.new("RGBA", (P.CANVAS_W, P.CANVAS_H), P.PAPER)
    paint = _painter(card_id)
    if paint is not None:
        try:
            paint(card_id, img)
            return img
        except NotImplementedError:
            _warn(card_id, f"painter has no art for {card_id} yet; using a placeholder")
            img = Image.new("RGBA", (P.CANVAS_W, P.CANVAS_H), P.PAPER)
    placeholders.add(card_id)
    _placeholder(card_id, img)
    return img


def _round_mask() -> Image.Image:
    mask = Image.new("L", (P.CANVAS_W, P.CANVAS_H), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        (0, 0, P.CANVAS_W - 1, P.CANVAS_H - 1), radius=CORNER_R, fill=255)
    return mask


def _finish(canvas: Image.Image, frame: tuple[int, int, int, int] = P.FRAME) -> Image.Image:
    """Frame, round the corners and downsample a 4x canvas to the card size."""
    canvas = canvas.copy()
    d = ImageDraw.Draw(canvas)
    w, h = P.CANVAS_W, P.CANVAS_H
    # the dark border: a ring between the card edge and an inner rounded rect
    ring = Image.new("L", (w, h), 0)
    rd = ImageDraw.Draw(ring)
    rd.rounded_rectangle((0, 0, w - 1, h - 1), radius=CORNER_R, fill=255)
    rd.rounded_rectangle((FRAME_W, FRAME_W, w - 1 - FRAME_W, h - 1 - FRAME_W),
                         radius=max(2, CORNER_R - FRAME_W), fill=0)
    canvas.paste(Image.new("RGBA", (w, h), frame), (0, 0), ring)
    # a hairline of paper inside the border keeps dark art from merging into it
    d.rounded_rectangle((FRAME_W, FRAME_W, w - 1 - FRAME_W, h - 1 - FRAME_W),
                        radius=max(2, CORNER_R - FRAME_W), outline=(0, 0, 0, 60), width=SS)
    canvas.putalpha(_round_mask())
    return canvas.resize((P.CARD_W, P.CARD_H), Image.LANCZOS)


def _badge(month: int) -> Image.Image:
    """The month-number badge as a full-card transparent layer."""
    layer = Image.new("RGBA", (P.CANVAS_W, P.CANVAS_H), (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    cx, cy, r = BADGE_C[0] * SS, BADGE_C[1] * SS, BADGE_R * SS
    d.ellipse((cx - r - 3, cy - r + 4, cx + r + 3, cy + r + 10), fill=(0, 0, 0, 70))  # soft drop
    d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=(252, 246, 230, 255),
              outline=P.FRAME, width=int(1.5 * SS))
    size = int((15 if month < 10 else 12.5) * SS)
    f = ImageFont.truetype(BOLD_FONT, size)
    d.text((cx, cy + SS * 0.5), str(month), font=f, fill=P.INK, anchor="mm")
    return layer.resize((P.CARD_W, P.CARD_H), Image.LANCZOS)


def render(card_id: str, numbered: bool = True) -> Image.Image:
    """The final 216x348 RGBA face of a card."""
    face = _finish(paint_face(card_id))
    if numbered:
        face.alpha_composite(_badge(month_of(card_id)))
    return face


def render_pair(card_id: str) -> tuple[Image.Image, Image.Image]:
    """(numbered, plain) faces, painting the card once."""
    plain = _finish(paint_face(card_id))
    numbered = plain.copy()
    numbered.alpha_composite(_badge(month_of(card_id)))
    return numbered, plain


def render_back() -> Image.Image:
    """The card back: deep red-brown with a small gold crest."""
    w, h = P.CANVAS_W, P.CANVAS_H
    img = Image.new("RGBA", (w, h), BACK_COLOUR)
    d = ImageDraw.Draw(img)
    gold = (196, 150, 70, 255)
    faint = (118, 44, 36, 255)
    # a faint inner border
    m = 16 * SS
    d.rounded_rectangle((m, m, w - 1 - m, h - 1 - m), radius=6 * SS, outline=faint, width=SS * 2)
    # the crest: a plum-blossom mon inside a double ring
    cx, cy = w / 2, h / 2
    R = 30 * SS
    d.ellipse((cx - R, cy - R, cx + R, cy + R), outline=gold, width=int(2.2 * SS))
    r2 = R - 5 * SS
    d.ellipse((cx - r2, cy - r2, cx + r2, cy + r2), outline=gold, width=int(1 * SS))
    pr = 7.2 * SS
    for k in range(5):
        a = math.radians(-90 + 72 * k)
        px, py = cx + math.cos(a) * 9.5 * SS, cy + math.sin(a) * 9.5 * SS
        d.ellipse((px - pr, py - pr, px + pr, py + pr), fill=gold)
    cr = 4.2 * SS
    d.ellipse((cx - cr, cy - cr, cx + cr, cy + cr), fill=BACK_COLOUR)
    for k in range(5):
        a = math.radians(-90 + 36 + 72 * k)
        d.line([(cx, cy), (cx + math.cos(a) * 3.6 * SS, cy + math.sin(a) * 3.6 * SS)],
               fill=gold, width=int(0.8 * SS))
    dr = 1.4 * SS
    d.ellipse((cx - dr, cy - dr, cx + dr, cy + dr), fill=gold)
    img = _finish(img, frame=(40, 14, 12, 255))
    return img


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=9)
    return buf.getvalue()


def write(img: Image.Image, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = png_bytes(img)
    if path.exists() and path.read_bytes() == data:
        return
    path.write_bytes(data)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    ap.add_argument("--only", nargs="*", help="render only these ids (for quick checks)")
    ap.add_argument("--strict", action="store_true",
                    help="fail if any face had to fall back to a placeholder")
    args = ap.parse_args(argv)
    out: Path = args.out
    ids = args.only or CARD_IDS
    for cid in ids:
        numbered, plain = render_pair(cid)
        write(numbered, out / f"{cid}.png")
        write(plain, out / "nonum" / f"{cid}.png")
    write(render_back(), out / "back.png")
    print(f"wrote {len(ids)} faces (+ nonum) and back.png to {out}")
    if placeholders:
        print(f"WARNING: placeholder faces for {' '.join(sorted(placeholders))}", file=sys.stderr)
        if args.strict:
            return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
