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

The log is only ever a regular file of ours: it is opened without following
a symbolic link and without waiting on a pipe (``O_NOFOLLOW``, ``O_NONBLOCK``),
then checked (a regular file, one link). Anything else found under the name
(a link to some other file or to /dev/zero, a pipe, a device, a folder, a
hard link) is renamed aside to ``koikoi.log.corrupt-YYYYmmdd-HHMMSS`` (never
deleted; a link's target is never touched), a fresh log is started and one
warning in it says so. Rotation does the same with planted ``koikoi.log.1``
.. ``.3``: it only renames and removes names, never opens them, and decides
by the size of the file it has open, not by looking the name up again.

At start it logs the game version, Python, pygame-ce and SDL versions, the
platform and the data folder, so a log sent to us says what it ran on.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import platform
import stat
import sys
import time
from pathlib import Path

from . import __version__, paths

LOG_FILE_NAME = "koikoi.log"
MAX_BYTES = 1_000_000
BACKUP_COUNT = 3
FORMAT = "%(asctime)s %(levelname)-7s %(name)s [%(threadName)s]: %(message)s"

_TAG = "_koikoi_logsetup"          # attribute marking the handlers we added
_state: dict = {"path": None, "file_ok": False}

log = logging.getLogger("koikoi")

# Opening the log: append only, never through a symbolic link, never waiting for
# a reader on a pipe, not inherited by child processes; binary on Windows (the
# text layer above translates line ends).
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_O_LOG = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | _O_NONBLOCK
          | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
          | getattr(os, "O_NOINHERIT", 0))


