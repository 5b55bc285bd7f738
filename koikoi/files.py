"""Reading and writing the player's files: the one defensive reader, atomic writes.

    from koikoi.files import read_json, atomic_write_text, move_aside, BadFile
    try:
        data = read_json(path, max_bytes=1 << 20, root=data_folder)   # None: no such file
    except BadFile as exc:          # there, but unusable: say why, set it aside
        move_aside(path)

Every JSON file the game reads (settings, the autosave, saved and finished
matches, the shortcut manifest, caches) goes through ``read_json``. It opens
only a regular file (never a FIFO, a device or a folder, which could hang the
game or fill its memory), follows a symbolic link only when the link stays
inside ``root``, reads at most ``max_bytes``, refuses ``NaN``/``Infinity``
and nesting deeper than ``max_depth``, and raises nothing but ``BadFile``
(a ValueError) for a file that is there but cannot be used: its ``str()`` says
why in English for the log, its ``kind`` (a code) and ``reason`` (those words in
the player's language) are what a message on screen uses. Checking the
*shape* of what it returns is the caller's job, field by field.

Writes go whole to a temporary sibling ``.<name>.koikoi-<8 random>.tmp``, are
flushed and fsync'ed, then renamed over the old file, so a crash never leaves
half a file. A crash between the two leaves the temporary file behind:
``clean_stale_temps`` removes such leftovers at start (only the writer does:
they are never the only copy of anything, the rename never happened). It
removes only names of that exact form, the game's marker included: a hidden
``.notes.tmp`` of the player's is never touched.

Nothing here deletes a player's file: ``move_aside`` renames it to
``<name>.corrupt-YYYYmmdd-HHMMSS`` (a symbolic link is renamed itself, its
target is never touched).
"""

from __future__ import annotations

import json
import logging
import os
import re
import stat
import tempfile
import time
from pathlib import Path
from typing import Any, Iterable, Optional

from .i18n import N_, _

log = logging.getLogger("koikoi.files")

MAX_DEPTH = 32                   # our files nest 6 deep; anything far deeper is not ours
TEMP_SUFFIX = ".tmp"
TEMP_MARK = "koikoi-"            # in every temp file's name: the tidy removes only names holding it
# .<name>.koikoi-<mkstemp's 8 characters>.tmp, and nothing else
_OUR_TEMP = re.compile(r"\.(?P<name>.+)\." + re.escape(TEMP_MARK) + r"[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX))

_O_BINARY = getattr(os, "O_BINARY", 0)
_O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)     # a FIFO opens at once instead of waiting for a writer
_O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_O_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


class BadFile(ValueError):
    """A file that exists but cannot be used; ``str()`` says why, in a few English words
    (for the log). ``kind`` says which, as a code (one of ``REASONS``), and ``reason``
    is that in the player's language: what a message on screen quotes, never ``str()``."""

    def __init__(self, message: str = "", kind: str = "unreadable"):
        super().__init__(message)
        self.kind = kind if kind in REASONS else "unreadable"

    @property
    def reason(self) -> str:
        """Why, in a few words of the current language ("the file is damaged")."""
        return _(REASONS[self.kind])


# kind -> why, in a few words for the player (translated where shown: ``BadFile.reason``)
REASONS = {
    "unreadable": N_("the file could not be read"),
    "outside_link": N_("the file is a link to outside the game's folder"),
    "not_a_file": N_("it is not a regular file"),
    "too_large": N_("the file is too large"),
    "not_text": N_("the file is not text"),
    "too_deep": N_("the file is not one the game wrote"),
    "not_json": N_("the file is damaged"),
    "not_a_match": N_("the file is not a saved match"),
    "not_settings": N_("the file is not a settings file"),
    "newer_version": N_("it was saved by a newer version of the game"),
    "damaged_match": N_("the match in it is damaged"),
    "missing": N_("the file is no longer there"),
}


# ------------------------------------------------------------------ reading


def _inside(path: str, root: Path) -> bool:
    try:
        real_root = os.path.realpath(root)
        return os.path.commonpath([os.path.realpath(path), real_root]) == real_root
    except (OSError, ValueError):
        return False


