"""What a seasoned player expects of the table (#15): the CPU's last turn marked and
logged, its pace and hurrying, banners out of the way, the fan of a month, the panel's
score row, the great yaku's moment, the menu and the keys."""

from __future__ import annotations

import re

import pygame
import pytest
from harness import (DT, click, human_move, key, new_match_table, post, session_where, spy_drawn, step,
                     wait_for)

from koikoi.engine import RULESETS, Phase
from koikoi.engine.events import MatchStarted, Played, RoundDealt, YakuMade
from koikoi.engine.table import fold_all
from koikoi.session import SeatConfig
from koikoi.ui import board
from koikoi.ui.scenes.round import RoundScene

pytestmark = pytest.mark.app(anim_speed=2.0, muted=True)
IDS = re.compile(r"\d\d-[A-Z]")
EASY = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "easy"))


def spy_texts(monkeypatch) -> list:
    """Every (text, rect) the widgets draw from now on."""
    return spy_drawn(monkeypatch)


def panel_at(app, size, seats=EASY):
    """A table at rest at ``size``."""
    s, scene = new_match_table(app, seed=5, seats=seats)
    scene.resize(size)
    assert wait_for(app, lambda: scene.at_rest(), 30)
    return s, scene


def after_cpu_turn(app, seed=5):
    """A table where the CPU has just taken a turn and the player is to move."""
    s, scene = new_match_table(app, seed=seed, seats=EASY)
    for _ in range(6):
        assert wait_for(app, lambda: scene.my_turn() or scene.overlay is not None, 30)
        if scene.overlay is not None:
            pytest.skip("a prompt came first for this seed")
        if scene.director.marks:
            return s, scene
        human_move(app, s, scene)
    raise AssertionError("the CPU never took a turn")


def test_the_cpus_last_turn_stays_marked_until_the_player_moves(app):
    s, scene = after_cpu_turn(app)
    marks = scene.director.marks
    cpu_turn = [e for e in s.state.events if isinstance(e, Played) and e.seat == 1][-1]
    assert cpu_turn.card in marks
    arrows = [how for how in marks.values() if how is not None]
    assert arrows and all(scene.renderer.origin(*how) is not None for how in arrows)
    # The ring and the arrow are drawn over the table: the frame differs from one without.
    with_marks = pygame.Surface(app.size)
    scene.draw(with_marks)
    saved = scene.director.turns
    scene.director.turns = []
    plain = pygame.Surface(app.size)
    scene.draw(plain)
    scene.director.turns = saved
    assert pygame.image.tobytes(with_marks, "RGB") != pygame.image.tobytes(plain, "RGB")
    human_move(app, s, scene)
    step(app, DT)
    assert not scene.director.marks


def test_the_turn_log_says_the_last_turns_in_words(app):
    s, scene = after_cpu_turn(app)
    lines = scene.hud.log_lines()
    assert lines and lines[-1].startswith("CPU: played ")
    assert not any(IDS.search(line) for line in lines)
    assert any(line.startswith("You: played ") for line in lines) or len(lines) == 1


def test_the_pace_setting_and_hurrying_set_the_cpus_tempo(app, monkeypatch):
    s, scene = new_match_table(app, seed=5, seats=EASY)
    assert wait_for(app, lambda: scene.at_rest(), 30)
    cpu = 1
    scene.director.table = scene.table._replace(to_move=cpu)    # as while the CPU plays
    monkeypatch.setattr(scene.ctx, "my_turn", lambda: False)
    for pace, factor in (("relaxed", 1.6), ("normal", 1.0), ("quick", 0.55)):
        app.settings["pace"] = pace
        assert scene.driver.tempo() == pytest.approx(1 / factor)
    app.settings["pace"] = "normal"
    post(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)
    step(app, DT)
    assert scene.driver.hurrying() and scene.driver.tempo() == pytest.approx(3.0)
    post(pygame.KEYUP, key=pygame.K_SPACE, mod=0, unicode=" ", scancode=0)
    step(app, DT)
    assert not scene.driver.hurrying()
    app.settings["pace"] = "bogus"
    assert scene.driver.pace() == 1.0


def test_a_banner_fades_as_soon_as_cards_move(app):
    s, scene = new_match_table(app, seed=5, seats=EASY)
    assert wait_for(app, lambda: scene.my_turn(), 30)
    scene.banner_now("You call Koi-Koi!", "こいこい", 5.0)
    human_move(app, s, scene)
    step(app, 0.6)
    assert scene.banner is None or scene.banner.life - scene.banner.t < 0.35


def test_the_prompt_never_shows_an_old_banner(app):
    s = session_where(lambda s: s.state.phase_name == Phase.DECIDE and s.state.to_move == 0, max_steps=200)
    scene = RoundScene(app, s)
    app.push(scene)
    scene.banner_now("Old news", "", 9.0)
    scene.prompt()
    assert scene.banner is None


