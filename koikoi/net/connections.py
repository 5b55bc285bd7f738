"""A connection of the match server: what it sends (at once when it can, else in order
from a task that runs while frames wait), its rate limit and deadlines; and how
connections are counted from the TCP accept, before the WebSocket handshake
(``Accounting``, mixed into ``server.MatchServer``).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from typing import Any, Optional

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.frames import Opcode
from websockets.protocol import State

from .limits import Bucket, address_key
from .protocol import encode


def peer_of(ws) -> str:
    try:
        addr = ws.remote_address
        return str(addr[0]) if addr else "?"
    except Exception:
        return "?"


def forget_headers(ws) -> None:
    """The handshake's headers are read: each connection would keep a few KB of them."""
    for part in (ws.request, ws.response):
        if part is not None:
            part.headers = Headers()


async def ping(ws) -> None:
    try:
        await ws.ping()
    except Exception:       # closed meanwhile: the reader finds out
        pass


class Client:
    """One connection: what waits to leave (sent by a task that runs while there is),
    its rate limit, its deadlines, and where it sits (the room service's fields)."""

    def __init__(self, server: "MatchServer", ws, peer: str):
        self.server = server
        self.ws = ws
        self.peer = peer
        self.key = address_key(peer)          # what the per-address limits count
        cfg = server.config
        self.bucket = Bucket(cfg.rate, cfg.burst)
        self.out: deque = deque()             # frames (and at last a close) waiting to leave
        self.limit = cfg.send_queue
        self._sender: Optional[asyncio.Task] = None
        self.room = None
        self.seat: Optional[int] = None       # a player's seat
        self.role: Optional[str] = None       # "player" or "spectator"
        self.name: Optional[str] = None
        self.entering = False                 # a create or join of this connection is being written
        self.ladder: Any = None               # the quick-match ladder's (identified player, queue)
        self.strikes = 0                      # frames refused for the rate, in a row
        self.bad = 0                          # malformed frames, in a row
        self.closing = False
        self.last = time.monotonic()          # the last frame read (the join and idle deadlines)
        self.sending = 0.0                    # when the frame leaving now started (0: none)
        self.busy = False                     # a message of this connection is being handled
        self.idle: Optional[asyncio.Future] = None   # done when it is (someone waits for it)
        self.closer: Optional[asyncio.Task] = None   # told to close: the server's watch that it does
        self.ping_at = 0.0                    # our last keepalive ping, and the last pong read
        self.pong_at = 0.0

    @property
    def label(self) -> str:
        where = f" {self.room.code}/{self.role}{'' if self.seat is None else self.seat}" if self.room else ""
        return f"{self.peer}{where}"

    def send(self, message) -> None:
        """Queue ``message`` (a dict, or a frame already encoded)."""
        if self.closing:
            return
        if len(self.out) >= self.limit:
            self.server.refusals_log.refuse(self.label, "slow", f"{len(self.out)} frames unread: disconnected")
            self.abort()
            return
        text = message if type(message) is str else encode(message)
        if self._sender is None and self._send_now(text):
            return
        self.out.append(text)
        if self._sender is None:
            self._sender = asyncio.get_running_loop().create_task(self._send_all())

    def _send_now(self, text: str) -> bool:
        """Write ``text`` to the socket at once when nothing waits and websockets' own
        ``send`` would not wait either (the connection open, its write buffer below its
        limit): a frame is then one write, not a task and an await. False: queue it."""
        ws = self.ws
        try:
            if not (ws.protocol.state is State.OPEN and not ws.paused and ws.send_in_progress is None):
                return False
            ws.protocol.send_text(text.encode())
        except Exception:           # anything unexpected: the ordinary send says what
            return False
        try:                        # the frame is websockets' now: never queued a second time
            ws.send_data()
        except Exception:           # the socket failed: the reader finds out and ends
            pass
        return True

    def error(self, re: Any, code: str, message: str) -> None:
        self.send({"type": "error", "re": re, "code": code, "message": message})

    def charge(self, tokens: float) -> None:
        """A costly request weighs ``tokens`` frames more on the rate limit."""
        self.bucket.charge(tokens)

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close once everything queued is sent."""
        if not self.closing:
            self.out.append((code, reason))
            self.closing = True
            if self._sender is None:
                self._sender = asyncio.get_running_loop().create_task(self._send_all())

    def abort(self) -> None:
        """Drop the connection now (a reader too slow, a flood)."""
        self.closing = True
        transport = getattr(self.ws, "transport", None)
        if transport is not None:
            transport.abort()

    async def _send_all(self) -> None:
        """Send what is queued, in order, then end (the next ``send`` starts another). A
        frame that takes over ``send_timeout`` to leave is found by the server's clock
        (``overdue``), which drops the connection."""
        out, ws = self.out, self.ws
        item = None
        try:
            while out:
                item = out.popleft()
                self.sending = time.monotonic()
                if type(item) is tuple:
                    await ws.close(*item)
                    return
                await ws.send(item)
        except Exception:       # closed under us: the reader finds out too
            if type(item) is tuple:
                self.abort()
        finally:
            self.sending = 0.0
            self._sender = None

    def done_handling(self) -> None:
        """Its message handled: the next may come (whoever waits for it, wakes)."""
        self.busy = False
        idle, self.idle = self.idle, None
        if idle is not None and not idle.done():
            idle.set_result(None)

    async def wait_idle(self) -> None:
        """Until the message being handled is done."""
        while self.busy:
            if self.idle is None:
                self.idle = asyncio.get_running_loop().create_future()
            await asyncio.shield(self.idle)

    def stop_sending(self) -> None:
        self.closing = True
        if self._sender is not None:
            self._sender.cancel()

    def overdue(self, mono: float) -> Optional[str]:
        """Why the clock must act on this connection at ``mono`` (time.monotonic()): "slow"
        (a frame has been leaving for over ``send_timeout``), "join" or "idle" (no frame
        read for ``join_timeout`` before a room, ``idle_timeout`` after), or None."""
        cfg = self.server.config
        if self.sending and mono - self.sending > cfg.send_timeout:
            return "slow"
        if self.closing:
            return None
        waiting = self.room is None and not self.entering and self.ladder is None
        if mono - self.last > (cfg.join_timeout if waiting else cfg.idle_timeout):
            return "join" if waiting else "idle"
        return None


class Accounting:
    """Connections counted from the accept: in all (``connection_cap``) and per address
    key (``config.max_per_ip``); ping and pong frames counted in the rate limit."""

    def _connection_class(self):
        """websockets' server connection, counted from the TCP accept (before any byte
        of the handshake): over the total or the address's share it is answered 503 and
        closed at once; ping and pong frames take from the connection's rate limit. A
        whole text frame that finds its connection idle (nothing of it being handled,
        nothing queued) goes to ``server.on_read`` at once; any other waits in
        websockets' queue for the connection's task (``server._read_loop``)."""
        server = self
        control = (Opcode.PING, Opcode.PONG)
        data = (Opcode.TEXT, Opcode.BINARY, Opcode.CONT)
        TEXT = Opcode.TEXT
        full = (b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
                b"Content-Length: %d\r\nConnection: close\r\n\r\n%s")

        class Counted(ServerConnection):
            koikoi_key: Optional[str] = None
            koikoi_client: Optional[Client] = None

            def connection_made(self, transport) -> None:
                why = server._admit(transport)
                if isinstance(why, bytes):
                    try:
                        transport.write(full % (len(why), why))
                    finally:
                        transport.close()
                    return
                self.koikoi_key = why
                super().connection_made(transport)

            def connection_lost(self, exc) -> None:
                if self.koikoi_key is None:         # refused: websockets never saw it
                    return
                server._release(self.koikoi_key)
                super().connection_lost(exc)

            def data_received(self, data: bytes) -> None:
                if self.koikoi_key is not None:
                    super().data_received(data)

            def eof_received(self):
                if self.koikoi_key is not None:
                    return super().eof_received()
                return None

            # Data messages handed to websockets' own queue and not yet read from it by the
            # connection's task (``recv``), and whether a fragmented one is coming in: while
            # there is any, each frame waits its turn there, in order.
            koikoi_queued = 0
            koikoi_partial = False

            def process_event(self, event) -> None:
                opcode = getattr(event, "opcode", None)
                c = self.koikoi_client
                if opcode is TEXT and event.fin and c is not None and not c.busy and not c.closing \
                        and not self.koikoi_queued and not self.koikoi_partial \
                        and self.protocol.state is State.OPEN:
                    try:
                        raw = bytes(event.data).decode()
                    except UnicodeDecodeError:      # websockets' recv refuses it (close 1007)
                        pass
                    else:
                        # The message now, as it is read: no task wakes for it (the common
                        # case: nothing of this connection's is being handled or waits)
                        server.on_read(c, raw)
                        return
                if opcode in control and c is not None:
                    server._control_frame(c, opcode is Opcode.PONG)
                elif opcode in data:
                    if event.fin:
                        self.koikoi_queued += 1
                    self.koikoi_partial = not event.fin
                super().process_event(event)
        return Counted

    def _admit(self, transport):
        """An accepted connection's address key, or the text of a refusal (bytes)."""
        try:
            peer = transport.get_extra_info("peername")
            ip = str(peer[0]) if peer else "?"
        except Exception:
            ip = "?"
        key = address_key(ip)
        cfg = self.config
        if self.accepted >= self.connection_cap:
            self.refusals_log.often("connection", key, f"{self.connection_cap} connections already")
            return b"The server is full.\n"
        if self._per_ip.get(key, 0) >= cfg.max_per_ip:
            self.refusals_log.often("connection", key, f"{cfg.max_per_ip} connections from there already")
            return b"Too many connections from your address.\n"
        self.accepted += 1
        self._per_ip[key] = self._per_ip.get(key, 0) + 1
        return key

    def _release(self, key: str) -> None:
        self.accepted -= 1
        n = self._per_ip.get(key, 1) - 1
        if n > 0:
            self._per_ip[key] = n
        else:
            self._per_ip.pop(key, None)

    def _control_frame(self, c: Client, pong: bool) -> None:
        """A ping or a pong from ``c``: it counts in the rate limit as any frame (websockets
        has answered a ping already; a flood of them is disconnected)."""
        if pong:
            c.pong_at = time.monotonic()
        if c.bucket.take() or c.closing:
            return
        c.strikes += 1
        if c.strikes >= self.config.flood_close:
            self.refusals_log.refuse(c.label, "frame", f"flood of {c.strikes} ping/pong frames over "
                                                       "the rate limit: disconnected")
            c.abort()


__all__ = ["Accounting", "Client", "forget_headers", "peer_of", "ping"]
