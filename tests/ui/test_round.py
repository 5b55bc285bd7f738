"""The round table played through scripted mouse and key events (headless).

Every test drives the real RoundScene inside the real App: mouse events are
posted at layout rects and the app is stepped frame by frame.
"""

import os
from dataclasses import replace

import pygame
import pytest

from koikoi.engine import RULESETS, ChooseMatch, KoiKoi, Play, Stop
from koikoi.engine.events import Played, RoundEnded
from koikoi.ui import board
from koikoi.ui.scenes.round import RoundScene
from koikoi.session import MatchSession, SeatConfig

from harness import (DT, card_with, click, drag, empty_field_point, human_move, human_to_play, key,
                     new_match_table, post, session_where, step, wait_for)

pytestmark = pytest.mark.app(anim_speed=2.0, muted=True)


# ---------------------------------------------------------------- harness (the rest is in harness.py)
def open_table(app, session):
    scene = RoundScene(app, session)
    app.push(scene)
    assert wait_for(app, lambda: scene.my_turn() or scene.overlay is not None)
    return scene


def close_results(app, scene):
    overlay = scene.overlay
    key(app, pygame.K_RETURN)
    step(app, 0.1)
    if scene.overlay is overlay and overlay is not None:
        scene._results_close()
        step(app, 0.05)


# ---------------------------------------------------------------- layout
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (2560, 1440), (1024, 768), (2560, 1080)])
def test_layout_has_no_overlapping_hand_or_field_cards(size):
    s = session_where(lambda s: human_to_play(s) and len(s.view(0).field) >= 8, max_steps=12)
    v = s.view(0)
    lay = board.layout(size, v)
    hand = list(lay.hand.values())
    assert len(hand) == len(v.hand)
    for i, a in enumerate(hand):
        assert pygame.Rect(0, 0, *size).contains(a)
        for b in hand[i + 1:]:
            assert not a.colliderect(b)
    for h in hand:
        for f in lay.field.values():
            assert not h.colliderect(f)
        assert not h.colliderect(lay.stock)
    # different months never overlap on the field; the same month overlaps side by side
    ids = list(lay.field)
    for i, a in enumerate(ids):
        for b in ids[i + 1:]:
            if a[:2] != b[:2]:
                assert not lay.field[a].colliderect(lay.field[b]), (a, b)
    for r in (*lay.opponent_hand, lay.stock, lay.flip, *lay.field.values()):
        assert pygame.Rect(0, 0, *size).contains(r)
    # a full field of twelve months still fits
    assert all(pygame.Rect(0, 0, *size).contains(r) for r in lay.field_slots)
    assert lay.card_h >= size[1] * 0.12 or lay.card_h >= size[0] * 0.08


@pytest.mark.parametrize("size", [(1, 1), (40, 30), (200, 120), (640, 360), (5000, 300), (300, 2000)])
def test_layout_survives_any_size(size):
    s = session_where(lambda s: human_to_play(s), max_steps=8)
    lay = board.layout(size, s.view(0))
    assert lay.card_h > 0 and lay.stock is not None and len(lay.field_slots) == 12


def test_field_slots_stay_put():
    """The board lays slot k of the table in one place: a month keeps its place while it stays."""
    from koikoi.engine.events import MatchStarted, Played, RoundDealt
    from koikoi.engine.table import fold, fold_all
    hand = ("01-RP", "04-A", "05-A", "06-A", "07-A", "08-A", "09-A", "10-A")
    field = ("01-B", "02-A", "03-B", "11-A", "12-B", "02-RP", "03-RP", "11-R")
    t = fold_all([MatchStarted(RULESETS["classic"], 0, 1),
                  RoundDealt(1, 0, (hand, (None,) * 8), field, (None,) * 24)], 0)
    lay = board.layout((1280, 720), t)
    t2 = fold(t, Played(0, "01-RP", None, ("01-B",)), 0)
    lay2 = board.layout((1280, 720), t2)
    for cid in ("02-A", "02-RP", "03-B", "11-A", "12-B"):
        assert lay2.field[cid] == lay.field[cid]
    t3 = fold(t2, Played(1, "08-P1", None, ()), 0)     # joins in the freed slot: Pine's place
    lay3 = board.layout((1280, 720), t3)
    assert lay3.field["08-P1"] == lay.field["01-B"] and lay3.field["02-A"] == lay.field["02-A"]


