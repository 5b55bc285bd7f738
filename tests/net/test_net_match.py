"""Whole matches through the real server and clients on 127.0.0.1: equal tables and
states on all sides, refusals that change nothing, reconnects, claims, spectators."""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest

from koikoi.engine import PickOyagime, Play, Stop, public_event, replay, view
from koikoi.engine.table import fold_all
from koikoi.net.client import Connection, ConnectionLost, ServerError
from koikoi.net.rooms import RoomStore

from net_helpers import close_all, pair, play, run, serving, settle


def db_events(data_dir, code):
    store = RoomStore(data_dir)
    try:
        rows = store.db.execute(
            "SELECT e.event FROM events e JOIN rooms r ON r.id = e.room WHERE r.code = ? ORDER BY e.idx",
            (code,)).fetchall()
        result = store.db.execute("SELECT status, result FROM rooms WHERE code = ?", (code,)).fetchone()
    finally:
        store.close()
    return [json.loads(t) for (t,) in rows], result


def assert_tables_match(server, code, *players):
    room = server.rooms[code]
    for p in players:
        seat = p.state.seat
        assert p.state.table == fold_all([public_event(e, seat) for e in room.events], seat)
        assert p.state.total == len(room.events)


@pytest.mark.parametrize("preset, months, house", [
    ("casual", 3, {}), ("nintendo", 3, {}), ("battle-hanafuda", 2, {}),
    ("koikoi-japan", 3, {"lucky_hands": "on", "field_four_of_month": "dealer_sweeps"}),
    ("kk-add-10", 2, {"must_play_match": True, "weather": True}),
])
def test_two_clients_play_a_whole_match(data_dir, preset, months, house):
    async def scenario():
        async with serving(data_dir) as server:
            a, b, code = await pair(server, preset, months, house=house)
            n = await play({0: a, 1: b}, random.Random(preset))
            await settle([a, b])
            await a.wait_until(lambda s: s.over is not None)
            await b.wait_until(lambda s: s.over is not None)
            room = server.rooms[code]
            assert room.state.is_over and room.status == "over"
            assert_tables_match(server, code, a, b)
            assert a.state.over == b.state.over
            assert a.state.over["winner"] == room.state.winner and a.state.over["reason"] == "played"
            assert a.state.table.scores == b.state.table.scores == room.state.scores
            assert a.state.names == b.state.names == ("Aki", "Haru")
            # the log on disk is the server's, and replays to its state
            stored, (status, result) = db_events(data_dir, code)
            assert len(stored) == len(room.events) and status == "over"
            assert json.loads(result)["winner"] == room.state.winner
            assert replay(room.events) == room.state
            await close_all(a, b)
            return n
    assert run(scenario()) > 8


def test_refusals_change_nothing(data_dir):
    async def scenario():
        async with serving(data_dir) as server:
            a = await Connection.open(server.url)
            joined = await a.create_room({"preset": "casual"}, months=1, name="Aki", spectators=True)
            code = joined["room"]
            await a.wait_until(lambda s: s.total > 0)
            with pytest.raises(ServerError) as exc:      # nobody to play with yet
                await a.send_action(PickOyagime(0))
            assert exc.value.code == "not_started"
            b = await Connection.open(server.url)
            await b.join(code, "Haru")
            await play({0: a, 1: b}, random.Random(1), stop_after=6)
            st = await settle([a, b])
            room = server.rooms[code]
            before = room.state
            stored_before = len(db_events(data_dir, code)[0])
            mover, other = (a, b) if st.to_move == 0 else (b, a)
            await mover.wait_until(lambda s: bool(s.legal))
            good = mover.state.legal[0]

            async def refused(conn, code_, **kw):
                with pytest.raises(ServerError) as exc:
                    await conn.send_action(**kw)
                assert exc.value.code == code_, exc.value
                assert exc.value.message
                assert room.state is before and len(db_events(data_dir, code)[0]) == stored_before
                return exc.value.message

            await refused(other, "not_your_turn", action=good)
            await refused(mover, "stale", action=good, at=len(before.events) - 1)
            field_card = next(iter(mover.state.table.field), None)
            if field_card is not None:
                msg = await refused(mover, "illegal", action=Play(field_card))
                # (the deal is the server's: the mover may be choosing a match, not playing)
                assert "hand" in msg or "legal" in msg or "ChooseMatch" in msg, msg
            other_card = next(c for c in ("01-B", "02-A", "03-B", "08-B", "11-B", "12-B")
                              if c not in mover.state.table.hand and c not in mover.state.table.field)
            msg = await refused(mover, "illegal", action=Play(other_card))
            if other_card in {c.id for c in view(before, mover.state.seat).unseen}:
                assert other_card not in msg        # never says where a hidden card is
            if mover.state.table.phase == "play":
                await refused(mover, "illegal", action=Stop())
            spectator = await Connection.open(server.url)
            await spectator.watch(code)
            await refused(spectator, "not_seated", action=good)
            # a wrong token, a wrong room
            c = await Connection.open(server.url)
            for kind, kw, expect in [("reconnect", {"room": code, "token": "x" * 32}, "bad_token"),
                                     ("reconnect", {"room": "KOI-0000" if code != "KOI-0000" else "KOI-0001",
                                                    "token": "x" * 32}, "no_room"),
                                     ("join", {"room": code, "name": "Third"}, "room_full")]:
                with pytest.raises(ServerError) as exc:
                    await c.request(kind, **kw)
                assert exc.value.code == expect
            assert room.seats[0].client is not None and room.seats[1].client is not None
            assert room.state is before
            # and the right move still works
            await mover.send_action(good)
            assert len(room.state.events) > len(before.events)
            await close_all(a, b, c, spectator)
    run(scenario())


