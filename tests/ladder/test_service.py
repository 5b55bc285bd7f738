"""The ladder service with fake connections, on SQLite and on a real PostgreSQL."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from koikoi.ladder import identity, ratings, service as ladder_service
from koikoi.ladder import store as ladder_store
from koikoi.net.protocol import ProtocolError

ROOT = Path(__file__).resolve().parents[2]


class FakeConn:
    def __init__(self, peer="10.0.0.1"):
        self.peer = peer
        self.ladder = None
        self.sent = []

    def send(self, m):
        self.sent.append(m)

    def error(self, re, code, message):
        self.sent.append({"type": "error", "re": re, "code": code, "message": message})

    def last(self, kind=None):
        got = [m for m in self.sent if kind is None or m["type"] == kind]
        return got[-1] if got else None


class Clock:
    def __init__(self, t=1000.0):
        self.t = t

    def __call__(self):
        return self.t


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def svc(db_url, tmp_path, clock):
    s = ladder_service.open_service(db_url, tmp_path, public_url="ws://127.0.0.1:9001", clock=clock)
    yield s
    s.close()


def send(svc, conn, obj, now=0.0):
    """What the server does with a ladder frame: parse, then handle (or the error)."""
    try:
        msg = svc.parse(obj)
    except ProtocolError as exc:
        conn.error(exc.re, exc.code, exc.message)
        return conn.last()
    svc.handle(conn, msg, msg["id"], now)
    return conn.last()


def player(svc, name, peer=None, rating=None):
    conn = FakeConn(peer or f"10.0.{len(name)}.{sum(map(ord, name)) % 250}")
    conn.key = identity.new_key()
    ans = send(svc, conn, {"type": "identify", "id": 1, "key": conn.key, "name": name})
    assert ans["type"] == "profile", ans
    if rating is not None:
        with svc.store._tx():
            svc.store._run("UPDATE profiles SET rating = ? WHERE key_hash = ?",
                           (rating, conn.ladder.key_hash))
    return conn


def refused(svc, obj):
    with pytest.raises(ProtocolError) as info:
        svc.parse(obj)
    return info.value.code


# ---------------------------------------------------------------- parsing

def test_parse_is_strict(svc):
    key = identity.new_key()
    ok = svc.parse({"type": "identify", "id": 7, "key": key, "name": "  Hanako  "})
    assert ok == {"type": "identify", "id": 7, "key": key, "name": "Hanako"}
    assert svc.parse({"type": "queue", "preset": "casual"})["months"] == 6
    assert svc.parse({"type": "queue", "preset": "casual", "months": 3})["months"] == 3
    assert svc.parse({"type": "board"}) == {"type": "board", "id": None}
    assert refused(svc, {"type": "identify", "key": key}) == "bad_field"
    assert refused(svc, {"type": "identify", "key": key, "name": "A", "admin": True}) == "bad_field"
    for forged in ("kk1_short", "kk2_" + key[4:], key + "x", key[:-1] + "!", 12, None, ["kk1_"],
                   "kk1_" + "é" * 43):
        assert refused(svc, {"type": "identify", "key": forged, "name": "A"}) == "bad_key", forged
    for bad in ("x" * 21, "", "   ", "Ha\u200bnako", "Ha\u202enako", "A\x07", "A\nB", "\ufeffA", 5):
        assert refused(svc, {"type": "identify", "key": key, "name": bad}) == "bad_name", bad
    assert refused(svc, {"type": "queue", "preset": "chess"}) == "bad_preset"
    assert refused(svc, {"type": "queue", "preset": "casual", "months": 5}) == "bad_months"
    assert refused(svc, {"type": "queue", "preset": "casual", "months": True}) == "bad_months"
    assert refused(svc, {"type": "board", "limit": 0}) == "bad_field"
    assert refused(svc, {"type": "board", "limit": 101}) == "bad_field"
    assert refused(svc, {"type": "board", "offset": -1}) == "bad_field"
    assert refused(svc, {"type": "board", "limit": 1.5}) == "bad_field"
    assert refused(svc, {"type": "profile", "player": "../etc"}) == "bad_player"
    assert refused(svc, {"type": "unqueue", "x": 1}) == "bad_field"
    assert refused(svc, {"type": "create"}) == "bad_type"
    with pytest.raises(ProtocolError) as info:
        svc.parse({"type": "board", "id": "req-9", "limit": "all"})
    assert info.value.re == "req-9"
    assert svc.TYPES == {"identify", "queue", "unqueue", "board", "profile"}


# ---------------------------------------------------------------- identity

def test_identify_first_rename_keeps_rating_other_key(svc):
    conn = FakeConn()
    assert send(svc, conn, {"type": "board", "id": 3})["code"] == "not_identified"
    key = identity.new_key()
    ans = send(svc, conn, {"type": "identify", "id": 4, "key": key, "name": "Hanako"})
    assert ans["type"] == "profile" and ans["re"] == 4 and ans["you"] is True
    assert ans["name"] == "Hanako" and ans["rating"] == 1500 and ans["place"] is None
    assert key not in repr(ans) and identity.key_hash(key) not in repr(ans)
    ans = send(svc, conn, {"type": "identify", "id": 5, "key": key, "name": "花子"})
    assert ans["name"] == "花子" and ans["id"] == identity.player_id(identity.key_hash(key))
    other = send(svc, conn, {"type": "identify", "id": 6, "key": identity.new_key(), "name": "X"})
    assert other["code"] == "other_key"


def test_new_keys_from_one_address_are_limited(svc):
    for i in range(ladder_service.PROFILES_PER_HOUR):
        player(svc, f"P{i}", peer="10.9.9.9")
    late = FakeConn("10.9.9.9")
    ans = send(svc, late, {"type": "identify", "id": 1, "key": identity.new_key(), "name": "Z"})
    assert ans["code"] == "too_many_profiles" and late.ladder is None
    assert svc.store.rated_count() == 0
    # a key already known from that address still comes in, and another address is fine
    known = FakeConn("10.9.9.9")
    first = FakeConn("10.1.1.1")
    key = identity.new_key()
    assert send(svc, first, {"type": "identify", "id": 1, "key": key, "name": "K"})["type"] == "profile"
    assert send(svc, known, {"type": "identify", "id": 1, "key": key, "name": "K"})["type"] == "profile"
    # an hour later the address may bring a new key again
    ans = send(svc, late, {"type": "identify", "id": 2, "key": identity.new_key(), "name": "Z"}, now=3601)
    assert ans["type"] == "profile"


def test_replaced_key_is_refused(svc):
    old = player(svc, "Old")
    new = player(svc, "New")
    rival = player(svc, "Rival")
    svc.store.record_match("m", old.ladder.key_hash, rival.ladder.key_hash, preset="casual", length=6)
    svc.store.move_rating(old.ladder.player_id, new.ladder.player_id)
    again = FakeConn()
    ans = send(svc, again, {"type": "identify", "id": 1, "key": old.key, "name": "Old"})
    assert ans["code"] == "key_replaced"
    assert send(svc, old, {"type": "queue", "id": 2, "preset": "casual"})["code"] == "key_replaced"


def test_board_and_profile_flood_is_rate_limited(svc):
    conn = player(svc, "Flood")
    answers = [send(svc, conn, {"type": "board", "id": i}, now=10.0)["type"]
               for i in range(ladder_service.READ_BURST + 3)]
    assert answers[:ladder_service.READ_BURST] == ["board"] * ladder_service.READ_BURST
    assert set(answers[ladder_service.READ_BURST:]) == {"error"}
    assert conn.last()["code"] == "rate_limited"
    assert send(svc, conn, {"type": "profile", "id": 99}, now=10.0)["code"] == "rate_limited"
    assert send(svc, conn, {"type": "board", "id": 100}, now=10.0 + ladder_service.READ_EVERY)["type"] == "board"
    # queueing is counted apart: a board flood does not stop a player from waiting
    assert send(svc, conn, {"type": "queue", "id": 101, "preset": "casual"}, now=10.0)["type"] == "queued"


# ---------------------------------------------------------------- the queue and pairing

def test_queue_pairs_same_choice_nearest_first(svc, clock):
    a = player(svc, "A", rating=1500)
    far = player(svc, "Far", rating=1590)
    near = player(svc, "Near", rating=1520)
    other = player(svc, "Other", rating=1500)
    ans = send(svc, a, {"type": "queue", "id": 1, "preset": "casual", "months": 3})
    assert ans == {"type": "queued", "re": 1, "preset": "casual", "months": 3, "since": clock.t}
    clock.t += 1
    send(svc, far, {"type": "queue", "id": 1, "preset": "casual", "months": 3})
    send(svc, near, {"type": "queue", "id": 1, "preset": "casual", "months": 3})
    send(svc, other, {"type": "queue", "id": 1, "preset": "casual", "months": 6})
    pairs = svc.tick(0)
    assert len(pairs) == 1
    p = pairs[0]
    assert p.conns == (a, near) and p.names == ("A", "Near") and p.preset == "casual" and p.months == 3
    assert p.hashes == (a.ladder.key_hash, near.ladder.key_hash)
    assert svc.tick(1) == [] and svc.waiting() == 2
    assert a.ladder.queued is None and far.ladder.queued is not None


def test_window_widens_with_the_wait(svc, clock):
    low = player(svc, "Low", rating=1300)
    high = player(svc, "High", rating=1700)
    send(svc, low, {"type": "queue", "id": 1, "preset": "nintendo", "months": 12})
    send(svc, high, {"type": "queue", "id": 1, "preset": "nintendo"})
    assert svc.tick(0) == []
    clock.t += 20                                   # 100 + 10 * 20 = 300 < 400
    assert svc.tick(1) == []
    clock.t += 11                                   # 410 >= 400
    (p,) = svc.tick(2)
    assert set(p.names) == {"Low", "High"} and p.months == 12
    assert p.waited == (31.0, 31.0)


def test_unqueue_gone_and_requeue(svc):
    a, b, c = player(svc, "A"), player(svc, "B"), player(svc, "C")
    assert send(svc, a, {"type": "unqueue", "id": 1})["code"] == "not_queued"
    send(svc, a, {"type": "queue", "id": 2, "preset": "casual"})
    assert send(svc, a, {"type": "unqueue", "id": 3}) == {"type": "unqueued", "re": 3}
    send(svc, b, {"type": "queue", "id": 4, "preset": "casual"})
    svc.gone(b)
    assert svc.store.queue_length() == 0
    send(svc, c, {"type": "queue", "id": 5, "preset": "casual"})
    assert svc.tick(0) == []
    # the same key on a second connection takes the wait over; the first is told
    twin = FakeConn()
    send(svc, twin, {"type": "identify", "id": 1, "key": c.key, "name": "C"})
    send(svc, twin, {"type": "queue", "id": 6, "preset": "casual"})
    assert c.last() == {"type": "unqueued", "re": None, "reason": "elsewhere"}
    assert svc.store.queue_length() == 1
    svc.gone(c)                                     # the old connection leaving changes nothing
    assert svc.store.queue_length() == 1


def test_queue_refused_in_a_room(svc):
    a = player(svc, "A")
    a.room = object()
    assert send(svc, a, {"type": "queue", "id": 1, "preset": "casual"})["code"] == "in_room"


def test_unpaired_tells_the_players(svc):
    a, b = player(svc, "A"), player(svc, "B")
    for c in (a, b):
        send(svc, c, {"type": "queue", "id": 1, "preset": "casual"})
    (p,) = svc.tick(0)
    svc.unpaired(p, "server_full")
    assert a.last() == b.last() == {"type": "unqueued", "re": None, "reason": "server_full"}


# ---------------------------------------------------------------- rating

def test_finished_rates_once_claimed_and_draw(svc):
    a, b = player(svc, "A"), player(svc, "B")
    for c in (a, b):
        send(svc, c, {"type": "queue", "id": 1, "preset": "classic", "months": 3})
    (p,) = svc.tick(0)
    a, b = p.conns                                  # a in seat 0, b in seat 1
    svc.placed(p, "KOI-1001", ("tok-a" * 4, "tok-b" * 4))
    svc.finished("KOI-1001", "m-1", 1, False, p.hashes)
    svc.finished("KOI-1001", "m-1", 1, False, p.hashes)          # a repeat: rated once
    pa, pb = svc.store.profile(a.ladder.key_hash), svc.store.profile(b.ladder.key_hash)
    want_w, want_l = ratings.after_match(ratings.Rating(), ratings.Rating())
    assert (pa.matches, pa.wins, pb.matches, pb.wins) == (1, 0, 1, 1)
    assert pb.rating.rating == pytest.approx(want_w.rating) and pa.rating.rating == pytest.approx(want_l.rating)
    (row,) = svc.store._all("SELECT preset, length, claimed FROM rated_matches")
    assert tuple(row) == ("classic", 3, 0)
    # claimed: the one who left (seat 0 here) loses
    svc.finished("KOI-1002", None, 1, True, p.hashes)
    assert svc.store.profile(a.ladder.key_hash).losses == 2
    # a draw: half a win each, counted as a draw
    svc.finished("KOI-1003", "m-3", None, False, p.hashes)
    pa = svc.store.profile(a.ladder.key_hash)
    assert (pa.matches, pa.wins, pa.draws) == (3, 0, 1)
    view = send(svc, a, {"type": "profile", "id": 8})
    assert [h["draw"] for h in view["history"]] == [False, False, True]
    assert view["against"] == [{"id": b.ladder.player_id, "name": b.ladder.name, "wins": 0, "losses": 2,
                                "draws": 1}]
    board = send(svc, a, {"type": "board", "id": 9})
    assert board["total"] == 2 and board["you"] == 2 and [r["name"] for r in board["rows"]] == [b.ladder.name, a.ladder.name]
    theirs = send(svc, a, {"type": "profile", "id": 10, "player": b.ladder.player_id})
    assert theirs["name"] == b.ladder.name and theirs["you"] is False
    assert send(svc, a, {"type": "profile", "id": 11, "player": "0" * 16})["code"] == "no_player"


def test_a_dead_process_waiter_is_not_paired(svc, clock):
    ghost = player(svc, "Ghost")
    svc.store.enqueue(ghost.ladder.key_hash, "casual", 6, "dead-process", now=clock.t - 100)
    live = player(svc, "Live")
    send(svc, live, {"type": "queue", "id": 1, "preset": "casual"})
    assert svc.tick(0) == [] and svc.store.queue_length() == 1


def test_database_trouble_is_an_answer_not_a_crash(svc):
    a = player(svc, "A")
    svc.store.close()
    assert send(svc, a, {"type": "board", "id": 1})["code"] == "ladder_unavailable"
    assert svc.tick(0) == []


# ---------------------------------------------------------------- several processes

def test_two_services_on_one_postgres(postgres_url, tmp_path):
    clock = Clock()
    one = ladder_service.open_service(postgres_url, tmp_path, public_url="ws://127.0.0.1:9001", clock=clock)
    two = ladder_service.open_service(postgres_url, tmp_path, public_url="ws://127.0.0.1:9002", clock=clock)
    try:
        a, b = player(one, "A"), player(two, "B")
        send(one, a, {"type": "queue", "id": 1, "preset": "casual"})
        clock.t += 1                                    # a has waited longest: seat 0
        send(two, b, {"type": "queue", "id": 1, "preset": "casual"})
        (p,) = one.tick(0)
        assert p.conns == (a, None) and p.names == ("A", "B") and p.processes[1] == two.process
        assert two.tick(0) == []                       # taken once
        one.placed(p, "KOI-2002", ("tokenA" * 3, "tokenB" * 3))
        assert b.last()["type"] == "queued"                 # nothing yet: its process tells it
        two.tick(1)
        assert b.last() == {"type": "matched", "url": "ws://127.0.0.1:9001", "room": "KOI-2002",
                            "token": "tokenB" * 3}
        assert two.waiting() == 0
        two.tick(2)
        assert [m["type"] for m in b.sent].count("matched") == 1
        one.finished("KOI-2002", "mm", 0, False, p.hashes)
        for s, c, wins in ((one, a, 1), (two, b, 0)):
            prof = s.store.profile(c.ladder.key_hash)
            assert (prof.matches, prof.wins) == (1, wins)
    finally:
        one.close()
        two.close()


WORKER = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from koikoi.ladder import service

    class Conn:
        peer = "127.0.0.1"
        ladder = None
        def __init__(self): self.sent = []
        def send(self, m): self.sent.append(m)
        def error(self, re, code, message): self.sent.append({"type": "error", "code": code})

    url, port, key, name, out = sys.argv[1:6]
    svc = service.open_service(url, Path(out).parent, public_url=f"ws://127.0.0.1:{port}")
    conn = Conn()
    for i, m in enumerate(({"type": "identify", "key": key, "name": name},
                           {"type": "queue", "preset": "koikoi-japan", "months": 8})):
        svc.handle(conn, svc.parse(m), i, time.monotonic())
    result = None
    deadline = time.monotonic() + 60
    while result is None and time.monotonic() < deadline:
        for p in svc.tick(time.monotonic()):
            svc.placed(p, "KOI-3003", ("seatzero" * 3, "seatone1" * 3))
            svc.finished("KOI-3003", "played-1", 0, False, p.hashes)
            result = {"made": True, "names": list(p.names), "remote": p.conns.index(None)}
        for m in conn.sent:
            if m["type"] == "matched":
                result = {"made": False, "matched": m}
        time.sleep(0.05)
    svc.close()
    Path(out).write_text(json.dumps(result))
""")


