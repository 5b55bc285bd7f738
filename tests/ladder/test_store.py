"""The store on both databases: SQLite (embedded) and a real PostgreSQL."""
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from koikoi.ladder import identity, store as ladder_store
from koikoi.ladder.ratings import Rating, after_match

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def st(db_url):
    s = ladder_store.open_store(db_url)
    yield s
    s.close()


def player(st, name, now=1000.0):
    h = identity.key_hash(identity.new_key())
    st.ensure_profile(h, name, now=now)
    return h


def test_migrations_from_empty_and_again(db_url):
    s = ladder_store.open_store(db_url)
    assert s.version() == ladder_store.LATEST
    s.close()
    s = ladder_store.open_store(db_url)            # a second start changes nothing
    assert s.version() == ladder_store.LATEST
    s.close()


def test_newer_schema_refused(db_url):
    s = ladder_store.open_store(db_url)
    with s._tx():
        s._run("INSERT INTO schema_version (version) VALUES (?)", (ladder_store.LATEST + 1,))
    with pytest.raises(ladder_store.LadderError, match="newer"):
        s.migrate()
    s.close()


def test_profile_rename_keeps_rating(st):
    a, b = player(st, "Hanako"), player(st, "Taro")
    st.record_match("m1", a, b, preset="standard", length=12)
    before = st.profile(a)
    st.rename(a, "花子")
    after = st.profile(a)
    assert after.name == "花子" and after.rating == before.rating and after.matches == 1
    assert st.ensure_profile(a, "ignored").name == "花子"


def test_record_match_rates_once(st):
    a, b = player(st, "A"), player(st, "B")
    res = st.record_match("m1", a, b, preset="standard", length=12, now=2000)
    want_w, want_l = after_match(Rating(), Rating())
    assert res.winner.rating.rating == pytest.approx(want_w.rating)
    assert res.loser.rating.rating == pytest.approx(want_l.rating)
    assert st.record_match("m1", a, b, preset="standard", length=12) is None
    pa, pb = st.profile(a), st.profile(b)
    assert (pa.matches, pa.wins, pb.matches, pb.wins) == (1, 1, 1, 0)
    with pytest.raises(ladder_store.LadderError):
        st.record_match("m2", a, a, preset="standard", length=12)
    with pytest.raises(ladder_store.LadderError):
        st.record_match("m3", a, "0" * 64, preset="standard", length=12)


def test_leaderboard_place_history_record(st):
    a, b, c = player(st, "A"), player(st, "B"), player(st, "C")
    player(st, "unrated")
    st.record_match("m1", a, b, preset="standard", length=12, now=1)
    st.record_match("m2", a, c, preset="standard", length=12, now=2)
    st.record_match("m3", b, a, preset="standard", length=12, now=3, claimed=True)
    board = st.leaderboard(10)
    assert len(board) == 3 and "unrated" not in [p.name for p in board]
    assert [p.rating.rating for p in board] == sorted((p.rating.rating for p in board), reverse=True)
    assert [st.place(p.key_hash) for p in board] == [1, 2, 3]
    assert st.place(player(st, "new")) is None
    hist = st.history(a)
    assert [h.match_id for h in hist] == ["m1", "m2", "m3"]
    assert [h.won for h in hist] == [True, True, False]
    assert hist[-1].rating == pytest.approx(st.profile(a).rating.rating)
    rec = {r["name"]: (r["wins"], r["losses"]) for r in st.record_against(a)}
    assert rec == {"B": (1, 1), "C": (1, 0)}
    pub = st.profile(a).public()
    assert set(pub) == {"id", "name", "matches", "wins", "draws", "rating", "rd"}
    assert a not in str(pub) and pub["matches"] == 3


def test_views_carry_public_data_only(st):
    a, b = player(st, "A"), player(st, "B")
    st.record_match("m1", a, b, preset="standard", length=12, now=5)
    board = st.board_view(10)
    assert [(r["place"], r["name"]) for r in board] == [(1, "A"), (2, "B")]
    assert [r["place"] for r in st.board_view(10, offset=1)] == [2]
    view = st.profile_view(b)
    assert view["place"] == 2 and view["matches"] == 1 and view["wins"] == 0
    assert view["history"] == [{"rating": round(st.profile(b).rating.rating), "won": False, "draw": False,
                                "opponent": identity.player_id(a), "at": 5}]
    assert view["against"] == [{"id": identity.player_id(a), "name": "A", "wins": 0, "losses": 1,
                                "draws": 0}]
    text = repr(board) + repr(view)
    assert a not in text and b not in text
    assert st.profile_view("0" * 64) is None


def test_queue_pairs_across_two_connections(db_url):
    one, two = ladder_store.open_store(db_url), ladder_store.open_store(db_url)
    try:
        a, b, c = player(one, "A"), player(two, "B"), player(one, "C")
        one.enqueue(a, "standard", 12, "proc-1", now=100)
        two.enqueue(b, "standard", 12, "proc-2", now=101)
        two.enqueue(c, "koikoi-3", 12, "proc-2", now=101)
        pairs = two.take_pairs(now=102)
        assert [{x.key, y.key} for x, y in pairs] == [{a, b}]
        assert one.take_pairs(now=102) == [] and one.queue_length() == 1
        assert one.register_room("ABCD", "proc-2", "ws://127.0.0.1:9/") is True
        assert one.register_room("ABCD", "proc-1", "ws://127.0.0.1:8/") is False
        two.announce_match(a, b, "ABCD")
        loc = one.poll_match(a)
        assert loc == ladder_store.RoomLocation("ABCD", "proc-2", "ws://127.0.0.1:9/")
        assert one.poll_match(a) is None and two.poll_match(b) == loc
        assert one.leave_queue(c) is True and one.leave_queue(c) is False
        assert one.drop_process("proc-2") == 1 and one.locate_room("ABCD") is None
    finally:
        one.close()
        two.close()


