"""The index of finished matches: what History and Statistics show, without
replaying thousands of logs each time they open.

    index = MatchIndex(history_dir, data_dir / INDEX_NAME, data_root=data_dir)
    index.refresh()              # in the background: (re)read new or changed files
    index.entries()              # FinishedMatch rows, newest first (what is known so far)
    index.version, index.busy, index.progress   # for a screen that waits

The JSON logs in the history folder stay the truth; the index is a cache of
what each one says, kept in SQLite (standard library, WAL mode) beside them,
and it is checked, never trusted:

* every value read from it is checked like a file's (types, ranges, the
  statistics record parsed with the defensive JSON reader); a row that fails
  is not shown and is rebuilt from its file;
* each row carries a digest of its file's content and of its own values: a
  file edited in place (same size and time) or a row edited in the database
  no longer matches, and the row is rebuilt at the next refresh;
* a database of another shape or version (other columns, a view, a trigger,
  anything this version did not create), of another owner, or that is not a
  regular file (a link, a folder) is renamed aside (``<name>.corrupt-…``,
  never deleted; a link is renamed itself, its target is never opened) and
  rebuilt; the file is opened with SQLite's ``nofollow``;
* a database another process holds locked is not corrupt: it is left as it
  is and tried again; meanwhile what is known stays in memory.

Only the worker thread touches SQLite: the screens read the rows kept in
memory (``entries``, ``written_since``), and ``add`` (a match just filed)
shows the row at once and leaves the write to the worker, so a locked or
slow database never holds up a frame. A rebuild of many files is spread over
background processes (``spawn``, lowered priority: the engine's replay is
pure Python and would otherwise share one core with the render thread).

Nothing a file's summary claims is believed: every row is computed from the
replayed log (scores, winner, rounds, the statistics record). Only what the
log cannot tell is taken from the summary, checked: when it was filed, and
whether an unfinished match was conceded (by which seat) or abandoned. A
file that cannot be read or replayed is moved aside (``<name>.corrupt-…``)
and named once in ``problems``.

Without ``writable`` (a second window of the game) the index is built in
memory from a copy of the file's, and no file is moved.

A row, and reading one file into it, is ``koikoi.index_rows``; the SQLite file
(its shape, opening it, a lock told from damage) ``koikoi.index_db``; this module
keeps the rows and runs the worker (and re-exports the public names).
"""

from __future__ import annotations

import gc
import importlib
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Optional

from .files import BadFile, move_aside, read_bytes
from .i18n import _
from .session import valid_match_id
from .index_db import (BUSY_TIMEOUT, SCHEMA_VERSION, _damaged, _Locked, _locked, _shape_problem,  # noqa: F401
                       _share_the_interpreter, _SIDE_FILES, connect, copy_existing, ensure_schema, file_problem,
                       read_only)
from .index_rows import (MATCH_MAX_BYTES, FinishedMatch, _child_start, _COLUMNS, _digest, _entry, _NAME_RE,
                         _newest_first, _pool_size, _Read, _read_many, _read_one, _row, _stat_key, _values,
                         content_hash, history_files, row_of, summarize)

log = logging.getLogger("koikoi.index")

INDEX_NAME = "history-index.sqlite3"
BATCH = 64                       # rows written per transaction while building
POOL_FROM = 48                   # files to read before background processes are worth starting
LOCK_RETRY = 1.0                 # ... then the worker tries again this often (BUSY_TIMEOUT: index_db),
LOCK_PATIENCE = 30.0             # ... for this long, before leaving it to the next refresh
FRAME_HOLD = 0.05                # the longest the worker keeps still for one frame (frame_start)
YOUNG_GC_EVERY = 64              # worker steps between its collections of young objects (see _run)
# rows made ready for the database between two steps: the CPU between two steps is the longest a
# frame beginning meanwhile shares the interpreter with the worker (a batch of 32 in one: 2-7 ms)
MERGE_STEP = 8



# The modules a process pool's constructor imports, those a module imports first.
_POOL_MODULES = ("multiprocessing.util", "multiprocessing.connection", "multiprocessing.synchronize",
                 "multiprocessing.queues", "multiprocessing.resource_tracker", "multiprocessing.spawn",
                 "concurrent.futures.process")

