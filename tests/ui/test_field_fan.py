"""A month's fan on the field can be read (issue 30, point 2): every covered Bright,
animal or ribbon shows its kind (光 種 短) on the strip the next card leaves uncovered,
the pointer on that strip raises the card whole whatever the Hints setting, and a ring
on a covered card is drawn under the cards lying over it."""

from __future__ import annotations

from itertools import combinations

import pygame
import pytest
from harness import move, new_match_table, step, wait_for

from koikoi.engine import RULESETS
from koikoi.engine import card as card_of
from koikoi.engine.cards import DECK, Kind
from koikoi.engine.events import MatchStarted, RoundDealt
from koikoi.engine.table import fold_all
from koikoi.ui import board

pytestmark = pytest.mark.app(anim_speed=0.0, muted=True)

# Wisteria's ribbon under its Cuckoo, Cherry's poetry ribbon under the Curtain (lesson 3),
# Susuki's three (plain, Geese, Moon), Willow's three (Lightning plain, ribbon, Swallow).
SLOTS = (("04-A", "04-R"), ("03-B", "03-RP"), ("08-A", "08-P1", "08-B"), ("11-R", "11-P", "11-A"),
         ("10-A", "10-RB"), ("02-RP",)) + ((),) * 6
HAND = ("01-B", "05-A", "06-A", "07-A", "09-A", "12-B", "12-P1", "12-P2")


def _table(field):
    t = fold_all([MatchStarted(RULESETS["classic"], 0, 1),
                  RoundDealt(1, 0, (HAND, (None,) * 8), field, (None,) * 24)], 0)
    return t


def _fans():
    """Every two and three cards of one month, as the field can hold them."""
    by_month = {}
    for c in DECK:
        by_month.setdefault(c.month, []).append(c.id)
    for ids in by_month.values():
        for n in (2, 3):
            yield from combinations(ids, n)


@pytest.mark.parametrize("size", [(960, 540), (1280, 720), (1920, 1080)])
@pytest.mark.parametrize("scale", [0.85, 1.0, 1.15])
def test_every_covered_card_shows_its_kind_where_nothing_lies_over_it(size, scale):
    for fan in _fans():
        lay = board.layout(size, _table(fan), card_scale=scale)
        order = [c for c in lay.field_order if c in fan]
        for i, cid in enumerate(order):
            badge = lay.kind_badge(cid)
            if i == len(order) - 1 or card_of(cid).kind == Kind.CHAFF:
                assert badge is None, (fan, cid)       # on top, or a plain: nothing to say
                continue
            assert badge is not None and lay.field[cid].contains(badge), (fan, cid)
            assert badge.w >= 10, (size, scale, badge)
            for later in order[i + 1:]:
                assert not badge.colliderect(lay.field[later]), (fan, cid, later)


def test_a_month_spread_to_choose_from_covers_nothing():
    lay = board.layout((1280, 720), _table(("08-A", "08-P1")), spread_month=8)
    assert not lay.covered and lay.kind_badge("08-P1") is None


def _scene(app, size, slots=SLOTS):
    app.settings["hints"] = "off"
    s, scene = new_match_table(app, seed=5)
    scene.resize(size)
    assert wait_for(app, lambda: scene.at_rest(), 30)
    _deal(app, scene, slots)
    move(app, (2, 2))
    step(app, 0.5)
    assert not scene.practice()
    return scene


def _deal(app, scene, slots):
    scene.stage.pose = scene.stage.pose._replace(table=scene.table._replace(field_slots=slots))
    scene.relayout(scene.stage.pose, instant=True)
    step(app, 0.5)


def _frame(app) -> pygame.Surface:
    app.draw()
    return app.screen.copy()


def _alike(a: pygame.Surface, b: pygame.Surface, rect: pygame.Rect, tol: int = 0) -> bool:
    """Whether ``a`` and ``b`` show the same pixels in ``rect`` (every other one), give or
    take ``tol`` per channel (a card face is 99% opaque: what lies under tints it)."""
    for y in range(rect.top, rect.bottom, 2):
        for x in range(rect.left, rect.right, 2):
            pa, pb = a.get_at((x, y)), b.get_at((x, y))
            if any(abs(pa[i] - pb[i]) > tol for i in range(3)):
                return False
    return True


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_kind_badges_are_drawn_on_the_table(app, size):
    scene = _scene(app, size)
    lay = scene.lay
    screen = _frame(app)
    shown = 0
    for cid in lay.field_order:
        badge = lay.kind_badge(cid)
        if badge is None:
            continue
        img = scene.renderer.kind_badge(card_of(cid).kind, badge.w)
        solid = [(x, y) for y in range(img.get_height()) for x in range(img.get_width())
                 if img.get_at((x, y)).a == 255]
        assert len(solid) > badge.w * badge.h // 4
        assert all(tuple(screen.get_at((badge.x + x, badge.y + y)))[:3] == tuple(img.get_at((x, y)))[:3]
                   for x, y in solid), cid
        shown += 1
    assert shown == 5      # 04-R, 03-RP, 08-A, 11-R, 10-RB; nothing for the plains and the top cards


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_pointer_on_a_covered_card_shows_it_whole_with_hints_off(app, size):
    alone = tuple(("03-RP",) if slot == ("03-B", "03-RP") else slot for slot in SLOTS)
    scene = _scene(app, size, alone)
    lay = scene.lay
    ribbon = lay.field["03-RP"]
    inner = ribbon.inflate(-8, -8)
    reference = _frame(app)                              # the ribbon alone in its slot
    _deal(app, scene, SLOTS)
    assert scene.lay.field["03-RP"] == ribbon
    assert not _alike(_frame(app), reference, inner, tol=6)     # the Curtain over half of it
    move(app, (ribbon.x + 4, ribbon.centery))          # on the strip the Curtain leaves
    step(app, 0.1)
    assert scene.stage.peek == "03-RP"
    assert _alike(_frame(app), reference, inner, tol=6)         # the whole card, over the Curtain
    over_curtain = (scene.lay.field["03-B"].x + 6, ribbon.centery)
    assert scene.face_card_at(over_curtain).key == "03-RP"
    move(app, over_curtain)                              # still on it: it stays up
    step(app, 0.1)
    assert scene.stage.peek == "03-RP"
    move(app, (scene.lay.field["03-B"].right - 4, ribbon.centery))   # off it, onto the Curtain
    step(app, 0.1)
    assert scene.stage.peek is None
    assert not _alike(_frame(app), reference, inner, tol=6)


def test_a_ring_on_a_covered_card_is_drawn_under_the_card_over_it(app, monkeypatch):
    scene = _scene(app, (1280, 720))
    lay = scene.lay
    plain = _frame(app)
    monkeypatch.setattr(scene.policy, "highlighted", lambda: ("03-RP",))    # lesson 3's "look here"
    monkeypatch.setattr(scene, "pulse_t", 0.3)
    step(app, 0.1)
    ringed = _frame(app)
    assert _alike(ringed, plain, lay.field["03-B"].inflate(-4, -4), tol=6)   # the Curtain whole, no ring on it
    left = lay.field["03-RP"]
    assert not _alike(ringed, plain, pygame.Rect(left.x - 6, left.y, 8, left.h))   # the ring is there
