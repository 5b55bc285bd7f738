"""The limits a server on a public address needs (issue 25): rooms per address and the
expiry of abandoned rooms, connections counted from the accept under an open-files limit,
a syncing attacker, refusals that carry the request's id, and a private rooms database.

Loopback only: a second "address" is 127.0.0.2 (every 127/8 address is this machine).
Servers that must not share this process's CPU or open files run in a subprocess
(net_procs.py). Every loop is bounded in count and time.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from koikoi.net.client import Connection
from koikoi.net.rooms import DB_NAME
from koikoi.net.server import MatchServer, address_key

from net_helpers import close_all, config, pair, play, run, serving, settle

ATTACKER = "127.0.0.2"
PROCS = Path(__file__).with_name("net_procs.py")


async def raw(url: str, local: str = ATTACKER):
    """A plain WebSocket from ``local`` (no client logic: an attacker's)."""
    from websockets.asyncio.client import connect
    return await connect(url, compression=None, proxy=None, open_timeout=10,
                         local_addr=(local, 0), max_size=8 * 1024 * 1024)


async def answer(ws, rid, timeout: float = 10.0) -> dict:
    """The first frame answering ``rid``."""
    async def find():
        for _ in range(200):
            m = json.loads(await ws.recv())
            if m.get("re") == rid:
                return m
        raise AssertionError(f"no answer to {rid!r}")
    return await asyncio.wait_for(find(), timeout)


async def abandon_rooms(url: str, n: int) -> dict:
    """``n`` times from the attacker's address: connect, create a room, hang up.
    Returns the answers' codes counted and the rooms made."""
    codes: dict = {}
    made = []
    for i in range(n):
        ws = await raw(url)
        await ws.send(json.dumps({"type": "create", "id": i, "name": "X", "rules": {"preset": "casual"}}))
        m = await answer(ws, i)
        key = m.get("code", m["type"])
        codes[key] = codes.get(key, 0) + 1
        if m["type"] == "joined":
            made.append(m["room"])
        else:
            assert m["type"] == "error" and m["message"]
        ws.transport.abort()
    return {"codes": codes, "made": made}


async def timed_play(seats: dict, rng, actions: int, pace: float = 0.0) -> list:
    """``actions`` random legal actions (``pace`` seconds apart at least: a player stays
    under the rate limit); the round trip of each (seconds)."""
    conns = list(seats.values())
    out = []
    for _ in range(actions):
        st = await settle(conns)
        if st.table.is_over:
            break
        mover = seats[st.to_move]
        await mover.wait_until(lambda s: bool(s.legal), 10)
        t = time.perf_counter()
        await mover.send_action(rng.choice(mover.state.legal))
        out.append(time.perf_counter() - t)
        await asyncio.sleep(max(0.0, pace - out[-1]))
    return out


def p99(xs: list) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * 0.99))]


def median(xs: list) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2]


# ------------------------------------------------------------------ rooms per address, expiry

def test_abandoned_rooms_leave_the_server_to_others_and_expire(data_dir):
    async def scenario():
        async with serving(data_dir, abandoned_after=600, rooms_per_address=16) as server:
            out = await abandon_rooms(server.url, 1000)
            assert out["codes"] == {"joined": 16, "too_many_rooms": 984}
            a, b, code = await pair(server, "casual", 1)           # another address plays
            assert await play({0: a, 1: b}, random.Random(3)) > 0
            await close_all(a, b)
            await asyncio.sleep(0.2)
            assert all(server.rooms[c].seats[0].presence == "dropped" for c in out["made"])
            assert server.sweep(time.time() + 300) == []            # not yet
            gone = server.sweep(time.time() + 601)
            assert set(out["made"]) <= set(gone)
            ws = await raw(server.url)                               # the address may make rooms again
            await ws.send(json.dumps({"type": "create", "id": "again", "name": "X",
                                      "rules": {"preset": "casual"}}))
            assert (await answer(ws, "again"))["type"] == "joined"
            await ws.close()
    run(scenario())


def test_abandoned_rooms_expire_across_a_restart(data_dir):
    async def scenario():
        async with serving(data_dir, abandoned_after=1.0) as server:
            out = await abandon_rooms(server.url, 5)
            a = await Connection.open(server.url)                    # a host still there
            kept = (await a.create_room("casual", name="Aki"))["room"]
            await asyncio.sleep(0.2)
        await a.close()
        async with serving(data_dir, abandoned_after=1.0) as server:   # back at once: kept
            assert set(out["made"]) | {kept} <= set(server.rooms)
        await asyncio.sleep(1.3)
        async with serving(data_dir, abandoned_after=1.0) as server:   # back later: expired
            assert not set(out["made"]) & set(server.rooms)
            status = dict(server.store.db.execute("SELECT code, status FROM rooms WHERE code IN (%s)"
                                                  % ",".join("?" * len(out["made"])), out["made"]))
            assert set(status.values()) == {"expired"}
    run(scenario())


