"""Render all 48 card faces (12 month rows of 4) and the back on one PNG.

    python tools/contact_sheet.py [--out FILE.png] [--cards DIR] [--scale F]

Reads the PNGs written by tools/make_cards.py (default assets/cards) and
writes out/contact_sheet.png by default.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

ROOT = Path(__file__).resolve().parent.parent
MONTHS = ("January", "February", "March", "April", "May", "June", "July",
          "August", "September", "October", "November", "December")
PLANTS = ("Pine", "Plum", "Cherry", "Wisteria", "Iris", "Peony", "Bush clover",
          "Pampas", "Chrysanthemum", "Maple", "Willow", "Paulownia")
SUFFIXES = (
    ("B", "RP", "P1", "P2"), ("A", "RP", "P1", "P2"), ("B", "RP", "P1", "P2"),
    ("A", "R", "P1", "P2"), ("A", "R", "P1", "P2"), ("A", "RB", "P1", "P2"),
    ("A", "R", "P1", "P2"), ("B", "A", "P1", "P2"), ("A", "RB", "P1", "P2"),
    ("A", "RB", "P1", "P2"), ("B", "A", "R", "P"), ("B", "P1", "P2", "P3"),
)
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
FONT_REG = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BG = (54, 66, 58, 255)   # a felt-like table green


def build(cards: Path, scale: float = 1.0) -> Image.Image:
    sample = Image.open(cards / "01-B.png")
    cw, ch = (int(round(v * scale)) for v in sample.size)
    gap = max(6, int(14 * scale))
    label_w = int(236 * scale)
    cols = 4
    sheet_w = label_w + cols * (cw + gap) + gap * 3 + cw + gap
    sheet_h = gap + 12 * (ch + gap)
    sheet = Image.new("RGBA", (sheet_w, sheet_h), BG)
    d = ImageDraw.Draw(sheet)
    f_month = ImageFont.truetype(FONT, max(10, int(24 * scale)))
    f_plant = ImageFont.truetype(FONT_REG, max(9, int(18 * scale)))
    f_id = ImageFont.truetype(FONT_REG, max(8, int(13 * scale)))

    def card(path: Path) -> Image.Image:
        if not path.exists():
            im = Image.new("RGBA", (cw, ch), (200, 0, 200, 255))
            ImageDraw.Draw(im).text((6, 6), "missing", fill=(0, 0, 0, 255), font=f_id)
            return im
        im = Image.open(path).convert("RGBA")
        return im if im.size == (cw, ch) else im.resize((cw, ch), Image.LANCZOS)

    for m in range(12):
        y = gap + m * (ch + gap)
        d.text((gap, y + ch // 2 - int(14 * scale)), f"{m + 1}. {MONTHS[m]}",
               font=f_month, fill=(240, 232, 210, 255), anchor="lm")
        d.text((gap, y + ch // 2 + int(16 * scale)), PLANTS[m],
               font=f_plant, fill=(200, 196, 176, 255), anchor="lm")
        for i, suf in enumerate(SUFFIXES[m]):
            cid = f"{m + 1:02d}-{suf}"
            x = label_w + i * (cw + gap)
            sheet.alpha_composite(card(cards / f"{cid}.png"), (x, y))
    bx = label_w + cols * (cw + gap) + gap * 2
    d.text((bx + cw // 2, gap + int(2 * scale)), "back", font=f_plant,
           fill=(240, 232, 210, 255), anchor="mt")
    sheet.alpha_composite(card(cards / "back.png"), (bx, gap + int(28 * scale)))
    return sheet


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "out" / "contact_sheet.png")
    ap.add_argument("--cards", type=Path, default=ROOT / "assets" / "cards")
    ap.add_argument("--scale", type=float, default=1.0, help="card scale (1 = 216x348)")
    args = ap.parse_args(argv)
    sheet = build(args.cards, args.scale)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    sheet.save(args.out)
    print(f"wrote {args.out} ({sheet.width}x{sheet.height})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