def read_bytes(path, *, max_bytes: int, root=None) -> Optional[bytes]:
    """The bytes of the regular file ``path``, or None if there is no such file.

    Raises BadFile for anything else: a link out of ``root`` (or any link when
    ``root`` is None), a FIFO, device or folder, a file over ``max_bytes``, an
    OS error while reading.
    """
    path = Path(path)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:       # ValueError: a NUL in the path
        raise BadFile(f"cannot be opened ({_reason(exc)})", "unreadable") from None
    target = str(path)
    if stat.S_ISLNK(st.st_mode):
        if root is None or not _inside(target, Path(root)):
            raise BadFile("is a link to somewhere outside the game's folder", "outside_link")
        target = os.path.realpath(target)
    elif not stat.S_ISREG(st.st_mode):
        raise BadFile(f"is not a regular file ({file_kind(st.st_mode)})", "not_a_file")
    try:
        fd = os.open(target, os.O_RDONLY | _O_BINARY | _O_NONBLOCK | _O_NOFOLLOW | _O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise BadFile(f"cannot be opened ({_reason(exc)})", "unreadable") from None
    try:
        fst = os.fstat(fd)
        if not stat.S_ISREG(fst.st_mode):   # swapped between the lstat and the open
            raise BadFile(f"is not a regular file ({file_kind(fst.st_mode)})", "not_a_file")
        if fst.st_size > max_bytes:
            raise BadFile(f"is too large ({fst.st_size:,} bytes; at most {max_bytes:,} are read)", "too_large")
        chunks, total = [], 0
        while total <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:               # grew while being read
            raise BadFile(f"is too large (over {max_bytes:,} bytes)", "too_large")
        return b"".join(chunks)
    except OSError as exc:
        raise BadFile(f"cannot be read ({_reason(exc)})", "unreadable") from None
    finally:
        os.close(fd)


def _no_constants(name: str):
    raise ValueError(f"{name} is not a number this game writes")


def parse_json(data, *, max_depth: int = MAX_DEPTH) -> Any:
    """JSON text or UTF-8 bytes -> value; BadFile on anything malformed, too deep,
    or holding NaN/Infinity."""
    try:
        text = data.decode("utf-8-sig") if isinstance(data, (bytes, bytearray)) else str(data)
    except UnicodeDecodeError:
        raise BadFile("is not UTF-8 text", "not_text") from None
    if too_deep(text, max_depth):
        raise BadFile(f"nests deeper than {max_depth} levels", "too_deep")
    try:
        return json.loads(text, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise BadFile(f"is not valid JSON ({exc.msg}, line {exc.lineno})", "not_json") from None
    except (ValueError, RecursionError, TypeError, MemoryError) as exc:
        # ValueError: NaN/Infinity, or an integer with more digits than Python converts
        raise BadFile(f"is not valid JSON ({_reason(exc)})", "not_json") from None


_STRINGS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_INNERMOST = re.compile(rb'[\[{][\]}]')
_NOT_BRACKETS_OR_QUOTES = bytes(b for b in range(256) if b not in b'[]{}"')


def too_deep(text: str, max_depth: int = MAX_DEPTH) -> bool:
    """True if ``text`` nests more than ``max_depth`` brackets (outside strings).

    Checked before parsing, without recursion and at C speed: everything but
    brackets and quotes is dropped (``bytes.translate``), then the strings (a
    string without brackets leaves a pair of quotes; text with a backslash has
    its strings removed by the string pattern first), then the innermost pairs
    are removed once per level; text still changing after ``max_depth`` passes
    is deeper. (Unbalanced text is left to the parser to refuse.)
    """
    if text.count("[") + text.count("{") <= max_depth:
        return False
    if "\\" in text:                 # an escaped quote may sit inside a string
        text = _STRINGS.sub("", text)
    kept = text.encode("utf-8", "surrogatepass").translate(None, _NOT_BRACKETS_OR_QUOTES)
    brackets = kept.replace(b'""', b"")
    if b'"' in brackets:              # a string holding brackets: every other piece is outside
        brackets = b"".join(kept.split(b'"')[0::2])
    for _pass in range(max_depth):
        if not brackets:
            return False
        peeled = _INNERMOST.sub(b"", brackets)
        if peeled == brackets:
            return False
        brackets = peeled
    return bool(brackets) and _INNERMOST.search(brackets) is not None


def read_json(path, *, max_bytes: int, root=None, max_depth: int = MAX_DEPTH) -> Any:
    """The parsed JSON of ``path`` (see ``read_bytes``), None if there is no file.
    Raises BadFile only."""
    raw = read_bytes(path, max_bytes=max_bytes, root=root)
    if raw is None:
        return None
    return parse_json(raw, max_depth=max_depth)


def file_kind(mode: int) -> str:
    """What a file that is not a regular one is, in a few words ("a pipe")."""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return text[:80] or exc.__class__.__name__


# ------------------------------------------------------------------ writing


def atomic_write_text(path, text: str, *, before_replace=None) -> None:
    """Replace ``path`` with ``text`` (UTF-8, newlines as written) atomically; see
    ``atomic_write_bytes``."""
    atomic_write_bytes(path, text.encode("utf-8"), before_replace=before_replace)


def atomic_write_bytes(path, data: bytes, *, before_replace=None) -> None:
    """Replace ``path`` with ``data`` atomically (temp file, fsync, os.replace).

    The temp file is new, under a random name with the game's marker, created with
    O_EXCL|O_NOFOLLOW (mkstemp): a link planted beside ``path`` is never written through.
    On any failure the old file is untouched and the temp file removed.
    ``before_replace()``, if given, runs once the new data is safely on disk,
    just before the rename (a failure there also leaves everything as it was).
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{TEMP_MARK}", suffix=TEMP_SUFFIX, dir=str(path.parent))
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        if before_replace is not None:
            before_replace()
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


def fsync_dir(folder) -> None:
    """Make renames in ``folder`` durable (POSIX; a no-op elsewhere)."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    try:
        dfd = os.open(str(folder), os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


def clean_stale_temps(folder, names: Optional[Iterable[str]] = None) -> list[Path]:
    """Remove ``.<name>.koikoi-XXXXXXXX.tmp`` files that interrupted atomic writes
    (``atomic_write_text``) left in ``folder`` (for the given ``names``, or any): only
    names of that form, never another hidden ``.tmp`` file, and only regular files;
    returns what was removed. Call it only while holding the instance lock: a second
    writer's temp file could be in flight otherwise."""
    folder = Path(folder)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    wanted = set(names) if names is not None else None
    for entry in entries:
        ours = _OUR_TEMP.fullmatch(entry.name)
        if ours is None or (wanted is not None and ours["name"] not in wanted):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError as exc:
            log.warning("could not remove the leftover %s: %s", entry.path, exc)
    if removed:
        log.info("removed %d leftover temporary file(s) in %s", len(removed), folder)
    return removed


def stamped_sibling(path, tag: str) -> Path:
    """``<name>.<tag>-YYYYmmdd-HHMMSS`` beside ``path``, with -2, -3... if that exists."""
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.{tag}-{stamp}")
    n = 1
    while os.path.lexists(target):
        n += 1
        target = path.with_name(f"{path.name}.{tag}-{stamp}-{n}")
    return target


def move_aside(path) -> Optional[Path]:
    """Rename an unreadable file to ``<name>.corrupt-YYYYmmdd-HHMMSS``; returns the
    new path (None if it could not be moved). A link is renamed, not followed."""
    path = Path(path)
    target = stamped_sibling(path, "corrupt")
    try:
        os.replace(path, target)
        log.warning("moved unreadable %s aside to %s", path, target)
        return target
    except OSError as exc:
        log.error("could not move unreadable %s aside: %s", path, exc)
        return None


def move_database_aside(path) -> Optional[Path]:
    """``move_aside`` for an SQLite database that cannot be opened: its write-ahead log and
    shared-memory files (``-wal``, ``-shm``) go aside with it, so a fresh database never
    picks up the old one's log. Returns the database's new path (None if not moved)."""
    path = Path(path)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if os.path.lexists(side):
            move_aside(side)
    return move_aside(path)


__all__ = ["BadFile", "REASONS", "file_kind", "read_bytes", "read_json", "parse_json", "atomic_write_text", "atomic_write_bytes", "fsync_dir",
           "clean_stale_temps", "stamped_sibling", "move_aside", "move_database_aside", "MAX_DEPTH"]
