"""The generated card images: complete, well-formed, distinct, reproducible."""

from __future__ import annotations

import importlib.util
import itertools
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageChops

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "assets" / "cards"
NONUM = CARDS / "nonum"
SIZE = (216, 348)

CARD_IDS = (
    "01-B", "01-RP", "01-P1", "01-P2", "02-A", "02-RP", "02-P1", "02-P2",
    "03-B", "03-RP", "03-P1", "03-P2", "04-A", "04-R", "04-P1", "04-P2",
    "05-A", "05-R", "05-P1", "05-P2", "06-A", "06-RB", "06-P1", "06-P2",
    "07-A", "07-R", "07-P1", "07-P2", "08-B", "08-A", "08-P1", "08-P2",
    "09-A", "09-RB", "09-P1", "09-P2", "10-A", "10-RB", "10-P1", "10-P2",
    "11-B", "11-A", "11-R", "11-P", "12-B", "12-P1", "12-P2", "12-P3",
)

# the month badge sits in the top-left corner; numbered and plain faces may
# differ only inside this box (x0, y0, x1, y1)
BADGE_BOX = (0, 0, 48, 48)


def _load(path: Path) -> Image.Image:
    with Image.open(path) as im:
        im.load()
        return im.copy()


@pytest.fixture(scope="module")
def faces() -> dict[str, Image.Image]:
    return {cid: _load(CARDS / f"{cid}.png") for cid in CARD_IDS}


@pytest.fixture(scope="module")
def plain_faces() -> dict[str, Image.Image]:
    return {cid: _load(NONUM / f"{cid}.png") for cid in CARD_IDS}


@pytest.fixture(scope="module")
def make_cards():
    spec = importlib.util.spec_from_file_location("make_cards", ROOT / "tools" / "make_cards.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("make_cards", mod)
    spec.loader.exec_module(mod)
    return mod


def test_the_deck_in_the_generator_is_the_rules_deck(make_cards):
    assert tuple(make_cards.CARD_IDS) == CARD_IDS
    assert len(set(CARD_IDS)) == 48


def test_asset_set_is_complete():
    face_files = {p.stem for p in CARDS.glob("*.png")}
    assert set(CARD_IDS) <= face_files
    assert "back.png" in {p.name for p in CARDS.glob("*.png")}
    assert {p.stem for p in NONUM.glob("*.png")} >= set(CARD_IDS)


@pytest.mark.parametrize("folder", [CARDS, NONUM])
def test_every_image_is_a_rounded_opaque_card(folder):
    names = [f"{cid}.png" for cid in CARD_IDS] + (["back.png"] if folder == CARDS else [])
    for name in names:
        im = _load(folder / name)
        assert im.mode == "RGBA", name
        assert im.size == SIZE, name
        w, h = im.size
        for corner in ((0, 0), (w - 1, 0), (0, h - 1), (w - 1, h - 1)):
            assert im.getpixel(corner)[3] == 0, f"{name}: corner {corner} not transparent"
        assert im.getpixel((w // 2, h // 2))[3] == 255, f"{name}: centre not opaque"
        # the face is opaque everywhere except at the rounded corners
        alpha = im.getchannel("A")
        inner = alpha.crop((12, 12, w - 12, h - 12))
        assert inner.getextrema() == (255, 255), name


def test_faces_are_pairwise_distinct(faces):
    # compare on a small grey thumbnail with a tolerance so near-copies fail too
    thumbs = {cid: im.convert("L").resize((27, 43), Image.BILINEAR) for cid, im in faces.items()}
    for a, b in itertools.combinations(CARD_IDS, 2):
        diff = ImageChops.difference(thumbs[a], thumbs[b])
        mean = sum(i * n for i, n in enumerate(diff.histogram())) / (27 * 43)
        assert mean > 4.0, f"{a} and {b} look (nearly) the same"


def test_numbered_and_plain_faces_differ_only_at_the_badge(faces, plain_faces):
    for cid in CARD_IDS:
        a, b = faces[cid], plain_faces[cid]
        bbox = ImageChops.difference(a, b).getbbox(alpha_only=False)
        assert bbox is not None, f"{cid}: numbered face shows no number"
        x0, y0, x1, y1 = bbox
        bx0, by0, bx1, by1 = BADGE_BOX
        assert x0 >= bx0 and y0 >= by0 and x1 <= bx1 and y1 <= by1, f"{cid}: differs at {bbox}"


def test_back_is_dark(make_cards):
    back = _load(CARDS / "back.png").convert("RGB")
    r, g, b = back.resize((1, 1), Image.BOX).getpixel((0, 0))
    assert max(r, g, b) < 130


@pytest.mark.parametrize("card_id", ["01-B", "06-A"])
def test_rendering_is_deterministic_and_matches_the_assets(make_cards, card_id):
    first = make_cards.png_bytes(make_cards.render(card_id))
    second = make_cards.png_bytes(make_cards.render(card_id))
    assert first == second
    assert first == (CARDS / f"{card_id}.png").read_bytes(), "assets are stale: run tools/make_cards.py"
    plain = make_cards.png_bytes(make_cards.render(card_id, numbered=False))
    assert plain == (NONUM / f"{card_id}.png").read_bytes()
