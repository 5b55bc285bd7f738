"""Each screen this package owns: builds, draws and re-lays out at every size;
the widgets behave; the results and ledger read every kind of round."""

from __future__ import annotations

import pygame
import pytest

from koikoi.engine import RULESETS, PickOyagime, apply, new_match
from koikoi.engine.events import LedgerRow, OyagimeDecided, RoundEnded
from koikoi.ui import theme
from koikoi.ui import widgets as W
from koikoi.ui.scenes.history import HistoryScene
from koikoi.ui.scenes.ledger import MatchResultsScene, ledger_cells
from koikoi.ui.scenes.newmatch import NewMatchScene
from koikoi.ui.scenes.oyagime import OyagimeScene, verdict_text
from koikoi.ui.scenes.results import RoundResultsScene, headline, multiplier_text
from koikoi.ui.scenes.settings import SettingsScene, speed_text
from koikoi.ui.scenes.title import HowToPlayScene, TitleScene, rule_notes, yaku_rows
from koikoi.session import MatchSession, SeatConfig

SIZES = ((1280, 720), (1920, 1080), (2560, 1440), (1024, 768), (640, 360))


pytestmark = pytest.mark.app(seed=7)      # the `app` fixture: tests/ui/conftest.py


def cpu_session(seed=3, months=1, rules="casual"):
    seats = (SeatConfig("human", "You"), SeatConfig("cpu", "CPU (Easy)", "random"))
    return MatchSession(RULESETS[rules], seed=seed, months=months, seats=seats)


def finish(session):
    from koikoi.ai import make_player
    players = [make_player("random", seed=1), make_player("random", seed=2)]
    while not session.state.is_over:
        seat = session.state.to_move
        session.apply(players[seat].choose(session.view(seat), session.legal()))
    return session


def resize(app, size):
    pygame.display.set_mode(size, pygame.RESIZABLE)
    app.on_window_resized()


def exercise(app, scene):
    """Draw the scene at every size, with a few frames each."""
    app.push(scene)
    for size in SIZES:
        resize(app, size)
        for _ in range(3):
            app.step(1 / 60)
        assert scene.size == app.size


def row(**kw):
    base = dict(round=2, dealer=0, winner=0, reason="stop",
                yaku=(("sanko", 5, ("01-B", "03-B", "08-B")), ("tsukimi_zake", 5, ("08-B", "09-A"))),
                base=10, multipliers=(("7 points or more", 2), ("opponent called Koi-Koi", 2)),
                award=40, scores=(40, 3), calls=(0, 1))
    base.update(kw)
    return LedgerRow(**base)


# ---------------------------------------------------------------- every screen at every size


def test_title_and_howto(app):
    exercise(app, TitleScene(app))
    how = HowToPlayScene(app, "nintendo")
    exercise(app, how)
    for name in RULESETS:
        how.set_rules(name)
        app.step()
    how.scroller.scroll_to(10 ** 6, instant=True)
    app.step()
    assert how.scroller.offset == how.scroller.max_offset > 0


def test_title_escape_does_not_quit(app):
    app.push(TitleScene(app))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))
    app.step()
    assert app.running


def test_newmatch_settings_history(app):
    exercise(app, NewMatchScene(app))
    exercise(app, SettingsScene(app))
    exercise(app, HistoryScene(app))     # the empty state
    for seed in (1, 2):
        app.storage.save_finished(finish(cpu_session(seed)))
    hist = HistoryScene(app)
    exercise(app, hist)
    resize(app, (1280, 720))
    app.step()
    assert len(hist.matches) == 2
    vp = hist.scroller.viewport
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(vp.centerx, vp.y + hist.row_h // 2), button=1))
    app.step()
    top = app.top
    assert isinstance(top, MatchResultsScene) and top.from_history
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode=""))
    app.step()
    assert app.top is hist


def test_oyagime_scene_and_verdict(app):
    session = cpu_session(seed=5)
    scene = OyagimeScene(app, session)
    exercise(app, scene)
    resize(app, (1280, 720))
    app.step()
    assert scene.human_can_pick()
    scene.pick(2)                       # not yours: ignored
    assert not session.state.picks
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_2, mod=0, unicode="2"))
    for _ in range(60):
        app.step()
        if scene.decided is not None:
            break
    assert scene.decided is not None and scene.go.visible
    ev = next(e for e in session.state.events if isinstance(e, OyagimeDecided))
    text = verdict_text(session, ev)
    assert "comes before" in text or "beats" in text