def _not_ours(path: str) -> str | None:
    """What is at ``path`` if it is not a plain log file ("a symbolic link", ...);
    None for a regular file with one name, or nothing there."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISREG(st.st_mode):
        return "a file with other names (a hard link)" if st.st_nlink > 1 else None
    from .files import file_kind  # isolated: logsetup loads without koikoi.files (the crash report needs it)
    return file_kind(st.st_mode)


def _aside_name(path: str) -> str:
    """``<path>.corrupt-YYYYmmdd-HHMMSS`` (koikoi.files' naming), free of anything there."""
    try:
        from .files import stamped_sibling  # isolated: without it, the naming below
        return str(stamped_sibling(path, "corrupt"))
    except ImportError:  # pragma: no cover - koikoi.files ships with the game
        base = f"{path}.corrupt-{time.strftime('%Y%m%d-%H%M%S')}"
        target, n = base, 1
        while os.path.lexists(target):
            n += 1
            target = f"{base}-{n}"
        return target


class SafeRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A RotatingFileHandler that writes only to a regular file it created or
    checked itself, and rotates by renaming names, never by opening them.

    It moves hostile files aside the way ``koikoi.files.move_aside`` does, but
    without logging from inside the handler (that would re-enter it); what it
    moved is kept in ``notes`` for setup_logging() to log, or, once
    ``notes_in_file`` is set, written straight into the fresh file."""

    def __init__(self, *args, **kwargs):
        self.notes: list[str] = []
        self.notes_in_file = False
        super().__init__(*args, **kwargs)

    # ------------------------------------------------------------ opening
    def _open(self):
        path = self.baseFilename
        fd = self._open_regular(path)
        if fd is None:                    # something else there: move it, start afresh
            self._set_aside(path)
            fd = self._open_regular(path)
            if fd is None:
                raise OSError(f"{path} is still not a regular file")
        try:
            if _O_NONBLOCK:
                os.set_blocking(fd, True)
            stream = open(fd, self.mode, encoding=self.encoding, errors=self.errors)
        except BaseException:
            os.close(fd)
            raise
        if self.notes_in_file:
            self._write_notes(stream)
        return stream

    @staticmethod
    def _open_regular(path: str) -> int | None:
        """An fd on ``path`` if it is (or is now created as) a plain file; None if
        something else is there; OSError if nothing can be opened there."""
        try:
            fd = os.open(path, _O_LOG, 0o644)
        except OSError:
            if _not_ours(path) is not None:      # ELOOP, EISDIR, ENXIO (a pipe), ...
                return None
            raise
        try:
            st = os.fstat(fd)
            if stat.S_ISREG(st.st_mode) and st.st_nlink <= 1:
                return fd
        except OSError:
            pass
        os.close(fd)                             # a pipe with a reader, a device...
        return None

    def _set_aside(self, path: str) -> None:
        """Rename what is at ``path`` aside (a link is renamed, not followed)."""
        what = _not_ours(path) or "not a regular file"
        target = _aside_name(path)
        os.replace(path, target)
        self.notes.append(f"{path} was {what}; moved it aside to {target}"
                          + (" and started a fresh log" if path == self.baseFilename else ""))

    def _write_notes(self, stream) -> None:
        notes, self.notes = self.notes, []
        for note in notes:
            try:
                record = logging.LogRecord(log.name, logging.WARNING, __file__, 0, note, None, None)
                stream.write(self.format(record) + self.terminator)
            except Exception:
                pass

    def take_notes(self) -> list[str]:
        notes, self.notes = self.notes, []
        return notes

    # ------------------------------------------------------------ rotating
    def shouldRollover(self, record):
        """By the size of the file we have open (always a regular file of ours),
        never by looking the name up: whatever is there now cannot stall this."""
        if self.stream is None:
            self.stream = self._open()
        if self.maxBytes > 0:
            msg = "%s\n" % self.format(record)
            self.stream.seek(0, 2)
            return self.stream.tell() + len(msg) >= self.maxBytes
        return False

    def doRollover(self):
        if self.stream:
            self.stream.close()
            self.stream = None
        if self.backupCount > 0:
            try:
                self._rotate_names()
            except OSError as exc:
                self.maxBytes = 0                # not again on every line; append until next start
                self.notes.append(f"could not rotate {self.baseFilename} ({exc}); "
                                  "the log grows until the next start")
        if not self.delay:
            self.stream = self._open()

    def _rotate_names(self) -> None:
        base = self.baseFilename
        names = [self.rotation_filename(f"{base}.{i}") for i in range(1, self.backupCount + 1)]
        for name in names:                       # a planted link, pipe or folder: moved, not used
            if _not_ours(name) is not None:
                self._set_aside(name)
        if os.path.lexists(names[-1]):
            os.remove(names[-1])                 # the oldest backup: a regular file of ours
        for src, dst in zip(reversed(names[:-1]), reversed(names[1:])):
            if os.path.lexists(src):
                os.replace(src, dst)
        if _not_ours(base) is not None:
            self._set_aside(base)
        elif os.path.lexists(base):
            os.replace(base, names[0])


def default_log_dir() -> Path:
    """$KOIKOI_HOME/logs, else platformdirs' user log dir (``koikoi.paths``)."""
    return paths.log_dir()


def data_dir() -> Path:
    """Where the game keeps its data: $KOIKOI_HOME/data, else the user data dir (``koikoi.paths``)."""
    return paths.data_dir()


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
        fh = SafeRotatingFileHandler(path, maxBytes=MAX_BYTES, backupCount=BACKUP_COUNT,
                                     encoding="utf-8")
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
    else:
        for note in fh.take_notes():          # a link, pipe or folder found as koikoi.log
            log.warning("%s", note)
        fh.notes_in_file = True               # later (rotation) notes go straight into the file
    _log_start(path if file_ok else None)
    return path


def environment_summary() -> list[tuple[str, str]]:
    """(label, value) pairs describing this run: versions, platform, folders."""
    rows: list[tuple[str, str]] = []
    rows.append(("Koi-Koi", str(__version__)))
    rows.append(("Python", f"{platform.python_version()} ({sys.executable})"
                 + (" frozen" if getattr(sys, "frozen", False) else "")))
    try:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame  # start-up time: measured 62 ms, which the match server's log header does without
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
