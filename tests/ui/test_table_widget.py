"""The Table widget (issue #14) and the widgets package it lives in: columns,
ellipsized cells, scrolling, hover, keyboard selection, activation, the empty
state; the screens that use it; the package keeps every name of the old module."""

from __future__ import annotations

import pygame
import pytest

from koikoi.ui import theme
from koikoi.ui import widgets as W

ROW_H = 40


pytestmark = pytest.mark.app(seed=7)      # the `app` fixture: tests/ui/conftest.py


COLUMNS = (W.Column("name", "Name", 2), W.Column("score", "Score", 1, "right", bold=True),
           W.Column("note", "Note", 1, "center"))


def rows(n):
    return [{"name": f"Player {i}", "score": str(i), "note": "ok"} for i in range(n)]


def make(app, n=30, **kw):
    table = W.Table(COLUMNS, rows(n), assets=app.assets, row_h=ROW_H, header_h=30, **kw)
    table.place((100, 100, 600, 30 + 6 * ROW_H), s=1.0)
    return table


def keydown(k):
    return pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="")


def motion(pos):
    return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))


def up(pos):
    return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)


def settle(table):
    table.update(0)


@pytest.fixture
def spy(monkeypatch):
    """Every text the widgets draw, with its rect (a spy set on the package reaches its parts)."""
    drawn = []
    real = W.draw_text

    def draw_text(surface, text, font, color, pos, anchor="topleft", shadow=True):
        r = real(surface, text, font, color, pos, anchor, shadow)
        drawn.append((text, tuple(color), r))
        return r

    monkeypatch.setattr(W, "draw_text", draw_text)
    return drawn


# ---------------------------------------------------------------- geometry


def test_columns_share_the_width_and_fixed_ones_keep_theirs(app):
    t = make(app)
    assert [c[3] for c in t.cols] == [300, 150, 150]
    assert [c[2] for c in t.cols] == [100, 400, 550]
    assert t.viewport == pygame.Rect(100, 130, 600, 6 * ROW_H)
    t = W.Table([("a", "A", 1, "left"), W.Column("b", "B", fixed=100)], assets=app.assets)
    t.place((0, 0, 500, 100), s=0.5, row_h=20, header_h=20)
    assert [(k, w) for k, _t, _x, w, _a in t.cols] == [("a", 450), ("b", 50)]
    with pytest.raises(ValueError):
        W.Column("x", align="justify")


def test_rows_and_cells_under_the_mouse(app):
    t = make(app)
    assert t.row_at((150, 131)) == 0 and t.row_at((150, 130 + ROW_H * 2 + 1)) == 2
    assert t.row_at((150, 110)) is None           # the header line
    assert t.column_at(95) == "name" and t.column_at(450) == "score" and t.column_at(705) == "note"
    assert t.cell_rect(2, "score") == pygame.Rect(400, 130 + 2 * ROW_H, 150, ROW_H)


# ---------------------------------------------------------------- input


