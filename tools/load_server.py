"""Load a real ``koikoi serve`` with simulated players and measure it.

    python tools/load_server.py --pairs 500 --think 1.0
    python tools/load_server.py --pairs 50 --faults --fault-interval 5

Starts the match server as a subprocess on 127.0.0.1 (a free port, a fresh data folder
unless ``--data``), then N client pairs: each pair creates a room, joins it and plays
``--matches`` random legal matches, each seat waiting ``--think`` seconds (on average)
before each of its actions, as a person would. Everything runs on this machine and
stops by itself: every wait has a deadline and the whole run ``--timeout``.

Reported: actions per second, the round trip of an action (sent -> its ``events``
answer: the server checked it, applied it, wrote it to SQLite and sent it) at p50 /
p99 / max, and the server's memory per room (its RSS, from /proc, with all rooms live,
less before the first room, divided by the rooms), and the server's CPU seconds over
the actions acknowledged (ms an action). That figure holds each match's start and end
(two handshakes, create, join, the records, the closes) as well as its actions, spread
over its actions: ``--months 1`` (the default, ~17 actions a match) weighs them far more
than the 6 or 12 months players play, so measure ``--months 12`` beside it.

``--faults``: every ``--fault-interval`` seconds (default 60) 10% of the connected
clients are cut off (the TCP connection aborted) and come back with their seat token
after a short pause, as a player whose Wi-Fi blinked. Checked at the end, with or
without faults: every match finished, each player's record of it equals the server's
log (read from its rooms database once it has stopped), and every public event a
client received is that log as its seat may see it. Exit 0 if all of that holds (and
the p99 is within ``--target-p99`` ms when given), 1 if not.

``--quick N``: the quick match instead of rooms made by hand. N players (even), their
profiles made in the ladder's database beforehand as an operator could (the ladder lets
one address bring only PROFILES_PER_HOUR new keys an hour, and every player here is
127.0.0.1), connect and ``identify`` over ``--ramp``; once all have, all ``queue``
``--preset`` and ``--months`` at once, so N wait together. Measured per player: from
its ``queued`` to its ``joined`` (on two processes, for a pair made on the other one:
``matched``, a new connection there and ``reconnect``, all counted); the matches made a
second (rooms over the time from the first ``queued`` to the last player in a room);
the servers' CPU in that time over the rooms. ``--play`` then plays every match out
(from when all have a room) and checks each as above. ``--processes 2`` runs two
servers on one PostgreSQL (``--db postgresql://...``, else one that the pgserver
package starts, on a fresh database; none: exit 77, saying why), player i on process
i % 2. Checked: every player got a room, each room holds seats 0 and 1.

    python tools/load_server.py --quick 500
    python tools/load_server.py --quick 500 --processes 2 [--db postgresql://...] [--play]

``--json`` prints the results as one JSON object too (tests read it).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.asyncio.client import connect  # noqa: E402

from koikoi.engine.events import events_from_json  # noqa: E402
from koikoi.net.client import _has_proxy_option  # noqa: E402
from koikoi.net.protocol import encode, wire_event  # noqa: E402
from koikoi.net.rooms import room_rules  # noqa: E402

HOST = "127.0.0.1"
SKIPPED = 77                # the exit status of a run that could not be made (no PostgreSQL)
LISTENING = re.compile(r"listening on ws://127\.0\.0\.1:(\d+)")


def rss_bytes(pid: int) -> Optional[int]:
    """The resident memory of process ``pid`` (Linux /proc; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return None


def cpu_split(pid: int, task: Optional[int] = None) -> Optional[tuple[float, float]]:
    """(user, system) CPU seconds process ``pid`` has used (``task``: that thread's only;
    Linux /proc; None elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat" if task is None else f"/proc/{pid}/task/{task}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        return int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, ValueError, IndexError):
        return None


def cpu_seconds(pid: int) -> Optional[float]:
    """User + system CPU seconds process ``pid`` has used (Linux /proc; None elsewhere)."""
    split = cpu_split(pid)
    return None if split is None else split[0] + split[1]


def percentile(values: list, q: float) -> Optional[float]:
    if not values:
        return None
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(q * (len(s) - 1)))))]


class Stats:
    def __init__(self):
        self.rtt: list = []             # seconds, one per acknowledged action
        self.times: list = []           # when each was acknowledged (time.monotonic)
        self.refused: dict = {}         # error code -> count (stale after a drop, ...)
        self.drops = 0
        self.reconnects = 0
        self.errors: dict = {}          # exceptions of a session (a connection cut under it)
        self.problems: list = []

    def acked(self, rtt: float) -> None:
        self.rtt.append(rtt)
        self.times.append(time.monotonic())


class Moved(Exception):
    """The server sent ``matched``: the room is on another process (``Seat.port``)."""


class Seat:
    """One simulated player: a raw WebSocket, the public events received, the legal
    actions, the record at the end. Reconnects with its token after a fault."""

    def __init__(self, run: "Run", pair: int, seat: int):
        self.run = run
        self.pair = pair
        self.seat = seat
        self.rng = random.Random(f"{run.args.seed}/{pair}/{seat}")
        self.ws = None
        self.code: Optional[str] = None
        self.token: Optional[str] = None
        self.events: list = []
        self.legal: list = []
        self.record: Optional[dict] = None
        self.pending: dict = {}         # request id -> time sent
        self.ids = 0
        self.changed = asyncio.Event()
        self.joined = asyncio.Event()
        self.alive = False
        self.entering: Optional[int] = None     # the id of the create / join / reconnect request
        self.refusal: Optional[str] = None      # ... and why the server refused it
        self.port: Optional[int] = None         # the server process to connect to (None: the run's)
        self.entry_tries = 3                    # connections tried before a seat is had

    def new_match(self) -> None:
        self.code = self.token = None
        self.events, self.legal, self.record = [], [], None
        self.joined = asyncio.Event()

    # ---------------------------------------------------------- the connection
    async def connect(self) -> None:
        self.ws = await connect(f"ws://{HOST}:{self.port or self.run.port}", open_timeout=20, compression=None,
                                max_size=8 * 1024 * 1024, ping_interval=None, close_timeout=2,
                                **({"proxy": None} if self.run.proxy_option else {}))
        self.alive = True

    async def send(self, kind: str, **fields) -> int:
        self.ids += 1
        if kind in ("create", "join", "reconnect"):
            self.entering, self.refusal = self.ids, None
        await self.ws.send(encode({"type": kind, "id": self.ids, **fields}))
        return self.ids

    async def entered(self, timeout: float = 30.0) -> None:
        """Wait for the room (RuntimeError if the server refused)."""
        await asyncio.wait_for(self.joined.wait(), timeout)
        if self.refusal is not None:
            raise RuntimeError(f"pair {self.pair} seat {self.seat}: the server refused: {self.refusal}")

    async def read(self) -> None:
        try:
            async for raw in self.ws:
                self.on_message(json.loads(raw))
                self.changed.set()
        except Exception:
            pass
        finally:
            self.alive = False
            self.pending.clear()
            self.changed.set()

    def done(self) -> bool:
        """Nothing more to do on the server: the match's record has come."""
        return self.record is not None

    def on_message(self, m: dict) -> None:
        kind = m.get("type")
        if kind == "joined":
            self.code = m["room"]
            self.token = m.get("token", self.token)
            self.joined.set()
        elif kind == "events":
            start = m["start"]
            if start == 0:
                self.events = list(m["events"])
            elif start == len(self.events):
                self.events.extend(m["events"])
            else:
                self.run.stats.problems.append(f"pair {self.pair} seat {self.seat}: events from {start}, "
                                               f"have {len(self.events)}")
            self.legal = m["legal"]
            sent = self.pending.pop(m.get("re"), None)
            if sent is not None:
                self.run.stats.acked(time.perf_counter() - sent)
        elif kind == "over":
            self.legal = []
        elif kind == "record":
            self.record = m
        elif kind == "error":
            code = m.get("code", "?")
            self.run.stats.refused[code] = self.run.stats.refused.get(code, 0) + 1
            self.pending.pop(m.get("re"), None)
            if m.get("re") is not None and m.get("re") == self.entering:
                self.refusal = f"{code}: {m.get('message')}"
                self.joined.set()

    async def act_loop(self) -> None:
        think = self.run.args.think
        while self.alive and not self.done():
            if not self.legal or self.pending:
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), 30)
                except asyncio.TimeoutError:
                    pass
                continue
            if think > 0:
                await asyncio.sleep(self.rng.uniform(0.5 * think, 1.5 * think))
            if not self.alive or not self.legal or self.pending:
                continue
            action = self.rng.choice(self.legal)
            self.ids += 1
            self.pending[self.ids] = time.perf_counter()
            self.legal = []
            try:
                await self.ws.send(encode({"type": "act", "id": self.ids, "action": action,
                                           "at": len(self.events)}))
            except Exception:
                return

    async def session(self, first) -> None:
        """One connection: (create / join / reconnect), then read and act until it closes
        or the record has come."""
        await self.connect()
        reader = asyncio.get_running_loop().create_task(self.read())
        try:
            await first()
            actor = asyncio.get_running_loop().create_task(self.act_loop())
            while self.alive and not self.done():
                self.changed.clear()
                try:
                    await asyncio.wait_for(self.changed.wait(), 5)
                except asyncio.TimeoutError:
                    pass
            actor.cancel()
            if self.done():
                await self.ws.close()
        finally:
            await asyncio.wait([reader], timeout=5)
            reader.cancel()

    async def play(self, first) -> None:
        """Until the record has come: a session, and after a drop, a reconnection."""
        deadline = time.monotonic() + self.run.args.timeout
        tries = 0
        while not self.done() and time.monotonic() < deadline:
            try:
                await self.session(first)
            except Moved:                       # a quick match made on another process: go there
                first = self.reconnect
                continue
            except Exception as exc:
                tries += 1
                if self.refusal is not None or (self.token is None and tries >= self.entry_tries):
                    raise           # refused, or never got in: the pair cannot go on
                key = type(exc).__name__        # a connection cut under a request: try again
                self.run.stats.errors[key] = self.run.stats.errors.get(key, 0) + 1
            if not self.done():
                await asyncio.sleep(self.rng.uniform(0.2, 1.0))
                self.run.stats.reconnects += 1
                first = self.reconnect

    async def reconnect(self) -> None:
        self.joined = asyncio.Event()
        await self.send("reconnect", room=self.code, token=self.token)
        await self.entered()

    def drop(self) -> bool:
        """Cut the connection off (a fault); ``play`` comes back with the token."""
        ws = self.ws
        if ws is None or not self.alive or self.token is None or self.record is not None:
            return False
        transport = getattr(ws, "transport", None)
        if transport is None:
            return False
        transport.abort()
        self.run.stats.drops += 1
        return True


