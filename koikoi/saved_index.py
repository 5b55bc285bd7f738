"""The index of the matches kept for later (``saved/``): what the title and the
Saved matches screen show, without replaying every kept match each time.

    index = SavedIndex(data_dir / SAVED_INDEX_NAME, data_root=data_dir)
    index.lookup(name, os.stat(path))        # the summary, if the file is the one summarized
    index.put(name, st, content_hash(raw), summary_of(match_id, seats, state))
    index.save()                             # written whole and atomically, if anything changed

The kept files stay the truth; the index is a cache of what each one says (the
players, the round, the scores, the rules: ``SavedSummary``), one JSON file
beside them, and it is checked, never trusted:

* an entry is used only while its file's stat (size, modification and change
  times, inode, device: a write or a rename changes the change time, which no
  program can set back) is the one summarized; a file whose stat changed is
  hashed, and its entry kept only if the bytes are still the same;
* every value is checked like a file's (types, ranges, text), and each entry
  carries a digest of its file's content and its own values: an entry edited
  by hand no longer matches and is rebuilt from its file;
* an index file that is not one (a link, a folder, damaged JSON, another
  version, too large) is renamed aside (``<name>.corrupt-…``, never deleted,
  a link renamed itself, never followed) and rebuilt.

Summaries are made from a replayed match (``summary_of``): nothing a file says
about itself is believed. Resume replays the one file chosen.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from pathlib import Path
from typing import Any, NamedTuple, Optional

from .files import BadFile, atomic_write_text, move_aside, read_json
from .session import MAX_NAME_LEN, valid_match_id

log = logging.getLogger("koikoi.saved")

SAVED_INDEX_NAME = "saved-index.json"
VERSION = 1
INDEX_MAX_BYTES = 8 << 20       # an entry is ~250 bytes: room for 30,000 kept matches
_NAME_RE = re.compile(r"match-[^/\\\x00-\x1f\x7f]{1,200}\.json")
_HEX_RE = re.compile(r"[0-9a-f]{32}")
_TEXT_MAX = 200                 # a rules name (a preset's or a house-rules variant's)
_COUNT_MAX = 10 ** 6


class SavedSummary(NamedTuple):
    """What the lists show of a kept match, as replayed from its file."""

    match_id: str
    players: tuple              # (seat 0's name, seat 1's name)
    round: int                  # the round being played (1-based)
    months: Optional[int]       # the match's length, None for an open-ended one
    scores: tuple
    rules: str                  # the rules' name
    over: bool = False          # finished (it waits to be filed in the history)


def summary_of(match_id: str, seats, state) -> SavedSummary:
    """The summary of a match already replayed (``state``)."""
    return SavedSummary(match_id, (seats[0].name, seats[1].name), int(state.round), state.months,
                        tuple(int(x) for x in state.scores), state.rules.name, bool(state.is_over))


def content_hash(raw) -> str:
    """The hash of a kept file's bytes (or of the text written to it)."""
    if isinstance(raw, str):
        raw = raw.encode("utf-8")
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def stat_key(st: os.stat_result) -> tuple:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _values(s: SavedSummary) -> list:
    return [s.match_id, s.players[0], s.players[1], s.round, s.months, s.scores[0], s.scores[1], s.rules,
            1 if s.over else 0]


