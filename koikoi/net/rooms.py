"""The server's rooms, and where they are kept: one SQLite file in the data folder.

    store = RoomStore(folder)            # <folder>/rooms.sqlite3, WAL mode
    rules, months, house = room_rules("casual", {"weather": True}, 3)   # or ValueError
    room = Room(code, "casual", {...}, rules, months, False, room_session(state), now)
    store.create(room)                    # the room, its taken seats, its opening events
    store.add_seat(room, 1, "playing")    # seat 1 taken
    store.append(room, start, events, status, result)   # new events (written before anyone
                                          # hears of them)
    store.set_status(room, "over", result)
    store.later("append", room, start, events, status, result)   # the same on the writer
                                          # thread: a Future, done once committed (group
                                          # commits); koikoi.net.store awaits them
    rooms = store.load()                  # after a restart: every room, replayed

Tables (``SCHEMA_VERSION`` in ``PRAGMA user_version``):

* ``rooms``: id, code, created, updated, preset, house (JSON), rules (JSON, every
  knob), months, spectators, status (open, playing, over, closed, expired),
  result (JSON: {"reason": "played"|"forfeit", "winner", "conceded", "at"} or NULL),
  rated (1: a quick-match room of the ladder), ladder (JSON: the two players' key
  hashes, or NULL).
  A code is unique among the rooms that are still open or playing.
* ``seats``: room id, seat, name, the SHA-256 of its token (the token itself is
  never stored), joined.
* ``events``: room id, index, the event as ``event_to_dict`` writes it: the whole
  log, hidden cards and seed included (the server's own copy; never sent).

A room read back is replayed (``engine.replay``) and must reproduce its log
exactly, or it is not loaded (and logged).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import os
import sqlite3
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

from ..engine import Rules, State, replay
from ..engine.events import event_from_dict
from ..engine.rules import match_rules
from ..engine.phase import SeatKind
from ..files import move_database_aside
from ..session import MatchSession, SeatConfig
from .protocol import event_text, rules_dict
from .writer import StoreError, Writer

log = logging.getLogger("koikoi.net.rooms")

DB_NAME = "rooms.sqlite3"
SCHEMA_VERSION = 2                  # 2: rooms.rated, rooms.ladder (1 is upgraded)
LIVE = ("open", "playing")
# While a room is played its row's ``updated`` is written with an action's events at most
# this often (seconds): an action then writes its events' page alone, not also the room's
# row and its status index (a third of the pages of a commit). Every status change writes
# it at once; a restart may read a room as up to this much older than its last action.
ROW_EVERY = 60.0
STATUSES = ("open", "playing", "over", "closed", "expired")

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS rooms (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    preset TEXT NOT NULL,
    house TEXT NOT NULL,
    rules TEXT NOT NULL,
    months INTEGER,
    spectators INTEGER NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    rated INTEGER NOT NULL DEFAULT 0,
    ladder TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS rooms_live_code ON rooms(code) WHERE status IN ('open', 'playing');
CREATE INDEX IF NOT EXISTS rooms_status ON rooms(status, updated);
CREATE TABLE IF NOT EXISTS seats (
    room INTEGER NOT NULL REFERENCES rooms(id),
    seat INTEGER NOT NULL CHECK (seat IN (0, 1)),
    name TEXT NOT NULL,
    token_sha256 TEXT NOT NULL,
    joined REAL NOT NULL,
    PRIMARY KEY (room, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS events (
    room INTEGER NOT NULL REFERENCES rooms(id),
    idx INTEGER NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (room, idx)
) WITHOUT ROWID;
PRAGMA user_version = {SCHEMA_VERSION};
"""


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def room_rules(preset: str, house: dict, months: Any = "preset") -> tuple[Rules, Optional[int], dict]:
    """The Rules, months and house-rule changes (those that change something) of a room:
    ``engine.rules.match_rules``, the rules the New match dialog and the house-rules editor
    build. A RulesError (a ValueError) names what is refused. ``months`` left out: the preset's.
    The choices of the last rooms made are kept built (most rooms share a few): a house dict
    of text keys and plain values is looked up, anything else is built afresh."""
    try:
        key = (preset, tuple(sorted((k, type(v).__name__, v) for k, v in house.items())),
               type(months).__name__, months)
        hash(key)
    except (TypeError, AttributeError):     # not a choice a client can send: built, not kept
        return match_rules(preset, house, months)
    rules, months, kept = _room_rules(key)
    return rules, months, dict(kept)


