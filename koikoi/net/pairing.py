"""The quick-match ladder's side of the room service (docs/ladder.md; optional): its
frames, the rated rooms it pairs players into, and the results it is told.

The ladder object (``koikoi.ladder.service.LadderService``, or a test's fake) offers
``TYPES`` (the frame types it reads), ``parse(obj) -> msg`` (ProtocolError if malformed),
``handle(conn, msg, rid, now)``, ``tick(now) -> [Pair]``, ``placed(pair, code,
tokens)``, ``unpaired(pair, code)``, ``finished(code, match_id, winner, claimed,
hashes, preset=, months=)`` (the room's rules, as stored with it; it returns the ratings
it moved by key hash, told to the players as ``rated``, or None) and ``gone(conn)``.
A ``Pair`` has ``conns`` (two; None: a player queued on another process), ``names``,
``preset``, ``months`` and ``hashes`` (the players' key hashes, kept with the room: a
restart keeps a room rated).
"""

from __future__ import annotations

import logging
from typing import Any

from . import frames
from .protocol import ProtocolError, log_id, new_token
from .rooms import Room, Seat, room_rules, token_hash

log = logging.getLogger("koikoi.net.server")


class LadderRooms:
    """Mixed into ``RoomService``: what it does for its ``ladder``."""

    ladder: Any

    def ladder_tick(self, now: float) -> list:
        """The ladder's new pairs, each seated in a new rated room: the writes to run."""
        try:
            pairs = self.ladder.tick(now)
        except Exception:
            log.exception("the ladder's tick failed")
            return []
        return [w for w in (self.pair_room(p, now) for p in pairs) if w is not None]

    def ladder_frame(self, c, obj: dict, rid: Any, now: float) -> None:
        """A frame of the ladder's (its type in ``ladder.TYPES``), read as JSON already."""
        try:
            msg = self.ladder.parse(obj)
        except ProtocolError as exc:
            return self._no(c, rid, str(obj.get("type"))[:24], exc.code, exc.message)
        try:
            self.ladder.handle(c, msg, rid, now)
        except Exception:
            log.exception("%s from %s failed", obj.get("type"), c.label)
            c.error(rid, "internal", "the server failed on that message; nothing changed")

    def pair_room(self, pair, now: float):
        """A rated room for a ladder's pair: seat 0 for ``pair.conns[0]``, seat 1 for
        ``pair.conns[1]`` (None: a player on another process, held as dropped)."""
        conns = list(pair.conns)
        for c in conns:
            if c is not None and (c.room is not None or c.entering or c.closing):
                return self._unpaired(pair, "in_room")
        try:
            rules, months, house = room_rules(pair.preset, {}, pair.months)
        except ValueError as exc:
            log.error("a ladder pair asks for rules this server has not: %s", exc)
            return self._unpaired(pair, "bad_rules")
        room = self._new_room(pair.preset, house, rules, months, False, now)
        if isinstance(room, tuple):
            return self._unpaired(pair, room[0])
        tokens = [new_token(), new_token()]
        for s in (0, 1):
            room.seats[s] = Seat(pair.names[s], token_hash(tokens[s]), now)
        room.status, room.rated, room.ladder_hashes = "playing", True, tuple(pair.hashes)
        self._creating[room.code] = room
        for c in conns:
            if c is not None:
                c.entering = True

        def done(rowid, now):
            self._creating.pop(room.code, None)
            room.id, room.updated = rowid, now
            self.rooms[room.code] = room
            log.info("room %s made for a ladder pair (%s, %s months)", room.code, room.preset, room.months)
            seated = []
            for s, c in enumerate(conns):     # both seats first: then each is told the room
                if c is not None:
                    c.entering = False
                if c is None or c.closing:
                    self.presence.set(room, s, "dropped", now)
                else:
                    c.room, c.seat, c.role, c.name = room, s, "player", room.seats[s].name
                    room.seats[s].client = c
                    self.presence.set(room, s, "connected", now)
                    seated.append((s, c))
            for s, c in seated:
                c.send(frames.joined(room, c, None, self.config.claim_after, tokens[s]))
                self._welcome(c, room, now)
            try:
                self.ladder.placed(pair, room.code, tuple(tokens))
            except Exception:
                log.exception("room %s: the ladder failed to take its placing", room.code)
            return None

        def failed(exc):
            self._creating.pop(room.code, None)
            for c in conns:
                if c is not None:
                    c.entering = False
            self._unpaired(pair, "storage")
        return self._write(room, "create", (room,), done, failed)

    def _unpaired(self, pair, code: str) -> None:
        self.refusals.refuse("ladder", "pair", f"{code}: no room for {pair.names[0]!r} and {pair.names[1]!r}")
        try:
            self.ladder.unpaired(pair, code)
        except Exception:
            log.exception("the ladder failed on an unpaired pair")

    def refile_ended(self) -> int:
        """The result of every loaded rated room that has ended, given to the ladder again:
        one whose ``finished`` never ran (the process killed just after the result was
        written, the ladder's database away then) is rated now; the others are repeats,
        which change nothing. The number of rooms given."""
        ended = [room for room in self.rooms.values() if room.rated and room.status == "over"]
        for room in ended:
            self._rated_end(room)
        return len(ended)

    def _rated_end(self, room: Room) -> None:
        """Give the ladder the result; tell each player still seated how its rating moved
        (``rated``; none for a repeat, or from a ladder that says nothing)."""
        r = room.result or {}
        hashes = tuple(room.ladder_hashes or ())
        try:
            moved = self.ladder.finished(room.code, log_id(room.events), r.get("winner"),
                                         r.get("reason") == "forfeit", hashes,
                                         preset=room.preset, months=room.months)   # kept across a restart
        except Exception:
            log.exception("room %s: the ladder failed to take the result", room.code)
            return
        if not isinstance(moved, dict):
            return
        for seat, s in enumerate(room.seats):
            change = moved.get(hashes[seat]) if seat < len(hashes) else None
            if s.client is not None and isinstance(change, dict):
                s.client.send(rated_frame(change))


def rated_frame(change: dict) -> dict:
    """The ``rated`` message of one player (docs/ladder.md)."""
    return {"type": "rated", "re": None, "before": round(change["before"], 1), "after": round(change["after"], 1),
            "rd": round(change["rd"], 1), "matches": int(change["matches"])}


__all__ = ["LadderRooms", "rated_frame"]
