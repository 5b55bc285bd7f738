"""The room service without a socket: checked messages in, writes and frames out, the
clock given as ``now`` (koikoi.net.service.RoomService). The gates (turn, stale,
illegal), claims, reconnects, sync by position, and every refusal carrying ``re``."""

from __future__ import annotations

import json
import random
import time

import pytest

from koikoi.engine import legal_actions
from koikoi.net.protocol import action_to_json, encode, parse_client
from koikoi.net.rooms import RoomStore, StoreError, room_rules
from koikoi.net.server import ServerConfig
from koikoi.net.service import RoomService

T0 = time.time()           # the store stamps its rows with the real clock: near it


class FakeConn:
    """What the service needs of a connection; remembers every frame sent (as dicts)."""

    def __init__(self, peer: str = "203.0.113.9"):
        self.peer = self.key = self.label = peer
        self.room = self.seat = self.role = self.name = None
        self.entering = self.closing = False
        self.ladder = None
        self.sent: list = []
        self.charged = 0
        self.closed_with = None

    def send(self, message) -> None:
        if not self.closing:
            self.sent.append(json.loads(message) if type(message) is str else json.loads(encode(message)))

    def error(self, re, code, message) -> None:
        self.send({"type": "error", "re": re, "code": code, "message": message})

    def charge(self, tokens) -> None:
        self.charged += tokens

    def close(self, code=1000, reason="") -> None:
        self.closed_with = (code, reason)
        self.closing = True

    def of(self, kind: str) -> list:
        return [m for m in self.sent if m["type"] == kind]

    def last(self, kind: str) -> dict:
        return self.of(kind)[-1]


class Harness:
    def __init__(self, tmp_path, **config):
        self.config = ServerConfig(durable=False, **config)
        self.store = RoomStore(tmp_path, durable=False)
        self.service = RoomService(self.config, self.store, seeds=lambda: 1234)
        self.now = time.time()      # (the store stamps its rows with the real clock)
        self.ids = 0

    def send(self, conn, kind: str, **fields) -> int:
        """A client frame, checked as the transport does, handled with its writes; its id."""
        self.ids += 1
        msg = parse_client(encode(dict(fields, type=kind, id=self.ids)))
        self.service.run(conn, msg, self.now)
        return self.ids

    def answer(self, conn, rid: int) -> dict:
        (m,) = [m for m in conn.sent if m.get("re") == rid]
        return m

    def pair(self):
        a, b = FakeConn("203.0.113.9"), FakeConn("198.51.100.7")
        ra = self.send(a, "create", name="Aki", rules={"preset": "casual"}, months=1)
        code = self.answer(a, ra)["room"]
        rb = self.send(b, "join", room=code, name="Haru")
        assert self.answer(b, rb)["type"] == "joined"
        return a, b, self.service.rooms[code]


def errors_carry_re(*conns) -> None:
    for c in conns:
        for m in c.of("error"):
            if m["code"] != "replaced":     # told unasked: no request to answer
                assert m["re"] is not None, m


def test_create_join_and_the_seat_to_move_sees_its_actions(tmp_path):
    h = Harness(tmp_path)
    a, b, room = h.pair()
    ja = a.of("joined")[0]
    assert ja["seat"] == 0 and ja["token"] and ja["status"] == "open"
    assert room.status == "playing" and room.id is not None
    assert a.last("room")["status"] == "playing"
    mover = (a, b)[room.state.to_move]
    other = (b, a)[room.state.to_move]
    assert mover.last("events")["legal"] and other.last("events")["legal"] == []
    # nothing hidden went out: the seed is 0 in every frame
    for c in (a, b):
        started = [e for m in c.of("events") for e in m["events"] if e["type"] == "match_started"]
        assert started and all(e["seed"] == 0 for e in started)


def test_the_gates_turn_stale_illegal_and_seating_each_answer_with_re(tmp_path):
    h = Harness(tmp_path)
    lone = FakeConn()
    r = h.send(lone, "act", action={"kind": "stop"})
    assert h.answer(lone, r)["code"] == "not_seated"
    a, b, room = h.pair()
    mover, other = ((a, b) if room.state.to_move == 0 else (b, a))
    legal = legal_actions(room.state)
    n = len(room.events)
    r = h.send(other, "act", action=action_to_json(legal[0]))
    assert h.answer(other, r)["code"] == "not_your_turn"
    r = h.send(mover, "act", action=action_to_json(legal[0]), at=n - 1)
    assert h.answer(mover, r)["code"] == "stale"
    r = h.send(mover, "act", action={"kind": "koikoi"})
    assert h.answer(mover, r)["code"] == "illegal"
    assert len(room.events) == n                          # nothing changed
    r = h.send(mover, "act", action=action_to_json(legal[0]), at=n)
    ans = h.answer(mover, r)
    assert ans["type"] == "events" and ans["start"] == n and ans["total"] == len(room.events) > n
    errors_carry_re(lone, a, b)


