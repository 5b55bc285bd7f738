"""Quick match end to end: the real match server with the real ladder service, real
websocket clients (koikoi.net.client), on loopback. Two players identify, queue the same
preset and length, are paired into a rated room, play it out with legal actions and see
their ratings move once; a claimed match is a loss for the one who left; two
``koikoi serve`` processes on one PostgreSQL pair players queued on different processes.

Every wait has a timeout; every loop a bound."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from koikoi.ladder import identity
from koikoi.ladder.service import open_service
from koikoi.net.client import Connection
from koikoi.net.server import MatchServer

from net_helpers import HOST, config, play, run

ROOT = Path(__file__).resolve().parents[2]
PRESET, MONTHS = "casual", 1


@contextlib.asynccontextmanager
async def ladder_server(data_dir, db=None, **kw):
    """A match server on 127.0.0.1 port 0 with the real ladder on ``db`` (None: SQLite in
    ``data_dir``), built as ``koikoi serve`` builds it: once listening, with its address."""
    server = MatchServer(data_dir, host=HOST, port=0, config=config(**kw), seeds=kw_seeds())
    await server.start()
    ladder = open_service(db, server.data_dir, public_url=server.url)
    server.attach_ladder(ladder)
    try:
        yield server
    finally:
        await server.stop()
        ladder.close()


def kw_seeds():
    seeds = iter(range(4242, 4242 + 1000))
    return lambda: next(seeds)


async def player(url: str, name: str, key: str) -> Connection:
    conn = await Connection.open(url)
    me = await conn.identify(key, name)
    assert me["type"] == "profile" and me["you"] is True and me["matches"] == 0, me
    return conn


async def queue_both(server, a: Connection, b: Connection) -> None:
    """Both queue the same choice; the server's clock pairs them (about once a second)."""
    for c in (a, b):
        q = await c.queue_match(PRESET, MONTHS)
        assert (q["type"], q["preset"], q["months"]) == ("queued", PRESET, MONTHS), q
    for c in (a, b):
        await c.wait_until(lambda s: s.room is not None and s.status == "playing", 15)
    assert a.state.room == b.state.room
    assert {a.state.seat, b.state.seat} == {0, 1}
    assert a.state.token and b.state.token
    assert server.rooms[a.state.room].rated


async def profiles(*conns) -> list:
    """Each one's own profile (without the answer's ``re``)."""
    out = []
    for c in conns:
        p = await c.profile()
        del p["re"]
        out.append(p)
    return out


def test_a_quick_match_is_played_out_and_rated_once(data_dir):
    async def go():
        async with ladder_server(data_dir) as server:
            ka, kb = identity.new_key(), identity.new_key()
            a, b = await player(server.url, "Aki", ka), await player(server.url, "Haru", kb)
            before = await profiles(a, b)
            await queue_both(server, a, b)
            seats = {a.state.seat: a, b.state.seat: b}
            await play(seats, random.Random(7))
            for c in (a, b):
                await c.wait_until(lambda s: s.over is not None and s.record is not None, 15)
            assert a.state.record.match_id == b.state.record.match_id
            assert a.state.record.room == b.state.record.room == a.state.room
            winner = a.state.over["winner"]
            assert winner in (0, 1), a.state.over          # this seed's match has a winner
            win, lose = (seats[winner], seats[1 - winner])
            after = await profiles(a, b)
            for p in after:
                assert p["matches"] == 1, p
            by = {id(a): (before[0], after[0]), id(b): (before[1], after[1])}
            assert by[id(win)][1]["rating"] > by[id(win)][0]["rating"]
            assert by[id(lose)][1]["rating"] < by[id(lose)][0]["rating"]
            assert by[id(win)][1]["wins"] == 1 and by[id(lose)][1]["wins"] == 0
            # each player was told its own change, as the profiles now show it
            for c in (a, b):
                await c.wait_until(lambda s: s.rated is not None, 15)
                was, now = by[id(c)]
                assert abs(c.state.rated["before"] - was["rating"]) <= 0.5, (c.state.rated, was)   # profiles round
                assert abs(c.state.rated["after"] - now["rating"]) <= 0.5, (c.state.rated, now)
                assert c.state.rated["matches"] == 1
            for mine, other in ((a, b), (b, a)):
                p = await mine.profile()
                assert [h["won"] for h in p["history"]] == [mine is win]
                assert p["against"][0]["name"] == ("Haru" if mine is a else "Aki")
            board = await a.board()
            assert [r["name"] for r in board["rows"]] == [("Aki", "Haru")[win is b], ("Aki", "Haru")[win is a]]
            # the server filing the same room again (a restart, a repeat) moves nothing
            room = server.rooms[a.state.room]
            told = a.state.rated
            server.service._rated_end(room)
            assert server.ladder.finished(room.code, a.state.record.match_id, winner, False,
                                          room.ladder_hashes) is None
            assert await profiles(a, b) == after
            assert a.state.rated is told        # a repeat tells nothing (a new rated would be a new dict)
            await a.close()
            await b.close()
    run(go())