def test_address_keys():
    assert address_key("203.0.113.9") == "203.0.113.9"
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("::ffff:203.0.113.9") == "203.0.113.9"


# ------------------------------------------------------------------ subprocess servers

class ServerProcess:
    def __init__(self, data_dir, tmp_path, nofile: int = 0, **cfg):
        cfg = {"open_timeout": 5.0, "close_timeout": 1.0, "send_timeout": 5.0, "durable": False,
               "sweep_every": 3600.0, **cfg}
        self.err_path = tmp_path / "server.err"
        self.err = open(self.err_path, "w")
        self.proc = subprocess.Popen(
            [sys.executable, str(PROCS), "serve", str(data_dir), "--nofile", str(nofile),
             "--config", json.dumps(cfg)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self.err, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("port "):
            self.stop()
            raise AssertionError(f"the server did not start: {self.log()[-2000:]}")
        self.url = f"ws://127.0.0.1:{int(line.split()[1])}"
        self.port = int(line.split()[1])

    def cpu(self) -> float:
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def log(self) -> str:
        if not self.err.closed:
            self.err.flush()
        return self.err_path.read_text(errors="replace")

    def stop(self) -> None:
        try:
            self.proc.stdin.close()
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        self.err.close()


def open_raw_sockets(port: int, n: int, deadline: float, out: list) -> None:
    """``n`` TCP connections from the attacker's address that never send a byte."""
    for _ in range(n):
        if time.monotonic() > deadline:
            break
        s = socket.socket()
        s.settimeout(5)
        try:
            s.bind((ATTACKER, 0))
            s.connect(("127.0.0.1", port))
        except OSError:
            s.close()
            continue
        out.append(s)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_NOFILE and 127.0.0.2")
def test_raw_sockets_under_an_open_files_limit(data_dir, tmp_path):
    import resource
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 3500:
        pytest.skip("this process may not open 3,000 sockets")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 3500) if hard == resource.RLIM_INFINITY
                                                  else max(soft, min(hard, 8192)), hard))
    server = ServerProcess(data_dir, tmp_path, nofile=1024, open_timeout=30.0)
    socks: list = []
    try:
        attacker = threading.Thread(target=open_raw_sockets,
                                    args=(server.port, 3000, time.monotonic() + 60, socks))
        attacker.start()

        async def scenario():
            await asyncio.sleep(0.3)
            a, b, _code = await pair(server, "casual", 3)
            rtts = await timed_play({0: a, 1: b}, random.Random(5), 120)
            await close_all(a, b)
            return rtts, await asyncio.to_thread(attacker.join, 90)
        rtts, _ = run(scenario(), 150)
        assert len(socks) > 2500, len(socks)            # the attacker's sockets got in (and were refused)
        assert p99(rtts) < 0.100, f"p99 {p99(rtts) * 1000:.1f} ms over {len(rtts)} actions"
    finally:
        for s in socks:
            s.close()
        server.stop()
    text = server.log()
    assert "Traceback" not in text and "out of system resource" not in text, text[-3000:]
    assert "the open-files limit is 1024: at most 960 connections" in text
    assert "refused connection from 127.0.0.2: 64 connections from there already" in text


def test_a_syncing_attacker_leaves_a_match_its_pace(data_dir, tmp_path):
    server = ServerProcess(data_dir, tmp_path)
    try:
        async def one_room(i):
            a, b, code = await pair(server, "casual", 12, spectators=True)
            await timed_play({0: a, 1: b}, random.Random(i), 150, pace=0.07)
            return a, b, code

        async def setup():              # long logs for the attacker to ask for
            return await asyncio.gather(*(one_room(i) for i in range(5)))

        async def measure(rng, n):
            a, b, _code = await pair(server, "casual", 12)
            try:
                return await timed_play({0: a, 1: b}, rng, n, pace=0.07)
            finally:
                await close_all(a, b)

        async def scenario():
            rooms = await setup()
            quiet = await measure(random.Random(7), 80)
            cpu0 = server.cpu()
            attack = await asyncio.create_subprocess_exec(
                sys.executable, str(PROCS), "syncers", server.url, ",".join(c for _, _, c in rooms),
                "--per-room", "8", "--rate", "20", "--seconds", "15", stdout=subprocess.PIPE)
            await asyncio.sleep(2.0)
            loaded = await measure(random.Random(7), 80)
            out, _ = await asyncio.wait_for(attack.communicate(), 60)
            for a, b, _ in rooms:
                await close_all(a, b)
            return quiet, loaded, server.cpu() - cpu0, out.decode()
        quiet, loaded, cpu, out = run(scenario(), 240)
    finally:
        server.stop()
    sent = int(out.split()[1])
    assert sent > 40 * 20 * 8, out          # the attacker did sync at the rate limit
    q, l = median(quiet), median(loaded)
    print(f"median round trip {q * 1000:.1f} ms quiet, {l * 1000:.1f} ms under attack, "
          f"server CPU {cpu:.1f} s, {sent} syncs sent")
    # 2x the quiet figure, plus 15 ms for this 2-core machine's scheduling (the attacker's
    # process shares the cores): once 3.1 ms quiet read 9.5 ms under a parallel build's load;
    # the old server, rebuilding every log for each sync, read 460 ms here.
    assert l <= 2 * q + 0.015, (f"median round trip {q * 1000:.1f} ms quiet, {l * 1000:.1f} ms "
                                f"under attack (server CPU {cpu:.1f} s)")


