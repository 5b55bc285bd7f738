"""The record of an ended online match: the server sends each seated player the whole
log once the match is over (played out or claimed), the client checks it against what
it was sent, and both players file the same log in their history, flagged online."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import replace

import pytest

from koikoi.engine.events import MatchEnded
from koikoi.net.client import ClientState, Connection, RecordRefused, ServerError, check_record
from koikoi.net.netsession import file_record
from koikoi.net.protocol import record_id, record_log
from koikoi.storage import Storage

from net_helpers import check_frames, close_all, pair, play, run, serving, settle


async def record_of(conn, timeout=10.0):
    st = await conn.wait_until(lambda s: s.record is not None or s.record_problem is not None, timeout)
    assert st.record is not None, st.record_problem
    return st.record


def filed(storage: Storage):
    """(history row, the filed JSON) of the one match in ``storage``'s history."""
    rows = storage.list_finished()
    assert len(rows) == 1, rows
    return rows[0], json.loads(rows[0].path.read_text(encoding="utf-8"))


def test_a_whole_match_is_filed_alike_on_both_sides(data_dir, tmp_path):
    stores = [Storage(tmp_path / "aki"), Storage(tmp_path / "haru")]

    async def scenario():
        async with serving(data_dir) as server:
            a, b, code = await pair(server, "casual", 3)
            # nothing before the end: the record is refused while the match is live
            with pytest.raises(ServerError) as refused:
                await a.fetch_record()
            assert refused.value.code == "not_over"
            await play({0: a, 1: b}, random.Random(11))
            await settle([a, b])
            records = [await record_of(a), await record_of(b)]
            room = server.rooms[code]
            assert room.status == "over" and isinstance(room.events[-1], MatchEnded)
            server_log = record_log(room.events)
            again = await b.fetch_record()            # asked again: the same
            assert again == records[1]
            await close_all(a, b)
            return code, server_log, records
    code, server_log, records = run(scenario())
    for seat, (rec, store) in enumerate(zip(records, stores)):
        assert rec.seat == seat and rec.room == code and rec.reason == "played"
        assert rec.log == server_log and rec.state.is_over
        assert rec.names == ("Aki", "Haru")
        path = file_record(store, rec)
        assert path is not None
        assert file_record(store, rec) == path        # once only
    (row0, data0), (row1, data1) = filed(stores[0]), filed(stores[1])
    assert data0["log"] == data1["log"] == server_log
    assert data0["id"] == data1["id"] == record_id(server_log)
    assert (row0.online_seat, row1.online_seat) == (0, 1)
    assert row0.room == row1.room == code
    assert (row0.opponent, row1.opponent) == ("Haru", "Aki")
    assert row0.scores == row1.scores == tuple(records[0].state.scores)
    assert row0.winner == row1.winner == records[0].state.winner
    assert row0.finished and row0.record is not None
    # the index is only a cache: rebuilt from the files, the same rows
    for root, store, row in zip(("aki", "haru"), stores, (row0, row1)):
        store.history_index.close()
        store.history_index.db_path.unlink()
        fresh = Storage(tmp_path / root)
        again = fresh.list_finished()
        assert [(m.online_seat, m.room, m.opponent, m.scores, m.record) for m in again] == \
            [(row.online_seat, row.room, row.opponent, row.scores, row.record)]
        # and the match opens from the history like any other, replayed by the rules
        assert fresh.load_finished(row.path).state == records[0].state


def test_a_claimed_match_is_filed_as_forfeited_and_fetched_again_on_reconnect(data_dir, tmp_path):
    async def scenario():
        async with serving(data_dir, claim_after=0.3) as server:
            a, b, code = await pair(server, "casual", 3, record=True)
            await play({0: a, 1: b}, random.Random(5), stop_after=9)
            await settle([a, b])
            token = b.state.token
            first_b = b
            await b.close()                            # seat 1 drops ...
            await asyncio.sleep(0.4)
            await a.claim()                            # ... and seat 0 claims the match
            rec_a = await record_of(a)
            assert server.rooms[code].status == "over"
            # seat 1 comes back with its token: the end and the record again
            b = await Connection.open(server.url, record=True)
            await b.reconnect(code, token)
            rec_b = await record_of(b)
            # no frame before the end showed a hidden card; the record came only after it
            room = server.rooms[code]
            for seat, conn in ((0, a), (1, first_b), (1, b)):
                check_frames(conn.frames, room.events, seat, room.state.seed)
            assert not any(json.loads(r)["type"] == "record" for _n, r in first_b.frames)
            # a spectator never gets one, nor a stranger
            s = await Connection.open(server.url)
            with pytest.raises(ServerError) as refused:
                await s.request("record")
            assert refused.value.code == "not_seated"
            log = record_log(server.rooms[code].events)
            await close_all(a, b, s)
            return rec_a, rec_b, log
    rec_a, rec_b, log = run(scenario())
    for rec in (rec_a, rec_b):
        assert rec.reason == "forfeit" and rec.conceded == 1 and rec.winner == 0
        assert rec.log == log and not rec.state.is_over
    stores = [Storage(tmp_path / "a"), Storage(tmp_path / "b")]
    for rec, store in zip((rec_a, rec_b), stores):
        assert file_record(store, rec) is not None
    (r0, d0), (r1, d1) = filed(stores[0]), filed(stores[1])
    assert d0["log"] == d1["log"] == log
    assert r0.conceded == r1.conceded == 1 and r0.winner == r1.winner == 0
    assert not r0.finished and r0.record is None         # not counted as a finished match
    from koikoi.ui.scenes.history import history_cells, result_text
    assert result_text(r0)[0] == "Won (forfeit)" and result_text(r1)[0] == "Forfeited"
    cells = history_cells(r1)
    assert cells["opponent"].text == "Aki" and cells["opponent"].sub.startswith("online")
    assert cells["score"] == f"{r1.scores[1]} – {r1.scores[0]}"       # this player's first


