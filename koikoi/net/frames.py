"""What the room service sends: each seat its own view of the events, a spectator the
table only, and the frames around them (``joined``, ``over``, ``record``).

    wire = Wire()
    wire.events(room, seat, start, rid)    # an encoded ``events`` frame: events start..
    wire.forget(room)                       # the room is unloaded

A seat gets ``protocol.wire_event(e, seat)`` (no other hand, no stock, no seed) and the
actions open to it; a spectator (``seat`` None) ``protocol.spectator_event(e)`` (no hand
at all). The new events of an action are encoded once for each viewer; a viewer's whole
log (a welcome, a ``sync`` from far back) is kept encoded for the ``keep`` viewers that
asked for one last (a committed log never changes), so a client syncing again and again
costs a copy, not an encoding, and a room nobody re-reads keeps no second copy of its log.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Optional

from ..engine import legal_actions
from .protocol import (actions_text, encode, event_text, is_public, record_text, rules_dict,
                       spectator_event, wire_event)

KEEP = 256          # viewers whose whole encoded log is kept (least recently read go first)


def encode_for(events, seat: Optional[int]) -> list:
    """Each event as ``seat`` (None: a spectator) may see it, encoded; a public event's
    text is the one every viewer and the store share (``protocol.event_text``)."""
    if seat is None:
        return [event_text(e) if is_public(e) else encode(spectator_event(e)) for e in events]
    return [event_text(e) if is_public(e) else encode(wire_event(e, seat)) for e in events]


class Wire:
    def __init__(self, keep: int = KEEP):
        self.keep = keep
        self._logs: "OrderedDict[tuple, list]" = OrderedDict()     # (code, seat) -> texts 0..n

    def _log(self, room, seat: Optional[int]) -> list:
        key = (room.code, seat)
        texts = self._logs.get(key)
        if texts is None:
            texts = self._logs[key] = []
            while len(self._logs) > self.keep:
                self._logs.popitem(last=False)
        else:
            self._logs.move_to_end(key)
        events = room.events
        if len(texts) < len(events):
            texts.extend(encode_for(events[len(texts):], seat))
        return texts

    def texts(self, room, seat: Optional[int], start: int) -> list:
        """Events ``start``.. as ``seat`` sees them, encoded: the new ones of an action are
        encoded here (and added to that viewer's kept log, if one is kept), a longer run
        comes from the kept log."""
        events = room.events
        if len(events) - start <= 8:
            kept = self._logs.get((room.code, seat))
            if kept is None or len(kept) < start:
                return encode_for(events[start:], seat)
            if len(kept) < len(events):
                kept.extend(encode_for(events[len(kept):], seat))
            return kept[start:]
        return self._log(room, seat)[start:]

    def events(self, room, seat: Optional[int], start: int, rid: Any = None) -> str:
        """The ``events`` frame (encoded) of events ``start``.. for ``seat``."""
        texts = self.texts(room, seat, start)
        head = ['{"type":"events"']
        if rid is not None:
            head.append(',"re":' + encode(rid))
        to_move = room.state.to_move
        head.append(f',"start":{start},"total":{len(room.events)},"to_move":'
                    f'{"null" if to_move is None else to_move},"legal":{legal_text(room, seat)}')
        head.append(',"events":[')
        head.append(",".join(texts))
        head.append("]}")
        return "".join(head)

    def forget(self, room) -> None:
        for seat in (0, 1, None):
            self._logs.pop((room.code, seat), None)


def legal_text(room, seat: Optional[int]) -> str:
    """The actions open to ``seat`` now, in their wire form, encoded (most viewers have
    none: not to move; a spectator never has any)."""
    state = room.state
    if room.status != "playing" or seat is None or state.to_move != seat:
        return "[]"
    acts = legal_actions(state)
    return actions_text(acts) if acts else "[]"


def joined(room, c, rid: Any, claim_after: float, token: Optional[str] = None) -> dict:
    out = {"type": "joined", "re": rid, "room": room.code, "role": c.role, "seat": c.seat,
           "names": room.names, "preset": room.preset, "house": room.house,
           "rules": rules_dict(room.rules), "months": room.months, "spectators": room.spectators,
           "status": room.status, "claim_after": claim_after}
    if token is not None:
        out["token"] = token
    return out


def status(room) -> dict:
    return {"type": "room", "status": room.status, "names": room.names}


def over(room) -> dict:
    r = room.result or {}
    return {"type": "over", "winner": r.get("winner"), "reason": r.get("reason", "played"),
            "scores": r.get("scores", list(room.state.scores)), "conceded": r.get("conceded")}


def record(room, seat: int, rid: Any = None) -> str:
    """The ``record`` message of an ended room for ``seat``, encoded: the log is built and
    encoded once (kept as text while the room stays loaded), each seat's frame spliced."""
    if room.status != "over":       # never while it is live: every hidden card is in it
        raise RuntimeError(f"room {room.code} is {room.status}: no record")
    if room.record is None or room.record[0] != len(room.events):
        room.record = (len(room.events), record_text(room.code, room.names, room.events, room.result))
    head = f'{{"type":"record","seat":{seat:d}'
    if rid is not None:
        head += ',"re":' + encode(rid)
    return head + "," + room.record[1][1:]


def to_room(room, message, but=None) -> None:
    """``message`` (a dict or an encoded frame) to everyone in ``room`` (but ``but``)."""
    for s in room.seats:
        if s.client is not None and s.client is not but:
            s.client.send(message)
    for w in list(room.watchers):
        if w is not but:
            w.send(message)


__all__ = ["Wire", "joined", "legal", "over", "record", "status", "to_room", "encode_for"]
