"""The matches kept for later (``saved/``): keeping one, listing them, resuming one.

Part of ``koikoi.storage.Storage`` (a mixin: it uses the store's folders, its
match reader and its filing). The lists come from ``koikoi.saved_index``: a
kept match is replayed once, when it is first seen or after its file changed,
never at every visit of the title. A file not summarized yet is replayed at
once while the listing's time allows (``LIST_BUDGET``), the rest on a
background thread: they are listed meanwhile without a summary
(``SavedMatch.summary`` is None) and ``kept_version`` changes as each is read.

What a replay finds is acted on as before: a file that cannot be used is set
aside (never deleted) with a message (``list_saved``'s problems, or the next
call's for the ones read in the background), a finished or already filed
match is filed and only then its kept copy removed, a file whose name
disagrees with the id inside is renamed to the id's name (or found by its
path). Resume replays the one file chosen.
"""

from __future__ import annotations

import logging
import os
import re
import stat
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple, Optional

from .files import BadFile, move_aside, read_bytes
from .i18n import _
from .match_index import MATCH_MAX_BYTES, _share_the_interpreter, history_files
from .saved_index import SAVED_INDEX_NAME, SavedIndex, SavedSummary, content_hash, stat_key, summary_of
from .session import MatchSession

log = logging.getLogger("koikoi.storage")

LIST_BUDGET = 0.25          # seconds a listing replays unsummarized files before leaving them to the thread
_KEPT_NAME = re.compile(r"match-(?P<id>[0-9a-f]{16})\.json")
_FILED_NAME = re.compile(r"match-.+-(?P<id>[0-9a-f]{16})\.json")


@dataclass(frozen=True)
class SavedMatch:
    """An unfinished match kept for later (``saved/``). ``summary`` is None while its file
    is still being read (``Storage.kept_version`` changes once it is)."""

    path: Path
    match_id: str               # "" while being read, if its name holds no id
    saved_at: float             # the file's modification time
    summary: Optional[SavedSummary] = None


class _Read(NamedTuple):
    """What reading one kept file found."""

    name: str
    st: Optional[os.stat_result] = None     # None: gone, or changing while read
    content: str = ""
    summary: Optional[SavedSummary] = None
    loaded: Optional[tuple] = None          # (id, seats, state) replayed here (a finished match to file)
    error: Optional[BaseException] = None


def kept_id(name: str) -> str:
    """The id a kept file's name gives, "" if none."""
    m = _KEPT_NAME.fullmatch(name)
    return m["id"] if m else ""


