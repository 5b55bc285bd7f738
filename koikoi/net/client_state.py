"""What one client connection knows, and the checks of what the server sends it: the pure
reducer ``ClientState`` (``with_message`` folds each server message into a new state, the table
folded from the public events by ``engine.table.fold``), ``check_matched`` for a quick match's
room on another server process, and ``check_record`` for the server's record of an ended match.
No I/O and no websockets: ``koikoi.net.connection`` feeds it, ``koikoi.net.client`` re-exports it.
"""

from __future__ import annotations

import json
import math
import logging
import time
from dataclasses import dataclass, field, replace
from typing import Any, Optional
from urllib.parse import urlsplit

from ..engine import Rules, replay
from ..engine.events import Played, RoundDealt, event_to_dict, events_from_json
from ..engine.table import PublicTable, fold, initial
from .protocol import TOKEN_RE, action_from_json, event_from_wire, normal_code, record_id, wire_event

log = logging.getLogger("koikoi.net.client")    # one logger for the client's side, as before the split


def _spectator_fold(t: PublicTable, e) -> PublicTable:
    """A spectator's table: seat 0's table with its hand unknown (a tuple of None)."""
    n = len(t.hand)
    t = fold(t, e)
    if isinstance(e, Played) and e.seat == 0:
        t = t._replace(hand=(None,) * max(0, n - 1))
    elif isinstance(e, RoundDealt):
        t = t._replace(hand=(None,) * len(e.hands[0]))
    return t


