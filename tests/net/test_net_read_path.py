"""How the server reads its frames: a frame that finds its connection idle is handled as
websockets reads it (``MatchServer.on_read`` from ``process_event``, no task woken); one
that comes while the connection's last message is still being handled waits in
websockets' queue for the connection's task. Either way a connection's messages are
answered in the order they came, and a room's messages run one at a time."""

from __future__ import annotations

import asyncio
import json
import threading

from koikoi.net.client import Connection
from koikoi.net.protocol import action_to_json, encode

from net_helpers import close_all, pair, run, serving


def _server_side(server, conn_name: str):
    return next(c for c in server.clients if c.name == conn_name)


def _settled(server, *names: str) -> bool:
    """Nothing of these players' connections handled or waiting in websockets' queue."""
    sides = [_server_side(server, n) for n in names]
    return all(s.ws.koikoi_queued == 0 and not s.ws.koikoi_partial and not s.busy for s in sides)


async def _answers(conn: Connection, ids: set, timeout: float = 10.0) -> list:
    """The messages ``conn`` receives until every id in ``ids`` is answered, in order."""
    got, want = [], set(ids)

    async def until():
        while want:
            m = await conn.recv(timeout)
            got.append(m)
            want.discard(m.get("re"))
    await asyncio.wait_for(until(), timeout)
    return got


def test_an_idle_connections_frames_are_handled_as_they_are_read(data_dir):
    async def main():
        async with serving(data_dir) as server:
            a, b, _code = await pair(server)
            side = _server_side(server, "Aki")
            calls = []
            real = side.ws.recv

            async def counted(*args, **kw):
                calls.append(1)
                return await real(*args, **kw)
            side.ws.recv = counted      # the task's next recv() (it waits in the one before)
            for _ in range(5):
                assert (await a.ping())["type"] == "pong"
            # none of them went through websockets' queue and the connection's task
            assert calls == []
            assert _settled(server, "Aki")
            await close_all(a, b)
    run(main())


def test_frames_sent_while_one_is_written_keep_their_order(data_dir):
    async def main():
        async with serving(data_dir) as server:
            a, b, _code = await pair(server)
            st = a.state
            mover, other = (a, b) if st.to_move == a.state.seat else (b, a)
            await mover.wait_until(lambda s: bool(s.legal), 10)
            a.drain(), b.drain()
            # Hold the writer: the act's write waits behind this work
            gate = threading.Event()
            held = server.store.writer.submit(lambda db: gate.wait(10))
            act = {"type": "act", "id": 101, "action": action_to_json(mover.state.legal[0]),
                   "at": mover.state.total}
            for frame in (act, {"type": "ping", "id": 102}, {"type": "sync", "id": 103, "have": 0},
                          {"type": "ping", "id": 104}):
                await mover.ws.send(encode(frame))
            await other.ws.send(encode({"type": "ping", "id": 201}))
            await asyncio.sleep(0.3)
            # nothing overtakes the act being written: not the mover's ping, not the other
            # seat's (its room runs one message at a time)
            assert not [m for m in mover.drain() + other.drain() if m.get("re") is not None]
            gate.set()
            await asyncio.wrap_future(held)
            got = await _answers(mover, {101, 102, 103, 104})
            assert [m["re"] for m in got if m.get("re") is not None] == [101, 102, 103, 104]
            assert got[0]["type"] == "events"
            seen = await _answers(other, {201})
            kinds = [m["type"] for m in seen]
            assert "events" in kinds and kinds.index("events") < kinds.index("pong")
            assert _settled(server, "Aki", "Haru")
            assert (await mover.ping())["type"] == "pong"
            await close_all(a, b)
    run(main())


def test_a_fragmented_message_is_read_whole_and_in_its_turn(data_dir):
    async def main():
        async with serving(data_dir) as server:
            a, b, _code = await pair(server)
            a.drain()
            await a.ws.send(['{"type": "ping", ', '"id": 7}'])     # two fragments
            await a.ws.send(json.dumps({"type": "ping", "id": 8}))
            got = await _answers(a, {7, 8})
            assert [m["re"] for m in got if m.get("re") is not None] == [7, 8]
            assert _settled(server, "Aki")
            assert (await a.ping())["type"] == "pong"
            await close_all(a, b)
    run(main())
