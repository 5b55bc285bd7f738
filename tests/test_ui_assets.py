"""koikoi.ui.assets: finding, loading, scaling, caching and falling back."""

from __future__ import annotations

import logging
import os
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from koikoi.ui import assets as assets_mod  # noqa: E402
from koikoi.paths import assets_dir  # noqa: E402
from koikoi.ui.assets import Assets, card_size  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CARD_DIR = ROOT / "assets" / "cards"
LOGGER = "koikoi.assets"


@pytest.fixture(scope="module")
def display():
    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((320, 240))
    yield screen
    pygame.display.quit()


@pytest.fixture
def assets(display):
    return Assets()


def _warnings(caplog):
    return [r for r in caplog.records if r.name == LOGGER and r.levelno >= logging.WARNING]


def _card_faces():
    return sorted(CARD_DIR.glob("[01]*-*.png")) if CARD_DIR.is_dir() else []


def test_finds_the_assets_folder():
    root = assets_dir()
    assert root is not None
    assert (root / "table" / "felt.png").is_file()
    assert (root / "fonts" / "KoiKoiSans-Regular.otf").is_file()
    assert Assets().root == root


def test_card_size_keeps_the_ratio():
    assert card_size(348) == (216, 348)
    assert card_size(174) == (108, 174)
    w, h = card_size(200)
    assert h == 200 and abs(w / h - 216 / 348) < 0.01


def test_table_art_loads_without_warnings(assets, caplog):
    caplog.set_level(logging.WARNING, LOGGER)
    table = assets.table((800, 600))
    assert table.get_size() == (800, 600)
    r, g, b = table.get_at((400, 300))[:3]
    assert g > r and g > b, "the middle of the table should be green felt"
    # the vignette darkens the corners
    assert sum(table.get_at((2, 2))[:3]) < sum(table.get_at((400, 300))[:3])
    assert assets.glow(348).get_size() == (216 + 48, 348 + 48)
    assert assets.select(348).get_size() == (216 + 12, 348 + 12)
    assert assets.glow(174).get_size() == (132, 198)
    logo = assets.logo(900)
    assert logo.get_width() == 900 and 150 < logo.get_height() < 450
    assert assets.icon().get_size() == (256, 256)
    assert assets.icon(64).get_size() == (64, 64)
    assert assets.icon(32).get_size() == (32, 32)
    assert _warnings(caplog) == []


