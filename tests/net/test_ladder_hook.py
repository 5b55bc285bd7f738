"""The server's side of the quick-match ladder (brief LADDER_HOOK): a fake ladder object
stands in for koikoi.ladder.service. Its pairs get rated rooms and their ``joined``; a
player of another process (a None conn) has its seat held; ``finished`` is called once a
rated room; ``gone`` when a connection closes; its frame types are refused as unknown
without a ladder; ``koikoi serve`` builds it (``--db``, ``--public-url``)."""

from __future__ import annotations

import asyncio
import json
import random
import sys
import types
from dataclasses import dataclass

from koikoi.engine import legal_actions
from koikoi.net.protocol import ProtocolError, action_to_json, encode, parse_client, record_id, record_log
from koikoi.net.rooms import RoomStore
from koikoi.net.server import ServerConfig
from koikoi.net.service import RoomService

from koikoi.net.server import MatchServer

from net_helpers import config, run, serving
from test_room_service import T0, FakeConn


@dataclass
class Pair:
    conns: tuple
    names: tuple
    preset: str = "casual"
    months: int = 1
    hashes: tuple = ("h" * 64, "k" * 64)


class Ladder:
    """A fake ladder: pairs whatever two conns queued (or the pairs a test puts in)."""
    TYPES = frozenset({"identify", "queue"})

    def __init__(self):
        self.pairs: list = []
        self.waiting: list = []
        self.placed_: list = []
        self.unpaired_: list = []
        self.finished_: list = []
        self.gone_: list = []
        self.closed = False

    def parse(self, obj):
        if obj.get("type") == "queue" and type(obj.get("preset", "casual")) is not str:
            raise ProtocolError("bad_field", "queue.preset must be a preset name")
        return dict(obj)

    def handle(self, conn, msg, rid, now):
        conn.ladder = msg.get("name", "player")
        if msg["type"] == "queue":
            self.waiting.append(conn)
            conn.send({"type": "queued", "re": rid, "preset": "casual", "months": 1, "since": now})

    def tick(self, now):
        out, self.pairs = self.pairs, []
        if len(self.waiting) >= 2:
            a, b = self.waiting[:2]
            del self.waiting[:2]
            out.append(Pair((a, b), ("Aki", "Haru")))
        return out

    def placed(self, pair, code, tokens):
        self.placed_.append((pair, code, tokens))

    def unpaired(self, pair, code):
        self.unpaired_.append((pair, code))

    def finished(self, code, match_id, winner, claimed, hashes, **rules):
        self.finished_.append((code, match_id, winner, claimed, hashes))

    def gone(self, conn):
        self.gone_.append(conn)

    def close(self):
        self.closed = True


def service(tmp_path, ladder, **config):
    cfg = ServerConfig(durable=False, **config)
    return RoomService(cfg, RoomStore(tmp_path, durable=False), seeds=lambda: 99, ladder=ladder)


def play_out(svc, room, conns, now, limit=3000):
    rng = random.Random(5)
    for i in range(limit):
        if room.status != "playing":
            return
        seat = room.state.to_move
        msg = parse_client(encode({"type": "act", "id": 10_000 + i,
                                   "action": action_to_json(rng.choice(legal_actions(room.state)))}))
        svc.run(conns[seat], msg, now)
    raise AssertionError("the match did not end")


def seated_pair(tmp_path, ladder):
    """A service whose ladder paired two local players into a rated room: (svc, a, b,
    the pair, its tokens, the room)."""
    svc = service(tmp_path, ladder)
    a, b = FakeConn("203.0.113.1"), FakeConn("203.0.113.2")
    ladder.pairs.append(Pair((a, b), ("Aki", "Haru")))
    for w in svc.tick(T0):
        svc.settle(w, T0)
    ((pair, code, tokens),) = ladder.placed_
    return svc, a, b, pair, tokens, svc.rooms[code]


def test_a_pair_gets_a_rated_room_and_its_result_once(tmp_path):
    ladder = Ladder()
    svc, a, b, pair, tokens, room = seated_pair(tmp_path, ladder)
    code = room.code
    assert room.rated and room.ladder_hashes == pair.hashes and room.status == "playing"
    ja, jb = a.of("joined")[0], b.of("joined")[0]
    assert (ja["seat"], jb["seat"]) == (0, 1) and (ja["token"], jb["token"]) == tokens
    assert ja["names"] == ["Aki", "Haru"] and ja["status"] == "playing"
    assert room.seats[0].token_ok(tokens[0]) and room.seats[1].token_ok(tokens[1])
    # the joined frame comes before anything else of the room
    assert [m["type"] for m in a.sent[:2]] == ["joined", "presence"]
    assert a.last("events")["total"] == len(room.events)
    play_out(svc, room, (a, b), T0)
    assert room.status == "over"
    ((fcode, match_id, winner, claimed, hashes),) = ladder.finished_
    assert (fcode, claimed, hashes) == (code, False, pair.hashes)
    assert match_id == record_id(record_log(room.events)) == a.last("record")["match_id"]
    assert winner == room.result["winner"]
    svc.sweep(T0 + 10)
    assert len(ladder.finished_) == 1
    # a restart keeps the room rated, with its hashes
    back = {r.code: r for r in RoomStore(tmp_path).load(now=T0)}[code]
    assert back.rated and back.ladder_hashes == pair.hashes