@dataclass
class ClientState:
    """What one connection knows. Replaced, never changed in place, as messages arrive
    (``ThreadedClient.state`` hands out the latest one to another thread)."""

    protocol: Optional[int] = None
    room: Optional[str] = None
    role: Optional[str] = None              # "player" or "spectator"
    seat: Optional[int] = None
    token: Optional[str] = None
    names: tuple = (None, None)
    preset: Optional[str] = None
    house: dict = field(default_factory=dict)
    rules: Optional[Rules] = None
    months: Optional[int] = None
    spectators: bool = False
    claim_after: Optional[float] = None
    status: Optional[str] = None            # open, playing, over, closed, expired
    events: tuple = ()                      # public events (hidden cards None)
    table: Optional[PublicTable] = None
    to_move: Optional[int] = None
    legal: tuple = ()                       # engine actions open to this seat now
    presence: tuple = (None, None)          # the last presence message per seat
    over: Optional[dict] = None             # {"winner", "reason", "scores", "conceded"}
    error: Optional[dict] = None            # the last error message
    record: Optional["MatchRecord"] = None  # the whole match, checked, once it has ended
    record_problem: Optional[str] = None    # why the server's record was refused
    me: Optional[dict] = None               # the ladder's profile of this player (identify's answer)
    queued: Optional[dict] = None           # the ``queued`` answer while waiting for a quick match
    matched: Optional[dict] = None          # the last ``matched`` (a room on another server process)
    rated: Optional[dict] = None            # how a rated match moved this player's rating (``check_rated``)

    @property
    def total(self) -> int:
        return len(self.events)

    @property
    def my_turn(self) -> bool:
        return bool(self.legal)

    @property
    def opponent_name(self) -> Optional[str]:
        return None if self.seat is None else self.names[1 - self.seat]

    def waiting_for(self) -> Optional[tuple]:
        """(name, seconds gone, seconds until a claim is possible or None) of the other
        player while it is away, else None: what "waiting for X (0:42)" shows. Counted on
        this machine's clock from when the presence message came (the server's clock may
        differ)."""
        if self.seat is None:
            return None
        p = self.presence[1 - self.seat]
        if not p or p.get("state") not in ("dropped", "left"):
            return None
        elapsed = max(0.0, time.monotonic() - p.get("received", time.monotonic()))
        claim_in = p.get("claim_in")
        if isinstance(claim_in, (int, float)):
            claim_in = max(0.0, claim_in - elapsed)
        gone = p.get("gone")
        gone = (gone if isinstance(gone, (int, float)) else 0.0) + elapsed
        return p.get("name"), gone, claim_in

    def with_message(self, m: dict) -> "ClientState":
        """The state after server message ``m`` (ValueError if ``m`` is malformed)."""
        kind = m.get("type")
        if kind == "hello":
            return replace(self, protocol=m.get("protocol"))
        if kind == "profile":
            return replace(self, me=dict(m)) if m.get("you") is True else self
        if kind == "queued":
            return replace(self, queued=dict(m))
        if kind == "unqueued":
            return replace(self, queued=None)
        if kind == "matched":
            return replace(self, matched=check_matched(m), queued=None)
        if kind == "rated":
            return replace(self, rated=check_rated(m))
        if kind == "joined":
            seat = m.get("seat")
            role = m.get("role")
            if role not in ("player", "spectator") or seat not in (0, 1, None):
                raise ValueError("a joined message without a seat")
            rules = Rules.from_dict(m.get("rules"))
            return replace(
                self, room=m.get("room"), role=role, seat=seat, token=m.get("token", self.token),
                names=tuple(m.get("names") or (None, None)), preset=m.get("preset"),
                house=dict(m.get("house") or {}), rules=rules, months=m.get("months"),
                spectators=bool(m.get("spectators")), claim_after=m.get("claim_after"),
                status=m.get("status"), events=(), table=initial(seat if seat is not None else 0),
                legal=(), over=None, presence=(None, None), record=None, record_problem=None,
                queued=None, rated=None)
        if kind == "events":
            return self._with_events(m)
        if kind == "room":
            return replace(self, status=m.get("status"), names=tuple(m.get("names") or self.names))
        if kind == "presence":
            seat = m.get("seat")
            if seat not in (0, 1):
                raise ValueError("a presence message without a seat")
            presence = list(self.presence)
            presence[seat] = dict(m, received=time.monotonic())
            names = list(self.names)
            if m.get("name") is not None:
                names[seat] = m["name"]
            return replace(self, presence=tuple(presence), names=tuple(names))
        if kind == "over":
            return replace(self, over={k: m.get(k) for k in ("winner", "reason", "scores", "conceded")},
                           status="over", legal=())
        if kind == "error":
            return replace(self, error=dict(m))
        if kind == "record":
            try:
                return replace(self, record=check_record(self, m), record_problem=None)
            except RecordRefused as exc:
                log.error("the server's match record was refused: %s", exc)
                return replace(self, record=None, record_problem=str(exc))
        return self

    def _with_events(self, m: dict) -> "ClientState":
        start, events = m.get("start"), m.get("events")
        if type(start) is not int or type(events) is not list:
            raise ValueError("an events message without start and events")
        if self.table is None:
            raise ValueError("events before joining a room")
        skip = 0
        if start == 0:
            have, table = (), initial(self.table.seat)
        elif start == len(self.events):
            have, table = self.events, self.table
        elif 0 < start < len(self.events) <= start + len(events):
            # the answer to a ``sync`` sent before the last events came: they are in it again
            skip = len(self.events) - start
            if tuple(event_from_wire(d) for d in events[:skip]) != self.events[start:]:
                raise ValueError(f"the events from {start} differ from those received")
            have, table = self.events, self.table
        else:
            raise ValueError(f"events from {start}, but {len(self.events)} were received")
        step = fold if self.role == "player" else _spectator_fold
        new = []
        for d in events[skip:]:
            e = event_from_wire(d)
            table = step(table, e)
            new.append(e)
        legal = tuple(action_from_json(a) for a in m.get("legal") or ())
        return replace(self, events=have + tuple(new), table=table, to_move=m.get("to_move"),
                       legal=legal)


def check_matched(m: dict) -> dict:
    """A ``matched`` message's {url, room, token}, checked (ValueError if malformed): a
    ws:// or wss:// address without credentials, a room code, a seat token."""
    url, room, token = m.get("url"), m.get("room"), m.get("token")
    if type(url) is not str or len(url) > 300 or not url.isprintable() or " " in url:
        raise ValueError("a matched message without an address")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise ValueError("a matched message with an address that cannot be right") from None
    if parts.scheme not in ("ws", "wss") or not parts.hostname or parts.username or parts.password \
            or parts.query or parts.fragment or (port is not None and not 1 <= port <= 65535):
        raise ValueError("a matched message with an address that is not ws:// or wss://")
    if normal_code(room) != room or type(token) is not str or not TOKEN_RE.fullmatch(token):
        raise ValueError("a matched message without a room code and a seat token")
    return {"url": url, "room": room, "token": token}


