"""Easy practice on the table: tooltips, glow, the combo inspector, pause and keys (headless)."""

import random

import pygame
import pytest

from koikoi.engine import RULESETS, Play
from koikoi.ui import hints
from koikoi.ui.scenes.inspector import Entry, InspectorScene
from koikoi.ui.scenes.round import RoundScene
from koikoi.session import MatchSession, SeatConfig
from koikoi.ui.tooltip import HoverTimer, place

from harness import (DT, card_with, click, drag, human_move, human_to_play, key, move, new_match_table, post,
                     session_where, step, wait_for)

EASY = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "easy"))
RANDOM = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "random"))

pytestmark = pytest.mark.app(anim_speed=2.0, muted=True)


def table(app, seats=EASY, cond=lambda s: human_to_play(s, 1)):
    s = session_where(cond, seats=seats)
    scene = RoundScene(app, s)
    app.push(scene)
    assert wait_for(app, lambda: scene.my_turn())
    return s, scene


# ---------------------------------------------------------------- pure parts
def test_hover_timer_waits_half_a_second():
    t = HoverTimer()
    t.update(0.0, "a", "01-B", (5, 5))
    t.update(0.3, "a", "01-B", (5, 5))
    assert not t.visible
    t.update(0.25, "a", "01-B", (5, 5))
    assert t.visible and t.card_id == "01-B"
    t.update(0.1, "b", "02-A", (9, 9))          # another card: the delay starts over
    assert not t.visible
    t.update(0.6, "b", "02-A", (9, 9))
    assert t.visible
    t.update(0.1, "b", "02-A", (9, 9), enabled=False)
    assert not t.visible and t.card_id is None
    t.update(1.0, None, None, (9, 9))
    assert not t.visible


def test_tooltip_stays_inside_the_window():
    for pos in [(0, 0), (1279, 719), (1270, 10), (5, 715)]:
        r = place((1280, 720), pos, (300, 120))
        assert pygame.Rect(0, 0, 1280, 720).contains(r)
        assert not r.collidepoint(pos) or pos == (0, 0)


def test_card_lines_and_name_styles():
    assert hints.card_lines("02-A") == ("February · Plum", "Animal / Tane (種)", "Bush warbler")
    assert hints.card_lines("01-P1")[1] == "Plain / Kasu (カス)"
    assert hints.card_lines("08-B", "english")[1] == "Bright (光)"
    assert hints.card_lines("06-RB", "romaji")[1] == "Tanzaku (短冊)"
    assert hints.style_of({"name_style": "nonsense"}) == "both"


def test_near_misses_count_only_cards_still_out():
    s = session_where(lambda s: human_to_play(s), seats=RANDOM)
    v = s.view(0)
    near = hints.near_misses(v, 1)
    for m in near:
        assert m.away in (1, 2) and m.candidates
        assert not set(m.candidates) & {c.id for c in v.captured[0] + v.captured[1]}
        assert 0 <= m.unseen <= len(m.candidates)
        assert m.name not in dict(v.yaku(1))


# ---------------------------------------------------------------- tooltips
def test_tooltip_over_a_field_card_after_half_a_second(app):
    s, scene = table(app)
    cid = scene.lay.field_order[-1]          # drawn last: nothing lies over it
    pos = scene.lay.field[cid].center
    move(app, pos, 0.3)
    assert not scene.tip.visible
    step(app, 0.3)
    assert scene.tip.visible and scene.tip.card_id == cid
    # leaving the card hides it
    move(app, (scene.lay.field_area.right - 5, scene.lay.field_area.bottom - 5), DT)
    assert not scene.tip.visible
    # a hand card too, and a drag start hides it at once
    hand = scene.lay.hand_order[0]
    move(app, scene.lay.hand[hand].center, 0.7)
    assert scene.tip.visible and scene.tip.card_id == hand
    start = scene.lay.hand[hand].center
    post(pygame.MOUSEBUTTONDOWN, pos=start, button=1)
    app.step(DT)
    post(pygame.MOUSEMOTION, pos=(start[0], start[1] - 40), rel=(0, -40), buttons=(1, 0, 0))
    app.step(DT)
    assert scene.drag == hand and not scene.tip.visible
    step(app, 0.8)
    assert not scene.tip.visible
    post(pygame.MOUSEBUTTONUP, pos=start, button=1)
    step(app, 0.3)


