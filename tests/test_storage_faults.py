"""Storage faults: read-only, missing or full folders, torn writes, alien and
tampered files. The game always starts, tells the player once, keeps the old
files, never leaves half a file, and treats save files as data only."""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

import pygame
import pytest

from koikoi import files as files_mod
from koikoi import storage as storage_mod
from koikoi.engine import RULESETS
from koikoi.storage import Storage, atomic_write_text
from koikoi.ui.app import App
from koikoi.ui.scenes.title import TitleScene
from koikoi.session import MatchSession, SeatConfig

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _close_display():
    yield
    pygame.display.quit()


def start_game(size=(960, 540), frames: int = 5) -> App:
    """App + Title, a few frames: what `koikoi` does at start."""
    app = App(size, storage=Storage())
    app.settings["anim_speed"] = 0.0
    app.push(TitleScene(app))
    for _ in range(frames):
        app.step(1 / 60)
    return app


def a_session(seed=11, actions=6, on_change=None) -> MatchSession:
    s = MatchSession(RULESETS["casual"], seed=seed, months=3,
                     seats=(SeatConfig("human", "You"), SeatConfig("cpu", "CPU", "random")),
                     on_change=on_change)
    for _ in range(actions):
        s.apply(s.legal()[0])
    return s


def warnings_of(app) -> list[str]:
    return [t.text for t in app.toasts if t.kind == "warning"]


def leftovers(folder: Path) -> list[Path]:
    """Temporary files an interrupted atomic write would leave behind."""
    return [p for p in folder.rglob("*") if p.name.endswith(".tmp")] if folder.exists() else []


class _Full:
    """Simulated full disk: every fsync (and hence every atomic write) fails with ENOSPC."""

    def __init__(self, monkeypatch):
        self.calls = 0

        def fsync(fd):
            self.calls += 1
            raise OSError(errno.ENOSPC, "No space left on device")
        monkeypatch.setattr(storage_mod.os, "fsync", fsync)


# ---------------------------------------------------------------- full disk


def test_full_disk_keeps_the_old_settings_and_says_so_once(monkeypatch):
    store = Storage()
    store.save_settings({"volume": 0.3})
    old = store.settings_path.read_bytes()
    app = start_game()
    full = _Full(monkeypatch)
    for v in (0.1, 0.2, 0.4, 0.5):            # the settings screen saves at every change
        app.settings["volume"] = v
        app.save_settings()
        app.step()
    assert full.calls >= 4
    assert store.settings_path.read_bytes() == old          # the old file is intact
    assert leftovers(store.config_dir) == []                # no temp files left over
    msgs = [m for m in warnings_of(app) if "Settings could not be saved" in m]
    assert len(msgs) == 1                                   # told once, not four times


def test_full_disk_during_a_match_play_goes_on_and_warns_once(monkeypatch):
    app = start_game()
    store = app.storage
    session = a_session(on_change=app.autosave, actions=2)
    app.autosave(session)
    good = store.autosave_path.read_bytes()
    _Full(monkeypatch)
    for _ in range(8):
        session.apply(session.legal()[0])                   # on_change -> autosave fails
    assert len([m for m in warnings_of(app) if "autosaved" in m]) == 1
    assert store.autosave_path.read_bytes() == good         # the last good save stays whole
    assert store.load_autosave() is not None
    assert leftovers(store.data_dir) == []
    monkeypatch.undo()
    session.apply(session.legal()[0])                       # space again: saving resumes
    assert store.load_autosave().state == session.state


