"""Long sessions stay small: the caches keep to their budgets at any number of
window sizes, and the ways memory was saved draw the very same pixels."""

from __future__ import annotations

import sys

import pygame
import pytest

from koikoi.engine import RULESETS
from koikoi.engine.events import LedgerRow, RoundEnded
from koikoi.ui import assets as A
from koikoi.ui import widgets as W
from koikoi.ui.memory import tune_malloc
from koikoi.ui.assets import Assets
from koikoi.ui.scenes.results import RoundResultsScene
from koikoi.session import MatchSession, SeatConfig

from harness import new_match_table

CARDS = ("01-B", "03-B", "08-B", "09-A", "11-R", "12-P1")


def _pixels(cache) -> int:
    return sum(v.get_width() * v.get_height() for v in cache.values() if isinstance(v, pygame.Surface))


def test_scaled_cards_stay_within_budget_after_many_sizes(screen):
    a = Assets()
    budget = A._scaled_budget()
    assert budget == max(A.SCALED_MIN_PIXELS, 2 * 1280 * 720)
    for h in range(60, 700, 7):                 # a window dragged through many sizes
        for cid in CARDS:
            a.card(cid, h)
            a.card(cid, h, month_number=False)
        a.back(h)
        assert a._scaled.pixels == _pixels(a._scaled) <= budget
    # the faces of the size now on screen are all still there
    last = A.card_size(h)
    assert all(("card", cid, last, True) in a._scaled for cid in CARDS)
    assert a.card(CARDS[0], h) is a.card(CARDS[0], h)


def test_the_table_is_kept_for_one_size_and_its_vignette_not_at_all(screen):
    a = Assets()
    first = a.table((1280, 720))
    assert a.table((1280, 720)) is first
    for size in ((800, 600), (1024, 768), (1920, 1080)):
        a.table(size)
    assert list(a._tables) == [(1920, 1080)]
    assert "table/vignette.png" not in a._images
    again = a.table((1280, 720))
    assert again is not first and again.get_size() == (1280, 720)
    assert pygame.image.tobytes(again, "RGB") == pygame.image.tobytes(first, "RGB")


def test_fonts_are_bounded(screen):
    a = Assets()
    for size in range(8, 8 + 3 * A.FONT_LIMIT):
        a.font(size)
        a.font(size, bold=True)
    assert len(a._fonts) <= A.FONT_LIMIT
    f = a.font(30, True)
    assert a.font(30, True) is f


def test_the_scrim_is_a_strip_and_dims_exactly_like_a_full_layer(screen):
    for size in ((1280, 720), (333, 97)):
        base = pygame.Surface(size)
        for y in range(0, size[1], 3):
            base.fill(((y * 7) % 256, (y * 3) % 256, 90), pygame.Rect(0, y, size[0], 3))
        ref = base.copy()
        full = pygame.Surface(size, pygame.SRCALPHA)
        full.fill((0, 0, 0, 150))
        ref.blit(full, (0, 0))
        got = base.copy()
        W.draw_scrim(got, (0, 0, 0, 150))
        assert pygame.image.tobytes(got, "RGB") == pygame.image.tobytes(ref, "RGB")
    strips = [v for k, v in W._SHAPES.items() if k[0] == "scrim"]
    assert strips and all(s.get_height() <= W.SCRIM_ROWS for s in strips)


def test_big_masks_are_not_cached_and_panels_look_the_same(screen, monkeypatch):
    size, radius = (900, 600), 14
    W._SHAPES.clear()
    made = W.rounded_surface(size, radius, (13, 21, 18, 252), border=(214, 172, 84), border_width=2)
    assert not [k for k in W._SHAPES if k[0] == "mask" and k[1][0] * k[1][1] > W.MASK_CACHE_PIXELS]
    W._SHAPES.clear()
    assert W._SHAPES.pixels == 0
    monkeypatch.setattr(W, "MASK_CACHE_PIXELS", 10 ** 9)       # every mask cached, as before
    cached = W.rounded_surface(size, radius, (13, 21, 18, 252), border=(214, 172, 84), border_width=2)
    assert [k for k in W._SHAPES if k[0] == "mask"]
    assert pygame.image.tobytes(made, "RGBA") == pygame.image.tobytes(cached, "RGBA")
    W._SHAPES.clear()


