"""The app end to end, headless: clicks are posted pygame events at widget rects."""

from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest

from koikoi.storage import Storage
from koikoi.ui.app import App
from koikoi.ui.scenes import newmatch as newmatch_mod
from koikoi.ui.scenes.ledger import MatchResultsScene
from koikoi.ui.scenes.newmatch import NewMatchScene
from koikoi.ui.scenes.oyagime import OyagimeScene
from koikoi.ui.scenes.results import RoundResultsScene
from koikoi.ui.scenes.settings import SettingsScene
from koikoi.ui.scenes.title import TitleScene
from koikoi.session import SeatConfig

from harness import ROOT, button, click, make_app, pill

pytestmark = pytest.mark.app(seed=42)


# ---------------------------------------------------------------- a whole match


def test_whole_match_title_to_ledger_with_two_cpus(app, monkeypatch):
    cpus = (SeatConfig("cpu", "CPU East", "random"), SeatConfig("cpu", "CPU West", "random"))
    monkeypatch.setattr(newmatch_mod, "make_seats", lambda opponent: (cpus, "random"))
    app.push(TitleScene(app))
    app.step()
    click(app, button(app.top, "New match"))
    dialog = app.top
    assert isinstance(dialog, NewMatchScene)
    click(app, pill(dialog.rules_row, "casual").center)
    click(app, pill(dialog.months_row, 1).center)
    assert dialog.months == 1
    click(app, button(dialog, "Start match"))
    assert isinstance(app.top, OyagimeScene)
    session = app.top.session
    assert app.storage.has_autosave()

    seen_results = 0
    for _ in range(20000):
        top = app.top
        if isinstance(top, MatchResultsScene):
            break
        if isinstance(top, OyagimeScene) and top.go.visible:
            click(app, top.go)
        elif isinstance(top, RoundResultsScene):
            seen_results += 1
            click(app, top.ok)
        else:
            app.step(1 / 60)
    else:
        pytest.fail(f"the match did not reach the ledger; top is {type(app.top).__name__}")
    assert session.state.is_over
    assert seen_results >= 1
    assert len(session.state.ledger) == 1
    app.step()
    # the finished match is filed and the autosave gone
    assert not app.storage.has_autosave()
    finished = app.storage.list_finished()
    assert len(finished) == 1 and finished[0].scores == session.state.scores
    # back to the title: no Continue any more
    click(app, button(app.top, "Title screen"))
    assert isinstance(app.top, TitleScene) and len(app.scenes) == 1
    assert "Continue" not in [getattr(w, "label", None) for w in app.top.widgets]


# ---------------------------------------------------------------- the new-match dialog


def test_new_match_dialog_remembers_the_last_choice(app):
    app.push(TitleScene(app))
    click(app, button(app.top, "New match"))
    d = app.top
    click(app, pill(d.opp_row, "friend").center)
    click(app, pill(d.rules_row, "kk-add-10").center)
    click(app, pill(d.months_row, 9).center)
    assert (d.opponent, d.rules_name, d.months) == ("friend", "kk-add-10", 9)
    click(app, button(d, "Back"))
    assert isinstance(app.top, TitleScene)
    click(app, button(app.top, "New match"))
    d2 = app.top
    assert (d2.opp_row.selected, d2.rules_row.selected, d2.months_row.selected) == ("friend", "kk-add-10", 9)
    # and after a restart
    again = Storage().load_settings()[0]["last_new_match"]
    assert again == {"opponent": "friend", "rules": "kk-add-10", "months": 9}


def test_months_follow_the_rule_set(app):
    app.push(NewMatchScene(app))
    d = app.top
    click(app, pill(d.months_row, 1).center)
    click(app, pill(d.rules_row, "nintendo").center)   # offers 3, 6, 12 only
    assert d.months == 12 and [o.value for o in d.months_row.options] == [3, 6, 12]


def test_friend_match_seats_two_humans(app):
    app.push(NewMatchScene(app))
    d = app.top
    click(app, pill(d.opp_row, "friend").center)
    click(app, button(d, "Start match"))
    s = app.top.session
    assert [x.kind for x in s.seats] == ["human", "human"]
    assert [x.name for x in s.seats] == ["Player 1", "Player 2"]


def test_unbuilt_level_falls_back_to_random(app, monkeypatch):
    monkeypatch.setattr(newmatch_mod, "level_available", lambda level: level == "random")
    app.push(NewMatchScene(app))
    d = app.top
    hard = next(o for o in d.opp_row.options if o.value == "hard")
    assert hard.sublabel == "Not built yet"
    click(app, pill(d.opp_row, "hard").center)
    app.step()
    click(app, button(d, "Start match"))
    s = app.top.session
    assert s.seats[1].level == "random"


# ---------------------------------------------------------------- settings


