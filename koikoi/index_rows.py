"""One row of the match history: what a filed match's log says (``FinishedMatch``), as
replayed (``summarize``, ``row_of``), stored (``_values``, ``_digest``) and read back and
checked (``_entry``), and the reading of files, here or in a background process
(``_read_one``, ``_read_many``). ``koikoi.match_index`` keeps the rows; it re-exports
the public names."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple, Optional

from . import stats as S
from .engine.phase import SeatKind
from .files import BadFile, parse_json, read_bytes
from .session import MAX_NAME_LEN, load_match, valid_match_id

log = logging.getLogger("koikoi.index")

MATCH_MAX_BYTES = 8 << 20        # a 12-month log is ~40 KB; an endless house-rules match stays far below
_COLUMNS = ("name", "digest", "match_id", "finished_at", "player0", "player1", "opponent",
            "rules", "months", "rounds", "score0", "score1", "winner", "conceded", "unfinished",
            "stats_opponent", "record", "online_seat", "room")


class FinishedMatch(NamedTuple):
    """One line of the match history, as recomputed from its log (a NamedTuple:
    thousands are made each time History opens)."""

    path: Path
    finished_at: str            # ISO date-time, local time
    players: tuple              # (seat 0's name, seat 1's name)
    opponent: str               # "CPU (Hard)", "Friend", ...
    rules: str                  # the rules' name (a preset's, or a house-rules variant's)
    months: Optional[int]
    rounds: int
    scores: tuple
    winner: Optional[int]       # seat, None for a draw or an unfinished match
    conceded: Optional[int] = None   # the seat that conceded an unfinished match, else None
    unfinished: bool = False    # abandoned (or found unfinished): never counted as won or lost
    match_id: str = ""
    stats_opponent: str = ""    # koikoi.stats' opponent label ("hard", "friend"...)
    record: Optional[S.Record] = None   # what the match adds to the statistics (None: not finished)
    online_seat: Optional[int] = None   # played over the network: this player's seat, else None
    room: str = ""              # ... and the server's room code

    @property
    def finished(self) -> bool:
        return self.conceded is None and not self.unfinished


# ------------------------------------------------------------------ one file


def _valid_time(value: Any) -> Optional[str]:
    if isinstance(value, str) and len(value) <= 40:
        try:
            return datetime.fromisoformat(value).strftime("%Y-%m-%dT%H:%M:%S")
        except ValueError:
            return None
    return None


def summarize(path: Path, *, data_root=None, mtime: Optional[float] = None, raw: Optional[bytes] = None
              ) -> FinishedMatch:
    """The history row of one file (or of its bytes ``raw``, already read);
    BadFile or ValueError if it cannot be used."""
    if raw is None:
        raw = read_bytes(path, max_bytes=MATCH_MAX_BYTES, root=data_root)
        if raw is None:
            raise FileNotFoundError(str(path))
    data = parse_json(raw)
    match_id, seats, state = load_match(data)
    summary = data.get("summary")
    return row_of(path, match_id, seats, state, summary if isinstance(summary, dict) else {}, mtime)


def _online(summary: dict, seats) -> tuple[Optional[int], str]:
    """(this player's seat, room code) of a match filed as played online, else (None, "").
    Only the shape is checked: the log cannot tell where a match was played."""
    o = summary.get("online")
    if not isinstance(o, dict) or type(o.get("seat")) is not int or o["seat"] not in (0, 1):
        return None, ""
    if any(s.kind != SeatKind.HUMAN for s in seats):
        return None, ""
    room = o.get("room")
    room = room if isinstance(room, str) and _ROOM_RE.fullmatch(room) else ""
    return o["seat"], room


# net.protocol.CODE_RE, written again: the history is read at start-up, the network code is not
_ROOM_RE = re.compile(r"KOI-[0-9]{4,8}")


def row_of(path: Path, match_id: str, seats, state, summary: dict, mtime: Optional[float] = None) -> FinishedMatch:
    """The history row of a match already replayed (``state``), filed at ``path``
    with ``summary``. Only the filing time, a concession and where it was played
    (online: this player's seat and the room) are read from the summary (checked);
    everything else comes from the state."""
    when = _valid_time(summary.get("finished_at"))
    if when is None:
        stamp = mtime if mtime is not None else os.stat(path).st_mtime
        when = datetime.fromtimestamp(stamp).strftime("%Y-%m-%dT%H:%M:%S")
    conceded = unfinished = None
    if not state.is_over:
        c = summary.get("conceded")
        if type(c) is int and c in (0, 1):
            conceded = c
        else:
            unfinished = True      # abandoned, or a match filed unfinished by a crash of an old version
    winner = state.winner if state.is_over else (1 - conceded if conceded is not None else None)
    online_seat, room = _online(summary, seats)
    if online_seat is not None:
        # the statistics of this computer's player: the other seat counted as the opponent
        counted = tuple(s if i == online_seat else replace(s, kind=SeatKind.CPU) for i, s in enumerate(seats))
        rec = S.fold_match(counted, state)
        label, opponent = "friend", seats[1 - online_seat].name
    else:
        rec = S.fold_match(seats, state)
        label = S.opponent_label(seats, S.tracked_seat(seats))
        opponent = seats[1].name if seats[1].kind == SeatKind.CPU else "Friend"
    return FinishedMatch(
        path=Path(path), finished_at=when, players=(seats[0].name, seats[1].name),
        opponent=opponent,
        rules=state.rules.name, months=state.months, rounds=len(state.ledger),
        scores=tuple(int(x) for x in state.scores), winner=winner, conceded=conceded,
        unfinished=bool(unfinished), match_id=match_id, stats_opponent=label,
        record=rec,
        online_seat=online_seat, room=room)


# ------------------------------------------------------------------ rows: written, read back, checked


def content_hash(raw: bytes) -> str:
    """The hash of a history file's bytes that its row's digest includes."""
    return hashlib.blake2b(raw, digest_size=16).hexdigest()


def _values(m: FinishedMatch) -> tuple:
    """A row's values after its name and digest, as stored."""
    record = json.dumps(S.record_to_dict(m.record), separators=(",", ":")) if m.record is not None else None
    return (m.match_id, m.finished_at, m.players[0], m.players[1], m.opponent, m.rules, m.months, m.rounds,
            m.scores[0], m.scores[1], m.winner, m.conceded, 1 if m.unfinished else 0, m.stats_opponent,
            record, m.online_seat, m.room)


def _digest(content: str, name: str, values: tuple) -> str:
    """The digest of a row: its file's content hash and every value of the row, so
    that a file edited in place and a row edited in the database both stop matching."""
    text = json.dumps([content, name, list(values)], ensure_ascii=False, separators=(",", ":"))
    return hashlib.blake2b(text.encode("utf-8"), digest_size=16).hexdigest()


def _row(m: FinishedMatch, content: str) -> tuple:
    values = _values(m)
    return (m.path.name, _digest(content, m.path.name, values)) + values


_NAME_RE = re.compile(r"match-[^/\\\x00-\x1f\x7f]{1,200}\.json")     # any file name the folder can hold
_DIGEST_RE = re.compile(r"[0-9a-f]{32}")
_LABEL_RE = re.compile(r"[a-z0-9_]{1,32}")
_TEXT_MAX = 200                 # a rules name, a house-rules variant's, a CPU's name
_COUNT_MAX = 10 ** 6
_RECORD_MAX = 8192              # a record's JSON: ~60 counts and yaku names


def _text(v: Any, most: int) -> bool:
    return type(v) is str and 0 < len(v) <= most and v.isprintable()


def _small(v: Any, low: int, high: int) -> bool:
    return type(v) is int and low <= v <= high


def _record(v: Any) -> Optional[S.Record]:
    """A stored statistics record, parsed by the defensive reader (depth, size,
    numbers) and checked count by count; ValueError if it is not one."""
    if type(v) is not str or len(v) > _RECORD_MAX:
        raise ValueError("not a statistics record")
    return S.record_from_dict(parse_json(v, max_depth=2))


def _entry(folder: Path, r: Any) -> Optional[FinishedMatch]:
    """The row ``r`` read from the index as a FinishedMatch, or None if any value is
    not one this version writes: such a row is rebuilt from its file."""
    try:
        (name, digest, match_id, when, p0, p1, opponent, rules, months, rounds, s0, s1, winner,
         conceded, unfinished, stats_opponent, record, online_seat, room) = r
        ok = (type(name) is str and _NAME_RE.fullmatch(name) is not None
              and type(digest) is str and _DIGEST_RE.fullmatch(digest) is not None
              and valid_match_id(match_id)
              and type(when) is str and _valid_time(when) == when
              and _text(p0, MAX_NAME_LEN) and _text(p1, MAX_NAME_LEN) and _text(opponent, _TEXT_MAX)
              and _text(rules, _TEXT_MAX)
              and (months is None or _small(months, 1, 1000))
              and _small(rounds, 0, _COUNT_MAX) and _small(s0, -_COUNT_MAX, _COUNT_MAX)
              and _small(s1, -_COUNT_MAX, _COUNT_MAX)
              and (winner is None or _small(winner, 0, 1)) and (conceded is None or _small(conceded, 0, 1))
              and _small(unfinished, 0, 1)
              and type(stats_opponent) is str and _LABEL_RE.fullmatch(stats_opponent) is not None
              and (online_seat is None or _small(online_seat, 0, 1))
              and type(room) is str and (room == "" or _ROOM_RE.fullmatch(room) is not None))
        if not ok:
            return None
        if conceded is not None:        # a concession: the other seat won, nothing counted
            ok = not unfinished and winner == 1 - conceded and record is None
        elif unfinished:
            ok = winner is None and record is None
        else:
            ok = record is not None
        if not ok:
            return None
        rec = _record(record) if record is not None else None
        if rec is not None and not (rec.matches == 1 and rec.wins + rec.draws <= 1 and rec.rounds == rounds
                                    and rec.rounds_won <= rounds):
            return None
    except (TypeError, ValueError, RecursionError, MemoryError):
        return None
    return FinishedMatch(folder / name, when, (p0, p1), opponent, rules, months, rounds, (s0, s1), winner,
                         conceded, unfinished == 1, match_id, stats_opponent, rec, online_seat, room)


def history_files(folder: Path) -> list[str]:
    """The names of the ``match-*.json`` files in ``folder``."""
    out: list[str] = []
    try:
        it = os.scandir(folder)
    except OSError:
        return out
    with it:
        for entry in it:
            name = entry.name
            if name.startswith("match-") and name.endswith(".json") and _NAME_RE.fullmatch(name):
                try:
                    name.encode("utf-8")      # a name of undecodable bytes is no name the game gave
                except UnicodeEncodeError:
                    continue
                out.append(name)
    return out


def _stat_key(st: os.stat_result) -> tuple:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def _newest_first(rows) -> list[FinishedMatch]:
    return sorted(rows, key=lambda m: (m.finished_at, m.path.name), reverse=True)


# ------------------------------------------------------------------ reading files (here or in a process)


class _Read(NamedTuple):
    name: str
    content: Optional[str] = None         # the file's content hash (None: gone; "": unreadable)
    match: Optional[FinishedMatch] = None
    error: Optional[str] = None           # why it cannot be used (English, for the log)


def _read_one(folder: Path, name: str, data_root, raw: Optional[bytes] = None) -> _Read:
    path = folder / name
    try:
        if raw is None:
            raw = read_bytes(path, max_bytes=MATCH_MAX_BYTES, root=data_root)
            if raw is None:
                return _Read(name)
    except FileNotFoundError:
        return _Read(name)
    except (BadFile, OSError) as exc:
        return _Read(name, "", error=str(exc) or exc.__class__.__name__)
    content = content_hash(raw)
    try:
        st = os.lstat(path)
        return _Read(name, content, summarize(path, data_root=data_root, mtime=st.st_mtime, raw=raw))
    except FileNotFoundError:
        return _Read(name)
    except (BadFile, ValueError, OSError) as exc:
        return _Read(name, content, error=str(exc) or exc.__class__.__name__)
    except Exception as exc:  # e.g. MemoryError, RecursionError: never let one file stop the rest
        log.warning("history file %s could not be indexed", path, exc_info=True)
        return _Read(name, content, error=str(exc) or exc.__class__.__name__)


# A background process reading files yields its core to the game whenever the game wants one.
# At nice 5, and still at nice 10, the render thread, woken for a frame, waited behind the two
# processes for a core: 6-10 ms each time one of them held it, up to 20-30 ms of a 9 ms frame
# (tools/bench_history.py's trace, 1-5 frames a rebuild over 16.7 ms). Linux's SCHED_IDLE
# policy gives a waking task of the game the core at once; the processes then run on whatever the
# machine leaves idle, which on a quiet machine is both cores for nearly all of the rebuild. On a
# busy one the rebuild takes longer (the other programs come first, as they should for a cache).
# Where there is no SCHED_IDLE (macOS, BSD) the processes run CHILD_NICE levels lower instead.
CHILD_NICE = 10


def _child_start() -> None:
    """A background process reading files: the game's frames come first (SCHED_IDLE, else
    CHILD_NICE levels lower)."""
    try:
        os.nice(CHILD_NICE)
    except (AttributeError, OSError):
        pass
    try:
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    except (AttributeError, OSError):
        pass


def _read_many(folder: str, names: list, data_root) -> list:
    """In a background process: each file's row as plain values (name, content hash,
    stored values or None, error)."""
    out = []
    for name in names:
        r = _read_one(Path(folder), name, data_root)
        out.append((r.name, r.content, _values(r.match) if r.match is not None else None, r.error))
    return out


def _pool_size() -> int:
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        n = os.cpu_count() or 1
    return max(1, min(n, 4))