# ---------------------------------------------------------------- playing
def test_click_select_then_click_a_matching_field_card(app):
    s = session_where(lambda s: human_to_play(s, 1))
    scene = open_table(app, s)
    cid = card_with(s, 1)
    target = s.view(0).matches(s.view(0).hand[[c.id for c in s.view(0).hand].index(cid)])[0].id
    click(app, scene.lay.hand[cid].center)
    assert scene.selected == cid
    before = len(s.state.events)
    click(app, scene.lay.field[target].center)
    assert scene.applied[-1] == Play(cid)
    played = [e for e in s.state.events[before:] if isinstance(e, Played)][0]
    assert played.card == cid and target in played.taken
    assert scene.tl.busy and scene.animating
    # the card flies: halfway through it is between its hand slot and the field
    step(app, 0.05)
    assert scene.sprites[cid].flying


def test_drag_and_drop_anywhere_on_the_field_when_one_matches(app):
    s = session_where(lambda s: human_to_play(s, 1))
    scene = open_table(app, s)
    cid = card_with(s, 1)
    drag(app, scene.lay.hand[cid].center, empty_field_point(scene))
    assert scene.applied and scene.applied[-1] == Play(cid)


def test_drag_a_card_without_a_match_onto_the_field(app):
    s = session_where(lambda s: human_to_play(s, 0))
    scene = open_table(app, s)
    cid = card_with(s, 0)
    drag(app, scene.lay.hand[cid].center, empty_field_point(scene))
    assert scene.applied[-1] == Play(cid)
    assert wait_for(app, lambda: cid in scene.table.field or cid in scene.table.captured[0])


def test_two_matches_ask_which_card_to_take(app):
    s = session_where(lambda s: human_to_play(s, 2))
    scene = open_table(app, s)
    cid = card_with(s, 2)
    v = s.view(0)
    a, b = [c.id for c in v.field if c.month == int(cid[:2])]
    # dropping on an empty part of the field does not guess: the card stays selected
    drag(app, scene.lay.hand[cid].center, empty_field_point(scene))
    assert not scene.applied and scene.selected == cid
    assert wait_for(app, lambda: not scene.tl.busy)
    # a non-matching field card is refused with a shake, not an exception
    others = [c.id for c in v.field if c.month != int(cid[:2])]
    if others:
        click(app, scene.lay.field[others[0]].center)
        assert not scene.applied
        scene.selected = cid
    click(app, scene.lay.field[b].center)
    assert scene.applied[-1] == Play(cid, b)


def test_cancel_by_right_click_by_clicking_again_and_by_escape(app):
    s = session_where(lambda s: human_to_play(s))
    scene = open_table(app, s)
    cid = s.view(0).hand[0].id
    pos = scene.lay.hand[cid].center
    click(app, pos)
    assert scene.selected == cid
    click(app, pos, button=3)
    assert scene.selected is None
    click(app, pos)
    click(app, pos)
    assert scene.selected is None
    click(app, pos)
    key(app, pygame.K_ESCAPE)
    assert scene.selected is None and app.top is scene     # Esc cancelled, it did not pause
    # a press that wobbles a few pixels is still a click
    post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
    post(pygame.MOUSEMOTION, pos=(pos[0] + 3, pos[1] + 2), rel=(3, 2), buttons=(1, 0, 0))
    post(pygame.MOUSEBUTTONUP, pos=(pos[0] + 3, pos[1] + 2), button=1)
    app.step(DT)
    assert scene.selected == cid and not scene.applied


def test_illegal_drop_snaps_back(app):
    rules = replace(RULESETS["classic"], must_play_match=True)
    s = session_where(lambda s: human_to_play(s, 0) and human_to_play(s, 1), rules=rules)
    scene = open_table(app, s)
    cid = card_with(s, 0)
    home = scene.lay.hand[cid].center
    drag(app, home, empty_field_point(scene))
    assert not scene.applied                     # must play a matching card
    assert wait_for(app, lambda: not scene.tl.busy and not scene.fx.busy)
    sp = scene.sprites[cid]
    assert (round(sp.pos[0]), round(sp.pos[1])) == home
    # dropping back on the hand is simply nothing
    drag(app, home, (home[0] + 4, home[1] - 30))
    assert not scene.applied