def test_two_processes_queue_match_and_rate_once(postgres_url, tmp_path):
    keys = [identity.new_key(), identity.new_key()]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    outs = [tmp_path / f"out{i}.json" for i in range(2)]
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, postgres_url, str(9100 + i), keys[i], f"P{i}",
                               str(outs[i])], env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True)
             for i in range(2)]
    for pr in procs:
        _, err = pr.communicate(timeout=120)
        assert pr.returncode == 0, err[-2000:]
    import json
    results = [json.loads(o.read_text()) for o in outs]
    made = [r for r in results if r and r["made"]]
    sent = [r for r in results if r and not r["made"]]
    assert len(made) == 1 and len(sent) == 1, results
    m = sent[0]["matched"]
    host = results.index(made[0])
    assert m["room"] == "KOI-3003" and m["url"] == f"ws://127.0.0.1:{9100 + host}"
    assert m["token"] == ("seatzero" * 3, "seatone1" * 3)[made[0]["remote"]]
    with ladder_store.open_store(postgres_url) as st:
        profs = [st.profile(identity.key_hash(k)) for k in keys]
        assert sorted((p.matches, p.wins) for p in profs) == [(1, 0), (1, 1)]
        assert st.queue_length() == 0
        (n,) = st._one("SELECT COUNT(*) FROM rated_matches")
        assert n == 1


