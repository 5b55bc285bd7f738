"""The match server. Server-authoritative: the engine runs here only. Its command line,
``koikoi serve``, is ``koikoi.net.cli``.

    server = MatchServer(data_dir, host="127.0.0.1", port=0, config=ServerConfig(...))
    await server.start();  server.port   # the bound port (port 0: the OS picks)
    ...
    await server.stop()

A room (``koikoi.net.rooms``) holds a match (a ``koikoi.session.MatchSession``), two
seats and any spectators. Every action passes the session's gate as the local table's
do (``MatchSession.prepare``: the seat to move, not stale, legal), is written to SQLite
and only then committed to the session (``MatchSession.commit``) and sent on: each seat gets ``protocol.wire_event(e, seat)`` of the new events (no other
hand, no stock, no seed) and the actions now open to it; a spectator gets
``protocol.spectator_event(e)`` (no hand at all). Error messages never name a card the
seat cannot see (an engine explanation that would is replaced by a generic one).

The write runs on the store's writer thread (``rooms.Writer``: the actions of many
rooms in one commit; creating a room and taking its second seat too, answered once
committed), so the event loop never waits for the disk; the room keeps
showing its last committed state until the commit returns, and what else comes for
that room meanwhile (an action, a claim) waits for it, in order. Once a match is over
(played out or claimed) each seated player is sent its ``record``: the whole log,
hidden cards and seed included (nothing is hidden any more), again on reconnecting
to the ended room and on ``record``; never before the end, never to a spectator.

Abuse: frames over ``max_frame`` bytes close the connection (websockets ``max_size``,
no compression); text only, JSON depth-capped, schema-checked
(``protocol.parse_client``); a token bucket per connection (``rate``/``burst``; a
flood past ``flood_close`` refused frames is disconnected); a deadline to join a room
after connecting (``join_timeout``) and an idle deadline after (``idle_timeout``);
pings (``ping_interval``/``ping_timeout``; pings and pongs count in the rate) and a
bounded send queue with a send deadline for slow readers; at most ``max_connections``
connections counted from the TCP accept (``max_per_ip`` from one address, an IPv6 /64
counted as one; the total kept below the open-files limit), ``max_rooms`` live rooms
(``rooms_per_address`` made from one address), ``max_watchers`` spectators a room; an
open room whose host left expires after ``abandoned_after``; failed room codes and
tokens are limited per address (``guesses_rate``) and in all (``guesses_total_rate``).
Every refusal answers with the request's ``re`` and is logged on one line (logger
``koikoi.net.server``), never with a card.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import secrets
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Optional

from ..engine import legal_actions, new_match
from ..engine.match import OVER
from ..session import Refused
from .protocol import (MAX_DEPTH, MAX_FRAME, PROTOCOL_VERSION, ProtocolError, action_to_json,
                       encode, new_room_code, new_token, parse_client, peek_id, record_message,
                       spectator_event, wire_event)
from .rooms import Room, RoomStore, Seat, StoreError, room_rules, room_session, token_hash

log = logging.getLogger("koikoi.net.server")

DEFAULT_PORT = 8765
MAX_DEFERRED = 64           # messages waiting for a room's write, at most


@dataclass
class ServerConfig:
    max_frame: int = MAX_FRAME          # bytes of one client frame
    max_depth: int = MAX_DEPTH          # JSON nesting of one client frame
    rate: float = 20.0                  # frames a second a connection may send, on average
    burst: int = 40                     # ... and at once
    flood_close: int = 200              # frames refused for the rate in a row: disconnected
    bad_close: int = 100                # malformed frames in a row: disconnected
    claim_after: float = 120.0          # seconds a seat may be dropped before the other claims
    join_timeout: float = 15.0          # seconds from connecting to being in a room
    idle_timeout: float = 3600.0        # seconds without a frame once in a room
    send_timeout: float = 10.0          # seconds one frame may take to leave
    send_queue: int = 512               # frames waiting to leave one connection
    open_timeout: float = 10.0          # the WebSocket opening handshake
    ping_interval: Optional[float] = 20.0
    ping_timeout: Optional[float] = 20.0
    close_timeout: float = 5.0
    max_rooms: int = 1000               # open or playing rooms
    rooms_per_address: int = 16         # open or playing rooms created from one address (IPv6: /64)
    # Connections, counted from the TCP accept (before the WebSocket handshake); the total is
    # also kept ``fd_reserve`` below the process's open-files limit (RLIMIT_NOFILE).
    max_connections: int = 2000
    max_per_ip: int = 64                # ... from one address (IPv6: one /64)
    fd_reserve: int = 64                # open files kept for the database, logs, the listener
    max_watchers: int = 8               # spectators a room
    guesses_rate: float = 0.5           # failed room codes / tokens a second from one address
    guesses_burst: int = 20
    guesses_total_rate: float = 10.0    # ... from every address together
    guesses_total_burst: int = 100
    keep_finished: float = 3600.0       # a finished room stays loaded this long (players reconnect)
    room_ttl: float = 7 * 86400.0       # an open or playing room nobody visits this long expires
    abandoned_after: float = 600.0      # an open room whose host is gone expires after this
    sweep_every: float = 60.0
    durable: bool = True                # synchronous=FULL: every acknowledged action is on disk
    code_digits: int = 4
    # The cyclic garbage collector: a full collection walks every object of every room (a
    # pause of 100+ ms with 500 rooms). ``gc_freeze``: what survives a full collection is
    # frozen (never walked again; plain garbage is still freed at once by reference counts),
    # and every ``gc_thaw_every`` seconds it is thawed, so that one full collection takes
    # what became cyclic garbage meanwhile. Process-wide: ``koikoi serve`` turns it on, a
    # server inside the game does not.
    gc_freeze: bool = False
    gc_thaw_every: float = 900.0


def default_data_dir() -> Path:
    """The server's folder: ``server/`` in the game's data folder (KOIKOI_HOME overrides)."""
    from ..storage import data_dir
    return data_dir() / "server"


class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst``."""

    __slots__ = ("rate", "burst", "tokens", "at")

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.at = float(burst), time.monotonic()

    def _fill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now

    def take(self) -> bool:
        self._fill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def empty(self) -> bool:
        self._fill()
        return self.tokens < 1.0

    def full(self) -> bool:
        self._fill()
        return self.tokens >= self.burst