class Run:
    def __init__(self, args):
        self.args = args
        self.stats = Stats()
        self.port: Optional[int] = None
        self.seats: list = []
        self.played: list = []          # (code, seat 0's record, seat 1's record, events 0, events 1)
        self.proxy_option = _has_proxy_option(connect)

    async def pair(self, i: int) -> None:
        await asyncio.sleep(self.args.ramp * i / max(1, self.args.pairs))
        a, b = Seat(self, i, 0), Seat(self, i, 1)
        self.seats += [a, b]
        rules = {"preset": self.args.preset}
        for _ in range(self.args.matches):
            a.new_match()
            b.new_match()

            async def create():
                await a.send("create", name=f"A{i}", rules=rules, months=self.args.months)
                await a.entered()

            async def join():
                await a.entered(60)
                await b.send("join", room=a.code, name=f"B{i}")
                await b.entered()
                self.sample()
            await asyncio.gather(a.play(create), b.play(join))
            self.played.append((a.code, a.record, b.record, list(a.events), list(b.events)))

    async def all_of(self, coros, who: str) -> None:
        """Run them all, within --timeout; each failure is a problem of the run."""
        try:
            results = await asyncio.wait_for(asyncio.gather(*coros, return_exceptions=True), self.args.timeout)
        except asyncio.TimeoutError:
            results = [TimeoutError("the run took longer than --timeout")]
        for r in results:
            if isinstance(r, BaseException):
                self.stats.problems.append(f"{who} failed: {type(r).__name__}: {str(r)[:160]}")

    def sample(self) -> None:
        """The server's memory when the most rooms are live."""
        rooms = sum(1 for s in self.seats if s.seat == 1 and s.code and s.record is None)
        if rooms >= self.peak["rooms"]:
            self.peak["rooms"], self.peak["rss"] = rooms, rss_bytes(self.server_pid)

    async def faults(self) -> None:
        while True:
            await asyncio.sleep(self.args.fault_interval)
            live = [s for s in self.seats if s.alive and s.token is not None and s.record is None]
            for s in random.Random(len(self.stats.rtt)).sample(live, max(1, len(live) // 10) if live else 0):
                s.drop()

    async def main(self, server_pid: int) -> dict:
        t0 = time.monotonic()
        cpu0, split0, mine0 = cpu_seconds(server_pid), cpu_split(server_pid), time.process_time()
        main0 = cpu_split(server_pid, server_pid)       # the event loop's thread (its tid is the pid)
        before = rss_bytes(server_pid)
        peak = self.peak = {"rss": before, "rooms": 0}
        self.server_pid = server_pid

        async def sample():
            while True:
                await asyncio.sleep(0.5)
                self.sample()
        tasks = [asyncio.get_running_loop().create_task(sample())]
        if self.args.faults:
            tasks.append(asyncio.get_running_loop().create_task(self.faults()))
        try:
            await self.all_of((self.pair(i) for i in range(self.args.pairs)), "a pair")
        finally:
            for t in tasks:
                t.cancel()
        cpu1, split1 = cpu_seconds(server_pid), cpu_split(server_pid)
        main1 = cpu_split(server_pid, server_pid)
        return {"elapsed": time.monotonic() - t0, "rss_before": before, "peak": peak,
                "server_loop": None if main0 is None or main1 is None else
                (main1[0] - main0[0], main1[1] - main0[1]),
                "server_cpu": None if cpu0 is None or cpu1 is None else cpu1 - cpu0,
                "server_sys": None if split0 is None or split1 is None else split1[1] - split0[1],
                "client_cpu": time.process_time() - mine0}


# ------------------------------------------------------------------ quick match

class QuickSeat(Seat):
    """One player of ``--quick``: identifies with a key whose profile the run made
    beforehand, queues when every player has identified, and takes the room the pairing
    gives it: ``joined`` on its own process, or ``matched`` and then ``reconnect`` on
    the other one. With ``--play`` it then plays the match out as a pair's seat does,
    from when every player has a room (so the pairing's CPU is the pairing's)."""

    def __init__(self, run: "QuickRun", i: int, key: str, name: str, port: int):
        super().__init__(run, i, 0)
        self.key, self.name, self.port = key, name, port
        self.entry_tries = 1                # a refused identify or queue is final
        self.asked: set = set()
        self.replies: dict = {}
        self.t_queued: Optional[float] = None
        self.t_room: Optional[float] = None
        self.room_port: Optional[int] = None
        self.ended: Optional[dict] = None   # matched, or unqueued without a request
        self.moved = False

    def done(self) -> bool:
        if self.run.args.play:
            return self.record is not None
        return self.t_room is not None and self.run.all_in.is_set()

    def on_message(self, m: dict) -> None:
        kind, re_ = m.get("type"), m.get("re")
        if re_ is not None and re_ in self.asked:
            self.replies[re_] = m
        if kind == "queued" and self.t_queued is None:
            self.t_queued = time.perf_counter()
            self.run.queued(self)
        elif kind == "matched" or (kind == "unqueued" and re_ is None):
            self.ended = m
        elif kind == "joined" and self.t_room is None and self.t_queued is not None:
            self.t_room = time.perf_counter()
            self.seat = m.get("seat", 0)
            self.room_port = self.port
            self.run.seated(self)
        super().on_message(m)

    async def until(self, ready, timeout: float, what: str) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"player {self.pair}: no {what} within {timeout:g} s")
            if not self.alive:
                raise ConnectionError(f"player {self.pair}: the connection closed before {what}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), min(left, 5))
            except asyncio.TimeoutError:
                pass

    async def ask(self, kind: str, what: str, **fields) -> dict:
        rid = await self.send(kind, **fields)
        self.asked.add(rid)
        await self.until(lambda: rid in self.replies, 60, what)
        return self.replies.pop(rid)

    async def enter(self) -> None:
        """identify, (everyone identified) queue, then the room or the way to it."""
        r = await self.ask("identify", "profile", key=self.key, name=self.name)
        if r.get("type") != "profile":
            raise RuntimeError(f"player {self.pair}: identify refused: {r.get('code')}: {r.get('message')}")
        self.run.identified()
        await asyncio.wait_for(self.run.all_identified.wait(), self.run.args.timeout)
        r = await self.ask("queue", "queued", preset=self.run.args.preset, months=self.run.args.months)
        if r.get("type") != "queued":
            raise RuntimeError(f"player {self.pair}: queue refused: {r.get('code')}: {r.get('message')}")
        await self.until(lambda: self.t_room is not None or self.ended is not None, self.run.args.timeout,
                         "room")
        if self.t_room is not None:
            return
        m = self.ended
        if m.get("type") != "matched":
            raise RuntimeError(f"player {self.pair}: the wait ended without a room: {m.get('reason')}")
        url = urlsplit(str(m.get("url")))
        if url.hostname != HOST or url.port not in self.run.ports:
            raise RuntimeError(f"player {self.pair}: matched to {m.get('url')}, not one of this run's servers")
        self.code, self.token, self.port, self.moved = m["room"], m["token"], url.port, True
        await self.ws.close()
        raise Moved

    async def reconnect(self) -> None:
        await super().reconnect()
        if self.moved and self.t_room is None:
            raise RuntimeError(f"player {self.pair}: no room after following matched")

    async def act_loop(self) -> None:
        try:
            await asyncio.wait_for(self.run.all_in.wait(), self.run.args.timeout)
        except asyncio.TimeoutError:
            return
        await super().act_loop()


class QuickRun(Run):
    """``--quick N``: N players, ``ports`` the server processes (player i on ``i % len``)."""

    def __init__(self, args, ports: list, keys: list):
        super().__init__(args)
        self.ports = ports
        self.port = ports[0]
        self.keys = keys
        self.all_identified = asyncio.Event()
        self.all_in = asyncio.Event()
        self.n_identified = self.n_settled = self.waiting = self.peak_waiting = 0
        self.t_first_queued: Optional[float] = None
        self.t_all_in: Optional[float] = None
        self.cpu_marks: dict = {}

    def cpu_now(self) -> Optional[float]:
        values = [cpu_seconds(pid) for pid in self.pids]
        return None if None in values else sum(values)

    def identified(self) -> None:
        self.n_identified += 1
        if self.n_identified == self.args.quick and not self.all_identified.is_set():
            self.cpu_marks["queue"] = self.cpu_now()
            self.all_identified.set()

    def queued(self, seat: QuickSeat) -> None:
        if self.t_first_queued is None:
            self.t_first_queued = seat.t_queued
        self.waiting += 1
        self.peak_waiting = max(self.peak_waiting, self.waiting)

    def seated(self, seat: QuickSeat) -> None:
        self.waiting -= 1
        self.settled()

    def settled(self) -> None:
        """One more player has a room, or has failed: when all have, the pairing is over."""
        self.n_settled += 1
        if self.n_settled == self.args.quick and not self.all_in.is_set():
            self.t_all_in = time.perf_counter()
            self.cpu_marks["rooms"] = self.cpu_now()
            self.all_in.set()
            for s in self.seats:
                s.changed.set()

    async def player(self, i: int) -> None:
        await asyncio.sleep(self.args.ramp * i / max(1, self.args.quick))
        seat = QuickSeat(self, i, self.keys[i], f"Q{i}", self.ports[i % len(self.ports)])
        self.seats.append(seat)
        try:
            await seat.play(seat.enter)
        except BaseException:
            if seat.t_room is None:
                if not self.all_identified.is_set() and seat.t_queued is None:
                    self.identified()       # do not keep the others waiting for it
                self.settled()
            raise

    async def main(self, pids: list) -> dict:
        self.pids = pids
        t0 = time.monotonic()
        await self.all_of((self.player(i) for i in range(self.args.quick)), "a player")
        return {"elapsed": time.monotonic() - t0, "cpu_end": self.cpu_now()}


def quick_check(run: QuickRun, datas: list) -> tuple[list, dict]:
    """Every player got a room, every room holds two of them in seats 0 and 1; with
    --play every match finished and each seat's record and events are the server's log.
    Returns the problems and the rooms ((process, code) -> seats)."""
    problems = []
    rooms: dict = {}
    for s in run.seats:
        if s.t_room is None:
            problems.append(f"player {s.pair} got no room")
        else:
            rooms.setdefault((run.ports.index(s.room_port), s.code), []).append(s)
    missing = run.args.quick - len(run.seats)
    if missing:
        problems.append(f"{missing} players never started")
    for (proc, code), seats in rooms.items():
        if sorted(s.seat for s in seats) != [0, 1]:
            problems.append(f"room {code} on process {proc + 1} holds seats {sorted(s.seat for s in seats)}")
    if run.args.play:
        logs = {(i, code): v for i, d in enumerate(datas) for code, v in server_logs(d).items()}
        for (proc, code), seats in rooms.items():
            status, log = logs.get((proc, code), (None, None))
            if status != "over":
                problems.append(f"room {code} on process {proc + 1} is {status} on the server")
                continue
            problems += [p for s in seats for p in seat_problems(code, s.seat, s.record, s.events, log)]
    return problems, rooms


def make_profiles(db: Optional[str], data: Path, n: int) -> list:
    """N player keys with their profiles made in the ladder's database beforehand, as an
    operator could: the ladder lets one address bring only a few new keys an hour
    (PROFILES_PER_HOUR), and every simulated player comes from 127.0.0.1."""
    from koikoi.ladder import identity        # the ladder is optional: only --quick needs it
    from koikoi.ladder.store import open_store  # (as above)
    keys = [identity.new_key() for _ in range(n)]
    store = open_store(db, data)
    try:
        now = time.time()
        for i, key in enumerate(keys):
            store.ensure_profile(identity.key_hash(key), f"Q{i}", now=now)
    finally:
        store.close()
    return keys


def quick_postgres(args, folder: Path):
    """(url, the server to stop or None, why not): --db, else a PostgreSQL that pgserver
    starts in ``folder``, on a fresh database."""
    if args.db:
        return args.db, None, None
    sys.path.insert(0, str(ROOT / "tools"))
    from load_ladder import fresh_database, start_postgres  # tools/ is on the path only from here
    try:
        url, srv = start_postgres(folder)
    except Exception as exc:            # noqa: BLE001 - any failure: say it and skip
        return None, None, f"pgserver did not start: {exc}"
    if url is None:
        return None, None, "the pgserver package is not installed and no --db postgresql://... was given"
    return fresh_database(url), srv, None


def quick_main(args, data: Path) -> int:
    srv = None
    db = args.db
    if args.processes > 1 or (db or "").startswith(("postgresql://", "postgres://")):
        db, srv, why = quick_postgres(args, data)
        if db is None:
            print(f"skipped: --processes {args.processes} needs a PostgreSQL: {why}", file=sys.stderr)
            return SKIPPED
    procs, ports, datas = [], [], []
    try:
        datas = [data / f"p{i + 1}" for i in range(args.processes)]
        for d in datas:
            d.mkdir(parents=True, exist_ok=True)
        keys = make_profiles(db, datas[0], args.quick)
        for d in datas:
            proc, port = start_server(args, d, () if db is None else ("--db", db))
            procs.append(proc)
            ports.append(port)
        run = QuickRun(args, ports, keys)
        info = asyncio.run(run.main([p.pid for p in procs]))
    finally:
        for proc in procs:
            stop_server(proc)
        if srv is not None:
            srv.cleanup()
    problems, rooms = quick_check(run, datas)
    problems = list(run.stats.problems) + problems
    waits = [s.t_room - s.t_queued for s in run.seats if s.t_room is not None and s.t_queued is not None]
    span = (run.t_all_in - run.t_first_queued) if run.t_all_in and run.t_first_queued else None
    c0, c1 = run.cpu_marks.get("queue"), run.cpu_marks.get("rooms")
    pairing_cpu = None if c0 is None or c1 is None else c1 - c0
    ms = lambda v: None if v is None else round(v * 1000, 1)   # noqa: E731
    out = {
        "quick": args.quick, "processes": args.processes, "db": "sqlite" if db is None else "postgresql",
        "rooms": len(rooms), "rooms_wanted": args.quick // 2, "seated": len(waits),
        "peak_waiting": run.peak_waiting, "moved": sum(1 for s in run.seats if s.moved and s.t_room),
        "pairing_s": None if span is None else round(span, 3),
        "matches_per_s": round(len(rooms) / span, 1) if span else None,
        "q2r_p50_ms": ms(percentile(waits, 0.5)), "q2r_p99_ms": ms(percentile(waits, 0.99)),
        "q2r_max_ms": ms(max(waits) if waits else None),
        "server_cpu_pairing_s": None if pairing_cpu is None else round(pairing_cpu, 3),
        "server_cpu_ms_per_match": (None if pairing_cpu is None or not rooms
                                    else round(pairing_cpu * 1000 / len(rooms), 2)),
        "played": args.play, "actions": len(run.stats.times), "elapsed_s": round(info["elapsed"], 2),
        "refused": run.stats.refused, "errors": run.stats.errors,
        "problems": problems[:20], "problem_count": len(problems),
    }
    out["ok"] = not problems
    where = "one process" if args.processes == 1 else f"{args.processes} processes"
    print(f"quick match: {args.quick} players on {where} ({out['db']}), {out['peak_waiting']} waiting at once; "
          f"{out['rooms']}/{out['rooms_wanted']} rooms made")
    print(f"matches made: {out['matches_per_s']} a second ({out['rooms']} in {out['pairing_s']} s, "
          f"from the first queued to the last player in a room)")
    print(f"queue-to-room: p50 {out['q2r_p50_ms']} ms, p99 {out['q2r_p99_ms']} ms, max {out['q2r_max_ms']} ms"
          + (f" ({out['moved']} players followed matched to the other process)" if args.processes > 1 else ""))
    print(f"server CPU while pairing: {out['server_cpu_pairing_s']} s, {out['server_cpu_ms_per_match']} ms a match"
          + (" (all processes)" if args.processes > 1 else ""))
    if args.play:
        print(f"played out: {out['actions']} actions in {out['elapsed_s']} s")
    ok_text = ("every player got a room" + ("; every match finished, every record and event is the server's log"
                                            if args.play else ""))
    print(ok_text if not problems else f"{len(problems)} problem(s): " + "; ".join(problems[:5]))
    if args.json:
        print(json.dumps(out))
    return 0 if out["ok"] else 1


# ------------------------------------------------------------------ the checks

def server_logs(data: Path) -> dict:
    """code -> the event dicts of the last room with that code, from the rooms database."""
    db = sqlite3.connect(f"file:{data / 'rooms.sqlite3'}?mode=ro", uri=True)
    try:
        out = {}
        for rid, code, status in db.execute("SELECT id, code, status FROM rooms ORDER BY id"):
            out[code] = (status, [json.loads(t) for (t,) in db.execute(
                "SELECT event FROM events WHERE room = ? ORDER BY idx", (rid,))])
        return out
    finally:
        db.close()


def check(run: Run, data: Path) -> list:
    """Every match finished, its records equal the server's log, every public event a
    seat received is that log as the seat may see it."""
    problems = []
    logs = server_logs(data)
    want = run.args.pairs * run.args.matches
    if len(run.played) != want:
        problems.append(f"{want - len(run.played)} of {want} matches did not finish")
    for code, rec0, rec1, ev0, ev1 in run.played:
        status, log = logs.get(code, (None, None))
        if status != "over":
            problems.append(f"room {code} is {status} on the server")
            continue
        for seat, rec, got in ((0, rec0, ev0), (1, rec1, ev1)):
            problems += seat_problems(code, seat, rec, got, log)
    return problems


def seat_problems(code: str, seat: int, record: Optional[dict], got: list, log: list) -> list:
    """What is wrong with one seat of a finished room: its record is not the server's
    ``log``, or the public events it was sent (``got``) are not that log as it may see it."""
    if record is None or record["log"]["events"] != log:
        return [f"room {code}: seat {seat}'s record is not the server's log"]
    full = events_from_json(json.dumps(record["log"]))
    if [wire_event(e, seat) for e in full] != got:
        return [f"room {code}: seat {seat} was sent other events than the log's"]
    return []


# ------------------------------------------------------------------ the server

def pin(server_pid: int) -> None:
    """The server on the first CPU of this process's set, the players (this process) on the
    others: the server has a core of its own, as the issue's p99 target asks (Linux only)."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:
        raise SystemExit("--pin needs at least two CPUs")
    os.sched_setaffinity(server_pid, {cpus[0]})
    os.sched_setaffinity(0, set(cpus[1:]))
    print(f"server pinned to CPU {cpus[0]}, players to CPU {','.join(map(str, cpus[1:]))}", file=sys.stderr)


def start_server(args, data: Path, extra=()):
    profile = ["-m", "cProfile", "-o", str(args.profile)] if args.profile else []
    cmd = [sys.executable, *profile, "-m", "koikoi.net.cli", "--host", HOST, "--port", "0", "--data", str(data),
           "--max-rooms", str(args.pairs * 2 + 10), "--max-connections", str(args.pairs * 4 + 50),
           "--max-per-ip", str(args.pairs * 4 + 50), "--rooms-per-address", str(args.pairs * 2 + 10),
           "--log-level", "WARNING", *args.server_arg, *extra]
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = open(data / "server.log", "w")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log, text=True, env=env, cwd=str(ROOT))
    if args.pin:
        pin(proc.pid)
    deadline = time.monotonic() + 30
    port = None
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        m = LISTENING.search(line)
        if m:
            port = int(m.group(1))
            break
    if port is None:
        proc.kill()
        proc.wait(10)
        raise RuntimeError(f"the server did not start (see {data / 'server.log'})")
    return proc, port


def stop_server(proc) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def raise_fd_limit(need: int) -> None:
    try:
        import resource     # Unix only: elsewhere there is no limit to raise
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < need:
            resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))
    except (ImportError, ValueError, OSError):
        pass


def parse_args(argv=None):
    p = argparse.ArgumentParser(description="Load a koikoi match server on 127.0.0.1 with simulated players.")
    p.add_argument("--pairs", type=int, default=500, help="client pairs, each playing in its own room (default 500)")
    p.add_argument("--matches", type=int, default=1, help="matches each pair plays, one after the other (default 1)")
    p.add_argument("--months", type=int, default=1,
                   help="months of each match (default 1; a preset's match is 6 or 12: CPU an action "
                        "spreads each match's start and end over its actions, so give --months 12 too)")
    p.add_argument("--preset", default="casual", help="the rules preset (default casual)")
    p.add_argument("--think", type=float, default=1.0,
                   help="seconds a player waits before each action, on average (default 1.0)")
    p.add_argument("--ramp", type=float, default=10.0, help="seconds over which the pairs arrive (default 10)")
    p.add_argument("--timeout", type=float, default=600.0, help="the whole run at most, seconds (default 600)")
    p.add_argument("--faults", action="store_true", help="drop and reconnect 10%% of the clients now and then")
    p.add_argument("--fault-interval", type=float, default=60.0, help="seconds between faults (default 60)")
    p.add_argument("--target-p99", type=float, default=None, metavar="MS",
                   help="fail (exit 1) if the p99 round trip is over MS milliseconds")
    p.add_argument("--data", type=Path, default=None, help="the server's folder (default: a temporary one)")
    p.add_argument("--seed", type=int, default=1, help="the players' random choices")
    p.add_argument("--json", action="store_true", help="print the results as JSON too")
    p.add_argument("--profile", type=Path, default=None, metavar="FILE",
                   help="run the server under cProfile, its statistics written to FILE (pstats)")
    p.add_argument("--timeline", action="store_true", help="print actions and p99 second by second")
    p.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                   help="one more argument for ``koikoi serve`` (repeat it: --server-arg=--commit-window "
                        "--server-arg=30), to measure its options")
    p.add_argument("--pin", action="store_true",
                   help="give the server a CPU of its own and the players the others (Linux; like taskset)")
    q = p.add_argument_group("quick match (--quick)")
    q.add_argument("--quick", type=int, default=None, metavar="N",
                   help="N players (even) identify over --ramp and then all queue --preset and --months at "
                        "once; measured: matches made a second, queue-to-room time, server CPU a match")
    q.add_argument("--processes", type=int, default=1, help="server processes the players spread over "
                                                            "(default 1; 2 needs PostgreSQL)")
    q.add_argument("--db", default=None, metavar="URL",
                   help="the ladder's database for the servers' --db (default: SQLite with one process; "
                        "with two, a PostgreSQL that the pgserver package starts)")
    q.add_argument("--play", action="store_true", help="play every match out (after all have a room) and check it")
    args = p.parse_args(argv)
    if args.quick is None:
        if args.processes != 1 or args.db or args.play:
            p.error("--processes, --db and --play go with --quick")
    else:
        if not 2 <= args.quick <= 5000 or args.quick % 2:
            p.error("--quick must be an even number from 2 to 5000")
        if not 1 <= args.processes <= 4:
            p.error("--processes must be 1 to 4")
        if args.processes > 1 and (args.pin or args.profile):
            p.error("--pin and --profile go with one process")
        if args.faults:
            p.error("--faults is not a --quick option")
        args.pairs = args.quick // 2
    if args.pin and not hasattr(os, "sched_setaffinity"):
        p.error("--pin needs os.sched_setaffinity (Linux)")
    for name, lo, hi in (("pairs", 1, 5000), ("matches", 1, 1000), ("months", 1, 12)):
        if not lo <= getattr(args, name) <= hi:
            p.error(f"--{name} must be {lo} to {hi}")
    try:
        room_rules(args.preset, {}, args.months)
    except ValueError as exc:
        p.error(f"--preset/--months: {exc}")
    for name in ("think", "ramp", "timeout", "fault_interval"):
        v = getattr(args, name)
        if not 0 <= v <= 86400 or (name in ("timeout", "fault_interval") and v <= 0):
            p.error(f"--{name.replace('_', '-')} is out of range")
    return args


def quiet_gc() -> None:
    """The simulated players' own pauses are not the server's: what survives a full
    collection here is frozen (this process is short-lived), so the next ones are short."""
    def after(phase, info):
        if phase == "stop" and info.get("generation") == 2:
            gc.freeze()
    gc.callbacks.append(after)


def main(argv=None) -> int:
    args = parse_args(argv)
    raise_fd_limit(args.pairs * 6 + 200)
    quiet_gc()
    tmp = None
    if args.data is None:
        tmp = tempfile.TemporaryDirectory(prefix="koikoi-load-")
        data = Path(tmp.name)
    else:
        data = args.data
        data.mkdir(parents=True, exist_ok=True)
    if args.quick:
        try:
            return quick_main(args, data)
        finally:
            if tmp is not None:
                tmp.cleanup()
    proc, port = start_server(args, data)
    run = Run(args)
    run.port = port
    try:
        info = asyncio.run(run.main(proc.pid))
    finally:
        stop_server(proc)
    problems = list(run.stats.problems) + check(run, data)
    st = run.stats
    span = (st.times[-1] - st.times[0]) if len(st.times) > 1 and st.times[-1] > st.times[0] else None
    peak = info["peak"]
    per_room = None
    if peak["rooms"] and peak["rss"] and info["rss_before"]:
        per_room = (peak["rss"] - info["rss_before"]) / peak["rooms"]
    ms = lambda v: None if v is None else round(v * 1000, 2)   # noqa: E731
    out = {
        "pairs": args.pairs, "matches": len(run.played), "matches_wanted": args.pairs * args.matches,
        # the length of each match: CPU an action counts each match's start and end (two
        # handshakes, create, join, the records, the closes) over its actions
        "months": args.months,
        "actions_per_match": round(len(st.times) / len(run.played), 1) if run.played else None,
        "elapsed_s": round(info["elapsed"], 2), "actions": len(st.times),
        "actions_per_s": round(len(st.times) / span, 1) if span else None,
        "rtt_p50_ms": ms(percentile(st.rtt, 0.5)), "rtt_p99_ms": ms(percentile(st.rtt, 0.99)),
        "rtt_max_ms": ms(max(st.rtt) if st.rtt else None),
        "peak_rooms": peak["rooms"], "server_rss_before_mb": round((info["rss_before"] or 0) / 2 ** 20, 1),
        "server_rss_peak_mb": round((peak["rss"] or 0) / 2 ** 20, 1),
        "rss_per_room_kb": round(per_room / 1024, 1) if per_room is not None else None,
        "server_cpu_s": None if info["server_cpu"] is None else round(info["server_cpu"], 2),
        "server_sys_s": None if info["server_sys"] is None else round(info["server_sys"], 2),
        # the event loop's thread (user, system); the rest of server_cpu_s is the other threads
        # (the store's writer)
        "server_loop_s": None if info["server_loop"] is None else [round(v, 2) for v in info["server_loop"]],
        "clients_cpu_s": round(info["client_cpu"], 2),
        "server_cpu_ms_per_action": (None if info["server_cpu"] is None or not st.times
                                     else round(info["server_cpu"] * 1000 / len(st.times), 3)),
        "faults": args.faults, "drops": st.drops, "reconnects": st.reconnects, "refused": st.refused,
        "errors": st.errors,
        "problems": problems[:20], "problem_count": len(problems),
    }
    target_ok = args.target_p99 is None or (out["rtt_p99_ms"] is not None and out["rtt_p99_ms"] <= args.target_p99)
    out["ok"] = not problems and target_ok
    length = f"{args.months} month{'s' if args.months != 1 else ''}"
    print(f"{out['matches']}/{out['matches_wanted']} matches of {length} by {args.pairs} pairs in "
          f"{out['elapsed_s']} s; {len(st.times)} actions ({out['actions_per_match']} a match), "
          f"{out['actions_per_s']} actions/s")
    print(f"action round trip: p50 {out['rtt_p50_ms']} ms, p99 {out['rtt_p99_ms']} ms, max {out['rtt_max_ms']} ms"
          + ("" if args.target_p99 is None else f" (target p99 <= {args.target_p99:g} ms: "
                                                 f"{'met' if target_ok else 'NOT met'})"))
    print(f"server memory: {out['server_rss_before_mb']} MB before, {out['server_rss_peak_mb']} MB with "
          f"{peak['rooms']} rooms live: {out['rss_per_room_kb']} KB a room (with its two connections)")
    print(f"CPU: the server {out['server_cpu_s']} s, {out['server_sys_s']} of it in the kernel "
          f"({out['server_cpu_ms_per_action']} ms an action), "
          + ("" if out["server_loop_s"] is None else
             f"its event loop {out['server_loop_s'][0]} s user + {out['server_loop_s'][1]} s kernel, "
             f"its other threads (the store's writer) "
             f"{round(out['server_cpu_s'] - sum(out['server_loop_s']), 2)} s; ")
          + f"the simulated clients {out['clients_cpu_s']} s (of {out['elapsed_s']} s)")
    if args.faults:
        print(f"faults: {st.drops} connections dropped, {st.reconnects} reconnections, refused: {st.refused}, "
              f"errors: {st.errors}")
    print("every match finished; every record and every event equals the server's log" if not problems
          else f"{len(problems)} problem(s): " + "; ".join(problems[:5]))
    if args.timeline and st.times:
        t0 = st.times[0]
        by: dict = {}
        for t, r in zip(st.times, st.rtt):
            by.setdefault(int(t - t0), []).append(r)
        for sec in sorted(by):
            print(f"  {sec:4d} s: {len(by[sec]):5d} actions, p50 {percentile(by[sec], 0.5) * 1000:7.1f} ms, "
                  f"p99 {percentile(by[sec], 0.99) * 1000:7.1f} ms")
    if args.json:
        print(json.dumps(out))
    if tmp is not None:
        tmp.cleanup()
    return 0 if out["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
