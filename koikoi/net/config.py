"""The match server's settings: every limit of a server on a public address, with the
default ``koikoi serve`` ships (its options set them: ``koikoi.net.cli``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from ..paths import data_dir
from .protocol import MAX_DEPTH, MAX_FRAME

DEFAULT_PORT = 8765


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
    # Under load a commit of the rooms' writes begins at most this often (seconds): one fsync
    # then carries the actions of every room that came in meanwhile, and an action waits up
    # to this much longer for its answer (``writer.Writer``'s ``window``). An idle server
    # writes at once. 0: each commit as soon as the one before it is done.
    commit_window: float = 0.01
    code_digits: int = 4
    # The cyclic garbage collector: a full collection walks every object of every room (a
    # pause of 100+ ms with 500 rooms). ``gc_freeze``: what survives a full collection is
    # frozen (never walked again; plain garbage is still freed at once by reference counts),
    # and every ``gc_thaw_every`` seconds it is thawed, so that one full collection takes
    # what became cyclic garbage meanwhile. Process-wide: ``koikoi serve`` turns it on, a
    # server inside the game does not.
    gc_freeze: bool = False
    gc_thaw_every: float = 900.0
    # ... and with it the collector's thresholds (gc.set_threshold): a young collection every
    # 20,000 new objects, not 700. Each action leaves a few hundred objects that live until the
    # room's next action (its state, its events); collected 30 times less often, most of them
    # are gone by then and never walked: the collector's share of the server's CPU went from
    # about 9% to under 4% at 500 matches (the pauses stay short: a young collection walks at
    # most 20,000 objects).
    gc_threshold: Optional[tuple] = (20000, 20, 10)


def default_data_dir() -> Path:
    """The server's folder: ``server/`` in the game's data folder (KOIKOI_HOME overrides)."""
    return data_dir() / "server"


__all__ = ["DEFAULT_PORT", "ServerConfig", "default_data_dir"]