def test_keyboard_selects_and_plays(app):
    s = session_where(lambda s: human_to_play(s, 2))
    scene = open_table(app, s)
    hand = list(scene.lay.hand_order)
    cid = card_with(s, 2)
    key(app, pygame.K_1 + hand.index(cid))
    assert scene.selected == cid
    key(app, pygame.K_RETURN)            # first Enter only asks: it outlines the first match
    assert not scene.applied and scene.target_cursor is not None
    key(app, pygame.K_RIGHT)
    chosen = scene.target_cursor
    key(app, pygame.K_RETURN)
    assert scene.applied[-1] == Play(cid, chosen)


def test_the_stock_choice_is_clicked_and_cannot_be_cancelled(app):
    s = session_where(lambda s: s.state.phase_name == "choose_match" and s.state.to_move == 0, max_steps=80)
    scene = open_table(app, s)
    v = s.view(0)
    assert scene.table.pending == v.pending.id
    click(app, (5, 5), button=3)
    key(app, pygame.K_ESCAPE)              # at most the pause menu: the choice stays
    while app.top is not scene:
        app.pop()
    assert s.state.phase_name == "choose_match" and not scene.applied
    assert scene.table.pending == v.pending.id
    target = v.choices[1].id
    click(app, scene.lay.field[target].center)
    assert scene.applied[-1] == ChooseMatch(target)


def _to_prompt(app):
    s = session_where(lambda s: s.state.phase_name == "decide" and s.state.to_move == 0, max_steps=80)
    scene = RoundScene(app, s)
    app.push(scene)
    assert wait_for(app, lambda: scene.overlay is not None)
    from koikoi.ui.scenes.prompt import KoiKoiPromptScene
    assert isinstance(scene.overlay, KoiKoiPromptScene)
    assert app.top is scene.overlay
    step(app, 0.5)
    return s, scene


def test_koikoi_prompt_answered_by_click(app):
    s, scene = _to_prompt(app)
    prompt = scene.overlay
    pygame.image.save(app.screen, os.path.join(os.environ.get("KOIKOI_SHOTS", "/tmp"), "prompt_test.png"))
    click(app, prompt.koikoi_button.rect.center)
    assert scene.applied[-1] == KoiKoi()
    assert app.top is scene and s.state.calls[0] == 1


def test_koikoi_prompt_answered_by_key(app):
    s, scene = _to_prompt(app)
    key(app, pygame.K_s)
    assert scene.applied[-1] == Stop()
    assert wait_for(app, lambda: scene.overlay is not None)      # the round's results
    assert any(isinstance(e, RoundEnded) for e in s.state.events)


def test_cpu_plays_on_its_worker_thread(app):
    s = session_where(lambda s: human_to_play(s))
    started = []
    real = s.start_cpu
    s.start_cpu = lambda: (started.append(1), real())[1]
    scene = open_table(app, s)
    human_move(app, s, scene)
    n = len(scene.applied)
    assert wait_for(app, lambda: len(scene.applied) > n or s.state.phase_name == "decide")
    assert started and any(isinstance(e, Played) and e.seat == 1 for e in s.state.events[-12:])


def test_hidden_cards_are_never_face_up(app):
    s = session_where(lambda s: human_to_play(s))
    scene = open_table(app, s)
    hidden = {c.id for c in s.view(0).unseen}
    for _ in range(3):
        for sp in scene.sprites.values():
            if sp.face:
                assert sp.cid not in hidden
        human_move(app, s, scene)
        wait_for(app, lambda: scene.my_turn() or scene.overlay is not None)
        hidden = {c.id for c in s.view(0).unseen}
    assert scene.shows_the_fold()


