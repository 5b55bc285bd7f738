"""The client side of ``koikoi serve``: an asyncio ``Connection`` and a thread-friendly
``ThreadedClient`` for the pygame UI. Both keep a ``ClientState``: the room, the seat,
the names and presence of both players, every public event received and the table
folded from them (``engine.table.fold``), the actions open now, and the result.

asyncio::

    conn = await Connection.open("ws://127.0.0.1:8765")
    joined = await conn.create_room({"preset": "casual"}, months=3, name="Aki")
    code, token = joined["room"], joined["token"]        # share the code; keep the token
    await conn.wait_until(lambda s: s.status == "playing")
    await conn.send_action(conn.state.legal[0])          # -> the "events" answer
    async for message in conn: ...                       # every server message, in order

pygame (the asyncio loop runs on a background thread; nothing blocks a frame)::

    client = ThreadedClient("ws://host:8765")
    client.connect()                       # futures: .done(), .result(timeout)
    client.join("KOI-4821", "Haru")
    each frame:
        for message in client.poll():      # new messages, never blocks
            ...
        table = client.state.table         # the seat's PublicTable; .legal, .names, ...
        client.act(action)                 # when client.state.my_turn
    client.close()

``ThreadedClient`` reconnects by itself when the connection drops (it keeps the seat's
token): ``poll`` then yields ``{"type": "link", "state": "reconnecting"}`` and later
``"connected"`` (the server sends every event again and the table is folded afresh)
or ``"lost"``.

Quick match (the server's ladder, ``koikoi.ladder.service``; docs/ladder.md)::

    client.identify(name="Haru")           # the player key from the data folder (made once, 0600)
    client.queue_match("casual", 6)        # -> queued; later the server sends "joined" by itself
    client.board(limit=20); client.profile()   # -> board / profile answers
    client.unqueue_match()                 # Cancel

A ``matched {url, room, token}`` (the room was made on another server process) is
followed by itself: this client connects to ``url`` and sends ``reconnect {room, token}``
there, and ``poll`` yields ``{"type": "link", "state": "connected", "moved": url}`` (or
``{"type": "link", "state": "lost"}`` when the other process cannot be reached).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import logging
import queue
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Optional

from ..engine import Rules
from ..engine.events import Played, RoundDealt
from ..engine.table import PublicTable, fold, initial
from .protocol import (PROTOCOL_VERSION, SERVER_MAX_FRAME, ProtocolError, action_from_json,
                       action_to_json, encode, event_from_wire, parse_server)

log = logging.getLogger("koikoi.net.client")


class ServerError(Exception):
    """The server refused a request: ``code`` ("illegal", "not_your_turn", ...), ``message``."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ConnectionLost(ConnectionError):
    """The connection closed before the answer came."""


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
                queued=None)
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
    from urllib.parse import urlsplit
    from .protocol import TOKEN_RE, normal_code
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
    import json
    from ..engine import replay
    from ..engine.events import event_to_dict, events_from_json
    from ..session import clean_name
    from .protocol import record_id, wire_event

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


def _has_proxy_option(connect) -> bool:
    import inspect
    try:
        return "proxy" in inspect.signature(connect.__init__).parameters
    except (TypeError, ValueError):
        return False