@lru_cache(maxsize=64)
def _room_rules(key: tuple) -> tuple:
    preset, items, _kind, months = key
    return match_rules(preset, {k: v for k, _t, v in items}, months)


def room_session(state: State) -> MatchSession:
    """The MatchSession a room plays its match in: two human seats, nothing written by the
    session itself (the server writes each prepared action to the room store before it
    commits it) and no narration per action (thousands of matches share one log)."""
    return MatchSession(state.rules, seed=state.seed, state=state, record=False, narrate=False,
                        seats=(SeatConfig(SeatKind.HUMAN, "Player 1"), SeatConfig(SeatKind.HUMAN, "Player 2")))


@dataclass
class Seat:
    name: Optional[str] = None
    token_hash: Optional[str] = None
    joined: float = 0.0
    # live, not stored:
    client: Any = None              # the server's connection holding the seat
    presence: str = "empty"         # empty, connected, dropped, left
    since: float = 0.0              # when presence last changed (time.time())

    def token_ok(self, token: str) -> bool:
        return self.token_hash is not None and hmac.compare_digest(self.token_hash, token_hash(token))


@dataclass
class Room:
    code: str
    preset: str
    house: dict
    rules: Rules
    months: Optional[int]
    spectators: bool
    session: MatchSession           # the match: the one gate for every action (koikoi.session)
    created: float
    status: str = "open"
    result: Optional[dict] = None
    seats: list = field(default_factory=lambda: [Seat(), Seat()])
    watchers: set = field(default_factory=set)
    id: Optional[int] = None        # the row id in the store
    updated: float = 0.0
    record: Optional[tuple] = None  # (events, the record's text) once over (frames.record)
    writing: bool = False           # a write of this room is on its way to the store (service.py)
    lock: Any = None                # the transport's RoomLock: one message of the room at a time
    owner: Optional[str] = None     # the address (IPv6: its /64) that created it, this run only
    rated: bool = False             # a quick-match room: its result goes to the ladder
    ladder_hashes: Optional[tuple] = None   # the two players' key hashes (the ladder's)
    row_at: float = 0.0             # when the writer last wrote the row's ``updated`` (ROW_EVERY)

    @property
    def state(self) -> State:
        return self.session.state

    @property
    def events(self) -> tuple:
        return self.session.state.events

    @property
    def live(self) -> bool:
        return self.status in LIVE

    @property
    def names(self) -> list:
        return [s.name for s in self.seats]

    def connections(self) -> int:
        return sum(s.client is not None for s in self.seats) + len(self.watchers)


