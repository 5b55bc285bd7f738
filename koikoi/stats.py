"""Statistics across finished matches, folded from their event logs.

Nothing here is stored on its own: the history folder keeps each finished
match's log, and each match's ``Record`` is folded from its replayed log
(``fold_match``), cached beside its history row by the history index
(koikoi.match_index), and summed when the statistics are shown
(``from_entries``), so they can never disagree with the ledgers.

The tracked player is the human seat of a match against the CPU, and seat 0
("Player 1") of a match between two people on one screen.
"""

from __future__ import annotations

from collections import Counter
from operator import attrgetter
from dataclasses import dataclass, field
from typing import Iterable, Optional

from .engine.events import KoiKoiCalled, RoundDealt, RoundEnded
from .engine.phase import SeatKind


@dataclass
class Record:
    """Totals for one (opponent, rule set) pair, or for everything."""

    matches: int = 0
    wins: int = 0
    draws: int = 0
    rounds: int = 0
    rounds_won: int = 0
    points_for: int = 0
    points_against: int = 0
    yaku: Counter = field(default_factory=Counter)   # yaku name -> times scored
    koikoi_calls: int = 0
    koikoi_paid: int = 0      # calls in rounds the caller went on to win
    best_round: int = 0

    @property
    def losses(self) -> int:
        return self.matches - self.wins - self.draws

    @property
    def win_rate(self) -> Optional[float]:
        return self.wins / self.matches if self.matches else None

    @property
    def points_per_round(self) -> Optional[float]:
        return (self.points_for - self.points_against) / self.rounds if self.rounds else None

    @property
    def koikoi_success(self) -> Optional[float]:
        return self.koikoi_paid / self.koikoi_calls if self.koikoi_calls else None

    def merge(self, other: "Record") -> None:
        for name in ("matches", "wins", "draws", "rounds", "rounds_won", "points_for",
                     "points_against", "koikoi_calls", "koikoi_paid"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.yaku.update(other.yaku)
        self.best_round = max(self.best_round, other.best_round)


def tracked_seat(seats) -> int:
    """The seat whose statistics a match adds to."""
    kinds = [s.kind for s in seats]
    return kinds.index(SeatKind.HUMAN) if SeatKind.HUMAN in kinds else 0


def opponent_label(seats, me: int) -> str:
    other = seats[1 - me]
    if other.kind == SeatKind.HUMAN:
        return "friend"
    return other.level or "cpu"


def fold_match(seats, state) -> Optional[Record]:
    """One finished match's contribution, from the tracked seat's side (None if unfinished)."""
    if not state.is_over:
        return None
    me = tracked_seat(seats)
    rec = Record(matches=1)
    if state.winner is None:
        rec.draws = 1
    elif state.winner == me:
        rec.wins = 1
    called = 0
    for event in state.events:
        if isinstance(event, RoundDealt):
            called = 0
        elif isinstance(event, KoiKoiCalled) and event.seat == me:
            called += 1
            rec.koikoi_calls += 1
        elif isinstance(event, RoundEnded):
            row = event.row
            rec.rounds += 1
            if row.winner == me:
                rec.rounds_won += 1
                rec.points_for += row.award
                rec.best_round = max(rec.best_round, row.award)
                rec.yaku.update(name for name, _pts, _cards in row.yaku)
                rec.koikoi_paid += called
            elif row.winner is not None:
                rec.points_against += row.award
    return rec


@dataclass
class Stats:
    overall: Record = field(default_factory=Record)
    by: dict = field(default_factory=dict)    # (opponent, rules name) -> Record

    def add(self, seats, state) -> None:
        rec = fold_match(seats, state)
        if rec is None:
            return
        key = (opponent_label(seats, tracked_seat(seats)), state.rules.name)
        self.by.setdefault(key, Record()).merge(rec)
        self.overall.merge(rec)

    def by_opponent(self) -> dict:
        out: dict = {}
        for (opponent, _rules), rec in self.by.items():
            out.setdefault(opponent, Record()).merge(rec)
        return out


def compute(matches: Iterable) -> Stats:
    """``matches``: (seats, state) pairs, or objects with ``.seats`` and ``.state``."""
    stats = Stats()
    for m in matches:
        seats, state = (m.seats, m.state) if hasattr(m, "seats") else m
        stats.add(seats, state)
    return stats


def from_history(storage) -> tuple[Stats, list[str]]:
    """Statistics over every finished match in ``storage``'s history (through its
    index, brought up to date first). Files that could not be read are set
    aside by the index and named in the returned problems."""
    entries = storage.list_finished()
    return from_entries(entries), storage.history_index.take_problems()


_COUNTS = ("matches", "wins", "draws", "rounds", "rounds_won", "points_for", "points_against",
           "koikoi_calls", "koikoi_paid", "best_round")


def record_to_dict(rec: Record) -> dict:
    """A Record as plain JSON data (the history index keeps one per match)."""
    out: dict = {name: getattr(rec, name) for name in _COUNTS}
    out["yaku"] = dict(rec.yaku)
    return out


def record_from_dict(data) -> Record:
    """The Record of ``record_to_dict``; ValueError if the data is not one."""
    if not isinstance(data, dict):
        raise ValueError("not a statistics record")
    rec = Record()
    for name in _COUNTS:
        v = data.get(name, 0)
        if type(v) is not int or not 0 <= v < 10 ** 9:
            raise ValueError(f"bad statistics count {name}")
        setattr(rec, name, v)
    yaku = data.get("yaku", {})
    if not isinstance(yaku, dict) or not all(isinstance(k, str) and type(v) is int and 0 <= v < 10 ** 9
                                             for k, v in yaku.items()):
        raise ValueError("bad yaku counts")
    rec.yaku.update(yaku)
    return rec


def from_entries(entries: Iterable) -> Stats:
    """Statistics over indexed history rows (koikoi.match_index.FinishedMatch):
    each row carries its match's Record, computed from the replayed log (and
    checked by the index when read back). A row without one (conceded,
    unfinished) or with anything else in its place is not counted."""
    groups: dict = {}
    for m in entries:
        rec = getattr(m, "record", None)
        if isinstance(rec, Record):     # else conceded or unfinished: not a finished match
            groups.setdefault((m.stats_opponent, m.rules), []).append(rec)
    stats = Stats()
    for key, recs in groups.items():
        total = _total(recs)
        stats.by[key] = total
        stats.overall.merge(total)
    return stats


def _total(recs: list) -> Record:
    """The sum of many Records at once (thousands, each time Statistics opens:
    ``merge`` one by one took half a second for 5,000)."""
    columns = zip(*map(_SUMMED, recs))
    total = Record(**{name: sum(col) for name, col in zip(_SUMMED_NAMES, columns)})
    total.best_round = max(map(_BEST, recs), default=0)
    yaku = total.yaku
    for r in recs:
        for name, n in r.yaku.items():
            yaku[name] += n
    return total


_SUMMED_NAMES = tuple(n for n in _COUNTS if n != "best_round")
_SUMMED = attrgetter(*_SUMMED_NAMES)
_BEST = attrgetter("best_round")