def test_wheel_and_keys_scroll(app):
    t = make(app, selectable=False)
    assert t.scroller.max_offset == 24 * ROW_H
    for k in (pygame.K_END, pygame.K_HOME, pygame.K_PAGEDOWN, pygame.K_DOWN):
        assert t.handle(keydown(k))
        settle(t)
        if k == pygame.K_END:
            assert t.scroller.offset == t.scroller.max_offset
        elif k == pygame.K_HOME:
            assert t.scroller.offset == 0
    assert t.scroller.offset == pytest.approx(6 * ROW_H * 0.85 + ROW_H)
    t.scroller.scroll_to(0, instant=True)
    pos = pygame.mouse.get_pos()                  # the wheel scrolls the viewport under the mouse
    t.place((pos[0], pos[1] - 30, 600, 30 + 6 * ROW_H))
    assert t.handle(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
    settle(t)
    assert t.scroller.offset > 0


def test_arrow_keys_pick_a_row_and_enter_activates_it(app):
    opened = []
    t = make(app, on_activate=opened.append)
    assert t.handle(keydown(pygame.K_UP)) and t.selected == 29       # from nothing, Up picks the last
    settle(t)
    assert t.scroller.offset == t.scroller.max_offset
    t.select(None)
    for _ in range(8):
        t.handle(keydown(pygame.K_DOWN))
    settle(t)
    assert t.selected == 7
    assert t.scroller.offset == (8 - 6) * ROW_H           # scrolled just enough to show it
    assert t.handle(keydown(pygame.K_RETURN)) and opened == [7]


def test_keys_go_to_the_scroller_while_the_table_does_not_take_them(app):
    free = [False]
    t = make(app, keys=lambda: free[0])
    assert t.handle(keydown(pygame.K_DOWN)) and t.selected is None
    settle(t)
    assert t.scroller.offset == ROW_H
    free[0] = True
    t.handle(keydown(pygame.K_DOWN))
    assert t.selected == 0


def test_hover_click_and_a_column_of_its_own(app):
    opened, noted = [], []
    cols = list(COLUMNS[:2]) + [W.Column("note", "Note", 1, on_click=noted.append)]
    t = W.Table(cols, rows(30), assets=app.assets, on_activate=opened.append, row_h=ROW_H, header_h=30)
    t.place((100, 100, 600, 30 + 6 * ROW_H), s=1.0)
    pos = (200, 130 + ROW_H + 5)
    assert not t.handle(motion(pos))              # motion is never consumed
    assert t.hover == 1 and t.hover_key == "name"
    assert t.handle(up(pos)) and opened == [1]
    assert t.handle(up((650, 135))) and noted == [0] and opened == [1]
    assert not t.handle(up((200, 110)))           # the header: nothing
    t.handle(pygame.event.Event(pygame.WINDOWLEAVE))
    assert t.hover is None
    quiet = make(app, on_activate=opened.append, click=False, hoverable=False)
    quiet.handle(motion(pos))
    assert quiet.hover is None and not quiet.handle(up(pos)) and opened == [1]


def test_new_rows_keep_the_selection_only_while_it_exists(app):
    t = make(app)
    t.select(20)
    t.handle(motion((150, 135)))
    t.set_rows(rows(25))
    assert t.selected == 20 and t.hover == 0
    t.set_rows(rows(5))
    assert t.selected is None and t.scroller.content_height == 5 * ROW_H


# ---------------------------------------------------------------- drawing


def test_cells_fit_their_columns(app, spy):
    long = "A name far too long for its column " * 20
    data = [{"name": long, "score": "9" * 200, "note": W.Cell("x" * 300, theme.BAD, sub="y" * 300)}]
    t = W.Table(COLUMNS, data, assets=app.assets, row_h=ROW_H, header_h=30)
    t.place((100, 100, 600, 200), s=1.0)
    surface = pygame.Surface((800, 400))
    t.draw(surface)
    texts = {text: r for text, _c, r in spy}
    for key, title, x, cw, _align in t.cols:
        assert title.upper() in texts                              # the titles, upper case
        cell = [r for text, _c, r in spy if r.y > 130 and x <= r.centerx < x + cw]
        assert cell and all(x <= r.left and r.right <= x + cw for r in cell), key
    assert any(text.endswith("…") and color == tuple(theme.BAD) for text, color, _r in spy)
    assert sum(1 for text, _c, _r in spy if text.startswith("y")) == 1     # the second line


def test_only_the_visible_rows_are_asked_for_their_cells(app):
    asked = []

    def cells(row):
        asked.append(row["name"])
        return row

    t = W.Table(COLUMNS, rows(5000), cells=cells, assets=app.assets, row_h=ROW_H, header_h=30)
    t.place((100, 100, 600, 30 + 6 * ROW_H), s=1.0)
    t.draw(pygame.Surface((800, 600)))
    assert len(asked) <= 8


def test_drawn_cells_get_their_rect_and_the_hover(app):
    calls = []
    cols = list(COLUMNS[:2]) + [W.Column("note", draw=lambda s, r, i, hot: calls.append((r, i, hot)))]
    t = W.Table(cols, rows(3), assets=app.assets, row_h=ROW_H, header_h=30)
    t.place((100, 100, 600, 30 + 6 * ROW_H), s=1.0)
    t.handle(motion((650, 130 + ROW_H + 1)))
    t.draw(pygame.Surface((800, 600)))
    assert [(i, hot) for _r, i, hot in calls] == [(0, False), (1, True), (2, False)]
    assert calls[1][0] == t.cell_rect(1, "note")


def test_the_empty_state_says_so(app, spy):
    t = W.Table(COLUMNS, [], assets=app.assets, empty="Nothing yet.", empty_detail="Play a match.")
    t.place((100, 100, 600, 300), s=1.0)
    t.draw(pygame.Surface((800, 600)))
    assert [text for text, _c, _r in spy] == ["Nothing yet.", "Play a match."]
    assert spy[0][2].center == t.viewport.center


# ---------------------------------------------------------------- the package


OLD_NAMES = """draw_text render_text text_width wrap_text fit_font ellipsize displayable rounded_surface
soft_shadow draw_panel draw_scrim draw_divider draw_card layout_columns Widget Button Panel Slider Toggle
Choice ChoiceRow FocusGroup Scroller MAX_TEXT_PX MAX_WRAP_LINES SCRIM_ROWS MASK_CACHE_PIXELS _SHAPES _TEXT
_TEXT_LONG _FITS _FITS_LONG _STAND_INS _LONG_KEY _has_glyph _fit_chars _play _rounded_alpha
_supersampled_mask _Cache _assets _rect _is_click_down _is_click_up _ACTIVATE_KEYS""".split()


def test_the_package_keeps_the_names_of_the_old_module():
    missing = [n for n in OLD_NAMES if not hasattr(W, n)]
    assert not missing
    assert W._SHAPES is W.draw._SHAPES and W._FITS is W.text._FITS


def test_setting_a_name_on_the_package_reaches_the_part_that_uses_it(monkeypatch):
    monkeypatch.setattr(W, "MASK_CACHE_PIXELS", 7)
    assert W.draw.MASK_CACHE_PIXELS == 7
    monkeypatch.undo()
    assert W.draw.MASK_CACHE_PIXELS == W.MASK_CACHE_PIXELS == 100_000


def test_no_part_of_the_package_is_long():
    from pathlib import Path
    folder = Path(W.__file__).parent
    lengths = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in folder.glob("*.py")}
    assert len(lengths) >= 7 and max(lengths.values()) <= 600, lengths