class TellingLadder(Ladder):
    """A ladder that says how it moved the ratings, as LadderService does."""

    def finished(self, code, match_id, winner, claimed, hashes, **rules):
        super().finished(code, match_id, winner, claimed, hashes, **rules)
        return {hashes[0]: {"before": 1500.0, "after": 1523.44, "rd": 290.0, "matches": 1},
                hashes[1]: {"before": 1510.0, "after": 1487.04, "rd": 291.0, "matches": 3}}


def test_each_player_is_told_its_own_rating_change_once(tmp_path):
    svc, a, b, _pair, _tokens, room = seated_pair(tmp_path, TellingLadder())
    assert not a.of("rated")                   # nothing before the end
    play_out(svc, room, (a, b), T0)
    assert a.of("rated") == [{"type": "rated", "re": None, "before": 1500.0, "after": 1523.4, "rd": 290.0,
                              "matches": 1}]
    assert b.of("rated") == [{"type": "rated", "re": None, "before": 1510.0, "after": 1487.0, "rd": 291.0,
                              "matches": 3}]
    assert [m["type"] for m in a.sent[-2:]] == ["record", "rated"]    # after the whole match
    # a ladder that says nothing (a repeat, or one of an older shape) sends none
    svc.ladder = Ladder()
    svc.refile_ended()
    assert len(a.of("rated")) == 1


def test_a_remote_player_is_held_and_claimed_against(tmp_path):
    ladder = Ladder()
    svc = service(tmp_path, ladder, claim_after=30.0)
    a = FakeConn("203.0.113.1")
    ladder.pairs.append(Pair((a, None), ("Aki", "Remote")))
    (w,) = svc.tick(T0)
    svc.settle(w, T0)
    ((_pair, code, tokens),) = ladder.placed_
    room = svc.rooms[code]
    assert room.seats[1].name == "Remote" and room.seats[1].client is None
    assert room.seats[1].presence == "dropped" and room.seats[1].token_ok(tokens[1])
    # the remote player comes with its token, as a reconnect
    b = FakeConn("198.51.100.5")
    svc.run(b, parse_client(encode({"type": "reconnect", "id": 1, "room": code, "token": tokens[1]})), T0 + 1)
    assert b.last("joined")["seat"] == 1 and room.seats[1].presence == "connected"
    svc.closed(b, T0 + 2)
    assert ladder.gone_ == [b]
    svc.tick(T0 + 40)
    svc.run(a, parse_client(encode({"type": "claim", "id": 2})), T0 + 40)
    assert a.last("over")["reason"] == "forfeit"
    ((fcode, _mid, winner, claimed, _h),) = ladder.finished_
    assert (fcode, winner, claimed) == (code, 0, True)


def test_a_pair_without_room_is_unpaired(tmp_path):
    ladder = Ladder()
    svc = service(tmp_path, ladder, max_rooms=1)
    host = FakeConn("192.0.2.1")
    svc.run(host, parse_client(encode({"type": "create", "id": 1, "name": "Hana",
                                       "rules": {"preset": "casual"}})), T0)
    a, b = FakeConn("203.0.113.1"), FakeConn("203.0.113.2")
    busy = FakeConn("203.0.113.3")
    busy.room = svc.rooms[host.last("joined")["room"]]
    ladder.pairs += [Pair((a, b), ("Aki", "Haru")), Pair((busy, a), ("Busy", "Aki"))]
    assert svc.tick(T0) == []
    assert [code for _p, code in ladder.unpaired_] == ["server_full", "in_room"]
    assert a.sent == [] and b.sent == []