class MatchIndex:
    def __init__(self, history_dir, db_path, *, data_root=None, writable: bool = True):
        self.history_dir = Path(history_dir)
        self.db_path = Path(db_path)
        self.data_root = Path(data_root) if data_root is not None else self.history_dir.parent
        self.writable = writable
        self.version = 0                 # bumped whenever the rows change
        self.removals = 0                # bumped whenever rows are removed or all replaced (read all again)
        self.progress = (0, 0)           # (files read, files to read) of the running refresh
        self.problems: list[str] = []    # files set aside, until someone takes them (take_problems)
        self.pool_from = POOL_FROM       # files to read before processes are started (0: never)
        self._lock = threading.RLock()   # the rows in memory; never held while SQLite works
        self._db: Optional[sqlite3.Connection] = None     # the worker's alone
        self._worker: Optional[threading.Thread] = None
        self._want_pass = False
        self._stop = False
        self._loaded = False             # the database's rows have been read (and checked)
        self._rows: dict[str, FinishedMatch] = {}     # name -> row: what the screens show
        self._digests: dict[str, str] = {}            # name -> digest, as stored
        self._unwritten: dict[str, FinishedMatch] = {}   # added, not yet in the database
        self._sorted: Optional[list[FinishedMatch]] = None
        self._bad: dict[str, str] = {}   # name -> content hash of files that failed and stayed (not re-read)
        self._written: list[FinishedMatch] = []       # every row made by this process, in order
        self._pool = None
        self._hashed: dict[str, tuple] = {}   # name -> (stat, content hash, row, digest) as last checked here
        self._on_disk = True             # False once the file failed in a way renaming cannot help
        # a screen drawing from the rows marks its frames (frame_start .. frame_end): the worker
        # keeps still meanwhile, so the render thread never queues for the interpreter mid-frame
        self._frame_free = threading.Event()
        self._frame_free.set()
        self._frame_until = 0.0
        self._steps = 0
        self.steps_in_frames = 0         # worker steps taken while a frame was marked (FRAME_HOLD ran out)

    # ---------------------------------------------------------- the database (worker thread only)
    def _open(self) -> sqlite3.Connection:
        """The database, opened and checked; raises _Locked if another process holds it."""
        if self._db is not None:
            return self._db
        db = self._open_file() if self.writable and self._on_disk else None
        if db is None:
            db = sqlite3.connect(":memory:", check_same_thread=False)
            if not self.writable:
                copy_existing(self.db_path, db)
            if _shape_problem(db) is not None:
                db.close()
                db = sqlite3.connect(":memory:", check_same_thread=False)
        ensure_schema(db)
        self._db = db
        return db

    def _set_db_aside(self, why: str) -> bool:
        log.warning("history index %s is unusable (%s); setting it aside and rebuilding", self.db_path, why)
        moved = True
        for suffix in _SIDE_FILES:       # a journal left alone would be applied to the new database
            side = self.db_path.with_name(self.db_path.name + suffix)
            if os.path.lexists(side) and move_aside(side) is None:
                moved = False
        if os.path.lexists(self.db_path) and move_aside(self.db_path) is None:
            moved = False
        return moved

    def _open_file(self) -> Optional[sqlite3.Connection]:
        for attempt in (1, 2):
            try:
                self.db_path.parent.mkdir(parents=True, exist_ok=True)
                problem = file_problem(self.db_path)
                if problem is not None:
                    raise sqlite3.DatabaseError(problem)
                return connect(self.db_path)
            except (sqlite3.Error, OSError) as exc:
                if isinstance(exc, sqlite3.Error) and _locked(exc):
                    raise _Locked(str(exc)) from None
                if attempt == 2 or not (isinstance(exc, sqlite3.Error) and _damaged(exc)):
                    log.warning("history index %s cannot be used (%s); keeping it in memory", self.db_path, exc)
                    return None
                if not self._set_db_aside(str(exc)):
                    return None
        return None

    def _close_db(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None

    # ---------------------------------------------------------- reading (any thread: memory only)
    def entries(self) -> list[FinishedMatch]:
        """Every known match, newest first."""
        return self.snapshot()[0]

    def snapshot(self) -> tuple[list[FinishedMatch], int]:
        """(every known match, newest first; a mark for ``written_since``). No database
        read: the rows are the ones the worker checked, and the ones just added."""
        with self._lock:
            if self._sorted is None:
                self._sorted = _newest_first(self._rows.values())
            return list(self._sorted), len(self._written)

    def written_since(self, mark: int) -> tuple[list[FinishedMatch], int]:
        """(rows written since ``mark``, in the order written; a new mark)."""
        with self._lock:
            return self._written[mark:], len(self._written)

    def path_of(self, match_id: str) -> Optional[Path]:
        """The history file of the match ``match_id``, if it is indexed and still there."""
        with self._lock:
            loaded = self._loaded
            name = next((m.path.name for m in self._rows.values() if m.match_id == match_id), None)
        if name is None and not loaded:      # before the worker has read the index: one look in the file
            found = read_only(self.db_path, "SELECT name FROM matches WHERE match_id = ? LIMIT 1", (match_id,))
            name = found[0][0] if found else None
            name = name if type(name) is str and _NAME_RE.fullmatch(name) else None
        if name is None:
            return None
        path = self.history_dir / name
        return path if os.path.lexists(path) else None

    def known_ids(self) -> set:
        """The ids of every indexed match (``path_of`` confirms one): from memory once the
        worker has read the index, else one read-only look in the file, not waiting on a lock."""
        with self._lock:
            if self._loaded:
                return {m.match_id for m in self._rows.values()}
        rows = read_only(self.db_path, "SELECT match_id FROM matches") or []
        return {r[0] for r in rows if valid_match_id(r[0])}

    def take_problems(self) -> list[str]:
        with self._lock:
            out, self.problems = self.problems, []
        return out

    @property
    def busy(self) -> bool:
        w = self._worker
        return w is not None and w.is_alive()

    def frame_start(self) -> None:
        """The render thread begins a frame: the worker waits at its next step until
        ``frame_end`` (or FRAME_HOLD, should the frame never say it ended)."""
        self._frame_until = time.monotonic() + FRAME_HOLD
        self._frame_free.clear()

    def frame_end(self) -> None:
        self._frame_free.set()

    def _step(self) -> None:
        """Between two small pieces of the worker's work (one file, one row): wait while
        a frame is drawn; every YOUNG_GC_EVERY steps collect the young objects (the
        automatic collector is off while the worker runs: a full collection of every
        row in memory, started by the worker's allocations, froze frames for 40-270 ms)."""
        if not self._frame_free.is_set():
            left = self._frame_until - time.monotonic()
            if left <= 0 or not self._frame_free.wait(left):
                self.steps_in_frames += 1
        self._steps += 1
        if self._steps % YOUNG_GC_EVERY == 0:
            gc.collect(1)

    # ---------------------------------------------------------- changes (any thread)
    def add(self, m: FinishedMatch) -> None:
        """Index a file just filed (no need to read it back): shown at once, written
        to the database by the worker."""
        with self._lock:
            self._unwritten[m.path.name] = m
            self._publish({m.path.name: m}, written=[m])
            self._start()

    def refresh(self, *, wait: bool = False) -> None:
        """Bring the index up to date with the folder, on the worker thread (or wait
        for it, with ``wait``). Every file is hashed; only new, changed or unlisted
        ones (and those whose row fails its checks) are replayed."""
        with self._lock:
            self._want_pass = True
            self._start()
        if wait:
            self.wait()

    def _start(self) -> None:
        if self.busy:
            return
        self._stop = False
        self._worker = threading.Thread(target=self._run, name="koikoi-history-index", daemon=True)
        self._worker.start()

    def wait(self, timeout: Optional[float] = None) -> bool:
        w = self._worker
        if w is not None:
            w.join(timeout)
        return not self.busy

    def close(self) -> None:
        self._stop = True
        self.wait(5.0)
        if self.busy:             # still finishing a batch: it closes what it uses on its way out
            return
        with self._lock:
            self._close_db()
        self._end_pool()

    def _publish(self, rows: dict, *, written=(), gone=(), replace_all: bool = False) -> None:
        """Change the rows in memory (under the lock)."""
        if replace_all:
            self._rows = dict(rows)
            self._rows.update(self._unwritten)
            self.removals += 1
        else:
            self._rows.update(rows)
        for name in gone:
            self._rows.pop(name, None)
        if gone:
            self.removals += 1
        self._written.extend(written)
        self._sorted = None
        self.version += 1

    # ---------------------------------------------------------- the worker
    def _run(self) -> None:
        _share_the_interpreter(True)
        waited = 0.0
        failures = 0
        try:
            while not self._stop:
                with self._lock:
                    want_pass, self._want_pass = self._want_pass, False
                    if not want_pass and not self._unwritten and self._loaded:
                        self.progress = (0, 0)
                        self._worker = None
                        return
                try:
                    self._work(want_pass)
                    waited = 0.0
                except _Locked as exc:
                    # another process holds the index: nothing is wrong with it; try again
                    with self._lock:
                        self._want_pass = self._want_pass or want_pass
                    if waited >= LOCK_PATIENCE:
                        log.warning("history index %s stays locked (%s); trying again at the next refresh",
                                    self.db_path, exc)
                        return
                    if waited == 0.0:
                        log.info("history index %s is locked by another process (%s); waiting", self.db_path, exc)
                    time.sleep(LOCK_RETRY)
                    waited += LOCK_RETRY
                except sqlite3.Error as exc:
                    failures += 1
                    if failures > 3:
                        raise
                    # the file failed under us: damaged since it was opened (aside, rebuilt), or it
                    # cannot be written (full disk...: the rows are kept in memory this session)
                    # (the rows shown stay; a fresh database gets them again from their files)
                    on_disk = self._db is not None and self._on_disk and self.writable
                    self._close_db()
                    fresh = on_disk and _damaged(exc) and self._set_db_aside(str(exc))
                    if not fresh:
                        log.warning("history index %s cannot be written (%s); keeping it in memory",
                                    self.db_path, exc)
                        self._on_disk = False
                    with self._lock:
                        if fresh or not self._loaded:   # a new file: every row written again
                            self._digests = {}
                            self._hashed.clear()
                        self._want_pass = True
        except Exception:  # a bug here must not take the game down; the rows stay as they were
            log.exception("history index refresh failed")
        finally:
            self.progress = (0, 0)
            _share_the_interpreter(False)
            self._end_pool()
            if self._stop:                # closed while it ran
                with self._lock:
                    self._close_db()

    def _work(self, want_pass: bool) -> None:
        try:
            db = self._open()
            if not self._loaded:
                self._load(db)
            self._write_unwritten(db)
            if want_pass:
                self._pass(db)
        except sqlite3.Error as exc:
            if _locked(exc):
                raise _Locked(str(exc)) from None
            raise

    def _load(self, db: sqlite3.Connection) -> None:
        """Read the database's rows, checking each; a row that fails is left out
        (the pass rebuilds it from its file)."""
        rows: dict[str, FinishedMatch] = {}
        digests: dict[str, str] = {}
        bad = 0
        cur = db.execute(f"SELECT {', '.join(_COLUMNS)} FROM matches")
        folder = self.history_dir
        while True:
            chunk = cur.fetchmany(512)
            if not chunk:
                break
            for i, r in enumerate(chunk):
                if i % 16 == 0:
                    self._step()
                m = _entry(folder, r)
                if m is None:
                    bad += 1
                    continue
                rows[m.path.name] = m
                digests[m.path.name] = r[1]
        if bad:
            log.warning("history index %s: %d row(s) are not ones this version writes; rebuilding them",
                        self.db_path, bad)
        with self._lock:
            self._digests = digests
            self._loaded = True
            self._publish(rows, replace_all=True)

    def _write_unwritten(self, db: sqlite3.Connection) -> None:
        with self._lock:
            todo = list(self._unwritten.values())
        if not todo:
            return
        rows = []
        for m in todo:
            r = _read_one(self.history_dir, m.path.name, self.data_root)
            if r.content is not None:
                rows.append(_row(m, r.content))
        self._insert(db, rows)
        with self._lock:
            for m in todo:
                if self._unwritten.get(m.path.name) is m:
                    del self._unwritten[m.path.name]
            for row in rows:
                self._digests[row[0]] = row[1]

    def _insert(self, db: sqlite3.Connection, rows: list) -> None:
        if not rows:
            return
        db.executemany(f"INSERT OR REPLACE INTO matches VALUES ({', '.join('?' * len(_COLUMNS))})", rows)
        db.commit()

    def _pass(self, db: sqlite3.Connection) -> None:
        folder = self.history_dir
        names = set(history_files(folder))
        with self._lock:
            known = dict(self._digests)
            rows = dict(self._rows)
        gone = [n for n in set(known) | set(rows) if n not in names]
        if gone:
            db.executemany("DELETE FROM matches WHERE name = ?", [(n,) for n in gone])
            db.commit()
            with self._lock:
                for n in gone:
                    self._digests.pop(n, None)
                    self._unwritten.pop(n, None)
                self._publish({}, gone=gone)
        # every file is hashed (its bytes kept for a file read here): its row must match it
        todo: list[tuple[str, Optional[bytes]]] = []
        for i, name in enumerate(sorted(names, reverse=True)):
            if self._stop:
                return
            self._step()
            seen = self._hashed.get(name)
            if seen is not None and name in known and name in rows:
                # read by this process and not written since (a write changes the ctime, which
                # no program can set): hashed again only once its stat changes
                try:
                    st = os.lstat(folder / name)
                except OSError:
                    st = None
                if st is not None and seen[0] == _stat_key(st) and seen[2] is rows[name] and seen[3] == known[name]:
                    continue                     # the same bytes, the same row and digest as checked
            try:
                raw = read_bytes(folder / name, max_bytes=MATCH_MAX_BYTES, root=self.data_root)
            except BadFile:
                if self._bad.get(name) != "":
                    todo.append((name, None))    # read again below, to say why and set it aside
                continue
            if raw is None:
                continue
            content = content_hash(raw)
            m = rows.get(name)
            if m is not None and name in known and _digest(content, name, _values(m)) == known[name]:
                self._remember(name, content, m, known[name])
                continue
            if self._bad.get(name) == content:
                continue
            todo.append((name, raw if not self.pool_from or len(todo) < self.pool_from else None))
        self.progress = (0, len(todo))
        if not todo:
            return
        log.info("history index: reading %d match file(s)", len(todo))
        results = self._read_in_processes(db, [n for n, _r in todo]) if (
            self.pool_from and len(todo) >= self.pool_from) else None
        if results is None:
            self._read_here(db, todo)

    def _read_here(self, db: sqlite3.Connection, todo: list) -> None:
        batch: list[_Read] = []
        for i, (name, raw) in enumerate(todo):
            if self._stop:
                break
            self._step()
            batch.append(_read_one(self.history_dir, name, self.data_root, raw))
            self.progress = (i + 1, len(todo))
            if len(batch) >= BATCH:
                self._take(db, batch)
                batch = []
        self._take(db, batch)

    def _read_in_processes(self, db: sqlite3.Connection, names: list) -> Optional[bool]:
        """Read ``names`` in background processes; None if they cannot be started.
        A few chunks are in flight at a time, so that quitting mid-rebuild waits for
        them only (the interpreter's exit lets a pool finish what it was given)."""
        import concurrent.futures as cf   # start-up time: measured 4-5 ms CPU, only a rebuild of many files needs it
        import multiprocessing            # start-up time: measured 4-5 ms CPU together with the line above
        workers = _pool_size()
        chunk = max(8, min(BATCH // 2, len(names) // (4 * workers) or 8))
        chunks = [names[i:i + chunk] for i in range(0, len(names), chunk)]
        pending: set = set()

        def submit() -> None:
            while chunks and len(pending) < 2 * workers and not self._stop:
                self._step()             # a submit may start a process (a few ms of pickling and spawning)
                pending.add(self._pool.submit(_read_many, str(self.history_dir), chunks.pop(0), self.data_root))
        try:
            self._step()                 # the pool's modules are imported first (4-5 ms)
            if self._pool is None:
                # What the pool's constructor would import in one go (7-10 ms of this thread's
                # CPU, tools/bench_history.py's trace: a frame waited for the interpreter lock
                # meanwhile), a module a step, so that a frame waits for one at most.
                for module in _POOL_MODULES:
                    try:
                        importlib.import_module(module)
                    except ImportError:    # not on this system: the constructor says what it lacks
                        pass
                    self._step()
                if os.name == "posix":     # its semaphores start the resource tracker's process
                    from multiprocessing import resource_tracker  # platform: POSIX only, imported above
                    resource_tracker.ensure_running()
                    self._step()
                self._pool = cf.ProcessPoolExecutor(max_workers=workers, initializer=_child_start,
                                                    mp_context=multiprocessing.get_context("spawn"))
            submit()
        except Exception:  # no processes on this system (or in this build): read them here
            log.warning("history index: background processes unavailable; reading here", exc_info=True)
            self._end_pool()
            return None
        done = 0
        try:
            while pending and not self._stop:
                finished, _running = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    pending.discard(future)
                    batch = []
                    for name, content, values, error in future.result():
                        self._step()
                        batch.append(_Read(name, content, self._from_child(name, values), error))
                    self._step()
                    self._take(db, batch)
                    done += len(batch)
                    self.progress = (done, len(names))
                submit()
        except (cf.process.BrokenProcessPool, cf.CancelledError):
            # a process died (killed, out of memory): this index reads here from now on
            log.warning("history index: a background process stopped; reading the rest here")
            self._end_pool()
            self.pool_from = 0
            with self._lock:
                self._want_pass = True
        finally:
            for f in pending:
                f.cancel()
        return True

    def _from_child(self, name: str, values) -> Optional[FinishedMatch]:
        """A row a background process computed, checked like one read from the index."""
        if values is None:
            return None
        return _entry(self.history_dir, (name, "0" * 32) + tuple(values))

    def _remember(self, name: str, content: str, row: FinishedMatch, digest: str) -> None:
        try:
            self._hashed[name] = (_stat_key(os.lstat(self.history_dir / name)), content, row, digest)
        except OSError:
            self._hashed.pop(name, None)

    def _end_pool(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _take(self, db: sqlite3.Connection, batch: list) -> None:
        """Store what was read: rows written, files that cannot be used set aside."""
        rows, made = [], []
        for i, r in enumerate(batch):
            if i % MERGE_STEP == MERGE_STEP - 1:
                self._step()
            if r.match is not None and r.content is not None:
                rows.append(_row(r.match, r.content))
                made.append(r.match)
            elif r.error is not None:
                self._set_aside(self.history_dir / r.name, r.error, r.content)
        if not made:
            return
        self._step()
        with self._lock:          # shown at once; stored (or, if the store fails, read again next time)
            self._publish({m.path.name: m for m in made}, written=made)
        self._insert(db, rows)
        with self._lock:
            for row in rows:
                self._digests[row[0]] = row[1]
        for m in made:
            self._hashed.pop(m.path.name, None)       # hashed again, from its bytes, at the next pass

    def _set_aside(self, path: Path, reason: str, content: Optional[str]) -> None:
        log.warning("history file %s cannot be used: %s", path, reason)
        moved = move_aside(path) if self.writable else None
        with self._lock:
            if moved is None:
                self._bad[path.name] = content if content is not None else ""
            gone = [path.name] if path.name in self._rows else []
            if gone:
                self._digests.pop(path.name, None)
                self._publish({}, gone=gone)
            if moved:
                self.problems.append(_("{file}: {reason} (kept as {kept})").format(
                    file=path.name, reason=reason, kept=moved.name))
            else:
                self.problems.append(_("{file}: {reason}").format(file=path.name, reason=reason))


__all__ = ["MatchIndex", "FinishedMatch", "summarize", "row_of", "history_files", "content_hash", "INDEX_NAME",
           "MATCH_MAX_BYTES"]
