"""Two windows: one writer, the second copy of the game plays read-only."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pygame

from koikoi import instance_lock as il
from koikoi.instance_lock import InstanceLock, pid_alive
from koikoi.storage import Storage

ROOT = Path(__file__).resolve().parents[1]


def _env(home) -> dict:
    return dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", KOIKOI_HOME=str(home),
                KOIKOI_NO_CRASH_SCREEN="1", PYTHONPATH=str(ROOT))


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


# ---------------------------------------------------------------- the lock itself


def test_acquire_release_and_a_second_holder_is_refused(tmp_path):
    a = InstanceLock(tmp_path)
    assert a.acquire() and a.held and a.state == il.ACQUIRED
    assert a.path.read_text().strip() == str(os.getpid())
    b = InstanceLock(tmp_path)
    assert b.acquire() is False
    assert b.state == il.BUSY and b.holder_pid == os.getpid()
    a.release()
    assert b.acquire() is True
    b.release()


def test_lock_is_created_with_its_folder(tmp_path):
    with InstanceLock(tmp_path / "new" / "data") as lock:
        assert lock.held and lock.path.exists()


def test_a_stale_pid_in_the_file_does_not_block(tmp_path):
    (tmp_path / il.LOCK_NAME).write_text(f"{_dead_pid()}\n")
    lock = InstanceLock(tmp_path)
    assert lock.acquire()
    assert (tmp_path / il.LOCK_NAME).read_text().strip() == str(os.getpid())
    lock.release()


def test_without_os_locking_the_pid_decides(tmp_path, monkeypatch):
    """A file system that cannot lock (ENOLCK): a live PID blocks, a dead one is stale."""
    def no_locks(fd):
        raise OSError(errno.ENOLCK, "No locks available")
    monkeypatch.setattr(InstanceLock, "_lock", staticmethod(no_locks))
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        (tmp_path / il.LOCK_NAME).write_text(f"{sleeper.pid}\n")
        busy = InstanceLock(tmp_path)
        assert busy.acquire() is False and busy.holder_pid == sleeper.pid
    finally:
        sleeper.kill()
        sleeper.wait()
    stale = InstanceLock(tmp_path)
    assert stale.acquire() is True          # the holder is gone: taken over
    assert (tmp_path / il.LOCK_NAME).read_text().strip() == str(os.getpid())
    stale.release()


def test_an_unwritable_folder_means_no_lock_not_a_crash(tmp_path, monkeypatch):
    real_open = os.open

    def refuse(path, flags, *a, **k):
        if str(path).endswith(il.LOCK_NAME) and flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real_open(path, flags, *a, **k)
    monkeypatch.setattr(il.os, "open", refuse)
    lock = InstanceLock(tmp_path)
    assert lock.acquire() is True and lock.state == il.UNAVAILABLE
    lock.release()


def test_pid_alive():
    assert pid_alive(os.getpid())
    assert not pid_alive(_dead_pid())
    assert not pid_alive(0) and not pid_alive(-5)


# ---------------------------------------------------------------- the read-only App


def _started_session(app):
    from koikoi.ui.scenes.newmatch import new_session
    session = new_session(app, "easy", "casual", 1, seed=3)
    session.apply(session.legal()[0])
    session.apply(session.legal()[0])
    return session


def test_read_only_app_writes_nothing_and_says_so(koikoi_home):
    from koikoi.ui.app import READ_ONLY_MESSAGE, App
    from koikoi.ui.scenes.oyagime import open_round
    from koikoi.ui.scenes.settings import PauseMenuScene
    from koikoi.ui.scenes.title import TitleScene
    store = Storage()
    # a saved match and settings from the first window
    store.save_settings({"volume": 0.3})
    first = App((960, 540), storage=store)
    saved = _started_session(first)
    first.autosave(saved)
    pygame.display.quit()
    before = {p: p.read_bytes() for p in koikoi_home.rglob("*") if p.is_file() and "logs" not in p.parts}

    app = App((960, 540), storage=Storage(), read_only=True)
    try:
        assert app.read_only and any(t.text == READ_ONLY_MESSAGE for t in app.toasts)
        assert app.settings["volume"] == 0.3
        app.push(TitleScene(app))
        app.step()
        assert app.top.saved is not None                 # Continue is offered (reading is fine)
        session = _started_session(app)                  # play: every action calls app.autosave
        open_round(app, session)
        for _ in range(20):
            app.step()
        app.settings["volume"] = 0.9
        app.save_settings()
        app.push(PauseMenuScene(app))
        app.top.to_title()                               # "Save and leave" writes through storage
        session2 = _started_session(app)
        while not session2.state.is_over:                # a finished match is not filed either
            session2.apply(session2.legal()[0])
        app.finish_match(session2)
        for writer, args in (("save_conceded", [session, 0]), ("save_finished", [session]),
                             ("file_match", [session2]), ("abandon", [session]),
                             ("clear_autosave", [saved.id]), ("keep_for_later", []),
                             ("resume_saved", [saved.id]), ("tidy", []), ("reset_settings", [])):
            getattr(app.storage, writer)(*args)      # direct calls from scenes
        app.shutdown()
    finally:
        pygame.display.quit()
    after = {p: p.read_bytes() for p in koikoi_home.rglob("*") if p.is_file() and "logs" not in p.parts}
    assert after == before


def test_read_only_title_does_not_move_a_bad_autosave_aside(koikoi_home):
    from koikoi.ui.app import App
    from koikoi.ui.scenes.title import TitleScene
    store = Storage()
    store.autosave_path.parent.mkdir(parents=True)
    store.autosave_path.write_text('{"format": 1, "seats": [')
    app = App((960, 540), storage=Storage(), read_only=True)
    try:
        app.push(TitleScene(app))
        app.step()
        assert app.top.saved is None
    finally:
        pygame.display.quit()
    assert store.autosave_path.read_text() == '{"format": 1, "seats": ['
    assert not list(store.data_dir.glob("autosave.json.corrupt-*"))


# ---------------------------------------------------------------- two processes


def _wait_for_lock(path: Path, pid: int, proc, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"the first game exited early: {proc.communicate()}")
        try:
            if path.read_text().strip() == str(pid):
                return
        except OSError:
            pass
        time.sleep(0.05)
    raise AssertionError("the first game never took the lock")


def test_two_games_at_once_the_second_does_not_save(koikoi_home):
    env = _env(koikoi_home)
    store = Storage(koikoi_home)
    # an unfinished match autosaved by an earlier session
    from koikoi.session import MatchSession, SeatConfig
    from koikoi.engine import RULESETS
    s = MatchSession(RULESETS["casual"], seed=9, months=1,
                     seats=(SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "random")))
    s.apply(s.legal()[0])
    store.data_dir.mkdir(parents=True)
    store.autosave_path.write_text(s.to_json())
    autosave = store.autosave_path.read_bytes()

    first = subprocess.Popen([sys.executable, "-m", "koikoi", "--frames", "100000", "--size", "960x540"],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_lock(store.data_dir / il.LOCK_NAME, first.pid, first)
        second = subprocess.run([sys.executable, "-m", "koikoi", "--frames", "20", "--size", "800x600",
                                 "--reset-settings"],
                                cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
        assert second.returncode == 0, second.stderr
        assert "not reset" in second.stderr                 # --reset-settings refused, not silently done
        assert not store.settings_path.exists()             # the second window saved no settings
        assert store.autosave_path.read_bytes() == autosave  # nor touched the autosave
        assert not list(store.data_dir.glob("autosave.json.*"))
        log = (store.log_dir / "koikoi.log").read_text(encoding="utf-8")
        assert "already open in another window" in log
        assert first.poll() is None                         # the first game plays on
    finally:
        first.terminate()
        first.wait(timeout=30)
    # the first game is gone: the next start owns the files again
    third = subprocess.run([sys.executable, "-m", "koikoi", "--frames", "5", "--size", "800x600"],
                           cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert third.returncode == 0, third.stderr
    assert json.loads(store.settings_path.read_text())["window_size"] == [800, 600]