def test_reconnect_restores_the_exact_position(data_dir):
    async def scenario():
        async with serving(data_dir) as server:
            a, b, code = await pair(server, "nintendo", 3)
            rng = random.Random(7)
            await play({0: a, 1: b}, rng, stop_after=25)
            await settle([a, b])
            table, events, token = b.state.table, b.state.events, b.state.token
            await b.close()
            presence = await a.wait_until(lambda s: s.presence[1] and s.presence[1]["state"] == "dropped")
            name, gone, claim_in = presence.waiting_for()
            assert name == "Haru" and gone >= 0 and 0 < claim_in <= 120
            b2 = await Connection.open(server.url)
            joined = await b2.reconnect(code, token)
            assert joined["seat"] == 1 and "token" not in joined
            await b2.wait_until(lambda s: s.total == len(server.rooms[code].events))
            assert b2.state.table == table and b2.state.events == events
            await a.wait_until(lambda s: s.presence[1]["state"] == "connected")
            assert a.state.waiting_for() is None
            await play({0: a, 1: b2}, rng)
            await settle([a, b2])
            assert_tables_match(server, code, a, b2)
            # a second connection with the same token takes the seat over
            b3 = await Connection.open(server.url)
            await b3.reconnect(code, token)
            await b2.wait_until(lambda s: s.error is not None and s.error["code"] == "replaced")
            await asyncio.wait_for(b2._reader, 5)
            assert b2.closed["code"] == 4001
            await b3.wait_until(lambda s: s.over is not None)
            assert b3.state.table == b2.state.table
            await close_all(a, b2, b3)
    run(scenario())


def test_claim_after_the_timeout_or_keep_waiting(data_dir):
    async def scenario():
        async with serving(data_dir, claim_after=0.4) as server:
            a, b, code = await pair(server, "casual", 3)
            rng = random.Random(3)
            await play({0: a, 1: b}, rng, stop_after=5)
            token = b.state.token
            # keep waiting: B comes back before the claim
            await b.close()
            await a.wait_until(lambda s: s.presence[1]["state"] == "dropped")
            with pytest.raises(ServerError) as exc:
                await a.claim()
            assert exc.value.code == "cannot_claim" and "in" in exc.value.message
            b = await Connection.open(server.url)
            await b.reconnect(code, token)
            await a.wait_until(lambda s: s.presence[1]["state"] == "connected")
            await asyncio.sleep(0.5)
            with pytest.raises(ServerError) as exc:
                await a.claim()
            assert exc.value.code == "cannot_claim" and "connected" in exc.value.message
            # then B drops for good: the server tells A when it may claim
            await play({0: a, 1: b}, rng, stop_after=3)
            await b.close()
            t0 = time.monotonic()
            await a.wait_until(lambda s: s.presence[1]["state"] == "dropped" and s.presence[1]["claim_in"] == 0, 5)
            assert time.monotonic() - t0 >= 0.3
            with pytest.raises(ConnectionLost):
                await b.claim()         # b's connection is closed
            await a.claim()
            assert a.state.over == {"winner": 0, "reason": "forfeit", "scores": list(server.rooms[code].state.scores),
                                    "conceded": 1}
            room = server.rooms[code]
            assert room.status == "over" and room.result["reason"] == "forfeit"
            _, (status, result) = db_events(data_dir, code)
            assert status == "over" and json.loads(result)["conceded"] == 1
            # B comes back to a finished match: told so, cannot act
            b = await Connection.open(server.url)
            await b.reconnect(code, token)
            await b.wait_until(lambda s: s.over is not None)
            assert b.state.over["winner"] == 0 and b.state.legal == ()
            with pytest.raises(ServerError) as exc:
                await b.send_action(Stop())
            assert exc.value.code == "over"
            await close_all(a, b)
    run(scenario())


def test_leaving(data_dir):
    async def scenario():
        async with serving(data_dir, claim_after=3600) as server:
            a, b, code = await pair(server, "casual", 1)
            await b.leave()
            await asyncio.wait_for(b._reader, 5)
            assert b.closed["code"] == 1000
            await a.wait_until(lambda s: s.presence[1]["state"] == "left")
            assert a.state.presence[1]["claim_in"] == 0
            await a.claim()                     # a player who left may be claimed at once
            assert a.state.over["winner"] == 0
            # a host who leaves before anyone joins closes the room
            h = await Connection.open(server.url)
            code2 = (await h.create_room("casual", months=1, name="Host"))["room"]
            await h.leave()
            g = await Connection.open(server.url)
            with pytest.raises(ServerError) as exc:
                await g.join(code2, "Guest")
            assert exc.value.code == "room_full" and "closed" in exc.value.message
            await close_all(a, g, h)
    run(scenario())


