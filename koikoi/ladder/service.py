"""The ladder as the match server sees it: quick match, ratings, the leaderboard and
profiles, as messages of the protocol (see docs/ladder.md and docs/online.md).

``koikoi serve`` builds it with ``open_service(url_or_None, data_dir, public_url=...)``
and hands it every client frame whose ``type`` is in ``LadderService.TYPES`` (after the
server's own frame-size, JSON and rate checks): ``parse(obj)`` checks it strictly
(``ProtocolError`` with a code, answered as ``error``), ``handle(conn, msg, rid, now)``
answers it. ``tick(now)`` (about once a second) returns the ``Pair``s to make rooms for;
the server makes each room as if ``conns[0]`` had created it and ``conns[1]`` joined,
marks it rated, then calls ``placed(pair, code, tokens)`` (or ``unpaired(pair, code)``
when it could not). When a rated room ends it calls ``finished(...)`` once; when a
connection closes, ``gone(conn)``. Nothing here opens a socket: every call is
synchronous and short (one store transaction or a few).

Client -> server (strict: unknown fields, wrong types and out-of-range values refused)

    identify  {key, name}        first, before the others: the player key (``kk1_`` and
                                 43 URL-safe characters, ``koikoi.ladder.identity``) and
                                 the display name (at most 20 characters, no control or
                                 invisible characters). A key never seen makes a new
                                 profile; a name differing from the profile's renames it
                                 (the rating stays). Answer: ``profile`` of oneself.
    queue     {preset, months?}  wait for a quick match: a preset name and one of its
                                 ``months_offered`` (left out or null: the preset's own).
                                 Answer: ``queued {re, preset, months, since}``; later the
                                 pairing makes the server send ``joined`` (and the events)
                                 as for a room joined by hand, or, the room made on another
                                 server process, ``matched``.
    unqueue   {}                 stop waiting. Answer: ``unqueued {re}``.
    board     {offset?, limit?}  the leaderboard (offset 0..100000, limit 1..100, default
                                 20). Answer: ``board {re, rows, you, total}``: rows of
                                 {place, id, name, matches, wins, draws, rating, rd}; ``you``
                                 this player's place (null while unrated); ``total`` the
                                 number of rated players.
    profile   {player?}          a profile (a 16-hex player id; left out: one's own).
                                 Answer: ``profile {re, id, name, matches, wins, draws,
                                 rating, rd, place, history, against, you}``: ``history``
                                 the rating after each rated match, oldest first
                                 ({rating, won, draw, opponent, at}); ``against`` the
                                 record against each opponent met ({id, name, wins, losses,
                                 draws}, most met first); ``you``: it is one's own.

Server -> client, besides the answers

    matched   {url, room, token}  the room was made on another server process: connect to
                                  ``url`` and send ``reconnect {room, token}`` there.
    unqueued  {re: null, reason}  the wait ended without a match: ``reason`` "elsewhere"
                                  (the same key queued on another connection) or the
                                  server's code for why no room could be made.

Refusals (``error {re, code, message}``): bad_field, bad_key, bad_name, bad_preset,
bad_months, bad_player (parse); not_identified, other_key (a connection keeps the key it
identified with), key_replaced (the operator moved its rating to a new key),
too_many_profiles (new keys from one address: at most PROFILES_PER_HOUR an hour),
no_player, not_queued, in_room (the connection is in a room), rate_limited (board/profile: a burst of READ_BURST, then one each
READ_EVERY seconds; identify/queue/unqueue: WRITE_BURST, then one a second),
ladder_unavailable (the database did not answer).

Time: every time stored (the queue's waits, rated matches) is this service's wall clock
(``clock``, default ``time.time``), shared by every process on one PostgreSQL; the
``now`` the server passes is used only for the per-connection rate limits.

A player key grants playing and renaming as that profile; the server keeps only its hash.
"""
from __future__ import annotations

import logging
import re
import time
import uuid
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Optional
from urllib.parse import urlsplit

