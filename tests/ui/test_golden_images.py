"""The layout of a few scenes still matches its golden image (tools/make_golden_images.py).

On a mismatch a side-by-side "computed | expected" picture is written to
out/golden-diff-<scene>.png; if the change is intended, regenerate with
`python tools/make_golden_images.py` and look at the new pictures.
"""

import importlib.util
from pathlib import Path

import pytest
from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("make_golden_images", ROOT / "tools" / "make_golden_images.py")
gold = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gold)


@pytest.mark.parametrize("scene,seed", gold.CASES)
def test_layout_matches_the_golden_image(scene, seed):
    path = gold.GOLDEN / f"{scene}.png"
    if not path.exists():
        pytest.fail(f"missing {path}: run python tools/make_golden_images.py")
    got = gold.render(scene, seed)
    with Image.open(path) as im:
        want = im.convert("RGB")
    mean, changed = gold.compare(got, want)
    if mean > gold.MAX_MEAN or changed > gold.MAX_CHANGED:
        out = ROOT / "out" / f"golden-diff-{scene}.png"
        gold.side_by_side(got, want, out)
        pytest.fail(f"{scene} layout changed: mean diff {mean:.2f} (max {gold.MAX_MEAN}), "
                    f"{changed:.1%} of pixels changed (max {gold.MAX_CHANGED:.0%}); see {out}")