def test_overlays_are_transparent_in_the_middle(assets):
    glow = assets.glow(348)
    w, h = glow.get_size()
    assert glow.get_at((w // 2, h // 2)).a == 0
    assert glow.get_at((24 - 2, h // 2)).a > 100          # bright just outside the card edge
    assert glow.get_at((0, 0)).a == 0
    sel = assets.select(348)
    assert sel.get_at((sel.get_width() // 2, sel.get_height() // 2)).a == 0
    assert sel.get_at((4, sel.get_height() // 2)).a > 200   # the gold band on the card edge


def test_caching_returns_the_same_surface(assets):
    assert assets.table((640, 480)) is assets.table((640, 480))
    assert assets.table((640, 480)) is not assets.table((641, 480))
    assert assets.glow(200) is assets.glow(200)
    assert assets.select(200) is assets.select(200)
    assert assets.logo(500) is assets.logo(500)
    assert assets.back(150) is assets.back(150)
    assert assets.card("01-RP", 150) is assets.card("01-RP", 150)
    assert assets.card("01-RP", 150) is not assets.card("01-RP", 151)
    assert assets.font(24) is assets.font(24)
    assert assets.font(24) is not assets.font(24, bold=True)


@pytest.mark.parametrize("bold", [False, True])
def test_font_renders_kana_and_kanji(assets, bold, caplog):
    caplog.set_level(logging.WARNING, LOGGER)
    font = assets.font(32, bold=bold)
    assert _warnings(caplog) == [], "the bundled font should load"
    kana = font.render("こいこい", True, (255, 255, 255))
    unknown = font.render("????", True, (255, 255, 255))
    assert kana.get_width() > 0
    assert pygame.image.tobytes(kana, "RGBA") != pygame.image.tobytes(unknown, "RGBA")
    # every character the yaku and labels use has a real glyph, not the .notdef box
    notdef = pygame.image.tobytes(font.render("\u9b31", True, (255, 255, 255)), "RGBA")  # 鬱: not in the subset
    text = "五光四光雨四光三光猪鹿蝶赤短青短花見酒月見酒タネタンカス手四くっつき親勝負こいこい点文月"
    for ch in sorted(set(text)):
        (minx, maxx, miny, maxy, advance), = font.metrics(ch)
        assert advance > 0 and maxx > minx, ch
        glyph = pygame.image.tobytes(font.render(ch, True, (255, 255, 255)), "RGBA")
        assert glyph != notdef, f"{ch!r} is missing from the font"
    latin = font.render("Koi-Koi 8 pts", True, (255, 255, 255))
    assert latin.get_width() > 100


def test_missing_card_returns_a_fallback_and_warns(assets, caplog):
    caplog.set_level(logging.WARNING, LOGGER)
    surf = assets.card("99-NOPE", 174)
    assert isinstance(surf, pygame.Surface)
    assert surf.get_size() == (108, 174)
    # a cream card: the middle of the top edge area is cream, corners transparent
    assert surf.get_at((0, 0)).a == 0
    r, g, b, a = surf.get_at((54, 20))
    assert a == 255 and r > 200 and g > 190
    msgs = [r.getMessage() for r in _warnings(caplog)]
    assert any("99-NOPE" in m and "make_cards.py" in m for m in msgs), msgs


def test_card_faces_load_when_present(assets, caplog):
    faces = _card_faces()
    if not faces:
        pytest.skip("assets/cards has no faces yet (python tools/make_cards.py)")
    caplog.set_level(logging.WARNING, LOGGER)
    card_id = faces[0].stem
    surf = assets.card(card_id, 174)
    assert surf.get_size() == (108, 174)
    assert _warnings(caplog) == []
    assert assets.card(card_id, 174) is surf
    big = assets.card(card_id, 348)
    assert big.get_size() == (216, 348)


def test_unreadable_and_missing_files_never_raise(display, tmp_path, caplog):
    caplog.set_level(logging.WARNING, LOGGER)
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "01-RP.png").write_bytes(b"not a png at all")
    a = Assets(root=tmp_path)
    assert a.card("01-RP", 100).get_size() == card_size(100)
    assert a.card("01-RP", 100, month_number=False).get_size() == card_size(100)
    assert a.back(100).get_size() == card_size(100)
    assert a.table((300, 200)).get_size() == (300, 200)
    assert a.glow(100).get_width() > card_size(100)[0]
    assert a.select(100).get_width() > card_size(100)[0]
    assert a.logo(400).get_width() == 400
    assert a.icon().get_size() == (256, 256)
    font = a.font(20)
    assert font.render("Koi-Koi", True, (0, 0, 0)).get_width() > 0
    assert a.sound("snap") is None
    assert a.play("snap") is None
    msgs = " ".join(r.getMessage() for r in _warnings(caplog))
    assert "cannot read image" in msgs and "01-RP.png" in msgs
    assert "make_table.py" in msgs and "make_font.py" in msgs


def test_sounds_load_and_play_or_are_silent(display):
    a = Assets()
    a.muted = True
    assert a.play("snap") is None
    a.muted = False
    snd = a.sound("snap")
    if snd is None:  # no mixer on this machine: must be silent, not raise
        assert a.play("snap") is None
        return
    assert isinstance(snd, pygame.mixer.Sound)
    assert a.sound("snap") is snd
    a.volume = 0.5
    a.play("snap", volume=0.5)
    assert abs(snd.get_volume() - 0.25) < 0.02
    assert a.sound("no-such-sound") is None


def test_shared_instance():
    assert assets_mod.get_assets() is assets_mod.get_assets()
