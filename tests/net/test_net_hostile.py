"""Hostile clients: random bytes, random JSON, huge frames, deep nesting, wrong types,
binary frames, bad UTF-8, raw TCP garbage, slow handshakes, floods, guessing, slow
readers. The server refuses each (and logs it), never crashes, the room under attack
is unchanged, and the next valid client is served."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import string

import pytest

from koikoi.net.client import Connection, ServerError
from koikoi.net.protocol import MAX_FRAME

from net_helpers import close_all, pair, play, run, serving, settle


def random_json(rng, depth=0):
    kinds = ["int", "str", "null", "bool", "float"] + (["list", "dict"] * 2 if depth < 4 else [])
    k = rng.choice(kinds)
    if k == "int":
        return rng.choice([0, 1, -1, 2 ** 31, 2 ** 63, -(2 ** 70), rng.randrange(-10 ** 6, 10 ** 6)])
    if k == "float":
        return rng.choice([0.5, -1e300, 1e-300, 3.0])
    if k == "str":
        return rng.choice(["", "play", "act", "create", "KOI-0000", "01-B", "\u0000", "é" * 50,
                           "".join(rng.choice(string.printable) for _ in range(rng.randrange(20)))])
    if k == "null":
        return None
    if k == "bool":
        return rng.random() < 0.5
    if k == "list":
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "id", "name", "rules", "months", "room", "token", "action", "at", "kind", "card",
            "target", "index", "preset", "house", "spectators", "x"]
    m = {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randrange(5))}
    if m.get("type") == "leave":
        m["type"] = "leave!"
    return m


def hostile_messages(rng):
    """Wrong types for every field of every message type, and random JSON. (Not ``leave``:
    a valid one closes the connection, as asked.)"""
    out = []
    for kind in ("create", "join", "reconnect", "watch", "act", "claim", "sync", "ping", "dance"):
        for _ in range(12):
            m = {"type": kind}
            for key in rng.sample(["id", "name", "rules", "months", "room", "token", "action", "at",
                                   "spectators"], rng.randrange(0, 4)):
                m[key] = random_json(rng)
            out.append(json.dumps(m))
    out += [json.dumps(random_json(rng)) for _ in range(150)]
    out += ['{"type": "ping", "id": 1e999}', '{"type": "ping", "id": NaN}', '{"type":"ping"',
            '{"type": "ping", "type": "act"}', "\ufeff{}", '{"type": "act", "action": {"kind": "play", '
            '"card": "01-B", "target": "01-B"}}', "[" * 5000, "{\"a\":" * 3000]
    return out


async def assert_served(server):
    """A fresh pair of clients can make a room and play a move."""
    a, b, code = await pair(server, "casual", 1)
    await play({0: a, 1: b}, random.Random(0), stop_after=2)
    assert len(server.rooms[code].events) > 2
    await close_all(a, b)


def test_fuzz_the_server_stays_up_and_serves_the_next_client(data_dir, caplog):
    caplog.set_level(logging.INFO, logger="koikoi.net.server")

    async def scenario():
        async with serving(data_dir, rate=1e6, burst=10 ** 6, bad_close=10 ** 6, open_timeout=1.0) as server:
            # a match under way, whose players are attacked too
            a, b, code = await pair(server, "casual", 3)
            await play({0: a, 1: b}, random.Random(5), stop_after=6)
            await settle([a, b])
            room = server.rooms[code]
            before = room.state
            rng = random.Random(2024)
            evil = await Connection.open(server.url)
            texts = hostile_messages(rng)
            for i, text in enumerate(texts):
                target = (evil, a, b)[i % 3]
                await target.send_raw(text)
            for text in ("[" * 5000, '{"type": "ping", "x": ' + "[" * 40 + "]" * 40 + "}"):
                await evil.send_raw(text)
            for blob in (b"", b"\x00" * 100, bytes(rng.randrange(256) for _ in range(500)),
                         json.dumps({"type": "ping"}).encode()):
                await evil.send_raw(blob)                       # binary frames
            for c in (evil, a, b):
                assert (await c.ping(timeout=20))["type"] == "pong"      # answered in order, still open
            errors = [m for m in evil.drain() if m["type"] == "error"]
            assert len(errors) >= len(texts) // 3 - 5
            assert {e["code"] for e in errors} >= {"bad_type", "bad_json", "binary", "too_deep"}
            assert all(len(e["message"]) < 300 for e in errors)
            # a claim or leave-free attack: a's and b's room is exactly as it was
            assert room.state is before and room.status == "playing"
            assert room.seats[0].client is not None and room.seats[1].client is not None
            await play({0: a, 1: b}, random.Random(6), stop_after=4)

            # a frame too big: that connection is closed (1009), nothing else
            big = await Connection.open(server.url)
            await big.send_raw(json.dumps({"type": "ping", "x": "y" * (4 * MAX_FRAME)}))
            await asyncio.wait_for(big._reader, 5)
            assert big.closed["code"] == 1009
            # bad UTF-8 in a text frame: closed (1007)
            bad = await Connection.open(server.url)
            await bad.ws.send(b"{\"type\": \"\xff\xfe\"}", text=True)
            await asyncio.wait_for(bad._reader, 5)
            assert bad.closed["code"] == 1007
            # raw TCP: garbage, plain HTTP, a handshake that never finishes
            for payload in (bytes(rng.randrange(256) for _ in range(3000)), b"GET / HTTP/1.1\r\nHost: x\r\n\r\n",
                            b"GET / HTTP/1.1\r\n" + b"X-Long: " + b"a" * 20000 + b"\r\n\r\n", b"GET / HTTP/1.1\r\n"):
                reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
                writer.write(payload)
                await writer.drain()
                data = await asyncio.wait_for(reader.read(), 10)      # the server closes it
                assert b"101" not in data.split(b"\r\n", 1)[0]
                writer.close()
            await assert_served(server)
            await close_all(a, b, evil)
            return server.refusals
    refusals = run(scenario())
    assert refusals > 100
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("refused")]
    assert len(lines) > 100 and all("\n" not in line for line in lines)


def test_rate_limit_and_flood(data_dir):
    async def scenario():
        async with serving(data_dir, rate=5, burst=10, flood_close=60) as server:
            c = await Connection.open(server.url)
            for i in range(40):
                await c.ws.send(json.dumps({"type": "ping", "id": i}))
            await asyncio.sleep(0.3)
            got = c.drain()
            pongs = [m for m in got if m["type"] == "pong"]
            limited = [m for m in got if m["type"] == "error" and m["code"] == "rate_limited"]
            assert 10 <= len(pongs) <= 14 and len(limited) == 1
            await asyncio.sleep(0.5)                       # the bucket refills
            assert (await c.ping())["type"] == "pong"
            # a flood well past the limit is disconnected
            for i in range(200):
                try:
                    await c.ws.send(json.dumps({"type": "ping"}))
                except Exception:
                    break
            await asyncio.wait_for(c._reader, 5)
            assert c.closed["code"] == 1008
            await assert_served(server)
    run(scenario())


def test_a_room_under_flood_is_unchanged(data_dir):
    async def scenario():
        async with serving(data_dir, rate=20, burst=20, flood_close=100) as server:
            a, b, code = await pair(server, "casual", 1)
            st = await settle([a, b])
            room = server.rooms[code]
            before = room.state
            mover = (a, b)[st.to_move]
            await mover.wait_until(lambda s: bool(s.legal))
            other = (b, a)[st.to_move]
            action = json.dumps({"type": "act", "action": {"kind": "pick", "index": 0}})
            for _ in range(300):                           # the other seat floods actions
                try:
                    await other.ws.send(action)
                except Exception:
                    break
            await asyncio.wait_for(other._reader, 5)
            assert other.closed["code"] == 1008
            assert room.state is before
            await mover.send_action(mover.state.legal[0])
            await close_all(a, b)
    run(scenario())


def test_join_deadline_and_idle_timeout(data_dir):
    async def scenario():
        async with serving(data_dir, join_timeout=0.3, idle_timeout=0.6) as server:
            c = await Connection.open(server.url)
            await asyncio.wait_for(c._reader, 5)
            assert c.closed["code"] == 1008
            assert any(m["type"] == "error" and m["code"] == "timeout" for m in c.drain())
            a = await Connection.open(server.url)
            await a.create_room("casual", name="A")
            await asyncio.sleep(0.35)
            assert a.closed is None                         # in a room: the idle deadline applies
            await asyncio.wait_for(a._reader, 5)
            assert a.closed["code"] == 1008
    run(scenario())


def test_guessing_codes_and_tokens_is_limited(data_dir):
    async def scenario():
        async with serving(data_dir, guesses_rate=0.01, guesses_burst=5) as server:
            a = await Connection.open(server.url)
            code = (await a.create_room("casual", name="A"))["room"]
            c = await Connection.open(server.url)
            codes = []
            for i in range(8):
                wrong = f"KOI-{(int(code[4:]) + 1 + i) % 10000:04d}"
                try:
                    await c.join(wrong, "Guess")
                except ServerError as exc:
                    codes.append(exc.code)
            assert codes[:5] == ["no_room"] * 5 and set(codes[5:]) == {"too_many_tries"}
            with pytest.raises(ServerError) as exc:       # even the right code, for now
                await c.join(code, "Guess")
            assert exc.value.code == "too_many_tries"
            await close_all(a, c)
    run(scenario())


def test_connection_caps(data_dir):
    async def scenario():
        async with serving(data_dir, max_connections=4) as server:
            conns = [await Connection.open(server.url) for _ in range(4)]
            with pytest.raises(Exception) as exc:
                await Connection.open(server.url, timeout=5)
            assert "503" in str(exc.value)
            await conns[0].close()
            await asyncio.sleep(0.1)
            conns[0] = await Connection.open(server.url)
            await close_all(*conns)
        async with serving(data_dir, max_per_ip=2) as server:
            conns = [await Connection.open(server.url) for _ in range(2)]
            with pytest.raises(Exception) as exc:
                await Connection.open(server.url, timeout=5)
            assert "503" in str(exc.value)
            await close_all(*conns)
    run(scenario())


def test_a_reader_too_slow_is_dropped(data_dir, caplog):
    caplog.set_level(logging.INFO, logger="koikoi.net.server")

    async def scenario():
        from websockets.asyncio.client import connect
        async with serving(data_dir, rate=1e6, burst=10 ** 6, send_queue=8, send_timeout=0.5) as server:
            a, b, code = await pair(server, "casual", 12)
            await play({0: a, 1: b}, random.Random(1), stop_after=40)
            ws = await connect(server.url, max_queue=1, compression=None, proxy=None)
            token = b.state.token
            await b.close()
            await ws.send(json.dumps({"type": "reconnect", "room": code, "token": token}))
            sync = json.dumps({"type": "sync"})
            for _ in range(3000):                   # asks for the whole log again and again, reads nothing
                await ws.send(sync)
            await asyncio.sleep(0.1)
            for _ in range(100):
                if server.rooms[code].seats[1].client is None:
                    break
                await asyncio.sleep(0.05)
            assert server.rooms[code].seats[1].client is None
            assert server.rooms[code].seats[1].presence == "dropped"
            await a.wait_until(lambda s: s.presence[1]["state"] == "dropped")
            await ws.close()
            await assert_served(server)
            await a.close()
    run(scenario())
    assert any(r.getMessage().startswith("refused slow") for r in caplog.records)