def check_rated(m: dict) -> Optional[dict]:
    """A ``rated`` message's {before, after, rd, matches}, or None (with a log line) if a
    value is not a plain finite number in range: the change is only shown, so a bad one
    is left out rather than dropping the connection."""
    out = {}
    for k, lo, hi in (("before", 0.0, 10000.0), ("after", 0.0, 10000.0), ("rd", 0.0, 1000.0),
                      ("matches", 0, 10 ** 9)):
        v = m.get(k)
        if type(v) not in (int, float) or not math.isfinite(v) or not lo <= v <= hi \
                or (k == "matches" and type(v) is not int):
            log.warning("a rated message with a bad %s was left out", k)
            return None
        out[k] = v
    return out


class RecordRefused(ValueError):
    """The server's record of a match does not agree with what this client was sent."""


@dataclass(frozen=True)
class MatchRecord:
    """An ended online match as the server recorded it, checked by ``check_record``."""

    room: str
    match_id: str
    seat: int                   # this client's seat
    names: tuple                # (seat 0's name, seat 1's name)
    reason: str                 # "played" or "forfeit"
    winner: Optional[int]
    conceded: Optional[int]     # the seat that forfeited (a claimed match), else None
    state: Any                  # the engine State replayed from the whole log
    log: dict                   # the log, as ``events_to_json`` writes it (filed as it is)


def check_record(state: "ClientState", m: dict) -> MatchRecord:
    """The ``record`` message ``m`` checked against what ``state`` (this connection) was
    sent, or RecordRefused naming the first disagreement. The whole log must replay by the
    rules; every event of it, as this seat may see it, must be the event received; the
    match must have ended as the ``over`` message said, with the scores and ledger of the
    table folded here; the id must be the log's. A server that disagrees with itself is
    not believed: nothing it sent is filed (the public events alone cannot be replayed)."""
    # koikoi.session brings the AI and narration (~20 ms CPU when the client is imported alone,
    # measured): loaded only when a record is checked, as koikoi.net.protocol does for names
    from ..session import clean_name   # start-up time: measured 20 ms (see above)

    if state.role != "player" or state.seat not in (0, 1):
        raise RecordRefused("a match record came to a connection that holds no seat")
    if m.get("room") != state.room or m.get("seat") != state.seat:
        raise RecordRefused("the record is of another room or seat")
    if state.over is None:
        raise RecordRefused("a match record came before the match ended")
    log_data = m.get("log")
    if type(log_data) is not dict:
        raise RecordRefused("the record has no log")
    try:
        events = events_from_json(json.dumps(log_data))
        full = replay(events)
    except (ValueError, TypeError, RecursionError) as exc:
        raise RecordRefused(f"the record's log does not replay: {str(exc)[:160]}") from None
    if full.events != events:
        raise RecordRefused("the record's log does not replay to itself")
    if len(events) != len(state.events):
        raise RecordRefused(f"the record has {len(events)} events, this side received {len(state.events)}")
    seat = state.seat
    for i, (e, got) in enumerate(zip(events, state.events)):
        if wire_event(e, seat) != event_to_dict(got):
            raise RecordRefused(f"event {i} of the record ({e.type}) is not the one this side was sent")
    if m.get("match_id") != record_id(log_data):
        raise RecordRefused("the record's match id is not its log's")
    names = m.get("names")
    try:
        names = tuple(clean_name(n) for n in names) if type(names) is list and len(names) == 2 else None
    except ValueError:
        names = None
    if names is None:
        raise RecordRefused("the record does not name both players")
    over = state.over
    reason = m.get("reason")
    if reason != over.get("reason") or m.get("winner") != over.get("winner") \
            or m.get("conceded") != over.get("conceded"):
        raise RecordRefused("the record's result is not the one announced")
    table = state.table
    if reason == "played":
        if not full.is_over or full.winner != over.get("winner"):
            raise RecordRefused("the record's match did not end as announced")
    elif reason == "forfeit":
        conceded = over.get("conceded")
        if conceded not in (0, 1) or over.get("winner") != 1 - conceded or full.is_over:
            raise RecordRefused("the record's forfeit is not a forfeit of a match in play")
    else:
        raise RecordRefused(f"the record gives an unknown end {str(reason)[:20]!r}")
    if table is None or tuple(full.scores) != tuple(table.scores) or tuple(full.ledger) != tuple(table.ledger):
        raise RecordRefused("the record's scores or ledger are not the ones of the table played here")
    return MatchRecord(room=state.room, match_id=m["match_id"], seat=seat, names=names, reason=reason,
                       winner=over.get("winner"), conceded=over.get("conceded") if reason == "forfeit" else None,
                       state=full, log=log_data)
