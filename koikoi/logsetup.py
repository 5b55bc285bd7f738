"""Logging to a file the player can send us, set up once at start.

    from koikoi.logsetup import setup_logging
    log_path = setup_logging()          # <user log dir>/koikoi.log, or $KOIKOI_HOME/logs

Everything logged (logger names under "koikoi", and anything else at WARNING
and above from libraries) goes to a rotating file, 1 MB x 3 backups, in the
platform's user log folder (``platformdirs.user_log_dir('koikoi', appauthor=False)``),
or in ``$KOIKOI_HOME/logs`` when KOIKOI_HOME is set (tests, portable installs);
the same folders as koikoi.storage, whose functions are used when it imports.
Warnings and errors are also written to stderr when there is one (a windowed
build on Windows has none).

Calling it again does not add handlers twice: the same folder returns at once;
another folder replaces the old handlers. If the folder cannot be created or
the file cannot be opened, logging goes to stderr only and one warning says
so; the intended path is still returned (``log_file_ok()`` tells which).

At start it logs the game version, Python, pygame-ce and SDL versions, the
platform and the data folder, so a log sent to us says what it ran on.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import platform
import sys
from pathlib import Path

LOG_FILE_NAME = "koikoi.log"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 3
FORMAT = "%(asctime)s %(levelname)-7s %(name)s [%(threadName)s]: %(message)s"

_TAG = "_koikoi_logsetup"          # attribute marking the handlers we added
_state: dict = {"path": None, "file_ok": False}

log = logging.getLogger("koikoi")


def koikoi_home() -> Path | None:
    """$KOIKOI_HOME as a Path, if set (everything of ours then lives under it)."""
    home = os.environ.get("KOIKOI_HOME", "").strip()
    return Path(home).expanduser() if home else None


def default_log_dir() -> Path:
    """$KOIKOI_HOME/logs, else platformdirs' user log dir (the folders of koikoi.storage)."""
    try:
        from .storage import log_dir
        return Path(log_dir())
    except Exception:
        pass
    home = koikoi_home()
    if home is not None:
        return home / "logs"
    import platformdirs
    return Path(platformdirs.user_log_dir("koikoi", appauthor=False))


def data_dir() -> Path:
    """Where the game keeps its data: $KOIKOI_HOME/data, else the user data dir."""
    try:
        from .storage import data_dir as storage_data_dir
        return Path(storage_data_dir())
    except Exception:
        pass
    home = koikoi_home()
    if home is not None:
        return home / "data"
    import platformdirs
    return Path(platformdirs.user_data_dir("koikoi", appauthor=False))


def current_log_path() -> Path | None:
    """The log file set up by the last setup_logging() call (None before)."""
    return _state["path"]


def log_file_ok() -> bool:
    """True when the last setup_logging() call could open its log file."""
    return bool(_state["file_ok"])


def _ours(root: logging.Logger) -> list[logging.Handler]:
    return [h for h in root.handlers if getattr(h, _TAG, False)]


def _remove_ours(root: logging.Logger) -> None:
    for h in _ours(root):
        root.removeHandler(h)
        try:
            h.close()
        except Exception:
            pass


def setup_logging(log_dir: Path | None = None, level: int = logging.INFO) -> Path:
    """Configure logging; return the log file's path. Never raises for an unusable folder."""
    log_dir = Path(log_dir) if log_dir is not None else default_log_dir()
    path = (log_dir / LOG_FILE_NAME).absolute()
    root = logging.getLogger()

    # Same place, same level, handlers still there: nothing to do.
    ours = _ours(root)
    if ours and _state["path"] == path and root.level == level:
        return path

    _remove_ours(root)
    fmt = logging.Formatter(FORMAT)
    root.setLevel(level)

    if sys.stderr is not None:
        err = logging.StreamHandler(sys.stderr)
        err.setLevel(logging.WARNING)
        err.setFormatter(fmt)
        setattr(err, _TAG, True)
        err._koikoi_kind = "stderr"  # type: ignore[attr-defined]
        root.addHandler(err)

    file_ok = False
    problem = None
    try:
        log_dir.mkdir(parents=True, exist_ok=True)
        fh = logging.handlers.RotatingFileHandler(path, maxBytes=MAX_BYTES,
                                                  backupCount=BACKUP_COUNT, encoding="utf-8")
        fh.setLevel(level)
        fh.setFormatter(fmt)
        setattr(fh, _TAG, True)
        fh._koikoi_kind = "file"  # type: ignore[attr-defined]
        root.addHandler(fh)
        file_ok = True
    except Exception as e:  # OSError mostly; anything else must not stop the game either
        problem = e

    _state.update(path=path, file_ok=file_ok)
    logging.captureWarnings(True)
    if not file_ok:
        log.warning("Cannot write the log file %s (%s); logging to the terminal only.",
                    path, problem)
    _log_start(path if file_ok else None)
    return path


def environment_summary() -> list[tuple[str, str]]:
    """(label, value) pairs describing this run: versions, platform, folders."""
    rows: list[tuple[str, str]] = []
    try:
        from . import __version__
    except Exception:
        __version__ = "?"
    rows.append(("Koi-Koi", str(__version__)))
    rows.append(("Python", f"{platform.python_version()} ({sys.executable})"
                 + (" frozen" if getattr(sys, "frozen", False) else "")))
    try:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame
        sdl = ".".join(map(str, pygame.get_sdl_version()))
        ce = "pygame-ce" if getattr(pygame, "IS_CE", False) else "pygame"
        rows.append(("pygame", f"{ce} {pygame.version.ver}, SDL {sdl}"))
    except Exception as e:
        rows.append(("pygame", f"not available ({e})"))
    rows.append(("Platform", f"{platform.platform()} ({sys.platform}, {platform.machine()})"))
    try:
        rows.append(("Data folder", str(data_dir())))
    except Exception as e:
        rows.append(("Data folder", f"unknown ({e})"))
    return rows


def _log_start(path: Path | None) -> None:
    try:
        log.info("---- Koi-Koi starting; log file: %s", path or "(none: stderr only)")
        for label, value in environment_summary():
            log.info("%s: %s", label, value)
    except Exception:
        pass
