"""This player's seats in unfinished online matches, kept across runs of the game.

A seat's token (the server's answer to create and join) takes the seat back after a
drop; kept only in memory, it died with a killed or closed program, and the game
started again could only join as a new player (refused: the room is full). The
``SeatStore`` keeps one small JSON file in the data folder::

    store = SeatStore(storage.data_dir)
    store.save(Seat(room="KOI-4821", address="192.168.1.20:8765", seat=1, token=t, name="Haru"))
    seat = store.find("192.168.1.20:8765", "KOI-4821")      # the joined seat, or None
    store.hosted()                                           # the matches this game's server runs
    store.remove("KOI-4821", "192.168.1.20:8765")            # over and filed, or left

Tokens are secrets: the file is written atomically (``koikoi.files``) with mode 0600
where the OS has modes. A file that cannot be read is set aside (``move_aside``), never
deleted; an entry that is not well formed is skipped. At most ``MAX_SEATS`` entries
are kept (the least recently used go first). Nothing here imports pygame.

A room this game created on a match server elsewhere (Host a match -> A match server)
is kept as a normal seat (``hosted`` False) under that server's address: the Host
screen's Resume only offers the matches of the in-game server (it starts that server
again); Join a match with the server's address and the room code, or ``koikoi --join
ADDRESS/CODE``, takes a remote room's seat back, whichever seat it is.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Optional

from ..files import BadFile, atomic_write_text, move_aside, read_json
from .protocol import CODE_RE

log = logging.getLogger("koikoi.net.seats")

SEATS_NAME = "online_seats.json"
MAX_SEATS = 20
MAX_BYTES = 64 * 1024
VERSION = 1
_TOKEN = re.compile(r"[A-Za-z0-9_\-]{8,200}")


@dataclass(frozen=True)
class Seat:
    """One seat of this player in an unfinished online match."""

    room: str                   # KOI-4821
    address: str                # host:port the client connects to ("127.0.0.1:8765" when hosted;
                                #   "wss://host:port" for a server reached over TLS)
    seat: int                   # 0 (the room's creator) or 1
    token: str                  # the secret that takes the seat back
    name: str                   # this player's name in the room
    hosted: bool = False        # this game ran the server (HostedServer) of the match; a room this
                                #   game created on a match server elsewhere is not hosted (False):
                                #   it is taken back like a joined seat (Join, --join)
    port: int = 0               # the server's port (hosted: the port to start it on again)
    lan: bool = False           # hosted: the server listened on the local network
    rules: str = ""             # the rules' label, for the Resume button
    opponent: str = ""          # the other player's name, once known
    updated: float = 0.0        # time.time() of the last change

    @property
    def key(self) -> tuple:
        return (self.room, normal_address(self.address), self.seat)


def normal_address(address: str) -> str:
    """"host:port" with the host in lower case and the port a plain number, with "wss://"
    in front for a server reached over TLS ("" if it is not an address)."""
    from .netsession import AddressError, address_text, parse_address   # start-up time: measured 33-36 ms CPU
    try:
        a = parse_address(address)
    except AddressError:
        return ""
    return address_text(a.host.lower(), a.port, secure=a.secure)


def _host_of(address: str) -> str:
    a = normal_address(address)
    return a.removeprefix("wss://").rpartition(":")[0]


def _seat_from(d) -> Optional[Seat]:
    """A ``Seat`` from one entry of the file, or None if it is not one."""
    if type(d) is not dict:
        return None
    try:
        room, address, seat, token, name = d["room"], d["address"], d["seat"], d["token"], d["name"]
    except KeyError:
        return None
    if not (isinstance(room, str) and CODE_RE.fullmatch(room) and isinstance(address, str)
            and normal_address(address) and seat in (0, 1) and type(seat) is int
            and isinstance(token, str) and _TOKEN.fullmatch(token)
            and isinstance(name, str) and 0 < len(name) <= 64):
        return None
    port, updated = d.get("port", 0), d.get("updated", 0.0)
    rules, opponent = d.get("rules", ""), d.get("opponent", "")
    return Seat(room=room, address=normal_address(address), seat=seat, token=token, name=name,
                hosted=d.get("hosted") is True, port=port if type(port) is int and 0 <= port <= 65535 else 0,
                lan=d.get("lan") is True,
                rules=rules[:40] if isinstance(rules, str) else "",
                opponent=opponent[:64] if isinstance(opponent, str) else "",
                updated=float(updated) if type(updated) in (int, float) and updated == updated else 0.0)


class SeatStore:
    """The seats file in ``data_dir`` (module docstring). Every call reads the file
    again, so two windows of the game sharing the folder do not undo each other's
    seats (each write is whole and atomic)."""

    def __init__(self, data_dir):
        self.folder = Path(data_dir)
        self.path = self.folder / SEATS_NAME
        self.problem: Optional[str] = None      # why the last read or write failed

    # ---------------------------------------------------------- reading
    def entries(self) -> list[Seat]:
        """Every well-formed seat, the most recently changed first."""
        try:
            data = read_json(self.path, max_bytes=MAX_BYTES, root=self.folder)
        except BadFile as exc:
            self.problem = f"the seats file is unusable ({exc}): set aside"
            log.warning("%s: %s", self.path, self.problem)
            move_aside(self.path)
            return []
        if data is None:
            return []
        if type(data) is not dict or type(data.get("seats")) is not list:
            self.problem = "the seats file is not a list of seats: set aside"
            log.warning("%s: %s", self.path, self.problem)
            move_aside(self.path)
            return []
        out, seen = [], set()
        for d in data["seats"]:
            s = _seat_from(d)
            if s is None:
                log.warning("%s: an entry that is not a seat was skipped", self.path)
                continue
            if s.key not in seen:
                seen.add(s.key)
                out.append(s)
        out.sort(key=lambda s: s.updated, reverse=True)
        return out

    def find(self, address: str, room: str) -> Optional[Seat]:
        """This player's joined (not hosted) seat in ``room`` on the server at
        ``address``: the same host and port, else the same host on another port (a host
        that had to move its match to a new port)."""
        want = normal_address(address)
        host = _host_of(address)
        joined = [s for s in self.entries() if s.room == room and not s.hosted]
        for s in joined:
            if s.address == want:
                return s
        for s in joined:
            if host and _host_of(s.address) == host:
                return s
        return None

    def hosted(self) -> list[Seat]:
        """The unfinished matches this game hosted, the most recent first."""
        return [s for s in self.entries() if s.hosted]

    # ---------------------------------------------------------- writing
    def save(self, seat: Seat) -> bool:
        """Add ``seat`` or replace the entry of its room, address and seat (stamped now);
        False if the file could not be written (``problem`` says why)."""
        seat = replace(seat, address=normal_address(seat.address), updated=time.time())
        rest = [s for s in self.entries() if s.key != seat.key]
        return self._write([seat] + rest[:MAX_SEATS - 1])

    def remove(self, room: str, address: Optional[str] = None, seat: Optional[int] = None) -> bool:
        """Drop the entries of ``room`` (at ``address``, of ``seat``, when given); True if
        one was dropped and the file written."""
        want = normal_address(address) if address is not None else None
        old = self.entries()
        keep = [s for s in old if not (s.room == room and (want is None or s.address == want)
                                       and (seat is None or s.seat == seat))]
        if len(keep) == len(old):
            return False
        return self._write(keep)

    def _write(self, seats: list) -> bool:
        text = json.dumps({"version": VERSION, "seats": [asdict(s) for s in seats]}, indent=1)
        try:
            atomic_write_text(self.path, text + "\n")   # mkstemp makes it 0600 already
            try:
                os.chmod(self.path, 0o600)
            except (OSError, NotImplementedError):       # no modes here (Windows): nothing to do
                pass
        except OSError as exc:
            self.problem = f"the seats could not be saved: {exc.strerror or exc}"
            log.error("%s: %s", self.path, self.problem)
            return False
        self.problem = None
        return True


__all__ = ["Seat", "SeatStore", "SEATS_NAME", "MAX_SEATS", "normal_address"]