def address_key(ip: str) -> str:
    """What the per-address limits count: the address, or for IPv6 its /64 (one
    subscriber's prefix: a host picks any address in it); an IPv4 mapped into IPv6 is
    the IPv4 address."""
    if ":" not in ip:
        return ip
    try:
        addr = ipaddress.IPv6Address(ip.split("%", 1)[0])
    except ValueError:
        return ip
    if addr.ipv4_mapped is not None:
        return str(addr.ipv4_mapped)
    return str(ipaddress.IPv6Network((addr, 64), strict=False))


def raise_open_files() -> Optional[tuple[int, int]]:
    """Raise this process's soft open-files limit to its hard one (``koikoi serve`` does at
    start): (old, new), or None where there is no such limit or it cannot change."""
    try:
        import resource
    except ImportError:         # Windows
        return None
    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        if soft == resource.RLIM_INFINITY or target <= soft:
            return None
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        return soft, target
    except (OSError, ValueError):
        return None


def open_files_limit() -> Optional[int]:
    """The soft open-files limit of this process, or None if it has none."""
    try:
        import resource
        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):
        return None
    return None if soft == resource.RLIM_INFINITY else soft


def _peer(ws) -> str:
    try:
        addr = ws.remote_address
        return str(addr[0]) if addr else "?"
    except Exception:
        return "?"


