"""The ladder's shared state: profiles, ratings with their history, the waiting
queue and the room directory (room code -> the server process holding it).

open_store(None) is the embedded SQLite default (one server process, nothing to
install); open_store("postgresql://...") lets several server processes share one
PostgreSQL. Both speak the same SQL through one class; only the locking differs.
Every write is one transaction; a rating update locks both players' rows first, so
two processes finishing matches of the same player at once never lose an update.
"""
from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from pathlib import Path
from typing import Iterator, Optional, Union

from .. import paths
from . import identity, matchmaking, ratings
from .records import (PROFILE_COLUMNS, HistoryPoint, KeyReplaced, LadderError, MatchResult, Profile, RoomLocation,
                      profile_from_row)
from .schema import LATEST, MIGRATIONS

DB_FILE = "ladder.sqlite3"
LEADERBOARD_MAX = 100
HISTORY_MAX = 500


class Store:
    """One connection, one lock: safe to share between the server's threads."""

    dialect = ""

    def __init__(self, conn):
        self._conn = conn
        self._lock = threading.RLock()

    # -- dialect hooks ---------------------------------------------------
    def _sql(self, text: str) -> str:
        return text

    def _for_update(self) -> str:
        return ""

    @contextlib.contextmanager
    def _tx(self) -> Iterator["Store"]:
        raise NotImplementedError

    def _run(self, sql: str, params=()):
        return self._conn.execute(self._sql(sql), params)

    def _one(self, sql: str, params=()):
        return self._run(sql, params).fetchone()

    def _all(self, sql: str, params=()) -> list:
        return self._run(sql, params).fetchall()

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- migrations ------------------------------------------------------
    def _migration_lock(self) -> None:
        pass

    def version(self) -> int:
        with self._tx():
            return self._version()

    def _version(self) -> int:
        self._run("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
        row = self._one("SELECT MAX(version) FROM schema_version")
        return row[0] or 0 if row else 0

    def migrate(self) -> int:
        """Apply the missing numbered migrations, each in its own transaction."""
        for number, statements in MIGRATIONS:
            with self._tx():
                self._migration_lock()
                current = self._version()
                if current > LATEST:
                    raise LadderError(f"the database is at schema {current}, newer than this "
                                      f"program's {LATEST}: update the program")
                if current >= number:
                    continue
                for statement in statements:
                    self._run(statement.replace("{id}", self._autoid))
                self._run("INSERT INTO schema_version (version) VALUES (?)", (number,))
        return self.version()

    # -- profiles --------------------------------------------------------
    def ensure_profile(self, key_hash: str, name: str, now: Optional[float] = None) -> Profile:
        """The key's profile, made with `name` (already checked) on first sight."""
        now = time.time() if now is None else now
        with self._tx():
            d = ratings.Rating()
            self._run("INSERT INTO profiles (key_hash, player_id, name, created, rating, rd, vol) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key_hash) DO NOTHING",
                      (key_hash, identity.player_id(key_hash), name, now, d.rating, d.rd, d.vol))
            p = self._profile_where("key_hash = ?", key_hash)
        if p.replaced_by:
            raise KeyReplaced(p.player_id)
        return p

    def _profile_where(self, where: str, value) -> Optional[Profile]:
        row = self._one(f"SELECT {PROFILE_COLUMNS} FROM profiles WHERE {where}", (value,))
        return profile_from_row(row) if row else None

    def profile(self, key_hash: str) -> Optional[Profile]:
        with self._tx():
            return self._profile_where("key_hash = ?", key_hash)

    def profile_by_id(self, player_id: str) -> Optional[Profile]:
        with self._tx():
            return self._profile_where("player_id = ?", player_id)

    def rename(self, key_hash: str, name: str) -> Profile:
        """A new display name (already checked); the rating stays."""
        with self._tx():
            self._run("UPDATE profiles SET name = ? WHERE key_hash = ?", (name, key_hash))
            p = self._profile_where("key_hash = ?", key_hash)
        if p is None:
            raise LadderError("no such profile")
        return p

    # -- ratings ---------------------------------------------------------
    def record_match(self, match_id: str, winner: str, loser: str, *, preset: str, length: int,
                     claimed: bool = False, draw: bool = False,
                     now: Optional[float] = None) -> Optional[MatchResult]:
        """Rate one finished quick match (key hashes of winner and loser; for a claimed
        match the loser is the one who left; ``draw``: equal scores, the two are just the
        seats and each scores one half). Once per match_id: a repeat (a restarted
        process filing again) returns None and changes nothing."""
        if winner == loser:
            raise LadderError("a player cannot beat themself")
        now = time.time() if now is None else now
        with self._tx():
            rows = self._all(f"SELECT {PROFILE_COLUMNS} FROM profiles WHERE key_hash IN (?, ?) "
                             f"ORDER BY key_hash{self._for_update()}", (winner, loser))
            found = {r[8]: profile_from_row(r) for r in rows}
            if winner not in found or loser not in found:
                raise LadderError("both players need a profile")
            if self._one("SELECT 1 FROM rated_matches WHERE match_id = ?", (match_id,)):
                return None
            w, lo = found[winner], found[loser]
            if draw:
                nw, nl = ratings.after_draw(w.rating, lo.rating)
            else:
                nw, nl = ratings.after_match(w.rating, lo.rating)
            won, drew = (0, 1) if draw else (1, 0)
            for key, r, wins in ((winner, nw, won), (loser, nl, 0)):
                self._run("UPDATE profiles SET rating = ?, rd = ?, vol = ?, matches = matches + 1, "
                          "wins = wins + ?, draws = draws + ? WHERE key_hash = ?",
                          (r.rating, r.rd, r.vol, wins, drew, key))
            self._run("INSERT INTO rated_matches (match_id, finished, preset, length, claimed, winner, "
                      "loser, winner_before, winner_after, loser_before, loser_after, draw) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      (match_id, now, preset, int(length), int(bool(claimed)), winner, loser,
                       w.rating.rating, nw.rating, lo.rating.rating, nl.rating, drew))
            return MatchResult(match_id, self._profile_where("key_hash = ?", winner),
                               self._profile_where("key_hash = ?", loser),
                               w.rating.rating, lo.rating.rating)

    def leaderboard(self, limit: int = 20, offset: int = 0) -> list[Profile]:
        """Rated players, best first (players who never finished a match are not listed)."""
        limit = max(0, min(int(limit), LEADERBOARD_MAX))
        with self._tx():
            return [profile_from_row(r) for r in self._all(
                f"SELECT {PROFILE_COLUMNS} FROM profiles WHERE matches > 0 AND replaced_by IS NULL "
                "ORDER BY rating DESC, player_id LIMIT ? OFFSET ?", (limit, max(0, int(offset))))]

    def place(self, key_hash: str) -> Optional[int]:
        """1-based place on the leaderboard, None while unrated."""
        with self._tx():
            p = self._profile_where("key_hash = ?", key_hash)
            if p is None or p.matches == 0 or p.replaced_by:
                return None
            row = self._one("SELECT COUNT(*) FROM profiles WHERE matches > 0 AND replaced_by IS NULL "
                            "AND (rating > ? OR (rating = ? AND player_id < ?))",
                            (p.rating.rating, p.rating.rating, p.player_id))
            return row[0] + 1

    def history(self, key_hash: str, limit: int = HISTORY_MAX) -> list[HistoryPoint]:
        """The player's rating after each rated match, oldest first."""
        limit = max(0, min(int(limit), HISTORY_MAX))
        with self._tx():
            rows = self._all(
                "SELECT m.match_id, m.finished, "
                "CASE WHEN m.winner = ? THEN m.winner_after ELSE m.loser_after END, "
                "o.player_id, CASE WHEN m.winner = ? AND m.draw = 0 THEN 1 ELSE 0 END, m.draw "
                "FROM rated_matches m JOIN profiles o ON o.key_hash = "
                "CASE WHEN m.winner = ? THEN m.loser ELSE m.winner END "
                "WHERE m.winner = ? OR m.loser = ? ORDER BY m.seq DESC LIMIT ?",
                (key_hash,) * 5 + (limit,))
        return [HistoryPoint(r[0], r[1], r[2], r[3], bool(r[4]), bool(r[5])) for r in reversed(rows)]

    def record_against(self, key_hash: str) -> list[dict]:
        """Wins, losses and draws against each opponent met, most met first."""
        with self._tx():
            rows = self._all(
                "SELECT o.player_id, o.name, SUM(CASE WHEN m.winner = ? AND m.draw = 0 THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN m.loser = ? AND m.draw = 0 THEN 1 ELSE 0 END), SUM(m.draw) "
                "FROM rated_matches m JOIN profiles o ON o.key_hash = "
                "CASE WHEN m.winner = ? THEN m.loser ELSE m.winner END "
                "WHERE m.winner = ? OR m.loser = ? GROUP BY o.player_id, o.name",
                (key_hash,) * 5)
        out = [{"id": r[0], "name": r[1], "wins": int(r[2]), "losses": int(r[3]), "draws": int(r[4])}
               for r in rows]
        out.sort(key=lambda d: (-(d["wins"] + d["losses"] + d["draws"]), d["id"]))
        return out

    def rated_count(self) -> int:
        """How many players the leaderboard lists."""
        with self._tx():
            return self._one("SELECT COUNT(*) FROM profiles WHERE matches > 0 AND replaced_by IS NULL")[0]

    # -- what the protocol answers (public data only) ----------------------
    def board_view(self, limit: int = 20, offset: int = 0) -> list[dict]:
        """The leaderboard as a message carries it: place and public fields."""
        offset = max(0, int(offset))
        return [dict(p.public(), place=offset + i + 1)
                for i, p in enumerate(self.leaderboard(limit, offset))]

    def profile_view(self, key_hash: str) -> Optional[dict]:
        """A profile as a message carries it: public fields, place (None while
        unrated), the rating after each rated match and the record against each
        opponent met. No key hash leaves the store."""
        p = self.profile(key_hash)
        if p is None:
            return None
        return dict(p.public(), place=self.place(key_hash),
                    history=[{"rating": round(h.rating), "won": h.won, "draw": h.draw,
                              "opponent": h.opponent_id, "at": round(h.finished)}
                             for h in self.history(key_hash)],
                    against=self.record_against(key_hash))

    # -- the waiting queue -----------------------------------------------
    def enqueue(self, key_hash: str, preset: str, length: int, process: str,
                now: Optional[float] = None, since: Optional[float] = None) -> matchmaking.Waiter:
        """Wait for a quick match (again: the choice and the clock start anew, unless
        ``since`` keeps an earlier wait's place)."""
        now = time.time() if now is None else now
        since = now if since is None else since
        with self._tx():
            p = self._profile_where("key_hash = ?", key_hash)
            if p is None:
                raise LadderError("no such profile")
            if p.replaced_by:
                raise KeyReplaced(p.player_id)
            self._run("DELETE FROM matched WHERE key_hash = ?", (key_hash,))
            self._run("INSERT INTO queue (key_hash, preset, length, rating, since, process, seen) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key_hash) DO UPDATE SET "
                      "preset = excluded.preset, length = excluded.length, rating = excluded.rating, "
                      "since = excluded.since, process = excluded.process, seen = excluded.seen",
                      (key_hash, preset, int(length), p.rating.rating, since, process, now))
        return matchmaking.Waiter(key_hash, preset, int(length), p.rating.rating, since)

    def leave_queue(self, key_hash: str) -> bool:
        """Cancel: True if the player was still waiting (False: already matched)."""
        with self._tx():
            return self._run("DELETE FROM queue WHERE key_hash = ?", (key_hash,)).rowcount > 0

    def _lock_queue(self) -> None:
        pass

    def take_pairs(self, now: Optional[float] = None) -> list[tuple[matchmaking.Waiter, matchmaking.Waiter]]:
        """Pair whoever can be paired now (matchmaking.pair) and take them off the queue,
        atomically: of two processes calling at once, each player lands in one pair only.
        The caller makes each pair's room, then calls announce_match."""
        now = time.time() if now is None else now
        with self._tx():
            self._lock_queue()
            waiting = [matchmaking.Waiter(r[0], r[1], r[2], r[3], r[4]) for r in self._all(
                f"SELECT key_hash, preset, length, rating, since FROM queue{self._for_update()}")]
            pairs = matchmaking.pair(waiting, now)
            for a, b in pairs:
                self._run("DELETE FROM queue WHERE key_hash IN (?, ?)", (a.key, b.key))
        return pairs

    def take_pairs_for(self, process: str, now: Optional[float] = None, stale_after: float = 30.0
                       ) -> list[tuple[tuple[matchmaking.Waiter, str], tuple[matchmaking.Waiter, str]]]:
        """take_pairs for one process: only the pairs holding at least one player waiting
        on ``process`` are taken (the others are left to their own processes, so a room
        lives where one of its players already is), each player with its process. Rows
        of a process that has not refreshed them for ``stale_after`` seconds (one killed
        before it could clear its queue) are dropped, never paired."""
        now = time.time() if now is None else now
        with self._tx():
            self._lock_queue()
            self._run("DELETE FROM queue WHERE seen < ? AND process <> ?", (now - stale_after, process))
            rows = self._all(f"SELECT key_hash, preset, length, rating, since, process FROM queue"
                             f"{self._for_update()}")
            where = {r[0]: r[5] for r in rows}
            waiting = [matchmaking.Waiter(r[0], r[1], r[2], r[3], r[4]) for r in rows]
            taken = [((a, where[a.key]), (b, where[b.key])) for a, b in matchmaking.pair(waiting, now)
                     if process in (where[a.key], where[b.key])]
            keys = [w.key for pair in taken for w, _p in pair]
            for i in range(0, len(keys), 400):          # one statement a few hundred players
                chunk = keys[i:i + 400]
                self._run(f"DELETE FROM queue WHERE key_hash IN ({', '.join('?' * len(chunk))})", chunk)
        return taken

    def names(self, key_hashes) -> dict:
        """key hash -> display name, for the given players (one query)."""
        keys = list(dict.fromkeys(key_hashes))
        out: dict = {}
        with self._tx():
            for i in range(0, len(keys), 400):
                chunk = keys[i:i + 400]
                out.update(self._all(f"SELECT key_hash, name FROM profiles WHERE key_hash IN "
                                     f"({', '.join('?' * len(chunk))})", chunk))
        return out

    def place_rooms(self, rooms, announce=(), now: Optional[float] = None) -> None:
        """Several rooms registered (each (code, process, address, preset, length)) and
        remote players told (each as announce_remote's arguments), in one transaction."""
        now = time.time() if now is None else now
        with self._tx():
            for code, process, address, preset, length in rooms:
                self.register_room(code, process, address, now, preset=preset, length=length)
            for args in announce:
                self.announce_remote(*args, now=now)

    def refresh_queue(self, process: str, now: Optional[float] = None) -> None:
        """The players waiting on ``process`` are still there (see take_pairs_for)."""
        now = time.time() if now is None else now
        with self._tx():
            self._run("UPDATE queue SET seen = ? WHERE process = ?", (now, process))

    def clear_queue(self, process: str) -> int:
        """Nobody waits on ``process`` any more (it starts, or it stops)."""
        with self._tx():
            return self._run("DELETE FROM queue WHERE process = ?", (process,)).rowcount

    def announce_remote(self, key_hash: str, code: str, opponent: str, token: str, process: str,
                        address: str, now: Optional[float] = None) -> None:
        """A room was made on this process for a player waiting on ``process``: its own
        process finds it with take_matched and sends the player there with ``token``."""
        now = time.time() if now is None else now
        with self._tx():
            self._run("INSERT INTO matched (key_hash, code, opponent, made, token, process, address) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (key_hash) DO UPDATE SET "
                      "code = excluded.code, opponent = excluded.opponent, made = excluded.made, "
                      "token = excluded.token, process = excluded.process, address = excluded.address",
                      (key_hash, code, opponent, now, token, process, address))

    def take_matched(self, process: str) -> list[tuple[str, str, str, str]]:
        """(key hash, room code, token, address) of every room made elsewhere for a
        player waiting on ``process``, once (then forgotten)."""
        with self._tx():
            rows = self._all("SELECT key_hash, code, token, address FROM matched WHERE process = ?",
                             (process,))
            if rows:
                self._run("DELETE FROM matched WHERE process = ?", (process,))
        return [tuple(r) for r in rows]

    def queue_length(self) -> int:
        with self._tx():
            return self._one("SELECT COUNT(*) FROM queue")[0]

    def announce_match(self, a: str, b: str, code: str, now: Optional[float] = None) -> None:
        """Tell both players (whichever process they wait on) the room they were given."""
        now = time.time() if now is None else now
        with self._tx():
            for me, other in ((a, b), (b, a)):
                self._run("INSERT INTO matched (key_hash, code, opponent, made) VALUES (?, ?, ?, ?) "
                          "ON CONFLICT (key_hash) DO UPDATE SET code = excluded.code, "
                          "opponent = excluded.opponent, made = excluded.made", (me, code, other, now))

    def poll_match(self, key_hash: str) -> Optional[RoomLocation]:
        """The room made for a waiting player, once (then forgotten), or None yet."""
        with self._tx():
            row = self._one("SELECT m.code, r.process, r.address FROM matched m JOIN rooms r "
                            "ON r.code = m.code WHERE m.key_hash = ?", (key_hash,))
            if row:
                self._run("DELETE FROM matched WHERE key_hash = ?", (key_hash,))
        return RoomLocation(*row) if row else None

    # -- the room directory ----------------------------------------------
    def register_room(self, code: str, process: str, address: str, now: Optional[float] = None, *,
                      preset: Optional[str] = None, length: Optional[int] = None) -> bool:
        """Claim a room code for a process; False if another process's room holds that
        code (a row of the same process is an earlier room of that code: replaced)."""
        now = time.time() if now is None else now
        with self._tx():
            return self._run("INSERT INTO rooms (code, process, address, created, preset, length) "
                             "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code) DO UPDATE SET "
                             "address = excluded.address, created = excluded.created, "
                             "preset = excluded.preset, length = excluded.length "
                             "WHERE rooms.process = excluded.process",
                             (code, process, address, now, preset, length)).rowcount > 0

    def room_rules(self, code: str) -> Optional[tuple[Optional[str], Optional[int]]]:
        """(preset, length) a room was registered with, None for an unknown code."""
        with self._tx():
            row = self._one("SELECT preset, length FROM rooms WHERE code = ?", (code,))
        return (row[0], row[1]) if row else None

    def locate_room(self, code: str) -> Optional[RoomLocation]:
        with self._tx():
            row = self._one("SELECT code, process, address FROM rooms WHERE code = ?", (code,))
        return RoomLocation(*row) if row else None

    def drop_room(self, code: str) -> None:
        with self._tx():
            self._run("DELETE FROM rooms WHERE code = ?", (code,))

    def drop_process(self, process: str) -> int:
        """A process shutting down (or found dead) frees its rooms and its waiting players."""
        with self._tx():
            n = self._run("DELETE FROM rooms WHERE process = ?", (process,)).rowcount
            self._run("DELETE FROM queue WHERE process = ?", (process,))
        return n

    # -- operator --------------------------------------------------------
    def move_rating(self, old_id: str, new_id: str) -> Profile:
        """After a stolen-key report: the new key's profile takes the old one's name,
        rating, record and history; the old key is refused from then on."""
        with self._tx():
            old = self._profile_where("player_id = ?", old_id)
            new = self._profile_where("player_id = ?", new_id)
            if old is None or new is None:
                raise LadderError(f"no profile with id {old_id if old is None else new_id}")
            if old.key_hash == new.key_hash:
                raise LadderError("the two ids are the same profile")
            if old.replaced_by:
                raise LadderError(f"{old_id} was already moved to {old.replaced_by}")
            if new.matches or new.replaced_by:
                raise LadderError(f"{new_id} already has rated matches: give a fresh key's id")
            self._all(f"SELECT key_hash FROM profiles WHERE key_hash IN (?, ?) "
                      f"ORDER BY key_hash{self._for_update()}", (old.key_hash, new.key_hash))
            r = old.rating
            self._run("UPDATE profiles SET name = ?, created = ?, matches = ?, wins = ?, draws = ?, "
                      "rating = ?, rd = ?, vol = ? WHERE key_hash = ?",
                      (old.name, old.created, old.matches, old.wins, old.draws, r.rating, r.rd, r.vol,
                       new.key_hash))
            for column in ("winner", "loser"):
                self._run(f"UPDATE rated_matches SET {column} = ? WHERE {column} = ?",
                          (new.key_hash, old.key_hash))
            self._run("UPDATE profiles SET replaced_by = ?, matches = 0, wins = 0, draws = 0 WHERE key_hash = ?",
                      (new.player_id, old.key_hash))
            self._run("DELETE FROM queue WHERE key_hash = ?", (old.key_hash,))
            return self._profile_where("key_hash = ?", new.key_hash)


