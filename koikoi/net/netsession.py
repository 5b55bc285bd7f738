"""A room of a match server, shown on the round table: ``NetSession``.

The round table (``koikoi.ui.scenes.round``) plays a ``koikoi.session.TableSession``:
``seats``, ``to_move``, ``phase``, ``events``, ``legal()``, ``apply(action)``,
``public_events(seat)``, ``view(seat)`` and the CPU hooks. ``NetSession`` gives a
``ThreadedClient``'s room that surface:

* The local seat is a human ("You" on this screen); the other seat is ``REMOTE``, a
  kind that is neither a CPU (the table never plays for it) nor a second human at
  this screen (``is_hotseat`` is False: no curtain ever hides the table).
* What the table reads is a snapshot taken by ``poll()`` (call it once a frame): the
  public events of the local seat as the server sent them, and the ``PublicTable``
  they fold to (``table``; ``to_move``, ``phase``, ``is_over`` from it). Between two
  polls it never changes, so the table's reads in one frame agree with each other.
* ``apply(action)`` sends the action and returns at once; until the server answers,
  ``to_move`` is None and ``legal()`` is empty (the table waits), and the new
  events reach the table through the next ``poll()`` like the other side's.
* ``view(seat)`` is the engine ``View`` of the local seat's ``PublicTable``
  (``PublicTable.view``): the Koi-Koi prompt's award and yaku, the hints and the coach read
  it exactly as they read ``view(state, seat)``.

``HostedServer`` runs a ``MatchServer`` on a thread of its own (the in-game host).
Nothing here imports pygame.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import re
import socket
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

from ..engine.phase import SeatKind
from ..engine.table import PublicTable, initial
from ..engine.view import View
from ..forward import field, via
from ..session import MatchSession, SeatConfig
from .protocol import CODE_RE

log = logging.getLogger("koikoi.net.session")

REMOTE = "remote"           # the kind of the other player's seat (compares unequal to SeatKind.*)
ADDRESS_RE = re.compile(r"^\s*(?:(ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})/?\s*$",
                        re.IGNORECASE)


# ------------------------------------------------------------------ addresses

class AddressError(ValueError):
    """A host:port or room code that cannot be right (the message says why)."""


class Address(tuple):
    """("host", port) from ``parse_address``; ``secure``: it was written ``wss://`` (TLS).

    A tuple of two, so ``host, port = parse_address(text)`` and comparisons with
    ``("host", port)`` work as they always did; the scheme rides along."""

    secure: bool

    def __new__(cls, host: str, port: int, secure: bool = False):
        self = super().__new__(cls, (host, port))
        self.secure = bool(secure)
        return self

    @property
    def host(self) -> str:
        return self[0]

    @property
    def port(self) -> int:
        return self[1]

    @property
    def url(self) -> str:
        return url_of(self[0], self[1], secure=self.secure)

    @property
    def text(self) -> str:
        """How it is shown and stored: "host:port", or "wss://host:port" for TLS."""
        return address_text(self[0], self[1], secure=self.secure)


class JoinAddress(tuple):
    """(host, port, code) from ``parse_join``, with ``secure`` like ``Address``."""

    secure: bool

    def __new__(cls, host: str, port: int, code: str, secure: bool = False):
        self = super().__new__(cls, (host, port, code))
        self.secure = bool(secure)
        return self

    @property
    def address(self) -> Address:
        return Address(self[0], self[1], self.secure)


def parse_address(text: str) -> Address:
    """("host", port) from "host:port" ([IPv6] brackets allowed); a ``ws://`` or ``wss://``
    prefix is kept as ``.secure`` (wss: TLS)."""
    m = ADDRESS_RE.match(text or "")
    if m is None:
        raise AddressError("an address looks like 192.168.1.20:8765")
    scheme, host, port = (m.group(1) or "ws").lower(), m.group(2), int(m.group(3))
    if not 1 <= port <= 65535:
        raise AddressError("a port is a number from 1 to 65535")
    if host.startswith("["):
        host = host[1:-1]
    elif len(host) > 253 or host.startswith(("-", ".")) or ".." in host:
        raise AddressError("an address looks like 192.168.1.20:8765")
    return Address(host, port, scheme == "wss")


def parse_code(text: str) -> str:
    """A room code, normalised ("koi 4821" -> "KOI-4821"; "4821" -> "KOI-4821")."""
    t = re.sub(r"[\s_]+", "-", (text or "").strip().upper())
    if t.isdigit():
        t = "KOI-" + t
    if t.startswith("KOI") and not t.startswith("KOI-"):
        t = "KOI-" + t[3:].lstrip("-")
    if not CODE_RE.fullmatch(t):
        raise AddressError("a room code looks like KOI-4821")
    return t


def parse_join(text: str) -> JoinAddress:
    """(host, port, code) from "HOST:PORT/CODE" (``koikoi --join``); "wss://HOST:PORT/CODE"
    is the same with ``.secure`` (TLS)."""
    where, sep, code = (text or "").rpartition("/")
    if not sep or where.endswith("/"):
        raise AddressError("expected HOST:PORT/CODE such as 192.168.1.20:8765/KOI-4821")
    a = parse_address(where)
    return JoinAddress(a[0], a[1], parse_code(code), a.secure)


def url_of(host: str, port: int, secure: bool = False) -> str:
    """The WebSocket URL of a server: ws://host:port, or wss:// (TLS) when ``secure``."""
    scheme = "wss" if secure else "ws"
    return f"{scheme}://[{host}]:{port}" if ":" in host else f"{scheme}://{host}:{port}"