def test_tooltip_hides_on_pause_and_comes_back_only_after_the_delay(app):
    s, scene = table(app)
    cid = scene.table.field[0]
    move(app, scene.lay.field[cid].center, 0.7)
    assert scene.tip.visible
    key(app, pygame.K_p)
    from koikoi.ui.scenes.settings import PauseMenuScene
    assert isinstance(app.top, PauseMenuScene)
    assert not scene.tip.visible
    app.pop()
    app.step(DT)
    assert not scene.tip.visible
    step(app, 0.6)
    assert scene.tip.visible


def test_no_tooltip_for_face_down_cards_or_off_easy(app):
    s, scene = table(app)
    for r in scene.lay.opponent_hand[:2] + [scene.lay.stock]:
        move(app, r.center, 0.8)
        assert not scene.tip.visible and scene.tip.card_id is None
        assert scene.face_card_at(r.center) is None
    app.pop()
    s2, scene2 = table(app, seats=RANDOM)
    cid = scene2.table.field[0]
    move(app, scene2.lay.field[cid].center, 1.0)
    assert not scene2.practice() and not scene2.tip.visible


def test_friend_matches_are_not_practice(app):
    seats = (SeatConfig("human", "Player 1"), SeatConfig("human", "Player 2"))
    s = MatchSession(RULESETS["classic"], seed=4, seats=seats)
    scene = RoundScene(app, s)
    assert not scene.practice()


# ---------------------------------------------------------------- glow
def test_capturing_hand_cards_glow_on_easy_only(app):
    s, scene = table(app)
    step(app, 0.1)
    glow, outline, _ = scene.renderer.marks()
    want = hints.capturing_cards(s.view(0))
    assert want and want <= glow
    # selecting a card also glows its month's field cards, and outlines them
    cid = card_with(s, 1)
    click(app, scene.lay.hand[cid].center)
    glow, outline, _ = scene.renderer.marks()
    mates = hints.month_mates(s.view(0), cid)
    assert mates <= glow and mates <= outline and cid in outline
    app.pop()
    s2, scene2 = table(app, seats=RANDOM)
    step(app, 0.1)
    glow, outline, _ = scene2.renderer.marks()
    assert not glow
    cid = card_with(s2, 1)
    click(app, scene2.lay.hand[cid].center)
    glow, outline, _ = scene2.renderer.marks()
    assert not glow and cid in outline and hints.month_mates(s2.view(0), cid) <= outline


# ---------------------------------------------------------------- the inspector
def test_combo_preview_opens_the_inspector_and_it_pauses_the_table(app):
    s, scene = table(app)
    cid = card_with(s, 1)
    click(app, scene.lay.hand[cid].center)
    click(app, scene.lay.field[hints.month_mates(s.view(0), cid).__iter__().__next__()].center)
    assert scene.applied and scene.tl.busy       # the capture is animating
    calls = []
    real = scene.update
    scene.update = lambda dt: (calls.append(dt), real(dt))[1]
    events = len(s.state.events)
    rect = scene.combo_rects[1]
    click(app, rect.center)
    assert isinstance(app.top, InspectorScene) and scene.inspector is app.top
    tl_state = (len(scene.tl.steps), scene.tl.wait, [t.elapsed for t in scene.tl.tweens])
    calls.clear()
    step(app, 3.0)
    assert calls == []                                    # no update below the inspector
    assert (len(scene.tl.steps), scene.tl.wait, [t.elapsed for t in scene.tl.tweens]) == tl_state
    assert len(s.state.events) == events                  # the CPU did not move
    key(app, pygame.K_ESCAPE)
    assert app.top is scene and scene.inspector is None
    assert wait_for(app, lambda: len(s.state.events) > events)   # play goes on
    # P closes it too
    click(app, scene.combo_rects[0].center)
    assert isinstance(app.top, InspectorScene)
    key(app, pygame.K_p)
    assert app.top is scene