from ..engine.rules import RULESETS
from ..net.protocol import ProtocolError, request_id
from . import identity
from . import store as ladder_store

log = logging.getLogger("koikoi.ladder")

TYPES = frozenset({"identify", "queue", "unqueue", "board", "profile"})
BOARD_LIMIT = 20
OFFSET_MAX = 100_000
AGAINST_MAX = 50           # opponents listed on a profile
READ_BURST, READ_EVERY = 6, 2.0
WRITE_BURST, WRITE_EVERY = 10, 1.0
PROFILES_PER_HOUR = 5      # new player keys one address may bring in an hour
REFRESH_EVERY = 5.0        # seconds between two refreshes of this process's queue rows
STALE_AFTER = 30.0         # another process's rows not refreshed for this long are dropped
RETRY_RATING_EVERY = 30.0  # seconds between two tries to rate a match its database refused
_PLAYER_ID = re.compile(r"[0-9a-f]{16}")


@dataclass
class Pair:
    """Two players to seat in one new rated room. ``conns[i]`` is None for a player
    waiting on another server process (the room's seat is taken in its name)."""

    conns: tuple
    names: tuple
    preset: str
    months: Optional[int]
    hashes: tuple
    waited: tuple = (0.0, 0.0)           # seconds each had waited when paired
    processes: tuple = ("", "")          # the process each waited on


class _Bucket:
    __slots__ = ("burst", "every", "tokens", "at")

    def __init__(self, burst: int, every: float):
        self.burst, self.every, self.tokens, self.at = burst, every, float(burst), None

    def take(self, now: float) -> bool:
        if self.at is not None:
            self.tokens = min(self.burst, self.tokens + max(0.0, now - self.at) / self.every)
        self.at = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


@dataclass
class PlayerConn:
    """What the ladder keeps on a connection (``conn.ladder``)."""

    key_hash: str
    player_id: str
    name: str
    queued: Optional[tuple] = None        # (preset, months, since) while waiting
    reads: _Bucket = field(default_factory=lambda: _Bucket(READ_BURST, READ_EVERY))
    writes: _Bucket = field(default_factory=lambda: _Bucket(WRITE_BURST, WRITE_EVERY))


def _moved(profile, before: float) -> dict:
    """One player's rating change, as the ``rated`` message carries it."""
    return {"before": float(before), "after": float(profile.rating.rating), "rd": float(profile.rating.rd),
            "matches": int(profile.matches)}


def _refuse(code: str, message: str):
    raise ProtocolError(code, message)


def _key(v: Any) -> str:
    if not identity.valid_key(v):
        _refuse("bad_key", "that is not a player key (kk1_ and 43 letters, digits, - or _)")
    return v


def _name(v: Any) -> str:
    name, why = identity.check_name(v)
    if name is None:
        _refuse("bad_name", why)
    return name


def _preset(v: Any) -> str:
    if type(v) is not str or v not in RULESETS:
        _refuse("bad_preset", f"preset is one of {', '.join(RULESETS)}")
    return v


def _months(v: Any) -> Optional[int]:
    if v is not None and (type(v) is not int or not 1 <= v <= 120):
        _refuse("bad_months", "months is a whole number of rounds, or null for the preset's own")
    return v


def _count(lo: int, hi: int) -> Callable[[Any], int]:
    def check(v: Any) -> int:
        if type(v) is not int or not lo <= v <= hi:
            _refuse("bad_field", f"expected a whole number from {lo} to {hi}")
        return v
    return check


def _player(v: Any) -> str:
    if type(v) is not str or not _PLAYER_ID.fullmatch(v):
        _refuse("bad_player", "a player id is 16 hex digits")
    return v


# type -> {field: (check, required)}
_SCHEMA: dict = {
    "identify": {"key": (_key, True), "name": (_name, True)},
    "queue": {"preset": (_preset, True), "months": (_months, False)},
    "unqueue": {},
    "board": {"offset": (_count(0, OFFSET_MAX), False),
              "limit": (_count(1, ladder_store.LEADERBOARD_MAX), False)},
    "profile": {"player": (_player, False)},
}