def test_rooms_made_here_reach_the_directory_by_the_next_tick_or_at_close(db_url, tmp_path, clock):
    svc = ladder_service.open_service(db_url, tmp_path, public_url="ws://127.0.0.1:9001", clock=clock)
    a, b = player(svc, "A"), player(svc, "B")
    for c in (a, b):
        send(svc, c, {"type": "queue", "id": 1, "preset": "nintendo", "months": 6})
    (p,) = svc.tick(0)
    svc.placed(p, "KOI-5005", ("t" * 20, "u" * 20))
    assert svc.store.room_rules("KOI-5005") is None          # written with the next tick's
    svc.tick(1)
    assert svc.store.room_rules("KOI-5005") == ("nintendo", 6)
    c, d = player(svc, "C"), player(svc, "D")
    for x in (c, d):
        send(svc, x, {"type": "queue", "id": 1, "preset": "casual"})
    (q,) = svc.tick(2)
    svc.placed(q, "KOI-5006", ("t" * 20, "u" * 20))
    svc.close()
    with ladder_store.open_store(db_url) as st:
        assert st.room_rules("KOI-5006") == ("casual", 6)    # a restarted process still rates it as it was
    # a restarted service rates a room it reloads by what the directory says
    again = ladder_service.open_service(db_url, tmp_path, public_url="ws://127.0.0.1:9001", clock=clock)
    try:
        again.finished("KOI-5006", "m", 0, False, q.hashes)
        (row,) = again.store._all("SELECT preset, length FROM rated_matches")
        assert tuple(row) == ("casual", 6)
    finally:
        again.close()


