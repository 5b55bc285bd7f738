"""Logging set-up (koikoi.logsetup) and the crash guard that relies on it (koikoi.crash)."""

from __future__ import annotations

import logging
import logging.handlers
import threading

import pytest

from koikoi import crash, logsetup
from koikoi.logsetup import setup_logging


@pytest.fixture(autouse=True)
def _clean_logging(clean_logging):
    """Every test here: the shared clean_logging (tests/conftest.py)."""
    yield


def ours():
    return [h for h in logging.getLogger().handlers if getattr(h, logsetup._TAG, False)]


def file_handlers():
    return [h for h in ours() if isinstance(h, logging.FileHandler)]


def flush():
    for h in ours():
        h.flush()


def test_log_file_created_with_start_info(tmp_path):
    path = setup_logging(tmp_path / "logs")
    assert path == (tmp_path / "logs" / "koikoi.log").absolute()
    logging.getLogger("koikoi.test").info("hello from the test")
    flush()
    text = path.read_text(encoding="utf-8")
    assert "hello from the test" in text
    from koikoi import __version__
    for needle in ("Koi-Koi: " + __version__, "Python: ", "pygame: ", "SDL ", "Platform: ",
                   "Data folder: "):
        assert needle in text, needle
    assert logsetup.current_log_path() == path and logsetup.log_file_ok()


def test_rotation_configured(tmp_path):
    setup_logging(tmp_path)
    (fh,) = file_handlers()
    assert isinstance(fh, logging.handlers.RotatingFileHandler)
    assert fh.maxBytes == 1_000_000 and fh.backupCount == 3
    stderr = [h for h in ours() if not isinstance(h, logging.FileHandler)]
    assert stderr and all(h.level == logging.WARNING for h in stderr)


def test_rotation_happens(tmp_path):
    path = setup_logging(tmp_path)
    (fh,) = file_handlers()
    fh.maxBytes = 2000                       # small, so the test stays fast
    lg = logging.getLogger("koikoi.test")
    for i in range(200):
        lg.info("line %d %s", i, "x" * 50)
    flush()
    assert (tmp_path / "koikoi.log.1").exists()
    assert not (tmp_path / "koikoi.log.4").exists()
    assert path.stat().st_size <= 2000 + 200


def test_idempotent(tmp_path):
    before = len(logging.getLogger().handlers)
    p1 = setup_logging(tmp_path)
    n = len(logging.getLogger().handlers)
    p2 = setup_logging(tmp_path)
    assert p1 == p2 and len(logging.getLogger().handlers) == n == before + 2
    # Another folder replaces, not adds.
    p3 = setup_logging(tmp_path / "other")
    assert len(logging.getLogger().handlers) == n and len(file_handlers()) == 1
    assert file_handlers()[0].baseFilename == str(p3)
    logging.getLogger("koikoi.test").info("only once")
    flush()
    assert p3.read_text().count("only once") == 1


def test_unwritable_dir_falls_back_to_stderr(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    path = setup_logging(blocker / "logs")          # cannot be created, even as root
    assert path == (blocker / "logs" / "koikoi.log").absolute()
    assert not file_handlers() and ours()
    assert not logsetup.log_file_ok()
    err = capsys.readouterr().err
    assert err.count("Cannot write the log file") == 1
    setup_logging(blocker / "logs")                  # again: no second warning
    assert "Cannot write the log file" not in capsys.readouterr().err
    logging.getLogger("koikoi.test").error("still reported")
    assert "still reported" in capsys.readouterr().err


def test_default_dir_under_koikoi_home(tmp_path, monkeypatch):
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path / "kh"))
    assert logsetup.default_log_dir() == tmp_path / "kh" / "logs"
    assert setup_logging() == (tmp_path / "kh" / "logs" / "koikoi.log").absolute()
    assert logsetup.data_dir() == tmp_path / "kh" / "data"