class Connection:
    """One WebSocket connection to a match server. Use ``await Connection.open(url)``."""

    def __init__(self, ws, *, record: bool = False):
        self.ws = ws
        self.state = ClientState()
        self.frames: Optional[list] = [] if record else None   # (events seen before, raw text)
        self.closed: Optional[dict] = None                     # {"code", "reason"} once closed
        self._ids = itertools.count(1)
        self._pending: dict = {}
        self._inbox: asyncio.Queue = asyncio.Queue()
        self._changed = asyncio.Condition()
        self._reader: Optional[asyncio.Task] = None
        self.on_message: Optional[Callable[[dict, ClientState], None]] = None

    @classmethod
    async def open(cls, url: str, *, timeout: float = 10.0, record: bool = False,
                   ping_interval: Optional[float] = 20.0) -> "Connection":
        from websockets.asyncio.client import connect
        options = dict(open_timeout=timeout, max_size=SERVER_MAX_FRAME, compression=None,
                       ping_interval=ping_interval, ping_timeout=20, close_timeout=5)
        if _has_proxy_option(connect):
            options["proxy"] = None     # websockets >= 15 would use a system proxy: never
        ws = await connect(url, **options)
        conn = cls(ws, record=record)
        conn._reader = asyncio.get_running_loop().create_task(conn._read())
        try:
            await conn.wait_until(lambda s: s.protocol is not None, timeout)
        except BaseException:
            await conn.close()
            raise
        if conn.state.protocol != PROTOCOL_VERSION:
            await conn.close()
            raise ConnectionError(f"the server speaks protocol {conn.state.protocol}, "
                                  f"this client {PROTOCOL_VERSION}")
        return conn

    async def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed
        code, reason = 1006, "connection lost"
        try:
            async for raw in self.ws:
                if self.frames is not None:
                    self.frames.append((len(self.state.events), raw))
                try:
                    m = parse_server(raw)
                    self.state = self.state.with_message(m)
                except (ProtocolError, ValueError, TypeError) as exc:
                    log.error("a malformed message from the server: %s", str(exc)[:200])
                    code, reason = 1002, f"malformed server message: {str(exc)[:100]}"
                    await self.ws.close(1002, "malformed message")
                    break
                self._dispatch(m)
                async with self._changed:
                    self._changed.notify_all()
            else:
                rcvd = self.ws.protocol.close_rcvd
                if rcvd is not None:
                    code, reason = rcvd.code, rcvd.reason
        except ConnectionClosed as exc:
            if exc.rcvd is not None:
                code, reason = exc.rcvd.code, exc.rcvd.reason
        except Exception as exc:        # pragma: no cover - never let the reader die silently
            log.exception("client reader failed")
            code, reason = 1011, str(exc)[:100]
        finally:
            self.closed = {"code": code, "reason": reason}
            for fut in self._pending.values():
                if not fut.done():
                    fut.set_exception(ConnectionLost(reason))
            self._pending.clear()
            m = {"type": "closed", "code": code, "reason": reason}
            self._inbox.put_nowait(m)
            if self.on_message is not None:
                self.on_message(m, self.state)
            async with self._changed:
                self._changed.notify_all()

    def _dispatch(self, m: dict) -> None:
        # The state first (done by the caller), then whoever watches, then the answer.
        self._inbox.put_nowait(m)
        if self.on_message is not None:
            self.on_message(m, self.state)
        re = m.get("re")
        if re is not None and re in self._pending:
            fut = self._pending.pop(re)
            if not fut.done():
                if m.get("type") == "error":
                    fut.set_exception(ServerError(str(m.get("code")), str(m.get("message"))))
                else:
                    fut.set_result(m)

    # -------------------------------------------------------------- sending

    async def send_raw(self, data) -> None:
        """Send a frame as it is (tests of hostile input)."""
        await self.ws.send(data)

    async def request(self, kind: str, *, timeout: float = 10.0, **fields) -> dict:
        """Send a message and wait for its answer (ServerError if refused)."""
        rid = next(self._ids)
        fut = asyncio.get_running_loop().create_future()
        self._pending[rid] = fut
        try:
            await self.ws.send(encode({"type": kind, "id": rid, **fields}))
            return await asyncio.wait_for(fut, timeout)
        except Exception:
            self._pending.pop(rid, None)
            if self.closed is not None and not fut.done():
                raise ConnectionLost(self.closed["reason"]) from None
            raise

    async def create_room(self, rules: Any = "casual", *, months: Any = "preset", name: str,
                          spectators: bool = False, timeout: float = 10.0) -> dict:
        """A new room, this connection in seat 0: the ``joined`` message (its ``room`` is
        the code to share, its ``token`` takes the seat back after a drop)."""
        if isinstance(rules, str):
            rules = {"preset": rules}
        fields = {"name": name, "rules": rules, "spectators": spectators}
        if months != "preset":
            fields["months"] = months
        return await self.request("create", timeout=timeout, **fields)

    async def join(self, code: str, name: str, *, timeout: float = 10.0) -> str:
        """Take seat 1 of room ``code``; returns the seat's token."""
        return (await self.request("join", room=code, name=name, timeout=timeout))["token"]

    async def reconnect(self, code: str, token: str, *, timeout: float = 10.0) -> dict:
        """Take back the seat of ``token`` (every event is sent again)."""
        joined = await self.request("reconnect", room=code, token=token, timeout=timeout)
        self.state = replace(self.state, token=token)
        return joined

    async def watch(self, code: str, name: Optional[str] = None, *, timeout: float = 10.0) -> dict:
        fields = {"room": code} if name is None else {"room": code, "name": name}
        return await self.request("watch", timeout=timeout, **fields)

    async def send_action(self, action, *, at: Any = "now", timeout: float = 10.0) -> dict:
        """Play ``action`` (an engine action); returns the ``events`` answer. ``at``: the
        events seen (default: all received so far; None: not checked)."""
        fields = {"action": action_to_json(action)}
        if at == "now":
            at = self.state.total
        if at is not None:
            fields["at"] = at
        return await self.request("act", timeout=timeout, **fields)

    async def claim(self, *, timeout: float = 10.0) -> None:
        """Win by forfeit (the other seat gone ``claim_after`` seconds, or left)."""
        await self.request("claim", timeout=timeout)
        await self.wait_until(lambda s: s.over is not None, timeout)

    async def leave(self, *, timeout: float = 10.0) -> None:
        try:
            await self.request("leave", timeout=timeout)
        except ConnectionLost:
            pass

    async def sync(self, *, timeout: float = 10.0, whole: bool = False) -> dict:
        """The events this connection lacks (``whole``: every event again)."""
        if whole:
            return await self.request("sync", timeout=timeout)
        return await self.request("sync", have=len(self.state.events), timeout=timeout)

    async def ping(self, *, timeout: float = 10.0) -> dict:
        return await self.request("ping", timeout=timeout)

    async def fetch_record(self, *, timeout: float = 10.0) -> Optional[MatchRecord]:
        """Ask for the record of the ended match again; the checked record (or None, with
        ``state.record_problem`` saying why)."""
        await self.request("record", timeout=timeout)
        return self.state.record

    # -------------------------------------------------------------- quick match (the ladder)

    async def identify(self, key: str, name: str, *, timeout: float = 10.0) -> dict:
        """Who this player is on the server's ladder: the ``profile`` answer."""
        return await self.request("identify", key=key, name=name, timeout=timeout)

    async def queue_match(self, preset: str, months: Optional[int] = None, *, timeout: float = 10.0) -> dict:
        """Wait for a quick match (``months`` None: the preset's own): the ``queued``
        answer; the room comes later as ``joined`` (or ``matched``)."""
        fields = {"preset": preset} if months is None else {"preset": preset, "months": months}
        return await self.request("queue", timeout=timeout, **fields)

    async def unqueue_match(self, *, timeout: float = 10.0) -> dict:
        return await self.request("unqueue", timeout=timeout)

    async def board(self, offset: int = 0, limit: int = 20, *, timeout: float = 10.0) -> dict:
        return await self.request("board", offset=offset, limit=limit, timeout=timeout)

    async def profile(self, player: Optional[str] = None, *, timeout: float = 10.0) -> dict:
        """A player's profile (a player id; None: one's own)."""
        fields = {} if player is None else {"player": player}
        return await self.request("profile", timeout=timeout, **fields)

    # -------------------------------------------------------------- receiving

    async def recv(self, timeout: Optional[float] = 10.0) -> dict:
        """The next server message (and synthetic ``closed`` at the end)."""
        return await asyncio.wait_for(self._inbox.get(), timeout)

    def drain(self) -> list:
        """Every message received and not yet taken, without waiting."""
        out = []
        while True:
            try:
                out.append(self._inbox.get_nowait())
            except asyncio.QueueEmpty:
                return out

    def __aiter__(self):
        return self

    async def __anext__(self) -> dict:
        if self.closed is not None and self._inbox.empty():
            raise StopAsyncIteration
        m = await self._inbox.get()
        return m

    async def wait_until(self, predicate: Callable[[ClientState], bool], timeout: float = 10.0) -> ClientState:
        """Wait until ``predicate(self.state)`` holds (TimeoutError after ``timeout``;
        ConnectionLost if the connection closes first)."""
        async def wait() -> ClientState:
            async with self._changed:
                while not predicate(self.state):
                    if self.closed is not None:
                        raise ConnectionLost(self.closed["reason"])
                    await self._changed.wait()
                return self.state
        return await asyncio.wait_for(wait(), timeout)

    async def close(self, timeout: float = 10.0) -> None:
        try:
            await asyncio.wait_for(self.ws.close(), timeout)
        except (Exception, asyncio.CancelledError):
            pass
        if self._reader is not None and not self._reader.done():
            try:
                await asyncio.wait_for(asyncio.shield(self._reader), timeout)
            except (Exception, asyncio.CancelledError):
                self._reader.cancel()
                await asyncio.wait([self._reader], timeout=1.0)


