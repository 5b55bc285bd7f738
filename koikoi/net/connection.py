"""One asyncio WebSocket connection to ``koikoi serve``: ``Connection`` sends requests and
waits for their answers, reads every server message into its ``ClientState``
(``koikoi.net.client_state``), and offers them in order (``recv``, ``async for``,
``wait_until``). ``koikoi.net.client`` re-exports it with the threaded client the UI uses.
"""

from __future__ import annotations

import asyncio
import inspect
import itertools
import logging
from dataclasses import replace
from typing import Any, Callable, Optional

from .client_state import ClientState, MatchRecord
from .protocol import PROTOCOL_VERSION, SERVER_MAX_FRAME, ProtocolError, action_to_json, encode, parse_server

log = logging.getLogger("koikoi.net.client")    # one logger for the client's side, as before the split


class ServerError(Exception):
    """The server refused a request: ``code`` ("illegal", "not_your_turn", ...), ``message``."""

    def __init__(self, code: str, message: str):
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ConnectionLost(ConnectionError):
    """The connection closed before the answer came."""


def _has_proxy_option(connect) -> bool:
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
        # websockets (~90 ms to import) loads at the first connection, not with the names
        # the UI imports from the client for its error texts (koikoi/net/__init__.py)
        from websockets.asyncio.client import connect   # start-up time: measured 38-39 ms CPU
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
        from websockets.exceptions import ConnectionClosed  # start-up time: measured 38-39 ms, with open()'s
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