def test_oyagime_same_month_redraw_is_shown(app):
    for seed in range(2000):
        st = apply(apply(new_match(RULESETS["casual"], seed=seed), PickOyagime(0)), PickOyagime(2))
        if any(isinstance(e, OyagimeDecided) and e.dealer is None for e in st.events):
            break
    else:
        pytest.skip("no same-month oya-gime in the first seeds")
    session = cpu_session(seed=seed)
    scene = OyagimeScene(app, session)
    app.push(scene)
    app.step()
    session.apply(PickOyagime(0))
    session.apply(PickOyagime(2))
    app.settings["anim_speed"] = 1.0
    texts = set()
    for _ in range(400):
        app.step(1 / 30)
        texts.add(scene._prompt()[0])
    assert any("draw again" in t for t in texts)
    assert scene.redraws == 1


# ---------------------------------------------------------------- round results


@pytest.mark.parametrize("r", [
    row(),
    row(winner=1, calls=(2, 0), multipliers=(("you called Koi-Koi", 2),), reason="auto_stop"),
    row(winner=None, reason="exhausted", yaku=(), base=0, multipliers=(), award=0),
    row(winner=1, reason="lucky_hand", yaku=(("teshi_kuttsuki", 6, ("01-B", "01-RP", "01-P1", "01-P2",
                                                                  "02-A", "02-RP", "03-B", "03-RP")),),
        base=6, multipliers=(), award=6),
    row(winner=None, reason="lucky_draw", yaku=(), base=0, multipliers=(), award=0),
    row(yaku=tuple((n, 1, ("01-P1",) * k) for n, k in
                   (("kasu", 12), ("tane", 6), ("tanzaku", 5), ("inoshikacho", 3), ("akatan", 3),
                    ("aotan", 3), ("sanko", 3)))),
], ids=["stop", "auto", "exhausted", "lucky", "lucky_draw", "many"])
def test_round_results_every_kind(app, r):
    session = cpu_session()
    closed = []
    scene = RoundResultsScene(app, session, RoundEnded(r, ((), ())), on_close=lambda: closed.append(1))
    exercise(app, scene)
    resize(app, (1280, 720))
    app.step()
    assert scene.done_revealing
    assert scene.ok.rect.bottom <= scene.panel.bottom
    assert scene.panel.top >= 0 and scene.panel.bottom <= app.size[1]
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    app.step()
    assert closed == [1]


def test_results_reveal_skips_on_first_key(app):
    app.settings["anim_speed"] = 1.0
    scene = RoundResultsScene(app, cpu_session(), RoundEnded(row(), ((), ())), on_close=lambda: None)
    app.push(scene)
    app.step(1 / 60)
    assert not scene.done_revealing
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" "))
    app.step(1 / 60)
    assert scene.done_revealing and not scene._closed


def test_results_words():
    names = ("You", "CPU (Hard)")
    assert headline(row(), names, False)[0] == "You win the round"
    assert headline(row(winner=1), names, False)[0] == "CPU (Hard) wins the round"
    assert headline(row(winner=None, reason="exhausted"), names, False)[0] == "No game"
    assert multiplier_text("opponent called Koi-Koi", 0, names) == "CPU (Hard) called Koi-Koi"
    assert multiplier_text("you called Koi-Koi", 1, names) == "CPU (Hard) called Koi-Koi"


# ---------------------------------------------------------------- ledger


def test_ledger_of_a_real_match_files_it_once(app):
    session = finish(cpu_session(seed=9, months=6))
    scene = MatchResultsScene(app, session)
    MatchResultsScene(app, session)            # built twice: still filed once
    assert len(app.storage.list_finished()) == 1
    exercise(app, scene)
    resize(app, (1280, 720))
    app.step()
    cells = ledger_cells(session.state.ledger[0], scene.names)
    assert cells["round"].startswith("1 · Jan")
    # open a round's details and close them
    vp = scene.scroller.viewport
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(vp.centerx, vp.y + 5), button=1))
    app.step()
    assert isinstance(app.top, RoundResultsScene)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    app.step()
    assert app.top is scene