def test_ladder_frames_over_the_wire_and_refused_without_a_ladder(data_dir):
    from websockets.asyncio.client import connect

    async def first(ws, want):
        """The first frame ``want(frame)`` accepts."""
        for _ in range(50):
            m = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if want(m):
                return m
        raise AssertionError("no such frame")

    def answer(ws, rid):
        return first(ws, lambda m: m.get("re") == rid)

    async def scenario():
        async with serving(data_dir) as server:          # no ladder: an unknown type
            ws = await connect(server.url, compression=None, proxy=None)
            await ws.send(encode({"type": "queue", "id": 7}))
            m = await answer(ws, 7)
            assert (m["type"], m["code"], m["re"]) == ("error", "bad_type", 7)
            await ws.close()
        ladder = Ladder()
        server = MatchServer(data_dir, host="127.0.0.1", port=0, config=config(join_timeout=0.5),
                             ladder=ladder)
        await server.start()
        try:
            a = await connect(server.url, compression=None, proxy=None)
            b = await connect(server.url, compression=None, proxy=None)
            await a.send(encode({"type": "queue", "id": 1, "preset": 5}))
            m = await answer(a, 1)
            assert (m["type"], m["code"], m["re"]) == ("error", "bad_field", 1)
            for ws in (a, b):
                await ws.send(encode({"type": "queue", "id": 2}))
                assert (await answer(ws, 2))["type"] == "queued"
            await asyncio.sleep(0.8)         # queued past the join timeout: still connected
            for t in server.tick():
                await t
            ja = await first(a, lambda m: m["type"] == "joined")
            jb = await first(b, lambda m: m["type"] == "joined")
            assert ja["type"] == jb["type"] == "joined" and {ja["seat"], jb["seat"]} == {0, 1}
            code = ja["room"]
            assert server.rooms[code].rated and ladder.placed_[0][1] == code
            await b.close()
            for _ in range(100):
                if len(ladder.gone_) == 1:
                    break
                await asyncio.sleep(0.02)
            assert len(ladder.gone_) == 1 and server.rooms[code].seats[jb["seat"]].presence == "dropped"
            await a.close()
        finally:
            await server.stop()
    run(scenario())


def test_koikoi_serve_builds_the_ladder_from_db_and_public_url(tmp_path, monkeypatch):
    """``--db`` and ``--public-url`` reach ``koikoi.ladder.service.open_service`` (a fake
    module here), imported only once the server starts; the ladder is closed at the end."""
    from koikoi.net import cli
    made = {}

    def open_service(url, folder, *, public_url=None):
        made.update(url=url, folder=folder, public_url=public_url, ladder=Ladder())
        return made["ladder"]
    fake = types.ModuleType("koikoi.ladder.service")
    fake.open_service = open_service
    monkeypatch.setitem(sys.modules, "koikoi.ladder.service", fake)
    args = cli.parse_args(["--port", "0", "--data", str(tmp_path), "--db", "postgresql://db.example/koikoi",
                           "--public-url", "wss://play.example.org"])

    async def scenario():
        from websockets.asyncio.client import connect
        stop = asyncio.Event()
        started = asyncio.get_running_loop().create_future()
        task = asyncio.ensure_future(cli._serve(args, stop=stop, started=started))
        server = await asyncio.wait_for(started, 20)
        ws = await connect(server.url, compression=None, proxy=None)
        await ws.send(encode({"type": "queue", "id": 3}))
        for _ in range(5):
            m = json.loads(await asyncio.wait_for(ws.recv(), 10))
            if m.get("re") == 3:
                break
        await ws.close()
        stop.set()
        return m, await asyncio.wait_for(task, 30)
    m, code = run(scenario())
    assert m["type"] == "queued" and code == 0
    assert made["url"] == "postgresql://db.example/koikoi" and made["folder"] == tmp_path
    assert made["public_url"] == "wss://play.example.org" and made["ladder"].closed


def test_a_rooms_database_of_schema_1_is_upgraded_and_its_rooms_resume(tmp_path):
    """A server upgraded over a rooms.sqlite3 written before rated rooms (schema 1, no
    ``rated`` / ``ladder`` columns) adds them and resumes its rooms, unrated."""
    import sqlite3
    svc = service(tmp_path, None)
    a, b = FakeConn("203.0.113.1"), FakeConn("203.0.113.2")
    svc.run(a, parse_client(encode({"type": "create", "id": 1, "name": "Aki", "rules": {"preset": "casual"},
                                    "months": 1})), T0)
    code = a.last("joined")["room"]
    svc.run(b, parse_client(encode({"type": "join", "id": 2, "room": code, "name": "Haru"})), T0)
    events = svc.rooms[code].events
    svc.store.close()
    db = sqlite3.connect(tmp_path / "rooms.sqlite3", isolation_level=None)
    db.executescript("ALTER TABLE rooms DROP COLUMN rated; ALTER TABLE rooms DROP COLUMN ladder;"
                     "PRAGMA user_version = 1;")
    db.close()
    store = RoomStore(tmp_path, durable=False)
    assert store.db.execute("PRAGMA user_version").fetchone()[0] == 2
    (back,) = store.load(now=T0)
    assert back.code == code and back.events == events and not back.rated and back.ladder_hashes is None