def test_a_claimed_quick_match_is_a_loss_for_the_one_who_left(data_dir):
    async def go():
        async with ladder_server(data_dir, claim_after=0.3) as server:
            ka, kb = identity.new_key(), identity.new_key()
            a, b = await player(server.url, "Aki", ka), await player(server.url, "Haru", kb)
            await queue_both(server, a, b)
            code, stayer_seat = a.state.room, a.state.seat
            await b.close()                                  # Haru leaves mid-match
            await a.wait_until(lambda s: (s.presence[1 - stayer_seat] or {}).get("state") == "dropped", 10)
            for _ in range(50):                              # the claim opens after claim_after
                try:
                    await a.claim(timeout=5)
                    break
                except Exception as exc:                     # "you may claim the match in 0 s"
                    assert getattr(exc, "code", None) == "cannot_claim", exc
                    await asyncio.sleep(0.1)
            else:
                raise AssertionError("the claim never opened")
            assert a.state.over["reason"] == "forfeit" and a.state.over["winner"] == stayer_seat
            await a.wait_until(lambda s: s.record is not None, 10)
            mine = (await profiles(a))[0]
            b2 = await Connection.open(server.url)           # Haru comes back: the rating fell
            gone = await b2.identify(kb, "Haru")
            assert (mine["matches"], mine["wins"]) == (1, 1)
            assert (gone["matches"], gone["wins"]) == (1, 0)
            assert mine["rating"] > 1500 > gone["rating"], (mine, gone)
            (row,) = server.ladder.store._all("SELECT claimed, winner FROM rated_matches")
            assert row[0] == 1 and row[1] == identity.key_hash(ka)
            assert code not in {r[0] for r in server.ladder.store._all("SELECT code FROM rooms")}
            await a.close()
            await b2.close()
    run(go())



def test_a_player_who_went_into_a_room_meanwhile_does_not_cost_the_other_its_wait(data_dir):
    """Aki queues, then creates a room by hand; Haru queues: the pairing finds Aki in a
    room. Aki is told the wait ended (in_room); Haru waits on, its place kept, and is
    paired with the next player."""
    async def go():
        async with ladder_server(data_dir) as server:
            a = await player(server.url, "Aki", identity.new_key())
            b = await player(server.url, "Haru", identity.new_key())
            await a.queue_match(PRESET, MONTHS)
            await a.create_room(PRESET, months=MONTHS, name="Aki")
            q = await b.queue_match(PRESET, MONTHS)
            for _ in range(100):                              # the pairing pass: about a second
                msgs = a.drain()
                if any(m.get("type") == "unqueued" and m.get("reason") == "in_room" for m in msgs):
                    break
                await asyncio.sleep(0.05)
            else:
                raise AssertionError("Aki was not told the wait ended")
            assert b.state.queued is not None and b.state.room is None
            assert not any(m.get("type") == "unqueued" for m in b.drain())
            assert server.ladder.waiting() == 1
            c = await player(server.url, "Natsu", identity.new_key())
            await c.queue_match(PRESET, MONTHS)
            for x in (b, c):
                await x.wait_until(lambda s: s.status == "playing", 15)
            assert b.state.room == c.state.room != a.state.room
            assert server.ladder.store._one("SELECT since FROM queue") is None
            assert q["type"] == "queued"
            for x in (a, b, c):
                await x.close()
    run(go())


# ------------------------------------------------------------------ two processes

class ServeProcess:
    """``python -m koikoi serve`` on 127.0.0.1 (port 0 unless given) with ``--db``."""

    def __init__(self, data: Path, db: str, port: int = 0, *extra: str):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "koikoi", "serve", "--host", HOST, "--port", str(port),
             "--data", str(data), "--db", db, "--log-level", "WARNING", *extra],
            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()                   # bounded: the process prints or dies
        if "listening on " not in line:
            self.proc.kill()
            raise AssertionError(f"koikoi serve did not start: {line!r} {self.proc.stderr.read()[-2000:]}")
        self.url = line.split("listening on ", 1)[1].split()[0]

    def stop(self, kill: bool = False) -> str:
        if self.proc.poll() is None:
            if kill:
                self.proc.kill()
            else:
                self.proc.terminate()
        try:
            _, err = self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            _, err = self.proc.communicate(timeout=30)
        return err or ""