def test_ledger_scrolls_with_many_rows(app):
    rows = tuple(row(round=i + 1, scores=(i, 0)) for i in range(30))
    state = new_match(RULESETS["casual"], seed=1)._replace(ledger=rows, winner=0, scores=(30, 0))
    scene = MatchResultsScene(app, state, from_history=True)
    exercise(app, scene)
    resize(app, (1280, 720))
    app.step()
    assert scene.scroller.scrollable
    for _ in range(40):
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_DOWN, mod=0, unicode=""))
    for _ in range(30):
        app.step(1 / 60)
    assert scene.key_row == 29
    assert scene.scroller.offset == pytest.approx(scene.scroller.max_offset, abs=1)


def test_rules_texts_cover_every_preset():
    for name, rules in RULESETS.items():
        assert yaku_rows(rules), name
        assert rule_notes(rules), name
    assert not any(r[0] == "hanami_zake" for r in yaku_rows(RULESETS["tournament"]))
    assert any(r[0] == "akatan_aotan" for r in yaku_rows(RULESETS["nintendo"]))
    assert speed_text(0) == "Instant" and speed_text(1.0) == "Normal"


# ---------------------------------------------------------------- widgets


def ev(kind, **kw):
    return pygame.event.Event(kind, **kw)


def test_button_clicks_on_release_inside_only(screen):
    hits = []
    b = W.Button((100, 100, 200, 60), "Go", lambda: hits.append(1), sound=None)
    assert b.handle(ev(pygame.MOUSEBUTTONDOWN, pos=(150, 120), button=1))
    assert b.handle(ev(pygame.MOUSEBUTTONUP, pos=(150, 120), button=1))
    assert hits == [1]
    b.handle(ev(pygame.MOUSEBUTTONDOWN, pos=(150, 120), button=1))
    b.handle(ev(pygame.MOUSEBUTTONUP, pos=(500, 500), button=1))     # dragged off: no click
    assert hits == [1]
    assert not b.handle(ev(pygame.MOUSEBUTTONUP, pos=(150, 120), button=1))   # no press first
    b.enabled = False
    b.handle(ev(pygame.MOUSEBUTTONDOWN, pos=(150, 120), button=1))
    b.handle(ev(pygame.MOUSEBUTTONUP, pos=(150, 120), button=1))
    assert hits == [1]
    b.enabled = True
    b.focused = True
    assert b.handle(ev(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r"))
    assert hits == [1, 1]
    for style in ("primary", "secondary", "danger", "ghost"):
        b.style = style
        for state in ((False, False), (True, False), (True, True)):
            b.hovered, b.pressed = state
            b.draw(screen)
    b.sublabel = "a very long second line that must be fitted into the button"
    b.draw(screen)


def test_slider_toggle_choicerow(screen):
    got = []
    s = W.Slider((100, 100, 400, 40), 0.5, got.append, minimum=0, maximum=2, step=0.25)
    s.handle(ev(pygame.MOUSEBUTTONDOWN, pos=(100, 120), button=1))
    assert s.value == 0.0
    s.handle(ev(pygame.MOUSEMOTION, pos=(500, 120), rel=(0, 0), buttons=(1, 0, 0)))
    assert s.value == 2.0
    s.handle(ev(pygame.MOUSEBUTTONUP, pos=(500, 120), button=1))
    s.focused = True
    s.handle(ev(pygame.KEYDOWN, key=pygame.K_LEFT, mod=0, unicode=""))
    assert s.value == 1.75 and got[-1] == 1.75
    s.draw(screen)

    flips = []
    t = W.Toggle((100, 200, 80, 40), False, flips.append)
    t.handle(ev(pygame.MOUSEBUTTONDOWN, pos=(120, 220), button=1))
    t.handle(ev(pygame.MOUSEBUTTONUP, pos=(120, 220), button=1))
    assert t.value is True and flips == [True]
    t.update(1.0)
    t.draw(screen)

    chosen = []
    row_ = W.ChoiceRow((100, 300, 400, 50), [("a", "A"), ("b", "B"), W.Choice("c", "C", enabled=False)],
                       "a", chosen.append)
    rects = row_.rects()
    row_.handle(ev(pygame.MOUSEBUTTONDOWN, pos=rects[1].center, button=1))
    row_.handle(ev(pygame.MOUSEBUTTONUP, pos=rects[1].center, button=1))
    assert row_.selected == "b" and chosen == ["b"]
    row_.handle(ev(pygame.MOUSEBUTTONDOWN, pos=rects[2].center, button=1))
    row_.handle(ev(pygame.MOUSEBUTTONUP, pos=rects[2].center, button=1))
    assert row_.selected == "b"                         # disabled option
    row_.focused = True
    row_.handle(ev(pygame.KEYDOWN, key=pygame.K_RIGHT, mod=0, unicode=""))
    assert row_.selected == "a"                         # skips the disabled one, wraps
    row_.draw(screen)
    grid = W.ChoiceRow((0, 0, 300, 100), [(i, str(i)) for i in range(6)], 0, columns=3)
    assert len({r.y for r in grid.rects()}) == 2


def test_text_helpers(screen):
    from koikoi.ui.assets import Assets
    a = Assets()
    font = a.font(24)
    r = W.draw_text(screen, "Gokō 五光", font, theme.CREAM, (400, 300), "center")
    assert r.center == (400, 300)
    lines = W.wrap_text("one two three four five six seven eight nine ten", font, 120)
    assert len(lines) > 2 and all(font.size(line)[0] <= 120 for line in lines)
    assert W.ellipsize("a" * 200, font, 100).endswith("…")
    # 80 x's need shrinking to fit 800 px, and fit above the minimum size (the old check here ended in
    # "or True": at 200 px they fit at no size, and fit_font then gives the minimum, asserted below)
    fitted = W.fit_font(a, "x" * 80, 800, 40)
    assert fitted.size("x" * 80)[0] <= 800 and fitted.get_height() < a.font(40).get_height()
    assert W.fit_font(a, "x", 200, 40).get_height() == a.font(40).get_height()    # no need to shrink
    tiny = W.fit_font(a, "x" * 2000, 50, 40, minimum=10)          # fits at no size: the minimum
    assert tiny.get_height() == a.font(10).get_height()
    W.draw_panel(screen, (10, 10, 300, 200))
    W.draw_panel(screen, (10, 10, 1, 1))            # degenerate sizes never crash
    W.draw_card(screen, a.card("01-B", 120), (50, 50), angle=12)
    theme.scale((1, 1))
    assert theme.scale((1920, 1080)) == 1.0 and round(theme.scale((1280, 720)), 3) == 0.667


# ---------------------------------------------------------------- the screenshot tool


@pytest.mark.parametrize("scene", ["title", "ledger", "results"])
def test_screenshot_tool_renders(tmp_path, scene):
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[2] / "tools" / "screenshot.py"
    spec = importlib.util.spec_from_file_location("koikoi_screenshot_tool", path)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    out = tmp_path / f"{scene}.png"
    assert tool.main(["--scene", scene, "--seed", "3", "--size", "960x540", "--out", str(out),
                      "--frames", "5", "--home", str(tmp_path / "home")]) == 0
    img = pygame.image.load(str(out))
    assert img.get_size() == (960, 540)


# ---------------------------------------------------------------- practise and review screens


def test_review_screens_at_every_size(app):
    from koikoi.ui.scenes.replay import ReplayScene
    from koikoi.ui.scenes.house_rules import HouseRulesScene
    from koikoi.ui.scenes.rules_panel import RulesPanelScene, build_rules
    from koikoi.ui.scenes.settings import ConfirmScene
    from koikoi.ui.scenes.stats import StatsScene
    s = finish(cpu_session(seed=4, months=2))
    app.storage.save_finished(s)

    def exercise(app, scene):   # fewer sizes than the others: these screens are many
        app.push(scene)
        for size in ((1280, 720), (1920, 1080), (640, 360)):
            resize(app, size)
            app.step(1 / 60)
            app.step(1 / 60)
            assert scene.size == app.size
    exercise(app, StatsScene(app))
    exercise(app, HouseRulesScene(app, "kk-add-10", {"weather": True}))
    exercise(app, RulesPanelScene(app, build_rules("classic", {"oya_ken": 6}), 3))
    replay = ReplayScene(app, s, 2)
    replay.last()
    exercise(app, replay)
    exercise(app, ConfirmScene(app, "Sure?", "A question.", "Yes", lambda: None))