def test_spectators_see_no_hand(data_dir):
    async def scenario():
        async with serving(data_dir, max_watchers=1) as server:
            a, b, code = await pair(server, "nintendo", 3, spectators=True)
            s = await Connection.open(server.url, record=True)
            joined = await s.watch(code, "Fan")
            assert joined["role"] == "spectator" and joined["seat"] is None and "token" not in joined
            late = await Connection.open(server.url)
            with pytest.raises(ServerError) as exc:
                await late.watch(code)
            assert exc.value.code == "room_full"
            await play({0: a, 1: b}, random.Random(11), stop_after=30)
            await settle([a, b, s])
            room = server.rooms[code]
            t = s.state.table
            full = fold_all([public_event(e, 0) for e in room.events], 0)
            assert all(c is None for c in t.hand) and len(t.hand) == len(full.hand)
            assert t._replace(hand=full.hand) == full
            assert s.state.legal == ()
            for _, raw in s.frames:
                m = json.loads(raw)
                for e in m.get("events", ()):
                    if e["type"] == "round_dealt":
                        assert all(c is None for h in e["hands"] for c in h)
            with pytest.raises(ServerError) as exc:
                await s.claim()
            assert exc.value.code == "not_seated"
            # a room without spectators refuses them
            c = await Connection.open(server.url)
            code2 = (await c.create_room("casual", months=1, name="Solo"))["room"]
            with pytest.raises(ServerError) as exc:
                await late.watch(code2)
            assert exc.value.code == "no_spectators"
            await close_all(a, b, s, late, c)
    run(scenario())


def test_create_refuses_bad_rules_and_a_full_server(data_dir):
    async def scenario():
        async with serving(data_dir, max_rooms=2) as server:
            c = await Connection.open(server.url)
            for rules, months in [({"preset": "nope"}, 3), ({"preset": "casual", "house": {"goko": 1}}, 3),
                                  ({"preset": "casual"}, 7), ({"preset": "casual", "house": {"months": None}}, None)]:
                with pytest.raises(ServerError) as exc:
                    await c.create_room(rules, months=months, name="A")
                assert exc.value.code == "bad_rules"
            j = await c.create_room({"preset": "nintendo", "house": {"months": None, "target_points": 50}},
                                    months=None, name="A")
            assert j["months"] is None and j["rules"]["target_points"] == 50 and j["house"]["months"] is None
            with pytest.raises(ServerError) as exc:
                await c.create_room("casual", name="A")
            assert exc.value.code == "in_room"
            d = await Connection.open(server.url)
            await d.create_room("casual", name="B")
            e = await Connection.open(server.url)
            with pytest.raises(ServerError) as exc:
                await e.create_room("casual", name="C")
            assert exc.value.code == "server_full"
            await close_all(c, d, e)
    run(scenario())


def test_names_are_cleaned_and_shown_to_the_other_side(data_dir):
    async def scenario():
        async with serving(data_dir) as server:
            a = await Connection.open(server.url)
            code = (await a.create_room("casual", months=1, name="  Aki Tanaka  "))["room"]
            b = await Connection.open(server.url)
            await b.join(code, "ハル")
            await a.wait_until(lambda s: s.names == ("Aki Tanaka", "ハル"))
            assert b.state.names == ("Aki Tanaka", "ハル") and b.state.opponent_name == "Aki Tanaka"
            await close_all(a, b)
    run(scenario())


def test_connection_lost_fails_pending_requests(data_dir):
    async def scenario():
        async with serving(data_dir) as server:
            a = await Connection.open(server.url)
            await a.ws.close()
            with pytest.raises((ConnectionLost, Exception)):
                await a.ping(timeout=2)
            assert a.closed is not None
            assert server.clients == set() or len(server.clients) <= 1
    run(scenario())


def test_sweep_unloads_finished_rooms_and_expires_abandoned_ones(data_dir):
    async def scenario():
        async with serving(data_dir, keep_finished=10, room_ttl=100) as server:
            a, b, code = await pair(server, "casual", 1)
            await play({0: a, 1: b}, random.Random(2))
            c = await Connection.open(server.url)
            lone = (await c.create_room("casual", name="Lone"))["room"]
            now = time.time()
            assert server.sweep(now + 50) == []          # everyone still connected
            await close_all(a, b, c)
            await asyncio.sleep(0.05)
            assert server.sweep(now + 1) == []
            assert server.sweep(now + 50) == [code]      # finished, nobody there for a while
            assert server.sweep(now + 200) == [lone]     # open, nobody came back for room_ttl
            _, (status, _) = db_events(data_dir, lone)
            assert status == "expired"
            g = await Connection.open(server.url)
            with pytest.raises(ServerError) as exc:
                await g.join(lone, "Late")
            assert exc.value.code == "no_room"
            await g.close()
    run(scenario())
