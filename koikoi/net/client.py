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
import logging
import queue
import threading
import time
from typing import Any, Optional

# the reducer and the asyncio connection live in their own modules; their names are
# importable from here as before (the UI, the tools and the tests import them from here)
from .client_state import ClientState, MatchRecord, RecordRefused, check_matched, check_record
from .connection import Connection, ConnectionLost, ServerError, _has_proxy_option  # noqa: F401  (tools/load_server.py)

__all__ = ["ClientState", "Connection", "ConnectionLost", "MatchRecord", "RecordRefused", "ServerError",
           "ThreadedClient", "check_matched", "check_record"]

log = logging.getLogger("koikoi.net.client")


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


def _player_key(key: Optional[str], folder) -> str:
    """``key``, else the player key kept in the data folder ``folder`` (made on first use)."""
    if key is not None:
        return key
    from ..ladder.identity import load_or_create_key  # start-up time: measured 5-8 ms CPU, only with no key given
    return load_or_create_key(folder)


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
        return self._call("identify", _player_key(key, folder), name)

    def queue_match(self, preset: str, months: Optional[int] = None) -> concurrent.futures.Future:
        return self._call("queue_match", preset, months)

    def quick_match(self, name: str, preset: str, months: Optional[int] = None, *, key: Optional[str] = None,
                    folder=None) -> concurrent.futures.Future:
        """identify, then queue: the future's result is the ``queued`` answer (the room
        comes later, as ``joined``, or as ``matched`` which this client follows)."""
        key = _player_key(key, folder)

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
