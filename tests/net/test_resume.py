"""An online match survives a closed or killed program: the seats file
(``koikoi.net.seats``) keeps each seat's token, a guest started again takes its seat
back at the exact position, a host started again runs its server on the same port and
folder (the room comes back from SQLite) and both play on to the end. Everything on
127.0.0.1; every wait bounded."""

from __future__ import annotations

import json
import os
import random
import stat
import sys
import time

import pytest

from koikoi.engine import public_event, replay
from koikoi.engine.table import fold_all
from koikoi.net.client import ServerError, ThreadedClient
from koikoi.net.netsession import HostedServer
from koikoi.net.seats import MAX_SEATS, SEATS_NAME, Seat, SeatStore, normal_address

from net_helpers import config

TOKEN = "abcdefghijklmnopqrstuvwxyz012345"


def seat(room="KOI-1234", address="127.0.0.1:8765", n=1, token=TOKEN, **kw) -> Seat:
    return Seat(room=room, address=address, seat=n, token=token, name="Haru", **kw)


# ---------------------------------------------------------------- the seats file

def test_seats_round_trip_find_and_remove(tmp_path):
    store = SeatStore(tmp_path)
    assert store.entries() == [] and store.find("127.0.0.1:8765", "KOI-1234") is None
    assert store.save(seat(opponent="Aki", rules="casual"))
    assert store.save(seat(room="KOI-5678", address="127.0.0.1:9000", n=0, hosted=True, port=9000,
                           opponent="Haru"))
    again = SeatStore(tmp_path)                     # another run of the game
    got = again.find("ws://127.0.0.1:8765", "KOI-1234")
    assert got is not None and (got.token, got.seat, got.opponent, got.rules) == (TOKEN, 1, "Aki", "casual")
    assert got.updated > 0
    # a hosted seat is never taken for a join (two windows sharing the folder)
    assert again.find("127.0.0.1:9000", "KOI-5678") is None
    assert [s.room for s in again.hosted()] == ["KOI-5678"]
    # the host moved the match to another port: the same host's seat still found
    assert again.find("127.0.0.1:40001", "KOI-1234").token == TOKEN
    assert again.find("192.168.1.9:8765", "KOI-1234") is None
    # saving the same seat again replaces it
    assert again.save(seat(opponent="Aki2"))
    assert len(again.entries()) == 2 and again.find("127.0.0.1:8765", "KOI-1234").opponent == "Aki2"
    assert again.remove("KOI-1234", "127.0.0.1:8765", 1)
    assert not again.remove("KOI-1234")
    assert [s.room for s in again.entries()] == ["KOI-5678"]
    assert normal_address("ws://LocalHost:80") == "localhost:80" and normal_address("nope") == ""


@pytest.mark.skipif(sys.platform.startswith("win"), reason="no file modes")
def test_the_seats_file_is_private(tmp_path):
    store = SeatStore(tmp_path)
    store.save(seat())
    assert stat.S_IMODE(os.stat(tmp_path / SEATS_NAME).st_mode) == 0o600
    os.chmod(tmp_path / SEATS_NAME, 0o644)
    store.save(seat(room="KOI-2222"))
    assert stat.S_IMODE(os.stat(tmp_path / SEATS_NAME).st_mode) == 0o600


def test_a_corrupt_seats_file_is_set_aside_never_deleted(tmp_path):
    path = tmp_path / SEATS_NAME
    path.write_text("{not json", encoding="utf-8")
    store = SeatStore(tmp_path)
    assert store.entries() == [] and "set aside" in store.problem
    aside = [p for p in tmp_path.iterdir() if p.name.startswith(SEATS_NAME + ".corrupt-")]
    assert len(aside) == 1 and aside[0].read_text(encoding="utf-8") == "{not json"
    # the wrong shape is set aside too; a bad entry among good ones is only skipped
    path.write_text(json.dumps([1, 2]), encoding="utf-8")
    assert store.entries() == []
    assert len([p for p in tmp_path.iterdir() if ".corrupt-" in p.name]) == 2
    good = {"room": "KOI-1234", "address": "127.0.0.1:8765", "seat": 1, "token": TOKEN, "name": "Haru"}
    bad = [dict(good, seat=2), dict(good, token="short"), dict(good, room="nope"), "x",
           dict(good, address="no port"), dict(good, seat=True)]
    path.write_text(json.dumps({"version": 1, "seats": bad + [good]}), encoding="utf-8")
    (only,) = store.entries()
    assert only.token == TOKEN and only.port == 0 and not only.hosted
    assert path.exists()


