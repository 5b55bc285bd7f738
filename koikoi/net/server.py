"""The match server's transport: websockets' ``serve``, connections counted from the
accept, the rate limits, then each message to the room service. Its command line,
``koikoi serve``, is ``koikoi.net.cli``.

    server = MatchServer(data_dir, host="127.0.0.1", port=0, config=ServerConfig(...), ladder=None)
    await server.start();  server.port   # the bound port (port 0: the OS picks)
    ...
    await server.stop()

The rooms, their matches and every rule of play are the synchronous
``koikoi.net.service.RoomService`` (``server.service``): a checked message in, what to
write and what to send out. Here a room's messages run one at a time (a ``RoomLock``
a room) and each write the service asks for is done on the store's writer thread
(``koikoi.net.store``: the writes of many rooms in one commit) before the service goes
on, from the writer's answer: an action is on disk before anyone hears of it, and the
event loop never waits for the disk. A frame that finds its connection idle is handled
as websockets reads it (``on_read``, from ``process_event``), with no task woken for
it; one that comes while its connection's last message is still being handled waits in
websockets' queue for the connection's task, so a connection's messages keep their order.

Abuse: frames over ``max_frame`` bytes close the connection (websockets ``max_size``,
no compression); text only, JSON depth-capped, schema-checked
(``protocol.check_client``); a token bucket per connection (``rate``/``burst``; a
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

The quick-match ladder (``ladder``, optional; see ``koikoi.net.service``): its frames
pass the same frame-size, JSON and rate checks, then go to the service; its ``tick``
runs about once a second.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any, Callable, Optional

from websockets.asyncio.server import serve
from websockets.exceptions import ConnectionClosed

from .config import DEFAULT_PORT, ServerConfig, default_data_dir
from .connections import Accounting, Client, forget_headers, peer_of, ping
from .limits import Refusals, address_key, open_files_limit, raise_open_files
from .protocol import (PROTOCOL_VERSION, ProtocolError, check_client,
                       frame_object, peek_id, request_id)
from .rooms import RoomStore, StoreError
from .service import RoomService, Write
from .store import AwaitedStore

log = logging.getLogger("koikoi.net.server")

LADDER_EVERY = 1.0          # seconds between two ticks of the ladder


class MatchServer(Accounting):
    def __init__(self, data_dir=None, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                 config: Optional[ServerConfig] = None, seeds: Optional[Callable[[], int]] = None,
                 ladder: Any = None):
        """``seeds``: where the seeds of new matches come from (tests); by default
        ``secrets.randbits(63)``: a seed deals every card, so it must not be guessable.
        ``ladder``: the quick-match ladder (``koikoi.ladder.service``), or None."""
        self.data_dir = Path(data_dir) if data_dir is not None else default_data_dir()
        self._seeds = seeds
        self.ladder = ladder
        self.host = host
        self.requested_port = port
        self.config = config or ServerConfig()
        self.service: Optional[RoomService] = None
        self.clients: set[Client] = set()
        self.store: Optional[RoomStore] = None
        self._awaited: Optional[AwaitedStore] = None
        self.refusals_log = Refusals(log)
        self.port: Optional[int] = None
        self._ws = None
        self._per_ip: dict[str, int] = {}       # address key -> connections accepted, open
        self.accepted = 0                         # connections accepted and open (all addresses)
        self.connection_cap = self.config.max_connections   # lowered to the open-files limit
        self._clock: Optional[asyncio.Task] = None
        self._tasks: set = set()    # the clock's writes (the ladder's rooms), room-lock waits, closes watched

    @property
    def rooms(self) -> dict:
        return self.service.rooms if self.service is not None else {}

    @property
    def refusals(self) -> int:
        """Refusals so far (tests and tools count them)."""
        return self.refusals_log.count

    # -------------------------------------------------------------- life

    async def start(self) -> None:
        cfg = self.config
        self.store = RoomStore(self.data_dir, durable=cfg.durable, commit_window=cfg.commit_window)
        self._awaited = AwaitedStore(self.store)
        self.service = RoomService(cfg, self.store, seeds=self._seeds, ladder=self.ladder,
                                   refusals=self.refusals_log)
        self.service.load(time.time())
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
                ping_interval=None, ping_timeout=None,       # the keepalive: the clock's

                close_timeout=cfg.close_timeout, create_connection=self._connection_class(),
                server_header=f"koikoi/{PROTOCOL_VERSION}",
                logger=logging.getLogger("koikoi.net.websockets"))
        except BaseException:
            self.store.close()
            self.store = None
            raise
        self.port = self._ws.sockets[0].getsockname()[1]
        self._clock = asyncio.get_running_loop().create_task(self._clock_loop())
        if cfg.gc_freeze:
            self._gc_on(asyncio.get_running_loop())

    def attach_ladder(self, ladder: Any) -> None:
        """Take the quick-match ladder once started (``koikoi serve`` opens it knowing the
        bound address): its frames and ticks from now on."""
        self.ladder = ladder
        if self.service is not None:
            self.service.ladder = ladder
            self.service.refile_ended()     # the rated rooms that ended before it came

    @property
    def url(self) -> str:
        host = self.host if ":" not in self.host else f"[{self.host}]"
        return f"ws://{host}:{self.port}"

    async def stop(self) -> None:
        self._gc_thaw(force=True)
        if self._clock is not None:
            self._clock.cancel()
            self._clock = None
        if self._ws is not None:
            self._ws.close()
            try:
                await asyncio.wait_for(self._ws.wait_closed(), self.config.close_timeout + 5)
            except asyncio.TimeoutError:
                log.warning("some connections did not close in time")
            self._ws = None
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=10)
        if self.store is not None:
            self.store.close()
            self.store = None

    async def __aenter__(self) -> "MatchServer":
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    async def serve_forever(self) -> None:
        await self._ws.serve_forever()

    def sweep(self, now: Optional[float] = None) -> list[str]:
        """The service's sweep (expiry, unloading): the codes unloaded."""
        return self.service.sweep(time.time() if now is None else now)

    # -------------------------------------------------------------- the garbage collector

    def _gc_on(self, loop) -> None:
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
        self._gc_threshold = gc.get_threshold()
        if self.config.gc_threshold:
            gc.set_threshold(*self.config.gc_threshold)

    def _gc_thaw(self, force: bool = False) -> None:
        cb = getattr(self, "_gc_callback", None)
        if cb is None:
            return
        if force or time.monotonic() - self._gc_thawed >= self.config.gc_thaw_every:
            self._gc_thawed = time.monotonic()
            gc.unfreeze()
            if force:
                gc.set_threshold(*self._gc_threshold)
                if cb in gc.callbacks:
                    gc.callbacks.remove(cb)
                self._gc_callback = None

    # -------------------------------------------------------------- the clock

    async def _clock_loop(self) -> None:
        """Claims that become possible, the ladder's ticks, the sweeps: one task."""
        cfg = self.config
        every = max(1.0, min(cfg.sweep_every, cfg.gc_thaw_every, cfg.abandoned_after / 4))
        # the deadlines of the connections are looked at this often
        period = max(0.05, min(LADDER_EVERY, cfg.join_timeout / 3, cfg.idle_timeout / 3, cfg.send_timeout / 3))
        swept = ticked = time.monotonic()
        while True:
            due = self.service.next_due()
            wait = period if due is None else min(period, max(0.02, due - time.time()))
            await asyncio.sleep(wait)
            mono = time.monotonic()
            self._deadlines(mono)
            try:
                ladder = mono - ticked >= LADDER_EVERY
                if ladder:
                    ticked = mono
                self.tick(time.time(), ladder=ladder)
            except Exception:
                log.exception("the server's clock failed")
            if mono - swept >= every:
                swept = mono
                self._gc_thaw()
                try:
                    self.sweep()
                except Exception:
                    log.exception("sweeping the rooms failed")

    def _deadlines(self, mono: float) -> None:
        """Drop the connections too slow to read what they are sent; close those that
        joined no room in time, or went idle (after telling them)."""
        cfg = self.config
        for c in list(self.clients):
            why = c.overdue(mono)
            if why is None:
                if cfg.ping_interval is not None and not c.closing:
                    self._keepalive(c, mono)
                continue
            if why == "slow":
                self.refusals_log.refuse(c.label, "slow", f"a frame took over {cfg.send_timeout:g} s "
                                                          "to send: disconnected")
                c.abort()
                continue
            what, limit = (("no room joined", cfg.join_timeout) if why == "join"
                           else ("idle", cfg.idle_timeout))
            self.refusals_log.refuse(c.label, "timeout", f"{what} for {limit:g} s")
            c.error(None, "timeout", f"{what} for too long: disconnected")
            c.close(1008, "timeout")

    def _keepalive(self, c: Client, mono: float) -> None:
        """A ping every ``ping_interval`` (one task of the clock's, not one a connection);
        a connection whose pong is over ``ping_timeout`` late is dropped."""
        cfg = self.config
        if c.ping_at > c.pong_at:           # waiting for its pong
            if cfg.ping_timeout is not None and mono - c.ping_at > cfg.ping_timeout:
                self.refusals_log.refuse(c.label, "timeout", f"no pong in {cfg.ping_timeout:g} s: disconnected")
                c.abort()
            return
        if mono - max(c.ping_at, c.last) >= cfg.ping_interval:
            c.ping_at = mono
            asyncio.get_running_loop().create_task(ping(c.ws))

    def tick(self, now: Optional[float] = None, *, ladder: bool = True) -> list:
        """The service's tick (the claims due, the ladder's pairs), its writes started;
        returns their tasks (tests await them)."""
        return [self._spawn(self._run(w))
                for w in self.service.tick(time.time() if now is None else now, ladder=ladder)]

    # -------------------------------------------------------------- connections

    async def _handler(self, ws) -> None:
        c = Client(self, ws, peer_of(ws))
        ws.koikoi_client = c
        self.clients.add(c)
        forget_headers(ws)
        cfg = self.config
        try:
            c.send({"type": "hello", "server": "koikoi", "protocol": PROTOCOL_VERSION,
                    "limits": {"max_frame": cfg.max_frame, "rate": cfg.rate, "burst": cfg.burst}})
            await self._read_loop(c)
        except ConnectionClosed as exc:
            sent = getattr(exc, "sent", None)
            if sent is not None and sent.code == 1009:
                self.refusals_log.refuse(c.label, "frame", f"over {cfg.max_frame} bytes: disconnected")
            elif sent is not None and sent.code not in (1000, 1001) and not c.closing:
                # websockets refused the frame itself (bad UTF-8, a protocol error)
                self.refusals_log.refuse(c.label, "frame", f"WebSocket close {sent.code} "
                                                           f"({sent.reason[:60]}): disconnected")
        except Exception:       # never let one connection take the server down
            log.exception("connection %s: unexpected error", c.label)
        finally:
            try:        # a message taken as it was read finishes first (its writes, its answers)
                await asyncio.wait_for(c.wait_idle(), cfg.send_timeout + cfg.close_timeout + 30)
            except (Exception, asyncio.CancelledError):
                pass
            try:
                self.service.closed(c, time.time())
            except Exception:
                log.exception("connection %s: closing failed", c.label)
            c.stop_sending()
            self.clients.discard(c)

    async def _read_loop(self, c: Client) -> None:
        """The frames that found their connection busy (or came before it was ready, or
        in fragments), from websockets' queue, in order; the others ``on_read`` took
        as they were read, and this task waits for them to be done first."""
        ws = c.ws
        while True:
            raw = await ws.recv()       # the join and idle deadlines: the clock (``_deadlines``)
            if ws.koikoi_queued:
                ws.koikoi_queued -= 1
            await c.wait_idle()
            if not c.closing:           # told to close: what comes meanwhile is not read
                self.on_read(c, raw)
                await c.wait_idle()
            if c.closing:
                # Let the writer send what is queued and close; read what arrives meanwhile.
                await self._watch_close(c)
                return

    def on_frame(self, c: Client, raw: Any) -> Optional[dict]:
        """One frame from ``c``: the rate limit, then read and checked; the message for the
        room service (a ladder's frame goes to it from here). Nothing here raises."""
        cfg = self.config
        if not c.bucket.take():
            c.strikes += 1
            if c.strikes == 1:
                self.refusals_log.refuse(c.label, "frame", f"over the rate limit ({cfg.rate:g}/s, "
                                                           f"burst {cfg.burst})")
                c.error(peek_id(raw, max_bytes=cfg.max_frame, max_depth=cfg.max_depth), "rate_limited",
                        f"too many messages: at most {cfg.rate:g} a second")
            if c.strikes >= cfg.flood_close:
                self.refusals_log.refuse(c.label, "frame", f"flood of {c.strikes} frames over the rate "
                                                           "limit: disconnected")
                c.close(1008, "flood")
            return None
        c.strikes = 0
        try:
            obj = frame_object(raw, cfg.max_frame, cfg.max_depth, fast=True)
            ladder = self.ladder
            if ladder is not None and obj.get("type") in ladder.TYPES:
                c.bad = 0
                self.service.ladder_frame(c, obj, request_id(obj), time.time())
                return None
            msg = check_client(obj)
        except ProtocolError as exc:
            c.bad += 1
            self.refusals_log.refuse(c.label, "frame", f"{exc.code}: {exc.message}")
            c.error(exc.re, exc.code, exc.message)
            if c.bad >= cfg.bad_close:
                c.close(1008, "malformed frames")
            return None
        c.bad = 0
        return msg

    def on_read(self, c: Client, raw: Any) -> None:
        """One frame of ``c``'s, read while nothing else of it is handled: checked, then to
        the room service (``c.busy`` until its writes are done). Nothing here raises."""
        c.last = time.monotonic()
        try:
            msg = self.on_frame(c, raw)
            if msg is not None:
                self.handle(c, msg)
        except Exception:           # pragma: no cover - never let one frame take the reader down
            log.exception("connection %s: a frame failed", c.label)
            c.done_handling()
        if c.closing and not c.busy:
            self._watch_close(c)

    def handle(self, c: Client, msg: dict) -> None:
        """A checked message to the service, its room's messages one at a time (the room's
        lock, taken at once when free), each write it asks for done on the writer thread
        before it goes on; ``c.busy`` until then."""
        c.busy = True
        room = self.service.room_of(c, msg)
        lock = None
        if room is not None:
            lock = room.lock
            if lock is None:
                lock = room.lock = RoomLock()
            if not lock.take():         # another connection's message of the room runs
                self._spawn(self._after_lock(c, lock, msg))
                return
        self._drive(self.service.receive(c, msg, time.time()), lambda: self._handled(c, lock))

    async def _after_lock(self, c: Client, lock: "RoomLock", msg: dict) -> None:
        try:
            await lock.acquire()
        except BaseException:
            c.done_handling()
            raise
        self._drive(self.service.receive(c, msg, time.time()), lambda: self._handled(c, lock))

    def _handled(self, c: Client, lock: Optional["RoomLock"]) -> None:
        if lock is not None:
            lock.release()
        c.done_handling()
        if c.closing:
            self._watch_close(c)

    def _drive(self, w: Optional[Write], then: Callable[[], None]) -> None:
        """Each write of ``w`` on the writer thread, then what follows it (from the
        writer's answer, with no task), and ``then()`` once none is left."""
        while w is not None:
            try:
                fut = self._awaited.later(w.op, *w.args)
            except Exception as exc:        # the store is closed: the write failed
                self._write_failed(w, exc)
                break
            fut.add_done_callback(lambda f, w=w: self._written(w, f, then))
            return
        try:
            then()
        except Exception:                   # pragma: no cover
            log.exception("finishing a message failed")

    def _written(self, w: Write, fut: asyncio.Future, then: Callable[[], None]) -> None:
        exc = None if fut.cancelled() else fut.exception()
        if fut.cancelled():
            w.room.writing = False
            nxt = None
        elif exc is not None:
            self._write_failed(w, exc)
            nxt = None
        else:
            try:
                nxt = w.done(fut.result(), time.time())
            except Exception:
                log.exception("room %s: telling the room of %s failed", w.room.code, w.op)
                nxt = None
        self._drive(nxt, then)

    @staticmethod
    def _write_failed(w: Write, exc: BaseException) -> None:
        if not isinstance(exc, StoreError):     # StoreError; anything else is a failed write too
            log.error("room %s: writing %s failed", w.room.code, w.op, exc_info=exc)
        try:
            w.failed(exc)
        except Exception:
            log.exception("room %s: telling a failed %s failed", w.room.code, w.op)

    async def _run(self, w: Optional[Write]) -> None:
        """Each write on the writer thread, awaited, then what follows it."""
        done = asyncio.get_running_loop().create_future()
        self._drive(w, lambda: done.done() or done.set_result(None))
        await done

    def _spawn(self, coro) -> asyncio.Task:
        t = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)
        return t

    def _watch_close(self, c: Client) -> asyncio.Task:
        """A connection told to close: dropped if it has not closed in time (its task may
        be waiting for a frame that never comes). One watch a connection: its task."""
        if c.closer is None:
            cfg = self.config

            async def watch():
                try:
                    await asyncio.wait_for(c.ws.wait_closed(), cfg.send_timeout + cfg.close_timeout)
                except asyncio.TimeoutError:
                    c.abort()
            c.closer = self._spawn(watch())
        return c.closer


class RoomLock:
    """A room's messages one at a time: ``take()`` it at once when it is free, or
    ``await acquire()``; ``release()`` hands it to the next waiting, in order."""

    __slots__ = ("_held", "_waiters")

    def __init__(self):
        self._held = False
        self._waiters: deque = deque()

    def locked(self) -> bool:
        return self._held

    def take(self) -> bool:
        if self._held:
            return False
        self._held = True
        return True

    async def acquire(self) -> None:
        if self.take():
            return
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        try:
            await fut                   # handed over by release(): held for this waiter
        except asyncio.CancelledError:
            if fut.done() and not fut.cancelled():
                self.release()          # handed over as it was cancelled: pass it on
            else:
                try:
                    self._waiters.remove(fut)
                except ValueError:
                    pass
            raise

    def release(self) -> None:
        while self._waiters:
            fut = self._waiters.popleft()
            if not fut.done():
                fut.set_result(None)
                return
        self._held = False


__all__ = ["MatchServer", "ServerConfig", "Client", "DEFAULT_PORT", "default_data_dir",
           "address_key", "raise_open_files", "open_files_limit"]


if __name__ == "__main__":         # python -m koikoi.net.server: the command (koikoi.net.cli)
    from .cli import main
    sys.exit(main())