class RoomStore:
    """The rooms in ``folder/rooms.sqlite3``. Every write is one committed transaction
    (``durable``: synchronous=FULL, the commit is on disk before it returns)."""

    def __init__(self, folder, *, durable: bool = True, commit_window: float = 0.0):
        self.durable = durable
        self.commit_window = commit_window      # the writer thread's (``Writer``'s ``window``)
        self._writer: Optional[Writer] = None
        self._closed = False
        self.folder = Path(folder)
        self.path = self.folder / DB_NAME
        # Private from the first byte: the folder 0700, the database and its -wal and -shm
        # (they hold every dealt hand) 0600. SQLite gives the -wal and -shm the database
        # file's mode; the umask covers what is created meanwhile.
        old_mask = os.umask(0o077)
        try:
            if not self.folder.exists():
                self.folder.mkdir(parents=True, mode=0o700)
            if self.path.is_symlink() or (self.path.exists() and not self.path.is_file()):
                raise StoreError(f"{self.path} is not a regular file")
            self._private_files()
            try:
                self.db = self._connect(durable)
            except sqlite3.DatabaseError as exc:
                # not a database (or a damaged one): set aside, never deleted, and start afresh
                log.warning("room store %s cannot be opened (%s); setting it aside", self.path, exc)
                if move_database_aside(self.path) is None:
                    raise StoreError(f"{self.path} cannot be opened or set aside: {exc}") from None
                self._private_files()
                self.db = self._connect(durable)
            version = self.db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, 1, SCHEMA_VERSION):
                raise StoreError(f"{self.path} has schema {version}; this server reads {SCHEMA_VERSION}")
            if version == 1:         # before quick match: the rated rooms' two columns
                self.db.executescript("ALTER TABLE rooms ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;"
                                      "ALTER TABLE rooms ADD COLUMN ladder TEXT;")
            self.db.executescript(_SCHEMA)
        finally:
            os.umask(old_mask)

    def _private_files(self) -> None:
        """The database created empty with mode 0600 (an empty file is an empty database),
        and the store's files from an earlier run made 0600 if they were not."""
        try:
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                             0o600))
        except FileExistsError:
            pass
        except OSError as exc:
            raise StoreError(f"{self.path} cannot be created: {exc}") from None
        for name in (DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm"):
            p = self.folder / name
            try:
                if p.is_file() and not p.is_symlink() and p.stat().st_mode & 0o077:
                    os.chmod(p, 0o600)
            except OSError:
                pass

    def _connect(self, durable: bool) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path), timeout=5.0, isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA user_version").fetchone()
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def close(self) -> None:
        self._closed = True
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        try:
            self.db.close()
        except sqlite3.Error:
            pass

    @property
    def writer(self) -> Writer:
        """The writer thread (started on first use), with a connection of its own."""
        if self._writer is None:
            if self._closed:
                raise StoreError("the room store is closed")
            self._writer = Writer(lambda: self._connect(self.durable), window=self.commit_window)
        return self._writer

    def _tx(self, work) -> Any:
        try:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                out = work(self.db)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")
            return out
        except sqlite3.Error as exc:
            log.error("room store: %s", exc)
            raise StoreError(str(exc)) from None

    # -------------------------------------------------------------- writes

    def create(self, room: Room) -> int:
        """The room's row (its id, also set on ``room``)."""
        now = time.time()
        room.id = self._tx(self._create_work(room, now))
        room.updated = now
        return room.id

    def later(self, op: str, *args):
        """The write ``op`` (create, add_seat, append, set_status) with ``args`` on the
        writer thread: a ``concurrent.futures.Future`` of what the call would return, done
        once committed (StoreError if not: then nothing of it was written). Whatever is
        read of the room (its events, encoded) is read here, before this returns."""
        return self.writer.submit(getattr(self, "_" + op + "_work")(*args))

    def later_on(self, loop, op: str, *args):
        """``later`` answered as an asyncio future of ``loop`` (the transport awaits it)."""
        return self.writer.submit_to(loop, getattr(self, "_" + op + "_work")(*args))

    def _create_work(self, room: Room, now: Optional[float] = None):
        now = time.time() if now is None else now
        rows = [(i, event_text(e)) for i, e in enumerate(room.events)]
        head = (room.code, room.created, now, room.preset, json.dumps(room.house),
                json.dumps(rules_dict(room.rules)), room.months, int(room.spectators), room.status,
                int(room.rated), json.dumps(list(room.ladder_hashes)) if room.ladder_hashes else None)
        seats = [(i, s.name, s.token_hash, s.joined) for i, s in enumerate(room.seats) if s.name is not None]

        def work(db):
            cur = db.execute(
                "INSERT INTO rooms (code, created, updated, preset, house, rules, months, spectators,"
                " status, result, rated, ladder) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)", head)
            rid = cur.lastrowid
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?)", [(rid,) + s for s in seats])
            db.executemany("INSERT INTO events VALUES (?, ?, ?)", [(rid, i, text) for i, text in rows])
            room.row_at = now
            return rid
        return work

    def code_taken(self, code: str) -> bool:
        try:
            return self.db.execute("SELECT 1 FROM rooms WHERE code = ? AND status IN ('open', 'playing')",
                                   (code,)).fetchone() is not None
        except sqlite3.Error:
            return True

    def add_seat(self, room: Room, seat: int, status: str) -> float:
        room.updated = self._tx(self._add_seat_work(room, seat, status))
        return room.updated

    @staticmethod
    def _add_seat_work(room: Room, seat: int, status: str, now: Optional[float] = None):
        now = time.time() if now is None else now
        s = room.seats[seat]
        row = (room.id, seat, s.name, s.token_hash, s.joined)
        rid = room.id

        def work(db):
            db.execute("INSERT INTO seats VALUES (?, ?, ?, ?, ?)", row)
            db.execute("UPDATE rooms SET status = ?, updated = ? WHERE id = ?", (status, now, rid))
            room.row_at = now
            return now
        return work

    def append(self, room: Room, start: int, events, status: str, result: Optional[dict]) -> float:
        """Events ``start``.. of the room's log (and its status/result after them)."""
        room.updated = self._tx(self._append_work(room, start, events, status, result))
        return room.updated

    @staticmethod
    def _append_work(room: Room, start: int, events, status: str, result: Optional[dict]):
        rows = [(room.id, start + i, event_text(e)) for i, e in enumerate(events)]
        result_json = json.dumps(result) if result is not None else None
        rid = room.id

        changed = status != room.status or result is not None

        def work(db):
            now = time.time()
            db.executemany("INSERT INTO events VALUES (?, ?, ?)", rows)
            if changed or now - room.row_at >= ROW_EVERY:
                db.execute("UPDATE rooms SET status = ?, result = ?, updated = ? WHERE id = ?",
                           (status, result_json, now, rid))
                room.row_at = now
            return now
        return work

    def set_status(self, room: Room, status: str, result: Optional[dict] = None) -> float:
        room.updated = self._tx(self._set_status_work(room, status, result))
        return room.updated

    @staticmethod
    def _set_status_work(room: Room, status: str, result: Optional[dict] = None):
        row = (status, json.dumps(result) if result is not None else None, room.id)

        def work(db):
            now = time.time()
            db.execute("UPDATE rooms SET status = ?, result = ?, updated = ? WHERE id = ?",
                       (status, row[1], now, row[2]))
            room.row_at = now
            return now
        return work

    # -------------------------------------------------------------- reading back

    def load(self, *, keep_finished: float = 3600.0, now: Optional[float] = None) -> list[Room]:
        """The rooms a server starting now holds: every open or playing room, and those
        that ended less than ``keep_finished`` seconds ago (to tell their players). Each is
        replayed from its log; one that does not replay is logged and left out."""
        now = time.time() if now is None else now
        rows = self.db.execute(
            "SELECT id, code, created, updated, preset, house, rules, months, spectators, status, result,"
            " rated, ladder"
            " FROM rooms WHERE status IN ('open', 'playing') OR (status = 'over' AND updated >= ?)"
            " ORDER BY id DESC", (now - keep_finished,)).fetchall()
        out = []
        seen = set()
        for row in rows:
            try:
                room = self._room(row)
            except (ValueError, TypeError, KeyError, sqlite3.Error) as exc:
                log.error("room %s (id %s) cannot be resumed: %s", row[1], row[0], str(exc)[:200])
                continue
            if room.code in seen:       # a finished room whose code a live one took again
                continue
            seen.add(room.code)
            out.append(room)
        return out[::-1]

    def _room(self, row) -> Room:
        rid, code, created, updated, preset, house, rules_json, months, spectators, status, result, rated, \
            hashes = row
        if status not in STATUSES:
            raise ValueError(f"status {status!r}")
        rules = Rules.from_dict(json.loads(rules_json))
        events = tuple(event_from_dict(json.loads(text)) for (text,) in self.db.execute(
            "SELECT event FROM events WHERE room = ? ORDER BY idx", (rid,)))
        state = replay(events)
        if state.events != events:
            raise ValueError("the log does not replay to itself")
        if state.rules != rules or state.months != months:
            raise ValueError("the room's rules differ from its log's")
        room = Room(code, preset, json.loads(house), rules, months, bool(spectators), room_session(state), created,
                    status, json.loads(result) if result else None, id=rid, updated=updated,
                    row_at=updated, rated=bool(rated), ladder_hashes=tuple(json.loads(hashes)) if hashes else None)
        for seat, name, th, joined in self.db.execute(
                "SELECT seat, name, token_sha256, joined FROM seats WHERE room = ?", (rid,)):
            room.seats[seat] = Seat(name, th, joined)
        return room