def test_move_rating_operator_command(st, db_url, capsys):
    from koikoi.ladder.__main__ import main
    a, b = player(st, "Hanako"), player(st, "B")
    st.record_match("m1", a, b, preset="standard", length=12)
    old = st.profile(a)
    fresh = player(st, "new key")
    old_id, new_id = identity.player_id(a), identity.player_id(fresh)
    assert main(["--db", db_url, "move-rating", new_id, old_id]) == 1   # backwards: refused
    assert "already has rated matches" in capsys.readouterr().err
    assert main(["--db", db_url, "move-rating", old_id, new_id]) == 0
    moved = st.profile(fresh)
    assert (moved.name, moved.rating, moved.matches, moved.wins) == ("Hanako", old.rating, 1, 1)
    assert [h.match_id for h in st.history(fresh)] == ["m1"]
    with pytest.raises(ladder_store.KeyReplaced):
        st.ensure_profile(a, "Hanako")
    with pytest.raises(ladder_store.KeyReplaced):
        st.enqueue(a, "standard", 12, "p")
    assert [p.player_id for p in st.leaderboard()] .count(old_id) == 0
    assert main(["--db", db_url, "show", new_id]) == 0
    assert "Hanako" in capsys.readouterr().out
    assert main(["--db", db_url, "show", "nobody"]) == 1


def test_unknown_address_refused(tmp_path, capsys):
    with pytest.raises(ladder_store.LadderError):
        ladder_store.open_store("mysql://x")
    from koikoi.ladder.__main__ import main
    assert main(["--db", "mysql://x", "migrate"]) == 2


def test_default_is_sqlite_in_the_data_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("KOIKOI_HOME", str(tmp_path))
    with ladder_store.open_store() as s:
        assert s.dialect == "sqlite"
    assert (tmp_path / "data" / ladder_store.DB_FILE).exists()
    with ladder_store.open_store(None, tmp_path / "server") as s:
        hub = player(s, "in the server folder")
    from koikoi.ladder.__main__ import main
    assert main(["--data", str(tmp_path / "server"), "show", identity.player_id(hub)]) == 0


WORKER = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from koikoi.ladder import store
    url, me, hub, others, go = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(","), Path(sys.argv[5])
    s = store.open_store(url)
    deadline = time.monotonic() + 60
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    for i, other in enumerate(others):
        winner, loser = (hub, other) if i % 2 else (other, hub)
        s.record_match(f"{me}-{i}", winner, loser, preset="standard", length=12)
    s.close()
""")


def test_two_processes_rate_the_same_player_without_losing_updates(db_url, tmp_path):
    """Two OS processes, each with its own connection, rate matches of one player
    at once. No update is lost: the player's match count is the total, and the
    ratings chain: each match starts from the rating the one before it left."""
    n = 25
    with ladder_store.open_store(db_url) as s:
        hub = player(s, "hub")
        rivals = [[player(s, f"{side}{i}") for i in range(n)] for side in "xy"]
    go = tmp_path / "go"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", WORKER, db_url, f"p{k}", hub, ",".join(rivals[k]),
                               str(go)], env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True)
             for k in range(2)]
    go.touch()
    for p in procs:
        _, err = p.communicate(timeout=240)
        assert p.returncode == 0, err
    with ladder_store.open_store(db_url) as s:
        prof = s.profile(hub)
        assert prof.matches == 2 * n
        with s._tx():
            rows = s._all("SELECT winner, winner_before, winner_after, loser_before, loser_after "
                          "FROM rated_matches ORDER BY seq")
    chain = [(wb, wa) if w == hub else (lb, la) for w, wb, wa, lb, la in rows]
    assert len(chain) == 2 * n
    assert chain[0][0] == pytest.approx(1500.0)
    for (_, after), (before, _) in zip(chain, chain[1:]):
        assert before == pytest.approx(after)
    assert chain[-1][1] == pytest.approx(prof.rating.rating)


PAIRER = textwrap.dedent("""
    import json, sys, time
    from pathlib import Path
    from koikoi.ladder import store
    url, me, go, keys = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4].split(",")
    s = store.open_store(url)
    deadline = time.monotonic() + 60
    while not go.exists() and time.monotonic() < deadline:
        time.sleep(0.005)
    got = []
    for i, key in enumerate(keys):          # players keep arriving while both pair
        s.enqueue(key, "standard", 12, me, now=9_000 + i)
        got += [[a.key, b.key] for a, b in s.take_pairs(now=10_000)]
    for _ in range(5):
        got += [[a.key, b.key] for a, b in s.take_pairs(now=10_000)]
    s.close()
    print(json.dumps(got))
""")


def test_two_processes_pairing_never_share_a_player(db_url, tmp_path):
    """Players arrive on two processes that both pair all along: each player ends
    in exactly one pair, whoever took it."""
    import json
    n = 60
    with ladder_store.open_store(db_url) as s:
        keys = [[player(s, f"{side}{i}") for i in range(n)] for side in "ab"]
    go = tmp_path / "go"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    procs = [subprocess.Popen([sys.executable, "-c", PAIRER, db_url, f"proc-{k}", str(go), ",".join(keys[k])],
                              env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for k in range(2)]
    go.touch()
    pairs = []
    for p in procs:
        out, err = p.communicate(timeout=240)
        assert p.returncode == 0, err
        pairs += json.loads(out)
    seen = [k for pr in pairs for k in pr]
    assert sorted(seen) == sorted(keys[0] + keys[1])
    with ladder_store.open_store(db_url) as s:
        assert s.queue_length() == 0