# ---------------------------------------------------------------- the screens that use it


def exercise(app, scene, sizes=((1280, 720), (1920, 1080), (640, 360))):
    app.push(scene)
    for size in sizes:
        pygame.display.set_mode(size, pygame.RESIZABLE)
        app.on_window_resized()
        app.step(1 / 60)
        assert scene.size == app.size


def test_saved_matches_empty_and_listed(app):
    from koikoi.engine import RULESETS
    from koikoi.session import MatchSession, SeatConfig
    from koikoi.ui.scenes.saved import SavedMatchesScene
    empty = SavedMatchesScene(app)
    exercise(app, empty)
    assert not empty.table.rows and empty.table.empty == "No saved matches."
    seats = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "random"))
    for seed in (1, 2):
        s = MatchSession(RULESETS["casual"], seed=seed, months=3, seats=seats, store=app.storage)
        app.storage.save_autosave(s)
        app.storage.keep_for_later()
    sc = SavedMatchesScene(app)
    exercise(app, sc)
    assert len(sc.table.rows) == 2 and len(sc.row_buttons) == 2
    resume, drop = sc.row_buttons[0]
    cell = sc.table.cell_rect(0, "actions")
    assert cell.contains(resume.rect.union(drop.rect).inflate(0, -2))


def test_ledger_with_no_rounds_has_no_hint(app, spy):
    from koikoi.engine import RULESETS, new_match
    from koikoi.ui.scenes.ledger import MatchResultsScene
    sc = MatchResultsScene(app, new_match(RULESETS["casual"], seed=1), from_history=True)
    exercise(app, sc)
    spy.clear()
    app.draw()
    texts = [t for t, _c, _r in spy]
    assert "No rounds were played." in texts and not any(t.startswith("Click a round") for t in texts)