class LadderService:
    TYPES = TYPES

    def __init__(self, store: ladder_store.Store, *, public_url: Optional[str] = None,
                 process: Optional[str] = None, clock: Callable[[], float] = time.time):
        self.store = store
        self.public_url = public_url or ""
        # a restarted process keeps its name (its public address): the rooms it registered
        # stay its own; without an address (tests, the embedded default) one name per start
        self.process = process or public_url or f"local-{uuid.uuid4().hex[:8]}"
        self.clock = clock
        self._waiting: dict = {}           # key hash -> conn waiting on this process
        self._rooms: dict = {}             # room code -> (preset, months) of rated rooms made here
        self._new_profiles: dict = {}      # peer -> deque of times a new key came from it
        self._refreshed = float("-inf")
        self._unwritten: list = []         # rooms made here, for the next tick's one write
        self._unrated: dict = {}           # room code -> finished()'s arguments, its database away then
        self._retried = float("-inf")
        self.closed = False
        self.store.clear_queue(self.process)     # a killed run's waiters are gone with it
        self.pairs_made = 0

    # ---------------------------------------------------------------- parsing
    def parse(self, obj: Any) -> dict:
        """A checked ladder message {"type", "id", field: value}, or ProtocolError."""
        rid = request_id(obj)
        try:
            if type(obj) is not dict or obj.get("type") not in _SCHEMA:
                _refuse("bad_type", f"a ladder message is one of {', '.join(sorted(TYPES))}")
            kind = obj["type"]
            if obj.get("id") is not None and rid is None:
                _refuse("bad_id", "id is a whole number or a short text")
            spec = _SCHEMA[kind]
            for k in obj:
                if k not in spec and k not in ("type", "id"):
                    _refuse("bad_field", f"a {kind} message has no field {str(k)[:24]!r}")
            out = {"type": kind, "id": rid}
            for name, (check, required) in spec.items():
                if name not in obj:
                    if required:
                        _refuse("bad_field", f"a {kind} message needs {name}")
                    continue
                out[name] = check(obj[name])
            if kind == "queue":
                rules = RULESETS[out["preset"]]
                months = out.get("months")
                if months is None:
                    months = rules.months
                elif months not in rules.months_offered:
                    _refuse("bad_months", f"{out['preset']} is played over "
                                          f"{', '.join(map(str, rules.months_offered))} rounds")
                out["months"] = months
            return out
        except ProtocolError as exc:
            exc.re = rid
            raise

    # ---------------------------------------------------------------- requests
    def handle(self, conn, msg: dict, rid: Any, now: float) -> None:
        kind = msg["type"]
        me: Optional[PlayerConn] = getattr(conn, "ladder", None)
        if kind != "identify" and me is None:
            conn.error(rid, "not_identified", "send identify {key, name} first")
            return
        if me is not None:
            bucket = me.reads if kind in ("board", "profile") else me.writes
            if not bucket.take(now):
                conn.error(rid, "rate_limited", f"too many {kind} requests: wait a little")
                return
        try:
            getattr(self, "_" + kind)(conn, me, msg, rid, now)
        except ladder_store.KeyReplaced:
            conn.error(rid, "key_replaced", "this key was replaced by a new one: use the new key")
        except ladder_store.LadderError as exc:
            conn.error(rid, "ladder_refused", str(exc)[:200])
        except Exception:                   # the database went away: the room play goes on
            log.exception("ladder request %s failed", kind)
            conn.error(rid, "ladder_unavailable", "the ladder's database did not answer: try again")

    def _identify(self, conn, me, msg, rid, now) -> None:
        hashed = identity.key_hash(msg["key"])
        if me is not None and me.key_hash != hashed:
            conn.error(rid, "other_key", "this connection identified with another key")
            return
        st = self.store
        prof = st.profile(hashed)
        if prof is None:
            peer = str(getattr(conn, "peer", "?"))
            seen = self._new_profiles.setdefault(peer, deque())
            while seen and seen[0] < now - 3600:
                seen.popleft()
            if len(seen) >= PROFILES_PER_HOUR:
                conn.error(rid, "too_many_profiles", "too many new player keys from this address: "
                                                     "use the key you have")
                return
            seen.append(now)
            prof = st.ensure_profile(hashed, msg["name"], now=self.clock())
        elif prof.replaced_by:
            raise ladder_store.KeyReplaced(prof.player_id)
        elif prof.name != msg["name"]:
            prof = st.rename(hashed, msg["name"])
        if me is None:
            me = conn.ladder = PlayerConn(hashed, prof.player_id, prof.name)
        me.name = prof.name
        self._send_profile(conn, rid, hashed, you=True)

    def _send_profile(self, conn, rid, hashed: str, *, you: bool) -> None:
        view = self.store.profile_view(hashed)
        view["against"] = view["against"][:AGAINST_MAX]
        conn.send(dict(view, type="profile", re=rid, you=you))

    def _queue(self, conn, me: PlayerConn, msg, rid, now) -> None:
        if not self._free(conn):        # the server's own: seated, watching, or going in
            conn.error(rid, "in_room", "leave the room first, then wait for a quick match")
            return
        other = self._waiting.get(me.key_hash)
        at = self.clock()
        self.store.enqueue(me.key_hash, msg["preset"], msg["months"], self.process, now=at)
        if other is not None and other is not conn:
            other.ladder.queued = None
            other.send({"type": "unqueued", "re": None, "reason": "elsewhere"})
        me.queued = (msg["preset"], msg["months"], at)
        self._waiting[me.key_hash] = conn
        conn.send({"type": "queued", "re": rid, "preset": msg["preset"], "months": msg["months"],
                   "since": at})

    def _unqueue(self, conn, me: PlayerConn, msg, rid, now) -> None:
        if me.queued is None:
            conn.error(rid, "not_queued", "you are not waiting for a match")
            return
        left = self.store.leave_queue(me.key_hash)
        if not left:
            # another process paired this player a moment ago: its room comes next tick
            conn.error(rid, "not_queued", "a match was found just now")
            return
        me.queued = None
        self._waiting.pop(me.key_hash, None)
        conn.send({"type": "unqueued", "re": rid})

    def _board(self, conn, me: PlayerConn, msg, rid, now) -> None:
        st = self.store
        rows = st.board_view(msg.get("limit", BOARD_LIMIT), msg.get("offset", 0))
        conn.send({"type": "board", "re": rid, "rows": rows, "you": st.place(me.key_hash),
                   "total": st.rated_count()})

    def _profile(self, conn, me: PlayerConn, msg, rid, now) -> None:
        player = msg.get("player")
        if player is None or player == me.player_id:
            self._send_profile(conn, rid, me.key_hash, you=True)
            return
        prof = self.store.profile_by_id(player)
        if prof is None or prof.replaced_by:
            conn.error(rid, "no_player", "no player has that id")
            return
        self._send_profile(conn, rid, prof.key_hash, you=False)

    # ---------------------------------------------------------------- pairing
    def tick(self, now: float) -> list:
        """The pairs to make rooms for now; players matched on another process are sent
        ``matched``. Never raises (a database hiccup is logged, the queue waits)."""
        if self.closed:
            return []
        at = self.clock()
        self._flush_rooms()
        if self._unrated and at - self._retried >= RETRY_RATING_EVERY:
            self._retried = at
            for args, rules in list(self._unrated.values()):
                self.finished(*args, **rules)
        try:
            if self._waiting and at - self._refreshed >= REFRESH_EVERY:
                self.store.refresh_queue(self.process, at)
                self._refreshed = at
            taken = self.store.take_pairs_for(self.process, at, STALE_AFTER)
            elsewhere = self.store.take_matched(self.process)
        except Exception:
            log.exception("the ladder's pairing pass failed")
            return []
        pairs = []
        remote = [w.key for pair in taken for w, p in pair if p != self.process]
        try:
            known = self.store.names(remote) if remote else {}
        except Exception:
            log.exception("the names of players waiting elsewhere could not be read")
            known = {}
        for (a, pa), (b, pb) in taken:
            conns = tuple(self._waiting.pop(w.key, None) if p == self.process else None
                          for w, p in ((a, pa), (b, pb)))
            if all(c is None for c in conns):       # cannot be: a pair holds one of ours
                continue
            names = []
            for w, c in zip((a, b), conns):
                if c is not None:
                    c.ladder.queued = None
                    names.append(c.ladder.name)
                else:
                    names.append(known.get(w.key, "?"))
            pairs.append(Pair(conns=conns, names=tuple(names), preset=a.preset, months=a.length,
                              hashes=(a.key, b.key), waited=(at - a.since, at - b.since),
                              processes=(pa, pb)))
        self.pairs_made += len(pairs)
        for key, code, token, address in elsewhere:
            conn = self._waiting.pop(key, None)
            if conn is None:        # it left meanwhile: its seat there is claimed in time
                log.info("room %s at %s was made for a player gone from here", code, address)
                continue
            conn.ladder.queued = None
            conn.send({"type": "matched", "url": address, "room": code, "token": token})
        return pairs

    def placed(self, pair: Pair, room_code: str, tokens) -> None:
        """The server made ``pair``'s room: note what it is rated as, and tell the process
        of a player waiting elsewhere where to send it (at once, one transaction). A room
        of two players of this process is written to the room directory with the next
        tick's (one transaction for all of them: the directory matters to it only after a
        restart, and what it is rated as is kept in memory meanwhile)."""
        self._rooms[room_code] = (pair.preset, pair.months)
        room = (room_code, self.process, self.public_url, pair.preset, pair.months)
        announce = [(pair.hashes[i], room_code, pair.hashes[1 - i], tokens[i], pair.processes[i],
                     self.public_url) for i, conn in enumerate(pair.conns) if conn is None]
        if not announce:
            self._unwritten.append(room)
            return
        try:
            self.store.place_rooms([room], announce, now=self.clock())
        except Exception:
            log.exception("room %s could not be announced", room_code)

    def _flush_rooms(self) -> None:
        rooms, self._unwritten = self._unwritten, []
        if rooms:
            try:
                self.store.place_rooms(rooms, now=self.clock())
            except Exception:
                log.exception("%d rooms could not be written to the room directory", len(rooms))

    def unpaired(self, pair: Pair, code: str) -> None:
        """No room could be made for ``pair`` (``code``: why): the players here are told,
        the ones waiting elsewhere wait on with their place kept. When the server refused
        because one of the two had gone into a room meanwhile ("in_room": it queued, then
        created or joined a room by hand), only that one is told; the other waits on,
        its place kept."""
        for i, conn in enumerate(pair.conns):
            if conn is not None and not (code == "in_room" and self._free(conn)):
                conn.send({"type": "unqueued", "re": None, "reason": str(code)})
                continue
            try:
                at = self.clock()
                since = at - pair.waited[i]
                process = pair.processes[i] if conn is None else self.process
                self.store.enqueue(pair.hashes[i], pair.preset, pair.months, process, now=at, since=since)
            except Exception:
                log.exception("a player could not be queued again")
                if conn is not None:
                    conn.send({"type": "unqueued", "re": None, "reason": str(code)})
                continue
            if conn is not None:
                conn.ladder.queued = (pair.preset, pair.months, since)
                self._waiting[pair.hashes[i]] = conn

    @staticmethod
    def _free(conn) -> bool:
        """``conn`` is open and in no room (nor going into one): it may wait for a match."""
        return (getattr(conn, "room", None) is None and not getattr(conn, "entering", False)
                and not getattr(conn, "closing", False))

    def finished(self, room_code: str, match_id: Optional[str], winner_seat: Optional[int],
                 claimed: bool, hashes, *, preset: Optional[str] = None,
                 months: Optional[int] = None) -> Optional[dict]:
        """A rated room ended: rate it once (a claimed match is a loss for the one who
        left: ``winner_seat`` is the claimer). A repeat changes nothing. ``preset`` and
        ``months``: the room's rules as the server stored them with the room; without
        them (an older server) they are what this service noted at ``placed``, else the
        room directory's (written a tick later: a process killed within that second
        has none). The ratings it moved, by key hash (``{hash: {"before", "after",
        "rd", "matches"}}``: what the server tells the two players), or None for a
        repeat or a failure."""
        try:
            noted = self._rooms.pop(room_code, None)
            if preset is None:
                preset, months = noted or self.store.room_rules(room_code) or (None, None)
            first, second = hashes
            if winner_seat in (0, 1):
                winner, loser = hashes[winner_seat], hashes[1 - winner_seat]
            else:
                winner, loser = first, second
            rated_id = f"{room_code}/{match_id or 'claimed'}"
            result = self.store.record_match(rated_id, winner, loser, preset=preset or "?", length=months or 0,
                                             claimed=bool(claimed), draw=winner_seat not in (0, 1),
                                             now=self.clock())
        except (ladder_store.LadderError, ValueError, TypeError):
            self._unrated.pop(room_code, None)          # what no retry can mend (no profile, bad hashes)
            log.exception("the rated room %s could not be rated", room_code)
            return None
        except Exception:
            # the database away (or a hiccup): tried again every RETRY_RATING_EVERY from
            # tick, and at the next start from the rooms database; a repeat rates nothing
            log.exception("the rated room %s could not be rated now; trying again", room_code)
            self._unrated[room_code] = ((room_code, match_id, winner_seat, claimed, hashes),
                                        {"preset": preset, "months": months})
            self._retried = self.clock()
            return None
        self._unrated.pop(room_code, None)
        try:
            self.store.drop_room(room_code)
        except Exception:
            log.exception("the rated room %s is rated; its place in the room directory stays", room_code)
        if result is None:
            return None
        return {winner: _moved(result.winner, result.winner_before),
                loser: _moved(result.loser, result.loser_before)}

    def gone(self, conn) -> None:
        me: Optional[PlayerConn] = getattr(conn, "ladder", None)
        if me is None or me.queued is None:
            return
        me.queued = None
        if self._waiting.get(me.key_hash) is conn:
            del self._waiting[me.key_hash]
            try:
                self.store.leave_queue(me.key_hash)
            except Exception:
                log.exception("a player who left could not be taken off the queue")

    def waiting(self) -> int:
        """Players waiting on this process."""
        return len(self._waiting)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._flush_rooms()
        try:
            self.store.clear_queue(self.process)
        except Exception:
            log.exception("the ladder's queue could not be cleared")
        self.store.close()


def open_service(url: Optional[str], folder: Path, *, public_url: Optional[str] = None,
                 process: Optional[str] = None, clock: Callable[[], float] = time.time) -> LadderService:
    """The ladder on ``url`` (None: SQLite in ``folder``; postgresql://...: shared).
    A shared database needs ``public_url`` to be an address players elsewhere can reach
    (``matched`` sends them there, and it names this process in the database): a
    wildcard one (``koikoi serve --host 0.0.0.0`` without ``--public-url``) is refused
    (LadderError) before anything is opened."""
    if url and url.startswith(("postgresql://", "postgres://")):
        host = urlsplit(public_url or "").hostname
        if host in (None, "", "0.0.0.0", "::"):
            raise ladder_store.LadderError(
                f"a shared ladder database needs this server's public address "
                f"(koikoi serve --public-url ws://HOST:PORT): {public_url or 'none'} is not one "
                f"that players of other server processes can reach")
    return LadderService(ladder_store.open_store(url, folder), public_url=public_url, process=process,
                         clock=clock)