def test_a_write_torn_half_way_leaves_the_old_file(tmp_path, monkeypatch):
    """ENOSPC in the middle of write(): half the text reached the disk, then the error."""
    folder = tmp_path / "data"
    folder.mkdir()
    target = folder / "autosave.json"
    target.write_text('{"old": true}')
    real_fdopen = os.fdopen

    class Torn:
        def __init__(self, f):
            self.f = f

        def write(self, text):
            self.f.write(text[: len(text) // 2])
            self.f.flush()
            raise OSError(errno.ENOSPC, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.f, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    monkeypatch.setattr(storage_mod.os, "fdopen", lambda *a, **k: Torn(real_fdopen(*a, **k)))
    with pytest.raises(OSError):
        atomic_write_text(target, json.dumps({"new": "x" * 10000}))
    assert target.read_text() == '{"old": true}'
    assert sorted(p.name for p in folder.iterdir()) == ["autosave.json"]


# ---------------------------------------------------------------- read-only or missing folder


def _refuse_writes(monkeypatch):
    """What a read-only folder does (tests may run as root, where chmod does not stop writes)."""
    def mkstemp(*a, **k):
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(files_mod.tempfile, "mkstemp", mkstemp)


def test_read_only_data_folder(monkeypatch):
    store = Storage()
    store.save_settings({"volume": 0.3})
    session = a_session()
    store.save_autosave(session)
    files = {p: p.read_bytes() for p in (store.settings_path, store.autosave_path)}
    _refuse_writes(monkeypatch)
    app = start_game()
    assert app.settings["volume"] == 0.3
    assert app.top.saved is not None and app.top.saved.state == session.state  # Continue still works
    app.settings["volume"] = 0.6
    app.save_settings()
    app.save_settings()
    s2 = a_session(seed=12, on_change=app.autosave, actions=0)
    for _ in range(5):
        s2.apply(s2.legal()[0])
    app.step()
    app.shutdown()
    w = warnings_of(app)
    assert len([m for m in w if "Settings" in m]) == 1 and len([m for m in w if "autosaved" in m]) == 1
    assert {p: p.read_bytes() for p in files} == files


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="needs a non-root POSIX user")
def test_really_read_only_folder(koikoi_home):
    store = Storage()
    store.save_settings({"volume": 0.3})
    os.chmod(store.config_dir, 0o555)
    try:
        app = start_game()
        app.save_settings()
        assert len([m for m in warnings_of(app) if "Settings" in m]) == 1
    finally:
        os.chmod(store.config_dir, 0o755)


def test_missing_folder_that_cannot_be_created(tmp_path, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the game's folder should be")
    monkeypatch.setenv("KOIKOI_HOME", str(blocker / "koikoi"))
    app = start_game()
    app.save_settings()
    s = a_session(on_change=app.autosave, actions=0)
    s.apply(s.legal()[0])
    app.shutdown()
    assert len([m for m in warnings_of(app) if "Settings" in m]) == 1
    assert blocker.read_text() == "a file where the game's folder should be"


def test_missing_folder_is_created():
    store = Storage()
    assert not store.config_dir.exists() and not store.data_dir.exists()
    app = start_game()
    app.shutdown()
    assert store.settings_path.is_file()
    assert warnings_of(app) == []


# ---------------------------------------------------------------- damaged and alien files


def test_truncated_autosave_is_set_aside_and_reported():
    store = Storage()
    text = a_session(actions=12).to_json()
    store.data_dir.mkdir(parents=True)
    store.autosave_path.write_text(text[: len(text) // 2])       # torn mid-write by another program
    app = start_game()
    assert app.top.saved is None                                 # no Continue for a broken save
    assert "Continue" not in [getattr(w, "label", None) for w in app.top.widgets]
    w = [m for m in warnings_of(app) if "could not be restored" in m]
    assert len(w) == 1
    kept = list(store.data_dir.glob("autosave.json.corrupt-*"))
    assert len(kept) == 1 and kept[0].read_text() == text[: len(text) // 2]
    assert kept[0].name in w[0]                                  # the message names the copy
    assert not store.autosave_path.exists()
    for _ in range(3):                                           # and only once
        app.reset(TitleScene(app))
        app.step()
    assert len([m for m in warnings_of(app) if "could not be restored" in m]) == 1


def test_settings_with_wrong_types():
    store = Storage()
    store.config_dir.mkdir(parents=True)
    store.settings_path.write_text(json.dumps({"volume": "loud", "muted": "yes", "anim_speed": [1],
                                               "window_size": [1, 2, 3], "fullscreen": 1}))
    app = start_game()
    assert app.settings["volume"] == 0.8 and app.settings["muted"] is False
    assert app.fullscreen is False
    assert len([m for m in warnings_of(app) if "settings" in m.lower()]) == 1


def test_settings_that_are_not_an_object():
    store = Storage()
    store.config_dir.mkdir(parents=True)
    store.settings_path.write_text("[1, 2, 3]")
    app = start_game()
    assert app.settings["volume"] == 0.8
    assert len(warnings_of(app)) == 1
    assert len(list(store.config_dir.glob("settings.json.corrupt-*"))) == 1


def test_settings_from_a_newer_version_are_kept_aside():
    store = Storage()
    store.config_dir.mkdir(parents=True)
    newer = {"format": 7, "volume": 0.5, "theme": "night", "anim_speed": 9}
    store.settings_path.write_text(json.dumps(newer))
    app = start_game()
    assert app.settings["volume"] == 0.5                         # what is understood is used
    assert len([m for m in warnings_of(app) if "settings" in m.lower()]) == 1
    app.shutdown()                                               # settings.json is rewritten...
    copies = [p for p in store.config_dir.iterdir() if p.name.startswith("settings.json.")]
    assert any(json.loads(p.read_text()) == newer for p in copies)   # ...but the old one is kept


# ---------------------------------------------------------------- save files are data


def _tampered(text: str) -> str:
    """Change the card of one played event: the log no longer follows the rules."""
    data = json.loads(text)
    events = data["log"]["events"] if isinstance(data["log"], dict) else data["log"]
    for ev in events:
        if isinstance(ev, dict) and ev.get("type") == "played" and "card" in ev:
            ev["card"] = "12-B" if ev["card"] != "12-B" else "01-B"
            return json.dumps(data)
    raise AssertionError("no played event in the log")


def test_a_tampered_log_is_refused_with_a_clear_message():
    store = Storage()
    good = a_session(actions=14).to_json()
    store.data_dir.mkdir(parents=True)
    store.autosave_path.write_text(_tampered(good))
    session, warning = Storage().load_autosave_checked()
    assert session is None
    assert warning and "could not be restored" in warning
    assert list(store.data_dir.glob("autosave.json.corrupt-*"))
    store.autosave_path.write_text(_tampered(good))
    app = start_game()
    assert app.top.saved is None
    assert any("could not be restored" in m for m in warnings_of(app))


@pytest.mark.parametrize("payload", [
    '{"format": 1, "seats": [], "log": "__import__(\'os\').system(\'touch PWNED\')"}',
    '{"format": 1, "seats": [{"kind": "human", "name": "x", "__class__": "os.system"}], "log": []}',
    '{"format": 1, "seats": [{"kind": "cpu", "name": "x", "level": "__import__(\'os\')"}, '
    '{"kind": "human", "name": "y"}], "log": [{"type": "match_started", "rules": "os.system"}]}',
    "cos\nsystem\n(S'touch PWNED'\ntR.",               # a pickle
    '!!python/object/apply:os.system ["touch PWNED"]',   # YAML
])
def test_hostile_save_files_are_refused_and_nothing_runs(payload, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    store = Storage()
    store.data_dir.mkdir(parents=True)
    store.autosave_path.write_text(payload)
    session, warning = store.load_autosave_checked()
    assert session is None and warning
    assert not (tmp_path / "PWNED").exists()


def test_save_code_never_unpickles_or_evaluates():
    sources = [ROOT / "koikoi" / "storage.py", ROOT / "koikoi" / "ui" / "session.py",
               ROOT / "koikoi" / "engine" / "events.py", ROOT / "koikoi" / "stats.py"]
    banned = re.compile(r"\b(pickle|marshal|shelve|yaml|eval|exec)\b\s*[.(]")
    for path in sources:
        if path.exists():
            assert not banned.search(path.read_text(encoding="utf-8")), path


def test_the_real_command_starts_when_no_folder_can_be_made(tmp_path):
    """koikoi itself (log, lock, settings, title) with KOIKOI_HOME under a plain file."""
    import subprocess
    import sys
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", KOIKOI_NO_CRASH_SCREEN="1",
               KOIKOI_HOME=str(blocker / "home"), PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-m", "koikoi", "--frames", "5", "--size", "800x600"], cwd=ROOT,
                       env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    assert blocker.read_text() == "x"