def _digest(name: str, content: str, values: list) -> str:
    text = json.dumps([name, content, values], ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _text(v: Any, most: int) -> bool:
    return type(v) is str and 0 < len(v) <= most and v.isprintable()


def _int(v: Any, low: int, high: int) -> bool:
    return type(v) is int and low <= v <= high


def _entry(name: Any, e: Any) -> Optional[tuple[tuple, str, SavedSummary]]:
    """(stat key, content hash, summary) of a stored entry, or None if any value is not one
    this version writes (the entry is then rebuilt from its file)."""
    try:
        if type(name) is not str or _NAME_RE.fullmatch(name) is None or type(e) is not list or len(e) != 16:
            return None
        key, content, digest, values = e[:5], e[5], e[6], e[7:]
        mid, p0, p1, rnd, months, s0, s1, rules, over = values
        ok = (all(_int(k, 0, 2 ** 64) for k in key)
              and type(content) is str and _HEX_RE.fullmatch(content) is not None
              and type(digest) is str and _HEX_RE.fullmatch(digest) is not None
              and valid_match_id(mid) and _text(p0, MAX_NAME_LEN) and _text(p1, MAX_NAME_LEN)
              and _int(rnd, 1, 1000) and (months is None or _int(months, 1, 1000))
              and _int(s0, -_COUNT_MAX, _COUNT_MAX) and _int(s1, -_COUNT_MAX, _COUNT_MAX)
              and _text(rules, _TEXT_MAX) and _int(over, 0, 1))
        if not ok or _digest(name, content, values) != digest:
            return None
    except (TypeError, ValueError):
        return None
    return tuple(key), content, SavedSummary(mid, (p0, p1), rnd, months, (s0, s1), rules, over == 1)


class SavedIndex:
    """The summaries of the kept files, by file name. Not thread-safe: its owner locks."""

    def __init__(self, path, *, data_root=None, writable: bool = True):
        self.path = Path(path)
        self.data_root = Path(data_root) if data_root is not None else self.path.parent
        self.writable = writable
        self._entries: dict[str, tuple[tuple, str, SavedSummary]] = {}
        self._seen: Optional[tuple] = None      # the index file's stat when read or written here
        self._dirty = False

    # ---------------------------------------------------------- the file
    def load(self) -> None:
        """Read the index file again if it changed since this process read or wrote it."""
        try:
            st = os.lstat(self.path)
        except FileNotFoundError:
            if self._seen is not None:          # removed under us: what is in memory stays, written anew
                self._seen, self._dirty = None, bool(self._entries)
            return
        except (OSError, ValueError) as exc:
            log.warning("the kept-match index %s cannot be examined (%s)", self.path, exc)
            return
        if self._seen == stat_key(st):
            return
        entries, bad = {}, 0
        try:
            data = read_json(self.path, max_bytes=INDEX_MAX_BYTES, root=None, max_depth=4)
            if not isinstance(data, dict) or data.get("version") != VERSION or type(data.get("files")) is not dict:
                raise BadFile("is not a kept-match index this version writes", "not_a_match")
            for name, e in data["files"].items():
                got = _entry(name, e)
                if got is None:
                    bad += 1
                else:
                    entries[name] = got
        except BadFile as exc:
            log.warning("the kept-match index %s is unusable (%s); rebuilding it from the files", self.path, exc)
            if self.writable:
                move_aside(self.path)
            self._entries, self._seen, self._dirty = {}, None, True
            return
        if bad:
            log.warning("the kept-match index %s: %d entr%s not ones this version writes; rebuilding them",
                        self.path, bad, "y is" if bad == 1 else "ies are")
        self._entries, self._seen, self._dirty = entries, stat_key(st), bool(bad)

    def save(self) -> None:
        if not (self._dirty and self.writable):
            return
        files = {name: list(key) + [content, _digest(name, content, _values(s)), *_values(s)]
                 for name, (key, content, s) in sorted(self._entries.items())}
        try:
            atomic_write_text(self.path, json.dumps({"version": VERSION, "files": files}, ensure_ascii=False,
                                                    separators=(",", ":")))
            self._seen = stat_key(os.lstat(self.path))
            self._dirty = False
        except OSError as exc:          # a cache: the summaries stay in memory, written next time
            log.warning("could not write the kept-match index %s: %s", self.path, exc)

    # ---------------------------------------------------------- entries
    def lookup(self, name: str, st: os.stat_result) -> Optional[SavedSummary]:
        """The summary of ``name`` if its file is still the one summarized (same stat)."""
        got = self._entries.get(name)
        return got[2] if got is not None and got[0] == stat_key(st) else None

    def lookup_content(self, name: str, content: str, st: os.stat_result) -> Optional[SavedSummary]:
        """The summary of ``name`` if its bytes are the ones summarized (its stat changed:
        copied back, touched); the entry then takes the new stat."""
        got = self._entries.get(name)
        if got is None or got[1] != content:
            return None
        self.put(name, st, content, got[2])
        return got[2]

    def put(self, name: str, st: os.stat_result, content: str, summary: SavedSummary) -> None:
        entry = (stat_key(st), content, summary)
        if self._entries.get(name) != entry:
            self._entries[name] = entry
            self._dirty = True

    def drop(self, name: str) -> None:
        if self._entries.pop(name, None) is not None:
            self._dirty = True

    def keep_only(self, names) -> None:
        """Forget the entries of files no longer there."""
        for name in [n for n in self._entries if n not in names]:
            self.drop(name)

    def __contains__(self, name: str) -> bool:
        return name in self._entries


__all__ = ["SavedIndex", "SavedSummary", "summary_of", "content_hash", "stat_key", "SAVED_INDEX_NAME"]