def test_inspector_pages(app):
    s, scene = table(app)
    closed = []
    insp = InspectorScene(app, s, 0, 1, practice=True, title="CPU COMBOS", on_close=lambda: closed.append(1))
    insp.entries = [Entry("yaku", "kasu", 1 + i, ("01-P1", "01-P2")) for i in range(9)]
    insp._paginate()
    insp._sync_buttons()
    app.push(insp)
    step(app, 0.2)
    assert len(insp.pages) > 1 and insp.page == 0
    assert sum(len(p) for p in insp.pages) == 9
    assert not insp.prev_b.enabled and insp.next_b.enabled
    click(app, insp.next_b.rect.center)
    assert insp.page == 1
    key(app, pygame.K_LEFT)
    assert insp.page == 0
    for _ in range(10):
        key(app, pygame.K_RIGHT)
    assert insp.page == len(insp.pages) - 1
    click(app, insp.close_b.rect.center)
    assert closed == [1]


def test_inspector_shows_the_award_preview_and_near_misses_on_easy(app):
    s, scene = table(app)
    scene.open_inspector(1)
    insp = app.top
    step(app, 0.2)
    v = s.view(0)
    assert insp.award == v.award(1)
    assert [m.name for m in insp.near] == [m.name for m in hints.near_misses(v, 1)]
    app.pop()
    s2, scene2 = table(app, seats=RANDOM)
    scene2.open_inspector(0)
    assert app.top.near == []


# ---------------------------------------------------------------- keys
def test_keyboard_plays_a_whole_turn(app):
    s, scene = table(app, cond=lambda s: human_to_play(s, 1))
    cid = card_with(s, 1)
    hand = list(scene.lay.hand_order)
    key(app, pygame.K_1 + hand.index(cid))
    assert scene.selected == cid
    key(app, pygame.K_RETURN)
    assert scene.applied[-1] == Play(cid)
    # a few more turns with the keyboard alone: number keys or arrows, Enter, and the stock choice
    for _ in range(3):
        assert wait_for(app, lambda: scene.my_turn() or scene.overlay is not None or scene.closed)
        if not scene.my_turn():
            break
        n = len(scene.applied)
        if s.state.phase_name == "choose_match":
            key(app, pygame.K_RIGHT)
            key(app, pygame.K_RETURN)
        else:
            key(app, pygame.K_RIGHT)
            assert scene.selected in scene.lay.hand_order
            for _ in range(3):
                key(app, pygame.K_RETURN)        # two matches: the first Enter only asks
                if len(scene.applied) > n:
                    break
        assert len(scene.applied) > n


def test_mashing_keys_never_raises(app):
    app.settings["anim_speed"] = 1.0
    s, scene = table(app, seats=RANDOM, cond=lambda s: human_to_play(s))
    rng = random.Random(3)
    keys = [pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_RETURN, pygame.K_SPACE,
            pygame.K_ESCAPE, pygame.K_p, pygame.K_s, pygame.K_k, pygame.K_1, pygame.K_5, pygame.K_9,
            pygame.K_KP_ENTER, pygame.K_TAB, pygame.K_a]
    for i in range(500):
        post(pygame.KEYDOWN, key=rng.choice(keys), mod=0, unicode="", scancode=0)
        app.step(DT)
        top = app.top
        name = type(top).__name__
        if name in ("PauseMenuScene", "SettingsScene", "HowToPlayScene"):
            app.pop()
        elif name == "RoundResultsScene":
            scene._results_close()
        if scene.closed or scene not in app.scenes:
            break
    assert scene.shows_the_fold()


def test_the_flipped_stock_card_can_be_dragged_onto_a_choice(app):
    s = session_where(lambda s: s.state.phase_name == "choose_match" and s.state.to_move == 0, max_steps=80,
                      seats=RANDOM)
    scene = RoundScene(app, s)
    app.push(scene)
    assert wait_for(app, lambda: scene.my_turn())
    v = s.view(0)
    target = v.choices[1].id
    flip = scene.lay.flip.center
    # dropped off the choices: it goes back
    drag(app, flip, (flip[0] + 3, flip[1] + 60))
    assert not scene.applied and scene.drag is None
    step(app, 0.3)
    drag(app, scene.lay.flip.center, scene.lay.field[target].center)
    from koikoi.engine import ChooseMatch
    assert scene.applied[-1] == ChooseMatch(target)


