"""The rooms of a match server, without a socket: a checked message in, what to write and
what to send out. ``koikoi.net.server`` is the transport around it.

    service = RoomService(config, store, seeds=..., ladder=None)
    service.load(now)                       # the rooms a restart resumes
    w = service.receive(conn, msg, now)     # one checked message (protocol.check_client)
    while w is not None:                    # a Write: what must be on disk first
        w = w.done(store_call(w), now)      # ... then it takes effect and is sent on
    service.closed(conn, now)               # the connection went
    writes = service.tick(now)              # claims that became possible, the ladder's pairs
    service.sweep(now)                      # expiry and unloading
    service.run(conn, msg, now)             # receive and every write at once (tests, tools)

``conn`` is the transport's connection: ``send(dict | str)``, ``error(re, code,
message)``, ``close(code, reason)``, ``charge(tokens)`` (a costly request weighs on its
rate limit), ``peer`` and ``key`` (the address and what the per-address limits count),
``label``, ``closing``, and the service's own fields ``room``, ``seat``, ``role``,
``name``, ``entering``, ``ladder`` (the quick-match ladder's, initially None).

A room holds a ``koikoi.session.MatchSession``: every action passes its gate
(``prepare``: the match not over, the seat to move, not stale, legal) and is committed
(``commit``) only once its events are written. A ``Write`` names the store call
(``op`` and ``args``: ``RoomStore.create`` / ``add_seat`` / ``append`` / ``set_status``,
the same names on the transport's awaited store, ``koikoi.net.store``) and what follows
it (``done(result, now)``, ``failed(exc)``); the transport runs a room's messages one at a
time (one lock a room) so nothing reads a room between a prepare and its commit.

Every refusal answers ``error {re, code, message}`` with the request's ``re`` and is
logged on one line (``limits.Refusals``), never with a card. Once a match is over each
seated player is sent its ``record``; never before, never to a spectator.

The quick-match ladder (docs/ladder.md; optional): a frame whose type is in
``ladder.TYPES`` goes to ``ladder.parse(obj)`` and ``ladder.handle(conn, msg, rid, now)``
(``ladder_frame``); ``tick`` seats each ``ladder.tick(now)`` pair in a new rated room as if
its first conn had created it and its second joined (a None conn: a player on another
process, its seat held as dropped) and calls ``ladder.placed(pair, code, tokens)``, or
``ladder.unpaired(pair, code)`` if no room can be made; ``ladder.finished(code, match_id,
winner, claimed, hashes)`` once a rated room ends; ``ladder.gone(conn)`` on a close.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any, Callable, Optional

from ..engine import new_match
from ..engine.match import OVER
from ..session import Refused
from . import frames
from .limits import Guesses, Refusals
from .pairing import LadderRooms
from .presence import Presence
from .protocol import action_to_json, new_room_code, new_token
from .rooms import Room, RoomStore, Seat, StoreError, room_rules, room_session, token_hash

log = logging.getLogger("koikoi.net.server")


@dataclass(eq=False)
class Write:
    """What must be on disk before a message takes effect: ``getattr(store, op)(*args)``,
    then ``done(what it returned, now)`` (another Write, or None), or ``failed(exc)`` if
    the store could not (nothing of it was written)."""
    room: Room
    op: str
    args: tuple
    done: Callable[[Any, float], Optional["Write"]]
    failed: Callable[[BaseException], None]


class RoomService(LadderRooms):
    def __init__(self, config, store: RoomStore, *, seeds: Optional[Callable[[], int]] = None,
                 ladder: Any = None, refusals: Optional[Refusals] = None):
        """``config``: a ``server.ServerConfig``; ``seeds``: where the seeds of new matches
        come from (tests); by default ``secrets.randbits(63)``: a seed deals every card."""
        self.config = config
        self.store = store
        self.ladder = ladder
        self._seeds = seeds or (lambda: secrets.randbits(63))
        self.rooms: dict[str, Room] = {}
        self._creating: dict[str, Room] = {}     # rooms being written, not yet known to anyone
        self._owned: dict[str, dict] = {}        # address key -> {code: room} made from there, loaded
        self.presence = Presence(config.claim_after)
        self.wire = frames.Wire()
        self.guesses = Guesses(config.guesses_rate, config.guesses_burst,
                               config.guesses_total_rate, config.guesses_total_burst)
        self.refusals = refusals or Refusals(log)

    # -------------------------------------------------------------- life

    def load(self, now: float) -> int:
        """The rooms of the store a server starting at ``now`` holds; their seats are
        dropped (gone since the room's last visit: an abandoned room expires on time)."""
        for room in self.store.load(keep_finished=self.config.keep_finished, now=now):
            for seat in room.seats:
                if seat.name is not None:
                    seat.presence, seat.since = "dropped", (room.updated if room.status == "open" else now)
            self.rooms[room.code] = room
            for s in (0, 1):
                self.presence.watch(room, s)
        if self.rooms:
            log.info("resumed %d room(s) from %s", len(self.rooms), self.store.path)
            self.sweep(now)
            if self.ladder is not None:
                self.refile_ended()
        return len(self.rooms)

    def run(self, c, msg: dict, now: float) -> None:
        """``receive`` and each of its writes at once through the (synchronous) store."""
        self.settle(self.receive(c, msg, now), now)

    def settle(self, w: Optional[Write], now: float) -> None:
        while w is not None:
            try:
                out = getattr(self.store, w.op)(*w.args)
            except StoreError as exc:
                w.failed(exc)
                return
            w = w.done(out, now)

    def room_of(self, c, msg: dict) -> Optional[Room]:
        """The room ``msg`` would read or change (the transport's lock), if any."""
        code = msg.get("room")
        return self.rooms.get(code) if code is not None and c.room is None else c.room

    # -------------------------------------------------------------- messages

    def receive(self, c, msg: dict, now: float) -> Optional[Write]:
        """One checked message from ``c``; nothing here raises."""
        kind = msg["type"]
        rid = msg["id"]
        try:
            return getattr(self, "_on_" + kind)(c, msg, rid, now)
        except StoreError:
            self._not_stored(c, kind, rid)
        except Exception:
            log.exception("%s from %s failed", kind, c.label)
            c.error(rid, "internal", "the server failed on that message; nothing changed")
        return None

    def _no(self, c, rid: Any, what: str, code: str, message: str) -> None:
        self.refusals.refuse(c.label, what, f"{code}: {message}")
        c.error(rid, code, message)

    def _not_stored(self, c, what: str, rid: Any) -> None:
        """The room store could not write ``what``: refused, and the client told nothing changed."""
        self.refusals.refuse(c.label if c is not None else "?", what, "the room store could not write")
        if c is not None:
            c.error(rid, "storage", "the server could not save that; nothing changed")

    def _write(self, room: Room, op: str, args: tuple, done, failed) -> Write:
        room.writing = True

        def ok(out, now):
            room.writing = False
            return done(out, now)

        def bad(exc):
            room.writing = False
            failed(exc)
        return Write(room, op, args, ok, bad)

    def _disown(self, room: Room) -> None:
        owned = self._owned.get(room.owner) if room.owner is not None else None
        if owned is not None and owned.get(room.code) is room:
            del owned[room.code]
            if not owned:
                del self._owned[room.owner]

    def live_rooms(self) -> int:
        return sum(r.live for r in self.rooms.values())

    def _new_code(self) -> Optional[str]:
        for _ in range(50):
            code = new_room_code(self.config.code_digits)
            if code not in self.rooms and code not in self._creating and not self.store.code_taken(code):
                return code
        return None

    def _new_room(self, preset: str, house: dict, rules, months, spectators: bool, now: float):
        """A new room and its seat-0 token, or the refusal's (code, message)."""
        cap = self.config.max_rooms         # (fewer loaded than that: no need to count the live)
        if len(self.rooms) + len(self._creating) >= cap and self.live_rooms() + len(self._creating) >= cap:
            return "server_full", "the server holds all the rooms it can"
        code = self._new_code()
        if code is None:
            return "server_full", "no room code is free"
        state = new_match(rules, seed=self._seeds(), months=months)
        return Room(code, preset, house, rules, months, spectators, room_session(state), now)

    def _on_create(self, c, m: dict, rid: Any, now: float) -> Optional[Write]:
        if c.room is not None or c.entering:
            return self._no(c, rid, "create", "in_room", "this connection is in a room already")
        owned = self._owned.get(c.key) or {}
        limit = self.config.rooms_per_address
        if len(owned) >= limit:       # (fewer made from there: no need to count the live ones)
            mine = sum(r.live for r in owned.values())      # (one being made is open: live)
            if mine >= limit:
                return self._no(c, rid, "create", "too_many_rooms",
                                f"{mine} rooms made from your address are still open or playing")
        choice = m["rules"]
        try:
            rules, months, house = room_rules(choice["preset"], choice["house"], m.get("months", "preset"))
        except ValueError as exc:
            return self._no(c, rid, "create", "bad_rules", str(exc))
        room = self._new_room(choice["preset"], house, rules, months, bool(m.get("spectators", False)), now)
        if isinstance(room, tuple):
            return self._no(c, rid, "create", *room)
        token = new_token()
        room.seats[0] = Seat(m["name"], token_hash(token), now)
        room.owner = c.key
        # nobody knows the code until it is committed
        self._creating[room.code] = room
        self._owned.setdefault(c.key, {})[room.code] = room
        c.entering = True

        def done(rowid, now):
            self._creating.pop(room.code, None)
            c.entering = False
            room.id, room.updated = rowid, now
            self.rooms[room.code] = room
            log.info("room %s created by %s (%s, %s months)", room.code, c.peer, room.preset, room.months)
            if c.closing:       # gone before it heard: the room waits (and expires) like any
                room.seats[0].presence, room.seats[0].since = "dropped", now
                return None
            self._attach(c, room, 0, now)
            c.send(frames.joined(room, c, rid, self.config.claim_after, token))
            self._welcome(c, room, now)
            return None

        def failed(exc):
            self._creating.pop(room.code, None)
            self._disown(room)
            c.entering = False
            self._not_stored(c, "create", rid)
        return self._write(room, "create", (room,), done, failed)

    def _lookup(self, c, m: dict, rid: Any, now: float) -> Optional[Room]:
        what = m["type"]
        if c.room is not None or c.entering:
            self._no(c, rid, what, "in_room", "this connection is in a room already")
            return None
        blocked = self.guesses.blocked(c.key, now)
        if blocked == "too_many_tries":
            self._no(c, rid, what, blocked, "too many wrong room codes or tokens: wait a minute")
            return None
        if blocked is not None:
            self._no(c, rid, what, blocked, "the server is refusing room codes for a moment: "
                                            "try again in a minute")
            return None
        room = self.rooms.get(m["room"])
        if room is None:
            self.guesses.wrong(c.key, now)
            self._no(c, rid, what, "no_room", f"there is no room {m['room']}")
        return room

    def _on_join(self, c, m: dict, rid: Any, now: float) -> Optional[Write]:
        room = self._lookup(c, m, rid, now)
        if room is None:
            return None
        if room.status != "open" or room.seats[1].name is not None:
            why = "has two players" if room.status == "playing" else f"is {room.status}"
            return self._no(c, rid, "join", "room_full", f"room {room.code} {why}")
        token = new_token()
        room.seats[1] = Seat(m["name"], token_hash(token), now)     # taken: a second join is refused
        c.entering = True

        def done(updated, now):
            c.entering = False
            room.updated = updated
            room.status = "playing"
            log.info("room %s: %s joined", room.code, c.peer)
            if c.closing:       # gone before it heard: the seat is kept as dropped
                frames.to_room(room, frames.status(room))
                self._set_presence(room, 1, "dropped", now)
            else:
                self._attach(c, room, 1, now)
                c.send(frames.joined(room, c, rid, self.config.claim_after, token))
                self._welcome(c, room, now)
                frames.to_room(room, frames.status(room), but=c)
            host = room.seats[0].client
            if host is not None:       # it may move now
                host.send(self.wire.events(room, 0, len(room.events)))
            return None

        def failed(exc):
            c.entering = False
            room.seats[1] = Seat()
            self._not_stored(c, "join", rid)
        return self._write(room, "add_seat", (room, 1, "playing"), done, failed)

    def _on_reconnect(self, c, m: dict, rid: Any, now: float) -> None:
        room = self._lookup(c, m, rid, now)
        if room is None:
            return
        seat = next((s for s in (0, 1) if room.seats[s].token_ok(m["token"])), None)
        if seat is None:
            self.guesses.wrong(c.key, now)
            return self._no(c, rid, "reconnect", "bad_token", f"that token holds no seat in room {room.code}")
        old = room.seats[seat].client
        if old is not None and old is not c:
            old.error(None, "replaced", "this seat was taken back by a new connection")
            old.room, old.seat, old.role = None, None, None
            old.close(4001, "replaced")
            room.seats[seat].client = None
        log.info("room %s: seat %d reconnected from %s", room.code, seat, c.peer)
        self._attach(c, room, seat, now)
        c.send(frames.joined(room, c, rid, self.config.claim_after))
        self._welcome(c, room, now)

    def _on_watch(self, c, m: dict, rid: Any, now: float) -> None:
        room = self._lookup(c, m, rid, now)
        if room is None:
            return
        if not room.spectators:
            return self._no(c, rid, "watch", "no_spectators", f"room {room.code} takes no spectators")
        if len(room.watchers) >= self.config.max_watchers:
            return self._no(c, rid, "watch", "room_full", f"room {room.code} has all the spectators it takes")
        c.room, c.role, c.seat, c.name = room, "spectator", None, m.get("name")
        room.watchers.add(c)
        c.send(frames.joined(room, c, rid, self.config.claim_after))
        self._welcome(c, room, now)

    def _on_act(self, c, m: dict, rid: Any, now: float) -> Optional[Write]:
        room = c.room
        if room is None or c.role != "player":
            return self._no(c, rid, "act", "not_seated", "only a seated player acts")
        if room.status == "open":
            return self._no(c, rid, "act", "not_started", "waiting for the other player to join")
        if room.status != "playing":
            return self._no(c, rid, "act", "over", f"the match is {room.status}")
        action = m["action"]
        try:        # the session's gate: the seat to move, a stale view, the rules
            move = room.session.prepare(action, seat=c.seat, at=m.get("at"))
        except Refused as exc:
            return self._no(c, rid, f"act {action_to_json(action)['kind']}", exc.code, exc.message)
        new = move.state
        if new.phase == OVER:
            status = "over"
            result = {"reason": "played", "winner": new.winner, "conceded": None,
                      "scores": list(new.scores), "at": now}
        else:
            status, result = "playing", None

        def done(updated, now):
            # on disk: only now does the session take the move, and anyone hear of it
            room.updated = updated
            room.session.commit(move)
            room.status, room.result = status, result
            self._broadcast(room, move.start, c, rid)
            if status == "over":
                self._end(room, now)
            return None
        return self._write(room, "append", (room, move.start, move.events, status, result), done,
                           lambda exc: self._not_stored(c, "act", rid))

    def _on_claim(self, c, m: dict, rid: Any, now: float) -> Optional[Write]:
        room = c.room
        if room is None or c.role != "player":
            return self._no(c, rid, "claim", "not_seated", "only a seated player claims")
        if room.status != "playing":
            return self._no(c, rid, "claim", "cannot_claim", f"the match is {room.status}")
        other = 1 - c.seat
        wait = self.presence.claim_in(room, other, now)
        if wait is None:
            return self._no(c, rid, "claim", "cannot_claim", "the other player is connected")
        if wait > 0:
            return self._no(c, rid, "claim", "cannot_claim", f"you may claim the match in {wait:.0f} s")
        result = {"reason": "forfeit", "winner": c.seat, "conceded": other,
                  "scores": list(room.state.scores), "at": now}

        def done(updated, now):
            room.updated = updated
            room.status, room.result = "over", result
            log.info("room %s: seat %d claimed the match (seat %d forfeits)", room.code, c.seat, other)
            self._end(room, now, c, rid)
            return None
        return self._write(room, "set_status", (room, "over", result), done,
                           lambda exc: self._not_stored(c, "claim", rid))

    def _on_leave(self, c, m: dict, rid: Any, now: float) -> Optional[Write]:
        room = c.room

        def bye(_out=None, now=now):
            c.send({"type": "left", "re": rid})
            c.close(1000, "left")
            return None
        if room is None:
            return bye()
        if c.role != "player":
            room.watchers.discard(c)
            c.room, c.seat, c.role = None, None, None
            return bye()
        seat = c.seat
        c.room, c.seat, c.role = None, None, None
        if room.seats[seat].client is not c:
            return bye()
        room.seats[seat].client = None
        self._set_presence(room, seat, "left", now)
        if room.status != "open" or seat != 0:
            return bye()

        def closed(updated, now):
            room.updated = updated
            room.status = "closed"
            frames.to_room(room, frames.status(room))
            return bye()

        def failed(exc):        # the room stays open (and expires as abandoned)
            self._not_stored(None, "leave", rid)
            bye()
        return self._write(room, "set_status", (room, "closed", None), closed, failed)

    def _on_sync(self, c, m: dict, rid: Any, now: float) -> None:
        room = c.room
        if room is None:
            return self._no(c, rid, "sync", "not_in_room", "join a room first")
        have = m.get("have", 0)
        total = len(room.events)
        # the events from ``have`` on (all of them if the client claims more than there are);
        # they weigh on the rate limit as frames do: a token a hundred events
        start = have if have <= total else 0
        c.charge((total - start) // 100)
        c.send(self.wire.events(room, c.seat, start, rid))

    def _on_record(self, c, m: dict, rid: Any, now: float) -> None:
        room = c.room
        if room is None or c.role != "player":
            return self._no(c, rid, "record", "not_seated", "only a seated player gets the match record")
        if room.status != "over":
            return self._no(c, rid, "record", "not_over", f"the match is {room.status}: "
                                                           "its record is sent once it has ended")
        c.send(frames.record(room, c.seat, rid))

    def _on_ping(self, c, m: dict, rid: Any, now: float) -> None:
        c.send({"type": "pong", "re": rid})

    # -------------------------------------------------------------- seats and presence

    def _attach(self, c, room: Room, seat: int, now: float) -> None:
        c.room, c.seat, c.role, c.name = room, seat, "player", room.seats[seat].name
        room.seats[seat].client = c
        self._set_presence(room, seat, "connected", now, but=c)      # ``_welcome`` tells ``c``

    def closed(self, c, now: float) -> None:
        """``c``'s connection has ended: its seat is dropped (the claim timer starts)."""
        if self.ladder is not None:
            try:
                self.ladder.gone(c)
            except Exception:
                log.exception("the ladder failed on a closed connection")
        room = c.room
        if room is None:
            return
        c.room = None
        room.updated = max(room.updated, now)
        if c.role == "spectator":
            room.watchers.discard(c)
            return
        seat = room.seats[c.seat]
        if seat.client is c:
            seat.client = None
            if seat.presence != "left":
                self._set_presence(room, c.seat, "dropped", now)

    def _set_presence(self, room: Room, seat: int, state: str, now: float, but=None) -> None:
        self.presence.set(room, seat, state, now)
        frames.to_room(room, self.presence.message(room, seat, now), but=but)

    def _welcome(self, c, room: Room, now: float) -> None:
        """A connection has just come into ``room``: who is there, every event, the end."""
        for seat in (0, 1):
            c.send(self.presence.message(room, seat, now))
        c.send(self.wire.events(room, c.seat, 0))
        if room.status == "over":
            c.send(frames.over(room))
            if c.role == "player":
                c.send(frames.record(room, c.seat))

    def _broadcast(self, room: Room, start: int, actor, rid: Any) -> None:
        for seat, s in enumerate(room.seats):
            if s.client is not None:
                s.client.send(self.wire.events(room, seat, start, rid if s.client is actor else None))
        if room.watchers:
            shown = self.wire.events(room, None, start)
            for w in list(room.watchers):
                w.send(shown)

    def _end(self, room: Room, now: float, actor=None, rid: Any = None) -> None:
        """The match is over (played to its end, or claimed by ``actor``: its answer)."""
        frames.to_room(room, frames.status(room))
        over = frames.over(room)
        frames.to_room(room, over, but=actor)
        if actor is not None:
            actor.send(dict(over, re=rid))
        for seat, s in enumerate(room.seats):       # the whole match: nothing is hidden any more
            if s.client is not None:
                s.client.send(frames.record(room, seat))
        if room.rated and self.ladder is not None:
            self._rated_end(room)

    # -------------------------------------------------------------- timers and the ladder

    def next_due(self) -> Optional[float]:
        """When ``tick`` next has a claim to announce (None: none timed)."""
        return self.presence.next_due()

    def tick(self, now: float, *, ladder: bool = True) -> list:
        """Announce the claims possible from ``now``; seat the ladder's new pairs
        (``ladder``: ask it; the transport does about once a second). The writes to run."""
        for room, seat in self.presence.due(now):
            frames.to_room(room, self.presence.message(room, seat, now))
        return self.ladder_tick(now) if ladder and self.ladder is not None else []

    # -------------------------------------------------------------- housekeeping

    def sweep(self, now: float) -> list[str]:
        """Unload finished rooms nobody watches after ``keep_finished``, expire live rooms
        nobody visited for ``room_ttl`` and open ones whose host left ``abandoned_after``
        ago; forget the guess counters of quiet addresses. Returns the codes unloaded."""
        cfg = self.config
        gone = []
        for code, room in list(self.rooms.items()):
            if room.connections() or room.writing or (room.lock is not None and room.lock.locked()):
                continue
            idle = now - room.updated
            host = room.seats[0]
            abandoned = (room.status == "open" and host.presence in ("dropped", "left")
                         and now - host.since > cfg.abandoned_after)
            if room.live and (idle > cfg.room_ttl or abandoned):
                try:
                    self.store.set_status(room, "expired", room.result)
                except StoreError:
                    continue
                room.status = "expired"
                if abandoned:
                    log.info("room %s expired: nobody joined, and its host left %.0f s ago",
                             code, now - host.since)
                else:
                    log.info("room %s expired after %.0f s without a visit", code, idle)
            elif room.live or idle <= cfg.keep_finished:
                continue
            del self.rooms[code]
            self._disown(room)
            self.wire.forget(room)      # (its timed claims lapse by themselves: it is not playing)
            gone.append(code)
        self.guesses.forget_quiet(now)
        self.refusals.flush()
        return gone


__all__ = ["RoomService", "Write"]