def test_a_full_match_of_one_month_through_the_mouse(app):
    app.settings["anim_speed"] = 0          # instant animations; the game logic is the same
    s, scene = new_match_table(app, seed=7, months=1)
    for _ in range(200):
        wait_for(app, lambda: scene.my_turn() or scene.overlay is not None or scene.closed, 60)
        if scene.closed:
            break
        if scene.overlay is not None:
            name = type(scene.overlay).__name__
            if name == "KoiKoiPromptScene":
                key(app, pygame.K_k)
            elif name == "CurtainScene":
                click(app, (10, 10))
            else:
                close_results(app, scene)
            continue
        human_move(app, s, scene)
    assert s.state.is_over and scene.closed
    assert scene not in app.scenes            # replaced by the match results
    assert scene.shows_the_fold()


def test_a_round_at_normal_speed_with_animations(app):
    app.settings["anim_speed"] = 1.0
    s, scene = new_match_table(app, seed=3)
    step(app, 0.3)
    assert scene.animating and scene.stock_extra > 0      # still dealing
    moves = 0
    while moves < 4:
        assert wait_for(app, lambda: scene.my_turn() or scene.overlay is not None, 30)
        if scene.overlay is not None:
            break
        human_move(app, s, scene)
        moves += 1
    assert scene.shows_the_fold()


def test_friend_match_curtain_between_turns(app):
    seats = (SeatConfig("human", "Player 1"), SeatConfig("human", "Player 2"))
    app.settings["anim_speed"] = 0
    s, scene = new_match_table(app, seed=9, seats=seats)
    from koikoi.ui.scenes.curtain import CurtainScene
    for _ in range(6):
        wait_for(app, lambda: scene.my_turn() or scene.overlay is not None)
        if isinstance(scene.overlay, CurtainScene):
            seat = s.state.to_move
            click(app, (10, 10))
            assert scene.me == seat
            continue
        if scene.overlay is not None:
            break
        mover = s.state.to_move
        assert scene.me == mover
        # what the bottom seat sees face up is its own; the other hand stays face down
        for sp in scene.sprites.values():
            if sp.key.startswith("opp"):
                assert not sp.face and sp.cid is None
        human_move(app, s, scene)
    assert scene.shows_the_fold()


def test_resize_keeps_everything_in_place(app):
    s = session_where(lambda s: human_to_play(s))
    scene = open_table(app, s)
    scene.resize((1920, 1080))
    assert scene.lay.size == (1920, 1080)
    for cid, r in scene.lay.hand.items():
        sp = scene.sprites[cid]
        assert (round(sp.pos[0]), round(sp.pos[1])) == r.center


def test_the_layout_reads_a_public_table_and_a_view_alike():
    s = session_where(lambda s: human_to_play(s), max_steps=8)
    from koikoi.engine.table import fold_all
    t = fold_all(s.public_events(0, 0), 0)
    by_table, by_view = board.layout((1280, 720), t), board.layout((1280, 720), s.view(0))
    assert set(by_table.hand) == set(by_view.hand) and set(by_table.field) == set(by_view.field)
    assert len(by_table.opponent_hand) == len(by_view.opponent_hand) == t.opponent_hand_count


CPU_CPU = (SeatConfig("cpu", "East", "random"), SeatConfig("cpu", "West", "random"))


def _watch(app, session, until, limit=60.0):
    """A CPU-vs-CPU table from the first deal on (the oya-gime has its own scene);
    returns the scene once ``until(scene)``."""
    while session.state.phase_name == "oyagime":
        session.apply(session.cpu_move_now())      # the CPUs draw, as the oya-gime scene has them
    scene = RoundScene(app, session)
    app.push(scene)
    t = 0.0
    while t < limit and not until(scene):
        if scene.overlay is not None and type(scene.overlay).__name__ == "RoundResultsScene":
            close_results(app, scene)
        app.step(DT)
        t += DT
    return scene