def test_an_action_is_written_before_it_is_committed_or_told(tmp_path):
    h = Harness(tmp_path)
    a, b, room = h.pair()
    mover = (a, b)[room.state.to_move]
    before, sent = room.state, len(mover.sent)
    h.ids += 1
    msg = parse_client(encode({"type": "act", "id": h.ids, "action": action_to_json(legal_actions(before)[0])}))
    w = h.service.receive(mover, msg, h.now)
    assert w.op == "append" and room.writing
    assert room.state is before and len(mover.sent) == sent        # not yet: nothing committed, nothing told
    h.service.settle(w, h.now)
    assert room.state is not before and not room.writing
    assert mover.last("events")["re"] == h.ids
    back = {r.code: r for r in RoomStore(tmp_path).load()}[room.code]
    assert back.events == room.events                               # on disk as told


def test_a_write_that_fails_changes_nothing_and_says_so(tmp_path, monkeypatch):
    h = Harness(tmp_path)
    a, b, room = h.pair()
    mover = (a, b)[room.state.to_move]
    before = room.state

    def broken(*args):
        raise StoreError("disk full")
    monkeypatch.setattr(h.store, "append", broken)
    r = h.send(mover, "act", action=action_to_json(legal_actions(before)[0]))
    assert h.answer(mover, r)["code"] == "storage"
    assert room.state is before and not room.writing


def test_claim_after_a_drop_on_the_given_clock(tmp_path):
    h = Harness(tmp_path, claim_after=60.0)
    a, b, room = h.pair()
    r = h.send(a, "claim")
    assert h.answer(a, r)["code"] == "cannot_claim"             # the other is connected
    h.service.closed(b, h.now)
    assert room.seats[1].presence == "dropped" and a.last("presence")["claim_in"] == 60.0
    assert h.service.next_due() == pytest.approx(h.now + 60)
    h.now += 30
    assert h.service.tick(h.now) == [] and a.last("presence")["claim_in"] == 60.0   # not yet
    r = h.send(a, "claim")
    assert h.answer(a, r)["code"] == "cannot_claim"
    h.now += 31
    h.service.tick(h.now)
    assert a.last("presence")["claim_in"] == 0 and h.service.next_due() is None
    r = h.send(a, "claim")
    over = h.answer(a, r)
    assert over["type"] == "over" and over["reason"] == "forfeit" and over["winner"] == 0
    assert room.status == "over" and a.last("record")["seat"] == 0
    assert b.of("record") == []                                  # gone: never told
    r = h.send(a, "record")                                      # asked again: the same, answered
    again = h.answer(a, r)
    assert again["type"] == "record" and again["seat"] == 0
    assert {k: v for k, v in again.items() if k != "re"} == a.of("record")[0]
    errors_carry_re(a, b)


def test_reconnect_takes_the_seat_back_and_replaces_the_old_connection(tmp_path):
    h = Harness(tmp_path)
    a, b, room = h.pair()
    token = b.of("joined")[0]["token"]
    b2 = FakeConn("198.51.100.8")
    r = h.send(b2, "reconnect", room=room.code, token="x" * 32)
    assert h.answer(b2, r)["code"] == "bad_token"
    r = h.send(b2, "reconnect", room=room.code, token=token)
    assert h.answer(b2, r)["seat"] == 1 and "token" not in h.answer(b2, r)
    assert b.last("error")["code"] == "replaced" and b.closed_with[0] == 4001
    assert room.seats[1].client is b2
    assert b2.last("events")["start"] == 0 and b2.last("events")["total"] == len(room.events)
    r = h.send(FakeConn(), "join", room="KOI-0000", name="Eve")
    errors_carry_re(b2)


def test_sync_sends_from_the_position_the_client_has(tmp_path):
    h = Harness(tmp_path)
    a, b, room = h.pair()
    rng = random.Random(3)
    for _ in range(20):
        mover = (a, b)[room.state.to_move]
        h.send(mover, "act", action=action_to_json(rng.choice(legal_actions(room.state))))
        if room.status != "playing":
            break
    total = len(room.events)
    r = h.send(a, "sync", have=total - 2)
    m = h.answer(a, r)
    assert m["start"] == total - 2 and len(m["events"]) == 2 and m["total"] == total
    r = h.send(a, "sync", have=total)
    assert h.answer(a, r)["events"] == []
    r = h.send(a, "sync", have=total + 50)             # more than there are: everything
    m = h.answer(a, r)
    assert m["start"] == 0 and len(m["events"]) == total
    # the whole log as seat 0 sees it equals what seat 0 was sent, event for event
    told = {}
    for f in a.of("events"):
        for i, e in enumerate(f["events"]):
            told[f["start"] + i] = e
    assert [told[i] for i in range(total)] == m["events"]