class SQLiteStore(Store):
    dialect = "sqlite"
    _autoid = "INTEGER PRIMARY KEY AUTOINCREMENT"

    def __init__(self, path: Union[str, Path]):
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")
        conn.execute("PRAGMA synchronous=FULL")
        super().__init__(conn)
        self.path = path

    @contextlib.contextmanager
    def _tx(self):
        with self._lock:
            if self._conn.in_transaction:        # nested: part of the outer one
                yield self
                return
            # IMMEDIATE takes the write lock first: the reads that decide a write
            # cannot be overtaken by another process (SQLite has one writer at a time)
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")


class PostgresStore(Store):
    dialect = "postgresql"
    _autoid = "BIGSERIAL PRIMARY KEY"

    def __init__(self, url: str):
        try:
            import psycopg   # optional dependency: only a shared --db needs it (koikoi[postgres])
        except ImportError as exc:
            raise RuntimeError("a PostgreSQL database needs the psycopg driver: "
                               "pip install 'koikoi[postgres]'") from exc
        super().__init__(psycopg.connect(url, autocommit=True, connect_timeout=15))
        self.url = url

    def _sql(self, text: str) -> str:
        return text.replace("%", "%%").replace("?", "%s")

    def _for_update(self) -> str:
        return " FOR UPDATE"

    def _migration_lock(self) -> None:
        self._run("SELECT pg_advisory_xact_lock(27270001)")

    def _lock_queue(self) -> None:
        # FOR UPDATE locks only the rows that exist; the advisory lock also keeps two
        # processes from pairing the same newcomer in two overlapping passes
        self._run("SELECT pg_advisory_xact_lock(27270002)")

    @contextlib.contextmanager
    def _tx(self):
        with self._lock:
            with self._conn.transaction():
                yield self


def default_path(folder: Union[str, Path, None] = None) -> Path:
    """The embedded database: DB_FILE in `folder` (the server passes its data
    folder), else in the game's data folder."""
    return Path(folder if folder is not None else paths.data_dir()) / DB_FILE


def open_store(url: Optional[str] = None, folder: Union[str, Path, None] = None) -> Store:
    """None: the SQLite file default_path(folder); "sqlite:///PATH" or a plain path:
    that file; "postgresql://..." (or "postgres://"): that database. Migrated."""
    if url is None or url == "":
        store: Store = SQLiteStore(default_path(folder))
    elif url.startswith(("postgresql://", "postgres://")):
        store = PostgresStore(url)
    elif url.startswith("sqlite:///"):
        store = SQLiteStore(url[len("sqlite:///"):])
    elif "://" in url:
        raise LadderError(f"unknown database address {url.split('://')[0]}://: "
                          "use postgresql://... or a file path")
    else:
        store = SQLiteStore(url)
    try:
        store.migrate()
    except BaseException:
        store.close()
        raise
    return store