@pytest.mark.parametrize("knob,value,seed,title", [
    ("field_four_of_month", "dealer_sweeps", 42, "Field sweep"),
    ("field_four_of_month", "redeal", 42, "Misdeal"),
    ("lucky_hands", "on", 52, "Teshi"),
])
def test_special_deals_are_announced(app, knob, value, seed, title):
    app.settings["anim_speed"] = 0
    rules = replace(RULESETS["classic"], **{knob: value})
    s = MatchSession(rules, seed=seed, seats=CPU_CPU)
    scene = _watch(app, s, lambda sc: any(title in b or title in b.replace("手四", "Teshi") for b in sc.banner_log)
                   or sc.closed, 20)
    joined = " | ".join(scene.banner_log)
    assert title.lower() in joined.lower() or (title == "Teshi" and "lucky" in joined.lower()), joined
    assert scene.shows_the_fold()


def test_no_game_when_the_hands_run_out(app):
    app.settings["anim_speed"] = 0
    s = MatchSession(RULESETS["classic"], seed=0, seats=CPU_CPU, months=1)
    scene = _watch(app, s, lambda sc: sc.closed, 60)
    assert "No game" in scene.banner_log and scene.closed
    assert scene.shows_the_fold()


def test_resizing_mid_animation_and_drawing_at_odd_sizes(app):
    s, scene = new_match_table(app, seed=12)
    step(app, 0.2)                                   # mid-deal
    for size in [(1920, 1080), (960, 540), (2560, 1440), (1000, 900), (300, 200), (1280, 720)]:
        scene.resize(size)
        surf = pygame.Surface(size)
        scene.draw(surf)
        step(app, 0.05)
    assert wait_for(app, lambda: scene.my_turn() or scene.overlay is not None)
    assert scene.shows_the_fold()
    for cid, r in scene.lay.hand.items():
        assert scene.sprites[cid].pos[:2] == (r.centerx, r.centery)


def test_the_stock_choice_by_keyboard_asks_first(app):
    s = session_where(lambda s: s.state.phase_name == "choose_match" and s.state.to_move == 0, max_steps=80)
    scene = open_table(app, s)
    ids = [c.id for c in s.view(0).choices]
    key(app, pygame.K_RETURN)                 # outlines the first choice, takes nothing yet
    assert scene.target_cursor == ids[0] and not scene.applied
    key(app, pygame.K_RIGHT)
    assert scene.target_cursor == ids[1]
    key(app, pygame.K_RETURN)
    assert scene.applied[-1] == ChooseMatch(ids[1])


def test_choices_are_laid_apart_while_choosing(app):
    s = session_where(lambda s: s.state.phase_name == "choose_match" and s.state.to_move == 0, max_steps=80)
    scene = open_table(app, s)
    step(app, 0.1)
    a, b = [scene.lay.field[c.id] for c in s.view(0).choices]
    assert not a.colliderect(b)


@pytest.mark.parametrize("scale", [0.85, 1.15])
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (1024, 768), (2560, 1080)])
def test_card_scale_setting_still_fits(size, scale):
    s = session_where(lambda s: human_to_play(s) and len(s.view(0).field) >= 8, max_steps=12)
    v = s.view(0)
    base = board.layout(size, v)
    lay = board.layout(size, v, card_scale=scale)
    assert (lay.card_h > base.card_h) if scale > 1 else (lay.card_h < base.card_h)
    screen = pygame.Rect(0, 0, *size)
    hand = list(lay.hand.values())
    for i, a in enumerate(hand):
        assert screen.contains(a)
        assert not any(a.colliderect(b) for b in hand[i + 1:])
        assert not any(a.colliderect(f) for f in lay.field.values())
    for r in (*lay.field_slots, lay.stock, lay.flip, *lay.opponent_hand):
        assert screen.contains(r)
    slots = lay.field_slots
    for i, a in enumerate(slots):
        for b in slots[i + 1:]:
            assert not a.colliderect(b)


def test_p_pauses_and_esc_pauses_only_with_nothing_selected(app):
    s = session_where(lambda s: human_to_play(s))
    scene = open_table(app, s)
    key(app, pygame.K_p)
    assert type(app.top).__name__ == "PauseMenuScene"
    app.pop()
    click(app, scene.lay.hand[scene.lay.hand_order[0]].center)
    key(app, pygame.K_ESCAPE)
    assert app.top is scene and scene.selected is None
    key(app, pygame.K_ESCAPE)
    assert type(app.top).__name__ == "PauseMenuScene"
