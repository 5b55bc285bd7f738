"""The client's quick-match calls against two fake server processes (websockets on
127.0.0.1, port 0): identify, queue, board, profile and unqueue on the first; a
``matched`` sends the client to the second, where it takes its seat with the token."""
import asyncio
import json
import os
import stat
import threading
import time

import pytest

from koikoi.engine import RULESETS
from koikoi.ladder import identity
from koikoi.net import client as net_client

pytest.importorskip("websockets")
from websockets.asyncio.server import serve  # noqa: E402

TOKEN = "seat-token-abcdefghijkl"
HELLO = {"type": "hello", "server": "koikoi", "protocol": 1, "limits": {"max_frame": 16384, "rate": 20, "burst": 40}}


def joined(room):
    return {"type": "joined", "re": None, "room": room, "role": "player", "seat": 1, "token": TOKEN,
            "names": ["Aki", "Haru"], "preset": "casual", "house": {}, "rules": RULESETS["casual"].to_dict(),
            "months": 6, "spectators": False, "status": "playing", "claim_after": 60}


class FakeServers:
    """Two fake processes on a loop of their own thread. The first answers the ladder's
    messages and, after ``queue``, sends ``matched`` to the second; the second answers
    ``reconnect`` with ``joined``."""

    def __init__(self, bad_matched=None):
        self.seen = {1: [], 2: []}
        self.bad_matched = bad_matched
        self.loop = asyncio.new_event_loop()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()
        assert self.ready.wait(10)

    def _run(self):
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._start())
        self.ready.set()
        self.loop.run_forever()

    async def _start(self):
        self.two = await serve(lambda ws: self._handle(2, ws), "127.0.0.1", 0)
        self.url2 = f"ws://127.0.0.1:{self.two.sockets[0].getsockname()[1]}"
        self.one = await serve(lambda ws: self._handle(1, ws), "127.0.0.1", 0)
        self.url1 = f"ws://127.0.0.1:{self.one.sockets[0].getsockname()[1]}"

    async def _handle(self, which, ws):
        await ws.send(json.dumps(HELLO))
        async for raw in ws:
            m = json.loads(raw)
            self.seen[which].append(m)
            rid, kind = m.get("id"), m.get("type")
            if which == 1 and kind == "identify":
                await ws.send(json.dumps({"type": "profile", "re": rid, "you": True, "id": "0123456789abcdef",
                                          "name": m["name"], "rating": 1500, "history": [], "against": []}))
            elif which == 1 and kind == "queue":
                await ws.send(json.dumps({"type": "queued", "re": rid, "preset": m["preset"],
                                          "months": m.get("months", 6), "since": time.time()}))
                await asyncio.sleep(0.2)
                await ws.send(json.dumps(self.bad_matched or {"type": "matched", "url": self.url2,
                                                              "room": "KOI-4821", "token": TOKEN}))
            elif which == 1 and kind == "board":
                await ws.send(json.dumps({"type": "board", "re": rid, "rows": [], "you": None, "total": 0}))
            elif which == 1 and kind == "unqueue":
                await ws.send(json.dumps({"type": "unqueued", "re": rid}))
            elif which == 2 and kind == "reconnect":
                await ws.send(json.dumps(dict(joined(m["room"]), re=rid)))

    def close(self):
        async def stop():
            for s in (self.one, self.two):
                s.close()
                await s.wait_closed()
        asyncio.run_coroutine_threadsafe(stop(), self.loop).result(10)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)


def wait_for(pred, timeout=10.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():
            return True
        time.sleep(0.02)
    return False


def test_quick_match_follows_matched_to_the_other_process(tmp_path):
    servers = FakeServers()
    c = net_client.ThreadedClient(servers.url1)
    try:
        c.connect().result(10)
        me = c.identify("Haru", folder=tmp_path).result(10)
        key = identity.read_key(tmp_path)
        assert key is not None and servers.seen[1][0]["key"] == key and me["name"] == "Haru"
        if os.name == "posix":
            assert stat.S_IMODE(os.stat(identity.key_path(tmp_path)).st_mode) == 0o600
        assert c.state.me["id"] == "0123456789abcdef"
        assert c.board(limit=10).result(10)["total"] == 0
        assert servers.seen[1][-1] == {"type": "board", "id": 2, "offset": 0, "limit": 10}
        q = c.queue_match("casual", 6).result(10)
        assert q["type"] == "queued" and c.state.queued is not None
        assert wait_for(lambda: c.state.room == "KOI-4821")
        assert c.url == servers.url2 and c.state.token == TOKEN and c.state.seat == 1
        assert servers.seen[2][-1]["type"] == "reconnect" and servers.seen[2][-1]["token"] == TOKEN
        msgs = []
        assert wait_for(lambda: any(m.get("moved") == servers.url2 for m in msgs + c.poll() if not msgs.append(m)))
        assert c.state.queued is None
    finally:
        c.close()
        servers.close()


@pytest.mark.parametrize("bad", [
    {"type": "matched", "url": "http://127.0.0.1:1", "room": "KOI-4821", "token": TOKEN},
    {"type": "matched", "url": "ws://user:pw@127.0.0.1:1", "room": "KOI-4821", "token": TOKEN},
    {"type": "matched", "url": "ws://127.0.0.1:1", "room": "../../x", "token": TOKEN},
    {"type": "matched", "url": "ws://127.0.0.1:1", "room": "KOI-4821", "token": "short"},
    {"type": "matched", "url": ["ws://127.0.0.1:1"], "room": "KOI-4821", "token": TOKEN},
])
def test_a_malformed_matched_is_not_followed(bad):
    with pytest.raises(ValueError):
        net_client.check_matched(bad)


def test_matched_to_an_unreachable_process_says_lost(tmp_path):
    import socket
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()                                   # nothing listens there now
    servers = FakeServers(bad_matched={"type": "matched", "url": f"ws://127.0.0.1:{port}", "room": "KOI-4821",
                                       "token": TOKEN})
    c = net_client.ThreadedClient(servers.url1)
    try:
        c.connect().result(10)
        c.identify("Haru", key=identity.new_key()).result(10)
        c.queue_match("casual").result(10)
        got = []
        assert wait_for(lambda: got.extend(c.poll()) or any(m.get("state") == "lost" for m in got))
        assert servers.seen[1][-1] == {"type": "queue", "id": 2, "preset": "casual"}
    finally:
        c.close()
        servers.close()


def test_a_rated_message_is_kept_and_a_bad_one_left_out_without_dropping_the_link():
    st = net_client.ClientState().with_message(joined("KOI-4821"))
    good = {"type": "rated", "re": None, "before": 1500.0, "after": 1523.4, "rd": 290.0, "matches": 1}
    assert st.with_message(good).rated == {"before": 1500.0, "after": 1523.4, "rd": 290.0, "matches": 1}
    for bad in ({"after": "1523"}, {"before": float("nan")}, {"after": 1e9}, {"rd": -1.0}, {"matches": 1.5},
                {"matches": True}, {"before": None}):
        assert st.with_message(dict(good, **bad)).rated is None, bad      # no ValueError: the link stays
    # a new room forgets the last match's change
    assert st.with_message(good).with_message(joined("KOI-4822")).rated is None