@pytest.mark.parametrize("public_url", [None, "ws://0.0.0.0:8765", "ws://[::]:8765"])
def test_a_shared_database_needs_a_reachable_public_address(public_url, tmp_path):
    """koikoi serve --host 0.0.0.0 --db postgresql://... without --public-url would send
    players of other processes to ws://0.0.0.0:8765 (and name every such process alike):
    refused, with the option to give, before the database is opened."""
    with pytest.raises(ladder_store.LadderError, match="--public-url"):
        ladder_service.open_service("postgresql://nobody@127.0.0.1:1/none", tmp_path, public_url=public_url)
    svc = ladder_service.open_service(None, tmp_path, public_url=public_url)     # one process: fine
    svc.close()


def test_a_result_its_database_refused_is_rated_by_a_later_tick_once(svc, clock, monkeypatch):
    a, b = player(svc, "A"), player(svc, "B")
    for c in (a, b):
        send(svc, c, {"type": "queue", "id": 1, "preset": "classic", "months": 3})
    (p,) = svc.tick(0)
    a, b = p.conns
    svc.placed(p, "KOI-7001", ("tok-a" * 4, "tok-b" * 4))
    real = svc.store.record_match
    calls = []

    def away(*args, **kw):
        calls.append(args)
        raise OSError("the database is away")
    monkeypatch.setattr(svc.store, "record_match", away)
    assert svc.finished("KOI-7001", "m-7", 0, False, p.hashes) is None     # nothing to tell yet
    assert svc.store.profile(a.ladder.key_hash).matches == 0
    svc.tick(0)                                        # too soon: not tried again
    assert len(calls) == 1
    clock.t += ladder_service.RETRY_RATING_EVERY
    svc.tick(0)                                        # still away: tried, kept
    assert len(calls) == 2
    monkeypatch.setattr(svc.store, "record_match", real)
    clock.t += ladder_service.RETRY_RATING_EVERY
    svc.tick(0)
    pa, pb = svc.store.profile(a.ladder.key_hash), svc.store.profile(b.ladder.key_hash)
    assert (pa.matches, pa.wins, pb.matches, pb.wins) == (1, 1, 1, 0)
    (row,) = svc.store._all("SELECT preset, length FROM rated_matches")
    assert tuple(row) == ("classic", 3)                # the rules noted at placed, kept for the retry
    clock.t += 10 * ladder_service.RETRY_RATING_EVERY
    svc.tick(0)
    assert svc.store.profile(a.ladder.key_hash).matches == 1          # rated once


def test_a_result_no_retry_can_mend_is_not_tried_again(svc, clock):
    a = player(svc, "A")
    assert svc.finished("KOI-7002", "m-8", 0, False, (a.ladder.key_hash, "f" * 64)) is None   # no such profile
    clock.t += 10 * ladder_service.RETRY_RATING_EVERY
    svc.tick(0)
    assert not svc._unrated