class Client:
    """One connection: its outgoing queue (written by its own task) and where it sits."""

    def __init__(self, server: "MatchServer", ws, peer: str):
        self.server = server
        self.ws = ws
        self.peer = peer
        self.key = address_key(peer)          # what the per-address limits count
        cfg = server.config
        self.bucket = Bucket(cfg.rate, cfg.burst)
        self.queue: asyncio.Queue = asyncio.Queue(cfg.send_queue)
        self.room: Optional[Room] = None
        self.seat: Optional[int] = None       # a player's seat
        self.role: Optional[str] = None       # "player" or "spectator"
        self.name: Optional[str] = None
        self.entering = False                 # a create or join of this connection is being written
        self.strikes = 0                      # frames refused for the rate, in a row
        self.bad = 0                          # malformed frames, in a row
        self.closing = False

    @property
    def label(self) -> str:
        where = f" {self.room.code}/{self.role}{'' if self.seat is None else self.seat}" if self.room else ""
        return f"{self.peer}{where}"

    def send(self, message) -> None:
        """Queue ``message`` (a dict, or a frame already encoded)."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(message if type(message) is str else encode(message))
        except asyncio.QueueFull:
            self.server._refuse(self, "slow", f"{self.queue.qsize()} frames unread: disconnected")
            self.abort()

    def error(self, re: Any, code: str, message: str) -> None:
        self.send({"type": "error", "re": re, "code": code, "message": message})

    def close(self, code: int = 1000, reason: str = "") -> None:
        """Close once everything queued is sent."""
        if not self.closing:
            try:
                self.queue.put_nowait((code, reason))
            except asyncio.QueueFull:
                self.abort()
                return
            self.closing = True

    def abort(self) -> None:
        """Drop the connection now (a reader too slow, a flood)."""
        self.closing = True
        transport = getattr(self.ws, "transport", None)
        if transport is not None:
            transport.abort()

    async def write_loop(self) -> None:
        timeout = self.server.config.send_timeout
        while True:
            item = await self.queue.get()
            if isinstance(item, tuple):
                try:
                    await asyncio.wait_for(self.ws.close(*item), timeout)
                except Exception:
                    self.abort()
                return
            try:
                await asyncio.wait_for(self.ws.send(item), timeout)
            except asyncio.TimeoutError:
                self.server._refuse(self, "slow", f"a frame took over {timeout:g} s to send: disconnected")
                self.abort()
                return
            except Exception:       # closed under us: the reader finds out too
                return


class MatchServer:
    def __init__(self, data_dir=None, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                 config: Optional[ServerConfig] = None, seeds: Optional[Callable[[], int]] = None):
        """``seeds``: where the seeds of new matches come from (tests); by default
        ``secrets.randbits(63)``: a seed deals every card, so it must not be guessable."""
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self._seeds = seeds or (lambda: secrets.randbits(63))
        self.host = host
        self.requested_port = port
        self.config = config or ServerConfig()
        self.rooms: dict[str, Room] = {}
        self._creating: dict[str, Room] = {}     # rooms being written, not yet known to anyone
        self.clients: set[Client] = set()
        self.store: Optional[RoomStore] = None
        self.port: Optional[int] = None
        self._ws = None
        self._per_ip: dict[str, int] = {}       # address key -> connections accepted, open
        self.accepted = 0                         # connections accepted and open (all addresses)
        self.connection_cap = self.config.max_connections   # lowered to the open-files limit
        self._guesses: dict[str, Bucket] = {}
        self._all_guesses = Bucket(self.config.guesses_total_rate, self.config.guesses_total_burst)
        self._quiet: dict[tuple, int] = {}       # (what, address) -> refusals not logged yet
        self._sweeper: Optional[asyncio.Task] = None
        self.refusals = 0

    # -------------------------------------------------------------- life

    async def start(self) -> None:
        from websockets.asyncio.server import serve
        cfg = self.config
        self.store = RoomStore(self.data_dir, durable=cfg.durable)
        now = time.time()
        for room in self.store.load(keep_finished=cfg.keep_finished, now=now):
            for seat in room.seats:
                if seat.name is not None:
                    # gone since the room's last visit (an abandoned room expires on time)
                    seat.presence, seat.since = "dropped", (room.updated if room.status == "open" else now)
            self.rooms[room.code] = room
            if room.status == "playing":
                for s in (0, 1):
                    self._arm_claim(room, s)
        if self.rooms:
            log.info("resumed %d room(s) from %s", len(self.rooms), self.store.path)
            self.sweep(now)
        limit = open_files_limit()
        self.connection_cap = cfg.max_connections
        if limit is not None and limit - cfg.fd_reserve < cfg.max_connections:
            self.connection_cap = max(1, limit - cfg.fd_reserve)
            log.warning("the open-files limit is %d: at most %d connections (not %d); raise it "
                        "(ulimit -n) for more", limit, self.connection_cap, cfg.max_connections)
        try:
            self._ws = await serve(
                self._handler, self.host, self.requested_port, compression=None,
                max_size=cfg.max_frame, max_queue=16, open_timeout=cfg.open_timeout,
                ping_interval=cfg.ping_interval, ping_timeout=cfg.ping_timeout,
                close_timeout=cfg.close_timeout, create_connection=self._connection_class(),
                server_header=f"koikoi/{PROTOCOL_VERSION}",
                logger=logging.getLogger("koikoi.net.websockets"))
        except BaseException:
            self._disarm()
            self.store.close()
            self.store = None
            raise
        self.port = self._ws.sockets[0].getsockname()[1]
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())
        if cfg.gc_freeze:
            self._gc_on(asyncio.get_running_loop())

    @property
    def url(self) -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"ws://{host}:{self.port}"

    # -------------------------------------------------------------- the garbage collector

    def _gc_on(self, loop) -> None:
        import gc

        def after(phase: str, info: dict) -> None:      # any thread: freeze on the loop
            if phase == "stop" and info.get("generation") == 2 and not loop.is_closed():
                try:
                    loop.call_soon_threadsafe(gc.freeze)
                except RuntimeError:
                    pass
        self._gc_callback = after
        self._gc_thawed = time.monotonic()
        gc.freeze()                 # what the server holds once started (modules, resumed rooms)
        gc.callbacks.append(after)

    def _gc_thaw(self, force: bool = False) -> None:
        import gc
        cb = getattr(self, "_gc_callback", None)
        if cb is None:
            return
        if force or time.monotonic() - self._gc_thawed >= self.config.gc_thaw_every:
            self._gc_thawed = time.monotonic()
            gc.unfreeze()
            if force:
                if cb in gc.callbacks:
                    gc.callbacks.remove(cb)
                self._gc_callback = None

    async def stop(self) -> None:
        self._gc_thaw(force=True)
        if self._sweeper is not None:
            self._sweeper.cancel()
            self._sweeper = None
        if self._ws is not None:
            self._ws.close()
            try:
                await asyncio.wait_for(self._ws.wait_closed(), self.config.close_timeout + 5)
            except asyncio.TimeoutError:
                log.warning("some connections did not close in time")
            self._ws = None
        self._disarm()
        if self.store is not None:
            self.store.close()
            self.store = None

    def _disarm(self) -> None:
        for room in self.rooms.values():
            for seat in room.seats:
                if seat.timer is not None:
                    seat.timer.cancel()
                    seat.timer = None

    async def __aenter__(self) -> "MatchServer":
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    async def serve_forever(self) -> None:
        await self._ws.serve_forever()

    # -------------------------------------------------------------- connections

    def _refuse(self, client: Optional[Client], what: str, reason: str) -> None:
        self.refusals += 1
        who = client.label if client is not None else "?"
        log.info("refused %s from %s: %s", what, who, reason.replace("\n", " ")[:200])

    def _refuse_often(self, what: str, key: str, reason: str) -> None:
        """A refusal that a flood repeats (connections): the first from ``key`` is logged,
        the rest counted and logged once a sweep (``flush_refusals``)."""
        self.refusals += 1
        n = self._quiet.get((what, key))
        if n is None:
            self._quiet[(what, key)] = 0
            log.info("refused %s from %s: %s (more from there are counted, logged once a minute)",
                     what, key, reason)
        else:
            self._quiet[(what, key)] = n + 1

    def flush_refusals(self) -> None:
        for (what, key), n in self._quiet.items():
            if n:
                log.info("refused %d more %s(s) from %s", n, what, key)
        self._quiet.clear()

    def _connection_class(self):
        """websockets' server connection, counted from the TCP accept (before any byte
        of the handshake): over the total or the address's share it is answered 503 and
        closed at once; ping and pong frames take from the connection's rate limit."""
        from websockets.asyncio.server import ServerConnection
        from websockets.frames import Opcode
        server = self
        control = (Opcode.PING, Opcode.PONG)
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

            def process_event(self, event) -> None:
                if getattr(event, "opcode", None) in control and self.koikoi_client is not None:
                    server._control_frame(self.koikoi_client)
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
            self._refuse_often("connection", key, f"{self.connection_cap} connections already")
            return b"The server is full.\n"
        if self._per_ip.get(key, 0) >= cfg.max_per_ip:
            self._refuse_often("connection", key, f"{cfg.max_per_ip} connections from there already")
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

    def _control_frame(self, c: Client) -> None:
        """A ping or a pong from ``c``: it counts in the rate limit as any frame (websockets
        has answered a ping already; a flood of them is disconnected)."""
        if c.bucket.take() or c.closing:
            return
        c.strikes += 1
        if c.strikes >= self.config.flood_close:
            self._refuse(c, "frame", f"flood of {c.strikes} ping/pong frames over the rate limit: "
                                     "disconnected")
            c.abort()

    async def _handler(self, ws) -> None:
        from websockets.exceptions import ConnectionClosed
        c = Client(self, ws, _peer(ws))
        ws.koikoi_client = c
        self.clients.add(c)
        writer = asyncio.get_running_loop().create_task(c.write_loop())
        cfg = self.config
        try:
            c.send({"type": "hello", "server": "koikoi", "protocol": PROTOCOL_VERSION,
                    "limits": {"max_frame": cfg.max_frame, "rate": cfg.rate, "burst": cfg.burst}})
            await self._read_loop(c)
        except ConnectionClosed as exc:
            sent = getattr(exc, "sent", None)
            if sent is not None and sent.code == 1009:
                self._refuse(c, "frame", f"over {cfg.max_frame} bytes: disconnected")
            elif sent is not None and sent.code not in (1000, 1001) and not c.closing:
                # websockets refused the frame itself (bad UTF-8, a protocol error)
                self._refuse(c, "frame", f"WebSocket close {sent.code} ({sent.reason[:60]}): disconnected")
        except Exception:       # never let one connection take the server down
            log.exception("connection %s: unexpected error", c.label)
        finally:
            self._detach(c)
            c.closing = True
            writer.cancel()
            self.clients.discard(c)

    async def _read_loop(self, c: Client) -> None:
        cfg = self.config
        ws = c.ws
        while True:
            waiting = c.room is None and not c.entering
            try:
                raw = await asyncio.wait_for(ws.recv(), cfg.join_timeout if waiting else cfg.idle_timeout)
            except asyncio.TimeoutError:
                what = "no room joined" if waiting else "idle"
                self._refuse(c, "timeout", f"{what} for {cfg.join_timeout if waiting else cfg.idle_timeout:g} s")
                c.error(None, "timeout", f"{what} for too long: disconnected")
                c.close(1008, "timeout")
                try:
                    await asyncio.wait_for(ws.wait_closed(), cfg.send_timeout + cfg.close_timeout)
                except asyncio.TimeoutError:
                    c.abort()
                return
            self.on_frame(c, raw)
            if c.closing:
                # Let the writer send what is queued and close; read what arrives meanwhile.
                try:
                    await asyncio.wait_for(ws.wait_closed(), cfg.send_timeout + cfg.close_timeout)
                except asyncio.TimeoutError:
                    c.abort()
                return

    def on_frame(self, c: Client, raw: Any) -> None:
        """One frame from ``c``: checked, then handled; nothing here raises."""
        cfg = self.config
        if not c.bucket.take():
            c.strikes += 1
            if c.strikes == 1:
                self._refuse(c, "frame", f"over the rate limit ({cfg.rate:g}/s, burst {cfg.burst})")
                c.error(peek_id(raw, max_bytes=cfg.max_frame, max_depth=cfg.max_depth), "rate_limited",
                        f"too many messages: at most {cfg.rate:g} a second")
            if c.strikes >= cfg.flood_close:
                self._refuse(c, "frame", f"flood of {c.strikes} frames over the rate limit: disconnected")
                c.close(1008, "flood")
            return
        c.strikes = 0
        try:
            msg = parse_client(raw, max_bytes=cfg.max_frame, max_depth=cfg.max_depth)
        except ProtocolError as exc:
            c.bad += 1
            self._refuse(c, "frame", f"{exc.code}: {exc.message}")
            c.error(exc.re, exc.code, exc.message)
            if c.bad >= cfg.bad_close:
                c.close(1008, "malformed frames")
            return
        c.bad = 0
        self._handle(c, msg, msg["id"])

    def _handle(self, c: Client, msg: dict, rid: Any) -> None:
        """One checked message; nothing here raises."""
        try:
            getattr(self, "_on_" + msg["type"])(c, msg, rid)
        except StoreError:
            self._not_stored(c, msg["type"], rid)
        except Exception:
            log.exception("%s from %s failed", msg["type"], c.label)
            c.error(rid, "internal", "the server failed on that message; nothing changed")

    def _not_stored(self, c: Client, what: str, rid: Any) -> None:
        """The room store could not write ``what``: refused, and the client told nothing changed."""
        self._refuse(c, what, "the room store could not write")
        c.error(rid, "storage", "the server could not save that; nothing changed")

    @staticmethod
    def _write_failure(f) -> Optional[BaseException]:
        """What a room write's future failed with (a cancelled one too), or None."""
        return f.exception() if not f.cancelled() else StoreError("cancelled")

    def _no(self, c: Client, rid: Any, what: str, code: str, message: str) -> None:
        self._refuse(c, what, f"{code}: {message}")
        c.error(rid, code, message)

    # -------------------------------------------------------------- messages

    def _live_rooms(self) -> int:
        return sum(r.live for r in self.rooms.values())

    def _new_code(self) -> Optional[str]:
        for _ in range(50):
            code = new_room_code(self.config.code_digits)
            if code not in self.rooms and code not in self._creating and not self.store.code_taken(code):
                return code
        return None

    def _on_create(self, c: Client, m: dict, rid: Any) -> None:
        if c.room is not None or c.entering:
            return self._no(c, rid, "create", "in_room", "this connection is in a room already")
        if self._live_rooms() + len(self._creating) >= self.config.max_rooms:
            return self._no(c, rid, "create", "server_full", "the server holds all the rooms it can")
        mine = (sum(r.owner == c.key and r.live for r in self.rooms.values())
                + sum(r.owner == c.key for r in self._creating.values()))
        if mine >= self.config.rooms_per_address:
            return self._no(c, rid, "create", "too_many_rooms",
                            f"{mine} rooms made from your address are still open or playing")
        choice = m["rules"]
        try:
            rules, months, house = room_rules(choice["preset"], choice["house"], m.get("months", "preset"))
        except ValueError as exc:
            return self._no(c, rid, "create", "bad_rules", str(exc))
        code = self._new_code()
        if code is None:
            return self._no(c, rid, "create", "server_full", "no room code is free")
        now = time.time()
        state = new_match(rules, seed=self._seeds(), months=months)
        token = new_token()
        room = Room(code, choice["preset"], house, rules, months, bool(m.get("spectators", False)),
                    room_session(state), now)
        room.seats[0] = Seat(m["name"], token_hash(token), now)
        room.owner = c.key
        # written on the writer thread; nobody knows the code until it is committed
        self._creating[code] = room
        c.entering = True
        try:
            done = asyncio.wrap_future(self.store.create_later(room))
        except BaseException:
            self._creating.pop(code, None)
            c.entering = False
            raise
        done.add_done_callback(lambda f: self._created(f, c, rid, room, token))

    def _created(self, f, c: Client, rid: Any, room: Room, token: str) -> None:
        self._creating.pop(room.code, None)
        c.entering = False
        if self._write_failure(f) is not None:
            return self._not_stored(c, "create", rid)
        room.id, room.updated = f.result(), time.time()
        self.rooms[room.code] = room
        log.info("room %s created by %s (%s, %s months)", room.code, c.peer, room.preset, room.months)
        if c.closing:           # gone before it heard: the room waits (and expires) like any
            room.seats[0].presence, room.seats[0].since = "dropped", time.time()
            return
        self._attach(c, room, 0)
        c.send(self._joined(room, c, rid, token))
        self._welcome(c, room)

    def _guess_blocked(self, c: Client, rid: Any, what: str) -> bool:
        b = self._guesses.get(c.key)
        if b is not None and b.empty():
            self._no(c, rid, what, "too_many_tries", "too many wrong room codes or tokens: wait a minute")
            return True
        if self._all_guesses.empty():
            self._no(c, rid, what, "server_busy", "the server is refusing room codes for a moment: "
                                                  "try again in a minute")
            return True
        return False

    def _guessed_wrong(self, c: Client) -> None:
        b = self._guesses.get(c.key)
        if b is None:
            b = self._guesses[c.key] = Bucket(self.config.guesses_rate, self.config.guesses_burst)
        b.take()
        self._all_guesses.take()

    def _lookup(self, c: Client, m: dict, rid: Any) -> Optional[Room]:
        what = m["type"]
        if c.room is not None or c.entering:
            self._no(c, rid, what, "in_room", "this connection is in a room already")
            return None
        if self._guess_blocked(c, rid, what):
            return None
        room = self.rooms.get(m["room"])
        if room is None:
            self._guessed_wrong(c)
            self._no(c, rid, what, "no_room", f"there is no room {m['room']}")
        return room

    def _on_join(self, c: Client, m: dict, rid: Any) -> None:
        room = self._lookup(c, m, rid)
        if room is None:
            return
        if room.status != "open" or room.seats[1].name is not None:
            why = "has two players" if room.status == "playing" else f"is {room.status}"
            return self._no(c, rid, "join", "room_full", f"room {room.code} {why}")
        token = new_token()
        now = time.time()
        room.seats[1] = Seat(m["name"], token_hash(token), now)     # taken: a second join is refused
        room.writing = c.entering = True
        try:
            done = asyncio.wrap_future(self.store.add_seat_later(room, 1, "playing"))
        except BaseException:
            room.seats[1] = Seat()
            room.writing = c.entering = False
            raise
        done.add_done_callback(lambda f: self._seated(f, c, rid, room, token))

    def _seated(self, f, c: Client, rid: Any, room: Room, token: str) -> None:
        room.writing = c.entering = False
        try:
            if self._write_failure(f) is not None:
                room.seats[1] = Seat()
                self._not_stored(c, "join", rid)
            else:
                room.updated = f.result()
                self._joined_room(c, rid, room, token)
        except Exception:
            log.exception("room %s: seating a player failed", room.code)
        self._undefer(room)

    def _joined_room(self, c: Client, rid: Any, room: Room, token: str) -> None:
        room.status = "playing"
        log.info("room %s: %s joined", room.code, c.peer)
        if c.closing:           # gone before it heard: the seat is kept as dropped
            self._to_room(room, {"type": "room", "status": room.status, "names": room.names})
            self._set_presence(room, 1, "dropped")
            host = room.seats[0].client
            if host is not None:
                host.send(self._events(room, 0, len(room.events)))
            return
        self._attach(c, room, 1)
        c.send(self._joined(room, c, rid, token))
        self._welcome(c, room)
        self._to_room(room, {"type": "room", "status": room.status, "names": room.names}, but=c)
        host = room.seats[0].client
        if host is not None:       # it may move now
            host.send(self._events(room, 0, len(room.events)))

    def _on_reconnect(self, c: Client, m: dict, rid: Any) -> None:
        room = self._lookup(c, m, rid)
        if room is None:
            return
        seat = next((s for s in (0, 1) if room.seats[s].token_ok(m["token"])), None)
        if seat is None:
            self._guessed_wrong(c)
            return self._no(c, rid, "reconnect", "bad_token", f"that token holds no seat in room {room.code}")
        old = room.seats[seat].client
        if old is not None and old is not c:
            old.error(None, "replaced", "this seat was taken back by a new connection")
            old.room, old.seat, old.role = None, None, None
            old.close(4001, "replaced")
            room.seats[seat].client = None
        log.info("room %s: seat %d reconnected from %s", room.code, seat, c.peer)
        self._attach(c, room, seat)
        c.send(self._joined(room, c, rid))
        self._welcome(c, room)

    def _on_watch(self, c: Client, m: dict, rid: Any) -> None:
        room = self._lookup(c, m, rid)
        if room is None:
            return
        if not room.spectators:
            return self._no(c, rid, "watch", "no_spectators", f"room {room.code} takes no spectators")
        if len(room.watchers) >= self.config.max_watchers:
            return self._no(c, rid, "watch", "room_full", f"room {room.code} has all the spectators it takes")
        c.room, c.role, c.seat, c.name = room, "spectator", None, m.get("name")
        room.watchers.add(c)
        c.send(self._joined(room, c, rid))
        self._welcome(c, room)

    def _defer(self, c: Client, m: dict, rid: Any) -> bool:
        """While an action of ``c``'s room is being written, what would read or change the
        room's match waits for it (in order): True if ``m`` was put aside."""
        room = c.room
        if room is not None and room.writing:
            if len(room.deferred) >= MAX_DEFERRED:      # only a flood gets here: the rate limit bounds it
                self._no(c, rid, m["type"], "busy", "the room is saving the last action: try again")
                return True
            room.deferred.append((c, m, rid))
            return True
        return False

    def _undefer(self, room: Room) -> None:
        """Handle what waited for the room's write, in order, until another write starts."""
        while room.deferred and not room.writing:
            c, m, rid = room.deferred.pop(0)
            if c.room is room and not c.closing:
                self._handle(c, m, rid)

    def _on_act(self, c: Client, m: dict, rid: Any) -> None:
        if self._defer(c, m, rid):
            return
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
                      "scores": list(new.scores), "at": time.time()}
        else:
            status, result = "playing", None
        # On disk before anyone hears: written on the store's writer thread (with the actions
        # of other rooms in the same commit); the session takes the move once committed.
        room.writing = True
        try:
            done = asyncio.wrap_future(self.store.append_later(room, move.start, move.events, status, result))
        except BaseException:
            room.writing = False
            raise
        done.add_done_callback(lambda f: self._written(f, room, c, rid, move, status, result))

    def _written(self, f, room: Room, c: Client, rid: Any, move, status: str,
                 result: Optional[dict]) -> None:
        """An action's events are committed (or not): tell everyone, then what waited."""
        room.writing = False
        try:
            if self._write_failure(f) is not None:
                self._not_stored(c, "act", rid)
            else:
                room.updated = f.result()
                room.session.commit(move)
                room.status, room.result = status, result
                self._broadcast_events(room, move.start, c, rid)
                if status == "over":
                    self._end(room)
        except Exception:
            log.exception("room %s: telling the players of an action failed", room.code)
        self._undefer(room)

    def _on_claim(self, c: Client, m: dict, rid: Any) -> None:
        if self._defer(c, m, rid):
            return
        room = c.room
        if room is None or c.role != "player":
            return self._no(c, rid, "claim", "not_seated", "only a seated player claims")
        if room.status != "playing":
            return self._no(c, rid, "claim", "cannot_claim", f"the match is {room.status}")
        other = 1 - c.seat
        wait = self._claim_in(room, other)
        if wait is None:
            return self._no(c, rid, "claim", "cannot_claim", "the other player is connected")
        if wait > 0:
            return self._no(c, rid, "claim", "cannot_claim", f"you may claim the match in {wait:.0f} s")
        result = {"reason": "forfeit", "winner": c.seat, "conceded": other,
                  "scores": list(room.state.scores), "at": time.time()}
        self.store.set_status(room, "over", result)
        room.status, room.result = "over", result
        log.info("room %s: seat %d claimed the match (seat %d forfeits)", room.code, c.seat, other)
        self._end(room, c, rid)

    def _on_leave(self, c: Client, m: dict, rid: Any) -> None:
        if self._defer(c, m, rid):
            return
        room = c.room
        if room is not None:
            if c.role == "player":
                seat = room.seats[c.seat]
                if seat.client is c:
                    seat.client = None
                    self._set_presence(room, c.seat, "left")
                    if room.status == "open" and c.seat == 0:
                        self.store.set_status(room, "closed")
                        room.status = "closed"
                        self._to_room(room, {"type": "room", "status": room.status, "names": room.names})
            else:
                room.watchers.discard(c)
            c.room, c.seat, c.role = None, None, None
        c.send({"type": "left", "re": rid})
        c.close(1000, "left")

    def _on_sync(self, c: Client, m: dict, rid: Any) -> None:
        if c.room is None:
            return self._no(c, rid, "sync", "not_in_room", "join a room first")
        have = m.get("have", 0)
        total = len(c.room.events)
        # the events from ``have`` on (all of them if the client claims more than there are);
        # they weigh on the rate limit as frames do: a token a hundred events
        start = have if have <= total else 0
        c.bucket.tokens -= (total - start) // 100
        c.send(self._events(c.room, c.seat, start, rid))

    def _on_record(self, c: Client, m: dict, rid: Any) -> None:
        room = c.room
        if room is None or c.role != "player":
            return self._no(c, rid, "record", "not_seated", "only a seated player gets the match record")
        if room.status != "over":
            return self._no(c, rid, "record", "not_over", f"the match is {room.status}: "
                                                           "its record is sent once it has ended")
        c.send(dict(self._record(room, c.seat), re=rid))

    def _on_ping(self, c: Client, m: dict, rid: Any) -> None:
        c.send({"type": "pong", "re": rid})

    # -------------------------------------------------------------- seats and presence

    def _attach(self, c: Client, room: Room, seat: int) -> None:
        c.room, c.seat, c.role, c.name = room, seat, "player", room.seats[seat].name
        room.seats[seat].client = c
        self._set_presence(room, seat, "connected", but=c)      # ``_welcome`` tells ``c``

    def _detach(self, c: Client) -> None:
        room = c.room
        if room is None:
            return
        c.room = None
        room.updated = max(room.updated, time.time())
        if c.role == "spectator":
            room.watchers.discard(c)
            return
        seat = room.seats[c.seat]
        if seat.client is c:
            seat.client = None
            if seat.presence != "left":
                self._set_presence(room, c.seat, "dropped")

    def _set_presence(self, room: Room, seat: int, state: str, but: Optional[Client] = None) -> None:
        s = room.seats[seat]
        s.presence, s.since = state, time.time()
        if s.timer is not None:
            s.timer.cancel()
            s.timer = None
        if state == "dropped":
            self._arm_claim(room, seat)
        self._to_room(room, self._presence(room, seat), but=but)

    def _arm_claim(self, room: Room, seat: int) -> None:
        s = room.seats[seat]
        if room.status != "playing" or s.presence != "dropped":
            return
        delay = max(0.0, s.since + self.config.claim_after - time.time())
        s.timer = asyncio.get_running_loop().call_later(delay, self._claimable, room, seat)

    def _claimable(self, room: Room, seat: int) -> None:
        room.seats[seat].timer = None
        if room.status == "playing" and room.seats[seat].presence == "dropped":
            self._to_room(room, self._presence(room, seat))

    def _claim_in(self, room: Room, seat: int) -> Optional[float]:
        """Seconds until ``seat``'s absence may be claimed (0: now), None if it may not."""
        s = room.seats[seat]
        if room.status != "playing":
            return None
        if s.presence == "left":
            return 0.0
        if s.presence == "dropped":
            return max(0.0, round(s.since + self.config.claim_after - time.time(), 3))
        return None

    def _presence(self, room: Room, seat: int) -> dict:
        s = room.seats[seat]
        return {"type": "presence", "seat": seat, "name": s.name, "state": s.presence,
                "since": round(s.since, 3), "gone": round(max(0.0, time.time() - s.since), 3)
                if s.presence in ("dropped", "left") else 0.0, "claim_in": self._claim_in(room, seat)}

    # -------------------------------------------------------------- what is sent

    def _to_room(self, room: Room, message: dict, but: Optional[Client] = None) -> None:
        for s in room.seats:
            if s.client is not None and s.client is not but:
                s.client.send(message)
        for w in list(room.watchers):
            if w is not but:
                w.send(message)

    def _joined(self, room: Room, c: Client, rid: Any, token: Optional[str] = None) -> dict:
        out = {"type": "joined", "re": rid, "room": room.code, "role": c.role, "seat": c.seat,
               "names": room.names, "preset": room.preset, "house": room.house,
               "rules": room.rules.to_dict(), "months": room.months, "spectators": room.spectators,
               "status": room.status, "claim_after": self.config.claim_after}
        if token is not None:
            out["token"] = token
        return out

    def _welcome(self, c: Client, room: Room) -> None:
        """A connection has just come into ``room``: who is there, every event, the end."""
        for seat in (0, 1):
            c.send(self._presence(room, seat))
        c.send(self._events(room, c.seat, 0))
        if room.status == "over":
            c.send(self._over(room))
            if c.role == "player":
                c.send(self._record(room, c.seat))

    def _legal(self, room: Room, seat: Optional[int]) -> list:
        state = room.state
        if room.status != "playing" or seat is None or state.to_move != seat:
            return []
        return [action_to_json(a) for a in legal_actions(state) or ()]

    @staticmethod
    def _wire(room: Room, seat: Optional[int]) -> list:
        """The room's events as ``seat`` (None: a spectator) may see them, each encoded once:
        kept with the room and extended as its log grows (a committed log never changes)."""
        texts = room.wire.get(seat)
        if texts is None:
            texts = room.wire[seat] = []
        events = room.events
        if len(texts) < len(events):
            if seat is None:
                texts.extend(encode(spectator_event(e)) for e in events[len(texts):])
            else:
                texts.extend(encode(wire_event(e, seat)) for e in events[len(texts):])
        return texts

    def _events(self, room: Room, seat: Optional[int], start: int, rid: Any = None) -> str:
        """The ``events`` frame (encoded) of events ``start``.. for ``seat``."""
        texts = self._wire(room, seat)
        head = {"type": "events", "start": start, "total": len(texts),
                "to_move": room.state.to_move, "legal": self._legal(room, seat)}
        if rid is not None:
            head["re"] = rid
        return "".join((encode(head)[:-1], ',"events":[', ",".join(texts[start:]), "]}"))

    def _broadcast_events(self, room: Room, start: int, actor: Client, rid: Any) -> None:
        for seat, s in enumerate(room.seats):
            if s.client is not None:
                s.client.send(self._events(room, seat, start, rid if s.client is actor else None))
        if room.watchers:
            shown = self._events(room, None, start)
            for w in list(room.watchers):
                w.send(shown)

    def _over(self, room: Room) -> dict:
        r = room.result or {}
        return {"type": "over", "winner": r.get("winner"), "reason": r.get("reason", "played"),
                "scores": r.get("scores", list(room.state.scores)), "conceded": r.get("conceded")}

    def _end(self, room: Room, actor: Optional[Client] = None, rid: Any = None) -> None:
        """The match is over (played to its end, or claimed by ``actor``: its answer)."""
        for s in room.seats:
            if s.timer is not None:
                s.timer.cancel()
                s.timer = None
        self._to_room(room, {"type": "room", "status": room.status, "names": room.names})
        over = self._over(room)
        self._to_room(room, over, but=actor)
        if actor is not None:
            actor.send(dict(over, re=rid))
        for seat, s in enumerate(room.seats):       # the whole match: nothing is hidden any more
            if s.client is not None:
                s.client.send(self._record(room, seat))

    def _record(self, room: Room, seat: int) -> dict:
        """The ``record`` message of an ended room for ``seat`` (the log is built once)."""
        if room.status != "over":       # never while it is live: every hidden card is in it
            raise RuntimeError(f"room {room.code} is {room.status}: no record")
        if room.record is None or room.record[0] != len(room.events):
            room.record = (len(room.events), record_message(room.code, 0, room.names, room.events,
                                                            room.result))
        return dict(room.record[1], seat=seat)

    # -------------------------------------------------------------- housekeeping

    async def _sweep_loop(self) -> None:
        while True:
            cfg = self.config
            await asyncio.sleep(max(1.0, min(cfg.sweep_every, cfg.gc_thaw_every, cfg.abandoned_after / 4)))
            self._gc_thaw()
            try:
                self.sweep()
            except Exception:
                log.exception("sweeping the rooms failed")

    def sweep(self, now: Optional[float] = None) -> list[str]:
        """Unload finished rooms nobody watches after ``keep_finished``, expire live rooms
        nobody visited for ``room_ttl``; forget the guess counters of quiet addresses.
        Returns the codes unloaded."""
        now = time.time() if now is None else now
        cfg = self.config
        gone = []
        for code, room in list(self.rooms.items()):
            if room.connections() or room.writing:
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
            for s in room.seats:
                if s.timer is not None:
                    s.timer.cancel()
            del self.rooms[code]
            gone.append(code)
        for ip, b in list(self._guesses.items()):
            if b.full():
                del self._guesses[ip]
        self.flush_refusals()
        return gone


if __name__ == "__main__":         # python -m koikoi.net.server: the command (koikoi.net.cli)
    from .cli import main
    sys.exit(main())