def test_settings_scene_persists_at_once(app):
    app.push(TitleScene(app))
    click(app, button(app.top, "Settings"))
    sc = app.top
    assert isinstance(sc, SettingsScene)
    click(app, sc.numbers)            # month numbers off
    click(app, sc.mute)               # mute on
    click(app, (sc.speed.rect.x + sc.speed.rect.h // 2, sc.speed.rect.centery))   # instant
    saved, warning = Storage().load_settings()
    assert warning is None
    assert saved["month_numbers"] is False and saved["muted"] is True and saved["anim_speed"] == 0.0
    assert app.assets.muted is True
    click(app, button(sc, "Back"))
    assert isinstance(app.top, TitleScene)
    # a new App starts with them
    pygame.display.quit()
    again = make_app(seed=42)
    assert again.settings["month_numbers"] is False and again.settings["muted"] is True


def test_corrupt_settings_file_is_recovered_with_a_message():
    st = Storage()
    st.settings_path.parent.mkdir(parents=True)
    st.settings_path.write_text("{{{{ definitely not json")
    app = App((1280, 720), storage=Storage())
    try:
        assert app.settings["volume"] == 0.8
        assert any("could not be read" in t.text for t in app.toasts)
        assert list(st.settings_path.parent.glob("settings.json.corrupt-*"))
        app.push(TitleScene(app))
        for _ in range(3):
            app.step()
    finally:
        pygame.display.quit()


# ---------------------------------------------------------------- autosave and Continue


def test_autosave_after_actions_and_continue_restores_it(app):
    app.push(NewMatchScene(app))
    d = app.top
    click(app, pill(d.opp_row, "easy").center)
    click(app, button(d, "Start match"))
    oya = app.top
    session = oya.session
    for _ in range(30):
        app.step()
    click(app, oya.rects[0])            # you turn up your first card
    assert len(session.state.picks) >= 1 or session.state.phase_name != "oyagime"
    for _ in range(200):
        app.step()
        if oya.go.visible:
            break
    assert oya.go.visible
    saved = app.storage.load_autosave()
    assert saved is not None and saved.state == session.state
    # restart the game: the title offers Continue, which restores the identical state
    pygame.display.quit()
    app2 = make_app(seed=42)
    app2.push(TitleScene(app2))
    app2.step()
    cont = button(app2.top, "Continue")
    assert "You" in cont.sublabel
    click(app2, cont)
    restored = app2.top.session
    assert restored.state == session.state
    assert restored.seats == session.seats
    assert restored.on_change is not None


def test_escape_from_oyagime_returns_to_a_title_with_continue(app):
    app.push(NewMatchScene(app))
    click(app, button(app.top, "Start match"))
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
    app.step()
    assert isinstance(app.top, TitleScene)
    assert button(app.top, "Continue")


# ---------------------------------------------------------------- the loop


def test_run_max_frames_and_quit_event(app):
    app.push(TitleScene(app))
    assert app.run(max_frames=5) == 0
    app.running = True
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    app.run(max_frames=50)
    assert app.running is False


def test_resize_relayouts_every_scene_and_tiny_windows_survive(app):
    app.push(TitleScene(app))
    click(app, button(app.top, "How to play"))
    for size in ((1920, 1080), (2560, 1440), (400, 300), (960, 540), (1280, 720)):
        pygame.display.set_mode(size, pygame.RESIZABLE)
        pygame.event.post(pygame.event.Event(pygame.VIDEORESIZE, size=size, w=size[0], h=size[1]))
        app.step()
        assert app.window.get_size() == size
        assert app.size[0] >= min(size[0], 960) and app.size[1] >= min(size[1], 540)
        assert all(s.size == app.size for s in app.scenes)


def test_cli_frames_and_bad_flag(koikoi_home):
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", KOIKOI_HOME=str(koikoi_home),
               KOIKOI_NO_CRASH_SCREEN="1")
    ok = subprocess.run([sys.executable, "-m", "koikoi", "--frames", "30", "--size", "960x540"], cwd=ROOT,
                        env=env, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run([sys.executable, "-m", "koikoi", "--no-such-flag"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2
    lines = [line for line in bad.stderr.splitlines() if line.startswith("koikoi:")]
    assert len(lines) == 1 and "--no-such-flag" in lines[0]
    ver = subprocess.run([sys.executable, "-m", "koikoi", "--version"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=60)
    assert ver.returncode == 0 and "koikoi" in ver.stdout


def test_escape_on_the_table_opens_the_pause_menu(app):
    from koikoi.ui.scenes.newmatch import new_session
    from koikoi.ui.scenes.oyagime import open_round
    from koikoi.ui.scenes.settings import PauseMenuScene
    session = new_session(app, "easy", "casual", 1, seed=4)
    session.apply(session.legal()[0])
    session.apply(session.legal()[0])          # oya-gime done: a round is dealt
    table = open_round(app, session)
    for _ in range(10):
        app.step()
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
    app.step()
    assert isinstance(app.top, PauseMenuScene)
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b"))
    app.step()
    assert app.top is table                    # Escape again resumes
    app.open_pause_menu()
    app.step()
    click(app, button(app.top, "Save and leave to title"))
    assert isinstance(app.top, TitleScene) and len(app.scenes) == 1
    cont = button(app.top, "Continue")
    click(app, cont)
    assert app.top.session.state == session.state