def test_big_masks_take_their_corners_from_a_small_one(screen):
    import random
    rng = random.Random(5)
    cases = [((1220, 795), 14), ((1216, 791), 12), ((300, 60), 12), ((41, 40), 20), ((9, 9), 0)]
    cases += [((rng.randint(1, 500), rng.randint(1, 400)), rng.randint(0, 60)) for _ in range(60)]
    for size, radius in cases:
        radius = max(0, min(radius, size[0] // 2, size[1] // 2))
        W._SHAPES.clear()
        got = W._rounded_alpha(size, radius)
        whole = W._supersampled_mask(size, radius, 2)
        assert pygame.image.tobytes(got, "RGBA") == pygame.image.tobytes(whole, "RGBA"), (size, radius)
    W._SHAPES.clear()


@pytest.mark.app(size=(1920, 1080), seed=7, muted=True)
def test_a_round_left_lets_its_layers_go(app):
    from koikoi.ui.scenes.title import TitleScene
    session, scene = new_match_table(app, seed=5)
    for _ in range(5):
        app.step(1 / 60)
    assert scene.renderer.layer is not None and scene.renderer.bg is not None
    app.reset(TitleScene(app))
    assert scene.renderer.layer is None and scene.renderer.bg is None


def _row():
    return LedgerRow(round=2, dealer=0, winner=0, reason="stop",
                     yaku=(("sanko", 5, ("01-B", "03-B", "08-B")), ("tsukimi_zake", 5, ("08-B", "09-A"))),
                     base=10, multipliers=(("7 points or more", 2), ("opponent called Koi-Koi", 2)),
                     award=40, scores=(40, 3), calls=(0, 1))


@pytest.mark.app(size=(1920, 1080), seed=7)
def test_results_keep_only_the_panel_and_draw_the_same(app):
    seats = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "random"))
    session = MatchSession(RULESETS["casual"], seed=3, months=1, seats=seats)
    scene = RoundResultsScene(app, session, RoundEnded(_row(), ((), ())), on_close=lambda: None)
    app.push(scene)
    for _ in range(3):
        app.step(1 / 60)
    assert scene.done_revealing
    img, at = scene._static
    box = pygame.Rect(at, img.get_size())
    assert box.contains(scene.panel) and box.w * box.h < 0.7 * 1920 * 1080
    assert scene._scratch is None
    got = pygame.Surface(app.size)
    got.fill((30, 90, 60))
    scene.draw(got)
    # what the whole-window layer drew
    ref = pygame.Surface(app.size)
    ref.fill((30, 90, 60))
    W.draw_scrim(ref, (0, 0, 0, 150))
    layer = pygame.Surface(app.size, pygame.SRCALPHA)
    scene.draw_content(layer)
    ref.blit(layer, (0, 0))
    for wdg in scene.widgets:
        wdg.draw(ref)
    assert pygame.image.tobytes(got, "RGB") == pygame.image.tobytes(ref, "RGB")


@pytest.mark.app(seed=7, anim_speed=1.0)
def test_the_intro_layer_is_reused_then_dropped(app):
    from koikoi.ui.scenes.title import TitleScene
    scene = TitleScene(app)
    app.push(scene)
    app.step(1 / 60)
    first = scene._scratch
    assert first is not None and first.get_size() == app.size
    app.step(1 / 60)
    assert scene._scratch is first
    for _ in range(240):
        app.step(1 / 60)
    assert scene._scratch is None


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_tune_malloc_on_glibc():
    import ctypes
    libc = ctypes.CDLL(None)
    if not hasattr(libc, "gnu_get_libc_version"):
        pytest.skip("not glibc")
    assert tune_malloc() is True
