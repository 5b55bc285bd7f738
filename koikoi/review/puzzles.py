"""Puzzles: "find the best move" positions made from the clear mistakes of reviewed matches.

    puzzles = from_history(storage)                       # the player's filed, reviewed matches
    puzzles = puzzles_from([(events, review)])            # any logs with their reviews (tests)
    answer = puzzles[0].judge(action)                     # Answer(right, gap, action)

A decision makes a puzzle when the review called it a MISTAKE and the position has one
clear answer: every option is either *right* (the best, or within the playouts' noise of
it: ``verdict_of(gap, spread)`` is GOOD, so twin plains and moves the playouts cannot
tell apart count too) or *clearly wrong* (a gap the review would call a MISTAKE: at least
MISTAKE_POINTS and beyond NOISE_Z standard errors). A position with an option in between
(an inaccuracy away) is left out: its answer would be arguable. So is a trivial one, where
more than half the legal moves are right (picking at random would mostly do; a Koi-Koi or
Stop question, one right of two, is kept).

The position is ``replay(events[:index])``: the state the seat decided in, the very one
the replay viewer shows at that step. The puzzle screen shows it from ``seat``'s side only
(its fold of the public events); the state is kept whole because the round table plays the
answer through the engine.

Puzzles are ranked by what the mistake cost (the chosen option's ``loss``), then by how
few moves are right, then by match and position, de-duplicated (one position once, however
many matches reached it) and capped at MAX_PUZZLES. Pure Python: no pygame. Every file is
read defensively: a match or review that cannot be used is skipped (and logged), never fatal.
"""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, NamedTuple, Optional

from ..engine import action_of, legal_actions, replay, view
from ..engine.match import ReplayError
from .analysis import MISTAKE_POINTS, verdict_of
from .cache import SUFFIX, load_as_made
from .model import GOOD, MISTAKE, Decision, MatchReview
from .reasons import explain

log = logging.getLogger("koikoi.review.puzzles")

MAX_PUZZLES = 20          # the most instructive ones kept
MAX_MATCHES = 40          # reviewed matches read, newest reviews first: ~25 ms each for 12 rounds
                          # on the 2-core machine, so the Learn screen opens in about a second at most

_MATCH_FILE = re.compile(r"match-(\d{4})(\d{2})(\d{2})-\d{6}-([0-9a-f]{16})\.json")


class Answer(NamedTuple):
    """How a move answers a puzzle: ``right``, and how many points it gives away against
    the best (``gap``; 0 for a right move, None for a move the review did not value)."""

    right: bool
    gap: Optional[float]
    action: object


@dataclass(frozen=True)
class Puzzle:
    match_id: str
    round: int
    index: int                 # the deciding event's index in the match log
    seat: int                  # who decides (the table is shown from this side)
    kind: str                  # "play", "choose" or "decide"
    state: object              # replay(events[:index])
    best: object               # the best action
    right: tuple               # every action judged right: the best and those within noise
    chosen: object             # the mistake made in the match
    options: tuple             # the review's Options, best first
    reason: str                # the review's words about the mistake
    points: float              # what the mistake cost: the chosen option's loss
    margin: float              # the best option's lead over the closest clearly wrong one
    played_at: str = ""        # the match's date, "YYYY-MM-DD" ("" when not known)

    def view(self):
        """The deciding seat's view of the position (all a screen may show)."""
        return view(self.state, self.seat)

    def gap(self, action) -> Optional[float]:
        """Points ``action`` gives away against the best option (None: not an option)."""
        best = self.options[0].points
        for o in self.options:
            if o.action == action:
                return round(max(0.0, best - o.points), 3)
        return None

    def reason_for(self, action, *, opponent: Optional[str] = None, style: str = "both") -> str:
        """Why ``action`` (any legal move) is right or what the best move does better, in the
        review's words (``reasons.explain`` of the position with ``action`` as the choice):
        about the player's own answer, not the match's move. The review's stored reason for
        the match's move; "" for a move the review did not value."""
        if action == self.chosen:
            return self.reason
        gap = self.gap(action)
        if gap is None:
            return ""
        verdict = GOOD if action in self.right else verdict_of(gap, self._spread(action))
        d = Decision(self.round, self.index, self.seat, self.kind, action, self.best, self.options,
                     0.0 if action in self.right else gap, verdict)
        return explain(self.view(), d, opponent=opponent, style=style)

    def _spread(self, action) -> float:
        return next((o.spread for o in self.options if o.action == action), 0.0)

    def judge(self, action) -> Answer:
        if action in self.right:
            return Answer(True, 0.0, action)
        return Answer(False, self.gap(action), action)


# ---------------------------------------------------------------- one decision

def _classify(d: Decision) -> Optional[tuple]:
    """(the right actions, the best's lead over the closest wrong option) when every option
    is right or clearly wrong, else None."""
    if not d.options or d.options[0].action != d.best:
        return None
    top = d.options[0].points
    right, margin = [], None
    for o in d.options:
        gap = max(0.0, top - o.points)
        verdict = verdict_of(gap, o.spread)
        if verdict == GOOD:
            right.append(o.action)
        elif verdict == MISTAKE:
            margin = gap if margin is None else min(margin, gap)
        else:
            return None                    # an inaccuracy away: arguable
    if margin is None or d.chosen in right:
        return None
    return tuple(right), round(margin, 3)


