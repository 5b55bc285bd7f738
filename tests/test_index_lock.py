"""A history index another process holds locked (issue 26, item 11): filing and the
History screen never wait for it, and a lock is never taken for damage."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from koikoi.match_index import INDEX_NAME
from koikoi.storage import Storage

from test_index_checks import a_match, filed, set_aside, truth

HOLDER = r"""
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], timeout=10, isolation_level=None)
if sys.argv[2] == "rollback":
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("BEGIN EXCLUSIVE")
else:
    db.execute("BEGIN IMMEDIATE")
    db.execute("DELETE FROM matches WHERE 0")
print("locked", flush=True)
sys.stdin.readline()          # held until the test says so (or its pipe closes)
db.execute("ROLLBACK")
db.close()
"""


@pytest.fixture(autouse=True)
def _close_display():
    yield
    pygame.display.quit()


class Holder:
    """Another process holding a write lock on the index (``rollback``: exclusive, in
    rollback-journal mode, so that nobody can even read it)."""

    def __init__(self, path: Path, mode: str):
        self.proc = subprocess.Popen([sys.executable, "-c", HOLDER, str(path), mode], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        assert line.strip() == "locked", line

    def release(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.write("\n")
            self.proc.stdin.flush()
            self.proc.wait(20)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.release()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


def stored_names(store: Storage) -> set:
    db = sqlite3.connect(str(store.data_dir / INDEX_NAME), timeout=5)
    try:
        return {r[0] for r in db.execute("SELECT name FROM matches")}
    finally:
        db.close()


def test_filing_while_another_process_holds_the_index_never_waits_for_it():
    store, paths = filed(conceded=False)
    with Holder(store.data_dir / INDEX_NAME, "wal") as holder:
        store = Storage()
        store.history_index.refresh(wait=True)     # the index is read (a writer does not stop readers)
        t0 = time.perf_counter()
        path = store.file_match(a_match(77, finish=True))
        took = time.perf_counter() - t0
        assert path is not None and took < 0.5, f"filing took {took:.2f} s"
        assert path.name in {m.path.name for m in store.history_index.entries()}   # shown at once
        holder.release()
    assert store.history_index.wait(30)
    assert path.name in stored_names(store)                 # written once the lock is gone
    assert set_aside(store.data_dir / INDEX_NAME) == []


def test_the_history_screen_draws_while_a_locked_index_cannot_even_be_read():
    from koikoi.ui.app import App
    from koikoi.ui.scenes.history import HistoryScene
    store, paths = filed()
    index = store.data_dir / INDEX_NAME
    with Holder(index, "rollback") as holder:
        app = App((1280, 720), storage=Storage(), seed=3)
        app.settings["anim_speed"] = 0.0
        frames = []
        t0 = time.perf_counter()
        app.push(HistoryScene(app))
        frames.append(time.perf_counter() - t0)
        filed_now = app.storage.file_match(a_match(78, finish=True))
        for _ in range(30):
            f0 = time.perf_counter()
            app.step(1 / 60)
            frames.append(time.perf_counter() - f0)
            time.sleep(0.01)
        assert max(frames) < 0.25, f"a frame took {max(frames) * 1000:.0f} ms"
        assert filed_now.name in {m.path.name for m in app.top.matches}
        holder.release()
    assert app.storage.history_index.wait(30)
    for _ in range(40):
        app.step(1 / 60)
        if len(app.top.matches) == len(paths) + 1:
            break
        time.sleep(0.05)
    assert {m.path.name for m in app.top.matches} == {p.name for p in paths} | {filed_now.name}
    app.shutdown()
    # the locked index was valid: never renamed aside, and it holds every row now
    assert set_aside(index) == []
    assert stored_names(store) == {p.name for p in paths} | {filed_now.name}


def test_a_locked_index_at_start_is_used_once_free_and_never_set_aside():
    store, paths = filed()
    index = store.data_dir / INDEX_NAME
    before = stored_names(store)
    with Holder(index, "rollback") as holder:
        other = Storage()
        other.history_index.refresh()
        time.sleep(3.0)                              # the worker meets the lock (and waits past 2 s)
        assert set_aside(index) == []
        holder.release()
    assert other.history_index.wait(60)
    assert {m.path.name: m for m in other.history_index.entries()} == truth(store, paths)
    assert set_aside(index) == [] and stored_names(store) == before
