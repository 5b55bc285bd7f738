"""The room store's writer thread: actions are committed before anyone hears of them,
many in one commit under load, a bad write fails alone, and what comes for a room while
its action is being written waits for it, in order."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import threading
import time

import pytest

from koikoi.engine import apply, legal_actions, new_match
from koikoi.net.client import Connection, ServerError
from koikoi.net.protocol import encode
from koikoi.net.rooms import ROW_EVERY, Room, RoomStore, Seat, StoreError, room_rules, room_session

from net_helpers import close_all, pair, play, run, serving, settle


def _count(path, room_id) -> int:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM events WHERE room = ?", (room_id,)).fetchone()[0]
    finally:
        db.close()


def test_every_acknowledged_action_is_on_disk_first(data_dir):
    async def scenario():
        async with serving(data_dir, durable=True) as server:
            a, b, code = await pair(server, "casual", 1)
            room = server.rooms[code]
            seats = {0: a, 1: b}
            rng = random.Random(3)
            n = 0
            for _ in range(400):
                st = await settle([a, b])
                if st.table.is_over:
                    break
                mover = seats[st.to_move]
                await mover.wait_until(lambda s: bool(s.legal))
                answer = await mover.send_action(rng.choice(mover.state.legal))
                # the answer came: every event it carries is in the database already
                assert _count(server.store.path, room.id) >= answer["total"]
                n += 1
            assert n > 5
            writer = server.store.writer
            assert writer.works >= n and writer.commits >= 1
            await close_all(a, b)
    run(scenario())


def test_many_rooms_share_a_commit_and_all_finish(data_dir):
    async def scenario():
        async with serving(data_dir) as server:
            pairs = [await pair(server, "casual", 1) for _ in range(6)]
            await asyncio.gather(*(play({0: a, 1: b}, random.Random(i)) for i, (a, b, _c) in enumerate(pairs)))
            for a, b, code in pairs:
                await settle([a, b])
                room = server.rooms[code]
                assert room.status == "over" and not room.writing and not room.lock.locked()
                assert _count(server.store.path, room.id) == len(room.events)
            w = server.store.writer
            await close_all(*(c for a, b, _ in pairs for c in (a, b)))
            return w.works, w.commits
    works, commits = run(scenario())
    assert works > 50 and commits <= works


def test_group_commit_and_a_bad_write_fails_alone(tmp_path):
    store = RoomStore(tmp_path, durable=False)
    try:
        store.db.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        w = store.writer
        gate = threading.Event()

        def slow(db):                      # holds the writer: what comes meanwhile batches up
            gate.wait(5)
            db.execute("INSERT INTO t VALUES (0)")
            return "slow"

        def put(k):
            return lambda db: db.execute("INSERT INTO t VALUES (?)", (k,)) and k
        first = w.submit(slow)
        time.sleep(0.05)
        futures = [w.submit(put(k)) for k in range(1, 41)]
        bad = w.submit(put(7))             # a duplicate key: fails
        more = [w.submit(put(k)) for k in range(41, 51)]
        before = w.commits
        gate.set()
        assert first.result(10) == "slow"
        assert [f.result(10) for f in futures + more] == list(range(1, 51))
        with pytest.raises(StoreError):
            bad.result(10)
        # the 50 good ones went in with one or two commits, not one each; the bad one alone failed
        assert w.works == 51 and w.commits - before <= 3
        rows = store.db.execute("SELECT count(*) FROM t").fetchone()[0]
        assert rows == 51
    finally:
        store.close()


def test_an_action_sent_twice_in_a_row_waits_for_the_first(data_dir):
    """The second copy arrives while the first is being written: it is handled after it,
    against the new position (refused as not legal, stale or not this seat's turn)."""
    async def scenario():
        async with serving(data_dir) as server:
            a, b, code = await pair(server, "casual", 1)
            seats = {0: a, 1: b}
            st = await settle([a, b])
            mover = seats[st.to_move]
            await mover.wait_until(lambda s: bool(s.legal))
            action = mover.state.legal[0]
            first = asyncio.ensure_future(mover.send_action(action, at=None))
            second = asyncio.ensure_future(mover.send_action(action, at=None))
            answer = await first
            with pytest.raises(ServerError) as refused:
                await second
            assert refused.value.code in ("illegal", "not_your_turn", "stale")
            room = server.rooms[code]
            assert answer["total"] == len(room.events)
            assert legal_actions(room.state) is not None
            await close_all(a, b)
    run(scenario())


def test_creating_and_joining_are_written_before_they_are_answered(data_dir):
    """Create and join go through the writer too: held back while it is busy, answered
    only once committed; a connection that goes before its answer leaves a dropped seat,
    and a host leaving meanwhile waits for the join."""

    async def scenario():
        async with serving(data_dir, claim_after=3600) as server:
            gate = threading.Event()

            def hold():
                server.store.writer.submit(lambda db: gate.wait(5))
            hold()
            a = await Connection.open(server.url)
            creating = asyncio.ensure_future(a.create_room("casual", months=1, name="Aki"))
            await asyncio.sleep(0.2)
            assert not creating.done() and not server.rooms     # not answered, not findable
            gate.set()
            joined = await creating
            code = joined["room"]
            assert server.rooms[code].id is not None and _count(server.store.path, server.rooms[code].id) > 0
            # a guest whose join is being written goes away before the answer
            gate.clear()
            hold()
            b = await Connection.open(server.url)
            await b.send_raw(encode({"type": "join", "id": 1, "room": code, "name": "Haru"}))
            await asyncio.sleep(0.2)
            room = server.rooms[code]
            assert room.writing and room.seats[1].name == "Haru"
            await b.close()
            # ... and the host asks to leave meanwhile: that waits for the join
            await a.send_raw(encode({"type": "leave", "id": 99}))
            await asyncio.sleep(0.1)
            assert room.status == "open" and room.lock.locked()     # waiting for the room's write
            gate.set()
            await a.wait_until(lambda s: s.status == "playing", 10)
            for _ in range(100):
                if room.seats[0].presence == "left":
                    break
                await asyncio.sleep(0.02)
            assert room.status == "playing" and not room.writing and not room.lock.locked()
            assert room.seats[1].presence == "dropped" and room.seats[0].presence == "left"
            # the database says the same: playing, two seats
            db = sqlite3.connect(f"file:{server.store.path}?mode=ro", uri=True)
            try:
                assert db.execute("SELECT status FROM rooms WHERE code = ?", (code,)).fetchone()[0] == "playing"
                assert db.execute("SELECT count(*) FROM seats WHERE room = ?", (room.id,)).fetchone()[0] == 2
            finally:
                db.close()
            await close_all(a)
    run(scenario())


def test_a_bad_write_alone_in_its_commit_leaves_nothing_and_the_next_goes_in(tmp_path):
    """A work with a transaction to itself (no savepoint) that fails half-way is undone
    whole; the writer goes on with the next."""
    store = RoomStore(tmp_path, durable=False)
    try:
        store.db.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        w = store.writer

        def half(db):                      # one row in, then a duplicate key
            db.execute("INSERT INTO t VALUES (100)")
            db.execute("INSERT INTO t VALUES (100)")
        with pytest.raises(StoreError):
            w.submit(half).result(10)
        assert w.submit(lambda db: db.execute("INSERT INTO t VALUES (1)") and 1).result(10) == 1
        assert store.db.execute("SELECT k FROM t").fetchall() == [(1,)]
    finally:
        store.close()


def test_an_action_leaves_the_rooms_row_alone_for_a_minute(tmp_path):
    """An action's append writes its events; the room's row (``updated``, and with it the
    status index) only when the status changes or ROW_EVERY has passed since the row was
    last written: a third of the pages of a commit fewer. A restart reads the room as at
    most that much older than its last action; its log is whole."""
    store = RoomStore(tmp_path, durable=False)
    try:
        rules, months, house = room_rules("casual", {}, 1)
        room = Room("KOI-1234", "casual", house, rules, months, False,
                    room_session(new_match(rules, seed=5, months=months)), time.time())
        room.seats[0] = Seat("A", "0" * 64, time.time())
        store.create(room)
        room.seats[1] = Seat("B", "1" * 64, time.time())
        store.add_seat(room, 1, "playing")
        room.status = "playing"

        def row():
            return store.db.execute("SELECT status, updated FROM rooms WHERE id = ?", (room.id,)).fetchone()

        def act(status="playing", result=None):
            state = room.state
            move = apply(state, legal_actions(state)[0])
            start = len(state.events)
            store.append(room, start, move.events[start:], status, result)
            room.session.state = move
        seated = row()
        time.sleep(0.01)
        act()
        act()
        assert row() == seated                  # two actions, the row untouched
        room.row_at -= ROW_EVERY                # a minute on: the next action writes it
        act()
        assert row()[1] > seated[1]
        later = row()
        act(status="over", result={"reason": "played"})     # a status change: at once
        assert row()[0] == "over" and row()[1] > later[1]
        n = store.db.execute("SELECT count(*) FROM events WHERE room = ?", (room.id,)).fetchone()[0]
        assert n == len(room.events)
    finally:
        store.close()
