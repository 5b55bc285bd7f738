"""Issue 30, point 8: the title's corner cards clear of its buttons, a row's labels set in
one size, the great-yaku banner opaque, the points line naming yaku as the Names setting
says, no tooltip (nor raised card) left over the field after a drop, and the Settings
preview card as large as the table's cards."""

from __future__ import annotations

import math

import pytest
from harness import (drag, human_to_play, load_tool, move, new_match_table, session_where, spy_drawn, step,
                     wait_for)

from koikoi.engine.events import YakuMade
from koikoi.session import SeatConfig
from koikoi.ui import board
from koikoi.ui import widgets as W

pytestmark = pytest.mark.app(anim_speed=0.0, muted=True)
SIZES = [(1280, 720), (1920, 1080)]
EASY = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "easy"))


@pytest.mark.parametrize("size", SIZES + [(960, 540)])
def test_the_titles_corner_cards_stay_clear_of_four_buttons_in_a_row(app, size):
    shot = load_tool("screenshot")
    app.resize(size) if hasattr(app, "resize") else None
    shot.build(app, "title-saved", 3)
    step(app, 0.5)
    title = app.top
    title.resize(size)
    assert title.saved is not None and title.kept
    assert sum(1 for b in title.widgets if b.rect.y == title._button_top) == 4
    for cid, x, y, ang, h in title.scatter:
        w = h * 216 / 348
        rad = math.radians(ang)
        # the card's own corners, turned as drawn
        corners = [(x + dx * math.cos(rad) + dy * math.sin(rad), y - dx * math.sin(rad) + dy * math.cos(rad))
                   for dx in (-w / 2, w / 2) for dy in (-h / 2, h / 2)]
        for b in title.widgets:
            r = b.rect
            inside = [c for c in corners if r.collidepoint(c)]
            assert not inside, (cid, b.label, r, corners)
            # and no button corner inside the card
            for p in (r.topleft, r.topright, r.bottomleft, r.bottomright):
                dx, dy = p[0] - x, p[1] - y
                u = dx * math.cos(rad) - dy * math.sin(rad)
                v = dx * math.sin(rad) + dy * math.cos(rad)
                assert not (abs(u) < w / 2 and abs(v) < h / 2), (cid, b.label, p)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_row_of_labels_is_set_in_one_size(app, size, lang, monkeypatch):
    from koikoi import i18n
    i18n.set_language(lang)
    try:
        sizes = {}
        real = W.draw_text

        def spy(surface, text, font, *a, **kw):
            sizes[text] = font.point_size
            return real(surface, text, font, *a, **kw)
        monkeypatch.setattr(W, "draw_text", spy)
        scene = app.open("newmatch")
        scene.resize(size)
        app.draw()
        rules = {sizes[o.label] for o in scene.rules_row.options}
        assert len(rules) == 1, {o.label: sizes[o.label] for o in scene.rules_row.options}
        opponents = {sizes[o.label] for o in scene.opp_row.options}
        assert len(opponents) == 1
        app.pop()
        shot = load_tool("screenshot")
        shot.build(app, "title-saved", 3)
        step(app, 0.3)
        title = app.top
        title.resize(size)
        app.draw()
        top = title._button_top
        for row in ([b for b in title.widgets if b.rect.y == top], [b for b in title.widgets if b.rect.y != top]):
            assert len({sizes[b.label] for b in row}) == 1, {b.label: sizes[b.label] for b in row}
    finally:
        i18n.set_language("en")


def test_the_great_yaku_banner_is_opaque(app):
    s, scene = new_match_table(app, seed=5, seats=EASY)
    assert wait_for(app, lambda: scene.at_rest(), 30)
    table = scene.table._replace(captured=(("07-A", "10-A", "06-A", "01-P1"), ()))
    scene.director._yaku(YakuMade(0, (("inoshikacho", 5),), 5), table)
    img = scene.banner.image
    w, h = img.get_size()
    inner = [(x, y) for x in range(w // 20, w - w // 20, 3) for y in range(h // 6, h - h // 6, 3)]
    assert all(img.get_at(p).a == 255 for p in inner)


@pytest.mark.parametrize("style, word", [("both", "Sankō"), ("both", "三光"), ("romaji", "Sankō"),
                                         ("english", "Three Brights")])
def test_the_points_line_names_yaku_as_the_names_setting_says(app, monkeypatch, style, word):
    app.settings["name_style"] = style
    s, scene = new_match_table(app, seed=5, seats=EASY)
    assert wait_for(app, lambda: scene.at_rest(), 30)
    scene.stage.pose = scene.stage.pose._replace(table=scene.table._replace(captured=(("01-B", "03-B", "08-B"), ())))
    drawn = spy_drawn(monkeypatch)
    scene.renderer.clear()
    app.draw()
    line = scene.lay.yaku_line[scene.lay.bottom]
    texts = [t for t, r in drawn if r.colliderect(line)]
    assert any(word in t for t in texts), texts


def test_no_tooltip_nor_raised_card_stays_over_the_field_after_a_drop(app):
    app.settings["hints"] = "on"
    s = session_where(lambda s: human_to_play(s, 1), seats=EASY, rules="casual")
    from koikoi.ui.scenes.round import RoundScene
    scene = RoundScene(app, s)
    app.push(scene)
    assert wait_for(app, lambda: scene.my_turn() and scene.at_rest(), 30)
    v = s.view(0)
    card = next(c.id for c in v.hand if len(v.matches(c)) == 1)
    target = v.matches(next(c for c in v.hand if c.id == card))[0].id
    lay = scene.lay
    drop = lay.field[target].center
    drag(app, lay.hand[card].center, drop)
    for _ in range(90):                        # the pointer rests where it let go
        step(app)
        assert not scene.tip.visible and scene.stage.peek is None
    rest = next(r for c, r in scene.lay.field.items())
    move(app, rest.center)
    step(app, 1.0)
    assert scene.tip.visible                   # a move brings the hover back


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("scale", [0.85, 1.0, 1.15])
def test_the_settings_preview_card_is_as_large_as_the_tables(app, size, scale):
    from koikoi.ui.scenes.settings import SettingsScene
    app.settings["card_scale"] = scale
    sc = SettingsScene(app)
    app.push(sc)
    sc.resize(size)
    sc.preview_rect()
    assert sc._preview_h == board.scaled_card_h(size, scale)
    app.draw()