def _finish_tasks(loop: asyncio.AbstractEventLoop, timeout: float) -> None:
    """Cancel every task left on ``loop`` (stopped, not closed) and let them end."""
    tasks = [t for t in asyncio.all_tasks(loop) if not t.done()]
    if not tasks:
        return
    for t in tasks:
        t.cancel()
    loop.run_until_complete(asyncio.wait(tasks, timeout=timeout))
    for t in tasks:
        if t.done() and not t.cancelled() and t.exception() is not None:
            log.debug("a client task ended with %r", t.exception())


class ThreadedClient:
    """A ``Connection`` on a background thread's asyncio loop, for a UI that must not
    block: every call returns at once (a ``concurrent.futures.Future`` where there is an
    answer), ``poll()`` returns the messages that came since the last call, ``state`` is
    the latest ``ClientState``. With ``auto_reconnect`` a dropped seat is taken back with
    its token (backing off up to ``reconnect_for`` seconds)."""

    def __init__(self, url: str, *, auto_reconnect: bool = True, reconnect_for: float = 120.0,
                 timeout: float = 10.0):
        self.url = url
        self.auto_reconnect = auto_reconnect
        self.reconnect_for = reconnect_for
        self.timeout = timeout
        self._inbox: queue.SimpleQueue = queue.SimpleQueue()
        self._state = ClientState()
        self._conn: Optional[Connection] = None
        self._closing = False
        self._left = False
        self._reconnecting = False
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name="koikoi-net-client", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        loop = self._loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_forever()
        finally:
            # whatever is still running (a connection being opened, a reader, a reconnection)
            # is cancelled and awaited here, on the loop's own thread, before it closes
            try:
                _finish_tasks(loop, 2.0)
                loop.run_until_complete(loop.shutdown_asyncgens())
            except Exception:       # pragma: no cover - closing must not raise
                log.exception("the client's loop did not wind down cleanly")
            finally:
                loop.close()

    def _submit(self, coro) -> concurrent.futures.Future:
        if self._closing or self._loop.is_closed():
            coro.close()            # never started: no "coroutine was never awaited"
            f: concurrent.futures.Future = concurrent.futures.Future()
            f.set_exception(ConnectionLost("the client is closed"))
            return f
        try:
            return asyncio.run_coroutine_threadsafe(coro, self._loop)
        except RuntimeError:        # the loop closed meanwhile
            coro.close()
            f = concurrent.futures.Future()
            f.set_exception(ConnectionLost("the client is closed"))
            return f

    # -------------------------------------------------------------- the UI's side

    @property
    def state(self) -> ClientState:
        return self._state

    @property
    def connected(self) -> bool:
        return self._conn is not None and self._conn.closed is None

    def poll(self) -> list:
        """The messages received since the last call (never blocks)."""
        out = []
        while True:
            try:
                out.append(self._inbox.get_nowait())
            except queue.Empty:
                return out

    def connect(self) -> concurrent.futures.Future:
        return self._submit(self._connect())

    def create_room(self, rules: Any = "casual", *, months: Any = "preset", name: str,
                    spectators: bool = False) -> concurrent.futures.Future:
        return self._call("create_room", rules, months=months, name=name, spectators=spectators)

    def join(self, code: str, name: str) -> concurrent.futures.Future:
        return self._call("join", code, name)

    def reconnect(self, code: str, token: str) -> concurrent.futures.Future:
        """Take back the seat of ``token`` in room ``code`` (a seat kept from an earlier
        run of the program): the server sends every event again. Later drops reconnect
        with that token by themselves."""
        async def go():
            conn = self._need()
            joined = await conn.reconnect(code, token)
            self._state = conn.state        # with the token, for a later automatic reconnection
            return joined
        return self._submit(go())

    def watch(self, code: str, name: Optional[str] = None) -> concurrent.futures.Future:
        return self._call("watch", code, name)

    def act(self, action) -> concurrent.futures.Future:
        return self._call("send_action", action)

    def claim(self) -> concurrent.futures.Future:
        return self._call("claim")

    def fetch_record(self) -> concurrent.futures.Future:
        return self._call("fetch_record")

    def leave(self) -> concurrent.futures.Future:
        self._left = True
        return self._call("leave")

    def send(self, kind: str, **fields) -> concurrent.futures.Future:
        """Any request: the future's result is the server's answer."""
        async def go():
            return await self._need().request(kind, **fields)
        return self._submit(go())

    # quick match: see the module docstring
    def identify(self, name: str, key: Optional[str] = None, folder=None) -> concurrent.futures.Future:
        """Identify with ``key``, else the player key kept in the data folder ``folder``
        (``koikoi.ladder.identity``: made on first use, mode 0600)."""
        if key is None:
            from ..ladder.identity import load_or_create_key
            key = load_or_create_key(folder)
        return self._call("identify", key, name)

    def queue_match(self, preset: str, months: Optional[int] = None) -> concurrent.futures.Future:
        return self._call("queue_match", preset, months)

    def quick_match(self, name: str, preset: str, months: Optional[int] = None, *, key: Optional[str] = None,
                    folder=None) -> concurrent.futures.Future:
        """identify, then queue: the future's result is the ``queued`` answer (the room
        comes later, as ``joined``, or as ``matched`` which this client follows)."""
        if key is None:
            from ..ladder.identity import load_or_create_key
            key = load_or_create_key(folder)

        async def go():
            conn = self._need()
            await conn.identify(key, name)
            return await conn.queue_match(preset, months)
        return self._submit(go())

    def unqueue_match(self) -> concurrent.futures.Future:
        return self._call("unqueue_match")

    def board(self, offset: int = 0, limit: int = 20) -> concurrent.futures.Future:
        return self._call("board", offset, limit)

    def profile(self, player: Optional[str] = None) -> concurrent.futures.Future:
        return self._call("profile", player)

    def close(self, timeout: float = 5.0) -> None:
        """Close the connection and stop the thread."""
        if self._closing:
            return

        async def shut():
            # a connection still being opened (or a reconnection) is cancelled first, so
            # that no new connection appears behind the one closed here
            me = asyncio.current_task()
            others = [t for t in asyncio.all_tasks() if t is not me and t is not getattr(self._conn, "_reader", None)]
            for t in others:
                t.cancel()
            if others:
                await asyncio.wait(others, timeout=max(0.1, timeout / 2))
            if self._conn is not None:
                await self._conn.close(timeout=max(0.1, timeout / 2))
        self._closing = True            # no reconnection starts, _submit refuses new work
        try:
            fut = asyncio.run_coroutine_threadsafe(shut(), self._loop)
        except RuntimeError:            # the loop is closed already
            fut = None
        if fut is not None:
            try:
                fut.result(timeout)
            except Exception:
                pass
        try:
            self._loop.call_soon_threadsafe(self._loop.stop)
        except RuntimeError:
            pass
        self._thread.join(timeout)

    # -------------------------------------------------------------- the loop's side

    def _need(self) -> Connection:
        if self._conn is None or self._conn.closed is not None:
            raise ConnectionLost("not connected")
        return self._conn

    def _call(self, method: str, *args, **kwargs) -> concurrent.futures.Future:
        async def go():
            return await getattr(self._need(), method)(*args, **kwargs)
        return self._submit(go())

    def _on_message(self, m: dict, state: ClientState) -> None:
        self._state = state
        if m.get("type") == "matched" and not self._closing and state.matched is not None:
            self._inbox.put(m)
            self._loop.create_task(self._follow(state.matched))
            return
        if m.get("type") == "closed":
            if self._reconnecting:
                return          # a failed attempt: the loop goes on
            self._inbox.put(m)
            if (self.auto_reconnect and not self._closing and not self._left
                    and state.room is not None and (state.token or state.role == "spectator")
                    and m.get("code") not in (1000, 4001)):
                self._loop.create_task(self._reconnect_loop(state))
            return
        self._inbox.put(m)

    async def _open(self) -> Connection:
        conn = await Connection.open(self.url, timeout=self.timeout)
        conn.on_message = self._on_message
        self._state = conn.state
        self._conn = conn
        return conn

    async def _connect(self) -> ClientState:
        conn = await self._open()
        self._inbox.put({"type": "link", "state": "connected"})
        return conn.state

    async def _follow(self, where: dict) -> None:
        """The quick match's room is on another server process: take its seat there with
        the token given (the connection to this process is closed once that holds)."""
        old = self._conn
        self.url = where["url"]
        conn = None
        try:
            conn = await Connection.open(self.url, timeout=self.timeout)
            conn.on_message = self._on_message
            await conn.reconnect(where["room"], where["token"], timeout=self.timeout)
        except Exception as exc:
            log.warning("the matched room %s at %s could not be reached: %s: %s", where["room"],
                        self.url, type(exc).__name__, str(exc)[:200])
            if conn is not None:
                conn.on_message = None
                await conn.close()
            self._inbox.put({"type": "link", "state": "lost"})
            return
        self._conn = conn
        self._state = conn.state
        self._inbox.put({"type": "link", "state": "connected", "moved": self.url})
        if old is not None:
            old.on_message = None       # its closing is no drop of the seat
            await old.close()

    async def _reconnect_loop(self, last: ClientState) -> None:
        if self._reconnecting:
            return
        self._reconnecting = True
        self._inbox.put({"type": "link", "state": "reconnecting", "since": time.time()})
        deadline = time.monotonic() + self.reconnect_for
        delay = 0.25
        try:
            while not self._closing and time.monotonic() < deadline:
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)
                conn = None
                try:
                    conn = await self._open()
                    if last.role == "spectator":
                        await conn.watch(last.room)
                    else:
                        await conn.reconnect(last.room, last.token)
                except ServerError as exc:
                    await conn.close()
                    if exc.code in ("bad_token", "no_room", "no_spectators"):
                        break           # the seat is gone: do not keep trying
                    continue
                except Exception:       # refused, reset, timed out: try again
                    if conn is not None:
                        await conn.close()
                    continue
                if conn.closed is not None:
                    continue
                self._reconnecting = False
                self._state = conn.state
                self._inbox.put({"type": "link", "state": "connected"})
                return
        finally:
            self._reconnecting = False
        if not self._closing:
            self._inbox.put({"type": "link", "state": "lost"})