# ------------------------------------------------------------------ crash guard
def test_run_guarded_passes_exit_status(tmp_path):
    assert crash.run_guarded(lambda: None, log_path=None) == 0
    assert crash.run_guarded(lambda: 3, log_path=None) == 3

    def bye():
        raise SystemExit(2)
    assert crash.run_guarded(bye, log_path=None) == 2


def test_run_guarded_logs_and_explains(tmp_path, capsys):
    path = setup_logging(tmp_path)

    def boom():
        raise ValueError("the cards fell off the table")
    assert crash.run_guarded(boom, log_path=path) == 1
    flush()
    text = path.read_text()
    assert "Traceback (most recent call last)" in text
    assert "ValueError: the cards fell off the table" in text
    err = capsys.readouterr().err
    assert crash.TITLE in err and str(path) in err and crash.SAVED_LINE in err


def test_run_guarded_without_logging_writes_the_file_itself(tmp_path, capsys):
    path = tmp_path / "no-handler" / "koikoi.log"

    def boom():
        raise RuntimeError("no logging configured")
    assert crash.run_guarded(boom, log_path=path) == 1
    assert "RuntimeError: no logging configured" in path.read_text()


def test_run_guarded_never_raises_even_if_reporting_fails(tmp_path, monkeypatch):
    def broken(*a, **k):
        raise RuntimeError("reporting broke too")
    monkeypatch.setattr(crash, "crash_details", broken)

    def boom():
        raise KeyError("x")
    assert crash.run_guarded(boom, log_path=tmp_path / "x.log") == 1


def test_thread_exceptions_are_logged(tmp_path):
    path = setup_logging(tmp_path)
    crash.install_excepthook(path)

    def worker():
        raise ZeroDivisionError("in the CPU thread")
    t = threading.Thread(target=worker, name="cpu-worker")
    t.start()
    t.join()
    flush()
    text = path.read_text()
    assert "Unhandled exception in thread cpu-worker" in text
    assert "ZeroDivisionError: in the CPU thread" in text


def test_headless_is_detected(monkeypatch):
    monkeypatch.delenv("KOIKOI_NO_CRASH_SCREEN")
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert crash.display_possible() is False


def test_crash_screen_draws(tmp_path, monkeypatch):
    """The panel itself, drawn a few frames on SDL's dummy driver."""
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame
    pygame.display.init()
    try:
        pygame.display.set_mode((640, 360))
        try:
            raise OSError("disk on fire " + "very long words " * 20)
        except OSError as e:
            line = crash.one_line(e)
            details = crash.crash_details(e)
        assert len(line) <= 160 and "OSError" in line
        assert "Traceback" in details and "Koi-Koi:" in details
        long_path = tmp_path / ("deep" * 30) / "koikoi.log"
        assert crash.show_crash_screen(line, details, long_path, max_frames=3) is True
        # Keys: C copies (best effort), O opens the folder (stubbed), Q quits.
        opened = []
        monkeypatch.setattr(crash, "open_folder", lambda folder: opened.append(folder) or True)
        for key in (pygame.K_c, pygame.K_o, pygame.K_q):
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=0,
                                                 unicode="", scancode=0))
        assert crash.show_crash_screen(line, details, long_path, max_frames=50) is True
        assert opened == [long_path.parent]
    finally:
        pygame.display.quit()


def test_system_dialog_when_the_pygame_screen_fails(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(crash, "display_possible", lambda: True)

    def no_screen(*a, **k):
        raise RuntimeError("no video device")
    monkeypatch.setattr(crash, "show_crash_screen", no_screen)
    shown = []
    monkeypatch.setattr(crash, "native_message", lambda line, path: shown.append(line) or True)

    def boom():
        raise IndexError("empty deck")
    assert crash.run_guarded(boom, log_path=tmp_path / "k.log") == 1
    assert shown == ["IndexError: empty deck"]
    assert "empty deck" in capsys.readouterr().err
