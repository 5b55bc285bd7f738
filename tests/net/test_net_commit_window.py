"""The writer's commit window: under load one commit carries every write that came
within the window (fewer fsyncs), an idle writer commits at once, and nothing is
answered before it is committed."""

from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager

from koikoi.net.config import ServerConfig
from koikoi.net.rooms import RoomStore


@contextmanager
def _store(tmp_path, window: float):
    store = RoomStore(tmp_path, durable=False, commit_window=window)
    try:
        store.db.execute("CREATE TABLE t (k INTEGER PRIMARY KEY)")
        yield store
    finally:
        store.close()


def _put(k):
    return lambda db: db.execute("INSERT INTO t VALUES (?)", (k,)) and k


def _rows(store) -> int:
    db = sqlite3.connect(f"file:{store.path}?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM t").fetchone()[0]
    finally:
        db.close()


def _trickle(w, n: int, every: float) -> list:
    """``n`` writes, one each ``every`` seconds (each after the one before is committed
    when ``every`` is longer than a commit): the load of many rooms, one action at a time."""
    futures = []
    for k in range(n):
        futures.append(w.submit(_put(k)))
        time.sleep(every)
    return futures


def test_a_busy_writer_gathers_the_writes_of_its_window_in_one_commit(tmp_path):
    with _store(tmp_path, 0.2) as store:
        w = store.writer
        w.submit(_put(-1)).result(10)          # a commit has just begun: the window is open
        before = w.commits
        futures = _trickle(w, 20, 0.005)       # 20 writes over ~0.1 s
        assert [f.result(10) for f in futures] == list(range(20))
        assert w.works == 21 and w.commits - before <= 2      # not one commit each
        assert _rows(store) == 21


def test_without_a_window_each_write_that_finds_the_writer_idle_is_its_own_commit(tmp_path):
    with _store(tmp_path, 0.0) as store:
        w = store.writer
        futures = _trickle(w, 10, 0.03)
        assert [f.result(10) for f in futures] == list(range(10))
        assert w.commits >= 8


def test_an_idle_writer_commits_at_once_and_each_answer_follows_its_commit(tmp_path):
    with _store(tmp_path, 0.5) as store:
        w = store.writer
        t0 = time.monotonic()
        fut = w.submit(_put(1))
        assert fut.result(10) == 1
        assert time.monotonic() - t0 < 0.4     # no commit began within the window: no wait
        assert _rows(store) == 1                # answered: on disk (another connection sees it)
        t0 = time.monotonic()
        fut = w.submit(_put(2))                 # within the window of the first: waits for it
        assert fut.result(10) == 2
        assert time.monotonic() - t0 >= 0.3
        assert _rows(store) == 2


def test_the_server_has_a_short_window_by_default():
    assert 0 < ServerConfig().commit_window <= 0.03      # p99 at 500 matches stays under 50 ms
