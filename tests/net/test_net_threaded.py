"""ThreadedClient, as the pygame UI uses it: calls that return at once, ``poll()`` each
"frame", the table folded from the received events, and a seat taken back by itself
after its connection drops. The server runs on its own thread and loop."""

from __future__ import annotations

import asyncio
import random
import threading
import time

from koikoi.engine import public_event
from koikoi.engine.table import fold_all
from koikoi.net.client import ThreadedClient
from koikoi.net.server import MatchServer

from net_helpers import config


class ServerThread:
    def __init__(self, data_dir, **kw):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server = MatchServer(data_dir, host="127.0.0.1", port=0, config=config(**kw))
        self.run(self.server.start())

    @property
    def url(self):
        return self.server.url

    def run(self, coro, timeout=10):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def call(self, fn, timeout=10):
        async def go():
            return fn()
        return self.run(go(), timeout)

    def stop(self):
        self.run(self.server.stop(), 20)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


def test_threaded_clients_play_a_match_and_reconnect_by_themselves(data_dir):
    srv = ServerThread(data_dir)
    host = ThreadedClient(srv.url, reconnect_for=20)
    guest = ThreadedClient(srv.url, reconnect_for=20)
    try:
        host.connect().result(10)
        joined = host.create_room({"preset": "nintendo"}, months=3, name="Aki").result(10)
        code = joined["room"]
        assert joined["token"] == host.state.token
        guest.connect().result(10)
        assert guest.join(code, "Haru").result(10)
        rng = random.Random(4)
        seen = {host: [], guest: []}
        pending = {host: None, guest: None}
        actions, dropped = 0, False
        t0 = time.monotonic()
        frames = 0
        while time.monotonic() - t0 < 60:
            frames += 1
            for c in (host, guest):
                t = time.perf_counter()
                seen[c] += c.poll()
                assert time.perf_counter() - t < 0.05       # poll never waits
                f = pending[c]
                if f is not None:
                    if not f.done():
                        continue
                    f.result()
                    pending[c] = None
                st = c.state
                if st.my_turn and not st.table.is_over:
                    pending[c] = c.act(rng.choice(st.legal))
                    actions += 1
            if actions == 20 and not dropped:
                # the guest's connection dies under it: it reconnects with its token
                for f in pending.values():
                    if f is not None:
                        f.result(10)
                pending = {host: None, guest: None}
                dropped = True
                srv.call(lambda: srv.server.rooms[code].seats[1].client.abort())
                deadline = time.monotonic() + 20
                while time.monotonic() < deadline:
                    seen[guest] += guest.poll()
                    if any(m.get("type") == "link" and m.get("state") == "connected" for m in seen[guest][-20:]) \
                            and guest.connected:
                        break
                    time.sleep(0.01)
                links = [m["state"] for m in seen[guest] if m.get("type") == "link"]
                assert links[-2:] == ["reconnecting", "connected"], links
            if host.state.table and host.state.table.is_over and guest.state.table.is_over:
                break
            time.sleep(0.001)
        assert host.state.table.is_over and guest.state.table.is_over, actions
        room = srv.call(lambda: srv.server.rooms[code])
        for c in (host, guest):
            seat = c.state.seat
            assert c.state.table == fold_all([public_event(e, seat) for e in room.events], seat)
        # the host saw the guest drop ("waiting for Haru") and come back
        states = [m["state"] for m in seen[host] if m.get("type") == "presence" and m["seat"] == 1]
        assert "dropped" in states and states[-1] == "connected"
        deadline = time.monotonic() + 5
        while host.state.over is None and time.monotonic() < deadline:
            host.poll()
            time.sleep(0.01)
        assert host.state.over["reason"] == "played"
    finally:
        host.close()
        guest.close()
        srv.stop()
    assert not host._thread.is_alive() and not guest._thread.is_alive()


def test_threaded_client_reports_a_lost_server(data_dir):
    srv = ServerThread(data_dir)
    c = ThreadedClient(srv.url, reconnect_for=1.0)
    try:
        c.connect().result(10)
        c.create_room("casual", months=1, name="Aki").result(10)
        srv.stop()
        deadline = time.monotonic() + 15
        links = []
        while time.monotonic() < deadline and "lost" not in links:
            links += [m["state"] for m in c.poll() if m.get("type") == "link"]
            time.sleep(0.02)
        assert links[-2:] == ["reconnecting", "lost"], links
        assert not c.connected
        f = c.act(None)
        try:
            f.result(5)
            raise AssertionError("sent without a connection")
        except ConnectionError:
            pass
    finally:
        c.close()