class KeptMatches:
    """The ``saved/`` half of Storage."""

    def _kept_reset(self) -> None:
        self._kept_lock = threading.RLock()
        self._kept_index: Optional[SavedIndex] = None
        self._kept_worker: Optional[threading.Thread] = None
        self._kept_problems: list[str] = []     # found by the thread, for the next list_saved
        self._saved_paths: dict[str, Path] = {}    # kept matches listed under a name not their id's
        self._last_autosave: Optional[tuple] = None    # (id, content hash, summary) as last autosaved here
        self.kept_version = 0                   # changes whenever the thread has read a kept file

    @property
    def kept_index(self) -> SavedIndex:
        if self._kept_index is None:
            self._kept_index = SavedIndex(self.data_dir / SAVED_INDEX_NAME, data_root=self.data_dir,
                                          writable=not self.read_only)
        return self._kept_index

    @property
    def kept_busy(self) -> bool:
        """True while kept files are being read in the background."""
        w = self._kept_worker
        return w is not None and w.is_alive()

    def saved_path(self, match_id: str) -> Path:
        return self.saved_dir / f"match-{match_id}.json"

    def _kept_names(self) -> Optional[list[str]]:
        try:
            with os.scandir(self.saved_dir) as it:
                return sorted(e.name for e in it if e.name.startswith("match-") and e.name.endswith(".json"))
        except OSError:
            return None

    def _remember_autosave(self, session: "MatchSession", text: str) -> None:
        """The autosave just written: when it is kept for later, its summary is known."""
        self._last_autosave = (session.id, content_hash(text), summary_of(session.id, session.seats, session.state))

    # ---------------------------------------------------------- keeping
    def keep_for_later(self) -> bool:
        """Move the autosave into ``saved/`` (so another match can start); True
        if there is no autosave any more. An unreadable one is set aside."""
        if self.read_only:
            return False
        p = self.autosave_path
        if not self.has_autosave():
            self._autosave_id = ""
            return True
        mid = self._peek_id(p)
        with self._kept_lock:
            try:
                if mid is None:
                    moved = move_aside(p)
                    self._autosave_id = "" if moved else self._UNKNOWN
                    return moved is not None
                self.saved_dir.mkdir(parents=True, exist_ok=True)
                target = self.saved_path(mid)
                os.replace(p, target)    # the same match kept earlier: this copy is newer
                self._autosave_id = ""
                log.info("kept match %s for later", mid)
            except OSError as exc:
                log.error("could not keep the saved match for later: %s", exc)
                self._autosave_id = self._UNKNOWN
                return False
            self._index_kept(target, mid)
        return True

    def _index_kept(self, path: Path, match_id: str) -> None:
        """The summary of a match just kept, from the autosave this process wrote, if the
        file holds exactly those bytes (else it is read like any new file)."""
        last = self._last_autosave
        if last is None or last[0] != match_id:
            return
        try:
            st = _file_stat(path)
            raw = read_bytes(path, max_bytes=MATCH_MAX_BYTES, root=self.data_dir)
        except (BadFile, OSError):
            return
        if raw is None or content_hash(raw) != last[1]:
            return
        index = self.kept_index
        index.load()
        index.put(path.name, st, last[1], last[2])
        index.save()

    # ---------------------------------------------------------- listing
    def list_saved(self, *, budget: Optional[float] = None) -> tuple[list[SavedMatch], list[str]]:
        """(matches kept for later, newest first; messages about files set aside). A file
        not summarized yet is replayed now while ``budget`` seconds (``LIST_BUDGET``) allow, else listed
        without a summary and read in the background. A kept match that turns out
        finished or already filed is filed/removed."""
        out: list[SavedMatch] = []
        with self._kept_lock:
            problems, self._kept_problems = self._kept_problems, []
            names = self._kept_names()
            if names is None:
                return out, problems
            index = self.kept_index
            index.load()
            index.keep_only(set(names))
            filed = self._filed_ids()
            todo = []
            for name in names:
                path = self.saved_dir / name
                try:
                    st = _file_stat(path)
                except FileNotFoundError:
                    if os.path.lexists(path):
                        todo.append(name)        # a dangling link: the read says why
                    continue
                except (OSError, ValueError):
                    todo.append(name)            # the read says why
                    continue
                summary = index.lookup(name, st)
                if summary is None:
                    todo.append(name)
                    continue
                m = self._kept_row(path, st, summary, filed, problems)
                if m is not None:
                    out.append(m)
            rest = []
            deadline = time.perf_counter() + (LIST_BUDGET if budget is None else budget)
            for name in todo:
                if self.kept_busy or time.perf_counter() > deadline:
                    rest.append(name)
                    continue
                m = self._take_kept(self._read_kept(name), filed, problems)
                if m is not None:
                    out.append(m)
            index.save()
            for name in rest:
                path = self.saved_dir / name
                try:
                    mtime = os.lstat(path).st_mtime
                except OSError:
                    mtime = 0.0
                out.append(SavedMatch(path, kept_id(name), mtime))
            if rest:
                self._start_kept_worker(rest)
        out.sort(key=lambda m: m.saved_at, reverse=True)
        return out, problems

    def _filed_ids(self) -> tuple[set, set]:
        """(ids filed under their own names, ids the history index knows): one look at the
        history folder for every kept match, not one each."""
        named = set()
        for name in history_files(self.history_dir):
            m = _FILED_NAME.fullmatch(name)
            if m:
                named.add(m["id"])
        return named, self.history_index.known_ids()

    def _is_filed_fast(self, match_id: str, filed: tuple[set, set]) -> bool:
        named, indexed = filed
        if match_id in named:
            return True
        return match_id in indexed and self.is_filed(match_id) is not None

    def _read_kept(self, name: str) -> _Read:
        """Read and replay the kept file ``name`` (no change to any file); a summary
        already made of the same bytes is used without a replay."""
        path = self.saved_dir / name
        for _attempt in range(3):
            try:
                before = _file_stat(path)
            except FileNotFoundError:
                before = None
            except (OSError, ValueError):
                before = None
            try:
                raw = read_bytes(path, max_bytes=MATCH_MAX_BYTES, root=self.data_dir)
                if raw is None:
                    return _Read(name)
                st = _file_stat(path)
            except FileNotFoundError:
                return _Read(name)
            except (BadFile, OSError, ValueError) as exc:
                return _Read(name, _stat_or_none(path), error=exc if isinstance(exc, BadFile) else
                             BadFile(f"cannot be read ({exc})", "unreadable"))
            if before is not None and stat_key(before) == stat_key(st):
                break
        else:
            return _Read(name)                   # changing under us: read at the next listing
        content = content_hash(raw)
        with self._kept_lock:
            known = self.kept_index.lookup_content(name, content, st)
        if known is not None:
            return _Read(name, st, content, known)
        try:
            loaded = self._match_from_bytes(raw)
        except BadFile as exc:
            return _Read(name, st, content, error=exc)
        return _Read(name, st, content, summary_of(*loaded), loaded)

    def _take_kept(self, r: _Read, filed: tuple[set, set], problems: list) -> Optional[SavedMatch]:
        """Act on what reading a kept file found (under the lock): its summary indexed, or
        the file set aside with a message; the row to list, if any."""
        path = self.saved_dir / r.name
        if r.st is None and r.error is None:
            return None
        try:
            now = _file_stat(path)
        except (OSError, ValueError):
            now = None
        if r.st is not None and (now is None or stat_key(now) != stat_key(r.st)):
            return None                          # changed (resumed, rewritten) since it was read
        if r.error is not None:
            log.warning("saved match %s refused: %s", path, r.error)
            self.kept_index.drop(r.name)
            moved = self._set_aside(path)
            reason = self._problem_text(r.error)
            if moved:
                problems.append(_("A saved match could not be restored ({reason}). "
                                  "It was kept as {file}.").format(reason=reason, file=moved.name))
            else:
                problems.append(_("A saved match could not be restored ({reason}).").format(reason=reason))
            return None
        self.kept_index.put(r.name, r.st, r.content, r.summary)
        return self._kept_row(path, r.st, r.summary, filed, problems, r.loaded)

    def _kept_row(self, path: Path, st: os.stat_result, summary: SavedSummary, filed: tuple[set, set],
                  problems: list, loaded: Optional[tuple] = None) -> Optional[SavedMatch]:
        mid = summary.match_id
        if summary.over or self._is_filed_fast(mid, filed):
            if not self._is_filed_fast(mid, filed):         # over, not yet filed
                session = None
                if loaded is not None:
                    _mid, seats, state = loaded
                    session = MatchSession(state.rules, seed=state.seed, seats=seats, state=state, match_id=mid)
                else:
                    try:
                        session = self._read_match(path, store=None)
                    except (BadFile, ValueError):
                        session = None
                if session is None or self.file_match(session) is None:
                    return None
                filed[0].add(mid)
            if not self.read_only:
                self._remove_saved(path)
                self.kept_index.drop(path.name)
            return None
        if path != self.saved_path(mid):
            new = self._repair_saved_name(path, mid)
            if new != path:
                self.kept_index.drop(path.name)
                try:
                    st = _file_stat(new)
                    self.kept_index.put(new.name, st, self._kept_content(new), summary)
                except (OSError, BadFile):
                    pass
                path = new
        return SavedMatch(path, mid, st.st_mtime, summary)

    def _kept_content(self, path: Path) -> str:
        raw = read_bytes(path, max_bytes=MATCH_MAX_BYTES, root=self.data_dir)
        if raw is None:
            raise FileNotFoundError(str(path))
        return content_hash(raw)

    def _repair_saved_name(self, path: Path, match_id: str) -> Path:
        """A kept match whose file name disagrees with the id inside (renamed by hand, copied):
        the id inside wins. The file is renamed to ``match-<id>.json`` when that name is free;
        otherwise (or read-only) it stays as it is and Resume finds it by its path."""
        target = self.saved_path(match_id)
        self._saved_paths[match_id] = path
        if self.read_only or os.path.lexists(target):
            return path
        try:
            os.replace(path, target)
        except OSError as exc:
            log.warning("could not rename the kept match %s to %s: %s", path, target.name, exc)
            return path
        log.info("renamed the kept match %s to %s (the id inside it)", path.name, target.name)
        self._saved_paths.pop(match_id, None)
        return target

    # ---------------------------------------------------------- the background reader
    def _start_kept_worker(self, names: list[str]) -> None:
        if self.kept_busy:
            return
        self._kept_worker = threading.Thread(target=self._kept_run, args=(list(names),),
                                             name="koikoi-saved-index", daemon=True)
        self._kept_worker.start()

    def _kept_run(self, names: list[str]) -> None:
        _share_the_interpreter(True)
        try:
            filed = self._filed_ids()
            for i, name in enumerate(names):
                r = self._read_kept(name)
                with self._kept_lock:
                    self._take_kept(r, filed, self._kept_problems)
                    if i % 50 == 49:
                        self.kept_index.save()
                    self.kept_version += 1
                time.sleep(0)
            with self._kept_lock:
                self.kept_index.save()
        except Exception:  # a bug here must not take the game down: the files stay as they are
            log.exception("reading the kept matches failed")
        finally:
            _share_the_interpreter(False)
            self.kept_version += 1

    def wait_kept(self, timeout: Optional[float] = None) -> bool:
        """Wait for the background reader (tests, tools); True once it is done."""
        w = self._kept_worker
        if w is not None:
            w.join(timeout)
        return not self.kept_busy

    # ---------------------------------------------------------- resuming, removing
    def _remove_saved(self, path: Path) -> None:
        with self._kept_lock:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
            except OSError as exc:
                log.error("could not remove %s: %s", path, exc)
                return
            if self._kept_index is not None:
                self._kept_index.drop(path.name)

    def _kept_path(self, match_id: str) -> Path:
        p = self.saved_path(match_id)
        if not os.path.lexists(p) and match_id in self._saved_paths:    # listed under another name
            p = self._saved_paths[match_id]
        return p

    def load_saved(self, match_id: str) -> Optional["MatchSession"]:
        """The kept match ``match_id``, replayed, left where it is (to abandon it, say); None
        if it cannot be read (set aside)."""
        with self._kept_lock:
            p = self._kept_path(match_id)
            try:
                return self._read_match(p)
            except (BadFile, ValueError) as exc:
                log.warning("saved match %s refused: %s", p, exc)
                self._set_aside(p)
                return None

    def resume_saved(self, match_id: str, **kwargs) -> Optional["MatchSession"]:
        """Make the kept match ``match_id`` the autosave again (the current
        autosave, if any, is kept for later in its place) and return it."""
        with self._kept_lock:
            p = self._kept_path(match_id)
            try:
                session = self._read_match(p, **kwargs)
            except (BadFile, ValueError) as exc:
                log.warning("saved match %s refused: %s", p, exc)
                self._set_aside(p)
                return None
            if session is None or self.read_only:
                return session
            if self._autosave_id is self._UNKNOWN or self._autosave_id:
                if not self.keep_for_later():
                    return None
            try:
                os.replace(p, self.autosave_path)
            except OSError as exc:
                log.error("could not resume %s: %s", p, exc)
                return None
            self._autosave_id = session.id
            index = self.kept_index
            index.drop(p.name)
            index.save()
        return session


def _file_stat(path: Path) -> os.stat_result:
    """The file's own stat: a link's target's (a link inside the game's folder is read
    through), else the entry's."""
    st = os.lstat(path)
    return os.stat(path) if stat.S_ISLNK(st.st_mode) else st


def _stat_or_none(path: Path) -> Optional[os.stat_result]:
    try:
        return _file_stat(path)
    except (OSError, ValueError):
        return None


__all__ = ["KeptMatches", "SavedMatch", "LIST_BUDGET", "kept_id"]
