"""The index of finished matches: what History and Statistics show, without
replaying thousands of logs each time they open.

    index = MatchIndex(history_dir, data_dir / INDEX_NAME, data_root=data_dir)
    index.refresh()              # in the background: (re)read new or changed files
    index.entries()              # FinishedMatch rows, newest first (what is indexed so far)
    index.version, index.busy, index.progress   # for a screen that waits

The JSON logs in the history folder stay the truth; the index is a cache of
what each one says, kept in SQLite (standard library, WAL mode) beside them.
A row is keyed by the file's name, size and modification time: a new file, a
changed one or a missing index is (re)read on a worker thread, so a screen
draws what is known and updates when the worker is done. An index that
cannot be opened (corrupt, another version's) is set aside and rebuilt.

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

import json
import logging
import os
import re
import sqlite3
import sys
import threading
import time
from datetime import datetime
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple, Optional
from urllib.parse import quote

from . import stats as S
from .files import BadFile, move_aside, move_database_aside, read_json
from .i18n import _
from .session import load_match
from .engine.phase import SeatKind

log = logging.getLogger("koikoi.index")

INDEX_NAME = "history-index.sqlite3"
SCHEMA_VERSION = 2               # 2: the online columns (an index of another version is rebuilt)
MATCH_MAX_BYTES = 8 << 20        # a 12-month log is ~40 KB; an endless house-rules match stays far below
BATCH = 64                       # rows written per transaction while building

_COLUMNS = ("name", "size", "mtime_ns", "match_id", "finished_at", "player0", "player1", "opponent",
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
    record: Optional[str] = None  # koikoi.stats.Record as JSON
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


def summarize(path: Path, *, data_root=None, mtime: Optional[float] = None) -> FinishedMatch:
    """The history row of one file; BadFile or ValueError if it cannot be used."""
    data = read_json(path, max_bytes=MATCH_MAX_BYTES, root=data_root)
    if data is None:
        raise FileNotFoundError(str(path))
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
        record=json.dumps(S.record_to_dict(rec)) if rec is not None else None,
        online_seat=online_seat, room=room)


def _row(m: FinishedMatch, size: int, mtime_ns: int) -> tuple:
    return (m.path.name, size, mtime_ns, m.match_id, m.finished_at, m.players[0], m.players[1], m.opponent,
            m.rules, m.months, m.rounds, m.scores[0], m.scores[1], m.winner, m.conceded,
            1 if m.unfinished else 0, m.stats_opponent, m.record, m.online_seat, m.room)


def _entry(folder: Path, r: tuple) -> FinishedMatch:
    (name, _size, _mtime, match_id, when, p0, p1, opponent, rules, months, rounds, s0, s1, winner,
     conceded, unfinished, stats_opponent, record, online_seat, room) = r
    return FinishedMatch(folder / name, when, (p0, p1), opponent, rules, months, rounds, (s0, s1), winner,
                         conceded, unfinished == 1, match_id, stats_opponent, record,
                         online_seat if online_seat in (0, 1) else None, room or "")


def history_files(folder: Path) -> dict[str, tuple[int, int]]:
    """name -> (size, mtime_ns) of the ``match-*.json`` files in ``folder``."""
    out: dict[str, tuple[int, int]] = {}
    try:
        it = os.scandir(folder)
    except OSError:
        return out
    with it:
        for entry in it:
            name = entry.name
            if not (name.startswith("match-") and name.endswith(".json")):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            out[name] = (st.st_size, st.st_mtime_ns)
    return out


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


class MatchIndex:
    def __init__(self, history_dir, db_path, *, data_root=None, writable: bool = True):
        self.history_dir = Path(history_dir)
        self.db_path = Path(db_path)
        self.data_root = Path(data_root) if data_root is not None else self.history_dir.parent
        self.writable = writable
        self.version = 0                 # bumped whenever the rows change
        self.removals = 0                # bumped whenever rows are removed (a screen reads all again)
        self.progress = (0, 0)           # (files read, files to read) of the running refresh
        self.problems: list[str] = []    # files set aside, until someone takes them (take_problems)
        self._lock = threading.RLock()
        self._db: Optional[sqlite3.Connection] = None
        self._worker: Optional[threading.Thread] = None
        self._again = False
        self._stop = False
        self._bad: dict[str, tuple[int, int]] = {}   # files that failed and stayed (read-only): not re-read
        self._written: list[FinishedMatch] = []       # every row written by this process, in order

    # ---------------------------------------------------------- the database
    def _open(self) -> sqlite3.Connection:
        if self._db is not None:
            return self._db
        db = None
        if self.writable:
            db = self._open_file()
        if db is None:
            db = sqlite3.connect(":memory:", check_same_thread=False)
            self._copy_existing(db)
        self._ensure_schema(db)
        self._db = db
        return db

    def _open_file(self) -> Optional[sqlite3.Connection]:
        for attempt in (1, 2):
            try:
                self.db_path.parent.mkdir(parents=True, exist_ok=True)
                if os.path.lexists(self.db_path) and not self.db_path.is_file():
                    raise sqlite3.DatabaseError("not a regular file")
                db = sqlite3.connect(str(self.db_path), check_same_thread=False, timeout=2.0)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if version not in (0, SCHEMA_VERSION):
                    raise sqlite3.DatabaseError(f"index schema {version}, this version writes {SCHEMA_VERSION}")
                if version == SCHEMA_VERSION:
                    db.execute("SELECT count(*) FROM matches").fetchone()
                return db
            except (sqlite3.Error, OSError) as exc:
                try:
                    db.close()  # type: ignore[union-attr]
                except Exception:
                    pass
                db = None
                if attempt == 2 or isinstance(exc, OSError) and not os.path.lexists(self.db_path):
                    log.warning("history index %s cannot be used (%s); keeping it in memory", self.db_path, exc)
                    return None
                log.warning("history index %s is unusable (%s); setting it aside and rebuilding",
                            self.db_path, exc)
                if move_database_aside(self.db_path) is None:
                    return None
        return None

    def _copy_existing(self, mem: sqlite3.Connection) -> None:
        """A read-only window starts from the writer's index, if it can read it."""
        if not self.db_path.is_file():
            return
        try:
            src = sqlite3.connect(f"file:{quote(str(self.db_path))}?mode=ro", uri=True, timeout=1.0)
            try:
                if src.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
                    src.backup(mem)
            finally:
                src.close()
        except sqlite3.Error as exc:
            log.info("could not read the history index %s (%s); building one in memory", self.db_path, exc)

    @staticmethod
    def _ensure_schema(db: sqlite3.Connection) -> None:
        if db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION:
            return
        db.executescript(f"""
            CREATE TABLE IF NOT EXISTS matches (
                name TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, match_id TEXT,
                finished_at TEXT, player0 TEXT, player1 TEXT, opponent TEXT, rules TEXT,
                months INTEGER, rounds INTEGER, score0 INTEGER, score1 INTEGER, winner INTEGER,
                conceded INTEGER, unfinished INTEGER, stats_opponent TEXT, record TEXT,
                online_seat INTEGER, room TEXT);
            CREATE INDEX IF NOT EXISTS matches_by_id ON matches(match_id);
            PRAGMA user_version = {SCHEMA_VERSION};
        """)
        db.commit()

    # ---------------------------------------------------------- reading
    def entries(self) -> list[FinishedMatch]:
        """Every indexed match, newest first."""
        return self.snapshot()[0]

    def snapshot(self) -> tuple[list[FinishedMatch], int]:
        """(every indexed match, newest first; a mark for ``written_since``)."""
        with self._lock:
            mark = len(self._written)
            try:
                rows = self._open().execute(
                    f"SELECT {', '.join(_COLUMNS)} FROM matches ORDER BY finished_at DESC, name DESC").fetchall()
            except sqlite3.Error as exc:
                log.error("history index read failed: %s", exc)
                return [], mark
        folder = self.history_dir
        return [_entry(folder, r) for r in rows], mark

    def written_since(self, mark: int) -> tuple[list[FinishedMatch], int]:
        """(rows written since ``mark``, in the order written; a new mark).

        No database read: while a worker replays logs, every row read from
        SQLite would make the render thread wait for the interpreter lock
        again, and a screen polling a rebuild would stutter."""
        with self._lock:
            return self._written[mark:], len(self._written)

    def path_of(self, match_id: str) -> Optional[Path]:
        """The history file of the match ``match_id``, if it is indexed and still there."""
        with self._lock:
            try:
                row = self._open().execute("SELECT name FROM matches WHERE match_id = ? LIMIT 1",
                                           (match_id,)).fetchone()
            except sqlite3.Error:
                return None
        if row is None:
            return None
        path = self.history_dir / row[0]
        return path if os.path.lexists(path) else None

    def take_problems(self) -> list[str]:
        with self._lock:
            out, self.problems = self.problems, []
        return out

    @property
    def busy(self) -> bool:
        w = self._worker
        return w is not None and w.is_alive()

    # ---------------------------------------------------------- writing
    def add(self, m: FinishedMatch) -> None:
        """Index a file just filed (no need to read it back)."""
        try:
            st = os.stat(m.path)
        except OSError:
            return
        with self._lock:
            try:
                db = self._open()
                db.execute(f"INSERT OR REPLACE INTO matches VALUES ({', '.join('?' * len(_COLUMNS))})",
                           _row(m, st.st_size, st.st_mtime_ns))
                db.commit()
            except sqlite3.Error as exc:
                log.error("history index write failed: %s", exc)
                return
            self._written.append(m)
            self.version += 1

    def refresh(self, *, wait: bool = False) -> None:
        """Bring the index up to date with the folder, on a worker thread (or
        here, with ``wait``). Files already indexed unchanged are not read."""
        with self._lock:
            if self.busy:
                self._again = True       # the folder changed while it ran: one more pass
            else:
                self._stop = False
                self._worker = threading.Thread(target=self._run, name="koikoi-history-index", daemon=True)
                self._worker.start()
        if wait:
            self.wait()

    def wait(self, timeout: Optional[float] = None) -> bool:
        w = self._worker
        if w is not None:
            w.join(timeout)
        return not self.busy

    def close(self) -> None:
        self._stop = True
        self.wait(5.0)
        with self._lock:
            if self._db is not None:
                try:
                    self._db.close()
                except sqlite3.Error:
                    pass
                self._db = None

    def _run(self) -> None:
        _share_the_interpreter(True)
        try:
            while True:
                self._pass()
                with self._lock:
                    if not self._again or self._stop:
                        self._worker_done()
                        return
                    self._again = False
        except Exception:  # a bug here must not take the game down; the rows stay as they were
            log.exception("history index refresh failed")
            self._worker_done()
        finally:
            _share_the_interpreter(False)

    def _worker_done(self) -> None:
        self.progress = (0, 0)

    def _pass(self) -> None:
        on_disk = history_files(self.history_dir)
        with self._lock:
            db = self._open()
            known = {name: (size, mtime) for name, size, mtime in
                     db.execute("SELECT name, size, mtime_ns FROM matches")}
        gone = [n for n in known if n not in on_disk]
        todo = sorted((n for n, key in on_disk.items() if known.get(n) != key and self._bad.get(n) != key),
                      reverse=True)
        if gone:
            with self._lock:
                db.executemany("DELETE FROM matches WHERE name = ?", [(n,) for n in gone])
                db.commit()
                self.removals += 1
                self.version += 1
        self.progress = (0, len(todo))
        batch: list[tuple[tuple, FinishedMatch]] = []
        for i, name in enumerate(todo):
            if self._stop:
                break
            size, mtime_ns = on_disk[name]
            path = self.history_dir / name
            try:
                m = summarize(path, data_root=self.data_root, mtime=mtime_ns / 1e9)
                batch.append((_row(m, size, mtime_ns), m))
            except FileNotFoundError:
                pass
            except (BadFile, ValueError) as exc:
                self._set_aside(path, exc, (size, mtime_ns))
            except Exception as exc:  # e.g. MemoryError: never let one file stop the rest
                log.exception("history file %s could not be indexed", path)
                self._set_aside(path, exc, (size, mtime_ns))
            self.progress = (i + 1, len(todo))
            if len(batch) >= BATCH or (batch and i == len(todo) - 1):
                self._write(batch)
                batch = []
            if i % 8 == 7:
                time.sleep(0)            # let the render thread have the interpreter
        if batch:
            self._write(batch)

    def _write(self, batch: list[tuple[tuple, FinishedMatch]]) -> None:
        with self._lock:
            db = self._open()
            db.executemany(f"INSERT OR REPLACE INTO matches VALUES ({', '.join('?' * len(_COLUMNS))})",
                           [row for row, _m in batch])
            db.commit()
            self._written.extend(m for _row, m in batch)
            self.version += 1

    def _set_aside(self, path: Path, exc: BaseException, key: tuple[int, int]) -> None:
        reason = str(exc) or exc.__class__.__name__
        log.warning("history file %s cannot be used: %s", path, reason)
        moved = move_aside(path) if self.writable else None
        with self._lock:
            if moved is None:
                self._bad[path.name] = key
            if moved:
                self.problems.append(_("{file}: {reason} (kept as {kept})").format(
                    file=path.name, reason=reason, kept=moved.name))
            else:
                self.problems.append(_("{file}: {reason}").format(file=path.name, reason=reason))


__all__ = ["MatchIndex", "FinishedMatch", "summarize", "row_of", "history_files", "INDEX_NAME", "MATCH_MAX_BYTES"]