def test_friend_match_replays_the_last_turn_after_the_curtain(app):
    seats = (SeatConfig("human", "Player 1"), SeatConfig("human", "Player 2"))
    app.settings["anim_speed"] = 0
    s, scene = new_match_table(app, seed=9, seats=seats)
    from koikoi.ui.scenes.curtain import CurtainScene
    seen = False
    for _ in range(8):
        wait_for(app, lambda: scene.my_turn() or scene.overlay is not None)
        if isinstance(scene.overlay, CurtainScene):
            prev = scene.me
            click(app, (10, 10))
            if scene.last_turn_text:
                seen = True
                assert scene.last_turn_text.startswith(scene.name(prev) + " played ")
                assert any(f"{scene.name(prev)}'s last turn" in b for b in scene.banner_log)
            continue
        if scene.overlay is not None:
            break
        human_move(app, s, scene)
    assert seen and scene.shows_the_fold()


def _prompt(app, seats):
    s = session_where(lambda s: s.state.phase_name == "decide" and s.state.to_move == 0, max_steps=80,
                      seats=seats)
    scene = RoundScene(app, s)
    app.push(scene)
    assert wait_for(app, lambda: scene.overlay is not None)
    step(app, 0.5)
    return s, scene, scene.overlay


def test_the_coach_line_in_the_prompt_on_easy_only(app):
    s, scene, prompt = _prompt(app, EASY)
    assert prompt.practice
    prompt._coach_thread.join(5)
    text = prompt.coach_text()
    pays = s.view(0).award(0).total
    assert text.startswith("Coach: ") and "of deals like this" in text
    assert text.endswith(f"of deals like this. Stop pays {pays} now.")
    step(app, 0.1)                                     # drawn without trouble
    # a card of the yaku gets a tooltip after half a second
    r, cid = prompt.card_rects[0]
    move(app, r.center, 0.7)
    assert prompt.tip.visible and prompt.tip.card_id == cid
    key(app, pygame.K_k)
    app.pop() if app.top is not scene else None
    s2, scene2, prompt2 = _prompt(app, RANDOM)
    assert not prompt2.practice and prompt2.coach_text() is None


def test_c_opens_the_combos_from_the_keyboard(app):
    s, scene = table(app, seats=RANDOM, cond=lambda s: human_to_play(s))
    key(app, pygame.K_c)
    assert isinstance(app.top, InspectorScene) and app.top.side == 0 and app.top.you
    key(app, pygame.K_ESCAPE)
    assert app.top is scene
    post(pygame.KEYDOWN, key=pygame.K_c, mod=pygame.KMOD_LSHIFT, unicode="C", scancode=0)
    app.step(DT)
    assert isinstance(app.top, InspectorScene) and app.top.side == 1 and not app.top.you
    step(app, 0.1)
    key(app, pygame.K_p)
    assert app.top is scene


def test_combo_preview_lines_never_overlap(app, monkeypatch):
    """More combos than lines, then a near miss: each line of the box is drawn once."""
    from collections import namedtuple

    from koikoi.ui import widgets as W
    from koikoi.ui.scenes import round as round_mod
    s, scene = table(app)
    many = (("ame_shiko", 7), ("tanzaku", 1), ("kasu", 1), ("tane", 1), ("inoshikacho", 5))
    monkeypatch.setattr(scene.hud, "yaku_of", lambda seat: many)
    miss = namedtuple("Miss", "name away")("akatan", 1)
    monkeypatch.setattr(scene.hud, "near_of", lambda seat: [miss])
    drawn = []
    real = W.draw_text

    def spy(surface, text, font, color, pos, anchor="topleft", shadow=True):
        rect = real(surface, text, font, color, pos, anchor, shadow)
        drawn.append((text, anchor, rect))
        return rect

    monkeypatch.setattr(round_mod.W, "draw_text", spy)
    boxes = 0
    for size in ((1280, 720), (1920, 1080), (1024, 600)):
        scene.resize(size)
        surface = pygame.Surface(size)
        for seat in (0, 1):
            drawn.clear()
            scene.combo_rects.clear()
            scene.hud.draw_panel(surface, scene.lay, seat)
            box = scene.combo_rects.get(seat)
            if box is None:
                continue
            boxes += 1
            left = [r for t, a, r in drawn if a == "topleft" and box.contains(r)]
            for i, a in enumerate(left):
                for b in left[i + 1:]:
                    assert not a.colliderect(b), (size, seat, [t for t, _, _ in drawn])
    assert boxes >= 3
