"""Shared test setup: headless SDL and a private game folder for every test.

The environment is set here, at import time, before any test module imports
pygame: SDL draws to memory (no window, no sound card) and KOIKOI_HOME points
the game's settings, saves and logs at a temporary folder.
"""

from __future__ import annotations

import os
import tempfile

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["KOIKOI_HOME"] = tempfile.mkdtemp(prefix="koikoi-tests-")

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def koikoi_home(tmp_path, monkeypatch):
    """Each test gets its own empty KOIKOI_HOME."""
    home = tmp_path / "koikoi-home"
    home.mkdir()
    monkeypatch.setenv("KOIKOI_HOME", str(home))
    # the game follows the OS language ("system"): tests read English whatever this machine's
    monkeypatch.setenv("LANG", "C")
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def clean_logging(monkeypatch):
    """koikoi's main() run in-process sets up logging and the crash hooks: afterwards the
    root logger, its level, captured warnings and the excepthook are as they were (and no
    crash screen opens meanwhile)."""
    import logging
    from koikoi import crash, logsetup
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    monkeypatch.setenv("KOIKOI_NO_CRASH_SCREEN", "1")
    yield
    logsetup._remove_ours(root)
    logsetup._state.update(path=None, file_ok=False)
    root.handlers[:] = handlers
    root.setLevel(level)
    logging.captureWarnings(False)
    crash.uninstall_excepthook()