def puzzle_of(events, d: Decision, *, match_id: str = "", played_at: str = "") -> Optional[Puzzle]:
    """The puzzle made from decision ``d`` of the log ``events``, or None when it makes
    none (not a clear mistake, trivial, or a decision that does not fit the log)."""
    if not isinstance(d, Decision) or d.verdict != MISTAKE or d.loss < MISTAKE_POINTS:
        return None
    found = _classify(d)
    if found is None:
        return None
    right, margin = found
    if 2 * len(right) > len(d.options):
        return None                        # most moves are right: trivial
    events = tuple(events)
    if not 0 < d.index < len(events) or action_of(events[d.index]) != d.chosen:
        return None
    try:
        state = replay(events[:d.index])
        legal = legal_actions(state)
    except (ReplayError, ValueError) as exc:
        log.warning("match %s: no puzzle at event %d (%s)", match_id, d.index, exc)
        return None
    if (state.to_move != d.seat or state.round != d.round or d.chosen not in legal
            or any(a not in legal for a in right) or len(legal) != len(d.options)):
        return None                        # a review that does not fit this log
    return Puzzle(match_id, d.round, d.index, d.seat, d.kind, state, d.best, right, d.chosen,
                  tuple(d.options), d.reason, round(d.loss, 3), margin, played_at)


def _rank(p: Puzzle) -> tuple:
    return (-p.points, len(p.right) / len(p.options), -p.margin, p.match_id, p.index)


def _position_key(p: Puzzle) -> tuple:
    v = p.view()
    return (v.rules, v.phase, v.seat, v.hand_mask, v.field_mask, v.captured_masks,
            None if v.pending is None else v.pending.id, v.calls, v.round, v.scores)


def puzzles_from(matches: Iterable, *, limit: int = MAX_PUZZLES) -> list:
    """The puzzles of ``matches``: (events, review) pairs, or (events, review, played_at).
    The review's decisions are matched to its log by event index; anything malformed in
    one match skips that match only."""
    found = []
    for item in matches:
        try:
            events, review = item[0], item[1]
            played_at = item[2] if len(item) > 2 and isinstance(item[2], str) else ""
            if not isinstance(review, MatchReview):
                raise ValueError("not a MatchReview")
            events = tuple(events)
            for rr in review.rounds:
                for d in rr.decisions:
                    p = puzzle_of(events, d, match_id=review.match_id, played_at=played_at)
                    if p is not None:
                        found.append(p)
        except (TypeError, ValueError, IndexError, AttributeError) as exc:
            log.warning("a reviewed match gives no puzzles: %s", exc)
    found.sort(key=_rank)
    out, seen = [], set()
    for p in found:
        keys = ((p.match_id, p.index), _position_key(p))
        if any(k in seen for k in keys):
            continue
        seen.update(keys)
        out.append(p)
        if len(out) >= max(0, int(limit)):
            break
    return out


# ---------------------------------------------------------------- the history folder

def reviewed_matches(folder) -> list:
    """(match id, match file, date "YYYY-MM-DD", (review mtime_ns, size)) of every filed
    match with a review beside it in ``folder``, newest review first, at most MAX_MATCHES."""
    try:
        entries = list(os.scandir(folder))
    except OSError as exc:
        log.info("no history folder to make puzzles from (%s)", exc)
        return []
    matches, reviews = {}, {}
    for e in entries:
        try:
            if not e.is_file(follow_symlinks=False):
                continue
            m = _MATCH_FILE.fullmatch(e.name)
            if m:
                matches[m.group(4)] = (Path(e.path), f"{m.group(1)}-{m.group(2)}-{m.group(3)}")
            elif e.name.endswith(SUFFIX):
                st = e.stat(follow_symlinks=False)
                reviews[e.name[:-len(SUFFIX)]] = (st.st_mtime_ns, st.st_size)
        except OSError:
            continue
    ids = sorted((mid for mid in reviews if mid in matches), key=lambda mid: (-reviews[mid][0], mid))
    return [(mid, *matches[mid], reviews[mid]) for mid in ids[:MAX_MATCHES]]


_last: dict = {}          # the last answer of from_history, by what the folder held then


def from_history(storage, *, limit: int = MAX_PUZZLES) -> list:
    """The puzzles of the player's filed matches that have a review (``storage``: a
    ``koikoi.storage.Storage``; its history folder holds both). The same folder listing
    (names, review sizes and times) gives the last answer again without reading a file:
    the Learn screen asks each time it is shown."""
    try:
        folder = Path(storage.history_dir)
    except (AttributeError, TypeError, OSError):
        return []
    listing = reviewed_matches(folder)
    key = (str(folder), limit, tuple((mid, str(path), stamp) for mid, path, _d, stamp in listing))
    if _last.get("key") == key:
        return list(_last["puzzles"])
    found = []
    for mid, path, played_at, _stamp in listing:
        try:
            session = storage.load_finished(path)
            events = tuple(session.state.events)
            review = load_as_made(folder, mid, events)
        except (ValueError, OSError) as exc:
            log.warning("match %s gives no puzzles: %s", mid, exc)
            continue
        if review is not None:
            found.append((events, review, played_at))
    out = puzzles_from(found, limit=limit)
    _last.clear()
    _last.update(key=key, puzzles=tuple(out))
    return out


__all__ = ["Puzzle", "Answer", "puzzle_of", "puzzles_from", "from_history", "reviewed_matches",
           "MAX_PUZZLES"]
