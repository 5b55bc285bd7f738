"""The ``koikoi`` command: flags, shortcuts, exit codes, and crash safety."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pygame
import pytest

from koikoi import __main__ as cli
from koikoi import __version__
from koikoi.storage import Storage

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _clean_logging(clean_logging):
    """Every test here: the shared clean_logging (tests/conftest.py)."""
    yield


def _env(home, **extra) -> dict:
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", KOIKOI_HOME=str(home),
               KOIKOI_NO_CRASH_SCREEN="1", PYTHONPATH=str(ROOT))
    env.update({k: str(v) for k, v in extra.items()})
    return env


def koikoi(home, *args, timeout=120, **extra) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "koikoi", *args], cwd=ROOT, env=_env(home, **extra),
                          capture_output=True, text=True, timeout=timeout)


# ---------------------------------------------------------------- flags


def test_help_lists_every_flag(koikoi_home):
    r = koikoi(koikoi_home, "--help")
    assert r.returncode == 0
    for flag in ("--size", "--fullscreen", "--seed", "--frames", "--reset-settings", "--version",
                 "--install-shortcut", "--uninstall-shortcut"):
        assert flag in r.stdout
    assert not (koikoi_home / "config").exists()      # --help starts nothing


def test_version(koikoi_home):
    r = koikoi(koikoi_home, "--version")
    assert r.returncode == 0 and r.stdout.strip() == f"koikoi {__version__}"


@pytest.mark.parametrize("args, word", [
    (["--no-such-flag"], "--no-such-flag"),
    (["--size", "big"], "WIDTHxHEIGHT"),
    (["--size", "10x10"], "out of range"),
    (["--frames", "-3"], ">= 0"),
    (["--seed", "abc"], "whole number"),
    (["--frames"], "expected one argument"),
    (["--install-shortcut", "--uninstall-shortcut"], "not allowed"),
])
def test_bad_flags_are_one_line_and_status_2(koikoi_home, args, word):
    r = koikoi(koikoi_home, *args)
    assert r.returncode == 2
    lines = [line for line in r.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("koikoi:") and word in lines[0], r.stderr
    assert r.stdout == ""


def test_frames_and_size_run_the_game_and_exit_0(koikoi_home):
    r = koikoi(koikoi_home, "--frames", "10", "--size", "960x540")
    assert r.returncode == 0, r.stderr
    saved = json.loads((koikoi_home / "config" / "settings.json").read_text())
    assert saved["window_size"] == [960, 540]             # the window had that size
    log = (koikoi_home / "logs" / "koikoi.log").read_text(encoding="utf-8")
    assert "window 960x540" in log                        # logging went to the log file


def test_reset_settings(koikoi_home):
    cfg = koikoi_home / "config"
    cfg.mkdir()
    (cfg / "settings.json").write_text(json.dumps({"volume": 0.25, "muted": True}))
    r = koikoi(koikoi_home, "--reset-settings", "--frames", "3", "--size", "800x600")
    assert r.returncode == 0, r.stderr
    saved = json.loads((cfg / "settings.json").read_text())
    assert saved["volume"] == 0.8 and saved["muted"] is False


class _Seen:
    app = None


@pytest.fixture
def no_loop(monkeypatch):
    """Run main() in-process, recording the App instead of running its loop."""
    from koikoi.ui.app import App
    seen = _Seen()

    def run(self, max_frames=None):
        seen.app = self
        seen.max_frames = max_frames
        self.step()
        return 0
    monkeypatch.setattr(App, "run", run)
    yield seen
    pygame.display.quit()


def test_fullscreen_seed_and_frames_reach_the_app(no_loop):
    assert cli.main(["--fullscreen", "--seed", "1234", "--frames", "7"]) == 0
    app = no_loop.app
    assert app.fullscreen is True
    assert app.seed == 1234 and no_loop.max_frames == 7
    from koikoi.ui.scenes.newmatch import new_session
    assert new_session(app, "easy", "casual", 1).state.seed == 1234   # every new match deals from it
    assert type(app.top).__name__ == "TitleScene"
    assert app.read_only is False


def test_size_reaches_the_app(no_loop):
    assert cli.main(["--size", "1024x600"]) == 0
    assert no_loop.app.size == (1024, 600)


# ---------------------------------------------------------------- shortcuts


def test_install_and_uninstall_shortcut_without_pygame(tmp_path, koikoi_home):
    home = tmp_path / "home"
    (home / "Desktop").mkdir(parents=True)
    extra = dict(HOME=home, XDG_DATA_HOME=home / ".local" / "share", XDG_CONFIG_HOME=home / ".config",
                 PATH="/usr/bin:/bin")
    code = ("import sys; from koikoi.__main__ import main; rc = main(sys.argv[1:]); "
            "print('PYGAME-LOADED' if 'pygame' in sys.modules else 'NO-PYGAME'); sys.exit(rc)")
    env = _env(koikoi_home, **extra)
    r = subprocess.run([sys.executable, "-c", code, "--install-shortcut"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    entry = home / ".local" / "share" / "applications" / "koikoi.desktop"
    assert entry.is_file() and (home / "Desktop" / "koikoi.desktop").is_file()
    assert str(entry) in r.stdout                       # it says where things went
    assert "NO-PYGAME" in r.stdout                      # no window, no pygame
    assert not (koikoi_home / "config" / "settings.json").exists()

    r = subprocess.run([sys.executable, "-c", code, "--uninstall-shortcut"], cwd=ROOT, env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert not entry.exists() and not (home / "Desktop" / "koikoi.desktop").exists()
    assert "Removed" in r.stdout and "NO-PYGAME" in r.stdout


def test_shortcut_failure_is_status_1(monkeypatch, capsys):
    from koikoi import launcher

    def fail(**kw):
        raise OSError(30, "Read-only file system")
    monkeypatch.setattr(launcher, "install_shortcut", fail)
    monkeypatch.setattr(launcher, "uninstall_shortcut", fail)
    assert cli.main(["--install-shortcut"]) == 1
    assert cli.main(["--uninstall-shortcut"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and all(line.startswith("koikoi: could not") for line in err)


# ---------------------------------------------------------------- crash safety


def test_a_crash_mid_round_loses_nothing(koikoi_home, monkeypatch, capsys):
    """An exception in the middle of a round: run_guarded reports it (exit 1), the
    log has the traceback, and Continue restores the exact position."""
    from koikoi.crash import run_guarded, uninstall_excepthook
    from koikoi.logsetup import setup_logging
    from koikoi.ui.app import App
    from koikoi.ui.scenes import round as round_mod
    from koikoi.engine import RULESETS
    from koikoi.ui.scenes.oyagime import open_round
    from koikoi.ui.scenes.title import TitleScene
    from koikoi.session import MatchSession, SeatConfig

    monkeypatch.setenv("KOIKOI_NO_CRASH_SCREEN", "1")
    log_path = setup_logging(Storage().log_dir)
    real_update = round_mod.RoundScene.update
    frames = {"n": 0}
    box = {}

    def exploding_update(self, dt):
        real_update(self, dt)
        frames["n"] += 1
        st = self.session.state
        if frames["n"] >= 5 and len(st.events) > box["start"] + 8 and st.phase_name == "play":
            raise RuntimeError("boom in the middle of a round")
    monkeypatch.setattr(round_mod.RoundScene, "update", exploding_update)

    def play():
        app = App((960, 540), storage=Storage(), seed=5)
        app.settings["anim_speed"] = 0.0
        box["app"] = app
        seats = (SeatConfig("cpu", "CPU East", "random"), SeatConfig("cpu", "CPU West", "random"))
        session = MatchSession(RULESETS["casual"], seed=5, months=3, seats=seats, on_change=app.autosave)
        while session.state.phase_name == "oyagime":
            session.apply(session.legal()[0])
        box["session"] = session
        box["start"] = len(session.state.events)
        open_round(app, session, replace=False)
        for _ in range(3000):          # the real loop, without waiting for the clock
            app.step(1 / 60)
        return 0

    try:
        status = run_guarded(play, log_path=log_path)
    finally:
        uninstall_excepthook()
        pygame.display.quit()
    assert status == 1
    assert "boom in the middle of a round" in capsys.readouterr().err
    assert "boom in the middle of a round" in Path(log_path).read_text(encoding="utf-8")
    crashed = box["session"]
    assert len(crashed.state.events) > box["start"] + 8 and crashed.state.phase_name == "play"
    monkeypatch.setattr(round_mod.RoundScene, "update", real_update)

    # start again: Continue restores the identical position
    app = App((960, 540), storage=Storage())
    try:
        app.push(TitleScene(app))
        app.step()
        assert app.top.saved is not None
        cont = next(w for w in app.top.widgets if getattr(w, "label", "") == "Continue")
        pos = cont.rect.center
        pygame.event.post(pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        app.step()
        restored = app.top.session
        assert restored.state == crashed.state
        assert restored.seats == crashed.seats
    finally:
        pygame.display.quit()


# ---------------------------------------------------------------- the idle loop (no timing asserted)


def test_idle_loop_waits_for_events_and_keeps_their_order(koikoi_home):
    from koikoi.ui.app import App
    from koikoi.ui.scenes.title import TitleScene
    app = App((960, 540), storage=Storage())
    try:
        app.push(TitleScene(app))
        seen = []
        real = app.dispatch
        app.dispatch = lambda e: (seen.append(e.type), real(e))[1]
        app.settings["anim_speed"] = 0.0
        app.step()                                 # window events from opening it
        app.toasts.clear()
        app._last_input -= 60
        assert not app.busy
        before = app.idle_frames
        app.run(max_frames=2)                      # idle: blocks in event.wait, no busy loop
        assert app.idle_frames == before + 2
        app.running = True
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_a, mod=0, unicode="a"))
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_a, mod=0))
        app._last_input -= 60
        assert app.wait_idle(50) is True            # the first event wakes the wait...
        seen.clear()
        app.step()
        assert seen[:2] == [pygame.KEYDOWN, pygame.KEYUP]   # ...and is handled first, in order
        # minimised: no drawing, and the next input brings it back
        frame = app.frame
        app.dispatch(pygame.event.Event(pygame.WINDOWMINIMIZED))
        app.draw = lambda: (_ for _ in ()).throw(AssertionError("drew while minimised"))
        app.step()
        assert app.minimised and app.frame == frame + 1
        del app.draw
        app.dispatch(pygame.event.Event(pygame.WINDOWRESTORED))
        assert not app.minimised
    finally:
        pygame.display.quit()


def test_check_reports_every_data_file_and_exits_0(capsys):
    assert cli.main(["--check"]) == 0
    out = capsys.readouterr().out
    for item in ("art and sounds: ok", "Hard's match-win table: ok", "lessons: ok", "review: ok", "online play: ok", "translations: ok",
                 "all data files present"):
        assert item in out, out


def test_check_names_a_broken_lesson_and_exits_1(tmp_path, monkeypatch, capsys):
    from koikoi import lessons
    bad = tmp_path / "01-broken.json"
    bad.write_text('{"format": 1, "id": "01-broken", "title": "x"', encoding="utf-8")
    monkeypatch.setattr(lessons, "DATA", tmp_path)
    assert cli.main(["--check"]) == 1
    out = capsys.readouterr().out
    assert "lessons: MISSING OR BROKEN" in out and "01-broken" in out, out
