"""Golden images of the layout: a few scenes rendered headless, kept small.

    python tools/make_golden_images.py            # rewrite tests/golden/images/*.png
    python tools/make_golden_images.py --check    # compare, write out/golden-diff-*.png on mismatch

Each scene is rendered by tools/screenshot.py at 1280x720 from a fixed seed with
animations settled, then reduced to 320x180 (box filter) so that the check
looks at layout (where panels, cards and text blocks are), not at
anti-aliasing or font rasteriser details. The comparison is tolerant: a mean
difference of a few levels and a small share of changed pixels pass.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from PIL import Image, ImageChops, ImageStat  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "images"
CASES = (("title", 1), ("round", 7), ("results", 7), ("ledger", 7))
SIZE = (1280, 720)
SMALL = (320, 180)
MAX_MEAN = 6.0          # mean absolute difference per channel, 0-255
MAX_CHANGED = 0.03      # share of small pixels that differ by more than 48 in some channel


def _screenshot_module():
    spec = importlib.util.spec_from_file_location("screenshot", ROOT / "tools" / "screenshot.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def render(scene: str, seed: int) -> Image.Image:
    shot = _screenshot_module()
    with tempfile.TemporaryDirectory(prefix="koikoi-golden-") as tmp:
        out = Path(tmp) / "shot.png"
        shot.main(["--scene", scene, "--seed", str(seed), "--size", f"{SIZE[0]}x{SIZE[1]}",
                   "--out", str(out), "--home", tmp])
        with Image.open(out) as im:
            return im.convert("RGB").resize(SMALL, Image.BOX)


def compare(got: Image.Image, want: Image.Image) -> tuple[float, float]:
    diff = ImageChops.difference(got, want)
    mean = sum(ImageStat.Stat(diff).mean) / 3
    # The share of pixels whose largest channel difference is over 48 (without
    # Image.getdata, deprecated in Pillow 13 and gone in 14).
    r, g, b = diff.split()
    peak = ImageChops.lighter(ImageChops.lighter(r, g), b)
    changed = peak.point(lambda v: 255 if v > 48 else 0).histogram()[255] / (SMALL[0] * SMALL[1])
    return mean, changed


def side_by_side(got: Image.Image, want: Image.Image, path: Path) -> None:
    sheet = Image.new("RGB", (SMALL[0] * 2 + 8, SMALL[1]), (255, 0, 255))
    sheet.paste(got, (0, 0))
    sheet.paste(want, (SMALL[0] + 8, 0))
    path.parent.mkdir(parents=True, exist_ok=True)
    sheet.resize((sheet.width * 3, sheet.height * 3), Image.NEAREST).save(path)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="write or check the golden layout images")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args(argv)
    GOLDEN.mkdir(parents=True, exist_ok=True)
    bad = 0
    for scene, seed in CASES:
        got = render(scene, seed)
        path = GOLDEN / f"{scene}.png"
        if not args.check:
            got.save(path, optimize=True)
            print(f"wrote {path.relative_to(ROOT)}")
            continue
        with Image.open(path) as im:
            want = im.convert("RGB")
        mean, changed = compare(got, want)
        ok = mean <= MAX_MEAN and changed <= MAX_CHANGED
        print(f"{scene}: mean diff {mean:.2f}, changed {changed:.1%} {'ok' if ok else 'DIFFERS'}")
        if not ok:
            bad += 1
            side_by_side(got, want, ROOT / "out" / f"golden-diff-{scene}.png")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
