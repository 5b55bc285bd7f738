"""The frames of History and Statistics with thousands of matches (issue 26, item 12): what a
frame does is counted here (the times are tools/bench_history.py's).

* a big panel and its shadow are stretched from small ones (koikoi.ui.widgets.nine_slice): the
  opening frame scales and blurs no full-size surface, and the pixels are those of the shape
  made whole;
"""

from __future__ import annotations

import os

import pygame
import pytest

from koikoi.storage import Storage

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")


@pytest.fixture
def display():
    pygame.display.init()
    pygame.display.set_mode((320, 200))
    yield
    pygame.display.quit()


def _largest_difference(a: pygame.Surface, b: pygame.Surface) -> tuple[int, int]:
    """(largest colour difference, largest alpha difference) over every pixel."""
    assert a.get_size() == b.get_size()
    pa, pb = pygame.image.tobytes(a, "RGBA"), pygame.image.tobytes(b, "RGBA")
    colour = alpha = 0
    for channel in range(4):
        d = max(abs(x - y) for x, y in zip(pa[channel::4], pb[channel::4]))
        if channel == 3:
            alpha = d
        else:
            colour = max(colour, d)
    return colour, alpha


def _whole_and_stretched(monkeypatch, make):
    from koikoi.ui.widgets import draw
    draw._SHAPES.clear()
    with monkeypatch.context() as m:
        m.setattr(draw, "STRETCH_FROM", 10 ** 12)         # every shape made whole, as before
        whole = make()
    draw._SHAPES.clear()
    return whole, make()


@pytest.mark.parametrize("size,radius,width,border", [
    ((1500, 724), 14, 2, True),       # History's panel at 1920x1080
    ((901, 333), 14, 3, True),
    ((3000, 1448), 28, 4, True),      # a 4K window
    ((1500, 58), 8, 0, False),        # a row's band
    ((640, 201), 12, 1, True),
])
def test_a_stretched_panel_has_the_pixels_of_one_made_whole(display, monkeypatch, size, radius, width, border):
    from koikoi.ui import theme
    from koikoi.ui.widgets import draw
    whole, stretched = _whole_and_stretched(monkeypatch, lambda: draw.rounded_surface(
        size, radius, theme.PANEL if border else theme.PANEL_ROW, border=theme.GOLD if border else None,
        border_width=width))
    colour, alpha = _largest_difference(whole, stretched)
    # the inside of one made whole is its fill scaled and blended, within 2 levels of the fill
    assert colour <= 2 and alpha <= 2, (colour, alpha)
    assert stretched.get_at((0, 0)) == whole.get_at((0, 0))               # the rounded corner is cut
    assert stretched.get_at((size[0] // 2, 0)) == whole.get_at((size[0] // 2, 0))    # the gold border


@pytest.mark.parametrize("size,radius,spread", [((1500, 724), 14, 18), ((900, 333), 14, 18),
                                                ((1500, 724), 21, 27), ((1001, 777), 14, 9)])
def test_a_stretched_shadow_has_the_pixels_of_one_made_whole(display, monkeypatch, size, radius, spread):
    from koikoi.ui.widgets import draw
    whole, stretched = _whole_and_stretched(monkeypatch, lambda: draw.soft_shadow(
        size, radius, spread=spread, alpha=110))
    colour, alpha = _largest_difference(whole, stretched)
    # black everywhere; the blur's ramp sampled at another scale differs by a few levels of 110
    assert colour == 0 and alpha <= 6, (colour, alpha)


def test_history_opens_without_scaling_or_blurring_a_full_size_surface(koikoi_home, monkeypatch):
    """Made whole, History's panel (1500x724 at 1920x1080) was its body scaled to the inside of
    the border, and its shadow a blur scaled up to 1536x760: 40-90 ms of the opening frame."""
    from koikoi.ui.app import App
    from koikoi.ui.scenes.history import HistoryScene
    from koikoi.ui.scenes.title import TitleScene
    from koikoi.ui.widgets import draw
    app = App((1920, 1080), storage=Storage())
    try:
        app.settings["anim_speed"] = 0.0
        app.push(TitleScene(app))
        app.step(1 / 60)                    # the game's start: the title's frame
        draw._SHAPES.clear()                # History's shapes are made by its own first frame
        made = []
        for name in ("smoothscale", "gaussian_blur", "scale"):
            real = getattr(pygame.transform, name)

            def spy(surface, *args, _real=real, _name=name, **kw):
                out = _real(surface, *args, **kw)
                made.append((max(surface.get_width() * surface.get_height(), out.get_width() * out.get_height()),
                             _name, surface.get_size(), out.get_size()))
                return out
            monkeypatch.setattr(pygame.transform, name, spy)
        app.push(HistoryScene(app))
        app.step(1 / 60)
        app.storage.history_index.wait(30)
        assert made, "the panel was not drawn"
        assert max(made)[0] <= 100_000, f"a full-size surface was scaled: {max(made)}"
    finally:
        app.storage.history_index.close()