def _wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = predicate()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def play_threaded(seats: dict, rng, limit: int = 5000) -> int:
    """Random legal actions through ThreadedClients until the match ends."""
    clients = list(seats.values())
    for n in range(limit):
        def settled():
            totals = {c.state.total for c in clients}
            if len(totals) != 1:
                return None
            st = clients[0].state
            if st.table.is_over:
                return st
            return st if seats[st.to_move].state.legal else None
        st = _wait(settled, 15, "both players to see the same events")
        if st.table.is_over:
            return n
        mover = seats[st.to_move]
        mover.act(rng.choice(mover.state.legal)).result(15)
    raise AssertionError(f"the match did not end in {limit} actions")


def outcomes(clients, seats) -> list:
    """(wins, draws) each client's profile must show after its one match."""
    winner = clients[0].state.over["winner"]
    assert clients[1].state.over["winner"] == winner
    if winner is None:
        return [(0, 1), (0, 1)]
    return [(int(seats[winner] is c), 0) for c in clients]


async def _own_profile(url: str, key: str, name: str) -> dict:
    conn = await Connection.open(url)
    try:
        return await conn.identify(key, name)
    finally:
        await conn.close()


def test_two_serve_processes_on_one_postgres_pair_and_rate_once(postgres_url, tmp_path):
    from koikoi.ladder import store as ladder_store
    from koikoi.net.client import ThreadedClient
    procs = [ServeProcess(tmp_path / f"p{i}", postgres_url) for i in range(2)]
    clients = []
    try:
        keys = [identity.new_key(), identity.new_key()]
        names = ["Aki", "Haru"]
        for i in range(2):                                    # one player on each process
            c = ThreadedClient(procs[i].url, auto_reconnect=False)
            clients.append(c)
            c.connect().result(15)
            q = c.quick_match(names[i], PRESET, MONTHS, key=keys[i]).result(15)
            assert q["type"] == "queued", q
        _wait(lambda: all(c.state.room is not None and c.state.status == "playing"
                          and c.state.presence[1 - c.state.seat] is not None
                          and c.state.presence[1 - c.state.seat].get("state") == "connected"
                          for c in clients), 30, "both players seated in one room")
        assert clients[0].state.room == clients[1].state.room
        for c in clients:                                     # the remote one's name too
            assert c.state.names[c.state.seat] == names[clients.index(c)]
            assert sorted(c.state.names) == sorted(names)
        moved = [i for i, c in enumerate(clients) if c.url != procs[i].url]
        assert len(moved) == 1, "exactly one player follows matched to the other process"
        assert clients[moved[0]].url == procs[1 - moved[0]].url
        seats = {c.state.seat: c for c in clients}
        play_threaded(seats, random.Random(11))
        _wait(lambda: all(c.state.over is not None and c.state.record is not None for c in clients),
              15, "both players told the match is over")
        assert clients[0].state.record.match_id == clients[1].state.record.match_id
        outcome = outcomes(clients, seats)
        profs = [run(_own_profile(procs[i].url, keys[i], names[i]), 30) for i in range(2)]
        assert [p["matches"] for p in profs] == [1, 1]
        assert [(p["wins"], p["draws"]) for p in profs] == outcome, profs
        if outcome[0] != outcome[1]:            # the seeds are the server's own: a draw may come
            assert [p["rating"] > 1500 for p in profs] == [w == (1, 0) for w in outcome], profs
        with ladder_store.open_store(postgres_url) as st:
            assert st._one("SELECT COUNT(*) FROM rated_matches")[0] == 1
            assert st.queue_length() == 0
    finally:
        for c in clients:
            c.close()
        errs = [p.stop() for p in procs]
    for err in errs:
        assert "Traceback" not in err, err[-3000:]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_kill_9_mid_match_loses_no_action_and_rates_once(database, request, tmp_path):
    """The process holding a quick match dies (SIGKILL) mid-match and starts again on the
    same data folder and ladder database (an SQLite file; a PostgreSQL database): both
    players reconnect by themselves, every action acknowledged before the kill is still
    there, the match is played out and both ratings move once, with its rules."""
    from koikoi.ladder import store as ladder_store
    from koikoi.net.client import ThreadedClient
    port, data = _free_port(), tmp_path / "server"
    db = str(tmp_path / "ladder.sqlite3") if database == "sqlite" else request.getfixturevalue("postgres_url")
    proc = ServeProcess(data, db, port)
    clients, errs = [], []
    try:
        keys, names = [identity.new_key(), identity.new_key()], ["Aki", "Haru"]
        for i in range(2):
            c = ThreadedClient(proc.url, auto_reconnect=True, reconnect_for=60)
            clients.append(c)
            c.connect().result(15)
            assert c.quick_match(names[i], PRESET, 3, key=keys[i]).result(15)["type"] == "queued"
        _wait(lambda: all(c.state.status == "playing" for c in clients), 30, "the pair's room")
        seats = {c.state.seat: c for c in clients}
        rng = random.Random(5)
        acked = 0
        for _ in range(12):                                   # some actions, each acknowledged
            st = _wait(lambda: (len({c.state.total for c in clients}) == 1
                                and clients[0].state.to_move in seats
                                and seats[clients[0].state.to_move].state.legal and clients[0].state),
                       15, "the mover's turn")
            mover = seats[st.to_move]
            mover.act(rng.choice(mover.state.legal)).result(15)
            acked += 1
        _wait(lambda: len({c.state.total for c in clients}) == 1, 15, "both players level")
        seen = [c.state.events for c in clients]           # each seat's own view
        errs.append(proc.stop(kill=True))                     # kill -9: no goodbye, no flush
        proc = ServeProcess(data, db, port)
        _wait(lambda: all(c.connected and c.state.status == "playing"
                          and c.state.total >= len(seen[0]) for c in clients), 60,
              "both players back in the room after the restart")
        for c, mine in zip(clients, seen):
            assert c.state.events[:len(mine)] == mine, "an acknowledged action was lost"
        play_threaded(seats, rng)
        _wait(lambda: all(c.state.over is not None and c.state.record is not None for c in clients),
              15, "both players told the match is over")
        outcome = outcomes(clients, seats)
        errs.append(proc.stop())
        with ladder_store.open_store(db) as st:
            profs = [st.profile(identity.key_hash(k)) for k in keys]
            assert [p.matches for p in profs] == [1, 1]
            assert [(p.wins, p.draws) for p in profs] == outcome
            (n,) = st._one("SELECT COUNT(*) FROM rated_matches")
            assert n == 1
            (preset, length) = st._one("SELECT preset, length FROM rated_matches")
            assert (preset, length) == (PRESET, 3)
        assert acked == 12
    finally:
        for c in clients:
            c.close()
        errs.append(proc.stop())
    for err in errs:
        assert "Traceback" not in err, err[-3000:]