# ------------------------------------------------------------------ refusals and text

def test_every_refusal_carries_the_request_id(data_dir):
    async def scenario():
        async with serving(data_dir, rate=0.5, burst=7) as server:
            ws = await raw(server.url, "127.0.0.1")
            cases = [
                ({"type": "nonsense", "id": 1}, "bad_type"),
                ({"type": "join", "id": 2, "room": "KOI-1234"}, "bad_field"),
                ({"type": "join", "id": 3, "room": "KOI-1234", "name": "a\ud800b"}, "bad_name"),
                ({"type": "create", "id": 4, "name": "A", "rules": {"preset": "x\ud800"}}, "bad_rules"),
                ({"type": "sync", "id": "s", "have": -1}, "bad_field"),
            ]
            for msg, code in cases:
                await ws.send(json.dumps(msg))
                m = await answer(ws, msg["id"])
                assert (m["type"], m["code"]) == ("error", code), m
            await ws.send(json.dumps({"type": "ping", "id": "x\ud800"}))       # an id that cannot be echoed
            m = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert (m["code"], m["re"]) == ("bad_id", None)
            for i in range(10):                                                  # over the rate
                await ws.send(json.dumps({"type": "ping", "id": 100 + i}))
            got = [json.loads(await asyncio.wait_for(ws.recv(), 10)) for _ in range(1)]
            limited = [m for m in got if m.get("code") == "rate_limited"]
            for _ in range(20):
                if limited:
                    break
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if m.get("code") == "rate_limited":
                    limited.append(m)
            assert limited and limited[0]["re"] is not None and limited[0]["re"] >= 100
            await ws.close()
            await assert_alive(server)
    run(scenario())


async def assert_alive(server):
    c = await Connection.open(server.url)
    await c.ping()
    await c.close()


def test_pings_count_in_the_rate_limit(data_dir, caplog):
    import logging
    caplog.set_level(logging.INFO, logger="koikoi.net.server")

    async def scenario():
        async with serving(data_dir, rate=10, burst=10, flood_close=50) as server:
            ws = await raw(server.url, "127.0.0.1")
            for _ in range(400):
                try:
                    await ws.ping()
                except Exception:
                    break
            await asyncio.wait_for(ws.wait_closed(), 10)
            await assert_alive(server)
    run(scenario())
    assert any("ping/pong frames over the rate limit" in r.getMessage() for r in caplog.records)


def test_the_global_guess_budget(data_dir):
    async def scenario():
        async with serving(data_dir, guesses_rate=100, guesses_burst=100, guesses_total_rate=0.01,
                           guesses_total_burst=6) as server:
            codes = []
            for i in range(4):                   # four addresses, two guesses each
                ws = await raw(server.url, f"127.0.0.{10 + i}")
                for j in range(2):
                    await ws.send(json.dumps({"type": "join", "id": j, "room": "KOI-0000", "name": "G"}))
                    codes.append((await answer(ws, j))["code"])
                await ws.close()
            assert codes == ["no_room"] * 6 + ["server_busy"] * 2
    run(scenario())