def test_a_record_that_disagrees_is_refused(data_dir):
    """A server that lies about the hidden cards, the end or the id is not believed."""
    async def scenario():
        async with serving(data_dir) as server:
            a, b, _code = await pair(server, "casual", 1, record=True)
            await play({0: a, 1: b}, random.Random(2))
            await settle([a, b])
            await record_of(a)
            raw = next(json.loads(r) for _n, r in a.frames if json.loads(r)["type"] == "record")
            before = replace(a.state, record=None)
            await close_all(a, b)
            return before, raw
    state, good = run(scenario())
    assert check_record(state, good).log == good["log"]

    def changed(fn):
        m = json.loads(json.dumps(good))
        fn(m)
        return m

    def swap_a_hidden_card(m):
        # the other seat's hand as dealt, two of its cards swapped with the stock's: the
        # public events this seat saw are the same, but the record's deal is another one
        deal = next(e for e in m["log"]["events"] if e["type"] == "round_dealt")
        other = deal["hands"][1 - state.seat]
        other[0], deal["stock"][-1] = deal["stock"][-1], other[0]
        m["match_id"] = record_id(m["log"])

    def drop_last_event(m):
        m["log"]["events"].pop()
        m["match_id"] = record_id(m["log"])

    def another_seed(m):
        m["log"]["events"][0]["seed"] += 1
        m["match_id"] = record_id(m["log"])

    lies = {
        "swap_a_hidden_card": swap_a_hidden_card,
        "drop_last_event": drop_last_event,
        "another_seed": another_seed,
        "wrong_id": lambda m: m.update(match_id="0" * 16),
        "wrong_winner": lambda m: m.update(winner=None if m["winner"] is not None else 0),
        "forfeit_claimed": lambda m: m.update(reason="forfeit", conceded=1 - (m["winner"] or 0)),
        "other_seat": lambda m: m.update(seat=1 - m["seat"]),
        "not_a_log": lambda m: m.update(log=[1, 2, 3]),
        "no_names": lambda m: m.update(names=["Aki"]),
    }
    for what, fn in lies.items():
        with pytest.raises(RecordRefused):
            check_record(state, changed(fn))
        # through the client state: refused with a reason, nothing to file, no crash
        st = state.with_message(changed(fn))
        assert st.record is None and st.record_problem, what
    # before the end (no "over" yet) even the true record is refused
    with pytest.raises(RecordRefused):
        check_record(replace(state, over=None), good)
    # a spectator's state takes none
    assert ClientState().with_message(good).record is None


def test_the_games_side_files_through_the_net_session_and_after_a_drop_at_the_end(tmp_path):
    """The path the game takes (``ThreadedClient`` + ``NetSession.file``, as the online table's
    ticker does): both file the same log; a connection that drops at the end gets the
    record again when it takes its seat back, and filing stays once."""
    import time
    from koikoi.net.client import ThreadedClient
    from koikoi.net.netsession import HostedServer, NetSession
    from net_helpers import config
    hosted = HostedServer(tmp_path / "server", config=config()).start()
    clients = []
    try:
        host, guest = ThreadedClient(hosted.url), ThreadedClient(hosted.url, reconnect_for=20)
        clients += [host, guest]
        host.connect().result(10)
        code = host.create_room({"preset": "casual"}, months=1, name="Aki").result(10)["room"]
        guest.connect().result(10)
        guest.join(code, "Haru").result(10)
        sessions = [NetSession(host), NetSession(guest)]
        rng = random.Random(8)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not all(s.record for s in sessions):
            for s in sessions:
                s.poll()
                if s.legal() and not s.pending:
                    s.apply(rng.choice(s.legal()))
            time.sleep(0.002)
        assert all(s.record for s in sessions), [s.record_problem for s in sessions]
        stores = [Storage(tmp_path / "aki"), Storage(tmp_path / "haru")]
        paths = [s.file(st) for s, st in zip(sessions, stores)]
        assert all(paths) and [s.file(st) for s, st in zip(sessions, stores)] == paths
        # the guest's connection dies after the end: it comes back, and the record with it
        first = guest.state.record
        hosted.call(lambda: hosted.server.rooms[code].seats[1].client.abort())
        deadline = time.monotonic() + 30
        seen_reset = False
        while time.monotonic() < deadline:
            sessions[1].poll()
            seen_reset = seen_reset or sessions[1].link == "reconnecting"
            if seen_reset and sessions[1].link == "connected" and guest.state.record is not None:
                break
            time.sleep(0.01)
        assert seen_reset and guest.state.record == first
        assert sessions[1].file(stores[1]) == paths[1]
        server_log = hosted.call(lambda: record_log(hosted.server.rooms[code].events))
    finally:
        for c in clients:
            c.close()
        hosted.stop()
    logs = [filed(st)[1]["log"] for st in stores]
    assert logs[0] == logs[1] == server_log
    assert [filed(st)[0].online_seat for st in stores] == [0, 1]
