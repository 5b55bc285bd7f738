"""Lists that can overflow say so or scroll (issue 30, point 3): the combo previews and the
ledger's yaku column show whole yaku then "+N more" (the pointer on it shows them all, also
from the table's cached panels), New match's "Scoring in these rules" scrolls to its last
note, and the Keys panel shows every key's whole text, wrapped, at both sizes."""

from __future__ import annotations

import pygame
import pytest
from harness import move, new_match_table, spy_drawn, step, wait_for

from koikoi import i18n
from koikoi.ui import widgets as W
from koikoi.ui.hints import yaku_label

pytestmark = pytest.mark.app(anim_speed=0.0, muted=True)

# Three Brights with the sake cup, the three poetry and three blue ribbons, Boar, Deer and
# Butterflies: Sankō, both sake-cup yaku, Akatan, Aotan, Inoshikachō, Tan and Tane at once.
PILE = ("01-B", "03-B", "08-B", "09-A", "01-RP", "02-RP", "03-RP", "06-RB", "09-RB", "10-RB",
        "07-A", "10-A", "06-A", "05-A")


def _spy(monkeypatch) -> list:
    return spy_drawn(monkeypatch)


@pytest.fixture(params=["en", "ja"])
def lang(request):
    before = i18n.language()
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language(before)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_combo_previews_show_whole_yaku_then_how_many_more(app, size, lang, monkeypatch):
    s, scene = new_match_table(app, seed=5, rules="classic")
    scene.resize(size)
    assert wait_for(app, lambda: scene.at_rest(), 30)
    t = scene.table
    scene.stage.pose = scene.stage.pose._replace(table=t._replace(captured=(PILE[:7], PILE)))
    scene.relayout(scene.stage.pose, instant=True)
    step(app, 0.3)
    style = scene.name_style()
    scene.renderer.clear()
    drawn = _spy(monkeypatch)
    app.draw()
    monkeypatch.undo()
    app.draw()                                        # the panels from the cached layer
    cuts = W.cuts_shown()
    for seat in (0, 1):
        yaku = scene.hud.yaku_of(seat)
        labels = {f"{yaku_label(n, style, short=True)} {p}" for n, p in yaku}
        box = scene.hud.combo_rects[seat]
        inside = [text for text, r in drawn if box.contains(r) and text not in ("›", "—")
                  and text != scene.hud.combo_title(seat)]
        assert inside, seat
        shown = set()
        for text in inside:
            for part in text.replace("\u00a0", " ").split("·"):
                part = part.strip()
                more = any(part == W.more_text(n) for n in range(1, 20))
                count = part == i18n.ngettext("{n} yaku", "{n} yaku", len(yaku)).format(n=len(yaku))
                assert part in labels or more or count, (seat, part, text)    # never a label cut in two
                shown.add(part)
        if not labels <= shown:                        # some left out: said, and whole on hover
            assert any(W.more_text(n) in " ".join(inside) for n in range(1, 20)) or count, inside
            hover = [whole for r, whole in cuts if r.colliderect(box)]
            assert hover and all(label in hover[0] for label in labels), (seat, hover)
    assert len(scene.hud.yaku_of(1)) >= 7


def test_fit_items_keeps_whole_items_and_counts_the_rest(app):
    font = app.assets.font(20)
    items = ["Sankō 5", "Hanami-zake 5", "Tsukimi-zake 5", "Inoshikachō 5", "Akatan 5"]
    whole = "  ·  ".join(items)
    assert W.fit_items(items, font, W.text_width(whole, font)) == (whole, 0)
    for width in range(60, W.text_width(whole, font), 17):
        text, hidden = W.fit_items(items, font, width)
        assert W.text_width(text, font) <= width or hidden == len(items) - 1
        assert hidden >= 1 and text.endswith(W.more_text(hidden))
        kept = text[:-len(W.more_text(hidden))].rstrip(" ·").split("  ·  ")
        assert kept == items[:len(items) - hidden] or (hidden == len(items) - 1 and kept[0].endswith("…"))


def test_the_ledgers_yaku_column_says_how_many_more_and_shows_them_on_hover(app, monkeypatch):
    from koikoi.engine.events import LedgerRow
    from koikoi.ui.scenes.ledger import ledger_row_cells
    names = ("You", "CPU")
    yaku = (("sanko", 5, ()), ("hanami", 5, ()), ("tsukimi", 5, ()), ("inoshikacho", 5, ()),
            ("akatan", 5, ()), ("aotan", 5, ()))
    row = LedgerRow(round=1, dealer=0, winner=0, reason="stop", yaku=yaku, base=30, multipliers=(),
                    award=30, scores=(30, 0), calls=(0, 0))
    cell = ledger_row_cells(row, names)["yaku"]
    assert cell.items == tuple(yaku_label(n, "romaji") for n, _p, _i in yaku)
    from koikoi.ui.scene import Scene

    class One(Scene):
        def enter(self):
            self.table = W.Table([W.Column("yaku", "Yaku", 1.0)], [row], cells=lambda r: {"yaku": cell},
                                 assets=self.app.assets)
            self.table.place(pygame.Rect(100, 100, 300, 300), s=0.67, row_h=44, header_h=30)

        def draw(self, surface):
            self.table.draw(surface)
    drawn = _spy(monkeypatch)
    app.push(One(app))
    step(app)
    text = next(t for t, _r in drawn if W.more_text(2) in t or W.more_text(3) in t or W.more_text(4) in t)
    assert not text.split(W.more_text(1)[0])[0].rstrip(" ,").endswith("…")
    kept = [p.strip() for p in text[:text.rindex("+")].split(",") if p.strip()]
    assert kept == list(cell.items[:len(kept)])        # whole names, in order
    assert any(whole == cell.text for _r, whole in W.cuts_shown())


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_scoring_notes_scroll_to_the_last_one(app, size, lang, monkeypatch):
    scene = app.open("newmatch")
    scene.resize(size)
    scene.set_opponent("friend")
    scene.set_rules("koikoi-japan")
    app.draw()
    notes = [n for n, _h in scene.scoring_notes()]
    assert len(notes) >= 8
    sc = scene.scroller
    if sc.scrollable:
        assert notes[-1] not in scene.notes_shown
        move(app, sc.viewport.center)
        monkeypatch.setattr(pygame.mouse, "get_pos", lambda: sc.viewport.center)
        for _ in range(40):
            pygame.event.post(pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=-1, flipped=False))
            step(app, 0.05)
        sc.scroll_to(sc.target, instant=True)
        app.draw()
        assert sc.offset == sc.max_offset
    assert notes[-1] in scene.notes_shown               # the last note, whole, in view
    assert scene.notes_shown


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_keys_panel_shows_every_keys_whole_text(app, size, lang, monkeypatch):
    from koikoi.ui.scenes.keyhelp import KEYS
    s, scene = new_match_table(app, seed=5)
    scene.resize(size)
    assert wait_for(app, lambda: scene.at_rest(), 30)
    scene.open_keys()
    step(app, 0.3)
    drawn = _spy(monkeypatch)
    app.draw()
    texts = [t for t, _r in drawn]
    assert not any(t.endswith("…") for t in texts)
    joined = "".join(texts).replace(" ", "")
    for keys, what in KEYS:
        assert i18n._(keys) in texts
        assert i18n._(what).replace(" ", "") in joined, what