def address_text(host: str, port: int, secure: bool = False) -> str:
    """"host:port" ("[::1]:port"), with "wss://" in front when ``secure``."""
    plain = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    return "wss://" + plain if secure else plain


def local_addresses(lan: bool) -> list[str]:
    """The addresses another player may use to reach this machine: 127.0.0.1 only, or
    (``lan``) this machine's IPv4 addresses on its networks. Sends no packet (the
    UDP socket is connected, never written to)."""
    if not lan:
        return ["127.0.0.1"]
    found: list[str] = []
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            found.append(info[4][0])
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("10.254.254.254", 1))        # chooses the route; nothing is sent
            found.append(s.getsockname()[0])
    except OSError:
        pass
    out = [a for a in dict.fromkeys(found) if not a.startswith("127.")]
    return out or ["127.0.0.1"]


# ------------------------------------------------------------------ the session

@dataclass(frozen=True)
class NetSeat:
    kind: Any                   # SeatKind.HUMAN (this screen) or REMOTE
    name: str
    level: Optional[str] = None


class NetSession:
    """A ``ThreadedClient``'s room as a session of the round table (module docstring)."""

    def __init__(self, client, *, you: str = "You", waiting_name: str = "…"):
        self.client = client
        self.you = you
        self.waiting_name = waiting_name
        self.store = None           # the pause menu and the app set these on local sessions
        self.on_change = None
        self.link = "connected"     # connected, reconnecting, lost (the last link message)
        self.sent: list = []        # actions sent (tests read it)
        self.refused: list = []     # (action, error) the server refused or the link lost
        self._pending: Optional[concurrent.futures.Future] = None
        self._pending_action = None
        self._snap = client.state   # the client state the table shows
        self.filed = None           # the history file of the ended match, once filed
        self._filing = False        # filing was tried (once: a failed write is not retried each frame)
        self.latest = client.state  # the newest client state (presence, status, result)
        self._take_snapshot()

    # ------------------------------------------------------------ the frame's snapshot
    def poll(self) -> list:
        """Drain the client's new messages and take a new snapshot; returns the messages."""
        messages = self.client.poll()
        f = self._pending
        if f is not None and f.done():
            self._pending = None
            exc = f.exception()
            if exc is not None:
                log.info("action %r not taken: %s", self._pending_action, exc)
                self.refused.append((self._pending_action, exc))
        for m in messages:
            if m.get("type") == "link":
                self.link = m.get("state", self.link)
        st = self.client.state
        self.latest = st
        # a reconnection starts from an empty state until the server sends every event
        # again: keep showing the last complete one until then
        if (st.seat is not None and st.table is not None
                and (st.seat == self._snap.seat or self._snap.seat is None)
                and len(st.events) >= len(self._snap.events)):
            self._snap = st
        self._take_snapshot()
        return messages

    def _take_snapshot(self) -> None:
        """What the table reads until the next poll (or action): the folded table, the
        events, whose turn, whether the match is over, its winner and scores."""
        st = self._snap
        t = st.table if st.table is not None else initial(st.seat if st.seat is not None else 0)
        over = self.latest.over
        to_move = None if self._pending is not None else (st.to_move if st.events else None)
        if t.is_over or over is not None:
            to_move = None
        scores = tuple(t.scores)
        if over is not None and not t.is_over and isinstance(over.get("scores"), list):
            scores = tuple(over["scores"])
        self._table = t
        self._events = tuple(st.events)
        self._to_move = to_move
        self._is_over = bool(t.is_over or over is not None)
        self._winner = t.winner if t.is_over else (over or {}).get("winner")
        self._scores = scores
        self._rules = st.rules or t.rules
        self._months = t.months if t.rules is not None else st.months

    # ------------------------------------------------------------ the match (TableSession)
    @property
    def table(self) -> PublicTable:
        """The local seat's table, folded from the public events (``engine.table``)."""
        return self._table

    events = field("_events", "the local seat's public events, as the server sent them")
    to_move = field("_to_move", "the seat to move; None while an action is on its way, and once it is over")
    phase = via("_table", "phase")
    is_over = field("_is_over")
    winner = field("_winner")
    scores = field("_scores")

    @property
    def ledger(self) -> tuple:
        return tuple(self._table.ledger)

    months = field("_months")
    rules = field("_rules")

    # ------------------------------------------------------------ who sits where
    @property
    def seat(self) -> int:
        s = self._snap.seat if self._snap.seat is not None else self.latest.seat
        return s if s in (0, 1) else 0

    @property
    def names(self) -> tuple:
        """The players' names as the server knows them (None: nobody yet)."""
        return tuple(self.latest.names)

    @property
    def opponent_name(self) -> str:
        n = self.latest.names[1 - self.seat] if self.latest.seat is not None else None
        return n or self.waiting_name

    @property
    def seats(self) -> tuple:
        me = self.seat
        out = [None, None]
        out[me] = NetSeat(SeatKind.HUMAN, self.you)
        out[1 - me] = NetSeat(REMOTE, self.opponent_name)
        return tuple(out)

    @property
    def human_seats(self) -> tuple:
        return (self.seat,)

    is_hotseat = False

    room = via("latest", "room")
    status = via("latest", "status")
    over = via("latest", "over")
    rated = via("latest", "rated")      # a quick match's rating change, once the server says it

    @property
    def record(self):
        """The whole ended match as the server recorded it (checked), or None."""
        return self.latest.record

    @property
    def record_problem(self) -> Optional[str]:
        return self.latest.record_problem

    @property
    def filing_tried(self) -> bool:
        return self._filing

    def file(self, storage) -> Optional[Path]:
        """File the ended match (once) if its record has come; the path or None."""
        if not self._filing and self.latest.record is not None and storage is not None:
            self._filing = True
            try:
                self.filed = file_record(storage, self.latest.record)
            except ValueError as exc:          # a record that checked out but cannot be a session
                log.error("the online match could not be filed: %s", exc)
        return self.filed

    @property
    def pending(self) -> bool:
        return self._pending is not None

    def waiting_for(self):
        """(name, seconds gone, seconds until a claim or None) while the other is away."""
        if self.latest.status != "playing":
            return None
        return self.latest.waiting_for()

    # ------------------------------------------------------------ the table's calls
    def legal(self):
        if self._pending is not None or self._is_over or self.link != "connected":
            return ()
        return tuple(self._snap.legal)

    def apply(self, action) -> list:
        """Send ``action``; the events come back through ``poll``. Returns [] (none yet)."""
        if self._pending is not None:
            raise RuntimeError("an action is on its way already")
        self._pending_action = action
        self._pending = self.client.act(action)
        self.sent.append(action)
        self._take_snapshot()
        return []

    def public_events(self, seat: int, since: int = 0) -> list:
        if seat != self.seat:
            raise ValueError(f"this screen sees seat {self.seat}'s events, not seat {seat}'s")
        return list(self._events[since:])

    def view(self, seat: int) -> View:
        if seat != self.seat:
            raise ValueError(f"this screen sees seat {self.seat}'s table, not seat {seat}'s")
        return self._table.view()

    def is_cpu_turn(self) -> bool:
        return False

    def start_cpu(self) -> None:
        pass

    def poll_cpu(self):
        return None

    # ------------------------------------------------------------ the room
    def claim(self):
        return self.client.claim()

    def leave(self):
        return self.client.leave()