def test_a_months_cards_fan_with_the_plainest_underneath():
    # Cherry: its Curtain (a Bright) dealt first, a chaff after; Pine: chaff then Crane.
    hand = ("04-A", "05-A", "06-A", "07-A", "08-A", "09-A", "10-A", "11-A")
    field = ("03-B", "03-P1", "01-P1", "01-B", "02-A", "12-B", "11-B", "08-B")
    t = fold_all([MatchStarted(RULESETS["classic"], 0, 1),
                  RoundDealt(1, 0, (hand, (None,) * 8), field, (None,) * 24)], 0)
    lay = board.layout((1280, 720), t)
    for bright, chaff in (("03-B", "03-P1"), ("01-B", "01-P1")):
        assert lay.field_order.index(bright) > lay.field_order.index(chaff)   # drawn over it
        assert lay.field[bright].x > lay.field[chaff].x                        # fully in view


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_long_score_and_a_call_never_collide(app, size, monkeypatch):
    s, scene = panel_at(app, size)
    scene.stage.pose = scene.stage.pose._replace(
        table=scene.table._replace(scores=(166, 16), calls=(3, 1)))
    drawn = spy_texts(monkeypatch)
    surface = pygame.Surface(size)
    for seat in (0, 1):
        drawn.clear()
        scene.hud.draw_panel(surface, scene.lay, seat)
        boxes = [r for text, r in drawn if text.startswith(("16", "pts", "こいこい"))]
        for i, a in enumerate(boxes):
            assert all(not a.colliderect(b) for b in boxes[i + 1:]), drawn
        assert all(scene.lay.panel[seat].contains(r) for _t, r in drawn)


def test_a_great_yaku_gets_its_moment_with_its_cards(app):
    s, scene = new_match_table(app, seed=5, seats=EASY)
    assert wait_for(app, lambda: scene.at_rest(), 30)
    pile = ("07-A", "10-A", "06-A", "01-P1")
    table = scene.table._replace(captured=(pile, ()))
    wait = scene.director._yaku(YakuMade(0, (("inoshikacho", 5),), 5), table)
    assert "猪鹿蝶" in scene.banner_log[-1] and wait > 1.0
    plain = scene.director._yaku(YakuMade(0, (("inoshikacho", 5), ("kasu", 1)), 6), table)
    assert plain < 1.0          # held before: an ordinary banner this time


def test_the_menu_and_keys_buttons_and_keys(app):
    s, scene = new_match_table(app, seed=5, seats=EASY)
    assert wait_for(app, lambda: scene.my_turn(), 30)
    menu, keys = scene.buttons
    click(app, menu.rect.center)
    assert type(app.top).__name__ == "PauseMenuScene"
    app.pop()
    click(app, keys.rect.center)
    assert type(app.top).__name__ == "KeysScene"
    key(app, pygame.K_ESCAPE)
    assert app.top is scene
    key(app, pygame.K_F1)
    assert type(app.top).__name__ == "KeysScene"
    click(app, (5, 5))
    assert app.top is scene
    post(pygame.TEXTINPUT, text="?")
    step(app, DT)
    assert type(app.top).__name__ == "KeysScene"
    surface = pygame.Surface(app.size)
    app.top.draw(surface)


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_a_few_yaku_in_a_small_panel_are_said_in_full(app, size, monkeypatch):
    s, scene = panel_at(app, size)
    three = (("akatan", 5), ("tanzaku", 1), ("kasu", 1))
    monkeypatch.setattr(scene.hud, "yaku_of", lambda seat: three)
    drawn = spy_texts(monkeypatch)
    for seat in (0, 1):
        scene.hud.draw_panel(pygame.Surface(size), scene.lay, seat)
    said = " | ".join(text for text, _r in drawn)
    assert "…" not in said and all(f"{n} " in said or n in said for n in ("Akatan", "Tanzaku", "Kasu"))


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_cpus_name_is_never_cut_beside_the_dealers_badge(app, size, monkeypatch):
    seats = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Medium)", "easy"))
    s, scene = panel_at(app, size, seats)
    scene.stage.pose = scene.stage.pose._replace(table=scene.table._replace(dealer=1))
    texts = spy_texts(monkeypatch)
    scene.hud.draw_panel(pygame.Surface(size), scene.lay, 1)
    drawn = [text for text, _r in texts]
    assert "CPU (Medium)" in drawn and "親" in drawn


def test_the_hints_setting_reaches_the_table_at_any_level(app):
    medium = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "medium"))
    s, scene = panel_at(app, (1280, 720), medium)
    assert not scene.practice()                 # auto: Easy only
    app.settings["hints"] = "on"
    assert scene.practice()
    app.settings["hints"] = "off"
    s2, easy = panel_at(app, (1280, 720))
    assert not easy.practice()


@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080)])
def test_the_guidance_over_the_hand_stays_inside_the_hand_zone(app, monkeypatch, size):
    """Issue 30, point 6: the Japanese prompt for a stock card matching two field cards ran under
    the left panel at 1280x720 and lost its first character: the line now fits the hand's width
    (a smaller font, then two lines)."""
    from koikoi import i18n
    s, scene = panel_at(app, size)
    i18n.set_language("ja")
    try:
        msg = i18n._("The stock card matches two: click the one to take, or drag the card onto it")
        long_msg = msg + msg
        for text in (msg, long_msg):
            monkeypatch.setattr(scene.hud, "guidance", lambda text=text: text)
            drawn = spy_texts(monkeypatch)
            scene.hud.draw_guidance(app.screen, scene.lay)
            hz = scene.lay.hand_zone
            lines = [(t, r) for t, r in drawn]
            assert "".join(t for t, _r in sorted(lines, key=lambda tr: tr[1].top)) == text
            assert all(hz.left <= r.left and r.right <= hz.right for _t, r in lines), (hz, lines)
    finally:
        i18n.set_language("en")
