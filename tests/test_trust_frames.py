"""The frames of History and Statistics with thousands of matches (issue 26, item 12): what a
frame does is counted here (the times are tools/bench_history.py's).

* a big panel and its shadow are stretched from small ones (koikoi.ui.widgets.nine_slice): the
  opening frame scales and blurs no full-size surface, and the pixels are those of the shape
  made whole;
* the full collection a rebuild's new objects are due waits for an idle moment of the app's
  loop (koikoi.gc_pacing.idle), not for the next frame's allocations;
* the rows a rebuild brings are drawn ahead a few a frame (Table.warm) and shown at once, in a
  frame that renders no text of theirs.
"""

from __future__ import annotations

import gc
import os

import pygame
import pytest

from koikoi import gc_pacing
from koikoi import stats as S
from koikoi.storage import Storage
from koikoi.ui import theme
from koikoi.ui.app import App
from koikoi.ui.scenes import history
from koikoi.ui.scenes.history import HistoryScene
from koikoi.ui.scenes.stats import StatsScene
from koikoi.ui.scenes.title import TitleScene
from koikoi.ui.widgets import draw, text
from koikoi.ui.widgets import table as table_module

from test_index_frames import _frames_until_built, filed_without_index, rebuilding  # noqa: F401 - a fixture
from test_index_rebuild import long_match

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
    whole, stretched = _whole_and_stretched(monkeypatch, lambda: draw.soft_shadow(
        size, radius, spread=spread, alpha=110))
    colour, alpha = _largest_difference(whole, stretched)
    # black everywhere; the blur's ramp sampled at another scale differs by a few levels of 110
    assert colour == 0 and alpha <= 6, (colour, alpha)


def test_history_opens_without_scaling_or_blurring_a_full_size_surface(koikoi_home, monkeypatch):
    """Made whole, History's panel (1500x724 at 1920x1080) was its body scaled to the inside of
    the border, and its shadow a blur scaled up to 1536x760: 40-90 ms of the opening frame."""
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


# ---------------------------------------------------------------------- the full collection


@pytest.fixture
def rebuilt_index():
    """An index rebuilt from nothing on its worker thread (12 matches), and a record of the
    full collections from then on."""
    filed_without_index(12)
    store = Storage()
    index = store.history_index
    index.pool_from = 0
    index.wait(30)
    full = []

    def watch(phase, info):
        if phase == "start" and info["generation"] == 2:
            full.append(info)
    store.history_index.wait(30)
    gc_pacing.idle()                    # what the filing's own worker deferred
    threshold = gc.get_threshold()
    index.refresh(wait=True)
    gc.callbacks.append(watch)
    yield index, full
    gc.callbacks.remove(watch)
    gc_pacing.idle()
    index.close()
    assert gc.get_threshold() == threshold


def _allocate_like_frames():
    """As many long-lived objects as a rebuild of thousands leaves: on the collector's own
    schedule they start a full collection within the next allocations."""
    kept = []
    for _ in range(40):
        kept.append([[] for _ in range(10_000)])
    return kept


def test_the_full_collection_after_a_rebuild_waits_for_an_idle_moment(rebuilt_index):
    index, full = rebuilt_index
    assert not index.busy and gc.isenabled()
    kept = _allocate_like_frames()
    assert full == [], "a full collection ran in the frames after the rebuild"
    assert gc_pacing.due()
    assert gc_pacing.idle()                         # the app's loop, before its idle wait
    assert len(full) == 1 and not gc_pacing.due()
    assert not gc_pacing.idle()                     # nothing more to do
    del kept


def test_a_full_collection_never_waits_for_ever(rebuilt_index, monkeypatch):
    """Without an idle moment (the player busy all along) the collector's schedule comes back."""
    index, full = rebuilt_index
    monkeypatch.setattr(gc_pacing, "DEFER_AT_MOST", 0.0)
    kept = _allocate_like_frames()
    assert not gc_pacing.due()
    kept += _allocate_like_frames()
    assert full, "no full collection on the collector's own schedule"
    del kept


def test_no_idle_collection_while_a_worker_runs():
    gc_pacing.hold()
    try:
        gc_pacing.hold()
        gc_pacing.release()
        assert not gc.isenabled()                   # one worker still runs
    finally:
        gc_pacing.release()
    assert gc.isenabled() and gc_pacing.due()
    gc_pacing.hold()
    try:
        assert not gc_pacing.idle()
    finally:
        gc_pacing.release()
    assert gc_pacing.idle()


# ---------------------------------------------------------------------- rows drawn ahead