# ------------------------------------------------------------------ filing an ended match

def record_session(record):
    """The ``MatchSession`` of a checked ``client.MatchRecord``: both seats human, named as
    the server named them, the whole log replayed, the id both players file it under."""
    st = record.state
    seats = (SeatConfig(SeatKind.HUMAN, record.names[0]), SeatConfig(SeatKind.HUMAN, record.names[1]))
    return MatchSession(st.rules, seed=st.seed, months=st.months, seats=seats, state=st,
                        match_id=record.match_id)


def file_record(storage, record) -> Optional[Path]:
    """File an ended online match in ``storage``'s history (flagged online, with the room
    and this player's seat): a claimed match as conceded by the seat that forfeited.
    Idempotent (by the match id). The path, or None if it could not be written."""
    session = record_session(record)
    return storage.file_match(session, conceded=record.conceded,
                              online={"room": record.room, "seat": record.seat})


# ------------------------------------------------------------------ the in-game host

class HostedServer:
    """A ``MatchServer`` on its own thread and event loop: ``start()`` binds it (port 0:
    the OS picks; ``port`` then says which), ``stop()`` ends it."""

    def __init__(self, data_dir, *, lan: bool = False, port: int = 0, config=None):
        self.data_dir = Path(data_dir)
        self.lan = lan
        self.host = "0.0.0.0" if lan else "127.0.0.1"
        self.want_port = port
        self.config = config
        self.server = None
        self.loop: Optional[asyncio.AbstractEventLoop] = None
        self.thread: Optional[threading.Thread] = None

    def start(self, timeout: float = 10.0) -> "HostedServer":
        from .server import MatchServer   # start-up time: measured 36 ms CPU per online start, only when hosting
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="koikoi-host", daemon=True)
        self.thread.start()
        self.server = MatchServer(self.data_dir, host=self.host, port=self.want_port, config=self.config)
        try:
            asyncio.run_coroutine_threadsafe(self.server.start(), self.loop).result(timeout)
        except BaseException:
            self._stop_loop()
            raise
        return self

    @property
    def port(self) -> int:
        return self.server.port

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def addresses(self) -> list[str]:
        return [f"{a}:{self.port}" for a in local_addresses(self.lan)]

    def call(self, fn, timeout: float = 10.0):
        """Run ``fn()`` on the server's loop (tests reach into the rooms this way)."""
        async def go():
            return fn()
        return asyncio.run_coroutine_threadsafe(go(), self.loop).result(timeout)

    def stop(self, timeout: float = 20.0) -> None:
        if self.loop is None:
            return
        if self.server is not None and self.loop.is_running():
            try:
                asyncio.run_coroutine_threadsafe(self.server.stop(), self.loop).result(timeout)
            except Exception:
                log.exception("the hosted server did not stop cleanly")
        self._stop_loop()

    def _stop_loop(self) -> None:
        loop, self.loop = self.loop, None
        if loop is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        if self.thread is not None:
            self.thread.join(10)
        if self.thread is None or not self.thread.is_alive():
            loop.close()


__all__ = ["NetSession", "NetSeat", "HostedServer", "REMOTE", "AddressError",
           "file_record", "record_session",
           "Address", "JoinAddress", "address_text",
           "parse_address", "parse_code", "parse_join", "url_of", "local_addresses"]