def test_a_result_the_ladder_missed_is_rated_at_the_restart_once(data_dir, monkeypatch):
    """The match ends while the ladder's database cannot take the result (as if the
    process died between writing the result and rating it): the next start of the server
    on the same folder rates it, and a start after that does not rate it again."""
    from koikoi.ladder import store as ladder_store
    keys = [identity.new_key(), identity.new_key()]

    async def first():
        async with ladder_server(data_dir) as server:
            a, b = await player(server.url, "Aki", keys[0]), await player(server.url, "Haru", keys[1])
            await queue_both(server, a, b)

            def away(*args, **kw):
                raise OSError("the database went away")
            monkeypatch.setattr(server.ladder.store, "record_match", away)
            await play({a.state.seat: a, b.state.seat: b}, random.Random(7))
            for c in (a, b):
                await c.wait_until(lambda s: s.over is not None, 15)
            monkeypatch.undo()
            assert [p["matches"] for p in await profiles(a, b)] == [0, 0]
            await a.close()
            await b.close()
            return a.state.over["winner"], a.state.seat

    async def again():
        async with ladder_server(data_dir) as server:
            assert any(r.rated and r.status == "over" for r in server.rooms.values())
            with ladder_store.open_store(None, data_dir) as st:
                return [st.profile(identity.key_hash(k)) for k in keys], \
                    st._one("SELECT COUNT(*) FROM rated_matches")[0]

    winner, seat_a = run(first())
    assert winner in (0, 1)
    for _ in range(2):                                    # rated at the first restart, once
        profs, n = run(again())
        assert n == 1 and [p.matches for p in profs] == [1, 1]
        assert [p.wins for p in profs] == [int(winner == seat_a), int(winner != seat_a)]