def test_record_leave_watch_and_create_refusals_carry_re(tmp_path):
    h = Harness(tmp_path, rooms_per_address=1)
    a, b, room = h.pair()
    r = h.send(a, "record")
    assert h.answer(a, r)["code"] == "not_over"
    r = h.send(a, "create", name="Aki", rules={"preset": "casual"})
    assert h.answer(a, r)["code"] == "in_room"
    c = FakeConn("203.0.113.9")                        # the same address: its one room is live
    r = h.send(c, "create", name="Aki", rules={"preset": "casual"})
    assert h.answer(c, r)["code"] == "too_many_rooms"
    d = FakeConn("192.0.2.1")
    r = h.send(d, "create", name="Dai", rules={"preset": "nonesuch"})
    assert h.answer(d, r)["code"] == "bad_rules"
    r = h.send(d, "watch", room=room.code)
    assert h.answer(d, r)["code"] == "no_spectators"
    r = h.send(d, "join", room=room.code, name="Dai")
    assert h.answer(d, r)["code"] == "room_full"
    r = h.send(d, "sync")
    assert h.answer(d, r)["code"] == "not_in_room"
    r = h.send(d, "claim")
    assert h.answer(d, r)["code"] == "not_seated"
    errors_carry_re(a, b, c, d)
    # a host leaving an open room closes it (written), and is answered
    e = FakeConn("192.0.2.2")
    r = h.send(e, "create", name="Emi", rules={"preset": "casual"})
    code = h.answer(e, r)["room"]
    r = h.send(e, "leave")
    assert h.answer(e, r)["type"] == "left" and e.closed_with == (1000, "left")
    assert h.service.rooms[code].status == "closed"
    status = h.store.db.execute("SELECT status FROM rooms WHERE code = ?", (code,)).fetchone()[0]
    assert status == "closed"


def test_wrong_codes_are_limited_per_address_and_in_all(tmp_path):
    h = Harness(tmp_path, guesses_burst=3, guesses_rate=0.01, guesses_total_burst=5,
                guesses_total_rate=0.01)
    guesser = FakeConn("192.0.2.50")
    codes = [h.answer(guesser, h.send(guesser, "join", room=f"KOI-{1000 + i}", name="Eve"))["code"]
             for i in range(5)]
    assert codes[:3] == ["no_room"] * 3 and codes[3:] == ["too_many_tries"] * 2
    others = [FakeConn(f"192.0.2.{60 + i}") for i in range(3)]
    codes = [h.answer(o, h.send(o, "join", room="KOI-4444", name="Eve"))["code"] for o in others]
    assert codes[:2] == ["no_room"] * 2 and codes[2] == "server_busy"
    errors_carry_re(guesser, *others)


def test_an_abandoned_room_expires_on_the_given_clock_and_after_a_restart(tmp_path):
    h = Harness(tmp_path, abandoned_after=600.0)
    host = FakeConn()
    code = h.answer(host, h.send(host, "create", name="Aki", rules={"preset": "casual"}))["room"]
    h.service.closed(host, h.now)
    assert h.service.sweep(h.now + 300) == []
    assert h.service.sweep(h.now + 601) == [code]
    # a second one, left over a restart: expired by the restarted service as well
    h2 = FakeConn("192.0.2.9")
    code2 = h.answer(h2, h.send(h2, "create", name="Aki", rules={"preset": "casual"}))["room"]
    h.store.close()
    again = RoomService(h.config, RoomStore(tmp_path, durable=False))
    again.load(h.now + 10)
    assert code2 in again.rooms and again.rooms[code2].seats[0].presence == "dropped"
    assert again.sweep(h.now + 700) == [code2]


def test_room_rules_are_kept_built_but_never_shared_or_mixed_up():
    """The rules of the last rooms made are kept built: the same choice gives the same
    Rules, each room its own house dict, and a choice differing only by a value's type
    (True against 1) is not taken for another."""
    rules, months, house = room_rules("casual", {"weather": True}, "preset")
    again, months2, house2 = room_rules("casual", {"weather": True}, "preset")
    assert again is rules and months2 == months and house2 == house == {"weather": True}
    house2["weather"] = False                       # one room's dict is its own
    assert room_rules("casual", {"weather": True}, "preset")[2] == {"weather": True}
    with pytest.raises(ValueError):                 # 1 is not a value the knob holds
        room_rules("casual", {"weather": 1}, "preset")
    with pytest.raises(ValueError):                 # a refusal is not kept as a success
        room_rules("casual", {"nope": True}, "preset")
    assert room_rules("casual", {}, "preset")[0] is not rules
