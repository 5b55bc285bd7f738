"""The room store's writer thread: the writes of every room, in group commits, so the
server's event loop never waits for the disk (koikoi.net.rooms.RoomStore starts it).

    writer = Writer(connect, window=0.01)    # connect() -> its own sqlite3 connection
    fut = writer.submit(work)                # work(db) in a transaction: a concurrent Future
    fut = writer.submit_to(loop, work)       # ... an asyncio future of ``loop``
    writer.close()                           # write what is queued, then stop
"""

from __future__ import annotations

import concurrent.futures
import logging
import queue
import sqlite3
import threading
import time
from typing import Optional

log = logging.getLogger("koikoi.net.rooms")


class StoreError(RuntimeError):
    """The store could not write: the change was not made."""


class _Answer:
    """What a work's asyncio future is told, kept until the writer posts a whole batch's
    answers to the event loop in one call (one wake-up of the loop, not one a work)."""

    __slots__ = ("fut", "posts", "settled")

    def __init__(self, fut, posts: list):
        self.fut, self.posts, self.settled = fut, posts, False

    def done(self) -> bool:
        return self.settled

    def set_result(self, out) -> None:
        self.settled = True
        self.posts.append((self.fut, None, out))

    def set_exception(self, exc: BaseException) -> None:
        self.settled = True
        self.posts.append((self.fut, exc, None))


def _settle(posts: list) -> None:
    """On the event loop: the answers of a batch (a future cancelled meanwhile is left)."""
    for fut, exc, out in posts:
        if not fut.done():
            if exc is not None:
                fut.set_exception(exc)
            else:
                fut.set_result(out)


class Writer:
    """A thread of its own that writes the actions of every room: ``submit(work)``
    queues ``work(db)`` and returns a ``concurrent.futures.Future`` (``submit_to(loop,
    work)``: an asyncio future of ``loop``), done once the
    work is committed (or failed: StoreError, and nothing of it was written). The
    work queued while a commit runs goes into the next transaction together (group
    commit): under load one commit (one fsync) carries the actions of many rooms,
    and the server's event loop never waits for the disk. One bad work fails alone
    (``_write``).

    ``window`` (seconds): a commit begins at least that long after the one before it
    began, so that under load it carries every work that came in meanwhile (a commit's
    fsync and the thread wake-ups around it cost as much as several actions'
    statements); the thread sleeps out the window after a commit, so the works queued
    meanwhile do not wake it one by one. A work that finds the writer idle (no commit
    began within ``window``) is written at once; under load a work waits up to
    ``window`` longer. 0: each commit as soon as the one before it is done."""

    BATCH = 256

    def __init__(self, connect, window: float = 0.0):
        self._connect = connect
        self.window = max(0.0, float(window))
        self._queue: "queue.SimpleQueue" = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="koikoi-room-writer", daemon=True)
        self._db: Optional[sqlite3.Connection] = None
        self._ready = threading.Event()
        self._error: Optional[BaseException] = None
        self._posts: list = []        # answers for the event loop (``_Answer``), not posted yet
        self._handing: Optional[list] = None    # submit_to's works of this turn of the loop
        self._loop = None
        self.commits = 0              # transactions committed (tools read them)
        self.works = 0                # works written
        self._thread.start()
        self._ready.wait(30)
        if self._error is not None:
            raise StoreError(f"the room writer cannot open the store: {self._error}")

    def submit(self, work):
        fut: concurrent.futures.Future = concurrent.futures.Future()
        if not self._thread.is_alive():
            fut.set_exception(StoreError("the room writer has stopped"))
            return fut
        self._queue.put((work, fut))
        return fut

    def submit_to(self, loop, work):
        """``submit`` answered on ``loop`` (an asyncio future; call it on that loop)."""
        fut = loop.create_future()
        if not self._thread.is_alive():
            fut.set_exception(StoreError("the room writer has stopped"))
            return fut
        self._loop = loop
        # handed to the thread once per turn of the loop: one wake-up for the writes of every
        # room that came in the same turn, not one each
        if self._handing is None:
            self._handing = []
            loop.call_soon(self._hand_over)
        self._handing.append((work, _Answer(fut, self._posts)))
        return fut

    def _hand_over(self) -> None:
        items, self._handing = self._handing, None
        if items:
            self._queue.put(items)
            if not self._thread.is_alive():     # stopped meanwhile: never leave a caller waiting
                for _work, answer in items:
                    answer.set_exception(StoreError("the room writer has stopped"))
                self._post()

    def _post(self) -> None:
        posts, loop = self._posts, self._loop
        if posts and loop is not None:
            batch = posts[:]
            posts.clear()
            try:
                loop.call_soon_threadsafe(_settle, batch)
            except RuntimeError:        # the loop is closed: nobody waits any more
                pass

    def close(self, timeout: float = 30.0) -> None:
        """Write what is queued, then stop."""
        self._hand_over()
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join(timeout)

    def _run(self) -> None:
        try:
            self._db = self._connect()
        except BaseException as exc:      # reported by __init__
            self._error = exc
            self._ready.set()
            return
        self._ready.set()
        stop = False
        try:
            while not stop:
                item = self._queue.get()
                if item is None:
                    break
                batch = item if type(item) is list else [item]
                while len(batch) < self.BATCH:
                    try:
                        nxt = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is None:
                        stop = True
                        break
                    if type(nxt) is list:
                        batch.extend(nxt)
                    else:
                        batch.append(nxt)
                began = time.monotonic()
                self._write(batch)
                self._post()
                if self.window and not stop:
                    # The window: what comes meanwhile waits for the next commit, together
                    # (and is put in the queue without waking this thread)
                    wait = began + self.window - time.monotonic()
                    if wait > 0:
                        time.sleep(wait)
        finally:
            while True:                   # never leave a caller waiting
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                for work in (item if type(item) is list else [item] if item is not None else []):
                    if not work[1].done():
                        work[1].set_exception(StoreError("the room store was closed"))
            self._post()
            try:
                self._db.close()
            except sqlite3.Error:
                pass

    def _write(self, batch) -> None:
        """One transaction for the batch, one commit (one fsync) for all its works, no
        savepoint between them. A work that fails rolls the transaction back: it fails
        alone, and the others are written again without it, together (a work is
        statements only: run a second time it writes the same). If the commit fails,
        every work of the batch does (nothing of it was written)."""
        db = self._db
        while batch:
            outs: list = []
            bad: Optional[Exception] = None
            try:
                db.execute("BEGIN IMMEDIATE")
                try:
                    for work, _fut in batch:
                        try:
                            outs.append(work(db))
                        except Exception as exc:
                            bad = exc
                            break
                    if bad is None:
                        db.execute("COMMIT")
                except BaseException:
                    self._rollback()
                    raise
            except Exception as exc:
                log.error("room store: the commit failed: %s", exc)
                for _work, fut in batch:
                    if not fut.done():
                        fut.set_exception(StoreError(str(exc)))
                return
            if bad is None:
                break
            self._rollback()
            i = len(outs)
            log.error("room store: %s", bad)
            batch[i][1].set_exception(StoreError(str(bad)))
            batch = batch[:i] + batch[i + 1:]
        else:
            return
        self.commits += 1
        self.works += len(batch)
        for (_work, fut), out in zip(batch, outs):
            fut.set_result(out)

    def _rollback(self) -> None:
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:       # no transaction left to undo (SQLite undid it itself)
            pass


__all__ = ["StoreError", "Writer"]
