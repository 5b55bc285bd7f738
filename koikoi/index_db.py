"""The history index's SQLite file: its shape (one table and one index, a version; anything
else is not one this version made), opening it (never through a link, not another user's,
WAL), a read-only look, and telling a lock from damage. Also the interpreter's switch
interval and the collector (koikoi.gc_pacing) while a worker replays logs. ``koikoi.match_index`` drives it."""

from __future__ import annotations

import logging
import os
import sqlite3
import stat
import sys
import threading
from pathlib import Path
from typing import Optional
from urllib.parse import quote

from . import gc_pacing

log = logging.getLogger("koikoi.index")

SCHEMA_VERSION = 3               # 2: the online columns; 3: a digest per row (another version is set aside)
BUSY_TIMEOUT = 0.25              # seconds SQLite waits on another process's lock (the worker's only)

# While a worker replays logs (pure Python), the render thread waits for the
# interpreter lock each time a drawing call gives it up, up to the switch
# interval (5 ms) a time, many times a frame: a 5,000-match rebuild showed
# frames of 90 ms. A short interval while any worker runs keeps frames smooth.
_WORKER_SWITCH_INTERVAL = 0.0005
_workers = {"n": 0, "saved": None}
_workers_lock = threading.Lock()


def _share_the_interpreter(start: bool) -> None:
    with _workers_lock:
        if start:
            if _workers["n"] == 0:
                _workers["saved"] = sys.getswitchinterval()
                sys.setswitchinterval(min(_workers["saved"], _WORKER_SWITCH_INTERVAL))
            # no automatic collection meanwhile: the worker collects the young objects itself
            # (MatchIndex._step), between frames, and the full collection waits for an idle moment
            gc_pacing.hold()
            _workers["n"] += 1
        else:
            _workers["n"] -= 1
            if _workers["n"] == 0 and _workers["saved"] is not None:
                sys.setswitchinterval(_workers["saved"])
            gc_pacing.release()


def _locked(exc: BaseException) -> bool:
    """True if ``exc`` says another connection holds a lock (not that the file is bad)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    text = str(exc)
    return "locked" in text or "busy" in text


def _damaged(exc: BaseException) -> bool:
    """True if ``exc`` says the database is not a usable index (damaged, not a database,
    another shape): set aside. A full disk, a read-only folder or an I/O error are not the
    file's fault: it is kept, and the index is kept in memory meanwhile."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:
        return isinstance(exc, sqlite3.DatabaseError)     # our own checks (shape, kind)
    return code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_ERROR,
                           sqlite3.SQLITE_SCHEMA, sqlite3.SQLITE_MISMATCH, sqlite3.SQLITE_CONSTRAINT)


class _Locked(Exception):
    """The index file is held by another process: try again later."""


_TABLE_SQL = ("CREATE TABLE matches (name TEXT PRIMARY KEY, digest TEXT, match_id TEXT, finished_at TEXT, "
              "player0 TEXT, player1 TEXT, opponent TEXT, rules TEXT, months INTEGER, rounds INTEGER, "
              "score0 INTEGER, score1 INTEGER, winner INTEGER, conceded INTEGER, unfinished INTEGER, "
              "stats_opponent TEXT, record TEXT, online_seat INTEGER, room TEXT)")
_INDEX_SQL = "CREATE INDEX matches_by_id ON matches(match_id)"
_SIDE_FILES = ("-wal", "-shm", "-journal")


def _shape_problem(db: sqlite3.Connection) -> Optional[str]:
    """Why ``db`` is not an index this version made (None if it is one, or empty)."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    objects = db.execute("SELECT type, name, sql FROM sqlite_master").fetchall()
    if version == 0 and not objects:
        return None                          # a new, empty database
    if version != SCHEMA_VERSION:
        return f"index schema {version}, this version writes {SCHEMA_VERSION}"
    want = {("table", "matches"): _TABLE_SQL, ("index", "matches_by_id"): _INDEX_SQL,
            ("index", "sqlite_autoindex_matches_1"): None}
    seen = set()
    for kind, name, sql in objects:
        key = (kind, name)
        if key not in want:
            return f"an unexpected {kind} {name!r}"
        if want[key] is not None and " ".join(str(sql).split()) != want[key]:
            return f"the {kind} {name!r} has another shape"
        seen.add(key)
    if ("table", "matches") not in seen:
        return "no matches table"
    return None


def file_problem(db_path: Path) -> Optional[str]:
    """Why the index file (or its journal) must not be opened: a link, not a regular
    file, another user's. None if it is fine or not there."""
    for suffix in ("",) + _SIDE_FILES:
        p = db_path.with_name(db_path.name + suffix)
        try:
            st = os.lstat(p)
        except FileNotFoundError:
            continue
        except OSError as exc:
            return f"{p.name} cannot be examined ({exc.strerror or exc})"
        if stat.S_ISLNK(st.st_mode):
            return f"{p.name} is a link"
        if not stat.S_ISREG(st.st_mode):
            return f"{p.name} is not a regular file"
        if hasattr(os, "geteuid") and st.st_uid != os.geteuid():
            return f"{p.name} belongs to another user"
    return None


def connect(db_path: Path) -> sqlite3.Connection:
    """The index file opened for writing (never through a link), in WAL mode, its shape
    checked: sqlite3.DatabaseError if it is not an index this version made."""
    uri = f"file:{quote(str(db_path))}?nofollow=1"
    db = sqlite3.connect(uri, uri=True, check_same_thread=False, timeout=BUSY_TIMEOUT)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA trusted_schema=OFF")
        problem = _shape_problem(db)
    except BaseException:
        db.close()
        raise
    if problem is not None:
        db.close()
        raise sqlite3.DatabaseError(problem)
    return db


def copy_existing(db_path: Path, mem: sqlite3.Connection) -> None:
    """A read-only window starts from the writer's index, if it can read it (never through a link)."""
    if file_problem(db_path) is not None or not os.path.lexists(db_path):
        return
    try:
        src = sqlite3.connect(f"file:{quote(str(db_path))}?mode=ro&nofollow=1", uri=True, timeout=BUSY_TIMEOUT)
        try:
            if _shape_problem(src) is None:
                src.backup(mem)
        finally:
            src.close()
    except sqlite3.Error as exc:
        log.info("could not read the history index %s (%s); building one in memory", db_path, exc)


def read_only(db_path: Path, sql: str, args: tuple = ()) -> Optional[list]:
    """One query on the index file, read-only and not waiting on a lock (before the worker
    has read it); None if the file is not there, not an index, or busy."""
    if file_problem(db_path) is not None or not db_path.is_file():
        return None
    try:
        db = sqlite3.connect(f"file:{quote(str(db_path))}?mode=ro&nofollow=1", uri=True, timeout=0.05)
        try:
            if _shape_problem(db) is not None:
                return None
            return db.execute(sql, args).fetchall()
        finally:
            db.close()
    except sqlite3.Error:
        return None


def ensure_schema(db: sqlite3.Connection) -> None:
    if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
        return
    db.executescript(f"{_TABLE_SQL}; {_INDEX_SQL}; PRAGMA user_version = {SCHEMA_VERSION};")
    db.commit()
