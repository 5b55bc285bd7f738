"""A server restart resumes every room exactly (in process, and after a SIGKILL of
``koikoi serve``: every acknowledged action was on disk), and the ``serve`` command."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from koikoi.engine import public_event, replay
from koikoi.engine.table import fold_all
from koikoi.net.client import Connection
from koikoi.net.rooms import RoomStore

from net_helpers import close_all, config, pair, play, run, serving, settle
from koikoi.net.server import MatchServer

ROOT = Path(__file__).resolve().parents[2]
URL_RE = re.compile(r"listening on (ws://127\.0\.0\.1:(\d+))")


def test_restart_resumes_every_room(data_dir):
    async def scenario():
        rng = random.Random(42)
        async with serving(data_dir, claim_after=600) as server:
            a, b, code = await pair(server, "nintendo", 3)
            c, d, code2 = await pair(server, "casual", 3)
            await play({0: a, 1: b}, rng, stop_after=17)
            await play({0: c, 1: d}, rng, stop_after=9)
            await settle([a, b])
            await settle([c, d])
            before = {k: server.rooms[k].state for k in (code, code2)}
            tables = {k: (p.state.table, q.state.table) for k, p, q in ((code, a, b), (code2, c, d))}
            tokens = {k: (p.state.token, q.state.token) for k, p, q in ((code, a, b), (code2, c, d))}
            open_code = (await (await Connection.open(server.url)).create_room("casual", name="Lone"))["room"]
        # all connections closed with the server
        for p in (a, b, c, d):
            await asyncio.wait_for(p._reader, 5)
            assert p.closed is not None
        server = MatchServer(data_dir, host="127.0.0.1", port=0, config=config(claim_after=600))
        await server.start()
        try:
            assert set(server.rooms) == {code, code2, open_code}
            assert server.rooms[open_code].status == "open"
            for k in (code, code2):
                room = server.rooms[k]
                assert room.state == before[k] == replay(room.events)
                assert [s.presence for s in room.seats] == ["dropped", "dropped"]
            a = await Connection.open(server.url)
            b = await Connection.open(server.url)
            await a.reconnect(code, tokens[code][0])
            await b.reconnect(code, tokens[code][1])
            await settle([a, b])
            await a.wait_until(lambda s: s.total == len(before[code].events))
            await b.wait_until(lambda s: s.total == len(before[code].events))
            assert (a.state.table, b.state.table) == tables[code]
            await play({0: a, 1: b}, rng)
            await settle([a, b])
            room = server.rooms[code]
            assert room.state.is_over and room.state == replay(room.events)
            for p in (a, b):
                assert p.state.table == fold_all([public_event(e, p.state.seat) for e in room.events], p.state.seat)
            # a stranger may still join the open room
            g = await Connection.open(server.url)
            await g.join(open_code, "Late")
            await close_all(a, b, g)
        finally:
            await server.stop()
    run(scenario())


async def _start_serve(data_dir, home, log_path, *extra):
    env = dict(os.environ, KOIKOI_HOME=str(home), PYTHONPATH=str(ROOT))
    with open(log_path, "ab") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "koikoi", "serve", "--port", "0", "--data", str(data_dir),
            "--claim-after", "600", *extra, cwd=str(ROOT), env=env,
            stdout=asyncio.subprocess.PIPE, stderr=log)
    line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
    m = URL_RE.search(line)
    assert m, line
    return proc, m.group(1)


@pytest.mark.parametrize("sync", ["full", "normal"])
def test_sigkill_mid_round_loses_no_acknowledged_action(data_dir, tmp_path, sync):
    """Under ``--sync normal`` too (no fsync a commit): a crash of the server, not of the
    machine, loses no answered action."""
    async def scenario():
        rng = random.Random(9)
        proc, url = await _start_serve(data_dir, tmp_path / "home", tmp_path / "serve.log",
                                       "--sync", sync)
        try:
            a = await Connection.open(url)
            code = (await a.create_room("casual", months=3, name="Aki"))["room"]
            b = await Connection.open(url)
            await b.join(code, "Haru")
            await a.wait_until(lambda s: s.status == "playing")
            await play({0: a, 1: b}, rng, stop_after=21)
            acked = max(a.state.total, b.state.total)
            table_a = (await settle([a, b])).table
        finally:
            proc.send_signal(signal.SIGKILL)
            await asyncio.wait_for(proc.wait(), 10)
        store = RoomStore(data_dir)
        (room,) = store.load()
        store.close()
        assert room.code == code and len(room.events) == acked
        proc, url = await _start_serve(data_dir, tmp_path / "home", tmp_path / "serve.log")
        try:
            a2 = await Connection.open(url)
            b2 = await Connection.open(url)
            await a2.reconnect(code, a.state.token)
            await b2.reconnect(code, b.state.token)
            await a2.wait_until(lambda s: s.total == acked)
            await b2.wait_until(lambda s: s.total == acked)
            assert a2.state.table == table_a
            await play({0: a2, 1: b2}, rng)
            await settle([a2, b2])
            assert a2.state.table.is_over
            await close_all(a, b, a2, b2)
        finally:
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 15) == 0
        store = RoomStore(data_dir)
        (room,) = store.load()
        store.close()
        assert room.state.is_over and room.status == "over" and room.state == replay(room.events)
        assert a2.state.table == fold_all([public_event(e, 0) for e in room.events], 0)
    run(scenario(), timeout=180)


def _koikoi(home, *args, timeout=60):
    env = dict(os.environ, KOIKOI_HOME=str(home), PYTHONPATH=str(ROOT), SDL_VIDEODRIVER="dummy",
               SDL_AUDIODRIVER="dummy", KOIKOI_NO_CRASH_SCREEN="1")
    return subprocess.run([sys.executable, "-m", "koikoi", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def test_serve_help_and_bad_flags(tmp_path):
    r = _koikoi(tmp_path, "serve", "--help")
    assert r.returncode == 0
    for flag in ("--host", "--port", "--data", "--claim-after", "127.0.0.1"):
        assert flag in r.stdout
    assert not (tmp_path / "data").exists()           # --help starts nothing
    r = _koikoi(tmp_path, "--help")
    assert r.returncode == 0 and "koikoi serve" in r.stdout and "--frames" in r.stdout
    for bad in (["--port", "70000"], ["--port", "x"], ["--claim-after", "-1"], ["--nope"]):
        r = _koikoi(tmp_path, "serve", *bad)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "koikoi serve:" in r.stderr, (bad, r.stderr)


def test_serve_port_0_prints_its_address_and_uses_koikoi_home(tmp_path):
    async def scenario():
        env = dict(os.environ, KOIKOI_HOME=str(tmp_path / "home"), PYTHONPATH=str(ROOT))
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "koikoi", "serve", "--port", "0", cwd=str(ROOT), env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
        try:
            line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
            m = URL_RE.search(line)
            assert m and int(m.group(2)) > 0, line
            c = await Connection.open(m.group(1))
            assert (await c.ping())["type"] == "pong"
            await c.close()
        finally:
            proc.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(proc.wait(), 15)
        assert code == 0
        assert (tmp_path / "home" / "data" / "server" / "rooms.sqlite3").is_file()
    run(scenario())


@pytest.mark.skipif(sys.platform.startswith("win"), reason="signals")
def test_the_game_still_starts(tmp_path):
    r = _koikoi(tmp_path, "--frames", "60", timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