def test_the_command_line_options(capsys):
    from koikoi.net.cli import parse_args
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    text = capsys.readouterr().out
    for option in ("--rooms-per-address", "--abandoned-after", "--room-lifetime", "--max-connections",
                   "--max-per-ip", "--rate", "--guess-rate", "--guess-total", "--code-digits"):
        assert option in text
    args = parse_args(["--code-digits", "6", "--guess-rate", "12", "--room-lifetime", "3600",
                       "--abandoned-after", "120", "--rooms-per-address", "3"])
    assert (args.code_digits, args.guess_rate, args.room_lifetime, args.abandoned_after,
            args.rooms_per_address) == (6, 12.0, 3600.0, 120.0, 3)
    with pytest.raises(SystemExit):
        parse_args(["--code-digits", "3"])
    assert "--commit-window" in text
    assert parse_args([]).commit_window == 10.0 and parse_args(["--commit-window", "0"]).commit_window == 0.0
    with pytest.raises(SystemExit):
        parse_args(["--commit-window", "500"])
    assert "--sync" in text and parse_args([]).sync == "full" and parse_args(["--sync", "normal"]).sync == "normal"
    with pytest.raises(SystemExit):
        parse_args(["--sync", "off"])


@pytest.mark.parametrize("sync, durable, pragma", [("full", True, 2), ("normal", False, 1)])
def test_sync_sets_the_stores_synchronous_pragma(tmp_path, caplog, sync, durable, pragma):
    """``--sync`` reaches the store: the writer thread's connection runs synchronous=FULL
    (2) or NORMAL (1), and the log says when commits are not fsync'd."""
    import logging

    from koikoi.net import cli
    args = cli.parse_args(["--host", "127.0.0.1", "--port", "0", "--data", str(tmp_path), "--sync", sync])

    async def scenario():
        stop = asyncio.Event()
        started = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(cli._serve(args, stop=stop, started=started))
        server = await asyncio.wait_for(started, 20)
        got = (server.store.durable, server.store.writer.submit(
            lambda db: db.execute("PRAGMA synchronous").fetchone()[0]).result(10))
        stop.set()
        return got, await asyncio.wait_for(task, 30)
    with caplog.at_level(logging.INFO, logger="koikoi"):
        got, code = asyncio.run(scenario())
    assert code == 0 and got == (durable, pragma)
    assert ("not fsync'd" in caplog.text) == (not durable)


def test_longer_room_codes(data_dir):
    async def scenario():
        async with serving(data_dir, code_digits=7) as server:
            a = await Connection.open(server.url)
            code = (await a.create_room("casual", name="A"))["room"]
            assert len(code) == len("KOI-") + 7
            b = await Connection.open(server.url)
            await b.join(code.lower(), "B")
            await close_all(a, b)
    run(scenario())


# ------------------------------------------------------------------ sync by position

def test_sync_sends_only_what_the_client_lacks(data_dir):
    async def scenario():
        async with serving(data_dir) as server:
            a, b, _code = await pair(server, "casual", 3)
            await play({0: a, 1: b}, random.Random(2), stop_after=20)
            await settle([a, b])
            n = a.state.total
            whole = await a.sync(whole=True)
            assert (whole["start"], len(whole["events"])) == (0, n)
            rest = await a.sync()
            assert (rest["start"], rest["events"], rest["total"]) == (n, [], n)
            raw_answer = await a.request("sync", have=n - 3)
            assert raw_answer["start"] == n - 3 and len(raw_answer["events"]) == 3
            assert a.state.total == n                       # the overlap folded once
            ahead = await a.request("sync", have=n + 50)      # more than there are: all of them
            assert ahead["start"] == 0 and len(ahead["events"]) == n
            await play({0: a, 1: b}, random.Random(2), stop_after=5)
            await close_all(a, b)
    run(scenario())


# ------------------------------------------------------------------ files

@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_a_fresh_rooms_folder_is_private_from_the_first_byte(tmp_path):
    folder = tmp_path / "fresh" / "server"
    seen = []
    stop = threading.Event()

    def watch():                        # every mode the files had while the server started
        for _ in range(20000):
            if stop.is_set():
                break
            for p in [folder] + [folder / n for n in (DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm")]:
                try:
                    seen.append((p.name, stat.S_IMODE(p.stat().st_mode)))
                except OSError:
                    pass
            time.sleep(0.0005)
    t = threading.Thread(target=watch)
    old = os.umask(0o022)
    t.start()
    try:
        async def scenario():
            async with serving(folder) as server:
                a, b, _code = await pair(server, "casual", 1)
                await play({0: a, 1: b}, random.Random(1), stop_after=6)
                await close_all(a, b)
                modes = {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()}
            return modes
        modes = run(scenario())
    finally:
        stop.set()
        t.join(30)
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {DB_NAME, DB_NAME + "-wal", DB_NAME + "-shm"} <= set(modes)
    assert all(m == 0o600 for m in modes.values()), modes
    assert {m for name, m in seen if name != "server"} == {0o600}, sorted(set(seen))
    assert {m for name, m in seen if name == "server"} == {0o700}