def test_at_most_max_seats_are_kept_the_oldest_go(tmp_path):
    store = SeatStore(tmp_path)
    for i in range(MAX_SEATS + 5):
        assert store.save(seat(room=f"KOI-{1000 + i}"))
        time.sleep(0.001)
    rooms = [s.room for s in store.entries()]
    assert len(rooms) == MAX_SEATS
    assert rooms[0] == f"KOI-{1000 + MAX_SEATS + 4}" and "KOI-1000" not in rooms and "KOI-1004" not in rooms


# ---------------------------------------------------------------- over the network

def wait(cond, limit=15.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


def play_threaded(clients, rng, *, stop_after=None, limit_s=60.0) -> int:
    """Random legal actions through ThreadedClients until the match ends (or
    ``stop_after`` actions); bounded."""
    n, t0 = 0, time.monotonic()
    while time.monotonic() - t0 < limit_s and (stop_after is None or n < stop_after):
        moved = False
        for c in clients:
            if stop_after is not None and n >= stop_after:
                break
            st = c.state
            if st.over is not None or (st.table is not None and st.table.is_over):
                return n
            if st.legal and c.connected:
                try:
                    c.act(rng.choice(st.legal)).result(10)
                except ServerError as exc:       # the other one's events not here yet
                    assert exc.code in ("stale", "not_your_turn"), exc
                    continue
                n += 1
                moved = True
        if not moved:
            time.sleep(0.005)
    return n


def room_events(hosted, code):
    return hosted.call(lambda: list(hosted.server.rooms[code].events))


def test_a_killed_guest_takes_its_seat_back_with_the_stored_token(tmp_path):
    hosted = HostedServer(tmp_path / "server", config=config(claim_after=600)).start()
    store = SeatStore(tmp_path / "guest")
    host = ThreadedClient(hosted.url, reconnect_for=10)
    guest = ThreadedClient(hosted.url, reconnect_for=10)
    again = None
    try:
        host.connect().result(10)
        code = host.create_room({"preset": "casual"}, months=3, name="Aki").result(10)["room"]
        guest.connect().result(10)
        token = guest.join(code, "Haru").result(10)
        store.save(Seat(room=code, address=f"127.0.0.1:{hosted.port}", seat=1, token=token, name="Haru"))
        rng = random.Random(11)
        assert play_threaded([host, guest], rng, stop_after=15) == 15
        n = len(room_events(hosted, code))
        assert wait(lambda: guest.state.total == n == host.state.total)
        before = guest.state
        guest.close(0.5)                             # the program killed: no leave
        assert wait(lambda: (host.state.presence[1] or {}).get("state") == "dropped")
        # the program started again: a new client, the token from the file
        kept = SeatStore(tmp_path / "guest").find(f"127.0.0.1:{hosted.port}", code)
        assert kept is not None and kept.token == token
        again = ThreadedClient(hosted.url, reconnect_for=10)
        again.connect().result(10)
        joined = again.reconnect(kept.room, kept.token).result(10)
        assert joined["seat"] == 1 and again.state.token == token
        assert wait(lambda: again.state.total == n)
        assert again.state.table == before.table and again.state.legal == before.legal
        assert again.state.events == before.events and again.state.names == ("Aki", "Haru")
        assert wait(lambda: (host.state.presence[1] or {}).get("state") == "connected")
        # a new join is refused (the room is full): the token is the only way back
        stranger = ThreadedClient(hosted.url, auto_reconnect=False)
        try:
            stranger.connect().result(10)
            with pytest.raises(ServerError):
                stranger.join(code, "Haru").result(10)
        finally:
            stranger.close()
    finally:
        for c in (host, guest, again):
            if c is not None:
                c.close()
        hosted.stop()


def test_a_killed_host_resumes_on_the_same_port_and_both_finish(tmp_path):
    data = tmp_path / "server"
    hosted = HostedServer(data, config=config(claim_after=600)).start()
    port = hosted.port
    host = ThreadedClient(hosted.url, reconnect_for=10)
    guest = ThreadedClient(hosted.url, reconnect_for=30)     # the guest's game reconnects by itself
    host2 = None
    try:
        host.connect().result(10)
        # three months: the deal is the server's own, different every run, and a one-month
        # match can end (an early yaku and Stop) before the twelve actions (a CI run did)
        joined = host.create_room({"preset": "casual"}, months=3, name="Aki").result(10)
        code, token = joined["room"], joined["token"]
        guest.connect().result(10)
        guest.join(code, "Haru").result(10)
        rng = random.Random(5)
        assert play_threaded([host, guest], rng, stop_after=12) == 12
        n = len(room_events(hosted, code))
        assert wait(lambda: guest.state.total == n == host.state.total)
        table0 = host.state.table
        host.close(0.5)                 # the host's game killed: its client and its server go
        hosted.stop()
        assert wait(lambda: any(m.get("state") == "reconnecting" for m in guest.poll()), 10)
        # started again: the server on the same port and folder, the room from SQLite
        hosted = HostedServer(data, port=port, config=config(claim_after=600)).start()
        assert hosted.port == port
        assert hosted.call(lambda: code in hosted.server.rooms)
        host2 = ThreadedClient(hosted.url, reconnect_for=10)
        host2.connect().result(10)
        host2.reconnect(code, token).result(10)
        assert wait(lambda: host2.state.total == n)
        assert host2.state.table == table0
        assert wait(lambda: guest.connected and guest.state.total == n, 20)
        assert play_threaded([host2, guest], rng, limit_s=60) > 0
        events = room_events(hosted, code)
        assert wait(lambda: host2.state.over is not None and guest.state.over is not None)
        assert wait(lambda: host2.state.total == guest.state.total == len(events))
        st = replay(events)
        assert st.is_over
        for c, s in ((host2, 0), (guest, 1)):
            assert c.state.table == fold_all([public_event(e, s) for e in events], s)
        assert host2.state.table.ledger == guest.state.table.ledger == tuple(st.ledger)
    finally:
        for c in (host, guest, host2):
            if c is not None:
                c.close()
        hosted.stop()


def test_a_stale_token_is_refused_clearly(tmp_path):
    hosted = HostedServer(tmp_path / "server", config=config()).start()
    c = ThreadedClient(hosted.url)
    try:
        c.connect().result(10)
        code = c.create_room({"preset": "casual"}, months=1, name="Aki").result(10)["room"]
        other = ThreadedClient(hosted.url, auto_reconnect=False)
        try:
            other.connect().result(10)
            with pytest.raises(ServerError) as e:
                other.reconnect(code, TOKEN).result(10)
            assert e.value.code == "bad_token"
            other.close()
            other = ThreadedClient(hosted.url, auto_reconnect=False)
            other.connect().result(10)
            with pytest.raises(ServerError) as e:
                other.reconnect("KOI-0000", TOKEN).result(10)
            assert e.value.code in ("no_room", "bad_token")
        finally:
            other.close()
    finally:
        c.close()
        hosted.stop()


def test_closing_a_client_mid_connect_leaves_no_pending_task(tmp_path, capfd):
    """Closing while a connection is still being opened ends every task of the client's
    loop first ("Task was destroyed but it is pending!" never shows)."""
    import gc
    hosted = HostedServer(tmp_path / "server", config=config()).start()
    try:
        for i in range(6):
            c = ThreadedClient(hosted.url)
            f = c.connect()
            if i % 2:
                f.result(10)
                c.join("KOI-1234", "X")          # refused or not: closing comes at once
            c.close(2.0)
            assert not c._thread.is_alive() and c._loop.is_closed()
            assert f.done()
            late = c.act(None)                   # after close: refused at once, no loop touched
            assert isinstance(late.exception(0), ConnectionError)
            del c, f, late
            gc.collect()
    finally:
        hosted.stop()
    err = capfd.readouterr().err
    assert "Task was destroyed" not in err and "Event loop is closed" not in err
