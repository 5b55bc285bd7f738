"""The index of finished matches: what History and Statistics show, without
replaying thousands of logs each time they open.

    index = MatchIndex(history_dir, data_dir / INDEX_NAME, data_root=data_dir)
    index.refresh()              # in the background: (re)read new or changed files
    index.entries()              # FinishedMatch rows, newest first (what is known so far)
    index.version, index.busy, index.progress   # for a screen that waits

The JSON logs in the history folder stay the truth; the index is a cache of
what each one says, kept in SQLite (standard library, WAL mode) beside them,
and it is checked, never trusted:

* every value read from it is checked like a file's (types, ranges, the
  statistics record parsed with the defensive JSON reader); a row that fails
  is not shown and is rebuilt from its file;
* each row carries a digest of its file's content and of its own values: a
  file edited in place (same size and time) or a row edited in the database
  no longer matches, and the row is rebuilt at the next refresh;
* a database of another shape or version (other columns, a view, a trigger,
  anything this version did not create), of another owner, or that is not a
  regular file (a link, a folder) is renamed aside (``<name>.corrupt-…``,
  never deleted; a link is renamed itself, its target is never opened) and
  rebuilt; the file is opened with SQLite's ``nofollow``;
* a database another process holds locked is not corrupt: it is left as it
  is and tried again; meanwhile what is known stays in memory.

Only the worker thread touches SQLite: the screens read the rows kept in
memory (``entries``, ``written_since``), and ``add`` (a match just filed)
shows the row at once and leaves the write to the worker, so a locked or
slow database never holds up a frame. A rebuild of many files is spread over
background processes (``spawn``, lowered priority: the engine's replay is
pure Python and would otherwise share one core with the render thread).

Nothing a file's summary claims is believed: every row is computed from the
replayed log (scores, winner, rounds, the statistics record). Only what the
log cannot tell is taken from the summary, checked: when it was filed, and
whether an unfinished match was conceded (by which seat) or abandoned. A
file that cannot be read or replayed is moved aside (``<name>.corrupt-…``)
and named once in ``problems``.

Without ``writable`` (a second window of the game) the index is built in
memory from a copy of the file's, and no file is moved.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
import sqlite3
import stat
import sys
import threading
import time
from datetime import datetime
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple, Optional
from urllib.parse import quote

from . import stats as S
from .files import BadFile, move_aside, parse_json, read_bytes
from .i18n import _
from .session import MAX_NAME_LEN, load_match, valid_match_id
from .engine.phase import SeatKind

log = logging.getLogger("koikoi.index")

INDEX_NAME = "history-index.sqlite3"
SCHEMA_VERSION = 3               # 2: the online columns; 3: a digest per row (another version is set aside)
MATCH_MAX_BYTES = 8 << 20        # a 12-month log is ~40 KB; an endless house-rules match stays far below
BATCH = 64                       # rows written per transaction while building
POOL_FROM = 48                   # files to read before background processes are worth starting
BUSY_TIMEOUT = 0.25              # seconds SQLite waits on another process's lock (the worker's only)
LOCK_RETRY = 1.0                 # ... then the worker tries again this often,
LOCK_PATIENCE = 30.0             # ... for this long, before leaving it to the next refresh

_COLUMNS = ("name", "digest", "match_id", "finished_at", "player0", "player1", "opponent",
            "rules", "months", "rounds", "score0", "score1", "winner", "conceded", "unfinished",
            "stats_opponent", "record", "online_seat", "room")


class FinishedMatch(NamedTuple):
    """One line of the match history, as recomputed from its log (a NamedTuple:
    thousands are made each time History opens)."""

    path: Path
    finished_at: str            # ISO date-time, local time
    players: tuple              # (seat 0's name, seat 1's name)
    opponent: str               # "CPU (Hard)", "Friend", ...
    rules: str                  # the rules' name (a preset's, or a house-rules variant's)
    months: Optional[int]
    rounds: int
    scores: tuple
    winner: Optional[int]       # seat, None for a draw or an unfinished match
    conceded: Optional[int] = None   # the seat that conceded an unfinished match, else None
    unfinished: bool = False    # abandoned (or found unfinished): never counted as won or lost
    match_id: str = ""
    stats_opponent: str = ""    # koikoi.stats' opponent label ("hard", "friend"...)
    record: Optional[S.Record] = None   # what the match adds to the statistics (None: not finished)
    online_seat: Optional[int] = None   # played over the network: this player's seat, else None
    room: str = ""              # ... and the server's room code

    @property
    def finished(self) -> bool:
        return self.conceded is None and not self.unfinished


# ------------------------------------------------------------------ one file


def _valid_time(value: Any) -> Optional[str]:
    if isinstance(value, str) and len(value) <= 40:
        try:
            return datetime.fromisoformat(value).strftime("%Y-%m-%dT%H:%M:%S")
        except ValueError:
            return None
    return None


def summarize(path: Path, *, data_root=None, mtime: Optional[float] = None, raw: Optional[bytes] = None
              ) -> FinishedMatch:
    """The history row of one file (or of its bytes ``raw``, already read);
    BadFile or ValueError if it cannot be used."""
    if raw is None:
        raw = read_bytes(path, max_bytes=MATCH_MAX_BYTES, root=data_root)
        if raw is None:
            raise FileNotFoundError(str(path))
    data = parse_json(raw)
    match_id, seats, state = load_match(data)
    summary = data.get("summary")
    return row_of(path, match_id, seats, state, summary if isinstance(summary, dict) else {}, mtime)


def _online(summary: dict, seats) -> tuple[Optional[int], str]:
    """(this player's seat, room code) of a match filed as played online, else (None, "").
    Only the shape is checked: the log cannot tell where a match was played."""
    o = summary.get("online")
    if not isinstance(o, dict) or type(o.get("seat")) is not int or o["seat"] not in (0, 1):
        return None, ""
    if any(s.kind != SeatKind.HUMAN for s in seats):
        return None, ""
    room = o.get("room")
    room = room if isinstance(room, str) and _ROOM_RE.fullmatch(room) else ""
    return o["seat"], room


# net.protocol.CODE_RE, written again: the history is read at start-up, the network code is not
_ROOM_RE = re.compile(r"KOI-[0-9]{4,8}")


def row_of(path: Path, match_id: str, seats, state, summary: dict, mtime: Optional[float] = None) -> FinishedMatch:
    """The history row of a match already replayed (``state``), filed at ``path``
    with ``summary``. Only the filing time, a concession and where it was played
    (online: this player's seat and the room) are read from the summary (checked);
    everything else comes from the state."""
    when = _valid_time(summary.get("finished_at"))
    if when is None:
        stamp = mtime if mtime is not None else os.stat(path).st_mtime
        when = datetime.fromtimestamp(stamp).strftime("%Y-%m-%dT%H:%M:%S")
    conceded = unfinished = None
    if not state.is_over:
        c = summary.get("conceded")
        if type(c) is int and c in (0, 1):
            conceded = c
        else:
            unfinished = True      # abandoned, or a match filed unfinished by a crash of an old version
    winner = state.winner if state.is_over else (1 - conceded if conceded is not None else None)
    online_seat, room = _online(summary, seats)
    if online_seat is not None:
        # the statistics of this computer's player: the other seat counted as the opponent
        counted = tuple(s if i == online_seat else replace(s, kind=SeatKind.CPU) for i, s in enumerate(seats))
        rec = S.fold_match(counted, state)
        label, opponent = "friend", seats[1 - online_seat].name
    else:
        rec = S.fold_match(seats, state)
        label = S.opponent_label(seats, S.tracked_seat(seats))
        opponent = seats[1].name if seats[1].kind == SeatKind.CPU else "Friend"
    return FinishedMatch(
        path=Path(path), finished_at=when, players=(seats[0].name, seats[1].name),
        opponent=opponent,
        rules=state.rules.name, months=state.months, rounds=len(state.ledger),
        scores=tuple(int(x) for x in state.scores), winner=winner, conceded=conceded,
        unfinished=bool(unfinished), match_id=match_id, stats_opponent=label,
        record=rec,
        online_seat=online_seat, room=room)


# ------------------------------------------------------------------ rows: written, read back, checked


def content_hash(raw: bytes) -> str:
    """The hash of a history file's bytes that its row's digest includes."""
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def _values(m: FinishedMatch) -> tuple:
    """A row's values after its name and digest, as stored."""
    record = json.dumps(S.record_to_dict(m.record), separators=(",", ":")) if m.record is not None else None
    return (m.match_id, m.finished_at, m.players[0], m.players[1], m.opponent, m.rules, m.months, m.rounds,
            m.scores[0], m.scores[1], m.winner, m.conceded, 1 if m.unfinished else 0, m.stats_opponent,
            record, m.online_seat, m.room)


def _digest(content: str, name: str, values: tuple) -> str:
    """The digest of a row: its file's content hash and every value of the row, so
    that a file edited in place and a row edited in the database both stop matching."""
    text = json.dumps([content, name, list(values)], ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _row(m: FinishedMatch, content: str) -> tuple:
    values = _values(m)
    return (m.path.name, _digest(content, m.path.name, values)) + values


_NAME_RE = re.compile(r"match-[^/\\\x00-\x1f\x7f]{1,200}\.json")     # any file name the folder can hold
_DIGEST_RE = re.compile(r"[0-9a-f]{32}")
_LABEL_RE = re.compile(r"[a-z0-9_]{1,32}")
_TEXT_MAX = 200                 # a rules name, a house-rules variant's, a CPU's name
_COUNT_MAX = 10 ** 6
_RECORD_MAX = 8192              # a record's JSON: ~60 counts and yaku names


def _text(v: Any, most: int) -> bool:
    return type(v) is str and 0 < len(v) <= most and v.isprintable()


def _small(v: Any, low: int, high: int) -> bool:
    return type(v) is int and low <= v <= high


def _record(v: Any) -> Optional[S.Record]:
    """A stored statistics record, parsed by the defensive reader (depth, size,
    numbers) and checked count by count; ValueError if it is not one."""
    if type(v) is not str or len(v) > _RECORD_MAX:
        raise ValueError("not a statistics record")
    return S.record_from_dict(parse_json(v, max_depth=2))


def _entry(folder: Path, r: Any) -> Optional[FinishedMatch]:
    """The row ``r`` read from the index as a FinishedMatch, or None if any value is
    not one this version writes: such a row is rebuilt from its file."""
    try:
        (name, digest, match_id, when, p0, p1, opponent, rules, months, rounds, s0, s1, winner,
         conceded, unfinished, stats_opponent, record, online_seat, room) = r
        ok = (type(name) is str and _NAME_RE.fullmatch(name) is not None
              and type(digest) is str and _DIGEST_RE.fullmatch(digest) is not None
              and valid_match_id(match_id)
              and type(when) is str and _valid_time(when) == when
              and _text(p0, MAX_NAME_LEN) and _text(p1, MAX_NAME_LEN) and _text(opponent, _TEXT_MAX)
              and _text(rules, _TEXT_MAX)
              and (months is None or _small(months, 1, 1000))
              and _small(rounds, 0, _COUNT_MAX) and _small(s0, -_COUNT_MAX, _COUNT_MAX)
              and _small(s1, -_COUNT_MAX, _COUNT_MAX)
              and (winner is None or _small(winner, 0, 1)) and (conceded is None or _small(conceded, 0, 1))
              and _small(unfinished, 0, 1)
              and type(stats_opponent) is str and _LABEL_RE.fullmatch(stats_opponent) is not None
              and (online_seat is None or _small(online_seat, 0, 1))
              and type(room) is str and (room == "" or _ROOM_RE.fullmatch(room) is not None))
        if not ok:
            return None
        if conceded is not None:        # a concession: the other seat won, nothing counted
            ok = not unfinished and winner == 1 - conceded and record is None
        elif unfinished:
            ok = winner is None and record is None
        else:
            ok = record is not None
        if not ok:
            return None
        rec = _record(record) if record is not None else None
        if rec is not None and not (rec.matches == 1 and rec.wins + rec.draws <= 1 and rec.rounds == rounds
                                    and rec.rounds_won <= rounds):
            return None
    except (TypeError, ValueError, RecursionError, MemoryError):
        return None
    return FinishedMatch(folder / name, when, (p0, p1), opponent, rules, months, rounds, (s0, s1), winner,
                         conceded, unfinished == 1, match_id, stats_opponent, rec, online_seat, room)


def history_files(folder: Path) -> list[str]:
    """The names of the ``match-*.json`` files in ``folder``."""
    out: list[str] = []
    try:
        it = os.scandir(folder)
    except OSError:
        return out
    with it:
        for entry in it:
            name = entry.name
            if name.startswith("match-") and name.endswith(".json") and _NAME_RE.fullmatch(name):
                try:
                    name.encode("utf-8")      # a name of undecodable bytes is no name the game gave
                except UnicodeEncodeError:
                    continue
                out.append(name)
    return out


def _stat_key(st: os.stat_result) -> tuple:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _newest_first(rows) -> list[FinishedMatch]:
    return sorted(rows, key=lambda m: (m.finished_at, m.path.name), reverse=True)


# ------------------------------------------------------------------ reading files (here or in a process)


class _Read(NamedTuple):
    name: str
    content: Optional[str] = None         # the file's content hash (None: gone; "": unreadable)
    match: Optional[FinishedMatch] = None
    error: Optional[str] = None           # why it cannot be used (English, for the log)


def _read_one(folder: Path, name: str, data_root, raw: Optional[bytes] = None) -> _Read:
    path = folder / name
    try:
        if raw is None:
            raw = read_bytes(path, max_bytes=MATCH_MAX_BYTES, root=data_root)
            if raw is None:
                return _Read(name)
    except FileNotFoundError:
        return _Read(name)
    except (BadFile, OSError) as exc:
        return _Read(name, "", error=str(exc) or exc.__class__.__name__)
    content = content_hash(raw)
    try:
        st = os.lstat(path)
        return _Read(name, content, summarize(path, data_root=data_root, mtime=st.st_mtime, raw=raw))
    except FileNotFoundError:
        return _Read(name)
    except (BadFile, ValueError, OSError) as exc:
        return _Read(name, content, error=str(exc) or exc.__class__.__name__)
    except Exception as exc:  # e.g. MemoryError, RecursionError: never let one file stop the rest
        log.warning("history file %s could not be indexed", path, exc_info=True)
        return _Read(name, content, error=str(exc) or exc.__class__.__name__)


def _child_start() -> None:
    try:
        os.nice(5)                 # the game's frames come first
    except (AttributeError, OSError):
        pass


def _read_many(folder: str, names: list, data_root) -> list:
    """In a background process: each file's row as plain values (name, content hash,
    stored values or None, error)."""
    out = []
    for name in names:
        r = _read_one(Path(folder), name, data_root)
        out.append((r.name, r.content, _values(r.match) if r.match is not None else None, r.error))
    return out


def _pool_size() -> int:
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 4))


# ------------------------------------------------------------------ the index

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
            _workers["n"] += 1
        else:
            _workers["n"] -= 1
            if _workers["n"] == 0 and _workers["saved"] is not None:
                sys.setswitchinterval(_workers["saved"])


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


class MatchIndex:
    def __init__(self, history_dir, db_path, *, data_root=None, writable: bool = True):
        self.history_dir = Path(history_dir)
        self.db_path = Path(db_path)
        self.data_root = Path(data_root) if data_root is not None else self.history_dir.parent
        self.writable = writable
        self.version = 0                 # bumped whenever the rows change
        self.removals = 0                # bumped whenever rows are removed or all replaced (read all again)
        self.progress = (0, 0)           # (files read, files to read) of the running refresh
        self.problems: list[str] = []    # files set aside, until someone takes them (take_problems)
        self.pool_from = POOL_FROM       # files to read before processes are started (0: never)
        self._lock = threading.RLock()   # the rows in memory; never held while SQLite works
        self._db: Optional[sqlite3.Connection] = None     # the worker's alone
        self._worker: Optional[threading.Thread] = None
        self._want_pass = False
        self._stop = False
        self._loaded = False             # the database's rows have been read (and checked)
        self._rows: dict[str, FinishedMatch] = {}     # name -> row: what the screens show
        self._digests: dict[str, str] = {}            # name -> digest, as stored
        self._unwritten: dict[str, FinishedMatch] = {}   # added, not yet in the database
        self._sorted: Optional[list[FinishedMatch]] = None
        self._bad: dict[str, str] = {}   # name -> content hash of files that failed and stayed (not re-read)
        self._written: list[FinishedMatch] = []       # every row made by this process, in order
        self._pool = None
        self._hashed: dict[str, tuple] = {}   # name -> (stat, content hash, row, digest) as last checked here
        self._on_disk = True             # False once the file failed in a way renaming cannot help

    # ---------------------------------------------------------- the database (worker thread only)
    def _open(self) -> sqlite3.Connection:
        """The database, opened and checked; raises _Locked if another process holds it."""
        if self._db is not None:
            return self._db
        db = self._open_file() if self.writable and self._on_disk else None
        if db is None:
            db = sqlite3.connect(":memory:", check_same_thread=False)
            if not self.writable:
                self._copy_existing(db)
            if _shape_problem(db) is not None:
                db.close()
                db = sqlite3.connect(":memory:", check_same_thread=False)
        self._ensure_schema(db)
        self._db = db
        return db

    def _file_problem(self) -> Optional[str]:
        """Why the index file (or its journal) must not be opened: a link, not a regular
        file, another user's. None if it is fine or not there."""
        for suffix in ("",) + _SIDE_FILES:
            p = self.db_path.with_name(self.db_path.name + suffix)
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

    def _set_db_aside(self, why: str) -> bool:
        log.warning("history index %s is unusable (%s); setting it aside and rebuilding", self.db_path, why)
        moved = True
        for suffix in _SIDE_FILES:       # a journal left alone would be applied to the new database
            side = self.db_path.with_name(self.db_path.name + suffix)
            if os.path.lexists(side) and move_aside(side) is None:
                moved = False
        if os.path.lexists(self.db_path) and move_aside(self.db_path) is None:
            moved = False
        return moved

    def _connect(self) -> sqlite3.Connection:
        uri = f"file:{quote(str(self.db_path))}?nofollow=1"
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

    def _open_file(self) -> Optional[sqlite3.Connection]:
        for attempt in (1, 2):
            try:
                self.db_path.parent.mkdir(parents=True, exist_ok=True)
                problem = self._file_problem()
                if problem is not None:
                    raise sqlite3.DatabaseError(problem)
                return self._connect()
            except (sqlite3.Error, OSError) as exc:
                if isinstance(exc, sqlite3.Error) and _locked(exc):
                    raise _Locked(str(exc)) from None
                if attempt == 2 or not (isinstance(exc, sqlite3.Error) and _damaged(exc)):
                    log.warning("history index %s cannot be used (%s); keeping it in memory", self.db_path, exc)
                    return None
                if not self._set_db_aside(str(exc)):
                    return None
        return None

    def _copy_existing(self, mem: sqlite3.Connection) -> None:
        """A read-only window starts from the writer's index, if it can read it (never through a link)."""
        if self._file_problem() is not None or not os.path.lexists(self.db_path):
            return
        try:
            src = sqlite3.connect(f"file:{quote(str(self.db_path))}?mode=ro&nofollow=1", uri=True, timeout=BUSY_TIMEOUT)
            try:
                if _shape_problem(src) is None:
                    src.backup(mem)
            finally:
                src.close()
        except sqlite3.Error as exc:
            log.info("could not read the history index %s (%s); building one in memory", self.db_path, exc)

    @staticmethod
    def _ensure_schema(db: sqlite3.Connection) -> None:
        if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            return
        db.executescript(f"{_TABLE_SQL}; {_INDEX_SQL}; PRAGMA user_version = {SCHEMA_VERSION};")
        db.commit()

    def _close_db(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None

    # ---------------------------------------------------------- reading (any thread: memory only)
    def entries(self) -> list[FinishedMatch]:
        """Every known match, newest first."""
        return self.snapshot()[0]

    def snapshot(self) -> tuple[list[FinishedMatch], int]:
        """(every known match, newest first; a mark for ``written_since``). No database
        read: the rows are the ones the worker checked, and the ones just added."""
        with self._lock:
            if self._sorted is None:
                self._sorted = _newest_first(self._rows.values())
            return list(self._sorted), len(self._written)

    def written_since(self, mark: int) -> tuple[list[FinishedMatch], int]:
        """(rows written since ``mark``, in the order written; a new mark)."""
        with self._lock:
            return self._written[mark:], len(self._written)

    def path_of(self, match_id: str) -> Optional[Path]:
        """The history file of the match ``match_id``, if it is indexed and still there."""
        with self._lock:
            loaded = self._loaded
            name = next((m.path.name for m in self._rows.values() if m.match_id == match_id), None)
        if name is None and not loaded:
            name = self._peek_name(match_id)
        if name is None:
            return None
        path = self.history_dir / name
        return path if os.path.lexists(path) else None

    def known_ids(self) -> set:
        """The ids of every indexed match (``path_of`` confirms one): from memory once the
        worker has read the index, else one read-only look in the file, not waiting on a lock."""
        with self._lock:
            if self._loaded:
                return {m.match_id for m in self._rows.values()}
        if self._file_problem() is not None or not self.db_path.is_file():
            return set()
        try:
            db = sqlite3.connect(f"file:{quote(str(self.db_path))}?mode=ro&nofollow=1", uri=True, timeout=0.05)
            try:
                if _shape_problem(db) is not None:
                    return set()
                rows = db.execute("SELECT match_id FROM matches").fetchall()
            finally:
                db.close()
        except sqlite3.Error:
            return set()
        return {r[0] for r in rows if valid_match_id(r[0])}

    def _peek_name(self, match_id: str) -> Optional[str]:
        """Before the worker has read the index: one look in the file, read-only, not
        waiting on a lock (a match filed before under another name is not filed twice)."""
        if self._file_problem() is not None or not self.db_path.is_file():
            return None
        try:
            db = sqlite3.connect(f"file:{quote(str(self.db_path))}?mode=ro&nofollow=1", uri=True, timeout=0.05)
            try:
                if _shape_problem(db) is not None:
                    return None
                row = db.execute("SELECT name FROM matches WHERE match_id = ? LIMIT 1", (match_id,)).fetchone()
            finally:
                db.close()
        except sqlite3.Error:
            return None
        name = row[0] if row else None
        return name if type(name) is str and _NAME_RE.fullmatch(name) else None

    def take_problems(self) -> list[str]:
        with self._lock:
            out, self.problems = self.problems, []
        return out

    @property
    def busy(self) -> bool:
        w = self._worker
        return w is not None and w.is_alive()

    # ---------------------------------------------------------- changes (any thread)
    def add(self, m: FinishedMatch) -> None:
        """Index a file just filed (no need to read it back): shown at once, written
        to the database by the worker."""
        with self._lock:
            self._unwritten[m.path.name] = m
            self._publish({m.path.name: m}, written=[m])
            self._start()

    def refresh(self, *, wait: bool = False) -> None:
        """Bring the index up to date with the folder, on the worker thread (or wait
        for it, with ``wait``). Every file is hashed; only new, changed or unlisted
        ones (and those whose row fails its checks) are replayed."""
        with self._lock:
            self._want_pass = True
            self._start()
        if wait:
            self.wait()

    def _start(self) -> None:
        if self.busy:
            return
        self._stop = False
        self._worker = threading.Thread(target=self._run, name="koikoi-history-index", daemon=True)
        self._worker.start()

    def wait(self, timeout: Optional[float] = None) -> bool:
        w = self._worker
        if w is not None:
            w.join(timeout)
        return not self.busy

    def close(self) -> None:
        self._stop = True
        self.wait(5.0)
        if self.busy:             # still finishing a batch: it closes what it uses on its way out
            return
        with self._lock:
            self._close_db()
        self._end_pool()

    def _publish(self, rows: dict, *, written=(), gone=(), replace_all: bool = False) -> None:
        """Change the rows in memory (under the lock)."""
        if replace_all:
            self._rows = dict(rows)
            self._rows.update(self._unwritten)
            self.removals += 1
        else:
            self._rows.update(rows)
        for name in gone:
            self._rows.pop(name, None)
        if gone:
            self.removals += 1
        self._written.extend(written)
        self._sorted = None
        self.version += 1

    # ---------------------------------------------------------- the worker
    def _run(self) -> None:
        _share_the_interpreter(True)
        waited = 0.0
        failures = 0
        try:
            while not self._stop:
                with self._lock:
                    want_pass, self._want_pass = self._want_pass, False
                    if not want_pass and not self._unwritten and self._loaded:
                        self.progress = (0, 0)
                        self._worker = None
                        return
                try:
                    self._work(want_pass)
                    waited = 0.0
                except _Locked as exc:
                    # another process holds the index: nothing is wrong with it; try again
                    with self._lock:
                        self._want_pass = self._want_pass or want_pass
                    if waited >= LOCK_PATIENCE:
                        log.warning("history index %s stays locked (%s); trying again at the next refresh",
                                    self.db_path, exc)
                        return
                    if waited == 0.0:
                        log.info("history index %s is locked by another process (%s); waiting", self.db_path, exc)
                    time.sleep(LOCK_RETRY)
                    waited += LOCK_RETRY
                except sqlite3.Error as exc:
                    failures += 1
                    if failures > 3:
                        raise
                    # the file failed under us: damaged since it was opened (aside, rebuilt), or it
                    # cannot be written (full disk...: the rows are kept in memory this session)
                    # (the rows shown stay; a fresh database gets them again from their files)
                    on_disk = self._db is not None and self._on_disk and self.writable
                    self._close_db()
                    fresh = on_disk and _damaged(exc) and self._set_db_aside(str(exc))
                    if not fresh:
                        log.warning("history index %s cannot be written (%s); keeping it in memory",
                                    self.db_path, exc)
                        self._on_disk = False
                    with self._lock:
                        if fresh or not self._loaded:   # a new file: every row written again
                            self._digests = {}
                            self._hashed.clear()
                        self._want_pass = True
        except Exception:  # a bug here must not take the game down; the rows stay as they were
            log.exception("history index refresh failed")
        finally:
            self.progress = (0, 0)
            _share_the_interpreter(False)
            self._end_pool()
            if self._stop:                # closed while it ran
                with self._lock:
                    self._close_db()

    def _work(self, want_pass: bool) -> None:
        try:
            db = self._open()
            if not self._loaded:
                self._load(db)
            self._write_unwritten(db)
            if want_pass:
                self._pass(db)
        except sqlite3.Error as exc:
            if _locked(exc):
                raise _Locked(str(exc)) from None
            raise

    def _load(self, db: sqlite3.Connection) -> None:
        """Read the database's rows, checking each; a row that fails is left out
        (the pass rebuilds it from its file)."""
        rows: dict[str, FinishedMatch] = {}
        digests: dict[str, str] = {}
        bad = 0
        cur = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM matches")
        folder = self.history_dir
        while True:
            chunk = cur.fetchmany(512)
            if not chunk:
                break
            for r in chunk:
                m = _entry(folder, r)
                if m is None:
                    bad += 1
                    continue
                rows[m.path.name] = m
                digests[m.path.name] = r[1]
        if bad:
            log.warning("history index %s: %d row(s) are not ones this version writes; rebuilding them",
                        self.db_path, bad)
        with self._lock:
            self._digests = digests
            self._loaded = True
            self._publish(rows, replace_all=True)

    def _write_unwritten(self, db: sqlite3.Connection) -> None:
        with self._lock:
            todo = list(self._unwritten.values())
        if not todo:
            return
        rows = []
        for m in todo:
            r = _read_one(self.history_dir, m.path.name, self.data_root)
            if r.content is not None:
                rows.append(_row(m, r.content))
        self._insert(db, rows)
        with self._lock:
            for m in todo:
                if self._unwritten.get(m.path.name) is m:
                    del self._unwritten[m.path.name]
            for row in rows:
                self._digests[row[0]] = row[1]

    def _insert(self, db: sqlite3.Connection, rows: list) -> None:
        if not rows:
            return
        db.executemany(f"INSERT OR REPLACE INTO matches VALUES ({', '.join('?' * len(_COLUMNS))})", rows)
        db.commit()

    def _pass(self, db: sqlite3.Connection) -> None:
        folder = self.history_dir
        names = set(history_files(folder))
        with self._lock:
            known = dict(self._digests)
            rows = dict(self._rows)
        gone = [n for n in set(known) | set(rows) if n not in names]
        if gone:
            db.executemany("DELETE FROM matches WHERE name = ?", [(n,) for n in gone])
            db.commit()
            with self._lock:
                for n in gone:
                    self._digests.pop(n, None)
                    self._unwritten.pop(n, None)
                self._publish({}, gone=gone)
        # every file is hashed (its bytes kept for a file read here): its row must match it
        todo: list[tuple[str, Optional[bytes]]] = []
        for i, name in enumerate(sorted(names, reverse=True)):
            if self._stop:
                return
            seen = self._hashed.get(name)
            if seen is not None and name in known and name in rows:
                # read by this process and not written since (a write changes the ctime, which
                # no program can set): hashed again only once its stat changes
                try:
                    st = os.lstat(folder / name)
                except OSError:
                    st = None
                if st is not None and seen[0] == _stat_key(st) and seen[2] is rows[name] and seen[3] == known[name]:
                    continue                     # the same bytes, the same row and digest as checked
            try:
                raw = read_bytes(folder / name, max_bytes=MATCH_MAX_BYTES, root=self.data_root)
            except BadFile:
                if self._bad.get(name) != "":
                    todo.append((name, None))    # read again below, to say why and set it aside
                continue
            if raw is None:
                continue
            content = content_hash(raw)
            m = rows.get(name)
            if m is not None and name in known and _digest(content, name, _values(m)) == known[name]:
                self._remember(name, content, m, known[name])
                continue
            if self._bad.get(name) == content:
                continue
            todo.append((name, raw if not self.pool_from or len(todo) < self.pool_from else None))
            if i % 64 == 63:
                time.sleep(0)
        self.progress = (0, len(todo))
        if not todo:
            return
        log.info("history index: reading %d match file(s)", len(todo))
        results = self._read_in_processes(db, [n for n, _r in todo]) if (
            self.pool_from and len(todo) >= self.pool_from) else None
        if results is None:
            self._read_here(db, todo)

    def _read_here(self, db: sqlite3.Connection, todo: list) -> None:
        batch: list[_Read] = []
        for i, (name, raw) in enumerate(todo):
            if self._stop:
                break
            batch.append(_read_one(self.history_dir, name, self.data_root, raw))
            self.progress = (i + 1, len(todo))
            if len(batch) >= BATCH:
                self._take(db, batch)
                batch = []
            if i % 8 == 7:
                time.sleep(0)            # let the render thread have the interpreter
        self._take(db, batch)

    def _read_in_processes(self, db: sqlite3.Connection, names: list) -> Optional[bool]:
        """Read ``names`` in background processes; None if they cannot be started.
        A few chunks are in flight at a time, so that quitting mid-rebuild waits for
        them only (the interpreter's exit lets a pool finish what it was given)."""
        import concurrent.futures as cf
        import multiprocessing
        workers = _pool_size()
        chunk = max(8, min(BATCH // 2, len(names) // (4 * workers) or 8))
        chunks = [names[i:i + chunk] for i in range(0, len(names), chunk)]
        pending: set = set()

        def submit() -> None:
            while chunks and len(pending) < 2 * workers and not self._stop:
                pending.add(self._pool.submit(_read_many, str(self.history_dir), chunks.pop(0), self.data_root))
        try:
            if self._pool is None:
                self._pool = cf.ProcessPoolExecutor(max_workers=workers, initializer=_child_start,
                                                    mp_context=multiprocessing.get_context("spawn"))
            submit()
        except Exception:  # no processes on this system (or in this build): read them here
            log.warning("history index: background processes unavailable; reading here", exc_info=True)
            self._end_pool()
            return None
        done = 0
        try:
            while pending and not self._stop:
                finished, _running = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    pending.discard(future)
                    batch = [_Read(name, content, self._from_child(name, values), error)
                             for name, content, values, error in future.result()]
                    self._take(db, batch)
                    done += len(batch)
                    self.progress = (done, len(names))
                submit()
        except (cf.process.BrokenProcessPool, cf.CancelledError):
            # a process died (killed, out of memory): this index reads here from now on
            log.warning("history index: a background process stopped; reading the rest here")
            self._end_pool()
            self.pool_from = 0
            with self._lock:
                self._want_pass = True
        finally:
            for f in pending:
                f.cancel()
        return True

    def _from_child(self, name: str, values) -> Optional[FinishedMatch]:
        """A row a background process computed, checked like one read from the index."""
        if values is None:
            return None
        return _entry(self.history_dir, (name, "0" * 32) + tuple(values))

    def _remember(self, name: str, content: str, row: FinishedMatch, digest: str) -> None:
        try:
            self._hashed[name] = (_stat_key(os.lstat(self.history_dir / name)), content, row, digest)
        except OSError:
            self._hashed.pop(name, None)

    def _end_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _take(self, db: sqlite3.Connection, batch: list) -> None:
        """Store what was read: rows written, files that cannot be used set aside."""
        rows, made = [], []
        for r in batch:
            if r.match is not None and r.content is not None:
                rows.append(_row(r.match, r.content))
                made.append(r.match)
            elif r.error is not None:
                self._set_aside(self.history_dir / r.name, r.error, r.content)
        if not made:
            return
        with self._lock:          # shown at once; stored (or, if the store fails, read again next time)
            self._publish({m.path.name: m for m in made}, written=made)
        self._insert(db, rows)
        with self._lock:
            for row in rows:
                self._digests[row[0]] = row[1]
        for m in made:
            self._hashed.pop(m.path.name, None)       # hashed again, from its bytes, at the next pass

    def _set_aside(self, path: Path, reason: str, content: Optional[str]) -> None:
        log.warning("history file %s cannot be used: %s", path, reason)
        moved = move_aside(path) if self.writable else None
        with self._lock:
            if moved is None:
                self._bad[path.name] = content if content is not None else ""
            gone = [path.name] if path.name in self._rows else []
            if gone:
                self._digests.pop(path.name, None)
                self._publish({}, gone=gone)
            if moved:
                self.problems.append(_("{file}: {reason} (kept as {kept})").format(
                    file=path.name, reason=reason, kept=moved.name))
            else:
                self.problems.append(_("{file}: {reason}").format(file=path.name, reason=reason))


__all__ = ["MatchIndex", "FinishedMatch", "summarize", "row_of", "history_files", "content_hash", "INDEX_NAME",
           "MATCH_MAX_BYTES"]