def test_the_first_rows_are_drawn_ahead_one_a_frame_and_shown_at_once(rebuilding, monkeypatch):
    """A screenful of rows drawn for the first time rendered every cell's text in one frame
    (22-23 ms at 1920x1080); drawn ahead within the frame's budget (none here: one row a frame),
    no frame draws more than one new row, and none is drawn on screen before it is ready."""
    app = rebuilding
    monkeypatch.setattr(history, "WARM_BUDGET", 0.0, raising=False)
    seen_rows: set = set()
    frame = {"new_rows": 0, "drawing": False, "texts_on_screen": 0}
    per_frame = []
    real_row, real_draw, real_get = table_module.Table._draw_row, table_module.Table.draw, text._TEXT.get_or

    def draw_row(self, surface, i):
        key = self.rows[i].path.name
        if key not in seen_rows:
            seen_rows.add(key)
            frame["new_rows"] += 1
        return real_row(self, surface, i)

    def draw(self, surface):
        frame["drawing"] = bool(self.rows)          # (not the message that stands in for no rows)
        try:
            return real_draw(self, surface)
        finally:
            frame["drawing"] = False

    def get_or(key, make):
        if frame["drawing"] and key not in text._TEXT:
            frame["texts_on_screen"] += 1
        return real_get(key, make)
    monkeypatch.setattr(table_module.Table, "_draw_row", draw_row)
    monkeypatch.setattr(table_module.Table, "draw", draw)
    monkeypatch.setattr(text._TEXT, "get_or", get_or)
    text._TEXT.clear()

    def watch(phase):
        if phase == "drawn":
            per_frame.append(frame["new_rows"])
            frame["new_rows"] = 0
    scene = _frames_until_built(app, watch)
    assert len(scene.matches) == 24
    assert len(seen_rows) >= 6, "the rows on screen were not drawn"
    assert max(per_frame) <= 1, f"rows drawn for the first time in one frame: {max(per_frame)}"
    assert frame["texts_on_screen"] == 0, f"{frame['texts_on_screen']} texts rendered while drawing the table"


def test_a_divider_has_the_pixels_it_had(display):
    """Made as one row of bytes instead of a fill per column (1-5 ms for History's rule)."""

    def per_column(w, width, color):
        line = pygame.Surface((w, width), pygame.SRCALPHA)
        for x in range(w):
            t = x / max(1, w - 1)
            line.fill((*color[:3], int(255 * min(1.0, 4 * min(t, 1 - t)))), pygame.Rect(x, 0, 1, width))
        return line
    for w in list(range(1, 64)) + [199, 640, 1427, 1428, 3001]:
        for width, color in ((1, theme.GOLD), (2, theme.GOLD_DARK), (3, (10, 20, 30, 40))):
            draw._SHAPES.clear()
            draw.draw_divider(pygame.Surface((w + 2, 4), pygame.SRCALPHA), 0, w, 0, color, width)
            made = draw._SHAPES[("divider", w, width, tuple(color))]
            assert pygame.image.tobytes(made, "RGBA") == pygame.image.tobytes(per_column(w, width, color), "RGBA"), w


class _CountedRows(list):
    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def test_history_counts_its_summary_once_for_its_rows(rebuilding):
    """The line under the title (matches played, won, lost) walked every row in every frame:
    5-8 ms a frame at 5,000 matches. Counted again only when the rows change."""
    app = rebuilding
    scene = _frames_until_built(app, lambda phase: None)
    assert len(scene.matches) == 24
    scene.matches = _CountedRows(scene.matches)
    scene.table.set_rows(scene.matches)
    app.step(1 / 60)
    first = _CountedRows.walks
    for _ in range(5):
        app.step(1 / 60)
    assert _CountedRows.walks == first, f"the rows were walked {_CountedRows.walks - first} times in 5 frames"


def test_statistics_fold_the_same_rows_once(rebuilding, monkeypatch):
    """Folding 5,000 rows into statistics took 20-30 ms of every opening of Statistics: opened
    again on the same rows, it takes what it folded; a new row folds them again."""
    app = rebuilding
    app.storage.history_index.refresh(wait=True)
    folds = []
    real = S.from_entries
    monkeypatch.setattr(S, "from_entries", lambda entries: folds.append(len(entries)) or real(entries))
    shown = []
    for _ in range(3):
        scene = StatsScene(app)
        app.push(scene)
        app.step(1 / 60)
        app.storage.history_index.wait(30)
        shown.append(scene.stats.overall.matches)
        app.pop()
    assert shown == [24, 24, 24]
    assert folds == [24], folds
    app.storage.file_match(long_match(99))
    app.storage.history_index.wait(30)
    scene = StatsScene(app)
    app.push(scene)
    app.step(1 / 60)
    assert scene.stats.overall.matches == 25 and folds[-1] == 25


def test_the_app_loop_gives_the_deferred_collection_its_idle_moment(koikoi_home, monkeypatch):
    """App.wait_idle (the loop's wait for input when nothing moves) is where gc_pacing.idle
    runs: without the call the deferred full collection waited its 20 s and then came back on
    the collector's own schedule, inside some frame."""
    calls = []
    monkeypatch.setattr(gc_pacing, "idle", lambda: calls.append(1) or False)
    app = App((1280, 720), storage=Storage())
    try:
        app.push(TitleScene(app))
        app.step(1 / 60)
        assert calls == []                      # a frame being drawn is no idle moment
        app.wait_idle(1)
        assert calls == [1]
    finally:
        app.storage.history_index.close()
